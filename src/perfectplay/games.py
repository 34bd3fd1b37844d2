"""The famous games, built by name: ``connect4(width=5, height=4)``, ``kalah(houses=4,
seeds=3)``, ``tictactoe()``, ... one function per game of the catalog
(:func:`perfectplay.registry.catalog`), each taking the game's parameters by keyword (or in
order) and checking them before anything is built.

    >>> from perfectplay.games import nim
    >>> from perfectplay import solve
    >>> solve(nim(heaps=(1, 2, 3))).value().value
    'lose'

The functions are made from the registry on first use (PEP 562), so importing this module
imports no game; :func:`available` lists them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .registry import catalog_names, get_catalog


def available() -> list[str]:
    """The catalog games' names, in the order ``perfectplay games`` lists them."""
    return catalog_names()


def __getattr__(name: str) -> Callable[..., Any]:
    if name.startswith("_") or name not in catalog_names():
        raise AttributeError(f"module 'perfectplay.games' has no game {name!r}; the games: "
                             f"{', '.join(catalog_names())}")
    entry = get_catalog(name)

    def build(*args: Any, **kwargs: Any) -> Any:
        return entry.build(*args, **kwargs)

    build.__name__ = build.__qualname__ = name
    build.__doc__ = f"{entry.title}: {entry.rules}\n\nParameters: " + ", ".join(
        p.describe() for p in entry.params)
    return build


def __dir__() -> list[str]:
    return sorted([*globals(), *catalog_names()])
