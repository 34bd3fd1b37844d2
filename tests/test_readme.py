"""The README's Python examples run as written (its output comments are checked too)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


#: Python blocks that take long on their own (found by a word they contain), each with why:
#: each runs in a process of its own, started first, beside the other blocks.
BLOCKS_APART = {
    "kalah(houses=6, seeds=3)": "an endgame store of 251,940 boards, then a search reading it "
    "(15 s)",
}


def _printed_as_said(block: str, output: str) -> bool:
    """Whether ``output`` starts with the block's ``# output`` comment lines, if any (a block
    whose last lines are "# output" comments after a print)."""
    printed = [ln[2:] for ln in block.splitlines() if ln.startswith("# ")]
    return not printed or output.split("\n")[: len(printed)] == printed


def test_every_python_block_of_the_readme_runs():
    import os
    import subprocess
    import sys

    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks
    apart = [b for b in blocks if any(word in b for word in BLOCKS_APART)]
    assert len(apart) == len(BLOCKS_APART), "a block of BLOCKS_APART is no longer in the README"
    env = {**os.environ, "PYTHONPATH": str(README.parent / "src")}
    started = [(block, subprocess.Popen([sys.executable, "-c", block], cwd=README.parent,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, env=env))
               for block in apart]
    try:
        for block in blocks:
            if block in apart:
                continue
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                # as a script runs: a block under `if __name__ == "__main__":` runs too
                exec(compile(block, "README.md", "exec"),  # noqa: S102
                     {"__name__": "__main__"})
            assert _printed_as_said(block, out.getvalue()), (block, out.getvalue())
        for block, proc in started:
            output, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, (block, err[-1500:])
            assert _printed_as_said(block, output), (block, output)
    finally:
        for _, proc in started:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()


def test_every_example_file_named_in_the_readme_and_the_help_exists():
    root = README.parent
    cli = sorted((root / "src" / "perfectplay" / "cli").glob("*.py"))
    texts = README.read_text() + "".join(p.read_text() for p in cli)
    named = set(re.findall(r"examples/[\w./-]+\.(?:txt|out|py)", texts))
    assert len(named) >= 8
    assert [n for n in named if not (root / n).is_file()] == []


#: README command lines not run here, each with why.
NOT_RUN = {
    "pip install": "installs (the set-up check in a fresh environment does it)",
    "perfectplay search 'connect4(width=7, height=6)'": "minutes of search",
    "perfectplay solve 'connect4(width=5, height=5)'": "70 million positions",
    "perfectplay serve": "a server; its curl lines are posted to the app below",
    "perfectplay solve 'kalah(houses=6, seeds=4)'": "an endgame store of 60 million "
    "positions (6 minutes)",
    "perfectplay search 'kalah(houses=6, seeds=4)'": "two minutes of search",
}
#: What a line is expected to end with, when that is not success.
EXPECTED_FAILURE = {"-- python my_solution.py": "the program could not start"}


def _readme_commands() -> list[str]:
    lines = []
    for lang, block in re.findall(r"```(\w*)\n(.*?)```", README.read_text(), flags=re.S):
        if lang:
            continue
        for ln in block.splitlines():
            if ln.startswith(("perfectplay ", "curl ", "pip ")):
                lines.append(ln)
    return lines


def _strip(line: str) -> str:
    """A README line as a shell runs it: the comment gone, ``[optional parts]`` dropped."""
    line = re.sub(r"\s+#\s.*$", "", line)
    return re.sub(r"\s\[[^\]]*\]", "", line).strip()


#: Lines that take long on their own, each with why: each runs as the shell runs it
#: (``python -m perfectplay``, which covers the script's own start), in a process of its own
#: started first, beside the other lines (the machine's second core).
APART = {
    "perfectplay solve 'kalah(houses=4, seeds=3)'": "numba compiles the game's rules "
    "and the kernels for them, then 1.4 million positions (30 s)",
}


def test_every_command_line_of_the_readme_runs(tmp_path, monkeypatch):
    """Every ``perfectplay`` line of the README, in order, in a fresh folder beside the
    examples (a store made by one line is queried by the next), exits 0, except the lines
    named above; every curl line's body gets a 200 from the web app.

    The lines run in this one process, through the same click command the ``perfectplay``
    script calls (one interpreter and one set of compiled kernels for 40 lines, not 40
    fresh interpreters of 2-3 s each), except the long lines of APART, which run at the
    same time in processes of their own, on the machine's second core."""
    import os
    import shlex
    import subprocess
    import sys
    import traceback

    from click.testing import CliRunner

    from perfectplay.cli import main

    (tmp_path / "examples").symlink_to(README.parent / "examples")
    monkeypatch.chdir(tmp_path)
    commands = [ln for ln in _readme_commands()
                if not any(ln.startswith(k) for k in NOT_RUN) and not ln.startswith("curl ")]
    assert len(commands) >= 25
    apart = [ln for ln in commands if any(ln.startswith(k) for k in APART)]
    assert len(apart) == len(APART), "a line of APART is no longer in the README"
    env = {**os.environ, "PYTHONPATH": str(README.parent / "src")}
    started = [(line, subprocess.Popen(
        [sys.executable, "-m", "perfectplay", *shlex.split(_strip(line))[1:]], cwd=tmp_path,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=env)) for line in apart]
    try:
        runner = CliRunner()
        for line in commands:
            if line in apart:
                continue
            args = shlex.split(_strip(line))
            stdin = "/q\n" if args[1] == "play" else ""
            result = runner.invoke(main, args[1:], input=stdin)
            said = result.stdout + result.stderr
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                said += "".join(traceback.format_exception(result.exception))
            expected = next((v for k, v in EXPECTED_FAILURE.items() if line.endswith(k)), None)
            if expected:
                assert result.exit_code == 1 and expected in result.stderr, (line, said[-1500:])
            else:
                assert result.exit_code == 0, (line, said[-2000:])
        for line, proc in started:
            out, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, (line, out[-500:], err[-1500:])
    finally:
        for _, proc in started:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()


def test_every_curl_line_of_the_readme_is_answered():
    import json
    import shlex

    import pytest

    pytest.importorskip("starlette")
    from starlette.testclient import TestClient
    from tictactoe import TicTacToe

    from perfectplay.engine import solve
    from perfectplay.web.app import create_app

    client = TestClient(create_app(gamesman=solve(TicTacToe()), gamesman_id="tictactoe"))
    curls = [ln for ln in _readme_commands() if ln.startswith("curl ")]
    assert len(curls) >= 4
    for line in curls:
        args = shlex.split(re.sub(r"\s+#\s.*$", "", line))  # a trailing comment gone
        path = "/" + args[2].split("/", 1)[1]
        if "-d" not in args:  # a GET (the GamesCrafters shape, as serve --game serves it)
            r = client.get(path)
        else:
            r = client.post(path, json=json.loads(args[args.index("-d") + 1]))
        assert r.status_code == 200, (line, r.text)
