"""The null windows that pin one position's exact score, as a plan of small steps.

A proof search (:func:`perfectplay.search`) finds a score by null-window probes: each asks
"is the score at least x?" and answers with a fail-soft bound. Which x to ask next is this
module's: a win/lose/tie game with a ``horizon`` first asks about quick wins and slow losses
(its reachable scores ranked by :func:`distance_rank` and the rank bisected as Pascal Pons'
Connect Four solver bisects its score, ``Solver::solve``, github.com/PascalPons/connect4:
each probe's middle pulled half-way to the nearer end, while the distance asked about is at
most ``QUICK_PLIES``), then the sign ("a win at all?"), then MTD(f)'s step (is the bound
just found exact?, Plaat et al. 1996) and a bisection of what the fail-soft bounds left.

The plan is a small int64 array (:func:`new_plan`) and three functions over it:
:func:`plan_start`, :func:`plan_next` (the next probe's x, or the phase says it is done)
and :func:`plan_result` (a probe's fail-soft score and move). The same functions run in
Python, for :class:`~perfectplay.engine.proof.driver.SearchRun` (any backend), and compiled inside
the search kernel (:func:`~perfectplay.engine.proof.kernel.pin`), which makes every probe
of a position in one call; a call stopped by its node budget leaves the plan where it was,
so Python carries it on unchanged. Every function is O(1); a plan takes O(log range)
probes.

>>> st = new_plan()
>>> plan_start(st, -5, 5, -5, 5, 0, 1)   # a margin in [-5, 5], no quick probes
>>> x = plan_next(st); x                 # the middle first
1
>>> plan_result(st, 3, 7)                # "at least 1?": yes, at least 3 (move 7)
>>> plan_next(st), int(st[BEST])         # MTD(f)'s step: is 3 exact?
(4, 7)
>>> plan_result(st, 3, -1)               # "at least 4?": no, at most 3
>>> x = plan_next(st); int(st[PHASE]) == DONE, int(st[LO]), int(st[HI])
(True, 3, 3)
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["BEST", "DONE", "HI", "HORIZON_WRONG", "KNOWN_WRONG", "LO", "MAIN", "ONE",
           "PHASE", "PROBES", "QUICK", "QUICK_PLIES", "VALUE", "distance_rank", "new_plan",
           "plan_bounds", "plan_guess", "plan_next", "plan_result", "plan_start",
           "plan_value", "quick_left", "rank_score", "score_top"]

MATE = 1 << 19  # the search kernel's MATE: a win in r plies scores MATE - r
#: the longest distance (plies to a win or a loss) the quick probes ask about before "a win
#: at all?": with 16, Pons' opening_L1 set takes 6x fewer nodes and the other yardsticks of
#: benchmarks/search_nodes.py stay within 0.5 % (docs/benchmarks.md)
QUICK_PLIES = 16

# the plan's fields (an int64 array of SIZE); the last three are :func:`plan_value`'s
PHASE, LEFT, LO_C, HI_C, LO, HI, X, STEPPED, BASE_LO, BASE_HI, SCORED, BEST, PROBES = range(13)
SIGN, NO_TIE, GAP = 13, 14, 15
SIZE = 16
# its phases: the quick probes' ranks, the main probes, done, two contradictions, a
# plan of one probe (:func:`plan_one`), and the value proven without its score (VALUE: a
# win, LO >= 1, or a loss, HI <= -1, when only the value is asked, :func:`plan_value`)
QUICK, MAIN, DONE, HORIZON_WRONG, KNOWN_WRONG, ONE, VALUE = range(7)


LIMIT = MATE - 2  # the search kernel's LIMIT: the largest margin its scores hold


def new_plan() -> np.ndarray:
    """An empty plan (int64 fields, filled by :func:`plan_start`)."""
    return np.zeros(SIZE, np.int64)


@njit(cache=True)
def score_top(scored, bound):
    """The best score a position can have before any probe: a margin within the game's
    ``margin_bound`` ``bound`` (LIMIT when it has none) for scored games, else a win at
    the next ply (MATE - 1); the worst is its negation."""
    if scored:
        return min(LIMIT, max(0, bound))
    return MATE - 1 + 0 * bound


@njit(cache=True)
def quick_left(scored, left):
    """The plies the quick probes may ask about (0: none): a win/lose/tie game's horizon
    ``left`` when it leaves something to ask (below MATE - 1)."""
    return left if not scored and 0 < left < MATE - 1 else 0 * left


@njit(cache=True)
def distance_rank(s, left):
    """The rank of a reachable win/lose/tie score when at most ``left`` plies are left: a win
    in r plies ``left - r + 1`` (1 to ``left``), a tie 0, a loss in r plies ``r - left - 1``
    (-1 for the slowest, ``-left`` for a loss at once). O(1)."""
    if s > 0:
        return s - (MATE - left) + 1
    if s < 0:
        return s + (MATE - left) - 1
    return 0 * s


@njit(cache=True)
def rank_score(c, left):
    """The score of rank ``c`` (the inverse of :func:`distance_rank`). O(1)."""
    if c > 0:
        return c + MATE - left - 1
    if c < 0:
        return c - (MATE - left) + 1
    return 0 * c


@njit(cache=True)
def rank_distance(med, left):
    """The plies to the result a probe "is the rank above ``med``?" asks about: a win within
    ``left - med`` plies (``med`` >= 0), or no loss within ``med + left + 1`` (below 0)."""
    return left - med if med >= 0 else med + left + 1


@njit(cache=True)
def rank_at_least(s, left):
    """The least rank of a score >= ``s`` (``s`` a probe's fail-soft bound, which may fall
    between the reachable scores)."""
    if 0 < s < MATE - left:
        return 1
    if -(MATE - left) < s < 0:
        return 0
    return max(-left, min(left + 1, distance_rank(s, left)))


@njit(cache=True)
def rank_at_most(s, left):
    """The greatest rank of a score <= ``s``."""
    if 0 < s < MATE - left:
        return 0
    if -(MATE - left) < s < 0:
        return -1
    return max(-left - 1, min(left, distance_rank(s, left)))


@njit(cache=True)
def _half(v):
    """``v / 2`` rounded toward zero (as C's integer division, which Pons' bisection uses)."""
    return -((-v) // 2) if v < 0 else v // 2


@njit(cache=True)
def plan_start(st, lo, hi, base_lo, base_hi, left, scored):
    """Begin a plan for a score known to lie in [lo, hi] inside the game's range
    [base_lo, base_hi]; ``left`` > 0 (a win/lose/tie game's horizon, nothing else known)
    asks the quick probes first; ``scored`` (0 or 1): margins, whose MTD(f) step is taken
    after every probe."""
    st[LEFT] = left
    st[LO] = lo
    st[HI] = hi
    st[BASE_LO] = base_lo
    st[BASE_HI] = base_hi
    st[SCORED] = scored
    st[BEST] = -1
    st[PROBES] = 0
    if left > 0:
        st[PHASE] = QUICK
        st[LO_C] = -left
        st[HI_C] = left
    else:
        _begin_main(st, False)


@njit(cache=True)
def plan_one(st, x):
    """A plan of one probe, the window (x - 1, x): once it is answered the phase is DONE,
    ``st[LO]`` its fail-soft score and ``st[BEST]`` the move that reached it (-1: none),
    whichever side of x it fell (what a caller making its own plan asks for)."""
    st[PHASE] = ONE
    st[X] = x
    st[BEST] = -1
    st[PROBES] = 0


@njit(cache=True)
def plan_guess(st, g):
    """Start a scored plan begun by :func:`plan_start` at a first guess ``g`` of the
    score (call it right after, with nothing known: phase MAIN), as MTD(f) starts at its
    first guess f (Plaat et al. 1996): the first probe asks "at least ``g``?" and every
    probe after it is MTD(f)'s step from the fail-soft bound just found (at least s: is it
    s + 1?; below: is it s?). A guess at the score needs two probes, "at least g" (cheap:
    one move a node of the prover) and "at least g + 1" (the costly refutation), where the
    sign probe first and the steps down from it make one refutation a point between 0
    and a negative score (Othello 6x6, 24 empty squares: 84 M nodes from the right guess,
    112 M from the sign). A guess below the score costs cheap probes, one above it a
    refutation each: a guess should err low. ``g`` is clamped into the plan's range; a
    no-op for a plan not in MAIN, or not scored. O(1).

    >>> st = new_plan()
    >>> plan_start(st, -36, 36, -36, 36, 0, 1)
    >>> plan_guess(st, -4); plan_next(st)     # "at least -4?"
    -4
    >>> plan_result(st, -4, 3); plan_next(st) # yes, -4 at least: "at least -3?"
    -3
    >>> plan_result(st, -4, -1); _ = plan_next(st); int(st[PHASE]) == DONE, int(st[LO])
    (True, -4)
    """
    if st[PHASE] != MAIN or st[SCORED] == 0 or st[LO] >= st[HI]:
        return
    st[X] = max(st[LO] + 1, min(st[HI], g))
    st[STEPPED] = 1


@njit(cache=True)
def plan_value(st, sign, no_tie, gap):
    """Fit a win/lose/tie plan begun by :func:`plan_start` to the question asked (call it
    right after): ``sign`` (0 or 1), the value only: the plan ends, in phase VALUE, once
    the score's sign is proven (a win: ``st[LO]`` >= 1; a loss: ``st[HI]`` <= -1; a tie
    is pinned, DONE); ``no_tie`` (0 or 1), the game cannot tie: a bound that rules out a
    loss proves a win, at least ``gap`` (the least score of a win: MATE - horizon, or 1),
    and one that rules out a win proves a loss, at most ``-gap``. A game that cannot tie
    asked its value alone is one null window, "a win?", where its exact score takes
    several. O(1).

    >>> st = new_plan()
    >>> plan_start(st, -(MATE - 1), MATE - 1, -(MATE - 1), MATE - 1, 0, 0)
    >>> plan_value(st, 1, 1, MATE - 40)       # the value alone; no tie; at most 40 plies
    >>> plan_next(st)                         # "a win?"
    1
    >>> plan_result(st, 0, -1)                # no: so a loss, in 40 plies at most
    >>> _ = plan_next(st); int(st[PHASE]) == VALUE, int(st[HI]) == -(MATE - 40)
    (True, True)
    """
    st[SIGN] = sign
    st[NO_TIE] = no_tie
    st[GAP] = max(1, gap)
    if no_tie != 0:
        _close_gap(st)
        if st[PHASE] == MAIN:
            _begin_main(st, False)


@njit(cache=True)
def _close_gap(st):
    """A game that cannot tie (``st[NO_TIE]``): the scores strictly between a loss's and a
    win's (from -GAP to GAP) are never reached, so a bound inside that gap moves to its
    edge (the quick probes' ranks: rank 0, a tie, likewise). A no-op for other games."""
    if st[NO_TIE] == 0:
        return
    if st[PHASE] == QUICK:
        if st[LO_C] == 0:
            st[LO_C] = 1
        if st[HI_C] == 0:
            st[HI_C] = -1
        return
    gap = st[GAP]
    if -gap < st[LO] < gap:
        st[LO] = gap
    if -gap < st[HI] < gap:
        st[HI] = -gap


@njit(cache=True)
def _begin_main(st, quick):
    """The main probes' first x: the sign when it is open; the quick probes' bisection
    carried on when they narrowed the range; with a sign known, whether the narrowed bound
    is exact (a lost parent's best moves are exactly at it: one probe); else the middle."""
    st[PHASE] = MAIN
    lo, hi = st[LO], st[HI]
    if lo < 1 <= hi:  # win or not first: the sign settles most of the range
        st[X], st[STEPPED] = 1, 0
    elif quick:
        st[X], st[STEPPED] = lo + (hi - lo + 1) // 2, 1
    elif lo != st[BASE_LO] or hi != st[BASE_HI]:
        st[X], st[STEPPED] = (lo + 1 if lo > st[BASE_LO] else hi), 1
    else:
        st[X], st[STEPPED] = (lo + hi + 1) // 2, 0


@njit(cache=True)
def plan_next(st):
    """The next probe's x (the window is (x - 1, x)); when the plan has ended instead,
    ``st[PHASE]`` is DONE (``st[LO] == st[HI]``, the score) or a contradiction
    (HORIZON_WRONG: a score beyond the horizon; KNOWN_WRONG: the bounds given at the start
    were wrong), and the value returned means nothing."""
    while st[PHASE] == QUICK:  # (ONE: st[X] as it is)
        left, lo_c, hi_c = st[LEFT], st[LO_C], st[HI_C]
        if lo_c < hi_c:
            med = lo_c + (hi_c - lo_c) // 2
            if med <= 0 and _half(lo_c) < med:
                med = _half(lo_c)
            elif med >= 0 and _half(hi_c) > med:
                med = _half(hi_c)
            if rank_distance(med, left) <= QUICK_PLIES:
                st[X] = rank_score(med + 1, left)  # "is the rank above med?"
                return st[X]
            m1, m2 = QUICK_PLIES - left - 1, left - QUICK_PLIES  # no loss within it, a win
            ok1, ok2 = lo_c <= m1 < hi_c, lo_c <= m2 < hi_c
            if ok1 or ok2:
                med = m1 if ok1 and (med < 0 or not ok2) else m2
                st[X] = rank_score(med + 1, left)
                return st[X]
        if lo_c > hi_c:
            st[PHASE] = HORIZON_WRONG
            return st[X]
        st[LO], st[HI] = rank_score(lo_c, left), rank_score(hi_c, left)
        _begin_main(st, st[LO] != rank_score(-left, left) or st[HI] != rank_score(left, left))
    if st[PHASE] == MAIN and st[LO] >= st[HI]:
        st[PHASE] = DONE if st[LO] == st[HI] else KNOWN_WRONG
    elif st[PHASE] == MAIN and st[SIGN] != 0 and (st[LO] > 0 or st[HI] < 0):
        st[PHASE] = VALUE  # the value alone was asked: its sign is proven
    return st[X]


@njit(cache=True)
def plan_result(st, s, move):
    """Take the answer of the probe at ``st[X]``: its fail-soft score ``s`` and the move
    that reached it (-1: none), kept as the best move when the probe proved s >= x."""
    x = st[X]
    st[PROBES] += 1
    if st[PHASE] == ONE:
        st[LO], st[BEST], st[PHASE] = s, move, DONE
        return
    if s >= x and move >= 0:
        st[BEST] = move
    if st[PHASE] == QUICK:
        left = st[LEFT]
        if s >= x:
            st[LO_C] = max(st[LO_C], rank_at_least(s, left))
        else:
            st[HI_C] = min(st[HI_C], rank_at_most(s, left))
        _close_gap(st)
        return
    if s >= x:
        st[LO] = max(st[LO], s)
    else:
        st[HI] = min(st[HI], s)
    _close_gap(st)
    if st[STEPPED] == 0 or st[SCORED] != 0:  # MTD(f)'s step: is the bound just found exact?
        st[STEPPED] = 1  # (margins: always, as small margins are a few steps apart)
        st[X] = st[LO] + 1 if s >= x else st[HI]
    else:  # then bisect what the fail-soft bounds left; probes for quick wins and slow
        st[X] = st[LO] + (st[HI] - st[LO] + 1) // 2  # losses are short (depth-limited)


def plan_bounds(st: np.ndarray) -> tuple[int, int, int]:
    """(lo, hi, best move or -1) proven so far, in scores, whatever the phase (a move is
    named by the quick probes only once it is proven to win)."""
    if st[PHASE] == QUICK:
        left = int(st[LEFT])
        best = int(st[BEST]) if st[LO_C] > 0 else -1
        return int(rank_score(st[LO_C], left)), int(rank_score(st[HI_C], left)), best
    return int(st[LO]), int(st[HI]), int(st[BEST])
