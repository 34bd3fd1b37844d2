"""A documentation page for each catalog game, written from its entry: the rules in a
sentence, the parameters with their limits, the size, commands to try, how it is solved here
(the game package's own docstring, rendered by the docs site, with the cost of each method)
and every published result with its source and what reproducing it cost.

The pages live in ``docs/games/catalog/NAME.md``; ``perfectplay games NAME --markdown page``
prints one, and a test holds each page to its entry, so a page changes by changing the entry
(or the package docstring) and writing the page again. Nothing here solves anything: a page
costs microseconds.

>>> from perfectplay.registry import get_catalog
>>> print(game_page(get_catalog("tictactoe")).splitlines()[0])
# Tic-tac-toe (`tictactoe`)
"""

from __future__ import annotations

from .entry import CatalogGame, Listing, Param
from .table import results_table

#: Where the pages are, relative to the docs folder (their links climb back from there).
PAGE_FOLDER = "games/catalog"
_UP = "../../"

#: What each way of solving costs, as the pages say it (sources in docs/algorithms.md).
METHODS = (
    "**Strong solve** (`perfectplay solve`): every position reachable from the start, "
    "enumerated tier by tier and labelled by retrograde analysis, so time and memory grow "
    "linearly with the positions and their moves, about 1.5 bytes a position in a store on "
    f"disk ([algorithms]({_UP}algorithms.md), [stores]({_UP}howto/stores.md)). "
    "**Proof search** (`perfectplay search`): the start alone, by null-window alpha-beta "
    "with a transposition table and the game's move ordering, for instances too big to "
    "enumerate; its cost is the size of the proof, not of the game "
    f"([proof search]({_UP}howto/search.md)).")


def _allowed(p: Param) -> str:
    """A parameter's limits in words: ``1 to 31``, ``each 0 to 64``, ``yes or no``."""
    if p.kind is bool:
        return "`True` or `False`"
    if p.low is None and p.high is None:
        return "any"
    span = f"{p.low} to {p.high}" if p.low is not None and p.high is not None else (
        f"at least {p.low}" if p.low is not None else f"at most {p.high}")
    return f"each {span}" if p.kind is tuple else span


def _literal(value: object) -> str:
    return f"`{value!r}`"


def _parameters(entry: CatalogGame) -> list[str]:
    if not entry.params:
        return ["None: the one board."]
    lines = ["| parameter | default | allowed | meaning |", "|---|---|---|---|"]
    lines += [f"| `{p.name}` | {_literal(p.default)} | {_allowed(p)} | {p.help} |"
              for p in entry.params]
    return lines


def _size(entry: CatalogGame) -> list[str]:
    if entry.size is None:
        return []
    values = entry.arguments()
    return ["", f"The default instance, `{entry.call(values)}`: {entry.size(values)}."]


def game_page(entry: CatalogGame) -> str:
    """The Markdown page of one catalog game (see the module doc). O(its results)."""
    lines = [f"# {entry.title} (`{entry.name}`)", "",
             "<!-- written by `perfectplay games " + entry.name + " --markdown page` from the "
             "catalog's entry: change the entry, then write the page again -->", "",
             entry.rules, "",
             f"`perfectplay games {entry.name}` prints this in the terminal, with every "
             "source in full.", "", "## Parameters", "", *_parameters(entry), *_size(entry),
             "", "## Try it", ""]
    lines += [f"- `perfectplay {e}`" for e in entry.examples]
    lines += ["", f"From Python: `from perfectplay.games import {entry.name}`, then "
              f"`{entry.name}(...)` builds an instance with the parameters above.", "",
              "## How it is solved here", "",
              f"::: perfectplay.catalog.{entry.name}",
              "    options:",
              "      show_root_heading: false",
              "      show_root_toc_entry: false",
              "      members: false", "", METHODS, "",
              "## Published results", "",
              "What the literature says of this game, how perfectplay reproduces each result "
              f"and what that cost on a 2-core machine (the [catalog page]({_UP}catalog.md) "
              "says how these times were measured).", "",
              results_table([entry]), ""]
    sources = Listing.of(entry).sources
    if sources:
        lines += ["Sources, in full:", "", *[f"- {s}" for s in sources], ""]
    return "\n".join(lines)
