"""Teeko in the catalog: :class:`~.rules.Teeko` (compiled, any board of 3 to 5 cells a side,
3 to 5 pieces, standard or advanced goals), its twin :class:`~.twin.TeekoTwin`, and
:data:`GAME`.

Standard Teeko (John Scarne, "Scarne on Teeko", 1955): 5 x 5, four pieces a side, drops
then king steps, a line of four or a 2 x 2 square wins (44 goals). Guy L. Steele Jr. solved
it in 1998 (announced on the math-fun list in November 1998; "Summary of the solving of the
game of Teeko", Sun Microsystems Laboratories, October 1999): a draw. Advanced Teeko (any
square with sides along the board also wins: 58 goals) is a first-player win that becomes a
draw if the first drop may not take the centre.

Size: :func:`~.rules.positions_estimate` gives 20,981,226 boards during the drops and
151,420,500 (4 + 4 pieces down, either to move) after, about 2.2 x 10^7 up to the 8
symmetries: too many for the in-memory solver (about 130 bytes a position, 22 GB), so the
two published results are goals for :func:`~..entry.reproduce` and are reproduced by a
store instead: ``teeko(tiers=True)`` declares the tier (the pieces down; steps cycle inside
the last tier, where the store's retrograde analysis certifies the draws), and
``perfectplay solve 'teeko(tiers=True)' --store DIR`` solves it. Measured here on
2026-11-26 (one Dask worker, the 2 cores shared with a dozen other processes, so the wall
times are 3-5 times the work):

- standard: a draw, every first drop drawing; 21,500,830 positions up to symmetry
  (18,873,766 with all 8 pieces down): 7,361,209 won by the mover, 2,022,018 lost,
  12,117,603 drawn, the longest win 39 plies; 58 min, 9.2 GB at the peak (the open
  positions of the last tier and their moves, in the client);
- advanced: a first-player win in 13 plies, by the centre drop c3 alone (every other
  first drop draws, as Steele says); 21,479,440 positions; 56 min.

The suite solves the small boards in memory instead and holds them against the twin.

>>> game = GAME.build(size=3, pieces=3)
>>> game.parse_move("b2"), game.move_name(game.parse_move("a1-b2"))
(4, 'a1-b2')
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources import files

from ...engine.protocol import PositionCount
from ..entry import Budget, CatalogGame, Param, Published
from .rules import Teeko, playable, positions_estimate
from .twin import TeekoTwin

STEELE = "Guy L. Steele Jr. 1998, on the math-fun list (Nov 1998) and 'Summary of the " \
         "solving of the game of Teeko', Sun Microsystems Laboratories (Oct 1999)"
STEELE_ADVANCED = STEELE + "; the 13 turns from Eric W. Weisstein's table of Steele's " \
                           "results, 'Teeko', MathWorld (accessed 2026)"


def _positions(args: Mapping[str, object]) -> PositionCount:
    dropping, moving = positions_estimate(int(str(args["size"])), int(str(args["pieces"])))
    return PositionCount(dropping + moving, "at most", f"at most {dropping:,} positions "
                         f"during the drops and {moving:,} after (about 8 times fewer up to "
                         "symmetry)")


def _size(args: Mapping[str, object]) -> str:
    return _positions(args).source


GAME = CatalogGame(
    name="teeko",
    title="Teeko",
    rules="Drop your pieces in turn, then step one to an adjacent empty cell; four in a "
          "line or on the corners of a square wins.",
    factory=Teeko,
    params=(Param("size", 5, "the board's side", low=3, high=5),
            Param("pieces", 4, "pieces a side (a line of that many wins; 4 also by a square)",
                  low=3, high=5),
            Param("advanced", False, "squares of any size win, not only 2 x 2", kind=bool),
            Param("tiers", False, "declare the tier a store needs (pieces down; steps stay "
                  "in the last tier): for solve --store, not for the in-memory solve",
                  kind=bool)),
    published=(
        Published({"size": 5, "pieces": 4, "advanced": False}, STEELE, value="draw",
                  seconds=3485.0, goal=True,
                  note="standard Teeko (44 goals) is a draw; the in-memory solve would need "
                       "about 22 GB: reproduced with a store (58 min here), module doc"),
        Published({"size": 5, "pieces": 4, "advanced": True}, STEELE_ADVANCED, value="win",
                  remoteness=13, seconds=3330.0, goal=True,
                  note="advanced Teeko (58 goals) is a first-player win, a draw without the "
                       "centre as first drop; reproduced with a store (56 min here)"),
    ),
    twin=TeekoTwin,
    limit=lambda args: playable(args["size"], args["pieces"]),
    size=_size,
    positions=_positions,
    small=({"size": 3, "pieces": 3, "advanced": False},
           {"size": 3, "pieces": 4, "advanced": False},
           {"size": 3, "pieces": 4, "advanced": True}),
    examples=("solve 'teeko(size=4, pieces=3)'", "play 'teeko(size=4, pieces=4)'"),
    script=files(__name__).joinpath("page.js"),
    # the page solves 3x3 with 3 pieces (5,390 positions), 4x4 with 3 (363,129 in 2.5 s)
    # and with 4 (2,400,087 in 7.5 s)
    budget=Budget(lambda a: a["size"] <= 4, "boards up to 4x4",
                  {"size": 3, "pieces": 3, "advanced": False, "tiers": False}),
)

__all__ = ["GAME", "STEELE", "STEELE_ADVANCED", "Teeko", "TeekoTwin", "positions_estimate"]
