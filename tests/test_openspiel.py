"""OpenSpiel games solved by the engine, against OpenSpiel's own minimax, and the perfect bot
against a random one through pyspiel.evaluate_bots."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from perfectplay import Value
from perfectplay.errors import InputError

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
from open_spiel.python.algorithms import minimax  # noqa: E402

from perfectplay.openspiel import OpenSpielGame, solve_openspiel  # noqa: E402

GAMES = ["tic_tac_toe", "connect_four(rows=4,columns=4)",
         "dots_and_boxes(num_rows=2,num_cols=2)", "clobber(rows=3,columns=3)",
         "nim(pile_sizes=1;2;3,is_misere=True)", "nim(pile_sizes=2;3;4)"]
_SOLVED: dict[str, object] = {}


def solved(name: str):
    if name not in _SOLVED:
        _SOLVED[name] = solve_openspiel(name)
    return _SOLVED[name]


def random_states(game, rng: random.Random, n: int, min_moves: int):
    """States reached by random play, at least ``min_moves`` in (so minimax is quick)."""
    out = []
    while len(out) < n:
        state = game.new_initial_state()
        depth = rng.randint(min_moves, min_moves + 4)
        for _ in range(depth):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(state)
    return out


def _number(value: Value) -> int:
    return {Value.WIN: 1, Value.LOSE: -1, Value.TIE: 0}[value]


@pytest.mark.parametrize("name", GAMES)
def test_values_equal_openspiel_minimax(name):
    """At the start (where OpenSpiel's alpha-beta is quick enough) and at random states,
    the value for the player to move equals alpha_beta_search's for that player."""
    s = solved(name)
    game = s.game.game
    rng = random.Random(name)
    min_moves = 0 if "nim" in name or "tic" in name else 5
    states = random_states(game, rng, 12, min_moves)
    if min_moves == 0:
        states.append(game.new_initial_state())
    for state in states:
        value, _ = minimax.alpha_beta_search(game, state=state.clone(),
                                             maximizing_player_id=state.current_player())
        assert _number(s.value(state)) == np.sign(value), str(state)


@pytest.mark.parametrize("name", GAMES)
def test_optimal_actions_keep_the_value_and_remoteness(name):
    """Every optimal action leads to a child whose value is the parent's for its mover,
    one move closer to the end (the engine's own bookkeeping, checked from outside)."""
    s = solved(name)
    rng = random.Random(f"opt-{name}")
    for state in random_states(s.game.game, rng, 10, 0):
        v, r = s.value(state), s.remoteness(state)
        for action in s.optimal_actions(state):
            child = state.child(action)
            cv = (Value.WIN if child.returns()[state.current_player()] >
                  child.returns()[1 - state.current_player()] else
                  Value.LOSE if child.returns()[state.current_player()] <
                  child.returns()[1 - state.current_player()] else Value.TIE
                  ) if child.is_terminal() else s.value(child)
            if not child.is_terminal() and child.current_player() != state.current_player():
                cv = cv.flipped()
            assert cv == v
            assert (0 if child.is_terminal() else s.remoteness(child)) == r - 1


@pytest.mark.parametrize("name", ["tic_tac_toe", "connect_four(rows=4,columns=4)",
                                  "dots_and_boxes(num_rows=2,num_cols=2)",
                                  "clobber(rows=3,columns=3)"])
def test_the_bot_never_loses_to_a_random_bot_nor_throws_away_a_win(name):
    """Through pyspiel.evaluate_bots, in both seats: the bot's return is never below the
    start's value for its seat; and in games played move by move, wherever the bot is to
    move in a won position, its move keeps the win."""
    s = solved(name)
    game = s.game.game
    start = s.value()
    rng = np.random.RandomState(7)
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    for seat in (0, 1):
        floor = _number(start) if seat == 0 else -_number(start)
        for i in range(15):
            bots = [None, None]
            bots[seat] = s.bot(seed=i)
            bots[1 - seat] = UniformRandomBot(1 - seat, rng)
            returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, i)
            assert np.sign(returns[seat] - returns[1 - seat]) >= floor
    prng = random.Random(name)
    bot = s.bot(seed=3)
    for _ in range(15):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == 0:
                before = s.value(state)
                action = bot.step(state)
                mover = state.current_player()
                state.apply_action(action)
                if before is Value.WIN:
                    if state.is_terminal():
                        assert state.returns()[mover] > state.returns()[1 - mover]
                    else:
                        after = s.value(state)
                        assert (after if state.current_player() == mover
                                else after.flipped()) is Value.WIN
            else:
                state.apply_action(prng.choice(state.legal_actions()))


def test_the_bot_policy_is_uniform_over_optimal_actions():
    s = solved("tic_tac_toe")
    state = s.game.game.new_initial_state()
    for a in (4, 0):
        state.apply_action(a)  # X centre, O corner: X to move
    policy, action = s.bot(seed=1).step_with_policy(state)
    actions = [a for a, _ in policy]
    assert actions == s.optimal_actions(state) and action in actions
    assert all(abs(p - 1 / len(actions)) < 1e-12 for _, p in policy)


def test_labels_hold_every_state_with_exact_values(tmp_path):
    s = solved("tic_tac_toe")
    labels = s.labels()
    n = len(s)
    assert labels["observation"].shape == (n, 27) and labels["optimal"].shape == (n, 9)
    # the start: every action ties, value 0 in 9
    start = next(i for i, obs in enumerate(labels["observation"])
                 if obs[:9].sum() == 9 and labels["player"][i] == 0)
    assert labels["value"][start] == 0 and labels["remoteness"][start] == 9
    assert labels["optimal"][start].all()
    # terminal states have no optimal action; non-terminal ones at least one
    assert not labels["optimal"][labels["terminal"]].any()
    assert labels["optimal"][~labels["terminal"]].any(axis=1).all()
    npz = np.load(s.save_labels(tmp_path / "ttt.npz"))
    assert np.array_equal(npz["value"], labels["value"])
    pq = pytest.importorskip("pyarrow.parquet")
    table = pq.read_table(s.save_labels(tmp_path / "ttt.parquet"))
    assert table.num_rows == n and table.column("value").to_pylist() == labels["value"].tolist()
    with pytest.raises(InputError, match=".npz or .parquet"):
        s.save_labels(tmp_path / "ttt.csv")
    with pytest.raises(InputError, match="cannot write"):
        s.save_labels(tmp_path / "no such folder" / "ttt.npz")


def test_the_history_key_gives_the_same_values():
    by_str = solve_openspiel("nim(pile_sizes=1;2;2)")
    by_history = solve_openspiel("nim(pile_sizes=1;2;2)", key="history")
    assert len(by_history) >= len(by_str)
    game = by_str.game.game
    for state in random_states(game, random.Random(1), 10, 0):
        assert by_str.value(state) == by_history.value(state)
        assert by_str.optimal_actions(state) == by_history.optimal_actions(state)


@pytest.mark.parametrize("name,why", [
    ("kuhn_poker", "chance events"),
    ("matrix_rps", "simultaneous"),
    ("goofspiel(num_cards=3)", "chance events|simultaneous"),
    ("leduc_poker", "chance events"),
])
def test_other_game_types_are_refused_in_one_line(name, why):
    with pytest.raises(InputError, match=why) as exc:
        OpenSpielGame(name)
    assert "\n" not in str(exc.value)


def test_bad_names_and_keys_are_clear_errors():
    with pytest.raises(InputError, match="cannot load 'no_such_game'"):
        OpenSpielGame("no_such_game")
    with pytest.raises(InputError, match="key must be"):
        OpenSpielGame("tic_tac_toe", key="hash")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="expected an OpenSpiel game"):
        OpenSpielGame(42)


def test_the_command_line_solves_and_writes_labels(tmp_path):
    """Run in this process through the click command (pyspiel is imported once, not four
    times); an error is one line, never a traceback (an exception other than the exit)."""
    import json

    from click.testing import CliRunner

    from perfectplay.cli import main

    def cli(*args):
        result = CliRunner().invoke(main, ["openspiel", *args])
        assert result.exception is None or isinstance(result.exception, SystemExit), \
            result.exception
        return result

    out = cli("nim(pile_sizes=1;2;3)", "--labels", str(tmp_path / "nim.npz"), "--json")
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["value"] == "lose" and data["states"] > 0
    assert len(np.load(tmp_path / "nim.npz")["value"]) == data["states"]
    out = cli("kuhn_poker")
    assert out.exit_code == 1 and "chance events" in out.stderr
    assert "Traceback" not in out.stderr
    out = cli("tic_tac_toe", "--labels", str(tmp_path / "x.csv"))
    assert out.exit_code == 1 and ".npz or .parquet" in out.stderr
    out = cli("tic_tac_toe", "--labels", str(tmp_path / "missing" / "x.npz"))
    assert out.exit_code == 1 and "does not exist" in out.stderr


def test_an_unknown_openspiel_game_is_one_line() -> None:
    run = [sys.executable, "-m", "perfectplay", "openspiel"]
    out = subprocess.run([*run, "connect_fuor"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert out.stderr.splitlines() == [
        out.stderr.strip()] and "no game 'connect_fuor'" in out.stderr
    assert "did you mean connect_four?" in out.stderr
    out = subprocess.run([*run, "tic_tac_toe(x=1)"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 1 and len(out.stderr.splitlines()) == 1, out.stderr
    assert "Unknown parameter 'x'" in out.stderr
