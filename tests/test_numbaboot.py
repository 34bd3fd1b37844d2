"""numbaboot: numba starts without importing SciPy's linear algebra, and loses nothing."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from nojit import ROOT

CHECK = """
import sys
import numpy as np
import perfectplay
from perfectplay.grid import neighbour_table
neighbour_table(3, 3)  # numba's first kernel: its registries are loaded
print('scipy.linalg' in sys.modules)
import numba
import numba.np.arraymath as am
print(am._HAVE_BLAS)
@numba.njit
def work(a, b):
    return np.dot(a, b), np.correlate(a, b)[0], np.linalg.inv(np.eye(2) * 2.0)[0, 0]
dot, corr, inv = work(np.array([1.0, 2.0]), np.array([3.0, 4.0]))
print(dot, corr, inv)
"""


@pytest.mark.skipif(importlib.util.find_spec("scipy") is None,
                    reason="without SciPy numba's probe costs nothing: nothing to skip")
def test_numba_starts_without_scipy_linalg_and_blas_still_works():
    out = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True,
                         cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    before_blas, have_blas, results = out.stdout.split("\n")[:3]
    assert before_blas == "False"  # the probe's 0.15 s was not paid
    assert have_blas == "True"  # numba's answer, as its own probe would give it
    assert results == "11.0 11.0 0.5"  # np.dot, np.correlate, np.linalg in a jitted kernel


def test_skip_blas_probe_is_a_no_op_once_numba_is_up():
    from perfectplay.numbaboot import skip_blas_probe
    before = dict(sys.modules)
    skip_blas_probe()
    assert "scipy.linalg.cython_blas" not in sys.modules or \
        sys.modules["scipy.linalg.cython_blas"] is not None
    assert set(sys.modules) >= set(before)
