"""Closing the Portal on king and hex boards by proof search, against the Grundy table.

Two parts, in this process:

1. Boards the Grundy table still answers (at most 26 empty cells in the portals' component):
   the table (``rules.exact_winner``: an exhaustive mex over every subset of walls) and the
   proof search (``search.search_winner``) on the same board, the winner from both, and the
   ratio of their times.
2. Boards past the table: open boards with the portals in opposite corners (up to 34 empty
   cells: hex 6x6, king 5x7 and king 6x6), and king 6x6 boards with 4 random walls (30 empty
   cells, seeds 1-3): the winner, the first player's winning moves, the positions searched
   and the seconds (winner and moves together, within ``--time`` seconds).

    python benchmarks/portal_search.py                # both parts, 60 s a board
    python benchmarks/portal_search.py --time 600 --only king6x6
"""

from __future__ import annotations

import argparse
import random
import time

from perfectplay.errors import LimitError
from perfectplay.portal import parse_board
from perfectplay.portal.rules import exact_winner
from perfectplay.portal.search import search_winner


def grid(rows: int, cols: int, walls: int = 0, seed: int = 0) -> str:
    """An open board with the portals in opposite corners and ``walls`` random walls."""
    g = [["."] * cols for _ in range(rows)]
    g[0][0] = g[rows - 1][cols - 1] = "O"
    rng = random.Random(seed)
    cells = [(r, c) for r in range(rows) for c in range(cols) if g[r][c] == "."]
    for r, c in rng.sample(cells, walls):
        g[r][c] = "#"
    return "\n".join("".join(row) for row in g)


TABLE_BOARDS = {  # name: (kind, text); at most 26 empty cells
    "king 4x5": ("king", grid(4, 5)),
    "hex 4x5": ("hex", grid(4, 5)),
    "king 4x6": ("king", grid(4, 6)),
    "hex 5x5": ("hex", grid(5, 5)),
    "king 5x5": ("king", grid(5, 5)),
    "king 6x5, 3 walls": ("king", grid(6, 5, 3, 7)),
}
SEARCH_BOARDS = {  # past the table
    "hex 5x6": ("hex", grid(5, 6)),
    "hex 6x5": ("hex", grid(6, 5)),
    "king 4x7": ("king", grid(4, 7)),
    "king 6x5": ("king", grid(6, 5)),
    "king 8x4": ("king", grid(8, 4)),
    "hex 6x6, 4 walls": ("hex", grid(6, 6, 4, 1)),
    "king 6x6, 4 walls, seed 1": ("king", grid(6, 6, 4, 1)),
    "king 6x6, 4 walls, seed 2": ("king", grid(6, 6, 4, 2)),
    "king 6x6, 4 walls, seed 3": ("king", grid(6, 6, 4, 3)),
    "hex 6x6": ("hex", grid(6, 6)),
    "king 5x7": ("king", grid(5, 7)),
    "king 6x6": ("king", grid(6, 6)),
}


def table_part(only: str) -> None:
    print("boards the Grundy table answers: table vs proof search, same process")
    search_winner(parse_board(grid(3, 3), "king"))  # compile the kernels first
    for name, (kind, text) in TABLE_BOARDS.items():
        if only not in name.replace(" ", ""):
            continue
        board = parse_board(text, kind)
        t = time.perf_counter()
        table = exact_winner(board)[0]
        t_table = time.perf_counter() - t
        t = time.perf_counter()
        out = search_winner(board, 3600)
        t_search = time.perf_counter() - t
        assert out.first_wins == table, name
        print(f"  {name} ({int(board.empty.sum())} empty): first player "
              f"{'wins' if table else 'loses'}; table {t_table:.2f} s, search "
              f"{t_search:.2f} s ({out.nodes:,} positions, moves included): "
              f"{t_table / t_search:.1f}x")


def search_part(only: str, seconds: float) -> None:
    print(f"boards past the table: proof search, winner and winning moves within {seconds:g} s")
    for name, (kind, text) in SEARCH_BOARDS.items():
        if only not in name.replace(" ", ""):
            continue
        board = parse_board(text, kind)
        t = time.perf_counter()
        try:
            out = search_winner(board, seconds)
        except LimitError as exc:
            print(f"  {name} ({int(board.empty.sum())} empty): {exc}")
            continue
        moves = (f"{len(out.winning_cells)} winning first moves" if out.first_wins
                 else "no winning first move")
        if out.unchecked_cells:
            moves += f" ({len(out.unchecked_cells)} not checked in time)"
        print(f"  {name} ({int(board.empty.sum())} empty, {out.core_cells} on portal "
              f"paths): first player {'wins' if out.first_wins else 'loses'}, {moves}; "
              f"{out.nodes:,} positions, {time.perf_counter() - t:.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=float, default=60.0, help="seconds a board (part 2)")
    ap.add_argument("--only", default="", help="boards whose name (spaces removed) has this")
    args = ap.parse_args()
    table_part(args.only)
    search_part(args.only, args.time)


if __name__ == "__main__":
    main()
