"""Domineering's packing bounds (protective areas, vulnerable dominoes, options, the
opponent's most dominoes and coverable cells) against the strong solution at every position
of small boards, on positions they decide, and false bounds caught by check_game."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from numba import njit

from perfectplay import Value, solve
from perfectplay.catalog.domineering import Domineering
from perfectplay.catalog.domineering.rules import (
    KEPT,
    geometry,
    kept_items,
    mover_of,
    option_cells,
    second_of,
    side_of,
)
from perfectplay.engine import CANNOT_LOSE, CANNOT_WIN, MUST_LOSE, CompiledGame, check_game


@functools.cache
def solved(rows: int, cols: int) -> tuple[Domineering, object]:
    game = Domineering(rows, cols)
    return game, solve(game)


def sides(game: Domineering, code: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(Vertical's, Horizontal's) :class:`Side` at ``code``, as plain tuples."""
    g = tuple(np.int64(x) for x in geometry(game.rows, game.cols))
    free = ~np.int64(game.cells(code)) & g[2]
    v = side_of(free, g[1], g[3], g[6], 1, g[4], g[5])
    h = side_of(free, 1, g[4], g[5], g[1], g[3], g[6])
    return tuple(int(x) for x in v), tuple(int(x) for x in h)


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (3, 5), (5, 3), (3, 6), (6, 3), (2, 8)])
def test_every_claim_holds_at_every_position(rows: int, cols: int) -> None:
    """No claim of static_bounds is false anywhere on these boards (test_catalog_domineering
    samples 4 x 5 and 5 x 4), and the bounds decide most positions without a move."""
    game, solution = solved(rows, cols)
    decided = 0
    for pos in solution:
        known = int(game.rules.static_bounds(np.int64(pos)))
        value = solution.value(pos)
        if known & (CANNOT_WIN | MUST_LOSE):
            assert value is Value.LOSE, game.draw(pos)
        if known & CANNOT_LOSE:
            assert value is Value.WIN, game.draw(pos)
        decided += known != 0
    assert decided > 0.6 * len(solution)


def test_two_protective_areas_walled_on_one_side_decide() -> None:
    """3 x 5 after c2-c3: the squares a2-b3 and d2-e3 are walled above (the board's edge)
    and across by the covered column, so Horizontal's dominoes on row 3 leave row 2 safe;
    Horizontal, to move, walls one square from below (a1-b1) and keeps the pair of squares:
    three moves, and Vertical keeps at most one of its four. The strong solution agrees."""
    game, solution = solved(3, 5)
    code = game.position("c2-c3")
    v, h = sides(game, code)
    assert h[:3] == (0, 2, 2)  # no safe domino, two areas, both with a domino below them
    assert v[9:11] == (4, 12)  # Vertical: four dominoes at most, 12 cells it can cover
    assert int(game.rules.static_bounds(np.int64(code))) == CANNOT_LOSE
    assert solution.value(code) is Value.WIN


def test_what_the_second_player_keeps_of_paired_areas() -> None:
    """Two areas are two moves (the opponent opens one, the owner the other), an odd one
    counts as a vulnerable domino with two coverable cells; the opponent's toll is two
    dominoes a pair of areas."""
    assert tuple(second_of(0, 2, 0, 0, 0, 0)) == (2, 4, 2)
    assert tuple(second_of(1, 3, 0, 1, 0, 0)) == (4, 6, 2)  # the odd area pairs with it
    assert tuple(second_of(0, 0, 1, 1, 0, 0)) == (1, 1, 0)  # the opponent leaves the lesser


def test_an_option_decides_where_the_safe_dominoes_alone_do_not() -> None:
    """4 x 4 with c2, c3, c4 and d4 free, Vertical to move: c2-c3 is Vertical's safe
    domino and Horizontal has c4-d4 alone. Counting moves, Vertical plays, Horizontal
    answers, Vertical is out of moves; but c4 is an option (just above the safe domino,
    coverable by Horizontal, with d4 a dead end beside it): Vertical plays c3-c4 and takes
    both cells from Horizontal, which cannot move. The strong solution agrees. A lone option
    is no use to the player moving second (the opponent spoils it first)."""
    game, solution = solved(4, 4)
    free = {(1, 2), (2, 2), (3, 2), (3, 3)}
    code = game.code_of(sum(1 << (4 * r + c) for r in range(4) for c in range(4)
                            if (r, c) not in free))
    assert game.to_move(code) == 0  # Vertical
    v, h = sides(game, code)
    assert v[0] == 1 and v[11:] == (0, 2, 0, 2)  # one safe domino; its option: two cells
    assert (h[9], h[10]) == (1, 2)  # Horizontal: one domino, two cells it can cover
    assert int(game.rules.static_bounds(np.int64(code))) == CANNOT_LOSE
    assert solution.value(code) is Value.WIN


def test_options_are_kept_one_in_each_pair() -> None:
    """The player moving second keeps the lesser option of each pair (largest first): the
    opponent spoils the other."""
    assert option_cells(0, 2, 0) == 2 and option_cells(2, 0, 0) == 1
    assert option_cells(0, 0, 3) == 3  # one pair kept, the odd one spoilt
    assert option_cells(1, 1, 1) == 2 + 0  # 3 pairs with 2; the lone 1 is spoilt
    assert option_cells(1, 0, 1) == 1 and option_cells(0, 0, 1) == 0


def test_the_kept_table_solves_its_small_game() -> None:
    """Lone vulnerable dominoes are kept one in two, the ones an opposing domino may spoil
    two at a time one in three, and a lone one left over pairs with two of the others."""
    kept = kept_items(12)
    assert [int(kept[a, 0]) for a in range(7)] == [0, 0, 1, 1, 2, 2, 3]
    assert [int(kept[0, b]) for b in range(7)] == [0, 0, 0, 1, 1, 1, 2]
    assert int(kept[1, 2]) == 1 and int(kept[1, 1]) == 1
    assert (KEPT[:13, :13] == kept).all()


_SHARED = np.int64((1 << 56) - 1)  # the cells of a code; the shape is in bits 56-63


@njit
def _every_area_twice(pos):
    """A false bound: the second player counted two moves for every area, paired or not."""
    cells = pos & _SHARED
    g = (np.int64(3), np.int64(4), np.int64(4095), np.int64(255), np.int64(1911),
         np.int64(3822), np.int64(4080), np.int64(15))
    free = ~cells & g[2]
    v = side_of(free, g[1], g[3], g[6], 1, g[4], g[5])
    h = side_of(free, 1, g[4], g[5], g[1], g[3], g[6])
    me, them = (v, h) if mover_of(cells) == 0 else (h, v)
    if them[0] + 2 * them[1] >= me[9]:
        return CANNOT_WIN | MUST_LOSE
    return 0


@pytest.mark.slow
def test_a_false_area_count_is_caught_by_check_game() -> None:
    """Counting every protective area as two moves for the player moving second (the
    opponent can spoil a lone one) claims losses that are wins: check_game names the
    hook."""
    game = Domineering(3, 4)
    assert tuple(int(x) for x in geometry(3, 4)) == (3, 4, 4095, 255, 1911, 3822, 4080, 15)
    r = game.rules
    mutant = CompiledGame(game.start_code, r.moves, r.play, r.outcome,
                          max_moves=game.max_moves, tier=r.tier, canonical=r.canonical,
                          horizon=r.horizon, search_moves=r.search_moves,
                          static_bounds=_every_area_twice, name="Domineering(3, 4) (mutant)")
    report = check_game(mutant)
    assert any("claims MUST_LOSE" in p or "claims CANNOT_WIN" in p for p in report.problems)


_G44 = tuple(np.int64(x) for x in geometry(4, 4))


@njit
def _best_option_first(pos):
    """A false bound: the player moving second counted as if it played its best option
    first (the opponent spoils it first), with its safe dominoes as its moves."""
    cells = pos & _SHARED
    g = _G44
    free = ~cells & g[2]
    v = side_of(free, g[1], g[3], g[6], 1, g[4], g[5])
    h = side_of(free, 1, g[4], g[5], g[1], g[3], g[6])
    me, them = (v, h) if mover_of(cells) == 0 else (h, v)
    if them[0] >= (me[10] - them[12]) // 2:
        return CANNOT_WIN | MUST_LOSE
    return 0


@pytest.mark.slow
def test_an_option_counted_unpaired_is_caught_by_check_game() -> None:
    """The same bound with the options kept one a pair (``them[11]``) made no wrong claim
    at any position of 4 x 4 (measured; the real bounds' every claim is checked by
    test_every_claim_holds_at_every_position); with the best option counted as played
    first (``them[12]``) it claims 50 losses that are wins: check_game names the hook."""
    game = Domineering(4, 4)
    r = game.rules
    mutant = CompiledGame(game.start_code, r.moves, r.play, r.outcome,
                          max_moves=game.max_moves, tier=r.tier, canonical=r.canonical,
                          horizon=r.horizon, search_moves=r.search_moves,
                          static_bounds=_best_option_first, name="Domineering(4, 4) (mutant)")
    report = check_game(mutant)
    assert any("claims MUST_LOSE" in p or "claims CANNOT_WIN" in p for p in report.problems)
