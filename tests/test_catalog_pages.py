"""Each catalog game's documentation page is what its entry writes (``perfectplay games NAME
--markdown page``), written when the site is built (the docs' games hook, docs/ext/games.py),
with its line in the navigation and its rows in docs/catalog.md's tables: no page, nav line
or table of games is kept by hand, so a new game or a changed result cannot leave the docs
behind."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
import yaml
from click.testing import CliRunner

from perfectplay.catalog.pages import PAGE_FOLDER, game_page
from perfectplay.catalog.table import results_table
from perfectplay.cli import main
from perfectplay.registry import catalog, get_catalog

ROOT = Path(__file__).resolve().parent.parent


def _hook() -> ModuleType:
    """docs/ext/games.py, the hook mkdocs.yml names (it needs mkdocs)."""
    pytest.importorskip("mkdocs")
    spec = importlib.util.spec_from_file_location("_docs_games_hook",
                                                  ROOT / "docs" / "ext" / "games.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_site_builds_its_games_from_the_registry() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))
    assert "docs/ext/games.py" in config["hooks"]
    assert not (ROOT / "docs" / PAGE_FOLDER).exists()  # no page kept by hand
    assert PAGE_FOLDER not in (ROOT / "mkdocs.yml").read_text("utf-8")  # no nav line either


def test_every_catalog_game_has_its_page_as_its_entry_writes_it() -> None:
    pages = _hook().pages()
    assert list(pages) == [f"{PAGE_FOLDER}/{e.name}.md" for e in catalog()]
    for entry in catalog():
        assert pages[f"{PAGE_FOLDER}/{entry.name}.md"] == game_page(entry)


def test_the_site_lists_every_page_after_the_catalogs() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))
    nav = _hook().with_game_pages(config["nav"])
    games = next(item for item in nav if "Games" in item)["Games"]
    section = next(item for item in games if "The catalog of famous games" in item)
    assert section["The catalog of famous games"] == [{"All results": "catalog.md"}] + [
        {e.title: f"{PAGE_FOLDER}/{e.name}.md"} for e in catalog()]
    with pytest.raises(ValueError, match="catalog.md"):
        _hook().with_game_pages([{"Home": "index.md"}])


def test_the_catalog_page_gets_its_tables() -> None:
    hook = _hook()
    text = hook.with_tables((ROOT / "docs" / "catalog.md").read_text("utf-8"))
    assert results_table(catalog()) in text
    for entry in catalog():
        assert f"| [`{entry.name}`]({PAGE_FOLDER}/{entry.name}.md) | {entry.rules} |" in text
    with pytest.raises(ValueError, match="marker"):
        hook.with_tables("# no tables here")


def test_a_page_names_every_parameter_result_and_source() -> None:
    entry = get_catalog("kalah")
    page = game_page(entry)
    assert page.startswith("# Kalah (`kalah`)\n")
    for p in entry.params:
        assert f"| `{p.name}` | `{p.default!r}` |" in page
    assert page.count("| `kalah(") == len(entry.published)
    assert "::: perfectplay.catalog.kalah" in page  # the package's docstring, rendered
    assert "Irving" in page and "1 to 26" in page
    assert "None: the one board." in game_page(get_catalog("tictactoe"))


def test_the_command_prints_the_page() -> None:
    out = CliRunner().invoke(main, ["games", "nim", "--markdown", "page"])
    assert out.exit_code == 0, out.output
    assert out.output.strip() == game_page(get_catalog("nim")).strip()


def test_a_page_needs_a_game() -> None:
    out = CliRunner().invoke(main, ["games", "--markdown", "page"])
    assert out.exit_code != 0
    assert "name the game" in out.output and "Traceback" not in out.output
