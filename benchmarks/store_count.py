"""Count the positions a symmetric store stands for: every stored board counts twice, once
for its mirror image, except the boards that are their own mirror. Compare with a published
count (Connect Four 7x4: 2,265,792,710; 6x5: 2,818,972,642, the independent recount in
markus7800/Connect4-Strong-Solver's README, after John Tromp's table).

    python benchmarks/store_count.py STORE W H
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.store import open_store


@njit
def _self_mirrors(present, t, unrank, mirror_of, chunk_start, chunk_end):
    """How many set ranks in words chunk_start..chunk_end-1 are boards equal to their own
    mirror image."""
    n = 0
    for w in range(chunk_start, chunk_end):
        word = np.uint64(present[w])
        while word:
            low = word & (~word + np.uint64(1))
            b = 0
            while (low >> np.uint64(b)) != np.uint64(1):
                b += 1
            code = unrank(t, np.int64(w * 64 + b))
            if mirror_of(code) == code:
                n += 1
            word ^= low
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("store")
    ap.add_argument("w", type=int)
    ap.add_argument("h", type=int)
    args = ap.parse_args()
    game = ConnectFour(args.w, args.h)
    w, h1 = args.w, args.h + 1
    col = (1 << h1) - 1

    @njit
    def mirror_of(code):
        out = 0
        for c in range(w):
            out |= ((code >> (c * h1)) & col) << ((w - 1 - c) * h1)
        return out

    start = time.perf_counter()
    with open_store(args.store, game) as st:
        stored = len(st)
        selfm = 0
        for t in st.tiers:
            table = st.tables[t]
            step = 1 << 22
            for a in range(0, table.present.size, step):
                selfm += int(_self_mirrors(table.present, t, game.ranking.unrank, mirror_of,
                                           a, min(table.present.size, a + step)))
    print(f"{args.w}x{args.h}: {stored:,} stored boards, {selfm:,} their own mirror image: "
          f"{2 * stored - selfm:,} positions ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
