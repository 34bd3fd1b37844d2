"""``perfectplay games``: every game the registry holds, grouped by kind: the seed problems
(each its own command: title, rules and the commands that run it) and the catalog of famous
games (parameters, sizes and published results), each with what it offers. Every front end
finds them in the registry; this command shows them."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import click

from ..catalog import CatalogGame, Listing
from ..catalog.pages import game_page
from ..catalog.table import results_table, summary_table
from ..errors import InputError
from ..registry import GameEntry, GameSpec, catalog, find
from ..registry import games as registry_games
from .base import echo_json

#: Each kind's heading in the listing, in the registry's order of kinds.
HEADINGS = {
    "seed": "Seed problems: each is a command of its own (perfectplay NAME INPUT)",
    "catalog": "Catalog games: taken by name, with keyword parameters, by solve, search, "
               "play and serve",
}


def seed_commands(spec: GameSpec) -> list[str]:
    """The commands that run a seed problem: its examples, then playing its first example
    when it offers play, then judging a file of its first judge's (the others named).

    >>> from perfectplay.registry import get
    >>> for line in seed_commands(get("rock")):
    ...     print(line)
    perfectplay rock examples/rock_sample.txt
    perfectplay play rock examples/rock_sample.txt
    perfectplay judge uva10381 FILE
    """
    out = [f"perfectplay {example}" for example in spec.examples]
    if "play" in spec.offers and spec.examples:
        out.append(f"perfectplay play {spec.examples[0]}")
    out += [f"perfectplay judge {pid} FILE" for pid in list(spec.judges)[:1]]
    return out


def _seed_text(spec: GameSpec) -> str:
    rules = spec.rules[:1].upper() + spec.rules[1:]
    lines = [f"{spec.name}: {spec.title}. {rules}", f"  offers: {', '.join(spec.offers)}",
             "  commands:"]
    lines += [f"    {command}" for command in seed_commands(spec)]
    others = list(spec.judges)[1:]
    if others:  # its other judges take the same command
        lines[-1] += f"   (or {', '.join(others)})"
    return "\n".join(lines)


def _catalog_text(entry: CatalogGame) -> str:
    listing, size = Listing.of(entry), _size(entry)
    lines = [f"{listing.name}: {listing.title}. {listing.rules}",
             f"  offers: {', '.join(entry.offers)}"]
    if listing.params:
        lines.append(f"  parameters: {', '.join(listing.params)}")
    if size:
        lines.append(f"  size: {size}")
    if listing.results:
        lines.append("  published:")
        lines += [f"    {r}" for r in listing.results]
        lines += [f"  {s}" for s in listing.sources]
    return "\n".join(lines)


def _size(entry: CatalogGame) -> str:
    return entry.size(entry.arguments()) if entry.size else ""


def _text(entry: GameEntry) -> str:
    """One game as the listing writes it, by its kind (see :data:`HEADINGS`)."""
    if entry.kind == "seed":
        return _seed_text(_as_seed(entry))
    return _catalog_text(_as_catalog(entry))


# by kind, not class (see registry._is_entry: a module imported twice makes a second class)
def _as_seed(entry: GameEntry) -> GameSpec:
    return cast(GameSpec, entry)


def _as_catalog(entry: GameEntry) -> CatalogGame:
    return cast(CatalogGame, entry)


def _json(entry: GameEntry) -> dict[str, Any]:
    """One game as ``--json`` gives it: its kind and offers, then a seed problem's commands
    and judges, or a catalog game's listing and size."""
    out: dict[str, Any] = {"kind": entry.kind, "name": entry.name, "title": entry.title,
                           "rules": entry.rules, "offers": list(entry.offers)}
    if entry.kind == "seed":
        spec = _as_seed(entry)
        return out | {"commands": seed_commands(spec), "judges": list(spec.judges)}
    game = _as_catalog(entry)
    return out | dataclasses.asdict(Listing.of(game)) | {"size": _size(game)}


def _listing(entries: list[GameEntry]) -> str:
    """The games under their kind's heading (one heading only when several are listed)."""
    if len(entries) == 1:
        return _text(entries[0])
    parts = []
    for kind, heading in HEADINGS.items():
        of_kind = [_text(e) for e in entries if e.kind == kind]
        if of_kind:
            parts.append(f"{heading}\n\n" + "\n\n".join(of_kind))
    return "\n\n\n".join(parts)


def _catalog_only(entries: list[GameEntry], markdown: str) -> list[CatalogGame]:
    """The catalog games a ``--markdown`` table or page is made of: a seed problem has
    none (a clear error, not an empty table)."""
    seeds = [e.name for e in entries if e.kind != "catalog"]
    if seeds:
        raise InputError(f"{seeds[0]} is a seed problem: --markdown {markdown} is made of "
                         "catalog games (perfectplay games lists both kinds)")
    return [_as_catalog(e) for e in entries]


@click.command()
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@click.option("--markdown", type=click.Choice(["results", "summary", "page"]), default=None,
              help="Print Markdown instead, of the catalog games: a table of every "
                   "published result with how it is reproduced and what that cost here "
                   "(results), a row a game (summary), or NAME's documentation page (page).")
def games(name: str | None, as_json: bool, markdown: str | None) -> None:
    """Every game built in, grouped by kind: the seed problems (each its own command: its
    rules and the commands that run it) and the famous games of the catalog (rules,
    parameters with their defaults and ranges, size and published results), each with
    what it offers. Any command that takes FILE.py:Class takes the catalog's by name,
    with keyword parameters.

    \b
    Examples:
      perfectplay games
      perfectplay games coins
      perfectplay games connect4
      perfectplay games --markdown results
      perfectplay games kalah --markdown page
      perfectplay solve 'connect4(width=5, height=4)'
      perfectplay search 'connect4(width=7, height=6)' --moves 4,4,3
      perfectplay play tictactoe
    """
    if markdown is not None:
        _markdown(name, markdown)
        return
    entries: list[GameEntry] = [find(name)] if name else list(registry_games())
    if as_json:
        echo_json([_json(entry) for entry in entries])
        return
    click.echo(_listing(entries))


def _markdown(name: str | None, markdown: str) -> None:
    """``--markdown``: the catalog's results or summary table (of NAME alone when given),
    or NAME's page."""
    if markdown == "page" and not name:
        raise InputError("--markdown page prints one game's page: name the game "
                         "(perfectplay games kalah --markdown page)")
    entries = _catalog_only([find(name)], markdown) if name else catalog()
    if markdown == "page":
        click.echo(game_page(entries[0]), nl=False)
        return
    table = results_table if markdown == "results" else summary_table
    click.echo(table(entries))
