"""Games too big to solve on the page, answered live (web/live.py), a store served as by
``serve --store``, the paste box, the computer's strength and a phone-sized window, in a
real browser (Chromium through Playwright, see tests/browser.py): one server and one
browser for the module.

- standard Connect Four (7x6) opened from its URL at Pascal Pons' published test positions
  (tests/data/connect4, his sets as Steininger's solver ships them): the position's value
  and remoteness, from the seven moves the page shows, are Pons' score (converted by
  ``from_pons_score``), and at end-game positions each of the seven moves is checked
  against an independent solve of the Python twin (ConnectFourPy, no search);
- a new position cancels the old search for real: the empty board's analysis (a minute or
  more of search) abandoned, the next position is answered at once by the same worker;
- Kalah(6, 1) with its endgame store, on the same path, every move as the store holds it;
- a Connect Four 4x4 store built by ``solve_tiered`` and served: moves played on its tab,
  every value against ``solve``;
- pasted positions (Pons' digits, a tic-tac-toe board, a bad paste's message; text typed
  while an analysis streams in is kept), a weaker
  computer, and a 390x844 window with nothing wider than the screen.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest

from browser import need_chromium, served_page
from perfectplay import solve
from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.catalog.connect4.notation import from_pons_score
from perfectplay.catalog.connect4.twin import ConnectFourPy
from perfectplay.engine import Value
from perfectplay.engine.protocol import Score
from perfectplay.engine.solved.solution import move_name
from perfectplay.engine.target import load_catalog_target
from perfectplay.store import open_store, solve_tiered
from perfectplay.web.gamescrafters import value_word

pytestmark = pytest.mark.browser

C7 = "connect4(width=7, height=6)"
KALAH = "kalah(houses=6, seeds=1, empty_capture=True)"
DATA = Path(__file__).parent / "data" / "connect4"


@pytest.fixture(scope="module")
def page(tmp_path_factory, client):
    need_chromium()  # skipped (failed under CI) before the stores are built: 20 s
    root = tmp_path_factory.mktemp("stores")
    solve_tiered(ConnectFour(4, 4), root / "c4", client=client)
    kalah = load_catalog_target(KALAH)
    solve_tiered(kalah, root / "kalah-eg", roots=kalah.endgame_positions(6), client=client)
    with open_store(root / "c4", ConnectFour(4, 4)) as store, \
            served_page(gamesman=store, gamesman_id="c4store",
                        live_stores=[str(root / "kalah-eg")]) as p:
        # the first live position compiles the 7x6 search in the server's worker (10-30 s
        # on a loaded machine), so the waits are longer than Playwright's 30 s
        p.set_default_timeout(180_000)
        p.wait_for_selector("body[data-catalog-ready='1']")
        p.stores = root
        yield p


def _at_ply(page, sec: str, ply: int, active: str = "") -> None:
    """Wait for the tab to show the position after ``ply`` moves; on a timeout, fail with
    what the tab shows instead (its error line, its ply), not Playwright's bare wait."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_selector(f"{sec}{active}[data-ply='{ply}']")
    except PlaywrightTimeout:
        raise AssertionError(f"{sec} never reached ply {ply}: it shows ply "
                             f"{page.get_attribute(sec, 'data-ply')!r}, error "
                             f"{page.text_content(f'{sec} .error')!r}") from None


def _base(page) -> str:
    return page.url.split("#")[0].rstrip("/")


def _open_url(page, target: str, moves: list[str], mode: str = "both") -> str:
    """Open ``target`` after ``moves`` from the page's URL (two people: no computer
    moves); the tab's selector."""
    name = target.split("(")[0]
    tail = f"&moves={quote(','.join(moves))}" if moves else ""
    page.goto(f"{_base(page)}/#play={quote(target)}{tail}&mode={mode}")
    page.reload()
    page.wait_for_selector("body[data-catalog-ready='1']")
    sec = f"#tab-cat-{name}"
    _at_ply(page, sec, len(moves), ".active")
    return sec


def _go(page, target: str, moves: list[str]) -> str:
    """Open another position on the tab already showing ``target`` (as a click, a paste
    or the URL does: the tab's ``open``), without loading the page again."""
    name = target.split("(")[0]
    sec = f"#tab-cat-{name}"
    page.evaluate("([name, target, moves]) => { const t = window.perfectplay.catalogTabs["
                  "name].tab; t.section.removeAttribute('data-ply'); "
                  "t.section.removeAttribute('data-analysed'); t.open(target, moves); }",
                  [name, target, moves])
    _at_ply(page, sec, len(moves), ".active")
    return sec


def _analysed(page, sec: str) -> dict[str, tuple[str, int | None, str]]:
    """Wait for the live analysis to finish; each move's (value, remoteness, margin) as
    the page's buttons show them."""
    page.wait_for_selector(f"{sec}[data-analysed='1']")
    error = page.text_content(f"{sec} .error")
    assert not error, error
    out = {}
    for b in page.query_selector_all(f"{sec} .movebtn"):
        rem = b.get_attribute("data-remoteness")
        out[b.get_attribute("data-move")] = (b.get_attribute("data-value"),
                                             int(rem) if rem else None,
                                             b.get_attribute("data-margin"))
    return out


def _pons(name: str, count: int, plies: int) -> list[tuple[str, int]]:
    """The first ``count`` positions of a Pons set with at least ``plies`` stones."""
    out = []
    for line in (DATA / name).read_text().splitlines():
        moves, score = line.split()
        if len(moves) >= plies:
            out.append((moves, int(score)))
    return out[:count]


class _From:
    """The Python twin from a given position (the twin's start is the empty board)."""

    def __init__(self, twin: ConnectFourPy, start: tuple[str, ...]) -> None:
        self.twin, self.start = twin, start
        self.moves, self.play, self.outcome = twin.moves, twin.play, twin.outcome

    def initial(self) -> tuple[str, ...]:
        return self.start


def _best(moves: dict[str, tuple[str, int | None, str]]) -> tuple[str, int | None]:
    words = {"win": Value.WIN, "lose": Value.LOSE, "tie": Value.TIE, "draw": Value.DRAW}
    value, rem, _ = max(moves.values(), key=lambda m: Score(words[m[0]], m[1]))
    return value, rem


def test_pons_positions_from_their_urls(page):
    """Two end-game positions (36+ stones: every move checked by the twin's exhaustive
    solve) and two middle-game ones (20+ stones: the position's value and remoteness,
    the best of the seven moves, against Pons' score)."""
    twin = ConnectFourPy(7, 6)
    cases = _pons("7x6_endgame_L1.txt", 2, 30) + _pons("7x6_midgame_L1.txt", 2, 20)
    for k, (moves, score) in enumerate(cases):
        names = [str(int(c) + 1) for c in moves]  # Pons' 1-based names
        sec = _open_url(page, C7, names) if k == 0 else _go(page, C7, names)
        shown = _analysed(page, sec)
        value, rem = from_pons_score(score, len(moves))
        assert _best(shown) == (value.value, rem), moves
        if k == 0:  # the size inputs show the board opened from the URL, not the 4x4
            assert [page.input_value(f"{sec} #cat-connect4-{p}") for p in ("width", "height")
                    ] == ["7", "6"]
        if k == 0:  # a line never analysed here: its history fills in, the latest move first
            page.wait_for_function("(sel) => { const li = document.querySelectorAll(sel); "
                                   "return li.length && li[li.length - 1].textContent"
                                   ".includes('->'); }", arg=f"{sec} .history li")
            assert page.text_content(f"{sec} .history li:last-child").startswith(
                f"Player {2 - len(moves) % 2} {names[-1]}: ")
        assert page.text_content(f"{sec} .summary").endswith(
            f"should {value.value} in {rem}")
        pos = twin.initial()
        for c in moves:
            pos = twin.play(pos, int(c))
        assert sorted(shown) == [move_name(twin, c) for c in twin.moves(pos)]
        if len(moves) >= 30:  # a few empty cells: the twin solves each child exhaustively
            solved = solve(_From(twin, pos), method="python", progress=False)
            for mv in solved.move_values(pos):
                assert shown[move_name(twin, mv.move)][:2] == (mv.value.value,
                                                               mv.remoteness), moves


def _pons_analysis() -> list[tuple[str, list[int]]]:
    """(moves, 1-indexed; the score of each of the seven columns, -1000 full) of
    ``7x6_pons_analysis.txt``: Pons' solver's ``-a`` output (data/connect4/README.md)."""
    out = []
    for line in (DATA / "7x6_pons_analysis.txt").read_text().splitlines():
        moves, *scores = line.split()
        out.append((moves, [int(s) for s in scores]))
    return out


def test_every_move_of_pons_positions_from_their_urls(page):
    """Four middle-game positions opened from their URLs: each of the seven moves' value
    and remoteness as the page shows it is Pons' solver's score of that move (every move,
    not only the best; a full column is not offered)."""
    for k, (moves, scores) in enumerate(_pons_analysis()):
        names = list(moves)  # Pons' columns are the page's move names, 1..7
        sec = _open_url(page, C7, names) if k == 0 else _go(page, C7, names)
        shown = _analysed(page, sec)
        want = {str(c + 1): tuple(x.value if i == 0 else x for i, x in
                                  enumerate(from_pons_score(s, len(moves))))
                for c, s in enumerate(scores) if s != -1000}
        assert {m: shown[m][:2] for m in shown} == want, moves


def _lines(url: str, timeout: float):
    return urllib.request.urlopen(url, timeout=timeout)


def test_a_new_position_cancels_the_old_search(page):
    """The empty board's analysis takes a minute or more: abandoned after a second, the
    next position is answered at once, by the same worker process (its search stopped;
    it was not killed and replaced)."""
    base = f"{_base(page)}/api/games/{quote(C7)}/analysis"
    moves, score = _pons("7x6_midgame_L1.txt", 1, 20)[0]
    quick = f"{base}?moves={','.join(str(int(c) + 1) for c in moves)}"
    with _lines(quick, 180) as r:  # the search compiled (once a worker: no event stops it)
        r.read()
    workers = {p.pid for p in multiprocessing.active_children()}
    slow = _lines(base, 30)
    time.sleep(1.0)
    slow.close()  # the page aborts its request the same way
    started = time.monotonic()
    with _lines(quick, 60) as r:
        lines = [json.loads(line) for line in r]
    seconds = time.monotonic() - started
    done = lines[-1]
    assert done["kind"] == "done" and done["exact"], lines[-3:]
    value, rem = from_pons_score(score, len(moves))
    assert (done["value"], done["remoteness"]) == (value.value, rem)
    assert seconds < 10, f"{seconds:.1f} s: the abandoned search held the worker"
    assert {p.pid for p in multiprocessing.active_children()} == workers
    with pytest.raises(urllib.error.HTTPError) as bad:  # checked before the stream starts
        _lines(f"{base}?moves=4,4,4,4,4,4,4", 60)
    assert bad.value.code == 422
    assert "move 7 ('4') is not legal there" in json.loads(bad.value.read())["detail"]


def _within(game, seeds: int, rng: random.Random) -> list[str]:
    """Moves of random play from the start to a position, not over, with at most
    ``seeds`` seeds left in the houses."""
    while True:
        pos, names = game.initial(), []
        while game.outcome(pos) is None and list(game.moves(pos)):
            if sum(game.houses_of(pos)[0]) <= seeds:
                return names
            move = rng.choice(list(game.moves(pos)))
            pos, names = game.play(pos, move), names + [move_name(game, move)]


def test_kalah_with_its_endgame_store(page):
    """Kalah(6, 1) is beyond the page's solve budget (6 houses): it is answered live, on
    the same streaming path as Connect Four, with its endgame store (every position with at
    most 6 seeds in the houses, built by solve_tiered) read before any search: at a
    position of random play within it, every move comes from the store ("store") with the
    margin and remoteness the store holds for it. (The search that reads the store at its
    leaves is checked against solve in tests/test_live.py; here the page's path.)"""
    game = load_catalog_target(KALAH)
    played = _within(game, 6, random.Random(3))
    sec = _open_url(page, KALAH, played)
    page.wait_for_selector(f"{sec}[data-analysed='1']")
    pos = game.initial()
    for name in played:
        pos = game.play(pos, next(m for m in game.moves(pos) if move_name(game, m) == name))
    with open_store(page.stores / "kalah-eg", game) as store:
        want = {move_name(game, mv.move): (value_word(mv.value, True), str(mv.value),
                                           str(mv.remoteness), "store")
                for mv in store.move_values(pos)}
    shown = {b.get_attribute("data-move"): (b.get_attribute("data-value"),
                                            b.get_attribute("data-margin"),
                                            b.get_attribute("data-remoteness"),
                                            b.get_attribute("data-source"))
             for b in page.query_selector_all(f"{sec} .movebtn")}
    points = page.evaluate("window.perfectplay.catalogTabs.kalah.tab.data.points")
    assert shown == want, (played, points)


def test_a_served_store_plays_on_its_tab(page):
    """The Connect Four 4x4 store (solve_tiered), served as ``serve --store`` serves it,
    gets its own tab; six moves played by its buttons, every move's value and remoteness
    on the way is solve's."""
    game = ConnectFour(4, 4)
    solved = solve(game, method="graph", progress=False)
    sec = _open_url(page, "c4store", [])
    # drawn with the catalog's Connect Four board (a store of a catalog game), not as text
    assert page.query_selector(f"{sec} table.c4[data-board='connect4']") is not None
    pos = solved.start
    for k in range(6):
        want = {move_name(game, mv.move): (value_word(mv.value, False), str(mv.remoteness))
                for mv in solved.move_values(pos)}
        shown = {b.get_attribute("data-move"): (b.get_attribute("data-value"),
                                                b.get_attribute("data-remoteness"))
                 for b in page.query_selector_all(f"{sec} .movebtn")}
        assert shown == want
        name = sorted(want)[k % len(want)]  # not always the best
        page.click(f"{sec} .movebtn[data-move='{name}']")
        _at_ply(page, sec, k + 1)
        pos = game.play(pos, int(name) - 1)


def test_pasted_positions(page):
    """Standard Connect Four opened by the tab's own button; Pons' digits pasted there, a
    bad paste's line, a tic-tac-toe board."""
    sec = _open_url(page, "connect4(width=4, height=4)", [])
    page.click(f"{sec} .live-open")
    page.wait_for_selector(f"{sec} table.c4 td[data-cell='7,6']")
    assert page.text_content(f"{sec} .live-open") == f"Open {C7} (live)"
    page.fill(f"{sec} .typed", "4453")
    page.click(f"{sec} .go")
    _at_ply(page, sec, 4)
    assert page.input_value(f"{sec} .typed") == "4, 4, 5, 3"
    assert page.query_selector(f"{sec} td[data-cell='4,2'].O")
    assert page.query_selector(f"{sec} td[data-cell='3,1'].O")
    # typed while the analysis streams in: the next move's answer redraws the tab, and what
    # was typed stays (a redraw wrote the moves back into the box, and a paste went nowhere)
    page.fill(f"{sec} .typed", "4483")
    page.wait_for_selector(f"{sec} .movebtn:not([data-value=''])")
    assert page.input_value(f"{sec} .typed") == "4483"
    page.click(f"{sec} .go")
    page.wait_for_function(f"document.querySelector('{sec} .error').textContent !== ''")
    assert page.text_content(f"{sec} .error") == (
        "'4483' read as Pons' column digits (1 to 7, one a move): move 3 of '4483': '8' is "
        "not a column (1..7)")
    sec = _open_url(page, "tictactoe", [])
    page.fill(f"{sec} .typed", "x.. .o. ..x")
    page.click(f"{sec} .go")
    page.wait_for_selector(f"{sec} td[data-cell=c3].piece-X")
    assert page.text_content(f"{sec} td[data-cell=b2]") == "O"
    assert page.text_content(f"{sec} td[data-cell=a1]") == "X"
    assert page.text_content(f"{sec} .summary").endswith("should tie in 6")
    assert "&p=" in page.url


def test_a_weaker_computer_answers(page):
    """At strength 'random' the computer still answers each move (any legal one)."""
    sec = _open_url(page, "tictactoe", [], mode="first")
    page.select_option(f"{sec} .strength", "0")
    page.click(f"{sec} .movebtn[data-move=a1]")
    _at_ply(page, sec, 2)
    assert len(page.query_selector_all(f"{sec} .history li")) == 2


def test_a_phone_sized_window(page):
    """390x844: the 7x6 board and its move buttons fit without horizontal scrolling, and
    a move button plays."""
    phone = page.context.browser.new_page(viewport={"width": 390, "height": 844})
    phone.set_default_timeout(180_000)
    try:
        moves, _ = _pons("7x6_midgame_L1.txt", 1, 20)[0]
        phone.goto(page.url.split("#")[0])
        page_moves = [str(int(c) + 1) for c in moves]
        sec = _open_url(phone, C7, page_moves)
        _analysed(phone, sec)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide"
        for what in (f"{sec} table.c4", f"{sec} .movelist"):
            # read in one step: the tab redraws as the line's history fills in
            box = phone.eval_on_selector(what, "e => { const r = e.getBoundingClientRect(); "
                                               "return {x: r.x, width: r.width}; }")
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (what, box)
        name = phone.get_attribute(f"{sec} .movebtn >> nth=0", "data-move")
        phone.click(f"{sec} .movebtn[data-move='{name}']")
        phone.wait_for_selector(f"{sec}[data-ply='{len(page_moves) + 1}']")
    finally:
        phone.close()
