"""What only hexapawn has (the generic catalog checks are in test_catalog.py): Gardner's
3 x 3 game lost by White whatever the first move, the published line, the fast game against
its twin on every board of at most 16 cells and along random lines on bigger ones, a rule
of one column derived by hand, the rules' edge cases, move names, drawing and picture."""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import Value, solve
from perfectplay.catalog.hexapawn import GAME, Hexapawn, HexapawnTwin
from perfectplay.catalog.hexapawn.rules import MAX_CELLS
from perfectplay.engine import Solution
from perfectplay.errors import InputError

#: Every board of at most 16 cells (the twin solves each in under a second).
BOARDS = [(w, h) for w in range(1, 9) for h in range(2, 9) if w * h <= 16]


@functools.cache
def solved(width: int, height: int) -> tuple[Hexapawn, Solution]:
    game = GAME.build(width=width, height=height)
    solution = solve(game)
    assert isinstance(solution, Solution)
    return game, solution


def line(game: Hexapawn, names: str) -> list[int]:
    """The positions along moves given by name, from the start."""
    positions = [game.initial()]
    for name in names.split():
        move = game.parse_move(name)
        assert move is not None and move in game.moves(positions[-1]), name
        positions.append(game.play(positions[-1], move))
    return positions


def board(rows: str, black_to_move: bool = False) -> int:
    """A code from a diagram, top row first ('W', 'B', '.'), for rules edge cases."""
    grid = rows.split()
    h, w = len(grid), len(grid[0])
    n = w * h
    code = (w - 1) << 56 | (h - 1) << 59 | int(black_to_move) << (2 * n)
    for i, row in enumerate(grid):
        r = h - 1 - i
        for c, piece in enumerate(row):
            if piece == "W":
                code |= 1 << (r * w + c)
            elif piece == "B":
                code |= 1 << (n + r * w + c)
    return code


def test_gardner_every_first_move_of_white_loses() -> None:
    """Gardner (1962): on 3 x 3 the second player wins, so each of White's three openings
    leaves Black a win."""
    game, s = solved(3, 3)
    values = {game.move_name(m.move): m.value for m in s.move_values()}
    assert values == {"a1-a2": Value.LOSE, "b1-b2": Value.LOSE, "c1-c2": Value.LOSE}


def test_the_published_line_is_perfect_play() -> None:
    """1.b2 axb2 2.cxb2 c2 3.a2 c1: every move of it is a best move (White delays the loss
    as long as it can, Black wins as fast), and it ends with Black on row 1 after 6 plies."""
    game, s = solved(3, 3)
    names = "b1-b2 a3xb2 c1xb2 c3-c2 a1-a2 c2-c1"
    positions = line(game, names)
    for pos, name in zip(positions, names.split(), strict=False):
        assert name in {game.move_name(m) for m in s.best_moves(pos)}, name
    assert [s.remoteness(p) for p in positions] == [6, 5, 4, 3, 2, 1, 0]
    assert game.outcome(positions[-1]) is Value.LOSE
    assert game.draw(positions[-1]).splitlines()[-1] == "Black has won"


@pytest.mark.parametrize(("width", "height"), BOARDS, ids=lambda v: str(v))
def test_the_fast_game_and_its_twin_solve_every_small_board_alike(width: int,
                                                                 height: int) -> None:
    """No source gives boards past 4 x 4: the plain twin is the check. Same start value,
    remoteness and number of positions on every board of at most 16 cells."""
    game, s = solved(width, height)
    t = solve(HexapawnTwin(width, height))
    assert (s.value(), s.remoteness(), len(s)) == (t.value(), t.remoteness(), len(t))


@pytest.mark.parametrize("height", range(2, 9))
def test_one_column_is_won_by_whoever_is_not_blocked_first(height: int) -> None:
    """Two pawns facing each other on one column close the gap of height - 2 cells one
    move at a time; the player to move at gap 0 is blocked and loses: White wins exactly
    when height - 2 is odd, after height - 2 plies."""
    _, s = solved(1, height)
    assert s.value() is (Value.WIN if height % 2 else Value.LOSE)
    assert s.remoteness() == height - 2


boards = st.tuples(st.integers(1, 8), st.integers(2, 8)).filter(
    lambda wh: wh[0] * wh[1] <= MAX_CELLS)


@settings(max_examples=40, deadline=None)
@given(boards, st.integers(0, 2**32))
def test_rules_agree_with_the_twin_along_random_lines_on_any_board(shape: tuple[int, int],
                                                                   seed: int) -> None:
    """On any board that fits (5 x 5 and 8 x 3 included, too big to solve in a test): at
    each position of a random game the two give the same move names, the same end, and
    the drawing shows the twin's board; the game ends within every position's horizon."""
    width, height = shape
    game, twin = Hexapawn(width, height), HexapawnTwin(width, height)
    rng = random.Random(seed)
    pos, state = game.initial(), twin.initial()
    horizons = []
    while True:
        rows, mover = state
        assert game.draw(pos).splitlines()[1:height + 1] == \
            [f"{r + 1} " + " ".join(rows[r]) for r in range(height - 1, -1, -1)]
        ours = {game.move_name(m): m for m in game.moves(pos)}
        theirs = {twin.move_name(m): m for m in twin.moves(state)}
        assert sorted(ours) == sorted(theirs)
        assert game.outcome(pos) == twin.outcome(state)
        assert game.canonical(game.canonical(pos)) == game.canonical(pos)
        horizons.append(game.horizon(pos))
        if not ours:
            break
        name = rng.choice(sorted(ours))
        pos, state = game.play(pos, ours[name]), twin.play(state, theirs[name])
    assert all(len(horizons) - 1 - i <= h for i, h in enumerate(horizons))


def test_pawns_step_straight_capture_diagonally_and_are_blocked() -> None:
    game = Hexapawn(3, 3)
    pos = board("BBB .W. W.W", black_to_move=True)
    assert sorted(game.move_name(m) for m in game.moves(pos)) == \
        ["a3-a2", "a3xb2", "c3-c2", "c3xb2"]  # b3 is blocked, no capture straight ahead
    pos = board("B.B .B. W.W")  # no double step: a1 and c1 go one row only
    assert sorted(game.move_name(m) for m in game.moves(pos)) == \
        ["a1-a2", "a1xb2", "c1-c2", "c1xb2"]


def test_the_three_ways_to_win() -> None:
    game = Hexapawn(3, 3)
    reached = board("W.B ... ..B", black_to_move=True)  # White stands on the top row
    assert game.outcome(reached) is Value.LOSE and game.moves(reached) == []
    captured = board("... W.. ...", black_to_move=True)  # Black has no pawn left
    assert game.outcome(captured) is None and game.moves(captured) == []
    blocked = board("B.B W.W ...", black_to_move=True)  # Black's pawns stand blocked
    assert game.moves(blocked) == []
    for pos in (reached, captured, blocked):
        assert game.draw(pos).endswith("White has won")


def test_move_names_read_back_and_nonsense_is_refused() -> None:
    game, s = solved(3, 3)
    for pos in s.positions():
        for move in game.moves(pos):
            assert game.parse_move(game.move_name(move)) == move
    assert game.parse_move(" B1 - B2 ") == game.parse_move("b1-b2") == 1 * 64 + 4
    for text in ("a1xa2", "a1-b2", "a1-a3", "a0-a1", "d1-d2", "a3-a4", "a1", "a1=a2",
                 "no such move", ""):
        assert game.parse_move(text) is None, text


def test_the_parameters_are_checked_up_front() -> None:
    assert GAME.build().initial() == Hexapawn(3, 3).initial()
    with pytest.raises(InputError, match="at most 27"):
        GAME.build(width=6, height=5)
    with pytest.raises(InputError, match="width must be at most 8"):
        GAME.build(width=9, height=3)
    with pytest.raises(InputError, match="height must be at least 2"):
        GAME.build(width=3, height=1)


def test_the_picture_draws() -> None:
    figure = pytest.importorskip("matplotlib.figure")
    game = Hexapawn(4, 4)
    ax = figure.Figure().subplots()
    game.plot(game.initial(), ax)
    assert ax.get_title() == "White to move"
    assert sum(len(c.get_offsets()) for c in ax.collections) == 8  # the eight pawns
