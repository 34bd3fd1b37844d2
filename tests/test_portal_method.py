"""Closing the Portal's three methods behind one door: the parity rule, the Grundy table and
proof search agree wherever each applies; ``method`` forces one (CLI, API, web), the limits
say what to do, and play uses search beyond the table."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perfectplay import Value
from perfectplay.errors import InputError, LimitError
from perfectplay.portal import (
    EXACT_LIMIT,
    Method,
    PortalOptions,
    analyze,
    parse_board,
    play_table,
    uses_parity_rule,
)
from perfectplay.portal.rules import exact_winner


@st.composite
def boards(draw, kinds=("king", "hex", "square")):
    kind = draw(st.sampled_from(kinds))
    rows, cols = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    cells = [draw(st.sampled_from("...#")) for _ in range(rows * cols)]
    a, b = draw(st.lists(st.integers(0, rows * cols - 1), min_size=2, max_size=2,
                         unique=True))
    cells[a] = cells[b] = "O"
    text = "\n".join("".join(cells[r * cols:(r + 1) * cols]) for r in range(rows))
    try:
        return parse_board(text, kind)
    except InputError:  # adjacent portals
        return None


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_every_method_that_applies_gives_the_same_winner(board):
    if board is None:
        return
    auto = analyze(board, PortalOptions(board.kind.value))
    searched = analyze(board, PortalOptions(board.kind.value, "search"))
    assert searched.winner == auto.winner
    if auto.connected:
        assert searched.method is Method.SEARCH
        grundy = analyze(board, PortalOptions(board.kind.value, "grundy"))
        assert grundy.winner == auto.winner and grundy.method is Method.EXACT
        assert grundy.winner == ("Alif" if exact_winner(board)[0] else "Bella")
    if uses_parity_rule(board):
        assert analyze(board, PortalOptions(board.kind.value, "parity")).winner == auto.winner
    else:
        with pytest.raises(InputError, match="parity rule holds only on bipartite"):
            analyze(board, PortalOptions(board.kind.value, "parity"))


def _open_board(rows: int, cols: int) -> str:
    g = [["."] * cols for _ in range(rows)]
    g[0][0] = g[rows - 1][cols - 1] = "O"
    return "\n".join("".join(r) for r in g)


def test_auto_searches_past_the_grundy_table_and_says_what_it_proved():
    board = parse_board(_open_board(5, 6), "hex")  # 28 empty cells
    assert int(board.empty.sum()) > EXACT_LIMIT
    res = analyze(board, PortalOptions("hex"))
    assert res.method is Method.SEARCH and res.nodes > 0
    text = res.explain()
    assert "Proof search" in text and f"{res.nodes:,} positions" in text
    data = res.to_json()
    assert data["method"] == "search" and data["nodes"] == res.nodes
    assert (res.winner == "Alif") == bool(data["winning_moves"])
    with pytest.raises(LimitError, match=r"Grundy table takes at most 26 .* has 28"):
        analyze(board, PortalOptions("hex", "grundy"))


def test_a_search_out_of_time_names_the_time_and_the_way_out():
    board = parse_board(_open_board(6, 6), "king")  # 34 cells: minutes at least
    with pytest.raises(LimitError, match=r"within 0\.2 s.*raise the time limit"):
        analyze(board, PortalOptions("king", "search", time_limit=0.2))


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), 1e9, "ten", True])
def test_a_bad_time_limit_is_refused(bad):
    with pytest.raises(InputError, match="time_limit must be"):
        PortalOptions("king", "search", time_limit=bad)


def test_play_past_the_table_plays_winning_moves():
    """A king board of 18 empty cells (past the engine's full solution in play): the
    oracle's value at each position of a game equals the Grundy table's, and its best move
    from a won position leaves a lost one."""
    board = parse_board("O....\n.....\n....O\n.....", "king")
    table = play_table(board, PortalOptions("king"))
    game, oracle = table.game, table.oracle
    walls, rng = game.initial(), random.Random(3)
    while game.outcome(walls) is None:
        here = board.with_walls([c for k, c in enumerate(game.cells) if walls >> k & 1])
        mover_wins = exact_winner(here)[0]
        assert (oracle.value(walls) is Value.WIN) == mover_wins
        best = oracle.best_move(walls)
        if mover_wins:
            child = game.play(walls, best)
            assert oracle.value(child) is not Value.WIN
        walls = game.play(walls, best if rng.random() < 0.5 else rng.choice(game.moves(walls)))


def test_the_command_line_forces_a_method(tmp_path):
    """In-process through click's runner (the command's parsing and output, not the process:
    two subprocesses cost seconds of start-up and numba loading each)."""
    from click.testing import CliRunner

    from perfectplay.cli import main

    path = tmp_path / "b.txt"
    path.write_text(_open_board(4, 4))
    run = ["portal", str(path), "--kind", "king", "--json"]
    answers = {}
    for method in ("grundy", "search"):
        out = CliRunner().invoke(main, run + ["--method", method])
        assert out.exit_code == 0 and out.exception is None, out.stderr
        answers[method] = json.loads(out.stdout)
    assert answers["grundy"]["winner"] == answers["search"]["winner"]
    assert answers["search"]["method"] == "search" and answers["search"]["nodes"] > 0
    out = CliRunner().invoke(main, run + ["--method", "parity"])
    assert out.exit_code != 0 and "parity rule holds only" in out.stderr
    assert "Traceback" not in out.stderr
    # no exception escaped the command: it ended by its own exit code
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exception


def test_the_web_api_takes_the_method():
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from starlette.testclient import TestClient

    from perfectplay.web.app import create_app

    c = TestClient(create_app())
    body = {"text": _open_board(3, 4), "kind": "king", "method": "search"}
    r = c.post("/api/games/portal/analyze", json=body)
    assert r.status_code == 200 and r.json()["result"]["method"] == "search"
    assert c.post("/api/games/portal/analyze", json={**body, "method": "guess"}).status_code == 422
    r = c.post("/api/games/portal/analyze", json={**body, "time_limit": -3})
    assert r.status_code == 422 and "time_limit must be" in r.text


def test_winning_moves_cut_short_by_time_are_listed_as_unchecked():
    """The winner is proven first; the winning first moves in the time left. With no time
    left for them, the moves proven are winning, the rest are listed as unchecked, and the
    explanation says the list is not complete."""
    from perfectplay.portal.search import search_winner

    board = parse_board(_open_board(4, 7), "king")  # the moves take more than one clock tick
    full = search_winner(board)
    assert full.first_wins and full.winning_cells and not full.unchecked_cells
    cut = search_winner(board, move_seconds=0.0)
    assert cut.first_wins and cut.unchecked_cells
    assert set(cut.winning_cells) <= set(full.winning_cells)
    assert set(full.winning_cells) <= set(cut.winning_cells) | set(cut.unchecked_cells)
    res = analyze(board, PortalOptions("king", "search"))
    assert not res.unchecked and res.to_json()["unchecked_moves"] == []
    shown = dataclasses.replace(res, unchecked=cut.unchecked_cells)
    assert "not checked within the time limit" in shown.explain()
    assert shown.to_json()["unchecked_moves"] == [board.name(c) for c in cut.unchecked_cells]
