"""The question asked, and no more (issue 69): ``search(value_only=True)`` proves a win/lose
game's winner and stops (no remoteness), and a game that declares ``cannot_tie`` turns a
proven "not a loss" into a win (one null window where the exact score takes several), which
check_game refutes by any tie it meets. Answers against the strong solution; the plan's
steps against an oracle of fail-soft answers."""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from perfectplay import Value, search, solve
from perfectplay.catalog.domineering import Domineering
from perfectplay.engine import MUST_LOSE, CompiledGame, check_game
from perfectplay.engine.proof import plan as pp
from perfectplay.engine.protocol import cannot_tie
from perfectplay.games import connect4, kalah, tictactoe

MATE = pp.MATE


@functools.cache
def solved(rows: int, cols: int) -> tuple[Domineering, object]:
    game = Domineering(rows, cols)
    return game, solve(game)


def _answer(st, v: int, rng: random.Random) -> int:
    """Answer the plan's probes as a fail-soft search of a position of score ``v`` may, until
    it ends: the probes made."""
    for probes in range(200):
        x = int(pp.plan_next(st))
        if st[pp.PHASE] not in (pp.QUICK, pp.MAIN):
            return probes
        s = rng.randint(x, v) if v >= x else rng.randint(v, x - 1)
        pp.plan_result(st, s, 7 if s >= x else -1)
    raise AssertionError("the plan did not end in 200 probes")


def _scores(left: int, ties: bool) -> list[int]:
    """Every score of a position with at most ``left`` plies left (with or without a tie)."""
    return ([MATE - r for r in range(1, left + 1)] + ([0] if ties else [])
            + [-(MATE - r) for r in range(1, left + 1)])


# -- the plan -----------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.integers(1, 60), st.data(), st.integers(0, 2**31), st.booleans())
def test_a_value_plan_ends_at_the_sign_in_one_probe_when_no_tie_can_be(left, data, seed,
                                                                        no_tie):
    """The value alone: whatever fail-soft bounds the probes answer, the plan ends with the
    score's sign proven (a tie pinned), in one probe when the game cannot tie, two at most
    otherwise; the bounds it keeps hold."""
    v = data.draw(st.sampled_from(_scores(left, not no_tie)))
    plan = pp.new_plan()
    top = MATE - 1
    pp.plan_start(plan, -top, top, -top, top, 0, 0)
    pp.plan_value(plan, 1, int(no_tie), MATE - left)
    probes = _answer(plan, v, random.Random(seed))
    lo, hi = int(plan[pp.LO]), int(plan[pp.HI])
    assert lo <= v <= hi
    if v == 0:
        assert plan[pp.PHASE] == pp.DONE and lo == hi == 0
    else:
        assert plan[pp.PHASE] in (pp.VALUE, pp.DONE) and (lo > 0 if v > 0 else hi < 0)
    assert probes <= (1 if no_tie else 2)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 60), st.data(), st.integers(0, 2**31))
def test_a_game_that_cannot_tie_still_has_its_exact_score_pinned(left, data, seed):
    """Without ``sign``, ``no_tie`` only closes the gap between a loss and a win: the plan
    (with the quick probes) still ends DONE at exactly the score."""
    v = data.draw(st.sampled_from(_scores(left, False)))
    plan = pp.new_plan()
    top = MATE - 1
    pp.plan_start(plan, -top, top, -top, top, int(pp.quick_left(False, left)), 0)
    pp.plan_value(plan, 0, 1, MATE - left)
    _answer(plan, v, random.Random(seed))
    assert plan[pp.PHASE] == pp.DONE and plan[pp.LO] == plan[pp.HI] == v


# -- search, against the strong solution --------------------------------------------------
@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (5, 4)])
def test_value_only_search_gives_the_strong_solutions_winner_in_one_probe(rows, cols):
    """Every 40th position of 4 x 4 and 5 x 4: the value the strong solution gives (no
    remoteness unless a bound happens to be exact), one null window (Domineering cannot
    tie), and a best move that keeps the value."""
    game, solution = solved(rows, cols)
    for i, pos in enumerate(solution):
        if i % 40 or not game.moves(pos):
            continue
        r = search(game, pos, value_only=True, table_mb=1)
        assert r.exact and r.value is solution.value(pos), pos
        assert r.remoteness in (None, solution.remoteness(pos))  # known when a bound is exact
        assert r.probes == 1
        values = {m.move: m.value for m in solution.move_values(pos)}  # for the mover
        assert values[r.best_move] is r.value, game.draw(pos)


def test_value_only_analysis_gives_every_moves_winner():
    game, solution = solved(4, 4)
    pos = game.position("b1-b2")
    r = search(game, pos, value_only=True, analyze=True, table_mb=1)
    got = {m.move: m.value for m in r.moves}
    assert got == {m.move: m.value for m in solution.move_values(pos)}
    assert len(got) == 8 and set(got.values()) == {Value.WIN, Value.LOSE}


@pytest.mark.parametrize("target", [lambda: connect4(width=4, height=4), tictactoe])
def test_value_only_on_games_that_can_tie(target):
    """Connect Four 4 x 4 (compiled, ties) and tic-tac-toe (Python): the strong solution's
    value at random positions, a tie pinned (two null windows at most)."""
    game = target()
    ref = solve(game)
    rng = random.Random(69)
    for _ in range(12):
        pos = game.initial()
        for _ in range(rng.randrange(9)):
            moves = list(game.moves(pos))
            if game.outcome(pos) is not None or not moves:
                break
            pos = game.play(pos, rng.choice(moves))
        r = search(game, pos, value_only=True, table_mb=1)
        assert r.exact and r.value is ref.value(pos), pos
        assert r.remoteness in (None, ref.remoteness(pos))
        assert r.probes <= 2


def test_value_only_is_the_margin_in_a_scored_game():
    game = kalah(houses=3, seeds=2)
    r = search(game, value_only=True, table_mb=1)
    assert r.exact and r.value == solve(game).value()


def test_a_stopped_search_of_a_game_that_cannot_tie_names_the_winner_it_proved():
    """With the remoteness asked, a search stopped once "not a loss" is proven says the
    value (a win), not a bound, and is not exact: its remoteness was not proven."""
    game, solution = solved(5, 4)
    seen = set()
    for limit in (40, 80, 160, 320, 640, 1280):
        r = search(game, node_limit=limit, table_mb=1)
        if r.value is not None:
            assert r.value is solution.value()
            seen.add(r.exact)
            if not r.exact:
                assert r.remoteness is None and "remoteness was not" in r.note
    assert seen


# -- the declaration, checked ---------------------------------------------------------------
def test_domineering_declares_it_cannot_tie_and_check_game_agrees():
    game = Domineering(3, 4)
    assert cannot_tie(game) and not cannot_tie(connect4(width=4, height=4))
    report = check_game(game)
    assert report.ok and report.complete


def test_a_false_cannot_tie_is_refuted_by_a_tie():
    game = tictactoe()
    game.cannot_tie = True  # type: ignore[attr-defined]
    quick = check_game(game, quick=True)
    assert not quick.ok and any("declares cannot_tie" in p for p in quick.problems)
    whole = check_game(game)
    assert not whole.ok and any("ends in a tie" in p for p in whole.problems)


def test_a_scored_game_cannot_declare_it():
    game = kalah(houses=2, seeds=1)
    game.cannot_tie = True  # type: ignore[attr-defined]
    report = check_game(game)
    assert any("cannot_tie is declared by a scored game" in p for p in report.problems)
    assert not cannot_tie(game)


def _rebuilt(game: Domineering, bounds) -> CompiledGame:
    """Domineering 3 x 4 from its compiled rules with ``bounds`` as its static bounds."""
    r = game.rules
    return CompiledGame(game.start_code, r.moves, r.play, r.outcome, max_moves=game.max_moves,
                        tier=r.tier, canonical=r.canonical, horizon=r.horizon,
                        search_moves=r.search_moves, static_bounds=bounds,
                        name="Domineering(3, 4) (mutant)")


def test_a_false_must_lose_is_caught():
    """A MUST_LOSE claimed at some positions it does not hold: check_game names the hook."""
    game = Domineering(3, 4)
    base = game.rules.static_bounds

    @njit
    def lying(pos):
        return base(pos) | (MUST_LOSE if pos % 7 == 3 else 0)

    report = check_game(_rebuilt(game, lying))
    assert any("claims MUST_LOSE" in p for p in report.problems)
