"""``perfectplay demo``: one bundled instance of every game, solved and explained.

Tic-tac-toe shows the generic engine; then every registered game's ``demo`` instance (its
:class:`~perfectplay.registry.GameSpec`) is analyzed and explained.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from . import registry
from .engine import Value, describe, search, solve
from .engine.protocol import Worth
from .registry import GameSpec

SECTIONS: list[tuple[str, Callable[[], str]]] = []


def section(title: str) -> Callable[[Callable[[], str]], Callable[[], str]]:
    def register(fn: Callable[[], str]) -> Callable[[], str]:
        SECTIONS.append((title, fn))
        return fn

    return register


@section("Tic-tac-toe, solved by the generic engine")
def _tictactoe() -> str:
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
    r = search(TicTacToe())
    return (f"{c.total:,} reachable positions; the start is a {describe(s.value(), s.remoteness())}"
            f" ({', '.join(f'{_name(k)} {n:,}' for k, n in c.by_value.items())}). "
            "Every position's value and remoteness is known, so perfect play never loses.\n"
            f"Proof search proves the same {r.describe()} for the start alone, enumerating "
            f"nothing ({r.nodes:,} nodes searched: here solving everything is cheaper); it is "
            "how standard Connect Four's 4.5 x 10^12 positions are answered: perfectplay "
            "search 'connect4(width=7, height=6)' --workers 2")


def _name(value: Worth) -> str:
    """A count's key as the demo names it: a Value by its name, a margin by its number."""
    return value.value if isinstance(value, Value) else str(value)


def game_section(spec: GameSpec) -> str:
    """A game's rules in a sentence, then its bundled instance solved: its explanation and
    its drawing."""
    result = spec.solve_text(spec.demo, **spec.demo_options)
    picture = result.draw()
    rules = spec.rules[:1].upper() + spec.rules[1:]
    return (f"Rules: {rules}\n\n" + result.explain()
            + ("\n\n" + picture if picture else ""))


def _compiled_before() -> bool:
    """True when numba has cached this package's kernels (index files next to them)."""
    return any(Path(__file__).parent.rglob("*.nbi"))


def run_demo() -> None:
    if not _compiled_before():
        click.echo("(first run: compiling the numba kernels takes about 10 s; they are cached "
                   "for later runs)", err=True)
    for title, fn in SECTIONS:
        _show(title, fn())
    click.echo("The four games come from four source documents; \"the seed\" below is that "
               "document (the problem statement or article and the algorithm it teaches).\n")
    for spec in registry.games("seed"):
        if spec.demo:
            _show(f"{spec.title}: {spec.demo_title}" if spec.demo_title else spec.title,
                  game_section(spec))


def _show(title: str, text: str) -> None:
    click.secho(f"== {title}", bold=True)
    click.echo(text)
    click.echo()
