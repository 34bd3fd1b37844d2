"""The catalog's tabs in a real browser (Chromium through Playwright, see tests/browser.py):
Connect Four 4x4 played to the end against the perfect computer ends as the solved value
says, undo and redo, a position opened from its URL and from typed moves, and tic-tac-toe
played by its move buttons and its grid."""

from __future__ import annotations

import pytest

from browser import served_page
from perfectplay import registry, solve
from perfectplay.engine.target import load_catalog_target
from perfectplay.web.gamescrafters import value_word

pytestmark = pytest.mark.browser

C4 = "connect4(width=4, height=4)"


@pytest.fixture(scope="module")
def page():
    with served_page() as p:
        # a tab's first position solves its instance in the server's worker: Connect Four
        # 4x4 compiles its kernels first (about 6 s here, several times that on a loaded
        # machine), so the waits are longer than Playwright's 30 s
        p.set_default_timeout(120_000)
        p.wait_for_selector("body[data-catalog-ready='1']")
        yield p


def _open(page, name: str) -> None:
    page.click(f"#catalog-tabs button[data-catalog={name}]")
    _ply(page, name, None)


def _ply(page, name: str, plies: int | None) -> None:
    """Wait until the tab shows the position after ``plies`` moves (any, for None); a
    refusal shown instead fails at once with its words."""
    at = "" if plies is None else f"='{plies}'"
    page.wait_for_selector(f"#tab-cat-{name}.active[data-ply{at}]")
    error = page.text_content(f"#tab-cat-{name} .error")
    assert not error, error


def test_the_catalog_tabs_follow_the_seed_games(page):
    names = [b.get_attribute("data-catalog")
             for b in page.query_selector_all("#catalog-tabs button")]
    assert names == [e.name for e in registry.catalog()]
    assert page.query_selector_all("#tabs button")  # the seed games' tabs are still there


def test_connect4_against_the_perfect_computer_ends_as_solved(page):
    """The human (here) drops every disc by clicking a column of the board, always a best
    move; the computer answers perfectly: the game ends in the solved value (a tie)."""
    _open(page, "connect4")
    sec = "#tab-cat-connect4"
    page.click(f"{sec} .restart")
    _ply(page, "connect4", 0)
    plies = 0
    while not page.text_content(f"{sec} .summary").startswith("Game over"):
        best = page.get_attribute(f"{sec} .movebtn.best", "data-move")
        page.click(f"{sec} table.c4 th[data-column='{best}']")  # a click on the column
        page.wait_for_function(f"Number(document.querySelector('{sec}').dataset.ply) > "
                               f"{plies}")
        plies = int(page.get_attribute(sec, "data-ply") or 0)
    solved = value_word(solve(load_catalog_target(C4), method="python").value(), False)
    assert solved == "tie"
    assert page.text_content(f"{sec} .summary") == "Game over: a tie"
    assert plies == 16 and page.query_selector_all(f"{sec} table.c4 td.X")
    assert not page.query_selector_all(f"{sec} .history li.mistake")
    assert page.query_selector(f"{sec} svg.chart")


def test_undo_and_redo(page):
    _open(page, "connect4")
    sec = "#tab-cat-connect4"
    page.click(f"{sec} .restart")
    _ply(page, "connect4", 0)
    for plies in (2, 4):
        page.click(f"{sec} .movebtn.best")
        _ply(page, "connect4", plies)
    board = page.inner_html(f"{sec} table.c4")
    page.click(f"{sec} .undo")  # the computer's reply and the human's move
    _ply(page, "connect4", 2)
    page.click(f"{sec} .redo")
    _ply(page, "connect4", 4)
    assert page.inner_html(f"{sec} table.c4").replace(" new", "") == board.replace(" new", "")


def test_a_url_opens_its_position_and_typed_moves_go_there(page):
    base = page.url.split("#")[0]
    page.goto(f"{base}#play={C4.replace(' ', '%20')}&moves=1,2")
    page.reload()
    page.wait_for_selector("body[data-catalog-ready='1']")
    sec = "#tab-cat-connect4"
    _ply(page, "connect4", 2)
    assert page.is_visible(sec)
    assert page.input_value(f"{sec} .typed") == "1, 2"
    assert page.query_selector(f"{sec} td[data-cell='1,1'].X")
    assert page.query_selector(f"{sec} td[data-cell='2,1'].O")
    page.fill(f"{sec} .typed", "3 3 3")  # X to move after three: the computer answers
    page.click(f"{sec} .go")
    _ply(page, "connect4", 4)
    assert "moves=3%2C3%2C3%2C" in page.url


def test_tictactoe_plays_by_its_move_buttons_and_its_grid(page):
    """Every legal move is a button named by the game (a1 .. c3) in its value's colour;
    the grid (tic-tac-toe's page.js) plays a cell by a click too."""
    _open(page, "tictactoe")
    sec = "#tab-cat-tictactoe"
    names = [b.get_attribute("data-move")
             for b in page.query_selector_all(f"{sec} .movebtn")]
    assert sorted(names) == sorted(f"{c}{r}" for c in "abc" for r in "123")
    assert len(page.query_selector_all(f"{sec} .movebtn.v-tie")) == 9  # every first move ties
    page.click(f"{sec} .movebtn[data-move=b2]")
    _ply(page, "tictactoe", 2)
    assert "Player 1 should tie" in page.text_content(f"{sec} .summary")
    free = page.get_attribute(f"{sec} table.cells td.legal", "data-cell")
    page.click(f"{sec} table.cells td[data-cell={free}]")
    _ply(page, "tictactoe", 4)
    assert page.text_content(f"{sec} table.cells td[data-cell=b2]") == "X"
    assert page.text_content(f"{sec} table.cells td[data-cell={free}]") == "X"
    assert "b2" in page.text_content(f"{sec} .history")



def test_domineering_places_a_domino_by_a_click(page):
    """Domineering's board (its page.js): a click on a cell places Vertical's domino from it
    upward; the computer answers with Horizontal's: two dominoes lie on the board, the
    first over a1 and a2."""
    _open(page, "domineering")
    sec = "#tab-cat-domineering"
    assert not page.query_selector_all(f"{sec} svg.domineering .domino")
    page.click(f"{sec} svg.domineering g[data-cell=a1]")
    _ply(page, "domineering", 2)
    dominoes = [r.get_attribute("data-domino")
                for r in page.query_selector_all(f"{sec} svg.domineering .domino")]
    assert dominoes[0] == "a1-a2" and len(dominoes) == 2
    assert page.query_selector(f"{sec} .domino.vertical") and page.query_selector(
        f"{sec} .domino.horizontal")
    assert page.text_content(f"{sec} .history li").startswith("Player 1 a1-a2")


def test_kalah_sows_by_a_click_and_keeps_every_seed(page):
    """Kalah's board (its page.js): houses and stores; a click on a house of the player to
    move sows it; whatever the computer answers, the 18 seeds of Kalah(3, 3) are all on
    the board, in houses or stores."""
    _open(page, "kalah")
    sec = "#tab-cat-kalah"
    assert page.text_content(f"{sec} [data-store=south] text.seeds") == "0"
    page.click(f"{sec} g.house.legal >> nth=0")
    page.wait_for_function(f"Number(document.querySelector('{sec}').dataset.ply) > 0")
    seeds = [int(t.text_content())
             for t in page.query_selector_all(f"{sec} svg.kalah text.seeds")]
    assert sum(seeds) == 18 and len(seeds) == 8
