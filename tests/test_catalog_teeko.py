"""What only Teeko has (the generic catalog checks are in test_catalog.py): Steele's goal
counts (44 standard, 58 advanced), the fast rules against the twin along random 5x5 games,
drops turning into steps, wins by a drop and by a step, the symmetries, the tier a store
needs, the size estimate, move names, drawing and picture."""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import Value, check_game, solve
from perfectplay.catalog.teeko import GAME, Teeko, TeekoTwin, positions_estimate
from perfectplay.engine import Solution
from perfectplay.errors import InputError


def cells(game: Teeko, names: str) -> int:
    """The mask of cells named ``a1 b2 ...``."""
    mask = 0
    for name in names.split():
        move = game.parse_move(name)
        assert move is not None and move < 32
        mask |= 1 << move
    return mask


@functools.cache
def solved(size: int, pieces: int) -> tuple[Teeko, Solution]:
    game = Teeko(size, pieces)
    solution = solve(game)
    assert isinstance(solution, Solution)
    return game, solution


def test_steele_goal_counts_44_standard_and_58_advanced():
    assert Teeko().goal_count() == 44
    assert Teeko(advanced=True).goal_count() == 58
    assert Teeko(4, 4).goal_count() == 4 + 4 + 2 + 9  # rows, columns, diagonals, 2 x 2


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_5x5_rules_agree_with_the_twin_along_random_games(seed, advanced):
    fast, twin = Teeko(advanced=advanced), TeekoTwin(advanced=advanced)
    rng = random.Random(seed)
    p, q = fast.initial(), twin.initial()
    for _ in range(60):
        ours = sorted(fast.move_name(m) for m in fast.moves(p))
        assert ours == sorted(twin.move_name(m) for m in twin.moves(q))
        assert fast.outcome(p) == twin.outcome(q)
        if not ours:
            assert fast.outcome(p) is Value.LOSE  # a goal, never a blocked player
            break
        name = rng.choice(ours)
        p = fast.play(p, fast.parse_move(name))
        q = twin.play(q, next(m for m in twin.moves(q) if twin.move_name(m) == name))


def test_drops_then_steps_and_a_win_by_a_drop_or_a_step():
    game = Teeko()
    pos = game.initial()
    for name in ["a1", "e5", "b1", "e4", "c1", "d5"]:
        pos = game.play(pos, game.parse_move(name))
    assert "Black (X) drops" in game.draw(pos)
    assert game.outcome(game.play(pos, game.parse_move("d1"))) is Value.LOSE  # four in a row
    pos = game.play(pos, game.parse_move("a5"))
    pos = game.play(pos, game.parse_move("a4"))  # White's fourth: both have dropped all
    assert "Black (X) moves" in game.draw(pos)
    names = {game.move_name(m) for m in game.moves(pos)}
    assert "c1-d1" in names and "a1-b2" in names and "a1-c3" not in names
    assert all("-" in n for n in names)
    assert "a5-b4" in names and "a5-a4" not in names  # a4 is White's
    pos = game.play(pos, game.parse_move("a5-b5"))
    assert game.outcome(game.play(pos, game.parse_move("a4-b3"))) is None
    # White on d4 e4 d5 e5, a 2 x 2 square: Black, to move, has lost
    square = game.code(cells(game, "a1 b1 c1 b5"), cells(game, "d4 e4 d5 e5"), 0)
    assert game.outcome(square) is Value.LOSE and game.moves(square) == []


def test_advanced_squares_of_any_size_win():
    corners = "a1 e1 a5 e5"
    for advanced, ends in ((False, None), (True, Value.LOSE)):
        game = Teeko(advanced=advanced)
        pos = game.code(cells(game, "b2 c3 d2 b4"), cells(game, corners), 0)
        assert game.outcome(pos) is ends


def test_codes_round_trip_and_canonical_is_a_symmetry_of_the_rules():
    game = Teeko()
    rng = random.Random(7)
    pos = game.initial()
    for _ in range(40):
        black, white, turn = game.board(pos)
        assert game.code(black, white, turn) == pos
        c = game.canonical(pos)
        assert game.canonical(c) == c and game.outcome(c) == game.outcome(pos)
        assert len(game.moves(c)) == len(game.moves(pos))
        assert sorted(game.canonical(game.play(c, m)) for m in game.moves(c)) == \
            sorted(game.canonical(game.play(pos, m)) for m in game.moves(pos))
        if not game.moves(pos):
            break
        pos = game.play(pos, rng.choice(game.moves(pos)))
    # a drop on a corner and on the centre: 4 corners are one position up to symmetry
    start = game.initial()
    assert len({game.canonical(game.play(start, m)) for m in game.moves(start)}) == 6


def test_the_store_tier_never_falls_and_steps_stay_in_the_last_tier():
    game = GAME.build(size=3, pieces=4, tiers=True)  # solve 'teeko(..., tiers=True)' --store
    report = check_game(game, max_positions=20_000, tiers_rise=False)
    assert report.ok, str(report)
    assert game.tiered and not Teeko(3, 4).tiered  # in memory, tiers must rise on every move


@pytest.mark.parametrize(("size", "pieces", "blocked"), [(3, 3, False), (4, 3, False),
                                                         (3, 4, True)])
def test_a_blocked_player_loses_and_is_blocked_only_with_one_empty_cell(size, pieces,
                                                                         blocked):
    """On 3 x 3 with 4 pieces one cell is empty and a player can be walled in: a loss, as
    the twin says too (test_catalog). Elsewhere it never happens (nor on 5 x 5: four pieces
    that are not a goal touch at least five other cells, more than White's four fill)."""
    game, s = solved(size, pieces)
    positions = list(s.positions())
    assert len(positions) == len(s)
    stuck = [p for p in positions if game.outcome(p) is None and not game.moves(p)]
    assert bool(stuck) is blocked
    assert all(s.value(p) is Value.LOSE and s.remoteness(p) == 0 for p in stuck)


def test_4x4_with_three_pieces_is_won_by_the_third_drop():
    """Three in a row on 4 x 4: Black's first two drops make two threats White cannot both
    meet; 363,129 positions, the win on ply 5 (Black's third drop)."""
    game, s = solved(4, 3)
    start = game.initial()
    assert (s.value(start), s.remoteness(start), len(s)) == (Value.WIN, 5, 363_129)
    pos = start
    while game.moves(pos):
        pos = game.play(pos, s.best_move(pos))
    assert game.outcome(pos) is Value.LOSE and "White (O) drops" in game.draw(pos)


def test_the_size_estimate_is_the_published_arithmetic():
    dropping, moving = positions_estimate(5, 4)
    assert moving == 2 * 12_650 * 5_985 == 151_420_500
    assert dropping == 20_981_226
    assert "151,420,500" in GAME.size({"size": 5, "pieces": 4})


def test_move_names_and_what_is_not_a_move():
    game = Teeko()
    assert game.parse_move("C3") == 12 and game.move_name(12) == "c3"
    step = game.parse_move(" c3-D4 ")
    assert step is not None and game.move_name(step) == "c3-d4"
    for text in ("f1", "a6", "a1-c3", "a1-a1", "c3-", "-d4", "c3d4", "", "a1-b2-c3"):
        assert game.parse_move(text) is None, text


def test_bad_parameters_are_refused_with_a_sentence():
    with pytest.raises(InputError, match="a line of 5 does not fit"):
        GAME.build(size=4, pieces=5)
    with pytest.raises(InputError, match="leave no empty cell"):
        GAME.build(size=3, pieces=5)
    with pytest.raises(InputError, match="at most 5"):
        GAME.build(size=6)
    with pytest.raises(InputError, match="advanced must be a bool"):
        GAME.build(advanced=1)


def test_draw_shows_coordinates_pieces_and_the_phase():
    game = Teeko(3, 3)
    pos = game.play(game.play(game.initial(), game.parse_move("b2")), game.parse_move("a1"))
    assert game.draw(pos).splitlines() == ["  a b c", "1 O . .", "2 . X .", "3 . . .",
                                           "Black (X) drops"]


def test_plot_draws_the_board():
    figure = pytest.importorskip("matplotlib.figure")
    ax = figure.Figure().subplots()
    game = Teeko()
    pos = game.play(game.initial(), game.parse_move("c3"))
    game.plot(pos, ax)
    assert len(ax.collections) == 1 and len(ax.texts) == 10
