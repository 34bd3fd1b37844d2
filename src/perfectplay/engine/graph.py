"""Discovery: walk a game from its start and number every reachable position.

The result, :class:`GameGraph`, is plain arrays in CSR form (``offsets``/``children``), so the
solvers run as numba kernels over integers and never call back into the user's game.
Discovery is a breadth-first loop (no recursion), O(positions + moves) calls of the game's
methods, and it is the only part of a solve that runs the user's Python code.

Positions are kept as compactly as the game allows:

- **codes**: when positions are ints (or the game defines ``encode``/``decode``), each is one
  int64 in a numpy array with an open-addressing id table (:mod:`.codetable`); children are
  looked up in batches by a numba kernel. No Python object is kept per position.
- **objects**: otherwise a dict from position to id, as any hashable object can be a
  position.

Moves are never stored: a position's moves are asked of the game again when a caller wants
them (``Solution.move_values``), in the same order, so edge k of position i is move
``k - offsets[i]`` of ``moves(pos)``. Children are int32 ids. With int positions this is
about 60 bytes a position on Connect Four (benchmarks/engine.py).
"""

from __future__ import annotations

import math
import numbers
import pickle
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import GameError, LimitError, show
from ..progress import Progress
from . import workers
from .codetable import id_find, id_intern, id_rehash
from .kernels import bfs_parity, reverse_csr
from .protocol import (
    LOSE_CODE,
    TIE_CODE,
    UNKNOWN,
    WIN_CODE,
    Game,
    Value,
    has_player,
    is_scored,
    stepper,
)
from .workers import ExpandHelper

_TERMINAL_CODES = {Value.WIN: WIN_CODE, Value.LOSE: LOSE_CODE, Value.TIE: TIE_CODE}
_BATCH = 4096  # positions expanded between two calls of the id-table kernel
_MAX_IDS = 2**31 - 1  # children are int32


@dataclass
class GameGraph:
    """Every reachable position of a game, numbered 0.. in discovery order (0 = start).

    ``children[offsets[i]:offsets[i+1]]`` are the positions reached by the moves of position
    ``i`` (in the order ``moves`` gives them); ``terminal[i]`` is 0 while the game goes on,
    else the outcome's code. Scored games have ``payoffs`` (one per move) and ``finals`` (the
    final points of each ended position, 0 elsewhere): int64 arrays when every number fits,
    else lists of exact Python numbers. ``player`` is set when the game defines
    ``player(pos)``. Positions are ``codes`` (int64, with the id table ``slots``) or
    ``objects`` (with the dict ``index``).
    """

    game: Any
    offsets: np.ndarray
    children: np.ndarray
    terminal: np.ndarray
    scored: bool
    payoffs: Any = None
    finals: Any = None
    player: np.ndarray | None = None
    codes: np.ndarray | None = None
    slots: np.ndarray | None = None
    decode: Callable[[int], Any] | None = None
    encode: Callable[[Any], int] | None = None
    objects: list[Any] | None = None
    index: dict[Any, int] | None = None

    @property
    def size(self) -> int:
        return self.offsets.size - 1

    def position(self, i: int) -> Any:
        """The position with id ``i``."""
        if self.objects is not None:
            return self.objects[i]
        assert self.codes is not None
        code = int(self.codes[i])
        return code if self.decode is None else self.decode(code)

    def id_of(self, pos: Any) -> int:
        """The id of ``pos``; KeyError when it is not reachable, TypeError when it cannot be
        a position."""
        if self.index is not None:
            return self.index[pos]
        assert self.codes is not None and self.slots is not None
        code = pos if self.encode is None else self.encode(pos)
        if isinstance(code, bool) or not isinstance(code, int | np.integer):
            raise KeyError(pos)
        if not -(2**63) < int(code) < 2**63:
            raise KeyError(pos)
        i = int(id_find(self.slots, self.codes, np.int64(code)))
        if i < 0:
            raise KeyError(pos)
        return i

    @property
    def positions(self) -> Sequence[Any]:
        """Every position, in id order (a lazy view: nothing is copied)."""
        return _Positions(self)

    def moves_of(self, i: int, pos: Any | None = None) -> list[Any]:
        """The moves of position ``i`` asked of the game again, in the order of its edges."""
        here = self.position(i) if pos is None else pos
        if self.terminal[i] != UNKNOWN:
            return []
        moves = list(self.game.moves(here))
        want = int(self.offsets[i + 1] - self.offsets[i])
        if len(moves) != want:
            raise GameError(f"moves({show(here)}) gave {len(moves)} moves now and {want} during "
                            "the solve: moves() must be deterministic")
        return moves

    def edge_sources(self) -> np.ndarray:
        """For each move, the id of the position it is played from."""
        degree = np.diff(self.offsets)
        return np.repeat(np.arange(self.size, dtype=np.int64), degree)

    def reverse(self, with_edges: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Parents in CSR form: ``src[off[c]:off[c+1]]`` are the positions with a move into
        ``c`` (once per move) and ``edge[...]`` the indices of those moves (only with
        ``with_edges``; else empty). O(moves)."""
        return reverse_csr(self.offsets, self.children, with_edges)


class _Positions(Sequence[Any]):
    def __init__(self, graph: GameGraph) -> None:
        self._g = graph

    def __len__(self) -> int:
        return self._g.size

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self._g.position(j) for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._g.position(i)

    def __iter__(self) -> Iterator[Any]:
        g = self._g
        if g.objects is not None:
            yield from g.objects
            return
        assert g.codes is not None
        for code in g.codes.tolist():
            yield code if g.decode is None else g.decode(code)


class _NotInt(Exception):
    """A position of a game with an int start is not an int64: use objects instead."""


class _Sink:
    """Appends numbers to a compact int64 array until one does not fit, then to a list."""

    def __init__(self) -> None:
        self.data: Any = array("q")

    def append(self, x: Any) -> None:
        try:
            self.data.append(x)
        except (TypeError, OverflowError):
            if isinstance(self.data, list):
                raise
            self.data = list(self.data)
            self.data.append(x)

    def extend(self, data: Any) -> None:
        """Append another sink's ``data`` (an int64 array or a list)."""
        if isinstance(self.data, array) and isinstance(data, array):
            self.data.extend(data)
            return
        if not isinstance(self.data, list):
            self.data = list(self.data)
        self.data.extend(data)

    def result(self) -> Any:
        if isinstance(self.data, list):
            return self.data
        return np.frombuffer(self.data, dtype=np.int64).copy() if self.data else \
            np.zeros(0, np.int64)


# Peak bytes per position, measured (benchmarks/engine.py) with a margin: Python games whose
# positions are objects (ints and encoded positions take about 70), compiled discovery,
# compiled tiers (scored games, the larger).
_BYTES = {"python": 250, "graph": 130, "tiers": 30}


def position_limit(path: str, available: int | None = None) -> int:
    """How many positions fit in 80 % of the memory available now (``MemAvailable`` of
    /proc/meminfo; 8 GiB where that cannot be read) at ``path``'s bytes per position:
    "python" (Python discovery), "graph" (compiled discovery) or "tiers"."""
    return memory_limit(_BYTES[path], available)


def memory_limit(per_position: int, available: int | None = None) -> int:
    """How many positions of ``per_position`` peak bytes fit in 80 % of the memory
    available now (at least 1,000): the default ``max_positions`` of a game that knows
    its own bytes a position (an OpenSpiel game's pyspiel states)."""
    if available is None:
        available = _available_memory()
    return max(1000, int(available * 0.8) // per_position)


def _available_memory() -> int:
    """Bytes free now: MemAvailable, or less when a cgroup (a container) caps this process."""
    free = 8 * 2**30
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    free = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError):
        pass
    try:
        cap = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        used = Path("/sys/fs/cgroup/memory.current").read_text().strip()
        if cap.isdigit() and used.isdigit():
            free = min(free, int(cap) - int(used))
    except OSError:
        pass
    return max(min(free, _address_space_left()), 0)


def _address_space_left() -> int:
    """Bytes of address space this process may still map under ``RLIMIT_AS`` (a ``ulimit
    -v``): unlimited when none is set or it cannot be read."""
    try:
        import resource
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY:
            return 2**62
        with open("/proc/self/statm") as f:
            used = int(f.read().split()[0]) * resource.getpagesize()
        return soft - used
    except (ImportError, OSError, ValueError):
        return 2**62


def discover(game: Game, max_positions: int | None = None,
             progress: bool | None = None) -> GameGraph:
    """Number every position reachable from ``game.initial()``.

    Raises :class:`GameError` (with the position) when the game breaks the protocol, and
    :class:`LimitError` past ``max_positions`` (default: :func:`position_limit`).
    """
    if max_positions is None:
        max_positions = position_limit("python")
    start = game.initial()
    codec = _codec(game, start)
    fork = workers.helper_allowed() and getattr(game, "parallel", True) is not False
    if codec is not None:
        try:
            return _discover_once(game, start, max_positions, progress, codec, fork)
        except _NotInt:
            pass
    return _discover_once(game, start, max_positions, progress, None, fork)


def _discover_once(game: Any, start: Any, max_positions: int, progress: bool | None,
                   codec: tuple[Any, Any] | None, fork: bool) -> GameGraph:
    """:func:`_discover`, with the helper process if ``fork``; when a discovery that had
    forked fails, it is run again without the helper before any error is believed: a game
    whose methods fill a table on the game object (``play`` keeping states, say) would
    find it filled in the helper only. (Run after the failed attempt is let go, so its
    arrays are freed and a real error is raised plainly.)"""
    try:
        return _discover(game, start, max_positions, progress, codec, fork)
    except _ForkedFailed:
        pass
    return _discover(game, start, max_positions, progress, codec, False)


def _codec(game: Any, start: Any) -> tuple[Any, Any] | None:
    enc, dec = getattr(game, "encode", None), getattr(game, "decode", None)
    if callable(enc) and callable(dec):
        return enc, dec
    if type(start) is int:
        return None, None
    return None


def _discover(game: Any, start: Any, max_positions: int, progress: bool | None,
              codec: tuple[Any, Any] | None, fork: bool = False) -> GameGraph:
    """The breadth-first loop, over codes (``codec`` given) or objects; ``fork``: with the
    helper process once the game is large enough (:mod:`.workers`)."""
    scored = is_scored(game)
    outcome, moves_of, play = game.outcome, game.moves, game.play
    payoff = game.payoff if scored else None
    step = stepper(game)
    offsets = array("q", [0])
    children = array("i")
    terminal = array("b")
    payoffs = _Sink() if scored else None
    finals = _Sink() if scored else None
    store = _CodeStore(start, codec) if codec is not None else _ObjectStore(start)
    fast = codec == (None, None) and not scored
    expander = _Expander(fast, outcome, moves_of, play, payoff, step, store, scored, terminal,
                         offsets, payoffs, finals)
    helper: ExpandHelper | None = None
    sent = -1  # the batch whose second half the helper already has
    i = 0
    with Progress("discovering positions", enabled=progress) as bar:
        try:
            while i < store.n:
                if fork and store.n >= workers.START_AFTER:
                    fork = False  # one try
                    helper = _start_helper(expander, store, bar)
                size = min(store.n - i, _BATCH if helper is None else 2 * _BATCH)
                kids: Any = store.new_kids()
                try:
                    ok = expander.batch(i, size, kids, offsets[-1], helper, sent == i)
                except (TypeError, OverflowError):
                    if not fast:
                        raise
                    raise _NotInt from None  # the object path reports any real error
                if not ok:  # the helper failed once: go on without it
                    helper.close()  # type: ignore[union-attr]
                    helper = None
                sent = _send_ahead(helper, store, i + size)
                children.frombytes(store.intern(kids))
                i += size
                bar.update(i)
                if store.n > max_positions:
                    raise LimitError(
                        f"more than {max_positions:,} positions, the limit (by default what "
                        "the memory available holds); raise max_positions if the memory "
                        "allows, or write the game as a CompiledGame")
                if store.n > _MAX_IDS:
                    raise LimitError("more than 2**31 positions: use a compiled game")
        except (LimitError, _NotInt, MemoryError):
            raise
        except Exception as exc:
            if helper is not None:
                raise _ForkedFailed from exc
            raise
        finally:
            if helper is not None:
                helper.close()
    # numpy views of the arrays (no copy: the array objects stay alive as their bases)
    graph = store.graph(
        game=game, offsets=np.frombuffer(offsets, dtype=np.int64),
        children=np.frombuffer(children, dtype=np.int32) if children else
        np.zeros(0, np.int32),
        terminal=np.frombuffer(terminal, dtype=np.int8) if terminal else
        np.zeros(0, np.int8),
        scored=scored, payoffs=None if payoffs is None else payoffs.result(),
        finals=None if finals is None else finals.result())
    if has_player(game):
        graph.player = np.fromiter((_player_of(game, p) for p in graph.positions),
                                   dtype=np.int8, count=graph.size)
    return graph


def _expand(batch: list[Any], outcome: Any, moves_of: Any, play: Any, payoff: Any,
            store: Any, kids: Any, terminal: Any, offsets: Any, base: int, payoffs: Any,
            finals: Any, scored: bool, step: Any = None) -> None:
    """The inner loop for any game: children keyed by ``store`` (a code or an id),
    payoffs and final points collected, every protocol slip reported as a GameError.
    ``step``: the game's one-call child and points (else ``play`` then ``payoff``)."""
    pay = None
    for pos in batch:
        result = outcome(pos)
        if result is None:
            terminal.append(UNKNOWN)
            if finals is not None:
                finals.append(0)
            for move in _moves_list(moves_of, pos):
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
                    kids.append(store.key(child, pos, move))
                except (GameError, _NotInt):
                    raise
                except Exception as exc:  # noqa: BLE001 - TypeError, or a __hash__ raising
                    if hashable(child):
                        raise
                    raise GameError(f"position {show(child)} (after move {show(move)} from "
                                    f"{show(pos)}) is not hashable: {type(exc).__name__}: "
                                    f"{exc}") from None
                if payoffs is not None:
                    payoffs.append(points(pay if step is not None else payoff(pos, move),
                                          "payoff", pos, move))
        else:
            terminal.append(_terminal_code(result, pos, scored, finals))
        offsets.append(base + len(kids))


def _stepped(step: Any, pos: Any, move: Any) -> tuple[Any, Any]:
    """``step(pos, move)`` as (child, points), or a GameError saying what it returned."""
    out = step(pos, move)
    if not isinstance(out, tuple) or len(out) != 2:
        raise GameError(f"step({show(pos)}, {show(move)}) returned {show(out)}: it must "
                        "return (the new position, the points the mover scores)")
    return out


class _Expander:
    """One batch's expansion into the discovery's arrays: serial, or split with the helper
    process (:mod:`.workers`), which expands the second half while this process expands
    the first. The halves are appended in order, so the arrays (and the ids the store
    gives) are exactly the serial pass's; a half the helper failed on is expanded here,
    where its error is raised as the serial pass raises it."""

    def __init__(self, fast: bool, outcome: Any, moves_of: Any, play: Any, payoff: Any,
                 step: Any, store: Any, scored: bool, terminal: Any, offsets: Any,
                 payoffs: _Sink | None, finals: _Sink | None) -> None:
        self.fast, self.store, self.scored = fast, store, scored
        self.calls = outcome, moves_of, play, payoff, step
        self.terminal, self.offsets, self.payoffs, self.finals = terminal, offsets, payoffs, finals

    def batch(self, i: int, size: int, kids: Any, base: int, helper: ExpandHelper | None,
              sent: bool) -> bool:
        """Expand the ``size`` positions numbered from ``i`` (``sent``: the helper has the
        second half already). False when the helper failed (its half was expanded here)."""
        store = self.store
        if helper is None or (size < _BATCH and not sent):
            # a narrow frontier: a round trip would cost more than the few positions
            # save
            self.here(store.batch(i, size), kids, base)
            return True
        half = size // 2
        if not sent:
            helper.submit(store.payload(i + half, size - half))
        self.here(store.batch(i, half), kids, base)
        got = helper.collect()
        if got is None:
            # offsets count from base: kids already holds the first half
            self.here(store.batch(i + half, size - half), kids, base)
            return False
        self.merge(got, kids, base)
        return True

    def here(self, batch: list[Any], kids: Any, base: int) -> None:
        """:meth:`serial` into the discovery's own arrays and store."""
        self.serial(batch, kids, base, self.terminal, self.offsets, self.payoffs,
                    self.finals, self.store)

    def serial(self, batch: list[Any], kids: Any, base: int, terminal: Any, offsets: Any,
               payoffs: _Sink | None, finals: _Sink | None, store: Any) -> None:
        outcome, moves_of, play, payoff, step = self.calls
        if self.fast:
            _expand_ints(batch, outcome, moves_of, play, kids, terminal, offsets, base)
        else:
            _expand(batch, outcome, moves_of, play, payoff, store, kids, terminal, offsets,
                    base, payoffs, finals, self.scored, step)

    def remote(self, payload: Any) -> tuple[Any, ...]:
        """In the helper: a batch (as :meth:`_CodeStore.payload` or
        :meth:`_ObjectStore.payload` sent it) expanded into fresh arrays, offsets from 0,
        and the children as codes (int positions, encoded games) or as the game's objects
        (the parent numbers them)."""
        batch = self.store.unpack(payload)
        terminal, offsets = array("b"), array("q")
        payoffs = _Sink() if self.scored else None
        finals = _Sink() if self.scored else None
        store = _Collect() if isinstance(self.store, _ObjectStore) else self.store
        kids = store.new_kids()  # an int64 array for int positions, as here
        self.serial(batch, kids, 0, terminal, offsets, payoffs, finals, store)
        children = store.children if isinstance(store, _Collect) else kids
        return (children, terminal, offsets, None if payoffs is None else payoffs.data,
                None if finals is None else finals.data)

    def merge(self, got: tuple[Any, ...], kids: Any, base: int) -> None:
        """Append the helper's half after this process's."""
        children, terminal, offsets, payoffs, finals = got
        ends = np.frombuffer(offsets, dtype=np.int64) + (base + len(kids))
        if isinstance(self.store, _ObjectStore):
            key = self.store.key
            for child in children:
                kids.append(key(child, None, None))
        else:
            kids.extend(children)
        self.terminal.extend(terminal)
        self.offsets.frombytes(ends.tobytes())
        if self.payoffs is not None:
            self.payoffs.extend(payoffs)
        if self.finals is not None:
            self.finals.extend(finals)


class _ForkedFailed(Exception):
    """A discovery that used the helper failed: run it again without (see
    :func:`_discover_once`)."""


class _Collect:
    """The helper's stand-in for the object store: keeps the children in order (the parent
    numbers them), checking only that they hash."""

    def __init__(self) -> None:
        self.children: list[Any] = []

    @staticmethod
    def new_kids() -> Any:
        return array("i")

    def key(self, child: Any, pos: Any, move: Any) -> int:
        hash(child)
        self.children.append(child)
        return 0


def _send_ahead(helper: ExpandHelper | None, store: Any, nxt: int) -> int:
    """Give the helper the second half of the batch at ``nxt`` now, while this process
    numbers the children of the last one, when that batch is whole and known already.
    Returns ``nxt`` if it did, else -1."""
    if helper is None or store.n < nxt + 2 * _BATCH:
        return -1
    helper.submit(store.payload(nxt + _BATCH, _BATCH))
    return nxt


def _start_helper(expander: _Expander, store: Any, bar: Progress) -> ExpandHelper | None:
    """The helper process, or None: positions that do not survive a pickle round trip
    equal (identity-based pieces, sentinels) stay in this process, as do forks where
    another thread runs (the progress bar's refresh thread is paused for the fork)."""
    if not store.pickles_equal():
        return None
    with bar.paused():
        if not workers.helper_allowed():
            return None
        return workers.start_helper(expander.remote)


def _expand_ints(batch: list[int], outcome: Any, moves_of: Any, play: Any, kids: Any,
                 terminal: Any, offsets: Any, base: int) -> None:
    """The inner loop for a win/lose game with int positions, as lean as Python allows:
    children go straight into an int64 array (a non-int or a too-large child raises
    TypeError or OverflowError, and the caller starts again keeping objects)."""
    add_kid, add_term, add_off = kids.append, terminal.append, offsets.append
    lose, tie, win = Value.LOSE, Value.TIE, Value.WIN  # by identity: Enum hashing is Python
    for pos in batch:
        result = outcome(pos)
        if result is None:
            add_term(UNKNOWN)
            for move in moves_of(pos):
                add_kid(play(pos, move))
        elif result is lose:
            add_term(LOSE_CODE)
        elif result is tie:
            add_term(TIE_CODE)
        elif result is win:
            add_term(WIN_CODE)
        else:
            add_term(_terminal_code(result, pos, False, None))  # says what is wrong
        add_off(base + len(kids))


def is_move_list(moves: Any) -> bool:
    """What ``moves(pos)`` may return: an iterable of moves (not None, a number or a
    string, which are the usual slips)."""
    return not (moves is None or isinstance(moves, int | float | str | bytes)
                or not hasattr(moves, "__iter__"))


def _moves_list(moves_of: Any, pos: Any) -> Any:
    moves = moves_of(pos)
    if not is_move_list(moves):
        raise GameError(f"moves({show(pos)}) returned {show(moves)}: expected an iterable of moves")
    return moves


class _CodeStore:
    """Positions as int64 codes, numbered by the id-table kernel a batch at a time."""

    def __init__(self, start: Any, codec: tuple[Any, Any]) -> None:
        self.encode, self.decode = codec
        code = self._code(start, None, None)
        self.codes = np.empty(1024, np.int64)
        self.codes[0] = code
        self.n = 1
        self.slots = id_rehash(2048, self.codes, 1)

    def _code(self, pos: Any, parent: Any, move: Any) -> int:
        """The int64 code of ``pos``; _NotInt (keep objects instead) when there is none:
        a position that is not an int64, or an ``encode`` that gives something else (say
        a code past 2**63) or does not round-trip the start through ``decode``."""
        if self.encode is None:
            if type(pos) is not int or not -(2**63) < pos < 2**63:
                raise _NotInt
            return pos
        code = self.encode(pos)
        if isinstance(code, bool) or not isinstance(code, int) or not -(2**63) < code < 2**63:
            raise _NotInt
        if parent is None and self.decode(code) != pos:
            raise _NotInt
        return code

    def batch(self, i: int, size: int) -> list[Any]:
        return self.unpack(self.payload(i, size))

    def payload(self, i: int, size: int) -> list[int]:
        """Positions i.. as what crosses to the helper: their codes."""
        return self.codes[i:min(self.n, i + size)].tolist()

    def unpack(self, codes: list[int]) -> list[Any]:
        return codes if self.decode is None else [self.decode(c) for c in codes]

    @staticmethod
    def pickles_equal() -> bool:
        return True  # codes are ints

    def new_kids(self) -> Any:
        return array("q") if self.encode is None else []

    def key(self, child: Any, pos: Any, move: Any) -> int:
        return self._code(child, pos, move)

    def intern(self, kids: Any) -> bytes:
        batch = np.asarray(kids, dtype=np.int64) if isinstance(kids, list) else \
            np.frombuffer(kids, dtype=np.int64) if kids else np.zeros(0, np.int64)
        ids = np.empty(batch.size, np.int64)
        self.slots, self.codes, n = id_intern(self.slots, self.codes, self.n, batch, ids)
        self.n = int(n)
        return ids.astype(np.int32).tobytes()

    def graph(self, **fields: Any) -> GameGraph:
        return GameGraph(codes=self.codes[:self.n].copy(), slots=self.slots,
                         encode=self.encode, decode=self.decode, **fields)


class _ObjectStore:
    """Positions as the game's own hashable objects, in a dict."""

    def __init__(self, start: Any) -> None:
        try:
            self.index: dict[Any, int] = {start: 0}
        except Exception as exc:  # noqa: BLE001 - TypeError, or a __hash__ raising
            raise GameError(f"the start position {show(start)} is not hashable: "
                            f"{type(exc).__name__}: {exc}") from None
        self.objects = [start]
        self.n = 1

    def batch(self, i: int, size: int) -> list[Any]:
        return self.objects[i:i + size]

    payload = batch

    @staticmethod
    def unpack(batch: list[Any]) -> list[Any]:
        return batch

    def pickles_equal(self, samples: int = 64) -> bool:
        """Do positions come back from a pickle round trip equal, with equal hashes
        (checked on ``samples`` of them spread over those found)? Not for pieces compared
        by identity, whose copies the helper would send back."""
        step = max(1, self.n // samples)
        try:
            for pos in self.objects[::step]:
                back = pickle.loads(pickle.dumps(pos, pickle.HIGHEST_PROTOCOL))
                if back != pos or hash(back) != hash(pos):
                    return False
        except Exception:  # noqa: BLE001 - anything that does not pickle stays here
            return False
        return True

    @staticmethod
    def new_kids() -> Any:
        return array("i")

    def key(self, child: Any, pos: Any, move: Any) -> int:
        cid = self.index.setdefault(child, self.n)
        if cid == self.n:
            self.objects.append(child)
            self.n += 1
        return cid

    @staticmethod
    def intern(kids: Any) -> bytes:
        return kids.tobytes()

    def graph(self, **fields: Any) -> GameGraph:
        return GameGraph(objects=self.objects, index=self.index, **fields)


def _terminal_code(result: Any, pos: Any, scored: bool, finals: _Sink | None) -> int:
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


def hashable(x: Any) -> bool:
    """True when ``x`` can be a position (it hashes, without raising or recursing)."""
    try:
        hash(x)
    except Exception:  # noqa: BLE001 - TypeError, or whatever a user's __hash__ raises
        return False
    return True


def is_real(x: Any) -> bool:
    """A real number and not a bool: what points may be."""
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def is_points(x: Any) -> bool:
    """Points the engine can add and compare: a real number, not NaN, not infinite."""
    if not is_real(x):
        return False
    try:
        return math.isfinite(x)
    except (TypeError, ValueError, OverflowError):  # a huge Fraction is still finite
        return True


def points(x: Any, name: str, *args: Any) -> Any:
    """``x`` if it is points (:func:`is_points`: an int, a finite float, a Fraction);
    otherwise a :class:`GameError` naming the call ``name(*args)`` that gave it (the message
    is made only then: this runs once a move)."""
    if type(x) is int:
        return x
    what = f"{name}({', '.join(show(a) for a in args)})"
    if not is_real(x):
        raise GameError(f"{what} returned {show(x)}: expected a number")
    if not is_points(x):
        raise GameError(f"{what} returned {x}: points must be finite numbers")
    return x


def _player_of(game: Any, pos: Any) -> int:
    who = game.player(pos)
    if who not in (0, 1):
        raise GameError(f"player({show(pos)}) returned {show(who)}: expected 0 or 1")
    return int(who)


def turn_parity(graph: GameGraph) -> tuple[np.ndarray, tuple[int, int] | None]:
    """Who moves at each position under strict alternation: the parity of a shortest path
    from the start. Returns (parity array, None) or (parity, (parent, child)) for the first
    move that joins two positions of equal parity: proof that the positions do not say whose
    turn it is (harmless in an impartial game). O(positions + moves)."""
    parity, bad_parent, bad_child = bfs_parity(graph.offsets, graph.children)
    conflict = None if bad_parent < 0 else (int(bad_parent), int(bad_child))
    return parity, conflict
