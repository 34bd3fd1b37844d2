"""Othello (Reversi) in the catalog: :class:`~.rules.Othello` (4x4 and 6x6, compiled, on
bitboards with base-3 codes), :class:`~.rules.OthelloBoard8` (8x8 through the engine's Python
door: 128 bits fit no int64 code), the twin :class:`~.twin.OthelloTwin`, and :data:`GAME`.

Rules (as Takizawa 2023 states them): Black moves first; a move puts a disc of the mover's
colour on an empty square so that one or more straight lines (8 directions) of the
opponent's discs lie between it and another of the mover's discs, and turns them over; a
player with no such move passes; the game ends when neither can move; the player with more
discs wins. Scored as the engine scores games: the value is the final disc difference for
the player to move (empty squares count for nobody), so the start's value is Black's.

Published results reproduced or aimed at:

- 4x4: the second player wins. The disc count (White 11-3, a margin of -8 for Black) is
  the one the literature repeats; no primary source with the count was found, and the
  strong solve here gives -8 (62,789 positions, 10 plies).
- 6x6: the second player wins 16-20 (Joel Feinstein 1993, "Amenor wins World 6x6
  championships!", British Othello Federation newsletter, July 1993; his perfect line is
  on www.maths.nottingham.ac.uk/plp/pmzjff/Othello/6x6sol.html). Every position on a
  perfect line has the same value, so positions on his line are searched: -4 for Black
  after 22, 12, 8 and 6 of his moves (10, 20, 24 and 26 empty squares: 0.2 s, 2 s, 41 s
  and 135 s of one core here, 2026-11-26; 9.2 s and 30 s for the last two on 2026-12-06,
  the last 10 empty squares searched on bitboards by the ``endgame`` hook; 0.2 s, 3.4 s
  and 9 s for the last three since 2026-12-07, the midgame ordered by shallow searches
  and the probes started at 0). The start: -4, proven by search on 2026-12-06 (1.6 x
  10^10 nodes, 1,221 s of one core, a 512 MB table; a 2-hour search on 2026-11-26 had
  proved nothing) and again on 2026-12-07 (3.3 x 10^9 nodes, 375 s, with its four first
  moves; the order then 2 plies deep at most, not 3). Every first move is worth -4
  too (the four are images of each other under the start's symmetries), proven one by
  one by ``perfectplay search 'othello(size=6)' --value-only --analyze``.
- 8x8: a draw (Hiroki Takizawa 2023, "Othello is solved", arXiv:2310.19387): a goal far
  beyond this machine; a position on his drawn line with few empty squares is searched.

>>> game = GAME.build(size=4)
>>> game.move_name(game.moves(game.initial())[0]), game.parse_move("c4")
('b1', 26)
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources import files

from ...engine.protocol import PositionCount
from ..entry import Budget, CatalogGame, Param, Published
from .notation import read_othello
from .rules import PASS, Othello, OthelloBoard8, othello, parse_line
from .twin import OthelloTwin

FEINSTEIN = "Joel Feinstein 1993, 'Amenor wins World 6x6 championships!', British " \
            "Othello Federation newsletter (July 1993); the line at " \
            "maths.nottingham.ac.uk/plp/pmzjff/Othello/6x6sol.html"
TAKIZAWA = "Hiroki Takizawa 2023, 'Othello is solved', arXiv:2310.19387"
FOLKLORE_4X4 = "4x4 second-player win, e.g. Wikipedia 'Reversi' (2024); the count 11-3 " \
               "as commonly repeated (no primary source found; confirmed by this solve)"

#: Feinstein's perfect 6x6 line (1993), in this board's coordinates (his diagram uses the
#: 8x8 names b..g, 2..7: his d3 is c2 here). Black passes before White's e1; 16-20.
FEINSTEIN_LINE = ("c2 b4 c5 d2 e4 e3 d1 c1 b1 d5 d6 f4 b3 b2 f3 f2 e2 b6 a4 c6 a6 a2 b5 a5 "
                  "e6 e5 a3 a1 f5 f6 pass e1 f1")
#: Takizawa's drawn 8x8 line (2023, his Figure 1), 60 moves, 32-32.
TAKIZAWA_LINE = ("f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 c5 b6 d8 c6 c7 d2 b5 a5 a6 a7 g5 e3 b4 "
                 "c8 g6 g4 c2 e8 d1 f7 e2 g3 h4 f1 e1 f2 g1 b1 f8 g8 b3 h3 b2 h5 b7 a3 a4 "
                 "a1 a2 c1 h2 h1 g2 b8 a8 g7 h8 h7 h6")


def first(line: str, k: int) -> str:
    """The first ``k`` moves of a line."""
    return " ".join(line.split()[:k])


def _limit(args: Mapping[str, object]) -> str | None:
    if args["size"] not in (4, 6, 8):
        return "the board is 4x4, 6x6 or 8x8 (Othello needs an even board)"
    if parse_line(str(args["opening"]), int(str(args["size"]))) is None:
        return "opening must be moves such as 'c4 d3' or 'pass', on the board"
    return None


#: Each size's positions: 4x4 counted here, 6x6 and 8x8 the published estimates.
_POSITIONS = {4: PositionCount(62_789, "exact", "62,789 positions reachable (solved here)"),
              6: PositionCount(10**12, "about", "about 10^12 positions; Feinstein 1993 "
                               "searched 4 x 10^10"),
              8: PositionCount(10**28, "about", "about 10^28 positions (Takizawa 2023)")}


def _positions(args: Mapping[str, object]) -> PositionCount:
    """The size's count from the start; after an opening only a bound above (fewer)."""
    whole = _POSITIONS[int(str(args["size"]))]
    if not args.get("opening"):
        return whole
    return PositionCount(whole.count, "at most", _size(args))


def _size(args: Mapping[str, object]) -> str:
    n = int(str(args["size"]))
    if args.get("opening"):
        return f"{n}x{n}, after the opening: at most the game's {_POSITIONS[n].source}"
    return f"{n}x{n}: {_POSITIONS[n].source}"


GAME = CatalogGame(
    name="othello",
    title="Othello",
    rules="Place a disc that outflanks a line of the opponent's discs and turn them over; "
          "pass without such a move; the end comes when neither can move, and the margin "
          "is the disc difference.",
    factory=othello,
    params=(Param("size", 8, "the board's side: 4, 6 (compiled) or 8 (Python door)",
                  low=4, high=8),
            Param("opening", "", "moves played from the standard start ('c2 b4', 'pass')",
                  kind=str)),
    published=(
        Published({"size": 4}, FOLKLORE_4X4, value=-8, seconds=1.0,
                  note="White wins 11-3; 62,789 positions, 10 plies"),
        Published({"size": 6, "opening": first(FEINSTEIN_LINE, 22)}, FEINSTEIN, value=-4,
                  method="search", seconds=0.2,
                  note="Feinstein's perfect line after 22 moves (10 empty squares), Black "
                       "to move: still 16-20"),
        Published({"size": 6, "opening": first(FEINSTEIN_LINE, 12)}, FEINSTEIN, value=-4,
                  method="search", seconds=0.3,
                  note="his line after 12 moves (20 empty squares)"),
        Published({"size": 6, "opening": first(FEINSTEIN_LINE, 8)}, FEINSTEIN, value=-4,
                  method="search", seconds=4.0,
                  note="his line after 8 moves (24 empty squares): 2.5 x 10^7 nodes, 3.4 s "
                       "CPU (2026-12-07, 256 MB; 1.3 x 10^8 nodes and 9.2 s on 2026-12-06, "
                       "41 s before the endgame hook)"),
        Published({"size": 6, "opening": first(FEINSTEIN_LINE, 6)}, FEINSTEIN, value=-4,
                  method="search", seconds=14.5,
                  note="his line after 6 moves (26 empty squares): 6.9 x 10^7 nodes, 8.9 s "
                       "CPU (2026-12-07, 256 MB; 3.6 x 10^8 nodes and 30 s on 2026-12-06; "
                       "mame's o66: 6.3 x 10^7 nodes, 3.9 s)"),
        Published({"size": 6}, FEINSTEIN, value=-4, method="search", seconds=375.0,
                  live=False,
                  note="White wins 16-20; 2 CPU-weeks in 1993. Here 3.3 x 10^9 nodes, "
                       "375 s CPU with a 512 MB table (2026-12-07, a 2-ply order; 1.6 x "
                       "10^10 nodes and 1,221 s on 2026-12-06; mame's o66: 1.07 x 10^9 "
                       "nodes, 74 s); every first move -4 (--analyze)"),
        Published({"size": 8, "opening": first(TAKIZAWA_LINE, 50)}, TAKIZAWA, value=0,
                  method="search", seconds=0.5,
                  note="his drawn line after 50 moves (10 empty squares), the Python door"),
        Published({"size": 8}, TAKIZAWA, value=0, method="search", seconds=1e9, goal=True,
                  note="a draw, 32-32: 1.5 x 10^9 positions of 36 empty squares solved"),
    ),
    twin=OthelloTwin,
    limit=_limit,
    size=_size,
    positions=_positions,
    small=({"size": 4, "opening": ""}, {"size": 6, "opening": first(FEINSTEIN_LINE, 24)}),
    examples=("solve 'othello(size=4)'", "search 'othello(size=6)' --time 600",
              "play 'othello(size=4)'"),
    script=files(__name__).joinpath("page.js"),
    notation=read_othello,
    notation_hint="a transcript (c4a3) or a board (..../.OX./.XO./.... X)",
    # the page solves 4x4 (62,789 positions in 2.4 s) and 6x6 after 20 moves of Feinstein's
    # line (491,687 in 0.2 s, kernels compiled)
    budget=Budget(lambda a: a["size"] == 4 or (
        a["size"] == 6 and len(str(a["opening"]).split()) >= 20),
        "the 4x4 board, or 6x6 after an opening of 20 moves or more",
        {"size": 4, "opening": ""}),
)

__all__ = ["FEINSTEIN", "FEINSTEIN_LINE", "GAME", "PASS", "TAKIZAWA", "TAKIZAWA_LINE",
           "Othello", "OthelloBoard8", "OthelloTwin", "first", "othello"]
