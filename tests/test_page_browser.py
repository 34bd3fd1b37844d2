"""The page's boards, legend, contrast and keys in a real browser (Chromium through
Playwright, see tests/browser.py; one browser and one server for the module):

- every catalog game's board is drawn by its own board code (no text drawing) and a game
  on a small board is played to its end by clicks on that board alone;
- every tab has the legend of the value colours, marks and numbers;
- every label on a value colour, and every other text of a tab, reads at WCAG AA contrast
  (4.5:1) as the browser computes its colours (getComputedStyle), faded ones included,
  and each value carries a mark besides its colour;
- in a scored game a move's colour and mark follow the mover's final margin, as the
  headline does ("-2" under "should lose by 2" is a loss);
- Connect Four is played by keys (a column's digit, the arrows through the history) with
  the focus kept on a move after each;
- a marked mistake says why, naming the better move;
- every wait shows its loading state."""

from __future__ import annotations

import pytest

from browser import catalog_page, open_catalog_game

pytestmark = pytest.mark.browser

#: a small board of every catalog game (played to the end against the perfect computer)
SMALL = {
    "nim": "nim(heaps=(1, 2))",
    "connect4": "connect4(width=4, height=4)",
    "kalah": "kalah(houses=2, seeds=2, empty_capture=True)",
    "othello": "othello(size=4, opening='')",
    "teeko": "teeko(size=3, pieces=3, advanced=False, tiers=False)",
    "tictactoe": "tictactoe",
    "hexapawn": "hexapawn(width=3, height=3)",
    "domineering": "domineering(rows=3, cols=3)",
    "dots_and_boxes": "dots_and_boxes(rows=1, cols=2)",
}


@pytest.fixture(scope="module")
def page():
    with catalog_page() as p:
        yield p


def _open(page, target: str, moves: str = "", mode: str = "first") -> str:
    return open_catalog_game(page, target, moves, mode)


def _ply(page, sec: str) -> int:
    return int(page.get_attribute(sec, "data-ply") or 0)


def _after(page, sec: str, plies: int) -> None:
    page.wait_for_function("([s, n]) => { const e = document.querySelector(s); "
                           "return Number(e.dataset.ply) > n && !e.dataset.loading; }",
                           arg=[sec, plies])
    assert not page.text_content(f"{sec} .error")


def _choice(page, sec: str) -> str:
    """A best move, unless best moves draw (play would never end): then a losing one."""
    buttons = page.query_selector_all(f"{sec} .movebtn:not(:disabled)")
    moves = [(b.get_attribute("data-move"), b.get_attribute("data-value"),
              "best" in (b.get_attribute("class") or "")) for b in buttons]
    best = [m for m in moves if m[2]]
    if best and best[0][1] != "draw":
        return best[0][0]
    losing = [m for m in moves if m[1] == "lose"]
    return (losing or best or moves)[0][0]


def _click_on_board(page, sec: str, name: str) -> None:
    """The move played by clicks on the board only: its target, or (a piece that moves)
    the piece first and then where it goes."""
    board = f"{sec} .board-holder"
    target = page.query_selector(f"{board} [data-move='{name}']")
    if target is None:
        source = name.replace("x", "-").split("-")[0]
        page.click(f"{board} [data-pick='{source}']")
        target = page.wait_for_selector(f"{board} [data-move='{name}']")
    target.click()


@pytest.mark.parametrize("name", list(SMALL))
def test_every_game_is_drawn_as_itself_and_played_to_the_end_on_its_board(page, name):
    sec = _open(page, SMALL[name])
    assert page.query_selector(f"{sec} .board-holder [data-board]") is not None
    assert page.query_selector(f"{sec} .board-holder pre.board") is None  # not as text
    for _ in range(80):
        if page.text_content(f"{sec} .summary").startswith("Game over"):
            break
        plies = _ply(page, sec)
        _click_on_board(page, sec, _choice(page, sec))
        _after(page, sec, plies)
    summary = page.text_content(f"{sec} .summary")
    assert summary.startswith("Game over"), summary
    assert not page.query_selector_all(f"{sec} .board-holder .legal")  # nothing left to click


def test_the_boards_show_what_a_player_recognises(page):
    sec = _open(page, SMALL["othello"])
    fills = page.evaluate("(s) => [...document.querySelectorAll(s)].map((e) => "
                          "getComputedStyle(e).fill)", f"{sec} svg.othello .disc")
    assert sorted(fills) == ["rgb(17, 17, 17)"] * 2 + ["rgb(245, 245, 245)"] * 2
    assert page.get_attribute(f"{sec} svg.othello g[data-cell] rect", "fill") == "#1b7a3a"
    sec = _open(page, "nim(heaps=(1, 2, 3))")
    assert [int(h.get_attribute("data-size"))
            for h in page.query_selector_all(f"{sec} svg.nim .heap")] == [1, 2, 3]
    assert len(page.query_selector_all(f"{sec} svg.nim .counter")) == 6
    # Dots and Boxes: the boxes' owners and the score from the line played
    line = "a1-b1,a1-a2,b1-b2,b1-c1,a2-b2,c1-c2,b2-c2"
    sec = _open(page, SMALL["dots_and_boxes"], line, mode="both")
    owners = {b.get_attribute("data-box"): b.get_attribute("class").split("owner-")[1]
              for b in page.query_selector_all(f"{sec} svg.dots .box")}
    assert owners == {"a1": "A", "b1": "B"}  # A closed a1 with a2-b2, B closed b1 last
    assert page.get_attribute(f"{sec} .scoreline", "data-score") == "1-1"
    assert len(page.query_selector_all(f"{sec} svg.dots .line.drawn")) == 7
    # Kalah at its end: every seed swept into its owner's store
    sec = _open(page, SMALL["kalah"])
    while not page.text_content(f"{sec} .summary").startswith("Game over"):
        plies = _ply(page, sec)
        page.click(f"{sec} .movebtn.best")
        _after(page, sec, plies)
    houses = [int(t.text_content()) for t in page.query_selector_all(
        f"{sec} svg.kalah .house text.seeds")]
    south, north = (int(page.text_content(f"{sec} [data-store={s}] text.seeds"))
                    for s in ("south", "north"))
    assert houses == [0] * 4 and south + north == 8
    summary = page.text_content(f"{sec} .summary")
    margin = abs(south - north)
    assert summary.endswith(f"won by {margin}") if margin else summary.endswith("a tie")


def test_every_tab_has_the_legend(page):
    for name in SMALL:
        page.click(f"#catalog-tabs button[data-catalog={name}]")
        sec = f"#tab-cat-{name}"
        page.wait_for_selector(f"{sec}.active[data-ply]")
        shown = [x.get_attribute("data-legend")
                 for x in page.query_selector_all(f"{sec} .legend [data-legend]")]
        assert shown == ["win", "lose", "tie", "draw"], name
        text = page.text_content(f"{sec} .legend")
        assert "W win" in text and "L lose" in text and "number" in text


#: In the browser: every text of the shown tab, with its colour and the colour under it
#: (an SVG label's: its badge's or house's shape), as computed; each with the product of
#: its ancestors' opacities (a faded element fades its text too).
CONTRASTS = """(sec) => {
  const rgb = (c) => { const m = /rgba?\\(([^)]+)\\)/.exec(c); if (!m) return null;
    const p = m[1].split(",").map(Number); return p.length > 3 && p[3] === 0 ? null : p; };
  const lum = (c) => { const [r, g, b] = c.slice(0, 3).map((v) => { const x = v / 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const opacity = (e) => { let o = 1; for (let n = e; n && n.nodeType === 1;
    n = n.parentElement) o *= Number(getComputedStyle(n).opacity); return o; };
  const under = (e) => { for (let n = e; n; n = n.parentElement) {
      const c = rgb(getComputedStyle(n).backgroundColor); if (c) return c; }
    return [255, 255, 255]; };
  const out = [];
  const root = document.querySelector(sec);
  for (const e of root.querySelectorAll("*")) {
    if (!e.getClientRects().length || getComputedStyle(e).visibility !== "visible") continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    let fg, bg;
    if (e instanceof SVGElement) {
      if (!e.classList.contains("vlabel")) continue;
      fg = rgb(getComputedStyle(e).fill);
      const shape = e.parentElement.querySelector(".vshape");
      bg = rgb(getComputedStyle(shape).fill);
    } else {
      fg = rgb(getComputedStyle(e).color);
      bg = under(e);
    }
    out.push({text: e.textContent.trim().slice(0, 30), cls: String(e.className.baseVal
      ?? e.className), ratio: ratio(fg, bg), opacity: opacity(e),
      value: /v-(win|lose|tie|draw)/.test(String(e.className.baseVal ?? e.className)) ||
        e.closest("[class*='v-']") !== null});
  }
  return out;
}"""


@pytest.mark.parametrize(("target", "moves"), [
    ("tictactoe", "a1,b1,a2"),  # faded moves (slower losses)
    ("kalah(houses=3, seeds=3, empty_capture=True)", "a,b"),  # points so far
    (SMALL["dots_and_boxes"], "a1-b1"),
    (SMALL["othello"], ""), (SMALL["nim"], ""), (SMALL["teeko"], ""),
    (SMALL["domineering"], ""), (SMALL["hexapawn"], ""), (SMALL["connect4"], ""),
])
def test_every_label_reads_at_aa_contrast(page, target, moves):
    sec = _open(page, target, moves, mode="both")
    seen = page.evaluate(CONTRASTS, sec)
    values = [x for x in seen if x["value"]]
    assert len(values) >= 4, seen  # the moves' labels and the legend's at least
    low = [x for x in seen if x["ratio"] < 4.5 or x["opacity"] < 1]
    assert not low, low
    if target == "tictactoe":  # some move is faded: its colour paler, its text as readable
        fades = page.evaluate("(s) => [...document.querySelectorAll(s)].map((e) => "
                              "Number(e.dataset.fade))", f"{sec} .movebtn[data-fade]")
        assert min(fades) < 1 <= max(fades), fades
    marks = page.query_selector_all(f"{sec} .movebtn .mark")
    assert len(marks) == len(page.query_selector_all(f"{sec} .movebtn"))
    assert {m.text_content() for m in marks} <= {"W", "L", "T", "D"}


def test_a_scored_moves_colour_follows_the_final_margin(page):
    """Kalah(3, 3) after a, b: north is 2 behind; its move b ties the rest (margin 0 from
    here) so it ends 2 behind: a loss, as the headline says, not a tie's yellow."""
    sec = _open(page, "kalah(houses=3, seeds=3, empty_capture=True)", "a,b", mode="both")
    assert page.text_content(f"{sec} .summary") == "Player 2 should lose by 2 in 9"
    button = f"{sec} .movebtn[data-move='b']"
    assert page.get_attribute(button, "data-value") == "tie"  # the solver's word, kept
    assert page.get_attribute(button, "data-shown") == "lose"
    assert page.text_content(f"{button} .rem") == "-2"
    assert page.text_content(f"{button} .mark") == "L"
    assert page.evaluate("(s) => getComputedStyle(document.querySelector(s))"
                         ".backgroundColor", button) == "rgb(128, 0, 0)"
    assert "lose by 2 at the end" in page.get_attribute(button, "title")
    house = f"{sec} svg.kalah g[data-move='b'] text.vlabel"
    assert page.text_content(f"{house} >> nth=1") == "L-2"
    # the history in the headline's terms too: the final margins, the points counted
    lines = [li.text_content() for li in page.query_selector_all(f"{sec} .history li")]
    # (south's a ends in its store: south moves again)
    assert lines == ["Player 1 a: win by 2 at the end -> win by 2 at the end",
                     "Player 1 b: win by 2 at the end -> win by 2 at the end"], lines


def test_connect4_is_played_by_keys_with_the_focus_kept(page):
    sec = _open(page, SMALL["connect4"], mode="both")
    assert page.text_content(f"{sec} .movebtn[data-move='1'] kbd") == "1"
    page.focus(f"{sec} .board-holder")
    page.keyboard.press("1")
    _after(page, sec, 0)
    page.keyboard.press("2")
    _after(page, sec, 1)
    assert page.query_selector(f"{sec} td[data-cell='1,1'].X")
    assert page.query_selector(f"{sec} td[data-cell='2,1'].O")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"{sec}[data-ply='1']:not([data-loading])")
    assert page.query_selector(f"{sec} td[data-cell='2,1'].O") is None
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"{sec}[data-ply='2']:not([data-loading])")
    assert page.query_selector(f"{sec} td[data-cell='2,1'].O")
    # a move button reached by Tab and played by Enter: the focus stays on a move
    page.focus(f"{sec} .movebtn[data-move='3']")
    page.keyboard.press("Enter")
    _after(page, sec, 2)
    assert page.evaluate("(s) => document.activeElement.matches(s)", f"{sec} .movebtn")
    page.keyboard.press("4")  # the focus kept: the keys still play
    _after(page, sec, 3)
    assert page.input_value(f"{sec} .typed") == "1, 2, 3, 4"
    page.focus(f"{sec} .typed")  # typing in the box plays nothing
    page.keyboard.press("1")
    page.wait_for_timeout(200)
    assert _ply(page, sec) == 4


def test_a_marked_mistake_says_why(page):
    # after X takes the centre, O ties only in a corner: an edge (a2) loses
    sec = _open(page, "tictactoe", "b2,a2", mode="both")
    page.wait_for_selector(f"{sec} .history li.mistake .why:has-text('would keep')")
    why = page.text_content(f"{sec} .history li.mistake .why")
    assert "\"tie in 8\" into \"lose in 6\"" in why, why
    assert "a1 or c1 or a3 would keep" in why, why  # corners, in the list's order


def test_every_wait_shows_its_loading_state(page):
    sec = _open(page, SMALL["connect4"], mode="both")
    page.evaluate("""(s) => { const sec = document.querySelector(s); window.seen = [];
      new MutationObserver(() => window.seen.push([sec.dataset.loading || "",
        sec.getAttribute("aria-busy") || "", sec.querySelector(".loading").textContent,
        getComputedStyle(sec.querySelector(".board-holder")).pointerEvents]))
        .observe(sec, {attributes: true, subtree: false}); }""", sec)
    page.click(f"{sec} .movebtn[data-move='1']")
    _after(page, sec, 0)
    seen = page.evaluate("window.seen")
    assert ["1", "true", "Loading the position …", "none"] in seen, seen
    assert page.text_content(f"{sec} .loading") == ""
    assert page.get_attribute(sec, "aria-busy") is None


def _seed_play(page, row: str, side: str = "0") -> None:
    page.click("button[data-tab=coins]")
    page.fill("#coins-row", row)
    page.select_option("#coins-side", side)
    page.click("#coins-play")
    page.wait_for_selector("#coins-game h3")
    page.wait_for_selector("#coins-game:not([data-loading])")


def _seed_plies(page, n: int) -> None:
    page.wait_for_function("(n) => { const g = document.querySelector('#coins-game'); "
                           "return !g.dataset.loading && g.querySelector('.typed') && "
                           "g.querySelector('.typed').value.split(', ').filter((x) => x)"
                           ".length === n; }", arg=n)


def test_coins_last_coin_is_clicked_and_the_seed_tab_redoes_shares_and_pastes(page):
    _seed_play(page, "1 2 3")
    page.click("#coins-game .coinrow button[data-index='2']")  # R(3); the computer answers
    _seed_plies(page, 2)
    last = page.query_selector_all("#coins-game .coinrow button:not([disabled])")
    assert len(last) == 1  # the last coin: both ends, clickable
    assert "v-" in last[0].get_attribute("class")  # in its value's colour
    last[0].click()
    page.wait_for_selector("#coins-game .verdict")
    assert "first player 4" in page.inner_text("#coins-game .verdict")
    page.click("#coins-game .undo")  # back to before the human's last coin
    _seed_plies(page, 2)
    page.click("#coins-game .redo")
    _seed_plies(page, 3)
    assert page.query_selector("#coins-game .verdict")
    assert "#seed=coins&input=1%202%203&side=0&moves=" in page.url
    shared = page.url
    page.goto("about:blank")
    page.goto(shared)
    page.wait_for_selector("body[data-ready='1']")
    _seed_plies(page, 3)
    assert page.query_selector("#tab-coins.active #coins-game .verdict")
    page.fill("#coins-game .typed", "L(1)")  # a pasted line: the computer answers it
    page.click("#coins-game .go")
    _seed_plies(page, 2)
    items = page.query_selector_all("#coins-game ol.moves li")
    assert items and all("v-" in (li.get_attribute("class") or "") for li in items)
    assert all(li.query_selector(".mark") for li in items)


def test_a_seed_game_is_played_by_keys(page):
    _seed_play(page, "1 2 3")
    first = page.get_attribute("#coins-game ol.moves li >> nth=0", "data-move")
    assert page.text_content("#coins-game ol.moves li >> nth=0 >> kbd") == "1"
    page.focus("#coins-game")
    page.keyboard.press("1")  # the first listed move; the computer answers
    _seed_plies(page, 2)
    assert page.input_value("#coins-game .typed").startswith(first)
    page.keyboard.press("ArrowLeft")
    _seed_plies(page, 0)
    page.keyboard.press("ArrowRight")
    _seed_plies(page, 2)


def test_the_seed_tabs_labels_read_at_aa_contrast(page):
    """The seed tabs' maps and boards: Coins' heat map and row in play, The Rock's value
    map, the Portal's safe and cut cells, No's pieces and start."""
    base = page.url.split("#")[0]
    page.goto(base)
    page.wait_for_selector("body[data-ready='1']")
    _seed_play(page, "3 2 2 3 1 2")
    page.click("#coins-analyze")
    page.wait_for_selector("#coins-table table")
    checked = 0
    for game in ("coins", "rock", "portal", "no"):
        page.click(f"button[data-tab={game}]")
        if game != "coins":
            page.click(f"#{game}-analyze")
            page.wait_for_selector(f"#{game}-map table")
        seen = page.evaluate(CONTRASTS, f"#tab-{game}")
        low = [x for x in seen if x["ratio"] < 4.5 or x["opacity"] < 1]
        assert not low, (game, low)
        checked += len(seen)
    assert checked > 50


def test_a_board_is_played_by_tab_and_enter(page):
    """Hexapawn's pawns by keys alone: Tab to a pawn, Enter picks it, the focus moves to
    its first target, Enter plays there."""
    sec = _open(page, SMALL["hexapawn"], mode="both")
    page.focus(f"{sec} svg.hexapawn [data-pick='b1']")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{sec} svg.hexapawn .selected")
    assert page.evaluate("() => document.activeElement.dataset.move") == "b1-b2"
    page.keyboard.press("Enter")
    _after(page, sec, 0)
    assert page.query_selector(f"{sec} svg.hexapawn g[data-cell='b2'].piece-W")
