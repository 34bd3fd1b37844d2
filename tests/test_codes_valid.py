"""A compiled game's ``valid`` rule: Connect Four and Kalah refuse every int64 that is not
one of their position codes before a kernel reads it (a code typed into ``?p=`` once
crashed the server's worker), and accept every position play reaches.

Each game's rule is held against an oracle written apart from its kernels: Connect Four's
from the board read bit by bit (a marker over each column, the mover's share of the stones,
no four of the mover's), Kalah's from the set of codes ``pack`` gives every layout of the
seeds. The web, the stores and the search then refuse such codes with one line."""

import random
import re
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.catalog.kalah import Kalah
from perfectplay.engine import search
from perfectplay.errors import GameError
from perfectplay.store import open_store
from perfectplay.store.book import build_book
from perfectplay.store.packed import refused
from perfectplay.web.app import create_app


# -- Connect Four ---------------------------------------------------------------------------
def c4_oracle(code: int, w: int, h: int) -> bool:
    """Whether ``code`` is a Connect Four position's, read cell by cell: each column's h + 1
    bits hold a marker over its stones (1 the mover's), nothing past the last column, the
    mover holding half the stones (rounded down) and no four in a row of the mover's."""
    if code < 0 or code >> (w * (h + 1)):
        return False
    mine, stones = set(), 0
    for c in range(w):
        field = (code >> (c * (h + 1))) & ((1 << (h + 1)) - 1)
        if field == 0:
            return False
        height = field.bit_length() - 1
        stones += height
        mine |= {(c, r) for r in range(height) if field >> r & 1}
    if len(mine) != stones // 2:
        return False
    lines = ((1, 0), (0, 1), (1, 1), (1, -1))
    return not any(all((c + k * dc, r + k * dr) in mine for k in range(4))
                   for (c, r) in mine for dc, dr in lines)


def walk(game, seed: int) -> list[int]:
    """The codes of one random game from the start to its end."""
    rng, pos, seen = random.Random(seed), game.initial(), []
    while True:
        seen.append(pos)
        moves = game.moves(pos)
        if not moves:
            return seen
        pos = game.play(pos, rng.choice(moves))


@pytest.fixture(scope="module")
def c4_7x6():
    return ConnectFour(7, 6)


def test_connect_four_4x4_valid_is_the_oracle_on_every_code():
    """All 2**20 codes of the 4x4 board: the kernel and the oracle agree on each."""
    game = ConnectFour(4, 4)
    codes = np.arange(1 << 20, dtype=np.int64)
    bad = set(refused(codes, game.valid).tolist())
    wrong = [c for c in range(1 << 20) if (c not in bad) != c4_oracle(c, 4, 4)]
    assert wrong == []
    assert len(bad) < (1 << 20) - 10_000  # thousands of positions are valid, most codes not


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=-(2**63) + 1, max_value=2**63 - 1))
def test_connect_four_7x6_refuses_what_the_oracle_refuses(c4_7x6, code):
    assert bool(c4_7x6.valid(np.int64(code))) == c4_oracle(code, 7, 6)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_every_position_of_a_random_game_is_valid_and_one_bit_off_is_judged_alike(c4_7x6,
                                                                                 seed):
    for pos in walk(c4_7x6, seed):
        assert c4_7x6.decode(pos) == pos and c4_oracle(pos, 7, 6)
        near = pos ^ (1 << random.Random(seed + pos).randrange(63))
        assert bool(c4_7x6.valid(np.int64(near))) == c4_oracle(near, 7, 6)


def test_a_code_that_is_no_position_is_a_value_error_in_words(c4_7x6):
    for code, words in [(-3, "the code -3 is not a position of ConnectFour(7, 6)"),
                        (1, "the code 1 is not a position of ConnectFour(7, 6)"),
                        (2**63, "outside int64"), ("12", "a code is an int")]:
        with pytest.raises(ValueError, match=re.escape(words)):
            c4_7x6.decode(code)


def test_search_refuses_a_code_that_is_no_position(c4_7x6):
    with pytest.raises(GameError, match="the code -3 is not a position of ConnectFour"):
        search(c4_7x6, -3)


# -- Kalah -----------------------------------------------------------------------------------
def kalah_codes(game: Kalah) -> set[int]:
    """Every position code of ``game``: ``pack`` of each layout of at most all its seeds on
    the board (stores are not in the code), either player to move."""
    m, total = game.houses, 2 * game.houses * game.seeds
    return {int(game._pack(np.array(pits, np.int64), who))
            for pits in product(range(total + 1), repeat=2 * m) if sum(pits) <= total
            for who in (0, 1)}


@pytest.mark.parametrize("ranked", [False, True])
def test_kalah_2_2_valid_is_exactly_the_packed_layouts(ranked):
    """Every code up to past the last position's: valid exactly on the 2 x C(12, 4) codes
    that ``pack`` gives."""
    game = Kalah(2, 2, ranked=ranked)
    want = kalah_codes(game)
    assert len(want) == 2 * 495
    top = max(want) + (1 << 15) + 7
    codes = np.arange(-5, top, dtype=np.int64)
    bad = set(refused(codes, game.valid).tolist())
    got = {int(codes[i]) for i in range(codes.size) if i not in bad}
    assert got == want


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_kalah_6_4_positions_of_random_games_are_valid(seed):
    game = Kalah(6, 4)
    assert game.wide  # the ranked code, as the page plays it
    for pos in walk(game, seed):
        assert game.decode(pos) == pos
        pits, who = game.houses_of(pos)
        assert int(game._pack(np.array(pits, np.int64), who)) == pos


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=-(2**63) + 1, max_value=2**63 - 1))
def test_kalah_6_4_refuses_a_code_that_does_not_repack(code):
    """Random int64s: valid exactly when the rank is in range and its houses pack back to
    the code (the oracle reads the rank's houses in Python)."""
    game = Kalah(6, 4)
    total, m = 48, 6
    from math import comb
    ok = code >= 0 and code >> 15 < comb(total + 2 * m, 2 * m)
    if ok:
        pits, who = game.houses_of(code)
        ok = int(game._pack(np.array(pits, np.int64), who)) == code
    assert bool(game.valid(np.int64(code))) == ok


# -- where codes come from people ------------------------------------------------------------
LIVE = {"kalah(houses=6, seeds=4, empty_capture=True)": "Kalah",
        "connect4(width=7, height=6)": "Connect Four"}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("target", list(LIVE))
@pytest.mark.parametrize(("p", "words"), [
    ("-3", "the code -3 is not a position of this game"),
    ("99999999999999999999", "codes are int64"),
    ("x~-1", "the code -1 is not a position of this game")])
def test_the_live_page_refuses_a_code_in_one_line_and_goes_on(client, target, p, words):
    from urllib.parse import quote
    for route in ("position", "analysis"):
        r = client.get(f"/api/games/{quote(target)}/{route}", params={"p": p})
        assert r.status_code == 422, r.text
        assert r.json()["detail"].startswith(f"the position {p!r} is not one of "
                                             f"{LIVE[target]}: ")
        assert words in r.json()["detail"]
    r = client.get(f"/api/games/{quote(target)}/position")  # the worker is still there
    assert r.status_code == 200 and r.json()["moves"]


def test_an_ended_live_position_is_game_over_not_stopped(client):
    """Kalah's code 1: no seed on the board, north to move: the game is over, level."""
    from urllib.parse import quote
    target = quote("kalah(houses=6, seeds=4, empty_capture=True)")
    lines = client.get(f"/api/games/{target}/analysis", params={"p": "1"}).json()
    assert lines["exact"] and lines["summary"] == "Game over: a tie"


def test_a_served_book_refuses_codes_that_are_no_positions(tmp_path):
    """``serve --store BOOK``: a code that is no position is a 404 in words, not the value
    of whatever rank it lands on; one past int64 a 422; CORS headers on both."""
    from perfectplay.cli.serve import _served_game
    game = ConnectFour(4, 4)
    build_book(game, 2, tmp_path / "bk", game_ref="connect4(width=4, height=4)")
    solved, gid = _served_game(str(tmp_path / "bk"), None)
    app = create_app(gamesman=solved, gamesman_id=gid, cors=["http://localhost:8080"])
    c = TestClient(app)
    [listed] = c.get("/gamesman/").json()
    base = f"/gamesman/{listed['id']}/standard/positions/"
    head = {"Origin": "http://localhost:8080"}
    for p, status in (("1", 404), ("-3", 404), ("99999999999999999999", 422)):
        r = c.get(base, params={"p": p}, headers=head)
        assert r.status_code == status, (p, r.text)
        assert "is not" in r.json()["error"] and "\n" not in r.json()["error"]
        assert r.headers["access-control-allow-origin"] == "http://localhost:8080"
    assert c.get(base, params={"p": str(game.initial())}).status_code == 200
    with open_store(tmp_path / "bk", game) as store:
        got = store.lookup([1, -3, game.initial()])
        assert got["found"].tolist() == [False, False, True]
