"""Closing the Portal: two players wall cells in turn; whoever disconnects the portals loses.

The contract every game shares: :func:`parse` (text -> a :class:`Board`), :func:`analyze`
(a board -> a :class:`PortalResult` with ``explain()``, ``draw()``, ``to_json()``),
registered as :data:`SPEC`. The package: :mod:`.model` (the board, its parser, the options),
:mod:`.rules` (the engine game and the exact Grundy table), :mod:`.search` (proof search),
:mod:`.solver` (the parity rule, the cut cells, the choice of method), :mod:`.result`,
:mod:`.render`, :mod:`.judges` (DevC's format), :mod:`.cases`, :mod:`.oracle` and
:mod:`.playtable` (play), :mod:`.pictures`.

>>> from perfectplay import portal
>>> portal.analyze(portal.parse("1 10\\n..O.#...O.")).winner
<Winner.BELLA: 'Bella'>
"""

from importlib.resources import files

from ..registry import GameSpec, WebPage, register
from .cases import PROBLEMS
from .judges import JUDGES, judge_devc_portal
from .model import Board, PortalOptions, board_from_edges, board_from_grid, parse_board
from .oracle import PortalOracle
from .pictures import picture
from .playtable import PLAY_EXACT_CELLS, play_table
from .render import draw
from .result import ALIF, BELLA, Method, PortalResult, SafeMoves, Winner
from .rules import EXACT_LIMIT, PortalGame, exact_winner
from .solver import analyze, page_limit, safe_moves, uses_parity_rule

parse = parse_board

SPEC = register(GameSpec(
    name="portal", title="Closing the Portal",
    rules="two players (Alif first) wall one empty cell each turn; whoever walls a cell "
          "that disconnects the two portals loses. Who wins with perfect play?",
    input_help="BOARD is a file with the grid ('.' empty, '#' wall, 'O' the two portals), "
               "with or without the judge's \"R C\" first line; '-' reads stdin. On the "
               "board, X marks the cut cells (walling one loses at once) and * a "
               "portal-to-portal path.",
    parse=lambda text, options: parse_board(text, options.kind), analyze=analyze,
    options=PortalOptions, examples=("portal examples/portal_king.txt --kind king",),
    judges=JUDGES, problems=PROBLEMS, play=play_table, picture=picture,
    picture_help="Also save a picture of the safe and cut cells: FILE.png or FILE.svg "
                 "(needs perfectplay[plot]).",
    headline=lambda result: f"[bold]{result.winner} wins.[/]",
    summary=lambda result: result.summary(),
    grid=lambda result: result.board.grid.lines(),
    shape=lambda board: ((board.grid.rows, board.grid.cols) if board.grid is not None
                         else (0, 0)),
    page_limit=page_limit,
    heavy=lambda board, options: int(board.empty.sum()) > 16 and (
        options.method in ("grundy", "search") or not uses_parity_rule(board)),
    demo=".O#..\n....O\n.#.#.\n.....\n#....", demo_title="the seed's 5 x 5 board",
    script=files(__name__).joinpath("page.js"),
    web=WebPage(example={"text": ".O#..\n....O\n.#.#.\n.....\n#....\n", "kind": "square"},
                intro="Alif and Bella wall empty cells in turn; whoever disconnects the two "
                      "portals O loses.",
                sides=("Alif (first)", "Bella (second)"), controls=("kind",)),
))

__all__ = [
    "ALIF", "BELLA", "EXACT_LIMIT", "JUDGES", "PLAY_EXACT_CELLS", "PROBLEMS", "SPEC", "Board",
    "Method", "PortalGame", "PortalOptions", "PortalOracle", "PortalResult", "SafeMoves",
    "Winner", "analyze", "board_from_edges", "board_from_grid", "draw", "exact_winner",
    "judge_devc_portal", "parse", "parse_board", "picture", "play_table", "safe_moves",
    "uses_parity_rule",
]
