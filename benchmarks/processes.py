"""Whole processes, as a user waits for them: perfectplay's command against a process that
reads the same file and runs one plain BFS, and the fixed floor under both.

Issue 32's measure. For each row (The Rock on a random 1000 x 1000 maze with 20 % walls,
the corridor/room family at 700, Closing the Portal on a 2000 x 2000 board with 25 % walls)
it times, best of ``--repeat`` runs each:

- ``python``: the interpreter alone (``python -c pass``);
- ``imports``: the interpreter and the imports both processes make (numpy, numba and
  perfectplay's grid and game parser);
- ``parse``: imports, reading the file and parsing it (the first numba kernel's load, the
  neighbour table, included);
- ``bfs``: parse and one plain numba BFS from the exit (from the first portal): the
  baseline;
- ``plain``: the same without perfectplay (``common.PLAIN_BFS_PROCESS``: numpy reads the
  grid, a numba BFS by index arithmetic, numba's usual start-up): a baseline our own
  start-up work does not speed up;
- ``perfectplay``: ``perfectplay rock --no-map FILE`` / ``perfectplay judge devc-portal
  --lenient FILE`` (the answer only, no board printed).

and prints the ratio to the baseline and the seconds above the floor (``parse``): what the
solver itself costs beyond reading its input.

    python benchmarks/processes.py [--repeat 5] [--rows rock-random rock-corridor portal]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from common import best_of, plain_bfs_command

from perfectplay.grid import Grid, bfs, neighbour_table
from perfectplay.rock.families import corridor_room

PARSE = {
    "rock": "from perfectplay.rock import parse_maze as parse\n",
    "portal": "from perfectplay.portal.judges import ALLOWED\n"
              "from perfectplay.grid import read_grid_case\n"
              "from perfectplay.portal import board_from_grid\n"
              "from perfectplay.textio import Reader\n"
              "def parse(text):\n"
              "    r = Reader(text)\n"
              "    r.header('T', 1, 1)\n"
              "    return board_from_grid(read_grid_case(r, ALLOWED, 10**6))\n",
}
SOURCE = {"rock": "m.exit", "portal": "m.portals[0]"}


def script(game: str, stage: str) -> str:
    """The Python source of one stage of the baseline process for ``game``."""
    out = "import sys\nimport numpy, numba\nfrom perfectplay.grid import bfs\n" + PARSE[game]
    if stage == "imports":
        return out
    out += "m = parse(open(sys.argv[1]).read())\n"
    if stage == "parse":
        return out
    return out + f"print(int(bfs(m.nb, m.open, {SOURCE[game]}).max()))\n"


def random_maze_text(side: int, walls: float, seed: int) -> str:
    """A random maze: X at the centre, E at the reachable cell farthest from it."""
    rng = np.random.default_rng(seed)
    cells = np.where(rng.random((side, side)) < walls, ord("#"), ord(".")).astype(np.uint32)
    centre = (side // 2) * side + side // 2
    cells.flat[centre] = ord("X")
    d = bfs(neighbour_table(side, side), cells.ravel() != ord("#"), centre)
    cells.flat[int(np.argmax(d))] = ord("E")
    return Grid(cells).text() + "\n"


def portal_text(side: int, walls: float, seed: int) -> str:
    """A judge case (T = 1): random walls, the portals the two ends of a long shortest path
    in the centre's component."""
    rng = np.random.default_rng(seed)
    cells = np.where(rng.random((side, side)) < walls, ord("#"), ord(".")).astype(np.uint32)
    centre = (side // 2) * side + side // 2
    cells.flat[centre] = ord(".")
    nb = neighbour_table(side, side)
    a = int(np.argmax(bfs(nb, cells.ravel() != ord("#"), centre)))
    b = int(np.argmax(bfs(nb, cells.ravel() != ord("#"), a)))
    cells.flat[a] = cells.flat[b] = ord("O")
    return f"1\n{side} {side}\n" + Grid(cells).text() + "\n"


ROWS = {
    "rock-random": ("rock", lambda: random_maze_text(1000, 0.2, 5), ["rock", "--no-map"]),
    "rock-corridor": ("rock", lambda: corridor_room(700).grid.text() + "\n",
                      ["rock", "--no-map"]),
    "portal": ("portal", lambda: portal_text(2000, 0.25, 2),
               ["judge", "devc-portal", "--lenient"]),
}


def measure(name: str, repeat: int, tmp: Path) -> str:
    game, make, command = ROWS[name]
    path = tmp / f"{name}.txt"
    path.write_text(make())

    def run(cmd: list[str]) -> float:
        return best_of(lambda: subprocess.run(cmd, check=True, capture_output=True), repeat)

    times = {"python": run([sys.executable, "-c", "pass"])}
    for stage in ("imports", "parse", "bfs"):
        src = tmp / f"{name}-{stage}.py"
        src.write_text(script(game, stage))
        times[stage] = run([sys.executable, str(src), str(path)])
    times["plain"] = run(plain_bfs_command(tmp, path, "X" if game == "rock" else "O"))
    times["perfectplay"] = run([sys.executable, "-m", "perfectplay", *command, str(path)])
    floor = times["parse"]
    cols = "  ".join(f"{k} {v:.2f} s" for k, v in times.items())
    ratio = times["perfectplay"] / times["bfs"]
    return (f"{name}: {cols}\n    ratio to one BFS process {ratio:.2f}x, to the plain one "
            f"{times['perfectplay'] / times['plain']:.2f}x; above the floor (parse): "
            f"perfectplay {times['perfectplay'] - floor:.2f} s, the BFS "
            f"{times['bfs'] - floor:.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rows", nargs="*", default=list(ROWS), choices=list(ROWS))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.rows:
            print(measure(name, args.repeat, Path(tmp)), flush=True)


if __name__ == "__main__":
    main()
