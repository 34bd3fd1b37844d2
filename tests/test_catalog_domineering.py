"""What only Domineering has (the generic catalog checks are in test_catalog.py): Uiterwijk's
theorems and Winning Ways' values of a single row or column, the search hooks' claims at
every position of boards bigger than check_game walks, proof search against the strong
solution, the rules closing over a 57-64-cell board against the shared ones, the 64-cell
board's codes, move names, drawing and picture."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from perfectplay import Value, search, solve
from perfectplay.catalog.domineering import GAME, THEOREMS, Domineering, DomineeringTwin
from perfectplay.catalog.domineering.rules import SHARED, own_kernels
from perfectplay.engine import CANNOT_LOSE, CANNOT_WIN, MUST_LOSE
from perfectplay.errors import InputError


@functools.cache
def solved(rows: int, cols: int) -> tuple[Domineering, object]:
    game = GAME.build(rows=rows, cols=cols)
    return game, solve(game)


def test_uiterwijks_theorems_by_strong_solution_on_boards_up_to_24_cells() -> None:
    """Uiterwijk (2014): with Vertical first, m x 3 and 2k x odd are Vertical's, 3 x n
    (n > 3), 5 x 2k, 9 x 2k and m x 4k (m = 3, 7, 11) Horizontal's; here by a strong solve
    (the search reproduces the bigger boards in test_catalog.py)."""
    boards = [b for b in THEOREMS if b[0] * b[1] <= 24]
    assert len(boards) >= 15
    for rows, cols in boards:
        _, solution = solved(rows, cols)
        assert solution.value().value == THEOREMS[(rows, cols)][0], (rows, cols)


@pytest.mark.parametrize("n", [2, 3, 6, 11])
def test_a_single_column_is_verticals_and_a_single_row_horizontals(n: int) -> None:
    """Winning Ways: a column of 2k or 2k + 1 cells is k free moves for Vertical, a row for
    Horizontal. So Vertical, moving first, wins a column at once (Horizontal has no move
    after the first domino) and loses a row without a move."""
    _, column = solved(n, 1)
    assert (column.value(), column.remoteness()) == (Value.WIN, 1)
    _, row = solved(1, n)
    assert (row.value(), row.remoteness()) == (Value.LOSE, 0)


@pytest.mark.parametrize(("rows", "cols"), [(4, 5), (5, 4)])
def test_every_hook_claim_holds_at_every_position(rows: int, cols: int) -> None:
    """Beyond check_game's 20,000 positions: at every fourth of the ~24,000 positions of
    4 x 5 and 5 x 4, the static bounds hold, the horizon bounds the remoteness, mirror images share
    value and remoteness, and the moves search_moves lists (one of each mirrored pair on a
    symmetric board) hold a best move."""
    game, solution = solved(rows, cols)
    r = game.rules
    buf = np.empty(game.max_moves + 1, np.int64)
    for i, pos in enumerate(solution):
        if i % 4:
            continue
        code = np.int64(pos)
        value, rem = solution.value(pos), solution.remoteness(pos)
        known = int(r.static_bounds(code))
        if known & (CANNOT_WIN | MUST_LOSE):
            assert value is Value.LOSE, game.draw(pos)
        if known & CANNOT_LOSE:
            assert value is Value.WIN, game.draw(pos)
        assert rem <= int(r.horizon(code)), game.draw(pos)
        image = int(r.canonical(code))
        assert (solution.value(image), solution.remoteness(image)) == (value, rem)
        listed = set(buf[:int(r.search_moves(code, buf))].tolist())
        every = [_key(mv.value, mv.remoteness) for mv in solution.move_values(pos)]
        kept = [_key(mv.value, mv.remoteness) for mv in solution.move_values(pos)
                if mv.move in listed]
        assert max(every, default=None) == max(kept, default=None), game.draw(pos)


def _key(value: Value, remoteness: int) -> tuple[int, int]:
    return (1, -remoteness) if value is Value.WIN else (0, remoteness)


def test_the_bounds_decide_positions_without_search() -> None:
    """Positions the safe dominoes decide: a free column no horizontal domino can reach is
    Vertical's for good, so Horizontal, with nothing else, cannot win; Vertical, to move
    with such a column, cannot lose."""
    game = Domineering(3, 3)
    code = game.position("b2-b3 b1-c1 c2-c3")  # column a is all that is left
    assert game.to_move(code) == 1 and game.counts(code) == (1, 1, 0, 0)
    assert int(game.rules.static_bounds(np.int64(code))) == CANNOT_WIN | MUST_LOSE
    game = Domineering(3, 2)
    code = game.position("a1-a2 a3-b3")  # b1-b2 is Vertical's safe domino
    assert game.to_move(code) == 0 and game.counts(code) == (1, 1, 0, 0)
    assert int(game.rules.static_bounds(np.int64(code))) == CANNOT_LOSE


def test_half_the_vulnerable_dominoes_count_for_their_owner() -> None:
    """4 x 4 after a2-a3, c1-d1, b2-b3: Horizontal to move has two safe dominoes (a1-b1,
    a4-b4) against Vertical's two at most, which alone decides nothing; with half its two
    vulnerable ones (c2-d2, c4-d4: no vertical domino meets both) it cannot lose, and the
    strong solution agrees."""
    game, solution = solved(4, 4)
    code = game.position("a2-a3 c1-d1 b2-b3")
    assert game.to_move(code) == 1 and game.counts(code) == (2, 0, 5, 2)
    assert int(game.rules.static_bounds(np.int64(code))) == CANNOT_LOSE
    assert solution.value(code) is Value.WIN


@pytest.mark.parametrize(("rows", "cols", "names"),
                         [(4, 5, ""), (5, 4, "a1-a2"), (4, 5, "c2-c3 b1-c1 e1-e2")])
def test_search_agrees_with_the_strong_solution(rows: int, cols: int, names: str) -> None:
    game, solution = solved(rows, cols)
    pos = game.position(names)
    found = search(game, pos, table_mb=16)
    assert found.exact
    assert (found.value, found.remoteness) == (solution.value(pos), solution.remoteness(pos))


def test_the_fast_game_and_its_twin_agree_on_every_board_of_at_most_9_cells() -> None:
    for rows in range(1, 10):
        for cols in range(1, 10 // rows + 1):
            if rows * cols > 9:
                continue
            _, fast = solved(rows, cols)
            twin = solve(DomineeringTwin(rows, cols))
            assert (fast.value(), fast.remoteness()) == (twin.value(), twin.remoteness())


@pytest.mark.parametrize(("rows", "cols"), [(7, 8), (3, 5)])
def test_own_rules_agree_with_the_shared_ones(rows: int, cols: int) -> None:
    """The rules compiled for one board (as a 57-64-cell board gets them) answer as the
    shared ones do, position by position along random lines (codes without the shape)."""
    game = Domineering(rows, cols)
    own = own_kernels(rows, cols)
    rng = random.Random(rows * cols)
    a = np.empty(game.max_moves + 1, np.int64)
    b = np.empty(game.max_moves + 1, np.int64)
    for _ in range(6):
        code = game.initial()
        while True:
            cells_now = np.int64(game.cells(code))
            shared = np.int64(code)
            assert int(own.canonical(cells_now)) == game.cells(int(SHARED.canonical(shared)))
            assert own.static_bounds(cells_now) == SHARED.static_bounds(shared)
            assert own.horizon(cells_now) == SHARED.horizon(shared)
            k = int(own.search_moves(cells_now, a))
            assert k == SHARED.search_moves(shared, b) and list(a[:k]) == list(b[:k])
            k = int(own.moves(cells_now, a))
            moves = game.moves(code)
            assert sorted(a[:k].tolist()) == sorted(moves)
            if not moves:
                break
            move = rng.choice(moves)
            nxt = game.play(code, move)
            assert int(own.play(cells_now, np.int64(move))) == game.cells(nxt)
            code = nxt


def test_a_64_cell_board_uses_every_bit() -> None:
    game = Domineering(8, 8)
    start = game.initial()
    assert start == 0 and len(game.moves(start)) == 56
    corner = game.position("a1-a2 g8-h8")  # h8 is bit 63: the code is negative
    assert corner < 0 and (7, 7) in game.covered(corner)
    assert game.to_move(corner) == 0 and len(game.moves(corner)) == 52
    assert game.canonical(corner) == min(corner, game.position("h1-h2 a8-b8"),
                                          game.position("a7-a8 g1-h1"),
                                          game.position("h7-h8 a1-b1"))
    assert game.counts(start) == (32, 0, 32, 0)


def test_move_names_read_back_on_a_board_wider_than_the_alphabet() -> None:
    game = Domineering(2, 28)
    start = game.initial()
    names = [game.move_name(m) for m in game.moves(start)]
    assert names[-1] == "ab1-ab2"
    assert all(game.parse_move(n) == m for n, m in zip(names, game.moves(start), strict=True))
    assert game.parse_move("AB2-ab1") == game.parse_move("ab1-ab2")
    after = game.play(start, game.parse_move("a1-a2"))
    assert game.move_name(game.moves(after)[0]) == "b1-c1"


@pytest.mark.parametrize("text", ["a1-b2", "a1-a3", "a1-a1", "c1-c2", "a0-a1", "a1", "",
                                  "a1-a2-a3", "1a-2a", "no such move"])
def test_text_that_names_no_domino_is_refused(text: str) -> None:
    assert Domineering(2, 2).parse_move(text) is None


def test_the_board_is_drawn_with_coordinates() -> None:
    game = Domineering(3, 4)
    code = game.position("b1-b2 c3-d3")
    assert game.draw(code) == "\n".join([
        "  a b c d",
        "3 . . # #",
        "2 . # . .",
        "1 . # . .",
        "Vertical to move"])


def test_the_picture_draws() -> None:
    figure = pytest.importorskip("matplotlib.figure")
    ax = figure.Figure().subplots()
    game = Domineering(3, 4)
    game.plot(game.position("b1-b2"), ax)
    assert ax.get_title() == "Horizontal to move"


def test_boards_beyond_64_cells_are_refused_up_front() -> None:
    with pytest.raises(InputError, match="at most 64"):
        GAME.build(rows=9, cols=8)
    with pytest.raises(InputError, match="rows must be at least 1"):
        GAME.build(rows=0, cols=8)
