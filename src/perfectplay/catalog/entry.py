"""The catalog's contract, and how a published result is reproduced.

A catalog game is an engine game (a :class:`perfectplay.engine.Game` or
:class:`~perfectplay.engine.CompiledGame`) built by a factory from keyword parameters,
described by a :class:`~perfectplay.registry.CatalogGame`: the registry's
:class:`~perfectplay.registry.GameEntry` (the contract of every game: name, rules, board
code, the page's budgets, what it offers) plus what a catalog game adds: its
:class:`~perfectplay.registry.Param` s (checked up front, so ``connect4(width=40)`` is a
clear error, not a numba overflow), the :class:`~perfectplay.registry.Published` results the
literature gives for it, and a plain Python ``twin`` of its rules that the tests hold the
fast game against. Those types live in :mod:`perfectplay.registry` beside the seed
problems' :class:`~perfectplay.registry.GameSpec` (every kind's contract in one module, the
list of games below them) and are imported here, where a game package takes them from. The
registry (:func:`perfectplay.registry.games`) is the one list of games; the command line
takes ``NAME`` or ``NAME(key=value, ...)`` wherever it takes ``FILE.py:Class``.

:func:`reproduce` is the one way a published result is checked: the tests call it for every
result cheap enough for the suite, ``benchmarks/catalog.py`` for all of them, timed.

>>> p = Param("heaps", (3, 4, 5), "the heap sizes", kind=tuple)
>>> p.check((1, 2))
(1, 2)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..engine import search, solve
from ..registry import (
    Budget,
    CatalogGame,
    LiveBudget,
    Method,
    Notation,
    Param,
    Pasted,
    Published,
    product_at_most,
)

__all__ = ["SUITE_SECONDS", "Budget", "CatalogGame", "Listing", "LiveBudget", "Method",
           "Notation", "Param", "Pasted", "Published", "Reproduced", "product_at_most",
           "reproduce"]

#: The suite reproduces the published results that take at most this long (the rest run in
#: ``benchmarks/catalog.py``).
SUITE_SECONDS = 10.0


@dataclass(frozen=True)
class Reproduced:
    """What :func:`reproduce` found for a published result, and how long it took."""

    published: Published
    value: str | int | None
    remoteness: int | None
    positions: int | None
    exact: bool
    seconds: float

    @property
    def agrees(self) -> bool:
        """Every figure the source gives was found, and equal."""
        p = self.published
        return self.exact and all(
            want is None or want == got for want, got in
            ((p.value, self.value), (p.remoteness, self.remoteness),
             (p.positions, self.positions)))


def _worth_name(value: Any) -> str | int | None:
    """A start's value as :class:`~perfectplay.registry.Published` writes it: a Value's
    name or an int margin."""
    if value is None:
        return None
    name = getattr(value, "value", None)
    if isinstance(name, str):
        return name
    return int(value)


def reproduce(entry: CatalogGame, published: Published, *, time_limit: float | None = None,
              workers: int | None = None, table_mb: float | None = None) -> Reproduced:
    """Compute what ``published`` claims, by its method; ``exact`` is False when a search
    stopped at ``time_limit`` first (``workers``, ``table_mb``: the search's, default
    :class:`~perfectplay.engine.Limits`'s). A search proves the remoteness only when the source
    gives one.

    Cost: a strong solve is linear in the positions reachable; a search, what the proof
    needs. Example: ``reproduce(get_catalog("tictactoe"), tictactoe.published[0]).agrees``.
    """
    game = entry.build(**published.args)
    start = time.perf_counter()
    if published.method == "search":
        # a value alone is far cheaper to prove than its remoteness (Domineering 8x7: one
        # null window, 1.5 million nodes, where its exact score took more than 600 s), so
        # the remoteness is searched only when it is claimed
        result = search(game, time_limit=time_limit, workers=workers, table_mb=table_mb,
                        remoteness=published.remoteness is not None,
                        value_only=published.remoteness is None)
        return Reproduced(published, _worth_name(result.value), result.remoteness, None,
                          result.exact, time.perf_counter() - start)
    solution = solve(game)
    positions = len(solution) if published.positions is not None else None
    return Reproduced(published, _worth_name(solution.value()), solution.remoteness(),
                      positions, True, time.perf_counter() - start)


def _mark(p: Published) -> str:
    """What ``perfectplay games`` adds to a result: nothing when the suite or the
    benchmark reproduces it and ``play`` answers it live, ``(a goal)`` beyond the
    benchmark, the recorded time when it is reproduced but too slow to answer live."""
    if p.goal:
        return " (a goal)"
    if not p.live:
        return f" (reproduced here by {p.method}, {p.seconds:,.1f} s; too slow to answer live)"
    return ""


@dataclass(frozen=True)
class Listing:
    """One game as ``perfectplay games`` shows it: its parameters, its published results
    (each pointing to its source by number) and the sources, each once."""

    name: str
    title: str
    rules: str
    params: list[str] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, entry: CatalogGame) -> Listing:
        sources: list[str] = []
        results = []
        for p in entry.published:
            if p.source not in sources:
                sources.append(p.source)
            results.append(f"{entry.call(entry.arguments((), p.args))}: {p.claim()} "
                           f"[{sources.index(p.source) + 1}]" + _mark(p))
        return cls(entry.name, entry.title, entry.rules,
                   [p.describe() for p in entry.params], results,
                   [f"[{k}] {s}" for k, s in enumerate(sources, 1)])
