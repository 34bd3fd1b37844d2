"""Random look-ups in a solved store: 10^6 stored positions (random tiers weighted by size,
random ranks or slots inside them), looked up cold and warm through ``Store.lookup``, with
the bytes the store takes a position. The baseline, in the same process: NumPy's
``searchsorted`` over one sorted int64 array of the same codes (what an 8-byte-key store
with no index costs, the codes held in memory).

    python benchmarks/store_lookup.py STORE [--target FILE.py:Class(args)] [-n 1000000]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from perfectplay.engine.target import load_target
from perfectplay.store import open_store
from perfectplay.store.packed import unranked


def sample(st, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` codes of stored positions, tiers weighted by their sizes."""
    sizes = np.array([st.tables[t].size for t in st.tiers], np.float64)
    per = rng.multinomial(n, sizes / sizes.sum())
    out = []
    for t, k in zip(st.tiers, per.tolist(), strict=True):
        table = st.tables[t]
        if not k:
            continue
        if not table.ranked:
            out.append(st.codes(t)[rng.integers(0, table.size, k)])
            continue
        got: list[np.ndarray] = []
        have = 0
        span = table.present.size * 64
        while have < k:  # ranks at random, kept where a position is stored
            r = rng.integers(0, span, 4 * k + 64)
            words = np.asarray(table.present[r >> 6])
            keep = r[(words >> (r & 63).astype(np.uint64)) & np.uint64(1) == 1]
            got.append(keep)
            have += keep.size
        ranks = np.concatenate(got)[:k]
        out.append(unranked(t, ranks, st.game.ranking.unrank))
    codes = np.concatenate(out)
    rng.shuffle(codes)
    return codes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("store")
    ap.add_argument("--target", help="the game, when the store does not name it")
    ap.add_argument("-n", type=int, default=1_000_000)
    args = ap.parse_args()
    game = load_target(args.target) if args.target else None
    rng = np.random.default_rng(1)
    with open_store(args.store, game) as st:
        disk = sum(f.stat().st_size for f in Path(args.store).rglob("*") if f.is_file())
        print(f"{args.store}: {len(st):,} positions in {len(st.tiers)} tiers, "
              f"{disk / 2**20:,.0f} MB on disk = {disk / len(st):.2f} bytes a position")
        codes = sample(st, args.n, rng)
        for label in ("cold", "warm", "warm"):
            t = time.perf_counter()
            got = st.lookup(codes)
            dt = time.perf_counter() - t
            assert got["found"].all()
            print(f"  {codes.size:,} random look-ups ({label}): {dt:.2f} s = "
                  f"{dt / codes.size * 1e9:,.0f} ns each")
        flat = np.sort(np.array([st.game.canonical(c) for c in codes[:100_000].tolist()]))
        t = time.perf_counter()
        np.searchsorted(flat, codes[:100_000])
        base = (time.perf_counter() - t) / 100_000
        print(f"  baseline: numpy searchsorted in 100,000 sorted codes held in memory: "
              f"{base * 1e9:,.0f} ns a look-up (ratio {dt / codes.size / base:.1f}x)")


if __name__ == "__main__":
    main()
