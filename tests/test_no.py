"""Nearest piece: Manhattan, BFS with walls and blocking pieces, all-at-once sweeps, against
plain per-piece BFS and the seed's method on thousands of random boards."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import InputError
from perfectplay.no import (
    all_nearest,
    judge_kth_no,
    nearest,
    parse_drawn_board,
    seed_nearest,
)

SEED_PIECES = [(1, 1), (3, 0), (2, 3), (0, 2), (4, 4)]


def plain_bfs(pieces, start, walls, block):
    """Distances by a textbook BFS over (row, col) tuples; no shared code with the library."""
    rows, cols = walls.shape
    others = {tuple(p): i for i, p in enumerate(pieces) if i != start}
    src = tuple(pieces[start])
    dist = {src: 0}
    q = deque([src])
    found = {}
    while q:
        r, c = q.popleft()
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < rows and 0 <= nc < cols and not walls[nr, nc] and (nr, nc) not in dist:
                dist[(nr, nc)] = dist[(r, c)] + 1
                if (nr, nc) in others:
                    found[others[(nr, nc)]] = dist[(nr, nc)]
                    if block:
                        continue  # a blocking piece is reached, not passed
                q.append((nr, nc))
    return found


def random_board(rng, rows, cols, n, wall_rate):
    walls = rng.random((rows, cols)) < wall_rate
    free = np.flatnonzero(~walls.ravel())
    if free.size < n:
        return None
    cells = rng.choice(free, size=n, replace=False)
    return np.stack([cells // cols, cells % cols], 1), walls


def test_seed_example_is_a_three_way_tie():
    ans = nearest(SEED_PIECES, 2)
    assert (ans.distance, ans.pieces, ans.index) == (3, [0, 3, 4], 0)
    assert seed_nearest(SEED_PIECES, 2, 5) == ans
    res = judge_kth_no("5\n1 1\n3 0\n2 3\n0 2\n4 4\n2\n")
    assert res.output() == "0 3\n"
    assert "0, 3, 4" in res.notes[0]


def test_open_board_matches_the_seed_on_random_boards():
    rng = np.random.default_rng(1)
    for _ in range(1500):
        n = int(rng.integers(2, 9))
        cells = rng.choice(n * n, size=n, replace=False)
        pieces = [(int(c // n), int(c % n)) for c in cells]
        start = int(rng.integers(n))
        assert nearest(pieces, start) == seed_nearest(pieces, start, n)


@pytest.mark.parametrize("block", [False, True])
def test_walls_and_blocking_pieces_match_plain_bfs(block):
    rng = np.random.default_rng(2 + block)
    for _ in range(1500):
        rows, cols = int(rng.integers(1, 9)), int(rng.integers(1, 9))
        rate = float(rng.choice([0, .2, .4]))
        board = random_board(rng, rows, cols, int(rng.integers(2, 7)), rate)
        if board is None:
            continue
        pieces, walls = board
        start = int(rng.integers(len(pieces)))
        ans = nearest(pieces, start, walls=walls, pieces_block=block)
        found = plain_bfs(pieces.tolist(), start, walls, block)
        if not found:
            assert ans.distance is None and ans.pieces == []
        else:
            best = min(found.values())
            assert ans.distance == best
            assert ans.pieces == sorted(i for i, d in found.items() if d == best)
        assert set(ans.unreachable) == set(range(len(pieces))) - set(found) - {start}


def test_all_nearest_with_walls_matches_per_piece_bfs():
    rng = np.random.default_rng(4)
    for _ in range(1500):
        rows, cols = int(rng.integers(1, 10)), int(rng.integers(1, 10))
        rate = float(rng.choice([0, .2, .4]))
        board = random_board(rng, rows, cols, int(rng.integers(2, 9)), rate)
        if board is None:
            continue
        pieces, walls = board
        idx, dist = all_nearest(pieces, walls=walls)
        for a in range(len(pieces)):
            found = plain_bfs(pieces.tolist(), a, walls, False)
            if not found:
                assert (idx[a], dist[a]) == (-1, -1)
            else:
                best = min(found.values())
                assert (idx[a], dist[a]) == (min(i for i, d in found.items() if d == best), best)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(-50, 50), st.integers(-50, 50)), min_size=2, max_size=40,
                unique=True))
def test_all_nearest_open_board_matches_brute_force(points):
    p = np.array(points)
    idx, dist = all_nearest(p)
    for a in range(len(p)):
        d = np.abs(p[:, 0] - p[a, 0]) + np.abs(p[:, 1] - p[a, 1])
        d[a] = 10**9
        assert (idx[a], dist[a]) == (int(np.argmin(d)), int(d.min()))


def test_bad_input_says_where():
    res = judge_kth_no("3\n0 0\n0 x\n1 1\n0\n")
    assert str(res.errors[0]) == "line 3, column 3: expected the column of P2, got 'x'"
    res = judge_kth_no("2\n0 0\n0 0\n1\n")
    assert "like P1" in str(res.errors[0])
    res = judge_kth_no("2\n0 0\n1 5\n1\n")
    assert "at most 1" in str(res.errors[0])
    with pytest.raises(InputError, match="start index 7 .* P1"):
        nearest(SEED_PIECES, 7)
    with pytest.raises(InputError, match="share the cell"):
        all_nearest([(0, 0), (0, 0)])
    with pytest.raises(InputError, match="exactly one|'\\*'"):
        parse_drawn_board("A..\n..B")


def test_the_game_is_called_no_and_the_old_names_still_work():
    """perfectplay.nearest and analyze(all=...) stay for one release (CHANGELOG.md)."""
    from perfectplay import nearest as old
    from perfectplay import no

    board = no.parse("5\n1 1\n3 0\n2 3\n0 2\n4 4\n2\n")
    new = no.analyze(board, no.NoOptions(every=True))
    with pytest.warns(DeprecationWarning, match="every"):
        legacy = old.analyze(board, all=True)
    assert legacy.to_json() == new.to_json()
    assert new.everyone is not None and new.answer.pieces == [0, 3, 4]
    assert no.analyze(board, every=True, block=True).block
    with pytest.raises(InputError, match="unknown option 'each'"):
        no.analyze(board, each=True)


def test_people_read_p1_and_the_json_names_both_numberings():
    """1-based labels for people everywhere, 0-based indices only where the kth-no format
    counts from 0, both named in the JSON."""
    from perfectplay.no import analyze, parse

    res = analyze(parse("3\n0 0\n0 2\n2 2\n1\n"))
    data = res.to_json()
    assert data["start"] == 1 and data["start_name"] == "P2"
    assert [data["names"][i] for i in data["nearest"]] == data["nearest_names"]
    assert "count from 0" in data["numbering"]
    assert "P2" in res.explain() and "piece 1" not in res.explain()
    with pytest.raises(InputError, match="the row of P3 must be"):
        parse("3\n0 0\n0 2\n9 2\n1\n")
