"""The README's Python examples run as written (its output comments are checked too)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_every_python_block_of_the_readme_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, "README.md", "exec"), {})  # noqa: S102
        printed = [ln[2:] for ln in block.splitlines() if ln.startswith("# ")]
        if printed:  # a block whose last lines are "# output" comments after a print
            assert out.getvalue().split("\n")[: len(printed)] == printed


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
    "perfectplay search 'examples/connect4.py:ConnectFour(7, 6)'": "minutes of search",
    "perfectplay solve 'examples/connect4.py:ConnectFour(5, 5)'": "70 million positions",
    "perfectplay serve": "a server; its curl lines are posted to the app below",
    "perfectplay solve 'examples/kalah.py:Kalah(6, 4)'": "an endgame store of 60 million "
    "positions (6 minutes)",
    "perfectplay search 'examples/kalah.py:Kalah(6, 4)'": "two minutes of search",
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


def test_every_command_line_of_the_readme_runs(tmp_path):
    """Every ``perfectplay`` line of the README, in order, in a fresh folder beside the
    examples (a store made by one line is queried by the next), exits 0, except the lines
    named above; every curl line's body gets a 200 from the web app."""
    import os
    import shlex
    import subprocess
    import sys

    (tmp_path / "examples").symlink_to(README.parent / "examples")
    commands = _readme_commands()
    assert len(commands) >= 30
    ran = 0
    for line in commands:
        if any(line.startswith(k) for k in NOT_RUN) or line.startswith("curl "):
            continue
        args = shlex.split(_strip(line))
        stdin = "/q\n" if args[1] == "play" else ""
        out = subprocess.run([sys.executable, "-m", "perfectplay", *args[1:]], cwd=tmp_path,
                             input=stdin, capture_output=True, text=True, timeout=300,
                             env={**os.environ, "PYTHONPATH": str(README.parent / "src")})
        expected = next((v for k, v in EXPECTED_FAILURE.items() if line.endswith(k)), None)
        if expected:
            assert out.returncode == 1 and expected in out.stderr, (line, out.stderr)
        else:
            assert out.returncode == 0, (line, out.stdout[-500:], out.stderr[-1500:])
        ran += 1
    assert ran >= 25


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
