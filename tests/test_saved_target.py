"""A saved solution and a store name their game so that it loads from any folder: a user's
FILE.py by its absolute path, a catalog game as it is written; ``query``, ``analyze`` and
``verify`` take ``--game TARGET`` for a game that moved since (checked to be the game the
file holds), and say so when the recorded one cannot be rebuilt. Each command runs as a
real process in another folder than the one the file was saved in."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from nim import Nim

from perfectplay import solve

ROOT = Path(__file__).resolve().parent.parent
NIM = "Nim((3, 4, 5))"


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "perfectplay", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def recorded(path: Path) -> str:
    return json.loads(str(np.load(path)["meta"]))["target"]


@pytest.fixture
def folders(tmp_path):
    """``work/`` with the game file nim.py (where it is saved), ``elsewhere/`` (where it
    is read)."""
    work, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    work.mkdir()
    elsewhere.mkdir()
    shutil.copy(ROOT / "examples" / "nim.py", work / "nim.py")
    return work, elsewhere


def _saved(work: Path) -> Path:
    out = cli(work, "solve", f"nim.py:{NIM}", "--save", "nim.npz")
    assert out.returncode == 0, out.stderr
    return work / "nim.npz"


def test_a_file_saved_with_a_relative_target_is_queried_from_another_folder(folders):
    work, elsewhere = folders
    saved = _saved(work)
    assert recorded(saved) == f"{work / 'nim.py'}:{NIM}"  # absolute, the call as given
    want = solve(Nim((3, 4, 5)))
    out = cli(elsewhere, "query", str(saved), "(3, 4, 4)", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["value"] == want.value((3, 4, 4)).value
    assert data["remoteness"] == want.remoteness((3, 4, 4))
    out = cli(elsewhere, "verify", str(saved), "--sample", "all")
    assert out.returncode == 0 and "verified 48 of 48" in out.stdout, out.stderr
    out = cli(elsewhere, "analyze", str(saved), "--json")  # a saved file, counted
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "total": 48, "by_value": {"win": 41, "lose": 7},
        "by_remoteness": {str(r): n for r, n in want.counts().by_remoteness.items()}}


def test_a_catalog_game_is_recorded_as_written_and_loads_anywhere(folders):
    work, elsewhere = folders
    out = cli(work, "solve", "nim(heaps=(3, 4, 5))", "--save", "cat.npz")
    assert out.returncode == 0, out.stderr
    assert recorded(work / "cat.npz") == "nim(heaps=(3, 4, 5))"
    out = cli(elsewhere, "query", str(work / "cat.npz"), "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["value"] == "win", out.stderr


def test_game_overrides_the_recorded_target_of_a_saved_file(folders):
    work, elsewhere = folders
    saved = _saved(work)
    (work / "nim.py").rename(elsewhere / "moved.py")  # the game file moved since
    for command in (["query", str(saved)], ["analyze", str(saved)],
                    ["verify", str(saved)]):
        out = cli(elsewhere, *command)
        assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
        assert "cannot be rebuilt here" in out.stderr and "--game TARGET" in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1
    game = f"moved.py:{NIM}"
    out = cli(elsewhere, "query", str(saved), "(3, 4, 4)", "--game", game, "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["value"] == "win", out.stderr
    out = cli(elsewhere, "analyze", str(saved), "--game", game)
    assert out.returncode == 0 and "positions: 48" in out.stdout, out.stderr
    out = cli(elsewhere, "verify", str(saved), "--game", game)
    assert out.returncode == 0 and "verified 48 of 48" in out.stdout, out.stderr
    # a --game that is another game is refused, naming both
    out = cli(elsewhere, "query", str(saved), "--game",
              f"{ROOT / 'examples' / 'tictactoe.py'}:TicTacToe")
    assert out.returncode == 1 and "holds a solution of Nim, not of TicTacToe" in out.stderr


def test_game_overrides_the_recorded_target_of_a_store(folders):
    pytest.importorskip("distributed")
    work, elsewhere = folders
    shutil.copy(ROOT / "examples" / "portal_tiers.py", work / "portal_tiers.py")
    out = cli(work, "solve", "portal_tiers.py:Board5x4", "--store", "tb", "--workers", "1")
    assert out.returncode == 0, out.stderr
    store = str(work / "tb")
    out = cli(elsewhere, "query", store, "--moves", "b1", "--json")
    assert out.returncode == 0, out.stderr
    start = json.loads(out.stdout)
    (work / "portal_tiers.py").rename(elsewhere / "moved.py")
    out = cli(elsewhere, "query", store, "--moves", "b1")
    assert out.returncode == 1 and "--game TARGET" in out.stderr, out.stderr
    out = cli(elsewhere, "query", store, "--moves", "b1", "--json", "--game",
              "moved.py:Board5x4")
    assert out.returncode == 0 and json.loads(out.stdout) == start, out.stderr
    out = cli(elsewhere, "analyze", store)  # counts need no rules: no --game needed
    assert out.returncode == 0 and "positions: " in out.stdout, out.stderr
    out = cli(elsewhere, "analyze", store, "--game", "nim(heaps=(1, 2))")
    assert out.returncode == 1 and "not of Nim" in out.stderr, out.stderr
