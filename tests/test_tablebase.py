"""Tiered solving through a real local Dask cluster equals the in-memory engine, position by
position; a stopped and resumed solve writes the same store."""

from __future__ import annotations

import random

import pyarrow.parquet as pq
import pytest

from perfectplay import Value, solve
from perfectplay.coins import CoinsGame
from perfectplay.portal import PortalGame, parse_board
from perfectplay.tablebase import SolveStopped, _client, analyze, query, solve_tiered


@pytest.fixture(scope="module")
def client():
    c = _client(None, 2)
    yield c
    cluster = c.cluster
    c.close()
    cluster.close()


class LayeredGraph:
    """Positions (tier, node); moves inside a tier form cycles, others climb; terminals
    win, lose or tie. Every move passes the turn; the node set per tier is small."""

    def __init__(self, seed: int, tiers: int = 4, width: int = 5):
        rng = random.Random(seed)
        self.succ = {}
        self.term = {}
        for t in range(tiers):
            for v in range(width):
                if t > 0 and rng.random() < 0.2:
                    self.term[(t, v)] = rng.choice([Value.WIN, Value.LOSE, Value.TIE])
                    continue
                kids = []
                for _ in range(rng.randint(1, 3)):
                    if t + 1 < tiers and rng.random() < 0.5:
                        kids.append((rng.randint(t + 1, tiers - 1), rng.randrange(width)))
                    else:
                        kids.append((t, rng.randrange(width)))
                self.succ[(t, v)] = kids
        self.width = width

    def initial(self):
        return (0, 0)

    def moves(self, pos):
        return [] if pos in self.term else list(range(len(self.succ[pos])))

    def play(self, pos, k):
        return self.succ[pos][k]

    def outcome(self, pos):
        return self.term.get(pos)

    def tier(self, pos):
        return pos[0]

    def encode(self, pos):
        return pos[0] * self.width + pos[1]

    def decode(self, code):
        return divmod(int(code), self.width)


def same_as_engine(game, store):
    s = solve(game)
    rows = query(store, [game.encode(p) for p in s.graph.positions])
    for pos, row in zip(s.graph.positions, rows, strict=True):
        v = s.value(pos)
        assert row["found"]
        assert row["value"] == (v.value if isinstance(v, Value) else v), pos
        assert row["remoteness"] == s.remoteness(pos), pos
        if row["best_move"]:  # the stored best move achieves the position's value
            mv = next(m for m in s.move_values(pos) if repr(m.move) == row["best_move"])
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
    done = sorted(p.name for p in (tmp_path / "resumed" / "solved").glob("*.parquet"))
    assert len(done) == 3
    solve_tiered(g, tmp_path / "resumed", client=client)
    for t in clean.tiers:
        a = pq.read_table(tmp_path / "clean" / "solved" / f"tier={t}.parquet")
        b = pq.read_table(tmp_path / "resumed" / "solved" / f"tier={t}.parquet")
        assert a.equals(b), t


def test_games_without_tiers_are_refused(tmp_path):
    from perfectplay import GameError

    class Plain:
        def initial(self):
            return 0

    with pytest.raises(GameError, match="tier"):
        solve_tiered(Plain(), tmp_path)
