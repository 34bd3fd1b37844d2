"""The command line: thin click commands that parse options and call the library.

Errors are one line on stderr and a non-zero exit (1 for bad input, 2 for bad usage), never a
traceback.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from . import registry
from .demo import run_demo
from .engine import check_game
from .engine import search as engine_search
from .engine import solve as engine_solve
from .engine.saved import load as load_solution
from .engine.saved import save as save_solution
from .engine.solution import describe, play_moves, position_of
from .engine.target import load_target
from .errors import InputError, PerfectplayError, show_exc
from .gen import generate
from .judge import problems
from .judge import run as judge_run
from .openspiel import solve_openspiel
from .play import Session, user_table
from .plot import picture_format
from .registry import GameSpec, option_fields
from .store import analyze as tb_analyze
from .store import export_parquet, open_store, solve_tiered
from .store import query as tb_query
from .store import sql as tb_sql
from .stress import check as run_check
from .stress import stress as run_stress
from .textio import Token, parse_int

EXIT_INPUT = 1


class _Group(click.Group):
    """Turns the project's errors into one line and an exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PerfectplayError as exc:
            _fail(str(exc))
        except KeyboardInterrupt:
            click.echo("perfectplay: interrupted", err=True)
            sys.exit(130)
        except MemoryError:
            _fail("out of memory: the input is too large for this machine")

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The tools, and one command per registered game."""
        return sorted(set(super().list_commands(ctx)) | {s.name for s in registry.games()})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        command = super().get_command(ctx, name)
        if command is not None:
            return command
        try:
            spec = registry.get(name)
        except InputError:
            return None
        return game_command(spec, name, hidden=name != spec.name)


def _fail(message: str, code: int = EXIT_INPUT) -> NoReturn:
    click.echo(f"perfectplay: error: {message}", err=True)
    sys.exit(code)


def _read_text(path: str | None) -> str:
    """The text of a file, or of stdin for None or '-': UTF-8 (a BOM is dropped by the
    readers); anything else is one clear error line."""
    if path is None or path == "-":
        return _decode(_read_stdin(), "standard input")
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        _fail(f"no such file: {path}")
    except IsADirectoryError:
        _fail(f"{path} is a directory, not a file")
    except PermissionError:
        _fail(f"cannot read {path}: permission denied")
    except OSError as exc:
        _fail(f"cannot read {path}: {exc.strerror or exc}")
    return _decode(data, path)


def _read_stdin() -> bytes:
    stream = sys.stdin
    if stream is None or stream.closed:
        _fail("standard input is closed: give a file name instead of '-'")
    try:
        buffer = getattr(stream, "buffer", None)
        if buffer is not None:
            return buffer.read()
        return stream.read().encode("utf-8", "surrogateescape")
    except (OSError, ValueError) as exc:
        _fail(f"cannot read standard input: {exc}")


def _decode(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        _fail(f"{where}, line {line}, column {column}: not UTF-8 text (byte "
              f"0x{data[exc.start]:02x})")


def _writable(path: str, what: str) -> None:
    """Check up front, before any work, that a file can be written to ``path``."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        _fail(f"{path} is a directory: give a file name for the {what}")
    if not folder.is_dir():
        _fail(f"cannot write {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        _fail(f"cannot write {path}: the folder {folder} is not writable")


def _output_path(path: str | None) -> str | None:
    """Check up front, before any work, that a picture can be written to ``path``."""
    if path is None:
        return None
    _writable(path, "picture")
    target = Path(path)
    picture_format(target, bare=None)
    _need_extra("matplotlib", "pictures", "plot")
    return path


def _need_extra(module: str, what: str, extra: str) -> None:
    """One line, before any work, when an optional extra is not installed."""
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        _fail(f"{what} need {module}: pip install 'perfectplay[{extra}]'")


def _game_call(what: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run code that calls a user's game; whatever it raises (bar the project's own errors,
    which say what is wrong already) becomes one line naming the game's part."""
    try:
        return fn(*args, **kwargs)
    except (PerfectplayError, KeyboardInterrupt, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - a user's game may raise anything
        _fail(f"the game's {what} raised {type(exc).__name__}: {show_exc(exc)} (run solve "
              "--check for a conformance report)")


def _progress() -> Any:
    """Progress lines on stderr when it is a terminal; silent otherwise (a log or a pipe
    gets the result, not thirty lines of progress)."""
    stream = sys.stderr
    if stream is not None and hasattr(stream, "isatty") and stream.isatty():
        return lambda msg: click.echo(msg, err=True)
    return None


def _echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, default=str))


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


# -- demo ------------------------------------------------------------------------------------
@main.command()
def demo() -> None:
    """Solve a bundled instance of every game and explain each answer.

    \b
    Example:
      perfectplay demo
    """
    run_demo()


# -- solve a user's game ---------------------------------------------------------------------
def load_game(target: str) -> Any:
    """Build the game ``FILE.py:Class`` or ``FILE.py:Class(args)`` (literal arguments)."""
    return load_target(target)


@main.command()
@click.argument("target")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@click.option("--check", is_flag=True, help="Run the conformance check first.")
@click.option("--max-positions", type=click.IntRange(1), default=None,
              help="Stop with an error past this many positions (default: what the memory "
              "available now holds).")
@click.option("--store", type=click.Path(file_okay=False), default=None,
              help="Solve tier by tier on Dask into this on-disk store (the game must "
              "define tier, encode, decode; needs perfectplay[scale]). Resumable: run it "
              "again after a stop.")
@click.option("--scheduler", default=None, help="A Dask scheduler address (default: a "
              "local cluster of this machine's cores).")
@click.option("--workers", type=click.IntRange(1), default=None,
              help="Workers of the local cluster.")
@click.option("--save", "save_to", type=click.Path(dir_okay=False), default=None,
              help="Also write every position's value and remoteness to this .npz or "
              ".parquet file (perfectplay query FILE reads it).")
@click.option("--endgame", type=click.IntRange(0), default=None, metavar="K",
              help="With --store: store only the game's last tiers, every position the "
              "game's endgame_positions(K) names and all they reach (Kalah: at most K seeds "
              "in play), for search --store.")
def solve(target: str, as_json: bool, check: bool, max_positions: int | None,
          store: str | None, scheduler: str | None, workers: int | None,
          save_to: str | None, endgame: int | None) -> None:
    """Strongly solve a game you wrote: TARGET is FILE.py:Class or FILE.py:Class(args).

    The arguments are Python literals (numbers, strings, tuples), never executed. A
    CompiledGame (numba rules over int64 codes) is solved at native speed.

    Prints the start position's value, remoteness, best move, every move's value and the
    number of positions by value and remoteness. With --store, solves tier by tier on Dask
    into an on-disk store instead (see perfectplay query / analyze / export / sql).

    \b
    Examples:
      perfectplay solve examples/tictactoe.py:TicTacToe
      perfectplay solve 'examples/connect4.py:ConnectFour(5, 4)' --json
      perfectplay solve examples/portal_tiers.py:Board5x4 --store tb/ --workers 2
      perfectplay solve 'examples/kalah.py:Kalah(6, 4)' --store eg/ --endgame 12
      perfectplay solve 'examples/nim.py:Nim((3, 4, 5))' --save nim.npz
    """
    if endgame is not None and store is None:
        _fail("--endgame builds a store: give --store DIR too", 2)
    if save_to is not None:
        if store is not None:
            _fail("--save writes an in-memory solve; a --store is already on disk", 2)
        if Path(save_to).suffix not in (".npz", ".parquet"):
            _fail(f"--save writes .npz or .parquet, not {Path(save_to).name!r}", 2)
        if save_to.endswith(".parquet"):
            _need_extra("pyarrow", "Parquet files", "scale")
        _writable(save_to, "saved solution")
    if store is not None:
        for module in ("distributed", "pyarrow"):
            _need_extra(module, "stores", "scale")
    game = load_game(target)
    if store is not None:
        file, _, cls = target.partition(".py:")
        roots = None if endgame is None else _endgame_roots(game, endgame)
        tb = _game_call("rules", solve_tiered, game, store, cluster=scheduler,
                        workers=workers, progress=_progress(),
                        game_ref=f"{Path(file + '.py').resolve()}:{cls}", roots=roots)
        stats = tb_analyze(tb.store)
        if as_json:
            _echo_json({"store": str(tb.store), "tiers": tb.tiers, "resumed": tb.resumed,
                        "already_solved": tb.already, **stats})
        else:
            kept = " (one of each symmetric set)" if getattr(game, "symmetric", False) else ""
            how = ("already solved: nothing to do; " if tb.already else
                   "resumed where the last run stopped; " if tb.resumed else "")
            click.echo(f"{how}solved {tb.positions:,} positions{kept} in {len(tb.tiers)} "
                       f"tiers into {tb.store}")
        return
    if check:
        report = _game_call("rules", check_game, game)
        click.echo(str(report), err=as_json)
        if not report.ok:
            sys.exit(EXIT_INPUT)
    solution = _game_call("rules", engine_solve, game, max_positions=max_positions)
    _game_call("draw or move_name", _render, solution, as_json)
    if save_to is not None:
        written = _game_call("rules", save_solution, solution, save_to, target)
        click.echo(f"saved {len(solution):,} positions to {written}", err=as_json)


def _endgame_roots(game: Any, k: int) -> Any:
    """The roots of an endgame store: the game's ``endgame_positions(k)``."""
    hook = getattr(game, "endgame_positions", None)
    if not callable(hook):
        _fail(f"{getattr(game, 'name', type(game).__name__)} has no endgame_positions(k): "
              "--endgame needs the game to name its last tiers' positions", 2)
    return _game_call("endgame_positions", hook, k)


# -- search one position ---------------------------------------------------------------------
@main.command()
@click.argument("target")
@click.option("--moves", default=None, help="Search the position these moves reach from the "
              "start, comma-separated, as the game names them (e.g. 4,4,3).")
@click.option("--analyze", is_flag=True, help="Also prove every move's value and remoteness.")
@click.option("--time", "time_limit", type=click.FloatRange(min=0, min_open=True),
              default=None, help="Stop after this many seconds with what is proven so far.")
@click.option("--nodes", "node_limit", type=click.IntRange(1), default=None,
              help="Stop after this many nodes with what is proven so far.")
@click.option("--table-mb", type=click.FloatRange(min=0, max=16384, min_open=True),
              default=64, show_default=True, help="Transposition table size (compiled games).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Threads searching together over one shared table (ABDADA-style "
              "lazy SMP).")
@click.option("--store", type=click.Path(file_okay=False, exists=True), default=None,
              help="An endgame store of this game (solve --store DIR --endgame K): its "
              "positions are read, not searched.")
@click.option("--value-only", is_flag=True, help="Prove the value and a best move only, "
              "not the remoteness (which can cost more than the value for margins).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def search(target: str, moves: str | None, analyze: bool, time_limit: float | None,
           node_limit: int | None, table_mb: float, workers: int, store: str | None,
           value_only: bool, as_json: bool) -> None:
    """Prove one position's value and remoteness by search, without enumerating the game:
    TARGET is FILE.py:Class or FILE.py:Class(args), as for solve.

    For games far too big to solve whole (standard Connect Four). The answer is exact; with
    --time or --nodes, or on Ctrl-C, the search stops and prints only what it proved
    (bounds, marked NOT EXACT; exit status 3), never a guess.

    \b
    Examples:
      perfectplay search 'examples/connect4.py:ConnectFour(7, 6)' --moves 4,4,4,4,4 --analyze
      perfectplay search 'examples/connect4.py:ConnectFour(7, 6)' --workers 2 --table-mb 1024
      perfectplay search examples/tictactoe.py:TicTacToe --json
      perfectplay search 'examples/kalah.py:Kalah(6, 4)' --store eg/ --value-only
    """
    game = load_game(target)
    position = _game_call("rules", play_moves, game, moves or "")
    endgame = None if store is None else _game_call("rules", open_store, store, game)
    result = _game_call("rules", engine_search, game, position, analyze=analyze,
                        time_limit=time_limit, node_limit=node_limit, table_mb=table_mb,
                        workers=workers, progress=_progress(), endgame=endgame,
                        remoteness=not value_only)
    _game_call("draw or move_name", _render, result, as_json)
    if not result.exact:
        sys.exit(3)


# -- judges ----------------------------------------------------------------------------------
@main.command()
@click.argument("problem", required=False)
@click.argument("file", required=False)
@click.option("--list", "list_", is_flag=True, help="List the problem ids.")
@click.option("--lenient", is_flag=True, help="Lift the judge's ranges (n, values, board "
              "size) and accept a missing terminating 0.")
def judge(problem: str | None, file: str | None, list_: bool, lenient: bool) -> None:
    """Answer a judge's input exactly as the judge expects.

    Reads FILE (or stdin) in the original problem's input format. Bad cases are reported on
    stderr with case, line and column; the other cases are still answered; the exit code is
    then 1. Strict by default: data after the last case, and numbers outside the judge's
    stated range, are errors.

    \b
    Examples:
      perfectplay judge --list
      perfectplay judge cses1097 examples/judge/cses1097.txt
      echo "4 4 5 1 3" | perfectplay judge cses1097
    """
    if list_ or problem is None:
        for pid, (title, _) in problems().items():
            click.echo(f"{pid:14s} {title}")
        return
    if problem not in problems():
        _fail(f"unknown problem {problem!r}; see perfectplay judge --list", 2)
    result = judge_run(problem, _read_text(file), lenient)
    sys.stdout.write(result.output())
    sys.stdout.flush()  # answers first, then the notes and errors on stderr
    for note in result.notes:
        click.echo(note, err=True)
    for err in result.errors:
        click.echo(f"perfectplay: error: {err}", err=True)
    if result.errors:
        sys.exit(EXIT_INPUT)


# -- the games (one command each, built from the registry) -------------------------------------
def _read_values(values: tuple[str, ...], file: str | None, spec: GameSpec, opts: Any) -> Any:
    """A game's instance from numbers typed as arguments or from a file (not both), by the
    readers' one integer rule; none at all is an error."""
    what = spec.value_name
    if file is not None and values:
        raise InputError(f"give the {what} values or --file, not both ({len(values)} values "
                         f"and --file {file})")
    if file is not None:
        return spec.parse(_read_text(file), opts)
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
    return spec.parse(_read_text(kwargs["input_file"]), opts)


def _options_from(spec: GameSpec, kwargs: dict[str, Any]) -> Any:
    return spec.make_options({f.name: kwargs[f.name] for f in option_fields(spec.options)
                              if f.name in kwargs})


def _help(spec: GameSpec) -> str:
    examples = "".join(f"\n  perfectplay {e}" for e in spec.examples)
    return (f"{spec.title}: {spec.rules}\n\n{spec.input_help}"
            + (f"\n\n\b\nExamples:{examples}" if examples else ""))


def game_command(spec: GameSpec, name: str | None = None, hidden: bool = False
                 ) -> click.Command:
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
        png = _output_path(kwargs.get("png"))
        result = spec.analyze(_instance(spec, kwargs, opts), opts)
        if png and spec.picture is not None:
            spec.picture(result, png)
        _render(result, kwargs["as_json"],
                head=spec.headline(result) if spec.headline else None,
                extra=spec.summary(result) if spec.summary else "",
                drawing=getattr(opts, "drawing", True))

    context = {"ignore_unknown_options": True} if spec.from_values is not None else {}
    short = spec.title if spec.title.endswith(".") else f"{spec.title}."
    return click.Command(name or spec.name, params=params, callback=callback,
                         help=_help(spec), short_help=short, hidden=hidden,
                         context_settings=context)


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False)


def _render(result: Any, as_json: bool, head: str | None = None, extra: str = "",
            drawing: bool = True) -> None:
    """Print a game's result: its JSON, or its explanation and drawing (coloured on a
    terminal). Every game command ends here; none formats a result itself."""
    if as_json:
        _echo_json(result.to_json())
        return
    con = _console()
    if head:
        con.print(head)
    con.print(result.explain(), markup=False, soft_wrap=True)
    if extra:
        con.print("\n" + extra, markup=False, soft_wrap=True)
    picture = result.draw(style=True) if drawing else ""
    if picture:
        con.print()
        con.print(picture, soft_wrap=True)


# -- play ------------------------------------------------------------------------------------
@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("game_name", metavar="GAME")
@click.argument("args", nargs=-1)
@click.option("--first/--second", default=True, help="Play first (default) or second.")
@click.option("--as", "side", default=None, help="Play this side, by the name the game "
              "gives it (The Rock: walker or rock).")
@click.option("--two-humans", is_flag=True, help="Both sides typed, with the solver's "
              "advice shown.")
@click.option("--strength", type=click.FloatRange(0, 1), default=1.0, show_default=True,
              help="Chance that the computer plays the perfect move (else a random one).")
@click.option("--seed", type=int, default=None, help="Seed for the computer's random moves.")
def play(game_name: str, args: tuple[str, ...], first: bool, side: str | None,
         two_humans: bool, strength: float, seed: int | None) -> None:
    """Play against the perfect strategy: a game's name and its input as for the game's own
    command (its options too, e.g. --kind king), or FILE.py:Class.

    Every legal move is shown with its value and remoteness; type a move by its name or
    its number. Commands start with '/' so they never clash with a move: /h hint, /u undo,
    /r restart, /q quit, /? help. After the game, the value history marks each mistake.
    A game of your own may define draw(pos), move_name(move) and parse_move(text).

    \b
    Examples:
      perfectplay play coins 3 2 2 3 1 2
      perfectplay play rock examples/rock_sample.txt --as rock
      perfectplay play portal examples/portal_seed.txt --second --strength 0.7
      perfectplay play examples/tictactoe.py:TicTacToe
    """
    user = ":" in game_name
    if user:
        table = _game_call("rules", user_table, load_game(game_name), game_name)
    else:
        table = _play_table(game_name, args)
    human = 0 if first else 1
    if side is not None:
        names = [str(n).lower() for n in table.player_names]
        if side.lower() not in names:
            _fail(f"--as {side}: the sides of {game_name} are {', '.join(names)}", 2)
        human = names.index(side.lower())
    session = Session(table, {0, 1} if two_humans else {human}, strength, seed)
    if user:  # a user's game may raise at any move
        _game_call("rules", session.run)
    else:
        session.run()


def _play_table(game_name: str, args: tuple[str, ...]) -> Any:
    """The play table of a registered game, its input and options read by the game's own
    command line."""
    try:
        spec = registry.get(game_name)
    except InputError:
        names = ", ".join(s.name for s in registry.games() if s.play is not None)
        _fail(f"unknown game {game_name!r}: use {names} or FILE.py:Class")
    if spec.play is None:
        _fail(f"{spec.title} is not a two-player game: use perfectplay {spec.name}")
    command = game_command(spec, f"play {spec.name}")
    try:
        ctx = command.make_context(f"perfectplay play {spec.name}", list(args))
    except click.UsageError as exc:
        _fail(f"play {spec.name}: {exc.format_message()}", 2)
    opts = _options_from(spec, ctx.params)
    return spec.play(_instance(spec, ctx.params, opts), opts)


# -- contest tools -----------------------------------------------------------------------------
@main.command()
@click.argument("problem")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same output.")
@click.option("--cases", type=click.IntRange(1), default=1, show_default=True)
@click.option("--size", type=click.IntRange(1), default=None,
              help="Largest side / row length (default: small; the judge's maximum is the "
              "limit).")
@click.option("--family", default="mixed", show_default=True,
              help="uniform, ties, largest; grids also maze, snake, rooms (and corridor for "
              "uva10381).")
def gen(problem: str, seed: int, cases: int, size: int | None, family: str) -> None:
    """Generate valid input for PROBLEM in the judge's exact format.

    \b
    Examples:
      perfectplay gen uva10381 --seed 7 --cases 3 --family maze
      perfectplay gen cses1097 --size 5000 --family largest > big.txt
    """
    sys.stdout.write(generate(problem, seed, cases, size, family))


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("problem")
@click.argument("cmd", nargs=-1, required=True)
@click.option("--cases", type=click.IntRange(1), default=200, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--size", type=click.IntRange(1), default=None)
@click.option("--family", default="mixed", show_default=True)
@click.option("--timeout", type=click.FloatRange(0.01), default=5.0, show_default=True,
              help="Seconds per run.")
@click.option("--jobs", type=click.IntRange(1), default=None, help="Parallel runs (default: "
              "all cores).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def stress(problem: str, cmd: tuple[str, ...], cases: int, seed: int, size: int | None,
           family: str, timeout: float, jobs: int | None, as_json: bool) -> None:
    """Run your solution CMD on generated cases and compare it with perfectplay.

    On the first failure (crash, time-out, wrong format or wrong answer) the input is shrunk
    to a smallest one that still fails, and printed with both answers and the explanation of
    the right one. Exit code 1 when a failure was found. Ctrl-C prints what was found so far.

    \b
    Example:
      perfectplay stress uva10381 --cases 500 -- python my_solution.py
    """
    report = run_stress(problem, list(cmd), cases, seed, size, family, timeout,
                        jobs or os.cpu_count() or 1, progress=_progress())
    if as_json:
        _echo_json(report.to_json())
    else:
        click.echo(report.text())
    if report.failure is not None:
        sys.exit(EXIT_INPUT)


@main.command()
@click.argument("problem")
@click.argument("input_file", metavar="INPUT")
@click.argument("output_file", metavar="OUTPUT")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def check(problem: str, input_file: str, output_file: str, as_json: bool) -> None:
    """Check OUTPUT against the right answers to INPUT, case by case (like testlib).

    Exit code 0 only when every case is right.

    \b
    Example:
      perfectplay check devc-portal examples/judge/devc-portal.txt \
        examples/judge/devc-portal.out
    """
    result = run_check(problem, _read_text(input_file), _read_text(output_file))
    if as_json:
        _echo_json(result.to_json())
    else:
        click.echo(result.text())
    if result.failed:
        sys.exit(EXIT_INPUT)


# -- tablebase ---------------------------------------------------------------------------------
@main.command()
@click.argument("store", type=click.Path(exists=True))
@click.argument("position", required=False)
@click.option("--moves", default=None, help="The position reached by these moves from the "
              "start, comma-separated, as the game names them (e.g. 3,3,2).")
@click.option("--raw", is_flag=True, help="POSITION is the encoded integer itself.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def query(store: str, position: str | None, moves: str | None, raw: bool,
          as_json: bool) -> None:
    """Look a position up in a solved STORE (a store directory, or a file written by solve
    --save): its value, remoteness, best move and every move's value. POSITION is a Python
    literal as the game writes positions (the start when left out), or give --moves from
    the start, or --raw with the encoded integer (stores).

    \b
    Examples:
      perfectplay query tb/                      # the start
      perfectplay query tb/ "(0, 5)" --json
      perfectplay query tb/ --moves 3,3,2
      perfectplay query nim.npz "(3, 4, 4)"
    """
    if Path(store).is_file():
        _query_saved(store, position, moves, raw, as_json)
        return
    if raw:
        if position is None:
            _fail("--raw needs POSITION, the encoded integer")
        code = parse_int(Token(position, 1, 1), "an integer (--raw)", -(2**63), 2**63 - 1)
        row = _game_call("rules", tb_query, store, [code])[0]
        if not row["found"]:
            _fail(f"code {code} is not in the store: not reachable from the start")
        if as_json:
            _echo_json(row)
        else:
            rem = row["remoteness"]
            click.echo(f"code {code} (tier {row['tier']}): {row['value']}"
                       + ("" if rem is None else f" in {rem}"))
        return
    with open_store(store) as tb:
        _show_position(tb, position, moves, as_json)


def _query_saved(path: str, position: str | None, moves: str | None, raw: bool,
                 as_json: bool) -> None:
    """query on a file written by solve --save."""
    if raw:
        _fail("--raw reads a store's codes; give a saved solution's POSITION or --moves")
    _show_position(_game_call("rules", load_solution, path), position, moves, as_json)


def _show_position(solved: Any, position: str | None, moves: str | None,
                   as_json: bool) -> None:
    """A queried position of a store or saved solution: JSON, or its drawing and words."""
    pos = _game_call("rules", position_of, solved.game, position, moves)
    if as_json:
        _echo_json(_game_call("rules", solved.to_json, pos))
        return
    picture = _game_call("draw", solved.draw, pos)
    if picture:
        click.echo(picture)
    click.echo(_game_call("rules", solved.explain, pos))


@main.command()
@click.argument("store", type=click.Path(exists=True, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def analyze(store: str, as_json: bool) -> None:
    """Counts of a solved STORE by value, remoteness and tier.

    \b
    Example:
      perfectplay analyze tb/
    """
    stats = _game_call("rules", tb_analyze, store)
    if as_json:
        _echo_json(stats)
        return
    click.echo(f"positions: {stats['total']:,}")
    for key, title in (("by_value", "by value"), ("by_remoteness", "by remoteness"),
                       ("by_tier", "by tier")):
        click.echo(f"  {title}: " + ", ".join(f"{k}: {n:,}" for k, n in stats[key].items()))


@main.command(name="openspiel")
@click.argument("game_string")
@click.option("--key", type=click.Choice(["str", "history"]), default="str", show_default=True,
              help="Key states by str(state), or by their whole history (for games whose "
                   "rules depend on it).")
@click.option("--labels", type=click.Path(dir_okay=False), default=None,
              help="Write every state's labels here (.npz, or .parquet with pyarrow).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def openspiel_command(game_string: str, key: str, labels: str | None, as_json: bool) -> None:
    """Solve an OpenSpiel game exactly: the start's value and remoteness, the optimal
    first actions, and optionally every state's labels for learning.

    \b
    Example:
      perfectplay openspiel "connect_four(rows=4,columns=5)" --labels c4.npz
    """
    _need_extra("pyspiel", "OpenSpiel games", "openspiel")
    if labels and Path(labels).suffix not in (".npz", ".parquet"):
        _fail(f"labels are written as .npz or .parquet, not {Path(labels).name!r}")
    if labels and labels.endswith(".parquet"):
        _need_extra("pyarrow", "Parquet labels", "scale")
    if labels:
        _writable(labels, "labels")
    solved = solve_openspiel(game_string, key)  # type: ignore[arg-type]
    start = solved.game.game.new_initial_state()
    best = [start.action_to_string(start.current_player(), a)
            for a in solved.optimal_actions(start)]
    data = {"game": str(solved.game.game), "states": len(solved),
            "value": solved.value().value, "remoteness": solved.remoteness(),
            "optimal_actions": best}
    if labels:
        data["labels"] = str(solved.save_labels(labels))
    if as_json:
        _echo_json(data)
        return
    click.echo(f"{data['game']}: {data['states']:,} states; the first player "
               f"{describe(solved.value(), solved.remoteness())}; optimal first actions: "
               f"{', '.join(best)}")
    if labels:
        click.echo(f"wrote {data['labels']}")


@main.command()
@click.argument("store", type=click.Path(exists=True, file_okay=False))
@click.option("--parquet", "out", type=click.Path(file_okay=False), default=None,
              help="Write here (default STORE/parquet/).")
def export(store: str, out: str | None) -> None:
    """Write a solved STORE as Parquet, one file a tier (position, tier, value,
    remoteness), for DuckDB, pandas or Spark. perfectplay sql reads it when present.

    \b
    Example:
      perfectplay export tb/ --parquet tb-parquet/
    """
    _need_extra("pyarrow", "Parquet exports", "scale")
    folder = _game_call("rules", export_parquet, store, out)
    click.echo(f"wrote {folder}")


@main.command()
@click.argument("store", type=click.Path(exists=True, file_okay=False))
@click.argument("query_text", metavar="QUERY")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def sql(store: str, query_text: str, as_json: bool) -> None:
    """Run a DuckDB QUERY over a solved STORE as the table ``solved`` (position, tier,
    value, remoteness; remoteness null for a draw). Streams the store, or reads its
    Parquet export when there is one.

    \b
    Example:
      perfectplay sql tb/ "SELECT value, count(*) FROM solved GROUP BY value"
    """
    for module in ("duckdb", "pyarrow"):
        _need_extra(module, "SQL queries", "scale")
    rows = _game_call("rules", tb_sql, store, query_text)
    if as_json:
        _echo_json([list(r) for r in rows])
        return
    for row in rows:
        click.echo("\t".join("" if v is None else str(v) for v in row))


# -- the web page ------------------------------------------------------------------------------
@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (localhost only unless you say otherwise).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--store", type=click.Path(file_okay=False, exists=True), default=None,
              help="Also serve this solved store read-only under /gamesman, in the shape "
              "of GamesCrafters' web API.")
@click.option("--game", "target", default=None, metavar="TARGET",
              help="Also serve this game (FILE.py:Class(args), solved now in memory) under "
              "/gamesman.")
def serve(host: str, port: int, store: str | None, target: str | None) -> None:
    """Serve the web page: play and explore every game in a browser (needs
    perfectplay[web]). With --store or --game, one solved game is also served read-only
    under /gamesman in the shape GamesCrafters' front end (GamesmanUni) reads.

    \b
    Examples:
      perfectplay serve --port 8000     # then open http://127.0.0.1:8000
      perfectplay serve --game examples/tictactoe.py:TicTacToe
      # then GET http://127.0.0.1:8000/gamesman/tictactoe/standard/positions/?p=...
    """
    for module in ("starlette", "uvicorn", "pydantic"):
        _need_extra(module, "the web page", "web")
    if store is not None and target is not None:
        _fail("give --store or --game, not both", 2)
    gamesman, gid = _served_game(store, target)
    import uvicorn

    from .web.app import create_app

    click.echo(f"perfectplay: serving http://{host}:{port} (Ctrl-C stops)", err=True)
    if gamesman is not None:
        click.echo(f"perfectplay: {gid} read-only at http://{host}:{port}/gamesman/{gid}/",
                   err=True)
    try:
        uvicorn.run(create_app(gamesman=gamesman, gamesman_id=gid), host=host, port=port,
                    log_level="warning")
    except OSError as exc:
        _fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")


def _served_game(store: str | None, target: str | None) -> tuple[Any, str]:
    """The solved game ``serve`` puts under /gamesman, and its id (a lower-case word)."""
    if store is not None:
        solved: Any = open_store(store)
        name = solved.game_name or Path(store).name
    elif target is not None:
        game = load_game(target)
        solved = _game_call("rules", engine_solve, game)
        name = getattr(game, "name", type(game).__name__)
    else:
        return None, "game"
    return solved, "".join(c for c in str(name).lower() if c.isalnum()) or "game"


def run() -> None:  # pragma: no cover - console entry point alias
    main()


if __name__ == "__main__":  # pragma: no cover
    main()
