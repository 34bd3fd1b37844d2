"""Perfect play inside PettingZoo: an agent for AEC environments, and any solved game as one.

:class:`PerfectAgent` is the callable multi-agent loops take, ``(observation, agent) ->
action``: it reads the position from the observation (a function you give: how the
environment shows the board), picks one of the solution's perfect moves
(:meth:`~perfectplay.engine.solved.solution.Solved.best_moves`) uniformly at random, and honours the
environment's ``action_mask`` (a perfect move the mask forbids means the observation was
read wrongly: a clear error, never a silent illegal move). :func:`game_env` turns any solved
win/lose/tie game into an AEC environment (two agents, an action mask, +1/-1/0 rewards at
the end), so a learner can train against, or be scored by, perfect play.

Needs the ``pettingzoo`` extra (pettingzoo, gymnasium); ``examples/pettingzoo_tictactoe.py``
plays PettingZoo's own ``tictactoe_v3`` (which needs pygame too). Two perfect players on
tic-tac-toe (``examples/tictactoe.py``) tie:

    >>> from perfectplay import solve
    >>> from tictactoe import TicTacToe
    >>> env = game_env(solve(TicTacToe()))
    >>> perfect = env.perfect_agent(seed=0)
    >>> play_episode(env, {"player_0": perfect, "player_1": perfect}, seed=0)
    {'player_0': 0, 'player_1': 0}
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from .engine import Value
from .engine.protocol import capabilities
from .errors import GameError, InputError

AGENTS = ("player_0", "player_1")


def _need() -> tuple[Any, Any]:
    try:
        import gymnasium
        import pettingzoo
    except ImportError:
        raise InputError("PettingZoo environments need the pettingzoo extra: pip install "
                         "'perfectplay[pettingzoo]'") from None
    return pettingzoo, gymnasium


class PerfectAgent:
    """A perfect player for an AEC environment: ``agent(observation, agent_name) -> action``.

    ``position_of(observation, agent_name)`` reads the solved game's position from the
    environment's observation (the ``"observation"`` entry when the observation is a dict);
    ``action_of(position, move)`` names the environment's action for one of the game's moves
    (default: the move itself). ``seed`` fixes the choice among equally perfect moves.
    """

    def __init__(self, solution: Any, position_of: Callable[[Any, str], Hashable],
                 action_of: Callable[[Any, Any], int] | None = None,
                 seed: int | None = None) -> None:
        self.solution = solution
        self.position_of = position_of
        self.action_of = action_of or (lambda pos, move: move)
        self._rng = random.Random(seed)

    def __call__(self, observation: Any, agent: str) -> int:
        obs, mask = observation, None
        if isinstance(observation, dict):
            obs, mask = observation.get("observation"), observation.get("action_mask")
        pos = self.position_of(obs, agent)
        actions = [int(self.action_of(pos, m)) for m in self.solution.best_moves(pos)]
        if not actions:
            raise GameError(f"{agent}: the game is over at this position; no action to take")
        if mask is not None:
            allowed = [a for a in actions if 0 <= a < len(mask) and mask[a]]
            if not allowed:
                raise GameError(f"{agent}: the environment's action mask allows none of the "
                                f"perfect actions {actions}: the observation was not read as "
                                "the solved game's position")
            actions = allowed
        return self._rng.choice(actions)


def play_episode(env: Any, agents: dict[str, Callable[[Any, str], int]],
                 seed: int | None = None) -> dict[str, float]:
    """Play one whole episode of an AEC environment with ``agents[name](observation,
    name) -> action``; each agent's final reward (its reward when its episode ended), by
    agent name."""
    env.reset(seed=seed)
    final: dict[str, float] = {}
    for name in env.agent_iter():
        obs, reward, done, cut, _ = env.last()
        if done or cut:
            final[name] = reward
            env.step(None)
        else:
            env.step(agents[name](obs, name))
    return dict(sorted(final.items()))


def game_env(solution: Any, observe: Callable[[Any], np.ndarray] | None = None,
             observation_shape: tuple[int, ...] | None = None) -> Any:
    """Any solved win/lose/tie game as a PettingZoo AEC environment.

    Agents ``player_0`` (moves first) and ``player_1``; the turn passes on every move, or
    as the game's ``player(pos)`` says. Actions are indices into ``env.moves``: every move
    met anywhere in the solution, in first-met order. An observation is ``{"observation":
    observe(pos), "action_mask": int8 mask}``; by default ``observe`` is the position's
    index in the solution (``env.positions[i]``), a length-1 int64 array. At the end the
    player to move gets +1 for a win, -1 for a loss, 0 for a tie (a position with no move is
    a loss), the other the opposite. O(positions) to build.
    """
    pettingzoo, gymnasium = _need()
    if getattr(solution, "scored", False):
        raise InputError("game_env takes win/lose/tie games; this one is scored (margins)")
    return _env_class(pettingzoo, gymnasium)(solution, observe, observation_shape)


_ENV: Any = None


def _env_class(pettingzoo: Any, gymnasium: Any) -> Any:
    """The environment class, made on first use (it subclasses pettingzoo.AECEnv)."""
    global _ENV
    if _ENV is not None:
        return _ENV
    spaces = gymnasium.spaces

    class SolvedGameEnv(pettingzoo.AECEnv):  # type: ignore[misc, name-defined, unused-ignore]
        """A solved game as an AEC environment (see :func:`game_env`)."""

        metadata = {"name": "perfectplay_solved_game_v0", "render_modes": ["ansi"],
                    "is_parallelizable": False}

        def __init__(self, solution: Any, observe: Callable[[Any], np.ndarray] | None,
                     observation_shape: tuple[int, ...] | None) -> None:
            super().__init__()
            self.solution = solution
            self.game = solution.game
            self.caps = capabilities(self.game)  # its hooks (player, draw), read once
            self.positions = list(solution.positions())
            self.index = {p: i for i, p in enumerate(self.positions)}
            self.moves: list[Any] = []
            self.move_index: dict[Any, int] = {}
            for pos in self.positions:
                for m in self._legal(pos):
                    if m not in self.move_index:
                        self.move_index[m] = len(self.moves)
                        self.moves.append(m)
            self._custom_observe = observe is not None
            self._observe = observe or (lambda pos: np.array([self.index[pos]], np.int64))
            shape = observation_shape or np.asarray(self._observe(self.positions[0])).shape
            low, high = (0, len(self.positions) - 1) if observe is None else (-np.inf, np.inf)
            dtype = np.int64 if observe is None else np.float32
            self.possible_agents = list(AGENTS)
            self._obs_space = spaces.Dict({
                "observation": spaces.Box(low, high, shape, dtype),
                "action_mask": spaces.Box(0, 1, (len(self.moves),), np.int8)})
            self._act_space = spaces.Discrete(max(1, len(self.moves)))
            self.render_mode = "ansi"

        def observation_space(self, agent: str) -> Any:
            return self._obs_space

        def action_space(self, agent: str) -> Any:
            return self._act_space

        def _legal(self, pos: Any) -> list[Any]:
            return [] if self.game.outcome(pos) is not None else list(self.game.moves(pos))

        def _mover(self, pos: Any, previous: int | None) -> int:
            if self.caps.player is not None:
                return int(self.caps.player(pos))
            return 0 if previous is None else 1 - previous

        def reset(self, seed: int | None = None, options: dict | None = None) -> None:
            self.agents = list(self.possible_agents)
            self.pos = self.solution.start
            self.mover = self._mover(self.pos, None)
            self.rewards = {a: 0 for a in self.agents}
            self._cumulative_rewards = {a: 0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
            self.agent_selection = self.agents[self.mover]
            self._finish_if_over()

        def observe(self, agent: str) -> dict[str, np.ndarray]:
            mask = np.zeros(len(self.moves), np.int8)
            if agent == self.agent_selection and not self.terminations[agent]:
                for m in self._legal(self.pos):
                    mask[self.move_index[m]] = 1
            return {"observation": np.asarray(self._observe(self.pos),
                                              self._obs_space["observation"].dtype),
                    "action_mask": mask}

        def _finish_if_over(self) -> None:
            outcome = self.game.outcome(self.pos)
            if outcome is None and self._legal(self.pos):
                return
            value = outcome if outcome is not None else Value.LOSE
            mine = {Value.WIN: 1, Value.LOSE: -1}.get(value, 0)
            me, other = AGENTS[self.mover], AGENTS[1 - self.mover]
            self.rewards = {me: mine, other: -mine}
            self.terminations = {a: True for a in self.agents}
            self._accumulate_rewards()

        def step(self, action: Any) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            legal = self._legal(self.pos)
            if action is None or not (0 <= int(action) < len(self.moves)) or \
                    self.moves[int(action)] not in legal:
                raise GameError(f"{agent}: action {action!r} is not legal here")
            self._cumulative_rewards[agent] = 0
            self.rewards = {a: 0 for a in self.agents}
            self.pos = self.game.play(self.pos, self.moves[int(action)])
            self.mover = self._mover(self.pos, self.mover)
            self.agent_selection = AGENTS[self.mover]
            self._finish_if_over()

        def perfect_agent(self, seed: int | None = None) -> PerfectAgent:
            """A :class:`PerfectAgent` that reads this environment's default observations
            (the position's index) and answers with its action indices."""
            if self._custom_observe:
                raise InputError("perfect_agent reads the default observations; with your "
                                 "own observe, build PerfectAgent with your position_of")
            return PerfectAgent(self.solution,
                                lambda obs, agent: self.positions[int(np.asarray(obs)[0])],
                                lambda pos, move: self.move_index[move], seed)

        def render(self) -> str:
            draw = self.caps.draw
            return draw(self.pos) if draw is not None else repr(self.pos)

        def close(self) -> None:
            pass

    _ENV = SolvedGameEnv
    return _ENV
