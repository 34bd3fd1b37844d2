"""Auditing a store on disk (perfectplay.store.verify): a store as written verifies in full,
for a compiled game (by rank, with symmetry), a scored Python game and a cyclic one with
draws; a changed byte in a tier is found, by position."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from layered import LayeredGraph
from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.coins import CoinsGame
from perfectplay.store import open_store, solve_tiered
from perfectplay.store.layout import read_manifest, tier_path
from perfectplay.store.packed import count_blocks, set_ranks, slot_ranks
from perfectplay.store.verify import verify_store


def test_stores_as_written_verify_in_full(client, tmp_path):
    games = {"c4": ConnectFour(4, 3), "coins": CoinsGame([7, 9, 2, 6, 4, 3, -5, 8]),
             "layered": LayeredGraph(5, tiers=5, width=6)}
    for name, game in games.items():
        tb = solve_tiered(game, tmp_path / name, client=client)
        with open_store(tb.store, game) as store:
            report = verify_store(store, sample=None)
            assert report.ok, report.explain()
            assert report.checked == report.total == len(store) == tb.positions
            assert not report.notes  # the checksums were written and matched
            half = store.verify(sample=len(store) // 2, seed=1)
            assert half.ok and half.checked == len(store) // 2


def test_a_changed_cell_is_found_at_its_position(client, tmp_path):
    game = ConnectFour(4, 3)
    root = solve_tiered(game, tmp_path / "c4", client=client).store
    manifest = read_manifest(root)
    # a tier with at least two palette entries: point one position at another entry
    entry = next(e for e in manifest["tiers"] if len(e["palette"]) >= 2 and e["size"] > 10)
    path = tier_path(root, int(entry["tier"]), "cells")
    cells = np.fromfile(path, np.uint8)
    slot = int(np.flatnonzero(cells != cells[0])[0]) if (cells != cells[0]).any() else 0
    cells[slot] = (cells[slot] + 1) % len(entry["palette"])
    cells.tofile(path)
    with open_store(root, game) as store:
        report = verify_store(store, sample=None)
        assert not report.ok and report.wrong >= 1, report.explain()
        assert report.problems == [f"tiers/{path.name} has changed since the store was "
                                   "written (its checksum differs)"]
        changed = int(entry["tier"])
        # the changed position itself, or its parents, no longer agree
        tiers = {int(game.rules.tier(game.canonical(int(m.position))))
                 for m in report.mismatches if m.position.isdigit()}
        assert tiers & {changed, changed - 1}, report.explain()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 2**64 - 1), st.sampled_from([0, 1, 2**63, 2**64 - 1])),
                min_size=1, max_size=40), st.data())
def test_the_rank_of_a_sampled_slot_is_the_bitmaps_own(words, data):
    """slot_ranks (a sample's ranks through the rank directory) against unpacking the whole
    bitmap (set_ranks), on random bitmaps of up to 5 directory blocks."""
    present = np.array(words, np.uint64)
    every = set_ranks(present)
    if every.size == 0:
        return
    slots = np.array(data.draw(st.lists(st.integers(0, every.size - 1), max_size=30)),
                     np.int64)
    assert slot_ranks(present, count_blocks(present), slots).tolist() == \
        every[slots].tolist()
