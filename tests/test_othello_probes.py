"""Proof search's probes of a margin from a first guess (:func:`.plan.plan_guess`, MTD(f)
from Othello's ``first_guess``; an analysis's children from their parent's score): the plan
against every margin and every guess with fail-soft answers drawn at random, and searches
from the guess against the strong solutions of Othello 4x4 and of 6x6 near its end."""

from __future__ import annotations

import functools
import random

import pytest

from perfectplay import search, solve
from perfectplay.catalog.othello import FEINSTEIN_LINE, Othello, first
from perfectplay.engine import Solution
from perfectplay.engine.proof.driver import python_plan


@pytest.mark.parametrize("seed", [1, 2])
def test_a_plan_from_any_guess_pins_the_margin_in_few_probes(seed):
    rng = random.Random(seed)
    run = python_plan()
    for v in range(-9, 10):
        for g in range(-12, 13):
            st = run.new_plan()
            run.plan_start(st, -9, 9, -9, 9, 0, 1)
            run.plan_guess(st, g)
            probes = 0
            while True:
                x = int(run.plan_next(st))
                if st[run.PHASE] != run.MAIN:
                    break
                probes += 1
                # a fail-soft answer: at least x and at most v, or below x and at least v
                s = rng.randint(x, v) if v >= x else rng.randint(v, x - 1)
                run.plan_result(st, s, 0)
            assert st[run.PHASE] == run.DONE and st[run.LO] == v, (v, g)
            # from the guess g (clamped), one step a point at worst, and one more probe
            assert probes <= abs(max(-8, min(9, g)) - v) + 2, (v, g, probes)


@functools.cache
def solved(size: int, moves: int) -> tuple[Othello, Solution]:
    game = Othello(size, first(FEINSTEIN_LINE, moves) if moves else "")
    solution = solve(game, method="graph")
    assert isinstance(solution, Solution)
    return game, solution


def test_othello_guesses_zero_and_searches_from_it_match_the_4x4_solution():
    game, s = solved(4, 0)
    assert game.first_guess(game.initial()) == 0
    positions = random.Random(3).sample(list(s.positions()), 60) + [game.initial()]
    for pos in positions:
        r = search(game, pos, value_only=True, check=False)
        assert r.value == s.value(pos) and r.exact
    r = search(game, value_only=True, analyze=True, check=False)
    assert r.value == -8 and r.moves is not None  # White wins 11-3
    assert [(m.move, m.value) for m in r.moves] == \
        [(m, -s.value(game.play(game.initial(), m))) for m in game.moves(game.initial())]


def test_every_move_of_feinstein_line_near_its_end_by_analysis_matches_the_6x6_solution():
    game, s = solved(6, 21)  # 11 empty squares, White to move, 16-20 for White: +4
    start = game.initial()
    r = search(game, value_only=True, analyze=True, check=False)
    assert r.value == s.value(start) == 4 and r.moves is not None
    got = [(m.move, m.value) for m in r.moves]
    assert got == [(m, -s.value(game.play(start, m))) for m in game.moves(start)]
    assert max(m.value for m in r.moves) == 4
