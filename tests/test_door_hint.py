"""Which door to take with a Python game: ``perfectplay search`` of a small game points to
``solve`` (one run answers every position), a long ``perfectplay solve`` points to
``search`` (one position by search), and a solve stopped by its limit says search too."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfectplay.cli import engine as commands
from perfectplay.cli import main
from perfectplay.engine import advice

SUBTRACT = '''
import time


class Subtract:
    """Take 1 or 2 from a heap; who cannot move loses. ``pause`` seconds an outcome."""

    def __init__(self, heap=7, pause=0.0):
        self.heap, self.pause = heap, pause

    def initial(self):
        return self.heap

    def moves(self, n):
        return [k for k in (1, 2) if k <= n]

    def play(self, n, k):
        return n - k

    def outcome(self, n):
        time.sleep(self.pause)
        return None
'''


@pytest.fixture
def subtract(tmp_path: Path, monkeypatch) -> str:
    path = tmp_path / "subtract.py"
    path.write_text(SUBTRACT)
    monkeypatch.setattr(commands, "_person_reads", lambda as_json: not as_json)  # a terminal
    return str(path)


def test_a_search_of_a_small_python_game_points_to_solve(subtract):
    result = CliRunner().invoke(main, ["search", f"{subtract}:Subtract"])
    assert result.exit_code == 0, result.output
    assert "value: win in 5" in result.stdout
    assert result.stderr.strip() == (
        f"tip: the whole game has 8 positions: perfectplay solve {subtract}:Subtract gives "
        "every position's value and remoteness at once")


def test_a_search_of_a_bigger_game_says_nothing_more(subtract, monkeypatch):
    monkeypatch.setattr(advice, "SMALL_GAME", 7)  # the game has 8 positions
    result = CliRunner().invoke(main, ["search", f"{subtract}:Subtract"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_a_script_gets_no_hint(subtract, monkeypatch):
    monkeypatch.setattr(advice, "SOLVE_HINT_SECONDS", 0.01)
    for args in (["search", f"{subtract}:Subtract", "--json"],
                 ["solve", f"{subtract}:Subtract(7, 0.02)", "--json"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        assert result.stderr == ""
    monkeypatch.undo()  # stderr not a terminal (CliRunner's): no hint either
    result = CliRunner().invoke(main, ["search", f"{subtract}:Subtract"])
    assert result.exit_code == 0 and result.stderr == ""


def test_a_long_solve_of_a_python_game_points_to_search(subtract, monkeypatch):
    monkeypatch.setattr(advice, "SOLVE_HINT_SECONDS", 0.05)
    began = time.perf_counter()  # the check and the solve ask outcome 8+ times, 0.05 s each
    result = CliRunner().invoke(main, ["solve", f"{subtract}:Subtract(7, 0.05)", "--no-check"])
    assert result.exit_code == 0, result.output
    assert time.perf_counter() - began > 0.3
    assert "win in 5" in result.stdout
    assert result.stderr.count("still solving") == 1
    assert f"perfectplay search '{subtract}:Subtract(7, 0.05)'" in result.stderr


def test_a_quick_solve_says_nothing_more(subtract):
    result = CliRunner().invoke(main, ["solve", f"{subtract}:Subtract"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_a_python_solve_past_its_limit_points_to_search(subtract):
    result = CliRunner().invoke(main, ["solve", f"{subtract}:Subtract", "--max-positions", "3"])
    assert result.exit_code == 1
    assert "more than 3 positions" in result.stderr
    assert result.stderr.strip().endswith(
        f"or search one position instead: perfectplay search {subtract}:Subtract")


def test_the_hints_name_a_target_as_a_shell_takes_it():
    class Tiny:
        def initial(self):
            return 0

        def moves(self, n):
            return [1] if n < 2 else []

        def play(self, n, k):
            return n + k

        def outcome(self, n):
            return None

    tip = advice.search_hint(Tiny(), "my games.py:Tiny(2)")
    assert tip is not None and "3 positions" in tip and "'my games.py:Tiny(2)'" in tip
    line = advice.solve_hint(Tiny(), "g.py:Tiny")
    assert line is not None and "perfectplay search g.py:Tiny " in line
