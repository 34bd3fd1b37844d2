"""``perfectplay serve`` run as a user runs it (the command in its own process, as
tests/browser.py's ``cli_page`` starts it) and its page driven in Chromium:

- ``serve --game examples/tictactoe.py:TicTacToe``: a game written in Python, solved when
  the server starts, gets its own tab after the catalog's, drawn by its ``draw`` text with
  one button per move named by its ``move_name``; every move's value and remoteness on the
  way is the engine's solution's;
- ``serve --store DIR`` of an opening book (``perfectplay book``): its tab plays past the
  book's plies (the search answers there), every move as the strong solution says.

A SIGTERM ends the server with exit code 0 (``cli_page`` checks it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from browser import cli_page
from perfectplay import solve
from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.engine.solved.solution import move_name
from perfectplay.engine.target import load_target
from perfectplay.web.gamescrafters import value_word

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parent.parent


def _tab(page) -> str:
    """The served game's tab (the last one), opened for two people (no computer moves);
    its selector."""
    page.set_default_timeout(120_000)
    page.wait_for_selector("body[data-catalog-ready='1']")
    last = page.query_selector_all("#catalog-tabs button")[-1]
    name = last.get_attribute("data-catalog")
    last.click()
    sec = f"#tab-cat-{name}"
    page.wait_for_selector(f"{sec}.active[data-ply='0']")
    page.select_option(f"{sec} .mode", "both")
    return sec


def _shown(page, sec: str) -> dict[str, tuple[str | None, str | None]]:
    return {b.get_attribute("data-move"): (b.get_attribute("data-value"),
                                           b.get_attribute("data-remoteness"))
            for b in page.query_selector_all(f"{sec} .movebtn")}


def _wanted(game, solved, pos) -> dict[str, tuple[str, str]]:
    return {move_name(game, mv.move): (value_word(mv.value, False), str(mv.remoteness))
            for mv in solved.move_values(pos)}


def _play_along(page, sec: str, game, solved, plies: int) -> None:
    """Play ``plies`` moves by the tab's buttons (not always the best), each position's
    moves checked against ``solved`` first."""
    pos = solved.start
    for k in range(plies):
        page.wait_for_selector(f"{sec}[data-ply='{k}'] .movebtn:not([data-value=''])")
        want = _wanted(game, solved, pos)
        assert _shown(page, sec) == want, k
        name = sorted(want)[(3 * k) % len(want)]
        page.click(f"{sec} .movebtn[data-move='{name}']")
        page.wait_for_selector(f"{sec}[data-ply='{k + 1}']")
        pos = game.play(pos, next(m for m in game.moves(pos) if move_name(game, m) == name))


def test_a_game_file_served_with_game_plays_on_its_own_tab():
    target = "examples/tictactoe.py:TicTacToe"
    game = load_target(str(ROOT / target))
    solved = solve(game)
    with cli_page("--game", target) as page:
        sec = _tab(page)
        assert page.get_attribute(f"{sec}", "id") == "tab-cat-perfectplay-tictactoe"
        assert page.text_content(f"{sec} pre.board").strip() == game.draw(solved.start).strip()
        assert sorted(_shown(page, sec)) == sorted(f"{c}{r}" for c in "abc" for r in "123")
        _play_along(page, sec, game, solved, 5)
        page.click(f"{sec} .undo")
        page.wait_for_selector(f"{sec}[data-ply='4']")


def test_a_book_served_with_store_plays_past_its_plies(tmp_path):
    book = tmp_path / "c4book"
    built = subprocess.run([sys.executable, "-m", "perfectplay", "book",
                            "connect4(width=4, height=4)", "--plies", "2", "--out", str(book)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    game = ConnectFour(4, 4)
    solved = solve(game, method="graph", progress=False)
    with cli_page("--store", str(book)) as page:
        sec = _tab(page)
        _play_along(page, sec, game, solved, 5)  # plies 3-5 lie past the book
