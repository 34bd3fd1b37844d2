"""The engine's commands over a game you wrote (``solve``, ``search``) or one of OpenSpiel's
(``openspiel``)."""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..engine import advice, check_game, search_many
from ..engine import search as engine_search
from ..engine import solve as engine_solve
from ..engine.compiled.game import CompiledGame
from ..engine.discovery import refuse_too_big, solve_path
from ..engine.proof.limits import MAX_TABLE_MB, MAX_WORKERS, Limits
from ..engine.proof.result import SearchResult
from ..engine.protocol import Game, Position, capabilities
from ..engine.solved.saved import save as save_solution
from ..engine.solved.savefile import portable_target
from ..engine.solved.solution import describe, game_picture, move_name, play_moves, turn_words
from ..engine.target import LoadedGame
from ..errors import InputError, LimitError
from ..openspiel import solve_openspiel
from ..plot import position_picture
from ..store import Store, open_store, solve_tiered
from ..store import analyze as tb_analyze
from ..store.endgame import DenseEndgame, dense_info, is_dense_table, open_endgame
from .base import (
    EXIT_INPUT,
    echo_json,
    fail,
    game_call,
    limits_of,
    load_game,
    need_extra,
    no_check_option,
    picture_path,
    read_text,
    render,
    terminal_progress,
    writable,
)

if TYPE_CHECKING:
    from ..engine.proof.dfpn import ProofResult

#: The search's defaults, shown in ``search --help``.
SEARCH_LIMITS = Limits()
PNG_HELP = ("Also save a picture of the position: FILE.png or FILE.svg (the game's plot hook "
            "draws the board, else its text; needs perfectplay[plot]).")



@click.command()
@click.argument("target")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@click.option("--check/--no-check", default=None,
              help="--check: run the full conformance check first and print its report. "
                   "By default a game from a file gets a quick check (a few hundred "
                   "positions along random games; with --store, the first 20,000 "
                   "positions) and is refused when it fails; --no-check skips both.")
@click.option("--max-positions", type=click.IntRange(1), default=None,
              help="Stop with an error past this many positions (default: what the memory "
              "available now holds).")
@click.option("--moves", default=None,
              help="Print the position these moves reach from the start instead of the "
              "start (comma-separated, named as the game names them, e.g. 4,4,3): its "
              "value, best move and every move's value, from the whole solve.")
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
@click.option("--png", type=click.Path(dir_okay=False), default=None,
              help=PNG_HELP)
@click.option("--endgame", type=click.IntRange(0), default=None, metavar="K",
              help="With --store: store only the game's last tiers, every position the "
              "game's endgame_positions(K) names and all they reach (Kalah: at most K seeds "
              "in play), for search --store.")
@click.option("--dense", is_flag=True,
              help="With --store and --endgame K: write a dense endgame table instead (one "
              "byte a position, found by rank; games with build_dense_endgame: Kalah, "
              "every board of at most K seeds in play), in memory on this machine, for "
              "search --store.")
def solve(target: str, as_json: bool, check: bool | None, max_positions: int | None,
          moves: str | None, store: str | None, scheduler: str | None, workers: int | None,
          save_to: str | None, png: str | None, endgame: int | None, dense: bool) -> None:
    """Strongly solve a game: TARGET is a catalog game (perfectplay games lists them), e.g.
    'connect4(width=5, height=4)', or one you wrote, FILE.py:Class or FILE.py:Class(args).

    The arguments are Python literals (numbers, strings, tuples), never executed. A
    CompiledGame (numba rules over int64 codes) is solved at native speed.

    Prints the start position's value, remoteness, best move, every move's value and the
    number of positions by value and remoteness. With --store, solves tier by tier on Dask
    into an on-disk store instead (see perfectplay query / analyze / export / sql).

    \b
    Examples:
      perfectplay solve examples/tictactoe.py:TicTacToe
      perfectplay solve 'connect4(width=5, height=4)' --json
      perfectplay solve 'connect4(width=5, height=4)' --moves 3,3,2
      perfectplay solve examples/portal_tiers.py:Board5x4 --store tb/ --workers 2
      perfectplay solve 'kalah(houses=6, seeds=4)' --store eg/ --endgame 12
      perfectplay solve 'kalah(houses=6, seeds=5)' --store dense/ --endgame 26 --dense
      perfectplay solve 'examples/nim.py:Nim((3, 4, 5))' --save nim.npz
    """
    if endgame is not None and store is None:
        fail("--endgame builds a store: give --store DIR too", 2)
    if moves is not None and store is not None:
        fail("--moves shows a position of an in-memory solve; a store's positions are "
             "read by perfectplay query", 2)
    if dense:
        if store is None or endgame is None:
            fail("--dense writes a dense endgame table: give --store DIR and --endgame K", 2)
        _solve_dense(load_game(target, check=check is None), store, endgame, as_json)
        return
    if save_to is not None:
        if store is not None:
            fail("--save writes an in-memory solve; a --store is already on disk", 2)
        if Path(save_to).suffix not in (".npz", ".parquet"):
            fail(f"--save writes .npz or .parquet, not {Path(save_to).name!r}", 2)
        if save_to.endswith(".parquet"):
            need_extra("pyarrow", "Parquet files", "scale")
        writable(save_to, "saved solution")
    if store is not None:
        for module in ("distributed", "pyarrow"):
            need_extra(module, "stores", "scale")
    picture_path(png)
    before = _ctrl_c_stops() if store is None else None  # loading may compile: covered too
    game = load_game(target, check=check is None)  # the quick check, unless --check or not
    if store is None:
        _refuse_too_big(target, game, max_positions)
    position = None if moves is None else game_call("rules", play_moves, game, moves)
    if check:
        report = game_call("rules", check_game, game)
        click.echo(str(report), err=as_json)
        if not report.ok:
            sys.exit(EXIT_INPUT)
    if store is not None:
        roots = None if endgame is None else _endgame_roots(game, endgame)
        tb = game_call("rules", solve_tiered, game, store, cluster=scheduler,
                       workers=workers, progress=terminal_progress(),
                       game_ref=portable_target(target), roots=roots,
                       check=check is None)
        stats = tb_analyze(tb.store)
        # the start's value, as an in-memory solve prints it (an endgame store holds the
        # last tiers only: no start)
        start = None if roots is not None else game_call("rules", _store_start, tb.store,
                                                         game)
        if as_json:
            echo_json({"store": str(tb.store), "tiers": tb.tiers, "resumed": tb.resumed,
                       "already_solved": tb.already, **stats,
                       **({} if start is None else {"start": start[1]})})
        else:
            kept = " (one of each symmetric set)" if capabilities(game).symmetric else ""
            how = ("already solved: nothing to do; " if tb.already else
                   "resumed where the last run stopped; " if tb.resumed else "")
            click.echo(f"{how}solved {tb.positions:,} positions{kept} in {len(tb.tiers)} "
                       f"tiers into {tb.store}")
            if start is not None:
                click.echo(start[0])
        return
    _compiling_notice(game)
    hint = _hint_later(advice.solve_hint(game, target) if _person_reads(as_json) else None)
    try:
        solution = game_call("rules", engine_solve, game, max_positions=max_positions,
                             check=False)  # checked as it was loaded
    except LimitError as exc:
        fail(f"{exc}; or search one position instead: perfectplay search "
             f"{shlex.quote(target)}")
    finally:
        hint.cancel()
        if before is not None:
            signal.signal(signal.SIGINT, before)
    shown = solution if position is None else _Position(solution, position)
    game_call("draw or move_name", render, shown, as_json)
    if png is not None:
        first = solution.start if position is None else position
        words = describe(solution.value(first), solution.remoteness(first))
        best = solution.best_move(first)
        plies = 0 if moves is None else len([m for m in moves.split(",") if m.strip()])
        game_call("plot or draw", _save_picture, game, first, png, words, best, plies)
    if save_to is not None:
        written = game_call("rules", save_solution, solution, save_to, target)
        click.echo(f"saved {len(solution):,} positions to {written}", err=as_json)


class _Position:
    """One position of a solution, as :func:`~.base.render` prints a result (``solve
    --moves``): its words, its drawing and its JSON."""

    def __init__(self, solution: Any, position: Any) -> None:
        self.solution, self.position = solution, position

    def explain(self) -> str:
        return str(self.solution.explain(self.position))

    def draw(self, style: bool = False) -> str:
        return str(self.solution.draw(self.position, style))

    def to_json(self) -> dict[str, Any]:
        return dict(self.solution.to_json(self.position))


def _ctrl_c_stops() -> Any:
    """From now on Ctrl-C ends the process at once: one line and exit 130, as the command
    line's KeyboardInterrupt does. Returns the handler it replaced (None off the main
    thread: nothing replaced), for the caller to put back once the solve is done; the
    command's end puts it back in any case.

    A KeyboardInterrupt does not reliably get out of a compiled game's load and solve:
    raised in a ctypes callback or finaliser while numba compiles (llvmlite's) it was
    printed as ignored and the solve went on; raised as a kernel returns it surfaced as
    ``SystemError ... key_insert_many``, blamed on the rules. An in-memory solve has
    nothing to keep half-way (its output and --save come after it)."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def stop(_signum: int, _frame: object) -> None:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.write("perfectplay: interrupted\n")
            sys.stderr.flush()
        os._exit(130)

    previous = signal.signal(signal.SIGINT, stop)
    if previous is None:  # a handler not set from Python: Python's own is the fallback
        previous = signal.default_int_handler
    ctx = click.get_current_context(silent=True)
    if ctx is not None:  # put back however the command ends (an error, a refusal)
        ctx.call_on_close(lambda: signal.signal(signal.SIGINT, previous))
    return previous


def _refuse_too_big(target: str, game: LoadedGame, max_positions: int | None) -> None:
    """Refuse, before any work, a catalog game whose catalog entry counts more positions
    than the limit (``--max-positions``, else what the memory holds): 7x6 Connect Four's
    4.5 x 10^12 were enumerated silently until memory ran out. Says how to search it."""
    caps = capabilities(game)  # the engine's own refusal (the solve asks it too)
    try:  # the need and the limit (the memory cgroup's, RLIMIT_AS, the machine's), in words
        refuse_too_big(caps, solve_path(caps, isinstance(game, CompiledGame)), max_positions)
    except LimitError as exc:
        fail(f"{target} is too big to solve whole: {exc}")


def _person_reads(as_json: bool) -> bool:
    """Whether a hint on which door to take goes to stderr: a person at a terminal, not
    a script (``--json``, or stderr not a terminal)."""
    return not as_json and sys.stderr.isatty()


def _hint_later(line: str | None) -> threading.Timer:
    """A timer that prints ``line`` on stderr once the solve has run
    :data:`~perfectplay.engine.advice.SOLVE_HINT_SECONDS` (cancel it when the solve ends;
    nothing is printed for None)."""
    timer = threading.Timer(advice.SOLVE_HINT_SECONDS, lambda: click.echo(line, err=True))
    timer.daemon = True
    if line is not None:
        timer.start()
    return timer


def _store_start(store: Path, game: Game) -> tuple[str, dict[str, object]]:
    """The start of a solved store in words (value, best move, every move, with the game's
    drawing) and as JSON."""
    with open_store(store, game) as solved:
        text = solved.explain()
        picture = solved.draw()
        return (text + (f"\n\n{picture}" if picture else ""), solved.to_json())


def _compiling_notice(game: LoadedGame) -> None:
    """On a terminal, say that a compiled game's first solve compiles its kernels first
    (numba: seconds, the first time on a machine; then read from numba's disk cache), so
    the wait is not silent."""
    say = terminal_progress()
    if say is not None and isinstance(game, CompiledGame):
        say(f"compiling {capabilities(game).name}'s kernels (numba; cached on disk for the "
            "next run), then solving ...")


def _save_picture(game: LoadedGame, pos: Any, path: str, words: str, best: Any, plies: int) -> None:
    """The position's picture, titled with its value, whose turn and the best move."""
    caps = capabilities(game)
    hook = caps.plot
    title = f"{caps.name}: {words}; {turn_words(game, pos, plies)}"
    if best is not None:
        title += f"; best move {move_name(game, best)}"
    position_picture(None if hook is None else (lambda ax: hook(pos, ax)),
                     game_picture(game, pos), title, path)
    click.echo(f"picture saved to {path}", err=True)


def _solve_dense(game: Game, store: str, k: int, as_json: bool) -> None:
    """``solve --dense``: the game's dense endgame table of at most ``k`` (its
    ``build_dense_endgame``) written to ``store``."""
    caps = capabilities(game)
    build = caps.build_dense_endgame
    if build is None:
        fail(f"{caps.name} has no build_dense_endgame(k, directory): --dense "
             "needs a game that numbers its endgame densely (Kalah)", 2)
    progress = terminal_progress()
    began = time.perf_counter()

    def layer_done(layer: int, entries: int) -> None:
        if progress is not None:
            progress(f"boards of at most {layer:,} seeds: {entries:,} entries, "
                     f"{time.perf_counter() - began:,.0f} s")

    out = game_call("rules", build, k, store, layer_done)
    entries = int(str(dense_info(out)["entries"]))
    seconds = time.perf_counter() - began
    if as_json:
        echo_json({"store": str(out), "dense": True, "seeds": k, "positions": entries,
                   "seconds": round(seconds, 1)})
    else:
        click.echo(f"wrote the dense endgame table of {entries:,} positions (at most {k:,} "
                   f"seeds in play; one byte each) into {out} in {seconds:,.0f} s")


def _search_endgame(store: str, game: Game) -> Store | DenseEndgame:
    """The search's endgame of ``--store DIR``: a dense table (``solve --dense``) or an
    endgame store (:func:`perfectplay.store.endgame.open_endgame`)."""
    caps = capabilities(game)
    if is_dense_table(store) and caps.dense_endgame is None:
        fail(f"{store} holds a dense endgame table, which {caps.name} cannot "
             "read (no dense_endgame)", 2)
    return game_call("rules", open_endgame, store, game)


def _endgame_roots(game: LoadedGame, k: int) -> Any:
    """The roots of an endgame store: the game's ``endgame_positions(k)``."""
    caps = capabilities(game)
    hook = caps.endgame_positions
    if hook is None:
        fail(f"{caps.name} has no endgame_positions(k): "
             "--endgame needs the game to name its last tiers' positions", 2)
    return game_call("endgame_positions", hook, k)


# -- search one position ---------------------------------------------------------------------
@click.command()
@click.argument("target")
@click.option("--moves", default=None, help="Search the position these moves reach from the "
              "start, comma-separated, as the game names them (e.g. 4,4,3).")
@click.option("--analyze", is_flag=True, help="Also prove every move's value and remoteness.")
@click.option("--time", "time_limit", type=click.FloatRange(min=0, min_open=True),
              default=None, help="Stop after this many seconds with what is proven so far.")
@click.option("--nodes", "node_limit", type=click.IntRange(1), default=None,
              help="Stop after this many nodes with what is proven so far.")
@click.option("--table-mb", type=click.FloatRange(min=0, max=MAX_TABLE_MB, min_open=True),
              default=SEARCH_LIMITS.table_mb, show_default=True,
              help="Transposition table size (compiled games).")
@click.option("--workers", type=click.IntRange(1, MAX_WORKERS), default=SEARCH_LIMITS.workers,
              show_default=True,
              help="Threads searching together over one shared table (ABDADA-style "
              "lazy SMP).")
@click.option("--store", type=click.Path(file_okay=False, exists=True), default=None,
              help="An endgame store of this game (solve --store DIR --endgame K, or a "
              "dense table, with --dense): its positions are read, not searched.")
@click.option("--value-only", is_flag=True, help="Prove the value and a best move only, "
              "not the remoteness (which can cost more than the value): a win/lose game's "
              "winner alone, a scored game's margin.")
@click.option("--positions", "positions_file", type=click.Path(dir_okay=False), default=None,
              help="Search every position of this file ('-': standard input), a line each, "
              "written as --moves writes one (blank lines and lines from # are skipped), in "
              "one batch: --time is the whole batch's, --nodes each position's.")
@click.option("--png", type=click.Path(dir_okay=False), default=None, help=PNG_HELP)
@click.option("--algorithm", type=click.Choice(["alphabeta", "dfpn"]), default="alphabeta",
              show_default=True, help="alphabeta: the value and remoteness (the default); "
              "dfpn: df-pn proof-number search, who wins and no more (compiled win/lose/tie "
              "games only).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@no_check_option
def search(target: str, moves: str | None, analyze: bool, time_limit: float | None,
           node_limit: int | None, table_mb: float, workers: int, store: str | None,
           value_only: bool, positions_file: str | None, png: str | None, algorithm: str,
           as_json: bool) -> None:
    """Prove one position's value and remoteness by search, without enumerating the game:
    TARGET is a catalog game or FILE.py:Class(args), as for solve.

    For games far too big to solve whole (standard Connect Four). The answer is exact; with
    --time or --nodes, or on Ctrl-C, the search stops and prints only what it proved
    (bounds, marked NOT EXACT; exit status 3), never a guess.

    \b
    Examples:
      perfectplay search 'connect4(width=7, height=6)' --moves 4,4,4,4,4 --analyze
      perfectplay search 'connect4(width=7, height=6)' --workers 2 --table-mb 1024
      perfectplay search examples/tictactoe.py:TicTacToe --json
      perfectplay search 'kalah(houses=6, seeds=4)' --store eg/ --value-only
      perfectplay search 'kalah(houses=6, seeds=5)' --store dense/ --value-only
      perfectplay search 'connect4(width=7, height=6)' --positions lines.txt
      perfectplay search 'domineering(rows=7, cols=6)' --algorithm dfpn
    """
    limits = limits_of(time_limit=time_limit, node_limit=node_limit, table_mb=table_mb,
                       workers=workers)
    picture_path(png)
    if algorithm == "dfpn":
        _search_dfpn(target, moves, limits, png, as_json,
                     [flag for flag, given in (("--analyze", analyze), ("--store", store),
                                               ("--positions", positions_file),
                                               ("--workers", workers != 1)) if given])
        return
    if positions_file is not None:
        clash = [flag for flag, given in (("--moves", moves), ("--analyze", analyze),
                                          ("--png", png)) if given]
        if clash:
            fail(f"--positions searches a file of positions: not with {', '.join(clash)}")
    game = load_game(target)
    if positions_file is not None:
        _search_file(game, positions_file, limits=limits, store=store, value_only=value_only,
                     as_json=as_json)
        return
    position = game_call("rules", play_moves, game, moves or "")
    endgame = None if store is None else _search_endgame(store, game)
    result = game_call("rules", engine_search, game, position, limits=limits, analyze=analyze,
                       progress=terminal_progress(), endgame=endgame,
                       remoteness=not value_only, value_only=value_only,
                       check=False)  # checked as it was loaded
    tip = game_call("rules", advice.search_hint, game, target) \
        if result.exact and _person_reads(as_json) else None
    _show_search(game, position, moves, result, as_json, png, tip)


def _search_dfpn(target: str, moves: str | None, limits: Limits, png: str | None,
                 as_json: bool, clash: list[str]) -> None:
    """``search --algorithm dfpn``: who wins, by df-pn (:mod:`perfectplay.engine.proof.dfpn`),
    for a compiled win/lose/tie game; exit 3 when a limit stopped it first."""
    if clash:
        fail(f"--algorithm dfpn proves one position's winner alone: not with "
             f"{', '.join(clash)}")
    game = load_game(target)
    if not isinstance(game, CompiledGame):
        fail(f"--algorithm dfpn searches compiled games only; {capabilities(game).name} is a "
             "Python game (search it with the default --algorithm alphabeta)")
    if game.scored:
        fail(f"--algorithm dfpn answers who wins; {game.name} is scored (its value is a "
             "margin: search it with the default --algorithm alphabeta)")
    from ..engine.proof.dfpn import prove  # numba: the compiled door only

    position = game_call("rules", play_moves, game, moves or "")
    result = game_call("rules", prove, game, position, table_mb=limits.table_mb,
                       node_limit=limits.node_limit, time_limit=limits.time_limit,
                       max_depth=limits.max_depth, check=False)  # checked as it was loaded
    _show_search(game, position, moves, result, as_json, png, None)


def _show_search(game: LoadedGame, position: Position, moves: str | None,
                 result: SearchResult | ProofResult, as_json: bool, png: str | None,
                 tip: str | None) -> None:
    """Print a search's answer (either algorithm's result) where it was asked, then the
    tip, the picture; exit 3 when a limit stopped the search before a proof."""
    result.where = game_call("player", _where, game, position, moves or "")
    game_call("draw or move_name", render, result, as_json)
    if tip is not None:  # a small Python game: one solve answers every position
        click.echo(tip, err=True)
    if png is not None:
        plies = len([t for t in (moves or "").split(",") if t.strip()])
        game_call("plot or draw", _save_picture, game, position, png, result.describe(),
                  result.best_move, plies)
    if not result.exact:
        sys.exit(3)


def _search_file(game: Game, path: str, *, limits: Limits, store: str | None,
                 value_only: bool, as_json: bool) -> None:
    """``search --positions``: every line's position in one :func:`search_many` batch, a
    line of output each; exit 3 when one was not proven."""
    lines = _position_lines(read_text(path))
    if not lines:
        fail(f"{'standard input' if path == '-' else path} holds no position (a line "
             "each, written as --moves writes one)")
    where = "standard input" if path == "-" else path
    positions = []
    for number, text in lines:
        try:
            positions.append(game_call("rules", play_moves, game, text))
        except InputError as exc:
            fail(f"{where} line {number:,}: {exc}")
    endgame = None if store is None else _search_endgame(store, game)
    batch = game_call("rules", search_many, game, positions, limits=limits,
                      progress=terminal_progress(), endgame=endgame,
                      remoteness=not value_only, check=False)  # checked as it was loaded
    for result, (_, text), position in zip(batch, lines, positions, strict=True):
        result.where = game_call("player", _where, game, position, text)
    game_call("move_name", render, batch, as_json, drawing=False)
    if not batch.exact:
        sys.exit(3)


def _position_lines(text: str) -> list[tuple[int, str]]:
    """(line number, moves) of each line naming a position: blank lines and comments (from
    #) skipped. An empty line of moves is the start; write it as '-' to keep it."""
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append((number, "" if line == "-" else line))
    return out


def _where(game: LoadedGame, position: Any, moves: str) -> str:
    """The header's words for a searched position: the moves that reach it and whose
    turn it is ("after 4,4,3; the second player to move")."""
    played = [t.strip() for t in moves.split(",") if t.strip()]
    line = f"after {','.join(played)}" if played else "the start"
    return f"{line}; {turn_words(game, position, len(played))}"


@click.command(name="openspiel")
@click.argument("game_string")
@click.option("--key", type=click.Choice(["auto", "str", "ply", "history"]), default="auto",
              show_default=True,
              help="How states are told apart: auto (the smallest safe key, found from random "
                   "games), str(state), str(state) and the move number (a move limit the "
                   "printed state hides), or the whole history (rules that depend on it).")
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
    need_extra("pyspiel", "OpenSpiel games", "openspiel")
    if labels and Path(labels).suffix not in (".npz", ".parquet"):
        fail(f"labels are written as .npz or .parquet, not {Path(labels).name!r}")
    if labels and labels.endswith(".parquet"):
        need_extra("pyarrow", "Parquet labels", "scale")
    if labels:
        writable(labels, "labels")
    solved = solve_openspiel(game_string, key)  # type: ignore[arg-type]
    start = solved.game.game.new_initial_state()
    best = [start.action_to_string(start.current_player(), a)
            for a in solved.optimal_actions(start)]
    data = {"game": str(solved.game.game), "states": len(solved),
            "value": solved.value().value, "remoteness": solved.remoteness(),
            "optimal_actions": best, "key": solved.game.key,
            "key_reason": solved.game.key_reason}
    if labels:
        data["labels"] = str(solved.save_labels(labels))
    if as_json:
        echo_json(data)
        return
    click.echo(f"{data['game']}: {data['states']:,} states; the first player "
               f"{describe(solved.value(), solved.remoteness())}; optimal first actions: "
               f"{', '.join(best)}")
    if solved.game.key != "str":  # the printed state alone was not enough: say why
        click.echo(solved.game.key_reason)
    if labels:
        click.echo(f"wrote {data['labels']}")
