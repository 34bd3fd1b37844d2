"""Notebook views: every result, solution, store and search result shows itself in Jupyter.

Jupyter calls an object's ``_repr_html_`` when it is the last value of a cell. Here that is
one small card: a title, a few facts (value, remoteness, sizes), a table of moves where there
are moves, the game's text drawing and the explanation, all HTML-escaped (a drawing is
text, and may hold ``<``). Nothing is computed that the object does not already answer.

>>> html = card("Nim", [("value", "win in 3")], pre="a<b")
>>> html.startswith('<div class="perfectplay"><strong>Nim</strong>'), "a&lt;b" in html
(True, True)
"""

from __future__ import annotations

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
            f"<tr><th{_CELL}>{escape(k)}</th><td{_CELL}>{escape(v)}</td></tr>"
            for k, v in facts) + "</table>")
    if table is not None and table[1]:
        heads, rows = table
        parts.append("<table><tr>" + "".join(f"<th{_CELL}>{escape(h)}</th>" for h in heads)
                     + "</tr>" + "".join("<tr>" + "".join(f"<td{_CELL}>{escape(c)}</td>"
                                                            for c in row) + "</tr>"
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
        data = obj.to_json()
        facts = [(k, str(v)) for k, v in data.items()
                 if isinstance(v, str | int | float | bool) and k != "explanation"
                 and len(str(v)) <= 80][:10]
        try:
            picture = obj.draw()
        except Exception:  # noqa: BLE001 - a view never fails: no picture then
            picture = ""
        return card(type(self).__name__, facts, pre=picture, text=obj.explain())
