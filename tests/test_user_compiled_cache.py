"""A compiled game in the user's own file works in every process, not only the first (issue 72).

numba's disk cache records the module of every rule a cached kernel calls and imports it when
it reads the kernel back. The CLI used to run a user's file as a module it never registered,
so the kernels were cached against ``<dynamic>``: the first ``perfectplay solve FILE.py:Game``
worked and every later solve, search or play failed with ``No module named '<dynamic>'``,
blamed on the game's rules. These tests run fresh processes sharing one disk cache.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from takeaway import SOURCE

GAME = SOURCE


def _run(args: list[str], cache: Path, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "perfectplay", *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=600)


@pytest.mark.slow
def test_a_users_compiled_game_solves_searches_and_plays_in_process_after_process(tmp_path):
    (tmp_path / "take.py").write_text(GAME)
    cache = tmp_path / "numba-cache"
    for run in range(3):  # the first compiles and writes the cache; the next two read it
        out = _run(["solve", "take.py:Take", "--json"], cache, tmp_path)
        assert out.returncode == 0, f"run {run + 1}: {out.stderr[-1500:]}"
        assert '"value": "win"' in out.stdout and '"remoteness": 5' in out.stdout, out.stdout
    found = _run(["search", "take.py:Take"], cache, tmp_path)
    assert found.returncode == 0, found.stderr[-1500:]
    assert "win in 5" in found.stdout and "best move: 2" in found.stdout, found.stdout
    played = _run(["play", "take.py:Take"], cache, tmp_path, stdin="2\n/q\n")
    assert played.returncode == 0, played.stderr[-1500:]
    assert "player 2 (computer) plays" in played.stdout, played.stdout
    for out in (found, played):
        assert "<dynamic>" not in out.stderr and "Traceback" not in out.stderr
    # the kernels were cached against the user's module, which a later process imports
    # again, not against numba's '<dynamic>' (then every later process compiled afresh)
    entries = list(cache.rglob("*.nbc"))
    assert entries and not any(b"<dynamic>" in f.read_bytes() for f in entries)


LOADS_UNREGISTERED = '''
import importlib.util, sys
from perfectplay import solve
spec = importlib.util.spec_from_file_location("_never_registered", "take.py")
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)  # not in sys.modules: numba caches it as '<dynamic>'
print(solve(module.Take()).value())
'''


@pytest.mark.slow
def test_a_cached_kernel_that_cannot_be_read_back_is_compiled_again(tmp_path):
    """A module numba cannot import again (loaded without registering it, as the CLI did)
    leaves entries naming ``<dynamic>``; the next process compiles afresh instead of
    failing."""
    (tmp_path / "take.py").write_text(GAME)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    for run in range(2):
        out = subprocess.run([sys.executable, "-c", LOADS_UNREGISTERED], capture_output=True,
                             text=True, cwd=tmp_path, env=env, timeout=600)
        assert out.returncode == 0, f"run {run + 1}: {out.stderr[-1500:]}"
        assert out.stdout.split() == ["win"], out.stdout


def test_a_users_file_is_registered_under_one_name_per_path(tmp_path):
    from perfectplay.engine.target import load_target, user_module_name

    (tmp_path / "take.py").write_text(GAME)
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "take.py").write_text(GAME.replace("n=10", "n=7"))
    first = load_target(f"{tmp_path / 'take.py'}:Take")
    second = load_target(f"{other / 'take.py'}:Take")
    names = {user_module_name(tmp_path / "take.py"), user_module_name(other / "take.py")}
    assert len(names) == 2 and names <= set(sys.modules)  # same stem, two modules
    assert (first.start_code, second.start_code) == (10, 7)
    assert type(first).__module__ == user_module_name(tmp_path / "take.py")
