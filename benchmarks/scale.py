"""Tiered solving at scale: the in-memory engine in one process vs the tier-by-tier solve on
a local Dask cluster with 1 and with N workers, on one Portal board or a row of coins (many
small tiers); positions per second and peak memory (the driver's, and each worker's). Each
mode runs in its own subprocess so memory is its own.

    python benchmarks/scale.py [--board 5x5 | --board coins-300] [--workers 2]
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
    if board.startswith("coins-"):
        from perfectplay.coins import CoinsGame

        return CoinsGame([(i * 37) % 23 - 7 for i in range(int(board.split("-")[1]))])
    from perfectplay.portal import PortalGame, parse_board

    return PortalGame(parse_board(BOARDS[board]))


def run_engine(board: str) -> dict:
    from perfectplay import solve

    t = time.perf_counter()
    s = solve(make_game(board), progress=False)
    dt = time.perf_counter() - t
    return {"positions": len(s), "seconds": dt,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def run_tiered(board: str, workers: int) -> dict:
    from perfectplay.tablebase import _client, solve_tiered

    client = _client(None, workers)
    with tempfile.TemporaryDirectory() as store:
        t = time.perf_counter()
        tb = solve_tiered(make_game(board), store, client=client)
        dt = time.perf_counter() - t
        worker_mb = client.run(
            lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        from pyarrow import parquet as pq

        largest = max(pq.ParquetFile(f).metadata.num_rows
                      for f in (tb.store / "positions").glob("*.parquet"))
    cluster = client.cluster
    client.close()
    cluster.close()
    return {"positions": tb.positions, "seconds": dt, "tiers": len(tb.tiers),
            "largest_tier": largest,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "worker_peak_mb": sorted(worker_mb.values())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--board", default="5x5",
                    help=f"a Portal board ({', '.join(sorted(BOARDS))}) or coins-N")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--mode", choices=["engine", "tiered"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    board = args.board
    if board not in BOARDS and not board.startswith("coins-"):
        ap.error(f"unknown board {board!r}")
    if args.mode == "engine":
        print(json.dumps(run_engine(board)))
        return
    if args.mode == "tiered":
        print(json.dumps(run_tiered(board, args.workers)))
        return
    out = {}
    for mode, workers in (("engine", 1), ("tiered", 1), ("tiered", args.workers)):
        proc = subprocess.run([sys.executable, __file__, "--board", board, "--workers",
                               str(workers), "--mode", mode],
                              capture_output=True, text=True, check=True)
        out[(mode, workers)] = json.loads(proc.stdout.strip().splitlines()[-1])
    e = out[("engine", 1)]
    print(f"{board}: {e['positions']:,} positions")
    print(f"  one process (engine): {e['seconds']:7.1f} s = "
          f"{e['positions'] / e['seconds']:>9,.0f} pos/s, peak {e['peak_mb']:,.0f} MB")
    for workers in sorted({1, args.workers}):
        t = out[("tiered", workers)]
        assert e["positions"] == t["positions"]
        print(f"  local cluster, {workers} worker(s): {t['seconds']:7.1f} s = "
              f"{t['positions'] / t['seconds']:>9,.0f} pos/s, driver peak "
              f"{t['peak_mb']:,.0f} MB, worker peaks "
              f"{', '.join(f'{m:,.0f}' for m in t['worker_peak_mb'])} MB")
    print(f"  {t['tiers']} tiers, the largest {t['largest_tier']:,} positions "
          f"({t['largest_tier'] / t['positions']:.0%} of the game)")


if __name__ == "__main__":
    main()
