"""Kalah(6, n) within reach of search: the ranked position code (houses in the combinatorial
number system), the margin bound, and endgame stores the search reads at its leaves
(Irving, Donkers and Uiterwijk 2000). Each is checked against an independent method: the
bit-field code, the Python twin written apart, and the strong solution."""

import random
from functools import cache
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.catalog.kalah import Kalah, KalahPy
from perfectplay.engine import solve
from perfectplay.engine.compiled.staticrules import static_rules
from perfectplay.engine.proof import backends as sb
from perfectplay.engine.proof.driver import clear_table, search
from perfectplay.errors import GameError
from perfectplay.store import open_store, solve_tiered

BIG = Kalah(6, 4)  # does not fit a bit field a house: ranked


def test_kalah_6_4_is_ranked_and_its_start_reads_back():
    assert BIG.wide
    assert BIG.houses_of(BIG.initial()) == ([4] * 12, 0)
    assert BIG.draw(BIG.initial()).splitlines()[1] == "north  4  4  4  4  4  4"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 48), min_size=12, max_size=12).filter(lambda p: sum(p) <= 48),
       st.integers(0, 1))
def test_ranked_code_round_trips(pits, who):
    code = int(BIG._pack(np.array(pits, np.int64), who))
    assert 0 <= code >> 15 < comb(60, 12)
    assert BIG.houses_of(code) == (pits, who)
    mine, theirs = (sum(pits[6:]), sum(pits[:6])) if who else (sum(pits[:6]), sum(pits[6:]))
    ended = mine == 0 or theirs == 0
    assert (BIG.outcome(code) is not None) == ended
    if ended:
        assert BIG.outcome(code) == mine - theirs


def test_ranked_kalah_6_4_plays_as_its_python_twin():
    """1,000 random games of Kalah(6, 4): the ranked code's moves, children and points equal
    the Python twin's (written apart, with the stores on the board)."""
    twin = KalahPy(6, 4)
    rng = random.Random(64)
    for _ in range(1000):
        code, pos = BIG.initial(), twin.initial()
        while True:
            assert BIG.houses_of(code) == (list(pos[0]), pos[1])
            assert BIG.outcome(code) == twin.outcome(pos)
            if twin.outcome(pos) is not None:
                break
            moves = BIG.moves(code)
            assert moves == twin.moves(pos)
            m = rng.choice(moves)
            assert BIG.payoff(code, m) == twin.payoff(pos, m)
            code, pos = BIG.play(code, m), twin.play(pos, m)


# Each Kalah(m, n) compiles its own kernels (most of a test's time): one instance and one
# strong solution per rules, shared by every test in this module that asks for them.
@cache
def kalah(m: int, n: int, ranked: bool = False) -> Kalah:
    return Kalah(m, n, ranked=ranked)


@cache
def solved(m: int, n: int, ranked: bool = False):
    return solve(kalah(m, n, ranked))


@pytest.mark.parametrize("m,n", [(2, 2), (3, 3)])
def test_ranked_code_solves_as_the_bit_fields(m, n):
    a, b = solved(m, n), solved(m, n, ranked=True)
    assert (a.value(), a.remoteness()) == (b.value(), b.remoteness())
    assert a.counts() == b.counts()


def test_endgame_positions_are_every_board_with_few_seeds():
    g = kalah(3, 2)
    codes = g.endgame_positions(4)
    assert codes.size == 2 * comb(4 + 6, 6) == np.unique(codes).size
    boards = {(tuple(p), w) for p, w in map(g.houses_of, codes.tolist())}
    every = {(p, w) for p in np.ndindex(*(5,) * 6) if sum(p) <= 4 for w in (0, 1)}
    assert boards == every
    with pytest.raises(ValueError, match="k must be"):
        g.endgame_positions(13)


def _positions(solution, k: int, seed: int) -> list[int]:
    positions = list(solution)
    return random.Random(seed).sample(positions, min(k, len(positions)))


# Kalah(3, 3) on the ranked code, the one Kalah(6, 4)'s endgame store uses (the bit-field
# code's store is the cut-into-tasks test's, on Kalah(3, 2); each code compiles its own
# store and search kernels, and the solution is the one the ranked-code test shares).
@pytest.mark.parametrize("m,n,k,ranked", [(3, 3, 8, True)])
def test_search_with_an_endgame_store_equals_the_strong_solution(client, tmp_path, m, n, k,
                                                                 ranked):
    """The store holds exactly the solution's values; search with it and without it equals
    the strong solution (value, remoteness, every move) at random positions, the start and
    positions inside the store; the store only saves work."""
    g = kalah(m, n, ranked)
    ref = solved(m, n, ranked)
    solve_tiered(g, tmp_path / "eg", roots=g.endgame_positions(k), client=client)
    with open_store(tmp_path / "eg", g) as store:
        held = np.concatenate([store.codes(t) for t in store.tiers])
        assert held.size >= 2 * comb(k + 2 * m, 2 * m)  # the roots and all they reach
        for code in random.Random(k).sample(held.tolist(), 300):
            if code in ref:  # reachable from the start
                assert (store.value(code), store.remoteness(code)) == \
                    (ref.value(code), ref.remoteness(code))
        leaf = store.leaf()
        tried = _positions(ref, 10, m * n) + [g.initial()]
        tried += [c for c in held.tolist()[:400] if c in ref][:3]
        nodes = [0, 0]
        for pos in tried:
            for i, endgame in enumerate((None, leaf)):
                clear_table()  # each search from an empty table: the nodes compare
                r = search(g, pos, analyze=True, endgame=endgame)
                assert (r.value, r.remoteness) == (ref.value(pos), ref.remoteness(pos)), pos
                mine = sorted((mv.move, mv.value, mv.remoteness) for mv in r.moves)
                theirs = sorted((mv.move, mv.value, mv.remoteness)
                                for mv in ref.move_values(pos))
                assert mine == theirs, pos
                nodes[i] += r.nodes
        assert nodes[1] < nodes[0]  # the store answered some leaves
    # with the store and without, one compiled probe (the empty leaf has the store's dtypes)
    rules = static_rules(g.rules)
    assert rules is not None
    assert len([s for s in sb.sk.pin_many_cached.signatures if s[5] == rules.numba_type]) == 1


def test_a_stopped_margin_search_reports_bounds_within_the_seeds_in_play():
    """Kalah(3, 3) stopped after a few nodes: its bounds lie within the 18 seeds in play
    (margin_bound), not the kernel's LIMIT, and hold the strong solution's value; the text
    says so in points."""
    g = kalah(3, 3, True)
    ref = solved(3, 3, True)
    for pos in _positions(ref, 8, 9) + [g.initial()]:
        seeds = sum(g.houses_of(pos)[0])
        for limit in (1, 50, 400):
            clear_table()
            r = search(g, pos, node_limit=limit, remoteness=False)
            if r.exact:
                assert r.value == ref.value(pos)
                continue
            lower, upper = int(r.lower), int(r.upper)  # the bounds as words: "-18", "+4"
            assert -seeds <= lower <= ref.value(pos) <= upper <= seeds, (pos, limit)
            assert f"between {r.lower} and {r.upper}" in r.describe()


def test_search_refuses_the_store_of_another_game(client, tmp_path):
    g = kalah(2, 2)
    solve_tiered(g, tmp_path / "eg", roots=g.endgame_positions(3), client=client)
    with open_store(tmp_path / "eg", g) as store, pytest.raises(
            GameError, match=r"holds Kalah\(2, 2\), not Kalah\(3, 2\)"):
        search(kalah(3, 2), endgame=store)


def test_cli_builds_an_endgame_store_and_searches_with_it(tmp_path):
    """The commands, through the click command the ``perfectplay`` script calls (in this
    process: the kernels compiled here serve them)."""
    from click.testing import CliRunner

    from perfectplay.cli import main

    target, runner = "kalah(houses=3, seeds=2)", CliRunner()
    out = runner.invoke(main, ["solve", target, "--store", str(tmp_path / "eg"),
                               "--endgame", "5", "--workers", "1"])
    assert out.exit_code == 0, out.output
    assert f"solved {2 * comb(11, 6):,} positions" in out.stdout
    out = runner.invoke(main, ["search", target, "--store", str(tmp_path / "eg"),
                               "--value-only"])
    assert out.exit_code == 0, out.output
    assert "value: +4 (remoteness not proven)" in out.stdout
    out = runner.invoke(main, ["solve", target, "--endgame", "5"])
    assert out.exit_code == 2 and "give --store DIR too" in out.stderr


def test_an_endgame_store_cut_into_many_tasks_holds_every_root(client, tmp_path,
                                                               monkeypatch):
    """Thresholds so small that every tier's roots are gathered in several key ranges (the
    roots' files must be sorted for that): the store holds exactly the 2 x C(k + 6, 6)
    boards with at most k seeds (no move adds seeds), each with the value search finds
    without it."""
    from perfectplay.store import compiled as store_compiled
    from perfectplay.store import runner as store_runner

    monkeypatch.setattr(store_runner, "LOCAL", 8)
    monkeypatch.setattr(store_compiled, "LOCAL_GATHER", 8)
    monkeypatch.setattr(store_compiled, "GATHER_KEYS", 16)
    g, k = kalah(3, 2), 5
    roots = g.endgame_positions(k)
    tb = solve_tiered(g, tmp_path / "eg", roots=roots, client=client)
    assert tb.positions == roots.size == 2 * comb(k + 6, 6)
    with open_store(tmp_path / "eg", g) as store:
        got = store.lookup(roots)
        assert got["found"].all()
        for i in random.Random(5).sample(range(roots.size), 40):
            r = search(g, int(roots[i]))
            assert (got["value"][i], got["remoteness"][i]) == (r.value, r.remoteness)
