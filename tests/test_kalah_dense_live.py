"""A dense endgame table (``solve --endgame K --dense``) read where a game is played live:
the page's live analysis (``serve --live-store DIR``), ``play --store DIR`` and the opener
they share (:mod:`perfectplay.store.endgame`). The table holds margins only, so every move
is searched, the table cutting each search short; every answer must still be the strong
solution's margin and remoteness (Kalah(6, 1), which the page answers live: six houses)."""

from __future__ import annotations

import random
import threading

import pytest
from click.testing import CliRunner

from perfectplay.catalog.kalah import Kalah
from perfectplay.cli import main
from perfectplay.engine import solve
from perfectplay.engine.proof.live import analyze_moves
from perfectplay.engine.target import load_catalog_target
from perfectplay.errors import InputError
from perfectplay.store.endgame import DenseEndgame, is_dense_table, open_endgame
from test_book import _listed

KALAH = "kalah(houses=6, seeds=1)"
K = 5  # the table: every board of at most 5 seeds in play (C(17, 12) = 6,188 bytes)


@pytest.fixture(scope="module")
def kalah():
    game = load_catalog_target(KALAH)
    return game, solve(game)


@pytest.fixture(scope="module")
def dense(tmp_path_factory):
    where = tmp_path_factory.mktemp("dense") / "k5"
    Kalah(6, 1).build_dense_endgame(K, where)
    return where


def _in_play(game, pos) -> int:
    pits, _ = game.houses_of(pos)
    return sum(pits)


def _positions(game, n: int, seed: int) -> list[tuple[list[str], int]]:
    """``n`` (moves, position) of random play, not over, both above and within the
    table's seeds (so the search both reads it at its leaves and is answered by it)."""
    rng, out = random.Random(seed), []
    while len(out) < n:
        pos, names = game.initial(), []
        for _ in range(rng.randint(0, 14)):
            if game.outcome(pos) is not None or not list(game.moves(pos)):
                break
            move = rng.choice(list(game.moves(pos)))
            pos, names = game.play(pos, move), names + [game.move_name(move)]
        if game.outcome(pos) is None and list(game.moves(pos)):
            out.append((names, pos))
    return out


def _solved(game, solution, pos) -> dict[str, tuple[object, int | None]]:
    return {game.move_name(mv.move): (mv.value, mv.remoteness)
            for mv in solution.move_values(pos)}


def test_the_opener_tells_a_table_from_a_store_and_refuses_a_wrong_one(dense, tmp_path):
    assert is_dense_table(dense) and not is_dense_table(tmp_path)
    game = Kalah(6, 1)
    endgame = open_endgame(dense, game)
    assert isinstance(endgame, DenseEndgame) and endgame.game_name == game.name
    with pytest.raises(KeyError):  # margins only: no move is answered by the table itself
        endgame.value(game.initial())
    with pytest.raises(InputError, match="not of 4 houses"):
        open_endgame(dense, Kalah(4, 1))
    with pytest.raises(InputError, match="name the game"):
        open_endgame(dense)


def test_analysis_with_the_table_is_the_strong_solution(kalah, dense):
    game, solution = kalah
    endgame = DenseEndgame(game, dense)
    positions = _positions(game, 30, seed=11)
    assert {_in_play(game, p) > K for _, p in positions} == {True, False}
    for names, pos in positions:
        reports = list(analyze_moves(game, pos, endgame=endgame))
        final = {r.name: (r.value, r.remoteness) for r in reports if r.exact}
        assert final == _solved(game, solution, pos), names
        assert {r.source for r in reports} == {"search"}
    assert endgame._leaf is not None and endgame._leaf.dense_gate == K


def test_the_pages_live_analysis_reads_a_table_given_with_live_store(kalah, dense,
                                                                    tmp_path):
    from perfectplay.web import live

    game, solution = kalah
    Kalah(4, 1).build_dense_endgame(3, tmp_path / "four")
    _, endgame = live.stores_for(KALAH, [str(tmp_path / "four"), str(dense)])
    assert isinstance(endgame, DenseEndgame) and endgame.path == dense  # 4 houses: skipped
    assert live.stores_for(KALAH, [str(tmp_path / "four")])[1] is None
    for names, pos in _positions(game, 8, seed=12):
        body = {"moves": ",".join(names), "p": None, "stores": [str(dense)]}
        lines = list(live.live_analysis(KALAH, body, threading.Event()))
        moves = {ln["name"]: (ln["margin"], ln["remoteness"]) for ln in lines
                 if ln["kind"] == "move" and ln["exact"]}
        assert moves == {m: (v, r) for m, (v, r) in _solved(game, solution, pos).items()}
        assert lines[-1]["kind"] == "done" and lines[-1]["exact"], lines[-1]


def test_play_with_a_dense_table_lists_the_solutions_moves(kalah, dense):
    game, solution = kalah
    want = sorted((game.move_name(mv.move), mv.describe())
                  for mv in solution.move_values(game.initial()))
    run = CliRunner().invoke(main, ["play", KALAH, "--store", str(dense)], input="1\n/q\n")
    assert run.exit_code == 0, run.output[-2000:]
    assert sorted(_listed(run.output)) == want
    assert "dense endgame table" in run.output
    run = CliRunner().invoke(main, ["play", "--store", str(dense)], input="/q\n")
    assert run.exit_code == 2 and "name the game it is for" in run.output
    assert "Traceback" not in run.output


def test_serve_takes_a_dense_table_as_a_live_store(dense, monkeypatch, tmp_path):
    pytest.importorskip("starlette")
    from perfectplay.web import app, serving

    seen: dict[str, object] = {}
    monkeypatch.setattr(app, "create_app", lambda **kw: seen.update(kw) or "app")
    monkeypatch.setattr(serving, "run_until_stopped", lambda *a: None)
    out = CliRunner().invoke(main, ["serve", "--live-store", str(dense)])
    assert out.exit_code == 0, out.output
    assert seen["live_stores"] == [str(dense.resolve())]


@pytest.mark.parametrize("args", [["query"], ["serve", "--store"], ["analyze"]])
def test_commands_that_read_stores_say_a_dense_table_is_none(dense, args):
    pytest.importorskip("starlette")
    out = CliRunner().invoke(main, [*args, str(dense)])
    assert out.exit_code == 1, out.output
    assert "holds a dense endgame table (solve --endgame K --dense), not a store" in \
        out.output and "Traceback" not in out.output
