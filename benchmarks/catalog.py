"""Every published result of the catalog of famous games, reproduced and timed on this
machine: a row a result (the game, the instance, the claim, its source, what was found, the
seconds), goals searched under a time limit and reported with how far they got.

    python benchmarks/catalog.py                  # every result (goals get --goal-seconds)
    python benchmarks/catalog.py connect4 kalah   # only these games
    python benchmarks/catalog.py --markdown       # the table for the docs
    python benchmarks/catalog.py domineering --instance 'domineering(rows=8, cols=8)'

The time of a result is the solve or search alone: each game's kernels are compiled first,
on its smallest instance, and that time is printed apart (numba compiles once a process, or
once a machine where its disk cache applies).
"""

from __future__ import annotations

import argparse
import time

from perfectplay import search, solve
from perfectplay.catalog import CatalogGame, Published, Reproduced, reproduce
from perfectplay.registry import catalog, get_catalog


def warm(entry: CatalogGame) -> float:
    """Compile the game's kernels on its smallest instance, the search's too when a result
    is reproduced by search (Domineering 7x8's first search took 51 s with them, loaded
    machine): the seconds it took."""
    began = time.perf_counter()
    game = entry.build(**entry.small[0])
    solve(game)
    if any(p.method == "search" for p in entry.published):
        search(game, value_only=True)
    return time.perf_counter() - began


def found_words(found: Reproduced) -> str:
    if not found.exact:
        return "not proven within the time limit"
    parts = []
    if found.value is not None:
        parts.append(f"{found.value:+d}" if isinstance(found.value, int) else found.value)
    if found.remoteness is not None:
        parts.append(f"in {found.remoteness:,}")
    if found.positions is not None:
        parts.append(f"{found.positions:,} positions")
    return " ".join(parts)


def run(entry: CatalogGame, p: Published, goal_seconds: float, workers: int) -> Reproduced:
    limit = goal_seconds if p.goal else None
    return reproduce(entry, p, time_limit=limit, workers=workers,
                     table_mb=1024 if p.method == "search" and p.seconds > 10 else 64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="catalog games (default: all)")
    parser.add_argument("--goal-seconds", type=float, default=120.0,
                        help="time limit of each goal's search (default 120)")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="skip results whose recorded cost is above this")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--instance", action="append", default=[],
                        help="only this result, as the command line writes the instance "
                             "(repeatable)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    entries = [get_catalog(n) for n in args.games] if args.games else catalog()
    rows = []
    for entry in entries:
        compiling = warm(entry)
        print(f"# {entry.name}: compiled and warmed in {compiling:.1f} s", flush=True)
        for p in entry.published:
            if args.instance and entry.call(entry.arguments((), p.args)) not in args.instance:
                continue
            if args.max_seconds is not None and not p.goal and p.seconds > args.max_seconds:
                print(f"  skipped {entry.call(p.args)} (about {p.seconds:,.0f} s)")
                continue
            found = run(entry, p, args.goal_seconds, args.workers)
            verdict = "agrees" if found.agrees else ("GOAL: not reached" if p.goal and
                                                     not found.exact else "DIFFERS")
            row = (entry.call(entry.arguments((), p.args)), p.claim(), found_words(found),
                   f"{found.seconds:,.2f}", verdict, p.source)
            rows.append(row)
            print("  " + " | ".join(row[:5]), flush=True)
    if args.markdown:
        print("\n| instance | published | found here | seconds | | source |")
        print("|---|---|---|---|---|---|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    if any(r[4] == "DIFFERS" for r in rows):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
