"""The games' commands, one per registered game and built from its spec alone (the group
asks :func:`game_command` for any name the registry knows), ``play`` against the perfect
strategy, and ``demo``. No game is named in the code (only in the help's examples):
everything loops over the registry."""

from __future__ import annotations

from typing import Any

import click

from .. import registry
from ..demo import run_demo
from ..errors import InputError
from ..play import Session, Table, user_table
from ..registry import GameSpec, option_fields
from ..textio import Token, parse_int
from .base import fail, game_call, load_game, no_check_option, picture_path, read_text, render
from .book import live_play_table, store_play_table


# -- demo ------------------------------------------------------------------------------------
@click.command()
def demo() -> None:
    """Solve a bundled instance of every game and explain each answer.

    \b
    Example:
      perfectplay demo
    """
    run_demo()


# -- the games (one command each, built from the registry) -------------------------------------
def _read_values(values: tuple[str, ...], file: str | None, spec: GameSpec, opts: Any) -> Any:
    """A game's instance from numbers typed as arguments or from a file (not both), by the
    readers' one integer rule; none at all is an error."""
    what = spec.value_name
    if file is not None and values:
        raise InputError(f"give the {what} values or --file, not both ({len(values)} values "
                         f"and --file {file})")
    if file is not None:
        return spec.parse(read_text(file), opts)
    _no_unknown_options(values, spec)
    out = []
    for k, text in enumerate(values, 1):
        try:
            out.append(parse_int(Token(text, 1, 1), "an integer"))
        except InputError as exc:
            raise InputError(f"{what} {k}: {exc.message}") from None
    if not out:
        raise InputError(f"no {what}s given: pass the values, e.g. 7 9 2 6")
    assert spec.from_values is not None
    return spec.from_values(out, opts)


def _no_unknown_options(values: tuple[str, ...], spec: GameSpec) -> None:
    """A game whose values are typed as arguments takes unknown options as values (so that
    -3 is a number): one that looks like an option (``--tabel``, ``-x``) is a usage error
    naming it, with the nearest option when one is close, not "coin 3: expected an
    integer"."""
    import difflib

    flags = [f.flag for f in option_fields(spec.options)] + ["--file", "--json", "--help"]
    if spec.picture is not None:
        flags.append("--png")
    for text in values:
        if text.startswith("-") and not text.lstrip("-+").replace("_", "").isdigit():
            name = text.split("=", 1)[0]
            close = difflib.get_close_matches(name, flags, n=1)
            hint = f" (did you mean {close[0]}?)" if close else \
                f"; the options: {', '.join(flags)}"
            fail(f"{spec.name}: no such option {name}{hint}", 2)


def _option_params(spec: GameSpec) -> list[click.Parameter]:
    """The game's options as click options: a flag for a bool (one that defaults to True is
    switched off by its flag), a choice for a Literal, a typed value otherwise."""
    params: list[click.Parameter] = []
    for f in option_fields(spec.options):
        if f.kind is bool:
            params.append(click.Option([f.flag, f.name], is_flag=True, default=f.default,
                                       flag_value=not f.default, help=f.help))
        elif f.choices:
            params.append(click.Option([f.flag, f.name], type=click.Choice(list(f.choices)),
                                       default=f.default, show_default=True, help=f.help))
        else:
            params.append(click.Option([f.flag, f.name], type=f.kind, default=f.default,
                                       show_default=True, help=f.help))
    return params


def _input_params(spec: GameSpec) -> list[click.Parameter]:
    if spec.from_values is not None:
        return [click.Argument(["values"], nargs=-1),
                click.Option(["--file"], type=str, help="Read the values from a file "
                             "('-' = stdin).")]
    return [click.Argument(["input_file"], metavar=_metavar(spec))]


def _metavar(spec: GameSpec) -> str:
    first = spec.input_help.split(maxsplit=1)[0] if spec.input_help else "FILE"
    return first if first.isupper() else "FILE"


def _instance(spec: GameSpec, kwargs: dict[str, Any], opts: Any) -> Any:
    """The instance a game command's arguments name."""
    if spec.from_values is not None:
        return _read_values(tuple(kwargs.get("values") or ()), kwargs.get("file"), spec, opts)
    return spec.parse(read_text(kwargs["input_file"]), opts)


def _options_from(spec: GameSpec, kwargs: dict[str, Any]) -> Any:
    return spec.make_options({f.name: kwargs[f.name] for f in option_fields(spec.options)
                              if f.name in kwargs})


def _help(spec: GameSpec) -> str:
    examples = "".join(f"\n  perfectplay {e}" for e in spec.examples)
    return (f"{spec.title}: {spec.rules}\n\n{spec.input_help}"
            + (f"\n\n\b\nExamples:{examples}" if examples else ""))


def game_command(spec: GameSpec, name: str | None = None) -> click.Command:
    """The command ``perfectplay NAME``: read the instance, analyze it, print the result (or
    its JSON) and optionally save its picture. Built from the game's spec alone."""
    params = _input_params(spec) + _option_params(spec)
    params.append(click.Option(["--json", "as_json"], is_flag=True,
                               help="Print JSON for scripts."))
    if spec.picture is not None:
        params.append(click.Option(["--png"], type=click.Path(dir_okay=False),
                                   help=spec.picture_help))

    def callback(**kwargs: Any) -> None:
        opts = _options_from(spec, kwargs)
        png = picture_path(kwargs.get("png"))
        result = spec.analyze(_instance(spec, kwargs, opts), opts)
        if png and spec.picture is not None:
            spec.picture(result, png)
        render(result, kwargs["as_json"],
               head=spec.headline(result) if spec.headline else None,
               extra=spec.summary(result) if spec.summary else "",
               drawing=getattr(opts, "drawing", True))

    context = {"ignore_unknown_options": True} if spec.from_values is not None else {}
    short = spec.title if spec.title.endswith(".") else f"{spec.title}."
    return click.Command(name or spec.name, params=params, callback=callback,
                         help=_help(spec), short_help=short,
                         context_settings=context)


# -- play ------------------------------------------------------------------------------------
@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("game_name", metavar="GAME", required=False)
@click.argument("args", nargs=-1)
@click.option("--store", "store", type=click.Path(exists=True, file_okay=False), default=None,
              help="Play the game of this store (or opening book): what it holds is read, "
              "the rest searched live. A dense endgame table (solve --dense) speeds up the "
              "live search of the GAME named.")
@click.option("--live", is_flag=True, help="Answer by live search (and the game's opening "
              "book) instead of solving the whole game first: for compiled games too big to "
              "solve (standard Connect Four is played live by default).")
@click.option("--moves", "opening", default=None, metavar="MOVES",
              help="Start from the position these moves reach, comma-separated, as the "
              "game names them (e.g. 4,4,3); they are the first plies of the game's history "
              "and /r goes back to them.")
@click.option("--first/--second", default=True, help="Play first (default) or second.")
@click.option("--as", "side", default=None, help="Play this side, by the name the game "
              "gives it (The Rock: walker or rock).")
@click.option("--two-humans", is_flag=True, help="Both sides typed, with the solver's "
              "advice shown.")
@click.option("--strength", type=click.FloatRange(0, 1), default=1.0, show_default=True,
              help="Chance that the computer plays the perfect move (else a random one).")
@click.option("--seed", type=int, default=None, help="Seed for the computer's random moves.")
@no_check_option
def play(game_name: str | None, args: tuple[str, ...], store: str | None, live: bool,
         opening: str | None, first: bool, side: str | None, two_humans: bool,
         strength: float, seed: int | None) -> None:
    """Play against the perfect strategy: a game's name and its input as for the game's own
    command (its options too, e.g. --kind king), or FILE.py:Class.

    Every legal move is shown with its value and remoteness; type a move by its name or
    its number. Commands start with '/' so they never clash with a move: /h hint, /u undo,
    /r restart, /q quit, /? help. After the game, the value history marks each mistake,
    and /u still takes a final blunder back (/r plays again; /q or Enter quits).
    A game of your own may define draw(pos), move_name(move) and parse_move(text).

    \b
    Examples:
      perfectplay play coins 3 2 2 3 1 2
      perfectplay play rock examples/rock_sample.txt --as rock
      perfectplay play portal examples/portal_seed.txt --second --strength 0.7
      perfectplay play tictactoe
      perfectplay play 'connect4(width=5, height=4)'
      perfectplay play 'connect4(width=7, height=6)'      # its opening book, then search
      perfectplay play 'connect4(width=7, height=6)' --moves 4,4,3,5,3,3,3 --second
      perfectplay play --store c4book/
      perfectplay play 'kalah(houses=6, seeds=4)' --store kalah-dense24/
      perfectplay play examples/tictactoe.py:TicTacToe
    """
    user = store is not None or ":" in (game_name or "") or _is_catalog_game(game_name or "")
    if store is not None:
        table = store_play_table(store, game_name)
    elif game_name is None:
        fail("give a GAME to play, or --store DIR", 2)
    elif user:
        game = load_game(game_name)
        table = live_play_table(game_name, game, live) or \
            game_call("rules", user_table, game, game_name)
    else:
        table = _play_table(game_name, args)
    human = 0 if first else 1
    if side is not None:
        names = [str(n).lower() for n in table.player_names]
        if side.lower() not in names:
            fail(f"--as {side}: the sides of {game_name} are {', '.join(names)}", 2)
        human = names.index(side.lower())
    names = [t.strip() for t in (opening or "").split(",") if t.strip()]
    session = _session(table, {0, 1} if two_humans else {human}, strength, seed, names,
                       user)
    if user:  # a user's game may raise at any move
        game_call("rules", session.run)
    else:
        session.run()


def _session(table: Table, humans: set[int], strength: float, seed: int | None,
             opening: list[str], user: bool) -> Session:
    """The terminal session, its opening moves (``--moves``) played: a move that is not
    legal is a usage error naming it and the legal ones."""
    try:
        if user:
            return game_call("rules", Session, table, humans, strength, seed, opening=opening)
        return Session(table, humans, strength, seed, opening=opening)
    except InputError as exc:
        fail(f"--moves: {exc}", 2)


def _is_catalog_game(target: str) -> bool:
    """True when ``target`` names a catalog game: ``tictactoe``, ``connect4(width=5)``."""
    return target.partition("(")[0].strip() in registry.catalog_names()


def _play_table(game_name: str, args: tuple[str, ...]) -> Any:
    """The play table of a registered game, its input and options read by the game's own
    command line."""
    try:
        spec = registry.get(game_name)
    except InputError:
        names = ", ".join(s.name for s in registry.games("seed") if s.play is not None)
        famous = ", ".join(registry.catalog_names())
        fail(f"unknown game {game_name!r}: use {names}, a catalog game ({famous}) or "
             "FILE.py:Class")
    if spec.play is None:
        fail(f"{spec.title} is not a two-player game: use perfectplay {spec.name}")
    command = game_command(spec, f"play {spec.name}")
    try:
        ctx = command.make_context(f"perfectplay play {spec.name}", list(args))
    except click.UsageError as exc:
        fail(f"play {spec.name}: {exc.format_message()}", 2)
    opts = _options_from(spec, ctx.params)
    return spec.play(_instance(spec, ctx.params, opts), opts)
