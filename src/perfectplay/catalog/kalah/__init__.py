"""Kalah in the catalog: m houses a side, n seeds in each at the start. A move sows the
seeds of one of the mover's houses counter-clockwise, one a slot, into the mover's own store
but never the opponent's. A last seed in the mover's store gives another move; a last seed in
an empty house of the mover's captures it and the seeds opposite (Irving, Donkers and
Uiterwijk's "empty capture", the default: even when the house opposite is empty;
``empty_capture=False`` is the standard rule, which leaves the seed when the house opposite
is empty). When either side has no seeds left the game ends and each player stores the seeds
on their own side; the value is the first player's margin.

:class:`~.rules.Kalah` is the compiled game, on a bit field a house (:mod:`.fields`) while
that fits one int64, else on the houses' rank in the combinatorial number system
(:mod:`.ranked`), with ``margin_bound``, ``step``, search ordering and
``endgame_positions(k)`` (the roots of an endgame store), and a dense endgame table of every
board of at most k seeds in play, one byte a board (:mod:`.dense`,
``build_dense_endgame``/``dense_endgame``, read by the search through the ``dense_index``
hook). :class:`~.twin.KalahPy` is the
same game in plain Python, written apart. Moves are the mover's houses ``a``, ``b``, ... from
the left end of their row.

Published: G. Irving, J. Donkers and J. Uiterwijk, "Solving Kalah", ICGA Journal 23(3):139-147
(2000): the first player wins Kalah(6, 2) by 10, (6, 3) by 2, (6, 4) by 10 and (6, 5) by 12;
their table of who wins for m, n <= 3 is in tests/test_catalog_kalah.py. M. Rawlings (2015,
endgame databases of every position with at most 34 seeds; as reported in Wikipedia's Kalah
article): Kalah(6, 6) +2 with empty capture; with the standard rule (6, 4) +8 and (6, 5) +10.

>>> game = GAME.build(houses=3, seeds=3)
>>> from perfectplay import solve
>>> solve(game).value()
2
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.resources import files
from math import comb

from ...engine.protocol import PositionCount
from ..entry import Budget, CatalogGame, LiveBudget, Param, Published
from .ranked import MAX_RANK_BITS, MAX_SEEDS, ranked_fits
from .rules import LETTERS, Kalah
from .twin import KalahPy

IRVING = ("G. Irving, J. Donkers and J. Uiterwijk 2000, 'Solving Kalah', ICGA Journal "
          "23(3):139-147")
RAWLINGS = ("M. Rawlings 2015, Kalah endgame databases (all 38,902,940,896 positions of "
            "at most 34 seeds) and searches, as reported in Wikipedia's 'Kalah' article "
            "(revision of 14 November 2015)")


def _limit(args: Mapping[str, int]) -> str | None:
    m, n = args["houses"], args["seeds"]
    if ranked_fits(m, n):
        return None
    return (f"Kalah({m}, {n}) does not fit a 63-bit code: it needs 2 * houses * seeds <= "
            f"{MAX_SEEDS} and C(2mn + 2m, 2m) < 2**{MAX_RANK_BITS}")


def _positions(args: Mapping[str, int]) -> PositionCount:
    m, n = args["houses"], args["seeds"]
    boards = 2 * comb(2 * m * n + 2 * m, 2 * m)
    return PositionCount(boards, "at most", f"at most {boards:,} positions (2 x C(2mn + 2m, "
                         f"2m): every way to hold {2 * m * n} seeds or fewer in {2 * m} "
                         "houses, either player to move; no published count)")


def _size(args: Mapping[str, int]) -> str:
    return _positions(args).source


def _build(houses: int, seeds: int, empty_capture: bool) -> Kalah:
    return Kalah(houses, seeds, empty_capture=empty_capture)


GAME = CatalogGame(
    name="kalah",
    title="Kalah",
    rules="Sow the seeds of one of your houses counter-clockwise, one a slot, into your store "
          "but not the opponent's; a last seed in your store moves again, a last seed in an "
          "empty house of yours captures it and the seeds opposite; when a side is empty "
          "each player stores their own side, and the most seeds wins.",
    factory=_build,
    params=(Param("houses", 6, "houses a side", low=1, high=len(LETTERS)),
            Param("seeds", 4, "seeds in each house at the start", low=1, high=MAX_SEEDS),
            Param("empty_capture", True, "capture with a last seed in an empty house even "
                  "when the house opposite is empty (Irving et al.); False: the standard "
                  "rule", kind=bool)),
    # seconds: CPU seconds measured on this project's 2-core machine (2026-11-26, a dozen other
    # processes on its two cores, wall times 5-10 times longer), the board's search kernels
    # compiled included (about 12 of them; on a quiet machine, the benchmarks page: 4)
    published=(
        Published({"houses": 6, "seeds": 2}, IRVING, value=10, method="search", seconds=14.5),
        Published({"houses": 6, "seeds": 3}, IRVING, value=2, method="search", seconds=14.2),
        Published({"houses": 6, "seeds": 4}, IRVING, value=10, method="search",
                  seconds=180.0, goal=True,
                  note="177 s of search alone on the quiet machine (benchmarks page); not finished "
                       "here in 30 minutes under load"),
        Published({"houses": 6, "seeds": 5}, IRVING, value=12, method="search",
                  seconds=431.0, goal=True,
                  note="reproduced in 431 s of search (2 workers) with a dense table of "
                       "every board of at most 30 seeds, built in 94 min (benchmarks page)"),
        Published({"houses": 6, "seeds": 6}, RAWLINGS, value=2, method="search",
                  seconds=86400.0, goal=True, note="106 days of CPU time for Rawlings"),
        Published({"houses": 6, "seeds": 4, "empty_capture": False}, RAWLINGS, value=8,
                  method="search", seconds=600.0, goal=True,
                  note="not finished here in 30 minutes under load"),
        Published({"houses": 6, "seeds": 5, "empty_capture": False}, RAWLINGS, value=10,
                  method="search", seconds=3600.0, goal=True, note="not tried here"),
    ),
    twin=lambda houses=6, seeds=4, empty_capture=True: KalahPy(houses, seeds, empty_capture),
    limit=_limit,
    size=_size,
    positions=_positions,
    small=({"houses": 2, "seeds": 3, "empty_capture": True},
           {"houses": 3, "seeds": 2, "empty_capture": False}),
    examples=("solve 'kalah(houses=4, seeds=3)'",
              "search 'kalah(houses=6, seeds=3)'",
              "play 'kalah(houses=3, seeds=3)'"),
    script=files(__name__).joinpath("page.js"),
    # the page solves (3, 3) 11,470 positions, (4, 3) 1,367,815 in 2.6 s, (3, 5) 215,373 in
    # 2.1 s; (5, 2) 4,306,560 takes 14 s and (6, 2) over 6 million: over
    budget=Budget(lambda a: a["houses"] <= 4 and a["houses"] * a["seeds"] <= 12,
                  "at most 4 houses and houses x seeds at most 12 (4 houses of 3)",
                  {"houses": 3, "seeds": 3, "empty_capture": True}),
    live=LiveBudget(lambda a: a["houses"] <= 6 and a["seeds"] <= 6,
                    "up to 6 houses of 6 seeds (an endgame store served with the page speeds "
                    "it up)", {"houses": 6, "seeds": 4}),
)

__all__ = ["GAME", "IRVING", "RAWLINGS", "Kalah", "KalahPy"]
