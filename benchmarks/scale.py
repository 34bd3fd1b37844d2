"""Tiered solving at scale: the in-memory engine in one process vs the tier-by-tier solve on
a local Dask cluster with 1 and with N workers, on a Portal board, a row of coins (many small
tiers; Python games) or a compiled game (Connect Four c4-WxH, Kalah kalah-M-N: the
out-of-core store of hash-sorted arrays); positions per second and peak memory (the
driver's, and each worker's: resident pages, memory-mapped store pages included). Each mode
runs in its own subprocess so memory is its own.

    python benchmarks/scale.py [--board 5x5 | coins-300 | c4-6x4 | kalah-3-3] [--workers 2]
    python benchmarks/scale.py --board c4-7x4 --store-only --keep DIR   # the issue's target

``--store-only`` skips the in-memory engine (a game that does not fit) and the 1-worker run;
``--keep DIR`` leaves the store there and reports its size on disk and the start's value and
remoteness read back through ``open_store``.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time

BOARDS = {
    "4x5": "O....\n.....\n..#..\n....O",
    "5x5": "O....\n.....\n..#..\n.#...\n....O",
    "5x5-open": "O....\n.....\n.....\n.....\n....O",
    "5x6": "O.....\n..#...\n......\n...#.#\n#....O",
    "5x6-3walls": "O.....\n..#...\n......\n...#..\n#....O",
}


def make_game(board: str) -> object:
    if board.startswith(("c4-", "kalah-")):
        from perfectplay.engine.target import load_target

        return load_target(target(board))
    if board.startswith("coins-"):
        from perfectplay.coins import CoinsGame

        return CoinsGame([(i * 37) % 23 - 7 for i in range(int(board.split("-")[1]))])
    from perfectplay.portal import PortalGame, parse_board

    return PortalGame(parse_board(BOARDS[board]))


def target(board: str) -> str:
    """The catalog target of a compiled game: connect4(width=W, height=H) or kalah(...)."""
    if board.startswith("c4-"):
        w, h = board[3:].split("x")
        return f"connect4(width={int(w)}, height={int(h)})"
    m, n = board.split("-")[1:]
    return f"kalah(houses={int(m)}, seeds={int(n)})"


def start_of(s: object) -> list:
    value = s.value()
    return [getattr(value, "value", value), s.remoteness()]


def run_engine(board: str) -> dict:
    from perfectplay import solve

    t = time.perf_counter()
    s = solve(make_game(board), progress=False)
    dt = time.perf_counter() - t
    return {"positions": len(s), "seconds": dt, "start": start_of(s),
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _disk(folder: str) -> int:
    from pathlib import Path

    total = 0
    for f in Path(folder).rglob("*"):
        try:
            if f.is_file():
                total += f.stat().st_blocks * 512
        except OSError:  # a work file removed while we look
            pass
    return total


def run_tiered(board: str, workers: int, keep: str | None = None) -> dict:
    import threading

    from perfectplay.store import open_store, solve_tiered
    from perfectplay.store.layout import read_manifest
    from perfectplay.store.runner import client_for

    client = client_for(None, workers)
    with tempfile.TemporaryDirectory() as tmp:
        store = keep or tmp
        peak = [0]
        done = threading.Event()

        anon = [0]

        def sample() -> None:  # disk and anonymous memory while it is solved, every 10 s
            import psutil

            me = psutil.Process()
            while not done.wait(10):
                peak[0] = max(peak[0], _disk(store))
                for p in [me, *me.children(recursive=True)]:
                    try:
                        m = p.memory_info()
                    except psutil.Error:
                        continue
                    anon[0] = max(anon[0], m.rss - m.shared)  # not the store's file pages

        threading.Thread(target=sample, daemon=True).start()
        t = time.perf_counter()
        ref = target(board) if board.startswith(("c4-", "kalah-")) else None
        tb = solve_tiered(make_game(board), store, client=client, game_ref=ref,
                          progress=lambda msg: print(f"{time.perf_counter() - t:8.1f} s  {msg}",
                                                     file=sys.stderr, flush=True))
        dt = time.perf_counter() - t
        done.set()
        worker_mb = client.run(
            lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        manifest = read_manifest(store)
        largest = max(e["size"] for e in manifest["tiers"])
        disk = _disk(store)
        t = time.perf_counter()
        with open_store(store, None if ref else make_game(board)) as st:
            start = start_of(st)
        read = time.perf_counter() - t
    cluster = client.cluster
    client.close()
    cluster.close()
    return {"positions": tb.positions, "seconds": dt, "tiers": len(tb.tiers),
            "largest_tier": largest, "disk_mb": disk / 2**20, "start": start,
            "peak_disk_mb": max(peak[0], disk) / 2**20, "read_seconds": read,
            "peak_anon_mb": anon[0] / 2**20,
            "resumed": tb.resumed,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "worker_peak_mb": sorted(worker_mb.values())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--board", default="5x5",
                    help=f"a Portal board ({', '.join(sorted(BOARDS))}) or coins-N")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--store-only", action="store_true",
                    help="only the store with --workers workers (no engine, no 1-worker run)")
    ap.add_argument("--keep", help="solve into this folder and keep it")
    ap.add_argument("--mode", choices=["engine", "tiered"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    board = args.board
    if board not in BOARDS and not board.startswith(("coins-", "c4-", "kalah-")):
        ap.error(f"unknown board {board!r}")
    if args.mode == "engine":
        print(json.dumps(run_engine(board)))
        return
    if args.mode == "tiered":
        print(json.dumps(run_tiered(board, args.workers, args.keep)))
        return
    out = {}
    runs = [("tiered", args.workers)] if args.store_only else \
        [("engine", 1), ("tiered", 1), ("tiered", args.workers)]
    for mode, workers in runs:
        cmd = [sys.executable, __file__, "--board", board, "--workers", str(workers),
               "--mode", mode] + (["--keep", args.keep] if args.keep else [])
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=True)
        out[(mode, workers)] = json.loads(proc.stdout.strip().splitlines()[-1])
    e = out.get(("engine", 1))
    if e:
        print(f"{board}: {e['positions']:,} positions, the start: {e['start']}")
        print(f"  one process (engine): {e['seconds']:7.1f} s = "
              f"{e['positions'] / e['seconds']:>9,.0f} pos/s, peak {e['peak_mb']:,.0f} MB")
    for workers in sorted({w for m, w in runs if m == "tiered"}):
        t = out[("tiered", workers)]
        if e:
            assert e["start"] == t["start"]
        print(f"  local cluster, {workers} worker(s): {t['seconds']:7.1f} s, "
              f"{t['positions']:,} positions stored = "
              f"{t['positions'] / t['seconds']:>9,.0f} pos/s, driver peak "
              f"{t['peak_mb']:,.0f} MB, worker peaks "
              f"{', '.join(f'{m:,.0f}' for m in t['worker_peak_mb'])} MB (resident, the "
              f"store's mapped pages included); anonymous memory at most "
              f"{t.get('peak_anon_mb', 0):,.0f} MB in any one process")
    print(f"  {t['tiers']} tiers, the largest {t['largest_tier']:,} positions "
          f"({t['largest_tier'] / t['positions']:.0%} of those stored); on disk "
          f"{t['disk_mb']:,.0f} MB = {t['disk_mb'] * 2**20 / t['positions']:.2f} bytes a "
          f"stored position (peak while solving {t['peak_disk_mb']:,.0f} MB)"
          f"{' (resumed)' if t['resumed'] else ''}; the start read back through open_store: "
          f"{t['start']} in {t['read_seconds']:.2f} s")


if __name__ == "__main__":
    main()
