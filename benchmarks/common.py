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


# The same without perfectplay: numpy reads the grid, a numba BFS walks it by index
# arithmetic (what a user's own plain program would be; numba's usual start-up included).
PLAIN_BFS_PROCESS = """
import sys
import numpy as np
from numba import njit


@njit(cache=True)
def bfs(free, rows, cols, src):
    dist = np.full(rows * cols, -1, np.int32)
    queue = np.empty(rows * cols, np.int32)
    dist[src] = 0
    queue[0] = src
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        r, c = u // cols, u % cols
        for v, ok in ((u - cols, r > 0), (u + cols, r < rows - 1), (u - 1, c > 0),
                      (u + 1, c < cols - 1)):
            if ok and free[v] and dist[v] < 0:
                dist[v] = dist[u] + 1
                queue[tail] = v
                tail += 1
    return dist


lines = open(sys.argv[1], "rb").read().split()
if len(lines) > 3 and lines[0].isdigit():  # a judge case: T, then R C, then the rows
    lines = lines[3:]
grid = np.frombuffer(b"".join(lines), np.uint8).reshape(len(lines), -1)
cells = grid.ravel()
src = int(np.flatnonzero((cells == ord(sys.argv[2])))[0])
print(int(bfs(cells != ord("#"), grid.shape[0], grid.shape[1], src).max()))
"""


def plain_bfs_command(tmp: Path, path: Path, source: str) -> list[str]:
    """The command of :data:`PLAIN_BFS_PROCESS` on ``path`` from the cell ``source`` (X
    or O), written into ``tmp`` and run once (numba compiles and caches its BFS there)."""
    script = tmp / "plain_bfs.py"
    script.write_text(PLAIN_BFS_PROCESS)
    cmd = [sys.executable, str(script), str(path), source]
    subprocess.run(cmd, check=True, capture_output=True)
    return cmd


def rock_process_times(maze, repeat: int = 3) -> list[tuple[float, float, float]]:
    """``perfectplay rock --no-map FILE``, a process that parses the same file with
    perfectplay's parser and runs one BFS, and the plain one (:data:`PLAIN_BFS_PROCESS`),
    timed in alternation ``repeat`` times (so all see the same load): a list of (rock,
    BFS, plain BFS) seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "maze.txt"
        path.write_text(maze.grid.text() + "\n")
        script = Path(tmp) / "bfs.py"
        script.write_text(BFS_PROCESS)
        rock = [sys.executable, "-m", "perfectplay", "rock", "--no-map", str(path)]
        one_bfs = [sys.executable, str(script), str(path)]
        plain = plain_bfs_command(Path(tmp), path, "X")

        def run(cmd: list[str]) -> float:
            return best_of(lambda: subprocess.run(cmd, check=True, capture_output=True), 1)

        return [(run(rock), run(one_bfs), run(plain)) for _ in range(repeat)]


def rock_processes(maze, repeat: int = 3) -> str:
    """:func:`rock_process_times` in words: the fastest of each (the least disturbed by
    other work), their ratio, and the range of the ratios of the pairs."""
    runs = rock_process_times(maze, repeat)
    t_rock, t_bfs, t_plain = (min(r[k] for r in runs) for k in range(3))
    ratios = sorted(r / b for r, b, _ in runs)
    return (f"processes: perfectplay rock {t_rock:.2f} s, one BFS {t_bfs:.2f} s "
            f"({t_rock / t_bfs:.2f}x; pairs {ratios[0]:.2f}-{ratios[-1]:.2f}x over {repeat}),"
            f" plain BFS {t_plain:.2f} s ({t_rock / t_plain:.2f}x)")
