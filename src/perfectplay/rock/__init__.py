"""The Rock (UVa 10381): a walker crosses a maze while a rock may block one cell, once.

>>> from perfectplay.rock import parse_maze, solve
>>> solve(parse_maze("..X.\\n.##.\\n.E..")).value
11
"""

from .formats import JUDGES, draw, explain, judge_uva10381
from .game import RockGame, seed_values
from .maze import Maze, maze_from_grid, parse_maze
from .solver import RockSolution, solve

__all__ = ["JUDGES", "Maze", "RockGame", "RockSolution", "draw", "explain",
           "judge_uva10381", "maze_from_grid", "parse_maze", "seed_values", "solve"]
