"""The web page: the JSON API through Starlette's test client (good and bad requests), and
whole games played by clicking in a real Chromium driven by Playwright.

Browser tests find Chromium at $PERFECTPLAY_CHROMIUM or as ``chromium`` on PATH; without
one they are skipped with that reason, except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from browser import served_page  # noqa: E402
from perfectplay import coins, registry  # noqa: E402
from perfectplay.web.app import MAX_SIDE, create_app  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ROCK = (EXAMPLES / "rock_sample.txt").read_text()


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


# -- the API ----------------------------------------------------------------------------------
def test_page_and_assets_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "perfectplay" in page.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/style.css").headers["content-type"].startswith("text/css")
    assert client.get("/static/../app.py").status_code == 404


def test_analyze_answers_what_the_cli_answers(client):
    d = client.post("/api/games/coins/analyze",
                    json={"row": [7, 9, 2, 6, 4, 3], "table": True}).json()
    want = coins.analyze([7, 9, 2, 6, 4, 3], table=True)
    assert d["result"] == want.to_json() and d["explanation"] == want.explain()
    d = client.post("/api/games/rock/analyze", json={"text": ROCK}).json()
    assert d["result"]["value"] == 11 and d["grid"] == ["..X.", ".##.", ".E.."]
    d = client.post("/api/games/portal/analyze", json={"text": "O..\n.#.\n..O"}).json()
    assert d["result"]["winner"] == "Alif" and d["result"]["cut"] == []
    d = client.post("/api/games/no/analyze",
                    json={"text": (EXAMPLES / "no_seed.txt").read_text()}).json()
    assert d["result"]["distance"] == 3 and d["result"]["nearest"] == [0, 3, 4]
    # the old names are gone, not aliased (CHANGELOG.md): the game, the option, the routes
    old = client.post("/api/games/nearest/analyze",
                      json={"text": (EXAMPLES / "no_seed.txt").read_text()})
    assert old.status_code == 404 and "unknown game 'nearest'" in old.json()["detail"]
    old = client.post("/api/games/no/analyze",
                      json={"text": (EXAMPLES / "no_seed.txt").read_text(), "all": True})
    assert old.status_code == 422 and "all: Extra inputs" in old.json()["detail"]
    assert client.post("/api/coins/analyze", json={"row": [1, 2]}).status_code == 404
    for gone in ("/api/catalog", "/api/explore/tictactoe/position", "/page/catalog/kalah.js"):
        assert client.get(gone).status_code == 404, gone


def _games() -> list[str]:
    return [spec.name for spec in registry.games("seed")]


@pytest.mark.parametrize("game", _games())
def test_every_game_answers_its_example_as_analyze_does(client, game):
    """Every registered game's example body answers what analyze() answers in this
    process: the result, its explanation and its drawing."""
    from perfectplay.web.app import analyze

    spec = registry.get(game)
    r = client.post(f"/api/games/{game}/analyze", json=spec.example_body())
    assert r.status_code == 200, r.text
    want = analyze(game, spec.example_body())
    assert r.json()["explanation"] == want["explanation"]
    assert r.json()["drawing"] == want["drawing"]
    result = spec.analyze(*_instance_and_options(spec, spec.example_body()))
    assert r.json()["explanation"] == result.explain()


def _instance_and_options(spec, body):
    values = {k: v for k, v in body.items() if k not in ("text", "row")}
    opts = spec.make_options(values)
    if "row" in body:
        assert spec.from_values is not None
        return spec.from_values(body["row"], opts), opts
    return spec.parse(body["text"], opts), opts


@pytest.mark.parametrize("game", _games())
def test_every_game_has_a_tab_from_the_registry(client, game):
    """/api/games is the page's list of tabs: every registered game, in the registry's
    order, with its tab, its start body (valid for its analyze body) and its controls; its
    board code, when it has some, is served."""
    from perfectplay.web.app import body_model

    games = client.get("/api/games").json()["games"]
    assert [g["name"] for g in games if g["kind"] == "seed"] == _games()
    entry = next(g for g in games if g["name"] == game)
    page = entry["page"]
    assert page["tab"] and page["intro"] and len(page["sides"]) == 2
    body_model(game).model_validate(page["start"])
    assert {c["name"] for c in page["controls"]} <= set(entry["analyze"]["properties"])
    if entry["script"] is not None:
        r = client.get(entry["script"])
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
        assert f"boards.{game}" in r.text or f'boards["{game}"]' in r.text


def test_a_whole_coins_game_through_the_api(client):
    row, moves = [3, 2, 2, 3, 1, 2], []
    while True:
        d = client.post("/api/games/coins/play", json={"row": row, "moves": moves,
                                                 "humans": [0]}).json()
        moves = [h["name"] for h in d["history"]]
        if d["over"]:
            break
        best = [m for m in d["moves"] if m["best"]]
        assert {"name", "value", "remoteness", "describe"} <= set(d["moves"][0])
        moves.append(best[0]["name"])
    assert "first player 8" in d["verdict"] and not any(h["mistake"] for h in d["history"])
    assert [h["by"] for h in d["history"]] == ["human", "computer"] * 3


@pytest.mark.parametrize("game, body, words", [
    ("coins", {"row": []}, "row"),
    ("coins", {"row": [1.5]}, "integer"),
    ("coins", {"row": [1, 2], "extra": 1}, "extra"),
    ("coins", {"row": [1] * 100_001}, "100000"),
    ("rock", {"text": "E" + "." * MAX_SIDE + "X"}, "up to 300 x 300"),
    ("rock", {"text": "E..\n..."}, "exactly one"),
    ("portal", {"text": "O.O", "kind": "tri"}, "kind"),
    ("no", {"text": ""}, "text"),
])
def test_bad_analyze_requests_get_422_and_a_message(client, game, body, words):
    r = client.post(f"/api/games/{game}/analyze", json=body)
    assert r.status_code == 422 and words.lower() in r.json()["detail"].lower()


def test_bad_play_requests(client):
    r = client.post("/api/games/coins/play", json={"row": [1, 2], "moves": ["Z"]})
    assert r.status_code == 422 and "not legal here; legal: R(2), L(1)" in r.json()["detail"]
    r = client.post("/api/games/no/play", json={"text": "A*"})
    assert r.status_code == 422 and "not a two-player game" in r.json()["detail"]
    r = client.post("/api/games/rock/play", json={"row": [1]})
    assert r.status_code == 422 and "row: Extra inputs are not permitted" in r.json()["detail"]
    r = client.post("/api/games/rock/play", json={})
    assert r.status_code == 422 and "needs 'text'" in r.json()["detail"]
    assert client.post("/api/games/chess/analyze", json={}).status_code == 404
    assert client.get("/page/chess.js").status_code == 404
    r = client.post("/api/games/coins/analyze", content=b"{not json")
    assert r.status_code == 422 and "not JSON" in r.json()["detail"]
    r = client.post("/api/games/coins/analyze", content=b" " * 1_000_001)
    assert r.status_code == 413 and "limit" in r.json()["detail"]


# -- hostile bodies and heavy requests ---------------------------------------------------------
HOSTILE = [
    (b"[" * 100_000 + b"]" * 100_000, 422, "nests too deeply"),
    # past the decoder's depth, or (when a test raised the recursion limit) a wrong type
    (b'{"row": [' + b"[" * 5000 + b"]" * 5000 + b"]}", 422, "nests too deeply|row.0"),
    (b'{"row": [' + b"9" * 5000 + b"]}", 422, "5,000 digits"),
    (b'{"row": [' + b"9" * 900_000 + b"]}", 422, "900,000 digits"),
    (b'{"row": [1e999999]}', 422, "row"),
    (b'{"text": "' + b"x" * 900_000 + b'"}', 422, "900,000 characters"),
    (b'{"row": [1, 2, \xff]}', 422, "not JSON"),
    (b"\xef\xbb\xbf{}", 422, "needs 'row'"),  # a UTF-8 BOM is read as UTF-8
    (b'{"row": "1 2 3"}', 422, "row"),
    (b'{"row": [1, 2], "moves": {"a": 1}}', 422, "moves"),
    (b'{"row": [true, null]}', 422, "row"),
    (b'"just a string"', 422, "JSON object"),
    (b"\x00" * 1000, 422, "not JSON"),
]


@pytest.mark.parametrize("body, status, words", HOSTILE,
                         ids=[f"hostile{k}" for k in range(len(HOSTILE))])
def test_hostile_bodies_get_4xx_and_the_server_lives(client, body, status, words):
    sys.set_int_max_str_digits(0)  # as `perfectplay serve` leaves it: the page keeps its own
    r = client.post("/api/games/coins/play" if b"moves" in body else "/api/games/coins/analyze",
                    content=body, headers={"content-type": "application/json"})
    detail = r.json()["detail"]
    assert r.status_code == status and any(w in detail for w in words.split("|")), detail
    assert client.post("/api/games/coins/analyze", json={"row": [1, 2]}).status_code == 200


def test_a_body_over_the_limit_is_refused_before_it_is_read(client):
    # the header alone says too much: 413 without the body being sent whole
    r = client.post("/api/games/rock/analyze", content=b"{}",
                    headers={"content-length": "2000000000"})
    assert r.status_code == 413 and "2,000,000,000 bytes" in r.json()["detail"]

    def chunks():  # no Content-Length: read up to the limit, then stop
        for _ in range(300):
            yield b" " * 10_000

    r = client.post("/api/games/rock/analyze", content=chunks())
    assert r.status_code == 413 and "over 1,000,000 bytes" in r.json()["detail"]
    r = client.post("/api/games/rock/analyze", content=b"{}", headers={"content-length": "x1"})
    assert r.status_code in (400, 422)


def test_a_maze_counts_its_rows_without_the_judges_header(client):
    rows = ["E" + "." * (MAX_SIDE - 1)] + ["." * MAX_SIDE] * (MAX_SIDE - 2) + \
        ["." * (MAX_SIDE - 1) + "X"]
    r = client.post("/api/games/rock/analyze", json={"text": f"{MAX_SIDE} {MAX_SIDE}\n" +
                                               "\n".join(rows)})
    assert r.status_code == 200, r.text[:200]
    assert r.json()["result"]["rows"] == MAX_SIDE
    r = client.post("/api/games/rock/analyze", json={"text": "\n".join(rows + ["." * MAX_SIDE])})
    assert r.status_code == 422 and f"{MAX_SIDE + 1} x {MAX_SIDE}" in r.json()["detail"]


def test_the_favicon_is_there(client):
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg")
    assert client.get("/static/favicon.svg").status_code == 200


def test_heavy_requests_run_in_the_worker_under_a_cap_and_a_time_budget():
    from perfectplay.web.app import is_heavy

    side = 220  # 48,400 cells: past HEAVY_CELLS
    maze = "\n".join(["E" + "." * (side - 1)] + ["." * side] * (side - 2) +
                      ["." * (side - 1) + "X"])
    assert is_heavy("rock", {"text": maze}) and not is_heavy("rock", {"text": ROCK})
    king = "O" + "." * 6 + "\n" + "." * 7 + "\n" + "." * 6 + "O"  # 19 empty cells
    assert is_heavy("portal", {"text": king, "kind": "king"})  # an exact search
    assert not is_heavy("portal", {"text": king})  # square: the parity rule
    assert is_heavy("coins", {"row": list(range(3000)), "line": True})
    assert is_heavy("coins", {"row": list(range(300)), "moves": ["L"] * 200}, play=True)
    with TestClient(create_app(heavy_slots=1, heavy_seconds=60)) as c:
        r = c.post("/api/games/rock/analyze", json={"text": maze})
        assert r.status_code == 200 and r.json()["result"]["value"] == 2 * side - 2
        import json

        from perfectplay.web.app import analyze

        # the worker's answer is the one this process gives
        assert r.json() == json.loads(json.dumps(analyze("rock", {"text": maze})))
    board = "\n".join(["O" + "." * 39] + ["." * 40] * 38 + ["." * 39 + "O"])
    with TestClient(create_app(heavy_slots=1, heavy_seconds=2.0)) as c:
        t = time.perf_counter()
        r = c.post("/api/games/portal/play", json={"text": board})  # ~10 s of work: stopped
        assert r.status_code == 503 and r.headers["retry-after"] == "10"
        assert "longer than 2 s" in r.json()["detail"]
        assert time.perf_counter() - t < 20
        r = c.post("/api/games/rock/analyze", json={"text": maze})  # a fresh worker answers
        assert r.status_code == 200


def test_a_request_beyond_the_page_is_refused_at_once_with_its_limit(client):
    """Work the page could never finish within its budget is a 422 that says why and what
    the limit is, not a 503 after 30 s (a retry cannot help)."""
    king = "\n".join(["O" + "." * 7] + ["." * 8] * 6 + ["." * 7 + "O"])  # open 8x8 king
    square = "\n".join(["O" + "." * 119] + ["." * 120] * 118 + ["." * 119 + "O"])
    for path, body, words in [
            ("/api/games/portal/play", {"text": king, "kind": "king"}, "up to 23 cells"),
            ("/api/games/portal/analyze", {"text": king, "kind": "king"}, "up to 28 cells"),
            ("/api/games/portal/play", {"text": square}, "up to 2,000 cells")]:
        t = time.perf_counter()
        r = client.post(path, json=body)
        assert r.status_code == 422 and words in r.json()["detail"], r.text
        assert "perfectplay" in r.json()["detail"]  # where to run it instead
        assert time.perf_counter() - t < 5
    # within the limits it is answered as before
    small_king = "O...\n....\n...O"
    assert client.post("/api/games/portal/play", json={"text": small_king, "kind": "king"}
                       ).status_code == 200


def test_one_heavy_request_too_many_gets_503_at_once():
    import asyncio

    import httpx2 as httpx

    side = 220
    maze = "\n".join(["E" + "." * (side - 1)] + ["." * side] * (side - 2) +
                      ["." * (side - 1) + "X"])

    async def main():
        app = create_app(heavy_slots=1, heavy_seconds=60)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
                return await asyncio.gather(*[c.post("/api/games/rock/analyze",
                                                     json={"text": maze})
                                              for _ in range(3)])

    codes = sorted(r.status_code for r in asyncio.run(main()))
    assert codes[0] == 200 and codes[-1] == 503  # one runs, the others are told to wait
    assert all(r == 200 or r == 503 for r in codes)


# -- the browser -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser_page():
    with served_page() as page:
        yield page


def _shot(page, name: str, tmp_path: Path) -> None:
    folder = Path(os.environ.get("PERFECTPLAY_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


@pytest.mark.browser
def test_the_tabs_are_the_registrys_games(browser_page):
    """The page builds one tab per game of /api/games, in the registry's order, each with
    its Analyze button; the first is open."""
    page = browser_page
    tabs = [b.get_attribute("data-tab") for b in page.query_selector_all("#tabs button")]
    assert tabs == _games()
    for name in tabs:
        assert page.query_selector(f"#tab-{name} #{name}-analyze")
    assert page.query_selector(f"#tab-{tabs[0]}.active")


@pytest.mark.browser
def test_a_whole_portal_game_by_clicking(browser_page):
    page = browser_page
    page.click("button[data-tab=portal]")
    start = page.input_value("#portal-text")
    page.fill("#portal-text", "O..\n.#.\n..O")
    page.select_option("#portal-side", "0")
    page.click("#portal-play")
    for _ in range(10):
        page.wait_for_selector("#portal-game .verdict, #portal-game td.legal")
        if page.query_selector("#portal-game .verdict"):
            break
        best = page.inner_text("#portal-game ol.moves li.best").split(":")[0]
        count = len(page.query_selector_all("#portal-game td.legal"))
        page.click(f"#portal-game td[data-cell={best}]")
        page.wait_for_function(
            "n => document.querySelector('#portal-game .verdict') || "
            "document.querySelectorAll('#portal-game td.legal').length !== n", arg=count)
    assert "Alif wins" in page.inner_text("#portal-game .verdict")
    page.fill("#portal-text", start)  # the page as the other tests find it


@pytest.mark.browser
def test_a_whole_coins_game_by_clicking(browser_page, tmp_path):
    page = browser_page
    page.click("button[data-tab=coins]")
    page.fill("#coins-row", "3 2 2 3 1 2")
    page.click("#coins-analyze")
    page.wait_for_selector("#coins-table table")
    assert "guarantee 8" in page.inner_text("#coins-explain")
    page.click("#coins-play")
    for _ in range(10):
        page.wait_for_selector("#coins-game .verdict, #coins-game .coinrow button:not([disabled])")
        if page.query_selector("#coins-game .verdict"):
            break
        before = page.inner_text("#coins-game .totals")
        buttons = page.query_selector_all("#coins-game .coinrow button:not([disabled])")
        assert buttons and buttons[0].get_attribute("title")  # each move's value on hover
        best = page.inner_text("#coins-game ol.moves li.best").split(":")[0]
        side = "0" if best.startswith("L") else str(len(buttons) and -1)
        target = buttons[0] if side == "0" else buttons[-1]
        target.click()
        page.wait_for_function(
            "b => document.querySelector('#coins-game .verdict') || "
            "(document.querySelector('#coins-game .totals') || {}).innerText !== b", arg=before)
    verdict = page.inner_text("#coins-game .verdict")
    assert "first player 8" in verdict and "the first player wins" in verdict
    assert page.query_selector("#coins-game svg.chart")
    _shot(page, "coins", tmp_path)


@pytest.mark.browser
def test_a_whole_rock_game_by_clicking(browser_page, tmp_path):
    page = browser_page
    page.click("button[data-tab=rock]")
    page.fill("#rock-text", ROCK)
    page.select_option("#rock-brush", "E")  # the editor moves E to the clicked cell
    page.click("#rock-editor td[data-cell=a3]")
    edited = page.input_value("#rock-text").split("\n")
    assert edited[2].startswith("E") and sum(line.count("E") for line in edited) == 1
    page.select_option("#rock-brush", "#")
    page.click("#rock-editor td[data-cell=a2]")
    assert page.input_value("#rock-text").split("\n")[1].startswith("#")
    page.fill("#rock-text", ROCK)
    page.click("#rock-analyze")
    page.wait_for_selector("#rock-map table")
    assert page.inner_text("#rock-explain").startswith("11")
    page.click("#rock-play")
    for _ in range(40):
        page.wait_for_selector("#rock-game .verdict, #rock-game td.legal")
        if page.query_selector("#rock-game .verdict"):
            break
        best = page.inner_text("#rock-game ol.moves li.best").split(":")[0]
        count = len(page.query_selector_all("#rock-game ol.moves li"))
        page.click(f"#rock-game td[data-cell={best}]")
        page.wait_for_function(
            "n => document.querySelector('#rock-game .verdict') || "
            "document.querySelectorAll('#rock-game ol.moves li').length !== n || true",
            arg=count)
        page.wait_for_timeout(100)
    verdict = page.inner_text("#rock-game .verdict")
    assert "after 11 steps" in verdict and "the rock blocked" in verdict
    _shot(page, "rock", tmp_path)
    for game in ("portal", "no"):
        page.click(f"button[data-tab={game}]")
        page.click(f"#{game}-analyze")
        page.wait_for_selector(f"#{game}-map table")
        _shot(page, game, tmp_path)
    assert "Bella wins" in page.evaluate("document.querySelector('#portal-explain').innerText")


@pytest.mark.browser
def test_stepping_through_the_seeds_methods(browser_page, tmp_path):
    page = browser_page
    page.click("button[data-tab=coins]")
    page.fill("#coins-row", "7 9 2 6 4 3")
    page.click("#coins-seed")
    page.wait_for_selector("#coins-trace .stepper")
    assert "step 1 of 21" in page.inner_text("#coins-trace .count")
    assert page.inner_text("#coins-trace .step").startswith("P(1,1): one coin left")
    for _ in range(3):
        page.click("#coins-trace button.next")
    assert "step 4 of 21" in page.inner_text("#coins-trace .count")
    assert len(page.query_selector_all("#coins-trace td.set")) == 4
    page.click("#coins-trace button.last")
    assert page.inner_text("#coins-trace .step").startswith("P(1,6)")
    assert page.inner_text("#coins-trace td.now") == "18 j"
    page.click("#coins-trace button.first")
    assert "step 1 of 21" in page.inner_text("#coins-trace .count")
    _shot(page, "coins-seed", tmp_path)
    page.click("button[data-tab=rock]")
    page.fill("#rock-text", ROCK)
    page.click("#rock-seed")
    page.wait_for_selector("#rock-trace .stepper")
    assert page.inner_text("#rock-trace .step").startswith("precompute g")
    page.click("#rock-trace button.last")
    assert "nothing changed" in page.inner_text("#rock-trace .step")
    assert "the fast method" in page.inner_text("#rock-trace .cost")
    _shot(page, "rock-seed", tmp_path)


_TEXTS = ["..X.\n.##.\n.E..", "O..\n.#.\n..O", "A.*", "5\n1 1\n3 0\n2 3\n0 2\n4 4\n2\n",
          "", "E", "EX", "O.O", "3 4\n..X.\n.##.\n.E..", "\ufeffEX", "E\u00a0X", "##\n##"]


@settings(max_examples=150, deadline=None)
@given(game=st.sampled_from([spec.name for spec in registry.games("seed")]),
       what=st.sampled_from(["analyze", "play"]),
       body=st.fixed_dictionaries({}, optional={
           "row": st.one_of(st.lists(st.integers(-10**20, 10**20), max_size=8),
                            st.text(max_size=5), st.none()),
           "text": st.one_of(st.sampled_from(_TEXTS), st.text(max_size=30)),
           "kind": st.sampled_from(["square", "king", "hex", "tri", 3]),
           "moves": st.lists(st.sampled_from(["L", "R", "pass", "a1", "b2", "c3", "x", ""]),
                             max_size=6),
           "humans": st.lists(st.integers(-1, 2), max_size=3),
           "strength": st.floats(allow_nan=True, allow_infinity=True),
           "all": st.booleans(), "every": st.booleans(), "line": st.booleans(),
           "extra": st.integers()}))
def test_the_api_never_fails_on_any_body(game, what, body):
    import json

    client = TestClient(create_app())  # raises any unhandled server error here
    r = client.post(f"/api/games/{game}/{what}", content=json.dumps(body).encode(),
                    headers={"content-type": "application/json"})  # NaN, Infinity too
    assert r.status_code in (200, 422), (r.status_code, r.text)
    if r.status_code == 422:
        assert r.json()["detail"]


def test_the_api_documents_itself_and_every_example_body_works(client):
    """/api/schema is OpenAPI with every endpoint's body schema and an example; each example
    is valid for its schema and answers 200; /docs shows a curl line per endpoint."""
    from perfectplay.web.app import body_model

    doc = client.get("/api/schema").json()
    assert doc["openapi"].startswith("3.")
    for spec in registry.games("seed"):
        for kind in ("analyze", "play") if spec.play is not None else ("analyze",):
            op = doc["paths"][f"/api/games/{spec.name}/{kind}"]["post"]
            content = op["requestBody"]["content"]["application/json"]
            assert content["schema"]["properties"], (spec.name, kind)
            body_model(spec.name, play=kind == "play").model_validate(content["example"])
            r = client.post(f"/api/games/{spec.name}/{kind}", json=content["example"])
            assert r.status_code == 200, (spec.name, kind, r.text)
            extra = {"moves": []} if kind == "play" else {}
            assert content["example"] == {**spec.example_body(), **extra}
    page = client.get("/docs")
    assert page.status_code == 200 and page.text.count("curl -s ") == sum(
        len(ops) for ops in doc["paths"].values())
