"""Play, driven end to end through a pseudo-terminal like a person at a keyboard, and the
fast-rule Portal oracle checked against the engine on every position."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import numpy as np
import pexpect
import pytest

from perfectplay import Value, solve
from perfectplay.grid import Grid
from perfectplay.portal import PortalGame, PortalOracle, board_from_grid

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def spawn(*args: str) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-m", "perfectplay", "play", *args],
                          encoding="utf-8", timeout=60, dimensions=(50, 200))
    return child


def test_coins_game_with_hint_undo_and_a_mistake():
    child = spawn("coins", "5", "8", "3", "2")
    child.expect("first> ")
    assert "1. R(2)     +2 over the rest" in child.before  # best first, with its value
    child.sendline("/h")
    child.expect(r"hint: R\(2\)")
    child.sendline("L")  # a mistake: taking 5 lets the second player take 8
    child.expect(r"second \(computer\) plays R\(2\)|second \(computer\) plays L\(8\)")
    child.expect("first> ")
    child.sendline("/u")  # undo back to the start
    child.expect("first> ")
    assert "left: [5] [8] [3] [2]" in child.before
    child.sendline("R")
    child.expect("first> ")
    child.sendline("1")
    child.expect("Game over: first player 10, second player 8: the first player wins.")
    child.expect("game over> ")  # /u could still take a final blunder back
    assert "<- mistake" not in child.before  # the mistake was undone
    child.sendline("/q")
    child.expect(pexpect.EOF)


def test_coins_history_marks_the_mistake():
    child = spawn("coins", "5", "8", "3", "2")
    child.expect("first> ")
    child.sendline("L(5)")
    child.expect("first> ")
    child.sendline("1")
    child.expect("game over> ")
    out = child.before
    child.sendline("/q")
    child.expect(pexpect.EOF)
    assert "Game over: first player 8, second player 10: the second player wins." in out
    assert "L(5)" in out and "<- mistake" in out


def test_rock_played_as_a_careless_rock():
    child = spawn("rock", str(EXAMPLES / "rock_sample.txt"), "--as", "rock")
    for _ in range(20):
        i = child.expect(["rock> ", "Game over"])
        if i == 1:
            break
        child.sendline("pass")
    child.expect("game over> ")
    out = child.before
    child.sendline("/q")
    child.expect(pexpect.EOF)
    assert "the walker reached the exit after 5 steps (the rock never blocked)." in out
    assert "<- mistake" in out  # passing at a1 gave away the block worth 11


def test_rock_as_walker_against_the_perfect_rock():
    child = spawn("rock", str(EXAMPLES / "rock_sample.txt"))
    for _ in range(40):
        i = child.expect(["walker> ", "Game over"])
        if i == 1:
            break
        child.sendline("1")  # always the best move
    child.expect("game over> ")
    out = child.before
    child.sendline("")  # Enter quits at the end
    child.expect(pexpect.EOF)
    assert re.search(r"the walker reached the exit after 11 steps \(the rock blocked "
                     r"[a-d][1-8]\)\.", out)
    assert "<- mistake" not in out


def test_portal_big_board_uses_the_parity_rule_and_tictactoe_file_game():
    child = spawn("portal", str(EXAMPLES / "portal_seed.txt"), "--second")
    child.expect("Bella> ")
    assert "Alif (computer) plays" in child.before
    child.sendline("/q")
    child.expect(pexpect.EOF)
    child = spawn(f"{EXAMPLES / 'tictactoe.py'}:TicTacToe", "--strength", "0", "--seed", "4")
    for _ in range(10):
        i = child.expect(["player 1> ", "Game over"])
        if i == 1:
            break
        child.sendline("1")  # the perfect move against a random opponent: never a loss
    child.expect("game over> ")
    ending = "Game over" + child.before
    child.sendline("/q")
    child.expect(pexpect.EOF)
    assert "Game over: player 1 wins." in ending or "Game over: a tie." in ending


def test_bad_moves_are_refused_politely():
    child = spawn("coins", "1", "2")
    child.expect("first> ")
    child.sendline("X")
    child.expect("not a move here: 'X'")
    child.sendline("/q")
    child.expect(pexpect.EOF)
    bad = pexpect.run(f"{sys.executable} -m perfectplay play chess", encoding="utf-8")
    assert "unknown game 'chess'" in bad and "Traceback" not in bad


def random_small_board(rng):
    while True:
        rows, cols = rng.randint(2, 3), rng.randint(2, 4)
        cells = [["#" if rng.random() < 0.2 else "." for _ in range(cols)] for _ in range(rows)]
        a, b = rng.sample(range(rows * cols), 2)
        cells[a // cols][a % cols] = cells[b // cols][b % cols] = "O"
        try:
            return board_from_grid(Grid(np.array([[ord(c) for c in r] for r in cells],
                                                 dtype=np.uint32)))
        except Exception:  # noqa: BLE001 - adjacent portals: draw again
            continue


@pytest.mark.parametrize("seed", range(40))
def test_portal_oracle_agrees_with_the_engine_on_every_position(seed):
    game = PortalGame(random_small_board(random.Random(seed)))
    exact = solve(game)
    fast = PortalOracle(game)
    for pos in exact.graph.positions:
        assert fast.value(pos) is exact.value(pos)
        fast_moves = {mv.move: mv for mv in fast.move_values(pos)}
        for mv in exact.move_values(pos):
            assert fast_moves[mv.move].value is mv.value
            if mv.remoteness == 1 and mv.value is Value.LOSE:
                assert fast_moves[mv.move].remoteness == 1


# -- the state and the policy, without a terminal ---------------------------------------------
class TieOrDraw:
    """From the start: "t" ends in a tie at once, "d" enters a loop that never ends."""

    def initial(self):
        return "start"

    def moves(self, pos):
        return {"start": ["t", "d"], "loop": ["d"]}.get(pos, [])

    def play(self, pos, move):
        return "tie" if move == "t" else "loop"

    def outcome(self, pos):
        from perfectplay import Value

        return Value.TIE if pos == "tie" else None


def test_state_ranks_a_tie_above_a_draw_as_the_engine_does():
    from perfectplay.play import GameState, user_table

    state = GameState(user_table(TieOrDraw(), "t"), {0, 1})
    assert [mv.move for mv in state.moves()] == ["t", "d"]
    ply = state.play("d")
    assert ply.mistake and "draw" in ply.after
    state.undo()
    assert state.pos == "start" and not state.play("t").mistake
    assert state.over() and state.verdict() == "Game over: a tie."


def test_state_and_policy_play_coins_directly():
    from perfectplay.coins import play_table as coins_table
    from perfectplay.coins import value
    from perfectplay.errors import InputError
    from perfectplay.play import GameState, Policy

    row = [3, 2, 2, 3, 1, 2]
    state, policy = GameState(coins_table(row), set()), Policy(1.0, seed=0)
    while not state.over():
        assert not state.play(policy.choose(state.moves())).mistake
    first = sum(state.table.game.payoff(pos, ply.move) for pos, ply in state.history
                if ply.mover == 0)
    assert first == value(row).first == 8
    state.restart()
    with pytest.raises(InputError):
        state.play("nonsense")
    assert state.find_move("1") == state.moves()[0].move
    assert state.find_move("L(3)") == "L" and state.find_move("zzz") is None
    weak = Policy(0.0, seed=3)
    picks = {weak.choose(state.moves()) for _ in range(40)}
    assert picks == {"L", "R"}  # strength 0: random legal moves, both ends seen


def test_rock_table_speaks_plainly():
    from perfectplay.play import GameState
    from perfectplay.rock import parse_maze
    from perfectplay.rock import play_table as rock_table

    table = rock_table(parse_maze((EXAMPLES / "rock_sample.txt").read_text()))
    state = GameState(table, {1})
    assert table.announce(state.pos, "pass") == "rock (computer) does not block yet"
    why = table.refuse(state.pos, "h8")
    assert why.startswith("the rock can only block a cell next to the walker") and "pass" in why
    while not state.over():  # perfect play both sides; the final board keeps the block
        state.play(state.moves()[0].move)
    board = table.render(state.pos, state.history)
    assert "R" in board and "W" in board
    assert "the rock blocked" in state.verdict()


def test_every_play_screen_explains_its_words_and_undo_says_what_it_did():
    """The legend under the title says what the values mean; /u says what it took back."""
    from perfectplay.coins import play_table as coins_table
    from perfectplay.play import Session
    from perfectplay.portal import parse_board
    from perfectplay.portal.playtable import play_table as portal_table

    said: list[str] = []
    typed = iter(["L", "/u", "/u", "/q"])
    Session(coins_table([3, 2, 2, 3, 1, 2]), {0}, write=said.append,
            read=lambda _prompt: next(typed)).run()
    text = "\n".join(said)
    assert "over the rest\": with perfect play from here" in text
    assert "took back 2 moves: first to move again" in text and "nothing to undo" in text
    assert "coins left: [3]" in text
    small = portal_table(parse_board("O..\n...\n..O"))
    big = portal_table(parse_board("O" + "." * 9 + "\n" + "." * 10 + "\n" + "." * 9 + "O"))
    assert "exact, with the moves left" in small.legend
    assert "parity rule" in big.legend and "lose in 1" in big.legend


def test_play_waits_at_the_end_so_a_final_blunder_can_be_taken_back() -> None:
    from perfectplay.coins import play_table
    from perfectplay.play import Session

    said: list[str] = []
    typed = iter(["L", "/u", "R", "/q"])  # L(1) loses; taken back at the end, R(2) wins
    Session(play_table([1, 2]), {0}, write=said.append,
            read=lambda _prompt: next(typed)).run()
    text = "\n".join(said)
    assert "the second player wins" in text and Session.AT_END in text
    assert "took back 2 moves: first to move again" in text
    assert text.rstrip().endswith(Session.AT_END)
    assert "the first player wins" in text.split("took back")[1]
    quiet: list[str] = []
    ends = iter(["L"])

    def read(_prompt: str) -> str:  # the end of the input at the end of the game: done
        try:
            return next(ends)
        except StopIteration:
            raise EOFError from None

    Session(play_table([1, 2]), {0}, write=quiet.append, read=read).run()
    assert quiet[-2] == Session.AT_END
