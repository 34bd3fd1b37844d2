"""The judge registry: problem id -> read the judge's input, solve, write its exact output.

Each game module keeps its own formats (a ``JUDGES`` table); this module only gathers them.

>>> print(run("cses1097", "4\\n4 5 1 3\\n").output(), end="")
8
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from .errors import InputError
from .judge_io import JudgeResult

_MODULES = ("perfectplay.coins", "perfectplay.rock", "perfectplay.portal",
            "perfectplay.nearest")


def problems() -> dict[str, tuple[str, Callable[..., JudgeResult]]]:
    """Every problem id with its one-line title and its judge function, in a stable order."""
    table: dict[str, tuple[str, Callable[..., JudgeResult]]] = {}
    for name in _MODULES:
        try:
            module = import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue  # that game is not built yet
            raise
        table.update(getattr(module, "JUDGES", {}))
    return table


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
