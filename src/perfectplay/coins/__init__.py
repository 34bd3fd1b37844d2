"""Coins in a line: take the first or last coin in turn; each player maximises their total.

The contract every game shares: :func:`parse` (text -> a row), :func:`analyze` (a row -> a
:class:`CoinsResult` with ``explain()``, ``draw()``, ``to_json()``), the judge formats on top.
Underneath, the algorithms are plain functions over a row (:mod:`.solver`), and the rules an
engine game (:mod:`.game`) that the tests check them against.

>>> from perfectplay import coins
>>> coins.analyze(coins.parse("7 9 2 6 4 3")).value.first
18
"""

from .formats import (
    JUDGES,
    SEED_EXAMPLE,
    SEED_PRINTED,
    format_seed_table,
    judge_atcoder_dpl,
    judge_cses1097,
    judge_gfg_coins,
    judge_spoj_twends,
    judge_uva10891,
    seed_differences,
)
from .game import CoinsGame, GameOfSumGame
from .result import CoinsResult, analyze
from .row import LEFT, RIGHT, int_values, parse
from .solver import (
    GAME_OF_SUM_LIMIT,
    QUADRATIC_LIMIT,
    SEED_TABLE_LIMIT,
    CoinsValue,
    StrategyReport,
    Turn,
    best_move,
    check_compare_size,
    check_line_size,
    compare_strategies,
    game_of_sum,
    greedy_margin,
    margin,
    margin_dp,
    optimal_line,
    parity_total,
    seed_tables,
    twends_margin,
    value,
)


def explain(coins: object) -> str:
    """The learner's text for a row: ``analyze(coins).explain()``."""
    return analyze(coins).explain()


__all__ = [
    "GAME_OF_SUM_LIMIT", "JUDGES", "LEFT", "QUADRATIC_LIMIT", "RIGHT", "SEED_EXAMPLE",
    "SEED_PRINTED", "SEED_TABLE_LIMIT", "seed_differences",
    "CoinsGame", "CoinsResult", "CoinsValue", "GameOfSumGame", "StrategyReport", "Turn",
    "analyze", "best_move", "check_compare_size", "check_line_size", "compare_strategies",
    "explain", "format_seed_table", "game_of_sum", "greedy_margin", "int_values",
    "judge_atcoder_dpl", "judge_cses1097", "judge_gfg_coins", "judge_spoj_twends",
    "judge_uva10891", "margin", "margin_dp", "optimal_line", "parity_total", "parse",
    "seed_tables", "twends_margin", "value",
]
