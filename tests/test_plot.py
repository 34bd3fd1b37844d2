"""Pictures: open the PNG the command wrote and check its size and the colours of known cells."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from click.testing import CliRunner

from perfectplay import plot
from perfectplay.cli import main
from perfectplay.rock import parse_maze, solve

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
C = plot.CELL


def pixels(path: Path) -> np.ndarray:
    return (plt.imread(path)[..., :3] * 255).round().astype(int)


def centre(img: np.ndarray, r: int, c: int, cell: int = C) -> tuple[int, ...]:
    return tuple(img[r * cell + cell // 2, c * cell + cell // 2])


def corner(img: np.ndarray, r: int, c: int, cell: int = C) -> tuple[int, ...]:
    return tuple(img[r * cell + 1, c * cell + 1])


def test_rock_heat_map(tmp_path):
    out = tmp_path / "rock.png"
    r = CliRunner().invoke(main, ["rock", str(EXAMPLES / "rock_sample.txt"), "--png",
                                  str(out), "--no-map"])
    assert r.exit_code == 0, r.output
    img = pixels(out)
    assert img.shape == (3 * C, 4 * C, 3)
    assert centre(img, 1, 1) == plot.BLACK  # a wall
    sol = solve(parse_maze((EXAMPLES / "rock_sample.txt").read_text()))
    route, _, blocked = sol.route()
    assert blocked in (1, 3)  # b1 or d1: the maze is symmetric
    assert centre(img, 0, blocked) == plot.RED
    assert centre(img, 2, 1) == plot.WHITE  # E is on the route
    want = plot.heat(sol.f.astype(float), float(sol.f.max()))
    for i in range(12):
        r, c = divmod(i, 4)
        if sol.maze.open[i] and i != blocked:  # every free cell shows its value's colour
            assert corner(img, r, c) == tuple(want[i])


def test_portal_picture(tmp_path):
    out = tmp_path / "portal.png"
    r = CliRunner().invoke(main, ["portal", str(EXAMPLES / "portal_seed.txt"), "--png",
                                  str(out)])
    assert r.exit_code == 0, r.output
    img = pixels(out)
    assert img.shape == (5 * C, 5 * C, 3)
    assert centre(img, 0, 1) == plot.BLUE  # a portal
    assert centre(img, 0, 2) == plot.BLACK  # a wall
    assert centre(img, 4, 4) == plot.GREEN  # a safe cell
    assert centre(img, 1, 2) == plot.WHITE  # on the path
    cut_board = tmp_path / "cut.txt"
    cut_board.write_text("O.#\n#.#\n#.O\n")
    CliRunner().invoke(main, ["portal", str(cut_board), "--png", str(out)])
    assert corner(pixels(out), 1, 1) == plot.RED  # every cell of a 1-wide path is a cut cell


def test_coins_table_picture(tmp_path):
    out = tmp_path / "coins.png"
    r = CliRunner().invoke(main, ["coins", "7", "9", "2", "6", "4", "3", "--png", str(out)])
    assert r.exit_code == 0, r.output
    img = pixels(out)
    cell = 24
    assert img.shape == (6 * cell, 6 * cell, 3)
    assert tuple(img[5 * cell + 5, 0 + 5]) == plot.PAPER  # below the diagonal: empty
    # m(1, 2) = 'j' (take the 9 on the right): the bar is in the right third of the cell
    assert tuple(img[cell // 2, cell + cell - 4]) == plot.INK
    assert tuple(img[cell // 2, cell + 4]) != plot.INK
    # m(2, 3) = 'i': bar on the left
    assert tuple(img[cell + cell // 2, 2 * cell + 4]) == plot.INK
