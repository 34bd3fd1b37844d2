"""Live per-move analysis (perfectplay.engine.proof.live.analyze_moves) timed from positions
reached by random play, with or without an opening book: the latency people see in play
and on the web page (issue 44's target: every move's value and remoteness of a 7x6 Connect
Four position, p95 <= 2 s, goal 0.3 s).

For each of ``--count`` random positions ``--ply`` plies deep (random legal moves from the
start, seeded; a game that ends earlier is drawn again), all moves are analysed; printed:
the seconds until every move's value was known, until every move was exact (wall clock),
the CPU seconds the process used for it (on a shared machine the wall clock mostly measures
the wait for a core: the CPU seconds are what a quiet machine's wall clock would be, with
one worker), and the moves' sources; then p50, p95 and the maximum of each. The search's
table is kept from one position to the next, as a server's worker keeps it; numba's
compiling is done first, not timed.

    python benchmarks/book.py --ply 8 --count 40
    python benchmarks/book.py --book c4book/ --ply 6 --count 40      # just past a 5-ply book
    python benchmarks/book.py --game 'kalah(houses=6, seeds=4)' --endgame kalah-k12/ --ply 10
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

from perfectplay.engine.proof.live import analyze_moves
from perfectplay.engine.target import load_target
from perfectplay.store import open_store


def positions(game, ply: int, count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    out: list[int] = []
    while len(out) < count:
        pos = game.initial()
        for _ in range(ply):
            moves = game.moves(pos)
            if not moves:
                break
            pos = game.play(pos, rng.choice(moves))
        if game.moves(pos):
            out.append(pos)
    return out


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="connect4(width=7, height=6)")
    ap.add_argument("--book", default=None, help="an opening book (a store folder)")
    ap.add_argument("--endgame", default=None, help="an endgame store (Kalah)")
    ap.add_argument("--ply", type=int, default=8)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=int, default=44)
    ap.add_argument("--table-mb", type=float, default=256)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    game = load_target(args.game)
    book = open_store(args.book, game) if args.book else None
    endgame = open_store(args.endgame, game) if args.endgame else None
    opts = {"book": book, "endgame": endgame, "table_mb": args.table_mb,
            "workers": args.workers}
    warm = positions(game, max(0, args.ply - 1), 1, args.seed + 1)[0]
    list(analyze_moves(game, warm, **opts))  # numba compiles here, untimed
    values, exact, cpu, rows = [], [], [], []
    for pos in positions(game, args.ply, args.count, args.seed):
        began = time.perf_counter()
        cpu_began = time.process_time()
        seen_value: set = set()
        t_values = None
        sources: set[str] = set()
        moves = len(game.moves(pos))
        for r in analyze_moves(game, pos, **opts):
            sources.add(r.source)
            if r.value is not None:
                seen_value.add(r.move)
            if t_values is None and len(seen_value) == moves:
                t_values = time.perf_counter() - began
        t_exact = time.perf_counter() - began
        values.append(t_values or t_exact)
        exact.append(t_exact)
        cpu.append(time.process_time() - cpu_began)
        rows.append({"position": pos, "values_s": round(t_values or t_exact, 4),
                     "exact_s": round(t_exact, 4), "cpu_s": round(cpu[-1], 4),
                     "sources": sorted(sources)})
        if not args.json:
            print(f"{pos:>16}  values {values[-1]:7.3f} s  exact {t_exact:7.3f} s  "
                  f"cpu {cpu[-1]:7.3f} s  {','.join(sorted(sources))}", flush=True)
    summary = {"game": args.game, "book": args.book, "ply": args.ply, "count": args.count,
               "p50_values_s": quantile(values, 0.5), "p95_values_s": quantile(values, 0.95),
               "p50_s": quantile(exact, 0.5), "p95_s": quantile(exact, 0.95),
               "max_s": max(exact), "mean_s": statistics.mean(exact),
               "p50_cpu_s": quantile(cpu, 0.5), "p95_cpu_s": quantile(cpu, 0.95),
               "max_cpu_s": max(cpu), "mean_cpu_s": statistics.mean(cpu),
               "load": os.getloadavg()[0]}
    if args.json:
        print(json.dumps({"summary": summary, "rows": rows}, indent=2))
    else:
        print(json.dumps(summary))


if __name__ == "__main__":
    main()
