"""Kalah(6, n) by search, with and without an endgame store (Irving, Donkers and Uiterwijk
2000, "Solving Kalah", ICGA Journal 23(3), Table 9: the first player's margin is +2 for
(6, 3), +10 for (6, 4), +12 for (6, 5)).

For each game: the endgame store of every position with at most K seeds in play is built
(or reused: ``--stores DIR`` keeps them), then the start is searched for its value and best
move (``remoteness=False``) without the store and with it, in this process; printed: the
margin, the best first move, nodes, seconds, the store's positions, size on disk and build
time, and the ratio of the two searches.

    python benchmarks/kalah_search.py                       # (6, 3) k=12 and (6, 4) k=12
    python benchmarks/kalah_search.py --game 6 5 --k 20 --no-plain --time 3600 \
        --search-workers 2 --table-mb 4096
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path

from perfectplay.catalog.kalah import Kalah
from perfectplay.engine.proof.driver import clear_table, search
from perfectplay.engine.proof.kernel import Leaf, no_leaf
from perfectplay.store import open_store, solve_tiered

PUBLISHED = {(6, 3): 2, (6, 4): 10, (6, 5): 12}


def disk_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def endgame_store(game: Kalah, k: int, root: Path, workers: int) -> tuple[Path, float]:
    """The store of every position with at most k seeds in play (built if missing)."""
    path = root / f"kalah-{game.houses}-{game.seeds}-k{k}"
    t = time.perf_counter()
    if not (path / "manifest.json").exists() or '"done": true' not in (
            path / "manifest.json").read_text():
        shutil.rmtree(path, ignore_errors=True)
        ref = f"kalah(houses={game.houses}, seeds={game.seeds})"
        solve_tiered(game, path, roots=game.endgame_positions(k), workers=workers,
                     game_ref=ref)
    return path, time.perf_counter() - t


def run(m: int, n: int, k: int, args: argparse.Namespace) -> None:
    game = Kalah(m, n)
    print(f"Kalah({m}, {n}): published margin {PUBLISHED.get((m, n), '?'):+}")
    plain = None
    search(game, node_limit=1000, table_mb=1)  # compile the kernels outside the timing
    search(game, node_limit=1000, table_mb=1, endgame=Leaf(*no_leaf()[:-1], gate=0))
    if not args.no_plain:
        clear_table()
        t = time.perf_counter()
        plain = search(game, remoteness=False, table_mb=args.table_mb, time_limit=args.time,
                       workers=args.search_workers)
        s = time.perf_counter() - t
        print(f"  search alone:      {plain.describe():>10}  best {game.move_name(plain.best_move)}"
              f"  {plain.nodes:>14,} nodes  {s:8.1f} s")
    if k < 0:
        return
    path, built = endgame_store(game, k, Path(args.stores), args.workers)
    with open_store(path, game) as store:
        t = time.perf_counter()
        leaf = store.leaf()
        loaded = time.perf_counter() - t
        print(f"  endgame store k={k}: {len(store):,} positions, "
              f"{disk_bytes(path) / 1e6:,.1f} MB on disk, built in {built:.1f} s, "
              f"loaded in {loaded:.1f} s")
        clear_table()  # from an empty table, as the search alone
        t = time.perf_counter()
        r = search(game, remoteness=False, table_mb=args.table_mb, time_limit=args.time,
                   endgame=leaf, workers=args.search_workers)
        s = time.perf_counter() - t
    print(f"  search with store: {r.describe():>10}  best {game.move_name(r.best_move)}"
          f"  {r.nodes:>14,} nodes  {s:8.1f} s")
    if plain is not None and plain.exact and r.exact:
        assert plain.value == r.value
        print(f"  nodes with the store / without: {r.nodes / plain.nodes:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", nargs=2, type=int, action="append", metavar=("M", "N"))
    ap.add_argument("--k", type=int, default=12, help="seeds in play the store holds "
                    "(-1: no store)")
    ap.add_argument("--stores", default="/tmp/perfectplay-kalah-stores")
    ap.add_argument("--workers", type=int, default=2, help="workers building a store")
    ap.add_argument("--search-workers", type=int, default=1, help="threads of each search")
    ap.add_argument("--table-mb", type=float, default=2048)
    ap.add_argument("--time", type=float, default=None)
    ap.add_argument("--no-plain", action="store_true", help="skip the search without store")
    args = ap.parse_args()
    for m, n in args.game or [(6, 3), (6, 4)]:
        run(m, n, args.k, args)


if __name__ == "__main__":
    main()
