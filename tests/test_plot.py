"""Pictures: each one is titled, labelled and sized to read, and every cell has its
documented colour, checked pixel by pixel at the positions the picture reports."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from click.testing import CliRunner

from perfectplay import coins, plot, portal, rock
from perfectplay.cli import main
from perfectplay.coins import seed_tables
from perfectplay.portal import parse_board
from perfectplay.rock import analyze as solve
from perfectplay.rock import parse_maze

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def pixels(path: Path) -> np.ndarray:
    return (plt.imread(path)[..., :3] * 255).round().astype(int)


def at(img: np.ndarray, xy: tuple[int, int]) -> tuple[int, ...]:
    x, y = xy
    return tuple(int(v) for v in img[y, x])


def test_rock_map_colours_every_cell(tmp_path):
    sol = solve(parse_maze((EXAMPLES / "rock_sample.txt").read_text()))
    pic = rock.picture(sol, tmp_path / "rock.png")
    img = pixels(pic.path)
    assert img.shape[:2] == (pic.height, pic.width)
    assert at(img, pic.inside(1, 1)) == plot.BLACK  # a wall
    _, _, blocked = sol.route()
    assert blocked in (1, 3)  # b1 or d1: the maze is symmetric
    assert at(img, pic.inside(0, blocked)) == plot.RED
    assert at(img, pic.centre(2, 0)) == plot.WHITE  # a3 is on the route: a white dot
    want = plot.heat(sol.f.astype(float), float(sol.f.max()))
    for i in range(12):
        r, c = divmod(i, 4)
        if sol.maze.open[i] and i != blocked:  # every free cell shows its value's colour
            assert at(img, pic.inside(r, c)) == tuple(want[i])


def test_big_boards_get_readable_cells_and_svg_works(tmp_path):
    rows = ["E" + "." * 39] + ["." * 40] * 18 + ["." * 39 + "X"]
    sol = solve(parse_maze("\n".join(rows)))
    pic = rock.picture(sol, tmp_path / "big.png")
    assert 40 * pic.cell >= plot.MIN_WIDTH and pic.cell >= 15
    assert at(pixels(pic.path), pic.inside(5, 5)) == tuple(
        plot.heat(sol.f.astype(float), float(sol.f.max()))[5 * 40 + 5])
    svg = rock.picture(sol, tmp_path / "big.svg").path.read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert "The Rock: the walker can guarantee" in svg or "font" in svg


def test_portal_picture(tmp_path):
    board = parse_board((EXAMPLES / "portal_seed.txt").read_text())
    pic = portal.picture(portal.analyze(board), tmp_path / "portal.png")
    img = pixels(pic.path)
    assert at(img, pic.inside(0, 1)) == plot.BLUE  # a portal
    assert at(img, pic.inside(0, 2)) == plot.BLACK  # a wall
    assert at(img, pic.inside(4, 4)) == plot.GREEN  # a safe cell
    assert at(img, pic.centre(1, 2)) == plot.WHITE  # on the path
    cut = parse_board("O.#\n#.#\n#.O\n")
    pic = portal.picture(portal.analyze(cut), tmp_path / "cut.png")
    assert at(pixels(pic.path), pic.inside(1, 1)) == plot.RED  # a 1-wide path: all cut


def test_coins_table_picture(tmp_path):
    row = [7, 9, 2, 6, 4, 3]
    pic = coins.picture(coins.analyze(row), tmp_path / "coins.png")
    img = pixels(pic.path)
    assert at(img, pic.inside(5, 0)) == plot.PAPER  # below the diagonal: empty
    P, m = seed_tables(row)
    x, y = pic.centre(0, 1)
    right_edge = (pic.left + 2 * pic.cell - pic.cell // 8, y)
    left_edge = (pic.left + pic.cell + pic.cell // 8, y)
    assert m[1][2] == "j" and at(img, right_edge) == plot.INK  # take the 9 on the right
    assert at(img, left_edge) != plot.INK
    x, y = pic.centre(1, 2)
    assert m[2][3] == "i" and at(img, (pic.left + 2 * pic.cell + pic.cell // 8, y)) == plot.INK


def test_the_commands_write_png_and_svg(tmp_path):
    for args in (["rock", str(EXAMPLES / "rock_sample.txt"), "--no-map"],
                 ["portal", str(EXAMPLES / "portal_seed.txt")],
                 ["coins", "7", "9", "2", "6", "4", "3"]):
        for suffix in (".png", ".svg"):
            out = tmp_path / f"{args[0]}{suffix}"
            r = CliRunner().invoke(main, [*args, "--png", str(out)])
            assert r.exit_code == 0, r.output
            assert out.stat().st_size > 1000
    r = CliRunner().invoke(main, ["coins", "1", "2", "--png", str(tmp_path / "x.jpg")])
    assert r.exit_code == 1 and "PNG or SVG" in r.stderr
