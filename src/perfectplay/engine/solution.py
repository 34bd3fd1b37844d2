"""The result of a strong solve: value and remoteness of every reachable position."""

from __future__ import annotations

import ast
import math
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any

import numpy as np

from ..errors import GameError, InputError, show
from ..notebook import card
from .graph import GameGraph
from .kernels import topological_order
from .protocol import Value, has_player
from .scored import cost_key, scored_key, scored_option


class Mode(StrEnum):
    """What a Solution's values are: win/lose/tie/draw, margins (scored games), or margins
    of a cyclic cost game."""

    WINLOSE = "win/lose"
    MARGIN = "margin"
    COST = "cost"


WINLOSE, MARGIN, COST = Mode.WINLOSE, Mode.MARGIN, Mode.COST
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

    >>> describe(Value.WIN, 3), describe(Value.DRAW, None), describe(-2, 4), describe(5, None)
    ('win in 3', 'draw', '-2 in 4', '+5')
    """
    if isinstance(value, Value):
        return value.value if remoteness is None else f"{value.value} in {remoteness}"
    if isinstance(value, float) and math.isinf(value):
        return "never ends (+inf)" if value > 0 else "never ends (-inf)"
    sign = "+" if value > 0 else ""
    return f"{sign}{value}" if remoteness is None else f"{sign}{value} in {remoteness}"


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


class UnknownPosition(GameError, KeyError):
    """A position the solution does not hold (not reachable from the start, or not a
    position of this game). A KeyError too, so ``except KeyError`` works as for a dict."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class Solved(ABC):
    """A solved game that answers questions about its positions (see the module doc)."""

    game: Any

    # -- what a subclass gives -------------------------------------------------------------
    @property
    @abstractmethod
    def scored(self) -> bool:
        """True when values are point margins, False for win/lose/tie/draw."""

    @abstractmethod
    def _entry(self, pos: Any) -> tuple[Any, int | None]:
        """(value, remoteness) of ``pos``; raises UnknownPosition (a KeyError) when it is
        not held."""

    @abstractmethod
    def counts(self) -> Any:
        """Positions by value and by remoteness (a :class:`~perfectplay.engine.Counts`)."""

    def _order_key(self, pos: Any, value: Any, rem: int | None) -> tuple[Any, float]:
        """How moves from ``pos`` are ordered, best last (the engine's tie-breaks)."""
        return scored_key(value, rem) if self.scored else winlose_key(value, rem)

    def _summary(self) -> list[str]:
        """Lines :meth:`explain` ends with: the positions counted by value and remoteness."""
        counts = self.counts()
        return [f"positions: {counts.total:,}",
                "  by value: " + ", ".join(f"{getattr(k, 'value', k)} {n:,}"
                                           for k, n in counts.by_value.items()),
                "  by remoteness: " + ", ".join(f"{'draw' if k is None else k}: {n:,}"
                                                for k, n in counts.by_remoteness.items())]

    # -- written once ----------------------------------------------------------------------
    @property
    def start(self) -> Any:
        """The start position."""
        return self.game.initial()

    def _here(self, pos: Any | None) -> Any:
        return self.start if pos is None else pos

    def value(self, pos: Any | None = None) -> Any:
        """The value for the player to move at ``pos`` (default: the start): a Value, or
        the point margin in a scored game."""
        return self._entry(self._here(pos))[0]

    def remoteness(self, pos: Any | None = None) -> int | None:
        """Moves to the end under perfect play (the winner hurries, the loser delays);
        None when perfect play never ends."""
        return self._entry(self._here(pos))[1]

    def get(self, pos: Any, default: Any = None) -> Any:
        """The value of ``pos``, or ``default`` when it is not held."""
        try:
            return self._entry(pos)[0]
        except (KeyError, TypeError):
            return default

    def __contains__(self, pos: Any) -> bool:
        try:
            self._entry(pos)
        except (KeyError, TypeError):
            return False
        return True

    def move_values(self, pos: Any | None = None) -> list[Any]:
        """Every move from ``pos`` with the value and remoteness it gives the mover, best
        first: each child looked up."""
        here = self._here(pos)
        self._entry(here)  # the position itself must be held
        game = self.game
        who = game.player(here) if has_player(game) else None
        out = []
        for move in game.moves(here) if game.outcome(here) is None else []:
            child = game.play(here, move)
            value, rem = self._entry(child)
            passes = who is None or game.player(child) != who
            r: int | None = None if rem is None else rem + 1
            if self.scored:
                mine, _ = scored_option(game.payoff(here, move), value, rem or 0, passes)
            else:
                mine = value.flipped() if passes else value
            out.append(MoveValue(move, mine, r))
        out.sort(key=lambda mv: self._order_key(here, mv.value, mv.remoteness),
                 reverse=True)
        return out

    def best_move(self, pos: Any | None = None) -> Any | None:
        """A perfect move from ``pos``, as the game's own move (None at the end)."""
        mvs = self.move_values(pos)
        return mvs[0].move if mvs else None

    def best_moves(self, pos: Any | None = None) -> list[Any]:
        """Every perfect move from ``pos``: the moves whose value and remoteness equal the
        best's (a win as fast as any, a loss as slow as any), in the game's own order (the
        sort of :meth:`move_values` is stable); [] at the end. What a perfect player picks
        among at random."""
        mvs = self.move_values(pos)
        if not mvs:
            return []
        best = (mvs[0].value, mvs[0].remoteness)
        return [mv.move for mv in mvs if (mv.value, mv.remoteness) == best]

    def principal_line(self, pos: Any | None = None, limit: int = 10_000) -> list[Any]:
        """The moves of perfect play from ``pos`` until the game ends (at most ``limit``)."""
        line: list[Any] = []
        here = self._here(pos)
        while len(line) < limit:
            move = self.best_move(here)
            if move is None:
                break
            line.append(move)
            here = self.game.play(here, move)
        return line

    def iter_moves(self, pos: Any | None = None) -> Iterator[Any]:
        """The moves of ``pos``, best first (a generator over :meth:`move_values`)."""
        return (mv.move for mv in self.move_values(pos))

    def explain(self, pos: Any | None = None) -> str:
        """The start (or ``pos``) in words: its value, the best move, every move's value,
        then the counts (for a store, how many positions it holds)."""
        here = self._here(pos)
        return "\n".join([f"start: {show(here)}" if pos is None else
                          f"position: {show(here)}",
                          f"value: {describe(self.value(here), self.remoteness(here))}",
                          *move_lines(self.game, self.best_move(here),
                                      self.move_values(here)),
                          *self._summary()])

    def draw(self, pos: Any | None = None, style: bool = False) -> str:
        """The game's own picture of the start (or ``pos``): its ``draw(pos)`` hook, or ""
        when the game has none (``style`` escapes it for rich's markup)."""
        return game_picture(self.game, self._here(pos), style)

    def to_json(self, pos: Any | None = None) -> dict[str, Any]:
        """The start (or ``pos``) as JSON: value, remoteness, best move, every move."""
        here = self._here(pos)
        return position_json(here, self.value(here), self.remoteness(here),
                             self.best_move(here), self.move_values(here))

    def _repr_html_(self, pos: Any | None = None) -> str:
        """The start (or ``pos``) as a notebook card: value, remoteness, positions, the
        moves table best first, the game's drawing."""
        here = self._here(pos)
        v, r = self._entry(here)
        facts = [("game", _game_name(self.game)), ("position", show(here)),
                 ("value", describe(v, r))]
        if hasattr(self, "__len__"):
            facts.append(("positions", f"{len(self):,}"))
        rows = [[move_name(self.game, mv.move), mv.describe()]
                for mv in self.move_values(here)[:40]]
        try:
            picture = self.draw(here)
        except Exception:  # noqa: BLE001 - a view never fails: no picture then
            picture = ""
        return card(type(self).__name__, facts, (["move", "value for the mover"], rows),
                    pre=picture)

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Every position as arrays for bulk labels: ``key`` (codes or reprs), ``value``,
        ``remoteness`` (see :func:`perfectplay.engine.saved.to_arrays`)."""
        from . import saved  # saved builds on this module

        arrays = saved.to_arrays(self)
        return {k: arrays[k] for k in ("key", "value", "remoteness")}

    def save(self, path: Any, target: str | None = None) -> Any:
        """Write every position's value and remoteness to ``path`` (.npz or .parquet);
        ``perfectplay.load(path)`` reads it back (see :mod:`perfectplay.engine.saved`)."""
        from . import saved  # saved builds on this module

        return saved.save(self, path, target)


class Solution(Solved):
    """Value, remoteness and best moves of every position reachable from the start.

    Built by :func:`perfectplay.engine.solve`; look positions up with :meth:`value`,
    :meth:`remoteness`, :meth:`best_move` and :meth:`move_values`. It behaves like a
    read-only mapping from positions to values: ``len``, ``in``, iteration over the
    positions, :meth:`get`. Moves are not stored: they are asked of the game again when
    :meth:`move_values` needs them.
    """

    def __init__(self, game: Any, graph: GameGraph | None, mode: str, values: Any,
                 rems: Any, player: np.ndarray | None = None, payer: int | None = None,
                 cyclic: bool | None = None) -> None:
        self.game = game
        self.graph = graph
        self.mode = mode
        self._values = values  # int8 codes (win/lose) or margins (int64 array or list)
        self._rems = rems
        self._player = player
        self.payer = payer
        self._cyclic = cyclic

    def __repr__(self) -> str:
        v, r = self.value(), self.remoteness()
        return (f"<Solution of {_game_name(self.game)}: {len(self):,} positions, start "
                f"{describe(v, r)}>")

    @property
    def cyclic(self) -> bool:
        """True when some position can recur (computed on first use, O(positions + moves))."""
        if self._cyclic is None:
            assert self.graph is not None
            rev_off, rev_src, _ = self.graph.reverse()
            _, k = topological_order(self.graph.offsets, rev_off, rev_src)
            self._cyclic = bool(k < self.graph.size)
        return self._cyclic

    # -- storage (a CSR graph here; tiers of codes in TierSolution) -------------------------
    def __len__(self) -> int:
        assert self.graph is not None
        return self.graph.size

    def _lookup(self, pos: Any) -> int:
        assert self.graph is not None
        return self.graph.id_of(pos)

    def _position(self, i: int) -> Any:
        assert self.graph is not None
        return self.graph.position(i)

    def positions(self) -> Iterator[Any]:
        """Every position the solution holds (the start first)."""
        assert self.graph is not None
        return iter(self.graph.positions)

    def _edges(self, i: int, pos: Any) -> list[tuple[Any, int, Any]]:
        """(move, child id, payoff or None) for each move of position ``i``."""
        g = self.graph
        assert g is not None
        moves = g.moves_of(i, pos)
        lo = int(g.offsets[i])
        pays = g.payoffs
        return [(mv, int(g.children[lo + j]), None if pays is None else _py(pays[lo + j]))
                for j, mv in enumerate(moves)]

    def _passes(self, p: int, c: int) -> bool:
        pl = self._player if self._player is not None else (
            self.graph.player if self.graph is not None else None)
        return pl is None or pl[p] != pl[c]

    def _value_of(self, i: int) -> Any:
        if self.mode == WINLOSE:
            return Value.from_code(self._values[i])
        v = self._values[i]
        return int(v) if isinstance(v, np.integer) else v

    def _rem_of(self, i: int) -> int | None:
        r = self._rems[i]
        if r is None or r < 0:
            return None
        return int(r)

    def _value_chunks(self) -> Iterator[tuple[Any, Any]]:
        """(values, remoteness) of every position, in pieces (one here; a tier each in
        TierSolution), so summaries never copy everything at once."""
        yield self._values, self._rems

    # -- lookup ----------------------------------------------------------------------------
    def __iter__(self) -> Iterator[Any]:
        return self.positions()

    @property
    def start(self) -> Any:
        return self._position(0) if self.graph is not None else self.game.initial()

    @property
    def scored(self) -> bool:
        return self.mode != WINLOSE

    def _entry(self, pos: Any) -> tuple[Any, int | None]:
        i = self._id(pos)
        return self._value_of(i), self._rem_of(i)

    def _order_key(self, pos: Any, value: Any, rem: int | None) -> tuple[Any, float]:
        return self._key(self._id(pos), value, rem)

    def _id(self, pos: Any) -> int:
        try:
            return self._lookup(pos)
        except KeyError:
            raise UnknownPosition(f"position {show(pos)} is not reachable from the start") \
                from None
        except TypeError:
            raise UnknownPosition(f"{show(pos)} cannot be a position of this game (it is not "
                                  "hashable)") from None

    def _start_id(self) -> int:
        return 0

    def value(self, pos: Any | None = None) -> Any:
        """The value for the player to move at ``pos`` (default: the start)."""
        return self._value_of(self._start_id() if pos is None else self._id(pos))

    def remoteness(self, pos: Any | None = None) -> int | None:
        """Moves to the end under perfect play (the winner hurries, the loser delays); None
        when perfect play never ends (a draw, or an endless cost game)."""
        return self._rem_of(self._start_id() if pos is None else self._id(pos))

    def is_terminal(self, pos: Any) -> bool:
        """True when no move can be made from ``pos``."""
        i = self._id(pos)
        return not self._edges(i, pos)

    def move_values(self, pos: Any | None = None) -> list[MoveValue]:
        """Every move from ``pos`` with the value and remoteness it gives the mover, best
        first."""
        here = self.start if pos is None else pos
        i = self._id(here)
        out = [MoveValue(mv, *self._edge_value(i, c, pay))
               for mv, c, pay in self._edges(i, here)]
        out.sort(key=lambda mv: self._key(i, mv.value, mv.remoteness), reverse=True)
        return out

    def _edge_value(self, p: int, c: int, pay: Any) -> tuple[Any, int | None]:
        rc = self._rem_of(c)
        r = None if rc is None else rc + 1
        if self.mode == WINLOSE:
            v = Value.from_code(self._code_of(c))
            return (v.flipped() if self._passes(p, c) else v), r
        if rc is None:  # an endless cost game
            vc = self._value_of(c)
            return (pay - vc if self._passes(p, c) else pay + vc), None
        return scored_option(pay, self._value_of(c), rc, self._passes(p, c))

    def _code_of(self, i: int) -> int:
        return int(self._values[i])

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
        return counts_of(self._value_chunks(), self.mode, len(self))

    def to_json(self, pos: Any | None = None) -> dict[str, Any]:
        """The start (or ``pos``): value, remoteness, every move, and the position counts."""
        return summary_json(self, super().to_json(pos))


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


def summary_json(s: Any, data: dict[str, Any]) -> dict[str, Any]:
    """A position's JSON (:meth:`Solved.to_json`) with what an in-memory solve adds: its
    mode, the position counts and whether the game is cyclic."""
    return {"position": data.pop("position"), "mode": str(s.mode), **data,
            "counts": s.counts().to_json(), "cyclic": s.cyclic}


def position_of(game: Any, literal: str | None = None, moves: str | None = None) -> Any:
    """The position a query names: a Python literal as the game writes positions,
    comma-separated moves from the start (as the game names, reads or writes them), or the
    start when neither is given."""
    if literal is not None and moves is not None:
        raise InputError("give a position or the moves to it, not both")
    if literal is not None:
        try:
            return ast.literal_eval(literal)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            raise InputError(f"{literal!r} is not a Python literal (a number, tuple, "
                             "string ...)") from None
    return play_moves(game, moves or "")


def move_name(game: Any, move: Any) -> str:
    """A move as the game names it (its optional ``move_name`` hook), else its repr."""
    hook = getattr(game, "move_name", None)
    return str(hook(move)) if callable(hook) else show(move)


def move_named(game: Any, pos: Any, token: str) -> Any:
    """The legal move ``token`` names: the game's ``parse_move`` reading, then a move's
    str, repr or ``move_name``, then a Python literal equal to a move; None if none."""
    legal = list(game.moves(pos))
    hook = getattr(game, "parse_move", None)
    if callable(hook):
        move = hook(token)
        if move in legal:
            return move
    for move in legal:
        if token in (str(move), repr(move), move_name(game, move)):
            return move
    try:
        literal = ast.literal_eval(token)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return literal if literal in legal else None


def play_moves(game: Any, moves: str, pos: Any = None) -> Any:
    """The position reached from ``pos`` (default: the start) by comma-separated moves named
    as the game names, reads or writes them (:func:`move_named`); an
    :class:`~perfectplay.InputError` names the first illegal one.

    >>> class Count:
    ...     def initial(self): return 0
    ...     def moves(self, n): return [1, 2]
    ...     def play(self, n, k): return n + k
    ...     def outcome(self, n): return None
    >>> play_moves(Count(), "1, 2, 2")
    5
    """
    pos = game.initial() if pos is None else pos
    for k, token in enumerate(t.strip() for t in moves.split(",") if t.strip()):
        move = move_named(game, pos, token)
        if move is None:
            legal = ", ".join(move_name(game, m) for m in game.moves(pos))
            raise InputError(f"move {k + 1} ({token!r}) is not legal there; legal: "
                             f"{legal or 'none (the game has ended)'}")
        pos = game.play(pos, move)
    return pos


def game_picture(game: Any, pos: Any, style: bool = False) -> str:
    """The game's own picture of ``pos`` (its ``draw`` hook), or "" when it has none;
    ``style`` escapes it for rich's markup."""
    hook = getattr(game, "draw", None)
    if not callable(hook):
        return ""
    text = str(hook(pos))
    if style:
        from rich.markup import escape

        return escape(text)
    return text


def move_lines(game: Any, best: Any, moves: list[MoveValue]) -> list[str]:
    """The best move and every move's value in words, as ``solve`` and ``query`` print them."""
    return ([f"best move: {'none (the game has ended)' if best is None else move_name(game, best)}"]
            + [f"  move {move_name(game, mv.move)}: {mv.describe()}" for mv in moves])


def position_json(pos: Any, value: Any, rem: int | None, best: Any,
                  moves: list[MoveValue]) -> dict[str, Any]:
    """One position as JSON: value, remoteness, best move and every move (typed values)."""
    return {"position": json_value(pos), "value": _json_value(value), "remoteness": rem,
            "best_move": json_value(best),
            "moves": [{"move": json_value(mv.move), "value": _json_value(mv.value),
                       "remoteness": mv.remoteness} for mv in moves]}


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


def _py(x: Any) -> Any:
    return int(x) if isinstance(x, np.integer) else x


def _game_name(game: Any) -> str:
    return getattr(game, "name", None) or type(game).__name__


def _json_value(v: Any) -> Any:
    """A value for JSON: "win"/"lose"/"tie"/"draw", or a margin as a number (a Fraction as
    the string "p/q", which JSON has no number for); None (not known) stays None."""
    if v is None:
        return None
    if isinstance(v, Value):
        return v.value
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if isinstance(v, int | float):
        return v
    return str(v)


def json_value(x: Any) -> Any:
    """A position or a move as a JSON value: numbers, strings, booleans and None as they
    are; tuples and lists as lists; sets sorted; enums by value; anything else as its repr.

    >>> json_value(((0, 2), "L", frozenset({2, 1})))
    [[0, 2], 'L', [1, 2]]
    """
    if x is None or isinstance(x, bool | int | str):
        return x
    if isinstance(x, Enum):
        return json_value(x.value)
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, float | np.floating):
        return float(x) if math.isfinite(x) else str(float(x))
    if isinstance(x, tuple | list):
        return [json_value(v) for v in x]
    if isinstance(x, set | frozenset):
        items = [json_value(v) for v in x]
        try:
            return sorted(items)
        except TypeError:
            return sorted(items, key=show)
    if isinstance(x, dict):
        return {str(json_value(k)): json_value(v) for k, v in x.items()}
    return show(x)
