"""One compiled function for every copy of the same rule, so a game's kernels compile once a
process.

A :class:`~perfectplay.engine.compiled.game.CompiledGame` usually makes its rules inside its
``__init__`` (``@njit def moves(code, out): ...`` closing over the board's width), so every
instance brings new numba dispatchers, and numba compiles the engine's kernels afresh for
each: they are specialised to the dispatchers' types (2-5 s a game). Numba cannot cache those
kernels on disk (a kernel that takes a function, or a closure, is keyed by objects that die
with the process; the search kernels are, through :mod:`.staticrules`), but inside one
process two rules with the same code, the same closure values and the same defaults are the
same function: :func:`canonical` hands back the first dispatcher made for it, and numba's
own per-type cache then serves every later instance (``ConnectFour(4, 4)`` a second time in
a notebook, a test suite or a web server: no compile).

The fingerprint of a function is its code object, its globals' identity, its compile
options and, recursively, the values it closes over and its defaults: numbers, strings,
None, tuples of these, small numpy arrays (by their bytes) and other such functions. A rule
closing over anything else (a list, an object) is never shared. At most :data:`CAPACITY`
rules are kept (oldest dropped first).

>>> from numba import njit
>>> def make(k):
...     @njit
...     def add(x):
...         return x + k
...     return add
>>> canonical(make(1)) is canonical(make(1)), canonical(make(1)) is canonical(make(2))
(True, False)
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
from numba.core.registry import CPUDispatcher

#: Rules remembered at once.
CAPACITY = 512
#: Arrays larger than this (bytes) in a closure are not fingerprinted (the rule is not shared).
ARRAY_BYTES = 1 << 20
_SIMPLE = (int, bool, str, bytes, type(None), np.integer, np.bool_)
_FLOATS = (float, complex, np.floating)  # keyed by repr: -0.0 and 0.0 compile apart
_seen: OrderedDict[tuple, CPUDispatcher] = OrderedDict()


def canonical(fn: CPUDispatcher) -> CPUDispatcher:
    """The first dispatcher this process made with ``fn``'s fingerprint (``fn`` itself
    when it is the first, or when it cannot be fingerprinted). O(size of its closure)."""
    key = fingerprint(fn)
    if key is None:
        return fn
    first = _seen.get(key)
    if first is not None:
        _seen.move_to_end(key)
        return first
    _seen[key] = fn
    if len(_seen) > CAPACITY:
        _seen.popitem(last=False)
    return fn


def fingerprint(fn: Any, depth: int = 0) -> tuple | None:
    """A hashable key equal for two functions that compile to the same code, or None."""
    py = fn.py_func if isinstance(fn, CPUDispatcher) else fn
    code = getattr(py, "__code__", None)
    if code is None or depth > 8:
        return None
    try:
        values = [c.cell_contents for c in py.__closure__ or ()] + list(py.__defaults__ or ())
    except ValueError:  # an empty cell (a name bound after the function was made)
        return None
    parts = []
    for value in values:
        key = _value_key(value, depth)
        if key is None:
            return None
        parts.append(key)
    options = getattr(fn, "targetoptions", {})
    try:
        opts = tuple(sorted((k, repr(v)) for k, v in options.items()))
    except Exception:  # noqa: BLE001 - an option whose repr fails: never share the rule
        return None
    return (code, id(py.__globals__), opts, tuple(parts))


def _value_key(value: Any, depth: int) -> tuple | None:
    if isinstance(value, _SIMPLE):
        return (type(value).__name__, value)
    if isinstance(value, _FLOATS):
        return (type(value).__name__, repr(value))
    if isinstance(value, tuple):
        keys = [_value_key(v, depth) for v in value]
        return None if any(k is None for k in keys) else ("tuple", tuple(keys))
    if isinstance(value, np.ndarray):
        if value.nbytes > ARRAY_BYTES or value.dtype.hasobject:
            return None
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, CPUDispatcher) or callable(value) and hasattr(value, "__code__"):
        key = fingerprint(value, depth + 1)
        return None if key is None else ("function", key)
    return None
