"""The seeds' own algorithms, run and traced: what a learner reading the four source documents
wants to watch, beside what the fast method costs.

Each game's ``seed`` module runs its seed's method (the Rock's minimax swept until nothing
changes, the Portal's search over wall bitmasks, the coins' O(n^2) table, No's frontier
search with a list lookup per cell) and records its steps with a :class:`Tracer`; the game's
``analyze`` (``method="seed"``) checks the answer equals the fast method's and attaches the
:class:`SeedRun` to its result: ``explain()`` prints the cost line (and the steps with
``trace``), ``to_json()`` carries them for the web page's stepper.

>>> t = Tracer(True, cap=1)
>>> t.add("sweep 1", "2 cells changed", cells=((0, 0), (0, 1)), values=(3, 4))
>>> t.add("sweep 2", "nothing changed")
>>> run = SeedRun("a sweep", "O(n)", work=6, unit="cell updates", seconds=0.5,
...               fast_seconds=0.001, steps=t.steps, dropped=t.dropped)
>>> run.cost_line()
"the seed's method: 0.5 s, 6 cell updates; the fast method: 1 ms (500x faster)"
>>> run.lines()[1]
'  sweep 1: 2 cells changed'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .errors import InputError

#: Steps a trace keeps; later steps are counted, not kept (a learner reads the first ones,
#: and the page steps through them).
MAX_STEPS = 400

T = TypeVar("T")


@dataclass(frozen=True)
class Step:
    """One step of a seed's method: a title ("sweep 3"), what it did in a line, and the
    cells it touched with their new values (for the page's board; (row, col) pairs, or
    (i, j) table cells for the coins)."""

    title: str
    text: str
    cells: tuple[tuple[int, int], ...] = ()
    values: tuple[Any, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "text": self.text,
                "cells": [list(c) for c in self.cells], "values": list(self.values)}


class Tracer:
    """Collects a run's steps when ``on``, keeping the first ``cap`` and counting the rest.
    Callers test :attr:`on` before formatting a step's text, so an untraced run pays
    nothing for it."""

    def __init__(self, on: bool, cap: int = MAX_STEPS) -> None:
        self.on = on
        self.cap = cap
        self.steps: list[Step] = []
        self.dropped = 0

    def add(self, title: str, text: str, cells: Sequence[tuple[int, int]] = (),
            values: Sequence[Any] = ()) -> None:
        if not self.on:
            return
        if len(self.steps) >= self.cap:
            self.dropped += 1
            return
        self.steps.append(Step(title, text, tuple((int(r), int(c)) for r, c in cells),
                               tuple(values)))


@dataclass(frozen=True)
class SeedRun:
    """A seed's method as run: its name and complexity, the work it did (counted in
    ``unit``), its time and the fast method's time on the same input, and its steps when
    traced (None when not)."""

    name: str
    complexity: str
    work: int
    unit: str
    seconds: float
    fast_seconds: float
    steps: Sequence[Step] | None = None
    dropped: int = 0
    shape: tuple[int, int] | None = None  # the board or table the steps' cells lie on

    def cost_line(self) -> str:
        """The two methods' costs in one line."""
        fast = max(self.fast_seconds, 1e-6)
        ratio = self.seconds / fast
        how = (f"{_times(ratio)} faster" if ratio >= 1.5 else
               "about as fast" if ratio > 1 / 1.5 else f"{_times(1 / ratio)} slower")
        return (f"the seed's method: {_secs(self.seconds)}, {self.work:,} {self.unit}; "
                f"the fast method: {_secs(self.fast_seconds)} ({how})")

    def lines(self) -> list[str]:
        """The explanation's section: the method, its cost line, and the steps if traced."""
        out = [f"The seed's method ({self.name}, {self.complexity}) gives the same answer.",
               f"  {self.cost_line()}"]
        if self.steps is not None:
            out[1:1] = [f"  {s.title}: {s.text}" for s in self.steps]
            if self.dropped:
                out.insert(len(self.steps) + 1,
                           f"  ... and {self.dropped:,} more steps (the trace keeps the "
                           f"first {len(self.steps):,})")
        return out

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "complexity": self.complexity, "work": self.work,
                "unit": self.unit, "seconds": self.seconds, "fast_seconds": self.fast_seconds,
                "cost": self.cost_line(),
                "steps": None if self.steps is None else [s.to_json() for s in self.steps],
                "more_steps": self.dropped,
                "shape": None if self.shape is None else list(self.shape)}


def _secs(s: float) -> str:
    return f"{s:.3g} s" if s >= 0.1 else f"{s * 1000:.3g} ms"


def _times(r: float) -> str:
    return f"{r:,.0f}x" if r >= 10 else f"{r:.1f}x"


def warm_seconds(fn: Callable[[], Any]) -> float:
    """The seconds ``fn()`` takes once its kernels are compiled and loaded, so the
    comparison is of the algorithms, not of numba's first-call cost. Every caller has just
    run ``fn`` for its answer (the kernels are warm), so one more call is the timing."""
    return timed(fn)[1]


def timed(fn: Callable[[], T]) -> tuple[T, float]:
    """``fn()`` and the seconds it took."""
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def disagree(game: str, seed: Any, fast: Any) -> AssertionError:
    """The error for a seed method whose answer differs from the fast method's: a bug in
    one of them, never a user's mistake (the tests check they agree)."""
    return AssertionError(f"{game}: the seed's method answered {seed!r} and the fast method "
                          f"{fast!r}; please report this input")


def seed_requested(method: str, trace: bool, default: str) -> bool:
    """Whether a game's options ask for the seed's method: ``method="seed"``, or ``trace``
    with the default method (tracing means watching the seed's method). ``trace`` with
    another method forced is an :class:`~perfectplay.errors.InputError`.

    >>> seed_requested("auto", True, "auto"), seed_requested("auto", False, "auto")
    (True, False)
    """
    if method == "seed":
        return True
    if trace and method != default:
        raise InputError(f"trace shows the seed's method's steps: use method seed, not "
                         f"{method}")
    return trace
