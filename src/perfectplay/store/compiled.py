"""The compiled-game backend of a store: tiers as hash-sorted arrays, solved without Python
per position, then packed.

A :class:`~perfectplay.engine.CompiledGame` with ``tier(pos)`` (every move stays in its tier
or climbs) goes into a store without a line of Python per position. While the solve runs,
each tier is its positions' keys (codes mixed by a bijection, sorted:
:mod:`perfectplay.store.sortedtiers`) laid end to end in one file, with a bucket index
beside it, and value, remoteness (and margin) files of the same length, under ``work/arena/``.
The workers memory-map them, so a machine holds only the pages the current tier touches.

1. *Enumerate*, lowest tier first. When tier U's turn comes every parent has been expanded
   and its children wait under ``work/enum/tier=U/`` as sorted key files; U's key range is
   cut into equal parts, each sorted and deduplicated by one task (the key order makes the
   parts a concatenation, not a merge). The parts are expanded by workers in a few large
   ranges: children of higher tiers go to their folders, children inside U are added to U
   until nothing new appears (the closure). Then U is appended to the arena and indexed.
2. *Solve*, highest tier first. Workers take a few large slot ranges each, generate each
   position's moves again, look every child up in the tiers above and write value,
   remoteness (and margin) into the memory-mapped files. Positions with a move inside their
   own tier are left open and finished in the client by the engine's own kernels, seeded
   with their solved options: retrograde analysis for win/lose games (cycles allowed; what
   stays unknown is a certified draw), children first for scored games (a cycle there is
   refused: margins of cyclic scored games need the in-memory label setting).
3. *Pack*, every tier on its own (:mod:`perfectplay.store.packed`): its palette of
   (value, remoteness) pairs, a palette id a position, and its positions as a bit per rank
   when the game has ``rank``/``unrank``, else as its sorted keys. Then ``work/`` goes.

With a ``canonical(pos)`` rule only canonical codes are stored (Connect Four: about half
the boards) and look-ups canonicalise first. A stopped run resumes from its last finished
step (a tier built, solved or packed). Margins are int64, as in every compiled game (an
overflow is an error naming the position).

Memory, besides the memory-mapped pages (the system's file cache, dropped under pressure):
a gather task holds at most GATHER_KEYS keys twice (about 17 bytes a key: 1.1 GiB), an
expand task EXPAND_BUFFER children (about 25 bytes each: 0.4 GiB); the client, for a tier
with moves inside it, that tier's open positions and their moves; a pack task its tier's
bits (one per rank) and palette ids.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path
from typing import Any, Literal

import numpy as np

from ..engine.compiled.game import TIE, CompiledGame, any_code
from ..engine.compiled.kernels import retrograde, reverse_csr, topological_order
from ..engine.compiled.staticrules import kernel_door
from ..engine.protocol import UNKNOWN, Value
from ..engine.status import OK, raise_status
from ..engine.tiers.kernels import Arena, Shape, solve_range, solve_range_cached
from ..engine.tiers.solver import by_tier
from ..errors import GameError
from ..progress import Progress
from .layout import (
    WIDTHS,
    StoreError,
    finish,
    map_file,
    margin_text,
    save_array,
    tier_path,
    write_manifest,
)
from .packed import (
    canonical_tiers,
    cells_by_rank,
    cells_in_order,
    count_blocks,
    mark_present,
    palette_of,
    ranks_of,
    refused,
)
from .runner import Runner, StoreJob
from .sortedtiers import (
    build_index,
    expand_range,
    expand_range_cached,
    index_bits,
    inside_graph,
    inside_graph_cached,
    mix_all,
    seeded_negamax,
    sort_unique,
    with_seed_chains,
)

#: Keys one gather task sorts at once (its memory: about 2.2 x 8 bytes a key).
GATHER_KEYS = 1 << 26
#: Children an expand task buffers before it writes a file (16 bytes each, twice that
#: while sorting).
EXPAND_BUFFER = 1 << 24
#: Waiting children this few are sorted in the client's own process (about 50 ms a million).
LOCAL_GATHER = 1 << 20
#: A tier's palette may hold at most this many (value, remoteness) pairs (uint32 ids).
MAX_PALETTE = 1 << 24


def shape_of(game: CompiledGame) -> Shape:
    """The switches of a compiled game's store kernels (children made canonical)."""
    return Shape(game.scored, game.has_player, game.max_moves, True)


def arena_dir(root: Path) -> Path:
    """Where the solve's arrays live while it runs."""
    return root / "work" / "arena"


def enum_dir(root: Path) -> Path:
    """Where children wait for their tier while the tiers are enumerated."""
    return root / "work" / "enum"


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
        d = arena_dir(root)
        self.keys = map_file(d / "keys.u64", np.uint64, total, "r")
        self.index = map_file(d / "index.i64", np.int64, int(self.ibase[-1]), "r")
        mode: Literal["r", "r+"] = "r+" if write else "r"
        self.vals = map_file(d / "values.i8", np.int8, total, mode)
        self.rems = map_file(d / "rems.i16", np.int16, total, mode)
        self.margins = map_file(d / "margins.i64", np.int64, total if scored else 0, mode)
        self.arena = Arena(self.numbers, self.base, self.keys, self.ibase, self.bits,
                           self.index, self.vals, self.rems, self.margins)


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
    keys = _read_keys(Path(src))
    out_keys = np.empty(max(game.max_moves, min(buffer, (hi - lo) * game.max_moves)),
                        np.uint64)
    out_tiers = np.empty(out_keys.size, np.int64)
    i, n = lo, 0
    expand, rules = kernel_door(game.rules, expand_range, expand_range_cached)
    tag = f"{u}-{Path(src).stem}-{part}"
    while i < hi:
        i, cnt, status, bad = expand(rules, shape_of(game), keys, i, hi, np.int64(u),
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
        d = enum_dir(root) / (f"inside={u}" if v == u else f"tier={v}")
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
    for f in sorted((enum_dir(Path(root)) / f"tier={u}").glob("*.u64")):
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
    d = enum_dir(Path(root)) / f"parts={u}"
    d.mkdir(parents=True, exist_ok=True)
    _write_keys(d / f"part-{part}.u64", keys)
    return int(keys.size)


def _check(results: list[tuple[int, ...]], game: CompiledGame) -> None:
    for status, bad, *_ in results:
        raise_status(status, bad, game)


def _solve_inside(game: CompiledGame, root: Path, built: list[dict[str, int]],
                  ti: int) -> None:
    """The open positions of a tier (moves inside it), in this process, by the engine's own
    kernels seeded with their solved options: retrograde analysis for win/lose games
    (cycles allowed: what stays unknown is a certified draw), children first for scored
    games (a cycle inside a tier is refused). Memory: the open positions' moves."""
    a = Arrays(root, built, game.scored, write=True)
    first, last = int(a.base[ti]), int(a.base[ti + 1])
    slots = first + np.flatnonzero(np.asarray(a.vals[first:last]) == UNKNOWN)
    graph_of, rules = kernel_door(game.rules, inside_graph, inside_graph_cached)
    status, bad, g = graph_of(rules, shape_of(game), a.arena, ti, slots)
    raise_status(int(status), int(bad), game)
    if game.scored:
        rev_off, rev_src, _ = reverse_csr(g.offsets, g.children, False)
        order, k = topological_order(g.offsets, rev_off, rev_src)
        if k < slots.size:
            raise GameError(f"{game.name}: moves inside tier {built[ti]['tier']} form a "
                            "cycle; a scored game's store needs them acyclic (solve it in "
                            "memory: method='graph')")
        ok, margins, rems = seeded_negamax(order, g.offsets, g.children, g.pays, g.passes,
                                           g.seed_v, g.seed_r, g.has_seed)
        if not ok:
            raise GameError(f"{game.name}: a point margin in tier {built[ti]['tier']} "
                            "overflows int64")
        a.margins[slots] = margins
        a.vals[slots] = TIE
        a.rems[slots] = rems
    else:
        off, kids, terminal, players = with_seed_chains(g.offsets, g.children, g.seed_v,
                                                        g.seed_r, g.has_seed, g.who,
                                                        not game.has_player)
        rev_off, rev_src, _ = reverse_csr(off, kids, False)
        value, rem = retrograde(off, kids, rev_off, rev_src, terminal, players,
                                not game.has_player)
        a.vals[slots] = value[:slots.size]
        a.rems[slots] = rem[:slots.size]
    for arr in (a.vals, a.rems, a.margins):
        if isinstance(arr, np.memmap):
            arr.flush()


def _enumerate(game: CompiledGame, job: StoreJob) -> None:
    """The forward sweep (module doc, step 1), resuming where ``job.manifest`` says: what
    a stopped run appended after its last record is cut off, and the lowest waiting tier is
    built again from its waiting files (its own partial outputs removed first); from
    ``job.roots`` when given, else from the start."""
    root, manifest, runner, say, steps = job.root, job.manifest, job.runner, job.say, job.steps
    bar, roots = job.bar, job.roots
    built = manifest["built"]
    arrays, work = arena_dir(root), enum_dir(root)
    _truncate(arrays / "keys.u64", 8 * sum(b["size"] for b in built))
    _truncate(arrays / "index.i64", 8 * sum((1 << b["bits"]) + 1 for b in built))
    if not built:
        shutil.rmtree(work, ignore_errors=True)
        _write_roots(work, game, np.array([game.start_code], np.int64) if roots is None
                     else roots)
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
    with Progress("enumerating tiers", enabled=bar,
                  logger="perfectplay.store") as shown:
        while waiting:
            u = waiting[0]
            steps.next()
            size, bits = _build_tier(game, root, u, runner)
            built.append({"tier": u, "size": size, "bits": bits})
            manifest["local"] = _local_sizes(work)
            write_manifest(root, manifest)
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
    write_manifest(root, manifest)


def _write_roots(work: Path, game: CompiledGame, roots: np.ndarray) -> None:
    """Where enumeration starts: the start, or every root a store of the game's last tiers
    is built from, canonical, each in its tier's waiting folder."""
    roots = np.asarray(roots, np.int64)
    bad = refused(roots, game.valid)
    if bad.size:
        raise GameError(f"{bad.size:,} of the {roots.size:,} roots are not positions of "
                        f"{game.name} (its valid rule refuses them), the first "
                        f"{int(roots[bad[0]])}")
    canon, tiers = canonical_tiers(roots, game.rules.canonical, game.rules.tier,
                                   any_code)  # every root passed valid just above
    order = np.argsort(tiers, kind="stable")
    canon, tiers = canon[order], tiers[order]
    cuts = np.flatnonzero(np.diff(tiers)) + 1
    for lo, hi in zip(np.r_[0, cuts], np.r_[cuts, tiers.size], strict=True):
        d = work / f"tier={int(tiers[lo])}"
        d.mkdir(parents=True)
        _write_keys(d / "start.u64", sort_unique(mix_all(canon[lo:hi])))  # sorted, as
        # every waiting file is (a gather task takes its key range by binary search)


def _local_sizes(work: Path) -> dict[str, int]:
    """Bytes in each waiting tier's ``local.u64`` (what a resumed run keeps of them)."""
    sizes = {}
    with os.scandir(work) as entries:
        for entry in entries:
            if entry.name.startswith("tier="):
                with contextlib.suppress(FileNotFoundError):
                    sizes[entry.name] = os.stat(Path(entry.path) / "local.u64").st_size
    return sizes


def _build_tier(game: CompiledGame, root: Path, u: int, runner: Runner) -> tuple[int, int]:
    """Tier ``u`` from its waiting files: gathered into sorted parts, expanded (children of
    higher tiers wait in their files), closed under the moves that stay inside it, then
    appended to the key file and indexed. Returns (size, index bits)."""
    parts = _gather(root, u, runner)
    _expand(game, root, u, parts, runner)
    extra = 0
    while True:  # the closure: positions reached only by moves inside the tier
        inside = sorted((enum_dir(root) / f"inside={u}").glob("*.u64"))
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
        new = enum_dir(root) / f"parts={u}" / f"new-{extra}.u64"
        _write_keys(new, found)
        extra += 1
        parts.append(new)
        _expand(game, root, u, [new], runner)
    keys = np.concatenate([np.array(_read_keys(p)) for p in parts]) if extra else None
    return _append(root, parts if keys is None else [sort_unique(keys)])


def _gather(root: Path, u: int, runner: Runner) -> list[Path]:
    """Tier ``u``'s waiting files as sorted parts: equal key ranges, each sorted and
    deduplicated by one task, in key order (laid end to end they are the tier)."""
    waiting = _count_keys(list((enum_dir(root) / f"tier={u}").glob("*.u64")))
    k = max(1, -(-waiting // GATHER_KEYS))
    local = waiting <= LOCAL_GATHER
    if not local:
        k = max(k, runner.workers)
    cuts = [(j << 64) // k for j in range(k)]
    calls = [(str(root), u, cuts[j], cuts[j + 1] if j + 1 < k else None, j) for j in range(k)]
    runner.run(_gather_task, calls, local, False)
    return [enum_dir(root) / f"parts={u}" / f"part-{j}.u64" for j in range(k)]


def _expand(game: CompiledGame, root: Path, u: int, parts: list[Path],
            runner: Runner) -> None:
    """The children of tier ``u``'s ``parts``, each cut into ranges for the workers."""
    calls = []
    for p in parts:
        n = p.stat().st_size // 8
        calls += [(str(root), u, str(p), lo, hi, k, EXPAND_BUFFER)
                  for k, (lo, hi) in enumerate(runner.parts(n))]
    local = runner.is_local(sum(c[4] - c[3] for c in calls))
    _check(runner.run(_expand_task, [c + (local,) for c in calls], local, True), game)


def _append(root: Path, parts: list[Any]) -> tuple[int, int]:
    """Lay the sorted ``parts`` (files or arrays) end to end in the key file and append
    their bucket index. Returns (size, index bits)."""
    arrays = arena_dir(root)
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




# -- solving ----------------------------------------------------------------------------------
def _solve_task(game: CompiledGame, root: str, built: list[dict[str, int]], ti: int,
                lo: int, hi: int) -> tuple[int, int, int]:
    """Solve slots ``lo..hi-1`` (tier-relative) of arena tier ``ti`` into the arrays,
    leaving open the positions with moves inside the tier
    (:func:`~perfectplay.engine.tiers.kernels.solve_range`). Returns (status, code, positions
    left open)."""
    a = Arrays(Path(root), built, game.scored, write=True)
    first = int(a.base[ti])
    kernel, rules = kernel_door(game.rules, solve_range, solve_range_cached)
    status, bad, left = kernel(rules, shape_of(game), a.arena, np.int64(ti),
                               np.int64(first + lo), np.int64(first + hi),
                               np.empty(0, np.int64), False)
    if status != OK:
        return int(status), int(bad), 0
    for arr in (a.vals, a.rems, a.margins):
        if isinstance(arr, np.memmap):
            arr.flush()
    return OK, 0, int(left)


def solve_compiled_store(game: CompiledGame, job: StoreJob) -> tuple[list[int], int]:
    """Enumerate, solve and pack ``game`` into ``job.root`` (see the module doc); returns
    the tier numbers and the number of positions stored (a :class:`~.runner.StoreSolver`).
    ``job.manifest`` is what the store already holds (its ``format``, ``game`` and
    ``scored`` set for a new store)."""
    root, manifest, runner, say, steps = job.root, job.manifest, job.runner, job.say, job.steps
    manifest.setdefault("backend", "compiled")
    if manifest["backend"] != "compiled":
        raise StoreError(f"{root} holds a store of a Python game; use another folder")
    manifest.setdefault("symmetric", game.symmetric)
    manifest.setdefault("ranked", game.has_rank)
    for key, empty in (("enumerated", False), ("built", []), ("solved", []), ("packed", [])):
        manifest.setdefault(key, empty)
    arena_dir(root).mkdir(parents=True, exist_ok=True)
    if not manifest["enumerated"]:
        _enumerate(game, job)
    built = manifest["built"]
    total = sum(b["size"] for b in built)
    solved = set(manifest["solved"])
    with Progress("solving tiers", total=total, enabled=job.bar,
                  logger="perfectplay.store") as shown:
        done = 0
        for ti in range(len(built) - 1, -1, -1):
            t, size = built[ti]["tier"], built[ti]["size"]
            if t not in solved:
                steps.next()
                _solve_tier(game, root, built, ti, runner)
                manifest["solved"].append(t)
                write_manifest(root, manifest)
                say(f"tier {t} solved ({size:,} positions)")
            done += size
            shown.update(done)
    _pack(game, job)
    return [b["tier"] for b in built], total


def _solve_tier(game: CompiledGame, root: Path, built: list[dict[str, int]], ti: int,
                runner: Runner) -> None:
    """One tier (module doc, step 2): the positions whose moves all climb, on the cluster;
    then, if some moves stay inside the tier, those positions here (:func:`_solve_inside`)."""
    size = built[ti]["size"]
    calls = [(str(root), built, ti, lo, hi) for lo, hi in runner.parts(size)]
    results = runner.run(_solve_task, calls, runner.is_local(size), True)
    _check(results, game)
    if any(left for _, _, left in results):
        _solve_inside(game, root, built, ti)


# -- packing ----------------------------------------------------------------------------------
def _pack(game: CompiledGame, job: StoreJob) -> None:
    """Step 3 of the module doc: every tier not yet packed, a task each; then the arena
    goes and the manifest lists the packed tiers."""
    root, manifest, runner, say, steps = job.root, job.manifest, job.runner, job.say, job.steps
    built = manifest["built"]
    if manifest.get("done"):
        return
    (root / "tiers").mkdir(exist_ok=True)
    packed = {p["tier"] for p in manifest["packed"]}
    todo = [ti for ti in range(len(built)) if built[ti]["tier"] not in packed]
    batch = max(1, runner.workers)
    for k in range(0, len(todo), batch):
        steps.next()
        group = todo[k:k + batch]
        local = runner.is_local(sum(built[ti]["size"] for ti in group))
        entries = runner.run(_pack_task, [(str(root), built, ti) for ti in group], local,
                             True)
        manifest["packed"] += entries
        write_manifest(root, manifest)
        for e in entries:
            say(f"tier {e['tier']} packed ({e['width']} byte{'s' * (e['width'] > 1)} a "
                f"position, {len(e['palette'])} (value, remoteness) pairs)")
    finish(root, manifest)
    shutil.rmtree(root / "work", ignore_errors=True)


def _pack_task(game: CompiledGame, root: str, built: list[dict[str, int]],
               ti: int) -> dict[str, Any]:
    """Pack arena tier ``ti`` into its tier files; returns its manifest entry."""
    a = Arrays(Path(root), built, game.scored)
    lo, hi = int(a.base[ti]), int(a.base[ti + 1])
    t, size = built[ti]["tier"], built[ti]["size"]
    cap = 256
    while True:
        n, pal_m, pal_vr = palette_of(a.vals, a.rems, a.margins, game.scored, lo, hi, cap)
        if n >= 0:
            break
        if cap >= MAX_PALETTE:
            raise StoreError(f"tier {t} has more than {MAX_PALETTE:,} distinct (value, "
                             "remoteness) pairs; a store cannot hold it")
        cap *= 256
    width = 1 if n <= 1 << 8 else 2 if n <= 1 << 16 else 4
    out = Path(root)
    cells = _new_file(tier_path(out, t, "cells"), WIDTHS[width], size)
    entry: dict[str, Any] = {"tier": t, "size": size, "width": width,
                             "palette": _palette_json(pal_m, pal_vr, game.scored)}
    if game.has_rank:
        scratch = Path(root) / "work" / f"ranks-{t}.i64"
        ranks = _new_file(scratch, np.int64, size)  # each rank computed once
        span = int(ranks_of(a.keys, lo, hi, game.ranking.rank, ranks))
        present = _new_file(tier_path(out, t, "present"), np.uint64, -(-span // 64))
        if not mark_present(ranks, present):
            raise GameError(f"{game.name}: rank gives two positions of tier {t} one number")
        counts = count_blocks(present)
        save_array(tier_path(out, t, "counts"), counts)
        cells_by_rank(ranks, present, counts, a.vals, a.rems, a.margins, game.scored, lo,
                      pal_m, pal_vr, cells)
        if isinstance(present, np.memmap):
            present.flush()
        del ranks
        scratch.unlink()
        entry["span"] = span
    else:
        save_array(tier_path(out, t, "keys"), np.asarray(a.keys[lo:hi]))
        ilo, ihi = int(a.ibase[ti]), int(a.ibase[ti + 1])
        save_array(tier_path(out, t, "index"), np.asarray(a.index[ilo:ihi]))
        cells_in_order(a.vals, a.rems, a.margins, game.scored, lo, hi, pal_m, pal_vr, cells)
        entry["bits"] = int(a.bits[ti])
    if isinstance(cells, np.memmap):
        cells.flush()
    return entry


def _palette_json(pal_m: np.ndarray, pal_vr: np.ndarray, scored: bool) -> list[list[Any]]:
    """A palette as the manifest writes it: [value name or margin text, remoteness]."""
    out = []
    for m, vr in zip(pal_m.tolist(), pal_vr.tolist(), strict=True):
        v, rem = vr >> 20, (vr & ((1 << 20) - 1)) - 1
        out.append([margin_text(m) if scored else Value.from_code(v).value, rem])
    return out


def _new_file(path: Path, dtype: Any, count: int) -> np.ndarray:
    """A zeroed file of ``count`` items, memory-mapped for writing."""
    with open(path, "wb") as fh:
        fh.truncate(count * np.dtype(dtype).itemsize)
    if count == 0:
        return np.zeros(0, dtype)
    return np.memmap(path, dtype=dtype, mode="r+", shape=(count,))
