"""The ``book`` command: an opening book of a compiled game (every position within N plies,
exact), built into a store folder, resumably (:func:`perfectplay.store.book.build_book`);
and the tables ``play`` uses for a game answered live (its book, then search) or a store."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import click

from .. import registry
from ..catalog.entry import CatalogGame, Published
from ..engine.compiled.game import CompiledGame
from ..engine.proof.limits import BOOK_LIMITS, MAX_WORKERS
from ..engine.protocol import Game, capabilities
from ..engine.solved.savefile import portable_target
from ..engine.target import parse_call
from ..play import Table, live_table
from ..store import Store, open_store
from ..store.book import MAX_PLIES, build_book, find_book
from ..store.endgame import is_dense_table, open_endgame
from ..store.layout import read_manifest
from .base import echo_json, fail, game_call, limits_of, load_game, no_check_option


@click.command()
@click.argument("target", metavar="GAME")
@click.option("--plies", type=int, required=True,
              help=f"How deep: every position reached within this many plies (0 to "
              f"{MAX_PLIES}); the last ply is searched, the ones before derived.")
@click.option("--out", "out", required=True, type=click.Path(),
              help="The book's folder (a store); run the command again to resume.")
@click.option("--workers", type=click.IntRange(1, MAX_WORKERS), default=BOOK_LIMITS.workers,
              show_default=True, help="Threads each search uses (one shared table).")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Positions searched at once, each in a process of its own with its own "
              "table (Linux): 2 on two cores, 1.74x one (2 --workers: 1.63x).")
@click.option("--table-mb", type=float, default=BOOK_LIMITS.table_mb, show_default=True,
              help="The search's transposition table, kept for the whole build (one a job).")
@click.option("--store", type=click.Path(file_okay=False, exists=True), default=None,
              help="An endgame store of this game (solve --store DIR --endgame K), or a "
              "dense endgame table (... --dense): every search reads its positions instead "
              "of searching them.")
@click.option("--bounds-from", "shallower", type=click.Path(file_okay=False, exists=True),
              default=None, help="A shallower book of this game (at least --plies minus "
              "one deep): its scores of the ply above the last bound the searches, which "
              "saves probes and never changes an answer.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@no_check_option
def book(target: str, plies: int, out: str, workers: int, jobs: int, table_mb: float,
         store: str | None, shallower: str | None, as_json: bool) -> None:
    """Build an opening book of GAME: the exact value and remoteness of every position
    within --plies plies of the start, written as a store (read it with query, or let play
    and serve find it). Resumable: a killed build continues where it stopped.

    \b
    Examples:
      perfectplay book 'connect4(width=7, height=6)' --plies 4 --out c4book/ --jobs 2
      perfectplay query c4book/ --moves 4,4
      perfectplay book 'kalah(houses=6, seeds=4)' --plies 3 --out kbook/ --store dense24/
      perfectplay book 'connect4(width=7, height=6)' --plies 5 --out c4b5/ --bounds-from c4book/
    """
    limits = limits_of(BOOK_LIMITS, table_mb=table_mb, workers=workers)  # before any work
    game = load_game(target)
    if not isinstance(game, CompiledGame):
        fail(f"{target} is not a compiled game: a book is for the catalog's big games "
             "(connect4, kalah, ...); a Python game is small enough to solve")

    def say(line: str) -> None:
        click.echo(f"book: {line}", err=True)

    endgame = None if store is None else game_call("rules", open_endgame, store, game)
    above = None if shallower is None else game_call("rules", open_store, shallower, game)
    result = game_call("rules", build_book, game, plies, out,
                       game_ref=portable_target(target), limits=limits, progress=say,
                       endgame=endgame, jobs=jobs, shallower=above,
                       check=False)  # checked as it was loaded
    if as_json:
        echo_json({"store": str(result.store), "plies": result.plies,
                   "positions": result.positions, "searched": result.searched,
                   "bytes": result.bytes, "seconds": round(result.seconds, 2),
                   "jobs": result.jobs, "already": result.already})
        return
    if result.already:
        click.echo(f"{out} already holds the finished book ({result.positions:,} positions, "
                   f"{result.plies} plies)")
        return
    click.echo(f"book of {result.plies} plies in {out}: {result.positions:,} positions "
               f"({result.searched:,} searched on the last ply), {result.bytes:,} bytes, "
               f"{result.seconds:,.1f} s")


def live_play_table(target: str, game: Game, live: bool) -> Table | None:
    """The play table of a catalog or user game answered live (its shipped opening book,
    then search), or None when it is better solved whole: asked for (``live``), or a
    catalog instance that the catalog reproduces by search, or one it neither lists nor
    calls small; only a compiled game with tiers (acyclic, so search ends) is played
    live. A catalog instance whose start is a goal beyond this machine is refused up
    front, and a live game without a book says on stderr that its first answers may take
    long, before it starts."""
    answered_live, book = live_book(target, game, live)
    if not answered_live:
        return None
    table = live_table(game, target, book=book)
    if book is None:
        click.echo(f"{target}: {table.legend}; Ctrl-C stops", err=True)
    return table


def live_book(target: str, game: Game, live: bool) -> tuple[bool, Store | None]:
    """Whether ``target`` is answered live, and from which book: (False, None) solve it
    whole; (True, None) live, every answer searched; (True, book) live from the game's
    shipped book. Refuses (one line, exit 1) an instance whose start the catalog lists as a
    goal not reached here (Othello 8x8) or as too slow to answer live (Domineering 8x8),
    unless a book holds its start or ``live`` asks for the search anyway."""
    compiled = game if isinstance(game, CompiledGame) else None
    searchable = compiled is not None and compiled.tiered
    if live and not searchable:
        fail(f"{target} cannot be played live: live search needs a compiled game with "
             "tiers (acyclic); play it without --live to solve it whole")
    book = find_book(compiled) if compiled is not None else None
    goal = None if book is not None or live else _goal(target)
    if goal is not None:
        fail(f"{target}: {goal}")
    if not searchable or not (live or _searched_by_the_catalog(target)):
        return False, None
    return True, book


def _goal(target: str) -> str | None:
    """Why the catalog's instance ``target`` cannot be answered live here (its start is a
    published result the catalog's search has not reached, or reached too slowly for a
    person's pace), else None."""
    instance = _catalog_instance(target)
    published = None if instance is None else _published(*instance)
    if instance is None or published is None or published.answered_live:
        return None
    entry = instance[0]
    smaller = ", ".join(entry.call(dict(small)) for small in entry.small[:2])
    return (f"too big to answer here (the catalog's record of it: "
            f"{published.note}); try a smaller instance: {smaller} (or play --live to "
            "search it anyway, for as long as it takes)")


def _catalog_instance(target: str) -> tuple[CatalogGame, dict[str, object]] | None:
    """The catalog game ``target`` names and its parameters, defaults filled in (None for a
    game of the user's, ``FILE.py:Class``)."""
    if ".py:" in target:
        return None
    name, args, kwargs = parse_call(target)
    entry = registry.get_catalog(name)
    return entry, entry.arguments(args, kwargs)


def _published(entry: CatalogGame, values: Mapping[str, object]) -> Published | None:
    """The catalog's published result of this instance, if it lists one (parameters
    compared after defaults are filled in)."""
    return next((p for p in entry.published if entry.arguments((), p.args) == values), None)


def _searched_by_the_catalog(target: str) -> bool:
    instance = _catalog_instance(target)
    if instance is None:
        return False
    entry, values = instance
    published = _published(entry, values)
    if published is not None:
        return published.method == "search"
    return all(entry.arguments((), small) != values for small in entry.small)


def store_play_table(path: str, target: str | None) -> Table:
    """The play table of a store (an opening book, or a whole solved store): positions it
    holds read from it, the rest searched live; an endgame store (``solve --endgame``) also
    serves the search's leaves, as ``search --store`` reads it (Kalah(6, 4)). A dense
    endgame table (``solve --endgame K --dense``) holds no position's answer: the game named
    is played live (its shipped book, then search), the table read at the search's
    leaves."""
    if is_dense_table(path):
        if target is None:
            fail(f"{path} holds a dense endgame table: name the game it is for, e.g. "
                 f"perfectplay play 'kalah(houses=6, seeds=4)' --store {path}", 2)
        game = load_game(target)
        endgame = game_call("rules", open_endgame, path, game)
        return live_table(game, f"{target} (dense endgame table {path})",
                          book=find_book(game) if isinstance(game, CompiledGame) else None,
                          endgame=endgame)
    named = None if target is None else load_game(target)
    store = open_store(path, named)
    title = store.target or capabilities(store.game).name
    return live_table(store.game, f"{title} (store {path})", book=store,
                      endgame=endgame_of(store, path))


def endgame_of(store: Store, path: str | Path) -> Store | None:
    """``store`` when it is an endgame store (``solve --endgame``: its manifest names roots)
    of a compiled game, which the search can read at its leaves; else None."""
    compiled = isinstance(store.game, CompiledGame)
    return store if compiled and read_manifest(path).get("roots") else None


def is_partial(path: str | Path) -> bool:
    """True for a store that does not hold every position from the start: an opening book
    (``perfectplay book``) or an endgame store (``solve --endgame``)."""
    info = read_manifest(path)
    return bool(info.get("book") or info.get("roots"))
