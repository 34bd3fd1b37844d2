"""Othello's lean endgame path (the ``endgame`` hook: the last empty squares searched on
bitboards, no table, no symmetry): its answers against the strong solution of 4x4 in every
kind of window, the proof search through it against the same solution, the gate on 6x6,
Feinstein's line near its end, and check_game catching a broken hook."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest
from numba import njit

from perfectplay import check_game, solve
from perfectplay.catalog.othello import FEINSTEIN_LINE, Othello, first
from perfectplay.catalog.othello.rules import ENDGAME_EMPTIES, endgame
from perfectplay.engine import CompiledGame, Solution
from perfectplay.engine.proof.batch import search_many


@functools.cache
def solved4() -> tuple[Othello, Solution]:
    game = Othello(4)
    solution = solve(game, method="graph")
    assert isinstance(solution, Solution)
    return game, solution


def fail_soft(v: int, a: int, b: int, s: int) -> bool:
    """Does score ``s`` in window (a, b) say the truth about margin ``v``?"""
    return v <= s if s <= a else v >= s if s >= b else v == s


def test_endgame_answers_every_4x4_position_in_every_window():
    game, s = solved4()
    positions = list(s.positions())
    assert len(positions) == 62_789
    wrong, left = [], 0
    for i, pos in enumerate(positions):
        v = int(s.value(pos))
        black, white, _ = game.board(pos)
        if 16 - (black | white).bit_count() > ENDGAME_EMPTIES:  # the start and its children
            left += endgame(np.int64(pos), -17, 17)[1] == 0
            continue
        a, b = ((-17, 17), (v - 1, v + 1), (v, v + 1), (v - 1, v), (v + 2, v + 4),
                (v - 4, v - 2))[i % 6]
        score, nodes = (int(x) for x in endgame(np.int64(pos), a, b))
        if nodes < 1 or not fail_soft(v, a, b, score) or (a, b) == (-17, 17) and score != v:
            wrong.append((pos, v, a, b, score, nodes))
    assert wrong == [] and left == 5


def test_search_through_the_endgame_hook_matches_the_strong_solution():
    game, s = solved4()
    assert game.has_endgame
    positions = list(s.positions())[::300]  # 210 positions, every tier
    batch = search_many(game, positions, check=False)
    got = [(r.value, r.remoteness) for r in batch]
    assert got == [(s.value(p), s.remoteness(p)) for p in positions]
    assert batch[0].value == -8  # the start: White wins 11-3


def test_the_gate_leaves_big_positions_to_the_engine_and_takes_small_ones():
    start = Othello(6).initial()
    assert tuple(int(x) for x in endgame(np.int64(start), -36, 36)) == (0, 0)
    near = Othello(6, first(FEINSTEIN_LINE, 22)).initial()  # 10 empty squares
    assert ENDGAME_EMPTIES == 10
    score, nodes = (int(x) for x in endgame(np.int64(near), -36, 36))
    assert score == -4 and nodes > 1  # Feinstein's 16-20


def mutant(game: CompiledGame, broken: Any) -> CompiledGame:
    """``game`` rebuilt from its compiled rules with ``endgame`` replaced by ``broken``."""
    r = game.rules
    return CompiledGame(game.start_code, r.moves, r.play, r.outcome, max_moves=game.max_moves,
                        score=r.score, payoff=r.payoff, tier=r.tier, canonical=r.canonical,
                        search_moves=r.search_moves, margin_bound=r.margin_bound,
                        endgame=broken, name=game.name + " (mutant)")


def one_off(f: Any) -> Any:
    @njit
    def g(pos, a, b):
        s, n = f(pos, a, b)
        return (s + 1, n) if pos % 7 == 3 and n > 0 else (s, n)
    return g


def always_low(f: Any) -> Any:
    @njit
    def g(pos, a, b):
        s, n = f(pos, a, b)
        return (a, n) if pos % 7 == 3 and n > 0 else (s, n)
    return g


def no_nodes(f: Any) -> Any:
    @njit
    def g(pos, a, b):
        s, n = f(pos, a, b)
        return (s, n - n - 1) if pos % 7 == 3 else (s, n)
    return g


@pytest.mark.parametrize("broken", [one_off, always_low, no_nodes])
def test_check_game_catches_a_broken_endgame(broken):
    game = Othello(6, first(FEINSTEIN_LINE, 24))  # 2,444 positions, 12 empty squares
    assert check_game(game).ok
    report = check_game(mutant(game, broken(game.rules.endgame)))
    assert not report.ok
    assert any("endgame(" in p for p in report.problems), str(report)


def test_endgame_needs_a_scored_game():
    r = Othello(4).rules
    with pytest.raises(Exception, match="endgame is for scored games"):
        CompiledGame(0, r.moves, r.play, r.outcome, max_moves=12, endgame=r.endgame)
