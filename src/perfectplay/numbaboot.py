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
internals differ from what it expects, it leaves numba as it is.

``import perfectplay`` does not load numba (a Python game solved in Python never needs it):
it calls :func:`after_numba`, which runs :func:`numba_loaded` (the probe skipped, the disk
cache made safe: :mod:`perfectplay.numbacache`) the moment anything imports numba, whichever
module of the package (or of a user's game) does it first.

>>> skip_blas_probe()  # idempotent: numba is set up once per process
"""

from __future__ import annotations

import glob
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from types import ModuleType

from .numbacache import make_cache_safe

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


def numba_loaded() -> None:
    """What the package sets up in numba once it is loaded: :func:`skip_blas_probe`, and its
    disk cache made safe for concurrent processes and edited callees
    (:func:`perfectplay.numbacache.make_cache_safe`)."""
    skip_blas_probe()
    make_cache_safe()


def after_numba() -> None:
    """Run :func:`numba_loaded` right after numba is first imported (at once if it is
    already): a finder on ``sys.meta_path`` that watches for the name ``numba`` only, hands
    the import to the usual finders and, when numba's package has run, skips the probe. It
    removes itself at that first import. Idempotent."""
    if "numba" in sys.modules:
        numba_loaded()
        return
    if not any(isinstance(f, _NumbaWatch) for f in sys.meta_path):
        sys.meta_path.insert(0, _NumbaWatch())


class _NumbaWatch(importlib.abc.MetaPathFinder):
    """Finds nothing itself: wraps numba's own loader so that :func:`skip_blas_probe`
    follows its first import (see :func:`after_numba`)."""

    def find_spec(self, name: str, path: object = None, target: object = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if name != "numba":
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)  # once, and not asked again by the search below
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = _ThenSkip(spec.loader)
        return spec


class _ThenSkip(importlib.abc.Loader):
    """numba's loader, then the probe skipped; numba's module keeps its own loader."""

    def __init__(self, real: importlib.abc.Loader) -> None:
        self.real = real

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.real.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        if module.__spec__ is not None:
            module.__spec__.loader = self.real
        module.__loader__ = self.real
        self.real.exec_module(module)
        numba_loaded()


class LazyNumpy:
    """numpy, imported the first time one of its names is read (each name then kept here,
    so later reads cost what a module's do): the engine's modules that need numpy only in
    some functions (saving, scored games, the id table of a large game) read it through
    :data:`numpy_on_use`, and a small Python game's solve never imports it (0.11 s a
    process; issue 70). A module that does so imports numpy itself under ``TYPE_CHECKING``
    for its annotations.

    >>> numpy_on_use.int8(3).itemsize
    1
    """

    def __getattr__(self, name: str) -> object:
        import numpy

        value = getattr(numpy, name)
        setattr(self, name, value)
        return value


numpy_on_use = LazyNumpy()
