"""The page's computer player (web/computer.py) and what the page's paste box reads
(web/notation.py), without a server.

- the perfect computer never lets a won position go: from every tic-tac-toe position it
  wins, whatever the other side answers (every reply tried), the game ends in its win, and
  in the number of moves the solution says; its move is the one the position route names;
- a weaker computer's choices have the distribution its documentation gives (a move that
  keeps the value: s / k + (1 - s) / n; any other: (1 - s) / n), counted over seeds;
- a live analysis' last line: the position's value, the best moves, the computer's move
  (also when the analysis stopped);
- pastes: Pons' column digits (the test sets' own strings, 1-based), a tic-tac-toe board,
  move names, and one clear line for a bad one.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache, lru_cache
from pathlib import Path

import pytest

from perfectplay import solve
from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.catalog.connect4.notation import position_from_moves
from perfectplay.catalog.othello import Othello
from perfectplay.catalog.tictactoe import TicTacToe
from perfectplay.engine import Value
from perfectplay.engine.proof.live import MoveReport
from perfectplay.engine.solved.solution import move_name
from perfectplay.errors import InputError
from perfectplay.web import live
from perfectplay.web.computer import choose_move, keeps_value
from perfectplay.web.explore import Explorer, explore
from perfectplay.web.gamescrafters import PositionCodec
from perfectplay.web.notation import read_paste

DATA = Path(__file__).parent / "data" / "connect4"


@lru_cache(maxsize=1)
def _tictactoe() -> Explorer:
    game = TicTacToe()
    return Explorer(solve(game, method="graph", progress=False), PositionCodec(game),
                    "tictactoe", "Tic-tac-toe")


def test_the_perfect_computer_never_lets_a_won_position_go():
    ex = _tictactoe()
    solved, game = ex.solved, ex.solved.game
    won = [p for p in solved.positions() if solved.value(p) is Value.WIN]
    assert len(won) > 1_000

    @cache
    def plies_to_win(pos: int) -> int:
        """The computer (to move at ``pos``) plays the route's perfect move; every reply
        of the other side is tried: the most plies it takes to win (an AssertionError if
        any line does not end in its win)."""
        name = explore(ex, {"p": str(pos), "strength": "1", "seed": "0"})["computer"]
        move = next(m for m in game.moves(pos) if move_name(game, m) == name)
        after = game.play(pos, move)
        if game.outcome(after) is not None:
            assert game.outcome(after) is Value.LOSE  # the other side has lost
            return 1
        return 1 + max(1 + plies_to_win(game.play(after, reply))
                       for reply in game.moves(after))

    for pos in won[::7]:  # a seventh of them, spread over the game: a few hundred
        assert plies_to_win(pos) == solved.remoteness(pos), game.draw(pos)


def test_a_weaker_computer_chooses_as_documented():
    """Three moves keep a win (of 7), at strength 0.6: each has 0.6 / 3 + 0.4 / 7, every
    other 0.4 / 7; counted over 20,000 seeds (5 standard deviations of slack)."""
    moves = [("4", "win", None, 3), ("3", "win", None, 9), ("5", "win", None, 11),
             ("1", "tie", None, 30), ("2", "lose", None, 8), ("6", "lose", None, 4),
             ("7", "lose", None, 2)]
    assert [m[0] for m in keeps_value(moves)] == ["4", "3", "5"]
    n, s = 20_000, 0.6
    counts = Counter(choose_move(moves, s, seed=k, ply=5) for k in range(n))
    for name, *_ in moves:
        p = s / 3 + (1 - s) / 7 if name in "435" else (1 - s) / 7
        assert abs(counts[name] / n - p) < 5 * (p * (1 - p) / n) ** 0.5, (name, counts)
    # the draw is the seed's: the same seed and ply choose the same move
    assert [choose_move(moves, s, seed=9, ply=k) for k in range(20)] == \
        [choose_move(moves, s, seed=9, ply=k) for k in range(20)]
    assert {choose_move(moves, 1.0, seed=k) for k in range(50)} == {"4"}
    uniform = Counter(choose_move(moves, 0.0, seed=k, ply=0) for k in range(7_000))
    assert set(uniform) == {m[0] for m in moves}
    with pytest.raises(InputError, match="from 0 to 1"):
        choose_move(moves, 1.5)


def test_a_scored_games_weaker_computer_keeps_the_margin_not_just_the_sign():
    moves = [("a", "win", 4, 9), ("b", "win", 4, 12), ("c", "win", 2, 5)]
    assert [m[0] for m in keeps_value(moves)] == ["a", "b"]


def _pons_line(name: str, k: int) -> tuple[str, int]:
    text = (Path(__file__).parent / "data" / "connect4" / name).read_text().splitlines()[k]
    moves, score = text.split()
    return moves, int(score)


def test_pons_digits_are_read_as_columns_from_one():
    """Pons' own strings are 1-based (the test files here are 0-based, Steininger's
    renumbering): the file's line with each digit plus one is the same position."""
    game = ConnectFour(7, 6)
    zero_based, _ = _pons_line("7x6_midgame_L1.txt", 0)
    pons = "".join(str(int(c) + 1) for c in zero_based)
    read = read_paste("connect4", game, pons)
    assert read["moves"] == list(pons) and read["key"] is None
    pos = game.initial()
    for name in read["moves"]:
        pos = game.play(pos, int(name) - 1)
    assert pos == position_from_moves(game, zero_based)
    assert read_paste("connect4", game, "4, 4 5")["moves"] == ["4", "4", "5"]


def test_a_tictactoe_board_is_read_whole():
    read = read_paste("tictactoe", TicTacToe(), "X.. | .O. | ..x")
    game = TicTacToe()
    pos = game.play(game.play(game.play(game.initial(), 0), 4), 8)
    assert read == {"moves": [], "key": str(pos), "notation": "a board"}


def _othello_lines(n: int, count: int, seed: int):
    """(positions, move names) along random lines of Othello n x n, passes included."""
    game, rng = Othello(n), random.Random(seed)
    for _ in range(count):
        pos, names = game.initial(), []
        for _ in range(rng.randint(0, n * n - 4)):
            if game.outcome(pos) is not None:
                break
            move = rng.choice(list(game.moves(pos)))
            pos, names = game.play(pos, move), names + [game.move_name(move)]
        yield pos, names


def _board_text(game, pos, black: str = "X", white: str = "O") -> str:
    """Othello's board row by row from a1, written from the game's bits here (not by the
    reader), then the side to move."""
    b, w, turn = game.board(pos)
    n = game.size
    rows = ["".join(black if b >> (8 * r + c) & 1 else white if w >> (8 * r + c) & 1
                    else "." for c in range(n)) for r in range(n)]
    return " / ".join(rows) + " " + (white if turn else black)


@pytest.mark.parametrize("n", [4, 6])
def test_othello_transcripts_and_boards_are_read(n):
    """A game record's transcript (moves run together) plays the same moves; a board
    with its side to move (X/O or B/W, as engines print it) is the very position."""
    game = Othello(n)
    for pos, names in _othello_lines(n, 25, seed=n):
        if len([m for m in names if m != "pass"]) >= 2:
            read = read_paste("othello", game, "".join(names))
            assert read == {"moves": names, "key": None, "notation": "a transcript"}
        for black, white in (("X", "O"), ("B", "W")):
            read = read_paste("othello", game, _board_text(game, pos, black, white))
            assert read == {"moves": [], "key": str(pos), "notation": "a board"}
    start = game.initial()
    one = game.move_name(game.moves(start)[0])
    spaced = read_paste("othello", game, f" {one}, ")  # one move, spaced: read as names
    assert spaced == {"moves": [one], "key": None, "notation": "moves"}


@pytest.mark.parametrize(("text", "words"), [
    ("..../.OX./.XO./....", "ends with the side to move"),
    ("..../..X./.XO./.... X", "the four centre squares hold discs"),
    ("c4c4", "move 2 ('c4') is not legal there"),
])
def test_a_bad_othello_paste_says_why(text, words):
    with pytest.raises(InputError) as info:
        read_paste("othello", Othello(4), text)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_a_served_game_is_read_by_its_catalog_games_notation():
    """``serve --store`` of a Connect Four book: the page names no catalog game, and the
    digits are still Pons' (the reader of the game's own class)."""
    read = read_paste("", ConnectFour(4, 4), "1234")
    assert read["notation"] == "Pons' column digits" and read["moves"] == list("1234")


@pytest.mark.parametrize(("name", "text", "words"), [
    ("connect4", "4483", "'8' is not a column (1..7)"),
    ("connect4", "1111111", "column 1 is full"),
    ("connect4", "4, 9", "move 2 ('9') is not legal there; legal: 1, 2, 3, 4, 5, 6, 7"),
    ("connect4", "4,4,4,4,4,4,4", "move 7 ('4') is not legal there; legal: 1, 2, 3, 5, 6, 7"),
    ("tictactoe", "xxx......", "X has as many marks as O or one more (X 3, O 0)"),
    ("tictactoe", "b2 b2", "move 2 ('b2') is not legal there"),
])
def test_a_bad_paste_gets_one_line_saying_why(name, text, words):
    game = ConnectFour(7, 6) if name == "connect4" else TicTacToe()
    with pytest.raises(InputError) as info:
        read_paste(name, game, text)
    assert words in str(info.value) and "\n" not in str(info.value)


def _report(name: str, value, rem, exact: bool = True) -> MoveReport:
    words = "nothing proven" if value is None else value.value
    return MoveReport(move=int(name), name=name, value=value, remoteness=rem, lower=words,
                      upper=words, exact=exact, source="search")


def test_a_live_analysis_ends_with_the_positions_value_and_the_computers_move():
    """The stream's last line (web/live.py): the position's value is its best move's (the
    engine's order: a win as quick as possible), each move's delta remoteness is UWAPI's,
    and the computer plays the best move; an analysis stopped before every move was exact
    still names a move for the computer: the best whose value is proven."""
    game = TicTacToe()
    codec, pos = PositionCodec(game), game.initial()
    reports = {"1": _report("1", Value.WIN, 7), "2": _report("2", Value.WIN, 5),
               "3": _report("3", Value.LOSE, 4)}
    done = live._done(codec, pos, 0, False, reports, False, 0.0, {"strength": "1"}, 0)
    assert (done["value"], done["remoteness"], done["best"]) == ("win", 5, ["2"])
    assert done["delta"] == {"2": 0, "1": 2, "3": 0}
    assert done["summary"] == "Player 1 should win in 5" and done["computer"] == "2"
    reports["2"] = _report("2", None, None, exact=False)
    done = live._done(codec, pos, 0, False, reports, True, 0.0, {"strength": "1"}, 0)
    assert not done["exact"] and "value" not in done and done["computer"] == "1"


def test_a_live_games_history_shows_the_values_of_analysed_positions():
    """The worker remembers each exact analysis: a move played from an analysed position
    is shown with the mover's value before and after it (the analysis' best move and this
    move, in the same words), marked a mistake when worse, and plotted from the first
    player's side; a move from a position never analysed is listed by name alone."""
    import threading

    from perfectplay.web.positions import first_player_view, words

    call = "connect4(width=7, height=6)"
    for text in (DATA / "7x6_endgame_L1.txt").read_text().splitlines():
        names = [str(int(c) + 1) for c in text.split()[0]]
        lines = list(live.live_analysis(call, {"moves": ",".join(names)}, threading.Event()))
        moves = {ln["name"]: ln for ln in lines[:-1]}  # the last report of each move
        if len({m["value"] for m in moves.values()}) > 1:
            break  # a position with good and bad moves
    done = lines[-1]
    assert done["kind"] == "done" and done["exact"]
    words_of = {"win": Value.WIN, "lose": Value.LOSE, "tie": Value.TIE}
    mover = len(names) % 2  # Connect Four alternates
    best_words = words(words_of[done["value"]], done["remoteness"], False)
    mistakes = []
    for name, m in moves.items():
        answer = live.live_position(call, {"p": None, "moves": ",".join([*names, name])})
        ply = answer["history"][-1]
        value = words_of[m["value"]]
        assert (ply["name"], ply["before"]) == (name, best_words)
        assert ply["after"] == words(value, m["remoteness"], False)
        order = {"lose": 0, "tie": 1, "win": 2}  # a worse value is a mistake, not a slower win
        assert ply["mistake"] == (order[m["value"]] < order[done["value"]])
        mistakes.append(ply["mistake"])
        assert ply["chart_after"] == first_player_view(value, mover)
        assert ply["chart_before"] == first_player_view(words_of[done["value"]], mover)
        earlier = answer["history"][-2]  # played from a position never analysed here
        assert (earlier["before"], earlier["chart_before"], earlier["mistake"]) == (
            "", None, False)
    assert True in mistakes and False in mistakes  # the position has both kinds of move


def test_a_pasted_lines_history_is_filled_in_the_latest_move_first(monkeypatch):
    """A line never analysed here (a pasted Pons end-game position): /history analyses the
    positions it passed through, the latest first, and gives each move the mover's value
    before it and the move's value, checked against the proof search of each position and
    of the position the move led to; the worker remembers them, so /position shows them
    too. A line the time cuts short says so (``complete`` false) and keeps what it proved."""
    import threading
    from collections import OrderedDict

    from perfectplay import search
    from perfectplay.web.positions import words

    monkeypatch.setattr(live, "_proven", OrderedDict())
    monkeypatch.setattr(live, "HISTORY_SECONDS", 3.0)
    call = "connect4(width=7, height=6)"
    text = (DATA / "7x6_endgame_L1.txt").read_text().splitlines()[3]
    names = [str(int(c) + 1) for c in text.split()[0]]
    lines = list(live.live_history(call, {"moves": ",".join(names)}, threading.Event()))
    plies, done = lines[:-1], lines[-1]
    assert done["kind"] == "done" and done["complete"] is (len(plies) == len(names))
    assert [p["index"] for p in plies] == list(range(len(names) - 1, len(names) - 1
                                                     - len(plies), -1))
    assert len(plies) >= 3  # end-game positions are proven in milliseconds
    game, codec, _ = live.live_game(call)
    flip = {Value.WIN: Value.LOSE, Value.LOSE: Value.WIN, Value.TIE: Value.TIE}
    for line in plies[:6]:
        i, ply = line["index"], line["ply"]
        before = codec.read(codec.key(game.initial()))
        for name in names[:i]:
            before = game.play(before, int(name) - 1)
        here = search(game, before, progress=False)
        after = search(game, game.play(before, int(names[i]) - 1), progress=False)
        assert ply["name"] == names[i] and ply["turn"] == ("first" if i % 2 == 0 else "second")
        assert ply["before"] == words(here.value, here.remoteness, False)
        assert ply["after"] == words(flip[after.value], after.remoteness + 1, False)
        assert ply["mistake"] == (ply["before"].split()[0] != ply["after"].split()[0])
    shown = live.live_position(call, {"p": None, "moves": ",".join(names)})["history"]
    assert [shown[p["index"]] for p in plies] == [p["ply"] for p in plies]


def test_a_live_search_takes_two_threads_where_the_process_has_two_cpus(monkeypatch):
    """The page's live analysis searches with both cores of a small server (docs/benchmarks.md:
    the p95 2.65 s -> 1.95 s), and with one where the process may run on one CPU only
    (taskset, a cpuset)."""
    for cpus, threads in ((1, 1), (2, 2), (8, 2)):
        monkeypatch.setattr(live.os, "sched_getaffinity", lambda _pid, n=cpus: set(range(n)),
                            raising=False)
        assert live._search_threads() == threads


@pytest.mark.parametrize(("seed", "status"), [("abc", 422), ("1.5", 422), ("7", 200),
                                              ("-3", 200), ("1" * 21, 422)])
def test_a_seed_is_a_whole_number_or_a_422(seed, status):
    """``seed`` seeds the computer's draw: a whole number, as a bad ``strength`` is refused
    (it was taken as any string)."""
    from urllib.parse import quote

    from starlette.testclient import TestClient

    from perfectplay.web.app import create_app
    from perfectplay.web.computer import check_seed

    with TestClient(create_app()) as c:
        r = c.get(f"/api/games/{quote('tictactoe')}/position",
                  params={"strength": "0.5", "seed": seed})
    assert r.status_code == status, r.text
    if status == 422:
        assert "seed must be a whole number" in r.json()["detail"]
    else:
        assert r.json()["computer"] and check_seed(seed) == int(seed)
