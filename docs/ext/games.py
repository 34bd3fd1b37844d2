"""The docs' games, written from the registry when the site is built (an MkDocs hook,
``hooks:`` in mkdocs.yml): each catalog game's page (``games/catalog/NAME.md``, what
``perfectplay games NAME --markdown page`` prints), its line in the navigation (after
``catalog.md``, in the registry's order) and docs/catalog.md's tables (the games, every
published result). No list of games is kept by hand: a catalog game is its package plus one
registry line, and the site follows.

The functions below are plain (a test calls them, and builds a small site with a toy game
registered); MkDocs calls the three ``on_*`` hooks.
"""

from __future__ import annotations

from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from perfectplay import registry
from perfectplay.catalog.pages import PAGE_FOLDER, game_page
from perfectplay.catalog.table import games_table, results_table

#: The page that lists the catalog: its section of the navigation gets every game's page,
#: and its markers (:data:`TABLES`) are replaced by the tables.
CATALOG_PAGE = "catalog.md"
#: What docs/catalog.md writes where a table goes, and the table written there.
TABLES = {
    "<!-- games: written from the registry when the site is built -->":
        lambda: games_table(registry.catalog(), PAGE_FOLDER),
    "<!-- results: written from the registry when the site is built -->":
        lambda: results_table(registry.catalog()),
}


def pages() -> dict[str, str]:
    """Every catalog game's page, by its path in the docs (in the registry's order)."""
    return {f"{PAGE_FOLDER}/{entry.name}.md": game_page(entry)
            for entry in registry.catalog()}


def with_game_pages(nav: list[Any]) -> list[Any]:
    """The navigation with every catalog game's page after :data:`CATALOG_PAGE`, in the
    section that holds it (a ValueError when no section does: the site would lose its
    games)."""
    if not _insert_pages(nav):
        raise ValueError(f"no section of the navigation holds {CATALOG_PAGE}")
    return nav


def _is_game_page(item: object) -> bool:
    return isinstance(item, dict) and any(
        str(v).startswith(PAGE_FOLDER + "/") for v in item.values())


def _insert_pages(items: list[Any]) -> bool:
    """Whether the section holding :data:`CATALOG_PAGE` was found in ``items`` (at any
    depth) and given the games' pages (any listed by hand replaced)."""
    for item in items:
        if not isinstance(item, dict):
            continue
        for title, children in item.items():
            if not isinstance(children, list):
                continue
            if any(isinstance(c, dict) and CATALOG_PAGE in c.values() for c in children):
                item[title] = [c for c in children if not _is_game_page(c)] + [
                    {entry.title: f"{PAGE_FOLDER}/{entry.name}.md"}
                    for entry in registry.catalog()]
                return True
            if _insert_pages(children):
                return True
    return False


def with_tables(markdown: str) -> str:
    """docs/catalog.md with its tables written in at their markers (a ValueError for a
    missing marker: the page would lose a table)."""
    for marker, table in TABLES.items():
        if marker not in markdown:
            raise ValueError(f"{CATALOG_PAGE} has lost its marker {marker}")
        markdown = markdown.replace(marker, table())
    return markdown


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Every catalog game's page joins the navigation."""
    if config.nav is not None:
        config.nav = with_game_pages(config.nav)
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Every catalog game's page joins the site, written from its entry."""
    for uri, text in pages().items():
        files.append(File.generated(config, uri, content=text))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """docs/catalog.md gets its tables."""
    if page.file.src_uri == CATALOG_PAGE:
        return with_tables(markdown)
    return markdown
