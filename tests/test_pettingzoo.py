"""PettingZoo: any solved game as an AEC environment (PettingZoo's own API test), and the
perfect agent playing whole episodes there and on PettingZoo's tictactoe_v3."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
# PettingZoo's API test warns that Dict observations (with an action mask, as its own classic
# games have) are not a Box; the test still runs every check
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
from nim import Nim  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402
from tictactoe import TicTacToe  # noqa: E402

from perfectplay import Value, solve  # noqa: E402
from perfectplay.errors import GameError  # noqa: E402
from perfectplay.pettingzoo import PerfectAgent, game_env, play_episode  # noqa: E402


def random_agent(seed):
    rng = random.Random(seed)
    return lambda obs, name: rng.choice(np.flatnonzero(obs["action_mask"]).tolist())


@pytest.mark.parametrize("game", [TicTacToe(), Nim((1, 2, 3)), Nim((2, 3))])
def test_a_solved_game_passes_pettingzoos_api_test(game):
    api_test(game_env(solve(game)), num_cycles=50)


@pytest.mark.parametrize("game", [TicTacToe(), Nim((2, 3)), Nim((1, 2, 3))])
def test_the_perfect_agent_gets_at_least_the_games_value_from_either_seat(game):
    """Whole episodes against a random agent: the perfect agent's reward is never below the
    start's value for its seat (a won game is won, a tied game never lost); two perfect
    agents get exactly the start's value."""
    solution = solve(game)
    env = game_env(solution)
    start = {Value.WIN: 1, Value.LOSE: -1, Value.TIE: 0}[solution.value()]
    perfect = env.perfect_agent(seed=1)
    for seat, floor in (("player_0", start), ("player_1", -start)):
        other = "player_1" if seat == "player_0" else "player_0"
        for i in range(40):
            final = play_episode(env, {seat: perfect, other: random_agent(i)}, i)
            assert final[seat] >= floor
    final = play_episode(env, {"player_0": perfect, "player_1": perfect}, 0)
    assert final == {"player_0": start, "player_1": -start}


def test_the_perfect_agent_plays_pettingzoos_tictactoe():
    """On tictactoe_v3 itself (observations read by examples/pettingzoo_tictactoe.py): never
    loses to a random agent from either seat, ties with itself."""
    pytest.importorskip("pygame", reason="tictactoe_v3 imports pygame")
    from pettingzoo_tictactoe import perfect_agent, play_tictactoe

    perfect = perfect_agent(seed=0)
    for i in range(30):
        first = play_tictactoe({"player_1": perfect, "player_2": random_agent(i)}, i)
        second = play_tictactoe({"player_1": random_agent(i), "player_2": perfect}, i)
        assert first["player_1"] >= 0 and second["player_2"] >= 0
    assert play_tictactoe({"player_1": perfect, "player_2": perfect}) == \
        {"player_1": 0, "player_2": 0}


def test_an_observation_read_wrongly_is_a_clear_error():
    """A perfect move that the action mask forbids means the observation was misread."""
    solution = solve(TicTacToe())
    board = "XO......."  # X to move: some moves win, others do not
    agent = PerfectAgent(solution, lambda obs, name: board)
    best = solution.best_moves(board)
    assert 0 < len(best) < 7
    mask = np.zeros(9, np.int8)
    mask[next(m for m in range(2, 9) if m not in best)] = 1
    with pytest.raises(GameError, match="action mask allows none"):
        agent({"observation": None, "action_mask": mask}, "player_0")
    over = PerfectAgent(solution, lambda obs, name: "XXXOO....")
    with pytest.raises(GameError, match="game is over"):
        over(None, "player_0")


def test_illegal_actions_in_the_environment_are_refused():
    env = game_env(solve(Nim((1, 2))))
    env.reset()
    with pytest.raises(GameError, match="not legal"):
        env.step(len(env.moves) + 3)


def test_the_pettingzoo_extra_brings_pygame() -> None:
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    extras = tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]
    assert any(req.startswith("pygame") for req in extras["pettingzoo"])


def test_the_pettingzoo_snippet_needs_no_examples_folder(tmp_path: Path) -> None:
    """The docs' snippet runs as a user's script, from a folder without examples/."""
    script = tmp_path / "snippet.py"
    script.write_text(textwrap.dedent("""
        from perfectplay import solve
        from perfectplay.games import nim
        from perfectplay.pettingzoo import game_env, play_episode

        env = game_env(solve(nim(heaps=(1, 2, 3))))
        perfect = env.perfect_agent(seed=0)
        print(play_episode(env, {"player_0": perfect, "player_1": perfect}, seed=0))
    """))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=180, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "{'player_0': -1, 'player_1': 1}"
