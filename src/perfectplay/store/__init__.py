"""Stores: a game solved tier by tier onto disk, and read back like a Solution.

A game that outgrows memory declares tiers: ``tier(pos)`` -> int, every move going to a
higher tier or staying inside its own (cycles are allowed only there). :func:`solve_tiered`
solves it into a folder one tier at a time, on a local Dask cluster or a given scheduler,
resumably; :func:`open_store` reads it back. Two backends, one format
(:mod:`perfectplay.store.layout`) and one reader (:class:`Store`):

- a :class:`~perfectplay.engine.CompiledGame` (:mod:`perfectplay.store.compiled`): no Python
  per position; with ``rank``/``unrank`` no key is stored at all;
- a Python game with ``encode``/``decode`` (:mod:`perfectplay.store.python`): exact margins
  (big integers, fractions).

Example::

    from perfectplay.games import connect4
    from perfectplay.store import open_store, solve_tiered
    solve_tiered(connect4(width=5, height=4), "tb/", workers=2)
    with open_store("tb/", game=connect4(width=5, height=4)) as tb:
        tb.value(), tb.best_move()                 # the start
        tb.lookup([tb.start])["remoteness"]        # codes, in bulk
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.check import check_game
from ..engine.compiled.game import CompiledGame
from ..engine.discovery import memory_cap
from ..engine.discovery.graph import kept_positions, size_words
from ..engine.protocol import Game, PositionCount, Value, capabilities
from ..errors import GameError, LimitError
from .compiled import solve_compiled_store
from .integrity import (
    LOCK_NAME,
    FolderLock,
    OtherGame,
    StoreDamaged,
    StoreInUse,
    check_identity,
    game_identity,
)
from .layout import FORMAT, SolveStopped, StoreError, read_manifest
from .python import check_tiered, solve_python_store
from .reader import NotInStore, Store
from .runner import (
    PYTHON_WEIGHT,
    MainGuardError,
    Runner,
    Steps,
    StoreJob,
    StoreSolver,
    client_for,
    register_by_value,
)
from .tabular import analyze, export_parquet, sql

__all__ = ["MainGuardError", "NotInStore", "OtherGame", "SolveStopped", "Store", "StoreDamaged",
           "StoreError", "StoreInUse", "Tablebase", "analyze", "export_parquet", "open_store",
           "query", "refuse_unfit_store", "solve_tiered", "sql", "store_need"]


@dataclass
class Tablebase:
    """A solved store: where it is, its tiers and counts, and what this run did
    (``resumed``: steps an earlier run had finished; ``already``: nothing was left to do)."""

    store: Path
    tiers: list[int]
    positions: int
    scored: bool
    resumed: bool = False
    already: bool = False


#: The positions the default check of :func:`solve_tiered` walks before a store is written.
CHECK_POSITIONS = 20_000


def refuse_if_unsound(game: Game | CompiledGame) -> None:
    """A :class:`GameError` with every problem :func:`check_game` finds in the first
    :data:`CHECK_POSITIONS` positions (nothing is written before this)."""
    report = check_game(game, max_positions=CHECK_POSITIONS, tiers_rise=False)
    if not report.ok:
        raise GameError("the game failed its check, so no store was written: "
                        + "; ".join(report.problems)
                        + " (solve_tiered(..., check=False) or --no-check skips the check)")


def solve_tiered(game: Game | CompiledGame, store: str | Path, cluster: str | None = None,
                 workers: int | None = None, client: Any = None,
                 progress: Callable[[str], None] | None = None, bar: bool | None = None,
                 stop_after: int | None = None, game_ref: str | None = None,
                 roots: Iterable[int] | np.ndarray | None = None,
                 check: bool = True) -> Tablebase:
    """Solve a tiered game into ``store`` (see the module doc). ``client`` reuses a running
    Dask client; ``progress`` receives a line per step, ``bar`` shows a progress bar on a
    terminal; ``stop_after`` stops (:class:`SolveStopped`) after that many steps (a tier
    built, solved or packed), as a kill would; ``game_ref`` (FILE.py:Class) is recorded so
    the store can rebuild its game. Same values as :func:`perfectplay.engine.solve`.

    ``roots`` (compiled games): start from these codes instead of the start and keep every
    position they reach: a store of the game's last tiers (an endgame database, for
    ``search(..., endgame=open_store(path))``; Kalah's ``endgame_positions(k)`` are every
    position with at most k seeds in play).

    ``check`` (on by default) runs :func:`~perfectplay.engine.check_game` on the first
    :data:`CHECK_POSITIONS` positions from the start before anything is written: a game
    whose hooks lie (a ``decode`` that does not invert ``encode``, a falling ``tier``) is
    refused with a :class:`GameError` naming the problem, instead of solved into a store
    that looks sound (a few seconds at most; ``check=False`` skips it).

    The store records its game (:func:`~perfectplay.store.integrity.game_identity`): a
    folder holding another game's store, finished or not, is refused with an
    :class:`OtherGame` error naming both. One run writes a folder at a time: a second is
    refused with a :class:`StoreInUse` error saying who holds it.

    :param game: a Python game with ``tier``, ``encode`` and ``decode``, or a
        :class:`~perfectplay.engine.CompiledGame` with ``tier``.
    :param store: the folder to write (made if missing; a stopped solve in it resumes).
    :param cluster: the address of a running Dask scheduler (None: a local cluster).
    :param workers: the local cluster's worker processes (None: one a core).
    :param client: a running Dask client to reuse instead of a cluster of its own.
    :param progress: called with a line of text after each step.
    :param bar: a progress bar on stderr (None: when stderr is a terminal).
    :param stop_after: stop after this many steps (tests and demos of resuming).
    :param game_ref: the game's ``FILE.py:Class`` target, recorded so that the store
        rebuilds its game.
    :param roots: codes of a compiled game to start from: an endgame store.
    :param check: run the bounded check of the game first (True by default).
    :returns: the :class:`Tablebase` written: its tiers, its position count, whether it
        resumed.
    :raises GameError: the game fails its check, or breaks the protocol while solved.
    :raises StoreError: the folder is a file, ``roots`` is empty or given for a Python
        game, a compiled game has no ``tier``; its kinds :class:`OtherGame` (the folder
        holds another game's store) and :class:`StoreInUse` (another run writes it).
    :raises SolveStopped: ``stop_after`` steps were made (run it again to resume).
    """
    compiled = isinstance(game, CompiledGame)
    codes = None
    if roots is not None:
        if not compiled:
            raise StoreError("roots are for compiled games (an endgame store)")
        codes = np.asarray(roots, np.int64).ravel()
        if codes.size == 0:
            raise StoreError("roots is empty: give at least one position")
    if not isinstance(game, CompiledGame):
        check_tiered(game)
    elif not game.tiered:
        raise StoreError(f"{game.name} has no tier function; a store needs one")
    root = Path(store)
    if root.exists() and not root.is_dir():
        raise StoreError(f"{store} is a file, not a store folder")
    manifest = read_manifest(root)
    if manifest:  # another game's store is refused before anything is done
        check_identity(root, manifest, game, given=game_ref)
    if check and not manifest.get("done"):
        refuse_if_unsound(game)
    if manifest.get("done"):
        return _already(root, manifest)
    if not manifest and codes is None:  # a new store of the whole game: will it fit?
        refuse_unfit_store(game, root, workers if cluster is None and client is None else 0)
    made = not root.exists()
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot make the store {store}: {exc.strerror or exc}") from None
    try:
        with FolderLock(root):  # first: a second run is refused before a cluster starts
            own = client is None
            if own:
                client = client_for(cluster, workers)
            try:
                return _solve_locked(game, root, game_ref, codes, client, progress, bar,
                                     stop_after)
            finally:
                if own:
                    cluster_obj = getattr(client, "cluster", None)
                    client.close()
                    if cluster_obj is not None:
                        cluster_obj.close()
    except BaseException:
        if made:  # a folder this run made and left with nothing in it: gone again
            _remove_if_empty(root)
        raise


#: Disk a stored position takes while the solve runs (keys, values, remoteness: the
#: children waiting for the next tier come on top), and the most a worker's task holds: a
#: gather task's 2^26 keys twice (16 bytes a key) and an expand task's 2^24 buffered
#: children (about 26 bytes each), fewer for a game with fewer positions.
STORE_DISK_BYTES = 11
_GATHER_KEYS, _GATHER_BYTES = 2**26, 16
_EXPAND_KEYS, _EXPAND_BYTES = 2**24, 26
def store_need(kept: int) -> tuple[int, int]:
    """(disk bytes, memory bytes a worker) a store of ``kept`` positions needs at least
    while it is solved (see :data:`STORE_DISK_BYTES`).

    >>> store_need(1_000_000)
    (11000000, 42000000)
    """
    worker = (min(kept, _GATHER_KEYS) * _GATHER_BYTES
              + min(kept, _EXPAND_KEYS) * _EXPAND_BYTES)
    return kept * STORE_DISK_BYTES, worker


def refuse_unfit_store(game: Game | CompiledGame, root: Path, workers: int | None) -> None:
    """Refuse, before the Dask cluster starts, a store whose game knows its count up front
    (its ``positions_bound()`` hook: an exact count or an estimate, never a mere bound
    above) when the disk free where ``root`` goes (``shutil.disk_usage``) cannot hold it, or
    the local cluster's ``workers`` (None: one a core; 0: the cluster is not this machine's)
    need more than 80 % of the memory this process may use (:func:`memory_cap`). The
    :class:`LimitError` names both figures."""
    caps = capabilities(game)
    bound = None if caps.positions_bound is None else caps.positions_bound()
    if not isinstance(bound, PositionCount) or not bound.refuses:
        return
    kept, what = kept_positions(caps, bound)
    disk, worker = store_need(kept)
    free = shutil.disk_usage(_existing(root)).free
    local = (os.cpu_count() or 1) if workers is None else workers
    cap = memory_cap()
    problems = []
    if disk > free:
        problems.append(f"about {size_words(disk)} of disk at {STORE_DISK_BYTES} bytes a "
                        f"position, more than the {size_words(free)} free at {_existing(root)}")
    if local and local * worker > cap.free * 0.8:
        problems.append(f"{local} worker(s) of about {size_words(worker)} each, more than the "
                        f"{size_words(int(cap.free * 0.8))} this process may use (80 % of "
                        f"{size_words(cap.free)}: {cap.source})")
    if problems:
        hint = (f"; search a position instead: perfectplay search {bound.target!r}"
                if bound.target else "")
        raise LimitError(f"a store of {what} needs {' and '.join(problems)}{hint}")


def _existing(path: Path) -> Path:
    """``path`` or its nearest folder that exists (where its files will go)."""
    path = path.absolute()
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _remove_if_empty(root: Path) -> None:
    """Remove ``root`` when it holds nothing but its lock file."""
    try:
        if {p.name for p in root.iterdir()} <= {LOCK_NAME}:
            (root / LOCK_NAME).unlink(missing_ok=True)
            root.rmdir()
    except OSError:
        pass


def _already(root: Path, manifest: dict[str, Any]) -> Tablebase:
    """The Tablebase of a store a run finished before."""
    return Tablebase(root, [e["tier"] for e in manifest["tiers"]],
                     sum(e["size"] for e in manifest["tiers"]), bool(manifest["scored"]),
                     resumed=True, already=True)


def _solve_locked(game: Game | CompiledGame, root: Path, game_ref: str | None,
                  codes: np.ndarray | None, client: Any,
                  progress: Callable[[str], None] | None, bar: bool | None,
                  stop_after: int | None) -> Tablebase:
    """Begin or resume the store at ``root``, its folder's lock held: the manifest read
    again (another run may have finished it meanwhile) and its game compared."""
    compiled = isinstance(game, CompiledGame)
    manifest = read_manifest(root)
    if manifest:
        check_identity(root, manifest, game, given=game_ref)
        if manifest.get("done"):
            return _already(root, manifest)
    resumed = bool(manifest)
    if not manifest:
        caps = capabilities(game)
        manifest = {"format": FORMAT, "game": game_ref, "scored": caps.scored,
                    "name": caps.name, "identity": game_identity(game)}
        if codes is not None:
            manifest["roots"] = int(codes.size)
    register_by_value(game)
    say = progress or (lambda _msg: None)
    workers_now = len(client.scheduler_info().get("workers", {})) or 1
    runner = Runner(client, game, workers_now, 1 if compiled else PYTHON_WEIGHT)
    job = StoreJob(root, manifest, runner, say, bar, Steps(stop_after), codes)
    solver: StoreSolver = solve_compiled_store if compiled else solve_python_store
    tiers, total = solver(game, job)
    return Tablebase(root, sorted(tiers), total, bool(manifest["scored"]),
                     resumed=resumed)


def open_store(path: str | Path, game: Game | None = None) -> Store:
    """Open a solved store for reading, as a context manager. ``game``: the game it was
    solved from, when the store cannot rebuild it (a game made in a notebook); otherwise
    the store rebuilds it from the FILE.py:Class target it records.

    Example (a store made by ``perfectplay solve GAME --store tb/``)::

        with open_store("tb/") as tb:
            tb.value(), tb.remoteness(), tb.best_move()   # the start
            tb.move_values(tb.start)                      # any position, the game's own
            tb.lookup([tb.game.encode(tb.start)])         # codes, in bulk

    :param path: the store's folder.
    :param game: the game it was solved from (None: rebuilt from the target it records).
    :returns: a :class:`Store`, which answers as a :class:`~perfectplay.engine.Solved`
        does (value, remoteness, best move, every move's value) and closes its files when
        the ``with`` block ends.
    :raises StoreError: the folder holds no finished store, or a damaged one
        (:class:`StoreDamaged`), or the store of another game than ``game``
        (:class:`OtherGame`). A game rebuilt from its target is rebuilt on first use, and
        checked against the store then.
    """
    return Store(path, game)


def query(store: str | Path, codes: Iterable[int], game: Game | None = None
          ) -> list[dict[str, Any]]:
    """Value and remoteness of encoded positions: a dict each, ``found`` False for a code
    the store does not hold."""
    s = Store(store, game)
    codes = [int(c) for c in codes]
    got = s.lookup(codes)
    out: list[dict[str, Any]] = []
    for i, code in enumerate(codes):
        if not got["found"][i]:
            out.append({"position": code, "found": False})
            continue
        value = got["value"][i]
        rem = int(got["remoteness"][i])
        out.append({"position": code, "found": True, "tier": int(got["tier"][i]),
                    "value": value.value if isinstance(value, Value) else
                    value if isinstance(value, int) else str(value),
                    "remoteness": None if rem < 0 else rem})
    return out
