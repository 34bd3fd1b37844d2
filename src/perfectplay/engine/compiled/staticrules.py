"""A compiled game's rules as a numba type named by a digest of their code, so the search
kernels that take them are cached on disk like any other kernel.

The search kernels (:mod:`perfectplay.engine.proof.kernel`) take a game's rules, a
NamedTuple of numba dispatchers. Numba types a dispatcher by the object itself, which dies
with the process, so it cannot cache a kernel that takes one: every process compiled the
search afresh for each game, 10-20 s before the first node (``perfectplay search
'hexapawn(width=4, height=4)'`` spent 18.7 s compiling a 1,149-node search).
:class:`StaticRules` wraps the same dispatchers in one value whose numba type,
:class:`RulesType`, is named by :func:`rules_digest`: the text of every module the rules'
code reaches, the values they close over and the library versions. Two processes with the
same rules make the same type, so numba's disk cache (keyed by the kernel's file and its
argument types) serves the second one the first one's machine code; any edit of a rule's
module, a closure value or the engine's kernels makes another digest, so a stale kernel is
never served.

Compiled discovery (:func:`~perfectplay.engine.compiled.game.discover_cached`), the tier
solver's forward and backward sweeps (:mod:`..tiers`) and the store's
(:mod:`perfectplay.store.sortedtiers`, :func:`~..tiers.kernels.solve_range`) take the same
value through :func:`kernel_door`, so every kernel that runs a game's rules compiles once a
machine, not once a process.

The value carries no data: ``rules.moves`` is typed as that dispatcher and each call is a
direct call, compiled in, exactly as with the NamedTuple (no speed is lost). Rules whose
closures hold something the digest cannot read (a list, an object) get no digest; the
search then takes the NamedTuple and compiles once a process, as before.

>>> from perfectplay.games import tictactoe
>>> a, b = static_rules(tictactoe().rules), static_rules(tictactoe().rules)
>>> a is not None and a.digest == b.digest
True
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import types as pytypes
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path
from typing import TypeVar

import numba
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.core.caching import FunctionCache
from numba.core.extending import (
    NativeValue,
    infer_getattr,
    lower_getattr_generic,
    models,
    register_model,
    typeof_impl,
    unbox,
)
from numba.core.registry import CPUDispatcher
from numba.core.typing.templates import AttributeTemplate

from ...numbacache import global_names

#: The modules whose kernels are compiled into a cached kernel: their text is part of every
#: digest (numba itself checks only the date of the kernel's own file).
ENGINE_MODULES = tuple(f"perfectplay.engine.{name}" for name in (
    "proof.kernel", "proof.plan", "tiers.kernels", "tiers.solver", "compiled.game",
    "compiled.codetable", "compiled.kernels", "protocol", "status")) + (
    "perfectplay.store.sortedtiers", "perfectplay.bits")


#: A game's compiled rules (:class:`~perfectplay.engine.compiled.game.Rules`: dispatchers).
RuleTuple = tuple[object, ...]
#: A kernel (a numba dispatcher) chosen by :func:`kernel_door`.
K = TypeVar("K")
#: What a digest is fed with (a hash's ``update``).
Add = Callable[[bytes], None]
#: The value of a field of the rules in compiled code: never read (each call is direct).
_NULL = ir.Constant(ir.IntType(8).as_pointer(), None)


class Unreadable(Exception):
    """A value in the rules' closures or globals that no digest can stand for."""


class StaticRules:
    """The dispatchers of a game's rules (the fields of
    :class:`~perfectplay.engine.compiled.game.Rules`) and their digest."""

    def __init__(self, rules: RuleTuple, digest: str) -> None:
        self.rules = rules
        self.digest = digest
        self.numba_type = RulesType(digest, rules)
        if self.numba_type.rules is None:  # interned from numba's index, read back first
            self.numba_type.rules = rules


class RulesType(types.Type):
    """The numba type of a :class:`StaticRules`: equal for equal digests, in any process.
    ``rules`` (the dispatchers, for typing the calls) is not pickled into numba's cache
    index; a type read back from the index is interned to this process's type of the same
    digest, if any, and is otherwise only compared."""

    def __init__(self, digest: str, rules: RuleTuple | None) -> None:
        self.digest = digest
        self.rules = rules
        super().__init__(name=f"Rules[{digest[:16]}]")

    @property
    def key(self) -> str:
        return self.digest

    def __getstate__(self) -> dict[str, object]:
        return {**self.__dict__, "rules": None}


@typeof_impl.register(StaticRules)
def _typeof(value: StaticRules, _c: object) -> RulesType:
    return value.numba_type


register_model(RulesType)(models.OpaqueModel)


@unbox(RulesType)
def _unbox(_typ: RulesType, _obj: object, _c: object) -> NativeValue:
    return NativeValue(_NULL)


@infer_getattr
class _RulesAttributes(AttributeTemplate):
    key = RulesType

    def generic_resolve(self, typ: RulesType, attr: str  # type: ignore[override]
                        ) -> types.Type | None:
        if typ.rules is None or not hasattr(typ.rules, attr):
            return None
        return types.Dispatcher(getattr(typ.rules, attr))


@lower_getattr_generic(RulesType)
def _getattr(_context: object, _builder: object, _typ: object, _value: object,
             _attr: str) -> ir.Constant:
    # a dispatcher's value is never read: the call is resolved at compile time
    return _NULL


def static_rules(rules: RuleTuple) -> StaticRules | None:
    """``rules`` wrapped for the cached kernels, or None when their code cannot be digested
    (then the kernels take ``rules`` as they are). O(the code reached: about 0.3 ms)."""
    if getattr(numba.config, "DISABLE_JIT", 0):
        return None  # the kernels run as Python and read the NamedTuple's fields
    try:
        return _static_once(rules)
    except TypeError:  # a rule that cannot be hashed: digested every time
        digest = rules_digest(rules)
        return None if digest is None else StaticRules(rules, digest)


@lru_cache(maxsize=64)
def _static_once(rules: RuleTuple) -> StaticRules | None:
    """:func:`static_rules` of ``rules`` once a process: the same rules (a game's, kept
    across searches) are digested once, not on each search (0.9 ms a call on 7x6 Connect
    Four, most of the cost of searching an easy position)."""
    digest = rules_digest(rules)
    return None if digest is None else StaticRules(rules, digest)


def kernel_door(rules: RuleTuple, plain: K, cached: K) -> tuple[K, object]:
    """The kernel to call and the rules to give it: ``cached`` (compiled with
    ``cache=True``) with the rules as a :class:`StaticRules` when they have a digest, else
    ``plain`` with the NamedTuple as it is. Both compile the same code.

    >>> from perfectplay.games import tictactoe
    >>> kernel, arg = kernel_door(tictactoe().rules, "plain", "cached")
    >>> kernel, type(arg).__name__
    ('cached', 'StaticRules')
    """
    static = static_rules(rules)
    return (plain, rules) if static is None else (tolerant(cached), static)


class _TolerantCache(FunctionCache):
    """numba's disk cache of one kernel, where an entry that cannot be read back is a miss:
    the kernel compiles again and the entry is written anew. An entry can outlive what it
    names: a kernel compiled over the rules of a module that a later process cannot import
    (a user's file loaded without being registered: ``No module named '<dynamic>'``)
    failed every later run, and the error blamed the game's rules."""

    def load_overload(self, sig: object, target_context: object) -> object:
        try:
            return super().load_overload(sig, target_context)
        except Exception:  # noqa: BLE001 - any unreadable entry: compile afresh instead
            return None


def tolerant(kernels: K) -> K:
    """``kernels`` (a numba dispatcher compiled with ``cache=True``, or a tuple of them)
    with a disk cache whose unreadable entries are compiled again (:class:`_TolerantCache`);
    anything else as it is. Idempotent, O(1) a kernel."""
    for kernel in kernels if isinstance(kernels, tuple) else (kernels,):
        cache = getattr(kernel, "_cache", None)
        if type(cache) is FunctionCache:
            cache.__class__ = _TolerantCache
    return kernels


def rules_digest(rules: RuleTuple) -> str | None:
    """SHA-256 of everything the compiled ``rules`` depend on: the library versions, the
    engine's kernel modules, and for each rule (by field) its module's text, its name, its code,
    the values it closes over and its defaults, and recursively the functions and modules it
    names. None if a value is neither a number, a string, a tuple, an array, a function nor
    a module. O(size of the code reached); each module file is read once a process."""
    h = hashlib.sha256()
    add = h.update
    add(f"{numba.__version__} {np.__version__} {sys.version}".encode())
    for name in ENGINE_MODULES:
        add(_module_text(name))
    seen: set[int] = set()
    try:
        for field, fn in zip(getattr(rules, "_fields", range(len(rules))), rules, strict=True):
            add(str(field).encode())
            _function(fn, add, seen)
    except Unreadable:
        return None
    return h.hexdigest()


def _function(fn: object, h: Add, seen: set[int]) -> None:
    py = fn.py_func if isinstance(fn, CPUDispatcher) else fn
    if not isinstance(py, pytypes.FunctionType):
        raise Unreadable(type(fn).__name__)
    h(f"fn {py.__module__}.{py.__qualname__}".encode())
    if id(py) in seen:
        return
    seen.add(id(py))
    h(_module_text(py.__module__))
    _code(py.__code__, h)  # the code itself: a rule typed in a notebook has no file
    h(repr(getattr(fn, "targetoptions", None)).encode())
    for cell in py.__closure__ or ():
        _value(cell.cell_contents, h, seen)
    for value in py.__defaults__ or ():
        _value(value, h, seen)
    for name in sorted(global_names(py.__code__)):
        if name in py.__globals__:
            _global(py.__globals__[name], h, seen)


def _code(code: pytypes.CodeType, h: Add) -> None:
    """A code object's bytecode, names and constants (nested code included). Not
    ``marshal``: its bytes depend on reference counts, so they differ between processes."""
    h(code.co_code)
    h(repr((code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars,
            code.co_argcount, code.co_kwonlyargcount, code.co_flags)).encode())
    for const in code.co_consts:
        if isinstance(const, pytypes.CodeType):
            _code(const, h)
        elif isinstance(const, frozenset):  # ``x in {...}``: its order follows the hash seed
            h(f"c frozenset {sorted(map(repr, const))!r}".encode())
        else:
            h(f"c {type(const).__name__} {const!r}".encode())


def _global(value: object, h: Add, seen: set[int]) -> None:
    """A name a rule reads: functions and modules of this process's code by their text,
    library modules by the versions already hashed, values as closure values."""
    if isinstance(value, pytypes.ModuleType):
        h(f"mod {value.__name__}".encode())
        if value.__name__.split(".")[0] not in ("numpy", "numba", "math", "llvmlite"):
            h(_module_text(value.__name__))
    elif isinstance(value, CPUDispatcher | pytypes.FunctionType):
        _function(value, h, seen)
    elif isinstance(value, type) or callable(value):
        h(f"obj {getattr(value, '__module__', '')}."
                 f"{getattr(value, '__qualname__', repr(type(value)))}".encode())
    else:
        _value(value, h, seen)


def _value(value: object, h: Add, seen: set[int]) -> None:
    if value is None or isinstance(value, bool | int | float | complex | str | bytes):
        h(f"v {type(value).__name__} {value!r}".encode())
    elif isinstance(value, np.generic):
        h(f"np {value.dtype} {value!r}".encode())
    elif isinstance(value, np.ndarray):
        h(f"arr {value.dtype} {value.shape}".encode())
        h(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, tuple):
        h(f"tuple {type(value).__qualname__} {len(value)}".encode())
        for item in value:
            _value(item, h, seen)
    elif isinstance(value, CPUDispatcher | pytypes.FunctionType):
        _function(value, h, seen)
    else:
        raise Unreadable(type(value).__name__)


@cache
def _module_text(name: str) -> bytes:
    """The source of module ``name`` (its file's bytes; its name alone if it has no file).
    The file is found whether or not this process has imported the module, so that two
    processes that imported different parts of the package make the same digest."""
    module = sys.modules.get(name)
    path = getattr(module, "__file__", None)
    if path is None and module is None:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        path = getattr(spec, "origin", None)
    if path is None or not Path(path).is_file():
        return f"nofile {name}".encode()
    return Path(path).read_bytes()
