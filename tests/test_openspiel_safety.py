"""OpenSpiel games are never answered wrongly by default: the key that tells states apart is
chosen from a sample (quoridor's move limit and go's superko are not in the printed state),
checked against OpenSpiel's own alpha-beta search; and a game too large for memory stops
with LimitError, even under a ``ulimit -v``."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
minimax = pytest.importorskip("open_spiel.python.algorithms.minimax")

from perfectplay.engine import Value  # noqa: E402
from perfectplay.openspiel import (  # noqa: E402
    CHAR_BYTES,
    MOVE_BYTES,
    STATE_BYTES,
    OpenSpielGame,
    bytes_per_position,
    choose_key,
    load,
    solve_openspiel,
)

QUORIDOR, GO = "quoridor(board_size=3)", "go(board_size=2)"


@pytest.mark.parametrize(("game", "key"), [
    ("tic_tac_toe", "str"), ("connect_four(rows=4,columns=4)", "str"),
    ("nim(pile_sizes=1;2;3)", "str"), ("breakthrough(rows=3,columns=3)", "str"),
    (QUORIDOR, "ply"),   # a 36-move limit the printed board does not show
    (GO, "history"),     # superko: legality depends on the whole history
])
def test_the_key_chosen_is_the_smallest_that_determines_the_future(game, key):
    assert choose_key(game).key == key


def alpha_beta_disagreements(solved, min_ply: int, count: int, seed: int = 1) -> int:
    """How many of ``count`` random non-terminal states (at least ``min_ply`` moves in)
    perfectplay values differently from OpenSpiel's alpha-beta search."""
    game, rng, bad, checked = solved.game.game, random.Random(seed), 0, 0
    while checked < count:
        state, ply = game.new_initial_state(), 0
        stop = rng.randint(min_ply, game.max_game_length())
        while not state.is_terminal() and ply < stop:
            state.apply_action(rng.choice(state.legal_actions()))
            ply += 1
        if state.is_terminal():
            continue
        score, _ = minimax.alpha_beta_search(game, state.clone(),
                                             maximizing_player_id=state.current_player())
        expected = Value.WIN if score > 0 else Value.LOSE if score < 0 else Value.TIE
        checked += 1
        bad += solved.value(state) != expected
    return bad


def test_quoridor_by_default_agrees_with_alpha_beta():
    solved = solve_openspiel(QUORIDOR)
    assert solved.game.key == "ply"
    assert alpha_beta_disagreements(solved, min_ply=20, count=60) == 0


def test_go_by_default_agrees_with_alpha_beta():
    solved = solve_openspiel(GO)
    assert solved.game.key == "history"
    assert alpha_beta_disagreements(solved, min_ply=0, count=80) == 0


def test_the_printed_key_named_on_quoridor_warns_and_is_indeed_wrong():
    with pytest.warns(UserWarning, match="may answer wrongly"):
        solved = solve_openspiel(QUORIDOR, key="str")
    assert alpha_beta_disagreements(solved, min_ply=20, count=60) > 0


def test_bytes_a_position_count_the_printed_state_and_the_history():
    game = load("oware(num_houses_per_player=2)")
    printed = len(str(game.new_initial_state()))
    assert bytes_per_position(game, "str") == STATE_BYTES + CHAR_BYTES * printed
    assert bytes_per_position(game, "history") == \
        STATE_BYTES + CHAR_BYTES * printed + MOVE_BYTES * 1000  # oware's limit: 1,000 moves
    assert OpenSpielGame(game, "history").bytes_per_position == \
        bytes_per_position(game, "history")


def test_a_game_too_large_stops_with_limit_error_under_a_memory_cap():
    """A child process capped at 700 MB of address space above what it has mapped solves
    oware by history (which grew to 23.6 GB uncapped): the limit, counted from the cap and
    the adapter's bytes a position, stops it cleanly."""
    code = textwrap.dedent("""
        import resource
        from perfectplay.errors import LimitError
        from perfectplay.openspiel import solve_openspiel
        solve_openspiel("tic_tac_toe")  # compile and load everything before the cap
        used = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
        cap = used + 700 * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (cap, resource.RLIM_INFINITY))
        try:
            solve_openspiel("oware(num_houses_per_player=2)", key="history")
        except LimitError as exc:
            print("LimitError:", exc)
        except MemoryError:
            print("MemoryError")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("LimitError:"), out.stdout + out.stderr[-2000:]
