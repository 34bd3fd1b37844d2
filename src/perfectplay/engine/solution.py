"""The result of a strong solve: value and remoteness of every reachable position."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import GameError
from .graph import GameGraph
from .protocol import Value
from .scored import cost_key, scored_key

WINLOSE, MARGIN, COST = "win/lose", "margin", "cost"
_RANK = {Value.WIN: 3, Value.TIE: 2, Value.DRAW: 1, Value.LOSE: 0}


def winlose_key(value: Value, rem: int | None) -> tuple[int, float]:
    """Ordering of moves in a win/lose game, best last: win > tie > draw > lose; a win or a
    tie as quick as possible, a loss as slow as possible."""
    if value is Value.WIN or value is Value.TIE:
        return (_RANK[value], -(rem or 0))
    return (_RANK[value], rem or 0)


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One move from a position, valued for the player who makes it.

    ``value`` is what the mover gets by playing it (a :class:`Value`, or a margin in scored
    games); ``remoteness`` the number of moves, this one included, to the end of the game
    under perfect play afterwards (None when play goes on forever).
    """

    move: Any
    value: Any
    remoteness: int | None

    def describe(self) -> str:
        """GamesCrafters-style words: 'win in 3', 'lose in 5', 'draw', '+4 in 6'."""
        return describe(self.value, self.remoteness)


def describe(value: Any, remoteness: int | None) -> str:
    """Words for a value and remoteness.

    >>> describe(Value.WIN, 3), describe(Value.DRAW, None), describe(-2, 4)
    ('win in 3', 'draw', '-2 in 4')
    """
    if isinstance(value, Value):
        return value.value if remoteness is None else f"{value.value} in {remoteness}"
    if isinstance(value, float) and math.isinf(value):
        return "never ends (+inf)" if value > 0 else "never ends (-inf)"
    sign = "+" if value > 0 else ""
    return f"{sign}{value} in {remoteness}"


@dataclass(frozen=True, slots=True)
class Counts:
    """How many positions have each value and each remoteness."""

    by_value: dict[Any, int]
    by_remoteness: dict[int | None, int]
    total: int

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "by_value": {_json_key(k): v for k, v in self.by_value.items()},
            "by_remoteness": {("draw" if k is None else str(k)): v
                              for k, v in self.by_remoteness.items()},
        }


def _json_key(k: Any) -> str:
    return k.value if isinstance(k, Value) else str(k)


class Solution:
    """Value, remoteness and best moves of every position reachable from the start.

    Built by :func:`perfectplay.engine.solve`; look positions up with :meth:`value`,
    :meth:`remoteness`, :meth:`best_move` and :meth:`move_values`.
    """

    def __init__(self, game: Any, graph: GameGraph, mode: str, values: Any,
                 rems: Any, player: np.ndarray | None = None, payer: int | None = None,
                 cyclic: bool | None = None) -> None:
        self.game = game
        self.graph = graph
        self.mode = mode
        self._values = values  # int8 codes (win/lose) or a list of margins
        self._rems = rems
        self._player = player
        self.payer = payer
        self._cyclic = cyclic

    @property
    def cyclic(self) -> bool:
        """True when some position can recur (computed on first use, O(positions + moves))."""
        if self._cyclic is None:
            from .kernels import topological_order

            rev_off, rev_src, _ = self.graph.reverse()
            _, k = topological_order(self.graph.offsets, rev_off, rev_src)
            self._cyclic = bool(k < self.graph.size)
        return self._cyclic

    # -- lookup ----------------------------------------------------------------------------
    def __len__(self) -> int:
        return self.graph.size

    def __contains__(self, pos: Any) -> bool:
        return pos in self.graph.index

    @property
    def start(self) -> Any:
        return self.graph.positions[0]

    @property
    def scored(self) -> bool:
        return self.mode != WINLOSE

    def _id(self, pos: Any) -> int:
        try:
            return self.graph.index[pos]
        except KeyError:
            raise GameError(f"position {pos!r} is not reachable from the start") from None
        except TypeError:
            raise GameError(f"position {pos!r} is not hashable") from None

    def _value_of(self, i: int) -> Any:
        if self.mode == WINLOSE:
            return Value.from_code(self._values[i])
        return self._values[i]

    def _rem_of(self, i: int) -> int | None:
        r = self._rems[i]
        if r is None or r < 0:
            return None
        return int(r)

    def value(self, pos: Any | None = None) -> Any:
        """The value for the player to move at ``pos`` (default: the start)."""
        return self._value_of(0 if pos is None else self._id(pos))

    def remoteness(self, pos: Any | None = None) -> int | None:
        """Moves to the end under perfect play (the winner hurries, the loser delays); None
        when perfect play never ends (a draw, or an endless cost game)."""
        return self._rem_of(0 if pos is None else self._id(pos))

    def is_terminal(self, pos: Any) -> bool:
        i = self._id(pos)
        return self.graph.offsets[i] == self.graph.offsets[i + 1]

    def move_values(self, pos: Any | None = None) -> list[MoveValue]:
        """Every move from ``pos`` with the value and remoteness it gives the mover, best
        first."""
        i = 0 if pos is None else self._id(pos)
        g = self.graph
        out = []
        for k in range(int(g.offsets[i]), int(g.offsets[i + 1])):
            c = int(g.children[k])
            out.append(MoveValue(g.moves[k], *self._edge_value(i, c, k)))
        out.sort(key=lambda mv: self._key(i, mv.value, mv.remoteness), reverse=True)
        return out

    def best_move(self, pos: Any | None = None) -> Any | None:
        """A perfect move from ``pos`` (None at the end of the game)."""
        mvs = self.move_values(pos)
        return mvs[0].move if mvs else None

    def principal_line(self, pos: Any | None = None, limit: int = 10_000) -> list[Any]:
        """The moves of perfect play from ``pos`` until the game ends (at most ``limit``)."""
        line = []
        here = self.start if pos is None else pos
        while len(line) < limit:
            move = self.best_move(here)
            if move is None:
                break
            line.append(move)
            here = self.game.play(here, move)
        return line

    def _passes(self, p: int, c: int) -> bool:
        pl = self.graph.player
        return pl is None or pl[p] != pl[c]

    def _edge_value(self, p: int, c: int, k: int) -> tuple[Any, int | None]:
        rc = self._rem_of(c)
        r = None if rc is None else rc + 1
        if self.mode == WINLOSE:
            v = Value.from_code(self._values[c])
            return (v.flipped() if self._passes(p, c) else v), r
        pay = self.graph.payoffs[k]  # type: ignore[index]
        vc = self._values[c]
        return (pay - vc if self._passes(p, c) else pay + vc), r

    def _key(self, i: int, value: Any, rem: int | None) -> tuple[Any, float]:
        if self.mode == WINLOSE:
            return winlose_key(value, rem)
        if self.mode == COST:
            assert self._player is not None
            return cost_key(value, rem, bool(self._player[i] == self.payer))
        return scored_key(value, rem)

    # -- summaries -------------------------------------------------------------------------
    def counts(self) -> Counts:
        """Number of positions by value and by remoteness."""
        n = self.graph.size
        if self.mode == WINLOSE:
            codes = np.bincount(np.asarray(self._values, dtype=np.int64), minlength=5)
            by_value = {Value.from_code(c): int(codes[c]) for c in range(1, 5) if codes[c]}
        else:
            by_value = dict(sorted(Counter(self._values).items(), key=lambda kv: kv[0]))
        rems = np.asarray([-1 if r is None else r for r in self._rems], dtype=np.int64)
        by_rem: dict[int | None, int] = {}
        if n:
            bc = np.bincount(rems + 1)
            for r in range(1, bc.size):
                if bc[r]:
                    by_rem[r - 1] = int(bc[r])
            if bc[0]:
                by_rem[None] = int(bc[0])
        return Counts(by_value=by_value, by_remoteness=by_rem, total=n)

    def to_json(self, pos: Any | None = None) -> dict[str, Any]:
        """The start (or ``pos``): value, remoteness, every move, and the position counts."""
        here = self.start if pos is None else pos
        v = self.value(here)
        return {
            "position": repr(here),
            "mode": self.mode,
            "value": _json_value(v),
            "remoteness": self.remoteness(here),
            "best_move": repr(self.best_move(here)),
            "moves": [{"move": repr(mv.move), "value": _json_value(mv.value),
                       "remoteness": mv.remoteness} for mv in self.move_values(here)],
            "counts": self.counts().to_json(),
            "cyclic": self.cyclic,
        }


def _json_value(v: Any) -> Any:
    if isinstance(v, Value):
        return v.value
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if isinstance(v, int | float):
        return v
    return str(v)
