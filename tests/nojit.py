"""One way for the tests to run code with numba's JIT off: every kernel is written to run as
plain Python under ``NUMBA_DISABLE_JIT=1``, and these tests check that it does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_without_jit(code: str, timeout: float = 600) -> str:
    """Run ``code`` in a fresh interpreter with ``NUMBA_DISABLE_JIT=1`` (the examples and
    the tests importable) and return what it printed; a failure fails with its stderr."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT / "examples"),
                                          str(ROOT / "tests")])}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=timeout)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout
