"""Tic-tac-toe in the catalog: :class:`~.rules.TicTacToe` (compiled, one int code a board),
its twin :class:`~.twin.TicTacToeTwin`, and :data:`GAME`.

Rules: two players, X first, take turns marking an empty cell of a 3x3 board; three of
one's marks in a row, column or diagonal wins; a full board with no line is a tie. Cells
are named a1..c3 (column letter, row number, row 1 at the top), as ``examples/tictactoe.py``
names them; that example stays the one that teaches how to write a game, this is the
catalog's fast version.

Representation (see :mod:`.rules`): ``x | o << 9`` in one int64, the turn read from the
counts; tier = marks on the board; ``canonical`` = the smallest of the eight rotations and
reflections (used by proof search and stores: the in-memory ``solve`` keys every position,
so it finds all 5,478); ``horizon`` = empty cells; ``search_moves`` = the win, else the
block, else centre, corners, edges; ``static_bounds`` = no line left to complete.

Sources: H. E. Dudeney, *The Canterbury Puzzles* (1907) and *Modern Puzzles* (1926), puzzle
202 "Noughts and crosses": between players who understand the game every game is drawn.
The count of positions reachable from the empty board, 5,478 (765 up to the eight
symmetries), is in Wikipedia's "Game complexity" (its tic-tac-toe example, citing Math
StackExchange question 485752, 2013, and B. Tsan's generate_tictactoe, 2018); the counts up
to symmetry ply by ply, 1, 3, 12, 38, 108, 174, 204, 153, 57, 15, are OEIS A008907 (Russ
Cox; comments by David W. Wilson, 2001).

>>> from perfectplay import solve
>>> print(GAME.build().draw(0))
  a b c
1 . . .
2 . . .
3 . . .
X to move
>>> s = solve(GAME.twin())  # the plain twin: no compiling; solve(GAME.build()) agrees
>>> s.value(), s.remoteness(), len(s)
(<Value.TIE: 'tie'>, 9, 5478)
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources import files

from ...engine.protocol import PositionCount
from ..entry import Budget, CatalogGame, Published
from .notation import read_board
from .rules import TicTacToe
from .twin import TicTacToeTwin

# seconds: the solve measured here (2026-11-26, 2 shared cores under load), after the
# first-use compiling of the engine's kernels for this game (12-18 s a fresh process)
DUDENEY = "H. E. Dudeney 1926, Modern Puzzles, puzzle 202 'Noughts and crosses' (the claim " \
          "first in his The Canterbury Puzzles, 1907): every game between players who " \
          "understand it is drawn"
COUNT = "Wikipedia 'Game complexity', tic-tac-toe example (citing Math StackExchange " \
        "q. 485752, 2013, and B. Tsan, generate_tictactoe, 2018): 5,478 legal positions, " \
        "765 up to symmetry (per ply: OEIS A008907, R. Cox; D. W. Wilson 2001)"


_POSITIONS = PositionCount(5_478, "exact", "5,478 positions reachable from the empty board "
                           "(765 up to symmetry)")


def _size(args: Mapping[str, object]) -> str:
    return _POSITIONS.source


GAME = CatalogGame(
    name="tictactoe",
    title="Tic-tac-toe",
    rules="X and O take turns marking an empty cell of a 3x3 board; three in a row, column "
          "or diagonal wins, a full board without one is a tie.",
    factory=TicTacToe,
    params=(),
    published=(
        Published({}, DUDENEY, value="tie", seconds=0.01,
                  note="perfect play from both sides fills the board without a line"),
        Published({}, COUNT, positions=5478, seconds=0.01),
    ),
    twin=TicTacToeTwin,
    size=_size,
    positions=lambda _args: _POSITIONS,
    small=({},),
    examples=("solve tictactoe", "play tictactoe", "search tictactoe --analyze"),
    script=files(__name__).joinpath("page.js"),
    notation=read_board,
    notation_hint="a board (x...o...x)",
    budget=Budget(lambda _a: True, "its one board (5,478 positions)", {}),
)

__all__ = ["COUNT", "DUDENEY", "GAME", "TicTacToe", "TicTacToeTwin"]
