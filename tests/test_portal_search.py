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
