"""Each catalog game's documentation page is what its entry writes (``perfectplay games NAME
--markdown page``), every game has one and the site's navigation lists it, so a new game or a
changed result cannot leave the docs behind."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from perfectplay.catalog.pages import PAGE_FOLDER, game_page
from perfectplay.cli import main
from perfectplay.registry import catalog, get_catalog

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / PAGE_FOLDER


def test_every_catalog_game_has_its_page_as_its_entry_writes_it() -> None:
    names = sorted(e.name for e in catalog())
    assert sorted(p.stem for p in PAGES.glob("*.md")) == names
    for entry in catalog():
        page = (PAGES / f"{entry.name}.md").read_text("utf-8")
        assert page == game_page(entry), f"rewrite docs/{PAGE_FOLDER}/{entry.name}.md"


def test_the_site_lists_every_page() -> None:
    nav = (ROOT / "mkdocs.yml").read_text("utf-8")
    for entry in catalog():
        assert f"{PAGE_FOLDER}/{entry.name}.md" in nav, entry.name


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
