"""The proof search's room (engine/proof), each piece checked against an independent exact
method: Connect Four's ``search_moves`` listing a move alone when it leaves two wins at once
(or one right above another), which must then be a win in 3 by the strong solution; the
branching-node count (nodes that chose among moves) where it is known (a game with one move
everywhere branches only at each probe's root; the compiled kernel's count is checked beside
search = solve in test_search_etc); the rules' numba cache keyed by the text of the modules
they compile in; the quick probes' ranks (proof/plan.py); the probe stacks of searches in
threads; the kernel's entry point reused from call to call."""

from __future__ import annotations

import numpy as np
from numba import njit

from perfectplay import search
from perfectplay.catalog.connect4 import ConnectFour, position_from_moves
from perfectplay.catalog.connect4 import rules as c4rules
from perfectplay.catalog.connect4.bitboard import four, split
from perfectplay.engine import WIN
from takeaway import Countdown
from test_connect4_hooks import solved


@njit
def _lone_moves(codes, vals, rems, W, H, bottom, full, search_moves):
    """(positions where the double-threat rule must have fired, those of them that are not
    a win in 3). The rule's case, told apart by brute force with ``four`` alone: the mover
    has no win at once, the opponent has none either, and two or more columns are not
    right under a cell where the opponent would make four; yet one move is listed."""
    buf = np.empty(W + 1, np.int64)
    H1 = H + 1
    fired = wrong = 0
    for i in range(codes.size):
        code = codes[i]
        mover, mask = split(code, bottom, H1)
        other = mover ^ mask
        if four(other, H) or mask == full:
            continue  # ended
        playable = (mask + bottom) & full
        wins = threat = 0
        safe = 0
        for c in range(W):
            cell = playable & (((1 << H1) - 1) << (c * H1))
            if cell == 0:
                continue
            wins += four(mover | cell, H)
            threat += four(other | cell, H)
            above = (cell << 1) & full
            if above == 0 or not four(other | above, H):
                safe += 1
        if wins or threat or safe < 2 or search_moves(code, buf) != 1:
            continue
        fired += 1
        wrong += not (vals[i] == WIN and rems[i] == 3)
    return fired, wrong


def test_a_move_listed_alone_for_its_double_threat_wins_in_3():
    """At every position of 5x4 where the rule fired (see ``_lone_moves``) the strong
    solution says win in 3, and it fires hundreds of times; the exhaustive check of
    test_connect4_hooks proves besides that the listed move keeps the position's value and
    remoteness."""
    game, _, codes, vals, rems = solved(5, 4)
    g = game.geometry
    fired, wrong = _lone_moves(codes, vals, rems, 5, 4, g.bottom, g.full,
                               game.rules.search_moves)
    assert wrong == 0
    assert fired > 100, fired


def test_an_open_three_is_listed_alone():
    """5x4, X on columns 2 and 3 of the bottom row under O's two stones: X's 4 leaves wins
    at 1 and 5, the only move listed, and the strong solution says win in 3."""
    game, solution, _, _, _ = solved(5, 4)
    code = position_from_moves(game, "1122")
    out = np.zeros(6, np.int64)
    k = game.rules.search_moves(code, out)
    assert k == 1 and int(out[0]) == 3
    assert (solution.value(code).value, solution.remoteness(code)) == ("win", 3)


def test_the_python_backend_counts_branching_nodes_too():
    """Take 1 from a heap of 6: one move everywhere, so only each probe's root branches."""

    r = search(Countdown(6))
    assert r.exact and r.branching == r.probes and r.nodes > r.probes


def test_the_rules_cache_key_follows_the_hooks_text():
    """Every Connect Four rule closes over the digest of the modules it compiles in, so
    numba's cache key changes with their text (numba itself checks only rules.py)."""
    rules = c4rules.compiled_rules(ConnectFour(4, 4).geometry)
    for name, fn in rules.items():
        cells = [c.cell_contents for c in fn.py_func.__closure__]
        assert any(isinstance(c, int) and c == c4rules.SOURCES for c in cells), name


# -- the quick probes' ranks (engine/proof/plan.py) -------------------------------------------
def test_distance_ranks_order_the_reachable_scores_and_invert():
    """Every reachable score of a position with ``left`` plies left (wins in 1..left, the
    tie, losses in 1..left) gets a distinct rank in -left..left, ordered as the scores are,
    rank_score inverts it, and a fail-soft bound between two reachable scores rounds to the
    rank of the reachable one on its side."""
    from perfectplay.engine.proof.plan import (
        MATE,
        distance_rank,
        rank_at_least,
        rank_at_most,
        rank_score,
    )
    for left in (1, 2, 5, 16, 42):
        scores = sorted([MATE - r for r in range(1, left + 1)] + [0]
                        + [-(MATE - r) for r in range(1, left + 1)])
        ranks = [distance_rank(s, left) for s in scores]
        assert ranks == list(range(-left, left + 1))
        assert [rank_score(c, left) for c in ranks] == scores
        for lo_s, hi_s in zip(scores, scores[1:], strict=False):
            for between in range(lo_s + 1, min(hi_s, lo_s + 3)):
                assert rank_at_least(between, left) == distance_rank(hi_s, left)
                assert rank_at_most(between, left) == distance_rank(lo_s, left)
        for s in scores:
            assert rank_at_least(s, left) == rank_at_most(s, left) == distance_rank(s, left)


def test_searches_in_threads_at_once_keep_their_own_stacks():
    """The probe stacks are reused from one search to the next (a search's set-up cost);
    searches running at once in threads (the web server's) must never share one: each
    thread's answers equal those found one at a time, and a search repeated on an empty
    table takes the same nodes (the history heuristic's counters start from zero)."""
    import concurrent.futures as cf

    from perfectplay.engine.proof.driver import clear_table
    from test_compiled import random_game

    game = ConnectFour(5, 4)
    lines = ["", "2", "22", "1", "0", "21", "223", "4", "34"]
    codes = [position_from_moves(game, m) for m in lines]
    alone = [search(game, c).describe() for c in codes]
    with cf.ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda c: search(game, c, table_mb=1).describe(),
                                 codes * 3))
    assert together == alone * 3
    # no search_moves: ordered by the history heuristic (test_search's fixed win/lose game,
    # so the suite compiles its search once)
    plain = random_game(18, 120, tiered=True)
    clear_table()
    first = search(plain).nodes
    clear_table()
    assert search(plain).nodes == first


def test_kernel_calls_reuse_the_entry_point_numba_compiled():
    """A search's kernel calls skip numba's typing of their arguments once a first call has
    found the compiled entry point: the entry is kept per kernel, rules object and argument
    types, holds its rules (so their id is never another's), and answers as the dispatcher
    does; a kernel numba did not compile is called as it is."""
    from perfectplay.engine.compiled.staticrules import static_rules
    from perfectplay.engine.proof import backends as sb
    from perfectplay.engine.proof.driver import clear_table

    game = ConnectFour(5, 4)
    code = position_from_moves(game, "2211")
    clear_table()
    first = search(game, code)
    door = static_rules(game.rules)  # what the kernels take (one a digest, a process)
    entries = [v for v in sb._ENTRIES.values() if v[0] is door]
    assert entries, "no entry point kept for the game's kernels"
    clear_table()
    again = search(game, code)
    assert (again.value, again.remoteness, again.best_move, again.nodes) == \
        (first.value, first.remoteness, first.best_move, first.nodes)
    calls = []

    def plain(*args):
        calls.append(args)
        return 7

    assert sb._call(plain, object(), (), (1, 2)) == 7 and calls == [(1, 2)]
    assert not any(k[0] is plain for k in sb._ENTRIES)
