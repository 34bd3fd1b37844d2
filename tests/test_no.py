"""Nearest piece: Manhattan, BFS with walls and blocking pieces, all-at-once sweeps, against
plain per-piece BFS and the seed's method on thousands of random boards."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nojit import run_without_jit
from perfectplay import InputError
from perfectplay.no import (
    all_nearest,
    judge_kth_no,
    kernels,
    nearest,
    parse_drawn_board,
    seed_nearest,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
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


# -- every piece's nearest on an open board: the bucket grids against the quadratic answer --
def brute_nearest(p):
    """Quadratic: each piece's Manhattan distance to every other, lowest index on ties
    (argmin returns the first minimum)."""
    p = np.asarray(p, np.int64)
    d = np.abs(p[:, None, 0] - p[None, :, 0]) + np.abs(p[:, None, 1] - p[None, :, 1])
    np.fill_diagonal(d, np.iinfo(np.int64).max)
    return d.argmin(axis=1), d.min(axis=1)


def distinct_cells(rng, n, rows, cols, r0=0, c0=0):
    """n distinct cells of a rows x cols box at (r0, c0), as an (n, 2) int64 array."""
    cells = rng.choice(rows * cols, size=n, replace=False)
    return np.stack([r0 + cells // cols, c0 + cells % cols], 1).astype(np.int64)


def open_boards(rng, n):
    """One board of each shape that has tripped grids: dense (many ties), one row, one
    column, two pieces, a cluster beside far pieces (grids inside buckets), a diagonal, a
    spread over the whole coordinate range."""
    far = 2**31 - 1
    cluster = distinct_cells(rng, n, 40, 40, -20, 7)
    return {
        "dense": distinct_cells(rng, n, 12, 12 + n // 12),
        "row": distinct_cells(rng, n, 1, 3 * n, 5, -n),
        "column": distinct_cells(rng, n, 3 * n, 1),
        "two": distinct_cells(rng, 2, 3, 3),
        "cluster and far": np.vstack([cluster, [[far, far], [-far, 0], [0, -far]]]),
        "diagonal": np.stack([np.arange(n), np.arange(n) * 2], 1)[rng.permutation(n)],
        "huge": distinct_cells(rng, n, 2**20, 2**20) * 2**11 - 2**31 + 1,
    }


def assert_nearest(p):
    """all_nearest(p) is the quadratic answer, value by value."""
    idx, dist = all_nearest(p)
    want_idx, want_dist = brute_nearest(p)
    assert idx.tolist() == want_idx.tolist()
    assert dist.tolist() == want_dist.tolist()


def test_all_nearest_open_ties_go_to_the_lowest_index():
    """A cross: the centre has four neighbours at 1; whichever index is lowest wins."""
    cross = [(5, 5), (4, 5), (6, 5), (5, 4), (5, 6)]
    for first in range(1, 5):
        order = [0, *sorted(range(1, 5), key=lambda k: k != first)]
        pieces = [cross[k] for k in order]
        idx, dist = all_nearest(pieces)
        assert (idx[0], dist[0]) == (1, 1)  # the lowest index among the four tied
    idx, dist = all_nearest([(0, 0), (0, 4), (4, 0), (2, 2)])  # every pair but two at 4
    assert idx.tolist() == [1, 0, 0, 0] and dist.tolist() == [4, 4, 4, 4]


@pytest.mark.parametrize("seed", range(4))
def test_all_nearest_open_matches_brute_force_on_skewed_boards(seed):
    rng = np.random.default_rng(100 + seed)
    for n in (3, 17, 150, 700):
        for name, p in open_boards(rng, n).items():
            assert kernels.grid_nearest(p) is not None, name  # the buckets answered
            assert_nearest(p)


def test_crowded_buckets_get_grids_of_their_own():
    """A cluster beside far pieces and a diagonal: their buckets are split again (more than
    one grid), and the answers are still the quadratic ones."""
    rng = np.random.default_rng(7)
    for name in ("cluster and far", "diagonal"):
        p = open_boards(rng, 900)[name]
        grids = kernels._build_grids(p[:, 0].copy(), p[:, 1].copy())[0]
        assert len(grids) > 1, name
        assert_nearest(p)


def test_all_nearest_open_matches_brute_force_on_random_boards():
    """Many small random boards and clusters of every density, N x N as the benchmark."""
    rng = np.random.default_rng(11)
    for _ in range(400):
        n = int(rng.integers(2, 60))
        side = int(rng.integers(1, 3 * n))
        rows = max(1, side // int(rng.integers(1, 4)))
        cols = max(-(-n // rows), side)
        p = distinct_cells(rng, n, rows, cols, int(rng.integers(-99, 99)), 0)
        if rng.random() < 0.3:
            p = np.vstack([p, distinct_cells(rng, 5, 10, 10, 10**6, -(10**6))])
        assert_nearest(p)
    n = 3000
    assert_nearest(distinct_cells(rng, n, n, n))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=49,
                unique=True),
       st.lists(st.tuples(st.integers(-2**31 + 1, 2**31 - 1),
                          st.integers(-2**31 + 1, 2**31 - 1)), max_size=4, unique=True),
       st.integers(-1000, 1000))
def test_all_nearest_open_clusters_and_far_pieces(near, far, shift):
    """A dense cluster (crowded buckets, ties) beside pieces anywhere in the coordinate
    range: still the quadratic answer."""
    cells = {(r + shift, c - shift) for r, c in near} | set(far)
    if len(cells) < 2:
        return
    assert_nearest(np.array(sorted(cells, key=lambda t: hash(t))))


def test_the_sweep_answers_when_the_grids_give_up(monkeypatch):
    """With no work allowed the grids give up and the O(n log n) sweep answers the same."""
    rng = np.random.default_rng(9)
    monkeypatch.setattr(kernels, "WORK_PER_PIECE", 0)
    for name, p in open_boards(rng, 200).items():
        assert kernels.grid_nearest(p) is None, name
        assert_nearest(p)


def test_pieces_sharing_a_cell_are_named_on_an_open_board():
    """Two on one cell in a sparse bucket (found as distance 0), and 30 on one cell (a
    crowded bucket that cannot be split: the grids stop and the sweep finds them)."""
    with pytest.raises(InputError, match="P2 and P4 share the cell \\(3, 3\\)"):
        all_nearest([(0, 0), (3, 3), (9, 9), (3, 3)])
    p = [(5, 5)] * 30 + [(0, 0), (100, 100)]
    assert kernels.grid_nearest(np.array(p)) is None
    with pytest.raises(InputError, match="P1 and P2 share the cell \\(5, 5\\)"):
        all_nearest(p)


def test_the_open_board_kernels_run_as_plain_python():
    """NUMBA_DISABLE_JIT=1: the grids (split buckets included) and the sweep, interpreted."""
    code = ("import numpy as np\n"
            "from perfectplay.no import all_nearest, kernels\n"
            "rng = np.random.default_rng(3)\n"
            "c = rng.choice(400, 120, replace=False)\n"
            "p = np.vstack([np.stack([c // 20, c % 20], 1), [[10**6, 10**6], [-5, 10**6]]])\n"
            "idx, dist = all_nearest(p)\n"
            "kernels.WORK_PER_PIECE = 0\n"
            "again = all_nearest(p)\n"
            "assert (again[0] == idx).all() and (again[1] == dist).all()\n"
            "print(len(kernels._build_grids(p[:, 0].copy(), p[:, 1].copy())[0]), "
            "idx.tolist(), dist.tolist())\n")
    printed = run_without_jit(code)
    grids, idx, dist = printed.split(" ", 1)[0], *printed.split(" ", 1)[1].split("] [")
    rng = np.random.default_rng(3)
    c = rng.choice(400, 120, replace=False)
    p = np.vstack([np.stack([c // 20, c % 20], 1), [[10**6, 10**6], [-5, 10**6]]])
    want_idx, want_dist = brute_nearest(p)
    assert int(grids) > 1
    assert idx + "]" == str(want_idx.tolist()) and "[" + dist.strip() == str(want_dist.tolist())


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


def test_the_options_by_name_are_the_options():
    """``analyze(board, every=True)`` is ``analyze(board, NoOptions(every=True))``; a name
    that is no option (``each``, or ``all``, the old name of ``every``) is an InputError."""
    from perfectplay import no

    board = no.parse("5\n1 1\n3 0\n2 3\n0 2\n4 4\n2\n")
    new = no.analyze(board, no.NoOptions(every=True))
    assert no.analyze(board, every=True).to_json() == new.to_json()
    assert new.everyone is not None and new.answer.pieces == [0, 3, 4]
    assert no.analyze(board, every=True, block=True).block
    for name in ("each", "all"):
        with pytest.raises(InputError, match=f"unknown option '{name}'"):
            no.analyze(board, **{name: True})


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


def test_every_piece_json_names_no_nearest_when_none_is_reachable():
    """A piece walled off from all others has no nearest: None in --json, not a crash."""
    from perfectplay import no

    res = no.analyze(no.parse("A#*"), no.NoOptions(every=True))
    assert [p["nearest_name"] for p in res.to_json()["all"]] == [None, None]


def test_no_draws_each_numbered_piece_by_its_own_letter() -> None:
    from perfectplay import no

    result = no.analyze(no.parse((EXAMPLES / "no_seed.txt").read_text()))
    board = result.draw()
    assert "P" not in board.splitlines()[1]  # the pieces are told apart, not all P
    assert board.splitlines()[1:6] == ["1 54D23", "2 4A212", "3 321*1", "4 B3212", "5 5432E"]
    assert "A-E the pieces P1-P5 (A is P1, B is P2, ...)" in board


def test_a_tie_between_pieces_says_the_rule_that_breaks_it() -> None:
    from perfectplay import no

    numbered = no.analyze(no.parse((EXAMPLES / "no_seed.txt").read_text())).explain()
    assert "(3-way tie, broken by the lowest number: P1)" in numbered
    drawn = no.analyze(no.parse("A.*.B")).explain()
    assert "broken by reading order (top to bottom, left to right): A" in drawn
