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

DEFAULTS = [catalog_entry(entry).default for entry in registry.catalog()]


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
