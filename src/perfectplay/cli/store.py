"""The commands over a solved store or a saved solution: ``query``, ``verify``,
``analyze``, ``export`` and ``sql``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..engine.protocol import capabilities
from ..engine.solved.saved import GameNotRebuilt, SavedSolution
from ..engine.solved.saved import load as load_solution
from ..engine.solved.solution import position_of
from ..errors import PerfectplayError
from ..store import analyze as tb_analyze
from ..store import export_parquet, open_store
from ..store import query as tb_query
from ..store.tabular import sql_table
from ..textio import Token, parse_int
from .base import echo_json, fail, game_call, load_game, need_extra, no_check_option

#: The --game option of the commands that read a store or a saved solution.
game_option = click.option(
    "--game", "target", default=None, metavar="TARGET",
    help="The game the file was solved from (FILE.py:Class(args), or a catalog game such "
    "as nim(heaps=(3, 4, 5))), instead of the one it records: for a file moved to another "
    "machine, or a game file moved since.")


def _open(path: str, target: str | None, rules: bool = True) -> Any:
    """The solved store (a folder) or saved solution (a file) at ``path``, with its game:
    ``--game``'s when given (checked to be the game it holds), else the one it records,
    rebuilt now (a store's, when ``rules``: analyze counts a store without them), so that a
    target that no longer loads (a moved file) is one line that says what to do."""
    game = None if target is None else load_game(target)
    if Path(path).is_file():
        try:
            return game_call("rules", load_solution, path, game)
        except GameNotRebuilt as exc:
            fail(f"{exc.problem}: give the game with --game TARGET")
    solved = open_store(path, game)
    if game is not None and solved.game_name and capabilities(game).name != solved.game_name:
        fail(f"{path} holds a solution of {solved.game_name}, not of "
             f"{capabilities(game).name}")
    if rules and game is None and solved.target is not None:
        try:
            game_call("rules", lambda: solved.game)
        except PerfectplayError as exc:
            fail(f"{path} records the game {solved.target}, which cannot be rebuilt here "
                 f"({exc}): give the game with --game TARGET")
    return solved


# -- tablebase ---------------------------------------------------------------------------------
@click.command()
@click.argument("store", type=click.Path(exists=True))
@click.argument("position", required=False)
@click.option("--moves", default=None, help="The position reached by these moves from the "
              "start, comma-separated, as the game names them (e.g. 3,3,2).")
@click.option("--raw", is_flag=True, help="POSITION is the encoded integer itself.")
@game_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@no_check_option
def query(store: str, position: str | None, moves: str | None, raw: bool,
          target: str | None, as_json: bool) -> None:
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
      perfectplay query nim.npz --game 'nim.py:Nim((3, 4, 5))'   # the game moved
    """
    if raw:  # the request checked before any file is read
        if Path(store).is_file():
            fail("--raw reads a store's codes; give a saved solution's POSITION or --moves")
        if position is None:
            fail("--raw needs POSITION, the encoded integer")
        code = parse_int(Token(position, 1, 1), "an integer (--raw)", -(2**63), 2**63 - 1)
    solved = _open(store, target)
    if raw:
        game = solved.game if solved.target is not None or target is not None else None
        row = game_call("rules", tb_query, store, [code], game)[0]
        if not row["found"]:
            fail(f"code {code} is not in the store: not reachable from the start")
        if as_json:
            echo_json(row)
        else:
            rem = row["remoteness"]
            click.echo(f"code {code} (tier {row['tier']}): {row['value']}"
                       + ("" if rem is None else f" in {rem}"))
        return
    _show_position(solved, position, moves, as_json)


def _show_position(solved: Any, position: str | None, moves: str | None,
                   as_json: bool) -> None:
    """A queried position of a store or saved solution: JSON, or its drawing and words."""
    pos = game_call("rules", position_of, solved.game, position, moves)
    if as_json:
        echo_json(game_call("rules", solved.to_json, pos))
        return
    click.echo(game_call("rules", solved.explain, pos))
    picture = game_call("draw", solved.draw, pos)
    if picture:  # below the words, as their header says ("as drawn below")
        click.echo("\n" + picture)


@click.command()
@click.argument("solved", metavar="STORE|SAVED", type=click.Path(exists=True))
@click.option("--sample", default="100000", show_default=True,
              help="How many positions to check, drawn at random; 'all' checks every one "
                   "(the full proof).")
@click.option("--seed", default=0, show_default=True, help="The random sample's seed.")
@game_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@no_check_option
def verify(solved: str, sample: str, seed: int, target: str | None, as_json: bool) -> None:
    """Audit a solved STORE (a store directory) or SAVED file (written by solve --save):
    each sampled position's stored value and remoteness is recomputed from its children's
    stored entries, the children made by the game's own rules (retrograde consistency;
    checking every position proves the whole solution); a store's files are checked
    against the checksums written when it was made. Exits 1 on any mismatch, naming the
    positions.

    \b
    Examples:
      perfectplay verify tb/
      perfectplay verify tb/ --sample all
      perfectplay verify nim.npz --json
    """
    if sample != "all" and not (sample.isdigit() and int(sample) > 0):
        fail(f"--sample is a count of positions (at least 1) or 'all', not {sample!r}")
    count = None if sample == "all" else int(sample)
    opened = _open(solved, target)
    report = game_call("rules", opened.verify, count, seed)
    if as_json:
        echo_json(report.to_json())
    else:
        click.echo(report.explain())
    if not report.ok:
        sys.exit(1)


@click.command()
@click.argument("store", metavar="STORE|SAVED", type=click.Path(exists=True))
@game_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@no_check_option
def analyze(store: str, target: str | None, as_json: bool) -> None:
    """Counts of a solved STORE (a store directory, by value, remoteness and tier) or SAVED
    file (written by solve --save, by value and remoteness).

    \b
    Examples:
      perfectplay analyze tb/
      perfectplay analyze nim.npz --game 'nim.py:Nim((3, 4, 5))'
    """
    solved = _open(store, target, rules=False)
    if isinstance(solved, SavedSolution):
        counts = game_call("rules", solved.counts)
        stats: dict[str, Any] = {"total": counts.total,
                                 "by_value": {str(getattr(k, "value", k)): n
                                              for k, n in counts.by_value.items()},
                                 "by_remoteness": {("draw" if r is None else r): n
                                                   for r, n in counts.by_remoteness.items()}}
    else:
        stats = game_call("rules", tb_analyze, solved)
    if as_json:
        echo_json(stats)
        return
    click.echo(f"positions: {stats['total']:,}")
    for key, title in (("by_value", "by value"), ("by_remoteness", "by remoteness"),
                       ("by_tier", "by tier")):
        if key not in stats:
            continue
        click.echo(f"  {title}: " + ", ".join(f"{k}: {n:,}" for k, n in stats[key].items()))


@click.command()
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
    need_extra("pyarrow", "Parquet exports", "scale")
    folder = game_call("rules", export_parquet, store, out)
    click.echo(f"wrote {folder}")


@click.command()
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
        need_extra(module, "SQL queries", "scale")
    columns, rows = game_call("rules", sql_table, store, query_text)
    if as_json:
        echo_json([list(r) for r in rows])
        return
    if columns:  # the column names first, as DuckDB names them
        click.echo("\t".join(columns))
    for row in rows:
        click.echo("\t".join("" if v is None else str(v) for v in row))
