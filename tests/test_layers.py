"""The package's layering, enforced: who may import whom, no import circle, and no import
hidden inside a function unless the table below says why.

Layers, bottom up (a module may import its own layer and the layers below):

1. base: errors, text reading, grids, bit tricks, progress, judge plumbing, the registry's
   contract, the case generators' contract, the picture helpers;
2. engine: the generic solver, search and kernels (knows no game);
3. play core, store and bridges: the play loop over any game; the on-disk tablebases;
   OpenSpiel's games as engine games, solved games as PettingZoo environments;
4. games: coins, rock, portal, no (each imports base, engine, play core, never another
   game, never an application);
5. applications: the command line, the web page, demo, judge, gen, stress.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "perfectplay"

BASE = {"errors", "textio", "grid", "progress", "judge_io", "registry", "casegen", "plot",
        "notebook", "bits", "seedrun", "numbaboot"}
ENGINE = {"engine"}
MIDDLE = {"play", "store", "tablebase", "outcore", "openspiel", "pettingzoo"}
GAMES = {"coins", "rock", "portal", "no"}
APPS = {"cli", "web", "demo", "judge", "gen", "stress", "__main__", "__init__", "nearest"}

LAYER = {**{m: 1 for m in BASE}, **{m: 2 for m in ENGINE}, **{m: 3 for m in MIDDLE},
         **{m: 4 for m in GAMES}, **{m: 5 for m in APPS}}

#: Imports inside functions, each with its reason (optional extras stay lazy; anything else
#: moves to the top of its module).
LAZY_ALLOWED = {
    ("perfectplay.cli.serve", "perfectplay.web.app"): "the web extra is optional",
    ("perfectplay.engine.solution", "perfectplay.engine.saved"):
        "saved builds on solution (Solved.save and to_arrays call it): a circle otherwise",
}


def modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = modules()


def _resolve(module: str, path: Path, node: ast.ImportFrom | ast.Import) -> list[str]:
    """The perfectplay modules an import statement names."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "perfectplay"]
    if node.level == 0:
        base = node.module or ""
        if base.split(".")[0] != "perfectplay":
            return []
    else:
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{node.module}" if node.module else package
    out = []
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        out.append(sub if sub in MODULES else base)
    return out


def imports(module: str) -> list[tuple[str, bool]]:
    """(imported perfectplay module, at module level?) for every import in ``module``,
    leaving out ``if TYPE_CHECKING:`` blocks."""
    path = MODULES[module]
    tree = ast.parse(path.read_text())
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                found.extend((m, top) for m in _resolve(module, path, child))
            nested = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, top and not nested)

    visit(tree, True)
    return found


def layer_of(module: str) -> int:
    top = module.split(".")[1] if "." in module else "__init__"
    return LAYER[top]


def test_every_module_has_a_layer():
    missing = sorted({m.split(".")[1] for m in MODULES if "." in m} - set(LAYER))
    assert not missing, f"add these to a layer in tests/test_layers.py: {missing}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down_the_layers(module):
    mine = layer_of(module)
    game = module.split(".")[1] if module.count(".") >= 1 else None
    for target, _ in imports(module):
        theirs = layer_of(target)
        assert theirs <= mine, f"{module} (layer {mine}) imports {target} (layer {theirs})"
        other = target.split(".")[1] if "." in target else None
        if game in GAMES and other in GAMES:
            assert other == game, f"game {game} imports game {other}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_hides_in_a_function(module):
    for target, top in imports(module):
        if not top:
            assert (module, target) in LAZY_ALLOWED, (
                f"{module} imports {target} inside a function: move it to the top, or "
                "say why in LAZY_ALLOWED")


def test_no_import_circle():
    graph = {m: {t for t, top in imports(m) if top and t != m} for m in MODULES}
    # a package's __init__ importing its own modules is how packages work: a module
    # importing its package's __init__ back is the circle we look for
    index, low, on_stack, stack, circles = {}, {}, set(), [], []

    def strong(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
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
    assert not circles, f"import circles: {circles}"
