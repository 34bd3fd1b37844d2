"""The store's runner (store/runner.py) as a user's script meets it: a store solved from a
script without the ``if __name__ == "__main__":`` guard (which Dask's worker processes need)
is one line naming the line to guard, not a flood of tracebacks; guarded or interactive code
is left alone and solves."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


def run_script(tmp_path: Path, source: str, timeout: float = 180
               ) -> subprocess.CompletedProcess[str]:
    """Run ``source`` as the file snippet.py in ``tmp_path``, as a user runs a script."""
    script = tmp_path / "snippet.py"
    script.write_text(textwrap.dedent(source))
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=timeout, stdin=subprocess.DEVNULL)


STORE_SNIPPET = """
import tempfile

from perfectplay.coins import CoinsGame
from perfectplay.store import open_store, solve_tiered

{guard}game = CoinsGame([7, 9, 2, 6, 4])
{indent}folder = tempfile.mkdtemp()
{indent}solve_tiered(game, folder, workers=1)
{indent}with open_store(folder, game=game) as tb:
{indent}    print(tb.counts().total, tb.value())
"""


def test_a_script_without_the_main_guard_gets_one_line(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    out = run_script(tmp_path, STORE_SNIPPET.format(guard="", indent=""))
    assert out.returncode == 1
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("perfectplay: error: snippet.py, line 9: ")
    assert 'if __name__ == "__main__":' in lines[0]


def test_the_guarded_script_solves(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    guarded = STORE_SNIPPET.format(guard='if __name__ == "__main__":\n    ', indent="    ")
    out = run_script(tmp_path, guarded)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["20", "-2"]


def test_the_guard_error_is_a_store_error_too() -> None:
    from perfectplay.store import MainGuardError, StoreError

    err = MainGuardError("x")
    assert isinstance(err, StoreError) and isinstance(err, SystemExit)
    assert err.code == "perfectplay: error: x" and str(err) == "x"


def test_guarded_or_interactive_code_is_left_alone(tmp_path: Path) -> None:
    from perfectplay.store.runner import unguarded_script_line

    assert unguarded_script_line() is None  # pytest's own __main__ is guarded or a -c
    probe = textwrap.dedent("""
        from perfectplay.store.runner import unguarded_script_line
        print(unguarded_script_line())
        def f():
            return unguarded_script_line()
        if __name__ == "__main__":
            print(f())
    """)
    out = run_script(tmp_path, probe)
    assert out.stdout.splitlines() == [f"('{tmp_path / 'snippet.py'}', 3)", "None"]
    inline = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=60)
    assert inline.stdout.splitlines() == ["None", "None"]
