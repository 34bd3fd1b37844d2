"""Shared by the benchmark scripts: best-of-n timing, The Rock timed as whole processes."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """The fastest of ``repeat`` runs of ``fn``, in seconds (the least disturbed by noise)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


BFS_PROCESS = """
import sys
from perfectplay.grid import bfs
from perfectplay.rock import parse_maze
m = parse_maze(open(sys.argv[1]).read())
print(int(bfs(m.nb, m.open, m.exit)[m.entrance]))
"""


def rock_process_times(maze, repeat: int = 3) -> list[tuple[float, float]]:
    """``perfectplay rock --no-map FILE`` and a process that parses the same file and runs
    one BFS, timed in alternation ``repeat`` times (so both see the same load): a list of
    (rock seconds, BFS seconds) pairs."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "maze.txt"
        path.write_text(maze.grid.text() + "\n")
        script = Path(tmp) / "bfs.py"
        script.write_text(BFS_PROCESS)
        rock = [sys.executable, "-m", "perfectplay", "rock", "--no-map", str(path)]
        one_bfs = [sys.executable, str(script), str(path)]
        return [(best_of(lambda: subprocess.run(rock, check=True, capture_output=True), 1),
                 best_of(lambda: subprocess.run(one_bfs, check=True, capture_output=True), 1))
                for _ in range(repeat)]


def rock_processes(maze, repeat: int = 3) -> str:
    """:func:`rock_process_times` in words: the fastest of each (the least disturbed by
    other work), their ratio, and the range of the ratios of the pairs."""
    pairs = rock_process_times(maze, repeat)
    t_rock, t_bfs = min(r for r, _ in pairs), min(b for _, b in pairs)
    ratios = sorted(r / b for r, b in pairs)
    return (f"processes: perfectplay rock {t_rock:.2f} s, one BFS {t_bfs:.2f} s "
            f"({t_rock / t_bfs:.2f}x; pairs {ratios[0]:.2f}-{ratios[-1]:.2f}x over {repeat})")
