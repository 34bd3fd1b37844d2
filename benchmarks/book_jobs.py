"""An opening book's build on two cores: the same positions of its last ply searched by one
process (``workers=1``), by two threads sharing one table (``workers=2``), and by two forked
processes with a table each (``jobs=2``, ``perfectplay book --jobs 2``); wall seconds and
the ratio to the one process; and one process whose searches are bounded by the shipped
book's scores of the ply above (``--bounds-from``); each arm in a fresh process (a cold
table, compiled kernels read from numba's cache and not timed).

    python benchmarks/book_jobs.py                       # 7x6 Connect Four, 48 positions of ply 6
    python benchmarks/book_jobs.py --ply 5 --count 32 --json
    python benchmarks/book_jobs.py --arms 'one process,bounded (--bounds-from)'

The positions are the first ``--count`` of the ply in the book's own order (sorted codes),
the order a build searches them in; every arm's answers are checked equal.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: arm -> (workers, jobs, bounded by the shipped book's ply above)
ARMS = {"one process": (1, 1, False), "two threads (workers=2)": (2, 1, False),
        "two processes (jobs=2)": (1, 2, False),
        "bounded (--bounds-from)": (1, 1, True)}


def run_arm(game_ref: str, ply: int, count: int, workers: int, jobs: int,
            table_mb: float, bounded: bool) -> dict[str, object]:
    """Search the positions in this process (called in a fresh one): seconds and answers."""
    import numpy as np

    from perfectplay.engine.proof.live import warm_up
    from perfectplay.engine.target import load_target
    from perfectplay.store.book import (
        _search_last,
        _searcher,
        book_layers,
        find_book,
        parent_bounds,
    )

    game = load_target(game_ref)
    layers = book_layers(game, ply)
    codes = layers[-1][:count]
    shipped = find_book(game) if bounded else None
    if bounded and shipped is None:
        raise SystemExit(f"{game_ref} ships no book to bound by")
    bounds = {} if shipped is None else parent_bounds(game, layers[-2], codes, shipped)
    warm_up(game, int(codes[0]))  # compiled (or read from the cache) first, not timed
    from perfectplay.engine.proof.backends import clear_table

    clear_table()
    searched = _searcher(game, workers, table_mb, None, bounds)
    with tempfile.TemporaryDirectory() as work:
        began = time.perf_counter()
        vals, rems, _, used = _search_last(np.asarray(codes), Path(work), searched,
                                           lambda _line: None, False, None, jobs)
        seconds = time.perf_counter() - began
    return {"seconds": seconds, "jobs": used, "values": vals.tolist(), "rems": rems.tolist()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="connect4(width=7, height=6)")
    ap.add_argument("--ply", type=int, default=6)
    ap.add_argument("--count", type=int, default=48)
    ap.add_argument("--table-mb", type=float, default=256)
    ap.add_argument("--arms", default=",".join(ARMS), help="which arms, comma-separated")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--arm", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.arm is not None:
        workers, jobs, bounded = ARMS[args.arm]
        print(json.dumps(run_arm(args.game, args.ply, args.count, workers, jobs,
                                 args.table_mb, bounded)))
        return
    results = {}
    arms = [a for a in ARMS if a in args.arms.split(",")]
    if "one process" not in arms:
        arms.insert(0, "one process")  # the baseline every ratio is taken against
    for arm in arms:
        out = subprocess.run([sys.executable, __file__, "--game", args.game, "--ply",
                              str(args.ply), "--count", str(args.count), "--table-mb",
                              str(args.table_mb), "--arm", arm],
                             capture_output=True, text=True, check=True).stdout
        results[arm] = json.loads(out.strip().splitlines()[-1])
    base = results["one process"]
    for arm, got in results.items():
        if (got["values"], got["rems"]) != (base["values"], base["rems"]):
            raise SystemExit(f"{arm} gave other answers than one process")
    rows = {arm: {"seconds": round(got["seconds"], 2), "jobs": got["jobs"],
                  "speed-up": round(base["seconds"] / got["seconds"], 2)}
            for arm, got in results.items()}
    if args.json:
        print(json.dumps({"game": args.game, "ply": args.ply, "count": args.count,
                          "arms": rows}, indent=2))
        return
    print(f"{args.game}: the first {args.count:,} positions of ply {args.ply}")
    for arm, row in rows.items():
        print(f"  {arm:<26} {row['seconds']:8.2f} s   x{row['speed-up']:.2f}")


if __name__ == "__main__":
    main()
