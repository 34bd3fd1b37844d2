"""The store's parts on their own: the packed-tier kernels against plain NumPy, Connect
Four's rank against a brute-force numbering, the read interface shared by every solved
thing, a store of a game made in Python (no target), and export and SQL."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from layered import LayeredGraph
from perfectplay import GameError, Value, solve
from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.cli import main
from perfectplay.engine import CompiledGame, Solved
from perfectplay.portal import PortalGame, PortalOracle, parse_board
from perfectplay.store import StoreError, analyze, export_parquet, open_store, solve_tiered, sql
from perfectplay.store.packed import (
    bit_slot,
    cells_in_order,
    count_blocks,
    palette_of,
    set_ranks,
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=40))
def test_bit_slots_are_set_bits_before(words):
    present = np.array(words, np.uint64)
    counts = count_blocks(present)
    bits = np.unpackbits(present.view(np.uint8), bitorder="little")
    before = np.concatenate([[0], np.cumsum(bits)])
    for r in range(bits.size):
        assert bit_slot(present, counts, r) == (before[r] if bits[r] else -1)
    assert bit_slot(present, counts, bits.size) == -1 and bit_slot(present, counts, -1) == -1
    assert set_ranks(present).tolist() == np.flatnonzero(bits).tolist()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 4), st.integers(-1, 300),
                          st.integers(-(2**62), 2**62)), min_size=1, max_size=300),
       st.booleans())
def test_palettes_hold_each_distinct_pair_once(rows, scored):
    vals = np.array([v for v, _, _ in rows], np.int8)
    rems = np.array([r for _, r, _ in rows], np.int16)
    margins = np.array([m for _, _, m in rows], np.int64)
    n, pal_m, pal_vr = palette_of(vals, rems, margins, scored, 0, len(rows), 512)
    pairs = {(int(m) if scored else 0, (int(v) << 20) | (int(r) + 1)) for v, r, m in rows}
    assert n == len(pairs) and set(zip(pal_m.tolist(), pal_vr.tolist(), strict=True)) == pairs
    cells = np.empty(len(rows), np.uint32)
    cells_in_order(vals, rems, margins, scored, 0, len(rows), pal_m, pal_vr, cells)
    for i, (v, r, m) in enumerate(rows):  # every position finds its own pair
        assert pal_vr[cells[i]] == (v << 20) | (r + 1)
        assert pal_m[cells[i]] == (m if scored else 0)
    assert palette_of(vals, rems, margins, scored, 0, len(rows), max(1, n - 1))[0] == \
        (-1 if n > 1 else 1)


# a tall board and a wide one (4x4 added a third compile and solve, ~11 s, and no new case)
@pytest.mark.parametrize("w,h", [(3, 5), (5, 3)])
def test_connect_four_rank_numbers_each_tier_densely_and_unrank_inverts_it(w, h):
    """Every reachable board: its rank is below the count of (heights, colourings) of its
    tier, no two boards of a tier share one, and unrank gives the board back."""
    from math import comb

    game = ConnectFour(w, h)
    r = game.rules
    seen: dict[tuple[int, int], int] = {}
    # the count of column heights summing to each tier, counted once (not once per board)
    per_tier: dict[int, int] = {}
    for hs in np.ndindex(*(h + 1,) * w):
        per_tier[sum(hs)] = per_tier.get(sum(hs), 0) + 1
    for pos in solve(game).positions():
        t, k = int(r.tier(pos)), int(game.ranking.rank(pos))
        heights = per_tier[t]
        assert 0 <= k < heights * comb(t, t // 2)
        assert seen.setdefault((t, k), pos) == pos
        assert int(game.ranking.unrank(t, k)) == pos


def test_rank_comes_with_unrank_and_a_tier():
    def moves(n, out):
        return 0

    with pytest.raises(GameError, match="rank and unrank come together"):
        CompiledGame(0, moves, lambda n, m: n, lambda n: 0, max_moves=1,
                     tier=lambda n: n, rank=lambda n: n)


def test_every_solved_thing_answers_the_one_read_interface(client, tmp_path):
    game = PortalGame(parse_board(".O#.\n...O\n.#.."))
    mem = solve(game)
    store = open_store(solve_tiered(game, tmp_path / "p", client=client).store, game)
    oracle = PortalOracle(game)
    for s in (mem, store, oracle):
        assert isinstance(s, Solved)
        start = game.initial()
        assert s.value() == mem.value() and start in s
        assert s is oracle or s.get(-99, "none") == "none"  # the oracle answers any walls
        assert s.best_move() in game.moves(start)  # the game's own move, never a string
        assert s.draw() == mem.draw()
    for pos in list(mem.positions())[:60]:
        assert store.to_json(pos) == {k: v for k, v in mem.to_json(pos).items()
                                      if k not in ("mode", "counts", "cyclic")}
    assert store.counts() == mem.counts() and len(store) == len(mem)


def test_a_store_of_a_game_made_here_is_read_with_the_game_handed_over(client, tmp_path):
    game = LayeredGraph(3)
    tb = solve_tiered(game, tmp_path / "nb", client=client)  # no FILE.py:Class target
    with pytest.raises(StoreError, match="open_store.path, game="):
        open_store(tb.store).value((0, 0))
    ref = solve(game)
    with open_store(tb.store, game=game) as st:
        assert all(st.value(p) == ref.value(p) and st.remoteness(p) == ref.remoteness(p)
                   for p in ref.positions())


def test_export_and_sql_agree_with_the_counts(client, tmp_path):
    game = ConnectFour(4, 3)
    store = solve_tiered(game, tmp_path / "c4", client=client,
                         game_ref="connect4(width=4, height=3)").store
    stats = analyze(store)
    rows = dict(sql(store, "SELECT value, count(*) FROM solved GROUP BY value"))
    assert rows == stats["by_value"] and sum(rows.values()) == stats["total"]
    folder = export_parquet(store)
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        f"tier={t}.parquet" for t in stats["by_tier"])
    assert dict(sql(store, "SELECT value, count(*) FROM solved GROUP BY value")) == rows
    code, value = sql(store, "SELECT position, value FROM solved WHERE tier = 5 LIMIT 1")[0]
    with open_store(store) as st:
        assert st.value(code).value == value
    r = CliRunner().invoke(main, ["sql", str(store), "SELECT count(*) FROM solved", "--json"])
    assert r.exit_code == 0 and json.loads(r.output) == [[stats["total"]]]
    r = CliRunner().invoke(main, ["sql", str(store), "SELECT nope FROM solved"])
    assert r.exit_code == 1 and "the query failed" in r.stderr and r.exception is None or \
        isinstance(r.exception, SystemExit)


def test_solving_again_says_it_was_already_solved(tmp_path):
    target = "connect4(width=3, height=3)"
    store = str(tmp_path / "c4")
    run = CliRunner().invoke
    first = run(main, ["solve", target, "--store", store, "--workers", "1"])
    assert first.exit_code == 0 and "already" not in first.output, first.output
    again = run(main, ["solve", target, "--store", store, "--workers", "1"])
    assert again.exit_code == 0 and again.output.startswith("already solved"), again.output
    with open_store(store) as st:
        assert st.value() is Value.TIE  # no four fits on a 3x3 board


def test_query_names_cells_and_draws_the_board(tmp_path):
    """A store of the Portal answers as the portal command does: cells by name, the board
    drawn with the walls placed, words at the end of the game (never Python's None)."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    store = str(tmp_path / "tb")
    run = CliRunner().invoke
    r = run(main, ["solve", f"{root / 'examples' / 'portal_tiers.py'}:Board5x4", "--store",
                   store, "--workers", "1"])
    assert r.exit_code == 0, r.output
    r = run(main, ["query", store, "--moves", "b1,c3"])
    assert r.exit_code == 0, r.output
    assert "\n   abcd\n 1 OX..\n 2 ....\n 3 .#X.\n" in r.output and "best move: " in r.output
    assert r.output.index("best move: ") < r.output.index(" 1 OX..")  # drawn below the words
    assert "O a portal, # a wall from the start, X a wall placed" in r.output  # the legend
    assert "  move d1: " in r.output and "move 2:" not in r.output
    r = run(main, ["query", store, "--moves", "a1"])
    assert r.exit_code == 1 and "legal: b1, c1" in r.stderr
    with open_store(store) as st:  # a cut: the game has ended
        end = next(p for p in range(1, 1 << st.game.k) if st.game.outcome(p) is not None)
    r = run(main, ["query", store, str(end)])
    assert r.exit_code == 0 and "best move: none (the game has ended)" in r.output


def test_a_margin_beyond_the_search_limit_is_refused_as_a_leaf():
    """The leaf keeps scores as int32: a margin the search cannot hold is refused with the
    number, not wrapped into a wrong score."""
    from types import SimpleNamespace

    from perfectplay.engine.proof.kernel import LIMIT
    from perfectplay.store.leaf import _palette_scores

    fits = SimpleNamespace(values=[LIMIT, -LIMIT, 3], rems=np.array([1, 2, 3]))
    assert _palette_scores(fits, True).tolist() == [LIMIT, -LIMIT, 3]
    beyond = SimpleNamespace(values=[2, LIMIT + 1], rems=np.array([1, 1]))
    with pytest.raises(StoreError, match="524,287"):
        _palette_scores(beyond, True)


TINY_PORTAL = '''
from perfectplay.portal import PortalGame, parse_board


class Tiny(PortalGame):
    def __init__(self):
        super().__init__(parse_board("O..\\n.#.\\n..O"))
'''


def test_a_store_prints_its_start_its_sql_headers_and_a_framed_board(tmp_path: Path) -> None:
    """solve --store ends with the start's value (as an in-memory solve does), sql prints
    the column names first, and query's board has its cell names and a legend."""
    pytest.importorskip("distributed")
    pytest.importorskip("duckdb")
    from click.testing import CliRunner

    from perfectplay.cli import main

    (tmp_path / "tiny.py").write_text(TINY_PORTAL)
    store = str(tmp_path / "tb")
    run = CliRunner().invoke
    r = run(main, ["solve", f"{tmp_path / 'tiny.py'}:Tiny", "--store", store,
                   "--workers", "1", "--no-check"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith("solved ") and lines[1] == "start: Tiny, the first player to move"
    assert lines[2].startswith("value: ") and lines[3].startswith("best move: ")
    r = run(main, ["solve", f"{tmp_path / 'tiny.py'}:Tiny", "--store", store, "--json"])
    assert r.exit_code == 0 and '"start": {' in r.output, r.output
    r = run(main, ["sql", store, "SELECT value, count(*) AS positions FROM solved "
                   "GROUP BY value ORDER BY value"])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == "value\tpositions"
    r = run(main, ["query", store, "--moves", "b1"])
    assert r.exit_code == 0, r.output
    assert "\n   abc\n 1 OX.\n 2 .#.\n 3 ..O\nO a portal, # a wall from the start" in r.output
