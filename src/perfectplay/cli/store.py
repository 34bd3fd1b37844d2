"""The commands over a solved store or a saved solution: ``query``, ``verify``,
``analyze``, ``export`` and ``sql``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..engine.saved import load as load_solution
from ..engine.solution import position_of
from ..store import analyze as tb_analyze
from ..store import export_parquet, open_store
from ..store import query as tb_query
from ..store import sql as tb_sql
from ..textio import Token, parse_int
from .base import echo_json, fail, game_call, need_extra


# -- tablebase ---------------------------------------------------------------------------------
@click.command()
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
            fail("--raw needs POSITION, the encoded integer")
        code = parse_int(Token(position, 1, 1), "an integer (--raw)", -(2**63), 2**63 - 1)
        row = game_call("rules", tb_query, store, [code])[0]
        if not row["found"]:
            fail(f"code {code} is not in the store: not reachable from the start")
        if as_json:
            echo_json(row)
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
        fail("--raw reads a store's codes; give a saved solution's POSITION or --moves")
    _show_position(game_call("rules", load_solution, path), position, moves, as_json)


def _show_position(solved: Any, position: str | None, moves: str | None,
                   as_json: bool) -> None:
    """A queried position of a store or saved solution: JSON, or its drawing and words."""
    pos = game_call("rules", position_of, solved.game, position, moves)
    if as_json:
        echo_json(game_call("rules", solved.to_json, pos))
        return
    picture = game_call("draw", solved.draw, pos)
    if picture:
        click.echo(picture)
    click.echo(game_call("rules", solved.explain, pos))


@click.command()
@click.argument("solved", metavar="STORE|SAVED", type=click.Path(exists=True))
@click.option("--sample", default="100000", show_default=True,
              help="How many positions to check, drawn at random; 'all' checks every one "
                   "(the full proof).")
@click.option("--seed", default=0, show_default=True, help="The random sample's seed.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def verify(solved: str, sample: str, seed: int, as_json: bool) -> None:
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
    if Path(solved).is_file():
        report = game_call("rules", lambda: load_solution(solved).verify(count, seed))
    else:
        with open_store(solved) as tb:
            report = game_call("rules", tb.verify, count, seed)
    if as_json:
        echo_json(report.to_json())
    else:
        click.echo(report.explain())
    if not report.ok:
        sys.exit(1)


@click.command()
@click.argument("store", type=click.Path(exists=True, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
def analyze(store: str, as_json: bool) -> None:
    """Counts of a solved STORE by value, remoteness and tier.

    \b
    Example:
      perfectplay analyze tb/
    """
    stats = game_call("rules", tb_analyze, store)
    if as_json:
        echo_json(stats)
        return
    click.echo(f"positions: {stats['total']:,}")
    for key, title in (("by_value", "by value"), ("by_remoteness", "by remoteness"),
                       ("by_tier", "by tier")):
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
    rows = game_call("rules", tb_sql, store, query_text)
    if as_json:
        echo_json([list(r) for r in rows])
        return
    for row in rows:
        click.echo("\t".join("" if v is None else str(v) for v in row))
