"""``search_many`` (every position's probes in one kernel call) and the probe plan it shares
with ``search`` (engine/proof/plan.py): the plan against an oracle of fail-soft answers, the
batch against the strong solution and against ``search`` one position at a time, the
carrying on of positions the kernel's pass stopped, and bad input."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from perfectplay import GameError, LimitError, Value, search, search_many, solve
from perfectplay.engine.compiled.game import CompiledGame
from perfectplay.engine.proof import backends as searchbackends
from perfectplay.engine.proof import batch as searchmany
from perfectplay.engine.proof import plan as pp
from perfectplay.engine.proof.driver import clear_table, prepare_table
from perfectplay.games import connect4, kalah, tictactoe
from test_compiled import GAMES, random_game
from test_search import _Heap, sample

MATE = pp.MATE


def _walk(game, rng: random.Random, plies: int) -> int:
    """A position some random moves from the start (fewer when the game ends first)."""
    pos = game.initial()
    for _ in range(plies):
        moves = game.moves(pos)
        if game.outcome(pos) is not None or not moves:
            break
        pos = game.play(pos, rng.choice(moves))
    return pos


def _positions(game, n: int, seed: int, most: int) -> list[int]:
    rng = random.Random(seed)
    return [_walk(game, rng, rng.randrange(most)) for _ in range(n)]


# -- the plan, against an oracle -----------------------------------------------------------
def _reachable(left: int) -> list[int]:
    """Every score of a win/lose/tie position with at most ``left`` plies left."""
    return ([MATE - r for r in range(1, left + 1)] + [0]
            + [-(MATE - r) for r in range(1, left + 1)])


def _follow(st, v: int, rng: random.Random, exact: bool = False) -> int:
    """Answer the plan's probes as a fail-soft search of a position of score ``v`` may
    (any bound between x and v on v's side; ``exact``: v itself), until it ends: the
    probes made."""
    for probes in range(200):
        x = int(pp.plan_next(st))
        if st[pp.PHASE] not in (pp.QUICK, pp.MAIN):
            return probes
        s = v if exact else rng.randint(x, v) if v >= x else rng.randint(v, x - 1)
        pp.plan_result(st, s, 7 if s >= x else -1)
    raise AssertionError("the plan did not end in 200 probes")


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 60), st.data(), st.integers(0, 2**31))
def test_the_plan_pins_every_reachable_score_of_a_win_lose_tie_game(left, data, seed):
    """With the quick probes (a horizon of ``left`` plies), whatever fail-soft bounds the
    probes answer, the plan ends DONE at exactly the true score, in O(log) probes."""
    v = data.draw(st.sampled_from(_reachable(left)))
    plan = pp.new_plan()
    top = MATE - 1
    pp.plan_start(plan, -top, top, -top, top, int(pp.quick_left(False, left)), 0)
    probes = _follow(plan, v, random.Random(seed))
    assert plan[pp.PHASE] == pp.DONE
    assert plan[pp.LO] == plan[pp.HI] == v
    assert probes <= 2 * left.bit_length() + 24


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 40), st.data(), st.integers(0, 2**31), st.booleans())
def test_the_plan_pins_every_margin_and_honours_known_bounds(top, data, seed, narrow):
    """A margin in [-top, top] (MTD(f)'s steps), with or without bounds known beforehand
    that hold: the plan ends at the margin; bounds that exclude it end KNOWN_WRONG."""
    v = data.draw(st.integers(-top, top))
    lo, hi = -top, top
    if narrow:
        lo, hi = data.draw(st.integers(-top, v)), data.draw(st.integers(v, top))
    plan = pp.new_plan()
    pp.plan_start(plan, lo, hi, -top, top, 0, 1)
    _follow(plan, v, random.Random(seed))
    assert plan[pp.PHASE] == pp.DONE and plan[pp.LO] == plan[pp.HI] == v
    if v + 1 < top:  # a bound known above the true margin: probes answering v say so
        plan = pp.new_plan()
        pp.plan_start(plan, v + 1, top, -top, top, 0, 1)
        _follow(plan, v, random.Random(seed), exact=True)
        assert plan[pp.PHASE] == pp.KNOWN_WRONG


def test_a_plan_of_one_probe_gives_the_probes_answer():
    plan = pp.new_plan()
    pp.plan_one(plan, 5)
    assert pp.plan_next(plan) == 5
    pp.plan_result(plan, 3, 2)  # failed low, the move that reached 3 kept
    assert (plan[pp.PHASE], plan[pp.LO], plan[pp.BEST]) == (pp.DONE, 3, 2)


# -- the batch, against the strong solution and against search ----------------------------
@pytest.mark.parametrize("target, plies", [(lambda: connect4(width=4, height=4), 16),
                                           (tictactoe, 9),
                                           (lambda: kalah(houses=3, seeds=3), 14)])
def test_a_batch_equals_the_strong_solution_and_search(target, plies):
    """Connect Four 4x4 (win/lose/tie with a horizon: remoteness read in the kernel),
    tic-tac-toe (ties walked) and Kalah(3, 3) (margins walked): 40 random positions, the
    start and a repeat, each value and remoteness the strong solver's, each best move one
    the solution says keeps the value, and everything ``search`` says one at a time."""
    game = target()
    ref = solve(game)
    positions = _positions(game, 40, 45, plies) + [game.initial()]
    positions.append(positions[3])
    clear_table()
    batch = search_many(game, positions)
    assert len(batch) == len(positions) and batch.exact
    assert batch.nodes == sum(r.nodes for r in batch) > 0
    for pos, r in zip(positions, batch, strict=True):
        assert r.position == pos
        assert (r.value, r.remoteness) == (ref.value(pos), ref.remoteness(pos)), pos
        if ref.move_values(pos):
            keep = {m.move for m in ref.move_values(pos)
                    if (m.value, m.remoteness) == (ref.value(pos), ref.remoteness(pos))}
            assert r.best_move in keep, pos
        one = search(game, pos)
        assert (one.value, one.remoteness, one.best_move) == \
            (r.value, r.remoteness, r.best_move), pos
        assert r.describe() == one.describe()


@settings(max_examples=12, deadline=None)
@given(GAMES, st.sampled_from([(False, False), (True, True)]), st.booleans())
def test_random_compiled_games_in_a_batch_equal_the_strong_solution(sn, kind, short_pass):
    """Random acyclic games (win/lose/tie; margins with extra turns: the two kinds the
    search tests compile with a tier), 25 positions of the solution and the start in one
    batch, the kernel's pass as it is or cut to 20 nodes a position (most positions then
    go on from the plans it left): each value and remoteness the strong solution's, each
    best move one that keeps both."""
    scored, player = kind
    g = random_game(*sn, scored=scored, player=player, tiered=True)
    ref = solve(g)
    positions = sample(ref, 25, sn[0]) + [g.initial()]
    kept = searchmany.QUICK_NODES
    searchmany.QUICK_NODES = 20 if short_pass else kept
    try:
        batch = search_many(g, positions)
    finally:
        searchmany.QUICK_NODES = kept
    for pos, r in zip(positions, batch, strict=True):
        assert r.exact and (r.value, r.remoteness) == (ref.value(pos), ref.remoteness(pos))
        keep = {m.move for m in ref.move_values(pos)
                if (m.value, m.remoteness) == (r.value, r.remoteness)}
        assert r.best_move in keep if keep else r.best_move is None, pos


def test_positions_the_kernel_pass_stops_are_carried_on_to_the_same_answers(monkeypatch):
    """With a pass of 40 nodes a position most positions stop in the kernel and go on a
    probe at a time from the plan it left: the answers are the strong solution's still,
    and the nodes of both parts are counted."""
    game = connect4(width=5, height=4)
    ref = solve(game)
    positions = list(dict.fromkeys(_positions(game, 30, 7, 10) + [game.initial()]))
    monkeypatch.setattr(searchmany, "QUICK_NODES", 40)
    clear_table()
    batch = search_many(game, positions)
    carried = [r for r in batch if r.note != "searched in the kernel's pass over the batch"]
    assert len(carried) >= 10
    for pos, r in zip(positions, batch, strict=True):
        assert r.exact and (r.value, r.remoteness) == (ref.value(pos), ref.remoteness(pos))
        assert r.nodes > 0 and r.probes > 0


def test_limits_stop_a_batch_with_what_is_proven():
    game = connect4(width=5, height=4)
    clear_table()
    first = search_many(game, [game.initial()] * 3, node_limit=30)
    assert not first.exact and all(r.stopped == "nodes" for r in first)
    assert all(r.nodes <= 30 + 1 for r in first)
    assert first[0].describe().startswith("not proven yet")
    clear_table()
    late = search_many(game, [game.initial()] * 600, time_limit=1e-9)
    assert late.stopped == "time" and not late.exact
    assert all(r.value is None for r in late)


def test_a_python_game_is_searched_one_position_at_a_time():
    """A Python game (take 1 or 2 from a heap of 5): one ``search`` a position, each the
    strong solution's value and remoteness."""
    game = _Heap()
    ref = solve(game)
    batch = search_many(game, [5, 4, 3, 0])
    assert [(r.value, r.remoteness) for r in batch] == [
        (ref.value(n), ref.remoteness(n)) for n in (5, 4, 3, 0)]
    assert [r.value for r in batch] == [Value.WIN, Value.WIN, Value.LOSE, Value.LOSE]
    assert batch[0].backend == "python" and batch.exact


def test_bad_positions_and_options_are_named_before_any_work():
    game = connect4(width=5, height=4)
    with pytest.raises(GameError, match="position 2 of 3: the code 1 is not a position"):
        search_many(game, [game.initial(), 1, game.initial()])
    with pytest.raises(GameError, match="position 1 of 1: a code is an int"):
        search_many(game, ["4,4"])
    with pytest.raises(GameError, match="a list of positions"):
        search_many(game, "4,4")
    with pytest.raises(LimitError, match="table_mb"):
        search_many(game, [game.initial()], table_mb=0)
    assert len(search_many(game, [])) == 0


# -- the command line: search --positions ---------------------------------------------------
def _cli(*args: str, stdin: str | None = None) -> tuple[int, str]:
    from click.testing import CliRunner

    from perfectplay.cli import main

    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.output


def test_search_positions_prints_a_line_a_position_in_words(tmp_path):
    """A file of move lines (a comment, a blank line, the start as '-'): a line each with
    where it is, its value and its best move by name, each equal to ``search --moves``;
    JSON for scripts carries the same and the totals."""
    lines = tmp_path / "lines.txt"
    lines.write_text("4,4,5,3\n# a comment\n\n-\n1,1,1,1\n")
    c4 = "connect4(width=5, height=4)"
    code, out = _cli("search", c4, "--positions", str(lines))
    assert code == 0, out
    rows = out.splitlines()
    assert rows[0] == "search: ConnectFour(5, 4), 3 positions"
    for row, moves in zip(rows[1:4], ("4,4,5,3", "", "1,1,1,1"), strict=True):
        _, alone = _cli("search", c4, "--moves", moves, "--json")
        one = json.loads(alone)
        want = f"{one['value']} in {one['remoteness']}; best move {one['best_move_name']}"
        assert row.endswith(want), (row, want)
    assert rows[2].startswith("2. the start; the first player to move: ")
    assert "3 proven" in rows[4]
    code, out = _cli("search", c4, "--positions", "-", "--json", stdin="4,4\n5\n")
    data = json.loads(out)
    assert code == 0 and data["positions"] == 2 and data["exact"] is True
    assert data["results"][0]["where"] == "after 4,4; the first player to move"
    assert data["nodes"] == sum(r["nodes"] for r in data["results"])


def test_search_positions_names_the_bad_line_and_stops_cleanly(tmp_path):
    c4 = "connect4(width=5, height=4)"
    code, out = _cli("search", c4, "--positions", "-", stdin="4,4\n4,4,9\n")
    assert code == 1 and "standard input line 2: move 3 ('9') is not legal" in out
    assert "Traceback" not in out
    code, out = _cli("search", c4, "--positions", "-", stdin="# nothing\n\n")
    assert code == 1 and "holds no position" in out
    code, out = _cli("search", c4, "--positions", "-", "--analyze", stdin="4\n")
    assert code == 1 and "not with --analyze" in out
    code, out = _cli("search", c4, "--positions", str(tmp_path / "none.txt"))
    assert code == 1 and "no such file" in out
    code, out = _cli("search", c4, "--positions", "-", "--nodes", "50", stdin="4\n-\n")
    assert code == 3 and out.count("[NOT EXACT]") == 2
    assert "2 positions stopped by the node limit" in out


def test_value_only_batches_say_what_search_says_and_count_every_probe():
    """``remoteness=False``: a tie's remoteness is not given (as ``search`` gives none), a
    win's and a loss's are; every probe is counted, the best move's too."""
    game = connect4(width=4, height=4)
    positions = _positions(game, 20, 3, 12) + [game.initial()]
    clear_table()
    batch = search_many(game, positions, remoteness=False)
    for pos, r in zip(positions, batch, strict=True):
        one = search(game, pos, remoteness=False)
        assert (r.value, r.remoteness) == (one.value, one.remoteness), pos
    assert any(r.value is Value.TIE and r.remoteness is None for r in batch)
    assert all(r.probes >= 1 for r in batch if game.outcome(r.position) is None)


def test_ctrl_c_stops_the_rest_of_a_batch_with_what_is_proven(monkeypatch):
    """Ctrl-C while a position goes on after the kernel's pass: that position and every
    later one come back with what is proven, stopped by "interrupt"; the earlier ones stand."""
    game = connect4(width=5, height=4)
    positions = _positions(game, 6, 11, 6) + [game.initial()]
    monkeypatch.setattr(searchmany, "QUICK_NODES", 10)
    real = searchmany.run_search
    calls = {"n": 0}

    def interrupted(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(searchmany, "run_search", interrupted)
    clear_table()
    batch = search_many(game, positions)
    assert batch.stopped == "interrupt"
    assert [r.stopped for r in batch][3:] == ["interrupt"] * (len(positions) - 3)
    assert all(r.exact for r in batch[:3])


# -- the pass's calls, its rows read into results, the table cleared in place -------------
def test_a_pass_cut_into_one_call_a_position_gives_the_same_batch(monkeypatch):
    """With PASS_NODES 1 every kernel call of the pass ends after one position (the clock
    is looked at between them): the same answers and counts as one call for all."""
    game = connect4(width=5, height=4)
    positions = _positions(game, 25, 13, 12) + [game.initial()]
    clear_table()
    whole = search_many(game, positions)
    calls = []
    real = searchmany.CompiledBackend.pin_pass

    def counted(self, codes, *args):
        calls.append(codes.size)
        return real(self, codes, *args)

    monkeypatch.setattr(searchmany, "PASS_NODES", 1)
    monkeypatch.setattr(searchmany.CompiledBackend, "pin_pass", counted)
    clear_table()
    cut = search_many(game, positions)
    assert calls == list(range(len(positions), 0, -1))  # one position a call, in order
    assert [(r.value, r.remoteness, r.best_move, r.nodes, r.probes) for r in cut] == \
        [(r.value, r.remoteness, r.best_move, r.nodes, r.probes) for r in whole]
    assert (cut.nodes, cut.branching, cut.probes) == \
        (whole.nodes, whole.branching, whole.probes)


def test_a_batch_makes_each_result_when_read_and_keeps_it():
    """The results of positions proven in the pass are made from the kernel's rows when
    read, once: the same object each time (what a caller writes on it stays), indexes
    from the end and slices as a list's, an IndexError past the end, the totals the sums
    of the results."""
    game = connect4(width=4, height=4)
    positions = _positions(game, 12, 21, 10)
    clear_table()
    batch = search_many(game, positions)
    assert all(r is None for r in batch._results)  # none made yet: rows
    first = batch[0]
    first.where = "the first line"
    assert batch[0] is first and batch[-len(positions)] is first
    assert batch[0].where == "the first line"
    assert [r.position for r in batch[1:4]] == positions[1:4]
    assert batch[-1].position == positions[-1]
    with pytest.raises(IndexError):
        batch[len(positions)]
    assert batch.exact and "12 proven" in batch.describe()
    assert batch.nodes == sum(r.nodes for r in batch)
    assert batch.probes == sum(r.probes for r in batch)
    assert batch.branching == sum(r.branching for r in batch)
    assert [r["position"] for r in batch.to_json()["results"]] == positions


def test_a_broken_hook_in_a_batch_is_a_clear_error():
    """A compiled game whose ``moves`` answers more than max_moves from one position: the
    batch stops with the GameError ``search`` raises, not a wrong answer."""
    @njit
    def moves(n, out):
        k = 0
        for take in (1, 2, 3):
            if take <= n:
                out[k] = take
                k += 1
        return 9 if n == 4 else k

    @njit
    def play(n, take):
        return n - take

    @njit
    def ongoing(n):
        return 0

    game = CompiledGame(12, moves, play, ongoing, max_moves=3)
    with pytest.raises(GameError, match="count outside"):
        search(game, 6)
    with pytest.raises(GameError, match="count outside"):
        search_many(game, [3, 2, 6, 1])


def test_prepare_table_clears_the_kept_table_where_it_is():
    """``prepare_table`` for the game and size of the kept table clears that array (the
    same memory, every entry zero); another size makes a new one."""
    game = connect4(width=4, height=4)
    search(game, game.initial(), table_mb=1)
    kept = searchbackends._LAST_TABLE[2]
    assert kept.any()
    prepare_table(game, 1)
    assert searchbackends._LAST_TABLE[2] is kept and not kept.any()
    prepare_table(game, 2)
    assert searchbackends._LAST_TABLE[2] is not kept
    assert searchbackends._LAST_TABLE[2].size == 2 * kept.size
