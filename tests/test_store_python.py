"""Stores of Python games, solved through a real local Dask cluster, equal the in-memory
engine position by position; a stopped and resumed solve writes the same bytes; the old
format is refused with how to rebuild."""

from __future__ import annotations

import filecmp
import json

import pytest

from layered import LayeredGraph
from perfectplay import Value, solve
from perfectplay.coins import CoinsGame
from perfectplay.portal import PortalGame, parse_board
from perfectplay.store import SolveStopped, StoreError, analyze, open_store, query, solve_tiered


def same_as_engine(game, store):
    s = solve(game)
    rows = query(store, [game.encode(p) for p in s.graph.positions], game=game)
    with open_store(store, game) as tb:
        for pos, row in zip(s.graph.positions, rows, strict=True):
            v = s.value(pos)
            assert row["found"]
            assert row["value"] == (v.value if isinstance(v, Value) else v), pos
            assert row["remoteness"] == s.remoteness(pos), pos
            best = tb.best_move(pos)  # the store's best move achieves the position's value
            if best is not None:
                mv = next(m for m in s.move_values(pos) if m.move == best)
                assert (mv.value, mv.remoteness) == (v, s.remoteness(pos)), pos
    return s


def test_cyclic_tiers_with_ties_and_draws_equal_the_engine(client, tmp_path):
    seen = set()
    for seed in range(25):
        s = same_as_engine(g := LayeredGraph(seed), solve_tiered(g, tmp_path / str(seed),
                                                                 client=client).store)
        seen |= set(s.counts().by_value)
    assert {Value.WIN, Value.LOSE, Value.DRAW} <= seen  # the cases that matter occurred


def test_portal_and_coins_equal_the_engine(client, tmp_path):
    g = PortalGame(parse_board(".O#.\n...O\n.#.."))
    tb = solve_tiered(g, tmp_path / "portal", client=client)
    same_as_engine(g, tb.store)
    stats = analyze(tb.store)
    assert stats["total"] == tb.positions == len(solve(g))
    assert sum(stats["by_tier"].values()) == stats["total"]
    coins = CoinsGame([7, 9, 2, 6, 4, 3, -5, 8, 0])
    same_as_engine(coins, solve_tiered(coins, tmp_path / "coins", client=client).store)


def test_a_stopped_solve_resumes_to_the_same_store(client, tmp_path):
    g = PortalGame(parse_board(".O..\n...O\n.#.."))
    clean = solve_tiered(g, tmp_path / "clean", client=client)
    with pytest.raises(SolveStopped):
        solve_tiered(g, tmp_path / "resumed", client=client, stop_after=3)
    manifest = json.loads((tmp_path / "resumed" / "manifest.json").read_text())
    assert len(manifest["packed"]) == 3 and not manifest.get("done")  # three tiers solved
    again = solve_tiered(g, tmp_path / "resumed", client=client)
    assert again.resumed and not again.already
    assert solve_tiered(g, tmp_path / "resumed", client=client).already
    for t in clean.tiers:
        for kind in ("keys", "index", "cells"):
            assert filecmp.cmp(tmp_path / "clean" / "tiers" / f"{t}.{kind}",
                               tmp_path / "resumed" / "tiers" / f"{t}.{kind}",
                               shallow=False), (t, kind)


def test_stores_of_the_old_format_are_refused_with_how_to_rebuild(tmp_path):
    for old in ({"enumerated": True, "tiers": [0], "game": None},
                {"format": "compiled-v1", "game": None, "enumerated": True}):
        (tmp_path / "manifest.json").write_text(json.dumps(old))
        with pytest.raises(StoreError, match="rebuild it: perfectplay solve GAME --store"):
            open_store(tmp_path)
        with pytest.raises(StoreError, match="rebuild it"):
            solve_tiered(LayeredGraph(0), tmp_path)


def test_games_without_tiers_are_refused(tmp_path):
    from perfectplay import GameError

    class Plain:
        def initial(self):
            return 0

    with pytest.raises(GameError, match="tier"):
        solve_tiered(Plain(), tmp_path)


EXACT_GAME = '''
from fractions import Fraction

class ExactPoints:
    """A scored tiered game whose margins float64 cannot hold: 2**60 + 1 and thirds.
    Position (n, turn): n counters taken; move k takes k; the turn passes."""

    def __init__(self, size=7):
        self.size = size

    def initial(self):
        return 0

    def moves(self, n):
        return [k for k in (1, 2, 3) if n + k <= self.size]

    def play(self, n, k):
        return n + k

    def payoff(self, n, k):
        return {1: Fraction(1, 3), 2: 2**60 + 1, 3: -(2**61)}[k] + n

    def outcome(self, n):
        return 0 if n >= self.size else None

    def tier(self, n):
        return n

    def encode(self, n):
        return n

    def decode(self, code):
        return int(code)

    def move_name(self, k):
        return f"take{k}"
'''


@pytest.fixture(scope="module")
def exact_store(client, tmp_path_factory):
    from perfectplay.engine.target import load_target

    folder = tmp_path_factory.mktemp("exact")
    (folder / "exact_game.py").write_text(EXACT_GAME)
    ref = f"{folder / 'exact_game.py'}:ExactPoints(7)"
    game = load_target(ref)
    tb = solve_tiered(game, folder / "tb", client=client, game_ref=ref)
    return game, tb.store


def test_margins_come_back_exact_and_open_store_reads_like_a_solution(exact_store):
    from fractions import Fraction

    from perfectplay.store import NotInStore

    game, store = exact_store
    ref = solve(game, method="python")
    with open_store(store) as tb:
        for pos in ref:
            assert tb.value(pos) == ref.value(pos) and type(tb.value(pos)) is type(
                ref.value(pos)), pos  # exact: big ints and Fractions, never floats
            assert tb.remoteness(pos) == ref.remoteness(pos)
            assert [(m.move, m.value, m.remoteness) for m in tb.move_values(pos)] == \
                [(m.move, m.value, m.remoteness) for m in ref.move_values(pos)]
            best = tb.best_move(pos)
            assert best is None or any(m.move == best and m.value == ref.value(pos)
                                       for m in ref.move_values(pos))
        assert any(isinstance(ref.value(p), Fraction) for p in ref)
        assert any(abs(ref.value(p)) > 2**60 for p in ref)
        with pytest.raises(KeyError):
            tb.value(99)
        with pytest.raises(NotInStore, match="not in the store"):
            tb.remoteness(-5)
        found = tb.lookup([0, 3, 99])
        assert found["found"].tolist() == [True, True, False]
        assert found["value"][1] == ref.value(3) and found["remoteness"][2] == -1
        assert tb.counts() == ref.counts() and len(tb) == len(ref)  # one Counts type


def test_query_takes_positions_and_moves_and_never_a_traceback(exact_store):
    import json as js

    from click.testing import CliRunner

    from perfectplay.cli import main

    game, store = exact_store
    ref = solve(game, method="python")
    run = CliRunner().invoke
    r = run(main, ["query", str(store), "--moves", "take1,take2", "--json"])
    assert r.exit_code == 0, r.output
    data = js.loads(r.output)
    assert data["position"] == 3 and data["remoteness"] == ref.remoteness(3)
    r = run(main, ["query", str(store)])
    assert r.exit_code == 0 and "position: 0" in r.output and "move take1:" in r.output
    for args, words in ((["nope("], "not a Python literal"), (["99"], "not in the store"),
                        (["--moves", "take9"], "not legal"), (["1", "--moves", "take1"],
                                                              "not both")):
        r = run(main, ["query", str(store), *args])
        assert r.exit_code == 1 and words in r.stderr and r.exception is None or \
            isinstance(r.exception, SystemExit), (args, r.output)


class InsideTiers:
    """A scored game whose moves often stay inside their tier (tier = n // 3), acyclic: the
    store must solve the inside of a tier exactly, margins and remoteness as the engine."""

    def __init__(self, size=11):
        self.size = size

    def initial(self):
        return 0

    def moves(self, n):
        return [k for k in (1, 2) if n + k <= self.size]

    def play(self, n, k):
        return n + k

    def payoff(self, n, k):
        return (n * 7 + k * 3) % 5 - 2

    def outcome(self, n):
        return 0 if n >= self.size else None

    def tier(self, n):
        return n // 3

    def encode(self, n):
        return n

    def decode(self, code):
        return int(code)


def test_scored_games_may_move_inside_a_tier(client, tmp_path):
    for size in (5, 11, 16):
        g = InsideTiers(size)
        same_as_engine(g, solve_tiered(g, tmp_path / str(size), client=client).store)
