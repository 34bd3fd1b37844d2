"""Any solved game in the shape of GamesCrafters' Universal Web API (``/gamesman``): field
names and codes as their README gives them, values checked against the solution."""

import subprocess
import sys

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")

from starlette.testclient import TestClient  # noqa: E402
from tictactoe import TicTacToe  # noqa: E402

from perfectplay.catalog.kalah import Kalah  # noqa: E402
from perfectplay.engine import Value, solve  # noqa: E402
from perfectplay.store import open_store, solve_tiered  # noqa: E402
from perfectplay.web.app import create_app  # noqa: E402
from perfectplay.web.gamescrafters import position_response  # noqa: E402

WORD = {Value.WIN: "win", Value.LOSE: "lose", Value.TIE: "tie", Value.DRAW: "draw"}


class Cycle:
    """A ring of four positions with an exit at 0: from 0 the mover may step to 1 or end
    the game by losing at once ("resign" to -1); 1, 2, 3 step on around the ring. Nobody
    wants to resign, so play goes round for ever: a draw."""

    def initial(self):
        return 0

    def moves(self, n):
        return [1, "resign"] if n == 0 else [(n + 1) % 4]

    def play(self, n, m):
        return -1 if m == "resign" else m

    def outcome(self, n):
        return Value.WIN if n == -1 else None


@pytest.fixture(scope="module")
def ttt():
    return solve(TicTacToe())


def test_the_games_list_and_the_variant(ttt):
    c = TestClient(create_app(gamesman=ttt, gamesman_id="tictactoe"))
    assert c.get("/gamesman/").json() == [
        {"id": "tictactoe", "name": "TicTacToe", "type": "twoPlayer", "gui": "v0"}]
    g = c.get("/gamesman/tictactoe/").json()
    assert g["variants"] == [{"id": "standard", "name": "Standard", "gui": "v0"}]
    assert g["supportsWinBy"] is False
    v = c.get("/gamesman/tictactoe/standard/").json()
    assert v["startPosition"] == repr(TicTacToe().initial())
    assert c.get("/gamesman/chess/").status_code == 404
    assert c.get("/gamesman/tictactoe/misere/").status_code == 404


def test_every_position_answer_equals_the_solution(ttt):
    """The start and a few positions after it: value, remoteness, each move's value for the
    mover and its child's value, best first, deltaRemoteness against the best move of the
    same value."""
    c = TestClient(create_app(gamesman=ttt, gamesman_id="tictactoe"))
    game = TicTacToe()
    pos = game.initial()
    for step in range(4):
        r = c.get("/gamesman/tictactoe/standard/positions/", params={"p": repr(pos)}).json()
        assert (r["positionValue"], r["remoteness"]) == (WORD[ttt.value(pos)],
                                                         ttt.remoteness(pos))
        ref = ttt.move_values(pos)
        assert [m["move"] for m in r["moves"]] == [game.move_name(mv.move) for mv in ref]
        ranks = [("lose", "draw", "tie", "win").index(m["moveValue"]) for m in r["moves"]]
        assert ranks == sorted(ranks, reverse=True)
        best: dict[str, int] = {}
        for m, mv in zip(r["moves"], ref, strict=True):
            child = game.play(pos, mv.move)
            assert m["moveValue"] == WORD[mv.value]
            assert (m["position"], m["positionValue"], m["remoteness"]) == (
                repr(child), WORD[ttt.value(child)], ttt.remoteness(child))
            best.setdefault(m["moveValue"], mv.remoteness)
            want = 0 if m["moveValue"] == "tie" else abs(mv.remoteness - best[m["moveValue"]])
            assert m["deltaRemoteness"] == want
        pos = game.play(pos, ref[-1].move if step % 2 else ref[0].move)


def test_a_draw_is_remoteness_minus_200():
    r = position_response(solve(Cycle()), 0)
    assert (r["positionValue"], r["remoteness"]) == ("draw", -200)
    assert [(m["move"], m["moveValue"], m["remoteness"], m["deltaRemoteness"])
            for m in r["moves"]] == [("1", "draw", -200, 0), ("resign", "lose", 0, 0)]


def test_a_store_of_a_scored_game_with_winby(client, tmp_path):
    game = Kalah(2, 2)
    solve_tiered(game, tmp_path / "k", client=client)
    ref = solve(game)
    with open_store(tmp_path / "k", game) as store:
        c = TestClient(create_app(gamesman=store, gamesman_id="kalah"))
        assert c.get("/gamesman/kalah/").json()["supportsWinBy"] is True
        r = c.get("/gamesman/kalah/standard/positions/").json()  # no p: the start
        assert r["winby"] == ref.value() == -2 and r["positionValue"] == "lose"
        assert r["remoteness"] == ref.remoteness()
        assert [m["move"] for m in r["moves"]] == [game.move_name(mv.move)
                                                   for mv in ref.move_values()]
        bad = c.get("/gamesman/kalah/standard/positions/", params={"p": "import os"})
        assert bad.status_code == 422 and "not a position" in bad.json()["error"]
        assert c.get("/gamesman/kalah/standard/positions/",
                     params={"p": "12345"}).status_code == 404


def test_serve_takes_a_store_or_a_game_not_both(tmp_path):
    out = subprocess.run([sys.executable, "-m", "perfectplay", "serve", "--store",
                          str(tmp_path), "--game", "examples/tictactoe.py:TicTacToe"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "not both" in out.stderr
