"""The documentation as a reader meets it: the site builds in strict mode (a broken link,
anchor or cross-reference fails), and every code block of the README and of every page
under docs/ runs as written: each ``python`` block (its ``# output`` comments checked),
each ``perfectplay`` command line, each ``curl`` line (posted to the web app). A line or
block that is not run is named here with why; a bare code block holds commands only (an
output or a listing is a ``text`` block), so nothing is left out silently.

The same line on two pages runs once, so the README's tour costs nothing beside the pages
it repeats."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def pages() -> list[Path]:
    """The README, then every page of the site, in a fixed order."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def fenced(path: Path) -> list[tuple[str, str]]:
    """Every fenced block of a page: (its language, its text)."""
    return re.findall(r"^```(\w*)\n(.*?)^```", path.read_text("utf-8"), flags=re.S | re.M)


#: Languages shown and never run, each with why.
NOT_RUN_LANGUAGES = {
    "text": "an output or a listing, not a command",
    "toml": "a plugin's pyproject.toml, a file to write",
    "pycon": "a docstring's example (the doctests run them)",
}

#: Python blocks that take long on their own (found by a word they contain), each with why:
#: each runs in a process of its own, started first, beside the other blocks.
BLOCKS_APART = {
    "roots=game.endgame_positions(8)": "an endgame store of 251,940 boards, then a search "
    "reading it (15 s)",
    "build_dense_endgame(10": "a dense table of 646,646 boards, then a search reading it "
    "(5 s)",
}

#: Python blocks not run here (found by a word they contain), each with why.
BLOCKS_NOT_RUN = {
    "build_book(connect4(width=7, height=6)": "searches every position two plies into "
    "standard Connect Four (tests/test_book.py builds small books the same way)",
}

#: Command lines not run here (by how they start), each with why.
NOT_RUN = {
    "perfectplay book 'connect4(width=7, height=6)'": "searches every position four plies "
    "into standard Connect Four, a long build (tests/test_book.py builds small books)",
    "perfectplay query c4book/": "reads the book of the line above",
    "perfectplay play --store c4book/": "plays the book of the line above",
    "perfectplay play 'connect4(width=7, height=6)'": "standard Connect Four searched live, "
    "waiting for a person's moves (tests/test_play_catalog.py plays it from a middle-game "
    "position, every move against Pons' scores)",
    "curl -sN 'localhost:8000/api/games/connect4(width=7,height=6)/analysis": "a live "
    "search streamed for up to 20 s (tests/test_web_live*.py stream it)",
    "curl -sN 'localhost:8000/api/games/connect4(width=7,height=6)/history": "live "
    "searches for up to 20 s (tests/test_web_computer.py and the live browser tests "
    "stream it)",
    "pip install": "installs (the set-up check in a fresh environment does it)",
    "python -m venv": "makes a virtual environment (the set-up check does it)",
    "perfectplay search 'connect4(width=7, height=6)'": "minutes of search",
    "perfectplay solve 'connect4(width=5, height=5)'": "70 million positions",
    "perfectplay serve": "a server; its curl lines are posted to the app below",
    "perfectplay solve 'kalah(houses=6, seeds=4)'": "an endgame store of 60 million "
    "positions (6 minutes)",
    "perfectplay search 'kalah(houses=6, seeds=4)'": "two minutes of search",
    "perfectplay play 'kalah(houses=6, seeds=4)' --store kalah-dense24/": "plays with the "
    "dense table of the solve line above (1.25 x 10^9 boards; tests/test_kalah_dense_live.py "
    "plays Kalah(6, 1) with a small one the same way)",
    "perfectplay solve 'kalah(houses=6, seeds=5)'": "a dense table of 11 x 10^9 boards (most "
    "of an hour; tests/test_kalah_dense.py builds small ones the same way)",
    "perfectplay search 'kalah(houses=6, seeds=5)'": "an hour of search and more",
}
#: What a line is expected to end with, when that is not success.
EXPECTED_FAILURE = {"-- python my_solution.py": "the program could not start",
                    "perfectplay play othello": "othello: too big to answer here"}

#: Lines that take long on their own, each with why: each runs as the shell runs it
#: (``python -m perfectplay``, which covers the script's own start), in a process of its own
#: started first, beside the other lines (the machine's second core).
APART = {
    "perfectplay solve 'kalah(houses=4, seeds=3)'": "numba compiles the game's rules "
    "and the kernels for them, then 1.4 million positions (30 s)",
}


def python_blocks() -> list[str]:
    """Every distinct ``python`` block of the README and the pages, in order, but those of
    BLOCKS_NOT_RUN."""
    seen: dict[str, None] = {}
    for page in pages():
        for lang, block in fenced(page):
            if lang == "python" and not any(word in block for word in BLOCKS_NOT_RUN):
                seen.setdefault(block)
    return list(seen)


def command_lines() -> list[str]:
    """Every distinct line of the bare blocks (commands), in order; comments left out."""
    seen: dict[str, None] = {}
    for page in pages():
        for lang, block in fenced(page):
            if lang:
                continue
            for ln in block.splitlines():
                if ln.strip() and not ln.startswith("#"):
                    seen.setdefault(ln)
    return list(seen)


def _printed_as_said(block: str, output: str) -> bool:
    """Whether ``output`` starts with the block's ``# output`` comment lines, if any (a block
    whose last lines are "# output" comments after a print)."""
    printed = [ln[2:] for ln in block.splitlines() if ln.startswith("# ")]
    return not printed or output.split("\n")[: len(printed)] == printed


def _strip(line: str) -> str:
    """A command line as a shell runs it: the comment gone, ``[optional parts]`` dropped."""
    line = re.sub(r"\s+#\s.*$", "", line)
    return re.sub(r"\s\[[^\]]*\]", "", line).strip()


def test_every_block_is_run_or_says_why_not() -> None:
    """A fenced block is python (run), bare (commands, run), or of a language shown for a
    reason; every bare line is a command this file runs or names."""
    for page in pages():
        for lang, _ in fenced(page):
            assert lang in ("", "python", *NOT_RUN_LANGUAGES), (page, lang)
    for line in command_lines():
        assert line.startswith(("perfectplay ", "curl ")) or any(
            line.startswith(k) for k in NOT_RUN), line
    every = "".join(b for page in pages() for lang, b in fenced(page) if lang == "python")
    assert [w for w in BLOCKS_NOT_RUN if w not in every] == [], "no longer in the docs"
    lines = command_lines()
    assert [k for k in NOT_RUN if not any(ln.startswith(k) for ln in lines)] == [], \
        "a line of NOT_RUN is no longer in the docs"


def test_the_site_builds_in_strict_mode(tmp_path: Path) -> None:
    """``mkdocs build --strict``: every page in the nav, every link and anchor found, every
    cross-reference of the API reference resolved (the docstrings' roles included)."""
    if shutil.which("mkdocs") is None and not _importable("mkdocs"):
        pytest.fail("mkdocs is not installed: install the docs extra (pip install '.[docs]')")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                          "-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path / "site")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    api = (tmp_path / "site" / "api" / "engine" / "index.html").read_text("utf-8")
    assert ":func:" not in api and ":class:" not in api  # the roles became links
    assert 'class="autorefs autorefs-internal"' in api


def _importable(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


def test_the_roles_extension_links_names_and_refuses_a_broken_one(tmp_path: Path,
                                                                   caplog: Any) -> None:
    """docs/ext/sphinx_roles.py on a two-module package: a role names its object by its full
    path (``~`` and relative names too), doctests become code blocks, a list gets the blank
    line Markdown needs, and a role naming nothing is a warning (which fails the strict
    build) in a public docstring (a private one is never rendered)."""
    if not _importable("griffe"):
        pytest.fail("griffe is not installed: install the docs extra (pip install '.[docs]')")
    import griffe
    sys.path.insert(0, str(DOCS / "ext"))
    try:
        from sphinx_roles import SphinxRoles
    finally:
        sys.path.remove(str(DOCS / "ext"))
    pkg = tmp_path / "perfectplay"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""See :func:`~.inner.solve` and :mod:`perfectplay.inner`.'
                                     '\n\n>>> 1 + 1\n2\n"""\n')
    (pkg / "inner.py").write_text('"""Uses :class:`Thing`, not :func:`nowhere`:\n- one\n'
                                  '- two\n"""\n\n'
                                  'class Thing:\n    """A thing."""\n\n\n'
                                  'def solve():\n    """Solve."""\n\n\n'
                                  'def _private():\n    """Not :func:`rendered`."""\n')
    ext = SphinxRoles()
    with caplog.at_level("WARNING"):
        loaded = griffe.load("perfectplay", search_paths=[str(tmp_path)],
                             extensions=griffe.load_extensions(ext), docstring_parser="sphinx")
    top = loaded.docstring.value
    assert '<autoref identifier="perfectplay.inner.solve" optional><code>solve()</code>' in top
    assert 'identifier="perfectplay.inner" optional' in top
    assert "```pycon\n>>> 1 + 1\n2\n```" in top
    inner = loaded["inner"].docstring.value
    assert 'identifier="perfectplay.inner.Thing"' in inner and "`nowhere()`" in inner
    assert inner.endswith("`nowhere()`:\n\n- one\n- two")  # Markdown's blank line before a list
    assert ext.unresolved == ["perfectplay.inner: :func:`nowhere`",
                              "perfectplay.inner._private: :func:`rendered`"]
    assert caplog.text.count("names nothing in perfectplay") == 1  # not the private one


def test_every_curl_line_is_answered() -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient
    from tictactoe import TicTacToe

    from perfectplay.engine import solve
    from perfectplay.web.app import create_app

    client = TestClient(create_app(gamesman=solve(TicTacToe()), gamesman_id="tictactoe"))
    curls = [ln for ln in command_lines() if ln.startswith("curl ")
             and not any(ln.startswith(k) for k in NOT_RUN)]
    assert len(curls) >= 4
    for line in curls:
        args = shlex.split(re.sub(r"\s+#\s.*$", "", line))  # a trailing comment gone
        path = "/" + args[2].split("/", 1)[1]
        if "-d" not in args:  # a GET (the GamesCrafters shape, as serve --game serves it)
            r = client.get(path)
        else:
            r = client.post(path, json=json.loads(args[args.index("-d") + 1]))
        assert r.status_code == 200, (line, r.text)


def test_every_page_is_in_the_nav_and_every_link_of_the_readme_exists() -> None:
    """The README links into docs/ by relative paths (GitHub shows them; the site is built
    from docs/): each target exists, and each page of docs/ is in mkdocs.yml's nav."""
    links = re.findall(r"\]\(((?!https?:)[^)#\s]+)(?:#[^)]*)?\)", README.read_text("utf-8"))
    assert len(links) >= 15
    assert [link for link in links if not (ROOT / link).exists()] == []
    nav = (ROOT / "mkdocs.yml").read_text("utf-8")
    listed = set(re.findall(r":\s+([\w/.-]+\.md)\s*$", nav, flags=re.M))
    on_disk = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")}
    assert on_disk - listed == set()


def _public_api() -> list[tuple[str, Any]]:
    """The public API's callables whose parameters the reference must describe: the
    functions ``perfectplay`` and ``perfectplay.engine`` export, the store's doors, the
    compiled door's constructor and every look-up a solved game answers."""
    import inspect

    import perfectplay
    from perfectplay import engine, store

    found: list[tuple[str, Any]] = []
    for module in (perfectplay, engine):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                found.append((f"{module.__name__}.{name}", obj))
    found += [("perfectplay.store.open_store", store.open_store),
              ("perfectplay.store.solve_tiered", store.solve_tiered),
              ("perfectplay.engine.CompiledGame", engine.CompiledGame)]
    for cls in (engine.Solved, engine.Solution):
        for name, member in vars(cls).items():
            if inspect.isfunction(member) and not name.startswith("_") and \
                    len(inspect.signature(member).parameters) > 1:
                found.append((f"{cls.__name__}.{name}", member))
    return found


def test_the_public_api_has_parameters_returns_and_raises_sections() -> None:
    """Every parameter of the public API is a ``:param name:`` field and every function
    that returns something has ``:returns:`` (the fields the site renders as Parameters,
    Returns and Raises sections: mkdocs.yml's ``docstring_style: sphinx``)."""
    import inspect

    missing = []
    for name, obj in _public_api():
        doc = inspect.getdoc(obj) or ""
        target = obj.__init__ if inspect.isclass(obj) else obj
        signature = inspect.signature(target)
        for param in list(signature.parameters)[1 if inspect.isclass(obj) else 0:]:
            if param != "self" and f":param {param}:" not in doc:
                missing.append(f"{name}: :param {param}:")
        if not inspect.isclass(obj) and signature.return_annotation not in ("None", None) \
                and ":returns:" not in doc:
            missing.append(f"{name}: :returns:")
    assert missing == []
    assert len(_public_api()) >= 25


#: A line of the architecture page's module tree that names modules or packages: its
#: indentation (two spaces a level) and the names (``coins/ rock/ portal/ no/`` share one).
TREE_ENTRY = re.compile(r"^(?P<indent>(?:  )+)(?P<names>(?:[\w.]+/ )*[\w.]+(?:\.py|\.js|/))"
                        r"(?: {2,}|$)")


def tree_entries(block: str) -> list[tuple[str, ...]]:
    """The paths a module tree names: one tuple an entry, of every path it stands for (an
    entry under ``coins/ rock/ portal/ no/`` stands for one path in each); a line indented
    deeper than an entry's level is the description's next line."""
    stack: list[list[str]] = []  # the folders of each level above the current line
    entries: list[tuple[str, ...]] = []
    for line in block.splitlines():
        m = TREE_ENTRY.match(line)
        if m is None:
            continue
        depth = len(m["indent"]) // 2 - 1
        if depth > len(stack):
            continue
        del stack[depth:]
        parents = stack[-1] if stack else [""]
        paths = [parent + name for parent in parents for name in m["names"].split()]
        entries.append(tuple(paths))
        if all(p.endswith("/") for p in paths):
            stack.append(paths)
    return entries


def architecture_tree() -> list[tuple[str, ...]]:
    """The paths under src/perfectplay/ that the architecture page's "Every module in a
    line" names."""
    text = (DOCS / "architecture.md").read_text("utf-8")
    block = text.split("## Every module in a line", 1)[1].split("```text", 1)[1]
    return tree_entries(block.split("```", 1)[0])


def _modules_to_name() -> set[str]:
    """What the page must name: every top-level module and package of src/perfectplay, and
    every module and room of the engine, the store, the web page, the command line, play
    and the catalog (a catalog game's own modules are its package's business)."""
    package = ROOT / "src" / "perfectplay"
    wanted = {p.name for p in package.glob("*.py")}
    wanted |= {f"{p.name}/" for p in package.iterdir() if (p / "__init__.py").exists()}
    for part in ("engine", "store", "web", "cli", "play", "catalog"):
        for p in (package / part).rglob("*"):
            rel = p.relative_to(package).as_posix()
            if "__pycache__" in rel or (part == "catalog" and (rel.count("/") > 1
                                                              or p.is_dir())):
                continue
            if p.suffix == ".py" and p.name != "__init__.py":
                wanted.add(rel)
            elif p.is_dir() and (p / "__init__.py").exists():
                wanted.add(f"{rel}/")
    return wanted


def test_the_architecture_page_names_every_package_and_module() -> None:
    """docs/architecture.md's tree names every package and module that must be there
    (see :func:`_modules_to_name`: every engine room among them), each catalog game by
    name, and nothing that is gone: each entry is a path of the package."""
    from perfectplay import registry

    entries = architecture_tree()
    named = {path for entry in entries for path in entry}
    assert sorted(_modules_to_name() - named) == []
    package = ROOT / "src" / "perfectplay"
    assert [e for e in entries if not any((package / p).exists() for p in e)] == []
    text = (DOCS / "architecture.md").read_text("utf-8")
    games = [entry.name for entry in registry.catalog()]
    assert games and [g for g in games if f"`{g}`" not in text and f" {g}," not in text] == []
    rooms = {p.name for p in (package / "engine").iterdir() if (p / "__init__.py").exists()}
    assert rooms >= {"compiled", "discovery", "solved", "tiers", "proof"}
    assert all(f"`engine/{room}/`" in text for room in rooms)


def test_the_tree_reader_reads_levels_and_shared_folders() -> None:
    """The reader of the page's tree is not blind: levels by indentation, a description's
    next line skipped, folders that share their children."""
    lines = ["  top.py            a module", "  a/ b/            two packages",
             "    inner.py        in each", "                    inner.py is prose here",
             "  pkg/              a package", "    sub/            a room",
             "      deep.py       its module", "    flat.py         back one level"]
    entries = tree_entries("\n".join(lines))
    assert entries == [("top.py",), ("a/", "b/"), ("a/inner.py", "b/inner.py"), ("pkg/",),
                       ("pkg/sub/",), ("pkg/sub/deep.py",), ("pkg/flat.py",)]
