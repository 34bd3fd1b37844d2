"""Dots and Boxes' chain rule in ``search_moves`` (Berlekamp's "all but two", as Barker &
Korf 2012 search with it): which moves it lists where a box can be taken or a pair of boxes
is offered, that what it lists keeps every position's value (every position of 2 x 2, a
sample of 2 x 3 and 3 x 3 against exact values), that a wrong rule of the same kind is
caught by the same check, and proof search's answers against the strong solution."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

import numpy as np
import pytest

from perfectplay import search_many, solve
from perfectplay.catalog.dots_and_boxes import GAME, DotsAndBoxes
from perfectplay.catalog.dots_and_boxes.rules import chain_reply

Lister = Callable[[DotsAndBoxes, int], list[int]]


@functools.cache
def solved(rows: int, cols: int) -> tuple[DotsAndBoxes, object]:
    game = GAME.build(rows=rows, cols=cols)
    return game, solve(game)


def listed(game: DotsAndBoxes, code: int) -> list[int]:
    """The moves the search tries at ``code``, in its order."""
    buf = np.empty(game.max_moves + 1, np.int64)
    return buf[:int(game.rules.search_moves(np.int64(code), buf))].tolist()


def named(game: DotsAndBoxes, code: int) -> list[str]:
    return [game.move_name(m) for m in listed(game, code)]


def exact(game: DotsAndBoxes) -> Callable[[int], int]:
    """The margin the mover can still gain at a position (any player to move), by plain
    negamax over every legal move, memoised on the lines: for positions with few free lines
    (2 ** free line sets at most)."""
    @functools.cache
    def value(lines: int) -> int:
        moves = game.moves(lines)  # none once every line is drawn: nothing left to gain
        return max((move_value(game, lines, m, value) for m in moves), default=0)
    return lambda code: value(code & ~1)


def move_value(game: DotsAndBoxes, code: int, move: int, value: Callable[[int], int]) -> int:
    """A move's worth to its mover: the boxes it takes plus the child's value when the turn
    stays, else minus the child's value."""
    pay = game.payoff(code, move)
    child = value(game.play(code, move) & ~1)
    return pay + child if pay else -child


def wrong_at(game: DotsAndBoxes, positions: list[int], value: Callable[[int], int],
             lister: Lister = listed, first: bool = False) -> list[int]:
    """The positions whose best listed move is worth less than the position (the listed
    moves must keep the value: the search then answers exactly); only the first with
    ``first``."""
    bad = []
    for code in positions:
        moves = game.moves(code)
        if not moves:
            continue
        best = max(move_value(game, code, m, value) for m in lister(game, code))
        if best != value(code):
            bad.append(code)
            if first:
                break
    return bad


def solution_value(solution: object) -> Callable[[int], int]:
    """A strong solution's margin, read for a code with either player to move."""
    def value(code: int) -> int:
        for c in (code, code ^ 1):
            try:
                return int(solution.value(c))  # type: ignore[attr-defined]
            except KeyError:
                continue
        raise KeyError(code)
    return value


def deep_positions(game: DotsAndBoxes, free: int, count: int, seed: int) -> list[int]:
    """``count`` positions reached by random lines, each with ``free`` lines left."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        code = game.initial()
        while len(game.moves(code)) > free:
            code = game.play(code, rng.choice(game.moves(code)))
        out.append(code)
    return out


# -- what the rule lists --------------------------------------------------------------------
def test_a_box_on_the_border_or_by_a_junction_is_taken_at_once() -> None:
    game = DotsAndBoxes(2, 2)
    border = game.position("a1-b1 a1-a2 a2-b2")  # box a1: its last side b1-b2 joins box b1
    assert named(game, border) == ["b1-b2"]  # box b1 has one side: a junction
    corner = game.position("a1-b1 b1-b2 a2-b2")  # its last side is on the border
    assert named(game, corner) == ["a1-a2"]


def test_a_pair_of_boxes_offered_by_its_end_may_be_taken_or_declined() -> None:
    """The pair a1, b1 opened at a1's left end, c1 a junction (no side): take a1 (then
    b1), or draw b1's other free line, c1-c2, and hand both over (the double-dealing
    move); the other lines of c1 are not searched."""
    game = DotsAndBoxes(1, 3)
    code = game.position("a1-b1 b1-c1 a2-b2 b2-c2 a1-a2")
    assert sorted(named(game, code)) == ["b1-b2", "c1-c2"]
    value = exact(game)
    take, deal = game.parse_move("b1-b2"), game.parse_move("c1-c2")
    # taking all leaves c1 with one side to the taker, who must open it: 2 + 1; declining
    # hands 2 over and the opponent must open c1: 1 - 2 - ... the opponent then takes c1
    assert move_value(game, code, take, value) == 3 == value(code)
    assert move_value(game, code, deal, value) == -3


def test_the_half_hearted_handout_is_not_searched() -> None:
    """A pair of boxes a1, b1 (two sides each) between the border and a junction is offered
    by its middle line b1-b2 only: the end lines a1-a2 and c1-c2 would let the taker
    decline."""
    game = DotsAndBoxes(1, 3)
    code = game.position("a1-b1 a2-b2 b1-c1 b2-c2")
    moves = named(game, code)
    assert "b1-b2" in moves and "a1-a2" not in moves and "c1-c2" not in moves


def test_a_chain_or_a_loop_is_opened_by_one_line() -> None:
    """Every line of a chain of three boxes between the border's ends is worth the same
    (the taker takes all or all but two, and every line ends drawn), as every line of a
    loop is: one of them is searched."""
    game = DotsAndBoxes(1, 3)
    chain = game.position("a1-b1 b1-c1 c1-d1 a2-b2 b2-c2 c2-d2")
    value = exact(game)
    assert {move_value(game, chain, m, value) for m in game.moves(chain)} == {-3}
    assert len(listed(game, chain)) == 1
    square = DotsAndBoxes(2, 2)
    loop = square.position("a1-b1 b1-c1 c1-c2 c2-c3 c3-b3 b3-a3 a3-a2 a2-a1")
    value = exact(square)
    assert {move_value(square, loop, m, value) for m in square.moves(loop)} == {-4}
    assert len(listed(square, loop)) == 1


def test_declining_waits_until_no_other_box_can_be_taken() -> None:
    """Two chains can be taken (the pair c1, c2 hanging on the border, and four boxes with
    both ends open on the left): only taking moves are listed. Declining the pair at once
    (worth 3 here) would hand the four over too; taking the four first and then declining
    the pair is worth 5."""
    game = DotsAndBoxes(3, 3)
    code = _spoiler(3, 3)
    moves = named(game, code)
    assert all(game.payoff(code, game.parse_move(m)) > 0 for m in moves), moves
    assert len(wrong_at(game, [code], exact(game))) == 0


def test_one_border_line_of_a_box_is_tried() -> None:
    """A corner box's two border lines join it to the border alike: one is listed (the
    lower), at the start of 2 x 3 (a1-b1 and a1-a2 at the corner a1) and after a line."""
    game = DotsAndBoxes(2, 3)
    for code in (game.initial(), game.position("b2-c2")):
        moves = named(game, code)
        for pair in (("a1-b1", "a1-a2"), ("c1-d1", "d1-d2"), ("a3-b3", "a2-a3"),
                     ("c3-d3", "d2-d3")):
            assert sum(name in moves for name in pair) <= 1, (pair, moves)
        assert wrong_at(game, [code], solution_value(solved(2, 3)[1])) == []
    one = game.position("a1-a2")  # the corner's other border line is then the only one
    assert "a1-b1" in named(game, one)


def test_chain_reply_names_the_middle_of_an_opened_chain_of_four() -> None:
    """Four boxes in a row, both ends takeable: take an end, or draw the middle line and
    hand two pairs over ("all but four")."""
    game = DotsAndBoxes(1, 4)
    code = game.position("a1-b1 b1-c1 c1-d1 d1-e1 a2-b2 b2-c2 c2-d2 d2-e2 a1-a2 e1-e2")
    _, sides, masks, _ = game.board.tables()
    out = np.empty(4, np.int64)
    lines = np.int64(code ^ game.shape_bits)
    assert chain_reply(lines, masks[0], sides, out) == 2
    assert [game.move_name(m) for m in out[:2]] == ["b1-b2", "c1-c2"]


# -- the values are kept ----------------------------------------------------------------------
def test_the_listed_moves_keep_every_value_of_2x2_and_a_sample_of_2x3() -> None:
    for (rows, cols), sample in (((2, 2), None), ((2, 3), 2000)):
        game, solution = solved(rows, cols)
        positions = sorted(solution)  # type: ignore[call-overload]
        if sample:
            positions = random.Random(rows * 10 + cols).sample(positions, sample)
        assert wrong_at(game, positions, solution_value(solution)) == [], (rows, cols)


def test_the_listed_moves_keep_the_value_of_deep_3x3_positions() -> None:
    game = DotsAndBoxes(3, 3)
    positions = deep_positions(game, free=9, count=60, seed=3)
    assert wrong_at(game, positions, exact(game)) == []


# -- a wrong rule is caught --------------------------------------------------------------------
def _takes_only(game: DotsAndBoxes, code: int) -> list[int]:
    """Wrong: never the double-dealing move."""
    moves = listed(game, code)
    taking = [m for m in moves if game.payoff(code, m) > 0]
    return taking or moves


def _declines_at_once(game: DotsAndBoxes, code: int) -> list[int]:
    """Wrong: the first takeable box's own two moves, even while another can be taken."""
    _, sides, masks, _ = game.board.tables()
    out = np.empty(game.max_moves + 2, np.int64)
    lines = np.int64(code ^ game.shape_bits) & ~np.int64(1)
    for m in masks[:len(game.board.boxes)]:
        if bin(int(lines & m)).count("1") == 3:
            k = int(chain_reply(lines, m, sides, out))
            return out[:k].tolist()
    return listed(game, code)


def _ends_of_pairs_too(game: DotsAndBoxes, code: int) -> list[int]:
    """Wrong the other way round: the middle of an offered pair left out instead."""
    moves = listed(game, code)
    return [m for m in moves if not _is_pair_middle(game, code, m)] or moves


def _is_pair_middle(game: DotsAndBoxes, code: int, move: int) -> bool:
    lines = game.drawn(code)
    boxes = game.board.sides[move]
    return len(boxes) == 2 and all(
        sum(e in lines for e in game.board.boxes[b]) == 2 for b in boxes)


def _one_line_a_border_side(game: DotsAndBoxes, code: int) -> list[int]:
    """Wrong: the bottom row's border lines taken as one move, as one box's are (they join
    different boxes to the border)."""
    moves = listed(game, code)
    bottom = [m for m in moves if m < game.cols]
    return [m for m in moves if m >= game.cols or m == min(bottom)]


#: positions where a rule of the kind goes wrong: 2 x 3 (lines 735: declining the pair of
#: the top row is worth 2, taking it -2) and 3 x 3 (lines 516039: two chains to take)
SPOILERS = {(2, 3): 735, (3, 3): 516039}


def _spoiler(rows: int, cols: int) -> int:
    game = DotsAndBoxes(rows, cols)
    lines = SPOILERS[(rows, cols)]
    return game.code_of([e for e in range(game.board.n) if lines >> e & 1])


@pytest.mark.parametrize("mutant", [_takes_only, _declines_at_once, _ends_of_pairs_too,
                                    _one_line_a_border_side])
def test_a_wrong_rule_is_caught(mutant: Lister) -> None:
    """Each mutant keeps fewer moves than the rule, wrongly: the check of the listed moves
    finds a position it spoils, among the two above, every 2 x 2 position and deep 3 x 3
    ones, where the rule itself spoils none (the tests above)."""
    big = DotsAndBoxes(3, 3)
    positions = [_spoiler(3, 3), *deep_positions(big, free=9, count=30, seed=3)]
    bad = wrong_at(big, positions, exact(big), mutant, first=True)
    for rows, cols in ((2, 3), (2, 2)):
        game, solution = solved(rows, cols)
        positions = [_spoiler(2, 3)] if cols == 3 else sorted(solution)  # type: ignore[call-overload]
        bad += wrong_at(game, positions, solution_value(solution), mutant, first=True)
    assert bad


# -- proof search answers as the strong solution does -----------------------------------------
def test_search_agrees_with_the_strong_solution_on_every_2x2_position() -> None:
    game, solution = solved(2, 2)
    positions = sorted(solution)  # type: ignore[call-overload]
    batch = search_many(game, positions, remoteness=False, table_mb=4)
    for pos, found in zip(positions, batch, strict=True):
        assert found.exact and found.value == solution.value(pos), game.draw(pos)  # type: ignore[attr-defined]


def test_search_agrees_with_exact_values_on_samples_of_2x3_and_3x3() -> None:
    game, solution = solved(2, 3)
    positions = random.Random(23).sample(sorted(solution), 300)  # type: ignore[call-overload]
    batch = search_many(game, positions, remoteness=False, table_mb=4)
    for pos, found in zip(positions, batch, strict=True):
        assert found.value == solution.value(pos), game.draw(pos)  # type: ignore[attr-defined]
    big = DotsAndBoxes(3, 3)
    deep = deep_positions(big, free=11, count=20, seed=9)
    value = exact(big)
    batch = search_many(big, deep, remoteness=False, table_mb=4)
    for pos, found in zip(deep, batch, strict=True):
        assert found.value == value(pos), big.draw(pos)
