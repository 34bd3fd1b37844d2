"""Every size of a board on one set of compiled rules: a shape number in a code's top bits.

The engine compiles its solve and search kernels for each set of rule functions (5-15 s of
CPU), so a game whose rules close over the board's size pays that again for every size a
session touches. A board small enough to leave a code's top bits free can carry its shape
there instead: the rules are then module-level functions (``njit(cache=True)``, kept in
numba's disk cache) that read the board's tables from arrays indexed by the shape number,
and one set of kernels serves every such board. A board that needs every bit gets rules of
its own, closures over its tables, built once a process.

:class:`Shapes` numbers the small boards (never the number whose bits would make the code
-2**63, which the engine forbids), stacks their tables into the arrays the shared rules
read (:meth:`Shapes.stack`), gives a board's shape bits (:meth:`Shapes.bits`) and its
kernels, the shared set or its own, made once and remembered (:meth:`Shapes.kernels`).
:func:`bind` makes one of those own rules: a rule over a board's tables with the tables
fixed. Domineering and Dots and Boxes are built this way.

>>> shapes = Shapes([(1, 1), (1, 2), (2, 1)], at=56)
>>> shapes.bits((1, 2)) == 1 << 56, shapes.bits((3, 3)), (3, 3) in shapes
(True, 0, False)
>>> shapes.stack(lambda size: [size[0], size[1]]).tolist()
[[1, 1], [1, 2], [2, 1]]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, Generic, TypeVar

import numpy as np
from numba import njit

#: A board's size (for example ``(rows, cols)``).
S = TypeVar("S", bound=Hashable)
#: A board's kernels (a NamedTuple of dispatchers).
K = TypeVar("K")


class Shapes(Generic[S]):
    """The boards whose shape number sits in bits ``at`` to 63 of a code, numbered in the
    order ``sizes`` gives them (the number whose bits would be -2**63 is skipped).

    :param sizes: the small boards' sizes, each once.
    :param at: the lowest bit of the shape number (the bits below it hold the position).
    :raises ValueError: ``at`` outside 1-63, a size given twice, or more boards than the
        bits above ``at`` can number.
    """

    def __init__(self, sizes: Iterable[S], at: int) -> None:
        if not 1 <= at <= 63:
            raise ValueError(f"a shape number needs its lowest bit in 1-63, not {at}")
        self.at = at
        self.ids: dict[S, int] = {}
        forbidden = 1 << (63 - at)  # its bits are -2**63
        for size in sizes:
            if size in self.ids:
                raise ValueError(f"the board {size!r} is given twice")
            number = len(self.ids) + (len(self.ids) >= forbidden)
            if number >= 1 << (64 - at):
                raise ValueError(f"more boards than {64 - at} bits can number")
            self.ids[size] = number
        self._own: dict[S, Any] = {}

    def __contains__(self, size: object) -> bool:
        return size in self.ids

    def bits(self, size: S) -> int:
        """The shape bits of a board's codes (an int64), 0 for a board that has none."""
        number = self.ids.get(size)
        if number is None:
            return 0
        x = number << self.at
        return x - (1 << 64) if x >> 63 else x

    def stack(self, table: Callable[[S], Any], dtype: Any = np.int64) -> np.ndarray:
        """``table(size)`` of every board as one array, row ``k`` the board numbered ``k``
        (zeros in the row of a skipped number): what a shared rule reads by shape number."""
        rows = {k: np.asarray(table(size), dtype) for size, k in self.ids.items()}
        first = next(iter(rows.values()))
        out = np.zeros((max(rows) + 1, *first.shape), dtype)
        for k, row in rows.items():
            out[k] = row
        return out

    def kernels(self, size: S, shared: K, own: Callable[[S], K]) -> K:
        """``shared`` for a board with a shape number, else ``own(size)``, made once a
        process for each size (the same dispatchers each time, so nothing compiles twice)."""
        if size in self.ids:
            return shared
        if size not in self._own:
            self._own[size] = own(size)
        return self._own[size]


def bind(rule: Callable[..., Any], *tables: Any) -> Callable[..., Any]:
    """``rule`` (a compiled function whose last arguments are a board's tables) with those
    tables fixed: a compiled ``f(code)`` or ``f(code, x)`` calling ``rule(code, [x,]
    *tables)``. Numbers, tuples and small arrays are fine as tables; two binds of the same
    rule and tables share their compiled code (:func:`~.jitmemo.canonical`).

    :raises ValueError: ``rule`` leaves other than one or two arguments unbound.

    >>> @njit
    ... def shifted(code, k):
    ...     return code + k
    >>> bind(shifted, 10)(5)
    15
    """
    py = getattr(rule, "py_func", rule)
    left = py.__code__.co_argcount - len(tables)
    if left == 1:
        @njit
        def one(code):
            return rule(code, *tables)
        return one
    if left == 2:
        @njit
        def two(code, x):
            return rule(code, x, *tables)
        return two
    raise ValueError(f"{py.__name__} would keep {left} arguments (1 or 2 wanted)")
