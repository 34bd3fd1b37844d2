"""What a search may spend: one frozen value, its defaults written once, checked when made.

In the manner of python-chess's ``chess.engine.Limit``: :func:`~perfectplay.engine.search`,
:func:`~perfectplay.engine.search_many`, :func:`~perfectplay.engine.analyze_moves`, the
:class:`~perfectplay.engine.LiveOracle`, an opening book's build, the web's live analysis and
the CLI's ``search`` and ``book`` all take one :class:`Limits` (the public functions also take
its fields as keywords, which override the value's). A value out of range is a
:class:`~perfectplay.errors.LimitError` naming the field when the value is made, before any
work (a command builds its limits from its options first).

>>> Limits()
Limits(time_limit=None, node_limit=None, table_mb=64, workers=1, max_depth=10000)
>>> Limits(time_limit=2.5, workers=2).replace(table_mb=256).table_mb
256
>>> Limits(table_mb=-1)
Traceback (most recent call last):
...
perfectplay.errors.LimitError: table_mb must be a number in (0, 16384], not -1
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ...errors import LimitError, show
from ..discovery import is_real

__all__ = ["BOOK_LIMITS", "MAX_TABLE_MB", "MAX_WORKERS", "Limits"]

#: The largest transposition table a search makes, in MB.
MAX_TABLE_MB = 16384
#: The most threads one search runs.
MAX_WORKERS = 64
#: The deepest line a search follows (a guard against a game that never ends).
MAX_DEPTH = 1_000_000


@dataclass(frozen=True)
class Limits:
    """What one search (or one batch, analysis or book build) may spend.

    :param time_limit: seconds before the search stops with the bounds proven so far (None:
        no limit); a batch's is the whole batch's, a live analysis' the whole analysis'.
    :param node_limit: nodes before the search stops the same way (None: no limit); a
        batch's is each position's.
    :param table_mb: the transposition table in MB (compiled games: a power-of-two number of
        16-byte entries), in (0, :data:`MAX_TABLE_MB`].
    :param workers: threads searching together over one shared table (ABDADA-style), 1 to
        :data:`MAX_WORKERS`; a Python game is searched by one.
    :param max_depth: the deepest line followed, 1 to 1,000,000 (a GameError past it).
    :raises LimitError: a field out of range or of the wrong type, named (a NaN time, a
        negative table, zero workers), when the value is made.

    >>> Limits(workers=0)
    Traceback (most recent call last):
    ...
    perfectplay.errors.LimitError: workers must be an int from 1 to 64, not 0
    """

    time_limit: float | None = None
    node_limit: int | None = None
    table_mb: float = 64
    workers: int = 1
    max_depth: int = 10_000

    def __post_init__(self) -> None:
        check_limits(self)

    def replace(self, **changes: object) -> Limits:
        """A copy with ``changes`` (field names), checked again.

        >>> Limits().replace(workers=2).workers
        2
        """
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def given(cls, limits: Limits | None = None, *, time_limit: float | None = None,
              node_limit: int | None = None, table_mb: float | None = None,
              workers: int | None = None, max_depth: int | None = None) -> Limits:
        """``limits`` (default: :class:`Limits`'s defaults) with every keyword that is not
        None put in its place: what a function taking both a ``limits`` and the fields as
        keywords searches with.

        >>> Limits.given(Limits(workers=2), table_mb=128)
        Limits(time_limit=None, node_limit=None, table_mb=128, workers=2, max_depth=10000)
        """
        if limits is not None and not isinstance(limits, Limits):
            raise LimitError(f"limits must be a Limits, not {show(limits)}")
        base = cls() if limits is None else limits
        changes = {name: value for name, value in (
            ("time_limit", time_limit), ("node_limit", node_limit), ("table_mb", table_mb),
            ("workers", workers), ("max_depth", max_depth)) if value is not None}
        return base.replace(**changes) if changes else base


def check_limits(limits: Limits) -> None:
    """LimitErrors for fields out of range, or of the wrong type (callers need not be
    typed), each naming its field."""
    table_mb, workers = limits.table_mb, limits.workers
    time_limit, node_limit, max_depth = limits.time_limit, limits.node_limit, limits.max_depth
    if not is_real(table_mb) or not 0 < table_mb <= MAX_TABLE_MB:
        raise LimitError(f"table_mb must be a number in (0, {MAX_TABLE_MB}], not "
                         f"{show(table_mb)}")
    if isinstance(workers, bool) or not isinstance(workers, int) or \
            not 1 <= workers <= MAX_WORKERS:
        raise LimitError(f"workers must be an int from 1 to {MAX_WORKERS}, not {show(workers)}")
    if time_limit is not None and (not is_real(time_limit) or not time_limit > 0):
        raise LimitError(f"time_limit must be a positive number of seconds, not "
                         f"{show(time_limit)}")
    if node_limit is not None and (isinstance(node_limit, bool) or
                                   not isinstance(node_limit, int) or node_limit < 1):
        raise LimitError(f"node_limit must be a positive int, not {show(node_limit)}")
    if isinstance(max_depth, bool) or not isinstance(max_depth, int) or \
            not 1 <= max_depth <= MAX_DEPTH:
        raise LimitError(f"max_depth must be an int from 1 to 1,000,000, not "
                         f"{show(max_depth)}")


#: An opening book's build: the search's defaults with a larger table, kept for the whole
#: build (one a job), as the book searches thousands of positions that share lines.
BOOK_LIMITS = Limits(table_mb=256)
