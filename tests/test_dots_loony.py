"""Dots and Boxes' ``endgame`` hook: the exact margin of a position where every open box has
two sides or more (simple loony endgames, Berlekamp 2000; Buzzard & Ciere 2014), checked
against the strong solution at every such position of 2 x 2 and 1 x 4 and a sample of
2 x 3, against plain negamax at random such positions of 3 x 3, 2 x 4 and 2 x 5, by hand
on a few positions; a wrong rule of the same kind (loops declined as chains are) is caught
by the same comparison, and ``check_game`` passes the hook (its endgame check catching
wrong answers is tested with Othello's hook)."""

from __future__ import annotations

import functools
import random
from typing import Any

import numpy as np

from perfectplay import check_game, solve
from perfectplay.catalog.dots_and_boxes import GAME, DotsAndBoxes
from perfectplay.catalog.dots_and_boxes.rules import loony_parts, loony_value

from .test_dots_chain_rule import exact, solution_value


@functools.cache
def solved(rows: int, cols: int) -> tuple[DotsAndBoxes, Any]:
    game = GAME.build(rows=rows, cols=cols)
    return game, solve(game)


def hook(game: DotsAndBoxes, lines: int) -> tuple[int, int]:
    """The hook's (score, nodes) at the line set ``lines`` (bit e: line e), a wide window."""
    s, n = game.rules.endgame(np.int64(game.shape_bits | lines << 1), -100, 100)
    return int(s), int(n)


def sides(game: DotsAndBoxes, lines: int) -> list[int]:
    return [bin(lines & m).count("1") for m in game.board.box_masks]


def every_position(rows: int, cols: int, sample: int | None = None) -> tuple[int, int]:
    """(positions the hook answers, wrong answers) over every line set of the board (or a
    sample), against the strong solution; the hook must answer exactly where every box
    has two sides or more."""
    game, solution = solved(rows, cols)
    value = solution_value(solution)
    n = game.board.n
    sets = range(1 << n)
    if sample:
        sets = random.Random(rows * 10 + cols).sample(sets, sample)  # type: ignore[assignment]
    answered = wrong = 0
    for lines in sets:
        s, k = hook(game, lines)
        assert (k == 1) == (min(sides(game, lines)) >= 2), game.draw(lines << 1)
        if k and lines != (1 << n) - 1:
            answered += 1
            wrong += s != value(game.shape_bits | lines << 1)
    return answered, wrong


def test_the_hook_is_exact_at_every_such_position_of_small_boards() -> None:
    assert every_position(2, 2) == (1174, 0)
    assert every_position(1, 4) == (2224, 0)
    answered, wrong = every_position(2, 3, sample=30_000)
    assert answered > 3000 and wrong == 0


def random_endgame(game: DotsAndBoxes, rng: random.Random) -> int | None:
    """A random line set where every open box has two sides, then up to three more lines
    (some boxes then three sides or taken), or None when the walk left a box below two."""
    bd = game.board
    lines = 0
    for b in range(len(bd.boxes)):
        if rng.random() < 0.15:
            lines |= bd.box_masks[b]
    order = list(range(bd.n))
    rng.shuffle(order)
    for e in order:
        if not lines >> e & 1 and all(bin(lines & bd.box_masks[b]).count("1") < 2
                                      for b in bd.sides[e]):
            lines |= 1 << e
    if min(sides(game, lines)) < 2:
        return None
    free = [e for e in range(bd.n) if not lines >> e & 1]
    for e in rng.sample(free, min(len(free), rng.choice([0, 1, 1, 2, 3]))):
        lines |= 1 << e
    return lines


def test_the_hook_is_exact_at_random_endgames_of_bigger_boards() -> None:
    for rows, cols, count in ((3, 3, 60), (2, 4, 60), (2, 5, 20)):
        game = DotsAndBoxes(rows, cols)
        value = exact(game)
        rng = random.Random(rows * 10 + cols)
        seen: set[int] = set()
        while len(seen) < count:
            lines = random_endgame(game, rng)
            if lines is None or lines in seen or lines == (1 << game.board.n) - 1:
                continue
            seen.add(lines)
            s, k = hook(game, lines)
            assert k == 1 and s == value(game.shape_bits | lines << 1), game.draw(lines << 1)


def test_by_hand_chains_and_loops() -> None:
    """A chain of three and a loop of four: opened first, the chain is declined (the taker
    takes one, hands two back and the opener must open the loop: min(-3 + 4, 1 - 4) = -3);
    the loop first is better (taken whole, -4 + 3, or declined whole, 4 - 3: -1). A chain
    of four and a loop of four: opening the loop, 0 either way, beats the chain (-4)."""
    chains = np.zeros(8, np.int64)
    loops = np.zeros(8, np.int64)
    chains[3], loops[4] = 1, 1
    assert loony_value(chains, loops, 2) == -1
    chains[3], chains[4] = 0, 1
    assert loony_value(chains, loops, 2) == 0
    game = DotsAndBoxes(2, 4)  # the left four boxes a loop, the right four a chain
    code = game.position("a1-b1 b1-c1 c1-c2 c2-c3 c3-b3 b3-a3 a3-a2 a2-a1 "
                         "c1-d1 d1-e1 c3-d3 d3-e3 d2-e2")
    assert hook(game, code >> 1 & ((1 << game.board.n) - 1)) == (0, 1)
    assert exact(game)(code) == 0


def test_the_hook_leaves_positions_with_a_box_below_two_sides() -> None:
    game = DotsAndBoxes(3, 3)
    assert hook(game, 0) == (0, 0)


# -- a wrong rule is caught ---------------------------------------------------------------------
def wrong_value(chains: list[int], loops: list[int]) -> int:
    """Wrong: a loop declined by its last two boxes, as a chain is (the rule hands four
    over): the recursion of :func:`loony_value` with that one change."""
    if not any(chains) and not any(loops):
        return 0
    best = -1000
    for part, n in [(chains, n) for n in range(len(chains)) if chains[n]] + \
            [(loops, n) for n in range(len(loops)) if loops[n]]:
        part[n] -= 1
        r = wrong_value(chains, loops)
        part[n] += 1
        best = max(best, -n - r if n <= 2 else min(-n - r, 4 - n + r))
    return best


def test_a_wrong_rule_is_caught_by_the_same_check() -> None:
    game, solution = solved(2, 3)
    value = solution_value(solution)
    _, sides_, masks, _ = game.board.tables()
    boxes = len(game.board.boxes)
    wrong = 0
    for lines in random.Random(5).sample(range(1 << game.board.n), 30_000):
        if min(sides(game, lines)) != 2 or max(sides(game, lines)) == 3:
            continue  # (boxes of four sides are fine; none of three)
        chains = np.zeros(boxes + 1, np.int64)
        loops = np.zeros(boxes + 1, np.int64)
        loony_parts(np.int64(lines << 1), sides_, masks, boxes, chains, loops, np.int64(0))
        code = game.shape_bits | lines << 1
        wrong += wrong_value(chains.tolist(), loops.tolist()) != value(code)
    assert wrong > 0


def test_check_game_checks_the_hook() -> None:
    """(check_game's endgame check catching wrong answers: tests/test_othello_endgame.py.)"""
    report = check_game(DotsAndBoxes(2, 2))
    assert report.ok, report.problems
