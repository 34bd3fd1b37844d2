"""What only Kalah has (the generic catalog checks are in test_catalog.py; the ranked code,
margin bound and endgame stores are in test_kalah_search.py): Irving, Donkers and
Uiterwijk's table of who wins for m, n <= 3, the capture rules on boards built by hand and on
random boards (the bit-field code, the ranked code and the twin sow alike under both rules),
the parameters' limits, move names, drawing and picture."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import solve
from perfectplay.catalog.kalah import GAME, Kalah, KalahPy
from perfectplay.errors import InputError


@functools.cache
def games(m: int, n: int, empty_capture: bool) -> tuple[Kalah, Kalah, KalahPy]:
    """(bit-field code, ranked code, twin) of one board and rule."""
    return (Kalah(m, n, ranked=False, empty_capture=empty_capture),
            Kalah(m, n, ranked=True, empty_capture=empty_capture),
            KalahPy(m, n, empty_capture))


def code(game: Kalah, pits: list[int], who: int) -> int:
    return int(game._pack(np.array(pits, np.int64), who))


def test_irving_donkers_uiterwijk_who_wins_for_small_boards() -> None:
    """Irving, Donkers and Uiterwijk (2000), Table 1: who wins Kalah(m, n) (W the first
    player, L the second, D a draw) for m, n <= 3 (empty capture), by the catalog's Python
    twin on every board (at most a few thousand positions: no compile) and by the compiled
    game on Kalah(3, 2), which this module compiles anyway (each other board would compile
    its own kernels, seconds apiece; the compiled game and its twin agree move by move in
    tests/test_catalog.py)."""
    table = {(1, 1): "D", (1, 2): "L", (1, 3): "W", (2, 1): "W", (2, 2): "L", (2, 3): "L",
             (3, 1): "D", (3, 2): "W", (3, 3): "W"}

    def who(v: int) -> str:
        return "W" if v > 0 else "L" if v < 0 else "D"

    for (m, n), winner in table.items():
        v = solve(KalahPy(m, n, True)).value()
        assert who(v) == winner, (m, n, v)
    v = solve(GAME.build(houses=3, seeds=2)).value()
    assert who(v) == table[3, 2], v


@pytest.mark.parametrize("empty_capture", [True, False])
def test_a_last_seed_in_an_empty_house_opposite_an_empty_one(empty_capture: bool) -> None:
    """South (houses a, b, c) sows b's one seed into the empty c, opposite north's empty a:
    with the empty capture the seed goes to south's store (+1), with the standard rule it
    stays; opposite a full house both rules capture it and the house opposite."""
    for game in games(3, 2, empty_capture)[:2]:
        pos = code(game, [0, 1, 0, 0, 3, 2], 0)  # north's a is index 5, opposite south's c
        child = game.play(pos, 1)
        stored = game.payoff(pos, 1)
        if empty_capture:
            assert (game.houses_of(child), stored) == (([0, 0, 0, 0, 3, 2], 1), 1)
        else:
            assert (game.houses_of(child), stored) == (([0, 0, 1, 0, 3, 2], 1), 0)
        pos = code(game, [0, 1, 0, 4, 3, 0], 0)  # now north's c (index 3) is opposite
        assert game.houses_of(game.play(pos, 1)) == ([0, 0, 0, 0, 3, 0], 1)
        assert game.payoff(pos, 1) == 5
    twin = KalahPy(3, 2, empty_capture)
    assert twin.step(((0, 1, 0, 0, 3, 2), 0), 1) == \
        (((0, 0, 0, 0, 3, 2), 1), 1) if empty_capture else (((0, 0, 1, 0, 3, 2), 1), 0)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=6, max_size=6).filter(lambda p: 0 < sum(p) <= 18),
       st.integers(0, 1), st.booleans())
def test_both_codes_and_the_twin_sow_alike_under_both_rules(pits: list[int], who: int,
                                                            empty_capture: bool) -> None:
    """Any board of Kalah(3, 3) (18 seeds at most): every move's child, next player and
    seeds stored agree between the bit-field code, the ranked code and the twin."""
    fields, ranked, twin = games(3, 3, empty_capture)
    a, b = code(fields, pits, who), code(ranked, pits, who)
    q = (tuple(pits), who)
    assert fields.moves(a) == ranked.moves(b) == (twin.moves(q) if twin.outcome(q) is None
                                                  else [])
    for move in fields.moves(a):
        (child, stored) = twin.step(q, move)
        assert fields.houses_of(fields.play(a, move)) == (list(child[0]), child[1])
        assert ranked.houses_of(ranked.play(b, move)) == (list(child[0]), child[1])
        assert fields.payoff(a, move) == ranked.payoff(b, move) == stored


def test_the_rules_are_named_and_their_games_apart() -> None:
    standard = GAME.build(houses=2, seeds=2, empty_capture=False)
    assert standard.name == "Kalah(2, 2, empty_capture=False)"
    assert GAME.build(houses=2, seeds=2).name == "Kalah(2, 2)"
    # the two rules differ on Kalah(3, 2)'s strong solution somewhere, not at its start
    a = solve(GAME.build(houses=3, seeds=2))
    b = solve(GAME.build(houses=3, seeds=2, empty_capture=False))
    assert len(a) != len(b)


def test_the_board_must_fit_a_code_and_the_sentence_says_so() -> None:
    with pytest.raises(InputError, match=r"Kalah\(6, 7\) does not fit a 63-bit code"):
        GAME.build(houses=6, seeds=7)  # C(96, 12) ~ 4.8e14 ranks
    with pytest.raises(InputError, match="empty_capture must be a bool"):
        GAME.build(empty_capture="yes")
    with pytest.raises(InputError, match="seeds must be at least 1"):
        GAME.build(seeds=0)
    assert GAME.build(houses=6, seeds=6).wide  # C(84, 12) ~ 1.1e14 ranks: it still fits
    assert "2,798,717,689,950" in GAME.size({"houses": 6, "seeds": 4})


def test_houses_are_named_by_letter_as_their_owner_sees_them() -> None:
    game = GAME.build(houses=6, seeds=4)
    start = game.initial()
    assert [game.move_name(m) for m in game.moves(start)] == list("abcdef")
    assert [game.parse_move(t) for t in ("a", "F", " c ")] == [0, 5, 2]
    assert [game.parse_move(t) for t in ("g", "", "ab", "1", "z")] == [None] * 5
    north = game.play(start, 0)  # a: 4 seeds to b..e, north moves
    assert game.draw(north).splitlines() == [
        "       f  e  d  c  b  a",
        "north  4  4  4  4  4  4",
        "south  0  5  5  5  5  4",
        "       a  b  c  d  e  f",
        "north to move"]


def test_the_picture_draws_every_house() -> None:
    figure = pytest.importorskip("matplotlib.figure")
    game = GAME.build(houses=3, seeds=2)
    ax = figure.Figure().subplots()
    game.plot(game.initial(), ax)
    assert len(ax.patches) == 1 + 2 * 3
    assert sorted(t.get_text() for t in ax.texts) == sorted(["2"] * 6 + list("abcabc"))


def test_kalah_6_4_ships_a_book_of_three_plies() -> None:
    """The package's book of Kalah(6, 4) (``perfectplay book 'kalah(houses=6, seeds=4)'
    --plies 3 --store DENSE24``, every position up to three moves from the start searched
    with the 24-seed dense table): the start is the first player's by +10 (Irving, Donkers
    and Uiterwijk 2000, Table 9), read at once from the book, as are its six moves; the
    best is the third house, c, as the search of the start finds it (docs/benchmarks.md).
    Every position two moves in is there with all its moves, so the page answers the
    first three plies from the book."""
    from perfectplay.store.book import find_book

    game = Kalah(6, 4)
    book = find_book(game)
    assert book is not None
    with book:
        start = game.initial()
        assert book.value(start) == 10
        assert book.remoteness(start) == 40
        for first in game.moves(start):
            child = game.play(start, first)
            for second in game.moves(child):
                grandchild = game.play(child, second)
                values = book.move_values(grandchild)
                assert len(values) == len(list(game.moves(grandchild)))
        moves = book.move_values(start)
        assert len(moves) == 6
        assert max(m.value for m in moves) == 10
        assert [game.move_name(m.move) for m in moves if m.value == 10] == ["c"]
