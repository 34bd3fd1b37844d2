"""The board game No: which piece is nearest the start piece? And every piece's nearest.

The contract every game shares: :func:`parse` (text -> a :class:`NoBoard`), :func:`analyze`
(a board and :class:`NoOptions` -> a :class:`NearestResult` with ``explain()``, ``draw()``,
``to_json()``), registered as :data:`SPEC`. The package: :mod:`.model` (the board, both
input formats, the options), :mod:`.solver` (the algorithms) and :mod:`.kernels` (numba),
:mod:`.result`, :mod:`.render` (the text and the distance map), :mod:`.judges`
(``kth-no``), :mod:`.cases` (test generators). No is not a two-player game: it has no play
table.

>>> from perfectplay import no
>>> no.analyze(no.parse("5\\n1 1\\n3 0\\n2 3\\n0 2\\n4 4\\n2\\n")).answer.pieces
[0, 3, 4]
"""

from importlib.resources import files

from ..grid import DRAW_LIMIT, Grid
from ..registry import GameSpec, WebPage, register
from .cases import PROBLEMS
from .judges import JUDGES, judge_kth_no
from .model import (
    MAX_COORD,
    MAX_PIECES,
    NoBoard,
    NoOptions,
    parse,
    parse_drawn_board,
    read_kth_no,
)
from .render import distance_cells, draw_distances, frame_distances
from .result import Nearest, NearestResult
from .seed import seed_nearest
from .solver import all_nearest, analyze, nearest

SPEC = register(GameSpec(
    name="no", title="The board game No",
    rules="pieces stand on a board; which piece is nearest the start piece, counting steps "
          "between cells that share a side, around walls and (with --block) around the "
          "other pieces? Ties go to the lowest number.",
    input_help="BOARD is either the kth-no format (N, then N lines \"r c\", then the start "
               "index) or a drawn board ('.' free, '#' wall, letters/digits pieces, '*' "
               "the start piece).",
    parse=lambda text, options: parse(text), analyze=analyze, options=NoOptions,
    examples=("no examples/no_seed.txt", "no examples/no_drawn.txt --block --all"),
    judges=JUDGES, problems=PROBLEMS, grid=lambda result: result.cells(),
    shape=lambda board: board.shape,
    demo="5\n1 1\n3 0\n2 3\n0 2\n4 4\n2\n", demo_title="the seed's 5 x 5 board, start P3",
    script=files(__name__).joinpath("page.js"),
    web=WebPage(example={"text": "5\n1 1\n3 0\n2 3\n0 2\n4 4\n2\n", "every": True},
                start={"text": "..B..#..\n.A.#..C.\n...#*#..\n.###.#..\nD.......",
                       "every": True},
                tab="No", intro="Which piece is fewest moves from the start piece *?",
                controls=("block",)),
))

__all__ = ["DRAW_LIMIT", "Grid", "JUDGES", "MAX_COORD", "MAX_PIECES", "Nearest",
           "NearestResult", "NoBoard", "NoOptions", "PROBLEMS", "SPEC", "all_nearest",
           "analyze", "distance_cells", "draw_distances", "frame_distances", "judge_kth_no",
           "nearest", "parse", "parse_drawn_board", "read_kth_no", "seed_nearest"]
