"""The contest tools: ``judge`` answers a judge's input, ``gen`` writes valid input,
``stress`` runs your solution against perfectplay, ``check`` grades an output."""

from __future__ import annotations

import os
import sys

import click

from ..gen import generate
from ..judge import problems
from ..judge import run as judge_run
from ..stress import check as run_check
from ..stress import stress as run_stress
from .base import EXIT_INPUT, echo_json, fail, read_text, terminal_progress


# -- judges ----------------------------------------------------------------------------------
@click.command()
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
        fail(f"unknown problem {problem!r}; see perfectplay judge --list", 2)
    result = judge_run(problem, read_text(file), lenient)
    sys.stdout.write(result.output())
    sys.stdout.flush()  # answers first, then the notes and errors on stderr
    for note in result.notes:
        click.echo(note, err=True)
    for err in result.errors:
        click.echo(f"perfectplay: error: {err}", err=True)
    if result.errors:
        sys.exit(EXIT_INPUT)


# -- contest tools -----------------------------------------------------------------------------
@click.command()
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


@click.command(context_settings={"ignore_unknown_options": True})
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
                        jobs or os.cpu_count() or 1, progress=terminal_progress())
    if as_json:
        echo_json(report.to_json())
    else:
        click.echo(report.text())
    if report.failure is not None:
        sys.exit(EXIT_INPUT)


@click.command()
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
    result = run_check(problem, read_text(input_file), read_text(output_file))
    if as_json:
        echo_json(result.to_json())
    else:
        click.echo(result.text())
    if result.failed:
        sys.exit(EXIT_INPUT)
