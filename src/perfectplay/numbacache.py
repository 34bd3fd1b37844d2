"""numba's disk cache made safe for several processes and for code that changes under it.

numba keeps each ``cache=True`` kernel's machine code in an index file and numbered data
files beside the kernel's module. Two faults of that cache gave crashes here, and could give
wrong answers:

* **Two writers at once.** To add an entry numba reads the index, picks the first data file
  number the index does not name, writes the index, then the data. Two processes compiling
  two signatures of one kernel at the same moment (two test workers, two ``solve`` runs, a
  server's workers) both pick the same number: the index that survives names one
  signature, the data file that survives holds the other's code, and the next process that
  loads it runs another game's kernel (seen as SIGSEGV on clean clones, twice).
  :func:`make_cache_safe` makes every save hold an exclusive ``flock`` on a lock file beside
  the index, and every load a shared one, so an index and its data are always read as one
  writer left them.
* **A callee edited, the caller's entry kept.** numba checks only the date of the kernel's
  own file and the hash of its own bytecode; a kernel that calls a jitted function of another
  module (``bits.popcount``, a game's ``moves``) kept its compiled copy of the old callee
  after that module changed (seen as a crash after pulling a change to a callee). Each
  entry's key here also carries a digest of every module the kernel reaches through its
  globals (:func:`reached_digest`), so any edit of a callee's module is a miss.

* **The same compile twice.** Two processes that need one kernel for the same argument
  types at the same moment (two test workers, a server's workers on a cold cache) both
  missed the cache and both compiled it. A compile of a cached kernel now holds an
  exclusive ``flock`` named after the kernel's index and its argument types
  (:func:`_compile_lock_path`), so the second process waits for the first and then reads
  its entry; other argument types of the same kernel still compile side by side.

* **An index naming code that is gone.** numba unpickles a kernel's whole index before it
  checks the index is fresh, so an index that names a class or function since removed or
  renamed (an upgrade, a pull, an edit) raised ``AttributeError`` out of the kernel's first
  call. Such an index now reads as empty: a miss, and the next save writes a new one
  (:func:`_forgiving`).

All four are installed when numba is first imported (:mod:`perfectplay.numbaboot`), for
every cached kernel of the process (the package's and a user's game file alike). Cost: one
``flock`` per cache read or write (two for a compile), and at most about a millisecond a
kernel for the digest (module digests are computed once a process).

>>> make_cache_safe()  # idempotent
>>> make_cache_safe()
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import pickle
import sys
import types as pytypes
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

#: Modules whose code is never edited under a cache: their version is in numba's key already.
_LIBRARIES = frozenset({"numpy", "numba", "llvmlite", "math", "cmath", "builtins", "operator",
                        "typing", "collections", "functools", "itertools"})
_INSTALLED = "_perfectplay_safe"


def make_cache_safe() -> None:
    """Wrap numba's cache file (locked loads and saves) and its entry key (the digest of the
    modules a kernel reaches), once a process. Does nothing if numba's caching module is not
    the one this was written for (an attribute missing)."""
    try:
        from numba.core import caching
    except ImportError:  # numba absent: nothing is cached
        return
    files, cache_class = caching.IndexDataCacheFile, caching.Cache
    if getattr(files, _INSTALLED, False):
        return
    if not (hasattr(files, "save") and hasattr(files, "load")
            and hasattr(files, "_load_index") and hasattr(cache_class, "_index_key")):
        return
    from numba.core import dispatcher
    compiling = dispatcher.Dispatcher
    if not hasattr(compiling, "compile"):
        return
    setattr(compiling, "compile", _compiling_alone(compiling.compile))  # noqa: B010
    setattr(files, "_load_index", _forgiving(files._load_index))  # noqa: B010
    setattr(files, "save", _locked(files.save, fcntl.LOCK_EX))  # noqa: B010 - numba's class
    setattr(files, "load", _locked(files.load, fcntl.LOCK_SH))  # noqa: B010
    setattr(cache_class, "_index_key",  # noqa: B010
            _keyed_by_reached(cache_class._index_key))
    setattr(files, _INSTALLED, True)


def _locked(method: Callable[..., object], mode: int) -> Callable[..., object]:
    """``method`` of an ``IndexDataCacheFile``, run holding ``flock(mode)`` on its lock file."""

    def run(self: object, *args: object) -> object:
        with _lock(str(self._index_path) + ".lock", mode):  # type: ignore[attr-defined]
            return method(self, *args)

    run.__doc__ = method.__doc__
    return run


def _forgiving(load_index: Callable[..., dict[object, object]]
               ) -> Callable[..., dict[object, object]]:
    """numba's ``IndexDataCacheFile._load_index``, an index that cannot be unpickled (it
    names a module, class or function that is gone, or it is cut short) read as empty."""

    def run(self: object) -> dict[object, object]:
        try:
            return load_index(self)
        except (AttributeError, ImportError, EOFError, pickle.UnpicklingError, TypeError,
                ValueError):
            return {}

    run.__doc__ = load_index.__doc__
    return run


#: The compile locks this process holds (a compile inside a compile takes its own only).
_HELD: set[str] = set()


def _compiling_alone(compile_: Callable[..., object]) -> Callable[..., object]:
    """numba's ``Dispatcher.compile`` holding the lock of the kernel's argument types, when
    the kernel is cached on disk and the lock is not held here already (nested compiles:
    a kernel's callees, each under a lock of its own; the call graph has no cycles, so two
    processes never wait on each other). O(1) besides the compile: one ``flock``."""

    from numba.core.compiler_lock import global_compiler_lock

    def run(self: object, sig: object) -> object:
        path = _compile_lock_path(self, sig)
        if path is None or path in _HELD:
            return compile_(self, sig)
        # numba's own lock first (reentrant; compile_ takes it too): a thread holding a
        # file lock never waits for another thread of this process that holds numba's
        with global_compiler_lock, _lock(path, fcntl.LOCK_EX):
            _HELD.add(path)
            try:
                return compile_(self, sig)
            finally:
                _HELD.discard(path)

    run.__doc__ = compile_.__doc__
    return run


def _compile_lock_path(dispatcher: object, sig: object) -> str | None:
    """``<index>.<digest of the argument types>.compiling`` beside the kernel's numba index,
    or None for a kernel not cached on disk (its compile is the process's own)."""
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    index = getattr(cache_file, "_index_path", None)
    if index is None:
        return None
    from numba.core import sigutils
    try:
        args, _ = sigutils.normalize_signature(sig)
    except Exception:  # noqa: BLE001 - numba raises its own errors for a bad signature
        return None
    digest = hashlib.sha256(str(args).encode()).hexdigest()[:16]
    return f"{index}.{digest}.compiling"


@contextlib.contextmanager
def _lock(path: str, mode: int) -> Iterator[None]:
    """Hold ``flock(mode)`` on ``path`` (created if missing). A folder where no lock file can
    be made (read-only) is used unlocked, as numba would use it."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, mode)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _keyed_by_reached(index_key: Callable[..., tuple[object, ...]]
                      ) -> Callable[..., tuple[object, ...]]:
    """numba's ``Cache._index_key`` with :func:`reached_digest` of the kernel appended."""

    def key(self: object, sig: object, codegen: object) -> tuple[object, ...]:
        return (*index_key(self, sig, codegen),
                reached_digest(self._py_func))  # type: ignore[attr-defined]

    return key


def reached_digest(func: pytypes.FunctionType) -> str:
    """SHA-256 over the text of every module ``func`` reaches through the functions, jitted
    functions and modules its globals name, transitively (libraries excluded). O(functions
    reached); each module's text is read and hashed once a process.

    >>> from perfectplay import bits
    >>> len(reached_digest(bits.popcount.py_func))
    64
    """
    modules: set[str] = set()
    _reach(func, modules, set())
    h = hashlib.sha256()
    for name in sorted(modules):
        h.update(f"{name} {_module_digest(name)}\n".encode())
    return h.hexdigest()


def _reach(value: object, modules: set[str], seen: set[int]) -> None:
    py = getattr(value, "py_func", value)  # a numba dispatcher's Python function
    if isinstance(value, pytypes.ModuleType):
        if _ours(value.__name__):
            modules.add(value.__name__)
        return
    if not isinstance(py, pytypes.FunctionType) or id(py) in seen:
        return
    seen.add(id(py))
    if not _ours(py.__module__):
        return
    modules.add(py.__module__)
    for name in global_names(py.__code__):
        if name in py.__globals__:
            _reach(py.__globals__[name], modules, seen)
    for cell in py.__closure__ or ():
        with contextlib.suppress(ValueError):  # an empty cell
            _reach(cell.cell_contents, modules, seen)


def global_names(code: pytypes.CodeType) -> set[str]:
    """The global names ``code`` and the code nested in it read (with attribute names: a
    superset, filtered by the caller against the function's globals). O(size of the code).

    >>> sorted(global_names((lambda x: abs(len(x))).__code__))
    ['abs', 'len']
    """
    out = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, pytypes.CodeType):
            out |= global_names(const)
    return out


def _ours(module: str | None) -> bool:
    return bool(module) and module.split(".")[0] not in _LIBRARIES  # type: ignore[union-attr]


@cache
def _module_digest(name: str) -> str:
    """SHA-256 of module ``name``'s file (its name alone when it has none)."""
    path = getattr(sys.modules.get(name), "__file__", None)
    if path is None or not Path(path).is_file():
        return "nofile"
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
