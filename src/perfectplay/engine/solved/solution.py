"""The result of a strong solve: value and remoteness of every reachable position.

:class:`Solved` is what every solved form answers (a :class:`Solution` in memory, a
:class:`~perfectplay.engine.tiers.solver.TierSolution`, a saved file, a store); the values it is
made of (:class:`~perfectplay.engine.values.MoveValue`, :class:`Counts` ...) live in
:mod:`..values`, below every one of them, and are importable from here as before. Moves are
ordered by :class:`~perfectplay.engine.protocol.Score`, the engine's one tie-break.
"""

from __future__ import annotations

import ast
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import InputError, show
from ...notebook import card
from ...numbaboot import numpy_on_use
from ..discovery import GameGraph
from ..protocol import Game, Move, Position, Score, Value, Worth, capabilities
from ..values import (
    COST,
    MARGIN,
    WINLOSE,
    Counts,
    Mode,
    MoveValue,
    UnknownPosition,
    counts_of,
    describe,
)
from . import savefile
from .scored import scored_option
from .verify import VerifyReport, verify

if TYPE_CHECKING:
    import numpy as np
else:
    np = numpy_on_use  # numpy loads where it is used: not in a small game's solve

__all__ = ["COST", "MARGIN", "WINLOSE", "Counts", "Mode", "MoveValue", "Solution", "Solved",
           "UnknownPosition", "counts_of", "describe", "game_picture", "json_value",
           "move_lines", "move_name", "move_named", "play_moves", "position_json",
           "position_of", "summary_json", "winlose_key"]


def winlose_key(value: Value, rem: int | None) -> tuple[float, float]:
    """:class:`~perfectplay.engine.protocol.Score`'s sort key of a win/lose value (kept for
    the callers that sort by a tuple): win > tie > draw > lose; a win or a tie as quick as
    possible, a loss as slow as possible."""
    return Score(value, rem).key


class Solved(ABC):
    """A solved game that answers questions about its positions (see the module doc)."""

    game: Game

    # -- what a subclass gives -------------------------------------------------------------
    @property
    @abstractmethod
    def scored(self) -> bool:
        """True when values are point margins, False for win/lose/tie/draw."""

    @abstractmethod
    def _entry(self, pos: Position) -> tuple[Worth, int | None]:
        """(value, remoteness) of ``pos``; raises UnknownPosition (a KeyError) when it is
        not held."""

    @abstractmethod
    def counts(self) -> Counts:
        """Positions by value and by remoteness (a :class:`~perfectplay.engine.Counts`)."""

    def positions(self) -> Iterator[Position]:
        """Every position held, the start first (what :meth:`save` writes); a solved form
        that is read by key only (a store, an oracle) cannot list them."""
        raise InputError(f"{type(self).__name__} cannot list its positions")

    def _score(self, pos: Position, value: Worth, rem: int | None) -> Score:
        """How good a move from ``pos`` worth ``value`` in ``rem`` moves is for its mover
        (moves are listed best first by it)."""
        return Score(value, rem)

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
    def start(self) -> Position:
        """The start position."""
        return self.game.initial()

    def _here(self, pos: Position | None) -> Position:
        return self.start if pos is None else pos

    def value(self, pos: Position | None = None) -> Worth:
        """The value for the player to move at ``pos`` (default: the start): a Value, or
        the point margin in a scored game.

        :param pos: a position of the game (None: the start).
        :returns: a :class:`~perfectplay.engine.Value`, or the margin in a scored game.
        :raises UnknownPosition: ``pos`` is not held (a KeyError).
        """
        return self._entry(self._here(pos))[0]

    def remoteness(self, pos: Position | None = None) -> int | None:
        """Moves to the end under perfect play (the winner hurries, the loser delays);
        None when perfect play never ends.

        :param pos: a position of the game (None: the start).
        :returns: the number of moves, or None (a draw: perfect play never ends).
        :raises UnknownPosition: ``pos`` is not held (a KeyError).
        """
        return self._entry(self._here(pos))[1]

    def get(self, pos: Position, default: Any = None) -> Any:
        """The value of ``pos``, or ``default`` when it is not held.

        :param pos: a position of the game.
        :param default: what to answer for a position not held.
        :returns: the value (see :meth:`value`), or ``default``.
        """
        try:
            return self._entry(pos)[0]
        except (KeyError, TypeError):
            return default

    def __contains__(self, pos: object) -> bool:
        try:
            self._entry(pos)
        except (KeyError, TypeError):
            return False
        return True

    def move_values(self, pos: Position | None = None) -> list[MoveValue]:
        """Every move from ``pos`` with the value and remoteness it gives the mover, best
        first (by :class:`~perfectplay.engine.protocol.Score`; equal ones in the game's
        order): each child looked up.

        :param pos: a position of the game (None: the start).
        :returns: a :class:`~perfectplay.engine.MoveValue` a move (the move, its value and
            remoteness for the mover), best first; [] at the end of a game.
        :raises UnknownPosition: ``pos`` or one of its children is not held.
        """
        here = self._here(pos)
        self._entry(here)  # the position itself must be held
        game = self.game
        caps = capabilities(game)
        player, payoff = caps.player, caps.payoff
        who = player(here) if player is not None else None
        out = []
        for move in game.moves(here) if game.outcome(here) is None else []:
            child = game.play(here, move)
            value, rem = self._entry(child)
            passes = player is None or player(child) != who
            r: int | None = None if rem is None else rem + 1
            mine: Worth
            if self.scored:
                assert payoff is not None and not isinstance(value, Value)
                mine, _ = scored_option(payoff(here, move), value, rem or 0, passes)
            else:
                assert isinstance(value, Value)
                mine = value.flipped() if passes else value
            out.append(MoveValue(move, mine, r))
        out.sort(key=lambda mv: self._score(here, mv.value, mv.remoteness).key, reverse=True)
        return out

    def best_move(self, pos: Position | None = None) -> Move | None:
        """A perfect move from ``pos``, as the game's own move (None at the end).

        :param pos: a position of the game (None: the start).
        :returns: the game's move, or None when the game has ended.
        :raises UnknownPosition: ``pos`` is not held (a KeyError).
        """
        mvs = self.move_values(pos)
        return mvs[0].move if mvs else None

    def best_moves(self, pos: Position | None = None) -> list[Move]:
        """Every perfect move from ``pos``: the moves whose value and remoteness equal the
        best's (a win as fast as any, a loss as slow as any), in the game's own order (the
        sort of :meth:`move_values` is stable); [] at the end. What a perfect player picks
        among at random.

        :param pos: a position of the game (None: the start).
        :returns: the perfect moves, in the game's order.
        :raises UnknownPosition: ``pos`` is not held (a KeyError).
        """
        mvs = self.move_values(pos)
        if not mvs:
            return []
        best = (mvs[0].value, mvs[0].remoteness)
        return [mv.move for mv in mvs if (mv.value, mv.remoteness) == best]

    def principal_line(self, pos: Position | None = None, limit: int = 10_000) -> list[Move]:
        """The moves of perfect play from ``pos`` until the game ends (at most ``limit``).

        :param pos: a position of the game (None: the start).
        :param limit: the most moves listed (a draw's line never ends).
        :returns: the moves, in the order they are played.
        :raises UnknownPosition: ``pos`` is not held (a KeyError).
        """
        line: list[Move] = []
        here = self._here(pos)
        while len(line) < limit:
            move = self.best_move(here)
            if move is None:
                break
            line.append(move)
            here = self.game.play(here, move)
        return line

    def iter_moves(self, pos: Position | None = None) -> Iterator[Move]:
        """The moves of ``pos``, best first (a generator over :meth:`move_values`).

        :param pos: a position of the game (None: the start).
        :returns: an iterator of the game's moves.
        """
        return (mv.move for mv in self.move_values(pos))

    def explain(self, pos: Position | None = None) -> str:
        """The start (or ``pos``) in words: its value, the best move, every move's value,
        then the counts (for a store, how many positions it holds).

        :param pos: a position of the game (None: the start).
        :returns: the lines of text, joined.
        :raises UnknownPosition: ``pos`` is not held (a KeyError).
        """
        here = self._here(pos)
        return "\n".join([self._header(here, pos is None),
                          f"value: {describe(self.value(here), self.remoteness(here))}",
                          *move_lines(self.game, self.best_move(here),
                                      self.move_values(here)),
                          *self._summary()])

    def _header(self, here: Position, start: bool) -> str:
        """The first line: the start and whose turn, or the position; a game that draws
        its positions is named by its drawing (below), not by an internal code."""
        caps = capabilities(self.game)
        shown = "as drawn below" if caps.draw is not None else show(here)
        if start:
            return f"start: {caps.name}, {turn_words(self.game, here, 0)}" + \
                ("" if caps.draw is not None else f" ({shown})")
        turn = f", {turn_words(self.game, here, 0)}" if caps.player is not None else ""
        return f"position: {shown}{turn}"

    def draw(self, pos: Position | None = None, style: bool = False) -> str:
        """The game's own picture of the start (or ``pos``): its ``draw(pos)`` hook, or ""
        when the game has none (``style`` escapes it for rich's markup).

        :param pos: a position of the game (None: the start).
        :param style: escape the drawing for rich's markup.
        :returns: the drawing, or "".
        """
        return game_picture(self.game, self._here(pos), style)

    def to_json(self, pos: Position | None = None) -> dict[str, Any]:
        """The start (or ``pos``) as JSON: value, remoteness, best move, every move.

        :param pos: a position of the game (None: the start).
        :returns: a dict of plain JSON types (moves by name and code).
        :raises UnknownPosition: ``pos`` is not held (a KeyError).
        """
        here = self._here(pos)
        return position_json(self.game, here, self.value(here), self.remoteness(here),
                             self.best_move(here), self.move_values(here))

    def _repr_html_(self, pos: Position | None = None) -> str:
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
        ``remoteness`` (see :func:`perfectplay.engine.solved.saved.to_arrays`)."""
        arrays = savefile.to_arrays(self)
        return {k: arrays[k] for k in ("key", "value", "remoteness")}

    def save(self, path: str | Path, target: str | None = None) -> Path:
        """Write every position's value and remoteness to ``path`` (.npz or .parquet);
        ``perfectplay.load(path)`` reads it back (see :mod:`perfectplay.engine.solved.saved`).

        :param path: the file to write; its suffix (.npz or .parquet) picks the format.
        :param target: the game's ``FILE.py:Class`` target, recorded so that ``load``
            rebuilds the game (None: the one the game records, if any).
        :returns: the path written.
        :raises InputError: a suffix other than .npz or .parquet, or a solved form that
            cannot list its positions (a store).
        """
        return savefile.save(self, path, target)

    def verify(self, sample: int | None = 10_000, seed: int = 0) -> VerifyReport:
        """Audit the answers: ``sample`` random positions (None: every one) recomputed from
        their children's stored entries, the children made by the game's rules (see
        :mod:`perfectplay.engine.solved.verify`: a full pass proves every value and remoteness).
        O(checked positions x moves) look-ups.

        :param sample: how many random positions to check (None: every one).
        :param seed: the seed of the sample.
        :returns: a :class:`~perfectplay.engine.solved.verify.VerifyReport`: ``ok``, the
            positions checked and each wrong one with what it should hold.
        """
        return verify(self, sample, seed)


class Solution(Solved):
    """Value, remoteness and best moves of every position reachable from the start.

    Built by :func:`perfectplay.engine.solve`; look positions up with :meth:`value`,
    :meth:`remoteness`, :meth:`best_move` and :meth:`move_values`. It behaves like a
    read-only mapping from positions to values: ``len``, ``in``, iteration over the
    positions, :meth:`get`. Moves are not stored: they are asked of the game again when
    :meth:`move_values` needs them.
    """

    def __init__(self, game: Game, graph: GameGraph | None, mode: str,
                 values: np.ndarray | list[Any], rems: np.ndarray | list[int | None],
                 player: np.ndarray | None = None, payer: int | None = None,
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
            from ..compiled import topological_order  # numba, only when asked for
            rev_off, rev_src, _ = self.graph.reverse()
            _, k = topological_order(self.graph.offsets, rev_off, rev_src)
            self._cyclic = bool(k < self.graph.size)
        return self._cyclic

    # -- storage (a CSR graph here; tiers of codes in TierSolution) -------------------------
    def __len__(self) -> int:
        assert self.graph is not None
        return self.graph.size

    def _lookup(self, pos: Position) -> int:
        assert self.graph is not None
        return self.graph.id_of(pos)

    def _position(self, i: int) -> Position:
        assert self.graph is not None
        return self.graph.position(i)

    def positions(self) -> Iterator[Position]:
        """Every position the solution holds (the start first)."""
        assert self.graph is not None
        return iter(self.graph.positions)

    def _edges(self, i: int, pos: Position) -> list[tuple[Move, int, Any]]:
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

    def _value_of(self, i: int) -> Worth:
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
    def __iter__(self) -> Iterator[Position]:
        return self.positions()

    @property
    def start(self) -> Position:
        return self._position(0) if self.graph is not None else self.game.initial()

    @property
    def scored(self) -> bool:
        return self.mode != WINLOSE

    def _entry(self, pos: Position) -> tuple[Worth, int | None]:
        i = self._id(pos)
        return self._value_of(i), self._rem_of(i)

    def _score(self, pos: Position, value: Worth, rem: int | None) -> Score:
        return self._score_at(self._id(pos), value, rem)

    def _id(self, pos: Position) -> int:
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

    def value(self, pos: Position | None = None) -> Worth:
        """The value for the player to move at ``pos`` (default: the start).

        :param pos: a position of the game (None: the start).
        :returns: a :class:`~perfectplay.engine.Value`, or the margin in a scored game.
        :raises UnknownPosition: ``pos`` was not reached from the start (a KeyError).
        """
        return self._value_of(self._start_id() if pos is None else self._id(pos))

    def remoteness(self, pos: Position | None = None) -> int | None:
        """Moves to the end under perfect play (the winner hurries, the loser delays); None
        when perfect play never ends (a draw, or an endless cost game).

        :param pos: a position of the game (None: the start).
        :returns: the number of moves, or None.
        :raises UnknownPosition: ``pos`` was not reached from the start (a KeyError).
        """
        return self._rem_of(self._start_id() if pos is None else self._id(pos))

    def is_terminal(self, pos: Position) -> bool:
        """True when no move can be made from ``pos``.

        :param pos: a position of the game.
        :returns: whether the game has ended there.
        :raises UnknownPosition: ``pos`` was not reached from the start (a KeyError).
        """
        i = self._id(pos)
        return not self._edges(i, pos)

    def move_values(self, pos: Position | None = None) -> list[MoveValue]:
        """Every move from ``pos`` with the value and remoteness it gives the mover, best
        first.

        :param pos: a position of the game (None: the start).
        :returns: a :class:`~perfectplay.engine.MoveValue` a move, best first; [] at the
            end of a game.
        :raises UnknownPosition: ``pos`` was not reached from the start (a KeyError).
        """
        here = self.start if pos is None else pos
        i = self._id(here)
        out = [MoveValue(mv, *self._edge_value(i, c, pay))
               for mv, c, pay in self._edges(i, here)]
        # by Score's key: a tuple each, compared as tuples (a Score compares by its key)
        out.sort(key=lambda mv: self._score_at(i, mv.value, mv.remoteness).key, reverse=True)
        return out

    def _edge_value(self, p: int, c: int, pay: Any) -> tuple[Worth, int | None]:
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

    def _score_at(self, i: int, value: Worth, rem: int | None) -> Score:
        """A move's :class:`Score` from position ``i``: in a cost game the payer hurries
        and the other player delays, whatever the margin."""
        if self.mode == COST:
            assert self._player is not None
            return Score(value, rem, hurry=bool(self._player[i] == self.payer))
        return Score(value, rem)

    # -- summaries -------------------------------------------------------------------------
    def counts(self) -> Counts:
        """Number of positions by value and by remoteness.

        :returns: a :class:`~perfectplay.engine.Counts` (``total``, ``by_value``,
            ``by_remoteness``).
        """
        return counts_of(self._value_chunks(), self.mode, len(self))

    def to_json(self, pos: Position | None = None) -> dict[str, Any]:
        """The start (or ``pos``): value, remoteness, every move, and the position counts.

        :param pos: a position of the game (None: the start).
        :returns: a dict of plain JSON types.
        :raises UnknownPosition: ``pos`` was not reached from the start (a KeyError).
        """
        return summary_json(self, super().to_json(pos))


def summary_json(s: Solution | Any, data: dict[str, Any]) -> dict[str, Any]:
    """A position's JSON (:meth:`Solved.to_json`) with what an in-memory solve adds: its
    mode, the position counts and whether the game is cyclic."""
    return {"position": data.pop("position"), "mode": str(s.mode), **data,
            "counts": s.counts().to_json(), "cyclic": s.cyclic}


def position_of(game: Game, literal: str | None = None, moves: str | None = None
                ) -> Position:
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


def move_name(game: Game, move: Move) -> str:
    """A move as the game names it (its optional ``move_name`` hook), else its repr."""
    return _named(capabilities(game).move_name, move)


def _named(hook: Callable[[Move], object] | None, move: Move) -> str:
    return str(hook(move)) if hook is not None else show(move)


def move_named(game: Game, pos: Position, token: str) -> Move | None:
    """The legal move ``token`` names: the game's ``parse_move`` reading, then a move's
    ``move_name``; a game without either hook, a move's str or repr, then a Python literal
    equal to a move; None if none.

    A game that names its moves is read by its names only: Connect Four names column ``1``
    the move coded 0, so "1" with the first column full is no move, never the code-1 move
    (the second column) that a move's str would match.

    >>> class Columns:  # moves coded 0, 1; named 1, 2
    ...     def initial(self): return 0
    ...     def moves(self, n): return [1]  # only the second column is open
    ...     def play(self, n, k): return n + 1
    ...     def outcome(self, n): return None
    ...     def move_name(self, k): return str(k + 1)
    >>> move_named(Columns(), 0, "1") is None, move_named(Columns(), 0, "2")
    (True, 1)
    """
    legal = list(game.moves(pos))
    caps = capabilities(game)
    if caps.parse_move is not None:
        move = caps.parse_move(token)
        if move in legal:
            return move
    if caps.move_name is not None or caps.parse_move is not None:
        return next((m for m in legal if _named(caps.move_name, m) == token), None)
    for move in legal:
        if token in (str(move), repr(move)):
            return move
    try:
        literal = ast.literal_eval(token)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return literal if literal in legal else None


def play_moves(game: Game, moves: str, pos: Position | None = None) -> Position:
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


def turn_words(game: Game, pos: Position, plies: int) -> str:
    """Whose turn it is at ``pos``, reached in ``plies`` moves from the start: the game's
    ``player`` hook when it has one (extra turns), else strict alternation.

    >>> class Count:
    ...     def initial(self): return 0
    >>> turn_words(Count(), 3, 3)
    'the second player to move'
    """
    hook = capabilities(game).player
    side = int(hook(pos)) if hook is not None else plies % 2
    return f"the {'first' if side == 0 else 'second'} player to move"


def game_picture(game: Game, pos: Position, style: bool = False) -> str:
    """The game's own picture of ``pos`` (its ``draw`` hook), or "" when it has none;
    ``style`` escapes it for rich's markup."""
    hook = capabilities(game).draw
    if hook is None:
        return ""
    text = str(hook(pos))
    if style:
        from rich.markup import escape

        return escape(text)
    return text


def move_lines(game: Game, best: Move | None, moves: list[MoveValue]) -> list[str]:
    """The best move and every move's value in words, as ``solve`` and ``query`` print them."""
    hook = capabilities(game).move_name
    return ([f"best move: {'none (the game has ended)' if best is None else _named(hook, best)}"]
            + [f"  move {_named(hook, mv.move)}: {mv.describe()}" for mv in moves])


def position_json(game: Game, pos: Position, value: Worth | None, rem: int | None,
                  best: Move | None, moves: list[MoveValue]) -> dict[str, Any]:
    """One position as JSON: value, remoteness, best move and every move (typed values).

    Every move and position carries the name a person reads beside its code: ``name``
    (the game's ``move_name``, what ``--moves`` and ``play`` take back) next to ``move``,
    ``best_move_name`` next to ``best_move``, ``board`` (the game's ``draw``, "" without
    one) next to ``position``, so a script never has to feed an internal code back.
    """
    return {"position": json_value(pos), "board": game_picture(game, pos, False),
            "value": value_json(value), "remoteness": rem,
            "best_move": json_value(best),
            "best_move_name": None if best is None else move_name(game, best),
            "moves": [{"move": json_value(mv.move), "name": move_name(game, mv.move),
                       "value": value_json(mv.value), "remoteness": mv.remoteness}
                      for mv in moves]}


def _py(x: object) -> object:
    return int(x) if isinstance(x, np.integer) else x


def _game_name(game: Game) -> str:
    return capabilities(game).name


def value_json(v: object) -> object:
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
