"""The seeds' own methods (``method="seed"``, ``trace``): each equals an independent exact
method on many random instances, its trace replays to its answer, and the options, the
limits, the CLI and the web API behave."""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest
from click.testing import CliRunner

from perfectplay import InputError, LimitError, coins, no, portal, rock, solve
from perfectplay.cli import main
from perfectplay.coins.seed import seed_tables
from perfectplay.grid import Grid, bfs, neighbour_table
from perfectplay.no.seed import seed_search
from perfectplay.portal.rules import PortalGame
from perfectplay.portal.seed import seed_search as portal_seed
from perfectplay.rock.seed import seed_values_counted
from perfectplay.seedrun import Tracer


def grid_of(lines):
    return Grid(np.array([[ord(c) for c in row] for row in lines], dtype=np.uint32))


# -- coins ------------------------------------------------------------------------------------
def brute_first(row):
    """The first player's best total by plain recursion over (i, j)."""
    memo = {}

    def best(i, j):  # best total of the mover on row[i:j]
        if i >= j:
            return 0
        if (i, j) not in memo:
            rest = sum(row[i:j])
            memo[i, j] = max(rest - best(i + 1, j), rest - best(i, j - 1))
        return memo[i, j]

    return best(0, len(row))


def test_the_coins_table_equals_a_plain_recursion_on_random_rows():
    rng = random.Random(30)
    for _ in range(300):
        row = [rng.randint(-20, 40) for _ in range(rng.randint(1, 14))]
        P, _ = seed_tables(row)
        assert P[1][len(row)] == brute_first(row), row
        assert coins.analyze(row, method="seed").seed.work == len(row) * (len(row) + 1) // 2


def test_the_coins_trace_is_every_cell_in_fill_order_and_replays_to_the_table():
    row = [7, 9, 2, 6, 4, 3]
    res = coins.analyze(row, trace=True)
    steps = res.seed.steps
    order = [tuple(s.cells[0]) for s in steps]
    assert order == [(i, i + k) for k in range(6) for i in range(6 - k)]
    P, m = seed_tables(row)
    for s in steps:
        i, j = s.cells[0]
        assert s.values[0] == f"{P[i + 1][j + 1]} {m[i + 1][j + 1]}"
    assert steps[-1].title == "P(1,6)" and steps[-1].values[0] == "18 j"
    data = res.to_json()["seed"]
    assert data["shape"] == [6, 6] and len(data["steps"]) == 21 and data["more_steps"] == 0


def test_a_long_trace_keeps_its_first_steps_and_counts_the_rest():
    res = coins.analyze(list(range(60)), trace=True)
    assert len(res.seed.steps) == 400 and res.seed.dropped == 60 * 61 // 2 - 400
    assert "and 1,430 more steps" in res.explain()


# -- the Rock ---------------------------------------------------------------------------------
def random_maze(rng, rows, cols, walls):
    cells = [["#" if rng.random() < walls else "." for _ in range(cols)] for _ in range(rows)]
    e, x = rng.sample(range(rows * cols), 2)
    cells[e // cols][e % cols], cells[x // cols][x % cols] = "E", "X"
    return rock.maze_from_grid(grid_of(["".join(r) for r in cells]))


def test_the_rocks_trace_replays_its_sweeps_to_the_fast_values_on_random_mazes():
    rng = random.Random(31)
    for _ in range(150):
        maze = random_maze(rng, rng.randint(1, 7), rng.randint(2, 7), rng.choice([0, .2, .35]))
        res = rock.analyze(maze, rock.RockOptions(trace=True))
        steps = res.seed.steps
        assert steps[0].title == "precompute g"
        assert steps[-1].text.startswith("nothing changed")
        replay = {}
        for s in steps[1:]:
            for (r, c), v in zip(s.cells, s.values, strict=True):
                replay[r * maze.cols + c] = v
        for u in np.flatnonzero(maze.open):
            want = "inf" if res.f[u] < 0 else str(int(res.f[u]))
            got = "0" if u == maze.exit else replay.get(int(u), "inf")
            assert got == want, (maze.grid.text(), int(u))


def test_the_rocks_seed_counts_its_work():
    maze = rock.parse("..X.\n.##.\n.E..")
    f, work = seed_values_counted(maze)
    # 9 BFSs of the 10 walkable cells (the block leaves 8 or 9 reachable) plus the sweeps
    assert f[maze.entrance] == 11 and work == 135
    assert rock.analyze(maze, rock.RockOptions(method="seed")).seed.work == 135


# -- No ---------------------------------------------------------------------------------------
def random_no_board(rng, rows, cols):
    cells = [["#" if rng.random() < 0.25 else "." for _ in range(cols)] for _ in range(rows)]
    free = [(r, c) for r in range(rows) for c in range(cols)]
    picks = rng.sample(free, min(len(free), rng.randint(2, 5)))
    cells[picks[0][0]][picks[0][1]] = "*"
    for k, (r, c) in enumerate(picks[1:]):
        cells[r][c] = "ABCD"[k]
    return no.parse("\n".join("".join(r) for r in cells))


@pytest.mark.parametrize("block", [False, True])
def test_nos_seed_search_equals_the_fast_answer_and_its_frontiers_are_bfs_layers(block):
    rng = random.Random(32 + block)
    for _ in range(200):
        board = random_no_board(rng, rng.randint(1, 7), rng.randint(2, 7))
        rows, cols = board.shape
        tracer = Tracer(True)
        got, work = seed_search(board.pieces.tolist(), board.start, rows, cols, board.walls,
                                block, tracer)
        want = no.nearest(board.pieces, board.start, walls=board.walls, pieces_block=block)
        assert (got.distance, got.pieces) == (want.distance, want.pieces)
        if block:
            continue
        # without blocking, frontier k is exactly the cells at BFS distance k
        open_ = ~board.walls.ravel()
        nb = neighbour_table(rows, cols)
        start = int(board.pieces[board.start, 0] * cols + board.pieces[board.start, 1])
        dist = bfs(nb, open_, start)
        for s in tracer.steps:
            k = s.values[0]
            assert all(dist[r * cols + c] == k for r, c in s.cells)
        assert sum(len(s.cells) for s in tracer.steps) == int((dist > 0).sum())
        assert work == int((dist > 0).sum()) * len(board.pieces)


def test_nos_seed_on_the_kth_format_names_the_tie():
    board = no.parse("5\n1 1\n3 0\n2 3\n0 2\n4 4\n2\n")
    res = no.analyze(board, trace=True)
    assert res.seed.shape == (5, 5)
    assert "nearest so far: P1, P4, P5 (3)" in res.seed.steps[2].text.replace(
        "P5, P1, P4", "P1, P4, P5")
    assert res.to_json()["seed"]["steps"][0]["cells"] == [[3, 3], [2, 2], [2, 4], [1, 3]]


# -- the Portal -------------------------------------------------------------------------------
def random_portal(rng, kind):
    rows, cols = rng.randint(2, 4), rng.randint(2, 4)
    cells = [["#" if rng.random() < 0.2 else "." for _ in range(cols)] for _ in range(rows)]
    a, b = rng.sample(range(rows * cols), 2)
    cells[a // cols][a % cols] = cells[b // cols][b % cols] = "O"
    try:
        return portal.board_from_grid(grid_of(["".join(r) for r in cells]), kind)
    except InputError:
        return None  # adjacent portals: not a judge board


@pytest.mark.parametrize("kind", ["square", "king", "hex"])
def test_the_portals_bitmask_search_equals_the_engine_on_every_board_it_searched(kind):
    rng = random.Random(hash(kind) % 1000)
    done = 0
    while done < 40:
        board = random_portal(rng, kind)
        if board is None:
            continue
        done += 1
        first, memo, fills = portal_seed(board)
        solution = solve(PortalGame(board))
        assert first == (solution.value(0).name == "WIN")
        for walls, won in memo.items():
            assert won == (solution.value(walls).name == "WIN"), (kind, walls)
        res = portal.analyze(board, portal.PortalOptions(kind, "seed"))
        assert res.winner == (portal.ALIF if first else portal.BELLA)
        assert res.seed.work == fills


def test_the_portals_trace_counts_every_board_and_judges_every_first_move():
    board = portal.parse(".O#..\n....O\n.#.#.\n.....\n#....")
    res = portal.analyze(board, portal.PortalOptions(trace=True))
    _, memo, _ = portal_seed(board)
    levels = [s for s in res.seed.steps if s.title.startswith("level")]
    moves = [s for s in res.seed.steps if s.title.startswith("move")]
    assert sum(int(s.text.split()[0]) for s in levels) == len(memo) == 4771
    assert len(moves) == 19 and {s.values[0] for s in moves} == {"L"}  # Bella wins
    assert str(res.winner) == "Bella" and "4,771 boards" in res.explain()


# -- options and limits -----------------------------------------------------------------------
def test_every_seed_method_checks_its_limit_before_any_work():
    with pytest.raises(LimitError, match="2000 coins"):
        coins.analyze([1] * 2001, method="seed")
    with pytest.raises(LimitError, match="1,600 walkable cells"):
        rock.analyze(rock.parse("E" + "." * 1999 + "X"), rock.RockOptions(method="seed"))
    with pytest.raises(LimitError, match="at most 20, got 23"):
        portal.analyze(portal.parse("O....\n.....\n.....\n.....\n....O"),
                       portal.PortalOptions(method="seed"))
    with pytest.raises(LimitError, match="cells x pieces"):
        no.analyze(no.parse("250\n" + "".join(f"{i} {i}\n" for i in range(250)) + "0\n"),
                   method="seed")


def test_trace_with_another_method_forced_is_an_input_error():
    with pytest.raises(InputError, match="use method seed"):
        portal.analyze(portal.parse("O..\n.#.\n..O"), portal.PortalOptions(method="parity",
                                                                           trace=True))
    res = portal.analyze(portal.parse("O..\n.#.\n..O"), portal.PortalOptions(method="seed"))
    assert res.seed is not None and res.seed.steps is None and "seed" in res.to_json()
    assert coins.analyze([1, 2]).seed is None and "seed" not in coins.analyze([1]).to_json()


def test_the_cost_line_compares_both_methods():
    res = rock.analyze(rock.parse("..X.\n.##.\n.E.."), rock.RockOptions(method="seed"))
    line = res.seed.cost_line()
    assert line.startswith("the seed's method: ") and "135 BFS visits" in line
    assert "the fast method: " in line and math.isfinite(res.seed.fast_seconds)


# -- the command line and the web API ---------------------------------------------------------
def test_the_cli_traces_and_refuses_cleanly():
    out = CliRunner().invoke(main, ["coins", "7", "9", "2", "6", "4", "3", "--trace"])
    assert out.exit_code == 0 and "P(1,6): take coin 1 (7) -> 16" in out.output
    out = CliRunner().invoke(main, ["rock", "-", "--method", "seed", "--json"],
                             input="..X.\n.##.\n.E..")
    assert out.exit_code == 0 and json.loads(out.output)["seed"]["work"] == 135
    out = CliRunner().invoke(main, ["portal", "-", "--method", "seed"],
                             input="O....\n.....\n.....\n.....\n....O")
    assert out.exit_code == 1 and "at most 20" in out.output and "Traceback" not in out.output


def test_the_web_api_returns_the_steps_for_the_pages_stepper():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from perfectplay.web.app import create_app

    with TestClient(create_app(heavy_slots=1, heavy_seconds=60)) as client:
        d = client.post("/api/games/portal/analyze", json={"text": "O..\n...\n..O", "kind": "king",
                                                     "method": "seed", "trace": True}).json()
        seed = d["result"]["seed"]
        assert seed["shape"] == [3, 3] and seed["steps"][0]["title"] == "level 0"
        bad = client.post("/api/games/coins/analyze", json={"row": [1] * 2001, "method": "seed"})
        assert bad.status_code == 422 and "2000 coins" in bad.json()["detail"]
