"""df-pn (engine/proof/dfpn.py) against the strong solution: the same winner at every
position tried of small boards (Domineering up to 4x5, tic-tac-toe, hexapawn, Connect Four
4x4) and of random games with ties and extra turns, with and without a tier; both table
rules and Nagai's epsilon 0; limits, cycles and games it refuses."""

from __future__ import annotations

import json
import random
from functools import cache

import pytest

from nojit import run_without_jit
from perfectplay import GameError, LimitError, Value, solve
from perfectplay.engine.proof.dfpn import prove
from perfectplay.engine.solved.solution import play_moves
from perfectplay.games import connect4, domineering, hexapawn, kalah, tictactoe
from test_compiled import random_game
from test_search import subtraction


@cache
def solved(game):
    return solve(game)


def agree(game, count: int, seed: int, **options) -> int:
    """prove's value equals the strong solution's at ``count`` positions drawn from the
    whole game (ended ones included) and at the start; the positions checked."""
    ref = solved(game)
    positions = list(ref)
    picked = random.Random(seed).sample(positions, min(count, len(positions)))
    for pos in [game.initial(), *picked]:
        r = prove(game, pos, table_mb=1, check=False, **options)
        assert r.value == ref.value(pos), (game.name, pos)
        if r.value in (Value.WIN, Value.TIE) and r.best_move is not None:
            child = game.play(pos, r.best_move)  # the move named keeps the value
            assert ref.value(child) == (Value.LOSE if r.value is Value.WIN else Value.TIE)
    return len(picked) + 1


@pytest.mark.parametrize("rows,cols", [(2, 2), (3, 3), (3, 4), (4, 3), (4, 4), (4, 5),
                                       (5, 4), (2, 7)])
def test_domineering_equals_the_strong_solution(rows, cols):
    """A game that cannot tie: one question, "win?", its refutation a loss."""
    assert agree(domineering(rows=rows, cols=cols), 150, rows * 10 + cols) >= 3


@pytest.mark.parametrize("game", [tictactoe, hexapawn, lambda: connect4(width=4, height=4)],
                         ids=["tictactoe", "hexapawn", "connect4-4x4"])
def test_games_that_can_tie_equal_the_strong_solution(game):
    """Two questions where "win?" is refuted: "not lose?" tells a tie from a loss."""
    assert agree(game(), 200, 7) > 50


def test_the_start_positions_and_their_questions():
    """Published values: tic-tac-toe a tie (both questions asked), Connect Four 4x4 a tie,
    3x3 hexapawn a loss for the first player, Domineering 4x4 a win with one question."""
    r = prove(tictactoe(), table_mb=1)
    assert (r.value, [(q, a) for q, a, _ in r.answers]) == \
        (Value.TIE, [("win?", False), ("not lose?", True)])
    assert prove(connect4(width=4, height=4), table_mb=1).value is Value.TIE
    assert prove(hexapawn(), table_mb=1).value is Value.LOSE
    d = prove(domineering(rows=4, cols=4), table_mb=1)
    assert (d.value, d.runs) == (Value.WIN, 1)
    assert d.nodes > 0 and d.evaluated >= d.nodes


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("player", [False, True])
def test_random_games_equal_the_strong_solution(seed, player):
    """Random acyclic win/lose/tie games, with extra turns (a move that keeps the turn keeps
    the question) or without; searched with their tier and without (every child then checked
    against the line for a repeat)."""
    g = random_game(seed, 120, player=player, tiered=True)
    ref = solve(g)
    untiered = random_game(seed, 120, player=player)
    positions = list(ref)
    for pos in random.Random(seed).sample(positions, min(20, len(positions))) + [g.initial()]:
        assert prove(g, pos, table_mb=1, check=False).value == ref.value(pos), pos
        assert prove(untiered, pos, table_mb=1, check=False).value == ref.value(pos), pos


@pytest.mark.parametrize("options", [{"epsilon": 0.0}, {"replace": "always"},
                                     {"epsilon": 1.0, "replace": "always"}])
def test_every_variant_gives_the_same_winners(options):
    """Nagai's thresholds (epsilon 0), always-replace, a wide epsilon: only the work
    changes."""
    agree(domineering(rows=4, cols=4), 60, 3, **options)
    agree(connect4(width=4, height=4), 60, 3, **options)


def test_a_tiny_table_under_pressure_still_answers():
    """1,024 slots for Connect Four 4x4's thousands of nodes: entries are lost, answers
    are not."""
    game = connect4(width=4, height=4)
    r = prove(game, table_mb=0.001)
    assert r.value is Value.TIE


def test_a_node_limit_stops_with_no_claim():
    r = prove(connect4(width=4, height=4), table_mb=1, node_limit=50)
    assert r.value is None and not r.exact and r.stopped == "nodes"
    assert r.describe().startswith("not proven")
    assert r.nodes <= 51


def test_a_time_limit_stops_a_long_proof():
    r = prove(domineering(rows=7, cols=7), table_mb=1, time_limit=0.3)
    assert r.value is None and r.stopped == "time"


def test_the_kernel_runs_as_plain_python():
    """NUMBA_DISABLE_JIT=1: the same search, interpreted (tic-tac-toe: a tie, both questions
    asked, as compiled)."""
    out = run_without_jit("from perfectplay.engine.proof.dfpn import prove\n"
                          "from perfectplay.games import tictactoe\n"
                          "r = prove(tictactoe(), table_mb=1)\n"
                          "print(r.describe(), r.nodes, r.runs)")
    compiled = prove(tictactoe(), table_mb=1)
    assert out.split() == ["tie", str(compiled.nodes), "2"]


def test_a_cycle_is_refused():
    with pytest.raises(GameError, match="acyclic"):
        prove(subtraction(1000))


def test_games_it_does_not_answer_are_refused():
    with pytest.raises(GameError, match="scored"):
        prove(kalah(houses=2, seeds=1))

    class Take:
        def initial(self):
            return 3

        def moves(self, n):
            return [1] if n else []

        def play(self, n, m):
            return n - m

        def outcome(self, n):
            return None

    with pytest.raises(GameError, match="compiled games only"):
        prove(Take())
    with pytest.raises(LimitError, match="table_mb"):
        prove(tictactoe(), table_mb=0)
    with pytest.raises(LimitError, match="epsilon"):
        prove(tictactoe(), epsilon=-1)


def cli(*args: str):
    """The command run in this process (click's runner), on the kernels compiled here."""
    from click.testing import CliRunner

    from perfectplay.cli import main
    return CliRunner().invoke(main, list(args))


def test_the_search_command_with_dfpn():
    """``search --algorithm dfpn``: the value (tic-tac-toe after b2: a tie, its proving
    move one the strong solution says keeps it), JSON, NOT EXACT when stopped, and clear
    refusals of what it does not answer."""
    out = cli("search", "domineering(rows=4, cols=4)", "--algorithm", "dfpn")
    assert out.exit_code == 0, out.output
    assert "value: win" in out.output and "questions: win? yes" in out.output
    data = json.loads(cli("search", "tictactoe", "--algorithm", "dfpn", "--moves", "b2",
                          "--json").output)
    assert (data["value"], data["exact"], data["algorithm"]) == ("tie", True, "dfpn")
    assert [q["answer"] for q in data["questions"]] == [False, True]
    game = tictactoe()
    after = play_moves(game, "b2")
    assert data["position"] == after
    assert solved(game).value(game.play(after, data["best_move"])) is Value.TIE
    out = cli("search", "connect4(width=5, height=5)", "--algorithm", "dfpn", "--nodes", "100")
    assert out.exit_code == 3 and "NOT EXACT" in out.output
    for args, words in [(["kalah(houses=2, seeds=1)"], "is scored"),
                        (["examples/tictactoe.py:TicTacToe"], "compiled games only"),
                        (["tictactoe", "--analyze"], "not with --analyze")]:
        out = cli("search", *args, "--algorithm", "dfpn")
        assert out.exit_code != 0 and words in out.output, out.output
