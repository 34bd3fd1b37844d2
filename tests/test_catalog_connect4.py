"""What only Connect Four has (the generic catalog checks are in test_catalog.py; its search
hooks against strong solutions are in test_connect4_hooks.py): the bitboard against the
Python twin on the extreme boards the int64 key allows (the tallest, the widest, boards whose
columns take more than 8, 16 or 32 bits), the mirror symmetry, the published table as
transcribed, the parameters' limits, move names, drawing and picture."""

from __future__ import annotations

import functools
import random

import pytest

from perfectplay.catalog.connect4 import GAME, ConnectFour, ConnectFourPy
from perfectplay.catalog.connect4.bitboard import MAX_BITS
from perfectplay.catalog.connect4.published import OUTCOMES, POSITIONS
from perfectplay.errors import InputError

#: Boards at the edges of the key: every column's marker smear (split) takes the H1 > 8,
#: > 16 and > 32 branches on some of them; 31 x 1 and 1 x 61 fill all 62 bits.
EDGES = [(7, 6), (31, 1), (1, 61), (2, 30), (3, 19), (6, 9), (4, 4)]


@functools.cache
def pair(width: int, height: int) -> tuple[ConnectFour, ConnectFourPy]:
    return GAME.build(width=width, height=height), ConnectFourPy(width, height)


def mirror(game: ConnectFour, code: int) -> int:
    """The code of the board with its columns reversed, computed here from the key."""
    h1, w = game.height + 1, game.width
    return sum(((code >> (c * h1)) & ((1 << h1) - 1)) << ((w - 1 - c) * h1) for c in range(w))


@pytest.mark.parametrize(("width", "height"), EDGES)
def test_the_key_agrees_with_the_twin_along_random_lines_on_extreme_boards(width: int,
                                                                           height: int) -> None:
    """40 random games each: at every position the legal columns, the outcome, the board
    drawn, the stone count (the tier), the empty cells (the horizon) and the canonical code
    (the smaller of the board and its mirror) agree with the twin's own reading."""
    fast, twin = pair(width, height)
    rng = random.Random(width * 100 + height)
    for _ in range(40):
        p, q = fast.initial(), twin.initial()
        while True:
            assert fast.outcome(p) == twin.outcome(q), (fast.draw(p), q)
            stones = sum(map(len, q))
            rows = [
                "".join(q[c][r] if r < len(q[c]) else "." for c in range(width))
                for r in range(height - 1, -1, -1)]
            assert fast.stones(p) == (rows, stones)
            assert fast.tier(p) == stones and fast.horizon(p) == width * height - stones
            assert fast.canonical(p) == min(p, mirror(fast, p)) == fast.canonical(
                mirror(fast, p))
            moves = fast.moves(p)
            if fast.outcome(p) is not None:
                assert moves == [] and (twin.outcome(q) is not None)
                break
            assert moves == twin.moves(q)
            c = rng.choice(moves)
            p, q = fast.play(p, c), twin.play(q, c)


def test_the_published_table_is_consistent_as_transcribed() -> None:
    """Steininger's two tables read together: a tie fills the board (the last move is the
    W*H-th); the first player's stones are the odd plies, the second player's the even
    ones; every width-4 board is a tie (Tromp); and every count of positions is of a board
    the table solves."""
    for (w, h), (value, plies) in OUTCOMES.items():
        assert 7 <= plies <= w * h, (w, h)
        if value == "tie":
            assert plies == w * h, (w, h)
        else:
            assert plies % 2 == (1 if value == "win" else 0), (w, h)
        if w == 4:
            assert value == "tie", (w, h)
    assert set(POSITIONS) <= set(OUTCOMES)
    assert OUTCOMES[(7, 6)] == ("win", 41) and POSITIONS[(7, 6)] == 4_531_985_219_092
    listed = {(p.args["width"], p.args["height"]) for p in GAME.published}
    assert listed == {wh for wh in OUTCOMES if wh[0] * (wh[1] + 1) <= MAX_BITS}


def test_the_board_must_fit_the_key_and_the_sentence_says_so() -> None:
    with pytest.raises(InputError, match=r"width \* \(height \+ 1\) <= 62, and 9 \* \(6 \+ 1\)"):
        GAME.build(width=9, height=6)
    with pytest.raises(InputError, match="height must be at least 1"):
        GAME.build(width=7, height=0)
    with pytest.raises(ValueError, match="does not fit an int64 key"):
        ConnectFour(8, 7)
    assert GAME.build(width=31, height=1).max_moves == 31
    assert "4,531,985,219,092 positions" in GAME.size({"width": 7, "height": 6})
    assert "no published count" in GAME.size({"width": 9, "height": 5})


def test_moves_are_columns_named_from_one() -> None:
    game, _ = pair(7, 6)
    assert [game.move_name(m) for m in game.moves(game.initial())] == list("1234567")
    assert [game.parse_move(t) for t in ("1", " 7 ", "4")] == [0, 6, 3]
    assert [game.parse_move(t) for t in ("0", "8", "-1", "x", "", "3.0", "٣")] == [None] * 7
    wide, _ = pair(31, 1)
    assert wide.parse_move("31") == 30 and wide.draw(wide.initial()).splitlines()[-1] == \
        "1234567890" * 3 + "1"


def test_the_drawing_shows_whose_stones_and_the_columns() -> None:
    game, _ = pair(4, 4)
    pos = game.initial()
    for c in (1, 1, 2, 0):  # X in column 2, O on top of it, X in 3, O in 1
        pos = game.play(pos, c)
    assert game.draw(pos).splitlines() == ["....", "....", ".O..", "OXX.", "1234"]


def test_the_picture_draws_every_cell() -> None:
    figure = pytest.importorskip("matplotlib.figure")
    game, _ = pair(5, 4)
    ax = figure.Figure().subplots()
    game.plot(game.play(game.initial(), 2), ax)
    assert len(ax.patches) == 1 + 5 * 4  # the board, then one disc a cell
    assert [t.get_text() for t in ax.get_xticklabels()] == list("12345")


def test_a_full_column_named_again_is_refused_not_read_as_another() -> None:
    """Column 1 is the move coded 0: once it is full, "1" names no legal move (its str
    would name the code-1 move, the second column, which must never be played for it)."""
    from perfectplay.engine.solved.solution import play_moves

    game = ConnectFour(4, 4)
    full = play_moves(game, "1,1,1,1")
    assert 0 not in game.moves(full)
    with pytest.raises(InputError, match=r"move 5 \('1'\) is not legal there; legal: 2, 3, 4"):
        play_moves(game, "1,1,1,1,1")


def _columns(game: ConnectFour, code: int) -> tuple[str, ...]:
    """The board of ``code`` as the twin writes it: each column's stones, bottom first."""
    rows, _ = game.stones(code)
    h = game.height
    return tuple("".join(rows[h - 1 - r][c] for r in range(h) if rows[h - 1 - r][c] != ".")
                 for c in range(game.width))


@pytest.mark.parametrize(("w", "h"), [(2, 2), (3, 2), (7, 2), (20, 2), (5, 1), (31, 1),
                                      (4, 3), (3, 4), (6, 5), (5, 9), (3, 17), (1, 61)])
def test_every_board_shape_plays_as_the_twin(w, h):
    """Random games on boards of every column height (the bit smear of ``split`` takes
    steps by column height: 3-bit columns, height 2, once lost stones across columns):
    each board, legal moves, outcome and ``valid`` agree with the Python twin's."""
    game, twin = ConnectFour(w, h), ConnectFourPy(w, h)
    for seed in range(25):
        rng, pos, ref = random.Random(seed), game.initial(), twin.initial()
        while True:
            assert _columns(game, pos) == ref and game.decode(pos) == pos
            assert game.outcome(pos) == twin.outcome(ref)
            if twin.outcome(ref) is not None:
                break
            assert game.moves(pos) == twin.moves(ref)
            move = rng.choice(twin.moves(ref))
            pos, ref = game.play(pos, move), twin.play(ref, move)
