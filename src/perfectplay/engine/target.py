"""Load a game named on the command line: a catalog game ``NAME`` or ``NAME(key=value)``,
or a user's ``FILE.py:Class`` or ``FILE.py:Class(args)``.

The arguments are Python literals (numbers, strings, tuples, ...), read with
:func:`ast.literal_eval`, never executed, so ``'connect4(width=5, height=5)'`` or
``'mygame.py:Board(5, 5)'`` builds the game the same way from the CLI, a tablebase's manifest
or a Dask worker.

>>> parse_target("mygame.py:Board(5, height=4)")
('mygame.py', 'Board', (5,), {'height': 4})
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeAlias

from ..errors import GameError, InputError, show_exc
from ..registry import get_catalog
from .protocol import Game

if TYPE_CHECKING:  # the compiled door (numba) loads only when a compiled game is built
    from .compiled import CompiledGame

#: What a target builds: a game of the engine's protocol (a user's class, a catalog game's
#: Python rules) or a :class:`~perfectplay.engine.CompiledGame` (numba rules over int codes).
#: A user's factory may return anything: the engine's checks say what it lacks.
LoadedGame: TypeAlias = "Game[Any, Any] | CompiledGame"


def parse_target(target: str) -> tuple[str, str, tuple[Any, ...], dict[str, Any]]:
    """(file, name, positional args, keyword args) of a target; InputError when malformed."""
    file, sep, call = target.partition(".py:")
    if not sep:
        raise InputError(f"expected a catalog game such as connect4(width=5, height=4), "
                         f"FILE.py:Class or FILE.py:Class(args), got {target!r}")
    return (file + ".py", *parse_call(call))


def parse_call(call: str) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    """(name, positional args, keyword args) of ``Name`` or ``Name(literal args)``.

    >>> parse_call("connect4(width=5, height=4)")
    ('connect4', (), {'width': 5, 'height': 4})
    """
    try:
        node = ast.parse(call.strip(), mode="eval").body
    except SyntaxError:
        raise InputError(f"{call!r} is not a name or a call like connect4(width=5, "
                         "height=4)") from None
    if isinstance(node, ast.Name):
        return node.id, (), {}
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        raise InputError(f"{call!r} is not a name or a call like connect4(width=5, height=4)")
    try:
        args = tuple(ast.literal_eval(a) for a in node.args)
        kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
    except ValueError:
        raise InputError(f"the arguments of {call!r} must be literals (numbers, strings, "
                         "tuples ...)") from None
    if len(kwargs) != len(node.keywords):
        raise InputError(f"{call!r}: **kwargs are not allowed, name each argument")
    return node.func.id, args, kwargs


def is_catalog_target(target: str) -> bool:
    """True when ``target`` names a catalog game (``connect4``, ``kalah(houses=4)``) rather
    than a file: it has no ``.py:``."""
    return ".py:" not in target


def load_catalog_target(target: str) -> LoadedGame:
    """Build the catalog game ``NAME`` or ``NAME(key=value, ...)``, parameters checked."""
    name, args, kwargs = parse_call(target)
    return get_catalog(name).build(*args, **kwargs)


def user_module_name(path: Path) -> str:
    """The name a user's file is imported under: stable for the same file in every process
    (its stem and a digest of its absolute path), so numba's disk cache, which records the
    module of every compiled rule and imports it again when it reads a kernel back, finds
    it in a later process that loaded the same file; two files of one stem stay apart.

    >>> user_module_name(Path("/home/a/mygame.py")).startswith("_perfectplay_user_mygame_")
    True
    """
    resolved = str(path.resolve())
    stem = "".join(c if c.isalnum() or c == "_" else "_" for c in path.stem)
    return f"_perfectplay_user_{stem}_{hashlib.sha256(resolved.encode()).hexdigest()[:12]}"


def _import_file(path: Path, file: str) -> ModuleType:
    """Run the user's file as the module :func:`user_module_name`, registered in
    ``sys.modules`` as an import would (a module numba cannot import again poisons its disk
    cache: the next process failed with ``No module named '<dynamic>'``)."""
    name = user_module_name(path)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise InputError(f"cannot load {file} as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(path.resolve().parent))
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - a user's module may raise anything
        sys.modules.pop(name, None)
        raise GameError(f"importing {file} raised {type(exc).__name__}: {show_exc(exc)}") \
            from None
    finally:
        sys.path.pop(0)
    return module


#: A catalog entry's ``size`` sentence that states a count: "4,531,985,219,092 positions
#: (Edelkamp and Kissmann 2008)" or "6x6: about 10^12 positions" (not "at most ...", a bound
#: above, which says nothing of how many a solve meets).
_COUNT = re.compile(r"^(?:\w+: )?(?:(?P<exact>\d[\d,]*)|about 10\^(?P<power>\d+)) positions\b")


def catalog_positions(target: str) -> tuple[int, str] | None:
    """(how many positions, the catalog's sentence) for a catalog game whose entry states
    its number of positions (a published count, or "about 10^N"), so that a game far too
    big to solve whole is refused before its enumeration starts; None for a file, or a
    catalog game that gives only a bound above or nothing. Parameters are checked (the
    project's errors).

    >>> catalog_positions("connect4(width=7, height=6)")[0]
    4531985219092
    >>> catalog_positions("kalah(houses=4, seeds=3)") is None  # "at most ...": no count
    True
    """
    if not is_catalog_target(target):
        return None
    name, args, kwargs = parse_call(target)
    entry = get_catalog(name)
    if entry.size is None:
        return None
    sentence = entry.size(entry.arguments(args, kwargs))
    found = _COUNT.match(sentence)
    if found is None:
        return None
    exact = found.group("exact")
    count = int(exact.replace(",", "")) if exact else 10 ** int(found.group("power"))
    return count, sentence


def load_target(target: str) -> LoadedGame:
    """Build a catalog game (``connect4(width=5, height=4)``), or import the file of
    ``FILE.py:Class(args)`` and build its game; the project's errors for every failure."""
    if is_catalog_target(target):
        return load_catalog_target(target)
    file, name, args, kwargs = parse_target(target)
    path = Path(file)
    if not path.is_file():
        raise InputError(f"no such file: {file}")
    module = _import_file(path, file)
    factory = getattr(module, name, None)
    if factory is None or not callable(factory):
        raise InputError(f"{file} has no class or function {name!r}")
    try:
        return factory(*args, **kwargs)
    except (Exception, SystemExit) as exc:  # noqa: BLE001
        shown = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
        raise GameError(f"{name}({shown}) raised {type(exc).__name__}: {show_exc(exc)}") \
            from None
