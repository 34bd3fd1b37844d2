"""The judge registry: problem id -> read the judge's input, solve, write its exact output.

Each game package keeps its own formats (its spec's ``judges``); this module only gathers them
from :mod:`perfectplay.registry`.

>>> print(run("cses1097", "4\\n4 5 1 3\\n").output(), end="")
8
"""

from __future__ import annotations

from collections.abc import Callable

from . import registry
from .errors import InputError
from .judge_io import JudgeResult


def problems() -> dict[str, tuple[str, Callable[..., JudgeResult]]]:
    """Every problem id with its one-line title and its judge function, in a stable order
    (the games' order in the registry, each game's judges in its own order)."""
    return registry.judges()


def run(problem: str, text: str, lenient: bool = False) -> JudgeResult:
    """Answer ``text`` (the judge's input) as the judge ``problem`` expects.

    Strict by default (see :mod:`perfectplay.judge_io`): the judge's format and ranges
    exactly, data after the last case an error; ``lenient`` lifts the judges' ranges and
    accepts a missing terminating ``0``.
    """
    table = problems()
    if problem not in table:
        raise InputError(f"unknown problem {problem!r}; known: {', '.join(table)}")
    return table[problem][1](text, lenient)
