"""The check made by default (issue 68, "checked by default, cheaply"): a Connect Four 4x4
written the classic wrong way (whose turn it is kept on the game object and flipped in
``play``) was solved as "lose in 10" over 512 positions, exit 0, by ``solve()`` and by
``perfectplay solve FILE.py:ConnectFour``; the truth is a tie in 16 over 161,029 positions.
Now ``solve()``, ``search()``, ``search_many()`` and every command that loads a game from a
file check it first (a few hundred positions along random games) and refuse it in one line;
``check=False`` and ``--no-check`` turn the check off, and the catalog's games skip it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from tictactoe import TicTacToe

from flipped_connect4 import ConnectFour
from perfectplay import GameError, Value, search, search_many, solve
from perfectplay.cli import main
from perfectplay.engine import check
from perfectplay.engine.check import QUICK_POSITIONS, check_game, precheck
from perfectplay.games import nim

HERE = Path(__file__).resolve().parent
FLIPPED = f"{HERE / 'flipped_connect4.py'}:ConnectFour"
TICTACTOE = f"{HERE.parent / 'examples' / 'tictactoe.py'}:TicTacToe"
REFUSAL = ("the game failed its check: play(((), (), (), ()), 0) is not deterministic, or the "
           "positions are not equal when rebuilt: ((1,), (), (), ()) then ((2,), (), (), ())")


class Fixed(ConnectFour):
    """The same game written right: whose turn it is comes from the stones on the board."""

    def play(self, board, column):
        columns = list(board)
        columns[column] = board[column] + (1 + sum(map(len, board)) % 2,)
        return tuple(columns)


def cli(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def test_solve_refuses_the_self_flipping_connect_four_in_one_line():
    with pytest.raises(GameError) as err:
        solve(ConnectFour())
    message = str(err.value)
    assert message.startswith(REFUSAL)
    assert "\n" not in message and "check=False" in message and "--no-check" in message


def test_check_false_gives_the_wrong_answer_the_check_prevents():
    s = solve(ConnectFour(), check=False)
    assert (s.value(), s.remoteness(), len(s)) == (Value.LOSE, 10, 512)


def test_search_and_search_many_refuse_it_too():
    game = ConnectFour()
    with pytest.raises(GameError, match=r"failed its check: play\(\(\(\), \(\), \(\), \(\)\), 0\)"):
        search(game)
    with pytest.raises(GameError, match="failed its check"):
        search_many(game, [game.initial()])


def test_perfectplay_solve_refuses_it_and_no_check_lets_it_through():
    r = cli("solve", FLIPPED)
    assert r.exit_code == 1
    assert r.output.strip() == f"perfectplay: error: {REFUSAL} (and 19+ more problems); " \
        "check_game(game) or solve --check reports in full, check=False or --no-check " \
        "skips this check"
    r = cli("solve", FLIPPED, "--no-check")
    assert r.exit_code == 0
    assert "value: lose in 10" in r.output and "positions: 512" in r.output


@pytest.mark.parametrize("command", [["search"], ["play"], ["book", "--plies", "1", "--out",
                                                           "unused-book"]])
def test_every_command_that_loads_the_game_refuses_it(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli(command[0], FLIPPED, *command[1:])
    assert r.exit_code == 1 and REFUSAL in r.output
    assert not (tmp_path / "unused-book").exists()


def test_a_correct_game_answers_as_before():
    checked, unchecked = solve(TicTacToe()), solve(TicTacToe(), check=False)
    assert (checked.value(), checked.remoteness(), len(checked)) == (Value.TIE, 9, 5478)
    assert (unchecked.value(), unchecked.remoteness(), len(unchecked)) == (Value.TIE, 9, 5478)
    default, skipped = cli("solve", TICTACTOE), cli("solve", TICTACTOE, "--no-check")
    assert default.exit_code == skipped.exit_code == 0
    assert default.output == skipped.output and "value: tie in 9" in default.output
    assert search(TicTacToe()).describe() == "tie in 9"


def test_moves_left_at_ended_positions_are_not_refused():
    """The engine never asks an ended position's moves: the full check calls them a
    problem, the default check only warns."""
    report = check_game(Fixed(4, 3), quick=True)
    assert report.ok and report.quick and report.positions == QUICK_POSITIONS
    assert any("still has moves" in w for w in report.warnings)
    precheck(Fixed(4, 3))


def test_the_check_is_bounded():
    """A few hundred positions, every move played twice: about 2,000 plays on Connect
    Four 4x4 (161,029 positions and 0.6 million moves for the solve)."""
    plays = []

    class Counted(Fixed):
        def play(self, board, column):
            plays.append(column)
            return super().play(board, column)

    report = check_game(Counted(), quick=True)
    assert report.ok and report.positions == QUICK_POSITIONS
    assert str(report).startswith(f"checked {QUICK_POSITIONS} positions along random games")
    assert 2 * QUICK_POSITIONS <= len(plays) <= 2 * 4 * QUICK_POSITIONS + 40


def test_an_exception_of_the_game_reaches_the_caller_as_itself():
    """What the solve would raise itself is left to it: the user's own exception, with its
    traceback, not the check's words for it."""

    class Crashes(Fixed):
        def play(self, board, column):
            if sum(map(len, board)) == 3:
                raise ZeroDivisionError("my bug")
            return super().play(board, column)

    with pytest.raises(ZeroDivisionError, match="my bug"):
        solve(Crashes())


def test_the_catalog_games_skip_it(monkeypatch):
    def refuse(*_args, **_kwargs):
        raise AssertionError("the check ran")

    monkeypatch.setattr(check, "check_game", refuse)
    assert solve(nim(heaps=(1, 2, 3))).value() == Value.LOSE
    with pytest.raises(AssertionError, match="the check ran"):
        solve(TicTacToe())
    assert solve(TicTacToe(), check=False).value() == Value.TIE
