"""GamesCrafters' Universal Web API under /gamesman, as GamesmanUni's real client reads it.

The contract (field names, types, value codes) is the UWAPI README's "Routes"
(github.com/GamesCrafters/GamesCraftersUWAPI) and what GamesmanUni v5.0.35's client
(github.com/GamesCrafters/GamesmanUni, src/scripts/gamesmanUni/index.ts) does with it: it
builds ``${gameAPI}${id}/${variant}/positions/?p=${position}`` by concatenation, unescaped;
draws ``tictactoe``, ``quarto`` and ``sim`` with its own boards; reads the turn from
``autoguiPosition`` when it starts with ``1_`` or ``2_`` (else alternates); shows ``position``
as "Current Position" and, without image data, lists the moves by ``move`` and sends that
back as the ``autoguiMove`` it looks up. Then one test per defect of issue 44: CORS, ids,
the turn marker, URL-safe positions, the instructions route and ties' deltaRemoteness, and
human-readable positions for compiled games and stores.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the web extra is not installed")

from starlette.testclient import TestClient  # noqa: E402
from tictactoe import TicTacToe as ExampleTicTacToe  # noqa: E402

from browser import chromium  # noqa: E402
from perfectplay.catalog.tictactoe import GAME as TTT_ENTRY  # noqa: E402
from perfectplay.engine import Value, solve  # noqa: E402
from perfectplay.web.app import create_app  # noqa: E402
from perfectplay.web.gamescrafters import one_line, wrangle_moves  # noqa: E402

WORD = {Value.WIN: "win", Value.LOSE: "lose", Value.TIE: "tie", Value.DRAW: "draw"}
ORIGIN = "http://localhost:3000"  # GamesmanUni's `yarn dev` (vite 2.9) origin
#: Ids GamesmanUni draws with a board of its own (AppGameBodyBoard.vue, moveAnimation.ts).
CLIENT_BOARDS = {"tictactoe", "quarto", "sim"}
#: What may not appear in a position string the client puts into ?p= unescaped.
UNSAFE = re.compile(r"[#&+%/?:\\\t\r\n]")
#: A board's move button (ImageAutoGUI.vue): a click ``A_t_7``, a line or an arrow ``L_3_4``.
BUTTON = re.compile(r"(A_[a-zA-Z0-9-]|[LM]_[0-9]+)_[0-9]+")


# -- games ----------------------------------------------------------------------------------
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


class Again:
    """A heap of stones; the mover takes 1 (the turn passes) or 2 (and moves again); who is
    to move at an empty heap loses. A position is (stones, who moves). Its picture holds
    every character a URL or GamesmanUni's history would choke on."""

    def initial(self):
        return (7, 0)

    def moves(self, pos):
        return [k for k in (1, 2) if k <= pos[0]]

    def play(self, pos, k):
        n, who = pos
        return (n - k, who if k == 2 else 1 - who)

    def outcome(self, pos):
        return Value.LOSE if pos[0] == 0 else None

    def player(self, pos):
        return pos[1]

    def draw(self, pos):
        n, who = pos
        return f"heap #{n}: {'●' * n}\n\tP{who + 1} to move & 50% + more / ? \\ ~ end\n"

    def move_name(self, k):
        return "take 1" if k == 1 else "take 2, again"


class Truce:
    """A heap of 3; at the start the mover takes a stone or both agree to stop ("agree",
    to -1); later stones are only taken. A tie either way: at once, or 3 moves on."""

    def initial(self):
        return 3

    def moves(self, n):
        return [] if n <= 0 else ["take", "agree"] if n == 3 else ["take"]

    def play(self, n, m):
        return -1 if m == "agree" else n - 1

    def outcome(self, n):
        return Value.TIE if n <= 0 else None


def _key(pos) -> str:
    return base64.urlsafe_b64encode(repr(pos).encode()).decode().rstrip("=")


@pytest.fixture(scope="module")
def ttt():
    """The catalog's tic-tac-toe: compiled, its positions int codes."""
    return solve(TTT_ENTRY.build())


@pytest.fixture(scope="module")
def again():
    return solve(Again())


def api(solved, gid="game", **kw):
    c = TestClient(create_app(gamesman=solved, gamesman_id=gid, **kw))
    [listed] = c.get("/gamesman/").json()
    return c, f"/gamesman/{listed['id']}/standard/"


def ask(c, base, position):
    """A position as GamesmanUni asks for it: the string pasted after ?p=, unescaped."""
    return c.get(f"{base}positions/?p={position}")


# -- the contract -----------------------------------------------------------------------------
VALUES = {"win", "tie", "draw", "lose", "unsolved"}  # README: positionValue, moveValue


def check_remoteness(value: str, rem) -> None:
    assert isinstance(rem, int)
    if value == "draw":
        assert rem == -200  # README: infinite remoteness
    else:
        assert rem >= 0 or rem == -100  # README: -100 finite unknown


def check_position(r: dict, win_by: bool) -> None:
    """Every field the README gives a position and its moves, with its type and codes."""
    fields = {"position", "autoguiPosition", "positionValue", "remoteness", "moves"}
    assert set(r) == fields | ({"winby"} if win_by else set())
    assert isinstance(r["position"], str) and isinstance(r["autoguiPosition"], str)
    assert r["autoguiPosition"] != ""  # the client shows a loading screen for ""
    assert r["positionValue"] in VALUES
    check_remoteness(r["positionValue"], r["remoteness"])
    if win_by:  # the winner's margin, as GamesmanUni reads it (who wins: positionValue)
        assert isinstance(r["winby"], int) and r["winby"] >= 0
        assert (r["winby"] == 0) == (r["positionValue"] in ("tie", "draw"))
    assert isinstance(r["moves"], list)
    for m in r["moves"]:
        assert set(m) == {"move", "autoguiMove", "moveValue", "deltaRemoteness", "position",
                          "autoguiPosition", "positionValue", "remoteness"} | (
            {"winby"} if win_by else set())
        for key in ("move", "autoguiMove", "position", "autoguiPosition"):
            assert isinstance(m[key], str) and m[key]
        # the client's move list sends move back; a board's button is its own string
        assert m["autoguiMove"] == m["move"] or BUTTON.fullmatch(m["autoguiMove"])
        assert m["moveValue"] in VALUES and m["positionValue"] in VALUES
        assert isinstance(m["deltaRemoteness"], int) and m["deltaRemoteness"] >= 0
        check_remoteness(m["positionValue"], m["remoteness"])
        if win_by:
            assert isinstance(m["winby"], int) and m["winby"] >= 0
    ranks = [("win", "tie", "draw", "lose").index(m["moveValue"]) for m in r["moves"]]
    assert ranks == sorted(ranks)  # README: best to worst


@pytest.mark.parametrize("which", ["compiled", "example", "extra turns", "draw"])
def test_every_route_answers_the_readmes_fields(which, ttt, again):
    solved = {"compiled": lambda: ttt, "example": lambda: solve(ExampleTicTacToe()),
              "extra turns": lambda: again, "draw": lambda: solve(Cycle())}[which]()
    c, base = api(solved, "tictactoe")
    games = c.get("/gamesman/").json()
    assert len(games) == 1 and set(games[0]) == {"id", "name", "type", "gui"}
    assert all(isinstance(v, str) for v in games[0].values())
    assert games[0]["type"] == "twoPlayer" and games[0]["gui"] in {"v0", "v1", "v2", "v3"}
    gid = games[0]["id"]
    gui = "v2" if which == "compiled" else "v0"  # the catalog's tic-tac-toe has a board
    game = c.get(f"/gamesman/{gid}/").json()
    assert game == {"id": gid, "name": games[0]["name"], "allowCustomVariantCreation": False,
                    "supportsWinBy": False,
                    "variants": [{"id": "standard", "name": game["variants"][0]["name"],
                                  "gui": gui}]}
    assert game["variants"][0]["name"] != "Standard"  # titled by the game's parameters
    variant = c.get(base).json()
    assert set(variant) == {"id", "name", "gui", "startPosition", "autoguiStartPosition",
                            "autoguiPosition", "imageAutoGUIData"}
    assert (variant["id"], variant["gui"]) == ("standard", gui)
    assert variant["name"] == game["variants"][0]["name"]
    # no image board: the client lists the moves
    assert (variant["imageAutoGUIData"] is None) == (gui == "v0")
    start = ask(c, base, variant["startPosition"]).json()
    assert start["position"] == variant["startPosition"]
    assert start["autoguiPosition"] == variant["autoguiStartPosition"] \
        == variant["autoguiPosition"]
    assert c.get(f"{base}positions/").json() == start  # no p: the start
    seen = 0
    frontier = [start]
    while frontier and seen < 40:
        r = frontier.pop()
        check_position(r, False)
        seen += 1
        frontier += [ask(c, base, m["position"]).json() for m in r["moves"][:2]]
    text = c.get(f"{base}instructions/", params={"locale": "en-US"}).json()
    assert set(text) == {"instructions"} and text["instructions"].startswith("# ")


def test_a_scored_game_gives_winby_everywhere(client, tmp_path):
    """A store of Kalah (compiled, scored, extra turns): winby on the position and every
    move, its picture and move names instead of codes, the turn marker."""
    kalah = pytest.importorskip("perfectplay.catalog.kalah")
    from perfectplay.store import open_store, solve_tiered

    game = kalah.Kalah(2, 2)
    solve_tiered(game, tmp_path / "k", client=client)
    ref = solve(game)
    with open_store(tmp_path / "k", game) as store:
        c, base = api(store, "kalah")
        assert c.get(base[:-len("standard/")]).json()["supportsWinBy"] is True
        start = c.get(f"{base}positions/").json()  # south loses by 2: "should lose ... by 2"
        assert (start["positionValue"], start["winby"], ref.value()) == ("lose", 2, -2)
        pos = game.initial()
        for _ in range(4):
            r = c.get(f"{base}positions/?p={one_line(game.draw(pos))}~{pos}").json()
            check_position(r, True)  # no score given: none so far
            assert r["winby"] == abs(ref.value(pos)) and r["remoteness"] == ref.remoteness(pos)
            assert r["positionValue"] == ("win" if ref.value(pos) > 0 else "lose"
                                          if ref.value(pos) < 0 else "tie")
            assert r["position"].startswith(one_line(game.draw(pos)))
            assert r["position"].endswith(f"~s0~{pos}")
            assert "north" in r["position"] and "south" in r["position"]
            assert r["autoguiPosition"].startswith(f"{game.player(pos) + 1}_")
            by_name = {m["move"]: m for m in r["moves"]}
            mvs = ref.move_values(pos)
            assert set(by_name) == {game.move_name(mv.move) for mv in mvs}
            for mv in mvs:
                m = by_name[game.move_name(mv.move)]
                child = game.play(pos, mv.move)
                assert m["moveValue"] == ("win" if mv.value > 0 else
                                          "lose" if mv.value < 0 else "tie")
                gained = game.payoff(pos, mv.move)  # the child's score: the mover's gain
                so_far = gained if game.player(child) == game.player(pos) else -gained
                assert (m["winby"], m["remoteness"]) == (abs(so_far + ref.value(child)),
                                                         ref.remoteness(child))
                assert m["position"].endswith(f"~s{so_far}~{child}")
            if not mvs:
                break
            pos = game.play(pos, mvs[-1].move)


# -- scored games: the result so far is part of the position (issue 71) ----------------------
def sign_word(margin: int) -> str:
    return "win" if margin > 0 else "lose" if margin < 0 else "tie"


def mover_of(game, pos, plies: int) -> int:
    """Who moves at ``pos`` (0 the first player), ``plies`` moves from the start."""
    return game.player(pos) if hasattr(game, "player") else plies % 2


def walk_scored(c, base, game, ref, pick) -> int:
    """Walk from the start along ``pick``'s moves (an index into the solution's moves, best
    first), asking every position as GamesmanUni does (the child's ``position`` string);
    at each, the answer must be the final margin of optimal play from there plus the
    points won so far, summed here from the game's payoffs alone; every move's colour and
    winby must agree with the position it leads to. Returns the positions seen."""
    pos, plies, points = game.initial(), 0, [0, 0]  # points each player has won so far
    r = c.get(f"{base}positions/").json()
    flip = {"win": "lose", "lose": "win", "tie": "tie"}
    seen = 0
    while True:
        me = mover_of(game, pos, plies)
        final = points[me] - points[1 - me] + ref.value(pos)  # the mover's final margin
        assert (r["positionValue"], r["winby"]) == (sign_word(final), abs(final)), (plies, r)
        assert r["remoteness"] == ref.remoteness(pos)
        seen += 1
        for m in r["moves"]:  # each move coloured as the position it leads to
            child = ask(c, base, m["position"]).json()
            same = m["autoguiPosition"][0] == r["autoguiPosition"][0]
            want = child["positionValue"] if same else flip[child["positionValue"]]
            assert (m["moveValue"], m["winby"], m["positionValue"]) == (
                want, child["winby"], child["positionValue"]), (plies, m["move"])
        mvs = ref.move_values(pos)
        if not mvs:  # the end: the points won and what the end itself scores (a sweep)
            assert r["remoteness"] == 0 and final - ref.value(pos) == points[me] - points[1 - me]
            return seen
        move = mvs[pick(len(mvs))].move
        points[me] += game.payoff(pos, move)
        name = game.move_name(move) if hasattr(game, "move_name") else str(move)
        [m] = [m for m in r["moves"] if m["move"] == name]
        pos, plies = game.play(pos, move), plies + 1
        r = ask(c, base, m["position"]).json()


def test_scored_games_show_the_final_result_along_every_line():
    """Kalah 3x3 (extra turns) and a coins row: the result GamesmanUni shows at the end
    (the last position's value and winby) is the score; along optimal play the value and
    "by N" stay the start's final margin; on random lines too, every position is the points
    so far plus the solution's margin, and no move is coloured against its child."""
    import random

    from perfectplay.catalog.kalah import Kalah
    from perfectplay.coins.rules import CoinsGame

    rng = random.Random(71)
    for game, gid in [(Kalah(3, 3), "kalah"), (CoinsGame([3, 1, 5, 2, 4, 6]), "coins")]:
        ref = solve(game)
        c, base = api(ref, gid)
        if gid == "kalah":  # a variant is titled by the game's parameters
            variants = c.get(base[:-len("standard/")]).json()["variants"]
            assert [v["name"] for v in variants] == ["Kalah(3, 3)"]
        start = c.get(f"{base}positions/").json()
        assert (start["positionValue"], start["winby"]) == (sign_word(ref.value()),
                                                            abs(ref.value()))
        assert walk_scored(c, base, game, ref, lambda n: 0) > 3  # optimal play
        for _ in range(3):
            walk_scored(c, base, game, ref, rng.randrange)


def test_a_coins_computer_takes_the_bigger_coin():
    """GamesmanUni's computer, when winning, picks the winning move of largest winby: in
    [1, 5] the first player takes the 5 (win by 4), not the 1 (lose by 4)."""
    from perfectplay.coins.rules import CoinsGame

    c, base = api(solve(CoinsGame([1, 5])), "coins")
    r = c.get(f"{base}positions/").json()
    best = max((m for m in r["moves"] if m["moveValue"] == "win"), key=lambda m: m["winby"])
    assert (r["positionValue"], r["winby"], best["winby"]) == ("win", 4, 4)
    end = ask(c, base, ask(c, base, best["position"]).json()["moves"][0]["position"]).json()
    assert (end["moves"], end["positionValue"], end["winby"]) == ([], "win", 4)


def test_a_file_game_keeps_the_clients_history_whole(tmp_path):
    """A ``FILE.py:Class`` game served as ``serve --game`` does: a ``:`` in its move names
    (the separator of GamesmanUni's move history) comes as a look-alike, the same in
    ``move`` and ``autoguiMove``; its docstring is the instructions; its variant is titled
    by its parameters."""
    from perfectplay.cli.serve import _served_game

    path = tmp_path / "heapgame.py"
    path.write_text(
        '"""Module doc."""\n\n\nclass Heap:\n    """Take 1 or 2 from a heap of n."""\n\n'
        "    def __init__(self, n=4):\n        self.n = n\n\n"
        "    def initial(self):\n        return self.n\n\n"
        "    def moves(self, n):\n        return [k for k in (1, 2) if k <= n]\n\n"
        "    def play(self, n, k):\n        return n - k\n\n"
        "    def outcome(self, n):\n        return None\n\n"
        "    def move_name(self, k):\n        return f'take:{k}'\n")
    solved, gid = _served_game(None, f"{path}:Heap(3)")
    c, base = api(solved, gid)
    moves = c.get(f"{base}positions/").json()["moves"]
    assert sorted(m["move"] for m in moves) == ["take\u22361", "take\u22362"]
    assert all(m["move"] == m["autoguiMove"] and ":" not in m["move"] for m in moves)
    text = c.get(f"{base}instructions/").json()["instructions"]
    assert "Take 1 or 2 from a heap of n." in text
    [listed] = c.get("/gamesman/").json()
    assert ":" not in listed["name"]
    variants = c.get(f"/gamesman/{listed['id']}/").json()["variants"]
    assert [v["name"] for v in variants] == ["Heap"]  # its name: it says no parameters


def test_plain_serve_lists_every_catalog_game_with_its_variants(again):
    """``perfectplay serve`` (``gamesman_catalog``) lists the served game first, then every
    catalog game, each with its small variants titled by their parameters; every variant's
    start is a position string of its game; the smallest are answered (solved on demand)."""
    from perfectplay.registry import catalog
    from perfectplay.registry import games as every_game

    c = TestClient(create_app(gamesman=again, gamesman_id="again", gamesman_catalog=True))
    games = c.get("/gamesman/").json()
    ids = [g["id"] for g in games]
    assert ids[0] == "perfectplay-again" and len(set(ids)) == len(ids)
    entries = catalog()
    seeds = [f"perfectplay-{e.name}" for e in every_game("seed") if e.play is not None]
    assert ids[1:1 + len(seeds)] == seeds  # then the seed games at their examples
    assert ids[1 + len(seeds):] == [f"perfectplay-{e.name.replace('_', '')}" for e in entries]
    assert not set(ids) & CLIENT_BOARDS and all(":" not in g["name"] for g in games)
    for entry, listed in zip(entries, games[1 + len(seeds):], strict=True):
        assert listed["name"] == entry.title
        game = c.get(f"/gamesman/{listed['id']}/").json()
        titles = [v["name"] for v in game["variants"]]
        assert titles == [entry.call(entry.arguments((), dict(small)))
                          for small in entry.small] or titles == [entry.call({})]
        assert game["supportsWinBy"] is (entry.name in ("kalah", "dots_and_boxes", "othello"))
        for v, small in zip(game["variants"], entry.small or [{}], strict=True):
            start = c.get(f"/gamesman/{listed['id']}/{v['id']}/").json()
            built = entry.build(**small)
            key = str(built.encode(built.initial())) if hasattr(built, "encode") else None
            assert start["name"] == v["name"] and "~" in start["startPosition"]
            assert not UNSAFE.search(start["startPosition"])
            assert key is None or start["startPosition"].endswith(key)
            assert start["autoguiStartPosition"].startswith("1_")
    for gid, vid, value in [("perfectplay-nim", "heaps123", "lose"),
                            ("perfectplay-dotsandboxes", "rows1_cols2", "tie")]:
        r = c.get(f"/gamesman/{gid}/{vid}/positions/").json()
        assert r["positionValue"] == value and r["moves"], r
    text = c.get("/gamesman/perfectplay-nim/heaps123/instructions/").json()["instructions"]
    assert text.startswith("# Nim")
    assert c.get("/gamesman/perfectplay-nim/heaps999/").status_code == 404
    plain = TestClient(create_app())
    assert plain.get("/gamesman/").status_code == 404  # only serve asks for the catalog


# -- values against the solution --------------------------------------------------------------
def uwapi_wrangle(moves: list[dict]) -> list[dict]:
    """UWAPI's own computation (server.py, wrangle_move_objects_2Player), restated as an
    oracle: children grouped by their positionValue (the turn passes on every move), an
    unknown remoteness (-100) taken as one more than the largest known of its group (1 when
    none), a win measured from the fastest win, a tie from the fastest tie, a loss from the
    slowest loss, a draw 0; sorted by (win, tie, draw, lose), then deltaRemoteness."""
    flip = {"win": "lose", "lose": "win", "tie": "tie", "draw": "draw"}
    child = [dict(m, positionValue=flip[m["moveValue"]]) for m in moves]
    rems = {v: [m["remoteness"] for m in child if m["positionValue"] == v
                and m["remoteness"] != -100] for v in ("win", "lose", "tie")}
    unknown = {v for v in ("win", "lose", "tie")
               if any(m["positionValue"] == v and m["remoteness"] == -100 for m in child)}
    max_win = (max(rems["win"]) if rems["win"] else 0) + ("win" in unknown)
    min_lose = min(rems["lose"]) if rems["lose"] else 1
    max_lose = max(rems["lose"]) + 1 if rems["lose"] and "lose" in unknown else 1
    min_tie = min(rems["tie"]) if rems["tie"] else 1
    max_tie = max(rems["tie"]) + 1 if rems["tie"] and "tie" in unknown else 1
    out = []
    for m in child:
        r, v = m["remoteness"], flip[m["positionValue"]]
        if v == "win":
            delta = (max_lose if r == -100 else r) - min_lose
        elif v == "lose":
            delta = max_win - (max_win if r == -100 else r)
        elif v == "tie":
            delta = (max_tie if r == -100 else r) - min_tie
        else:
            delta = 0
        out.append({"moveValue": v, "remoteness": r, "deltaRemoteness": delta})
    return sorted(out, key=lambda m: (("win", "tie", "draw", "lose").index(m["moveValue"]),
                                      m["deltaRemoteness"]))


MOVE = st.one_of(
    st.tuples(st.sampled_from(["win", "lose", "tie"]),
              st.one_of(st.integers(0, 30), st.just(-100))),
    st.just(("draw", -200)))


@settings(max_examples=300, deadline=None)
@given(st.lists(MOVE, max_size=9))
def test_delta_remoteness_and_order_are_uwapis(moves):
    mine = wrangle_moves([{"moveValue": v, "remoteness": r} for v, r in moves])
    assert mine == uwapi_wrangle([{"moveValue": v, "remoteness": r} for v, r in moves])


def test_ties_delta_remoteness_is_measured_from_the_fastest_tie():
    """Defect 5: a tie is no longer always 0. In Truce each move ties, ending the game at
    once or later; each tie's deltaRemoteness is its child's remoteness minus the fastest
    tie's, as UWAPI computes it."""
    truce = solve(Truce())
    c, base = api(truce)
    r = ask(c, base, f"heap~{_key(3)}").json()
    assert (r["positionValue"], r["remoteness"]) == ("tie", 1)
    assert [(m["move"], m["moveValue"], m["remoteness"], m["deltaRemoteness"])
            for m in r["moves"]] == [("agree", "tie", 0, 0), ("take", "tie", 2, 2)]
    assert truce.remoteness(2) == 2 and truce.remoteness(-1) == 0  # the children's


def test_moves_are_the_childrens_values_and_remoteness(ttt):
    """Each move of catalog tic-tac-toe: moveValue is its value for the mover, remoteness
    its child's (the engine's move remoteness less the move itself), as UWAPI gives it."""
    game = ttt.game
    c, base = api(ttt)
    pos = game.initial()
    for name in ("a1", "b2", "c3"):
        pos = game.play(pos, game.parse_move(name))
    r = ask(c, base, f"x~{pos}").json()
    assert r["positionValue"] == WORD[ttt.value(pos)]
    by_name = {m["move"]: m for m in r["moves"]}
    for mv in ttt.move_values(pos):
        m = by_name.pop(game.move_name(mv.move))
        assert m["moveValue"] == WORD[mv.value]
        assert m["remoteness"] == mv.remoteness - 1 == ttt.remoteness(game.play(pos, mv.move))
    assert by_name == {}


def test_every_answer_equals_the_solution(again):
    """Along every line of the extra-turn game: value, remoteness, each move's value for
    its mover and its child's value and remoteness."""
    game = Again()
    c, base = api(again)
    todo, done = [game.initial()], set()
    while todo:
        pos = todo.pop()
        if pos in done:
            continue
        done.add(pos)
        r = ask(c, base, _key(pos)).json()  # a bare key is a position string too
        assert (r["positionValue"], r["remoteness"]) == (WORD[again.value(pos)],
                                                         again.remoteness(pos))
        by_name = {m["move"]: m for m in r["moves"]}
        assert len(by_name) == len(r["moves"])
        for mv in again.move_values(pos):
            m, child = by_name[game.move_name(mv.move)], game.play(pos, mv.move)
            assert m["moveValue"] == WORD[mv.value]
            assert (m["positionValue"], m["remoteness"]) == (WORD[again.value(child)],
                                                             again.remoteness(child))
            todo.append(child)
    assert len(done) == len(again) == 8  # every position the solve holds


def test_a_draw_is_remoteness_minus_200():
    c, base = api(solve(Cycle()))
    r = c.get(f"{base}positions/").json()
    assert (r["positionValue"], r["remoteness"]) == ("draw", -200)
    assert [(m["move"], m["moveValue"], m["remoteness"], m["deltaRemoteness"])
            for m in r["moves"]] == [("1", "draw", -200, 0), ("resign", "lose", 0, 0)]


# -- 1. CORS ----------------------------------------------------------------------------------
def test_cors_is_off_by_default_and_on_for_the_origins_given(ttt):
    c, base = api(ttt)
    r = c.get(base, headers={"Origin": ORIGIN})
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers
    c, base = api(ttt, cors=[ORIGIN])
    r = c.get(f"{base}positions/", headers={"Origin": ORIGIN})
    assert r.headers["access-control-allow-origin"] == ORIGIN
    other = c.get(base, headers={"Origin": "http://evil.example"})
    assert "access-control-allow-origin" not in other.headers
    pre = c.options(f"{base}positions/", headers={
        "Origin": ORIGIN, "Access-Control-Request-Method": "GET"})
    assert pre.status_code == 200 and pre.headers["access-control-allow-origin"] == ORIGIN
    post = c.options("/api/games/coins/analyze", headers={
        "Origin": ORIGIN, "Access-Control-Request-Method": "POST"})
    assert post.status_code == 400  # GET only: the page's POST API stays same-origin
    c, base = api(ttt, cors=["*"])
    assert c.get(base, headers={"Origin": ORIGIN}).headers[
        "access-control-allow-origin"] == "*"


@pytest.mark.parametrize("origin", ["localhost:3000", "http://localhost:3000/",
                                    "http://localhost:3000/uni"])
def test_serve_refuses_a_cors_value_that_is_no_origin(origin):
    out = subprocess.run([sys.executable, "-m", "perfectplay", "serve", "--cors", origin],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        f"perfectplay: error: --cors {origin!r} is not an origin: give scheme://host[:port] as the "
        "browser shows it (http://localhost:3000, no path, no trailing /), or *"]


@pytest.mark.parametrize(("target", "gid", "start"), [
    ("tictactoe", "perfectplay-tictactoe",
     "a b c | 1 . . . | 2 . . . | 3 . . . | X to move~1_0"),
    ("examples/tictactoe.py:TicTacToe", "perfectplay-tictactoe",
     "a b c | 1 . . . | 2 . . . | 3 . . .~1_" + _key("." * 9)),
])
def test_serve_a_catalog_game_or_a_file_with_cors(target, gid, start):
    """The command itself: ``serve --game`` with a catalog name or FILE.py:Class, the id it
    prints, CORS for the origin given, then SIGTERM: exit 0."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "perfectplay", "serve", "--port",
                             str(port), "--game", target, "--cors", ORIGIN],
                            cwd=Path(__file__).parents[1], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    url = f"http://127.0.0.1:{port}/gamesman/"
    try:
        deadline = time.monotonic() + 240  # a loaded machine; the catalog game compiles
        while True:
            assert proc.poll() is None, proc.communicate()
            try:
                with urllib.request.urlopen(url, timeout=5) as r:
                    listed = json.loads(r.read())
                    break
            except OSError:
                assert time.monotonic() < deadline, "serve did not answer"
                time.sleep(0.3)
        ids = [g["id"] for g in listed]  # the served game, then the catalog's others
        assert ids[0] == gid and len(set(ids)) == len(ids) and "perfectplay-nim" in ids
        req = urllib.request.Request(f"{url}{gid}/standard/positions/?p="
                                     + urllib.parse.quote(start), headers={"Origin": ORIGIN})
        with urllib.request.urlopen(req, timeout=30) as r:
            assert r.headers["access-control-allow-origin"] == ORIGIN
            answer = json.loads(r.read())
        assert (answer["position"], answer["positionValue"], answer["remoteness"]) == (
            start, "tie", 9)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert f"perfectplay: {gid} read-only at http://127.0.0.1:{port}/gamesman/{gid}/" in err
    assert "Traceback" not in err


def test_serve_takes_a_store_or_a_game_not_both(tmp_path):
    out = subprocess.run([sys.executable, "-m", "perfectplay", "serve", "--store",
                          str(tmp_path), "--game", "examples/tictactoe.py:TicTacToe"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "not both" in out.stderr


# -- 2. ids -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["tictactoe", "TicTacToe", "quarto", "Sim", "Kalah(6, 4)"])
def test_ids_never_clash_with_the_clients_own_boards(name, ttt):
    c = TestClient(create_app(gamesman=ttt, gamesman_id=name))
    [listed] = c.get("/gamesman/").json()
    assert listed["id"].startswith("perfectplay-") and listed["id"] not in CLIENT_BOARDS
    assert re.fullmatch(r"perfectplay-[a-z0-9]+", listed["id"])
    assert c.get(f"/gamesman/{listed['id']}/").status_code == 200
    bare = listed["id"].removeprefix("perfectplay-")
    missing = c.get(f"/gamesman/{bare}/")
    assert missing.status_code == 404
    assert missing.json() == {"error": f"no game {bare!r}; this server has {listed['id']!r}"}


# -- 3. the turn marker -----------------------------------------------------------------------
def test_the_turn_marker_follows_extra_turns(again):
    """GamesmanUni's runMove: firstPlayerTurn = (autoguiPosition[0] == '1') when it starts
    with 1_ or 2_, else it flips. Along a line with extra turns the client's player is the
    game's."""
    game = Again()
    c, base = api(again)
    variant = c.get(base).json()
    pos, shown = game.initial(), variant["startPosition"]
    first = variant["autoguiStartPosition"][0] != "2"  # initiateMatch
    extra = 0
    for k in (2, 1, 2, 2):
        r = ask(c, base, shown).json()
        assert r["autoguiPosition"][:2] == f"{game.player(pos) + 1}_"
        assert first == (game.player(pos) == 0)
        m = next(m for m in r["moves"] if m["move"] == game.move_name(k))
        child = game.play(pos, k)
        extra += game.player(child) == game.player(pos)
        assert m["autoguiPosition"][:2] == f"{game.player(child) + 1}_"
        auto = m["autoguiPosition"]
        first = auto[0] == "1" if auto[0] in "12" and auto[1] == "_" else not first
        pos, shown = child, m["position"]
    assert first == (game.player(pos) == 0) and extra == 3


def test_a_game_without_a_player_hook_is_marked_by_alternation(ttt):
    """Without ``player`` the turns alternate from the first player's: the start is 1_
    (GamesmanUni's initiateMatch and Restart read who starts from the first character),
    each child the other marker, and a position string sent back keeps its turn. Checked
    against the number of marks on the board, which tic-tac-toe's turn follows."""
    c, base = api(ttt)
    game = TTT_ENTRY.build()
    variant = c.get(base).json()
    assert variant["autoguiStartPosition"].startswith("1_")
    assert variant["startPosition"].endswith(f"~1_{game.initial()}")
    shown = variant["startPosition"]
    for depth in range(4):
        r = ask(c, base, shown).json()
        pos = int(r["position"].rpartition("_")[2])
        marks = 9 - "".join(game.draw(pos).split()).count(".")
        assert marks == depth and r["autoguiPosition"].startswith(f"{depth % 2 + 1}_")
        assert r["position"].endswith(f"~{depth % 2 + 1}_{pos}")
        for m in r["moves"]:
            assert m["autoguiPosition"].startswith(f"{(depth + 1) % 2 + 1}_")
            assert m["position"].rpartition("~")[2][:2] == m["autoguiPosition"][:2]
        shown = r["moves"][-1]["position"]
    bare = ask(c, base, str(game.initial())).json()  # a bare key of the start: player 1
    assert bare["autoguiPosition"].startswith("1_")


# -- 4. URL-safe position strings -------------------------------------------------------------
def test_positions_survive_the_clients_unescaped_query(again):
    """The picture holds # : & % + / ? \\ ~ tabs and line breaks; every position string is
    free of them and comes back through ?p= pasted as it is, and through a query decoded as
    a form (+ as a space)."""
    c, base = api(again)
    pos = Again().initial()
    r = c.get(f"{base}positions/").json()
    assert r["position"].startswith(
        "heap ♯7∶ ●●●●●●● | P1 to move ⅋ 50٪ ˖ more ∕ ʔ ∖ ~ end~")
    strings = [r["position"]] + [m["position"] for m in r["moves"]]
    for s in strings:
        assert not UNSAFE.search(s), s
        back = ask(c, base, s)
        assert back.status_code == 200 and back.json()["position"] == s
        assert ask(c, base, s.replace(" ", "+")).json()["position"] == s
    assert r["position"].rpartition("~")[2] == _key(pos)


@pytest.mark.parametrize(("p", "status", "words"), [
    ("import os", 422, "'import os' is not a position: after the last '~' comes the URL-safe "
                       "base64 of its Python literal (as the answers write it)"),
    ("heap~a b", 422, "'a b' is not a position"),
    ("x~" + base64.urlsafe_b64encode(b"__import__('os')").decode().rstrip("="), 422,
     "its base64 does not hold a Python literal"),
    ("x~_w", 422, "its base64 does not hold a Python literal"),  # bytes, not UTF-8
    ("x~" + _key((99, 0)), 404, "is not one this game reaches"),
    ("x~" + _key([7, 0]), 404,
     "is not one this game reaches"),  # a list: unhashable
    ("", 422, "'' is not a position"),
    ("x" * 10_001, 422, "the position is 10,001 characters; the limit is 10,000"),
])
def test_a_bad_position_gets_one_line_and_a_4xx(p, status, words, again):
    c, base = api(again)
    r = c.get(f"{base}positions/", params={"p": p})
    assert r.status_code == status
    [(key, text)] = r.json().items()
    assert key == "error" and words in text and "\n" not in text and len(text) < 300


@pytest.mark.parametrize(("p", "status", "words"), [
    ("a b c~12a", 422, "'12a' is not a position: after the last '~' comes the game's "
                       "integer code (as the answers write it)"),
    ("a b c~99999999999999999999999", 422, "is not a position"),
    ("a b c~7", 404, "is not one this game reaches"),  # X on a1 b1 c1 and no O: unreachable
])
def test_a_bad_code_gets_one_line_and_a_4xx(p, status, words, ttt):
    c, base = api(ttt)
    r = c.get(f"{base}positions/", params={"p": p})
    assert r.status_code == status and words in r.json()["error"]


# -- 5. the instructions route ----------------------------------------------------------------
def test_the_instructions_route_gives_the_rules(ttt):
    c, base = api(ttt)
    for locale in ("en-US", "es", None):
        r = c.get(f"{base}instructions/", params={} if locale is None else {"locale": locale})
        assert r.status_code == 200
        text = r.json()["instructions"]
        assert text.startswith(f"# {TTT_ENTRY.title}\n\n{TTT_ENTRY.rules}\n\n")
    c, base = api(solve(ExampleTicTacToe()))
    text = c.get(f"{base}instructions/").json()["instructions"]
    assert text.startswith("# TicTacToe\n\nA position is the board as a 9-character string")
    assert c.get(base.replace("standard", "misere") + "instructions/").status_code == 404


# -- 6. human-readable positions --------------------------------------------------------------
def test_a_compiled_game_shows_its_picture_and_move_names(ttt):
    """Catalog tic-tac-toe's positions are int codes; the client shows the board drawn."""
    c, base = api(ttt)
    start = c.get(base).json()["startPosition"]
    assert start == "a b c | 1 . . . | 2 . . . | 3 . . . | X to move~1_0"
    r = ask(c, base, start).json()
    assert sorted(m["move"] for m in r["moves"]) == sorted(
        f"{col}{row}" for col in "abc" for row in "123")
    b2 = next(m for m in r["moves"] if m["move"] == "b2")
    assert b2["position"].startswith("a b c | 1 . . . | 2 . X . | 3 . . . | O to move~")
    assert not re.fullmatch(r"-?\d+", b2["position"].split("~")[0])


# -- the real browser: CORS and raw ?p= as GamesmanUni sends them ----------------------------
PAGE = """<!doctype html><script>
async function load(url) {          // GamesmanUni's loadData, with fetch for axios.get
  const r = await fetch(url);
  const data = await r.json();
  if (!r.ok || "error" in data) throw new Error(url + ": " + JSON.stringify(data));
  return data;
}
window.walk = async (gameAPI, picks) => {
  const [game] = await load(gameAPI);
  const variant = await load(`${gameAPI}${game.id}/standard/`);
  let position = variant.startPosition;
  const seen = [];
  for (const pick of picks) {
    const p = await load(`${gameAPI}${game.id}/standard/positions/?p=${position}`);
    seen.push([position, p.position, p.autoguiPosition, p.moves.map(m => m.move)]);
    if (!p.moves.length) break;
    position = p.moves[pick % p.moves.length].position;
  }
  return seen;
};
</script>"""


@contextlib.contextmanager
def serving(app):
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.mark.browser
def test_chromium_reads_the_api_from_another_origin_only_with_cors(again):
    """A page on one port reads /gamesman on another exactly as GamesmanUni does (URLs
    concatenated, positions unescaped): blocked without --cors; with it, every position
    asked comes back as itself along a line with extra turns, pictures full of # & + %."""
    path = chromium()
    if path is None or not Path(path).exists():
        pytest.skip("no Chromium: set PERFECTPLAY_CHROMIUM or put chromium on PATH")
    sync_api = pytest.importorskip("playwright.sync_api")
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse
    from starlette.routing import Route

    async def page(_request):
        return HTMLResponse(PAGE)

    picks = [1, 0, 1, 1, 0, 1, 0, 0]
    with serving(Starlette(routes=[Route("/", page)])) as origin, \
            sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        tab = browser.new_page()
        tab.goto(origin + "/")
        with serving(create_app(gamesman=again, gamesman_id="again")) as closed:
            error = tab.evaluate("api => walk(api, [0]).then(() => 'read', e => "
                                 "String(e))", closed + "/gamesman/")
            assert error == "TypeError: Failed to fetch"  # CORS blocked it
        with serving(create_app(gamesman=again, gamesman_id="again",
                                cors=[origin])) as api_url:
            seen = tab.evaluate("([api, picks]) => walk(api, picks)",
                                [api_url + "/gamesman/", picks])
        browser.close()
    game = Again()
    pos = game.initial()
    assert len(seen) >= 4
    for (asked, answered, auto, moves), pick in zip(seen, picks, strict=False):
        assert answered == asked and "♯" in asked and "⅋" in asked
        assert auto.startswith(f"{game.player(pos) + 1}_")
        assert sorted(moves) == sorted(game.move_name(k) for k in game.moves(pos))
        if moves:
            name = moves[pick % len(moves)]
            pos = game.play(pos, next(k for k in game.moves(pos) if game.move_name(k) == name))
