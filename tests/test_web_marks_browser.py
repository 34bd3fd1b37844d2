"""What the page shows on each move, checked in Chromium against the API's own answer
(``/api/games/.../position``, fetched by the page itself):

- every move in its value's colour, GamesmanUni's own (its src/styles/_index.scss:
  ``--winColor: #008000``, ``--loseColor: #800000``, ``--tieColor`` and ``--drawColor``
  ``#ffff00``), and shaded by its remoteness: fade ``max(0.45, 1 - 0.08 x delta
  remoteness)`` (the colour that far from white, its text kept readable), as GamesmanUni
  fades the slower moves of one value (in a scored game by the points a move gives up
  against the best of its colour instead);
- the hints toggle: with the computer to play and hints off, no move shows its value,
  colour or remoteness; on again, they are back;
- a mistake is marked in the history list and by a red dot on the chart, at its ply;
- Othello's board: the green board drawn from the game's picture, a click on a legal
  square plays it and the discs are the game's."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from browser import catalog_page, open_catalog_game
from perfectplay.engine.target import load_catalog_target

pytestmark = pytest.mark.browser
OTHELLO = "othello(size=4, opening='')"


@pytest.fixture(scope="module")
def page():
    with catalog_page() as p:
        yield p


def _open(page, target: str, moves: str = "", mode: str = "both") -> str:
    return open_catalog_game(page, target, moves, mode)


def _api(page, target: str, moves: str) -> dict:
    return page.evaluate("async (u) => (await fetch(u)).json()",
                         f"/api/games/{quote(target, safe='')}/position?moves="
                         f"{quote(moves, safe='')}")


def _opacity(page, selector: str) -> float:
    """How faded a move's colour is (its data-fade: the colour mixed towards white, its
    text kept readable, where an opacity would fade the text too)."""
    return float(page.evaluate("(s) => document.querySelector(s).dataset.fade", selector))


def test_each_move_is_shaded_by_its_remoteness(page):
    moves = "a1,b1,a2"  # O must block at a3 (lose in 4); elsewhere O loses in 2
    sec = _open(page, "tictactoe", moves)
    answer = _api(page, "tictactoe", moves)
    seen = set()
    for mv in answer["moves"]:
        want = max(0.45, 1 - 0.08 * mv["delta_remoteness"])
        got = _opacity(page, f"{sec} .movebtn[data-move='{mv['name']}']")
        assert got == pytest.approx(want, abs=1e-6), mv
        seen.add(round(got, 3))
    assert len(seen) >= 2, answer["moves"]  # the position tells some moves apart


KALAH = "kalah(houses=3, seeds=3, empty_capture=True)"


def test_a_scored_games_moves_are_shaded_by_the_points_they_give_up(page):
    """Kalah(3, 3) after a, c, a: b loses by 1, a by 7. By remoteness (UWAPI's delta) b, the
    better move, would be the faded one (a slower loss by 1 ply is a quicker one by
    points); the page fades by points against the best move of the same colour:
    opacity max(0.45, 1 - 0.08 x points given up)."""
    moves = "a,c,a"
    sec = _open(page, KALAH, moves)
    answer = _api(page, KALAH, moves)
    by_name = {mv["name"]: mv for mv in answer["moves"]}
    assert (by_name["b"]["margin"], by_name["a"]["margin"]) == (-1, -7)
    assert by_name["b"]["delta_remoteness"] > 0  # what the old shading faded by
    points = answer["points"] if answer["turn"] == "first" else -answer["points"]
    shown = {m["name"]: (m["margin"] + points > 0) - (m["margin"] + points < 0)
             for m in answer["moves"]}  # the colour: the mover's final margin's sign
    for mv in answer["moves"]:
        best = max(m["margin"] for m in answer["moves"] if shown[m["name"]] == shown[mv["name"]])
        want = max(0.45, 1 - 0.08 * (best - mv["margin"]))
        got = _opacity(page, f"{sec} .movebtn[data-move='{mv['name']}']")
        assert got == pytest.approx(want, abs=1e-6), mv
    assert _opacity(page, f"{sec} .movebtn[data-move='b']") == 1


GAMESMANUNI = {"win": (0, 128, 0), "lose": (128, 0, 0), "tie": (255, 255, 0),
               "draw": (255, 255, 0)}


def _faded(value: str, fade: float) -> str:
    """GamesmanUni's colour of a value, ``fade`` of the way from white (1: the colour)."""
    r, g, b = (round(255 - fade * (255 - c)) for c in GAMESMANUNI[value])
    return f"rgb({r}, {g}, {b})"


def test_each_move_is_in_gamesmanunis_colour_of_its_value(page):
    for target, moves in (("tictactoe", "a1,b1,a2"), ("tictactoe", "b2"),
                          ("tictactoe", "b2,a2")):
        sec = _open(page, target, moves)
        for mv in _api(page, target, moves)["moves"]:
            button = f"{sec} .movebtn[data-move='{mv['name']}']"
            colour = page.evaluate("(s) => getComputedStyle(document.querySelector(s))"
                                   ".backgroundColor", button)
            fade = max(0.45, 1 - 0.08 * mv["delta_remoteness"])
            assert colour == _faded(mv["value"], fade), (moves, mv)
            if fade == 1:
                assert colour == _faded(mv["value"], 1) == "rgb({}, {}, {})".format(
                    *GAMESMANUNI[mv["value"]])


def test_hints_off_hide_every_value_and_on_show_them(page):
    sec = _open(page, "tictactoe", "", mode="first")
    page.wait_for_selector(f"{sec} .movebtn.v-tie")
    if page.is_checked(f"{sec} .hints"):
        page.uncheck(f"{sec} .hints")
    page.wait_for_function(f"!document.querySelector(\"{sec} .movebtn[class*='v-']\")")
    buttons = page.query_selector_all(f"{sec} .movebtn")
    assert len(buttons) == 9
    assert not page.query_selector_all(f"{sec} .movebtn .rem")
    assert not page.query_selector_all(f"{sec} .movebtn.best")
    page.check(f"{sec} .hints")
    page.wait_for_selector(f"{sec} .movebtn.v-tie")
    assert len(page.query_selector_all(f"{sec} .movebtn.v-tie")) == 9


def test_a_mistake_is_marked_in_the_list_and_on_the_chart(page):
    # after X takes the centre, O ties only in a corner: an edge (a2) loses
    moves = "b2,a2"
    sec = _open(page, "tictactoe", moves)
    answer = _api(page, "tictactoe", moves)
    marked = [k for k, p in enumerate(answer["history"]) if p["mistake"]]
    assert marked == [1], answer["history"]
    items = page.query_selector_all(f"{sec} .history li")
    assert [i for i, li in enumerate(items) if "mistake" in (li.get_attribute("class") or "")
            ] == marked
    dots = page.query_selector_all(f"{sec} svg.chart circle")
    assert len(dots) == 1 and dots[0].get_attribute("fill") == "#b71c1c"
    sec = _open(page, "tictactoe", "b2,a1")  # a corner: no mistake, no dot
    assert not page.query_selector_all(f"{sec} svg.chart circle")
    assert not page.query_selector_all(f"{sec} .history li.mistake")


def _discs(page, sec: str) -> dict[str, str]:
    return {g.get_attribute("data-cell"): g.get_attribute("class").split("piece-")[1][0]
            for g in page.query_selector_all(f"{sec} svg.othello g[class*='piece-']")}


def _drawn_discs(text: str) -> dict[str, str]:
    lines = text.splitlines()
    head = next(ln.split() for ln in lines if ln.strip() and not ln.strip()[0].isdigit())
    out = {}
    for ln in lines:
        parts = ln.split()
        if parts and parts[0].isdigit():
            for col, ch in zip(head, parts[1:], strict=False):
                if ch != ".":
                    out[f"{col}{parts[0]}"] = ch
    return out


def test_othello_draws_its_grid_and_plays_a_click(page):
    sec = _open(page, OTHELLO)
    game = load_catalog_target(OTHELLO)
    start = game.initial()
    assert _discs(page, sec) == _drawn_discs(game.draw(start))
    assert len(_discs(page, sec)) == 4
    legal = page.query_selector_all(f"{sec} svg.othello g.legal")
    names = sorted(td.get_attribute("data-cell") for td in legal)
    assert names == sorted(game.move_name(m) for m in game.moves(start))
    first = names[0]
    page.click(f"{sec} svg.othello g[data-cell='{first}']")
    page.wait_for_selector(f"{sec}[data-ply='1']")
    after = game.play(start, next(m for m in game.moves(start) if game.move_name(m) == first))
    assert _discs(page, sec) == _drawn_discs(game.draw(after))
    assert len(_discs(page, sec)) == 5
    # Othello's own notation pasted: a transcript, then a board with the side to move
    line = [first]
    pos = after
    while len(line) < 4:
        move = game.moves(pos)[0]
        line.append(game.move_name(move))
        pos = game.play(pos, move)
    assert "a transcript (c4a3)" in page.get_attribute(f"{sec} .typed", "placeholder")
    page.fill(f"{sec} .typed", "".join(line))
    page.click(f"{sec} .go")
    page.wait_for_selector(f"{sec}[data-ply='4']")
    assert _discs(page, sec) == _drawn_discs(game.draw(pos))
    b, w, turn = game.board(after)
    board = " / ".join("".join("X" if b >> (8 * r + c) & 1 else "O" if w >> (8 * r + c) & 1
                               else "." for c in range(4)) for r in range(4))
    page.fill(f"{sec} .typed", f"{board} {'O' if turn else 'X'}")
    page.click(f"{sec} .go")
    page.wait_for_function("([s, n]) => document.querySelectorAll(s).length === n",
                           arg=[f"{sec} svg.othello g[class*='piece-']", 5])
    assert _discs(page, sec) == _drawn_discs(game.draw(after))
    assert not page.text_content(f"{sec} .error")
