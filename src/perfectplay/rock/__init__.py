"""The Rock (UVa 10381): a walker crosses a maze while a rock may block one cell, once.

The contract every game shares: :func:`parse` (text -> a :class:`Maze`), :func:`analyze` (a
maze -> a :class:`RockSolution` with ``explain()``, ``draw()``, ``to_json()``), registered
as :data:`SPEC`. The package: :mod:`.model` (the maze, its parser, the options),
:mod:`.rules` (the engine game and the seed's algorithm), :mod:`.solver` and
:mod:`.kernels` (the fast exact solver), :mod:`.result`, :mod:`.render`, :mod:`.judges`
(UVa 10381), :mod:`.cases` (test generators), :mod:`.families` (structured and adversarial
mazes), :mod:`.playtable`, :mod:`.pictures`.

>>> from perfectplay import rock
>>> rock.analyze(rock.parse("..X.\\n.##.\\n.E..")).value
11
"""

from importlib.resources import files

from ..registry import GameSpec, WebPage, register
from .cases import PROBLEMS
from .judges import JUDGES, judge_uva10381
from .model import Maze, RockOptions, maze_from_grid, parse_maze
from .pictures import picture
from .playtable import PLAY_LIMIT, play_table
from .render import draw, explain
from .result import RockSolution
from .rules import RockGame
from .seed import seed_values
from .solver import analyze

parse = parse_maze

ROCK_SAMPLE = "..X.....\n........\n##.##...\n........\n##.##...\n##.##...\n........\n..E....."

SPEC = register(GameSpec(
    name="rock", title="The Rock",
    rules="a walker moves one step a turn from the entrance E to the exit X; once in the "
          "game, a rock may block one cell next to the walker. How many steps can the "
          "walker guarantee?",
    input_help="MAZE is a file with the grid ('#' wall, '.' free, 'E' entrance, 'X' exit), "
               "with or without the judge's \"R C\" first line; '-' reads stdin. The map "
               "shows each cell's guaranteed steps, the route in green and the rock's block "
               "as R.",
    parse=lambda text, options: parse_maze(text), analyze=analyze, options=RockOptions,
    examples=("rock examples/rock_sample.txt",),
    judges=JUDGES, problems=PROBLEMS, play=play_table, picture=picture,
    picture_help="Also save a heat map picture: FILE.png or FILE.svg (needs "
                 "perfectplay[plot]).",
    headline=lambda r: f"[bold]{'infinite' if r.value is None else r.value}[/]",
    grid=lambda result: result.maze.grid.lines(),
    shape=lambda maze: (maze.rows, maze.cols),
    demo=ROCK_SAMPLE, demo_title="the judge's first sample",
    script=files(__name__).joinpath("page.js"),
    web=WebPage(example={"text": "3 4\n.#.X\n.#..\nE...\n"},
                start={"text": "..X.....\n........\n##.##...\n........\n##.##...\n"
                               "##.##...\n........\n..E....."},
                intro="A walker crosses the maze from E to X; a rock may block one cell next "
                      "to the walker, once. How many steps can the walker guarantee?",
                sides=("the walker", "the rock"), controls=()),
))

__all__ = ["JUDGES", "PLAY_LIMIT", "PROBLEMS", "SPEC", "Maze", "RockGame", "RockOptions",
           "RockSolution", "analyze", "draw", "explain", "judge_uva10381", "maze_from_grid",
           "parse", "parse_maze", "picture", "play_table", "seed_values"]
