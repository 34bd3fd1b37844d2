"""Proof search against the strong solver: the same value, remoteness and move values at every
position tried, for every kind of game the engine takes; published Connect Four results; the
public 7x6 test positions; honest partial results; errors."""

from __future__ import annotations

import json
import random
import re
import signal
import subprocess
import sys
import time
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from nojit import run_without_jit
from perfectplay import GameError, LimitError, Value, search, solve
from perfectplay.catalog.connect4 import ConnectFour, from_pons_score, position_from_moves
from perfectplay.catalog.connect4.published import OUTCOMES
from perfectplay.catalog.kalah import Kalah
from perfectplay.engine import ONGOING, CompiledGame
from test_compiled import GAMES, random_game

DATA = Path(__file__).parent / "data" / "connect4"


@cache
def connect_four(w: int, h: int) -> ConnectFour:
    return ConnectFour(w, h)


@cache
def kalah(m: int, n: int) -> Kalah:
    return Kalah(m, n)


class AsPython:
    """A compiled game seen only through the Python protocol (the Python door's input)."""

    def __init__(self, game: CompiledGame) -> None:
        self.g = game
        if game.scored:
            self.payoff = game.payoff
        if game.has_player:
            self.player = game.player

    def initial(self):
        return self.g.initial()

    def moves(self, pos):
        return self.g.moves(pos)

    def play(self, pos, move):
        return self.g.play(pos, move)

    def outcome(self, pos):
        return self.g.outcome(pos)


def assert_agrees(game, reference, positions, **options) -> None:
    """search equals the strong solution at each position: value, remoteness, every move's
    value and remoteness, and a best move worth the position's value."""
    for pos in positions:
        r = search(game, pos, analyze=True, **options)
        assert r.exact
        assert (r.value, r.remoteness) == (reference.value(pos), reference.remoteness(pos)), pos
        mine = sorted((m.move, m.value, m.remoteness) for m in r.moves)
        theirs = sorted((m.move, m.value, m.remoteness) for m in reference.move_values(pos))
        assert mine == theirs, pos
        if theirs:
            best = next(m for m in r.moves if m.move == r.best_move)
            assert (best.value, best.remoteness) == (r.value, r.remoteness), pos
        else:
            assert r.best_move is None


def sample(solution, k: int, seed: int) -> list:
    positions = list(solution)
    return random.Random(seed).sample(positions, min(k, len(positions)))


# -- random games of every kind ----------------------------------------------------------------
KINDS = st.sampled_from([(False, False), (False, True), (True, False), (True, True)])


# one fixed game of each kind (searched with and without a tier) and one drawn game of each
# kind; a test a kind, so the suite's workers share them (each game compiles its kernels)
FIXED = {(False, False): ((18, 120), True),  # 50 positions, a loss in 8
         (False, True): ((18, 120), False),  # 50 positions, a loss in 6
         (True, False): ((13, 120), False),  # 44 positions, -1 in 4
         (True, True): ((22, 120), True)}  # 51 positions, -2 in 5


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(FIXED), ids=["winlose", "player", "scored",
                                                    "scored-player"])
@settings(max_examples=1, deadline=None)
@given(GAMES)
def test_random_compiled_games_equal_the_strong_solution(kind, sn):
    """Win/lose/tie and scored games, with and without extra turns (player), with and
    without a declared tier (without it the search checks every line for cycles), each kind
    searched as its fixed game is, tier or not: a random game differs from it only in the
    numbers its start holds, so it runs on the kernels the fixed game compiled (a kind
    searched both ways compiled its search twice)."""
    check_random_game(kind, sn, FIXED[kind][1])


@pytest.mark.parametrize("kind", list(FIXED), ids=["winlose", "player", "scored",
                                                    "scored-player"])
def test_the_fixed_game_of_each_kind_equals_the_strong_solution(kind):
    check_random_game(kind, *FIXED[kind])


def check_random_game(kind, sn, tiered):
    scored, player = kind
    g = random_game(*sn, scored=scored, player=player, tiered=True)
    ref = solve(g)
    searched = g if tiered else random_game(*sn, scored=scored, player=player)
    assert_agrees(searched, ref, sample(ref, 6, sn[0]) + [g.initial()])


@settings(max_examples=20, deadline=None)
@given(GAMES, KINDS)
def test_the_python_door_gives_the_same_answers(sn, kind):
    scored, player = kind
    g = random_game(*sn, scored=scored, player=player, tiered=True)
    ref = solve(g)
    assert_agrees(AsPython(g), ref, sample(ref, 4, sn[0]) + [g.initial()])


class LayeredPython:
    """A random acyclic scored Python game whose points may be Fractions (the Python door
    then pins margins with full windows), and whose ended positions still list moves (the
    engine ignores them, and so must search)."""

    def __init__(self, seed: int, fractions: bool) -> None:
        self.seed, self.fractions = seed, fractions

    def _rng(self, *salt: object) -> random.Random:
        return random.Random(hash((self.seed, *salt)))

    def _points(self, rng: random.Random, top: int, div: int):
        k = rng.randint(-top, top)
        return Fraction(k, div) if self.fractions else k

    def initial(self):
        return (0, 0)

    def moves(self, pos):
        return [] if pos[0] >= 6 else list(range(self._rng(pos, 1).randint(0, 3)))

    def play(self, pos, move):
        rng = self._rng(pos, move, 2)
        return (pos[0] + 1 + rng.randint(0, 1), rng.randint(0, 3))

    def outcome(self, pos):
        rng = self._rng(pos, 3)
        if pos[0] >= 6 or rng.random() < 0.15:
            return self._points(rng, 4, 3)
        return None

    def payoff(self, pos, move):
        return self._points(self._rng(pos, move, 4), 3, 2)


@pytest.mark.parametrize("fractions", [False, True])
def test_python_scored_games_with_any_points(fractions):
    for seed in range(25):
        g = LayeredPython(seed, fractions)
        ref = solve(g)
        assert_agrees(g, ref, sample(ref, 8, seed))


def test_two_workers_give_the_same_answers():
    for seed in range(12):  # kinds the fixed games compiled with a tier (FIXED)
        g = random_game(seed, 120, scored=seed % 2 == 1, player=seed % 2 == 1, tiered=True)
        ref = solve(g)
        assert_agrees(g, ref, sample(ref, 5, seed), workers=2, table_mb=1)


def test_a_tiny_table_still_gives_exact_answers():
    """Replacement at every store (1,024 entries for thousands of positions) loses speed,
    never correctness."""
    g = connect_four(4, 4)
    ref = solve(g)
    assert_agrees(g, ref, sample(ref, 30, 7), table_mb=0.001)


# -- published games --------------------------------------------------------------------------
# 4x4 and 5x4 (4x5 also passed, each board its own compile: the suite keeps one wide board)
@pytest.mark.parametrize("w,h", [(4, 4), (5, 4)])
def test_connect_four_equals_the_strong_solution(w, h):
    g = connect_four(w, h)
    ref = solve(g)
    assert_agrees(g, ref, sample(ref, 40, w * h) + [g.initial()])


@pytest.mark.parametrize("w,h", [(5, 4)])
def test_connect_four_matches_tromps_table(w, h):
    """A catalog's published outcome (Tromp; Steininger's table), searched with two
    workers: 5x4 a tie with the board full, on the kernels the strong solution's test
    compiled (6x4, won by the second player on ply 24, cost a compile of its own, 8 s; it,
    5x5 and 7x4 are the catalog benchmark's, with the other boards)."""
    value, plies = OUTCOMES[(w, h)]
    r = search(connect_four(w, h), workers=2)
    assert (r.value.value, r.remoteness, r.exact) == (value, plies, True)


@pytest.mark.parametrize("m,n", [(3, 3)])
def test_kalah_equals_the_strong_solution(m, n):
    """A scored game with extra turns: margins, and the remoteness walk's tie-breaks."""
    g = kalah(m, n)
    ref = solve(g)
    assert_agrees(g, ref, sample(ref, 12, m * n) + [g.initial()])


# Kalah(6, 2) +10 (Irving, Donkers and Uiterwijk 2000) is reproduced by search among the
# catalog's published results (tests/test_catalog.py).


def _pons_sample(name: str, every: int) -> list[tuple[str, int]]:
    lines = (DATA / f"7x6_{name}.txt").read_text().split("\n")
    rows = [ln.split() for ln in lines if ln.strip()]
    return [(moves, int(score)) for moves, score in rows[::every]]


@pytest.mark.parametrize("name,every", [
    ("endgame_L1", 5), ("midgame_L1", 5), ("midgame_L2", 5), ("opening_L1", 10),
])
def test_connect_four_7x6_public_test_positions(name, every):
    """Pascal Pons' test positions (as published with Christophe Steininger's solver),
    their scores converted to value and remoteness."""
    g = connect_four(7, 6)
    for moves, score in _pons_sample(name, every):
        r = search(g, position_from_moves(g, moves))
        assert (r.value, r.remoteness) == from_pons_score(score, len(moves)), moves


# -- partial results are proven, never guessed ------------------------------------------------
def _words_hold(r, value, rem) -> bool:
    """The true (value, rem) lies between the result's lower and upper bound words."""
    from perfectplay.engine.proof.driver import MATE

    def score(words: str) -> float:
        if words in ("-inf", "+inf"):
            return float(words.replace("inf", "1e18"))
        if words == "tie":
            return 0
        kind, _, plies = words.partition(" in ")
        return MATE - int(plies) if kind == "win" else -(MATE - int(plies))

    true = {Value.WIN: MATE - (rem or 0), Value.LOSE: -(MATE - (rem or 0)), Value.TIE: 0}[value]
    return score(r.lower) <= true <= score(r.upper)


def test_a_node_limit_stops_with_proven_bounds_only():
    """7x6 positions of known value, searched with a few thousand nodes and a tiny fresh
    table: each answer is exact and right, or stopped with bounds that hold the truth."""
    from perfectplay.engine.proof.driver import clear_table

    g = connect_four(7, 6)
    stopped = 0
    for name in ("midgame_L2", "opening_L2"):
        for moves, score in _pons_sample(name, 10):
            value, rem = from_pons_score(score, len(moves))
            pos = position_from_moves(g, moves)
            for limit in (100, 3_000):
                clear_table()
                r = search(g, pos, node_limit=limit, table_mb=0.01)
                if r.exact:
                    assert (r.value, r.remoteness) == (value, rem)
                    continue
                stopped += 1
                assert r.stopped == "nodes" and r.value is None and r.remoteness is None
                assert _words_hold(r, value, rem), (moves, r.lower, r.upper)
                if r.best_move is not None:  # proven to reach the lower bound
                    assert r.best_move in g.moves(pos)
                assert "NOT EXACT" in r.explain()
    assert stopped >= 10


def test_a_time_limit_stops_a_long_search():
    g = connect_four(7, 6)
    r = search(g, time_limit=0.5)
    assert not r.exact and r.stopped == "time" and r.value is None
    assert r.seconds < 10
    assert _words_hold(r, Value.WIN, 41)  # published: the first player wins on ply 41
    data = r.to_json()
    assert data["exact"] is False and data["value"] is None


# -- hooks, cycles, errors ----------------------------------------------------------------
# compiled once here: a CompiledGame made of the same compiled functions reuses the kernels
@njit
def _take_moves(n, out):
    k = 0
    for take in range(1, 4):
        if take <= n:
            out[k] = take
            k += 1
    return k


@njit
def _take(n, take):
    if n >= 1000:
        return 2001 - n  # 1000 <-> 1001: a cycle on the subtraction game's own kernels
    return n - take


@njit
def _ongoing(n):
    return ONGOING


@njit
def _take_search(n, out):
    """The subtraction game's search_moves hook: every move, except from 500 to 999,
    where it lists none (a broken hook, on the same compiled kernels)."""
    if 500 <= n < 1000:
        return 0
    return _take_moves(n, out)


def subtraction(n: int) -> CompiledGame:
    """Take 1-3 from a heap of n (n >= 1000 cycles), with the hook above: one compile
    serves this module's small games."""
    return CompiledGame(n, _take_moves, _take, _ongoing, max_moves=3, search_moves=_take_search)


def test_the_subtraction_game_and_its_remoteness():
    for n in range(0, 30):
        r = search(subtraction(n))
        assert r.value == (Value.LOSE if n % 4 == 0 else Value.WIN)
        assert r.remoteness == (n // 4) * 2 + (0 if n % 4 == 0 else 1)


def test_a_cycle_is_refused_with_a_pointer_to_solve():
    g = subtraction(1000)
    with pytest.raises(GameError, match="acyclic.*use solve"):
        search(g)

    class Loop:
        def initial(self):
            return 0

        def moves(self, n):
            return [1]

        def play(self, n, m):
            return 1 - n

        def outcome(self, n):
            return None

    with pytest.raises(GameError, match="acyclic"):
        search(Loop())


@pytest.mark.parametrize("options,message", [
    ({"table_mb": 0}, "table_mb"), ({"table_mb": "64"}, "table_mb"),
    ({"workers": 0}, "workers"), ({"workers": 2.5}, "workers"),
    ({"time_limit": -1}, "time_limit"), ({"node_limit": 0}, "node_limit"),
    ({"max_depth": 0}, "max_depth"),
])
def test_bad_options_are_refused_up_front(options, message):
    with pytest.raises(LimitError, match=message):
        search(connect_four(4, 4), **options)


def test_a_line_deeper_than_max_depth_is_a_limit():
    with pytest.raises(LimitError, match="deeper than 5"):
        search(subtraction(40), max_depth=5)


def test_a_search_moves_hook_that_lists_nothing_is_named():
    """By the search itself (check=False: the default check names it first, its own way)."""
    with pytest.raises(GameError, match="search_moves listed no move"):
        search(subtraction(505), check=False)
    with pytest.raises(GameError, match=r"search_moves\(505\) lists no move"):
        search(subtraction(505))


def test_the_kernels_run_as_plain_python():
    """NUMBA_DISABLE_JIT=1: the same search, interpreted (the kernels are plain Python)."""
    code = ("from perfectplay import search\n"
            "from perfectplay.engine import CompiledGame, ONGOING\n"
            "def mv(n, out):\n"
            "    k = 0\n"
            "    for t in range(1, 4):\n"
            "        if t <= n:\n"
            "            out[k] = t\n"
            "            k += 1\n"
            "    return k\n"
            "r = search(CompiledGame(13, mv, lambda n, t: n - t, lambda n: ONGOING, "
            "max_moves=3), analyze=True)\n"
            "print(r.value.value, r.remoteness, [m.describe() for m in r.moves])\n")
    printed = run_without_jit(code)
    assert printed.split("\n")[0] == "win 7 ['win in 7', 'lose in 6', 'lose in 6']"


# -- the command --------------------------------------------------------------------------------
def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "perfectplay.cli", *args],
                          capture_output=True, text=True, timeout=600,
                          cwd=Path(__file__).parent.parent)


def _cli_here(*args: str):
    """The command run in this process (click's runner): the 7x6 search kernels compiled
    here for the other tests serve it, where a new process compiles them again (10 s)."""
    from click.testing import CliRunner

    from perfectplay.cli import main
    return CliRunner().invoke(main, list(args))


def test_the_search_command_text_and_json():
    out = _cli_here("search", "connect4(width=7, height=6)", "--moves",
                    "4,4,4,4,4,4,3,3,3,3,3", "--analyze")
    assert out.exit_code == 0, out.output
    assert "value: " in out.output and "best move: " in out.output
    assert out.output.count("  move ") == 6  # column 4 is full
    data = json.loads(_cli("search", "examples/tictactoe.py:TicTacToe", "--json").stdout)
    assert (data["value"], data["remoteness"], data["exact"]) == ("tie", 9, True)
    assert data["backend"] == "python"


def test_the_search_command_when_stopped_or_wrong():
    out = _cli_here("search", "connect4(width=7, height=6)", "--nodes", "1000")
    assert out.exit_code == 3
    assert "NOT EXACT" in out.output and "stopped by: nodes" in out.output
    out = _cli("search", "connect4(width=7, height=6)", "--moves", "1,9")
    assert out.returncode == 1 and "move 2 ('9') is not legal" in out.stderr
    assert "Traceback" not in out.stderr


def test_ctrl_c_stops_with_what_is_proven():
    """Ctrl-C on a terminal during a long search, once it says it is searching (past numba's
    compilation): the proven bounds are printed, marked NOT EXACT, exit 3, no traceback."""
    import pexpect

    child = pexpect.spawn(sys.executable, ["-m", "perfectplay.cli", "search",
                                           "connect4(width=7, height=6)"],
                          cwd=str(Path(__file__).parent.parent), encoding="utf-8",
                          timeout=180, dimensions=(24, 200),
                          # an earlier test may leave SIGINT ignored, which a child inherits
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    child.expect("searching")  # the progress line after compiling, on a terminal only
    time.sleep(1)
    for _ in range(12):  # a SIGINT that lands in a finalizer can be lost: send again
        child.sendintr()
        if child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=10) == 0:
            break
    else:
        child.terminate(force=True)
    out = child.before
    child.close()
    assert child.exitstatus == 3, out
    assert "stopped by: interrupt" in out and "NOT EXACT" in out
    assert "Traceback" not in _without_lost_interrupts(out), out


def _without_lost_interrupts(err: str) -> str:
    """The output without Python's report of a SIGINT that landed in a finalizer ("Exception
    ignored in ...", ending with KeyboardInterrupt): that signal was lost, which is why the
    test sends another."""
    return re.sub(r"Exception ignored in[^\n]*\n(?:.*\n)*?KeyboardInterrupt[^\n]*\n?", "",
                  err)


def test_one_hash_in_the_package():
    """splitmix64 is written once (codetable.mix): stores on disk and proof search's table
    hash with the same function."""
    import numpy as np

    import perfectplay
    from perfectplay.engine.compiled.codetable import mix
    from perfectplay.engine.proof.kernel import _hash
    root = Path(perfectplay.__file__).parent
    holders = [p.relative_to(root).as_posix() for p in root.rglob("*.py")
               if "bf58476d1ce4e5b9" in p.read_text(encoding="utf-8").lower()]
    assert holders == ["engine/compiled/codetable.py"]
    for code in (0, 1, -1, 2**62 + 12345, -(2**63) + 1):
        assert int(_hash(np.int64(code))) == int(np.uint64(mix(np.int64(code))).view(np.int64))


def test_the_backends_follow_the_search_backend_protocol():
    from perfectplay.engine.proof.backends import CompiledBackend, PythonBackend, SearchBackend
    members = {"probe", "walk", "table_stats", "close", "name", "probes", "integral"}
    assert members <= set(SearchBackend.__dict__) | set(SearchBackend.__annotations__)
    backend = PythonBackend(_Heap(), 100)
    for name in members:
        assert hasattr(backend, name), name
    assert backend.walk(5, 1, None) is None  # no walk of its own: the driver probes
    assert CompiledBackend.integral is True and CompiledBackend.name == "compiled"


class _Heap:
    def initial(self):
        return 5

    def moves(self, n):
        return [m for m in (1, 2) if m <= n]

    def play(self, n, m):
        return n - m

    def outcome(self, n):
        return None


def test_search_module_keeps_its_public_names():
    import importlib
    mod = importlib.import_module("perfectplay.engine.proof.driver")
    for name in ("search", "SearchResult", "clear_table", "MATE", "LIMIT", "INF"):
        assert hasattr(mod, name), name
