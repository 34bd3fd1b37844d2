"""The old name of :mod:`perfectplay.no` (the game is called No), kept for one release: every
public name of the package, re-exported. New code imports ``perfectplay.no``.

>>> from perfectplay import nearest
>>> nearest.nearest([(0, 0), (0, 2), (1, 0)], 0).pieces
[2]
"""

from .no import (
    DRAW_LIMIT,
    JUDGES,
    MAX_COORD,
    MAX_PIECES,
    Grid,
    Nearest,
    NearestResult,
    NoBoard,
    NoOptions,
    all_nearest,
    analyze,
    distance_cells,
    draw_distances,
    frame_distances,
    judge_kth_no,
    nearest,
    parse,
    parse_drawn_board,
    read_kth_no,
    seed_nearest,
)

__all__ = ["DRAW_LIMIT", "Grid", "JUDGES", "MAX_COORD", "MAX_PIECES", "Nearest",
           "NearestResult", "NoBoard", "NoOptions", "all_nearest", "analyze",
           "distance_cells", "draw_distances", "frame_distances", "judge_kth_no", "nearest",
           "parse", "parse_drawn_board", "read_kth_no", "seed_nearest"]
