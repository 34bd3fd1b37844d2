"""The catalog on the web page's API: GET /api/games lists every catalog game with the
page's default instance and budget, and GET /api/games/{target}/position answers any
position of a small instance as perfectplay.solve does (value, remoteness, every move's value
by name, the child's key leading on); bad targets, parameters, positions and moves get a 4xx
with a message, never a 500; the game `serve --game` serves is explored the same way."""

from __future__ import annotations

from urllib.parse import quote

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from browser import served_page  # noqa: E402
from perfectplay import registry, solve  # noqa: E402
from perfectplay.engine import Value  # noqa: E402
from perfectplay.engine.solved.solution import move_name  # noqa: E402
from perfectplay.engine.target import load_catalog_target  # noqa: E402
from perfectplay.web import answers  # noqa: E402
from perfectplay.web.app import create_app  # noqa: E402
from perfectplay.web.explore import check_target, summary  # noqa: E402
from perfectplay.web.gamescrafters import value_word  # noqa: E402
from test_web_schema import check  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:  # the worker starts and stops with the app
        yield c


def _url(target: str, **query: str) -> str:
    tail = "&".join(f"{k}={quote(v, safe='')}" for k, v in query.items())
    return f"/api/games/{quote(target, safe='')}/position" + (f"?{tail}" if tail else "")


def test_the_game_list_holds_every_catalog_game_in_the_registrys_order(client):
    """/api/games is the one list: the seed problems, then the catalog games, each with its
    kind, what it offers and (a catalog game) its parameters and the page's limits, read
    from its own entry's budgets."""
    r = client.get("/api/games")
    assert r.status_code == 200
    answers.GamesAnswer.model_validate_json(r.content, strict=True)
    listed = r.json()["games"]
    assert [(g["name"], g["kind"]) for g in listed] == [
        (e.name, e.kind) for e in registry.games()]
    games = [g for g in listed if g["kind"] == "catalog"]
    assert [g["name"] for g in games] == [e.name for e in registry.catalog()]
    for g in games:
        entry = registry.get_catalog(g["name"])
        assert g["offers"] == list(entry.offers) and "explore" in g["offers"]
        assert "analyze" not in g and g["explore"]["limit"]
        assert entry.budget is not None, f"{entry.name} has no page budget in its package"
        assert g["explore"]["limit"].startswith(entry.budget.limit)
        check_target(g["explore"]["default"])  # the page's default is within its budget
        assert [p["name"] for p in g["explore"]["params"]] == [p.name for p in entry.params]
        assert ("live" in g["offers"]) == (entry.live is not None) == \
            (g["explore"].get("live") is not None)
    c4 = next(g for g in games if g["name"] == "connect4")
    assert c4["explore"]["default"] == "connect4(width=4, height=4)"
    assert c4["explore"]["live"] == "connect4(width=7, height=6)"
    assert c4["script"] == "/page/connect4.js"
    assert "boards.connect4" in client.get(c4["script"]).text


def _agrees(answer: dict, solved, pos) -> None:
    """One answered position against the in-memory solution: value, margin, remoteness, and
    each move's value and remoteness by name, best first."""
    scored = solved.scored
    value = solved.value(pos)
    assert answer["value"] == value_word(value, scored)
    assert answer["margin"] == (value if scored else None)
    assert answer["remoteness"] == solved.remoteness(pos)
    want = [(move_name(solved.game, mv.move), value_word(mv.value, scored), mv.remoteness)
            for mv in solved.move_values(pos)]
    got = [(m["name"], m["value"], m["remoteness"]) for m in answer["moves"]]
    assert got == want
    assert answer["over"] == (not want)


@pytest.mark.parametrize("name", [e.name for e in registry.catalog()])
def test_each_games_small_instance_agrees_with_solve(client, name):
    """The start, then the position after the best move (by its key, as the page's links
    do), then after two moves by name: each as perfectplay.solve answers it."""
    entry = registry.get_catalog(name)
    call = entry.call(entry.arguments((), entry.small[0] if entry.small else {}))
    game = load_catalog_target(call)
    solved = solve(game, method="python")  # the Python door: apart from the page's solve
    start = client.get(_url(call))
    assert start.status_code == 200, start.text
    answers.ExploreAnswer.model_validate_json(start.content, strict=True)
    d = start.json()
    _agrees(d, solved, solved.start)
    assert d["turn"] == "first" and d["summary"].startswith("Player 1 should ")
    assert d["board"] and d["history"] == []
    first = solved.move_values()[0].move
    child = game.play(solved.start, first)
    by_key = client.get(_url(call, p=d["moves"][0]["key"]))
    assert by_key.status_code == 200, by_key.text
    _agrees(by_key.json(), solved, child)
    line = [move_name(game, first)]
    if solved.move_values(child):
        line.append(move_name(game, solved.move_values(child)[-1].move))  # a worst reply
    by_moves = client.get(_url(call, moves=",".join(line))).json()
    pos = solved.start
    for name_ in line:
        pos = game.play(pos, next(mv.move for mv in solved.move_values(pos)
                                  if move_name(game, mv.move) == name_))
    _agrees(by_moves, solved, pos)
    assert [h["name"] for h in by_moves["history"]] == line
    assert by_moves["history"][0]["turn"] == "first" and not by_moves["history"][0]["mistake"]


def test_a_whole_game_ends_with_its_solved_value(client):
    """Tic-tac-toe played by best moves to the end: a tie, as solve says; the history marks
    no mistake and the chart stays at 0."""
    moves: list[str] = []
    while True:
        d = client.get(_url("tictactoe", moves=",".join(moves))).json()
        if d["over"]:
            break
        moves.append(d["moves"][0]["name"])
    assert d["summary"] == "Game over: a tie"
    assert value_word(solve(load_catalog_target("tictactoe"), method="python").value(),
                      False) == "tie"
    assert not any(h["mistake"] for h in d["history"])
    assert {h["chart_before"] for h in d["history"]} == {0.0}


def test_a_mistake_is_marked_and_the_chart_moves(client):
    d = client.get(_url("tictactoe", moves="a1,b1")).json()  # O's b1 loses
    assert [h["mistake"] for h in d["history"]] == [False, True]
    assert d["history"][1]["chart_after"] == 1.0 and d["summary"].startswith("Player 1 "
                                                                              "should win")


def test_a_scored_game_says_margins(client):
    call = "kalah(houses=2, seeds=1)"
    solved = solve(load_catalog_target(call), method="python")
    d = client.get(_url(call)).json()
    assert d["margin"] == solved.value() and all(m["margin"] is not None for m in d["moves"])
    assert " by " in d["summary"] or d["value"] == "tie"
    # Kalah(3, 3): a scores and moves again, then c scores but throws the game away; the
    # history's words and the line say final margins, the points so far included
    d = client.get(_url("kalah(houses=3, seeds=3)", moves="a,c")).json()
    assert [(h["turn"], h["before"], h["after"], h["mistake"]) for h in d["history"]] == [
        ("first", "win by 2 in 11", "win by 2 in 11", False),
        ("first", "win by 2 in 10", "lose by 2 in 11", True)]
    assert d["points"] == 2 and d["turn"] == "second"
    assert d["summary"] == "Player 2 should win by 2 in 10"
    assert [h["chart_after"] for h in d["history"]] == [2.0, -2.0]


@pytest.mark.parametrize("target,query,status,words", [
    ("chess", {}, 404, "no game 'chess'"),
    ("connect4(width=0)", {}, 422, "width must be at least 1"),
    ("othello(size=6)", {}, 422, "too big for the page"),  # 7x6 Connect Four is live
    ("domineering", {}, 422, "domineering(rows=8, cols=8) (the catalog's default for "
     "'domineering') is too big for the page: Domineering here takes rows x cols at most 25 "
     "(5x5), and opens domineering(rows=4, cols=4)"),
    ("connect4(depth=3)", {}, 422, "no parameter 'depth'"),
    ("connect4(width=__import__('os'))", {}, 422, "must be literals"),
    ("nim(heaps=(30, 30, 30, 30))", {}, 422, "at most 200,000"),
    ("tictactoe", {"p": "not a key!"}, 422, "is not a position"),
    ("tictactoe", {"p": "12345678901"}, 422, "not one"),
    ("tictactoe", {"moves": "a1,a1"}, 422, "move 2 ('a1') is not legal there"),
    ("tictactoe", {"moves": "z9"}, 422, "legal: "),
    ("tictactoe", {"moves": ",".join(["a1"] * 1001)}, 422, "at most 1,000"),
    ("tictactoe", {"strength": "2"}, 422, "strength must be a number from 0 to 1"),
    # a full column's name is refused, not read as the move numbered so (the next column)
    ("connect4(width=4, height=4)", {"moves": "1,1,1,1,1"}, 422,
     "move 5 ('1') is not legal there; legal: 2, 3, 4"),
])
def test_bad_requests_get_a_4xx_and_a_message(client, target, query, status, words):
    r = client.get(_url(target, **query))
    assert r.status_code == status, r.text
    assert words in r.json()["detail"]
    answers.Problem.model_validate_json(r.content, strict=True)


def test_the_schema_documents_the_routes_and_their_answers(client):
    doc = client.get("/api/schema").json()
    op = doc["paths"]["/api/games/{target}/position"]["get"]
    assert [p["name"] for p in op["parameters"]] == ["target", "p", "moves", "strength",
                                                     "seed"]
    for route in ("analysis", "read"):
        assert f"/api/games/{{target}}/{route}" in doc["paths"]
    read = doc["paths"]["/api/games/{target}/read"]["get"]["responses"]["200"]
    check(client.get("/api/games/tictactoe/read?text=b2,a1").json(),
          read["content"]["application/json"]["schema"], doc)
    for path, url in (("/api/games/{target}/position", _url("tictactoe", moves="b2")),
                      ("/api/games", "/api/games")):
        schema = doc["paths"][path]["get"]["responses"]["200"]["content"][
            "application/json"]["schema"]
        check(client.get(url).json(), schema, doc)
    assert "/api/games/{target}/position" in client.get("/docs").text


def test_the_summary_words():
    assert summary(2, 9, True, 0, False, 0.0) == "Player 1 should win by 2 in 9"
    assert summary(0, 0, True, 1, True, -3.0) == "Game over: Player 2 won by 3"
    assert summary(Value.DRAW, None, False, None, False, 0.0) == \
        "The player to move should draw"


def test_the_served_game_is_explored_under_its_name():
    """``serve --game tictactoe``: its solution, already solved, is answered in the server
    (no worker: the client starts none) under ``tictactoe-served``."""
    solved = solve(load_catalog_target("tictactoe"), method="python")
    c = TestClient(create_app(gamesman=solved, gamesman_id="tictactoe"))
    games = c.get("/api/games").json()["games"]
    assert games[-1]["name"] == "tictactoe-served" and games[-1]["kind"] == "served"
    assert games[-1]["offers"] == ["explore"] and games[-1]["script"] == "/page/tictactoe.js"
    d = c.get(_url("tictactoe-served", moves="b2")).json()
    _agrees(d, solved, load_catalog_target("tictactoe").play(solved.start, 4))
    assert d["title"] == registry.get_catalog("tictactoe").title + " (served)"


@pytest.mark.browser
def test_the_served_game_has_its_tab_on_the_page():
    """In a browser (tests/browser.py), ``serve --game tictactoe``: its solution (solved
    once, at start) gets the last tab, under its name (``tictactoe-served``: the catalog's
    own tab keeps ``tictactoe``), and plays as the catalog's games do."""
    solved = solve(load_catalog_target("tictactoe"), method="python")
    with served_page(gamesman=solved, gamesman_id="tictactoe") as p:
        p.set_default_timeout(120_000)
        p.wait_for_selector("body[data-catalog-ready='1']")
        names = [b.get_attribute("data-catalog")
                 for b in p.query_selector_all("#catalog-tabs button")]
        assert names == [e.name for e in registry.catalog()] + ["tictactoe-served"]
        p.click("#catalog-tabs button[data-catalog=tictactoe-served]")
        sec = "#tab-cat-tictactoe-served"
        p.wait_for_selector(f"{sec}.active[data-ply='0']")
        # drawn with the catalog's tic-tac-toe grid (the game's board, found through the
        # catalog game it is an instance of), not as its text
        assert p.query_selector(f"{sec} table.cells td[data-cell=a1]") is not None
        assert p.query_selector(f"{sec} pre.board") is None
        p.click(f"{sec} .movebtn[data-move=a1]")
        p.wait_for_selector(f"{sec}[data-ply='2']")
        assert "a1" in p.text_content(f"{sec} .history")


def test_a_shared_position_string_keeps_whose_turn_it_is(client):
    """Tic-tac-toe has no ``player`` hook: an answer's position string carries the turn
    (``~2_KEY``), so the position sent back as ``p=`` is "Player 2 ...", as with ``moves=``;
    a bare key is not known to be anyone's turn."""
    by_moves = client.get(_url("tictactoe", moves="b2")).json()
    assert by_moves["turn"] == "second" and by_moves["position"].rpartition("~")[2] == \
        f"2_{by_moves['key']}"
    again = client.get(_url("tictactoe", p=by_moves["position"])).json()
    assert (again["turn"], again["summary"]) == ("second", by_moves["summary"])
    assert again["summary"].startswith("Player 2 ")
    one_more = client.get(_url("tictactoe", p=by_moves["position"], moves="a1")).json()
    assert one_more["turn"] == "first"
    bare = client.get(_url("tictactoe", p=by_moves["key"])).json()
    assert bare["turn"] is None and bare["summary"].startswith("The player to move ")
    start = client.get(_url("tictactoe")).json()  # a bare key of the start: player 1's turn
    assert client.get(_url("tictactoe", p=start["key"])).json()["turn"] == "first"


@pytest.mark.parametrize("query", [{}, {"p": "abc"}])
def test_the_live_stream_sends_a_solved_game_to_position(client, query):
    """``/analysis`` streams the live search of the games too big to solve; for one the
    page solves it says to ask ``/position``, not that the game is too big."""
    r = client.get(f"/api/games/{quote('tictactoe', safe='')}/analysis", params=query)
    assert r.status_code == 422
    assert r.json()["detail"].startswith("tictactoe is solved on the page, not searched "
                                         "live: its /position answers every move's value")
