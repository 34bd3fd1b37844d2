"""PettingZoo's own tic-tac-toe (``tictactoe_v3``) played by perfectplay's perfect agent.

The agent is the solved ``examples/tictactoe.py`` and a reader of PettingZoo's observation:
a 3x3x2 array whose first plane holds the marks of the agent to move and the second its
opponent's, row-major, so that square ``i`` of the flattened planes is PettingZoo's action
``i`` and our position's index ``i``; ``player_1`` moves first (our X).

Run it:  python examples/pettingzoo_tictactoe.py   (needs pip install 'perfectplay[pettingzoo]',
which brings pettingzoo, gymnasium and pygame: tictactoe_v3 imports pygame)
"""

from __future__ import annotations

import random

import numpy as np
from tictactoe import TicTacToe

from perfectplay import solve
from perfectplay.pettingzoo import PerfectAgent, play_episode


def position_of(observation: np.ndarray, agent: str) -> str:
    """Our board string from PettingZoo's planes, seen by ``agent``."""
    mine = observation[:, :, 0].reshape(9)
    theirs = observation[:, :, 1].reshape(9)
    x, o = (mine, theirs) if agent == "player_1" else (theirs, mine)
    return "".join("X" if x[i] else "O" if o[i] else "." for i in range(9))


def perfect_agent(seed: int | None = None) -> PerfectAgent:
    """A perfect tic-tac-toe agent for ``tictactoe_v3``."""
    return PerfectAgent(solve(TicTacToe()), position_of, seed=seed)


def play_tictactoe(agents: dict, seed: int = 0) -> dict[str, float]:
    """One episode of tictactoe_v3 with ``agents[name](observation, name) -> action``;
    the final rewards."""
    from pettingzoo.classic import tictactoe_v3

    env = tictactoe_v3.env()
    final = play_episode(env, agents, seed)
    env.close()
    return final


def random_agent(seed: int):
    rng = random.Random(seed)
    return lambda obs, name: rng.choice(np.flatnonzero(obs["action_mask"]).tolist())


if __name__ == "__main__":
    perfect = perfect_agent(seed=0)
    print("perfect vs perfect:", play_tictactoe({"player_1": perfect, "player_2": perfect}))
    results = [play_tictactoe({"player_1": perfect, "player_2": random_agent(i)}, i)["player_1"]
               for i in range(100)]
    print(f"perfect (first) vs random, 100 games: {results.count(1)} wins, "
          f"{results.count(0)} ties, {results.count(-1)} losses")
