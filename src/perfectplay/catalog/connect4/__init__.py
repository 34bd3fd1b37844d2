"""Connect Four in the catalog: two players drop stones into the columns of an upright board
(each falls to the lowest empty cell); four of one's own in a row across, up or diagonally
wins; a full board is a tie. Any board with width * (height + 1) <= 62, the standard one 7x6.

The representation is John Tromp's bitboard key (:mod:`.bitboard`): one int64, each column
H + 1 bits holding the mover's stones under a marker bit; the tier is the number of stones.
:class:`~.rules.ConnectFour` is the compiled game (rules as module-level numba kernels that
numba caches on disk, :mod:`.bitboard`, :mod:`.hooks`, :mod:`.ranking`), with proof-search
hooks after Pascal Pons ("Solving Connect 4", blog.gamesolver.org, 2019): move ordering and
pruning, the horizon (the empty cells) and static bounds (no line left; Allis's claimeven,
"A Knowledge-based Approach of Connect-Four", 1988). :class:`~.twin.ConnectFourPy` is the
same game written independently in plain Python. :func:`~.notation.position_from_moves` and
:func:`~.notation.from_pons_score` read Pons's test positions and scores. Moves are named
by column, ``1`` .. ``W``.

Published results (:mod:`.published`): who wins each board of C. Steininger's table that fits
the key, and the ply of the last move under perfect play (his c4 readme, 2025, after J. Tromp,
2006: 7x6 is a first-player win on ply 41, 6x4 a second-player win on ply 24, 7x4 a tie),
and the number of legal positions of each board Tromp counted (7x6: 4,531,985,219,092,
Edelkamp and Kissmann 2008).

>>> game = GAME.build(width=4, height=4)
>>> from perfectplay import solve
>>> s = solve(game)
>>> s.value().value, s.remoteness(), len(s)
('tie', 16, 161029)
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources import files

from ...engine.protocol import PositionCount
from ..entry import Budget, CatalogGame, LiveBudget, Method, Param, Published, product_at_most
from .bitboard import MAX_BITS
from .notation import from_pons_score, position_from_moves, read_pons_digits
from .published import EDELKAMP, OUTCOMES, POSITIONS, STEININGER, TROMP
from .rules import ConnectFour, compiled_rules
from .twin import ConnectFourPy

#: How each published board is reproduced here: (method, seconds, goal). The seconds are CPU
#: seconds measured on this project's 2-core machine on 2026-11-26, the board's kernels
#: compiled included (4-12 s of them), while a dozen other processes shared the two cores
#: (wall times were 5-10 times longer); 7x6 is docs/benchmarks.md's measurement of the empty board
#: (one worker, 64 MB). A strong solve also checks Tromp's count of positions. Boards not
#: listed were not tried here (goals, by search).
MEASURED: dict[tuple[int, int], tuple[Method, float, bool]] = {
    (4, 4): ("solve", 6.0, False), (4, 5): ("solve", 7.8, False),
    (5, 4): ("solve", 10.6, False), (4, 6): ("solve", 27.5, False),
    (5, 5): ("solve", 120.7, False), (6, 4): ("solve", 182.2, False),
    (4, 7): ("solve", 196.6, False),
    (7, 4): ("search", 14.7, False), (6, 5): ("search", 13.3, False),
    (5, 6): ("search", 14.7, False), (8, 4): ("search", 21.0, False),
    (7, 5): ("search", 19.9, False), (6, 6): ("search", 27.1, False),
    (5, 7): ("search", 17.5, False), (4, 8): ("search", 15.8, False),
    (9, 4): ("search", 66.3, False), (6, 7): ("search", 78.4, False),
    (5, 8): ("search", 21.4, False), (4, 9): ("search", 11.9, False),
    (7, 6): ("search", 131.0, False),
    (8, 5): ("search", 174.6, False),
}
#: How a board was reproduced, where it took more than the defaults.
NOTES = {(8, 5): "a win in 39, quiet machine, 2 workers, 2 GB table: 95.5 s wall (84.3 s of "
                 "search, 791,490,057 nodes, 10.3 s compiling), 174.6 CPU s; 2026-11-26"}


def _limit(args: Mapping[str, int]) -> str | None:
    w, h = args["width"], args["height"]
    if w * (h + 1) <= MAX_BITS:
        return None
    return (f"the board must fit Tromp's key in one int64: width * (height + 1) <= "
            f"{MAX_BITS}, and {w} * ({h} + 1) = {w * (h + 1)}")


def _positions(args: Mapping[str, int]) -> PositionCount:
    """Tromp's (Edelkamp and Kissmann's for 7x6) exact count, else the bound 3^cells."""
    w, h = args["width"], args["height"]
    known = POSITIONS.get((w, h))
    if known is not None:
        source = "Edelkamp and Kissmann 2008" if (w, h) == (7, 6) else "Tromp"
        return PositionCount(known, "exact", f"{known:,} positions ({source})")
    bound = 3 ** (w * h)
    return PositionCount(bound, "at most",
                         f"at most 3^{w * h} = {bound:.2e} boards (no published count)")


def _size(args: Mapping[str, int]) -> str:
    return _positions(args).source


def _published() -> tuple[Published, ...]:
    out = []
    for (w, h), (value, plies) in sorted(OUTCOMES.items(), key=lambda kv: (kv[0][0] * kv[0][1],
                                                                          kv[0])):
        if w * (h + 1) > MAX_BITS:
            continue  # beyond the int64 key
        default: tuple[Method, float, bool] = ("search", 3600.0, True)
        method, seconds, goal = MEASURED.get((w, h), default)
        note = "not tried here: a goal for the benchmark's time limit" if goal else \
            NOTES.get((w, h), "")
        solved = method == "solve"
        count = POSITIONS.get((w, h)) if solved else None
        source = STEININGER if count is None else \
            f"{STEININGER}; positions: {EDELKAMP if (w, h) == (7, 6) else TROMP}"
        out.append(Published({"width": w, "height": h}, source, value=value,
                             remoteness=plies, positions=count, method=method,
                             seconds=seconds, goal=goal, note=note))
    return tuple(out)


GAME = CatalogGame(
    name="connect4",
    title="Connect Four",
    rules="Drop a stone into a column, where it falls to the lowest empty cell; four of "
          "one's own in a row (across, up or diagonally) wins, and a full board is a tie.",
    factory=lambda width, height: ConnectFour(width, height),
    params=(Param("width", 7, "the number of columns", low=1, high=MAX_BITS // 2),
            Param("height", 6, "the number of rows", low=1, high=MAX_BITS - 1)),
    published=_published(),
    twin=lambda width, height: ConnectFourPy(width, height),
    limit=_limit,
    size=_size,
    positions=_positions,
    small=({"width": 4, "height": 3}, {"width": 3, "height": 4}),
    examples=("search 'connect4(width=7, height=6)' --moves 4,4,3",
              "solve 'connect4(width=5, height=4)'",
              "play 'connect4(width=5, height=4)'"),
    script=files(__name__).joinpath("page.js"),
    notation=read_pons_digits,
    notation_hint="Pons' digits (4453)",
    # the page solves 4x4 (161,029 positions), 4x5 (1,706,255 in 3.1 s) and 5x4 (3,945,711
    # in 6.3 s, about 360 MB); anything larger is searched live, move by move
    budget=Budget(product_at_most(20, "width", "height"),
                  "width x height at most 20 (4x5 or 5x4)", {"width": 4, "height": 4}),
    live=LiveBudget(lambda _a: True, "any board the catalog takes (width x (height + 1) at "
                    "most 62)", {"width": 7, "height": 6}),
)

__all__ = ["GAME", "MEASURED", "ConnectFour", "ConnectFourPy", "compiled_rules",
           "from_pons_score", "position_from_moves"]
