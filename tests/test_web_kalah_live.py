"""Kalah(6, 4) on the page, as the tab's live analysis answers it (the real route, the
server's worker): the start's six moves come from the shipped 3-ply book at once, exact,
each with the margin and remoteness the book holds, the best the third house by +10
(Irving, Donkers and Uiterwijk 2000)."""

import json
from urllib.parse import quote

from starlette.testclient import TestClient

from perfectplay.catalog.kalah import Kalah
from perfectplay.store.book import find_book
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
