"""Kalah(6, 4) on the page, as the tab's live analysis answers it (the real route, the
server's worker): the start's six moves come from the shipped 3-ply book at once, exact,
each with the margin and remoteness the book holds, the best the third house by +10
(Irving, Donkers and Uiterwijk 2000)."""

import json
import threading
from urllib.parse import quote

from starlette.testclient import TestClient

from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.catalog.kalah import Kalah
from perfectplay.store.book import find_book
from perfectplay.web import live
from perfectplay.web.app import create_app

K64 = "kalah(houses=6, seeds=4, empty_capture=True)"


def test_kalah_6_4_starts_from_its_book_on_the_page():
    game = Kalah(6, 4)
    book = find_book(game)
    assert book is not None
    with book:
        want = {game.move_name(mv.move): (mv.value, mv.remoteness)
                for mv in book.move_values(game.initial())}
    with TestClient(create_app()) as c, \
            c.stream("GET", f"/api/games/{quote(K64)}/analysis") as r:
        assert r.status_code == 200
        lines = [json.loads(line) for line in r.iter_lines() if line]
    moves = [ln for ln in lines if ln["kind"] == "move"]
    assert {m["name"] for m in moves} == set(want)
    assert all(m["exact"] and m["source"] == "book" for m in moves)
    assert {m["name"]: (m["margin"], m["remoteness"]) for m in moves} == want
    done = lines[-1]
    assert done["kind"] == "done" and done["exact"] and done["best"] == ["c"]
    assert done["margin"] == 10 and done["summary"].startswith("Player 1 should win by 10")


def test_an_analysis_that_proves_no_move_says_so_and_what_would():
    """An analysis stopped before any move's value is proven (Kalah(6, 4) four plies in,
    beyond the book, stopped at once) ends with a summary that says nothing was proven and
    names the command that builds the game's endgame store, not a line that reads as an
    answer (the page shows it, and "stopped after", not "answered live in")."""
    stop = threading.Event()
    stop.set()
    lines = list(live.live_analysis(K64, {"moves": "a,b,b,c"}, stop))
    moves, done = lines[:-1], lines[-1]
    assert [m["name"] for m in moves] == list("abcdef")
    assert not any(m["exact"] or m["value"] for m in moves)
    assert done["kind"] == "done" and done["exact"] is False and "value" not in done
    assert done["summary"] == (
        "no move proven within the 20 s budget: build an endgame store with `perfectplay "
        f"solve '{K64}' --store kalah-dense24/ --endgame 24 --dense` and serve it with "
        "`perfectplay serve --live-store kalah-dense24/` for move values")


def test_a_partly_proven_analysis_counts_its_moves_and_other_games_get_a_book():
    c4 = ConnectFour(7, 6)
    assert live.stopped_summary("connect4(width=7, height=6)", c4, 3, 7, 20.0) == (
        "stopped at the 20 s budget with 3 of 7 moves proven: the others show their bounds")
    assert live.stopped_summary("connect4(width=7, height=6)", c4, 0, 7, 20.0) == (
        "no move proven within the 20 s budget: build an opening book with `perfectplay "
        "book 'connect4(width=7, height=6)' --plies 8 --out connect4-book/` and serve it "
        "with `perfectplay serve --live-store connect4-book/` for move values")
