"""Compiled games' out-of-core stores, through a real local Dask cluster, equal the in-memory
engine position by position: win/lose games, scored games with extra turns and margins near
2**62, Connect Four with its mirror symmetry; a stopped solve resumes to the same bytes."""

from __future__ import annotations

import filecmp

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from numba import njit

from perfectplay import GameError, Value, solve
from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.catalog.kalah import Kalah
from perfectplay.engine import ONGOING, CompiledGame
from perfectplay.store import SolveStopped, analyze, open_store, solve_tiered
from perfectplay.store import compiled as store_compiled
from perfectplay.store import runner as store_runner
from perfectplay.store.packed import keyed_slots
from perfectplay.store.sortedtiers import (
    build_index,
    index_bits,
    mix_all,
    sort_unique,
    unmix_all,
)
from test_compiled import WIDTH, _h, random_game

# -- games whose moves may stay inside their tier -------------------------------------------
# bits 0-7 node, 8-15 tier, 16-31 seed, 32 scored, 33 player, 34 cyclic (inside a tier).
LAYER, LAYERS = 10, 5


@njit
def _p(code):
    return (code & 255, (code >> 8) & 255, (code >> 16) & 0xFFFF, (code >> 32) & 1,
            (code >> 33) & 1, (code >> 34) & 1)


@njit
def i_moves(code, out):
    node, t, seed, _, _, _ = _p(code)
    k = _h(seed, t * 256 + node, 2) % 4
    for j in range(k):
        out[j] = j
    return k


@njit
def i_play(code, move):
    node, t, seed, _, _, cyclic = _p(code)
    hv = _h(seed, t * 256 + node, 10 + move)
    if t + 1 < LAYERS and hv % 3 == 0:  # climb
        t2 = t + 1 + (hv // 3) % (LAYERS - 1 - t)
        n2 = (hv // 7) % LAYER
    elif cyclic:
        t2, n2 = t, (hv // 3) % LAYER  # anywhere in the tier: cycles
    elif node + 1 < LAYER:
        t2, n2 = t, node + 1 + (hv // 3) % (LAYER - 1 - node)  # up the tier: no cycle
    else:
        t2, n2 = t, node
    if t2 == t and n2 == node and not cyclic:
        return code  # cannot happen: a position without moves has k = 0 below
    return (code & ~0xFFFF) | (t2 << 8) | n2


@njit
def i_outcome(code):
    node, t, seed, _, _, cyclic = _p(code)
    if not cyclic and node == LAYER - 1 and t == LAYERS - 1:
        return 3
    if _h(seed, t * 256 + node, 1) % 6 == 0:
        return 1 + _h(seed, t * 256 + node, 3) % 3
    if not cyclic and node == LAYER - 1:
        return 3  # the last of a tier ends (an acyclic tier must end somewhere)
    return ONGOING


@njit
def i_score(code):
    node, t, seed, _, _, _ = _p(code)
    return _h(seed, t * 256 + node, 4) % 9 - 4


@njit
def i_payoff(code, move):
    node, t, seed, _, _, _ = _p(code)
    return _h(seed, t * 256 + node, 20 + move) % 5 - 2


@njit
def i_player(code):
    node, t, seed, _, with_player, _ = _p(code)
    return _h(seed, t * 256 + node, 5) % 2 if with_player else 0


@njit
def i_tier(code):
    return (code >> 8) & 255


def inside_game(seed: int, *, scored: bool, player: bool, cyclic: bool) -> CompiledGame:
    start = (seed << 16) | (scored << 32) | (player << 33) | (cyclic << 34)
    return CompiledGame(start, i_moves, i_play, i_outcome, max_moves=3,
                        score=i_score if scored else None, payoff=i_payoff if scored else None,
                        player=i_player if player else None, tier=i_tier)


@pytest.fixture
def tiny(monkeypatch):
    """Thresholds so small that every tier of a small game is cut into several gather,
    expand and solve tasks on the cluster, and children files hold a few keys each."""
    monkeypatch.setattr(store_runner, "LOCAL", 8)
    monkeypatch.setattr(store_compiled, "LOCAL_GATHER", 8)
    monkeypatch.setattr(store_compiled, "GATHER_KEYS", 16)
    monkeypatch.setattr(store_compiled, "EXPAND_BUFFER", 12)


def same_as_engine(game, store) -> None:
    """Every position of the in-memory solution, read from the store: value, remoteness,
    the moves' values, and the bulk look-up; counts by value agree with DuckDB's."""
    ref = solve(game, method="graph")  # compiled discovery: inside moves allowed
    positions = list(ref.positions())
    with open_store(store) as tb:
        tb._game = game
        got = tb.lookup(np.array(positions, np.int64))
        assert got["found"].all()
        for pos, v, r in zip(positions, got["value"], got["remoteness"], strict=True):
            assert v == ref.value(pos), pos
            assert (None if r < 0 else r) == ref.remoteness(pos), pos  # -1: a draw
        for pos in positions[:: max(1, len(positions) // 300)]:
            assert tb.value(pos) == ref.value(pos)
            assert tb.remoteness(pos) == ref.remoteness(pos)
            assert [(m.move, m.value, m.remoteness) for m in tb.move_values(pos)] == \
                [(m.move, m.value, m.remoteness) for m in ref.move_values(pos)]
            assert tb.best_move(pos) == ref.best_move(pos)
        with pytest.raises(KeyError):
            tb.value(np.int64(2**62 + 12345))
    with open_store(store) as bare:  # no game recorded: stored codes still answer by key
        if not game.has_rank:
            canon = np.array([game.canonical(p) for p in positions[:500]], np.int64)
            got = bare.lookup(canon)
            assert got["found"].all()
            assert list(got["value"]) == [ref.value(p) for p in positions[:500]]
    stored = sum(analyze(store)["by_value"].values())
    canonical = {int(game.canonical(p)) for p in positions}
    assert stored == len(canonical)


def test_sorted_tier_kernels_against_numpy():
    rng = np.random.default_rng(5)
    codes = rng.integers(-(2**63) + 1, 2**63 - 1, 20_000, dtype=np.int64)
    assert (unmix_all(mix_all(codes)) == codes).all()
    keys = mix_all(np.concatenate([codes, codes[:5000], np.arange(300)]))
    uniq = sort_unique(keys)
    assert (uniq == np.unique(keys)).all()
    for narrow in (keys[:1], keys[:2], np.full(7, keys[0]), np.sort(keys)[:500]):
        assert (sort_unique(narrow) == np.unique(narrow)).all()
    for n in (0, 1, 5, 17, uniq.size):
        part = uniq[:n]
        bits = index_bits(n)
        index = build_index(part, bits)
        wanted = np.concatenate([part, part + np.uint64(1), keys[:50]])
        got = keyed_slots(unmix_all(wanted), part, index, bits)  # a tier holding ``part``
        pos = np.searchsorted(part, wanted)
        hit = (pos < n) & (part[np.minimum(pos, max(n - 1, 0))] == wanted) if n else \
            np.zeros(wanted.size, bool)
        assert ((got >= 0) == hit).all() and (got[hit] == pos[hit]).all()


# one fixed game of each kind (win/lose or scored, with or without a player to move, huge
# margins) and one drawn one (a new draw each run; each solve on the cluster costs about
# 2 s, the drawn games run on the kernels their kind compiled); every kind compiles its own
# set of kernels
@settings(max_examples=1, deadline=None)
@given(st.integers(0, 2**16 - 1), st.integers(3, 30).map(lambda k: k * WIDTH),
       st.booleans(), st.booleans(), st.booleans())
@example(18, 120, False, False, False)  # 50 positions, a loss in 8
@example(18, 120, False, True, False)  # 50 positions, a loss in 6
@example(13, 120, True, False, False)  # 44 positions, -1 in 4
@example(22, 120, True, True, True)  # 51 positions, margins of 2**61
def test_random_compiled_games_equal_the_engine(client, tmp_path_factory, seed, n, scored,
                                                player, huge):
    game = random_game(seed, n, scored=scored, player=player, huge=huge and scored,
                       tiered=True)
    try:
        ref = solve(game)
    except GameError:  # a margin beyond int64: the store must refuse it the same way
        with pytest.raises(GameError, match="overflows"):
            solve_tiered(game, tmp_path_factory.mktemp("st") / "tb", client=client)
        return
    del ref
    tb = solve_tiered(game, tmp_path_factory.mktemp("st") / "tb", client=client)
    same_as_engine(game, tb.store)


# one fixed game of each kind and one drawn one (as above)
@settings(max_examples=1, deadline=None)
@given(st.integers(0, 2**16 - 1), st.booleans(), st.booleans())
@example(13, False, False)  # cyclic tiers, 25 positions
@example(13, False, True)  # cyclic tiers, a player to move, 25 positions
@example(28, True, False)  # scored, moving up inside tiers, 11 positions
@example(28, True, True)  # scored, a player to move, 11 positions
def test_moves_inside_a_tier_cycles_and_draws_included(client, tmp_path_factory, seed,
                                                        scored, player):
    """Win/lose games with cycles inside tiers (retrograde seeded from the tiers above,
    certified draws included) and scored games moving up inside a tier."""
    game = inside_game(seed, scored=scored, player=player, cyclic=not scored)
    tb = solve_tiered(game, tmp_path_factory.mktemp("st") / "tb", client=client)
    same_as_engine(game, tb.store)


def kalah_by_seeds_stored(m: int, n: int) -> CompiledGame:
    """Kalah with its natural tier, the seeds stored: a move that stores nothing stays in
    its tier (the example's tier adds the distance sown to make every move climb)."""
    k = Kalah(m, n)
    r, scale = k.rules, 2 * m * n * m + 1
    tier = r.tier

    @njit
    def stored(code):
        return tier(code) // scale

    return CompiledGame(k.start_code, r.moves, r.play, r.outcome, max_moves=m,
                        score=r.score, payoff=r.payoff, player=r.player, tier=stored)


def test_kalah_by_seeds_stored_moves_inside_its_tiers(client, tmp_path, tiny):
    # Kalah(3, 2) alone: 589 of its moves stay inside a tier (Kalah(2, 2) had 4, and cost a
    # compile of its own; plain Kalah(2, 2) on cut thresholds is in the task-path test)
    for m, n in ((3, 2),):
        game = kalah_by_seeds_stored(m, n)
        store = tmp_path / f"k{m}{n}"
        tb = solve_tiered(game, store, client=client)
        assert len(tb.tiers) <= 2 * m * n + 1  # one tier per count of seeds stored
        same_as_engine(game, store)


def test_inside_tiers_reach_draws_and_scored_cycles_are_refused(client, tmp_path):
    values = set()
    for seed in range(40):
        game = inside_game(seed, scored=False, player=seed % 2 == 1, cyclic=True)
        values |= set(solve(game, method="graph").counts().by_value)
    assert Value.DRAW in values
    refused = 0
    for seed in range(6):
        game = inside_game(seed, scored=True, player=False, cyclic=True)
        try:
            solve_tiered(game, tmp_path / f"cyc{seed}", client=client)
        except GameError as exc:
            assert "form a cycle" in str(exc)
            refused += 1
    assert refused


def test_every_task_path_on_the_cluster(process_client, client, tmp_path, tiny):
    """Kalah (scored, extra turns) and Connect Four with the thresholds cut down, so the
    gathers, expansions and solves all run as several cluster tasks: Kalah on worker
    processes as users get them (the game pickled, the package imported there), Connect
    Four (ranked tiers, mirror images) on the cluster of threads (on processes it cost
    each worker its kernels again, 8-10 s on a fresh clone, for no path of its own)."""
    for game, on in ((Kalah(2, 2), process_client), (ConnectFour(3, 4), client)):
        store = tmp_path / game.name.replace(" ", "")
        solve_tiered(game, store, client=on)
        same_as_engine(game, store)


def test_connect_four_keeps_one_board_of_each_mirror_pair(client, tmp_path):
    game = ConnectFour(4, 4)
    tb = solve_tiered(game, tmp_path / "c4", client=client)
    ref = solve(game)
    assert tb.positions < len(ref) * 0.55
    same_as_engine(game, tmp_path / "c4")
    with open_store(tmp_path / "c4", game) as st:
        assert st.value() is Value.TIE and st.remoteness() == 16  # Tromp: 4x4 fills
        assert all(t.ranked and t.cells.dtype == np.uint8 for t in st.tables.values())
    size = sum(f.stat().st_size for f in (tmp_path / "c4" / "tiers").iterdir())
    assert size < 2 * tb.positions  # a bit per rank and a byte per position, no keys


def test_a_stopped_solve_resumes_to_the_same_bytes(client, tmp_path):
    game = Kalah(2, 3)
    whole = solve_tiered(game, tmp_path / "whole", client=client).store
    part = tmp_path / "part"
    runs = 0
    while True:  # each run builds or solves 5 tiers, then stops as a kill would
        runs += 1
        try:
            solve_tiered(game, part, client=client, stop_after=5)
            break
        except SolveStopped:
            assert runs < 100
    same_files(whole, part)


def same_files(whole, part) -> None:
    """Two stores hold the same manifest entries and the same tier files, byte for byte."""
    import json

    a, b = (json.loads((p / "manifest.json").read_text())["tiers"] for p in (whole, part))
    assert a == b
    names = sorted(f.name for f in (whole / "tiers").iterdir())
    assert names == sorted(f.name for f in (part / "tiers").iterdir())
    for name in names:
        assert filecmp.cmp(whole / "tiers" / name, part / "tiers" / name, shallow=False), name
    assert not (part / "work").exists()


def test_a_stopped_enumeration_resumes(client, tmp_path):
    """A run killed while building a tier (bytes appended after the last record, children
    files of a half-done expansion) finishes into the same store."""
    import json

    game = ConnectFour(3, 4)
    whole = solve_tiered(game, tmp_path / "whole", client=client).store
    part = tmp_path / "part"
    with pytest.raises(SolveStopped):
        solve_tiered(game, part, client=client, stop_after=4)
    manifest = json.loads((part / "manifest.json").read_text())
    assert not manifest["enumerated"] and len(manifest["built"]) == 4
    for name in ("keys.u64", "index.i64"):
        with open(part / "work" / "arena" / name, "ab") as fh:
            fh.write(b"\1" * 24)  # what a stopped gather appended
    u = manifest["built"][-1]["tier"] + 1  # the tier being built when it stopped
    junk = part / "work" / "enum" / f"tier={u + 1}" / f"from-{u}-part-0-0-0.u64"
    junk.parent.mkdir(parents=True, exist_ok=True)
    np.arange(5, dtype=np.uint64).tofile(junk)  # a half-done expansion's children
    with open(part / "work" / "enum" / f"tier={u}" / "local.u64", "ab") as fh:
        fh.write(np.arange(3, dtype=np.uint64).tobytes())  # appended after the record
    solve_tiered(game, part, client=client)
    same_files(whole, part)


def test_moves_that_do_not_climb_are_refused_naming_the_position(client, tmp_path):
    from numba import njit

    from perfectplay.engine import ONGOING, CompiledGame

    @njit
    def moves(code, out):
        out[0] = 1
        return 1

    @njit
    def play(code, move):
        return code + 1

    @njit
    def outcome(code):
        return ONGOING if code < 5 else 2

    @njit
    def tier(code):
        return 0 if code == 3 else code  # 2 -> 3 goes down to tier 0

    game = CompiledGame(0, moves, play, outcome, max_moves=1, tier=tier)
    # the check before the store is written names it first; without it, the store's kernel
    with pytest.raises(GameError, match=r"failed its check.*tier"):
        solve_tiered(game, tmp_path / "bad", client=client)
    with pytest.raises(GameError, match="from 2 does not go to a strictly higher tier"):
        solve_tiered(game, tmp_path / "bad", client=client, check=False)


def test_the_cli_solves_a_compiled_store_and_queries_any_board(tmp_path):
    """From the command line: solve into a store, then the start, a position reached by
    moves and its mirror image (not stored itself) give the engine's answers."""
    import json

    from click.testing import CliRunner

    from perfectplay.cli import main

    target = "connect4(width=4, height=3)"
    store = str(tmp_path / "c4")
    run = CliRunner().invoke
    r = run(main, ["solve", target, "--store", store, "--workers", "1"])
    assert r.exit_code == 0, r.output
    assert "one of each symmetric set" in r.output
    game = ConnectFour(4, 3)
    ref = solve(game)
    for moves in ("", "1,2", "4,3"):  # 4,3 is the mirror image of 1,2
        pos = game.initial()
        for m in filter(None, moves.split(",")):
            pos = game.play(pos, int(m) - 1)
        r = run(main, ["query", store, "--json"] + (["--moves", moves] if moves else []))
        assert r.exit_code == 0, r.output
        data = json.loads(r.output)
        assert data["position"] == pos and data["value"] == ref.value(pos).value
        assert data["remoteness"] == ref.remoteness(pos)
    r = run(main, ["query", store, "--moves", "9"])
    assert r.exit_code == 1 and "not legal" in r.stderr
    r = run(main, ["analyze", store, "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["total"] < len(ref)


def test_a_compiled_store_runs_as_plain_python_without_the_jit(tmp_path):
    """NUMBA_DISABLE_JIT=1: the sorted-tier kernels, the store and the Rock's heavy/light
    formula run as Python and give the jitted answers."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = f"""
import warnings
warnings.simplefilter("ignore")  # numpy scalars warn where numba's integers wrap silently
import random
from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.store import open_store, solve_tiered
from perfectplay.rock import solver
from test_rock import random_maze
if __name__ == "__main__":
    game = ConnectFour(3, 3)
    tb = solve_tiered(game, {str(tmp_path / 's')!r}, workers=1)
    with open_store(tb.store, game) as st:
        print(tb.positions, st.value().value, st.remoteness())
    solver.HEAVY_BUDGET, solver.LONG_SEARCH, solver.LIGHT_FACTOR = 1, 0, 0
    rng = random.Random(3)
    mazes = [random_maze(rng, 7, 7, 0.2) for _ in range(20)]
    print(sum(int((solver.solve_with_stats(m)[0].T ==
                   solver.solve_with_stats(m, heavy=False)[0].T).all())
              for m in mazes))
"""
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1",
           "PYTHONPATH": os.pathsep.join([str(root / "examples"), str(root / "tests")])}
    (tmp_path / "run.py").write_text(script)
    out = subprocess.run([sys.executable, str(tmp_path / "run.py")], capture_output=True,
                         text=True, env=env, check=True)
    ref = solve(ConnectFour(3, 3))
    canonical = {ConnectFour(3, 3).canonical(p) for p in ref.positions()}
    assert out.stdout.split() == [str(len(canonical)), ref.value().value,
                                  str(ref.remoteness()), "20"]
