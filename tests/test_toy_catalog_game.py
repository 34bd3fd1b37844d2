"""A new catalog game is its package plus one registry line: a toy subtraction game written
into a temporary package, its line added to ``registry.CATALOG``, and nothing else; it is
then found by the command line (``perfectplay games``, ``solve NAME``, ``play NAME``), the
web page's one list of games (``/api/games``, its board code, its positions) and the docs
site (its page, its line in the navigation, its row in the catalog's tables), each written
from its entry when the site is built."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from perfectplay import registry
from perfectplay.cli import main

ROOT = Path(__file__).resolve().parent.parent

#: The toy game's package: its rules and its entry, with a page budget and board code.
PACKAGE = '''
"""Subtract: take one or two tokens from the heap; who cannot move loses."""

from importlib.resources import files

from perfectplay.catalog import Budget, CatalogGame, Param, Published


class Subtract:
    """The heap of ``tokens``; a move takes 1 or 2."""

    def __init__(self, tokens: int) -> None:
        self.tokens = tokens

    def initial(self) -> int:
        return self.tokens

    def moves(self, heap: int) -> list[int]:
        return [take for take in (1, 2) if take <= heap]

    def play(self, heap: int, take: int) -> int:
        return heap - take

    def outcome(self, heap: int) -> None:
        return None  # no move left: the player to move loses

    def move_name(self, take: int) -> str:
        return f"-{take}"


GAME = CatalogGame(
    name="subtract",
    title="Subtract",
    rules="Take one or two tokens from the heap; who cannot move loses.",
    factory=lambda tokens: Subtract(tokens),
    params=(Param("tokens", 7, "the heap", low=0, high=1000),),
    published=(Published({"tokens": 9}, "Folklore 1900", value="lose", seconds=0.1),),
    small=({"tokens": 5},),
    examples=("solve 'subtract(tokens=9)'",),
    script=files(__name__).joinpath("page.js"),
    budget=Budget(lambda a: a["tokens"] <= 100, "at most 100 tokens", {"tokens": 6}),
)
'''
BOARD = 'window.perfectplay.boards.subtract = {board: window.perfectplay.cellGrid};\n'
LINE = "toycatalog.subtract"


def _registries() -> list[dict[str, Any]]:
    """The registry module's namespace, each copy of it: pytest's doctest collection
    imports src/perfectplay/registry.py a second time, and the modules imported before it
    (the engine's target reader, say) hold the first."""
    import perfectplay.engine.target as target

    copies = (registry.__dict__, sys.modules["perfectplay.registry"].__dict__,
              target.get_catalog.__globals__)
    return list({id(ns): ns for ns in copies}.values())


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy package on sys.path and its one line in the registry."""
    package = tmp_path / "toycatalog" / "subtract"
    package.mkdir(parents=True)
    (tmp_path / "toycatalog" / "__init__.py").write_text("")
    (package / "__init__.py").write_text(textwrap.dedent(PACKAGE))
    (package / "page.js").write_text(BOARD)
    monkeypatch.syspath_prepend(str(tmp_path))
    for ns in _registries():
        monkeypatch.setitem(ns, "CATALOG", ns["CATALOG"] + (LINE,))  # the one line
    yield
    for ns in _registries():
        ns["unregister"]("subtract")
        ns["_IMPORTED"].discard(LINE)
    for module in ("toycatalog.subtract", "toycatalog"):
        sys.modules.pop(module, None)


def test_the_registry_lists_it_with_its_kind_and_offers(toy: None) -> None:
    entry = registry.find("subtract")
    assert (entry.kind, entry.offers) == ("catalog", ("solve", "search", "play", "explore"))
    assert [e.name for e in registry.games()][-1] == "subtract"
    assert "subtract" in registry.names("catalog")


def test_the_command_line_lists_solves_and_plays_it(toy: None) -> None:
    runner = CliRunner()
    listing = runner.invoke(main, ["games"])
    assert listing.exit_code == 0 and "subtract" in listing.output, listing.output
    solved = runner.invoke(main, ["solve", "subtract(tokens=9)"])
    assert solved.exit_code == 0, solved.output
    assert "value: lose in 6" in solved.output and "positions: 10" in solved.output
    played = runner.invoke(main, ["play", "subtract(tokens=4)"], input="-1\n/q\n")
    assert played.exit_code == 0, played.output
    assert "-1" in played.output and "-2" in played.output


def test_the_web_lists_it_serves_its_board_and_answers_its_positions(toy: None) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from perfectplay.web.app import create_app
    from perfectplay.web.explore import catalog_answer

    client = TestClient(create_app())  # no worker: the position is asked below directly
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    toy_game = games["subtract"]
    assert toy_game["kind"] == "catalog" and toy_game["explore"]["default"] == \
        "subtract(tokens=6)" and toy_game["explore"]["limit"] == "at most 100 tokens"
    assert client.get(toy_game["script"]).text == BOARD
    # what the worker answers for /api/games/subtract(tokens=6)/position?moves=-1
    answer = catalog_answer("subtract(tokens=6)", {"p": None, "moves": "-1"})
    assert answer["value"] == "win" and [m["name"] for m in answer["moves"]] == ["-2", "-1"]
    too_big = client.get("/api/games/subtract(tokens=500)/position")
    assert too_big.status_code == 422 and "at most 100 tokens" in too_big.json()["detail"]


def test_the_docs_site_has_its_page_nav_line_and_table_rows(toy: None, tmp_path: Path
                                                             ) -> None:
    """A small site built with the docs' games hook (and this project's catalog page)
    holds the toy game's page, its line in the navigation and its rows."""
    pytest.importorskip("mkdocs")
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    docs = tmp_path / "site_docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n")
    catalog = (ROOT / "docs" / "catalog.md").read_text("utf-8")
    (docs / "catalog.md").write_text(catalog.split("## The games", 1)[1].split(
        "Each game's page", 1)[0] + "\n## Results\n\n<!-- results: written from the registry "
        "when the site is built -->\n")
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text(textwrap.dedent(f"""
        site_name: toy
        docs_dir: {docs}
        site_dir: {tmp_path / 'site'}
        hooks: [{ROOT / 'docs' / 'ext' / 'games.py'}]
        nav:
          - Home: index.md
          - Catalog:
              - All results: catalog.md
    """))
    config = load_config(str(config_file))
    build(config)
    page = (tmp_path / "site" / "games" / "catalog" / "subtract" / "index.html").read_text()
    assert "Subtract (<code>subtract</code>)" in page and "Folklore 1900" in page
    home = (tmp_path / "site" / "index.html").read_text()
    assert 'href="games/catalog/subtract/"' in home
    listed = (tmp_path / "site" / "catalog" / "index.html").read_text()
    assert "subtract(tokens=9)" in listed and "at most 100 tokens" not in listed
    assert "Take one or two tokens from the heap" in listed  # its row of the games table
