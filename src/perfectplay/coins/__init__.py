"""Coins in a line: take the first or last coin in turn; each player maximises their total.

The contract every game shares: :func:`parse` (text -> a row), :func:`analyze` (a row and
:class:`CoinsOptions` -> a :class:`CoinsResult` with ``explain()``, ``draw()``,
``to_json()``), registered as :data:`SPEC`. The package: :mod:`.model` (the row, its parser,
the options), :mod:`.rules` (the engine games the tests check against), :mod:`.solver` (the
algorithms: plain functions over a row), :mod:`.result`, :mod:`.render` (the text),
:mod:`.judges` (five judge formats), :mod:`.cases` (test generators), :mod:`.playtable`,
:mod:`.pictures`.

>>> from perfectplay import coins
>>> coins.analyze(coins.parse("7 9 2 6 4 3")).value.first
18
"""

from importlib.resources import files
from typing import Any

from ..registry import GameSpec, WebPage, register
from .cases import PROBLEMS
from .judges import (
    JUDGES,
    judge_atcoder_dpl,
    judge_cses1097,
    judge_gfg_coins,
    judge_spoj_twends,
    judge_uva10891,
)
from .model import LEFT, RIGHT, CoinsOptions, int_values, parse
from .pictures import picture
from .playtable import PLAY_LIMIT, play_table
from .render import SEED_EXAMPLE, SEED_PRINTED
from .result import CoinsResult, CoinsValue, StrategyReport, Turn
from .rules import CoinsGame, GameOfSumGame
from .seed import SEED_METHOD_LIMIT, SEED_TABLE_LIMIT, seed_tables
from .solver import (
    GAME_OF_SUM_LIMIT,
    QUADRATIC_LIMIT,
    analyze,
    best_move,
    check_compare_size,
    check_line_size,
    compare_strategies,
    format_seed_table,
    game_of_sum,
    greedy_margin,
    margin,
    margin_dp,
    optimal_line,
    parity_total,
    seed_differences,
    twends_margin,
    value,
)


def explain(coins: object) -> str:
    """The learner's text for a row: ``analyze(coins).explain()``."""
    return analyze(coins).explain()


def _from_values(values: list[int], options: Any) -> list[int]:
    return values


SPEC = register(GameSpec(
    name="coins", title="Coins in a line",
    rules="coins lie in a row; the players take the first or the last coin in turn, and "
          "each wants the larger total. What can the first player guarantee?",
    input_help="VALUES are the coins' values (or --file FILE, '-' reads stdin).",
    parse=lambda text, options: parse(text), analyze=analyze, options=CoinsOptions,
    from_values=_from_values, value_name="coin",
    # the optimal line and the strategy comparison are O(n^2)
    heavy=lambda row, options: (options.line or options.compare) and len(row) > 2000,
    examples=("coins 7 9 2 6 4 3", "coins 3 2 2 3 1 2 --table --line --compare",
              "coins --file examples/coins_row.txt --json"),
    judges=JUDGES, problems=PROBLEMS, play=play_table, picture=picture,
    picture_help="Also save the P table as a heat map with the move table: FILE.png or "
                 "FILE.svg (n <= 60; needs perfectplay[plot]).",
    demo="7 9 2 6 4 3", demo_title="7 9 2 6 4 3 (the seed's example)",
    demo_options={"compare": True},
    script=files(__name__).joinpath("page.js"),
    web=WebPage(example={"row": [7, 9, 2, 6, 4, 3], "table": True},
                start={"row": [7, 9, 2, 6, 4, 3], "line": True, "compare": True},
                intro="Players take the first or the last coin in turn; each wants the "
                      "larger total.",
                controls=()),
))

__all__ = [
    "GAME_OF_SUM_LIMIT", "JUDGES", "LEFT", "PLAY_LIMIT", "PROBLEMS", "QUADRATIC_LIMIT", "RIGHT",
    "SEED_EXAMPLE", "SEED_METHOD_LIMIT", "SEED_PRINTED", "SEED_TABLE_LIMIT", "SPEC",
    "seed_differences",
    "CoinsGame", "CoinsOptions", "CoinsResult", "CoinsValue", "GameOfSumGame",
    "StrategyReport", "Turn", "analyze", "best_move", "check_compare_size",
    "check_line_size", "compare_strategies", "explain", "format_seed_table", "game_of_sum",
    "greedy_margin", "int_values", "judge_atcoder_dpl", "judge_cses1097", "judge_gfg_coins",
    "judge_spoj_twends", "judge_uva10891", "margin", "margin_dp", "optimal_line",
    "parity_total", "parse", "picture", "play_table", "seed_tables", "twends_margin", "value",
]
