"""The README is the front door: short, in the user's words, every file it names there;
and every python block and command line of the README and of the docs pages runs as
written, each distinct one once (the rules of what runs, and what does not and why, are in
``tests/test_docs.py``, which also builds the site and posts the curl lines)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path

import pytest

from test_docs import (
    APART,
    BLOCKS_APART,
    EXPECTED_FAILURE,
    NOT_RUN,
    ROOT,
    _printed_as_said,
    _strip,
    command_lines,
    pages,
    python_blocks,
)

README = ROOT / "README.md"


@contextlib.contextmanager
def _logging_restored() -> Iterator[None]:
    """A block that configures logging (the logging page's ``basicConfig``) leaves this
    process's logging as it found it."""
    import logging

    loggers = [logging.getLogger(), logging.getLogger("perfectplay")]
    saved = [(lg, lg.level, lg.handlers[:]) for lg in loggers]
    try:
        yield
    finally:
        for lg, level, handlers in saved:
            lg.setLevel(level)
            lg.handlers[:] = handlers


def test_the_readme_is_a_front_door() -> None:
    """About 200 lines at most: what it is, the two set-up commands, a tour, the catalog,
    links; the two set-up commands exactly as .ci/run runs the second."""
    text = README.read_text("utf-8")
    assert len(text.splitlines()) <= 200
    blocks = re.findall(r"^```\n(.*?)^```", text, flags=re.S | re.M)
    assert "pip install . && perfectplay demo\n" in blocks
    assert 'pip install ".[test]" && python -m pytest\n' in blocks
    assert 'pip install ".[test]" && python -m pytest' in (ROOT / ".ci" / "run").read_text()
    assert any("class Subtract" in b for b in python_blocks())


#: Words of a development log, which belong in CHANGELOG.md, not in the user's docs.
DEVELOPMENT_LOG = [r"\bissue \d+", r"\bthis session\b", r"\bthe first version took\b",
                   r"\bissue's (target|figure)"]


def test_no_development_log_in_the_users_docs() -> None:
    """History goes to CHANGELOG.md; dated measurements to the benchmarks page."""
    for page in pages():
        if page.parent.name == "api":
            continue
        text = page.read_text("utf-8")
        for pattern in DEVELOPMENT_LOG:
            found = re.search(pattern, text, flags=re.I)
            assert found is None, (page.name, found.group(0) if found else "")


def test_every_example_file_named_in_the_docs_and_the_help_exists() -> None:
    cli = sorted((ROOT / "src" / "perfectplay" / "cli").glob("*.py"))
    texts = "".join(p.read_text("utf-8") for p in [*pages(), *cli])
    named = set(re.findall(r"examples/[\w./-]+\.(?:txt|out|py)", texts))
    assert len(named) >= 8
    assert [n for n in named if not (ROOT / n).is_file()] == []


def test_the_readme_defines_its_terms_before_using_them() -> None:
    """The words of the glossary the README uses are defined on the glossary page, and the
    README links to it before the first of them."""
    text = README.read_text("utf-8")
    glossary = (ROOT / "docs" / "glossary.md").read_text("utf-8")
    link = text.index("(docs/glossary.md)")
    for term in ("certified draw", "remoteness", "proof search", "store", "seed"):
        assert re.search(rf"^## .*{term}", glossary, flags=re.I | re.M), term
    assert link < text.index("## Set-up")


def test_every_python_block_of_the_readme_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every python block of the README and of the docs pages (each distinct one once), as
    a script runs it, its ``# output`` comments checked (the name kept from when the README
    held them all: tests/conftest.py starts it first)."""
    blocks = python_blocks()
    assert len(blocks) >= 15
    apart = [b for b in blocks if any(word in b for word in BLOCKS_APART)]
    assert len(apart) == len(BLOCKS_APART), "a block of BLOCKS_APART is no longer in the docs"
    monkeypatch.chdir(ROOT)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    started = [(block, subprocess.Popen([sys.executable, "-c", block], cwd=ROOT,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, env=env))
               for block in apart]
    try:
        for block in blocks:
            if block in apart:
                continue
            out = io.StringIO()
            with contextlib.redirect_stdout(out), _logging_restored():
                # as a script runs: a block under `if __name__ == "__main__":` runs too
                exec(compile(block, "docs", "exec"), {"__name__": "__main__"})  # noqa: S102
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


def test_every_command_line_of_the_readme_runs(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``perfectplay`` line of the README and the docs pages, in order, in a fresh folder
    beside the examples (a store made by one line is queried by the next), exits 0, except
    the lines named above.

    The lines run in this one process, through the same click command the ``perfectplay``
    script calls (one interpreter and one set of compiled kernels for 60 lines, not 60
    fresh interpreters of 2-3 s each), except the long lines of APART, which run at the
    same time in processes of their own, on the machine's second core."""
    from click.testing import CliRunner

    from perfectplay.cli import main

    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    commands = [ln for ln in command_lines() if ln.startswith("perfectplay ")
                and not any(ln.startswith(k) for k in NOT_RUN)]
    assert len(commands) >= 40
    apart = [ln for ln in commands if any(ln.startswith(k) for k in APART)]
    assert len(apart) == len(APART), "a line of APART is no longer in the docs"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
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
