"""What only Dots and Boxes has (the generic catalog checks are in test_catalog.py): Wilson's
3 x 3 value (-3, every opening) by a value-only search, the first player's win on 2 x 2, the
margin's parity and range and its independence of who moves at every position of small
boards, the board's symmetries (a board and its transpose are worth the same), the search
hooks, the rules closing over a 55-62-line board against the shared ones, move names,
drawing and picture."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from perfectplay import search, solve
from perfectplay.catalog.dots_and_boxes import GAME, DotsAndBoxes
from perfectplay.catalog.dots_and_boxes.rules import SHARED, own_kernels
from perfectplay.errors import InputError


@functools.cache
def solved(rows: int, cols: int) -> tuple[DotsAndBoxes, object]:
    game = GAME.build(rows=rows, cols=cols)
    return game, solve(game)


def test_wilson_3x3_every_opening_loses_by_3() -> None:
    """Wilson's analysis: the 3 x 3 boxes game is -3 for the first player, whatever line
    opens it (one line of each of the four kinds the board's symmetries leave; the search
    hook lists exactly those at the start, nearest the centre first). Value-only search:
    the published result gives no remoteness (test_catalog.py's reproduction, which walks
    the remoteness too, is left to the benchmark)."""
    game = GAME.build(rows=3, cols=3)
    found = search(game, remoteness=False, table_mb=32)
    assert found.exact and found.value == -3
    buf = np.empty(game.max_moves + 1, np.int64)
    openings = buf[:int(game.rules.search_moves(np.int64(game.initial()), buf))].tolist()
    assert [game.move_name(m) for m in openings] == ["b2-c2", "b1-c1", "a2-b2", "a1-b1"]
    for move in openings:
        after = game.play(game.initial(), move)
        reply = search(game, after, remoteness=False, table_mb=32)
        assert reply.value == 3, game.move_name(move)  # for the second player, to move


def test_the_first_player_wins_2x2() -> None:
    """Winning Ways (1982): the first player wins the 2 x 2 (9-dot) game; by 3 boxes to 1."""
    _, solution = solved(2, 2)
    assert solution.value() == 2


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (1, 4), (2, 1)])
def test_margins_keep_parity_range_and_ignore_who_moves(rows: int, cols: int) -> None:
    """At every position: the margin still to win has the parity of the boxes still open
    and lies within them (``margin_bound``); the same lines with the other player to move
    are worth the same to the mover; every image under the board's symmetries too."""
    game, solution = solved(rows, cols)
    seen = set(solution)
    for pos in seen:
        value = solution.value(pos)
        left = int(game.rules.margin_bound(np.int64(pos)))
        assert abs(value) <= left and (value - left) % 2 == 0, game.draw(pos)
        if pos ^ 1 in seen:
            assert solution.value(pos ^ 1) == value
        image = game.canonical(pos)
        if image in seen:
            assert solution.value(image) == value


@pytest.mark.parametrize(("rows", "cols"), [(1, 2), (1, 3), (1, 5), (2, 3)])
def test_a_board_and_its_transpose_are_worth_the_same(rows: int, cols: int) -> None:
    _, wide = solved(rows, cols)
    _, tall = solved(cols, rows)
    assert (wide.value(), wide.remoteness()) == (tall.value(), tall.remoteness())


def test_one_box_goes_to_the_second_player() -> None:
    """1 x 1: no line completes the box before the fourth, and the fourth line is the second
    player's (the turn passes after each of the first three)."""
    game, solution = solved(1, 1)
    assert (solution.value(), solution.remoteness()) == (-1, 4)
    code = game.position("a1-b1 a2-b2 a1-a2")
    assert game.player(code) == 1 and game.payoff(code, game.parse_move("b1-b2")) == 1


def test_search_lists_captures_first_and_one_of_each_mirrored_pair() -> None:
    game = DotsAndBoxes(2, 2)
    buf = np.empty(game.max_moves + 1, np.int64)
    start = np.int64(game.initial())
    listed = buf[:int(game.rules.search_moves(start, buf))].tolist()
    assert [game.move_name(m) for m in listed] == ["a2-b2", "a1-b1"]  # inner (two boxes) first
    code = game.position("a1-b1 b1-b2 a2-b2")  # box a1 has three sides: a1-a2 takes it
    listed = buf[:int(game.rules.search_moves(np.int64(code), buf))].tolist()
    assert game.move_name(listed[0]) == "a1-a2"
    assert len(listed) == 1  # a box on the border is taken at once (tests/test_dots_*.py)


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (2, 4)])
def test_own_rules_agree_with_the_shared_ones(rows: int, cols: int) -> None:
    """The rules compiled for one board (as a 55-62-line board gets them) answer as the
    shared ones do, position by position along random lines (codes without the shape)."""
    game = DotsAndBoxes(rows, cols)
    own = own_kernels(game.board)
    shape = game.shape_bits
    rng = random.Random(rows * 10 + cols)
    a = np.empty(game.max_moves + 1, np.int64)
    b = np.empty(game.max_moves + 1, np.int64)
    for _ in range(6):
        code = game.initial()
        while game.outcome(code) is None:
            mine = np.int64(code ^ shape)
            shared = np.int64(code)
            assert int(own.canonical(mine)) == int(SHARED.canonical(shared)) ^ shape
            assert own.margin_bound(mine) == SHARED.margin_bound(shared)
            assert own.tier(mine) == SHARED.tier(shared)
            k = int(own.search_moves(mine, a))
            assert k == SHARED.search_moves(shared, b) and list(a[:k]) == list(b[:k])
            k = int(own.moves(mine, a))
            assert sorted(a[:k].tolist()) == sorted(game.moves(code))
            move = rng.choice(game.moves(code))
            child, pay = own.step(mine, np.int64(move))
            assert (int(child) ^ shape, int(pay)) == (game.play(code, move),
                                                     game.payoff(code, move))
            code = game.play(code, move)
        assert own.outcome(np.int64(code ^ shape)) != 0


def test_a_60_line_board_uses_its_own_rules() -> None:
    game = DotsAndBoxes(5, 5)
    start = game.initial()
    assert start == 0 and len(game.moves(start)) == 60
    code = game.position("a1-b1 f6-f5")
    assert game.drawn(code) == {game.parse_move("a1-b1"), game.parse_move("f5-f6")}
    assert game.canonical(code) == game.canonical(game.position("f6-e6 a1-a2"))


def test_move_names_read_back() -> None:
    game = DotsAndBoxes(2, 3)
    for move in game.moves(game.initial()):
        assert game.parse_move(game.move_name(move)) == move
    assert game.parse_move("B1-a1") == game.parse_move("a1-b1") == 0
    assert game.move_name(game.board.v(1, 3)) == "d2-d3"


@pytest.mark.parametrize("text", ["a1-b2", "a1-c1", "a1-a1", "e1-e2", "a0-a1", "a1", "",
                                  "no such move"])
def test_text_that_names_no_line_is_refused(text: str) -> None:
    assert DotsAndBoxes(2, 3).parse_move(text) is None


def test_the_board_is_drawn_with_coordinates() -> None:
    game = DotsAndBoxes(2, 2)
    code = game.position("a1-b1 b1-b2 a2-b2 a1-a2")  # the last line takes box a1
    assert game.draw(code) == "\n".join([
        "3 +   +   +",
        "",
        "2 +---+   +",
        "  | # |",
        "1 +---+   +",
        "  a   b   c",
        "second player (B) to move"])


def test_the_picture_draws() -> None:
    figure = pytest.importorskip("matplotlib.figure")
    ax = figure.Figure().subplots()
    game = DotsAndBoxes(2, 2)
    game.plot(game.position("a1-b1 b1-b2 a2-b2 a1-a2"), ax)
    assert ax.get_title() == "second player (B) to move"


def test_boards_beyond_62_lines_are_refused_up_front() -> None:
    with pytest.raises(InputError, match="71 lines; at most 62"):
        GAME.build(rows=5, cols=6)
