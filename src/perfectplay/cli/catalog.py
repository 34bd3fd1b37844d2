"""``perfectplay games``: the catalog of famous games, with their parameters, sizes and
published results (every front end finds them in the registry; this command shows them)."""

from __future__ import annotations

import dataclasses

import click

from ..catalog import Listing
from ..catalog.pages import game_page
from ..catalog.table import results_table, summary_table
from ..errors import InputError
from ..registry import catalog, get_catalog
from .base import echo_json


def _text(listing: Listing, size: str) -> str:
    lines = [f"{listing.name}: {listing.title}. {listing.rules}"]
    if listing.params:
        lines.append(f"  parameters: {', '.join(listing.params)}")
    if size:
        lines.append(f"  size: {size}")
    if listing.results:
        lines.append("  published:")
        lines += [f"    {r}" for r in listing.results]
        lines += [f"  {s}" for s in listing.sources]
    return "\n".join(lines)


@click.command()
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@click.option("--markdown", type=click.Choice(["results", "summary", "page"]), default=None,
              help="Print Markdown instead: a table of every published result with how it "
                   "is reproduced and what that cost here (results), a row a game "
                   "(summary), or NAME's documentation page (page).")
def games(name: str | None, as_json: bool, markdown: str | None) -> None:
    """The famous games built in: each one's rules, parameters (with their defaults and
    ranges), size and published results. Any command that takes FILE.py:Class takes these
    by name, with keyword parameters.

    \b
    Examples:
      perfectplay games
      perfectplay games connect4
      perfectplay games --markdown results
      perfectplay games kalah --markdown page
      perfectplay solve 'connect4(width=5, height=4)'
      perfectplay search 'connect4(width=7, height=6)' --moves 4,4,3
      perfectplay play tictactoe
    """
    entries = [get_catalog(name)] if name else catalog()
    if markdown == "page":
        if not name:
            raise InputError("--markdown page prints one game's page: name the game "
                             "(perfectplay games kalah --markdown page)")
        click.echo(game_page(entries[0]), nl=False)
        return
    if markdown is not None:
        table = results_table if markdown == "results" else summary_table
        click.echo(table(entries))
        return
    rows = []
    for entry in entries:
        defaults = entry.arguments()
        size = entry.size(defaults) if entry.size else ""
        rows.append((Listing.of(entry), size))
    if as_json:
        echo_json([dataclasses.asdict(listing) | {"size": size} for listing, size in rows])
        return
    click.echo("\n\n".join(_text(listing, size) for listing, size in rows))
