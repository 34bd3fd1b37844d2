"""The search's node savings of issue 45, each checked where it could go wrong: Connect Four's
``MUST_LOSE`` claim (claimeven's cells hold the opponent's four) against the strong solution
at every position of 4x4 and 5x4, the table word's hint with its orientation bit, a failed-low
result keeping the old hint, and forced nodes (one move listed) passed through without a
table entry, reading an exact child without entering it, while every answer stays the strong
solver's."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from perfectplay import search, solve
from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.engine import LOSE
from perfectplay.engine.proof import kernel as sk
from perfectplay.engine.proof.driver import clear_table
from test_connect4_hooks import solved


@njit
def _must_lose_claims(codes, vals, static_bounds):
    """(MUST_LOSE claims, wrong claims) over every position."""
    claims = wrong = 0
    for i in range(codes.size):
        if static_bounds(codes[i]) & sk.MUST_LOSE:
            claims += 1
            wrong += vals[i] != LOSE
    return claims, wrong


@pytest.mark.parametrize("w,h", [(4, 4), (5, 4)])
def test_must_lose_holds_at_every_position(w, h):
    """Every position claimed lost is lost (the solution's value), and claims are made."""
    game, _, codes, vals, _ = solved(w, h)
    claims, wrong = _must_lose_claims(codes, vals, game.rules.static_bounds)
    assert wrong == 0
    assert claims > 0.01 * codes.size


def test_the_table_word_holds_the_hint_and_its_orientation():
    for hint in (0, 1, 7, 255, 256 + 1, 256 + 255):
        for work in (0, 1, 40, 63):
            lo, hi, h, w = sk.unpack(sk.pack(-5, sk.MATE - 3, hint, work))
            assert (lo, hi, h, w) == (-5, sk.MATE - 3, hint, work)


def test_a_result_without_a_move_keeps_the_old_hint():
    table = np.zeros(64, np.int64)
    sk.tt_store(table, 12345, 0, 0, 3, 5, 1)
    assert sk.tt_probe(table, 12345) == (True, 0, 0, 256 + 4)
    sk.tt_store(table, 12345, -sk.INF, -1, -1, 2, 0)  # failed low: no move to keep
    found, lo, hi, hint = sk.tt_probe(table, 12345)
    assert (found, hint) == (True, 256 + 4)


@pytest.mark.parametrize("w,h", [(4, 4), (5, 4)])
def test_search_equals_solve_with_forced_nodes_passed_through(w, h):
    """The positions the search passes through (one move listed) and the others, from a
    table kept between searches (so hints of every orientation are read): every value
    and remoteness is the strong solution's."""
    game = ConnectFour(w, h)
    ref = solve(game)
    _, _, codes, _, _ = solved(w, h)
    rng = np.random.default_rng(45)
    clear_table()
    branching = 0
    for code in rng.choice(codes, 60, replace=False):
        r = search(game, int(code))
        assert (r.value, r.remoteness) == (ref.value(int(code)), ref.remoteness(int(code)))
        assert r.branching <= r.nodes
        branching += r.branching
    assert branching > 60  # the branching nodes (SearchResult.branching) are counted
    clear_table()


@njit
def _forced_then_exact(codes, rules, exact):
    """The positions a move of which leads to a forced node (one move listed) whose one
    child is exact by ``static_bounds`` (so the search takes that child's score at the
    forced node without entering it)."""
    out = np.zeros(codes.size, np.int64)
    buf = np.empty(16, np.int64)
    sub = np.empty(16, np.int64)
    n = 0
    for code in codes:
        if rules.outcome(code) != 0:
            continue
        for i in range(rules.search_moves(code, buf)):
            f = rules.play(code, buf[i])
            if rules.outcome(f) != 0 or rules.search_moves(f, sub) != 1:
                continue
            c = rules.play(f, sub[0])
            if rules.outcome(c) == 0 and rules.static_bounds(c) & exact:
                out[n] = code
                n += 1
                break
    return out[:n]


def test_a_forced_node_takes_its_exact_childs_score():
    """Positions where a forced node meets an exact child (a win in 1 or a loss in 2,
    read without entering it), from a fresh table each: the search's value and
    remoteness are the strong solution's, on hundreds of such positions of 5x4."""
    game = ConnectFour(5, 4)
    ref = solve(game)
    _, _, codes, _, _ = solved(5, 4)
    rng = np.random.default_rng(7)
    hits = _forced_then_exact(rng.choice(codes, 4000, replace=False), game.rules,
                              sk.WINS_IN_1 | sk.LOSES_IN_2)
    assert hits.size > 200, hits.size
    for code in hits[:200]:
        clear_table()
        r = search(game, int(code))
        assert (r.value, r.remoteness) == (ref.value(int(code)), ref.remoteness(int(code)))
    clear_table()
