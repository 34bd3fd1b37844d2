"""What a search prints speaks the user's words: moves by name beside their codes in the
JSON (and a name fed back to --moves plays that move), the header says which position and
whose turn, a stopped search says "not proven yet" and what is proven, progress asks its
question in words, and compiling is reported apart from searching."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from perfectplay import search
from perfectplay.cli import main
from perfectplay.engine.proof.result import bound_words, window_words
from perfectplay.engine.solved.solution import move_name, play_moves

TTT = "examples/tictactoe.py:TicTacToe"


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_json_names_every_move_beside_its_code_and_the_name_plays_it_back() -> None:
    code, out = _run("search", TTT, "--moves", "b2", "--analyze", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["best_move_name"] in {m["name"] for m in data["moves"]}
    assert {m["name"] for m in data["moves"]} == {"a1", "b1", "c1", "a2", "c2", "a3", "b3",
                                                  "c3"}
    for m in data["moves"]:  # each name is the code's name, as the text prints it
        assert m["name"] == "abc"[m["move"] % 3] + str(m["move"] // 3 + 1)
    assert data["board"].splitlines()[0] == "  a b c"
    # a script feeds the JSON's name back: it plays the move the JSON meant
    code, out2 = _run("search", TTT, "--moves", f"b2,{data['best_move_name']}", "--json")
    assert code == 0, out2
    board = json.loads(out2)["position"]
    assert board[4] == "X" and board[data["best_move"]] == "O"


def test_the_header_says_the_moves_and_whose_turn_it_is() -> None:
    code, out = _run("search", TTT, "--moves", "b2,a1,c3")
    assert code == 0, out
    assert out.splitlines()[0].endswith("after b2,a1,c3; the second player to move")
    code, out = _run("search", TTT)
    assert "the start; the first player to move" in out.splitlines()[0]


def test_a_stopped_search_says_what_is_not_proven_yet() -> None:
    from perfectplay.games import nim

    result = search(nim(heaps=(9, 10, 11, 12)), node_limit=3)
    assert not result.exact and result.value is None
    assert result.describe().startswith("not proven yet: ")
    text = result.explain()
    assert "best move: not proven yet" in text
    assert "the game has ended" not in text


@pytest.mark.parametrize(("lower", "upper", "words"), [
    ("lose in 1", "win in 1", "nothing is proven of its value"),
    ("tie", "win in 1", "at least tie"),
    ("lose in 1", "lose in 12", "at most lose in 12"),
    ("tie", "win in 9", "between tie and win in 9"),
    ("-inf", "+inf", "nothing is proven of its value"),
    ("+2", "+inf", "at least +2"),
])
def test_bounds_in_words(lower: str, upper: str, words: str) -> None:
    assert bound_words(lower, upper) == words


def test_progress_asks_its_question_in_words_with_no_sentinel() -> None:
    assert window_words(0, 1, False) == "is it better than a tie?"
    assert window_words(-1, 0, False) == "is it at least a tie?"
    mate = 1 << 19
    assert window_words(mate - 10, mate - 9, False) == "is it better than win in 10?"
    assert "524287" not in window_words(0, 1, False)
    assert window_words(3, 4, True) == "is the margin above +3?"


def test_names_come_from_the_game() -> None:
    from perfectplay.engine.target import load_target

    game = load_target(TTT)
    pos = play_moves(game, "b2")
    assert [move_name(game, m) for m in game.moves(pos)][:2] == ["a1", "b1"]


def test_solve_and_search_save_a_picture_of_the_position(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "start.png"
    code, out = _run("solve", "tictactoe", "--png", str(png))
    assert code == 0, out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5_000
    svg = tmp_path / "after.svg"
    code, out = _run("search", "nim(heaps=(3, 4, 5))", "--moves", "5>1", "--png", str(svg))
    assert code == 0, out
    text = svg.read_text()
    assert "<svg" in text and "the second player to move" in text


def test_a_picture_path_is_checked_before_any_work(tmp_path) -> None:
    code, out = _run("solve", "tictactoe", "--png", str(tmp_path / "start.gif"))
    assert code != 0 and "png" in out.lower() and "Traceback" not in out
    code, out = _run("search", "tictactoe", "--png", str(tmp_path / "no" / "such" / "x.png"))
    assert code != 0 and "Traceback" not in out


def test_the_solve_header_names_the_game_and_whose_turn_not_a_code() -> None:
    code, out = _run("solve", "tictactoe")
    assert code == 0, out
    assert out.splitlines()[0] == "start: TicTacToe, the first player to move"


def test_the_first_solve_of_a_compiled_game_says_it_compiles_on_a_terminal() -> None:
    """A pty is a terminal: the notice comes before the answer; a pipe gets the answer
    alone (a log is not cluttered)."""
    import subprocess
    import sys

    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, ["-m", "perfectplay", "solve", "tictactoe"],
                          encoding="utf-8", timeout=300)
    child.expect("compiling TicTacToe's kernels")
    child.expect("start: TicTacToe, the first player to move")
    child.expect(pexpect.EOF)
    piped = subprocess.run([sys.executable, "-m", "perfectplay", "solve", "tictactoe"],
                           capture_output=True, text=True, timeout=300)
    assert piped.returncode == 0 and "compiling" not in piped.stderr + piped.stdout
