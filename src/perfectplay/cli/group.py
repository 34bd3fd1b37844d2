"""The ``perfectplay`` group: the project's errors as one line and an exit code, every tool's
command, and one command per registered game (built on demand from the registry)."""

from __future__ import annotations

import sys
import warnings
from typing import Any

import click

from .. import registry
from ..errors import InputError, PerfectplayError
from . import book, catalog, contest, engine, games, serve, store
from .base import fail
from .games import game_command


class _Group(click.Group):
    """Turns the project's errors into one line and an exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PerfectplayError as exc:
            fail(str(exc))
        except KeyboardInterrupt:
            click.echo("perfectplay: interrupted", err=True)
            sys.exit(130)
        except MemoryError:
            fail("out of memory: the input is too large for this machine")

    def main(self, *args, **kwargs):  # click's signature, passed through
        """The command line, a game plugin that does not load shown as one line."""
        with warnings.catch_warnings():
            shown = warnings.showwarning

            def show(message, category, *rest, **kw):  # warnings.showwarning's
                if issubclass(category, registry.PluginWarning):
                    click.echo(f"perfectplay: warning: {message}", err=True)
                else:
                    shown(message, category, *rest, **kw)

            warnings.showwarning = show
            return super().main(*args, **kwargs)

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The tools, and one command per registered game."""
        return sorted(set(super().list_commands(ctx)) | {s.name for s in registry.games("seed")})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        command = super().get_command(ctx, name)
        if command is not None:
            return command
        try:
            spec = registry.get(name)
        except InputError:
            return None
        if name != spec.name:  # an alias of the web API's (GameSpec.aliases): no command
            return None
        return game_command(spec)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="perfectplay")
def main() -> None:
    """perfectplay: solve two-player games exactly, explain the solution, play perfectly.

    \b
    Examples:
      perfectplay demo
      perfectplay coins 7 9 2 6 4 3 --table
      perfectplay judge cses1097 examples/judge/cses1097.txt
      perfectplay solve examples/tictactoe.py:TicTacToe
    """
    # the command line reads and prints integers of any length (values the user typed, a
    # scored game's margins); Python's 4,300-digit guard would otherwise crash the printing
    sys.set_int_max_str_digits(0)


#: Every tool's command, by concern (the games' own commands come from the registry).
COMMANDS: tuple[click.Command, ...] = (
    games.demo, games.play, catalog.games,
    engine.solve, engine.search, engine.openspiel_command,
    store.query, store.verify, store.analyze, store.export, store.sql,
    contest.judge, contest.gen, contest.stress, contest.check,
    serve.serve, book.book,
)
for _command in COMMANDS:
    main.add_command(_command)
