"""ruff runs as part of the suite, so the README's one test command checks the style too."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean():
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed: install the test extras (pip install '.[test]')")
    out = subprocess.run([ruff, "check", "src", "tests", "benchmarks", "examples"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
