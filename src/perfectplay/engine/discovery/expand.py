"""Expansion: one batch of positions asked of the game (``outcome``, ``moves``, ``play``,
points), its children keyed by a :class:`~.keystores.KeyStore` and everything appended to
discovery's growing arrays (:class:`Found`); and the checks of what a game's methods
return (:func:`points`, :func:`is_move_list` ...), every slip reported as a
:class:`~perfectplay.errors.GameError` naming the call.

:class:`Expander` runs a batch here, or splits it with the helper process of
:mod:`..workers`; the arrays it appends to are exactly the serial pass's either way.
"""

from __future__ import annotations

import math
import numbers
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...errors import GameError, show
from ...numbaboot import numpy_on_use
from ...progress import Progress
from .. import workers
from ..protocol import (
    LOSE_CODE,
    TIE_CODE,
    UNKNOWN,
    WIN_CODE,
    Capabilities,
    Game,
    Move,
    Outcome,
    Position,
    Value,
)
from ..workers import ExpandHelper
from .keystores import ASK, ChildKeys, KeyStore, Kids, NotInt, ObjectStore

if TYPE_CHECKING:
    import numpy as np
else:
    np = numpy_on_use  # numpy loads where it is used: not in a small game's solve

_TERMINAL_CODES = {Value.WIN: WIN_CODE, Value.LOSE: LOSE_CODE, Value.TIE: TIE_CODE}
BATCH = 4096  # positions expanded between two calls of the id-table kernel


@dataclass(frozen=True, slots=True)
class Rules:
    """The game's methods discovery calls, looked up once: ``payoff`` (and ``step``, its
    child and points in one call) only in a scored game."""

    outcome: Callable[[Position], Outcome]
    moves: Callable[[Position], Iterable[Move]]
    play: Callable[[Position, Move], Position]
    payoff: Callable[[Position, Move], Any] | None
    step: Callable[[Position, Move], tuple[Position, Any]] | None
    # outcome_after(pos, move, child): outcome(child), told the move (None: the game has none)
    outcome_after: Callable[[Position, Move, Position], Outcome] | None = None

    @classmethod
    def of(cls, game: Game, caps: Capabilities) -> Rules:
        return cls(game.outcome, game.moves, game.play, caps.payoff, caps.step,
                   caps.outcome_after)

    @property
    def scored(self) -> bool:
        return self.payoff is not None


class Sink:
    """Appends numbers to a compact int64 array until one does not fit, then to a list."""

    def __init__(self) -> None:
        self.data: array[int] | list[Any] = array("q")

    def append(self, x: Any) -> None:
        try:
            self.data.append(x)
        except (TypeError, OverflowError):
            if isinstance(self.data, list):
                raise
            self.data = list(self.data)
            self.data.append(x)

    def extend(self, data: array[int] | list[Any]) -> None:
        """Append another sink's ``data`` (an int64 array or a list)."""
        if isinstance(self.data, array) and isinstance(data, array):
            self.data.extend(data)
            return
        if not isinstance(self.data, list):
            self.data = list(self.data)
        self.data.extend(data)

    def result(self) -> np.ndarray | list[Any]:
        if isinstance(self.data, list):
            return self.data
        return np.frombuffer(self.data, dtype=np.int64).copy() if self.data else \
            np.zeros(0, np.int64)


@dataclass(slots=True)
class Found:
    """Discovery's growing arrays, a position at a time in id order: ``terminal`` (int8
    outcome codes, :data:`~perfectplay.engine.protocol.UNKNOWN` while the game goes on),
    ``offsets`` (int64, where each position's children end), and in a scored game
    ``payoffs`` (one a move) and ``finals`` (one a position). The children themselves are
    numbered by the key store and kept by the caller."""

    terminal: array[int]
    offsets: array[int]
    payoffs: Sink | None
    finals: Sink | None

    @classmethod
    def empty(cls, scored: bool, offsets: Iterable[int] = ()) -> Found:
        """Fresh arrays (``offsets`` starting with the given ones: ``[0]`` for a whole
        discovery, none for a helper's half batch)."""
        return cls(array("b"), array("q", offsets), Sink() if scored else None,
                   Sink() if scored else None)

    def sent(self) -> tuple[Any, ...]:
        """What a helper sends back of its half (children apart)."""
        return (self.terminal, self.offsets,
                None if self.payoffs is None else self.payoffs.data,
                None if self.finals is None else self.finals.data)


def expand(batch: list[Position], rules: Rules, keys: ChildKeys, kids: Kids, into: Found,
           base: int, first: int = 0) -> None:
    """The inner loop for any game: children keyed by ``keys`` (a code or an id) into
    ``kids``, outcomes, ends and points appended to ``into``, every protocol slip reported
    as a GameError. Offsets count from ``base``; ``first`` is the batch's first id."""
    if type(keys) is ObjectStore and not rules.scored:
        expand_objects(batch, rules, keys, kids, into, base, first)
        return
    outcome, moves_of, play, payoff, step = (rules.outcome, rules.moves, rules.play,
                                             rules.payoff, rules.step)
    terminal, offsets, payoffs, finals = into.terminal, into.offsets, into.payoffs, into.finals
    scored = rules.scored
    pay = None
    listed: type | None = None  # the type of moves() result checked already
    for pos in batch:
        result = outcome(pos)
        if result is None:
            terminal.append(UNKNOWN)
            if finals is not None:
                finals.append(0)
            moves = moves_of(pos)
            if type(moves) is not listed:
                listed = _checked_moves(moves, pos)
            for move in moves:
                if step is not None:
                    try:
                        child, pay = step(pos, move)
                    except (TypeError, ValueError):
                        child, pay = _stepped(step, pos, move)  # says what went wrong
                else:
                    child = play(pos, move)
                if child is None:
                    raise GameError(f"play({show(pos)}, {show(move)}) returned None: it must "
                                    "return the new position (a missing return?)")
                try:
                    kids.append(keys.key(child, pos, move))
                except (GameError, NotInt):
                    raise
                except Exception as exc:  # noqa: BLE001 - TypeError, or a __hash__ raising
                    if hashable(child):
                        raise
                    raise GameError(f"position {show(child)} (after move {show(move)} from "
                                    f"{show(pos)}) is not hashable: {type(exc).__name__}: "
                                    f"{exc}") from None
                if payoffs is not None:
                    payoffs.append(points(pay if step is not None else payoff(pos, move),  # type: ignore[misc]
                                          "payoff", pos, move))
        else:
            terminal.append(terminal_code(result, pos, scored, finals))
        offsets.append(base + len(kids))


def expand_objects(batch: list[Position], rules: Rules, store: ObjectStore, kids: Kids,
                   into: Found, base: int, first: int = 0) -> None:
    """The inner loop for a win/lose game with object positions, with nothing a child but
    the game's ``play`` and one dict look-up: the store's dict is bound once per batch (new
    positions numbered as :meth:`ObjectStore.key` numbers them), what ``moves`` returns is
    checked once per type it comes in (:func:`is_move_list`), outcomes are compared by
    identity (an Enum's hash is Python code). Every slip is reported as :func:`expand`
    reports it. When the store keeps outcomes (the game has ``outcome_after``), a new
    child's outcome is asked of ``outcome_after`` as it is found and kept until the child
    is expanded; a position found another way (``ASK``) asks ``outcome``."""
    if store.known is not None:
        _expand_objects_after(batch, rules, store, kids, into, base, first)
        return
    outcome, moves_of, play = rules.outcome, rules.moves, rules.play
    add_kid, add_term, add_off = kids.append, into.terminal.append, into.offsets.append
    number, add_position = store.index.setdefault, store.objects.append
    n = store.n
    listed: type | None = None
    try:
        for pos in batch:
            result = outcome(pos)
            if result is None:
                add_term(UNKNOWN)
                moves = moves_of(pos)
                if type(moves) is not listed:
                    listed = _checked_moves(moves, pos)
                for move in moves:
                    child = play(pos, move)
                    try:
                        cid = number(child, n)
                    except Exception as exc:  # noqa: BLE001 - TypeError, or a __hash__ raising
                        raise _unhashable(child, pos, move, exc) from None
                    if cid == n:
                        if child is None:
                            raise _no_child(pos, move)
                        add_position(child)
                        n += 1
                    add_kid(cid)
            else:
                add_term(_end_code(result, pos))
            add_off(base + len(kids))
    finally:
        store.n = n


def _expand_objects_after(batch: list[Position], rules: Rules, store: ObjectStore, kids: Kids,
                          into: Found, base: int, first: int) -> None:
    """:func:`expand_objects` for a game with ``outcome_after``: each new child's outcome
    comes from the move that made it, kept in ``store.known`` (by id) until the child is
    expanded."""
    outcome, moves_of, play, after = rules.outcome, rules.moves, rules.play, rules.outcome_after
    assert after is not None and store.known is not None
    known = store.known
    add_kid, add_term, add_off = kids.append, into.terminal.append, into.offsets.append
    number, add_position, add_known = store.index.setdefault, store.objects.append, known.append
    n = store.n
    listed: type | None = None
    try:
        for k, pos in enumerate(batch, first):
            result = known[k]
            known[k] = ASK  # the reference need not be kept (a retried batch asks outcome)
            if result is ASK:
                result = outcome(pos)
            if result is None:
                add_term(UNKNOWN)
                moves = moves_of(pos)
                if type(moves) is not listed:
                    listed = _checked_moves(moves, pos)
                for move in moves:
                    child = play(pos, move)
                    try:
                        cid = number(child, n)
                    except Exception as exc:  # noqa: BLE001 - TypeError, or a __hash__ raising
                        raise _unhashable(child, pos, move, exc) from None
                    if cid == n:
                        if child is None:
                            raise _no_child(pos, move)
                        add_position(child)
                        add_known(after(pos, move, child))
                        n += 1
                    add_kid(cid)
            else:
                add_term(_end_code(result, pos))
            add_off(base + len(kids))
    finally:
        store.n = n


def _end_code(result: Outcome, pos: Position) -> int:
    """The terminal code of a win/lose/tie ``result`` at ``pos``, the Values compared by
    identity (an Enum's hash is Python code); anything else goes to :func:`terminal_code`,
    which says what is wrong. Called once an ended position, never a child."""
    if result is Value.LOSE:
        return LOSE_CODE
    if result is Value.TIE:
        return TIE_CODE
    if result is Value.WIN:
        return WIN_CODE
    return terminal_code(result, pos, False, None)


def _checked_moves(moves: object, pos: Position) -> type:
    """The type of a ``moves(pos)`` result once it is known to be a list of moves (every
    result of that type is: :func:`is_move_list` looks at the type only); a GameError
    otherwise."""
    if not is_move_list(moves):
        raise GameError(f"moves({show(pos)}) returned {show(moves)}: expected an iterable of moves")
    return type(moves)


def _unhashable(child: Position, pos: Position, move: Move, exc: Exception) -> Exception:
    """What a child that cannot be a key raises: the hash's own error when the child does
    hash (a __hash__ that fails only sometimes), else a GameError naming it."""
    if hashable(child):
        return exc
    return GameError(f"position {show(child)} (after move {show(move)} from {show(pos)}) is "
                     f"not hashable: {type(exc).__name__}: {exc}")


def _no_child(pos: Position, move: Move) -> GameError:
    return GameError(f"play({show(pos)}, {show(move)}) returned None: it must return the new "
                     "position (a missing return?)")


def expand_ints(batch: list[Position], rules: Rules, kids: Kids, into: Found, base: int) -> None:
    """The inner loop for a win/lose game with int positions, as lean as Python allows:
    children go straight into an int64 array (a non-int or a too-large child raises
    TypeError or OverflowError, and the caller starts again keeping objects)."""
    outcome, moves_of, play = rules.outcome, rules.moves, rules.play
    add_kid, add_term, add_off = kids.append, into.terminal.append, into.offsets.append
    for pos in batch:
        result = outcome(pos)
        if result is None:
            add_term(UNKNOWN)
            for move in moves_of(pos):
                add_kid(play(pos, move))  # type: ignore[arg-type]
        else:
            add_term(_end_code(result, pos))
        add_off(base + len(kids))


def _stepped(step: Callable[[Position, Move], Any], pos: Position, move: Move
             ) -> tuple[Position, Any]:
    """``step(pos, move)`` as (child, points), or a GameError saying what it returned."""
    out = step(pos, move)
    if not isinstance(out, tuple) or len(out) != 2:
        raise GameError(f"step({show(pos)}, {show(move)}) returned {show(out)}: it must "
                        "return (the new position, the points the mover scores)")
    return out


class Expander:
    """One batch's expansion into the discovery's arrays: serial, or split with the helper
    process (:mod:`..workers`), which expands the second half while this process expands
    the first. The halves are appended in order, so the arrays (and the ids the store
    gives) are exactly the serial pass's; a half the helper failed on is expanded here,
    where its error is raised as the serial pass raises it. ``fast``: a win/lose game
    with int positions (:func:`expand_ints`)."""

    def __init__(self, fast: bool, rules: Rules, store: KeyStore, into: Found) -> None:
        self.fast, self.rules, self.store, self.into = fast, rules, store, into

    def batch(self, i: int, size: int, kids: Kids, base: int, helper: ExpandHelper | None,
              sent: bool) -> bool:
        """Expand the ``size`` positions numbered from ``i`` (``sent``: the helper has the
        second half already). False when the helper failed (its half was expanded here)."""
        store = self.store
        if helper is None or (size < BATCH and not sent):
            # a narrow frontier: a round trip would cost more than the few positions
            # save
            self.serial(store.batch(i, size), store, kids, self.into, base, i)
            return True
        half = size // 2
        if not sent:
            helper.submit(store.payload(i + half, size - half))
        self.serial(store.batch(i, half), store, kids, self.into, base, i)
        got = helper.collect()
        if got is None:
            # offsets count from base: kids already holds the first half
            self.serial(store.batch(i + half, size - half), store, kids, self.into, base,
                        i + half)
            return False
        self.merge(got, kids, base)
        return True

    def serial(self, batch: list[Position], keys: ChildKeys, kids: Kids, into: Found,
               base: int, first: int = 0) -> None:
        """Expand ``batch`` here (``first``: its first position's id, in the parent)."""
        if self.fast:
            expand_ints(batch, self.rules, kids, into, base)
        else:
            expand(batch, self.rules, keys, kids, into, base, first)

    def remote(self, payload: list[Any]) -> tuple[Any, ...]:
        """In the helper: a batch (as :meth:`KeyStore.payload` sent it) expanded into fresh
        arrays, offsets from 0, and the children as codes (int positions, encoded games)
        or as the game's objects (the parent numbers them)."""
        batch = self.store.unpack(payload)
        into = Found.empty(self.rules.scored)
        keys = self.store.for_helper()
        kids = keys.new_kids()  # an int64 array for int positions, as here
        self.serial(batch, keys, kids, into, 0)
        return (keys.sent(kids), *into.sent())

    def merge(self, got: tuple[Any, ...], kids: Kids, base: int) -> None:
        """Append the helper's half after this process's."""
        children, terminal, offsets, payoffs, finals = got
        ends = np.frombuffer(offsets, dtype=np.int64) + (base + len(kids))
        self.store.adopt(children, kids)
        into = self.into
        into.terminal.extend(terminal)
        into.offsets.frombytes(ends.tobytes())
        if into.payoffs is not None:
            into.payoffs.extend(payoffs)
        if into.finals is not None:
            into.finals.extend(finals)


class ForkedFailed(Exception):
    """A discovery that used the helper failed: run it again without (see
    :func:`~.graph.discover`)."""


def send_ahead(helper: ExpandHelper | None, store: KeyStore, nxt: int) -> int:
    """Give the helper the second half of the batch at ``nxt`` now, while this process
    numbers the children of the last one, when that batch is whole and known already.
    Returns ``nxt`` if it did, else -1."""
    if helper is None or store.n < nxt + 2 * BATCH:
        return -1
    helper.submit(store.payload(nxt + BATCH, BATCH))
    return nxt


def start_helper(expander: Expander, bar: Progress) -> ExpandHelper | None:
    """The helper process, or None: positions that do not survive a pickle round trip
    equal (identity-based pieces, sentinels) stay in this process, as do forks where
    another thread runs (the progress bar's refresh thread is paused for the fork). Nor for
    a game with ``outcome_after``: the helper would ask ``outcome`` of its half and of every
    child it finds, and one process told the moves is the faster (Connect Four 4x5: 13.3 s
    CPU alone against 26.8 s with the helper)."""
    if isinstance(expander.store, ObjectStore) and expander.store.known is not None:
        return None
    if not expander.store.pickles_equal():
        return None
    with bar.paused():
        if not workers.helper_allowed():
            return None
        return workers.start_helper(expander.remote)


# -- what a game's methods may return ------------------------------------------------------------
def is_move_list(moves: object) -> bool:
    """What ``moves(pos)`` may return: an iterable of moves (not None, a number or a
    string, which are the usual slips)."""
    return not (moves is None or isinstance(moves, int | float | str | bytes)
                or not hasattr(moves, "__iter__"))


def terminal_code(result: Outcome, pos: Position, scored: bool, finals: Sink | None) -> int:
    """The code of an ended position's ``outcome`` (a scored game's points go to
    ``finals``); a GameError for anything an outcome may not be."""
    if isinstance(result, Value):
        if result is Value.DRAW:
            raise GameError(f"outcome({show(pos)}) is DRAW: a draw is what the engine proves, an "
                            "outcome must be WIN, LOSE or TIE")
        if scored:
            if result is not Value.TIE:
                raise GameError(f"outcome({show(pos)}) is {result.name} in a scored game: return "
                                "Value.TIE or the final points for the player to move")
            finals.append(0)  # type: ignore[union-attr]
            return TIE_CODE
        return _TERMINAL_CODES[result]
    if scored and is_real(result):
        finals.append(points(result, "outcome", pos))  # type: ignore[union-attr]
        return TIE_CODE
    raise GameError(f"outcome({show(pos)}) returned {show(result)}: expected None, Value.WIN, "
                    "Value.LOSE or Value.TIE" + (" or a number" if scored else ""))


def hashable(x: object) -> bool:
    """True when ``x`` can be a position (it hashes, without raising or recursing)."""
    try:
        hash(x)
    except Exception:  # noqa: BLE001 - TypeError, or whatever a user's __hash__ raises
        return False
    return True


def is_real(x: object) -> bool:
    """A real number and not a bool: what points may be. (int and float answered at once:
    the ABC's check costs a microsecond or more, and this is asked of every option of
    every search.)"""
    kind = type(x)
    if kind is int or kind is float:
        return True
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def is_points(x: object) -> bool:
    """Points the engine can add and compare: a real number, not NaN, not infinite."""
    if not is_real(x):
        return False
    try:
        return math.isfinite(x)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):  # a huge Fraction is still finite
        return True


def points(x: object, name: str, *args: object) -> Any:
    """``x`` if it is points (:func:`is_points`: an int, a finite float, a Fraction);
    otherwise a :class:`GameError` naming the call ``name(*args)`` that gave it (the message
    is made only then: this runs once a move). ``x`` is any value a game returned."""
    if type(x) is int:
        return x
    what = f"{name}({', '.join(show(a) for a in args)})"
    if not is_real(x):
        raise GameError(f"{what} returned {show(x)}: expected a number")
    if not is_points(x):
        raise GameError(f"{what} returned {x}: points must be finite numbers")
    return x
