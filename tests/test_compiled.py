"""Compiled games against the Python engine, position by position (the catalog's Connect Four
and Kalah against their Python twins; their published results are reproduced by
tests/test_catalog.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

import takeaway
from nojit import run_without_jit
from perfectplay import GameError, LimitError, Value, check_game, solve
from perfectplay.catalog.connect4 import ConnectFour, ConnectFourPy
from perfectplay.catalog.kalah import Kalah, KalahPy
from perfectplay.engine import LOSE, ONGOING, TIE, WIN, CompiledGame, UnknownPosition

# -- random games whose parameters live in the code's high bits ------------------------------
# bits 0-11 node, 12-27 seed, 28-39 nodes, 40 cyclic, 41 scored, 42 player, 43 huge payoffs.
# One set of compiled functions serves every random game, so the kernels compile once.
NODE = (1 << 12) - 1
WIDTH = 6  # positions per layer of an acyclic game (its tier is the layer)


@njit
def _h(seed, node, salt):
    z = np.uint64(seed * 1_000_003 + node * 7919 + salt * 104_729 + 12345)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return np.int64((z ^ (z >> np.uint64(31))) >> np.uint64(2))


@njit
def _params(code):
    return (code & NODE, (code >> 12) & 0xFFFF, (code >> 28) & 0xFFF, (code >> 40) & 1,
            (code >> 41) & 1, (code >> 42) & 1, (code >> 43) & 1)


@njit
def _ended(code):
    node, seed, n, cyclic, _, _, _ = _params(code)
    if cyclic:
        return _h(seed, node, 1) % 5 == 0
    return node // WIDTH >= n // WIDTH - 1 or _h(seed, node, 1) % 7 == 0


@njit
def r_moves(code, out):
    node, seed, _, _, _, _, _ = _params(code)
    k = _h(seed, node, 2) % 4  # 0..3 moves (0: a loss by normal play)
    for j in range(k):
        out[j] = j
    return k


@njit
def r_play(code, move):
    node, seed, n, cyclic, _, _, _ = _params(code)
    hv = _h(seed, node, 10 + move)
    if cyclic:
        child = hv % n
    else:
        layers = n // WIDTH
        layer = min(node // WIDTH + 1 + hv % 2, layers - 1)
        child = layer * WIDTH + (hv // 2) % WIDTH
    return (code & ~NODE) | child


@njit
def r_outcome(code):
    if not _ended(code):
        return ONGOING
    node, seed, _, _, _, _, _ = _params(code)
    return 1 + _h(seed, node, 3) % 3  # WIN, LOSE or TIE


@njit
def r_score(code):
    node, seed, _, _, _, _, huge = _params(code)
    v = _h(seed, node, 4) % 9 - 4
    return v * (2**60) if huge else v


@njit
def r_player(code):
    node, seed, _, _, _, with_player, _ = _params(code)
    return _h(seed, node, 5) % 2 if with_player else 0


@njit
def r_payoff(code, move):
    node, seed, _, cyclic, _, _, huge = _params(code)
    v = _h(seed, node, 20 + move) % 4
    if cyclic:  # a cost game: player 0 pays, player 1 gains
        return -v if r_player(code) == 0 else v
    v -= 2
    return v * (2**60) if huge else v


@njit
def r_tier(code):
    return (code & NODE) // WIDTH


def random_game(seed: int, n: int, *, cyclic: bool = False, scored: bool = False,
                player: bool = False, huge: bool = False, tiered: bool = False) -> CompiledGame:
    start = (seed << 12) | (n << 28) | (cyclic << 40) | (scored << 41) | (player << 42) | \
        (huge << 43)
    return CompiledGame(start, r_moves, r_play, r_outcome, max_moves=3,
                        score=r_score if scored else None,
                        payoff=r_payoff if scored else None,
                        player=r_player if player else None,
                        tier=r_tier if tiered else None)


def assert_same(reference, other) -> None:
    """Every position of ``reference`` has the same value, remoteness and move values in
    ``other``, and both hold the same positions."""
    assert len(reference) == len(other)
    for pos in reference:
        assert pos in other
        assert reference.value(pos) == other.value(pos), pos
        assert reference.remoteness(pos) == other.remoteness(pos), pos
        mine = sorted((m.move, m.value, m.remoteness) for m in reference.move_values(pos))
        theirs = sorted((m.move, m.value, m.remoteness) for m in other.move_values(pos))
        assert mine == theirs, pos


GAMES = st.tuples(st.integers(0, 2**16 - 1), st.integers(2, 40).map(lambda k: k * WIDTH))


@settings(max_examples=40, deadline=None)
@given(GAMES, st.booleans())
def test_acyclic_winlose_games_equal_the_python_engine(sn, player):
    g = random_game(*sn, player=player, tiered=True)
    ref = solve(g, method="python")
    assert_same(ref, solve(g))  # tiers
    assert_same(ref, solve(g, method="graph"))


@settings(max_examples=40, deadline=None)
@given(GAMES, st.booleans())
def test_cyclic_winlose_games_with_draws_equal_the_python_engine(sn, player):
    g = random_game(*sn, cyclic=True, player=player)
    ref = solve(g, method="python")
    assert_same(ref, solve(g))


def test_random_cyclic_games_include_certified_draws_and_ties():
    seen = set()
    for seed in range(60):
        s = solve(random_game(seed, 60, cyclic=True))
        seen |= set(s.counts().by_value)
    assert {Value.WIN, Value.LOSE, Value.TIE, Value.DRAW} <= seen


@settings(max_examples=40, deadline=None)
@given(GAMES, st.booleans())
def test_scored_acyclic_games_equal_the_python_engine(sn, player):
    g = random_game(*sn, scored=True, player=player, tiered=True)
    ref = solve(g, method="python")
    assert_same(ref, solve(g))
    assert_same(ref, solve(g, method="graph"))


@settings(max_examples=25, deadline=None)
@given(GAMES)
def test_scored_cyclic_cost_games_equal_the_python_engine(sn):
    g = random_game(*sn, scored=True, cyclic=True, player=True)
    try:
        ref = solve(g, method="python")
    except GameError as exc:  # every payoff reached is 0: not a cost game; both refuse
        with pytest.raises(GameError, match="cost games"):
            solve(g)
        assert "cost games" in str(exc)
        return
    assert_same(ref, solve(g))


@settings(max_examples=25, deadline=None)
@given(GAMES)
def test_margins_near_the_int64_limit_are_exact_or_refused(sn):
    """Payoffs of about 2**61: the Python engine is exact in big integers; the compiled
    solvers agree wherever no sum leaves int64 and otherwise refuse with a clear error."""
    g = random_game(*sn, scored=True, huge=True, tiered=True)
    ref = solve(g, method="python")
    biggest = max(abs(mv.value) for p in ref for mv in ref.move_values(p)) if any(
        ref.move_values(p) for p in ref) else 0
    for method in ("tiers", "graph"):
        try:
            other = solve(g, method=method)
        except GameError as exc:
            assert "overflows int64" in str(exc)
            assert biggest >= 2**63
        else:
            assert_same(ref, other)


class Doubling:
    """A scored Python game whose numbers fit in int64 but whose margins do not."""

    def initial(self):
        return 0

    def moves(self, n):
        return [] if n >= 6 else [1, 2]

    def play(self, n, k):
        return n + k

    def outcome(self, n):
        return -(2**62) if n >= 6 else None

    def payoff(self, n, k):
        return 2**62 + k


class DoublingAsText(Doubling):
    """The same game with positions as strings, so discovery keeps Python objects."""

    def initial(self):
        return "0"

    def moves(self, p):
        return super().moves(int(p))

    def play(self, p, m):
        return str(super().play(int(p), m))

    def outcome(self, p):
        return super().outcome(int(p))

    def payoff(self, p, m):
        return super().payoff(int(p), m)


def test_python_games_with_huge_margins_stay_exact():
    """int64 sums overflow here: the engine notices and solves in exact Python integers."""
    s = solve(Doubling())
    assert isinstance(s.graph.payoffs, np.ndarray)  # the int64 kernel was tried first
    exact = solve(DoublingAsText())
    for p in s:
        assert s.value(p) == exact.value(str(p))
        assert s.remoteness(p) == exact.remoteness(str(p))
    assert max(abs(s.value(p)) for p in s) >= 2**63


def test_int_positions_are_stored_as_codes_and_others_as_objects():
    assert solve(Doubling()).graph.codes is not None
    assert solve(DoublingAsText()).graph.objects is not None


# -- the catalog's Connect Four and Kalah against their Python twins -------------------------
# Each instance compiles its own kernels (a few seconds): build each board once.
connect_four = cache(ConnectFour)
kalah = cache(Kalah)


@pytest.mark.parametrize("w,h", [(3, 3), (4, 3), (3, 4), (2, 5)])
def test_connect_four_equals_its_python_twin(w, h):
    c = solve(connect_four(w, h))
    py = solve(ConnectFourPy(w, h))
    assert len(c) == len(py)
    assert (c.value(), c.remoteness()) == (py.value(), py.remoteness())
    assert c.counts().by_value == py.counts().by_value
    assert c.counts().by_remoteness == py.counts().by_remoteness
    # along the perfect line, every move has the same value on both
    a, b = c.start, py.start
    while c.best_move(a) is not None:
        assert {(m.move, m.value, m.remoteness) for m in c.move_values(a)} == \
            {(m.move, m.value, m.remoteness) for m in py.move_values(b)}
        move = c.best_move(a)
        a, b = c.game.play(a, move), py.game.play(b, move)
    assert py.best_move(b) is None


@pytest.mark.slow
# not (4, 2): its Python twin alone took ~25 s, and (3, 3) already sows round a board of
# several houses with captures and extra turns
@pytest.mark.parametrize("m,n", [(1, 1), (2, 2), (3, 1), (3, 2), (2, 3), (3, 3)])
def test_kalah_equals_its_python_twin(m, n):
    c = solve(kalah(m, n))
    py = solve(KalahPy(m, n))
    assert len(c) == len(py)
    assert (c.value(), c.remoteness()) == (py.value(), py.remoteness())
    assert c.counts().by_value == py.counts().by_value
    assert c.counts().by_remoteness == py.counts().by_remoteness
    assert_same(solve(kalah(m, n), method="graph"), c)


# -- the protocol, errors and the Solution as a lookup ----------------------------------------
_nim_moves, _nim_play, _ongoing = takeaway.moves, takeaway.play, takeaway.outcome


def test_plain_python_functions_are_compiled_for_the_user():
    s = solve(CompiledGame(21, _nim_moves, _nim_play, _ongoing, max_moves=3))
    assert (s.value(), s.remoteness(), s.best_move()) == (Value.WIN, 11, 1)
    assert [s.value(n) for n in range(8)] == [Value.LOSE, Value.WIN, Value.WIN, Value.WIN,
                                              Value.LOSE, Value.WIN, Value.WIN, Value.WIN]
    assert sorted(s) == list(range(22))
    assert 22 not in s and "x" not in s
    with pytest.raises(UnknownPosition, match="not reachable"):
        s.value(40)
    with pytest.raises(KeyError):
        s.remoteness(40)
    assert s.get(40, "none") == "none"
    assert "22 positions" in repr(s)



def _subtraction_game(takes: tuple[int, ...], scale: float = 1.0) -> CompiledGame:
    """Take one of ``takes`` from a heap of 30; rules made afresh each call (closures)."""

    @njit
    def moves(n, out):
        k = 0
        for t in takes:
            if t <= n * scale:
                out[k] = t
                k += 1
        return k

    @njit
    def play(n, t):
        return n - t

    return CompiledGame(30, moves, play, _ongoing, max_moves=len(takes))


def test_equal_rules_share_one_compiled_function_and_different_ones_do_not():
    a, b = _subtraction_game((1, 2, 3)), _subtraction_game((1, 2, 3))
    c, d = _subtraction_game((1, 2, 4)), _subtraction_game((1, 2, 3), -0.0)
    assert a.rules.moves is b.rules.moves and a.rules.play is b.rules.play
    assert c.rules.moves is not a.rules.moves and d.rules.moves is not a.rules.moves
    assert _subtraction_game((1, 2, 3), 0.0).rules.moves is not d.rules.moves  # 0.0, -0.0
    assert a.rules.play is c.rules.play  # the same play, whatever the moves
    # each answers its own rules: take 1-3 loses at multiples of 4, take {1, 2, 4} at 3k
    for game, lost in ((a, 4), (b, 4), (c, 3)):
        s = solve(game)
        assert [s.value(n) is Value.LOSE for n in range(30)] == \
            [n % lost == 0 for n in range(30)]
    assert solve(d).value(30) is Value.LOSE  # -0.0: every take exceeds n * scale <= 0

def test_a_compiled_game_passes_check_game_and_plays_through_the_python_protocol():
    g = connect_four(4, 4)
    report = check_game(g, max_positions=2000)
    assert report.ok, str(report)
    s = solve(g)
    assert len(s.principal_line()) == 16


@pytest.mark.parametrize("bad,message", [
    ("moves", "count outside"), ("outcome", "not 0 .ONGOING."), ("tier", "strictly higher"),
])
def test_broken_compiled_games_get_clear_errors(bad, message):
    def too_many(n, out):
        return 9

    def bad_outcome(n):
        return 7 if n == 3 else ONGOING

    def flat_tier(n):
        return 0

    kw = {"max_moves": 3}
    moves, outcome = _nim_moves, _ongoing
    if bad == "moves":
        moves = too_many
    if bad == "outcome":
        outcome = bad_outcome
    if bad == "tier":
        kw["tier"] = flat_tier
    with pytest.raises(GameError, match=message):
        solve(CompiledGame(5, moves, _nim_play, outcome, **kw))


def test_compiled_limits_are_checked():
    with pytest.raises(LimitError):
        solve(CompiledGame(10**6, _nim_moves, _nim_play, _ongoing, max_moves=3),
              max_positions=1000, method="graph")
    with pytest.raises(GameError, match="start code"):
        CompiledGame("x", _nim_moves, _nim_play, _ongoing, max_moves=3)
    with pytest.raises(GameError, match="max_moves"):
        CompiledGame(3, _nim_moves, _nim_play, _ongoing, max_moves=0)


def test_compiled_outcomes_are_the_engine_value_codes():
    assert (Value.WIN.code, Value.LOSE.code, Value.TIE.code) == (WIN, LOSE, TIE)


def test_cli_solves_a_compiled_game_with_constructor_arguments():
    out = subprocess.run([sys.executable, "-m", "perfectplay", "solve",
                          "connect4(4, height=3)", "--json"],
                         capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    assert (data["value"], data["remoteness"], data["counts"]["total"]) == ("tie", 12, 12031)
    bad = subprocess.run([sys.executable, "-m", "perfectplay", "solve",
                          "connect4(4, h)"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "must be literals" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_tiers_equal_compiled_discovery_on_every_position_of_a_large_board(monkeypatch):
    """Connect Four 4x5 (1,706,255 positions; its large tiers are split tables filled by two
    threads and solved in parallel blocks, its small ones on one thread): both compiled
    solvers agree on every position's value and remoteness."""
    from perfectplay.engine.compiled.codetable import EMPTY, SPLIT
    from perfectplay.engine.tiers import solver as tiermod

    sizes: list[int] = []
    for name in ("_solve_blocks", "_solve_blocks_cached"):
        kernel = getattr(tiermod, name)
        monkeypatch.setattr(tiermod, name, _spy(kernel, sizes))
    g = connect_four(4, 5)
    tiered, graph = solve(g), solve(g, method="graph")
    t = tiered.tiers
    assert max(k.size for k in t.keys) >= SPLIT
    large = sorted(k.size for k in t.keys if k.size >= tiermod.PARALLEL_SLOTS)
    assert large and sorted(sizes) == large  # each large tier in blocks, no small one
    used = [k != EMPTY for k in t.keys]
    codes = np.concatenate([k[u] for k, u in zip(t.keys, used, strict=True)])
    vals = np.concatenate([v[u] for v, u in zip(t.values, used, strict=True)])
    rems = np.concatenate([r[u] for r, u in zip(t.rems, used, strict=True)]).astype(np.int64)
    order = np.argsort(codes)
    gorder = np.argsort(graph.graph.codes)
    assert np.array_equal(codes[order], graph.graph.codes[gorder])
    assert np.array_equal(vals[order], np.asarray(graph._values)[gorder])
    assert np.array_equal(rems[order], np.asarray(graph._rems, dtype=np.int64)[gorder])


def test_every_engine_path_runs_as_plain_python_without_the_jit():
    """NUMBA_DISABLE_JIT=1 runs every kernel as Python: tiers, compiled discovery, int codes
    (negative ones included) and the scored kernels give the jitted answers."""
    script = """
import sys, warnings
warnings.simplefilter("ignore")  # numpy scalars warn where numba's integers wrap silently
from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.catalog.kalah import Kalah
from perfectplay import solve
a, b = solve(ConnectFour(3, 3)), solve(ConnectFour(3, 3), method="graph")
k = solve(Kalah(2, 2))
class Walk:
    def initial(self): return -3
    def moves(self, n): return [1, 2] if n < 3 else []
    def play(self, n, m): return n + m
    def outcome(self, n): return None
w = solve(Walk())
print(len(a), a.remoteness(), len(b), b.remoteness(), len(k), k.value(), len(w),
      w.value().value, w.remoteness())
"""
    printed = run_without_jit(script)
    w = solve(type("Walk", (), {"initial": lambda s: -3,
                                "moves": lambda s, n: [1, 2] if n < 3 else [],
                                "play": lambda s, n, m: n + m,
                                "outcome": lambda s, n: None})())
    assert printed.split() == ["869", "9", "869", "9", "24", "-2", str(len(w)),
                               w.value().value, str(w.remoteness())]


class BigCodes:
    """Subtraction from 200 with an encode that leaves int64 (and one that is lossy): the
    engine keeps such positions as objects instead of trusting the codes."""

    def __init__(self, lossy=False):
        self.lossy = lossy

    def initial(self):
        return ("heap", 200)

    def moves(self, p):
        return [k for k in (1, 2, 3) if k <= p[1]]

    def play(self, p, k):
        return ("heap", p[1] - k)

    def outcome(self, p):
        return None

    def encode(self, p):
        return 0 if self.lossy else p[1] * 2**70

    def decode(self, c):
        return ("heap", c // 2**70)


@pytest.mark.parametrize("lossy", [False, True])
def test_encodings_that_do_not_fit_int64_fall_back_to_objects(lossy):
    s = solve(BigCodes(lossy))
    assert s.graph.objects is not None and len(s) == 201
    assert s.value() == Value.LOSE and s.value(("heap", 199)) == Value.WIN


def test_a_game_numba_cannot_compile_gets_one_clear_error():
    def outcome(n):  # the classic slip: the enum instead of the int codes
        return Value.LOSE if n == 0 else ONGOING

    with pytest.raises(GameError, match="numba could not compile") as err:
        solve(CompiledGame(5, _nim_moves, _nim_play, outcome, max_moves=3))
    assert "not Value members" in str(err.value) and "outcome" in str(err.value)


def _spy(kernel, sizes: list[int]):
    """``kernel`` (a tier's parallel blocks), noting the size of each tier it solves."""
    def spied(rules, shape, arena, ti):
        sizes.append(int(arena.base[ti + 1] - arena.base[ti]))
        return kernel(rules, shape, arena, ti)
    return spied


def test_small_tiers_start_no_parallel_region(monkeypatch):
    """A game of small tiers (Kalah(3, 2): 121 tiers, 2,197 positions) is solved on the
    calling thread: OpenMP's threads, spinning between parallel regions, made its solve
    15x slower (47 s in the suite) while another process kept the cores busy."""
    from perfectplay.engine.tiers import solver as tiermod

    def refuse(*_args):
        raise AssertionError("a small tier started a parallel region")

    monkeypatch.setattr(tiermod, "_solve_blocks", refuse)
    monkeypatch.setattr(tiermod, "_solve_blocks_cached", refuse)
    g = Kalah(3, 2, empty_capture=False)
    tiered, graph = solve(g), solve(g, method="graph")
    assert len(tiered) == len(graph) == 2_197
    for pos in graph.positions():
        assert (tiered.value(pos), tiered.remoteness(pos)) == \
            (graph.value(pos), graph.remoteness(pos))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-(2**63) + 1, 2**63 - 1), min_size=1, max_size=300),
       st.integers(1, 60), st.sampled_from([16, 1 << 14, 1 << 15]))
def test_key_tables_hold_each_code_once_on_one_thread_or_two(base, repeat, cap):
    """Key tables against a Python set: every code inserted is found, each counted once,
    the table grown as it fills; and the two-thread insert (a split table, many codes)
    lays the table out exactly as the one-thread insert, part by part."""
    from perfectplay.engine.compiled import codetable as ct

    codes = np.array((base * repeat)[:20_000], np.int64)
    keys, count = ct.key_insert_many(ct.new_keys(cap), 0, codes)
    held = set(codes.tolist())
    assert count == len(held) == int((keys != ct.EMPTY).sum())
    assert all(ct.key_find(keys, c) >= 0 for c in codes[:500])
    absent = next(c for c in range(len(held) + 1) if c not in held)
    assert ct.key_find(keys, np.int64(absent)) == -1
    if cap >= ct.SPLIT:
        one, two = ct.new_keys(cap * 4), ct.new_keys(cap * 4)
        assert ct._insert_serial(one, codes) == ct._insert_parts(two, codes) == count
        assert np.array_equal(one, two)
