"""OpenSpiel games solved exactly: values, remoteness, a perfect ``pyspiel.Bot``, labels.

OpenSpiel's own solvers are for small games and give no remoteness (a recursive minimax, or
value iteration over ``get_all_states``). Here a pyspiel game becomes an ordinary perfectplay
game (:class:`OpenSpielGame`: a position is the state's key and the player to move), the
engine solves it strongly (every reachable state, value and remoteness, retrograde analysis:
O(states + moves)), and :class:`SpielSolution` answers for any pyspiel state: its value, its
remoteness, the optimal actions, a perfect bot that ``pyspiel.evaluate_bots`` can play, and
the labels a learner trains on (observation tensor, value, remoteness, optimal-action mask).

Only two-player, sequential, deterministic, perfect-information, zero- or constant-sum games
with terminal rewards qualify; any other is refused with one line saying why.

**How a state is keyed.** Two states with the same key are one position to the engine, so
the key must determine the future. By default (``key="auto"``) :func:`choose_key` plays
random games first and picks the smallest key that does on them: ``str(state)`` and the
player to move (``"str"``: transpositions merge, the fewest positions) when every state met
under one printed form had the same legal actions, player, end and returns; the printed form
and the move number (``"ply"``) when only states at different move numbers differed (a move
limit the printed state does not show: quoridor's); the whole action history
(``"history"``: no transpositions merge, the most positions) when states at the same move
number differed too (a rule that depends on the history, such as go's superko). A key can
also be named; ``"str"`` named on a game the sample shows unsafe warns. The sample cannot
prove a key safe (a difference it never meets stays unseen), but it caught every game
checked in the tests. Values are read from the returns' sign: a win, a loss or a tie for the
player to move (margins are not kept).

**Memory.** Each position holds a pyspiel state and its key (measured: 1,100-1,800 bytes
with the engine's own arrays; more with the history key, whose keys grow with the game), so
the default position limit counts :func:`bytes_per_position` and stops with a
:class:`~perfectplay.errors.LimitError` before the machine (or a ``ulimit -v``) runs out.

Needs the ``openspiel`` extra (the PyPI package ``open-spiel``)::

    >>> solved = solve_openspiel("tic_tac_toe")
    >>> solved.value(), solved.remoteness(), len(solved)
    (<Value.TIE: 'tie'>, 9, 5478)
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
import warnings
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

import numpy as np

from .engine import Value, solve
from .engine.discovery.graph import memory_limit
from .errors import InputError

KeyKind = Literal["auto", "str", "ply", "history"]
KEYS: tuple[str, ...] = ("auto", "str", "ply", "history")
#: Peak bytes a position of the adapter takes (a pyspiel state, its key, the engine's own
#: arrays): a base, bytes per character of the printed start state, and, for the history
#: key, bytes per move of history. Measured 2026-11-26 (peak RSS over the positions solved):
#: Connect Four 4x4 "str" 1,120 (20 characters), quoridor 3x3 "ply" 1,750 (133), oware 2x2
#: "str" 1,560 (76) and "history" 3,145 at 200,000 positions (about 63 bytes a move).
STATE_BYTES, CHAR_BYTES, MOVE_BYTES = 1200, 8, 64
#: The random games :func:`choose_key` plays, and the moves it makes at most in all.
SAMPLE_GAMES, SAMPLE_MOVES = 300, 30_000
_VALUE_NUMBER = {Value.WIN: 1, Value.LOSE: -1, Value.TIE: 0, Value.DRAW: 0}


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        raise InputError("OpenSpiel games need the openspiel extra (pyspiel is missing): "
                         "pip install 'perfectplay[openspiel]'") from None
    return pyspiel


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """The process's stderr (file descriptor 2, where pyspiel's C++ writes) discarded for
    the block."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _known_name(pyspiel: ModuleType, game: str) -> None:
    """A one-line :class:`InputError` for a game string whose name OpenSpiel does not know,
    with the nearest names, before pyspiel prints its whole list of games (and raises it
    again)."""
    import difflib

    name = game.partition("(")[0].strip()
    names = list(pyspiel.registered_names())
    if name in names:
        return
    close = difflib.get_close_matches(name, names, n=3)
    hint = f"did you mean {', '.join(close)}?" if close else \
        "python -c 'import pyspiel; print(pyspiel.registered_names())' lists them"
    raise InputError(f"OpenSpiel cannot load {game!r}: it has no game {name!r} among its "
                     f"{len(names)}; {hint}")


def load(game: Any) -> Any:
    """A pyspiel game from a game string (``"connect_four(rows=4,columns=5)"``) or as is,
    checked: a one-line :class:`InputError` for any game the engine cannot solve exactly."""
    pyspiel = _pyspiel()
    if isinstance(game, str):
        _known_name(pyspiel, game)
        try:
            with _quiet_stderr():  # pyspiel prints the error it raises: said once, below
                game = pyspiel.load_game(game)
        except Exception as exc:  # pyspiel raises its own errors (bad parameters)
            lines = [ln.strip() for ln in str(exc).strip().splitlines() if ln.strip()]
            said = lines[0] if lines else type(exc).__name__
            if 1 < len(lines) <= 40:  # "Available parameters are:" and one a line
                said += " " + ", ".join(lines[1:])
            elif said.endswith(":"):
                said += " none"
            raise InputError(f"OpenSpiel cannot load {game!r}: {said}") from None
    if not isinstance(game, pyspiel.Game):
        raise InputError(f"expected an OpenSpiel game or game string, got "
                         f"{type(game).__name__}")
    t = game.get_type()
    gt = pyspiel.GameType
    checks = [
        (game.num_players() == 2, f"it has {game.num_players()} players, not two"),
        (t.dynamics == gt.Dynamics.SEQUENTIAL, "its moves are simultaneous"),
        (t.chance_mode == gt.ChanceMode.DETERMINISTIC, "it has chance events"),
        (t.information == gt.Information.PERFECT_INFORMATION, "its information is imperfect"),
        (t.utility in (gt.Utility.ZERO_SUM, gt.Utility.CONSTANT_SUM),
         f"its utility is {t.utility.name.lower().replace('_', ' ')}, not zero- or "
         "constant-sum"),
        (t.reward_model == gt.RewardModel.TERMINAL, "it pays rewards before the end"),
    ]
    for ok, why in checks:
        if not ok:
            raise InputError(f"{t.short_name}: perfectplay solves two-player, sequential, "
                             f"deterministic, perfect-information, zero-sum games; {why}")
    return game


@dataclass(frozen=True)
class KeyChoice:
    """What :func:`choose_key` found: the key, and why, in a sentence."""

    key: KeyKind
    reason: str


def choose_key(game: Any, games: int = SAMPLE_GAMES, moves: int = SAMPLE_MOVES,
               seed: int = 0) -> KeyChoice:
    """The smallest key that determines the future on ``games`` random games (at most
    ``moves`` moves in all): ``"str"``, ``"ply"`` or ``"history"`` (see the module doc).

    Every state met is recorded by its printed form and the player to move (the position
    the adapter makes), and by those and the move number, with what decides its future
    here: whether it has ended, its legal actions or its returns. Two states under one key
    that differ in any of these show that the key is not enough. O(moves) pyspiel calls.

    >>> choose_key("tic_tac_toe").key
    'str'
    """
    game = load(game)
    rng = random.Random(seed)
    by_str: dict[tuple[str, int], tuple[Any, ...]] = {}
    by_ply: dict[tuple[str, int, int], tuple[Any, ...]] = {}
    str_differs = ply_differs = False
    made = played = 0
    for _ in range(games):
        state, ply, last = game.new_initial_state(), 0, 1
        played += 1
        while made < moves:
            ended = state.is_terminal()
            # a position is the key and the player to move (at the end: who did not move)
            to_move = 1 - last if ended else state.current_player()
            facts = (True, tuple(state.returns())) if ended else \
                (False, tuple(state.legal_actions()))
            printed = str(state)
            str_differs |= by_str.setdefault((printed, to_move), facts) != facts
            ply_differs |= by_ply.setdefault((printed, to_move, ply), facts) != facts
            if ended:
                break
            last = state.current_player()
            state.apply_action(rng.choice(state.legal_actions()))
            ply += 1
            made += 1
        if made >= moves:
            break
    name = game.get_type().short_name
    if ply_differs:
        return KeyChoice("history", f"{name}: states printed alike at the same move number "
                         "had different futures (the rules depend on the history): keyed by "
                         "the action history")
    if str_differs:
        return KeyChoice("ply", f"{name}: states printed alike at different move numbers had "
                         "different futures (a move limit the printed state does not show): "
                         "keyed by the printed state and the move number")
    return KeyChoice("str", f"{name}: the printed state determined the future on every "
                     f"state of {played:,} random games: keyed by the printed state")


def bytes_per_position(game: Any, key: KeyKind) -> int:
    """The peak bytes a position of ``game`` keyed by ``key`` may take (see
    :data:`STATE_BYTES`): an upper bound, as the history key counts the longest history
    the game allows (capped at 1,000 moves).

    >>> bytes_per_position(load("tic_tac_toe"), "str")
    1288
    """
    size = STATE_BYTES + CHAR_BYTES * len(str(game.new_initial_state()))
    if key == "history":
        size += MOVE_BYTES * min(int(game.max_game_length()), 1000)
    return size


class OpenSpielGame:
    """A pyspiel game as a perfectplay game: a position is ``(key, player to move)``, where
    the key is ``str(state)`` or the action history (see the module doc); moves are
    OpenSpiel actions. The states met are kept, so that a position can be played on.

    At a terminal state nobody moves; its "player to move" is the one who did not make the
    last move, whose returns give its value.
    """

    # play() keeps each state it makes in self._states: a forked discovery helper would
    # keep its half there in vain (perfectplay.engine.workers)
    parallel = False

    def __init__(self, game: Any, key: KeyKind = "auto") -> None:
        if key not in KEYS:
            raise InputError(f"key must be one of {', '.join(KEYS)}, got {key!r}")
        self.game = load(game)
        if key == "auto":
            choice = choose_key(self.game)
        else:
            choice = KeyChoice(key, f"keyed by {key}, as asked")
            if key == "str":
                found = choose_key(self.game)
                if found.key != "str":
                    warnings.warn(f"key='str' may answer wrongly: {found.reason} would be "
                                  "safe", stacklevel=2)
        self.key: KeyKind = choice.key
        self.key_reason = choice.reason
        self._states: dict[Hashable, Any] = {}

    def __repr__(self) -> str:
        return f"OpenSpielGame({str(self.game)!r}, key={self.key!r})"

    @property
    def bytes_per_position(self) -> int:
        """Peak bytes a position takes (see :func:`bytes_per_position`)."""
        return bytes_per_position(self.game, self.key)

    def _key(self, state: Any) -> Hashable:
        if self.key == "str":
            return str(state)
        if self.key == "ply":
            return (str(state), state.move_number())
        return tuple(state.history())

    def _keep(self, state: Any, to_move: int) -> tuple[Hashable, int]:
        pos = (self._key(state), to_move)
        self._states.setdefault(pos, state)
        return pos

    def position(self, state: Any) -> tuple[Hashable, int]:
        """The position of a pyspiel state (not a terminal one: who is to move there is
        read from how it was reached)."""
        if state.is_terminal():
            history = state.history()
            if not history:
                raise InputError("a terminal state with no history has nobody to move")
            parent = self.game.new_initial_state()
            for action in history[:-1]:
                parent.apply_action(action)
            return self._keep(state, 1 - parent.current_player())
        return self._keep(state.clone(), state.current_player())

    def state(self, pos: tuple[Hashable, int]) -> Any:
        """A fresh pyspiel state of a position met before."""
        return self._states[pos].clone()

    def initial(self) -> tuple[Hashable, int]:
        start = self.game.new_initial_state()
        return self._keep(start, max(start.current_player(), 0))

    def moves(self, pos: tuple[Hashable, int]) -> list[int]:
        state = self._states[pos]
        return [] if state.is_terminal() else list(state.legal_actions())

    def play(self, pos: tuple[Hashable, int], move: int) -> tuple[Hashable, int]:
        state = self._states[pos]
        child = state.child(move)
        who = child.current_player() if not child.is_terminal() else 1 - state.current_player()
        return self._keep(child, who)

    def outcome(self, pos: tuple[Hashable, int]) -> Value | None:
        state = self._states[pos]
        if not state.is_terminal():
            return None
        mine = state.returns()[pos[1]]
        theirs = state.returns()[1 - pos[1]]
        return Value.WIN if mine > theirs else Value.LOSE if mine < theirs else Value.TIE

    def player(self, pos: tuple[Hashable, int]) -> int:
        return pos[1]

    def describe_move(self, pos: tuple[Hashable, int], move: int) -> str:
        """OpenSpiel's own name for an action."""
        return self._states[pos].action_to_string(pos[1], move)


class SpielSolution:
    """A pyspiel game solved strongly: every reachable state's value and remoteness, for
    the player to move, and what follows from them (perfect play, labels).

    Complexity: the solve is O(states + moves) after OpenSpiel enumerates them; a question
    about a state is O(its moves).
    """

    def __init__(self, game: OpenSpielGame, solution: Any) -> None:
        self.game = game
        self.solution = solution

    def __len__(self) -> int:
        return len(self.solution)

    def __repr__(self) -> str:
        return (f"SpielSolution({str(self.game.game)!r}: {len(self):,} states, start "
                f"{self.solution.value().value})")

    def _pos(self, state: Any | None) -> Any:
        return self.solution.start if state is None else self.game.position(state)

    def value(self, state: Any | None = None) -> Value:
        """The value of ``state`` (default: the start) for the player to move."""
        return self.solution.value(self._pos(state))

    def remoteness(self, state: Any | None = None) -> int | None:
        """Moves to the end under perfect play (winner fastest, loser slowest)."""
        return self.solution.remoteness(self._pos(state))

    def optimal_actions(self, state: Any | None = None) -> list[int]:
        """The actions of perfect play from ``state``: every action with the best value and
        remoteness (a win as fast as any, a loss as slow as any), in OpenSpiel's order."""
        return sorted(self.solution.best_moves(self._pos(state)))

    def bot(self, seed: int | None = None) -> Any:
        """A perfect ``pyspiel.Bot``: it plays one of the optimal actions, chosen uniformly
        (``seed`` fixes the choice), and its policy is uniform over them."""
        return _bot_class()(self, seed)

    def labels(self) -> dict[str, np.ndarray]:
        """Exact labels for every solved state, one row each: ``observation`` (the
        observation tensor of the player to move, flattened; absent when the game has
        none), ``value`` (+1 win, -1 loss, 0 tie or draw, for the player to move),
        ``remoteness`` (-1 for a draw), ``player``, ``terminal``, and ``optimal`` (a
        boolean mask over the game's distinct actions)."""
        g = self.game.game
        positions = list(self.solution.positions())
        n, actions = len(positions), g.num_distinct_actions()
        has_obs = g.get_type().provides_observation_tensor
        obs = np.zeros((n, int(np.prod(g.observation_tensor_shape()))) if has_obs else (n, 0),
                       np.float32)
        value = np.zeros(n, np.int8)
        rem = np.zeros(n, np.int32)
        player = np.zeros(n, np.int8)
        terminal = np.zeros(n, bool)
        optimal = np.zeros((n, actions), bool)
        for i, pos in enumerate(positions):
            state = self.game.state(pos)
            if has_obs:
                obs[i] = state.observation_tensor(pos[1])
            v = self.solution.value(pos)
            r = self.solution.remoteness(pos)
            value[i], rem[i] = _VALUE_NUMBER[v], -1 if r is None else r
            player[i], terminal[i] = pos[1], state.is_terminal()
            if not terminal[i]:
                optimal[i, self.solution.best_moves(pos)] = True
        out: dict[str, np.ndarray] = {"value": value, "remoteness": rem, "player": player,
                                      "terminal": terminal, "optimal": optimal}
        if has_obs:
            out["observation"] = obs
        return out

    def save_labels(self, path: str | Path) -> Path:
        """Write :meth:`labels` to ``path``: ``.npz`` (numpy) or ``.parquet`` (one row a
        state; needs pyarrow, the scale extra)."""
        path = Path(path)
        if path.suffix not in (".npz", ".parquet"):
            raise InputError(f"labels are written as .npz or .parquet, not {path.name!r}")
        data = self.labels()
        try:
            self._write(path, data)
        except OSError as exc:
            raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None
        return path

    @staticmethod
    def _write(path: Path, data: dict[str, np.ndarray]) -> None:
        if path.suffix == ".npz":
            columns: dict[str, Any] = dict(data)  # numpy's stub reads a key as allow_pickle
            np.savez_compressed(path, **columns)
        else:
            try:
                import pyarrow as pa
                import pyarrow.parquet as pq
            except ImportError:
                raise InputError("Parquet labels need pyarrow: pip install "
                                 "'perfectplay[scale]'") from None
            cols = {k: (list(v) if v.ndim > 1 else v) for k, v in data.items()}
            pq.write_table(pa.table(cols), path)


def solve_openspiel(game: Any, key: KeyKind = "auto",
                    max_positions: int | None = None) -> SpielSolution:
    """Strongly solve a pyspiel game (a game string or a loaded game; see the module doc).

    ``key`` says how states are told apart ("auto": the smallest safe key on a sample);
    ``max_positions`` defaults to what fits in 80 % of the free memory at
    :func:`bytes_per_position`. O(states + moves) pyspiel calls.

    >>> solve_openspiel("nim(pile_sizes=1;2;3)").value()  # 1 xor 2 xor 3 = 0
    <Value.LOSE: 'lose'>
    """
    adapter = OpenSpielGame(game, key)
    if max_positions is None:
        max_positions = memory_limit(adapter.bytes_per_position)
    return SpielSolution(adapter, solve(adapter, max_positions=max_positions))


_BOT: Any = None


def _bot_class() -> Any:
    """The bot class, made on first use (it subclasses pyspiel.Bot, which needs pyspiel)."""
    global _BOT
    if _BOT is not None:
        return _BOT
    pyspiel = _pyspiel()

    class PerfectBot(pyspiel.Bot):  # type: ignore[misc, name-defined, unused-ignore]
        """Plays perfectly from any state of a solved game (see SpielSolution.bot)."""

        def __init__(self, solved: SpielSolution, seed: int | None) -> None:
            pyspiel.Bot.__init__(self)
            self._solved = solved
            self._rng = random.Random(seed)

        def step_with_policy(self, state: Any) -> tuple[list[tuple[int, float]], int]:
            actions = self._solved.optimal_actions(state)
            if not actions:
                raise InputError("the game is over: there is no action to take")
            policy = [(a, 1.0 / len(actions)) for a in actions]
            return policy, self._rng.choice(actions)

        def step(self, state: Any) -> int:
            return self.step_with_policy(state)[1]

        def restart_at(self, state: Any) -> None:
            pass  # the bot keeps no state: every answer comes from the solution

        def inform_action(self, state: Any, player_id: int, action: int) -> None:
            pass

        def provides_policy(self) -> bool:
            return True

    _BOT = PerfectBot
    return _BOT
