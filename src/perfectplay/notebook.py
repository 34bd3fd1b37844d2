"""Notebook views: every result, solution, store and search result shows itself in Jupyter.

Jupyter calls an object's ``_repr_html_`` when it is the last value of a cell. Here that is
one small card: a title, a few facts (value, remoteness, sizes), a table of moves where there
are moves, the game's text drawing and the explanation, all HTML-escaped (a drawing is
text, and may hold ``<``). Nothing is computed that the object does not already answer.

Every word is the user's: a move by its name, never its internal code; a word without the
quotes of its repr; a number with thousands separators; yes or no for a flag.

>>> html = card("Nim", [("value", "win in 3")], pre="a<b")
>>> html.startswith('<div class="perfectplay"><strong>Nim</strong>'), "a&lt;b" in html
(True, True)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import Enum
from html import escape
from typing import Any

_CELL = ' style="text-align:left"'


def card(title: str, facts: list[tuple[str, str]], table: tuple[list[str], list[list[str]]]
         | None = None, pre: str = "", text: str = "") -> str:
    """One HTML card: ``title``, ``facts`` as a two-column table, an optional ``table``
    (headers, rows), a ``pre`` block (a drawing) and a ``text`` block (an explanation)."""
    parts = [f'<div class="perfectplay"><strong>{escape(title)}</strong>']
    if facts:
        parts.append("<table>" + "".join(
            f"<tr><th{_CELL}>{escape(k)}</th><td{_CELL}>{escape(words(v))}</td></tr>"
            for k, v in facts) + "</table>")
    if table is not None and table[1]:
        heads, rows = table
        parts.append("<table><tr>" + "".join(f"<th{_CELL}>{escape(h)}</th>" for h in heads)
                     + "</tr>" + "".join("<tr>" + "".join(
                         f"<td{_CELL}>{escape(words(c))}</td>" for c in row) + "</tr>"
                                         for row in rows) + "</table>")
    if pre:
        parts.append(f"<pre>{escape(pre)}</pre>")
    if text:
        parts.append(f'<pre style="white-space:pre-wrap">{escape(text)}</pre>')
    parts.append("</div>")
    return "".join(parts)


class HTMLView:
    """Mixin for results with ``explain()``, ``draw()`` and ``to_json()``: the drawing and
    the explanation as a notebook card, with the JSON's short scalar fields as facts."""

    def _repr_html_(self) -> str:
        obj: Any = self
        return card(type(self).__name__, facts_of(obj.to_json()), pre=_picture(obj),
                    text=obj.explain())


def _picture(obj: object) -> str:
    try:
        return str(getattr(obj, "draw")())  # noqa: B009 - any result with a draw()
    except Exception:  # noqa: BLE001 - a view never fails: no picture then
        return ""


#: A Python repr of a plain word or name ('L', 'b2'): shown without its quotes.
_QUOTED = re.compile(r"""^(['"])([^'"\\]*)\1$""")
_INTEGER = re.compile(r"^[+-]?\d+$")


def words(value: object) -> str:
    """A value as a person reads it: an integer with thousands separators (also one given
    as digits), a float to three significant digits, yes or no for a bool, an enum by its
    value, a quoted word (a string's repr, as a game without ``move_name`` names a move)
    without its quotes, anything else as ``str`` gives it.

    >>> words(139837), words("139837"), words(True), words("'L'"), words(0.51023), words("+3")
    ('139,837', '139,837', 'yes', 'L', '0.51', '+3')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Enum):
        return words(value.value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 100 else f"{value:,.0f}"
    text = str(value)
    quoted = _QUOTED.match(text)
    if quoted:
        return quoted.group(2)
    if _INTEGER.match(text):  # "+3", a margin, keeps its sign
        return ("+" if text.startswith("+") else "") + f"{int(text):,}"
    return text


def facts_of(data: Mapping[str, object], most: int = 10) -> list[tuple[str, str]]:
    """A result's JSON as a card's facts, in the user's words: short scalar fields only
    (a drawing and the explanation have their own blocks), ``snake_case`` keys as words,
    and a field that has a name beside it (``best_move`` and ``best_move_name``) shown by
    that name, its internal code left out; a position's code is left out where the board
    is drawn.

    >>> facts_of({"best_move": 3, "best_move_name": "d", "nodes_per_second": 139837})
    [('best move', 'd'), ('nodes per second', '139,837')]
    """
    facts = []
    for key, value in data.items():
        if key == "explanation" or value is None or not isinstance(value, str | int | float):
            continue
        if key.endswith("_name") and key[: -len("_name")] in data:
            continue  # shown in its code's place
        if key == "position" and "board" in data:
            continue  # a code; the board is drawn
        name = data.get(f"{key}_name")
        shown = value if name is None else name
        text = words(shown)
        if "\n" in text or len(text) > 80:
            continue
        facts.append((key.replace("_", " "), text))
    return facts[:most]
