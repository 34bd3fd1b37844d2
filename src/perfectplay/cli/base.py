"""What every command shares: one-line errors and exit codes, reading input files, checks
made before any work (a writable path, an installed extra), calling a user's game, progress
lines, and printing a result (its JSON, or its explanation and drawing).

Errors are one line on stderr and a non-zero exit (1 for bad input, 2 for bad usage), never a
traceback.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, ParamSpec, TypeVar

import click

from ..engine.check import precheck
from ..engine.proof.limits import Limits
from ..engine.target import LoadedGame, load_target
from ..errors import LimitError, PerfectplayError, show_exc
from ..plot import picture_format

EXIT_INPUT = 1
P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str, code: int = EXIT_INPUT) -> NoReturn:
    click.echo(f"perfectplay: error: {message}", err=True)
    sys.exit(code)


def read_text(path: str | None) -> str:
    """The text of a file, or of stdin for None or '-': UTF-8 (a BOM is dropped by the
    readers); anything else is one clear error line."""
    if path is None or path == "-":
        return _decode(_read_stdin(), "standard input")
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        fail(f"no such file: {path}")
    except IsADirectoryError:
        fail(f"{path} is a directory, not a file")
    except PermissionError:
        fail(f"cannot read {path}: permission denied")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or exc}")
    return _decode(data, path)


def _read_stdin() -> bytes:
    stream = sys.stdin
    if stream is None or stream.closed:
        fail("standard input is closed: give a file name instead of '-'")
    try:
        buffer = getattr(stream, "buffer", None)
        if buffer is not None:
            return buffer.read()
        return stream.read().encode("utf-8", "surrogateescape")
    except (OSError, ValueError) as exc:
        fail(f"cannot read standard input: {exc}")


def _decode(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        fail(f"{where}, line {line}, column {column}: not UTF-8 text (byte "
             f"0x{data[exc.start]:02x})")


def writable(path: str, what: str) -> None:
    """Check up front, before any work, that a file can be written to ``path``."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        fail(f"{path} is a directory: give a file name for the {what}")
    if not folder.is_dir():
        fail(f"cannot write {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        fail(f"cannot write {path}: the folder {folder} is not writable")


def need_extra(module: str, what: str, extra: str) -> None:
    """One line, before any work, when an optional extra is not installed."""
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        fail(f"{what} need {module}: pip install 'perfectplay[{extra}]'")


def game_call(what: str, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``fn(*args, **kwargs)``, for code that calls a user's game: whatever it raises (bar
    the project's own errors, which say what is wrong already) becomes one line naming the
    game's part, and an I/O error (a full disk, a missing or unreadable file) one line
    naming its path and cause. Typed as ``fn`` is, so mypy checks every argument of every
    call the CLI makes into the library through here (a misspelt keyword is an error)."""
    try:
        return fn(*args, **kwargs)
    except (PerfectplayError, KeyboardInterrupt, MemoryError):
        raise
    except OSError as exc:  # a full disk, a missing file: said as itself, not the rules'
        fail(io_error(exc))
    except Exception as exc:  # noqa: BLE001 - a user's game may raise anything
        fail(f"the game's {what} raised {type(exc).__name__}: {show_exc(exc)} (run solve "
             "--check for a conformance report)")


#: The option of each field of :class:`~perfectplay.engine.proof.limits.Limits` (what an
#: error about the field names on the command line).
LIMIT_OPTIONS = {"time_limit": "--time", "node_limit": "--nodes", "table_mb": "--table-mb",
                 "workers": "--workers"}


def limits_of(base: Limits | None = None, *, time_limit: float | None = None,
              node_limit: int | None = None, table_mb: float | None = None,
              workers: int | None = None) -> Limits:
    """A command's :class:`~perfectplay.engine.proof.limits.Limits`, built from its options
    (None: not given, ``base``'s or the defaults) before any work: a value out of range is
    one line naming its option, exit 2.

    >>> limits_of(table_mb=128, workers=2)
    Limits(time_limit=None, node_limit=None, table_mb=128, workers=2, max_depth=10000)
    """
    try:
        return Limits.given(base, time_limit=time_limit, node_limit=node_limit,
                            table_mb=table_mb, workers=workers)
    except LimitError as exc:
        message = str(exc)
        field = message.split(" ", 1)[0]
        fail(LIMIT_OPTIONS.get(field, field) + message[len(field):], 2)


def io_error(exc: OSError) -> str:
    """An I/O error in one line, with its path and cause.

    >>> io_error(OSError(28, "No space left on device", "tb/manifest.json"))
    'cannot write or read tb/manifest.json: No space left on device'
    """
    where = f" {exc.filename}" if exc.filename else ""
    return f"cannot write or read{where}: {exc.strerror or show_exc(exc)}"


def terminal_progress() -> Callable[[str], None] | None:
    """Progress lines on stderr when it is a terminal; silent otherwise (a log or a pipe
    gets the result, not thirty lines of progress)."""
    stream = sys.stderr
    if stream is not None and hasattr(stream, "isatty") and stream.isatty():
        return lambda msg: click.echo(msg, err=True)
    return None


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, default=str))


def load_game(target: str, check: bool | None = None) -> LoadedGame:
    """Build the game ``FILE.py:Class`` or ``FILE.py:Class(args)`` (literal arguments), or a
    catalog game. A game of a file is checked first (the check ``solve`` makes,
    :func:`~perfectplay.engine.check.precheck`: one line and exit 1 when it fails) unless
    ``check`` is False or the command was given ``--no-check`` (:func:`no_check_option`)."""
    game = load_target(target)
    if check is None:
        ctx = click.get_current_context(silent=True)
        check = ctx is None or not ctx.meta.get(_NO_CHECK, False)
    if check:
        game_call("rules", precheck, game)
    return game


_NO_CHECK = "perfectplay.no_check"


def no_check_option(command: Callable[P, R]) -> Callable[P, R]:
    """The ``--no-check`` flag of a command that loads a game (:func:`load_game` reads it;
    the command's function does not take it)."""
    def remember(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
        if value:
            ctx.meta[_NO_CHECK] = True
        return value

    return click.option("--no-check", is_flag=True, expose_value=False, callback=remember,
                        help="Skip the check of a game from a file (a few hundred positions "
                             "along random games, each move played twice, the hooks "
                             "round-tripped) made before it is used.")(command)


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False)


def render(result: Any, as_json: bool, head: str | None = None, extra: str = "",
           drawing: bool = True) -> None:
    """Print a game's result: its JSON, or its explanation and drawing (coloured on a
    terminal). Every game command ends here; none formats a result itself."""
    if as_json:
        echo_json(result.to_json())
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


def picture_path(path: str | None) -> str | None:
    """Check up front, before any work, that a picture can be written to ``path`` (its
    folder, its suffix .png or .svg, matplotlib installed)."""
    if path is None:
        return None
    writable(path, "picture")
    picture_format(Path(path), bare=None)
    need_extra("matplotlib", "pictures", "plot")
    return path
