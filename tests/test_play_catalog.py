"""``perfectplay play`` plays every catalog game in the terminal (its default instance, as
the page's tab opens it): the first position's move list is the strong solution's, every
move with its value and remoteness (or margin); a game played to its end with the listed
best moves ends with the value history, one line a ply, each move keeping its mover's value
(no mistake made)."""

import re

import pytest
from click.testing import CliRunner

from perfectplay import registry
from perfectplay.cli import main
from perfectplay.engine import Value, solve
from perfectplay.engine.target import load_catalog_target
from perfectplay.web.explore import catalog_entry
from test_book import _listed

DEFAULTS = [catalog_entry(entry).explore.default for entry in registry.catalog()]


@pytest.mark.parametrize("target", DEFAULTS)
def test_play_lists_the_solutions_moves_and_ends_with_the_value_history(target):
    game = load_catalog_target(target)
    ref = solve(game)
    want = sorted((game.move_name(mv.move), mv.describe()) for mv in ref.move_values())
    run = CliRunner().invoke(main, ["play", target], input="1\n" * 150 + "/q\n")
    assert run.exit_code == 0, run.output[-2000:]
    assert sorted(_listed(run.output)) == want
    if ref.value() == Value.DRAW:  # best play never ends (Teeko 3x3): no history to show
        return
    assert "Game over" in run.output, run.output[-1500:]
    history = run.output.split("Value history", 1)[1].splitlines()[1:]
    plies = [ln for ln in history if re.match(r"\s+\d+\. player [12] ", ln)]
    assert plies, run.output[-1500:]
    assert [int(ln.split(".")[0]) for ln in plies] == list(range(1, len(plies) + 1))
    assert ref.move_values()[0].describe() in plies[0]  # the start's value, then kept
    for ln in plies:  # both sides played a best move: each kept its value
        said = re.split(r"\s{2,}", ln.strip(), maxsplit=1)[1]
        before, after = (s.strip() for s in said.split("->"))
        assert before == after, ln


def test_play_starts_from_the_moves_given_and_restarts_there():
    """``play --moves``: the position those moves reach, its move list the solution's, the
    moves the first plies of the value history; /r goes back to it; an illegal move is one
    line naming the legal ones."""
    target = "connect4(width=4, height=4)"
    game = load_catalog_target(target)
    ref = solve(game)
    pos = game.play(game.play(game.initial(), 0), 1)
    want = sorted((game.move_name(mv.move), mv.describe()) for mv in ref.move_values(pos))
    run = CliRunner().invoke(main, ["play", target, "--moves", "1, 2", "--two-humans"],
                             input="1\n/r\n/q\n")
    assert run.exit_code == 0, run.output[-2000:]
    assert sorted(_listed(run.output)) == want
    lists = run.output.split("to move:")
    assert len(lists) == 4  # the opening's position, one move on, back at it after /r
    assert sorted(_listed("to move:" + lists[3])) == want
    run = CliRunner().invoke(main, ["play", target, "--moves", "1,1,1,1,1"], input="/q\n")
    assert run.exit_code == 2
    assert "--moves: move 5 of the opening ('1') is not legal there; legal: 2, 3, 4" in \
        run.output and "Traceback" not in run.output


def test_play_opens_a_7x6_position_with_pons_scores():
    """Standard Connect Four in the terminal from a middle-game position (``--moves``):
    every move listed with Pons' solver's score of it (its ``-a`` output, kept with its
    provenance in tests/data/connect4), searched live past the shipped book."""
    from pathlib import Path

    from perfectplay.catalog.connect4 import from_pons_score
    from perfectplay.engine import describe

    data = Path(__file__).parent / "data" / "connect4" / "7x6_pons_analysis.txt"
    moves, *scores = data.read_text().splitlines()[1].split()
    want = sorted((str(c + 1), describe(*from_pons_score(int(s), len(moves))))
                  for c, s in enumerate(scores) if int(s) != -1000)
    run = CliRunner().invoke(main, ["play", "connect4(width=7, height=6)", "--moves",
                                    ",".join(moves), "--two-humans"], input="/q\n")
    assert run.exit_code == 0, run.output[-2000:]
    assert sorted(_listed(run.output)) == want
    history = run.output.split("to move:")[0]
    assert "proven by search" in history  # the shipped book's legend: past it, searched
