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


def test_mypy_is_clean_on_the_engine_the_store_and_the_registry():
    """The package ships py.typed: the engine, the store and the registry type-check (the
    settings, strict where it is cheap, are in pyproject.toml's [tool.mypy])."""
    pytest.importorskip("mypy", reason="mypy is in the test extras")
    from mypy import api

    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                *[str(ROOT / "src" / "perfectplay" / p) for p in TYPED]])
    assert status == 0, out + err


TYPED = ["engine", "registry.py", "casegen.py", "store"]
