"""Numba's start-up without its BLAS probe: about 0.15 s off every process that has SciPy.

When numba loads its first kernel it imports ``numba.np.arraymath``, which probes for a BLAS
by importing ``scipy.linalg.cython_blas``, and with it all of ``scipy.linalg`` (0.15-0.2 s on
this machine, a sixth of a whole ``perfectplay rock`` run). The probe's answer is used in
one place only: whether ``np.correlate``/``np.convolve`` inside a jitted function may call
the BLAS dot product. Every use of BLAS proper (``np.dot``, ``np.linalg``) imports SciPy
itself when it is compiled.

:func:`skip_blas_probe` imports ``numba.np.arraymath`` with that one SciPy module marked
absent, then sets the probe's answer to whether SciPy is installed at all (found, not
imported), the answer the probe would have given. If numba has loaded that module already,
or SciPy's linear algebra is imported anyway, it does nothing; if numba's internals differ
from what it expects, it leaves numba as it is. Called once, from ``perfectplay/__init__``.

>>> skip_blas_probe()  # idempotent: numba is set up once per process
"""

from __future__ import annotations

import importlib.util
import sys

_PROBE = "scipy.linalg.cython_blas"
_ARRAYMATH = "numba.np.arraymath"


def skip_blas_probe() -> None:
    """Load numba's array maths without importing SciPy's linear algebra (see the module)."""
    if _ARRAYMATH in sys.modules or _PROBE in sys.modules:
        return
    sys.modules[_PROBE] = None  # type: ignore[assignment]  # "import halted": ImportError
    try:
        import numba.np.arraymath as arraymath
    except Exception:  # noqa: BLE001 - a numba we do not know: let it start as it will
        return
    finally:
        if sys.modules.get(_PROBE, 0) is None:
            del sys.modules[_PROBE]
    if hasattr(arraymath, "_HAVE_BLAS"):
        arraymath._HAVE_BLAS = _scipy_installed()


def _scipy_installed() -> bool:
    try:
        return importlib.util.find_spec("scipy") is not None
    except (ImportError, ValueError):
        return False
