"""``serve --store`` of a store that does not hold every position: an opening book
(``perfectplay book``) or an endgame store (``solve --endgame``). Positions it holds are
read; past it the position is searched, so the page's tab and /gamesman answer every
position, as the strong solution says (a book answered 422 "not in the store" one ply past
its edge before)."""

import pytest
from starlette.testclient import TestClient

from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.catalog.kalah import Kalah
from perfectplay.cli.serve import _served_game
from perfectplay.engine import solve
from perfectplay.engine.proof.live import LiveOracle
from perfectplay.store import solve_tiered
from perfectplay.store.book import build_book
from perfectplay.store.layout import StoreError
from perfectplay.web.app import create_app


def _page(solved, gid):
    c = TestClient(create_app(gamesman=solved, gamesman_id=gid))
    [served] = [g for g in c.get("/api/games").json()["games"] if g["kind"] == "served"]
    return c, f"/api/games/{served['name']}/position"


def _agrees(answer, ref, game, pos):
    """The page's answer at ``pos``: every move's value and remoteness as ``ref`` says."""
    want = {game.move_name(mv.move): (mv.value.name.lower(), mv.remoteness)
            for mv in ref.move_values(pos)}
    got = {m["name"]: (m["value"], m["remoteness"]) for m in answer["moves"]}
    assert got == want, pos


def test_a_served_book_answers_past_its_plies(tmp_path):
    game = ConnectFour(4, 4)
    ref = solve(game)
    build_book(game, 1, tmp_path / "bk", game_ref="connect4(width=4, height=4)")
    solved, gid = _served_game(str(tmp_path / "bk"), None)
    assert isinstance(solved, LiveOracle)
    c, url = _page(solved, gid)
    pos, line = game.initial(), []
    for move in (1, 2, 0, 3, 1):  # four plies past the book
        r = c.get(url, params={"moves": ",".join(line)} if line else None)
        assert r.status_code == 200, r.text
        _agrees(r.json(), ref, game, pos)
        line.append(game.move_name(move))
        pos = game.play(pos, move)
    # /gamesman answers past the book too
    [listed] = c.get("/gamesman/").json()
    start = c.get(f"/gamesman/{listed['id']}/standard/positions/").json()
    child = c.get(f"/gamesman/{listed['id']}/standard/positions/",
                  params={"p": start["moves"][0]["position"]}).json()
    deeper = c.get(f"/gamesman/{listed['id']}/standard/positions/",
                   params={"p": child["moves"][0]["position"]}).json()
    assert deeper["positionValue"] in ("win", "tie", "lose") and deeper["moves"]


def test_a_served_endgame_store_answers_from_the_start(client, tmp_path):
    game = Kalah(3, 2)
    ref = solve(game)
    solve_tiered(game, tmp_path / "eg", roots=game.endgame_positions(4), client=client,
                 game_ref="kalah(houses=3, seeds=2)")
    solved, gid = _served_game(str(tmp_path / "eg"), None)
    assert isinstance(solved, LiveOracle)
    c, url = _page(solved, gid)
    r = c.get(url)
    assert r.status_code == 200, r.text
    d = r.json()
    assert d["margin"] == ref.value()
    want = {game.move_name(mv.move): mv.value for mv in ref.move_values()}
    assert {m["name"]: m["margin"] for m in d["moves"]} == want


def test_a_store_solved_whole_is_served_as_it_is(client, tmp_path):
    game = Kalah(2, 2)
    solve_tiered(game, tmp_path / "k", client=client, game_ref="kalah(houses=2, seeds=2)")
    solved, _ = _served_game(str(tmp_path / "k"), None)
    assert not isinstance(solved, LiveOracle)
    assert solved.value() == solve(game).value()
    with pytest.raises(StoreError, match="is not a store"):
        _served_game(str(tmp_path / "nothing"), None)
