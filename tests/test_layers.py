"""The package's layering, enforced: who may import whom, no import circle, and no import
made at run time unless a table below says why.

Layers, bottom up (a module may import its own layer and the layers below):

1. base: errors, text reading, grids, bit tricks, progress, judge plumbing, the registry's
   contract, the case generators' contract, the picture helpers;
2. engine: the generic solver, search and kernels (knows no game);
3. play core, store and bridges: the play loop over any game; the on-disk tablebases;
   OpenSpiel's games as engine games, solved games as PettingZoo environments;
4. games: the packages the registry names in ``registry.BUILTIN`` (each imports base,
   engine, play core, never another game, never an application), and the catalog of famous
   games (``catalog``: its contract and one package a game, ``registry.CATALOG``; a catalog
   game never imports another);
5. applications: the command line (the package ``cli``), the web page, demo, judge, gen,
   stress.

An import is counted wherever it happens: an ``import`` statement at the top of a module or
inside a function, and a call of ``importlib.import_module`` (or ``__import__``) with a
module's name, written out (``"perfectplay.coins"``), as an f-string (every module it can
name), or held in a variable (every ``"perfectplay...."`` module name the module spells out,
as in a table of names). Every arrow obeys the layers and none closes a circle, with one
documented exception: the registry loads the built-in games by name (``PLUGIN_LOADS``).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path
from typing import NamedTuple

import pytest

from perfectplay import registry

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "perfectplay"

#: The games, as the registry names them (a game added there gets its layer here).
GAMES = {module.split(".")[1] for module in registry.BUILTIN}

BASE = {"errors", "textio", "grid", "progress", "judge_io", "registry", "casegen", "plot",
        "notebook", "bits", "seedrun", "numbaboot", "numbacache", "lazy"}
ENGINE = {"engine"}
MIDDLE = {"play", "store", "openspiel", "pettingzoo"}
CATALOG = {"catalog"}
APPS = {"cli", "web", "demo", "judge", "gen", "stress", "__main__", "__init__", "games"}

LAYER = {**{m: 1 for m in BASE}, **{m: 2 for m in ENGINE}, **{m: 3 for m in MIDDLE},
         **{m: 4 for m in GAMES | CATALOG}, **{m: 5 for m in APPS}}

#: Imports made at run time (inside a function), each with its reason: optional extras stay
#: lazy; anything else moves to the top of its module. A circle is never a reason.
LAZY_ALLOWED = {
    ("perfectplay.cli.serve", "perfectplay.web.app"): "the web extra is optional",
    ("perfectplay.cli.serve", "perfectplay.web.gamescrafters"): "the web extra is optional",
    ("perfectplay.cli.serve", "perfectplay.web.serving"): "the web extra is optional",
    # issue 70: start-up in proportion to the game. The package's faces hand out their names
    # on first use, and numba (the compiled door, its kernels) loads only when a kernel runs
    # (a Python game of a few thousand positions is solved without it)
    **{("perfectplay", m): "import perfectplay loads the engine on first use"
       for m in ("perfectplay.engine", "perfectplay.engine.solved.saved")},
    **{("perfectplay.engine", f"perfectplay.engine.{m}"): "the engine's face loads a room "
       "on first use" for m in ("check", "compiled", "discovery", "proof", "solved", "strong")},
    ("perfectplay.engine.strong", "perfectplay.engine.exact"): "numba: compiled games, "
    "scored games and large ones only",
    ("perfectplay.engine.check", "perfectplay.engine.exact"): "numba: only a full check "
    "solves the game",
    ("perfectplay.engine.discovery.graph", "perfectplay.engine.compiled"): "numba kernels: "
    "a large game's id table, reversed moves, turn parity",
    ("perfectplay.engine.discovery.keystores", "perfectplay.engine.compiled"): "numba's id "
    "table: int positions past SMALL_CODES",
    ("perfectplay.engine.solved.solution", "perfectplay.engine.compiled"): "numba: "
    "Solution.cyclic, when asked",
    # the search of a Python game loads no numba: batches, live analysis, the compiled
    # backend, its kernel and plan load when a compiled game is searched
    **{("perfectplay.engine.proof", f"perfectplay.engine.proof.{m}"): "the search's face "
       "loads batches, live analysis and df-pn on first use" for m in ("batch", "live",
                                                                      "dfpn")},
    ("perfectplay.cli.engine", "perfectplay.engine.proof.dfpn"): "df-pn's module (50 ms) "
    "loads only when search --algorithm dfpn is asked",
    **{("perfectplay.engine.proof.driver", f"perfectplay.engine.{m}"): "numba: a compiled "
       "game's search only" for m in ("compiled", "proof.backends", "proof.kernel",
                                      "proof.plan")},
}

#: The one upward arrow, by design: ``registry.games()`` and ``registry.get(name)`` import
#: the built-in games by their names in ``registry.BUILTIN`` (each game's package registers
#: its spec into the registry it imports). It is left out of the layer and circle checks.
PLUGIN_LOADS = {
    ("perfectplay.registry", module): "the registry loads registry.BUILTIN by name"
    for module in registry.BUILTIN
} | {
    ("perfectplay.registry", module): "the registry loads registry.CATALOG by name"
    for module in registry.CATALOG
}


class Import(NamedTuple):
    """One perfectplay module imported by another: where and how."""

    target: str
    line: int
    kind: str  # "top" (module level), "function" (inside a function), "dynamic" (by name)


def modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = modules()


def _resolve(module: str, is_package: bool, node: ast.ImportFrom | ast.Import,
             known: dict[str, Path]) -> list[str]:
    """The perfectplay modules an import statement names."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "perfectplay"]
    if node.level == 0:
        base = node.module or ""
        if base.split(".")[0] != "perfectplay":
            return []
    else:
        package = module if is_package else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{node.module}" if node.module else package
    out = []
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        out.append(sub if sub in known else base)
    return out


def _is_import_call(node: ast.Call) -> bool:
    """``import_module(...)``, ``importlib.import_module(...)``, ``__import__(...)``, or
    ``lazy_names(__name__, TABLE, ...)`` (a package face importing its table's modules on
    first use: every module the table spells out)."""
    func = node.func
    name = func.id if isinstance(func, ast.Name) else (
        func.attr if isinstance(func, ast.Attribute) else "")
    return name in ("import_module", "__import__", "lazy_names") and bool(node.args)


def _named_modules(tree: ast.AST, known: dict[str, Path]) -> list[str]:
    """Every perfectplay module a string constant of the module spells out."""
    return sorted({n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
                   and isinstance(n.value, str) and n.value in known
                   and n.value.startswith("perfectplay")})


def _dynamic_targets(module: str, is_package: bool, arg: ast.expr, tree: ast.AST,
                     known: dict[str, Path]) -> list[str]:
    """The perfectplay modules an ``import_module`` argument can name."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        name = arg.value
        if name.startswith("."):
            package = module if is_package else module.rpartition(".")[0]
            dots = len(name) - len(name.lstrip("."))
            for _ in range(dots - 1):
                package = package.rpartition(".")[0]
            name = f"{package}.{name.lstrip('.')}".rstrip(".")
        return [name] if name.split(".")[0] == "perfectplay" else []
    if isinstance(arg, ast.JoinedStr):  # an f-string: every module it can spell
        pattern = "".join(re.escape(str(v.value)) if isinstance(v, ast.Constant) else ".+"
                          for v in arg.values)
        return sorted(m for m in known if re.fullmatch(pattern, m))
    # a name held in a variable: every module name the module spells out (a table of them)
    return _named_modules(tree, known)


def imports_in(module: str, source: str, is_package: bool = False,
               known: dict[str, Path] | None = None, typing: bool = False) -> list[Import]:
    """Every perfectplay module that ``source`` (the text of ``module``) imports, with its
    line and kind; ``if TYPE_CHECKING:`` blocks are left out, or with ``typing`` read as
    imports of the kind "typing"."""
    known = MODULES if known is None else known
    tree = ast.parse(source)
    found: list[Import] = []

    def visit(node: ast.AST, top: bool, checking: bool = False) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                if typing:
                    visit(child, top, True)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                kind = "typing" if checking else "top" if top else "function"
                found.extend(Import(m, child.lineno, kind)
                             for m in _resolve(module, is_package, child, known))
            elif isinstance(child, ast.Call) and _is_import_call(child):
                found.extend(Import(m, child.lineno, "dynamic") for m in
                             _dynamic_targets(module, is_package, child.args[0], tree, known))
            nested = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, top and not nested, checking)

    visit(tree, True)
    return found


def imports(module: str, typing: bool = False) -> list[Import]:
    path = MODULES[module]
    return imports_in(module, path.read_text(), path.name == "__init__.py", typing=typing)


IMPORTS = {m: imports(m) for m in MODULES}


def layer_of(module: str) -> int:
    top = module.split(".")[1] if "." in module else "__init__"
    return LAYER[top]


def test_the_games_are_the_registrys():
    """Each name in registry.BUILTIN is a game package of this tree, and each has a layer."""
    assert GAMES and all(f"perfectplay.{g}" in MODULES for g in GAMES)
    assert all(LAYER[g] == 4 for g in GAMES)


def test_every_module_has_a_layer():
    missing = sorted({m.split(".")[1] for m in MODULES if "." in m} - set(LAYER))
    assert not missing, f"add these to a layer in tests/test_layers.py: {missing}"


def _catalog_game(module: str) -> str | None:
    """The catalog game a module belongs to (``perfectplay.catalog.connect4.rules`` ->
    connect4), None for the catalog's own contract."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and f"perfectplay.catalog.{parts[2]}" in \
        registry.CATALOG else None


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down_the_layers(module):
    mine = layer_of(module)
    game = module.split(".")[1] if module.count(".") >= 1 else None
    for target, line, kind in IMPORTS[module]:
        if (module, target) in PLUGIN_LOADS:
            continue
        theirs = layer_of(target)
        assert theirs <= mine, (f"{module} (layer {mine}) imports {target} (layer {theirs}) "
                                f"at line {line} ({kind})")
        other = target.split(".")[1] if "." in target else None
        if game in GAMES and other in GAMES:
            assert other == game, f"game {game} imports game {other} at line {line}"
        if game == "catalog" and other == "catalog":
            mine_game, their_game = _catalog_game(module), _catalog_game(target)
            assert mine_game is None or their_game in (None, mine_game), \
                f"catalog game {mine_game} imports catalog game {their_game} at line {line}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_hides_in_a_function(module):
    for target, line, kind in IMPORTS[module]:
        if kind != "top":
            assert (module, target) in LAZY_ALLOWED | PLUGIN_LOADS, (
                f"{module} imports {target} at run time (line {line}, {kind}): move it to "
                "the top, or say why in LAZY_ALLOWED")


def test_every_allowed_run_time_import_is_still_there():
    """A reason left in LAZY_ALLOWED after its import went away would hide the next one."""
    runtime = {(m, i.target) for m, found in IMPORTS.items() for i in found if i.kind != "top"}
    assert set(LAZY_ALLOWED) <= runtime, sorted(set(LAZY_ALLOWED) - runtime)
    assert set(PLUGIN_LOADS) <= runtime, sorted(set(PLUGIN_LOADS) - runtime)


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    circles: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return circles


def test_no_import_circle():
    """No circle, counting every import: at the top, inside functions and by name (a
    function-level import that closes a circle is a circle). A package's ``__init__``
    importing its own modules is how packages work; a module importing its package's
    ``__init__`` back is the circle we look for."""
    _assert_no_circle(IMPORTS)


def test_no_import_circle_even_through_annotations():
    """Imports made only for type checking (``if TYPE_CHECKING:``) close no circle either:
    two modules that name each other's types are one concept in two files, or want a shared
    type below both (a Protocol of what one reads of the other)."""
    _assert_no_circle({m: imports(m, typing=True) for m in MODULES})


def _assert_no_circle(found_imports: dict[str, list[Import]]) -> None:
    graph = {m: {i.target for i in found if i.target != m
                 and (m, i.target) not in PLUGIN_LOADS}
             for m, found in found_imports.items()}
    circles = _circles(graph)
    where = {(m, i.target): f"{i.line} ({i.kind})" for m, found in found_imports.items()
             for i in found}
    detail = [[f"{a} -> {b} line {where[(a, b)]}" for a in part for b in part
               if (a, b) in where] for part in circles]
    assert not circles, f"import circles: {detail}"


SAMPLE = '''
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from . import errors

if TYPE_CHECKING:
    from .engine import solution

NAMES = {"a": "perfectplay.textio"}


def late():
    from .engine import saved
    import_module("perfectplay.grid")
    import_module(f"perfectplay.engine.{late.__name__}")
    return import_module(NAMES["a"])
'''


def test_the_reader_sees_every_kind_of_import():
    """The scanner itself: a top import, a function-level one, an import_module string, an
    f-string (every module it can spell) and a name from a table; TYPE_CHECKING left out."""
    known = {m: Path() for m in ("perfectplay.errors", "perfectplay.engine",
                                 "perfectplay.engine.saved", "perfectplay.engine.solution",
                                 "perfectplay.grid", "perfectplay.textio")}
    found = {(i.target, i.kind) for i in imports_in("perfectplay.sample", SAMPLE, known=known)}
    assert found == {("perfectplay.errors", "top"), ("perfectplay.engine.saved", "function"),
                     ("perfectplay.grid", "dynamic"), ("perfectplay.engine.saved", "dynamic"),
                     ("perfectplay.engine.solution", "dynamic"),
                     ("perfectplay.textio", "dynamic")}
    typed = imports_in("perfectplay.sample", SAMPLE, known=known, typing=True)
    assert {(i.target, i.kind) for i in typed} - found == {
        ("perfectplay.engine.solution", "typing")}
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_uses(module: str, source: str, is_package: bool = False,
                 known: dict[str, Path] | None = None) -> list[str]:
    """Every private name of another perfectplay module that ``source`` (the text of
    ``module``) takes: ``from .x import _name``, or ``x._name`` where ``x`` is a module."""
    known = MODULES if known is None else known
    tree = ast.parse(source)
    found, aliases = [], {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    aliases[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom):
            targets = _resolve(module, is_package, node, known)  # [] outside perfectplay
            for alias, target in zip(node.names, targets, strict=False):
                if target != module and _is_private(alias.name):
                    found.append(f"line {node.lineno}: from {target} import {alias.name}")
                elif target.endswith(f".{alias.name}"):  # a module, named by its package
                    aliases[alias.asname or alias.name] = target
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _is_private(node.attr)
                and isinstance(node.value, ast.Name) and node.value.id in aliases
                and aliases[node.value.id] != module):
            found.append(f"line {node.lineno}: {aliases[node.value.id]}.{node.attr}")
    return found


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_takes_another_modules_private_name(module):
    """A private name is one its module may change at will: a name another module needs is
    public, with a docstring."""
    path = MODULES[module]
    assert private_uses(module, path.read_text(), path.name == "__init__.py") == []


def test_the_private_name_reader_sees_both_ways_in():
    known = {m: Path() for m in ("perfectplay.rock", "perfectplay.rock.solver",
                                 "perfectplay.rock.judges")}
    source = ("from .solver import _solve, analyze\nfrom . import solver\n"
              "import perfectplay.rock.solver as fast\n"
              "def f():\n    return solver._kernel, fast._budget, solver.analyze, _own\n")
    assert private_uses("perfectplay.rock.judges", source, known=known) == [
        "line 1: from perfectplay.rock.solver import _solve",
        "line 5: perfectplay.rock.solver._kernel", "line 5: perfectplay.rock.solver._budget"]


def shadowed_modules(package: str, source: str, known: dict[str, Path] | None = None
                     ) -> list[str]:
    """The modules of ``package`` that its ``__init__`` (``source``) hides behind another
    object of the same name (``from .picture import picture`` makes ``pkg.picture`` the
    function, and ``pkg.picture.helper`` an AttributeError)."""
    known = MODULES if known is None else known
    found = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom):
            names = [alias.asname or alias.name for alias in node.names
                     if not (node.level == 1 and node.module is None and alias.asname is None)]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names = [node.name]
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
        else:
            continue
        found += [f"line {node.lineno}: {package}.{name}" for name in names
                  if f"{package}.{name}" in known]
    return found


@pytest.mark.parametrize("package", sorted(m for m, path in MODULES.items()
                                           if path.name == "__init__.py"))
def test_no_module_is_hidden_by_a_name_of_its_package(package):
    """``perfectplay.store.tabular`` is the module, ``perfectplay.store.sql`` the function:
    a module never shares its name with a function its package exports."""
    assert shadowed_modules(package, MODULES[package].read_text()) == []


def test_the_shadow_reader_sees_each_kind_of_name():
    known = {m: Path() for m in ("perfectplay.pkg", "perfectplay.pkg.picture",
                                 "perfectplay.pkg.sql", "perfectplay.pkg.rules",
                                 "perfectplay.pkg.model", "perfectplay.pkg.seed")}
    source = ("from . import rules\nfrom .picture import picture\n"
              "from .tabular import query as sql\nfrom .model import Board\n"
              "def seed():\n    pass\n")
    assert shadowed_modules("perfectplay.pkg", source, known=known) == [
        "line 2: perfectplay.pkg.picture", "line 3: perfectplay.pkg.sql",
        "line 5: perfectplay.pkg.seed"]


MODULE_ROLE = re.compile(r":mod:`~?([^`<>]+)`")


def missing_module_roles(module: str, source: str, is_package: bool = False,
                         known: dict[str, Path] | None = None) -> list[str]:
    """Every ``:mod:`` role in the docstrings and comments of ``source`` (the text of
    ``module``) that names no module of the package: ``.name`` and ``..name`` read as in a
    relative import, ``perfectplay.x`` as written (other packages' modules are left alone).
    The docs build would still link most of them by their last name, to the wrong place."""
    known = MODULES if known is None else known
    tree = ast.parse(source)
    texts = [(getattr(node, "lineno", 1), doc) for node in ast.walk(tree)
             if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                           | ast.AsyncFunctionDef)
             and (doc := ast.get_docstring(node, clean=False))]
    texts += [(tok.start[0], tok.string) for tok in
              tokenize.generate_tokens(io.StringIO(source).readline)
              if tok.type == tokenize.COMMENT]
    found = []
    for line, text in texts:
        for target in MODULE_ROLE.findall(text):
            if target.startswith("."):
                dots = len(target) - len(target.lstrip("."))
                base = module.split(".")[: None if is_package else -1]
                base = base[: len(base) - (dots - 1)]
                full = ".".join([*base, target.lstrip(".")])
            elif target.split(".")[0] == "perfectplay":
                full = target
            else:
                continue
            if full not in known:
                found.append(f"line {line}: :mod:`{target}` ({full})")
    return found


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_role_names_a_module(module):
    """A module moved is a module renamed in the prose too: ``:mod:`.workers``` in
    ``engine.discovery`` named a module that lives one floor up."""
    path = MODULES[module]
    assert missing_module_roles(module, path.read_text(), path.name == "__init__.py") == []


def test_the_module_role_reader_reads_relative_names_as_imports():
    known = {m: Path() for m in ("perfectplay.engine", "perfectplay.engine.workers",
                                 "perfectplay.engine.discovery",
                                 "perfectplay.engine.discovery.graph")}
    source = ('"""Uses :mod:`..workers`, :mod:`.graph` and :mod:`numpy`; not :mod:`.workers`.\n'
              '"""\n# see :mod:`perfectplay.engine.search`\n')
    assert missing_module_roles("perfectplay.engine.discovery.expand", source,
                                known=known) == [
        "line 1: :mod:`.workers` (perfectplay.engine.discovery.workers)",
        "line 3: :mod:`perfectplay.engine.search` (perfectplay.engine.search)"]
