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


def rock_processes(maze) -> str:
    """``perfectplay rock --no-map FILE`` against a process that parses the same file and
    runs one BFS (what a user waits for, start-up included), best of three each."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "maze.txt"
        path.write_text(maze.grid.text() + "\n")
        script = Path(tmp) / "bfs.py"
        script.write_text(BFS_PROCESS)

        def run(cmd: list[str]) -> float:
            return best_of(lambda: subprocess.run(cmd, check=True, capture_output=True), 3)

        t_rock = run([sys.executable, "-m", "perfectplay", "rock", "--no-map", str(path)])
        t_bfs = run([sys.executable, str(script), str(path)])
    return (f"processes: perfectplay rock {t_rock:.2f} s, one BFS {t_bfs:.2f} s "
            f"({t_rock / t_bfs:.2f}x)")
