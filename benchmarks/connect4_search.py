"""Proof search on standard Connect Four: Pascal Pons's 7x6 test sets, solved one position at
a time by ``perfectplay.search``, every answer checked against the set's proven score, the
speed beside Pons's C++ solver.

The sets are in tests/data/connect4 (the first 50 positions of each; see its README): lines
``MOVES SCORE``, moves as column digits from 0, the score in Pons's convention, turned into
(value, remoteness) by ``from_pons_score``. As in Pons's own test program (one Solver,
never reset, reading positions one a line), the table is kept from one position to the
next (``perfectplay.search`` keeps the last game's table); ``--fresh-table`` starts each
position from an empty one instead (measuring also the cost of touching new table pages).
A few warm-up searches compile the kernels first (from a fresh table after them).

The C++ figures are Pons's solver on one thread with a 64 MB table and no opening book: the
total seconds for 50 positions of each set (scaled to ``--count`` when it differs). The
ratio is our total over theirs: how many times slower the same proofs are here. "total" is
the wall clock around each call (so it includes allocating and clearing the table, which
dominates the easy sets), "searching" the searches' own clocks.

    python benchmarks/connect4_search.py                          # every set, 50 positions
    python benchmarks/connect4_search.py --sets endgame_L1,midgame_L1 --count 10
    python benchmarks/connect4_search.py --sets opening_L2 --time 60 --workers 2
    python benchmarks/connect4_search.py --pons ~/connect4/c4solver   # C++ timed in this run
    python benchmarks/connect4_search.py --pons-timer ./pons_timer    # C++ timed call by call
    python benchmarks/connect4_search.py --batch --pons-timer ./pons_timer  # search_many

``--pons PATH`` runs Pons's own solver (``c4solver`` built from github.com/PascalPons/connect4
with its Makefile, no opening book) on the same positions in the same run, each set as one
process fed the set's lines (1-indexed, as it reads them), and takes its time less that of
a process given no line (start-up and its 64 MB table); its answers are checked too. Without
it the C++ column is the total recorded on 2026-11-23 (``CPP_SECONDS_PER_50``).

``--pons-timer PATH`` times his solver inside its process instead: ``pons_timer``, built
from this folder's ``pons_timer.cpp`` against his sources (the build line is in that file),
times each ``Solver::solve`` call with a steady clock, one Solver for the whole set as his
program keeps, and the C++ column is the sum of those calls: no process start-up, no table
set-up, so the sets solved in microseconds a position can be compared too.

``--batch`` gives each set to one ``perfectplay.search_many`` call (every position's probes
in one kernel call, the rest as ``search`` goes on), the clock around that call.

``--board 9x5 --data PATH/c4/tst/data/9x5`` runs Steininger's sets of another board (his
repository, github.com/ChristopheSteininger/c4, ships 7x6, 9x5 and 10x6 sets in the same
format; his 7x6 sets are Pons's above; 10x6 does not fit a 64-bit board): every answer
checked against the set's score; the C++ column needs ``--pons-timer`` built for that board
(Pons's solver is compiled for one board: set WIDTH and HEIGHT in his Position.hpp, see
``pons_timer.cpp``; the benchmark asks the timer which board it was built for).

``--c4-test PATH`` also times Steininger's c4 on the same positions: PATH is the test program
of his repository (``tst/*.cpp`` built with his solver, ``settings.h`` set to the board, one
thread and a 64 MB table, 8388617 entries, to match one worker here), which solves every
file of ``tst/data/WxH`` in its working folder in weak, strong and self-play modes and
prints each mode's total time to 0.01 s (so the easy sets read 0.00-0.01 s). The
benchmark writes the positions it searched into a temporary folder, runs it there once,
and sets its strong mode (the exact score, as Pons's and ours) beside ours.

Exits with status 1 when any answer differs from the set's score (positions stopped by
``--time`` are counted as unproven, not as wrong).
"""

from __future__ import annotations

import argparse
import importlib
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import perfectplay
from perfectplay.catalog.connect4 import ConnectFour, from_pons_score, position_from_moves
from perfectplay.errors import GameError

ROOT = Path(__file__).resolve().parent.parent

DATA = ROOT / "tests" / "data" / "connect4"
SETS = ["endgame_L1", "midgame_L1", "midgame_L2", "opening_L1", "opening_L2", "opening_L3"]
# Pons's solver, 1 thread, 64 MB table, no book: total seconds for 50 positions of each set.
CPP_SECONDS_PER_50 = {"endgame_L1": 0.04, "midgame_L1": 0.04, "midgame_L2": 0.37,
                      "opening_L1": 0.06, "opening_L2": 8.4, "opening_L3": 305.0}
# endgame_L1's first loss, win and tie: quick, and between them every path of the kernels
WARM_UP = ["1141465142351133000452254232560240330", "6311230624536630055022462362131455",
           "12052305013656112043356360161305644522"]


@dataclass
class SetResult:
    """What one set's run found."""

    name: str
    positions: int = 0
    proven: int = 0
    wall: float = 0.0  # seconds around each call, table allocation included
    search_seconds: float = 0.0  # the searches' own clocks
    nodes: int = 0
    mismatches: list[str] = field(default_factory=list)


def read_set(name: str, count: int, data: Path) -> list[tuple[str, int]]:
    """The first ``count`` (moves, score) lines of a set: ``7x6_<name>.txt`` or ``<name>.txt``
    in ``data`` (the latter for a checkout of the full sets)."""
    for path in (data / f"7x6_{name}.txt", data / f"{name}.txt"):
        if path.exists():
            rows = []
            for line in path.read_text().splitlines()[:count]:
                moves, score = line.split()
                rows.append((moves, int(score)))
            return rows
    raise SystemExit(f"no file for the set {name} in {data}")


def run_set(game: ConnectFour, name: str, rows: list[tuple[str, int]], args) -> SetResult:
    """Search every position of a set and check it against its score."""
    res = SetResult(name)
    clear_table = getattr(importlib.import_module("perfectplay.engine.proof.driver"), "clear_table",
                          None)
    for i, (moves, score) in enumerate(rows, 1):
        code = position_from_moves(game, moves)
        if clear_table is not None and args.fresh_table:
            clear_table()
        expected = from_pons_score(score, len(moves), game.width, game.height)
        t = time.perf_counter()
        r = perfectplay.search(game, code, table_mb=args.table_mb, workers=args.workers,
                               time_limit=args.time)
        wall = time.perf_counter() - t
        res.positions += 1
        res.wall += wall
        res.search_seconds += r.seconds
        res.nodes += r.nodes
        got = (r.value, r.remoteness)
        if r.exact:
            res.proven += 1
            if got != expected:
                res.mismatches.append(f"{name} line {i}: {moves} score {score}: expected "
                                      f"{expected[0].value} in {expected[1]}, search says "
                                      f"{r.describe()}")
        if args.verbose:
            mark = "ok" if r.exact and got == expected else "NOT PROVEN" if not r.exact \
                else "WRONG"
            print(f"  {name} {i:3d} {moves:<42} {score:+3d}  {r.describe():<18} "
                  f"{r.nodes:>14,} nodes {wall:9.3f} s  {mark}", flush=True)
    return res


def run_set_batch(game: ConnectFour, name: str, rows: list[tuple[str, int]],
                  args) -> SetResult:
    """The set's positions in one ``perfectplay.search_many`` call (the kernel runs every
    position's probes with no Python between them), every answer checked the same way.
    The positions are made from their moves before the clock starts, as Pons's timer
    reads a line before it starts its clock."""
    res = SetResult(name)
    codes = [position_from_moves(game, moves) for moves, _ in rows]
    t = time.perf_counter()
    batch = perfectplay.search_many(game, codes, table_mb=args.table_mb, workers=args.workers,
                                    time_limit=None if args.time is None
                                    else args.time * len(codes))
    res.wall = time.perf_counter() - t
    res.search_seconds = batch.seconds
    res.nodes = batch.nodes
    res.positions = len(codes)
    for i, ((moves, score), r) in enumerate(zip(rows, batch, strict=True), 1):
        expected = from_pons_score(score, len(moves), game.width, game.height)
        if r.exact:
            res.proven += 1
            if (r.value, r.remoteness) != expected:
                res.mismatches.append(f"{name} line {i}: {moves} score {score}: expected "
                                      f"{expected[0].value} in {expected[1]}, search_many "
                                      f"says {r.describe()}")
    return res


def _run_pons(solver: Path, lines: list[str]) -> tuple[float, list[str]]:
    """Seconds of wall clock of one run of Pons's solver on ``lines``, and what it printed."""
    t = time.perf_counter()
    out = subprocess.run([str(solver)], input="".join(f"{ln}\n" for ln in lines),
                         capture_output=True, text=True, check=True, cwd=solver.parent).stdout
    return time.perf_counter() - t, out.splitlines()


def _pons_lines(rows: list[tuple[str, int]]) -> list[str]:
    """A set's positions as Pons's programs read them (columns numbered from 1)."""
    return ["".join(str(int(c) + 1) for c in moves) for moves, _ in rows]


def _pons_mismatches(rows: list[tuple[str, int]], scores: list[str],
                     name: str) -> list[str]:
    """Where Pons's scores (one a line, as printed) differ from the set's, or are missing."""
    bad = [f"{name} line {i}: {moves} score {score}: Pons's solver says {got}"
           for i, ((moves, score), got) in enumerate(zip(rows, scores, strict=False), 1)
           if got != str(score)]
    if len(scores) != len(rows):
        bad.append(f"{name}: Pons's solver answered {len(scores)} of {len(rows)} lines")
    return bad


def time_pons(solver: Path, rows: list[tuple[str, int]], name: str) -> tuple[float, list[str]]:
    """Pons's solver on a set's positions: (seconds less start-up, mismatches)."""
    lines = _pons_lines(rows)
    start_up = min(_run_pons(solver, [])[0] for _ in range(5))
    runs = [_run_pons(solver, lines) for _ in range(3)]  # the quickest of three: a few
    seconds, out = min(runs)  # milliseconds of process jitter weigh on the small sets
    return (max(seconds - start_up, 0.0),
            _pons_mismatches(rows, [row.split()[-1] for row in out], name))


def time_pons_calls(timer: Path, rows: list[tuple[str, int]],
                    name: str) -> tuple[float, list[str]]:
    """Pons's solver timed call by call (``pons_timer``): (the quickest of three runs'
    summed seconds, mismatches)."""
    lines = _pons_lines(rows)
    runs = []
    for _ in range(3):
        _, out = _run_pons(timer, lines)
        runs.append((sum(float(row.split()[1]) for row in out), out))
    seconds, out = min(runs)
    return seconds, _pons_mismatches(rows, [row.split()[0] for row in out], name)


def timer_board(timer: Path) -> str:
    """The board ``pons_timer`` was built for (``WIDTHxHEIGHT``), as it prints it."""
    try:
        out = subprocess.run([str(timer), "--board"], capture_output=True, text=True,
                             timeout=30, check=False).stdout.strip()
    except OSError as e:
        raise SystemExit(f"--pons-timer {timer}: cannot run it: {e}") from e
    return out or "unknown (an old build: it does not answer --board)"


def time_c4(test: Path, sets: dict[str, list[tuple[str, int]]],
            board: str) -> dict[str, tuple[float, float]]:
    """Steininger's c4 test program on the positions ours searched (each set's rows as
    :func:`read_set` read them): each set's (strong mode's seconds, its mean nodes), as it
    prints them; a SystemExit when it ran on another board, failed a position, or printed
    no strong line for all of a set's positions."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "tst" / "data" / board
        folder.mkdir(parents=True)
        for name, rows in sets.items():
            (folder / f"{name}.txt").write_text("".join(f"{m} {v}\n" for m, v in rows))
        done = subprocess.run([str(test)], cwd=tmp, capture_output=True, text=True,
                              check=False)
    out = done.stdout.replace("\r", "\n")
    built = re.search(r"Using a (\d+) x (\d+) board", out)
    if built is None or f"{built[1]}x{built[2]}" != board:
        raise SystemExit(f"--c4-test {test}: not built for the {board} board")
    if done.returncode != 0 or "All tests passed" not in out:
        raise SystemExit(f"--c4-test {test}: its test failed:\n{out[-2000:]}")
    times = {}
    for line in out.splitlines():
        fields = line.split()
        name = Path(fields[0]).stem if fields else ""
        if len(fields) == 7 and fields[1] == "Strong" and name in sets \
                and int(fields[6]) == len(sets[name]):  # its last line for the set
            times[name] = (float(fields[5]), float(fields[2]))
    missing = [n for n in sets if n not in times]
    if missing:
        raise SystemExit(f"--c4-test {test}: no strong time for {', '.join(missing)}")
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default=",".join(SETS),
                    help="comma-separated sets (default: all six)")
    ap.add_argument("--count", type=int, default=50, help="positions per set (default 50)")
    ap.add_argument("--table-mb", type=float, default=64, help="transposition table size")
    ap.add_argument("--workers", type=int, default=1, help="search threads")
    ap.add_argument("--time", type=float, default=None,
                    help="time limit per position, seconds (default: none)")
    ap.add_argument("--fresh-table", action="store_true",
                    help="start each position from an empty table (default: keep it, as "
                    "Pons's test program does)")
    ap.add_argument("--data", type=Path, default=DATA, help="directory of the set files")
    ap.add_argument("--board", default="7x6",
                    help="WIDTHxHEIGHT of the sets' board (default 7x6; others need --data)")
    ap.add_argument("--pons", type=Path, default=None,
                    help="Pons's c4solver, timed on the same positions in this run")
    ap.add_argument("--pons-timer", type=Path, default=None,
                    help="pons_timer (pons_timer.cpp built against Pons's sources): his "
                    "solver timed call by call in this run")
    ap.add_argument("--c4-test", type=Path, default=None,
                    help="Steininger's c4 test program built for the board (one thread, "
                    "64 MB): its strong mode timed on the same positions")
    ap.add_argument("--batch", action="store_true",
                    help="each set in one perfectplay.search_many call instead of a "
                    "search call a position")
    ap.add_argument("-v", "--verbose", action="store_true", help="a line per position")
    args = ap.parse_args()
    names = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in names if s not in CPP_SECONDS_PER_50]
    if unknown:
        ap.error(f"unknown sets {unknown}; known: {', '.join(SETS)}")
    if args.count < 1:
        ap.error("--count must be at least 1")
    for flag, path in (("--pons", args.pons), ("--pons-timer", args.pons_timer),
                       ("--c4-test", args.c4_test)):
        if path is not None and not path.is_file():
            ap.error(f"{flag} {path}: no such file")
    if args.pons is not None and args.pons_timer is not None:
        ap.error("--pons and --pons-timer: give one")

    try:
        width, height = (int(n) for n in args.board.lower().split("x"))
        game = ConnectFour(width, height)
    except (ValueError, GameError) as e:
        ap.error(f"--board {args.board}: {e}")
    other = (width, height) != (7, 6)
    if other and args.pons is not None:
        ap.error("--pons times Pons's 7x6 solver: with --board, give --pons-timer built for "
                 "that board (see pons_timer.cpp)")
    if args.pons_timer is not None:
        built = timer_board(args.pons_timer.resolve())
        if built != f"{width}x{height}":
            ap.error(f"--pons-timer {args.pons_timer} was built for the {built} board, "
                     f"not {width}x{height} (see pons_timer.cpp)")
    if other and args.data == DATA:
        ap.error("--board: give --data, a folder of that board's sets (NAME.txt)")
    warm = [rows[0][0] for rows in (read_set(n, 1, args.data) for n in names)] if other \
        else WARM_UP
    t = time.perf_counter()
    for moves in warm:
        perfectplay.search(game, position_from_moves(game, moves), table_mb=args.table_mb,
                           workers=args.workers)
    if args.batch:
        perfectplay.search_many(game, [position_from_moves(game, m) for m in warm],
                                table_mb=args.table_mb, workers=args.workers)
    print(f"warm-up (compiling the kernels): {time.perf_counter() - t:.1f} s")
    module = importlib.import_module("perfectplay.engine.proof.driver")
    prepare = getattr(module, "prepare_table", None)
    clear = getattr(module, "clear_table", None)
    if prepare is not None:  # an empty table, every page written once, as Pons's solver
        # clears its own when it starts (outside its timing: start-up is subtracted)
        print(f"table set-up (not timed, as Pons's): {prepare(game, args.table_mb):.2f} s")
    elif clear is not None:
        clear()  # every run starts from an empty table: the warm-up's proofs are not kept
    print(f"table {args.table_mb:g} MB ({'fresh' if args.fresh_table else 'kept'} for each "
          f"position), {args.workers} worker(s)"
          + (f", {args.time:g} s per position" if args.time else ""))
    print(f"{'set':<11} {'solved':>9} {'mean time':>10} {'mean nodes':>12} {'nodes/s':>11} "
          f"{'total':>9} {'searching':>10} {'C++ total':>10} {'ratio':>7}")
    results = []
    searched = {}  # each set's rows, for --c4-test to run on the same positions
    for name in names:
        rows = searched[name] = read_set(name, args.count, args.data)
        res = (run_set_batch if args.batch else run_set)(game, name, rows, args)
        results.append(res)
        n = max(res.positions, 1)
        if args.pons is not None:
            cpp, pons_bad = time_pons(args.pons.resolve(), rows, name)
            res.mismatches.extend(pons_bad)
        elif args.pons_timer is not None:
            cpp, pons_bad = time_pons_calls(args.pons_timer.resolve(), rows, name)
            res.mismatches.extend(pons_bad)
        elif other:
            cpp = float("nan")  # no C++ figure recorded for this board
        else:
            cpp = CPP_SECONDS_PER_50[name] * res.positions / 50
        rate = res.nodes / res.search_seconds if res.search_seconds > 0 else 0.0
        print(f"{name:<11} {res.proven:>4}/{res.positions:<4} {res.wall / n:>9.5f}s "
              f"{res.nodes / n:>12,.0f} {rate:>11,.0f} {res.wall:>8.4f}s "
              f"{res.search_seconds:>9.4f}s "
              + (f"{cpp:>9.4f}s {res.wall / max(cpp, 1e-6):>6.1f}x" if cpp == cpp
                 else f"{'-':>10} {'-':>7}"), flush=True)
    if args.c4_test is not None:
        c4 = time_c4(args.c4_test.resolve(), searched, f"{width}x{height}")
        print("Steininger's c4, its test program's strong mode on the positions above (its "
              "seconds to 0.01):")
        print(f"{'set':<11} {'ours':>9} {'c4':>9} {'c4 nodes':>12} {'ratio':>7}")
        for res in results:
            seconds, nodes = c4[res.name]
            ratio = f"{res.wall / seconds:>6.2f}x" if seconds > 0 else f"{'<5 ms':>7}"
            print(f"{res.name:<11} {res.wall:>8.4f}s {seconds:>8.2f}s {nodes:>12,.0f} {ratio}")
    bad = [m for res in results for m in res.mismatches]
    unproven = sum(res.positions - res.proven for res in results)
    if unproven:
        print(f"{unproven} position(s) not proven within the time limit")
    for m in bad:
        print("MISMATCH", m)
    print(f"{len(bad)} mismatch(es) in {sum(r.positions for r in results)} positions")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
