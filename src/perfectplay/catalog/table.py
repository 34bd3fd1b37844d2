"""The catalog as Markdown tables, from what each entry records: one row a game with its
rules, parameters and sources (the docs' catalog page), every published result with how it
is reproduced here and what that cost (``perfectplay games --markdown``, the docs' catalog
page), and one row a game of results (the README's summary). The docs site writes its
tables from these when it is built (``docs/ext/games.py``), so no list of games is kept
by hand.

The times are the ones each :class:`~perfectplay.registry.Published` records, measured on
this project's 2-core machine (``python benchmarks/catalog.py`` measures them again);
nothing here runs a solve, so the tables cost microseconds.

>>> from perfectplay.registry import get_catalog
>>> print(summary_table([get_catalog("tictactoe")]).splitlines()[2])
| `tictactoe` | Tic-tac-toe | 2 | 2, all within 1 s | none |
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .entry import SUITE_SECONDS, CatalogGame, Published

#: The goals the summary names for a game (the rest are counted).
SHOWN_GOALS = 4


def seconds_words(seconds: float) -> str:
    """A recorded time as a person reads it: ``under 1 s``, ``14 s``, ``3.1 min``, ``2.0 h``.

    >>> [seconds_words(s) for s in (0.2, 14.6, 186.0, 7200.0)]
    ['under 1 s', '15 s', '3.1 min', '2.0 h']
    """
    if seconds < 1:
        return "under 1 s"
    if seconds < 120:
        return f"{seconds:,.0f} s"
    if seconds < 7200 - 1:
        return f"{seconds / 60:,.1f} min"
    return f"{seconds / 3600:,.1f} h"


def _how(p: Published) -> str:
    """How the catalog reproduces a result, whether the suite does, and whether ``play``
    answers its start live."""
    method = "strong solve" if p.method == "solve" else "proof search"
    if p.goal:
        return f"{method}, a goal"
    return method + (" (in the suite)" if p.seconds <= SUITE_SECONDS else "") + (
        "" if p.live else "; not answered live")


def _status(p: Published) -> str:
    """What happened here: the recorded time (with the record's note, where and how it was
    measured, for a result too slow to answer live), or how far a goal got.

    >>> from perfectplay.registry import Published
    >>> _status(Published({}, "S", seconds=26.4, live=False, note="1 GB table"))
    'reproduced, 26 s (1 GB table)'
    """
    if p.goal:
        return p.note or "not reached here"
    return f"reproduced, {seconds_words(p.seconds)}" + (
        f" ({p.note})" if not p.live and p.note else "")


def _source_tag(p: Published) -> str:
    """The source's authors and year: the text up to its first year when that is a short
    list of names (``Breuker, Uiterwijk & van den Herik 2000``), else the part before its
    first comma or quote.

    >>> from perfectplay.registry import Published
    >>> [_source_tag(Published({}, s)) for s in ("Lachmann, Moore & Rapaport 2002, 'Who'",
    ...                                         "David Wilson, 'Dots', 2012")]
    ['Lachmann, Moore & Rapaport 2002', 'David Wilson']
    """
    names = re.match(r"([^'(]*?\b(?:1[5-9]|20)\d\d)\b", p.source)
    if names is not None and len(names.group(1)) <= 50:
        return names.group(1)
    return p.source.split(",")[0].split("'")[0].strip().rstrip(".")


def _cell(text: str) -> str:
    return text.replace("|", "/").replace("\n", " ")


def _sources(entry: CatalogGame) -> str:
    """The sources of a game's results, each once, by authors and year."""
    tags: list[str] = []
    for p in entry.published:
        if _source_tag(p) not in tags:
            tags.append(_source_tag(p))
    return "; ".join(tags) or "none"


def games_table(entries: Sequence[CatalogGame], folder: str = "games/catalog") -> str:
    """One row a game: its name (a link to its page in ``folder``), its rules, its
    parameters with their defaults and ranges, and the sources of its results. O(results).

    >>> from perfectplay.registry import get_catalog
    >>> print(games_table([get_catalog("nim")]).splitlines()[2])  # doctest: +ELLIPSIS
    | [`nim`](games/catalog/nim.md) | Take any number ... | `heaps=(3, 4, 5) (0-64)` | Bouton 1901 |
    """
    lines = ["| game | rules, in a sentence | parameters (default, range) | sources of its "
             "results |", "|---|---|---|---|"]
    for entry in entries:
        params = ", ".join(f"`{p.describe()}`" for p in entry.params) or "none"
        lines.append("| " + " | ".join(_cell(c) for c in (
            f"[`{entry.name}`]({folder}/{entry.name}.md)", entry.rules, params,
            _sources(entry))) + " |")
    return "\n".join(lines)


def results_table(entries: Sequence[CatalogGame]) -> str:
    """Every published result of ``entries``, a row each: the instance as the command line
    writes it, the claim, its source, how it is reproduced, and the recorded time or how
    far the goal got. O(results)."""
    lines = ["| instance | published | source | how | here |", "|---|---|---|---|---|"]
    for entry in entries:
        for p in entry.published:
            call = entry.call(p.args)
            lines.append("| " + " | ".join(_cell(c) for c in (
                f"`{call}`", p.claim(), _source_tag(p), _how(p), _status(p))) + " |")
    return "\n".join(lines)


def summary_table(entries: Sequence[CatalogGame]) -> str:
    """One row a game: how many results it names, how many are reproduced here by the
    benchmark and the longest of those, and its goals (the instances beyond the benchmark's
    limits; :func:`results_table` says how far each got). O(results)."""
    lines = ["| game | title | results | reproduced by the benchmark | goals |",
             "|---|---|---|---|---|"]
    for entry in entries:
        done = [p for p in entry.published if not p.goal]
        goals = [p for p in entry.published if p.goal]
        longest = max((p.seconds for p in done), default=0.0)
        within = "1 s" if longest < 1 else seconds_words(longest)
        reproduced = f"{len(done)}, all within {within}" if done else "none"
        names = [f"`{entry.call(p.args)}`" for p in goals]
        missing = ", ".join(names[:SHOWN_GOALS]) + (
            f" and {len(names) - SHOWN_GOALS} more" if len(names) > SHOWN_GOALS else "")
        lines.append(f"| `{entry.name}` | {entry.title} | {len(entry.published)} | "
                     f"{reproduced} | {missing or 'none'} |")
    return "\n".join(lines)
