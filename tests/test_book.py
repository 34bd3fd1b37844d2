"""Opening books (perfectplay.store.book): every position within N plies, exact, as a store.
The last ply is searched and the plies before it derived by minimax; both are checked
against the strong solution of small boards (solve), position by position, and the
positions held against an independent enumeration by the Python twin."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from perfectplay.catalog.connect4 import ConnectFour, ConnectFourPy
from perfectplay.cli import main
from perfectplay.engine import Value, solve
from perfectplay.errors import LimitError
from perfectplay.progress import Progress
from perfectplay.store import SolveStopped, StoreError, open_store
from perfectplay.store.book import build_book, find_book


@pytest.fixture(scope="module")
def c4():
    game = ConnectFour(4, 4)
    return game, solve(game)


def twin_positions(w: int, h: int, plies: int) -> set[tuple[str, ...]]:
    """Every position of ConnectFourPy within ``plies`` plies (a mirror image is the same
    position), found apart from the compiled game."""
    twin = ConnectFourPy(w, h)
    layer = {twin.initial()}
    seen = set(layer)
    for _ in range(plies):
        nxt = set()
        for pos in layer:
            if twin.outcome(pos) is None:
                nxt |= {twin.play(pos, m) for m in twin.moves(pos)}
        layer = nxt - seen
        seen |= layer
    return {min(p, p[::-1]) for p in seen}


@pytest.mark.slow
def test_a_book_holds_every_position_within_its_plies_exactly(c4, tmp_path):
    game, solution = c4
    book = build_book(game, 5, tmp_path / "bk")
    assert book.positions == len(twin_positions(4, 4, 5))
    with open_store(tmp_path / "bk", game) as store:
        shallow, deep = [], []
        for pos in solution.positions():
            (shallow if game.stones(pos)[1] <= 5 else deep).append(pos)
        got = store.lookup(shallow)  # searched (ply 5) or derived (plies 0-4)
        assert got["found"].all()
        for pos, value, rem in zip(shallow, got["value"], got["remoteness"], strict=True):
            assert (value, rem) == (solution.value(pos), solution.remoteness(pos)), pos
        assert len(shallow) > book.positions  # mirror images too
        assert not store.lookup(deep[::97])["found"].any()
        start = game.initial()
        assert store.move_values(start) == solution.move_values(start)
        assert store.lookup([start])["found"].all()


def test_a_killed_build_resumes_to_the_same_book(c4, tmp_path, monkeypatch):
    game, _ = c4
    monkeypatch.setattr("perfectplay.store.book.CHUNK", 10)
    with pytest.raises(SolveStopped):
        build_book(game, 4, tmp_path / "a", stop_after=2)
    assert len(list((tmp_path / "a" / "work").glob("done-*.npy"))) == 2
    lines = []
    again = build_book(game, 4, tmp_path / "a", progress=lines.append)
    assert again.resumed == 20 and any("resuming: 20 positions" in x for x in lines)
    build_book(game, 4, tmp_path / "b")
    for name in ("tiers", "checksums"):
        a = json.loads((tmp_path / "a" / "manifest.json").read_text())[name]
        b = json.loads((tmp_path / "b" / "manifest.json").read_text())[name]
        assert a == b
    assert build_book(game, 4, tmp_path / "a").already


def test_a_build_in_two_processes_resumes_a_serial_one_to_the_same_book(c4, tmp_path,
                                                                      monkeypatch):
    """``--jobs 2`` (forked processes, a table each, blocks handed out in order) picks up
    the chunks a killed one-process build saved and ends with the very book the one
    process builds alone. Run as a command in a fresh process: a fork needs a process
    with no other thread, which a test runner's may not be."""
    game, _ = c4
    monkeypatch.setattr("perfectplay.store.book.CHUNK", 10)
    with pytest.raises(SolveStopped):
        build_book(game, 5, tmp_path / "a", stop_after=2,
                   game_ref="connect4(width=4, height=4)")
    run = subprocess.run([sys.executable, "-m", "perfectplay", "book",
                          "connect4(width=4, height=4)", "--plies", "5", "--out",
                          str(tmp_path / "a"), "--jobs", "2", "--json"],
                         capture_output=True, text=True, timeout=600,
                         env={k: v for k, v in os.environ.items()
                              if k != "PERFECTPLAY_WORKERS"})
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    assert data["jobs"] == (2 if cpus >= 2 and sys.platform.startswith("linux") else 1)
    assert "resuming: 20 positions" in run.stderr
    build_book(game, 5, tmp_path / "b")
    for name in ("tiers", "checksums"):
        a = json.loads((tmp_path / "a" / "manifest.json").read_text())[name]
        b = json.loads((tmp_path / "b" / "manifest.json").read_text())[name]
        assert a == b


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="helpers are forked on Linux")
def test_blocks_a_dead_helper_held_are_searched_in_the_parent(tmp_path):
    """A helper that dies on its block (the out-of-memory killer, a crash) loses nothing:
    its block and every later one are searched by the building process itself, and each
    is saved as a chunk."""
    from perfectplay.engine.workers import start_helper
    from perfectplay.store.book import _Run, _search_blocks

    codes = np.arange(100, 150, dtype=np.int64)
    helper = start_helper(lambda block: os._exit(3))
    assert helper is not None
    run = _Run(codes.size, 0, np.zeros(codes.size, np.int64), np.full(codes.size, -1),
               tmp_path, lambda line: None, None)
    with Progress("test", total=codes.size, enabled=False) as shown:
        run.shown = shown
        _search_blocks(run, [helper], codes, list(range(codes.size)),
                       lambda code: (code % 3, code - 100))
    helper.close()
    assert run.vals.tolist() == [c % 3 for c in codes.tolist()]
    assert run.rems.tolist() == list(range(codes.size))
    assert len(list(tmp_path.glob("done-*.npy"))) == run.chunks == -(-codes.size // 8)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="helpers are forked on Linux")
def test_a_parallel_build_stops_after_the_blocks_it_is_told(tmp_path):
    """``stop_after`` with helpers: SolveStopped once that many blocks are saved (those
    under way may add one a helper), never the whole ply; what was saved is exact."""
    from perfectplay.engine.workers import start_helper
    from perfectplay.store.book import _Run, _search_block, _search_blocks

    codes = np.arange(200, dtype=np.int64)

    def searched(code: int) -> tuple[int, int]:
        return code % 3, code

    helpers = [start_helper(lambda block: _search_block(searched, codes, *block))
               for _ in range(2)]
    assert all(helpers)
    run = _Run(codes.size, 0, np.zeros(codes.size, np.int64), np.full(codes.size, -1),
               tmp_path, lambda line: None, 3)
    try:
        with pytest.raises(SolveStopped), Progress("test", total=codes.size,
                                                   enabled=False) as shown:
            run.shown = shown
            _search_blocks(run, helpers, codes, list(range(codes.size)), searched)
    finally:
        for helper in helpers:
            helper.close()
    saved = sorted(tmp_path.glob("done-*.npy"))
    assert 3 <= len(saved) <= 3 + 2 and run.chunks == len(saved)
    for path in saved:
        lo, hi = (int(x) for x in path.stem.split("-")[1:3])
        assert np.load(path).tolist() == [[c % 3 for c in range(lo, hi)], list(range(lo, hi))]


@pytest.mark.parametrize("target, plies", [("connect4(width=4, height=4)", 5),
                                           ("kalah(houses=3, seeds=2)", 3)])
def test_bounds_from_a_shallower_book_save_probes_and_change_nothing(target, plies, tmp_path,
                                                                    monkeypatch):
    """``--bounds-from``: the shallower book's scores of the ply above the last bound its
    children's searches (no move beats its position's score; Kalah's extra turns bound
    from above), so the build probes less and writes the very same book."""
    from perfectplay.engine.proof import backends as searchbackends
    from perfectplay.engine.target import load_target

    game = load_target(target)
    build_book(game, plies - 1, tmp_path / "above", game_ref=target)
    probes = {"n": 0}
    real = searchbackends.CompiledBackend.close

    def counted(self, *args, **kwargs):  # every search's probes, counted as it ends
        probes["n"] += self.probes
        return real(self, *args, **kwargs)

    monkeypatch.setattr(searchbackends.CompiledBackend, "close", counted)
    counts = {}
    with open_store(tmp_path / "above", game) as above:
        for name, shallower in (("plain", None), ("bounded", above)):
            probes["n"] = 0
            build_book(game, plies, tmp_path / name, game_ref=target, shallower=shallower)
            counts[name] = probes["n"]
    assert 0 < counts["bounded"] < counts["plain"], counts
    for key in ("tiers", "checksums"):
        a = json.loads((tmp_path / "plain" / "manifest.json").read_text())[key]
        b = json.loads((tmp_path / "bounded" / "manifest.json").read_text())[key]
        assert a == b
    run = CliRunner().invoke(main, ["book", target, "--plies", str(plies + 2), "--out",
                                    str(tmp_path / "x"), "--bounds-from",
                                    str(tmp_path / "above")])
    assert run.exit_code == 1 and "Traceback" not in run.output, run.output
    assert f"bounds for ply {plies + 2} need one of at least {plies + 1}" in run.output


def test_bounds_from_another_game_or_wrong_bounds_are_refused(c4, tmp_path):
    """A wrong bound would make a wrong book: another game's book is refused before any
    search, and a bound the search contradicts is a GameError, never a saved answer."""
    from perfectplay.engine.proof.driver import search
    from perfectplay.engine.proof.result import MATE
    from perfectplay.errors import GameError

    game, solution = c4
    other = ConnectFour(5, 4)
    build_book(other, 1, tmp_path / "other", game_ref="connect4(width=5, height=4)")
    with open_store(tmp_path / "other", other) as above, \
            pytest.raises(StoreError, match="not of ConnectFour\\(4, 4\\)"):
        build_book(game, 2, tmp_path / "bk", shallower=above)
    start = game.initial()
    assert solution.value(start) == Value.TIE
    with pytest.raises(GameError, match="bounds known .* were wrong"):
        search(game, start, known=(MATE - 30, MATE))  # "a win" where it is a tie
    assert search(game, start, known=(0, 0)).value == Value.TIE


def test_bad_requests_are_one_clear_error(c4, tmp_path):
    game, _ = c4
    with pytest.raises(LimitError, match="plies must be"):
        build_book(game, -1, tmp_path / "x")
    for jobs in (0, 65, 1.5, True):
        with pytest.raises(LimitError, match="jobs must be an int from 1 to 64"):
            build_book(game, 2, tmp_path / "x", jobs=jobs)
    build_book(game, 2, tmp_path / "bk")
    with pytest.raises(StoreError, match="book of 2 plies, not 3"):
        build_book(game, 3, tmp_path / "bk")
    with pytest.raises(StoreError, match="not of ConnectFour"):
        build_book(ConnectFour(5, 4), 2, tmp_path / "bk")
    with pytest.raises(StoreError, match="compiled game"):
        build_book(ConnectFourPy(4, 4), 2, tmp_path / "y")


def test_the_command_builds_a_book_that_query_reads(tmp_path):
    out = str(tmp_path / "bk")
    run = CliRunner().invoke(main, ["book", "connect4(width=4, height=4)", "--plies", "3",
                                    "--out", out, "--json"])
    assert run.exit_code == 0, run.output
    data = json.loads(run.output[run.output.index("{"):])
    assert data["plies"] == 3 and data["positions"] == len(twin_positions(4, 4, 3))
    run = CliRunner().invoke(main, ["query", out, "--moves", "2,2", "--json"])
    assert run.exit_code == 0, run.output
    run = CliRunner().invoke(main, ["book", "nosuchgame", "--plies", "3", "--out", out])
    assert run.exit_code != 0 and "unknown game" in run.output


def test_no_book_is_found_for_a_board_that_ships_none(c4):
    game, _ = c4
    assert find_book(game) is None


def _listed(output: str) -> list[tuple[str, str]]:
    """The (move, value) lines of play's first move list."""
    lines = output.split("to move:", 1)[1].splitlines()[1:]
    out = []
    for line in lines:
        parts = line.split()
        if len(parts) < 3 or not parts[0].endswith("."):
            break
        out.append((parts[1], " ".join(parts[2:])))
    return out


def test_play_answers_live_and_from_a_store_as_the_solution_says(c4, tmp_path):
    game, solution = c4
    want = sorted((game.move_name(mv.move), mv.describe())
                  for mv in solution.move_values(game.initial()))
    run = CliRunner().invoke(main, ["play", "connect4(width=4, height=4)", "--live"],
                             input="2\n/q\n")
    assert run.exit_code == 0, run.output
    assert sorted(_listed(run.output)) == want
    assert "player 2 (computer) plays" in run.output
    build_book(game, 2, tmp_path / "bk", game_ref="connect4(width=4, height=4)")
    run = CliRunner().invoke(main, ["play", "--store", str(tmp_path / "bk")],
                             input="1\n1\n1\n/q\n")  # past the book's 2 plies: searched
    assert run.exit_code == 0, run.output
    assert sorted(_listed(run.output)) == want
    assert run.output.count("to move:") >= 3
    run = CliRunner().invoke(main, ["play", "--live", "examples/tictactoe.py:TicTacToe"])
    assert run.exit_code != 0 and "cannot be played live" in run.output


def test_play_goes_live_for_the_instances_the_catalog_searches():
    from perfectplay.cli.book import _searched_by_the_catalog

    assert _searched_by_the_catalog("connect4(width=7, height=6)")  # Steininger's, by search
    assert _searched_by_the_catalog("connect4(width=8, height=6)")  # unlisted and big
    assert not _searched_by_the_catalog("connect4(width=4, height=4)")  # solved whole
    assert not _searched_by_the_catalog("examples/tictactoe.py:TicTacToe")


def test_the_shipped_7x6_book_gives_the_published_first_moves():
    """Standard Connect Four's book ships in the wheel (perfectplay book built it): from the
    start, only the middle column wins, on ply 41; the columns beside it (3 and 5) tie and
    the outer four lose (Allis 1988; Tromp)."""
    game = ConnectFour(7, 6)
    book = find_book(game)
    assert book is not None and json.loads(
        (book.path / "manifest.json").read_text())["book"]["plies"] >= 1
    assert (book.value(), book.remoteness()) == (Value.WIN, 41)
    got = {game.move_name(mv.move): mv.value for mv in book.move_values()}
    assert got == {"4": Value.WIN, "3": Value.TIE, "5": Value.TIE, "1": Value.LOSE,
                   "2": Value.LOSE, "6": Value.LOSE, "7": Value.LOSE}
    assert book.move_values()[0].remoteness == 41


def test_the_shipped_7x6_book_holds_pons_published_scores_within_its_plies():
    """Every position of Pascal Pons' published 7x6 test sets (opening_L1, opening_L3)
    that lies within the shipped book's plies is in it, with his score as value and
    remoteness: searched (its last ply) or derived (the plies before), checked against a
    solver apart from ours."""
    from perfectplay.catalog.connect4 import from_pons_score, position_from_moves

    game = ConnectFour(7, 6)
    book = find_book(game)
    assert book is not None
    plies = json.loads((book.path / "manifest.json").read_text())["book"]["plies"]
    data = Path(__file__).parent / "data" / "connect4"
    rows = [row.split() for name in ("opening_L1", "opening_L3")
            for row in (data / f"7x6_{name}.txt").read_text().splitlines() if row.strip()]
    shallow = [(moves, int(score)) for moves, score in rows if len(moves) <= plies]
    assert len(shallow) >= 10 and max(len(m) for m, _ in shallow) == plies
    for moves, score in shallow:
        pos = position_from_moves(game, moves)
        assert (book.value(pos), book.remoteness(pos)) == from_pons_score(score, len(moves))


def test_a_kalah_book_built_with_an_endgame_store_holds_the_same_answers(client, tmp_path):
    """``book --store DIR``: every search of the build reads the endgame store (Kalah(3, 3),
    positions with at most 6 seeds in the houses) instead of searching it; the book holds
    the same positions with the same values and remoteness as the one built without it,
    and both are the strong solution's."""
    from perfectplay.catalog.kalah import Kalah
    from perfectplay.store import solve_tiered

    target, game = "kalah(houses=3, seeds=3)", Kalah(3, 3)
    runner = CliRunner()
    eg = str(tmp_path / "eg")  # as solve --store eg --endgame 6 builds it
    solve_tiered(game, eg, roots=game.endgame_positions(6), client=client)
    for name, extra in (("plain", []), ("with", ["--store", eg])):
        run = runner.invoke(main, ["book", target, "--plies", "2", "--out",
                                   str(tmp_path / name), "--json", *extra])
        assert run.exit_code == 0, run.output
    solution = solve(game)
    positions = list(solution.positions())
    found = []
    for name in ("plain", "with"):
        with open_store(tmp_path / name, game) as store:
            got = store.lookup(positions)
            held = [(p, v, r) for p, ok, v, r in zip(positions, got["found"], got["value"],
                                                     got["remoteness"], strict=True) if ok]
        assert all((v, r) == (solution.value(p), solution.remoteness(p)) for p, v, r in held)
        found.append([p for p, _, _ in held])
    assert found[0] == found[1] and game.initial() in found[0] and len(found[0]) > 10
    run = runner.invoke(main, ["book", "connect4(width=4, height=4)", "--plies", "2",
                               "--out", str(tmp_path / "other"), "--store", eg])
    assert run.exit_code == 1 and "Traceback" not in run.output, run.output
    assert "Kalah" in run.output and not (tmp_path / "other").exists(), run.output
