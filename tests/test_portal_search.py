"""Closing the Portal by proof search against the engine's exhaustive solve and the Grundy
table: winners and the first player's winning moves on random king and hex boards."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
        out = search_winner(board, small=rng.choice([0, 4, 12]))
        game = PortalGame(board)
        ref = solve(game)
        assert out.first_wins == (ref.value() is Value.WIN) == exact_winner(board)[0]
        assert out.winning_cells == sorted(
            game.cells[mv.move] for mv in ref.move_values() if mv.value is Value.WIN)
        checked += 1


def _bit_graph(board):
    """The portals' component as bitmask neighbours: cells 0..k-1, the portals k and k+1."""
    import numpy as np

    from perfectplay.grid import bfs

    s, t = board.portals
    reach = bfs(board.nb, board.open, s) >= 0
    comp = [int(c) for c in np.flatnonzero(reach & board.empty)]
    k = len(comp)
    bit = {c: i for i, c in enumerate(comp)} | {s: k, t: k + 1}
    nbr = np.zeros(k + 2, np.int64)
    for cell, b in bit.items():
        for w in board.nb[cell]:
            if w >= 0 and int(w) in bit:
                nbr[b] |= 1 << bit[int(w)]
    return nbr, k, bool(reach[t])


def joined_boards(rng: random.Random, kind: str, n: int, max_empty: int):
    """``n`` random boards of at most ``max_empty`` empty cells whose portals are joined,
    each with its bitmask graph: (board, neighbour masks, cells in the component)."""
    found = 0
    while found < n:
        board = random_board(rng, kind)
        if board is None or int(board.empty.sum()) > max_empty:
            continue
        nbr, k, joined = _bit_graph(board)
        if joined:
            found += 1
            yield board, nbr, k


@pytest.mark.parametrize("kind", ["king", "hex"])
def test_grundy_values_equal_the_grundy_table(kind):
    """The blocks-in-series Grundy value of the portals' component (route's blocks, each by
    grundy, xor the parity of the free cells) equals the Grundy table's value of the whole
    component (an independent exhaustive mex over every subset of walls)."""
    import numpy as np

    from perfectplay.portal.search import MEMO_BITS, grundy, route

    for board, nbr, k in joined_boards(random.Random(f"grundy-{kind}"), kind, 80, 12):
        inner, tops, lows = (np.empty(k + 2, np.int64) for _ in range(3))
        ws = np.zeros((7, 64), np.int64)
        n, seps = route(nbr, (1 << k) - 1, k, k + 1, inner, tops, lows, ws)
        memo = (np.full(1 << MEMO_BITS, -1, np.int64), np.zeros(1 << MEMO_BITS, np.int32),
                np.zeros(1 << MEMO_BITS, np.int64))
        g = 0
        used = bin(int(seps)).count("1")
        for j in range(n):
            used += bin(int(inner[j])).count("1")
            g ^= int(grundy(nbr, inner[j], tops[j], lows[j], memo, ws,
                            np.zeros(2, np.int64), 1e18))
        assert g ^ ((k - used) & 1) == exact_winner(board)[1]


def _on_some_path(board, cell):
    """Is ``cell`` on a simple portal-to-portal path? By brute force: a depth-first search
    over simple paths (small boards only)."""
    s, t = board.portals
    open_ = board.open

    def walk(v, seen):
        if v == t:
            return cell in seen
        return any(walk(int(w), seen | {int(w)}) for w in board.nb[v]
                   if w >= 0 and open_[w] and int(w) not in seen)

    return walk(s, {s})


@pytest.mark.parametrize("kind", ["king", "hex", "square"])
def test_route_finds_exactly_the_cells_on_simple_paths(kind):
    """route's blocks and separators hold exactly the cells on some simple portal-to-portal
    path (brute force over simple paths), and a separator is exactly a cell whose walling
    parts the portals."""
    import numpy as np

    from perfectplay.grid import bfs
    from perfectplay.portal.search import route

    for board, nbr, k in joined_boards(random.Random(f"route-{kind}"), kind, 60, 10):
        comp = [int(c) for c in np.flatnonzero((bfs(board.nb, board.open, board.portals[0])
                                                >= 0) & board.empty)]
        inner, tops, lows = (np.empty(k + 2, np.int64) for _ in range(3))
        n, seps = route(nbr, (1 << k) - 1, k, k + 1, inner, tops, lows,
                        np.zeros((7, 64), np.int64))
        core = int(seps)
        for j in range(n):
            core |= int(inner[j])
        for i, cell in enumerate(comp):
            assert bool(core >> i & 1) == _on_some_path(board, cell)
            after = board.with_walls([cell])
            parted = not (bfs(after.nb, after.open, board.portals[0]) >= 0)[board.portals[1]]
            assert bool(int(seps) >> i & 1) == parted


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), kind=st.sampled_from(["king", "hex"]),
       small=st.sampled_from([0, 3, 12]))
def test_search_equals_the_grundy_table_on_boards_to_18_cells(seed, kind, small):
    """Whatever the size below which blocks are valued rather than searched (0: the
    win/lose search alone), the winner equals the Grundy table's."""
    rng = random.Random(seed)
    rows, cols = rng.randint(3, 5), rng.randint(3, 5)
    g = [["#" if rng.random() < 0.15 else "." for _ in range(cols)] for _ in range(rows)]
    (a, b), (c, d) = rng.sample([(r, c) for r in range(rows) for c in range(cols)], 2)
    g[a][b] = g[c][d] = "O"
    try:
        board = parse_board("\n".join("".join(row) for row in g), kind=kind)
    except InputError:
        return
    if int(board.empty.sum()) > 18:
        return
    assert search_winner(board, small=small).first_wins == exact_winner(board)[0]


@pytest.mark.parametrize("kind", ["king", "hex"])
@pytest.mark.parametrize("rows,cols", [(3, 3), (3, 4), (4, 4), (4, 3)])
def test_winning_moves_on_symmetric_boards_equal_the_engine(kind, rows, cols):
    """Open boards with the portals in opposite corners have symmetries; the search values
    one cell of each orbit and copies it: the winning moves still equal the engine's."""
    from perfectplay.portal.search import symmetries

    g = [["."] * cols for _ in range(rows)]
    g[0][0] = g[rows - 1][cols - 1] = "O"
    board = parse_board("\n".join("".join(row) for row in g), kind=kind)
    assert symmetries(board)  # at least the half turn
    out = search_winner(board, small=0)
    game = PortalGame(board)
    ref = solve(game)
    assert out.first_wins == (ref.value() is Value.WIN)
    assert out.winning_cells == sorted(
        game.cells[mv.move] for mv in ref.move_values() if mv.value is Value.WIN)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), kind=st.sampled_from(["king", "hex", "square"]))
def test_simplicial_cells_are_free_moves(seed, kind):
    """peel's lemma against the Grundy table: the game with the simplicial cells walled,
    plus *1 for each, has the value of the game itself (an exhaustive mex on both
    boards); and peel removes only cells of the component."""
    import numpy as np

    from perfectplay.grid import bfs
    from perfectplay.portal.search import peel

    rng = random.Random(seed)
    for board, nbr, k in joined_boards(rng, kind, 1, 16):
        reach = bfs(board.nb, board.open, board.portals[0]) >= 0
        comp = [int(c) for c in np.flatnonzero(reach & board.empty)]
        cells = (1 << k) - 1
        kept = int(peel(nbr, cells, k, k + 1))
        assert kept & ~cells == 0
        gone = [comp[i] for i in range(k) if not kept >> i & 1]
        walled = board.with_walls(gone)
        assert exact_winner(walled)[1] ^ (len(gone) & 1) == exact_winner(board)[1]


def test_peel_removes_the_king_corners_and_what_they_leave_simplicial():
    """On the open king 3x3 with the portals in opposite corners, the two other corners
    are simplicial (three pairwise adjacent neighbours); peeling them leaves the edge
    cells with no simplicial cell among them."""
    board = parse_board("O..\n...\n..O", "king")
    nbr, k, _ = _bit_graph(board)
    from perfectplay.portal.search import peel

    kept = int(peel(nbr, (1 << k) - 1, k, k + 1))
    # cells 0..6 are the board's empty cells in reading order: 1, 2, 3, 4, 5, 6, 7
    assert [i for i in range(k) if not kept >> i & 1] == [1, 5]
