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
    texts = README.read_text() + (root / "src" / "perfectplay" / "cli.py").read_text()
    named = set(re.findall(r"examples/[\w./-]+\.(?:txt|out|py)", texts))
    assert len(named) >= 8
    assert [n for n in named if not (root / n).is_file()] == []
