"""Discovery with the forked helper (engine/workers.py) gives exactly the serial arrays.

Run by tests/test_workers.py in a fresh interpreter (the helper forks only where no other
thread runs, and earlier tests of a whole suite leave threads behind):
``python -m pytest tests/workers_cases.py``.

The helper starts after ``START_AFTER`` positions; the tests lower it so that small games
fork, and compare every array of the graph with a serial discovery of the same game, on
int, encoded, object and scored games, random ones included, and on games that fail."""

from __future__ import annotations

import multiprocessing
import os
import random
import threading

import numpy as np
import pytest

from perfectplay import GameError, Value, solve
from perfectplay.catalog.kalah import Kalah, KalahPy
from perfectplay.engine import workers
from perfectplay.engine.discovery.graph import discover

pytestmark = pytest.mark.skipif(not workers.helper_allowed(),
                                reason="no fork, a single CPU or other threads here: the "
                                "helper never starts")


class RandomIntGame:
    """A random cyclic win/lose game over ints 0..n-1 (start 0)."""

    def __init__(self, seed: int, n: int, big: bool = False) -> None:
        rng = random.Random(seed)
        self.succ = [[rng.randrange(n) for _ in range(rng.randrange(0, 4))] for _ in range(n)]
        self.terminal = {v: rng.choice([Value.WIN, Value.LOSE, Value.TIE])
                         for v in range(n) if rng.random() < 0.1}
        self.succ[0] = list(range(1, n))  # every position reachable
        self.big = big

    def initial(self):
        return 0

    def moves(self, v):
        return list(range(len(self.succ[v % 2**70])))

    def play(self, v, k):
        child = self.succ[v % 2**70][k]
        if self.big and v and child == len(self.succ) - 1:
            return child + 2**70  # met only past the first batch: in the helper's halves
        return child

    def outcome(self, v):
        return self.terminal.get(v % 2**70)


class RandomTupleGame(RandomIntGame):
    """The same game with 1-tuples for positions (kept as objects)."""

    def initial(self):
        return (0,)

    def moves(self, p):
        return super().moves(p[0])

    def play(self, p, k):
        return (super().play(p[0], k),)

    def outcome(self, p):
        return super().outcome(p[0])


class EncodedGame(RandomTupleGame):
    """The tuple game with encode/decode (kept as codes)."""

    def encode(self, p):
        return p[0]

    def decode(self, c):
        return (c,)


class FailsLate(RandomIntGame):
    """play raises on one position met late in discovery (in the helper's half)."""

    def __init__(self, seed: int, n: int, bad: int) -> None:
        super().__init__(seed, n)
        self.bad = bad

    def play(self, v, k):
        if v == self.bad:
            raise ValueError(f"no moves from {v} today")
        return super().play(v, k)


def arrays(graph):
    out = {"offsets": graph.offsets, "children": graph.children, "terminal": graph.terminal}
    for name in ("codes", "payoffs", "finals"):
        value = getattr(graph, name, None)
        if value is not None:
            out[name] = np.asarray(value)
    if getattr(graph, "objects", None) is not None:
        out["objects"] = list(graph.objects)
    return out


def serial_and_forked(monkeypatch, game, start_after=5):
    with monkeypatch.context() as m:
        m.setenv("PERFECTPLAY_WORKERS", "1")
        serial = discover(game, progress=False)
    monkeypatch.setattr(workers, "START_AFTER", start_after)
    forked = discover(game, progress=False)
    return serial, forked


def assert_same(serial, forked):
    a, b = arrays(serial), arrays(forked)
    assert a.keys() == b.keys()
    for name in a:
        if name == "objects":
            assert a[name] == b[name]
        else:
            np.testing.assert_array_equal(a[name], b[name], err_msg=name)


@pytest.mark.parametrize("make", [RandomIntGame, RandomTupleGame, EncodedGame])
@pytest.mark.parametrize("seed", range(6))
def test_forked_discovery_equals_serial(monkeypatch, make, seed):
    n = random.Random(seed).randrange(5_000, 30_000)
    serial, forked = serial_and_forked(monkeypatch, make(seed, n))
    assert serial.size > 4_000
    assert_same(serial, forked)
    assert multiprocessing.active_children() == []  # the helper was shut down
    assert threading.active_count() == 1


def test_forked_scored_game_with_and_without_step(monkeypatch):
    class NoStep(KalahPy):
        step = None

    for game in (KalahPy(3, 3), NoStep(3, 3)):
        serial, forked = serial_and_forked(monkeypatch, game)
        assert_same(serial, forked)
        # the compiled Kalah, written apart, solved tier by tier
        assert solve(game).value() == solve(Kalah(3, 3)).value()


def test_the_helper_really_runs_the_game(monkeypatch, tmp_path):
    seen = tmp_path / "pids"
    parent = os.getpid()

    class Tells(RandomIntGame):
        def outcome(self, v):
            if os.getpid() != parent and not seen.exists():
                seen.write_text(str(os.getpid()))
            return super().outcome(v)

    serial, forked = serial_and_forked(monkeypatch, Tells(3, 20_000))
    assert_same(serial, forked)
    assert seen.exists() and int(seen.read_text()) != parent


def test_an_error_in_the_helpers_half_is_the_serial_error(monkeypatch):
    game = RandomIntGame(7, 20_000)
    order = discover(game, progress=False).codes  # serial order: pick a late position
    bad = int(order[len(order) * 3 // 4])
    failing = FailsLate(7, 20_000, bad)
    monkeypatch.setattr(workers, "START_AFTER", 5)
    with pytest.raises(ValueError, match=f"no moves from {bad} today"):
        discover(failing, progress=False)
    assert multiprocessing.active_children() == []


def test_children_past_int64_in_the_helper_fall_back_to_objects(monkeypatch):
    serial, forked = serial_and_forked(monkeypatch, RandomIntGame(11, 20_000, big=True))
    assert getattr(serial, "objects", None) is not None  # kept as objects
    assert_same(serial, forked)


def test_a_game_error_in_the_helper_is_reported_as_serially(monkeypatch):
    class Unhashable(RandomTupleGame):
        def play(self, p, k):
            child = super().play(p, k)
            return [child[0]] if child[0] == 19_999 else child

    monkeypatch.setattr(workers, "START_AFTER", 5)
    with pytest.raises(GameError, match="is not hashable"):
        discover(Unhashable(5, 20_000), progress=False)


class KeepsStates(RandomTupleGame):
    """Like OpenSpielGame: play records each child in a table that moves reads."""

    def __init__(self, seed: int, n: int) -> None:
        super().__init__(seed, n)
        rng = random.Random(seed)
        # a path through every position, so no single early position reaches them all
        self.succ = [[v + 1] + [rng.randrange(n) for _ in range(rng.randrange(0, 2))]
                     for v in range(n - 1)] + [[]]
        self.terminal = {}
        self.table = {(0,): 0}

    def moves(self, p):
        return super().moves((self.table[p],))

    def play(self, p, k):
        child = super().play(p, k)
        self.table[child] = child[0]
        return child


def test_a_game_with_a_table_filled_by_play_still_solves(monkeypatch):
    serial, forked = serial_and_forked(monkeypatch, KeepsStates(2, 20_000))
    assert serial.size == 20_000
    assert_same(serial, forked)  # the forked run failed (KeyError), then ran serially


def test_parallel_false_never_forks(monkeypatch, tmp_path):
    seen = tmp_path / "pids"
    parent = os.getpid()

    class Serial(RandomIntGame):
        parallel = False

        def outcome(self, v):
            if os.getpid() != parent:
                seen.write_text("forked")
            return super().outcome(v)

    monkeypatch.setattr(workers, "START_AFTER", 5)
    discover(Serial(4, 20_000), progress=False)
    assert not seen.exists()


class FailsInHelper(RandomIntGame):
    """outcome raises in the helper process only: the parent redoes those halves."""

    def __init__(self, seed: int, n: int, how: str) -> None:
        super().__init__(seed, n)
        self.parent, self.how = os.getpid(), how

    def outcome(self, v):
        if os.getpid() != self.parent and v % 97 == 5:
            if self.how == "raise":
                raise RuntimeError("only in the helper")
            if self.how == "exit":
                raise SystemExit(3)
            os._exit(0)  # "die": the helper ends without answering
        return super().outcome(v)


@pytest.mark.parametrize("how", ["raise", "exit", "die"])
def test_a_helper_that_fails_or_dies_leaves_the_serial_answer(monkeypatch, how):
    serial, forked = serial_and_forked(monkeypatch, FailsInHelper(8, 30_000, how))
    assert_same(serial, forked)
    assert multiprocessing.active_children() == []


EMPTY = object()  # a piece compared by identity: a pickled copy is another object


class SentinelGame(RandomTupleGame):
    def initial(self):
        return (0, EMPTY)

    def play(self, p, k):
        return (*super().play(p[:1], k), EMPTY)


def test_positions_that_do_not_pickle_equal_stay_in_the_parent(monkeypatch):
    serial, forked = serial_and_forked(monkeypatch, SentinelGame(9, 20_000))
    assert serial.size > 15_000
    assert_same(serial, forked)


def test_payoffs_that_do_not_pickle_are_expanded_here(monkeypatch):
    class Points(float):  # a local class: pickle cannot find it by name
        pass

    class OddPayoff(KalahPy):
        step = None

        def payoff(self, pos, move):
            return Points(super().payoff(pos, move))

    serial, forked = serial_and_forked(monkeypatch, OddPayoff(3, 3))
    assert_same(serial, forked)


def test_a_fork_that_fails_leaves_discovery_alone(monkeypatch):
    def no_fork(self, work):
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(workers.ExpandHelper, "__init__", no_fork)
    serial, forked = serial_and_forked(monkeypatch, RandomIntGame(12, 20_000))
    assert_same(serial, forked)
