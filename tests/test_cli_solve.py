"""``perfectplay solve`` as a newcomer meets it: a catalog game too big to solve whole is
refused up front with the way to search it, one position is asked with --moves, and Ctrl-C
during a solve (a compiled one compiling, too) is a clean stop."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from click.testing import CliRunner

from perfectplay.cli import main
from perfectplay.engine.target import catalog_positions
from takeaway import SOURCE


def test_standard_connect_four_is_refused_up_front_with_the_way_to_search_it():
    began = time.perf_counter()
    handler = signal.getsignal(signal.SIGINT)
    result = CliRunner().invoke(main, ["solve", "connect4(width=7, height=6)"])
    assert signal.getsignal(signal.SIGINT) is handler  # solve's Ctrl-C stop is put back
    assert result.exit_code == 1
    assert "4,531,985,219,092 positions" in result.output
    assert "perfectplay search 'connect4(width=7, height=6)'" in result.output
    assert time.perf_counter() - began < 5  # refused before any enumeration or compile


def test_a_limit_below_the_catalogs_count_says_search_not_raise_the_limit():
    result = CliRunner().invoke(main, ["solve", "connect4(width=5, height=5)",
                                       "--max-positions", "1000"])
    assert result.exit_code == 1
    assert "69,763,700 positions" in result.output and "max_positions (1,000)" in \
        result.output
    assert "perfectplay search 'connect4(width=5, height=5)'" in result.output
    assert "raise max_positions" not in result.output


def test_a_catalog_game_past_a_limit_the_catalog_cannot_foresee_points_to_search():
    result = CliRunner().invoke(main, ["solve", "kalah(houses=2, seeds=2)",
                                       "--max-positions", "10"])
    assert result.exit_code == 1
    assert "more than 10 positions" in result.output
    assert "perfectplay search 'kalah(houses=2, seeds=2)'" in result.output


def test_the_catalogs_counts_are_read_and_bounds_are_not_counts():
    assert catalog_positions("connect4(width=4, height=4)") == (
        161_029, "161,029 positions (Tromp)")
    assert catalog_positions("othello(size=8)")[0] == 10**28
    assert catalog_positions("kalah(houses=6, seeds=4)") is None  # "at most ...": a bound
    assert catalog_positions("examples/nim.py:Nim") is None


SLOW_TO_COMPILE = SOURCE + '''
import sys


class Slow(Take):
    def __init__(self, n=1000):
        super().__init__(n)
        print("built", file=sys.stderr, flush=True)
'''


def test_ctrl_c_while_a_compiled_game_compiles_is_one_line_and_exit_130(tmp_path):
    """Ctrl-C while numba compiles (a fresh disk cache: seconds of llvmlite) stops the
    solve: it was once printed as an ignored exception in llvmlite's finaliser and the
    solve went on, or came back as a SystemError blamed on the rules."""
    (tmp_path / "take.py").write_text(SLOW_TO_COMPILE)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.Popen([sys.executable, "-m", "perfectplay", "solve", "take.py:Slow"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    assert proc.stderr.readline().strip() == "built"
    time.sleep(1.0)  # into the solve: compiling its kernels
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip() == "perfectplay: interrupted" and out == ""


SWALLOWED = '''
import os, signal


class Bomb:
    def __del__(self):  # Ctrl-C lands in a finaliser, as in llvmlite's while numba compiles
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):
            pass


class Take:
    def __init__(self, n=3000):
        self.n = n

    def initial(self):
        return self.n

    def moves(self, n):
        if n == self.n - 7:
            Bomb()
        return [t for t in (1, 2, 3) if t <= n]

    def play(self, n, take):
        return n - take

    def outcome(self, n):
        return None
'''


def test_ctrl_c_that_a_finaliser_would_swallow_still_stops_the_solve(tmp_path):
    (tmp_path / "take.py").write_text(SWALLOWED)
    out = subprocess.run([sys.executable, "-m", "perfectplay", "solve", "take.py:Take",
                          "--no-check"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 130, out.stdout[-500:] + out.stderr[-1500:]
    assert out.stderr.strip() == "perfectplay: interrupted" and out.stdout == ""


def test_solve_moves_prints_the_position_those_moves_reach():
    result = CliRunner().invoke(main, ["solve", "connect4(width=4, height=3)",
                                       "--moves", "2,2,3"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:3] == ["position: as drawn below", "value: win in 9", "best move: 2"]
    assert "....\n.O..\n.XX.\n1234" in result.output  # the board after the moves
    start = CliRunner().invoke(main, ["solve", "connect4(width=4, height=3)", "--json"])
    there = CliRunner().invoke(main, ["solve", "connect4(width=4, height=3)", "--json",
                                      "--moves", "2,2,3"])
    assert '"value": "tie"' in start.output and '"value": "win"' in there.output


def test_solve_moves_refuses_an_illegal_move_and_a_store():
    bad = CliRunner().invoke(main, ["solve", "connect4(width=4, height=3)", "--moves", "2,9"])
    assert bad.exit_code == 1 and "move 2 ('9') is not legal there" in bad.output
    store = CliRunner().invoke(main, ["solve", "connect4(width=4, height=3)", "--moves", "2",
                                      "--store", "tb"])
    assert store.exit_code == 2 and "perfectplay query" in store.output
