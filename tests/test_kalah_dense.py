"""The dense endgame table of Kalah (catalog/kalah/dense.py): its numbering, every board's
margin against a plain minimax of the Python twin and against the tier solver's strong
solution, the search reading it (the same answers, fewer nodes), its files and the
commands."""

import itertools
import random
from functools import cache, lru_cache
from math import comb

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.catalog.kalah import Kalah, KalahPy
from perfectplay.catalog.kalah.dense import (
    binomial_table,
    build_table,
    load_table,
    row_rank,
    rows_of,
    save_table,
    slot_of,
    table_size,
)
from perfectplay.cli import main
from perfectplay.engine import solve
from perfectplay.engine.proof.driver import clear_table, search
from perfectplay.errors import InputError


def minimax(m: int, empty_capture: bool):
    """The mover's best margin of a twin position, by plain memoised recursion over the
    Python twin's moves (written apart from the table's sowing)."""
    twin = KalahPy(m, 1, empty_capture)

    @lru_cache(None)
    def margin(pos):
        houses, who = pos
        mine = sum(houses[who * m:(who + 1) * m])
        theirs = sum(houses) - mine
        if mine == 0 or theirs == 0:
            return mine - theirs
        best = None
        for move in twin.moves(pos):
            nxt, stored = twin.step(pos, move)
            v = stored + margin(nxt) if nxt[1] == who else stored - margin(nxt)
            best = v if best is None else max(best, v)
        return best

    return margin


def sides(houses: tuple[int, ...], who: int, m: int) -> tuple[list[int], list[int]]:
    return list(houses[who * m:(who + 1) * m]), list(houses[(1 - who) * m:(2 - who) * m])


@cache
def table(m: int, k: int, empty_capture: bool = True) -> np.ndarray:
    return build_table(m, k, empty_capture)


@pytest.mark.parametrize("m,top", [(1, 5), (3, 7), (6, 4)])
def test_a_rows_rank_is_its_place_in_lexicographic_order(m, top):
    binom = binomial_table(m, top)
    for s in range(top + 1):
        rows = rows_of(m, s)
        assert len(rows) == comb(s + m - 1, m - 1)
        assert [tuple(r) for r in rows] == sorted(tuple(r) for r in rows)
        assert [row_rank(r.astype(np.int64), m, binom) for r in rows] == list(range(len(rows)))


@pytest.mark.parametrize("m,k,empty_capture", [(1, 6, True), (2, 7, True), (3, 7, True),
                                               (3, 7, False), (4, 5, True)])
def test_every_board_of_the_table_equals_a_plain_minimax(m, k, empty_capture):
    """Exhaustive: every board of at most k seeds, both players to move, one entry each."""
    t, margin = table(m, k, empty_capture), minimax(m, empty_capture)
    assert t.size == table_size(m, k) == comb(k + 2 * m, 2 * m)
    slots = set()
    for total in range(k + 1):
        for houses in itertools.product(range(total + 1), repeat=2 * m):
            if sum(houses) != total:
                continue
            for who in (0, 1):
                mine, theirs = sides(houses, who, m)
                slot = slot_of(mine, theirs, m)
                assert int(t[slot]) == margin((houses, who)), (houses, who)
                slots.add(slot)
    assert slots == set(range(t.size))  # one-to-one: each board its own entry


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 11), max_size=9), st.integers(0, 1))
def test_six_house_boards_equal_a_plain_minimax(seeds, who):
    """Kalah's own board (six houses a side): boards of up to 9 seeds at random, each seed
    dropped in a house drawn at random."""
    houses = tuple(seeds.count(h) for h in range(12))
    mine, theirs = sides(houses, who, 6)
    assert int(table(6, 9)[slot_of(mine, theirs, 6)]) == minimax(6, True)((houses, who))


def test_the_table_holds_the_strong_solutions_margins():
    """Kalah(3, 3) solved whole by the tier solver: every position it reaches with at most
    10 seeds in play has the margin the table gives its houses."""
    game, ref = Kalah(3, 3, ranked=True), solve(Kalah(3, 3, ranked=True))
    t, checked = table(3, 10), 0
    for code in ref:
        houses, who = game.houses_of(code)
        if sum(houses) <= 10:
            mine, theirs = sides(tuple(houses), who, 3)
            assert int(t[slot_of(mine, theirs, 3)]) == ref.value(code), code
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("ranked", [False, True])
def test_search_with_the_table_gives_the_same_answers_with_fewer_nodes(tmp_path, ranked):
    """Kalah(3, 3) on either code: at random positions the search reading the table (the
    game's dense_index) proves the strong solution's value and remoteness and every move's,
    in fewer nodes in all."""
    game = Kalah(3, 3, ranked=ranked)
    ref = solve(game)
    game.build_dense_endgame(9, tmp_path / "dense")
    leaf = game.dense_endgame(tmp_path / "dense")
    tried = random.Random(5).sample(list(ref), 12) + [game.initial()]
    nodes = [0, 0]
    for pos in tried:
        for i, endgame in enumerate((None, leaf)):
            clear_table()
            r = search(game, pos, analyze=True, endgame=endgame)
            assert (r.value, r.remoteness) == (ref.value(pos), ref.remoteness(pos)), pos
            assert sorted((mv.move, mv.value, mv.remoteness) for mv in r.moves) == \
                sorted((mv.move, mv.value, mv.remoteness) for mv in ref.move_values(pos))
            nodes[i] += r.nodes
    assert nodes[1] < nodes[0]


def test_kalah_6_3_keeps_its_published_margin_with_the_table(tmp_path):
    """Kalah(6, 3): +2 (Irving, Donkers and Uiterwijk 2000), with a 10-seed table and
    without, the table saving nodes."""
    game = Kalah(6, 3)
    game.build_dense_endgame(10, tmp_path / "d")
    clear_table()
    plain = search(game, remoteness=False)
    clear_table()
    read = search(game, remoteness=False, endgame=game.dense_endgame(tmp_path / "d"))
    assert plain.value == read.value == 2
    assert read.nodes < plain.nodes


def test_a_saved_table_is_checked_when_it_is_read(tmp_path):
    t = table(3, 7)
    save_table(tmp_path / "t", t, 3, 7, True)
    back, k = load_table(tmp_path / "t", 3, True)
    assert k == 7 and np.array_equal(back, t)
    with pytest.raises(InputError, match="not of 4 houses"):
        load_table(tmp_path / "t", 4, True)
    with pytest.raises(InputError, match=r"empty_capture=True\), not of 3 houses "
                                         r"\(empty_capture=False"):
        load_table(tmp_path / "t", 3, False)
    np.save(tmp_path / "t" / "table.npy", t[:-1])
    with pytest.raises(InputError, match=f"holds {t.size - 1:,} int8 entries"):
        load_table(tmp_path / "t", 3, True)
    with pytest.raises(InputError, match="holds no dense Kalah table"):
        load_table(tmp_path / "nothing", 3, True)
    with pytest.raises(InputError, match="not the table of 3 houses and 6 seeds"):
        save_table(tmp_path / "u", t, 3, 6, True)
    with pytest.raises(ValueError, match="from 0 to 18"):
        Kalah(3, 3).build_dense_endgame(19, tmp_path / "v")


def test_the_commands_build_the_table_and_search_with_it(tmp_path):
    target, runner, where = "kalah(houses=3, seeds=2)", CliRunner(), str(tmp_path / "d")
    out = runner.invoke(main, ["solve", target, "--store", where, "--endgame", "6",
                               "--dense"])
    assert out.exit_code == 0, out.output
    assert f"dense endgame table of {comb(12, 6):,} positions (at most 6 seeds" in out.stdout
    out = runner.invoke(main, ["search", target, "--store", where, "--value-only"])
    assert out.exit_code == 0, out.output
    assert "value: +4 (remoteness not proven)" in out.stdout  # as with the tiered store
    out = runner.invoke(main, ["search", "kalah(houses=2, seeds=2)", "--store", where])
    assert out.exit_code == 1 and "not of 2 houses" in out.stderr
    out = runner.invoke(main, ["search", "nim(heaps=(1, 2))", "--store", where])
    assert out.exit_code == 2 and "cannot read (no dense_endgame)" in out.stderr
    out = runner.invoke(main, ["solve", target, "--store", where, "--dense"])
    assert out.exit_code == 2 and "give --store DIR and --endgame K" in out.stderr
    out = runner.invoke(main, ["solve", "nim(heaps=(1, 2))", "--store", where,
                               "--endgame", "2", "--dense"])
    assert out.exit_code == 2 and "has no build_dense_endgame" in out.stderr
