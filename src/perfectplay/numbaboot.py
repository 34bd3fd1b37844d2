"""Numba's start-up without its BLAS probe: about 0.15 s off every process that has SciPy.

When numba loads its first kernel it imports ``numba.np.arraymath``, which probes for a BLAS
by importing ``scipy.linalg.cython_blas``, and with it all of ``scipy.linalg`` (0.15-0.2 s on
this machine, a sixth of a whole ``perfectplay rock`` run). The probe's answer is used in
one place only: whether ``np.correlate``/``np.convolve`` inside a jitted function may call
the BLAS dot product. Every use of BLAS proper (``np.dot``, ``np.linalg``) imports SciPy
itself when it is compiled.

:func:`skip_blas_probe` imports ``numba.np.arraymath`` with numba's probe answering "no
BLAS yet", then sets the probe's answer to whether SciPy's ``cython_blas`` extension is on
disk (found, not imported): the answer the probe would have given. If numba has loaded that
module already, or SciPy's linear algebra is imported anyway, it does nothing; if numba's
internals differ from what it expects, it leaves numba as it is. Called once, from
``perfectplay/__init__``.

>>> skip_blas_probe()  # idempotent: numba is set up once per process
"""

from __future__ import annotations

import glob
import importlib.util
import os
import sys

_ARRAYMATH = "numba.np.arraymath"


def skip_blas_probe() -> None:
    """Load numba's array maths without importing SciPy's linear algebra (see the module).

    The probe is numba's own ``numba.np.linalg.ensure_blas``, which ``arraymath`` binds
    when it is imported: it is swapped for one that says "no BLAS" just for that import
    (nothing in ``sys.modules`` is touched, so another thread importing SciPy meanwhile
    is not disturbed), then put back, in both modules."""
    if _ARRAYMATH in sys.modules or "scipy.linalg.cython_blas" in sys.modules:
        return
    try:
        import numba.np.linalg as linalg
    except Exception:  # noqa: BLE001 - a numba we do not know: let it start as it will
        return
    real = getattr(linalg, "ensure_blas", None)
    if real is None:
        return

    def no_blas_yet() -> None:
        raise ImportError("probed later")

    linalg.ensure_blas = no_blas_yet
    try:
        import numba.np.arraymath as arraymath
    except Exception:  # noqa: BLE001
        return
    finally:
        linalg.ensure_blas = real
    if getattr(arraymath, "ensure_blas", None) is no_blas_yet:
        arraymath.ensure_blas = real
    if hasattr(arraymath, "_HAVE_BLAS"):
        arraymath._HAVE_BLAS = _scipy_blas_installed()


def _scipy_blas_installed() -> bool:
    """Is SciPy's ``linalg.cython_blas`` extension on disk (found, not imported)?"""
    try:
        spec = importlib.util.find_spec("scipy")
    except (ImportError, ValueError):
        return False
    for where in (spec.submodule_search_locations or []) if spec else []:
        if glob.glob(os.path.join(where, "linalg", "cython_blas*")):
            return True
    return False
