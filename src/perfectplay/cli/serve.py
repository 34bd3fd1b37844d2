"""``serve``: the web page, and optionally one solved game under /gamesman in the shape of
GamesCrafters' web API (the web extra is imported only when the command runs)."""

from __future__ import annotations

import re
import signal
import sys
from pathlib import Path
from typing import Any

import click

from ..engine import solve as engine_solve
from ..engine.proof.live import LiveOracle
from ..engine.protocol import capabilities
from ..store import open_store
from ..store.endgame import is_dense_table
from .base import fail, game_call, load_game, need_extra, no_check_option
from .book import endgame_of, is_partial, live_book


# -- the web page ------------------------------------------------------------------------------
@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (localhost only unless you say otherwise).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--store", type=click.Path(file_okay=False, exists=True), default=None,
              help="Also serve this solved store read-only under /gamesman, in the shape "
              "of GamesCrafters' web API, and on its own tab. An opening book or an "
              "endgame store is read where it holds a position; past it the position is "
              "searched (exact; one not answered within the request's time budget gets "
              "503 with Retry-After while its search runs on, and the retry reads its "
              "answer).")
@click.option("--game", "target", default=None, metavar="TARGET",
              help="Also serve this game (a catalog game such as tictactoe, or "
              "FILE.py:Class(args); solved now in memory) under /gamesman.")
@click.option("--cors", "origins", multiple=True, metavar="ORIGIN",
              help="Let pages from ORIGIN (http://localhost:3000, or *) read the answers "
              "of GET requests: a GamesmanUni run elsewhere. Repeatable; none by default.")
@click.option("--live-store", "live_stores", multiple=True, metavar="DIR",
              type=click.Path(file_okay=False, exists=True),
              help="A solved store the page's live analysis of a big game reads before it "
                   "searches: an opening book (perfectplay book) or an endgame store "
                   "(solve --store DIR --endgame K), matched to its game by name, or a "
                   "dense endgame table (solve ... --dense), used by the instances it fits "
                   "(Kalah of its houses). Repeatable.")
@no_check_option
def serve(host: str, port: int, store: str | None, target: str | None,
          origins: tuple[str, ...], live_stores: tuple[str, ...]) -> None:
    """Serve the web page: play and explore every game in a browser (needs
    perfectplay[web]). With --store or --game, one solved game is also served read-only
    under /gamesman/perfectplay-NAME/ in the shape GamesCrafters' front end (GamesmanUni)
    reads: point its gameAPI at http://HOST:PORT/gamesman/ and allow its origin with --cors.

    \b
    Examples:
      perfectplay serve --port 8000     # then open http://127.0.0.1:8000
      perfectplay serve --game tictactoe --cors http://localhost:3000
      perfectplay serve --live-store kalah-dense24/   # Kalah(6, 4) live, its endgame read
      # then GET http://127.0.0.1:8000/gamesman/perfectplay-tictactoe/standard/positions/
    """
    for module in ("starlette", "uvicorn", "pydantic"):
        need_extra(module, "the web page", "web")
    if store is not None and target is not None:
        fail("give --store or --game, not both", 2)
    for origin in origins:
        if origin != "*" and not ORIGIN.fullmatch(origin):
            fail(f"--cors {origin!r} is not an origin: give scheme://host[:port] as the "
                 "browser shows it (http://localhost:3000, no path, no trailing /), or *", 2)
    gamesman, gid = _served_game(store, target)
    for folder in live_stores:  # each must open as a store, before the server starts
        _check_store(folder)
    from ..web.app import create_app
    from ..web.gamescrafters import served_id
    from ..web.serving import run_until_stopped

    click.echo(f"perfectplay: serving http://{host}:{port} (Ctrl-C stops)", err=True)
    if gamesman is not None:
        gid = served_id(gid)
        click.echo(f"perfectplay: {gid} read-only at http://{host}:{port}/gamesman/{gid}/",
                   err=True)
    click.echo(f"perfectplay: the catalog's games in GamesCrafters' shape at "
               f"http://{host}:{port}/gamesman/", err=True)
    try:
        stopped_by = run_until_stopped(create_app(gamesman=gamesman, gamesman_id=gid,
                                                  cors=origins, gamesman_catalog=True,
                                                  live_stores=[str(Path(d).resolve())
                                                               for d in live_stores]),
                                       host, port)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    if stopped_by is not None:
        click.echo("perfectplay: stopped serving", err=True)
        sys.exit(STOP_CODES.get(stopped_by, 0))


#: An origin as a browser sends it: scheme://host[:port] (CORS matches it exactly).
ORIGIN = re.compile(r"https?://[^/\s?#]+")

#: How ``serve`` exits when a signal stops it: Ctrl-C (SIGINT) with 130, the shells'
#: 128 + 2 for a command the user interrupted (as every other command here); SIGTERM (kill,
#: systemd, docker stop) with 0, the asked-for end of a service, which is its normal end.
STOP_CODES: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 0}


def _check_store(folder: str) -> None:
    """A --live-store folder opens as a store, or holds a dense endgame table (else a
    StoreError says why, in one line)."""
    if is_dense_table(folder):
        return  # read by the instances it fits (Kalah of its houses), on their first search
    with open_store(folder):
        pass


def _served_game(store: str | None, target: str | None) -> tuple[Any, str]:
    """The solved game ``serve`` puts under /gamesman, and its name as a lower-case word
    (served as ``perfectplay-`` + it)."""
    if store is not None:
        solved: Any = open_store(store)
        name = solved.game_name or Path(store).name
        if is_partial(store):  # a book or an endgame store: past it, the search answers
            solved = LiveOracle(solved.game, book=solved, endgame=endgame_of(solved, store))
    elif target is not None:
        game = load_game(target)
        answered_live, book = live_book(target, game, live=False)  # refuses what is beyond
        if not answered_live:
            solved = game_call("rules", engine_solve, game, check=False)  # checked on load
        else:  # a game the catalog plays live (7x6 Connect Four): its book, then search
            solved = LiveOracle(game, book=book)
            click.echo(f"{target} is answered live: "
                       f"{'its opening book, then ' if book else ''}search as positions "
                       "are asked for (exact; one past a request's time budget is answered "
                       "503, and the retry reads its answer)", err=True)
        name = capabilities(game).name
    else:
        return None, "game"
    return solved, "".join(c for c in str(name).lower() if c.isalnum()) or "game"
