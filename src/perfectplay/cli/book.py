"""The ``book`` command: an opening book of a compiled game (every position within N plies,
exact), built into a store folder, resumably (:func:`perfectplay.store.book.build_book`)."""

from __future__ import annotations

import click

from ..engine.compiled import CompiledGame
from ..engine.savefile import portable_target
from ..store.book import MAX_PLIES, build_book
from .base import echo_json, fail, load_game


@click.command()
@click.argument("target", metavar="GAME")
@click.option("--plies", type=int, required=True,
              help=f"How deep: every position reached within this many plies (0 to "
              f"{MAX_PLIES}); the last ply is searched, the ones before derived.")
@click.option("--out", "out", required=True, type=click.Path(),
              help="The book's folder (a store); run the command again to resume.")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Threads each search uses (one shared table).")
@click.option("--table-mb", type=float, default=256, show_default=True,
              help="The search's transposition table, kept for the whole build.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def book(target: str, plies: int, out: str, workers: int, table_mb: float,
         as_json: bool) -> None:
    """Build an opening book of GAME: the exact value and remoteness of every position
    within --plies plies of the start, written as a store (read it with query, or let play
    and serve find it). Resumable: a killed build continues where it stopped.

    \b
    Examples:
      perfectplay book 'connect4(width=7, height=6)' --plies 4 --out c4book/
      perfectplay query c4book/ --moves 4,4
    """
    game = load_game(target)
    if not isinstance(game, CompiledGame):
        fail(f"{target} is not a compiled game: a book is for the catalog's big games "
             "(connect4, kalah, ...); a Python game is small enough to solve")

    def say(line: str) -> None:
        click.echo(f"book: {line}", err=True)

    result = build_book(game, plies, out, game_ref=portable_target(target), workers=workers,
                        table_mb=table_mb, progress=say)
    if as_json:
        echo_json({"store": str(result.store), "plies": result.plies,
                   "positions": result.positions, "searched": result.searched,
                   "bytes": result.bytes, "seconds": round(result.seconds, 2),
                   "already": result.already})
        return
    if result.already:
        click.echo(f"{out} already holds the finished book ({result.positions:,} positions, "
                   f"{result.plies} plies)")
        return
    click.echo(f"book of {result.plies} plies in {out}: {result.positions:,} positions "
               f"({result.searched:,} searched on the last ply), {result.bytes:,} bytes, "
               f"{result.seconds:,.1f} s")
