"""Proof search's node counts on fixed Connect Four positions: a deterministic, cheap yardstick
for changes to the search (move ordering, cut-offs, the table), where wall times on a shared
machine are noisy and a node count with one worker and a fresh table is exact.

Sets (each position searched from an empty table, one worker, ``--table-mb`` MB):

- ``opening_L2``: the first ``--count`` positions of Pascal Pons' 7x6 set "beginning, medium"
  (7 to 14 plies played), every answer checked against the set's score;
- ``opening_L3``: a few of Pons' "beginning, hard" positions (tests/data/connect4);
- ``boards``: the empty board of small boards (5x6, 7x5, 6x6), every answer checked
  against Steininger's and Tromp's table (``OUTCOMES``).

For each set: positions, total nodes, the branching nodes among them (nodes that chose
among two or more moves: about what Steininger's c4 counts, as it plays forced moves and
reads ended games and table cut-offs without a node), the process's user CPU seconds spent
searching (the kernels are compiled first and not counted), and any wrong answer.
``--json FILE`` writes every position's nodes too, so two runs compare position by position
(``--compare FILE``).

    python benchmarks/search_nodes.py                       # every set
    python benchmarks/search_nodes.py --sets boards --json base.json
    python benchmarks/search_nodes.py --compare base.json   # ratios against an earlier run

Exits with status 1 when any answer is wrong.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
from pathlib import Path

import perfectplay
from perfectplay import Value
from perfectplay.catalog.connect4 import ConnectFour, from_pons_score, position_from_moves
from perfectplay.catalog.connect4.published import OUTCOMES
from perfectplay.engine.proof.driver import clear_table

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "connect4"
BOARDS = [(5, 6), (7, 5), (6, 6)]
L3_LINES = [2, 3, 6, 8, 10, 13]  # cheap-to-moderate lines of opening_L3 (1-based)
SETS = ["opening_L2", "opening_L3", "boards"]


def cpu() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_utime


def pons_rows(name: str, lines: list[int]) -> list[tuple[str, int]]:
    rows = (DATA / f"7x6_{name}.txt").read_text().splitlines()
    return [(rows[i - 1].split()[0], int(rows[i - 1].split()[1])) for i in lines]


def cases(name: str, count: int) -> list[tuple[str, ConnectFour, int, tuple[Value, int]]]:
    """(label, game, code, expected (value, remoteness)) of every position of a set."""
    out = []
    if name in ("opening_L2", "opening_L3"):
        game = ConnectFour(7, 6)
        lines = list(range(1, count + 1)) if name == "opening_L2" else L3_LINES
        for moves, score in pons_rows(name, lines):
            out.append((moves, game, position_from_moves(game, moves),
                        from_pons_score(score, len(moves))))
    elif name == "boards":
        for w, h in BOARDS:
            game = ConnectFour(w, h)
            value, plies = OUTCOMES[(w, h)]
            out.append((f"{w}x{h}", game, game.initial(), (Value(value), plies)))
    else:
        raise SystemExit(f"unknown set {name}; known: {', '.join(SETS)}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--count", type=int, default=25, help="opening_L2 positions (default 25)")
    ap.add_argument("--table-mb", type=float, default=64)
    ap.add_argument("--json", type=Path, help="write every position's nodes here")
    ap.add_argument("--compare", type=Path, help="an earlier --json file: print ratios")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    before = json.loads(args.compare.read_text()) if args.compare else {}
    record: dict[str, dict[str, int]] = {}
    wrong = 0
    for name in [s.strip() for s in args.sets.split(",") if s.strip()]:
        todo = cases(name, args.count)
        for _, game, code, _ in todo[:1]:  # compile the kernels outside the clock
            perfectplay.search(game, code, node_limit=1000, table_mb=args.table_mb)
        for _, game, _, _ in todo:
            perfectplay.search(game, game.play(game.initial(), 0), node_limit=1000,
                               table_mb=args.table_mb)
        nodes, branching, seconds = 0, 0, 0.0
        record[name] = {}
        record[name + ":branching"] = {}
        for label, game, code, expected in todo:
            clear_table()
            t = cpu()
            r = perfectplay.search(game, code, table_mb=args.table_mb)
            seconds += cpu() - t
            nodes += r.nodes
            branching += r.branching
            record[name][label] = r.nodes
            record[name + ":branching"][label] = r.branching
            ok = r.exact and (r.value, r.remoteness) == expected
            wrong += not ok
            if args.verbose or not ok:
                old = before.get(name, {}).get(label)
                ratio = f" {r.nodes / old:6.3f}x" if old else ""
                print(f"  {label:<16} {r.describe():<14} {r.nodes:>13,}{ratio}"
                      f"{'' if ok else '  WRONG, expected ' + str(expected)}", flush=True)
        old_total = sum(before.get(name, {}).values())
        old_branching = sum(before.get(name + ":branching", {}).values())
        ratio = f"  ({nodes / old_total:.3f}x" if old_total else ""
        if ratio:
            ratio += f", {branching / old_branching:.3f}x" if old_branching else ""
            ratio += " the earlier run)"
        print(f"{name:<11} {len(todo):>3} positions {nodes:>14,} nodes ({branching:,} "
              f"branching) {seconds:8.2f} s user{ratio}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(record, indent=1))
    print(f"{wrong} wrong answer(s)")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
