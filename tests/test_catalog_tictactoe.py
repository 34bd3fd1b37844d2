"""What only tic-tac-toe has (the generic catalog checks are in test_catalog.py): the counts
the literature gives up to symmetry, Dudeney's replies to the openings, the hooks' rules on
random boards, move names, the drawing and the picture."""

from __future__ import annotations

import functools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import Value, solve
from perfectplay.catalog.tictactoe import GAME, TicTacToe
from perfectplay.catalog.tictactoe.rules import transform
from perfectplay.catalog.tictactoe.twin import TicTacToeTwin
from perfectplay.engine import CANNOT_LOSE, CANNOT_WIN, Solution


@functools.cache
def solved() -> tuple[TicTacToe, Solution]:
    game = GAME.build()
    solution = solve(game)
    assert isinstance(solution, Solution)
    return game, solution


def after(game: TicTacToe, names: str) -> int:
    pos = game.initial()
    for name in names.split():
        move = game.parse_move(name)
        assert move is not None and move in game.moves(pos), name
        pos = game.play(pos, move)
    return pos


def winner(game: TicTacToe, pos: int) -> str:
    """'X', 'O' or 'tie' at an ended position."""
    if game.outcome(pos) is Value.TIE:
        return "tie"
    board = game.board(pos)
    return "X" if board.count("X") > board.count("O") else "O"


def test_positions_up_to_symmetry_ply_by_ply_are_oeis_a008907() -> None:
    """OEIS A008907 (Russ Cox): 1, 3, 12, 38, 108, 174, 204, 153, 57, 15 positions after
    0..9 plies up to rotation and reflection, 765 in all; found here as the canonical codes
    of the 5,478 positions the solve reaches."""
    game, s = solved()
    classes = {game.canonical(p) for p in s.positions()}
    per_ply = Counter(game.board(c).count(".") for c in classes)
    assert [per_ply[9 - k] for k in range(10)] == [1, 3, 12, 38, 108, 174, 204, 153, 57, 15]
    assert len(classes) == 765 and len(s) == 5478


def test_ended_positions_up_to_symmetry_are_91_x_wins_44_o_wins_3_ties() -> None:
    """The 138 terminal boards up to symmetry (Wikipedia's "Tic-tac-toe", after Schaefer
    2002): X has won 91, O 44, and 3 are full without a line."""
    game, s = solved()
    ended = {game.canonical(p) for p in s.positions() if game.outcome(p) is not None}
    assert Counter(winner(game, p) for p in ended) == {"X": 91, "O": 44, "tie": 3}


def test_every_opening_ties_and_dudeneys_replies_are_forced() -> None:
    """Every first move ties in 9; against the centre O must take a corner, against a corner
    the centre (Dudeney's analysis): every other reply loses, in 6 plies."""
    game, s = solved()
    assert {(game.move_name(m.move), m.value, m.remoteness) for m in s.move_values()} == \
        {(name, Value.TIE, 9) for name in ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3",
                                            "c3")}
    for opening, saving in (("b2", {"a1", "c1", "a3", "c3"}), ("a1", {"b2"})):
        replies = {game.move_name(m.move): (m.value, m.remoteness)
                   for m in s.move_values(after(game, opening))}
        assert {n for n, (v, _) in replies.items() if v is Value.TIE} == saving
        assert all(r == (Value.LOSE, 6) for n, r in replies.items() if n not in saving)


lines = st.lists(st.integers(0, 8), min_size=0, max_size=9)


@settings(max_examples=60, deadline=None)
@given(lines)
def test_boards_agree_with_the_twin_and_every_image_is_worth_the_same(picks: list[int]) -> None:
    """Along a random line: the fast board and the twin's hold the same marks and end alike;
    the eight images of each position share its canonical code, value and remoteness; the
    search hooks' claims hold."""
    game, s = solved()
    twin = TicTacToeTwin()
    pos, state = game.initial(), twin.initial()
    steps: list[int | None] = [*picks, None]
    for pick in steps:
        board, _ = state
        assert game.board(pos) == "".join(c if c != " " else "." for row in board for c in row)
        assert game.outcome(pos) == twin.outcome(state)
        images = {transform(pos, k) for k in range(8)}
        assert {game.canonical(p) for p in images} == {game.canonical(pos)}
        assert {(s.value(p), s.remoteness(p)) for p in images} == \
            {(s.value(pos), s.remoteness(pos))}
        bounds = int(game.rules.static_bounds(pos))
        assert not (bounds & CANNOT_WIN and s.value(pos) is Value.WIN)
        assert not (bounds & CANNOT_LOSE and s.value(pos) is Value.LOSE)
        moves = game.moves(pos)
        if pick is None or not moves:
            break
        move = moves[pick % len(moves)]
        pos, state = game.play(pos, move), twin.play(state, (move // 3, move % 3))


def test_a_line_ends_the_game_and_a_full_board_ties() -> None:
    game = TicTacToe()
    won = after(game, "a1 a2 b1 b2 c1")  # X: a1 b1 c1, the top row
    assert game.outcome(won) is Value.LOSE and game.moves(won) == []
    assert game.draw(won).endswith("X has won")
    full = after(game, "b2 a1 c1 a3 a2 c2 b1 b3 c3")
    assert game.board(full) == "OXXXXOOOX"
    assert game.outcome(full) is Value.TIE and game.moves(full) == []
    assert game.draw(full).endswith("a tie")
    assert game.horizon(full) == 0 and game.horizon(game.initial()) == 9


def test_move_names_read_back_and_the_board_shows_them() -> None:
    game = TicTacToe()
    assert [game.move_name(m) for m in game.moves(game.initial())] == \
        ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    assert all(game.parse_move(game.move_name(m)) == m for m in range(9))
    assert game.parse_move(" B3 ") == 7
    for text in ("", "d1", "a4", "a", "b22", "1a", "no such move"):
        assert game.parse_move(text) is None, text
    assert game.draw(after(game, "c3")).splitlines() == \
        ["  a b c", "1 . . .", "2 . . .", "3 . . X", "O to move"]


def test_the_picture_draws() -> None:
    figure = pytest.importorskip("matplotlib.figure")
    game = TicTacToe()
    ax = figure.Figure().subplots()
    game.plot(after(game, "b2 a1"), ax)
    assert sorted(t.get_text() for t in ax.texts if t.get_text() in "XO") == ["O", "X"]
