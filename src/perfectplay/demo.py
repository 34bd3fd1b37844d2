"""``perfectplay demo``: one bundled instance of every game, solved and explained."""

from __future__ import annotations

from collections.abc import Callable

import click

SECTIONS: list[tuple[str, Callable[[], str]]] = []


def section(title: str) -> Callable[[Callable[[], str]], Callable[[], str]]:
    def register(fn: Callable[[], str]) -> Callable[[], str]:
        SECTIONS.append((title, fn))
        return fn

    return register


@section("Tic-tac-toe, solved by the generic engine")
def _tictactoe() -> str:
    from .engine import Value, describe, solve

    class TicTacToe:
        lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
                 (0, 4, 8), (2, 4, 6)]

        def initial(self) -> str:
            return "." * 9

        def moves(self, b: str) -> list[int]:
            return [] if self.outcome(b) else [i for i, c in enumerate(b) if c == "."]

        def play(self, b: str, i: int) -> str:
            mark = "X" if b.count("X") == b.count("O") else "O"
            return b[:i] + mark + b[i + 1:]

        def outcome(self, b: str) -> Value | None:
            if any(b[x] != "." and b[x] == b[y] == b[z] for x, y, z in self.lines):
                return Value.LOSE
            return Value.TIE if "." not in b else None

    s = solve(TicTacToe())
    c = s.counts()
    return (f"{c.total:,} reachable positions; the start is a {describe(s.value(), s.remoteness())}"
            f" ({', '.join(f'{k.value} {n:,}' for k, n in c.by_value.items())}). "
            "Every position's value and remoteness is known, so perfect play never loses.")


@section("Coins in a line: 7 9 2 6 4 3 (the seed's example)")
def _coins() -> str:
    from . import coins

    row = [7, 9, 2, 6, 4, 3]
    rep = coins.compare_strategies(row)
    return (coins.explain(row) + f"\nGreedy guarantees {rep.greedy}, odd/even {rep.parity}, "
            f"perfect play {rep.optimal}.")


@section("The Rock (UVa 10381): the judge's first sample")
def _rock() -> str:
    from . import rock

    maze = rock.parse_maze(ROCK_SAMPLE)
    sol = rock.solve(maze)
    return rock.explain(sol) + "\n\n" + rock.draw(sol)


@section("Closing the Portal: the seed's 5 x 5 board")
def _portal() -> str:
    from . import portal

    board = portal.parse_board(PORTAL_SEED)
    result = portal.solve(board)
    moves = portal.safe_moves(board)
    return result.explain() + "\n\n" + portal.draw(board, moves)


@section("No: the seed's 5 x 5 board, start piece P3")
def _nearest() -> str:
    from .nearest import nearest

    pieces = [(1, 1), (3, 0), (2, 3), (0, 2), (4, 4)]
    ans = nearest(pieces, 2)
    names = ", ".join(f"P{i + 1}" for i in ans.pieces)
    return (f"Nearest to P3 at (2, 3): {names}, all {ans.distance} moves away (a "
            f"{len(ans.pieces)}-way tie; the judge format answers the lowest index).")


ROCK_SAMPLE = """..X.....
........
##.##...
........
##.##...
##.##...
........
..E....."""

PORTAL_SEED = """.O#..
....O
.#.#.
.....
#...."""


def run_demo() -> None:
    for title, fn in SECTIONS:
        click.secho(f"== {title}", bold=True)
        click.echo(fn())
        click.echo()
