"""Dots and Boxes in the catalog: :class:`~.rules.DotsAndBoxes` (the lines drawn and the
player to move in an int64, one set of compiled rules for every board of at most 54
lines), its twin :class:`~.twin.DotsAndBoxesTwin`, and :data:`GAME`.

**Rules.** On a grid of (rows + 1) x (cols + 1) dots the players take turns drawing a line
between two neighbouring dots; a player who completes the fourth side of a box scores it
and moves again (one extra move, however many boxes the line completes); completing a box
is never compulsory. When every line is drawn the player with more boxes wins (Édouard
Lucas's "la pipopipette", 1889).

**Representation.** See :mod:`.rules`: a position is the lines drawn and the player to
move; the score so far is not kept, since the engine's value of a scored game is the margin
still to be won, the same for either player (Wilson's analysis keys positions the same
way). The value of the start is the first player's final margin, boxes won minus boxes
lost. A move is a line, named by its two dots as ``a1-b1`` (dot columns lettered from the
left, dot rows numbered from the bottom).

**Sources** (margin for the first player):

- David Wilson, "Dots-and-Boxes Analysis Results" (wilson.engr.wisc.edu/boxes/results.shtml,
  undated; his retrograde solver is the state of the art Barker & Korf 2012 compare
  with): the 3 x 3 boxes
  game is -3, every opening losing by 3 ("page 9 of The Dots-and-Boxes Game describes how
  player B can force a win by 1. However, player B really should win by 3"); the 4 x 4
  boxes game is a tie (proven here by proof search too, 2026-12-07: see the catalog entry).
- Berlekamp 2000, "The Dots and Boxes Game: Sophisticated Child's Play" (A K Peters),
  p. 9: the second player can force a win on 3 x 3 (by 1 at least; Wilson: by 3).
- Strongly solved here: 3 x 3 has 18,015,336 positions reachable (lines drawn and the player
  to move), -3 in 24 moves (every line drawn).
- Barker & Korf 2012, "Solving Dots-And-Boxes", Proceedings of the Twenty-Sixth AAAI
  Conference on Artificial Intelligence: 4 x 5 boxes is a tie (the largest board solved
  then; the goal here).
- The 2 x 2 board (9 dots) is a first-player win: Berlekamp, Conway & Guy, Winning Ways
  (1982), as the answers to "Optimal play for 2 by 2 Dots and Boxes" (Puzzling Stack
  Exchange, 2014) recount; no margin is given there (tests/test_catalog_dots_and_boxes.py
  checks the sign).

>>> game = GAME.build(rows=1, cols=2)
>>> from perfectplay import solve
>>> solve(game).value()
0
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources import files

from ...engine.protocol import PositionCount
from ..entry import Budget, CatalogGame, Param, Published, product_at_most
from .rules import MAX_LINES, DotsAndBoxes, lines_of
from .twin import DotsAndBoxesTwin

WILSON = ("David Wilson, 'Dots-and-Boxes Analysis Results', wilson.engr.wisc.edu/boxes (the "
          "retrograde solver Barker & Korf 2012 compare with)")
BERLEKAMP = "Berlekamp 2000, 'The Dots and Boxes Game: Sophisticated Child's Play', p. 9"
BARKER_KORF = ("Barker & Korf 2012, 'Solving Dots-And-Boxes', Proceedings of the "
               "Twenty-Sixth AAAI Conference on Artificial Intelligence")
WINNING_WAYS = ("Berlekamp, Conway & Guy 1982, Winning Ways, as recounted in 'Optimal play "
                "for 2 by 2 Dots and Boxes', Puzzling Stack Exchange 2014")


def _limit(args: Mapping[str, object]) -> str | None:
    rows, cols = args["rows"], args["cols"]
    assert isinstance(rows, int) and isinstance(cols, int)
    n = lines_of(rows, cols)
    if n > MAX_LINES:
        return f"the board has {n} lines; at most {MAX_LINES} fit in a position"
    return None


def _positions(args: Mapping[str, object]) -> PositionCount:
    rows, cols = args["rows"], args["cols"]
    assert isinstance(rows, int) and isinstance(cols, int)
    n = lines_of(rows, cols)
    return PositionCount(2 ** (n + 1), "at most", f"{rows * cols} boxes, {n} lines: at most "
                         f"{2 ** (n + 1):,} positions")


def _size(args: Mapping[str, object]) -> str:
    return _positions(args).source


GAME = CatalogGame(
    name="dots_and_boxes",
    title="Dots and Boxes",
    rules="Players take turns drawing a line between neighbouring dots; completing a box "
          "scores it and gives another move, and the score is the margin in boxes.",
    factory=lambda rows, cols: DotsAndBoxes(rows, cols),
    params=(Param("rows", 3, "rows of boxes", low=1, high=30),
            Param("cols", 3, "columns of boxes", low=1, high=30)),
    published=(
        Published({"rows": 2, "cols": 2}, WINNING_WAYS, method="search", seconds=0.5,
                  note="a first-player win; the source gives no margin (the found margin "
                       "is +2, 3 boxes to 1)"),
        Published({"rows": 3, "cols": 3}, WILSON, value=-3, method="search", seconds=5.0,
                  note="every opening loses by 3; Berlekamp 2000 (p. 9) shows how the "
                       "second player wins by 1 at least. The search proves the value in "
                       "170,101 nodes (1,471,943 without the game's knowledge; 2026-12-07)"),
        Published({"rows": 3, "cols": 3}, WILSON, value=-3, method="solve", seconds=826.0,
                  note="strongly solved here: 18,015,336 positions, 0.8 GB, 123 s of CPU "
                       "(826 s of wall clock on the shared machine)"),
        Published({"rows": 4, "cols": 4}, WILSON, value=0, method="search", seconds=480.0,
                  live=False,
                  note="a tie, proven here by search: 687,520,809 nodes, 469 s wall clock "
                       "with one worker and a 4 GB table on the shared 2-core machine "
                       "(2026-12-07; the chain rule, the endgame hook, centre-out ordering "
                       "and one border line a corner)"),
        Published({"rows": 4, "cols": 5}, BARKER_KORF, value=0, method="search",
                  seconds=86400.0, goal=True,
                  note="a tie; the largest board solved in 2012. Not proven here yet: the "
                       "first null window still open after 5,438,886,562 nodes, 2,450 s "
                       "with 2 workers and a 4 GB table (2026-12-07)"),
    ),
    twin=lambda rows, cols: DotsAndBoxesTwin(rows, cols),
    limit=_limit,
    size=_size,
    positions=_positions,
    small=({"rows": 1, "cols": 2}, {"rows": 2, "cols": 2}, {"rows": 1, "cols": 3}),
    examples=("solve 'dots_and_boxes(rows=2, cols=2)'",
              "search 'dots_and_boxes(rows=3, cols=3)'",
              "play 'dots_and_boxes(rows=2, cols=3)'"),
    script=files(__name__).joinpath("page.js"),
    # the page solves 2x2 (4,209 positions), 2x3 (137,051 in 2.3 s), 1x6 (542,647 in 3.1 s)
    budget=Budget(product_at_most(6, "rows", "cols"), "at most 6 boxes (2x3, 1x6)",
                  {"rows": 2, "cols": 2}),
)

__all__ = ["BARKER_KORF", "BERLEKAMP", "GAME", "WILSON", "WINNING_WAYS", "DotsAndBoxes",
           "DotsAndBoxesTwin"]
