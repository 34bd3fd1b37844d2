"""Othello's midgame move order (``search_moves`` by a shallow search over a static
evaluation): it lists exactly the legal moves, its evaluation is a zero-sum estimate, and
the proof search through it agrees with strong solutions (4x4 whole; 6x6 near the end of
Feinstein's line)."""

from __future__ import annotations

import functools
import random

import numpy as np

from perfectplay import solve
from perfectplay.catalog.othello import FEINSTEIN_LINE, Othello, first
from perfectplay.catalog.othello.rules import (
    CORNERS,
    MASKS,
    PASS,
    XPAIRS,
    evaluate,
    search_moves,
    sides,
)
from perfectplay.engine import Solution
from perfectplay.engine.proof.batch import search_many


def random_positions(size: int, count: int, seed: int) -> list[int]:
    """Positions along random games of ``size`` (every ply of each game)."""
    game, rng, out = Othello(size), random.Random(seed), []
    while len(out) < count:
        pos = game.initial()
        while game.outcome(pos) is None and len(out) < count:
            out.append(pos)
            pos = game.play(pos, rng.choice(game.moves(pos)))
    return out


def test_search_moves_list_every_legal_move_once_and_pass_alone():
    buf = np.empty(40, np.int64)
    passes = 0
    for size, seed in ((4, 1), (6, 2), (6, 3)):
        game = Othello(size)
        for pos in random_positions(size, 300, seed):
            k = int(search_moves(np.int64(pos), buf))
            assert sorted(int(m) for m in buf[:k]) == sorted(game.moves(pos)), pos
            passes += k == 1 and int(buf[0]) == PASS
    assert passes > 0  # positions where the mover must pass were met


def test_the_evaluation_is_zero_sum():
    for pos in random_positions(6, 200, 4):
        me, opp, n = sides(np.int64(pos))
        args = (MASKS[n], CORNERS[n], XPAIRS[n])
        assert evaluate(me, opp, *args) == -evaluate(opp, me, *args)


@functools.cache
def solved(moves: int) -> tuple[Othello, Solution]:
    game = Othello(6, first(FEINSTEIN_LINE, moves))
    solution = solve(game, method="graph")
    assert isinstance(solution, Solution)
    return game, solution


def test_search_through_the_order_matches_the_strong_solution_near_the_end_of_6x6():
    game, s = solved(21)  # 11 empty squares: the order sorts every position above the gate
    assert s.value(game.initial()) == 4  # Feinstein's 16-20, White to move
    positions = random.Random(5).sample(list(s.positions()), 150) + [game.initial()]
    got = [r.value for r in search_many(game, positions, check=False, remoteness=False)]
    assert got == [s.value(p) for p in positions]
