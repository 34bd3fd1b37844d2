"""The Python door at the floor (issue 70): a small Python game is solved without numba, by a
plain-Python retrograde pass that gives the kernel's answers exactly, and ``import
perfectplay`` loads no engine until it is used."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import GameError, Value, solve
from perfectplay.engine import exact, strong
from perfectplay.engine.compiled import CompiledGame
from perfectplay.engine.discovery import discover
from perfectplay.engine.discovery.keystores import SMALL_CODES, CodeStore
from perfectplay.engine.protocol import COMPILED_MODULE, is_compiled
from perfectplay.engine.retro import solve_small

TERMINALS = [Value.WIN, Value.LOSE, Value.TIE]


class RandomGame:
    """A random move graph over ints (cycles, ties, dead ends, repeated moves); with
    ``turns`` the positions say whose turn it is and some moves keep it."""

    def __init__(self, seed: int, n: int, turns: bool) -> None:
        rng = random.Random(seed)
        self.succ: dict[int, list[int]] = {}
        self.ends: dict[int, Value] = {}
        for v in range(n):
            if rng.random() < 0.2:
                self.ends[v] = rng.choice(TERMINALS)
                self.succ[v] = []
            else:
                self.succ[v] = [rng.randrange(n) for _ in range(rng.randrange(0, 4))]
        self.succ[n] = list(range(n))  # a start that reaches every position
        self.start = n
        self.who = {v: rng.randrange(2) for v in range(n + 1)} if turns else None

    def initial(self) -> int:
        return self.start

    def moves(self, v: int) -> list[int]:
        return list(range(len(self.succ[v])))

    def play(self, v: int, k: int) -> int:
        return self.succ[v][k]

    def outcome(self, v: int) -> Value | None:
        return self.ends.get(v)


class WithPlayer(RandomGame):
    def player(self, v: int) -> int:
        assert self.who is not None
        return self.who[v]


class AsTuples(RandomGame):
    """The same game with tuple positions (the object store, not the code store)."""

    def initial(self):  # type: ignore[override]
        return (self.start,)

    def moves(self, v):  # type: ignore[override]
        return super().moves(v[0])

    def play(self, v, k):  # type: ignore[override]
        return (super().play(v[0], k),)

    def outcome(self, v):  # type: ignore[override]
        return super().outcome(v[0])


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**9), n=st.integers(1, 40), kind=st.sampled_from(
    [RandomGame, WithPlayer, AsTuples]))
def test_the_python_pass_gives_the_kernels_answers(seed, n, kind):
    game = kind(seed, n, kind is WithPlayer)
    graph = discover(game)
    small = strong.solve_graph(game, graph)
    kernel = exact.solve_graph(game, graph)  # the numba retrograde
    assert np.array_equal(small._values, kernel._values)
    assert np.array_equal(small._rems, kernel._rems)
    assert np.asarray(small._values).dtype == kernel._values.dtype  # int8 codes
    assert np.asarray(small._rems).dtype == kernel._rems.dtype  # int32
    for pos in small.positions():
        assert small.move_values(pos) == kernel.move_values(pos)


def test_the_python_pass_on_a_worked_example():
    # 0 -> {1, 2}; 1 a tied end; 2 -> {3}; 3 a lost end; 4 -> {4} (a draw); 5: no moves
    values, rems = solve_small([0, 2, 2, 3, 3, 4, 4], [1, 2, 3, 4], [0, 3, 0, 2, 0, 0], None)
    assert [Value.from_code(v) for v in values] == [Value.TIE, Value.TIE, Value.WIN, Value.LOSE,
                                                    Value.DRAW, Value.LOSE]
    assert list(rems) == [1, 0, 1, 0, -1, 0]


def test_a_small_int_game_numbers_positions_in_a_dict_then_hands_over_to_the_table():
    store = CodeStore(0, (None, None))
    from array import array
    first = array("q", range(1, SMALL_CODES + 10))
    ids = np.frombuffer(store.intern(first), dtype=np.int32)
    assert store.ids is None and store.slots is not None  # the table took over
    assert ids.tolist() == list(range(1, SMALL_CODES + 10))
    again = np.frombuffer(store.intern(array("q", [5, 0, SMALL_CODES + 20])), dtype=np.int32)
    assert again.tolist() == [5, 0, SMALL_CODES + 10]


def test_an_int_game_looks_positions_up_the_same_either_way():
    class Subtract:
        def initial(self):
            return 7

        def moves(self, n):
            return [k for k in (1, 2) if k <= n]

        def play(self, n, k):
            return n - k

        def outcome(self, n):
            return None

    s = solve(Subtract())
    assert s.graph.code_ids is not None  # the dict, no numba table
    assert (s.value(), s.remoteness(), s.best_move()) == (Value.WIN, 5, 1)
    assert s.value(np.int64(3)) is Value.LOSE
    for bad in (True, 3.0, 99, 2**70):
        try:
            s.value(bad)
        except KeyError:
            continue
        raise AssertionError(f"{bad!r} was answered")


def test_is_compiled_knows_the_compiled_door_without_importing_it():
    assert CompiledGame.__module__ == COMPILED_MODULE
    assert not is_compiled(RandomGame(0, 3, False))


def test_import_perfectplay_and_a_small_solve_load_neither_numpy_nor_numba():
    code = ("import sys, perfectplay\n"
            "assert 'numpy' not in sys.modules and 'numba' not in sys.modules\n"
            "class Nim:\n"
            "    def initial(self): return (3, 5, 7)\n"
            "    def moves(self, h): return [(i, k) for i, x in enumerate(h)"
            " for k in range(1, x + 1)]\n"
            "    def play(self, h, m): return h[:m[0]] + (h[m[0]] - m[1],) + h[m[0] + 1:]\n"
            "    def outcome(self, h): return None\n"
            "s = perfectplay.solve(Nim())\n"
            "print(s.value().name, s.remoteness(), len(s), s.best_move(),"
            " len(s.move_values((1, 2, 3))), 'numpy' in sys.modules, 'numba' in sys.modules,"
            " sep='|')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().split("|") == ["WIN", "15", "192", "(0, 1)", "6", "False",
                                             "False"]


class Subtraction:
    """Take 1 or 2 from a heap of 10 (a tuple position, so kept as an object); an empty heap
    ends level. ``outcome`` and ``outcome_after`` count their calls."""

    def __init__(self) -> None:
        self.asked = {"outcome": 0, "outcome_after": 0}

    def initial(self) -> tuple[int]:
        return (10,)

    def moves(self, pos: tuple[int]) -> list[int]:
        return [m for m in (1, 2) if m <= pos[0]]

    def play(self, pos: tuple[int], m: int) -> tuple[int]:
        return (pos[0] - m,)

    def outcome(self, pos: tuple[int]) -> Value | None:
        self.asked["outcome"] += 1
        return Value.TIE if pos[0] == 0 else None


class SubtractionAfter(Subtraction):
    def outcome_after(self, pos: tuple[int], m: int, child: tuple[int]) -> Value | None:
        self.asked["outcome_after"] += 1
        return Value.TIE if pos[0] == m else None


def test_discovery_asks_outcome_after_of_each_new_child_and_outcome_of_the_start_only():
    plain, after = Subtraction(), SubtractionAfter()
    a, b = solve(plain, check=False), solve(after, check=False)
    assert [(p, a.value(p), a.remoteness(p)) for p in a.positions()] == \
        [(p, b.value(p), b.remoteness(p)) for p in b.positions()]
    assert (b.value(), b.remoteness()) == (Value.TIE, 5)
    assert plain.asked == {"outcome": 11, "outcome_after": 0}
    assert after.asked == {"outcome": 1, "outcome_after": 10}  # the start, then each child


def test_the_default_check_refuses_an_outcome_after_that_disagrees_with_outcome():
    class Wrong(SubtractionAfter):
        def outcome_after(self, pos: tuple[int], m: int, child: tuple[int]) -> Value | None:
            return None  # misses the end

    with pytest.raises(GameError, match=r"outcome_after\(\(1,\), 1, \(0,\)\) returned None, "
                                        r"not outcome\(\(0,\)\) = <Value.TIE: 'tie'>"):
        solve(Wrong())


class Layered:
    """A random acyclic game with tuple positions (layer, k) and many transpositions (each
    move goes one or two layers down to one of a few positions there): the search's table,
    its cut-offs by a child's entry and its cycle check all meet it. With ``after`` it also
    answers ``outcome_after`` (from the child, as ``outcome`` does)."""

    def __init__(self, seed: int, width: int) -> None:
        self.seed, self.width = seed, width

    def _rng(self, *salt: object) -> random.Random:
        return random.Random(hash((self.seed, *salt)))

    def initial(self) -> tuple[int, int]:
        return (0, 0)

    def moves(self, pos: tuple[int, int]) -> list[int]:
        return [] if pos[0] >= 7 else list(range(self._rng(pos, 1).randint(0, 3)))

    def play(self, pos: tuple[int, int], move: int) -> tuple[int, int]:
        rng = self._rng(pos, move, 2)
        return (pos[0] + 1 + rng.randint(0, 1), rng.randrange(self.width))

    def outcome(self, pos: tuple[int, int]) -> Value | None:
        rng = self._rng(pos, 3)
        return rng.choice(TERMINALS) if pos[0] > 0 and rng.random() < 0.2 else None


class LayeredAfter(Layered):
    def outcome_after(self, pos: tuple[int, int], move: int,
                      child: tuple[int, int]) -> Value | None:
        return self.outcome(child)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), width=st.integers(1, 4),
       kind=st.sampled_from([Layered, LayeredAfter]))
def test_search_of_a_python_game_equals_solve_at_every_position(seed, width, kind):
    from perfectplay import search
    game = kind(seed, width)
    s = solve(game, check=False)
    for pos in s.positions():
        r = search(game, pos, analyze=True, check=False)
        assert (r.value, r.remoteness) == (s.value(pos), s.remoteness(pos)), pos
        assert sorted((m.move, m.value, m.remoteness) for m in r.moves) == \
            sorted((m.move, m.value, m.remoteness) for m in s.move_values(pos)), pos
        assert search(game, pos, value_only=True, check=False).value is s.value(pos)


def test_the_search_asks_outcome_after_of_new_children_and_outcome_of_the_start_only():
    from perfectplay import search
    plain, after = Subtraction(), SubtractionAfter()
    a = search(plain, value_only=True, check=False)
    b = search(after, value_only=True, check=False)
    assert a.value is b.value is Value.TIE and a.nodes == b.nodes == 19
    assert plain.asked == {"outcome": 14, "outcome_after": 0}
    assert after.asked == {"outcome": 2, "outcome_after": 12}  # the start (driver, probe)


def test_the_search_of_a_python_game_loads_no_numba():
    code = ("import sys, perfectplay\n"
            "class Subtract:\n"
            "    def initial(self): return 7\n"
            "    def moves(self, n): return [k for k in (1, 2) if k <= n]\n"
            "    def play(self, n, k): return n - k\n"
            "    def outcome(self, n): return None\n"
            "r = perfectplay.search(Subtract(), analyze=True)\n"
            "print(r.describe(), r.best_move, [m.describe() for m in r.moves],"
            " 'numba' in sys.modules, sep='|')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().split("|") == ["win in 5", "1", "['win in 5', 'lose in 4']",
                                             "False"]


def test_the_python_search_keeps_the_kernels_scores_and_plan():
    from perfectplay.engine.proof import driver, kernel, plan, pysearch
    assert (pysearch.MATE, pysearch.LIMIT, pysearch.INF) == (kernel.MATE, kernel.LIMIT,
                                                             kernel.INF)
    plain = driver.python_plan()  # plan.py run with numba's jit as the identity
    assert plain.plan_next is not plan.plan_next and not hasattr(plain.plan_next, "py_func")
    top = pysearch.MATE - 1
    st_a, st_b = plain.new_plan(), plan.new_plan()
    plain.plan_start(st_a, -top, top, -top, top, 12, 0)  # quick probes first (a horizon)
    plan.plan_start(st_b, -top, top, -top, top, 12, 0)
    for answer in (top - 8, -3, top - 8, top - 10, top - 9):  # the same probes, step by step
        assert plain.plan_next(st_a) == plan.plan_next(st_b)
        plain.plan_result(st_a, answer, -1)
        plan.plan_result(st_b, answer, -1)
        assert st_a.tolist() == st_b.tolist()
        assert plain.plan_bounds(st_a) == plan.plan_bounds(st_b)
