"""What only Othello has (the generic catalog checks are in test_catalog.py): the published
lines (Feinstein's 6x6 16-20, Takizawa's 8x8 32-32) replayed under our rules, 4x4's 11-3
along the strong solution, the 8x8 kernels (bit 63 is the sign) against the twin along
random games, the symmetries, the search order, passes, move names, drawing and picture."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import check_game, solve
from perfectplay.catalog.othello import (
    FEINSTEIN_LINE,
    GAME,
    PASS,
    TAKIZAWA_LINE,
    Othello,
    OthelloBoard8,
    OthelloTwin,
    first,
)
from perfectplay.catalog.othello.rules import (
    CORNERS,
    REV,
    least_image,
    parse_line,
    search_moves,
    square,
)
from perfectplay.engine import Solution
from perfectplay.errors import InputError


@functools.cache
def solved4() -> tuple[Othello, Solution]:
    game = Othello(4)
    solution = solve(game, method="graph")
    assert isinstance(solution, Solution)
    return game, solution


def test_feinstein_line_is_legal_and_ends_16_20_with_black_passing_once():
    game = GAME.build(size=6, opening=FEINSTEIN_LINE)
    end = game.initial()
    assert game.outcome(end) == 4  # White is to move at the end: +4 for White
    assert game.discs(end) == (16, 20)
    before = GAME.build(size=6, opening=first(FEINSTEIN_LINE, 30)).initial()
    assert game.moves(before) == [PASS] and game.move_name(PASS) == "pass"
    assert game.play(before, PASS) == before ^ 1  # a pass changes the turn only


def test_takizawa_line_is_legal_on_8x8_and_ends_in_a_32_32_draw():
    game = GAME.build(size=8, opening=TAKIZAWA_LINE)
    assert isinstance(game, OthelloBoard8)
    end = game.initial()
    assert game.outcome(end) == 0 and game.discs(end) == (32, 32) and game.moves(end) == []


def test_the_8x8_python_door_passes_the_check_and_solves_takizawa_endgame_as_a_draw():
    game = GAME.build(size=8, opening=first(TAKIZAWA_LINE, 52))  # 8 empty squares
    report = check_game(game, max_positions=20_000)
    assert report.ok and not report.warnings, str(report)
    s = solve(game)
    assert s.value() == 0 and len(s) == 5_352


def test_4x4_white_wins_11_3_along_the_strong_solution():
    game, s = solved4()
    pos = game.initial()
    assert s.value(pos) == -8 and s.remoteness(pos) == 10
    while game.outcome(pos) is None:
        pos = game.play(pos, s.best_move(pos))
    assert game.discs(pos) == (3, 11)
    start = game.initial()
    assert [mv.value for mv in s.move_values(start)] == [-8] * 4  # one move, up to symmetry


def random_game(seed: int, size: int) -> list[str]:
    """Move names of a random game played by the twin to the end."""
    twin = OthelloTwin(size)
    rng = random.Random(seed)
    pos = twin.initial()
    names = []
    while (moves := twin.moves(pos)):
        move = rng.choice(moves)
        names.append(twin.move_name(move))
        pos = twin.play(pos, move)
    return names


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6))
def test_8x8_kernels_agree_with_the_twin_along_random_games(seed):
    """The sign bit is h8: random 8x8 games reach it; at every position the two readings
    of the rules list the same moves, and end with the same margin."""
    names = random_game(seed, 8)
    fast, twin = OthelloBoard8(), OthelloTwin(8)
    p, q = fast.initial(), twin.initial()
    for name in names + [None]:
        assert sorted(fast.move_name(m) for m in fast.moves(p)) == \
            sorted(twin.move_name(m) for m in twin.moves(q))
        assert fast.outcome(p) == twin.outcome(q)
        assert sorted(fast.search_moves(p)) == sorted(fast.moves(p)) or not fast.moves(p)
        if name is None:
            break
        p = fast.play(p, fast.parse_move(name))
        q = twin.play(q, next(m for m in twin.moves(q) if twin.move_name(m) == name))
    assert fast.outcome(p) is not None


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([4, 6]))
def test_compiled_codes_round_trip_and_canonical_is_a_symmetry(seed, size):
    game = Othello(size)
    names = random_game(seed, size)
    pos = game.initial()
    for name in names:
        black, white, turn = game.board(pos)
        assert game.code(black, white, turn) == pos
        c = game.canonical(pos)
        assert game.canonical(c) == c and game.outcome(c) == game.outcome(pos)
        assert len(game.moves(c)) == len(game.moves(pos))
        assert {game.canonical(game.code(b, w, turn)) for b, w in images(black, white, size)} \
            == {c}
        out = np.empty(40, np.int64)
        k = search_moves(np.int64(pos), out)
        assert sorted(out[:k].tolist()) == sorted(game.moves(pos))
        pos = game.play(pos, game.parse_move(name))


def images(black: int, white: int, n: int) -> set[tuple[int, int]]:
    """The 8 images of a board under the symmetries of the square, square by square."""
    out = set()
    for s in range(8):
        def move(bits: int, s: int = s) -> int:
            img = 0
            for r in range(n):
                for c in range(n):
                    if bits >> square(r, c) & 1:
                        i, j = (c, r) if s & 4 else (r, c)
                        i, j = (n - 1 - i if s & 2 else i), (n - 1 - j if s & 1 else j)
                        img |= 1 << square(i, j)
            return img
        out.add((move(black), move(white)))
    return out


def test_the_start_is_symmetric_under_four_of_the_eight_symmetries():
    for size in (4, 6):
        game = Othello(size)
        black, white, _ = game.board(game.initial())
        assert len(images(black, white, size)) == 2  # 8 symmetries / 4 that fix it
        firsts = game.moves(game.initial())
        assert len(firsts) == 4
        assert len({game.canonical(game.play(game.initial(), m)) for m in firsts}) == 1
        least = least_image(np.int64(black), np.int64(white), size, REV)
        assert (int(least[0]), int(least[1])) == min(images(black, white, size))


def test_search_moves_put_a_corner_first_and_x_squares_last():
    # Black to move on 4x4: a1 (a corner) and b2's neighbours are playable
    game = Othello(4)
    black = 1 << square(2, 2)
    white = (1 << square(1, 1)) | (1 << square(1, 2)) | (1 << square(2, 1))
    pos = game.code(black, white, 0)
    out = np.empty(16, np.int64)
    k = search_moves(np.int64(pos), out)
    names = [game.move_name(int(m)) for m in out[:k]]
    assert sorted(names) == sorted(game.move_name(m) for m in game.moves(pos))
    assert names[0] == "a1" and int(CORNERS[4]) >> game.parse_move("a1") & 1


def test_move_names_and_what_is_not_a_move():
    game = Othello(6)
    assert game.parse_move(" D3 ") == square(2, 3) and game.move_name(square(2, 3)) == "d3"
    assert game.parse_move("pass") == PASS and game.move_name(PASS) == "pass"
    for text in ("g1", "a7", "a0", "a01", "d", "3d", "", "pass!"):
        assert game.parse_move(text) is None, text
    assert OthelloBoard8().parse_move("h8") == 63
    assert parse_line("c4d3 pass, e6", 8) == [26, 19, PASS, 44]
    assert parse_line("c4 x9", 8) is None


def test_bad_parameters_are_refused_with_a_sentence():
    with pytest.raises(InputError, match="4x4, 6x6 or 8x8"):
        GAME.build(size=5)
    with pytest.raises(InputError, match="opening must be moves"):
        GAME.build(size=6, opening="c2 zz")
    with pytest.raises(InputError, match="move 2, c2, is not legal for White"):
        GAME.build(size=6, opening="c2 c2")
    with pytest.raises(InputError, match="at most 8"):
        GAME.build(size=10)


def test_draw_shows_coordinates_discs_and_the_turn():
    game = Othello(4)
    assert game.draw(game.initial()).splitlines() == [
        "  a b c d",
        "1 . . . .",
        "2 . O X .",
        "3 . X O .",
        "4 . . . .",
        "Black (X) to move; X 2, O 2"]
    assert "White (O) to move" in game.draw(game.play(game.initial(), game.parse_move("b1")))


def test_plot_draws_the_board():
    figure = pytest.importorskip("matplotlib.figure")
    ax = figure.Figure().subplots()
    game = Othello(6)
    game.plot(game.initial(), ax)
    assert len(ax.collections) == 2 and len(ax.texts) == 12
