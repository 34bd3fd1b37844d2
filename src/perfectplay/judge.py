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


def problems() -> dict[str, tuple[str, Callable[[str], JudgeResult]]]:
    """Every problem id with its one-line title and its judge function, in a stable order."""
    table: dict[str, tuple[str, Callable[[str], JudgeResult]]] = {}
    for name in _MODULES:
        try:
            module = import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue  # that game is not built yet
            raise
        table.update(getattr(module, "JUDGES", {}))
    return table


def run(problem: str, text: str) -> JudgeResult:
    """Answer ``text`` (the judge's input) as the judge ``problem`` expects."""
    table = problems()
    if problem not in table:
        raise InputError(f"unknown problem {problem!r}; known: {', '.join(table)}")
    return table[problem][1](text)
