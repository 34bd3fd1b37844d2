"""A row of coins: the instance every coins function takes, read from text or checked.

>>> parse("7 9 2\\n6 4 3\\n")
[7, 9, 2, 6, 4, 3]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InputError, show
from ..textio import Reader, parse_int

LEFT, RIGHT = "L", "R"


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
