"""A row of coins: the instance every coins function takes, read from text or checked.

>>> parse("7 9 2\\n6 4 3\\n")
[7, 9, 2, 6, 4, 3]
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal

import numpy as np

from ..errors import InputError, show
from ..textio import Reader, parse_int

LEFT, RIGHT = "L", "R"


@dataclass(frozen=True)
class CoinsOptions:
    """What :func:`~perfectplay.coins.analyze` computes beyond the value and first move."""

    table: bool = field(default=False, metadata={
        "help": "Print the seed's P/m tables (n <= 60)."})
    line: bool = field(default=False, metadata={"help": "Print the optimal line of play."})
    compare: bool = field(default=False, metadata={
        "help": "Compare the perfect, greedy and odd/even strategies."})
    method: Literal["fast", "seed"] = field(default="fast", metadata={
        "help": "fast: the O(n) fusion rule; seed: also run the seed's O(n^2) table "
                "(at most 2000 coins), check it agrees and compare the costs."})
    trace: bool = field(default=False, metadata={
        "help": "Print the seed's table cells in fill order (implies --method seed)."})


def with_overrides(options: CoinsOptions, overrides: dict[str, Any]) -> CoinsOptions:
    """``options`` with fields replaced by keyword (``line=True``); an unknown name is an
    :class:`InputError`."""
    known = {f.name for f in fields(CoinsOptions)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise InputError(f"unknown option {unknown[0]!r}; the options: {', '.join(sorted(known))}")
    return replace(options, **overrides)


def parse(text: str) -> list[int]:
    """The coin values in ``text``: integers separated by spaces, tabs or line breaks (any
    length, see :mod:`perfectplay.textio`); an empty text is an error."""
    r = Reader(text)
    row = []
    while not r.at_end():
        row.append(parse_int(r.token(), "an integer coin value"))
    if not row:
        raise InputError("no coin values in the input")
    return row


def int_array(coins: np.ndarray) -> np.ndarray:
    """``coins`` itself when it is an array of integers, else an :class:`InputError`."""
    if coins.dtype.kind not in "iu":
        raise InputError(f"coins must be integers, got an array of {coins.dtype}")
    return coins


def int_values(coins: Any) -> list[int]:
    """``coins`` as a list of Python ints: any iterable of ints (numpy ints included), never
    a float, a bool or a string, which an ``int()`` would silently change."""
    if isinstance(coins, np.ndarray):
        return [int(x) for x in int_array(coins).tolist()]
    if isinstance(coins, str | bytes) or not hasattr(coins, "__iter__"):
        raise InputError(f"coins must be a sequence of integers, got {show(coins)}")
    values = []
    for x in coins:
        if isinstance(x, bool | np.bool_) or not isinstance(x, int | np.integer):
            raise InputError(f"coins must be integers, got {show(x)}")
        values.append(int(x))
    return values


@dataclass(frozen=True, slots=True)
class CoinsValue:
    """The solved row: the first player's guaranteed total, the second's, and the margin."""

    n: int
    total: int
    first: int
    second: int
    margin: int

    def to_json(self) -> dict[str, int]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Turn:
    """One move of a line of play: who, which end, the coin, and the running totals."""

    player: int  # 1 or 2
    side: str
    coin: int
    first_total: int
    second_total: int


@dataclass(frozen=True, slots=True)
class StrategyReport:
    """What each strategy guarantees the first player against a perfect opponent."""

    optimal: int
    greedy: int
    parity: int | None
    total: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
