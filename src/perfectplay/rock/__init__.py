"""The Rock (UVa 10381): a walker crosses a maze while a rock may block one cell, once.

The contract every game shares: :func:`parse` (text -> a :class:`Maze`), :func:`analyze` (a
maze -> a :class:`RockSolution` with ``explain()``, ``draw()``, ``to_json()``), the judge
format on top.

>>> from perfectplay import rock
>>> rock.analyze(rock.parse("..X.\\n.##.\\n.E..")).value
11
"""

from .formats import JUDGES, draw, explain, judge_uva10381
from .game import RockGame, seed_values
from .maze import Maze, maze_from_grid, parse_maze
from .solver import RockSolution, solve

parse = parse_maze
analyze = solve

__all__ = ["JUDGES", "Maze", "RockGame", "RockSolution", "analyze", "draw", "explain",
           "judge_uva10381", "maze_from_grid", "parse", "parse_maze", "seed_values", "solve"]
