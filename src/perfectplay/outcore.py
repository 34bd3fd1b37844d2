"""Out-of-core stores of compiled games: tiers as hash-sorted arrays on disk, solved on Dask.

A :class:`~perfectplay.engine.CompiledGame` with ``tier(pos)`` (every move stays in its tier
or climbs) goes into a store without a line of Python per position. Each tier is its
positions' keys (codes mixed by a bijection, sorted: :mod:`perfectplay.engine.sortedtiers`)
laid end to end in one file, with a bucket index beside it; the values are files of the same
length. The workers memory-map them, so a machine holds only the pages the current tier
touches, and every look-up is one bucket read and a search of a few keys.

Layout of ``STORE/``::

    manifest.json           the game (FILE.py:Class(args)), tiers, sizes, progress
    arrays/keys.u64         every tier's keys, sorted, tier after tier (uint64)
    arrays/index.i64        each tier's bucket offsets (int64)
    arrays/values.i8        value codes (win 1, lose 2, tie 3, draw 4), parallel to keys
    arrays/rems.i16         remoteness (-1: a draw), parallel to keys
    arrays/margins.i64      point margins of a scored game, parallel to keys
    solved/tier=T-part=C.parquet   the same values for DuckDB: position (the code), tier,
                            code or margin, remoteness, best_move
    work/                   children waiting for their tier (while enumerating)

1. *Enumerate*, lowest tier first. When tier U's turn comes every parent has been expanded
   and its children wait under ``work/tier=U/`` as sorted key files; U's key range is cut
   into equal parts, each sorted and deduplicated by one task (the key order makes the
   parts a concatenation, not a merge). The parts are expanded by workers in a few large
   ranges: children of higher tiers go to their folders, children inside U are added to U
   until nothing new appears (the closure). Then U is appended to ``keys.u64`` and indexed.
2. *Solve*, highest tier first. Workers take a few large slot ranges each, generate each
   position's moves again, look every child up in the tiers above and write value,
   remoteness (and margin) straight into the memory-mapped files, then the range's Parquet
   part. Positions with a move inside their own tier are left open and finished in the
   client by the engine's own kernels, seeded with their solved options: retrograde
   analysis for win/lose games (cycles allowed; what stays unknown is a certified draw),
   children first for scored games (a cycle there is refused: margins of cyclic scored
   games need the in-memory label setting). Their ranges are then run again for the best
   moves and the Parquet parts.

With a ``canonical(pos)`` rule only canonical codes are stored (Connect Four: about half
the boards) and look-ups canonicalise first. A stopped run resumes from its last finished
step (a tier built, a tier solved). Margins are int64,
as in every compiled game (an overflow is an error naming the position); the Python store
(:mod:`perfectplay.tablebase`) keeps big integers and fractions.

Memory, besides the memory-mapped pages (the system's file cache: the tier being worked
and the tiers its children are in, dropped under pressure): a gather task holds at most
GATHER_KEYS keys twice (about 17 bytes a key: 1.1 GiB), an expand task EXPAND_BUFFER
children (about 25 bytes each: 0.4 GiB), a solve task its range's best moves and Parquet
columns (about 40 bytes a position, for 1/(4 x workers) of the tier); the client, for a
tier with moves inside it, that tier's keys twice and the open positions' moves.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import numpy as np

from .engine.codetable import EMPTY
from .engine.compiled import OK, TIE, CompiledGame, raise_status
from .engine.kernels import retrograde, reverse_csr, topological_order
from .engine.protocol import UNKNOWN, Value
from .engine.sortedtiers import (
    build_index,
    expand_range,
    index_bits,
    inside_graph,
    locate,
    locate_any,
    mix_all,
    seeded_negamax,
    solve_range,
    sort_unique,
    unmix_all,
    with_seed_chains,
)
from .engine.tiers import by_tier
from .errors import GameError, PerfectplayError
from .progress import Progress
from .tablebase import SolveStopped, Store, read_manifest, schema

FORMAT = "compiled-v1"
#: Keys one gather task sorts at once (its memory: about 2.2 x 8 bytes a key).
GATHER_KEYS = 1 << 26
#: Children an expand task buffers before it writes a file (16 bytes each, twice that
#: while sorting).
EXPAND_BUFFER = 1 << 24
#: Tiers (and gathers) this small are worked in the client's own process: a Dask round
#: trip would cost more than the work.
LOCAL = 1 << 16
#: Waiting children this few are sorted in the client's own process (about 50 ms a million).
LOCAL_GATHER = 1 << 20
#: At most this many ranges a worker per tier: a few large chunks, never many small ones.
CHUNKS_PER_WORKER = 4
_VALUE_NAMES = [None, Value.WIN.value, Value.LOSE.value, Value.TIE.value, Value.DRAW.value]
_VALUES = np.array([None, Value.WIN, Value.LOSE, Value.TIE, Value.DRAW], dtype=object)


# -- the files ----------------------------------------------------------------------------------
class Arrays:
    """The store's arrays, memory-mapped (read-only unless ``write``), with each tier's
    place: ``numbers`` (tier numbers, ascending), ``base`` (first slot of each tier and the
    total at the end), ``ibase`` (first index entry), ``bits`` (index bits)."""

    def __init__(self, root: Path, built: list[dict[str, int]], scored: bool,
                 write: bool = False) -> None:
        self.numbers = np.array([b["tier"] for b in built], np.int64)
        sizes = np.array([b["size"] for b in built], np.int64)
        self.bits = np.array([b["bits"] for b in built], np.int64)
        self.base = np.zeros(sizes.size + 1, np.int64)
        np.cumsum(sizes, out=self.base[1:])
        self.ibase = np.zeros(sizes.size + 1, np.int64)
        np.cumsum((1 << self.bits) + 1, out=self.ibase[1:])
        total = int(self.base[-1])
        d = root / "arrays"
        self.keys = _map(d / "keys.u64", np.uint64, total, "r")
        self.index = _map(d / "index.i64", np.int64, int(self.ibase[-1]), "r")
        mode: Literal["r", "r+"] = "r+" if write else "r"
        self.vals = _map(d / "values.i8", np.int8, total, mode)
        self.rems = _map(d / "rems.i16", np.int16, total, mode)
        self.margins = _map(d / "margins.i64", np.int64, total if scored else 0, mode)


def _map(path: Path, dtype: Any, count: int, mode: Literal["r", "r+"]) -> np.ndarray:
    """``count`` items of ``path`` memory-mapped (an empty array for none: mmap cannot map
    zero bytes)."""
    if count == 0:
        return np.zeros(0, dtype)
    if not path.exists() or path.stat().st_size < count * np.dtype(dtype).itemsize:
        raise PerfectplayError(f"{path} is missing or short: the store is damaged; delete "
                               "it and solve again")
    return np.memmap(path, dtype=dtype, mode=mode, shape=(count,))


def _write_keys(path: Path, keys: np.ndarray) -> None:
    """A work file: keys as raw uint64. A stopped run's half-written files belong to the
    tier being built, which a resumed run starts again from its inputs, so no renaming."""
    np.ascontiguousarray(keys, dtype=np.uint64).tofile(path)


def _read_keys(path: Path) -> np.ndarray:
    """A work file's keys, memory-mapped (an empty array for an empty file)."""
    n = path.stat().st_size // 8
    return np.memmap(path, dtype=np.uint64, mode="r", shape=(n,)) if n else \
        np.zeros(0, np.uint64)


def _count_keys(paths: list[Path]) -> int:
    return sum(p.stat().st_size // 8 for p in paths)


def _write_manifest(root: Path, manifest: dict[str, Any]) -> None:
    tmp = root / "manifest.json.tmp"
    tmp.write_text(json.dumps(manifest))
    tmp.replace(root / "manifest.json")


def _truncate(path: Path, size: int) -> None:
    """Cut ``path`` to ``size`` bytes (what a stopped run appended after its last record)."""
    if path.exists() and path.stat().st_size > size:
        with open(path, "r+b") as fh:
            fh.truncate(size)


# -- worker side ----------------------------------------------------------------------------------
def _expand_task(game: CompiledGame, root: str, u: int, src: str, lo: int, hi: int,
                 part: int, buffer: int, local: bool = False) -> tuple[int, int]:
    """Expand keys ``lo..hi-1`` of the sorted key file ``src`` (a part of tier ``u``):
    children keyed, sorted per target tier and written to ``work/tier=V/`` (children
    inside tier ``u``: ``work/inside=U/``), at most ``buffer`` a file: a file of its own
    on a worker, appended to the folder's ``local.u64`` in the client (creating a file
    costs half a millisecond here, appending 20 microseconds)."""
    r = game.rules
    keys = _read_keys(Path(src))
    out_keys = np.empty(max(game.max_moves, min(buffer, (hi - lo) * game.max_moves)),
                        np.uint64)
    out_tiers = np.empty(out_keys.size, np.int64)
    i, n = lo, 0
    tag = f"{u}-{Path(src).stem}-{part}"
    while i < hi:
        i, cnt, status, bad = expand_range(keys, i, hi, np.int64(u), r.moves, r.play,
                                           r.outcome, r.tier, r.canonical, game.max_moves,
                                           out_keys, out_tiers)
        if status != OK:
            return int(status), int(bad)
        if cnt:
            _file_children(Path(root), u, None if local else f"{tag}-{n}", out_keys[:cnt],
                           out_tiers[:cnt])
            n += 1
    return OK, 0


def _file_children(root: Path, u: int, tag: str | None, keys: np.ndarray,
                   tiers: np.ndarray) -> None:
    """Children sorted per target tier into that tier's folder: ``from-TAG.u64``, or
    appended to ``local.u64`` when ``tag`` is None."""
    for v, ks in by_tier(keys, tiers):
        d = root / "work" / (f"inside={u}" if v == u else f"tier={v}")
        d.mkdir(parents=True, exist_ok=True)
        if tag is None:
            with open(d / "local.u64", "ab") as fh:
                fh.write(sort_unique(ks).tobytes())
        else:
            _write_keys(d / f"from-{tag}.u64", sort_unique(ks))


def _gather_task(root: str, u: int, lo: int, hi: int | None, part: int) -> int:
    """Sort and deduplicate the keys of tier ``u`` in [lo, hi) (hi None: to the end) from
    every waiting file into ``work/parts=U/part-PART.u64``; returns how many."""
    pieces = []
    for f in sorted((Path(root) / "work" / f"tier={u}").glob("*.u64")):
        a = _read_keys(f)
        if f.name == "local.u64":  # sorted runs end to end: select by value
            keep = a >= np.uint64(lo)
            if hi is not None:
                keep &= a < np.uint64(hi)
            pieces.append(np.asarray(a[keep]))
            continue
        i = int(np.searchsorted(a, np.uint64(lo)))
        j = a.size if hi is None else int(np.searchsorted(a, np.uint64(hi)))
        if j > i:
            pieces.append(np.asarray(a[i:j]))
    keys = sort_unique(np.concatenate(pieces)) if pieces else np.zeros(0, np.uint64)
    d = Path(root) / "work" / f"parts={u}"
    d.mkdir(parents=True, exist_ok=True)
    _write_keys(d / f"part-{part}.u64", keys)
    return int(keys.size)


def _solve_task(game: CompiledGame, root: str, built: list[dict[str, int]], ti: int,
                lo: int, hi: int, part: int, inside: bool) -> tuple[int, int, int]:
    """Solve slots ``lo..hi-1`` (tier-relative) of arena tier ``ti`` into the arrays and
    write their Parquet part, unless positions with moves inside the tier are left open
    (:func:`~perfectplay.engine.sortedtiers.solve_range`); ``inside``: the tier's values
    are final, find the best moves. Returns (status, code, positions left open)."""
    r = game.rules
    a = Arrays(Path(root), built, game.scored, write=True)
    first = int(a.base[ti])
    best = np.empty(hi - lo, np.int64)
    status, bad, left = solve_range(
        ti, first + lo, first + hi, r.moves, r.play, r.outcome, r.score, r.payoff, r.player,
        r.tier, r.canonical, game.scored, game.has_player, game.max_moves, a.numbers, a.base,
        a.keys, a.ibase, a.bits, a.index, a.vals, a.rems, a.margins, best, inside)
    if status != OK:
        return int(status), int(bad), 0
    for arr in (a.vals, a.rems, a.margins):
        if isinstance(arr, np.memmap):
            arr.flush()
    if left == 0:
        s = slice(first + lo, first + hi)
        _write_part(Path(root) / "solved" / f"tier={int(a.numbers[ti])}-part={part}.parquet",
                    int(a.numbers[ti]), unmix_all(np.asarray(a.keys[s])),
                    np.asarray(a.vals[s]), np.asarray(a.rems[s]),
                    np.asarray(a.margins[s]) if game.scored else None, best)
    return OK, 0, int(left)


def _write_part(path: Path, t: int, codes: np.ndarray, vals: np.ndarray, rems: np.ndarray,
                margins: np.ndarray | None, best: np.ndarray) -> None:
    """One solved range as Parquet, in the columns of every store (DuckDB reads them all)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    n = codes.size
    if margins is None:
        code = pa.DictionaryArray.from_arrays(pa.array(vals.astype(np.int8)),
                                              pa.array(_VALUE_NAMES)).cast(pa.string())
        margin = pa.nulls(n, pa.string())
    else:
        code = pa.nulls(n, pa.string())
        margin = pc.cast(pa.array(margins), pa.string())
    moves = pc.cast(pa.array(best, mask=best == EMPTY), pa.string())
    columns = {"position": pa.array(codes), "tier": pa.array(np.full(n, t, np.int32)),
               "code": code, "margin": margin,
               "remoteness": pa.array(rems.astype(np.int32), mask=rems < 0),
               "best_move": moves}
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(pa.table(columns, schema=schema(columns)), tmp)
    tmp.replace(path)


# -- the client side ------------------------------------------------------------------------------
class _Runner:
    """Runs tasks in this process when they are small, else on the cluster."""

    def __init__(self, client: Any, game: CompiledGame, workers: int) -> None:
        self.client, self.game, self.workers = client, game, workers
        self._game_f: Any = None

    def parts(self, n: int) -> list[tuple[int, int]]:
        """[lo, hi) ranges for ``n`` positions: one when small, else a few per worker."""
        k = 1 if n <= LOCAL else min(-(-n // LOCAL), CHUNKS_PER_WORKER * self.workers)
        cuts = np.linspace(0, n, k + 1).astype(np.int64)
        return [(int(a), int(b)) for a, b in zip(cuts[:-1], cuts[1:], strict=True) if b > a]

    def run(self, fn: Callable[..., Any], calls: list[tuple[Any, ...]], local: bool,
            with_game: bool) -> list[Any]:
        if local or len(calls) == 1 and not self.client:
            return [fn(self.game, *c) if with_game else fn(*c) for c in calls]
        if with_game:
            if self._game_f is None:
                self._game_f = self.client.scatter(self.game, broadcast=True, hash=False)
            futures = [self.client.submit(fn, self._game_f, *c, pure=False) for c in calls]
        else:
            futures = [self.client.submit(fn, *c, pure=False) for c in calls]
        return self.client.gather(futures)


def _check(results: list[tuple[int, ...]], game: CompiledGame) -> None:
    for status, bad, *_ in results:
        raise_status(status, bad, game)


class _Steps:
    """Counts the steps (a tier built, a tier solved) of this run, for ``stop_after``."""

    def __init__(self, stop_after: int | None) -> None:
        self.stop_after, self.done = stop_after, 0

    def next(self) -> None:
        if self.stop_after is not None and self.done >= self.stop_after:
            raise SolveStopped(f"stopped after {self.done} steps; run again to resume")
        self.done += 1


def solve_compiled_store(game: CompiledGame, root: Path, manifest: dict[str, Any],
                         client: Any, workers: int, say: Callable[[str], None],
                         bar: bool | None, stop_after: int | None,
                         game_ref: str | None) -> tuple[list[int], int]:
    """Enumerate and solve ``game`` into ``root`` (see the module doc); returns the tier
    numbers and the number of positions stored. ``manifest`` is what the store already
    holds ({} for a new store); ``stop_after`` stops (SolveStopped) after that many steps,
    each a tier built or solved, as a kill would."""
    if manifest and manifest.get("format") != FORMAT:
        raise PerfectplayError(f"{root} holds a store of a Python game; use another folder")
    if not manifest:
        manifest = {"format": FORMAT, "game": game_ref, "scored": game.scored,
                    "symmetric": game.symmetric, "enumerated": False, "built": [],
                    "solved": []}
    (root / "arrays").mkdir(parents=True, exist_ok=True)
    (root / "solved").mkdir(parents=True, exist_ok=True)
    runner = _Runner(client, game, workers)
    steps = _Steps(stop_after)
    if not manifest["enumerated"]:
        _enumerate(game, root, manifest, runner, say, bar, steps)
    built = manifest["built"]
    total = sum(b["size"] for b in built)
    solved = set(manifest["solved"])
    with Progress("solving tiers", total=total, enabled=bar) as shown:
        done = 0
        for ti in range(len(built) - 1, -1, -1):
            t, size = built[ti]["tier"], built[ti]["size"]
            if t not in solved:
                steps.next()
                _solve_tier(game, root, built, ti, runner)
                manifest["solved"].append(t)
                _write_manifest(root, manifest)
                say(f"tier {t} solved ({size:,} positions)")
            done += size
            shown.update(done)
    return [b["tier"] for b in built], total


def _solve_tier(game: CompiledGame, root: Path, built: list[dict[str, int]], ti: int,
                runner: _Runner) -> None:
    """One tier (module doc, step 2): the positions whose moves all climb, on the cluster;
    then, if some moves stay inside the tier, those positions here (:func:`_solve_inside`)
    and their ranges again for the best moves and the Parquet parts."""
    t, size = built[ti]["tier"], built[ti]["size"]
    for old in (root / "solved").glob(f"tier={t}-part=*"):
        old.unlink()
    ranges = runner.parts(size)
    calls = [(str(root), built, ti, lo, hi, k, False) for k, (lo, hi) in enumerate(ranges)]
    results = runner.run(_solve_task, calls, size <= LOCAL, True)
    _check(results, game)
    again = [c[:-1] + (True,) for c, (_, _, left) in zip(calls, results, strict=True) if left]
    if again:
        _solve_inside(game, root, built, ti)
        _check(runner.run(_solve_task, again, size <= LOCAL, True), game)


def _solve_inside(game: CompiledGame, root: Path, built: list[dict[str, int]],
                  ti: int) -> None:
    """The open positions of a tier (moves inside it), in this process, by the engine's own
    kernels seeded with their solved options: retrograde analysis for win/lose games
    (cycles allowed: what stays unknown is a certified draw), children first for scored
    games (a cycle inside a tier is refused). Memory: the open positions' moves."""
    r = game.rules
    a = Arrays(root, built, game.scored, write=True)
    first, last = int(a.base[ti]), int(a.base[ti + 1])
    slots = first + np.flatnonzero(np.asarray(a.vals[first:last]) == UNKNOWN)
    status, bad, offsets, children, pays, passes, seed_v, seed_r, has_seed, who = \
        inside_graph(ti, slots, r.moves, r.play, r.payoff, r.player, r.tier, r.canonical,
                     game.scored, game.has_player, game.max_moves, a.numbers, a.base, a.keys,
                     a.ibase, a.bits, a.index, a.vals, a.rems, a.margins)
    raise_status(int(status), int(bad), game)
    if game.scored:
        rev_off, rev_src, _ = reverse_csr(offsets, children, False)
        order, k = topological_order(offsets, rev_off, rev_src)
        if k < slots.size:
            raise GameError(f"{game.name}: moves inside tier {built[ti]['tier']} form a "
                            "cycle; a scored game's store needs them acyclic (solve it in "
                            "memory: method='graph')")
        ok, margins, rems = seeded_negamax(order, offsets, children, pays, passes, seed_v,
                                           seed_r, has_seed)
        if not ok:
            raise GameError(f"{game.name}: a point margin in tier {built[ti]['tier']} "
                            "overflows int64")
        a.margins[slots] = margins
        a.vals[slots] = TIE
        a.rems[slots] = rems
    else:
        off, kids, terminal, players = with_seed_chains(offsets, children, seed_v, seed_r,
                                                        has_seed, who, not game.has_player)
        rev_off, rev_src, _ = reverse_csr(off, kids, False)
        value, rem = retrograde(off, kids, rev_off, rev_src, terminal, players,
                                not game.has_player)
        a.vals[slots] = value[:slots.size]
        a.rems[slots] = rem[:slots.size]
    for arr in (a.vals, a.rems, a.margins):
        if isinstance(arr, np.memmap):
            arr.flush()


def _enumerate(game: CompiledGame, root: Path, manifest: dict[str, Any], runner: _Runner,
               say: Callable[[str], None], bar: bool | None, steps: _Steps) -> None:
    """The forward sweep (module doc, step 1), resuming where ``manifest`` says: what a
    stopped run appended after its last record is cut off, and the lowest waiting tier is
    built again from its waiting files (its own partial outputs removed first)."""
    built = manifest["built"]
    arrays, work = root / "arrays", root / "work"
    _truncate(arrays / "keys.u64", 8 * sum(b["size"] for b in built))
    _truncate(arrays / "index.i64", 8 * sum((1 << b["bits"]) + 1 for b in built))
    r = game.rules
    if not built:
        shutil.rmtree(work, ignore_errors=True)
        start = np.int64(r.canonical(np.int64(game.start_code)))
        d = work / f"tier={int(r.tier(start))}"
        d.mkdir(parents=True)
        _write_keys(d / "start.u64", mix_all(np.array([start], np.int64)))
    for d in work.glob("*=*"):  # resuming: a built tier's folders a stop left behind
        if built and int(d.name.split("=")[1]) <= built[-1]["tier"]:
            shutil.rmtree(d, ignore_errors=True)
    waiting = sorted(int(p.name[5:]) for p in work.glob("tier=*"))
    if built and waiting:  # resuming: drop what a stopped build of the next tier left
        u = waiting[0]
        for f in work.glob(f"tier=*/from-{u}-*"):
            f.unlink()
        for f in work.glob("tier=*/local.u64"):
            _truncate(f, manifest.get("local", {}).get(f.parent.name, 0))
        shutil.rmtree(work / f"parts={u}", ignore_errors=True)
        shutil.rmtree(work / f"inside={u}", ignore_errors=True)
    with Progress("enumerating tiers", enabled=bar) as shown:
        while waiting:
            u = waiting[0]
            steps.next()
            size, bits = _build_tier(game, root, u, runner)
            built.append({"tier": u, "size": size, "bits": bits})
            manifest["local"] = _local_sizes(work)
            _write_manifest(root, manifest)
            for part in (f"tier={u}", f"parts={u}", f"inside={u}"):
                shutil.rmtree(work / part, ignore_errors=True)
            say(f"tier {u}: {size:,} positions")
            shown.update(sum(b["size"] for b in built))
            waiting = sorted(int(p.name[5:]) for p in work.glob("tier=*"))
    shutil.rmtree(work, ignore_errors=True)
    total = sum(b["size"] for b in built)
    for name, width in (("values.i8", 1), ("rems.i16", 2)) + (
            (("margins.i64", 8),) if game.scored else ()):
        with open(arrays / name, "wb") as fh:
            fh.truncate(total * width)  # sparse: pages are given as values arrive
    manifest["enumerated"] = True
    manifest["tiers"] = [b["tier"] for b in built]
    _write_manifest(root, manifest)


def _local_sizes(work: Path) -> dict[str, int]:
    """Bytes in each waiting tier's ``local.u64`` (what a resumed run keeps of them)."""
    sizes = {}
    with os.scandir(work) as entries:
        for entry in entries:
            if entry.name.startswith("tier="):
                with contextlib.suppress(FileNotFoundError):
                    sizes[entry.name] = os.stat(Path(entry.path) / "local.u64").st_size
    return sizes


def _build_tier(game: CompiledGame, root: Path, u: int, runner: _Runner) -> tuple[int, int]:
    """Tier ``u`` from its waiting files: gathered into sorted parts, expanded (children of
    higher tiers wait in their files), closed under the moves that stay inside it, then
    appended to the key file and indexed. Returns (size, index bits)."""
    parts = _gather(root, u, runner)
    _expand(game, root, u, parts, runner)
    extra = 0
    while True:  # the closure: positions reached only by moves inside the tier
        inside = sorted((root / "work" / f"inside={u}").glob("*.u64"))
        if not inside:
            break
        found = sort_unique(np.concatenate([np.array(_read_keys(f)) for f in inside]))
        for f in inside:
            f.unlink()
        for p in parts:
            have = _read_keys(p)
            if have.size and found.size:
                k = np.minimum(np.searchsorted(have, found), have.size - 1)
                found = found[have[k] != found]
        if not found.size:
            break
        new = root / "work" / f"parts={u}" / f"new-{extra}.u64"
        _write_keys(new, found)
        extra += 1
        parts.append(new)
        _expand(game, root, u, [new], runner)
    keys = np.concatenate([np.array(_read_keys(p)) for p in parts]) if extra else None
    return _append(root, parts if keys is None else [sort_unique(keys)])


def _gather(root: Path, u: int, runner: _Runner) -> list[Path]:
    """Tier ``u``'s waiting files as sorted parts: equal key ranges, each sorted and
    deduplicated by one task, in key order (laid end to end they are the tier)."""
    waiting = _count_keys(list((root / "work" / f"tier={u}").glob("*.u64")))
    k = max(1, -(-waiting // GATHER_KEYS))
    local = waiting <= LOCAL_GATHER
    if not local:
        k = max(k, runner.workers)
    cuts = [(j << 64) // k for j in range(k)]
    calls = [(str(root), u, cuts[j], cuts[j + 1] if j + 1 < k else None, j) for j in range(k)]
    runner.run(_gather_task, calls, local, False)
    return [root / "work" / f"parts={u}" / f"part-{j}.u64" for j in range(k)]


def _expand(game: CompiledGame, root: Path, u: int, parts: list[Path],
            runner: _Runner) -> None:
    """The children of tier ``u``'s ``parts``, each cut into ranges for the workers."""
    calls = []
    for p in parts:
        n = p.stat().st_size // 8
        calls += [(str(root), u, str(p), lo, hi, k, EXPAND_BUFFER)
                  for k, (lo, hi) in enumerate(runner.parts(n))]
    local = sum(c[4] - c[3] for c in calls) <= LOCAL
    _check(runner.run(_expand_task, [c + (local,) for c in calls], local, True), game)


def _append(root: Path, parts: list[Any]) -> tuple[int, int]:
    """Lay the sorted ``parts`` (files or arrays) end to end in the key file and append
    their bucket index. Returns (size, index bits)."""
    arrays = root / "arrays"
    size = 0
    with open(arrays / "keys.u64", "ab") as fh:
        start = fh.tell() // 8
        for p in parts:
            part = _read_keys(p) if isinstance(p, Path) else p
            size += part.size
            for a in range(0, part.size, 1 << 24):
                fh.write(np.asarray(part[a:a + (1 << 24)]).tobytes())
    bits = index_bits(size)
    keys = np.memmap(arrays / "keys.u64", dtype=np.uint64, mode="r", offset=start * 8,
                     shape=(size,)) if size else np.zeros(0, np.uint64)
    with open(arrays / "index.i64", "ab") as fh:
        fh.write(build_index(keys, bits).tobytes())
    return size, bits


# -- reading ---------------------------------------------------------------------------------
class CompiledStore(Store):
    """A store of a compiled game, read like a Solution (:func:`perfectplay.tablebase.
    open_store` returns one): values from the memory-mapped arrays; a position is made
    canonical, then found by its key (:func:`~perfectplay.engine.sortedtiers.find_key`)."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path)
        manifest = read_manifest(self.path)
        if len(manifest.get("solved", [])) < len(manifest.get("built", [])):
            raise PerfectplayError(f"{path}: the solve did not finish; run it again to "
                                   "resume")
        self.arrays = Arrays(self.path, manifest["built"], self.scored)

    def _slots(self, codes: np.ndarray) -> np.ndarray:
        a = self.arrays
        codes = np.asarray(codes, np.int64)
        if not self._ref and self._game is None:  # no game recorded: codes as stored
            return locate_any(codes, a.base, a.keys, a.ibase, a.bits, a.index)
        r = self.game.rules
        return locate(codes, r.canonical, r.tier, a.numbers, a.base, a.keys, a.ibase,
                      a.bits, a.index)

    def _find(self, code: int, tier: int | None) -> tuple[Any, int | None, str] | None:
        if not -(2**63) < code < 2**63:
            return None
        s = int(self._slots(np.array([code], np.int64))[0])
        if s < 0:
            return None
        rem = int(self.arrays.rems[s])
        return self._value_at(s), None if rem < 0 else rem, ""

    def _value_at(self, s: int) -> Any:
        if self.scored:
            return int(self.arrays.margins[s])
        return Value.from_code(int(self.arrays.vals[s]))

    def best_move(self, pos: Any | None = None) -> Any | None:
        """The engine's choice: the first of the best moves in the game's order (each
        child looked up), None at the end."""
        options = self.move_values(pos)
        return options[0].move if options else None

    def lookup(self, codes: Any) -> dict[str, np.ndarray]:
        """Batch lookup of positions by code (any symmetric image of a stored one; without
        a recorded game, the stored codes themselves)."""
        codes = np.asarray(codes, dtype=np.int64).ravel()
        slots = self._slots(codes)
        found = slots >= 0
        at = slots[found]
        value = np.full(codes.size, None, dtype=object)
        rem = np.full(codes.size, -1, np.int64)
        rem[found] = self.arrays.rems[at]
        if self.scored:
            value[found] = self.arrays.margins[at].tolist()
        else:
            value[found] = _VALUES[self.arrays.vals[at]]
        return {"found": found, "value": value, "remoteness": rem}
