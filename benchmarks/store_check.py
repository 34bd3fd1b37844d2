"""Check a Connect Four store against independent solves: random stored positions of the
deeper tiers (and their mirror images, which the store does not hold itself) looked up in
the store and solved afresh by the in-memory engine from that position; every value and
remoteness must agree. Also prints the start's value and every first move's.

    python benchmarks/store_check.py STORE W H [--min-stones 17] [-n 200]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from store_lookup import sample  # a sibling script: its folder is on the path

from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.engine import CompiledGame, solve
from perfectplay.store import open_store


def from_position(game: ConnectFour, code: int) -> CompiledGame:
    """The same rules, started at ``code``."""
    r = game.rules
    return CompiledGame(int(code), r.moves, r.play, r.outcome, max_moves=game.max_moves,
                        tier=r.tier)


def mirror(game: ConnectFour, code: int) -> int:
    w, h1 = game.width, game.height + 1
    col = (1 << h1) - 1
    return sum(((code >> (c * h1)) & col) << ((w - 1 - c) * h1) for c in range(w))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("store")
    ap.add_argument("w", type=int)
    ap.add_argument("h", type=int)
    ap.add_argument("--min-stones", type=int, default=17)
    ap.add_argument("-n", type=int, default=200)
    args = ap.parse_args()
    game = ConnectFour(args.w, args.h)
    rng = np.random.default_rng(7)
    with open_store(args.store, game) as st:
        t = time.perf_counter()
        print(f"start: {st.value().value} in {st.remoteness()}; moves: " + ", ".join(
            f"{game.move_name(m.move)} {m.describe()}" for m in st.move_values()))
        print(f"  (read in {time.perf_counter() - t:.2f} s)")
        deep = [t for t in st.tiers if t >= args.min_stones]
        codes = []
        while len(codes) < args.n:
            for c in sample(st, 4 * args.n, rng).tolist():
                if int(game.rules.tier(c)) in deep and len(codes) < args.n:
                    codes.append(c)
        bad = 0
        t = time.perf_counter()
        for c in codes:
            ref = solve(from_position(game, c), progress=False)
            for code in (c, mirror(game, c)):
                if (st.value(code), st.remoteness(code)) != (ref.value(), ref.remoteness()):
                    bad += 1
                    print(f"DIFFERENT: {code}: store {st.value(code)} {st.remoteness(code)}, "
                          f"fresh {ref.value()} {ref.remoteness()}")
        print(f"{len(codes)} random stored positions with >= {args.min_stones} stones and "
              f"their mirror images: {bad} differ from a fresh solve "
              f"({time.perf_counter() - t:.0f} s)")


if __name__ == "__main__":
    main()
