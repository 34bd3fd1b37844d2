"""Closing the Portal by proof search against the engine's exhaustive solve and the Grundy
table: winners and the first player's winning moves on random king and hex boards."""

from __future__ import annotations

import random

import pytest

from perfectplay import Value, solve
from perfectplay.errors import InputError
from perfectplay.portal import PortalGame, parse_board
from perfectplay.portal.rules import exact_winner
from perfectplay.portal.search import search_winner


def random_board(rng: random.Random, kind: str):
    rows, cols = rng.randint(2, 4), rng.randint(2, 4)
    g = [["#" if rng.random() < 0.2 else "." for _ in range(cols)] for _ in range(rows)]
    (a, b), (c, d) = rng.sample([(r, c) for r in range(rows) for c in range(cols)], 2)
    g[a][b] = g[c][d] = "O"
    try:
        return parse_board("\n".join("".join(row) for row in g), kind=kind)
    except InputError:  # adjacent portals
        return None


@pytest.mark.parametrize("kind", ["king", "hex"])
def test_search_equals_the_engine_and_the_grundy_table(kind):
    rng = random.Random(kind)
    checked = 0
    while checked < 60:
        board = random_board(rng, kind)
        if board is None or int(board.empty.sum()) > 12:
            continue
        out = search_winner(board)
        game = PortalGame(board)
        ref = solve(game)
        assert out.first_wins == (ref.value() is Value.WIN) == exact_winner(board)[0]
        assert out.winning_cells == sorted(
            game.cells[mv.move] for mv in ref.move_values() if mv.value is Value.WIN)
        checked += 1


@pytest.mark.parametrize("kind", ["king", "hex"])
def test_grundy_values_equal_the_grundy_table(kind):
    """The blocks-in-series Grundy value of the core, with the parity of the cells peeled
    off it, equals the Grundy table's value of the whole component (an independent
    exhaustive mex over every subset of walls)."""
    import numpy as np

    from perfectplay.grid import bfs
    from perfectplay.portal.search import MEMO_BITS, core_of, grundy

    rng = random.Random(f"grundy-{kind}")
    checked = 0
    while checked < 80:
        board = random_board(rng, kind)
        if board is None or int(board.empty.sum()) > 12:
            continue
        s, t = board.portals
        reach = bfs(board.nb, board.open, s) >= 0
        if not reach[t]:
            continue
        comp = [int(c) for c in np.flatnonzero(reach & board.empty)]
        k = len(comp)
        bit = {c: i for i, c in enumerate(comp)} | {s: k, t: k + 1}
        nbr = np.zeros(k + 2, np.int64)
        for cell, b in bit.items():
            for w in board.nb[cell]:
                if w >= 0 and int(w) in bit:
                    nbr[b] |= 1 << bit[int(w)]
        core = int(core_of(nbr, (1 << k) - 1, k, k + 1))
        memo = (np.full(1 << MEMO_BITS, -1, np.int64), np.zeros(1 << MEMO_BITS, np.int64),
                np.zeros(1 << MEMO_BITS, np.int16))
        g = int(grundy(nbr, core, k, k + 1, *memo, np.zeros(2, np.int64), 1e18))
        assert g ^ ((k - bin(core).count("1")) & 1) == exact_winner(board)[1]
        checked += 1
