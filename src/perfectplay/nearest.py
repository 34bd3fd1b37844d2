"""The old name of :mod:`perfectplay.no` (the game is called No), kept for one release
(removed in 0.2.0): every public name of the package, each read from :mod:`perfectplay.no`
with a :class:`DeprecationWarning` when it is used. New code imports ``perfectplay.no``.

>>> import warnings
>>> from perfectplay import nearest
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     nearest.nearest([(0, 0), (0, 2), (1, 0)], 0).pieces
[2]
>>> caught[0].category.__name__
'DeprecationWarning'
"""

from __future__ import annotations

import warnings
from typing import Any

from . import no as _no

#: The names it keeps, each read from perfectplay.no when used.
_NAMES = ("DRAW_LIMIT", "Grid", "JUDGES", "MAX_COORD", "MAX_PIECES", "Nearest",
          "NearestResult", "NoBoard", "NoOptions", "all_nearest", "analyze",
          "distance_cells", "draw_distances", "frame_distances", "judge_kth_no", "nearest",
          "parse", "parse_drawn_board", "read_kth_no", "seed_nearest")

__all__ = list(_NAMES)  # a star import still finds them (and warns)


def __getattr__(name: str) -> Any:
    """``perfectplay.nearest.NAME``: ``perfectplay.no.NAME``, with a DeprecationWarning."""
    if name not in _NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"perfectplay.nearest is deprecated (removed in 0.2.0): use "
                  f"perfectplay.no.{name}", DeprecationWarning, stacklevel=2)
    return getattr(_no, name)
