"""The fast exact algorithms for coins in a line, as functions over a row of integers.

- :func:`value`: the first player's guaranteed total and margin in **O(n)** by the fusion rule.
- :func:`margin_dp`: the O(n^2) difference DP, O(n) memory (for tests and benchmarks).
- :func:`seed_tables`: the seed's P(i, j) and move table m(i, j), computed right.
- :func:`best_move`, :func:`optimal_line`, :func:`compare_strategies`.
- Variants: :func:`twends_margin` (SPOJ TWENDS, greedy second player) and :func:`game_of_sum`
  (UVa 10891, take one or more coins from one end).

The fusion rule (Idziaszek; docs/algorithms.md, "Coins"): scan left to right keeping a stack;
whenever its top three values satisfy ``x <= y >= z``, replace them by ``x - y + z``. The
remaining row has no inner peak, so both players take the larger end from then on, and the
margin is the alternating sum of the remaining values in decreasing order. Holds for negative
values too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit

from ..errors import LimitError
from ..seedrun import SeedRun, Tracer, disagree, seed_requested, timed, warm_seconds
from .model import LEFT, RIGHT, CoinsOptions, int_array, int_values, with_overrides
from .render import Tables, table_differences, table_text
from .result import CoinsResult, CoinsValue, StrategyReport, Turn
from .seed import SEED_METHOD_LIMIT, seed_tables
from .seed import cells as seed_cells

_INT64_SAFE = 2**62


# -- O(n) value by fusion -------------------------------------------------------------------
def _fusion_margin(a: Any, stack: Any) -> Any:
    """Margin of the first player by the fusion rule. ``stack`` is scratch space of len(a).
    O(n) time: every merge removes two entries."""
    k = 0
    for x in a:
        stack[k] = x
        k += 1
        while k >= 3 and stack[k - 3] <= stack[k - 2] and stack[k - 2] >= stack[k - 1]:
            stack[k - 3] = stack[k - 3] - stack[k - 2] + stack[k - 1]
            k -= 2
    lo, hi = 0, k - 1
    d = stack[0] - stack[0]  # zero of the element type
    sign = 1
    while lo <= hi:
        if stack[lo] >= stack[hi]:
            d += sign * stack[lo]
            lo += 1
        else:
            d += sign * stack[hi]
            hi -= 1
        sign = -sign
    return d


_fusion_margin_jit = njit(cache=True)(_fusion_margin)


def _as_array(coins: Any) -> tuple[np.ndarray | None, list[int]]:
    """(int64 array, or None when int64 could overflow; the values as Python ints if so)."""
    if isinstance(coins, np.ndarray):
        if int_array(coins).size == 0:
            return coins.astype(np.int64), []
        big = max(abs(int(coins.max())), abs(int(coins.min())))
        if big * coins.size < _INT64_SAFE:  # also rules out uint64 values >= 2**63
            return coins.astype(np.int64, copy=False), []
        return None, int_values(coins)
    values = int_values(coins)
    if not values:
        return np.zeros(0, np.int64), []
    big = max(abs(min(values)), abs(max(values)))
    if big * len(values) < _INT64_SAFE:
        return np.array(values, dtype=np.int64), []
    return None, values


def margin(coins: Any) -> int:
    """First player's best guaranteed margin (own total minus the opponent's). O(n).

    Exact for any integers: int64 in a numba kernel when no sum can overflow, Python integers
    otherwise.

    >>> margin([7, 9, 2, 6, 4, 3]), margin([3, 2, 2, 3, 1, 2])
    (5, 3)
    """
    arr, values = _as_array(coins)
    if arr is not None:
        return int(_fusion_margin_jit(arr, np.empty(arr.size, np.int64))) if arr.size else 0
    return _fusion_margin(values, [0] * len(values))


def value(coins: Any) -> CoinsValue:
    """Guaranteed totals of both players under perfect play, O(n).

    >>> value([7, 9, 2, 6, 4, 3])
    CoinsValue(n=6, total=31, first=18, second=13, margin=5)
    """
    arr, values = _as_array(coins)
    total = int(arr.sum()) if arr is not None else sum(values)
    n = int(arr.size) if arr is not None else len(values)
    d = margin(arr if arr is not None else values)
    first = (total + d) // 2
    return CoinsValue(n=n, total=total, first=first, second=total - first, margin=d)


# -- O(n^2) DP with optional greedy players (oracle, greedy guarantee, TWENDS) ---------------
def _strategy_margin(a: Any, work: Any, first_greedy: bool, second_greedy: bool) -> Any:
    """First player's margin when each player is perfect or greedy (larger end, left on
    ties). ``work[i]`` holds the margin of the interval starting at i of the current length.
    O(n^2) time, O(n) memory."""
    n = len(a)
    for i in range(n):
        work[i] = a[i] - a[i]
    for length in range(1, n + 1):
        first_moves = (n - length) % 2 == 0
        greedy = first_greedy if first_moves else second_greedy
        for i in range(n - length + 1):
            j = i + length - 1
            # work[i] is [i, j-1]; work[i+1] is [i+1, j] (both of length - 1)
            take_left = a[i] + work[i + 1] if first_moves else -a[i] + work[i + 1]
            take_right = a[j] + work[i] if first_moves else -a[j] + work[i]
            if length == 1:
                take_left = a[i] if first_moves else -a[i]
                take_right = take_left
            if greedy:
                best = take_left if a[i] >= a[j] else take_right
            elif first_moves:
                best = take_left if take_left >= take_right else take_right
            else:
                best = take_left if take_left <= take_right else take_right
            work[i] = best
    return work[0]


_strategy_margin_jit = njit(cache=True)(_strategy_margin)


def _strategy(coins: Any, first_greedy: bool, second_greedy: bool) -> int:
    arr, values = _as_array(coins)
    if arr is not None:
        if arr.size == 0:
            return 0
        work = np.empty(arr.size + 1, np.int64)
        return int(_strategy_margin_jit(arr, work, first_greedy, second_greedy))
    return _strategy_margin(values, [0] * (len(values) + 1), first_greedy, second_greedy)


def margin_dp(coins: Any) -> int:
    """First player's margin by the O(n^2) interval DP (difference form, O(n) memory):
    D(i, j) = max(a_i - D(i+1, j), a_j - D(i, j-1)).

    >>> margin_dp([7, 9, 2, 6, 4, 3])
    5
    """
    return _strategy(coins, False, False)


def twends_margin(coins: Any) -> int:
    """SPOJ TWENDS: the first player's margin when it plays perfectly and the second player
    always takes the larger end (left on ties). O(n^2).

    >>> twends_margin([3, 2, 10, 4])
    7
    """
    return _strategy(coins, False, True)


def greedy_margin(coins: Any) -> int:
    """What the greedy strategy (larger end, left on ties) guarantees the first player, in
    margin, against a perfect opponent. O(n^2)."""
    return _strategy(coins, True, False)


def parity_total(coins: Sequence[int]) -> int | None:
    """The odd/even-index strategy (n even): take every coin of the richer index class. It
    guarantees exactly that class's sum (a tie or better), not the maximum. None for odd n."""
    vals = int_values(coins)
    if len(vals) % 2:
        return None
    return max(sum(vals[0::2]), sum(vals[1::2]))


# -- moves and tables ------------------------------------------------------------------------
def best_move(coins: Sequence[int], lo: int = 0, hi: int | None = None) -> str | None:
    """The perfect move on coins[lo:hi]: ``"L"`` or ``"R"`` (None when empty). O(n).

    Compares a_lo - D(lo+1..hi) with a_hi - D(lo..hi-1); on a tie it takes the right coin,
    the seed's rule (``if p1 > p2 then i else j``).

    >>> best_move([5, 8, 3, 2])
    'R'
    """
    vals = int_values(coins)
    hi = len(vals) if hi is None else hi
    if lo >= hi:
        return None
    if hi - lo == 1:
        return RIGHT
    left = vals[lo] - margin(vals[lo + 1:hi])
    right = vals[hi - 1] - margin(vals[lo:hi - 1])
    return LEFT if left > right else RIGHT


#: The longest row for the O(n^2) features (the optimal line, the greedy comparison): about
#: a second in the int64 kernels; rows of huge values (Python integers) allow fewer.
QUADRATIC_LIMIT = 30_000
QUADRATIC_LIMIT_BIG = 2_000


def _check_quadratic(n: int, what: str, big: bool = False) -> None:
    limit = QUADRATIC_LIMIT_BIG if big else QUADRATIC_LIMIT
    if n > limit:
        raise LimitError(f"{what} is O(n^2): at most {limit:,} coins"
                         + (" of this size" if big else "") + f", got {n:,}")


def check_line_size(n: int, big: bool = False) -> None:
    """A :class:`LimitError` up front when :func:`optimal_line` would take too long."""
    _check_quadratic(n, "the optimal line", big)


def check_compare_size(n: int, big: bool = False) -> None:
    """A :class:`LimitError` up front when :func:`compare_strategies` would take too long."""
    _check_quadratic(n, "the strategy comparison", big)


@njit(cache=True)
def _line_sides(a):
    """The perfect side at every turn (True = left), both players perfect, the seed's tie
    rule (right on a tie). O(n^2): two O(len) fusion margins a turn."""
    n = a.size
    left = np.zeros(n, np.bool_)
    stack = np.empty(n + 1, np.int64)
    lo, hi = 0, n
    for t in range(n):
        if hi - lo > 1:
            take_left = a[lo] - _fusion_margin_jit(a[lo + 1:hi], stack)
            take_right = a[hi - 1] - _fusion_margin_jit(a[lo:hi - 1], stack)
            left[t] = take_left > take_right
        if left[t]:
            lo += 1
        else:
            hi -= 1
    return left


def optimal_line(coins: Sequence[int]) -> list[Turn]:
    """Both players perfect from the start: every move, O(n^2) time, O(n) memory
    (at most QUADRATIC_LIMIT coins, checked up front).

    >>> [t.side for t in optimal_line([5, 8, 3, 2])]
    ['R', 'R', 'R', 'R']
    """
    vals = int_values(coins)
    arr, _ = _as_array(vals)
    check_line_size(len(vals), big=arr is None)
    if arr is not None:
        sides = [LEFT if x else RIGHT for x in _line_sides(arr).tolist()]
    else:
        sides = []
        lo, hi = 0, len(vals)
        while lo < hi:
            side = best_move(vals, lo, hi) or RIGHT
            sides.append(side)
            lo, hi = (lo + 1, hi) if side == LEFT else (lo, hi - 1)
    lo, hi = 0, len(vals)
    totals = [0, 0]
    line = []
    for k, side in enumerate(sides):
        coin = vals[lo] if side == LEFT else vals[hi - 1]
        totals[k % 2] += coin
        line.append(Turn(k % 2 + 1, side, coin, totals[0], totals[1]))
        lo, hi = (lo + 1, hi) if side == LEFT else (lo, hi - 1)
    return line


def compare_strategies(coins: Sequence[int]) -> StrategyReport:
    """Guaranteed totals of the perfect, greedy and odd/even-index strategies. O(n^2)
    (at most QUADRATIC_LIMIT coins, checked up front)."""
    coins = int_values(coins)
    check_compare_size(len(coins), big=_as_array(coins)[0] is None)
    v = value(coins)
    g = greedy_margin(coins)
    return StrategyReport(optimal=v.first, greedy=(v.total + g) // 2,
                          parity=parity_total(coins), total=v.total)


# -- UVa 10891, Game of Sum -------------------------------------------------------------------
def _game_of_sum(a: Any, f: Any, low_start: Any, low_end: Any) -> Any:
    """Best total of the player to move when a move takes one or more numbers from one end.

    f(i, j) = S(i, j) - min(0, min_k f(k, j) for i < k <= j, min_k f(i, k) for i <= k < j):
    the mover leaves the opponent the interval worth least to it (or nothing). With running
    minima low_start(i, j) = min_{k >= i} f(k, j) and low_end(i, j) = min_{k <= j} f(i, k) the
    DP is O(n^2). Scratch arrays are flat, index i * n + j.
    """
    n = len(a)
    prefix = [a[0] - a[0]] * (n + 1)
    for i in range(n):
        prefix[i + 1] = prefix[i] + a[i]
    for length in range(1, n + 1):
        for i in range(n - length + 1):
            j = i + length - 1
            s = prefix[j + 1] - prefix[i]
            rest = s - s  # leaving nothing
            if length > 1:
                if low_start[(i + 1) * n + j] < rest:
                    rest = low_start[(i + 1) * n + j]
                if low_end[i * n + j - 1] < rest:
                    rest = low_end[i * n + j - 1]
            best = s - rest
            f[i * n + j] = best
            low_start[i * n + j] = best
            low_end[i * n + j] = best
            if length > 1:
                if low_start[(i + 1) * n + j] < best:
                    low_start[i * n + j] = low_start[(i + 1) * n + j]
                if low_end[i * n + j - 1] < best:
                    low_end[i * n + j] = low_end[i * n + j - 1]
    return f[n - 1]


_game_of_sum_jit = njit(cache=True)(_game_of_sum)
GAME_OF_SUM_LIMIT = 4000


def game_of_sum(coins: Any) -> int:
    """UVa 10891 (Game of Sum): first player's margin A - B when a move takes one or more
    numbers from one end. O(n^2) time and memory (n <= 4000).

    >>> game_of_sum([4, -10, -20, 7]), game_of_sum([1, 2, 3, 4])
    (7, 10)
    """
    arr, values = _as_array(coins)
    n = int(arr.size) if arr is not None else len(values)
    if n == 0:
        return 0
    if n > GAME_OF_SUM_LIMIT:
        raise LimitError(f"Game of Sum is O(n^2) in memory; at most {GAME_OF_SUM_LIMIT} "
                         f"numbers, got {n}")
    if arr is not None:
        scratch = [np.empty(n * n, np.int64) for _ in range(3)]
        best = int(_game_of_sum_jit(arr, *scratch))
        total = int(arr.sum())
    else:
        best = _game_of_sum(values, *([0] * (n * n) for _ in range(3)))
        total = sum(values)
    return 2 * best - total


def analyze(coins: Any, options: CoinsOptions | None = None, **overrides: Any) -> CoinsResult:
    """Solve a row (any integers, any length): the value in O(n), and on request (the
    options, or their names as keywords) the optimal line and the strategy comparison
    (O(n^2), limits checked first) and the seed's tables (n <= 60).

    >>> analyze([5, 8, 3, 2]).value.first
    10
    >>> analyze([5, 8, 3, 2], line=True).line[0].side
    'R'
    """
    opts = with_overrides(options or CoinsOptions(), overrides)
    row = int_values(coins)
    run_seed = seed_requested(opts.method, opts.trace, "fast")
    if opts.line:
        check_line_size(len(row))
    if opts.compare:
        check_compare_size(len(row))
    if run_seed and len(row) > SEED_METHOD_LIMIT:
        raise LimitError(f"the seed's method is O(n^2) in pure Python: at most "
                         f"{SEED_METHOD_LIMIT} coins, got {len(row)}")
    val, first = value(row), best_move(row)
    fast_seconds = warm_seconds(lambda: (value(row), best_move(row))) if run_seed else 0.0
    return CoinsResult(
        row=tuple(row), value=val, first_move=first,
        line=optimal_line(row) if opts.line else None,
        strategies=compare_strategies(row) if opts.compare else None,
        table=seed_tables(row) if opts.table else None,
        seed=_seed_run(row, val, opts.trace, fast_seconds) if run_seed else None)


def _seed_run(row: list[int], val: CoinsValue, trace: bool, fast_seconds: float) -> SeedRun:
    """The seed's O(n^2) table run (traced when asked), checked against the fast value."""
    tracer = Tracer(trace)
    (P, _), seconds = timed(lambda: seed_tables(row, SEED_METHOD_LIMIT, tracer))
    got = P[1][len(row)] if row else 0
    if got != val.first:
        raise disagree("coins", got, val.first)
    return SeedRun("the interval table P(i, j) filled diagonal by diagonal", "O(n^2)",
                   work=seed_cells(len(row)), unit="table cells", seconds=seconds,
                   fast_seconds=fast_seconds, steps=tracer.steps if trace else None,
                   dropped=tracer.dropped, shape=(len(row), len(row)))


def format_seed_table(coins: Sequence[int], tables: Tables | None = None) -> str:
    """The seed's P/m table as plain text (see :func:`.render.table_text`), computed when
    ``tables`` is not given.

    >>> format_seed_table([1, 2]).splitlines()[1].split()
    ['1', '1', 'j', '2', 'j']
    """
    return table_text(coins, tables or seed_tables(coins))


def seed_differences(coins: Sequence[int], tables: Tables | None = None
                     ) -> list[tuple[int, int, str]] | None:
    """Where the seed's printed table differs from the right one (the seed's own row only;
    see :func:`.render.table_differences`)."""
    return table_differences(coins, tables or seed_tables(coins))
