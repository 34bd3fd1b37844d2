"""Discovery: walk a game from its start and number every reachable position.

The result, :class:`GameGraph`, is plain arrays in CSR form (``offsets``/``children``), so the
solvers run as numba kernels over integers and never call back into the user's game.
Discovery is a breadth-first loop (no recursion), O(positions + moves) calls of the game's
methods, and it is the only part of a solve that runs the user's Python code.

Positions are kept as compactly as the game allows, by a key store (:mod:`.keystores`):

- **codes**: when positions are ints (or the game defines ``encode``/``decode``), each is one
  int64 in a numpy array with an open-addressing id table (:mod:`..compiled.codetable`);
  children are looked up in batches by a numba kernel. No Python object is kept per position.
- **objects**: otherwise a dict from position to id, as any hashable object can be a
  position.

One batch's calls of the game, and the checks of what they return, are :mod:`.expand`'s.

Moves are never stored: a position's moves are asked of the game again when a caller wants
them (``Solution.move_values``), in the same order, so edge k of position i is move
``k - offsets[i]`` of ``moves(pos)``. Children are int32 ids. With int positions this is
about 60 bytes a position on Connect Four (benchmarks/engine.py).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ...errors import GameError, LimitError, show
from ...numbaboot import numpy_on_use
from ...progress import Progress
from .. import workers
from ..protocol import (
    UNKNOWN,
    Capabilities,
    Game,
    Move,
    Position,
    PositionCount,
    capabilities,
)
from ..retro import is_small
from ..workers import ExpandHelper
from .expand import (
    BATCH,
    Expander,
    ForkedFailed,
    Found,
    Rules,
    hashable,
    is_move_list,
    is_points,
    is_real,
    points,
    send_ahead,
    start_helper,
)
from .keystores import Codec, CodeStore, KeyStore, NotInt, ObjectStore

if TYPE_CHECKING:
    import numpy as np
else:
    np = numpy_on_use  # numpy loads where it is used: not in a small game's solve

# what a game's methods may return, checked where discovery calls them (kept importable here)
__all__ = ["MOST_SYMMETRIES", "GameGraph", "MemoryCap", "discover", "hashable", "is_move_list",
           "is_points", "is_real", "kept_positions", "memory_cap", "memory_limit", "points",
           "position_limit", "refuse_too_big", "refuse_unless_fits", "size_words",
           "solve_path", "turn_parity"]

_MAX_IDS = 2**31 - 1  # children are int32


@dataclass
class GameGraph:
    """Every reachable position of a game, numbered 0.. in discovery order (0 = start).

    ``children[offsets[i]:offsets[i+1]]`` are the positions reached by the moves of position
    ``i`` (in the order ``moves`` gives them); ``terminal[i]`` is 0 while the game goes on,
    else the outcome's code. Scored games have ``payoffs`` (one per move) and ``finals`` (the
    final points of each ended position, 0 elsewhere): int64 arrays when every number fits,
    else lists of exact Python numbers. ``player`` is set when the game defines
    ``player(pos)``. Positions are ``codes`` (int64, with the id table ``slots``, or the
    dict ``code_ids`` from code to id in a small game) or ``objects`` (with the dict
    ``index``).
    """

    game: Game
    offsets: np.ndarray
    children: np.ndarray
    terminal: np.ndarray
    scored: bool
    payoffs: np.ndarray | list[Any] | None = None  # int64, or exact Python numbers
    finals: np.ndarray | list[Any] | None = None
    player: np.ndarray | None = None
    codes: np.ndarray | None = None
    slots: np.ndarray | None = None
    decode: Callable[[int], Position] | None = None
    encode: Callable[[Position], int] | None = None
    objects: list[Position] | None = None
    index: dict[Position, int] | None = None
    code_ids: dict[int, int] | None = None

    @property
    def size(self) -> int:
        return len(self.offsets) - 1

    def numpy(self) -> GameGraph:
        """This graph with its CSR arrays as numpy arrays (views, no copy), as the kernels
        take them: a small win/lose game's discovery leaves them as Python arrays,
        which a solve in Python reads without importing numpy (issue 70). Returns self."""
        if isinstance(self.offsets, array):
            self.offsets = np.frombuffer(self.offsets, dtype=np.int64)
            self.children = np.frombuffer(self.children, dtype=np.int32) if self.children \
                else np.zeros(0, np.int32)
            self.terminal = np.frombuffer(self.terminal, dtype=np.int8) if self.terminal \
                else np.zeros(0, np.int8)
            if isinstance(self.codes, array):
                self.codes = np.frombuffer(self.codes, dtype=np.int64) if self.codes \
                    else np.zeros(0, np.int64)
            if isinstance(self.player, array):
                self.player = np.frombuffer(self.player, dtype=np.int8) if self.player \
                    else np.zeros(0, np.int8)
        return self

    def position(self, i: int) -> Position:
        """The position with id ``i``."""
        if self.objects is not None:
            return self.objects[i]
        assert self.codes is not None
        code = int(self.codes[i])
        return code if self.decode is None else self.decode(code)

    def id_of(self, pos: Position) -> int:
        """The id of ``pos``; KeyError when it is not reachable, TypeError when it cannot be
        a position."""
        if self.index is not None:
            return self.index[pos]
        assert self.codes is not None
        code = pos if self.encode is None else self.encode(pos)
        if type(code) is not int and (isinstance(code, bool)
                                      or not isinstance(code, int | np.integer)):
            raise KeyError(pos)
        if not -(2**63) < int(code) < 2**63:
            raise KeyError(pos)
        if self.code_ids is not None:
            i = self.code_ids.get(int(code), -1)
        else:
            from ..compiled import id_find  # numba: a large game's id table
            assert self.slots is not None
            i = int(id_find(self.slots, self.codes, np.int64(code)))
        if i < 0:
            raise KeyError(pos)
        return i

    @property
    def positions(self) -> Sequence[Position]:
        """Every position, in id order (a lazy view: nothing is copied)."""
        return _Positions(self)

    def moves_of(self, i: int, pos: Position | None = None) -> list[Move]:
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
        self.numpy()
        degree = np.diff(self.offsets)
        return np.repeat(np.arange(self.size, dtype=np.int64), degree)

    def reverse(self, with_edges: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Parents in CSR form: ``src[off[c]:off[c+1]]`` are the positions with a move into
        ``c`` (once per move) and ``edge[...]`` the indices of those moves (only with
        ``with_edges``; else empty). O(moves)."""
        from ..compiled import reverse_csr  # numba: the solvers that need this run there
        self.numpy()
        return reverse_csr(self.offsets, self.children, with_edges)


class _Positions(Sequence[Position]):
    def __init__(self, graph: GameGraph) -> None:
        self._g = graph

    def __len__(self) -> int:
        return self._g.size

    def __getitem__(self, i: Any) -> Any:  # an index or a slice
        if isinstance(i, slice):
            return [self._g.position(j) for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self._g.position(i)

    def __iter__(self) -> Iterator[Position]:
        g = self._g
        if g.objects is not None:
            yield from g.objects
            return
        assert g.codes is not None
        for code in g.codes.tolist():
            yield code if g.decode is None else g.decode(code)


# Peak bytes per position, measured (benchmarks/engine.py) with a margin: Python games whose
# positions are objects (ints and encoded positions take about 70), compiled discovery,
# compiled tiers (scored games, the larger).
_BYTES = {"python": 250, "graph": 130, "tiers": 30}

# Where the limits are read (tests point them at fake files).
PROC_MEMINFO = "/proc/meminfo"
PROC_CGROUP = "/proc/self/cgroup"
PROC_MOUNTINFO = "/proc/self/mountinfo"
CGROUP_ROOT = "/sys/fs/cgroup"
_UNLIMITED = 2**60  # a cgroup v1 limit this large (9223372036854771712) means none
_NO_INFO = 8 * 2**30  # what is assumed free when /proc/meminfo cannot be read


@dataclass(frozen=True)
class MemoryCap:
    """The bytes this process may still use (``free``) and what sets that figure
    (``source``, in words naming the file or limit: a cgroup's ``memory.max``, its v1
    ``memory.limit_in_bytes``, ``RLIMIT_AS``, or the machine's ``MemAvailable``)."""

    free: int
    source: str


def memory_cap() -> MemoryCap:
    """The tightest of the limits this process runs under, read now: the memory the machine
    has available (``MemAvailable`` of /proc/meminfo), the memory cgroup of this process
    (found through /proc/self/cgroup, v2 ``memory.max`` or v1 ``memory.limit_in_bytes``, the
    smallest along its path up to the root, less what the cgroup uses now but could not
    reclaim) and the address space ``RLIMIT_AS`` (``ulimit -v``, ``prlimit --as``) leaves.
    A container or a ``systemd-run -p MemoryMax=`` scope caps a process far below what the
    machine has free: a solve sized by ``MemAvailable`` alone was killed by the kernel
    after 21 minutes, with no message."""
    caps = [_machine_cap(), *_cgroup_caps(), _address_space_cap()]
    found = min((c for c in caps if c is not None), key=lambda c: c.free)
    return MemoryCap(max(found.free, 0), found.source)


def position_limit(path: str, available: int | None = None) -> int:
    """How many positions fit in 80 % of the memory available now (:func:`memory_cap`) at
    ``path``'s bytes per position: "python" (Python discovery), "graph" (compiled
    discovery) or "tiers"."""
    return memory_limit(_BYTES[path], available)


def memory_limit(per_position: int, available: int | None = None) -> int:
    """How many positions of ``per_position`` peak bytes fit in 80 % of the memory
    available now (:func:`memory_cap`; at least 1,000): the default ``max_positions`` of a
    game that knows its own bytes a position (an OpenSpiel game's pyspiel states)."""
    if available is None:
        available = memory_cap().free
    return max(1000, int(available * 0.8) // per_position)


def refuse_unless_fits(positions: int, path: str, what: str,
                       max_positions: int | None = None) -> None:
    """A :class:`LimitError` naming the need and the limit, before any work, when
    ``positions`` (a count or an estimate known up front: a catalog game's published count)
    cannot be solved on ``path`` ("python", "graph" or "tiers"): more than
    ``max_positions`` when it is given, else more than the memory this process may use
    holds (:func:`memory_cap`) at the path's bytes a position. ``what`` names the count
    (the message starts with it).

    >>> refuse_unless_fits(5_478, "tiers", "5,478 positions")  # fits anywhere
    >>> refuse_unless_fits(10**6, "python", "1,000,000 positions", max_positions=1000)
    Traceback (most recent call last):
    ...
    perfectplay.errors.LimitError: 1,000,000 positions: more than max_positions (1,000)
    """
    if max_positions is not None:
        if positions > max_positions:
            raise LimitError(f"{what}: more than max_positions ({max_positions:,})")
        return
    cap = memory_cap()
    per = _BYTES[path]
    if positions <= memory_limit(per, cap.free):
        return
    raise LimitError(f"{what}: about {size_words(positions * per)} at {per} bytes a position, "
                     f"more than the {size_words(int(cap.free * 0.8))} this process may use (80 % "
                     f"of {size_words(cap.free)}: {cap.source})")


def refuse_too_big(caps: Capabilities, path: str, max_positions: int | None = None) -> None:
    """Refuse, before any work, a game whose ``positions_bound()`` hook (read into
    :class:`~perfectplay.engine.protocol.Capabilities`) gives more positions than fit on
    ``path`` (see :func:`refuse_unless_fits`): 7x6 Connect Four's 4.5 x 10^12 were enumerated
    until the memory ran out. A bound above ("at most") never refuses: the game may fit.
    The :class:`LimitError` names the need, the limit (its file) and, for a catalog game,
    the way to search a position of it instead. The strong solve, the store's solve and the
    command line all refuse through this one function.

    >>> from perfectplay.engine.protocol import capabilities
    >>> refuse_too_big(capabilities(object()), "python")  # no hook: nothing known, no refusal
    """
    if caps.positions_bound is None:
        return
    bound = caps.positions_bound()
    if not isinstance(bound, PositionCount) or not bound.refuses:
        return
    count, what = kept_positions(caps, bound)
    try:
        refuse_unless_fits(count, path, what, max_positions)
    except LimitError as exc:
        if not bound.target:
            raise
        raise LimitError(f"{exc}. Search a position instead (exact, without enumerating the "
                         f"game): perfectplay search {bound.target!r} (with --moves for the "
                         "position after some moves)") from None


#: The most positions a canonical form folds into one (a square board's 8 symmetries): a
#: game with ``canonical`` keeps at least its count over this many, so no symmetric game
#: that would fit is refused.
MOST_SYMMETRIES = 8


def kept_positions(caps: Capabilities, bound: PositionCount) -> tuple[int, str]:
    """(the fewest positions a solve keeps, in words): the count, or for a game with
    ``canonical`` the count over :data:`MOST_SYMMETRIES`."""
    if caps.canonical is None:
        return bound.count, bound.source
    kept = -(-bound.count // MOST_SYMMETRIES)
    return kept, f"{bound.source}, at least {kept:,} kept up to symmetry"


def solve_path(caps: Capabilities, compiled: bool, method: str = "auto") -> str:
    """The bytes-a-position path a strong solve of ``method`` takes: "tiers", "graph" or
    "python" (see :func:`position_limit`).

    >>> from perfectplay.engine.protocol import capabilities
    >>> solve_path(capabilities(object()), compiled=False)
    'python'
    """
    if not compiled or method == "python":
        return "python"
    return "tiers" if method == "tiers" or (method == "auto" and caps.tiered) else "graph"


def size_words(n: float) -> str:
    """Bytes in words: '6.0 GiB', '512.0 MiB'.

    >>> size_words(3 * 2**29)
    '1.5 GiB'
    """
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{int(n)} bytes"


def _available_memory() -> int:
    """Bytes this process may still use: :func:`memory_cap`'s ``free``."""
    return memory_cap().free


def _machine_cap() -> MemoryCap:
    """``MemAvailable`` of /proc/meminfo (8 GiB when it cannot be read)."""
    try:
        with open(PROC_MEMINFO) as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    free = int(line.split()[1]) * 1024
                    return MemoryCap(free, f"the machine's MemAvailable, {size_words(free)}")
    except (OSError, ValueError, IndexError):
        pass
    return MemoryCap(_NO_INFO, f"{PROC_MEMINFO} unreadable: {size_words(_NO_INFO)} assumed")


def _cgroup_caps() -> list[MemoryCap]:
    """The memory cgroups of this process that set a limit, each as what is left under it
    (its limit less the memory it holds and cannot reclaim), from /proc/self/cgroup: the
    unified v2 line ``0::/path`` and the v1 ``memory`` controller's ``N:memory:/path``,
    every folder from the process's own up to the hierarchy's root (a parent's limit
    holds its children too)."""
    try:
        lines = Path(PROC_CGROUP).read_text().splitlines()
    except OSError:
        return []
    caps = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":
            caps += _cgroup_chain(Path(CGROUP_ROOT), path, ("memory.max", "memory.current",
                                                            "inactive_file"))
        elif "memory" in controllers.split(","):
            mount, root = _v1_memory_mount()
            inside = path[len(root):] if root != "/" and path.startswith(root) else path
            caps += _cgroup_chain(mount, inside, ("memory.limit_in_bytes",
                                                  "memory.usage_in_bytes",
                                                  "total_inactive_file"))
    return caps


def _v1_memory_mount() -> tuple[Path, str]:
    """Where the v1 memory controller is mounted, and which cgroup path its root is
    (/proc/self/mountinfo: a container sees its own cgroup as the mount's root); the usual
    place when mountinfo cannot be read."""
    try:
        for line in Path(PROC_MOUNTINFO).read_text().splitlines():
            head, sep, tail = line.partition(" - ")
            fields, after = head.split(), tail.split()
            if sep and len(fields) >= 5 and len(after) >= 3 and after[0] == "cgroup" \
                    and "memory" in after[2].split(","):
                return Path(fields[4]), fields[3]
    except OSError:
        pass
    return Path(CGROUP_ROOT) / "memory", "/"


def _cgroup_chain(mount: Path, path: str, names: tuple[str, str, str]) -> list[MemoryCap]:
    """What is left under each limit set from ``mount/path`` up to ``mount``: the limit
    file, the usage file and the reclaimable line of ``memory.stat`` named by ``names``."""
    limit_name, usage_name, reclaim_name = names
    folder = mount / path.strip("/")
    caps = []
    while True:
        cap = _cgroup_cap(folder, limit_name, usage_name, reclaim_name)
        if cap is not None:
            caps.append(cap)
        if folder == mount or mount not in folder.parents:
            return caps
        folder = folder.parent


def _cgroup_cap(folder: Path, limit_name: str, usage_name: str,
                reclaim_name: str) -> MemoryCap | None:
    """The memory left under one cgroup folder's limit, or None (no limit, no such file)."""
    try:
        text = (folder / limit_name).read_text().strip()
    except OSError:
        return None
    if not text.isdigit() or int(text) >= _UNLIMITED:  # "max" (v2) or the v1 "none"
        return None
    limit = int(text)
    used = _read_int(folder / usage_name) or 0
    used -= min(used, _stat_line(folder / "memory.stat", reclaim_name))
    return MemoryCap(limit - used, f"the memory cgroup's limit of {size_words(limit)}, "
                                   f"{size_words(used)} in use ({folder / limit_name})")


def _read_int(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _stat_line(path: Path, name: str) -> int:
    """The value of the line ``name`` of a ``memory.stat`` file (0 when there is none)."""
    try:
        for line in path.read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == name and value.strip().isdigit():
                return int(value)
    except OSError:
        pass
    return 0


def _address_space_cap() -> MemoryCap | None:
    """What ``RLIMIT_AS`` (``ulimit -v``, ``prlimit --as``) leaves this process to map, or
    None when it sets no limit or cannot be read."""
    left = _address_space_left()
    if left >= 2**62:
        return None
    return MemoryCap(left, "the address space left under RLIMIT_AS (ulimit -v)")


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

    :param game: a Python game.
    :param max_positions: the most positions to number (None: what the memory available
        now holds, :func:`position_limit`).
    :param progress: show a progress bar (None: when stderr is a terminal).
    :returns: the :class:`GameGraph`: the positions by id, the moves as CSR arrays, the
        terminal outcomes.
    :raises GameError: the game breaks the protocol, named with the position.
    :raises LimitError: more positions than ``max_positions``.
    """
    limit = "max_positions"
    if max_positions is None:
        cap = memory_cap()
        max_positions = position_limit("python", cap.free)
        limit = (f"what 80 % of the {size_words(cap.free)} this process may use holds at "
                 f"{_BYTES['python']} bytes a position: {cap.source}")
    caps = capabilities(game)
    plan = _Plan(game, caps, game.initial(), max_positions, progress, limit)
    codec = _codec(caps, plan.start)
    fork = workers.helper_allowed() and caps.parallel
    if codec is not None:
        try:
            return _discover_once(plan, codec, fork)
        except NotInt:
            pass
    return _discover_once(plan, None, fork)


@dataclass(frozen=True, slots=True)
class _Plan:
    """What one discovery is asked: the game (its hooks read once), where it starts, at
    most how many positions, whether a progress bar shows."""

    game: Game
    caps: Capabilities
    start: Position
    max_positions: int
    progress: bool | None
    limit: str = "max_positions"  # what set max_positions, in words


def _discover_once(plan: _Plan, codec: Codec | None, fork: bool) -> GameGraph:
    """:func:`_discover`, with the helper process if ``fork``; when a discovery that had
    forked fails, it is run again without the helper before any error is believed: a game
    whose methods fill a table on the game object (``play`` keeping states, say) would
    find it filled in the helper only. (Run after the failed attempt is let go, so its
    arrays are freed and a real error is raised plainly.)"""
    try:
        return _discover(plan, codec, fork)
    except ForkedFailed:
        pass
    return _discover(plan, codec, False)


def _codec(caps: Capabilities, start: Position) -> Codec | None:
    if caps.encode is not None and caps.decode is not None:
        return caps.encode, caps.decode
    if type(start) is int:
        return None, None
    return None


def _discover(plan: _Plan, codec: Codec | None, fork: bool = False) -> GameGraph:
    """The breadth-first loop, over codes (``codec`` given) or objects; ``fork``: with the
    helper process once the game is large enough (:mod:`..workers`)."""
    rules = Rules.of(plan.game, plan.caps)
    scored = rules.scored
    into = Found.empty(scored, [0])
    children = array("i")
    store: KeyStore = CodeStore(plan.start, codec) if codec is not None else \
        ObjectStore(plan.start, after=rules.outcome_after is not None and not scored)
    fast = codec == (None, None) and not scored
    expander = Expander(fast, rules, store, into)
    helper: ExpandHelper | None = None
    sent = -1  # the batch whose second half the helper already has
    i = 0
    max_positions = plan.max_positions
    with Progress("discovering positions", enabled=plan.progress) as bar:
        try:
            while i < store.n:
                if fork and store.n >= workers.START_AFTER:
                    fork = False  # one try
                    helper = start_helper(expander, bar)
                size = min(store.n - i, BATCH if helper is None else 2 * BATCH)
                kids = store.new_kids()
                try:
                    ok = expander.batch(i, size, kids, into.offsets[-1], helper, sent == i)
                except (TypeError, OverflowError):
                    if not fast:
                        raise
                    raise NotInt from None  # the object path reports any real error
                if not ok:  # the helper failed once: go on without it
                    helper.close()  # type: ignore[union-attr]
                    helper = None
                sent = send_ahead(helper, store, i + size)
                children.frombytes(store.intern(kids))
                i += size
                bar.update(i)
                if store.n > max_positions:
                    raise LimitError(
                        f"more than {max_positions:,} positions, the limit ({plan.limit}); "
                        "raise max_positions if the memory allows, or write the game as a "
                        "CompiledGame")
                if store.n > _MAX_IDS:
                    raise LimitError("more than 2**31 positions: use a compiled game")
        except (LimitError, NotInt, MemoryError):
            raise
        except Exception as exc:
            if helper is not None:
                raise ForkedFailed from exc
            raise
        finally:
            if helper is not None:
                helper.close()
    # a small win/lose game keeps Python arrays (solved in Python, numpy never loaded);
    # any other gets numpy views of them (no copy: the arrays stay alive as their bases)
    # (typed as numpy's: a Python array answers the same indexing and len, and numpy()
    # turns them into numpy before any kernel or numpy function reads them)
    graph = GameGraph(
        game=plan.game, offsets=cast("np.ndarray", into.offsets),
        children=cast("np.ndarray", children), terminal=cast("np.ndarray", into.terminal),
        scored=scored, payoffs=None if into.payoffs is None else into.payoffs.result(),
        finals=None if into.finals is None else into.finals.result(), **store.fields())
    player = plan.caps.player
    if player is not None:
        graph.player = cast("np.ndarray",
                            array("b", (_player_of(player, p) for p in graph.positions)))
    if scored or not is_small(len(children)):
        graph.numpy()
    return graph


def _player_of(player: Callable[[Position], int], pos: Position) -> int:
    who = player(pos)
    if who not in (0, 1):
        raise GameError(f"player({show(pos)}) returned {show(who)}: expected 0 or 1")
    return int(who)


def turn_parity(graph: GameGraph) -> tuple[np.ndarray, tuple[int, int] | None]:
    """Who moves at each position under strict alternation: the parity of a shortest path
    from the start. Returns (parity array, None) or (parity, (parent, child)) for the first
    move that joins two positions of equal parity: proof that the positions do not say whose
    turn it is (harmless in an impartial game). O(positions + moves)."""
    from ..compiled import bfs_parity  # numba: only a scored cyclic game asks this
    graph.numpy()
    parity, bad_parent, bad_child = bfs_parity(graph.offsets, graph.children)
    conflict = None if bad_parent < 0 else (int(bad_parent), int(bad_child))
    return parity, conflict
