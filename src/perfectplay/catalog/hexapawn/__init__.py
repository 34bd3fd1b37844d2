"""Hexapawn in the catalog: :class:`~.rules.Hexapawn` (compiled, one int code a board, any
``width`` x ``height`` with ``width * height <= 27``), its twin :class:`~.twin.HexapawnTwin`,
and :data:`GAME`.

Rules (Martin Gardner, "Mathematical Games", Scientific American 206(3), March 1962,
reprinted in *The Unexpected Hanging and Other Mathematical Diversions*, 1969): each side
has a pawn on every cell of its first row; White moves first; a pawn moves one cell
straight forward to an empty cell, or one cell diagonally forward onto an enemy pawn, which
it captures (no double step, no en passant); a player wins by reaching the far row, by
capturing every enemy pawn, or by leaving the opponent without a move. Gardner's board is 3
x 3 (hence six pawns) and he reports that the second player wins; his matchbox learner,
HER, plays Black and learns never to lose.

Published results: 3 x 3 is lost by White (Gardner 1962), in 6 plies along 1. b2 axb2 2.
cxb2 c2 3. a2 c1 (Wikipedia's "Hexapawn", which also says the 4 x 4 game, "octopawn", is a
forced win for White: no author or year given there, so it is cited as the article). No
source found gives other boards: the catalog relies on the twin for them (the tests compare
the two on every board of at most 16 cells). Measured here: 5 x 5 is a White win in 19
plies (3,210,411 positions), 6 x 4 a White loss in 16 (5,901,150), 4 x 6 a White win in 21.

Representation (see :mod:`.rules`): White's pawns, Black's, the turn and the board's size in
one int64; ``canonical`` the smallest of the four images under the mirror and the colour
swap; ``horizon`` and ``search_moves`` for proof search.

>>> from perfectplay import solve
>>> game = GAME.build(width=4, height=3)
>>> pos = game.play(game.initial(), game.parse_move("b1-b2"))
>>> [game.move_name(m) for m in game.moves(pos)]
['a3-a2', 'a3xb2', 'c3-c2', 'c3xb2', 'd3-d2']
>>> s = solve(GAME.twin(width=3, height=3))  # the plain twin: no compiling
>>> s.value(), s.remoteness(), len(s)
(<Value.LOSE: 'lose'>, 6, 135)
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources import files

from ...engine.protocol import PositionCount
from ..entry import Budget, CatalogGame, Param, Published, product_at_most
from .rules import MAX_CELLS, Hexapawn
from .twin import HexapawnTwin

# seconds: the solve measured here (2026-11-26, 2 shared cores under load), after the
# first-use compiling of the engine's kernels for this game (12-18 s a fresh process)
GARDNER = "M. Gardner 1962, 'Mathematical Games: How to build a game-learning machine and " \
          "then teach it to play and to win', Scientific American 206(3), March 1962 " \
          "(reprinted in The Unexpected Hanging, 1969): the second player wins 3 x 3 hexapawn"
WIKIPEDIA = "Wikipedia 'Hexapawn' (revision of 2024): 3 x 3 is lost by White in 3 moves, " \
            "1.b2 axb2 2.cxb2 c2 3.a2 c1; 4 x 4 octopawn is a forced win for White"


def _limit(args: Mapping[str, int]) -> str | None:
    if args["width"] * args["height"] > MAX_CELLS:
        return f"width * height must be at most {MAX_CELLS} (the board, the turn and its " \
               "size share one 64-bit code)"
    return None


def _positions(args: Mapping[str, int]) -> PositionCount | None:
    """5 x 5's count (counted here); no other size has one."""
    if (args["width"], args["height"]) != (5, 5):
        return None
    return PositionCount(3_210_411, "exact", "3,210,411 positions (counted here)")


def _size(args: Mapping[str, int]) -> str:
    w, h = args["width"], args["height"]
    return f"{w} x {h} board, {2 * w} pawns; 5 x 5 has 3,210,411 positions"


GAME = CatalogGame(
    name="hexapawn",
    title="Hexapawn",
    rules="Pawns move one cell forward or capture one cell diagonally forward; reaching the "
          "far row, capturing every enemy pawn or leaving the opponent no move wins.",
    factory=Hexapawn,
    params=(Param("width", 3, "columns (pawns a side)", low=1, high=8),
            Param("height", 3, "rows (the pawns start on the first and the last)", low=2,
                  high=8)),
    published=(
        Published({"width": 3, "height": 3}, GARDNER, value="lose", seconds=0.01),
        Published({"width": 3, "height": 3}, WIKIPEDIA, value="lose", remoteness=6,
                  seconds=0.01),
        Published({"width": 4, "height": 4}, WIKIPEDIA, value="win", seconds=0.02,
                  note="octopawn"),
    ),
    twin=HexapawnTwin,
    limit=_limit,
    size=_size,
    positions=_positions,
    small=({"width": 3, "height": 3}, {"width": 4, "height": 3}, {"width": 3, "height": 4}),
    examples=("solve hexapawn", "play 'hexapawn(width=4, height=4)'",
              "search 'hexapawn(width=5, height=5)' --analyze"),
    script=files(__name__).joinpath("page.js"),
    # the page solves 5x4 (359,894 positions) in 0.2 s, kernels compiled
    budget=Budget(product_at_most(20, "width", "height"), "width x height at most 20",
                  {"width": 3, "height": 3}),
)

__all__ = ["GAME", "GARDNER", "WIKIPEDIA", "Hexapawn", "HexapawnTwin"]
