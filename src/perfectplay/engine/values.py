"""What a solved game's answers are made of: the kinds of values (:class:`Mode`), a move's
value (:class:`MoveValue`), the position counts (:class:`Counts`), the error for a position
not held (:class:`UnknownPosition`), and words for a value (:func:`describe`).

Shared by every solved form (:mod:`.solved.solution`, :mod:`.tiers`, :mod:`.solved.saved`,
the stores), below all of them: this module imports none of them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from ..errors import GameError
from ..numbaboot import numpy_on_use
from .protocol import Move, Value, Worth

if TYPE_CHECKING:
    import numpy as np
else:
    np = numpy_on_use  # numpy loads where it is used: not in a small game's solve


class Mode(StrEnum):
    """What a Solution's values are: win/lose/tie/draw, margins (scored games), or margins
    of a cyclic cost game."""

    WINLOSE = "win/lose"
    MARGIN = "margin"
    COST = "cost"


WINLOSE, MARGIN, COST = Mode.WINLOSE, Mode.MARGIN, Mode.COST


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One move from a position, valued for the player who makes it.

    ``value`` is what the mover gets by playing it (a :class:`Value`, or a margin in scored
    games); ``remoteness`` the number of moves, this one included, to the end of the game
    under perfect play afterwards (None when play goes on forever).
    """

    move: Move
    value: Worth
    remoteness: int | None

    def describe(self) -> str:
        """GamesCrafters-style words: 'win in 3', 'lose in 5', 'draw', '+4 in 6'."""
        return describe(self.value, self.remoteness)


def describe(value: Worth, remoteness: int | None) -> str:
    """Words for a value and remoteness.

    >>> describe(Value.WIN, 3), describe(Value.DRAW, None), describe(-2, 4), describe(5, None)
    ('win in 3', 'draw', '-2 in 4', '+5')
    >>> describe(0, 4)  # a margin of nothing: the game ends level
    '0 (a tie) in 4'

    :param value: a :class:`~perfectplay.engine.Value`, or a scored game's margin.
    :param remoteness: moves to the end under perfect play (None: never ends, or not
        known).
    :returns: the words, as every front end shows them.
    """
    if isinstance(value, Value):
        return value.value if remoteness is None else f"{value.value} in {remoteness}"
    if isinstance(value, float) and math.isinf(value):
        return "never ends (+inf)" if value > 0 else "never ends (-inf)"
    words = f"+{value}" if value > 0 else f"{value} (a tie)" if value == 0 else f"{value}"
    return words if remoteness is None else f"{words} in {remoteness}"


@dataclass(frozen=True, slots=True)
class Counts:
    """How many positions have each value and each remoteness."""

    by_value: dict[Worth, int]
    by_remoteness: dict[int | None, int]
    total: int

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "by_value": {_json_key(k): v for k, v in self.by_value.items()},
            "by_remoteness": {("draw" if k is None else str(k)): v
                              for k, v in self.by_remoteness.items()},
        }


def _json_key(k: object) -> str:
    return k.value if isinstance(k, Value) else str(k)


class UnknownPosition(GameError, KeyError):
    """A position the solution does not hold (not reachable from the start, or not a
    position of this game). A KeyError too, so ``except KeyError`` works as for a dict."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def counts_of(chunks: Iterator[tuple[Any, Any]], mode: str, total: int) -> Counts:
    """:class:`Counts` of (values, remoteness) chunks: win/lose codes or margins."""
    by_value: Counter[Any] = Counter()
    by_rem: Counter[int | None] = Counter()
    for values, rems in chunks:
        _count_values(by_value, values, mode)
        _count_rems(by_rem, rems)
    if mode == WINLOSE:
        ordered: dict[Any, int] = {
            v: by_value[v] for v in (Value.WIN, Value.LOSE, Value.TIE, Value.DRAW)
            if by_value[v]}
    else:
        ordered = dict(sorted(by_value.items(), key=lambda kv: kv[0]))
    rem_keys = sorted(k for k in by_rem if k is not None)
    rem_order: dict[int | None, int] = {k: by_rem[k] for k in rem_keys}
    if by_rem[None]:
        rem_order[None] = by_rem[None]
    return Counts(by_value=ordered, by_remoteness=rem_order, total=total)


def _count_values(into: Counter[Any], values: Any, mode: str) -> None:
    if mode == WINLOSE:
        codes = np.bincount(np.asarray(values, dtype=np.int8).view(np.uint8), minlength=5)
        for c in range(1, 5):
            if codes[c]:
                into[Value.from_code(c)] += int(codes[c])
    elif isinstance(values, np.ndarray):
        keys, cnt = np.unique(values, return_counts=True)
        for k, c in zip(keys.tolist(), cnt.tolist(), strict=True):
            into[k] += c
    else:
        into.update(values)


def _count_rems(into: Counter[int | None], rems: Any) -> None:
    """Remoteness counts; negative (or None) remoteness means "never ends"."""
    if not isinstance(rems, np.ndarray):
        rems = np.asarray([-1 if r is None else r for r in rems], dtype=np.int64)
    if not rems.size:
        return
    bc = np.bincount(np.maximum(rems, -1) + 1)
    for r in np.flatnonzero(bc).tolist():
        into[None if r == 0 else r - 1] += int(bc[r])
