"""df-pn beside alpha-beta on who wins: nodes and CPU seconds of both in one run.

For each board: alpha-beta's ``search(value_only=True)`` (the winner alone: one null window
for a game that cannot tie, two for a tie) and, for a game that can tie, its one null
window "does the first player win?" alone; then df-pn (:func:`perfectplay.engine.proof.dfpn.prove`)
in the settings asked (``--settings``): Nagai's df-pn with the 1 + epsilon trick and first
numbers 1 ("plain"), first disproof numbers from the child's moves ("mobility", the
default), that with Ueda et al.'s weak disproof numbers ("weak"), and mobility with only
expanded nodes kept in the table ("made"). Each line: the value, df-pn's expansions
(its nodes) and the children it made and looked up, the process's user CPU seconds (the
kernels compiled first and not counted), and the ratios to alpha-beta's nodes and CPU.
Every df-pn answer is checked against alpha-beta's (exit status 1 when one differs).

``--replacement`` compares the tables' rule for a full bucket, the one shipped (the entry
whose subtree cost less work goes) against always-replace (the older entry goes), for
both searches, on a table small enough to be under pressure and on the default 64 MB:
alpha-beta's always-replace is kernel.py's own source with that one rule changed, loaded
as a separate module for the run (kernel.py itself is not edited).

    python benchmarks/dfpn.py                          # the default boards
    python benchmarks/dfpn.py --boards d8x8 --time 600
    python benchmarks/dfpn.py --replacement --boards d7x6,c5x4

Node counts are exact and repeatable (one thread, a fresh table each run); CPU seconds on
a shared machine are not.
"""

from __future__ import annotations

import argparse
import importlib.util
import resource
import sys
import tempfile
from pathlib import Path
from typing import Any

from perfectplay import search
from perfectplay.engine.proof import backends
from perfectplay.engine.proof import kernel as sk
from perfectplay.engine.proof.backends import Budget, CompiledBackend
from perfectplay.engine.proof.dfpn import prove
from perfectplay.engine.proof.driver import clear_table
from perfectplay.engine.proof.limits import Limits
from perfectplay.games import connect4, domineering, hexapawn, tictactoe

BOARDS: dict[str, Any] = {
    "tictactoe": tictactoe, "hexapawn": hexapawn,
    "c4x5": lambda: connect4(width=4, height=5), "c5x4": lambda: connect4(width=5, height=4),
    "c5x5": lambda: connect4(width=5, height=5),
    **{f"d{r}x{c}": (lambda r=r, c=c: domineering(rows=r, cols=c))
       for r, c in [(6, 6), (7, 6), (7, 7), (8, 7), (6, 9), (8, 8)]},
}
DEFAULT = "tictactoe,hexapawn,c4x5,c5x4,c5x5,d6x6,d7x6,d7x7,d8x7,d6x9"
SETTINGS = {"plain": {"init": "one"}, "mobility": {"init": "mobility"},
            "weak": {"init": "mobility", "disproof": "weak"},
            "made": {"init": "mobility", "first": "made"}}


def cpu() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_utime


def alphabeta(game: Any, table_mb: float, seconds: float) -> tuple[Any, int, float]:
    """(value or None, nodes, CPU seconds) of value-only alpha-beta from a fresh table."""
    clear_table()
    search(game, value_only=True, node_limit=1, table_mb=table_mb)  # compile first
    clear_table()
    began = cpu()
    r = search(game, value_only=True, table_mb=table_mb, time_limit=seconds, check=False)
    return (r.value if r.exact else None), r.nodes, cpu() - began


def alphabeta_win(game: Any, table_mb: float, seconds: float) -> tuple[Any, int, float]:
    """(True when the first player wins, nodes, CPU seconds) of alpha-beta's one null
    window (0, 1): the question df-pn's first run asks."""
    clear_table()
    limits = Limits(table_mb=table_mb, time_limit=seconds)
    backend = CompiledBackend(game, limits, None)
    try:
        backend.warm(game.initial(), False)
        budget = Budget.of(limits)
        began = cpu()
        score, _ = backend.probe(game.initial(), 0, 1, budget)
        return score >= 1, budget.nodes, cpu() - began
    finally:
        backend.close()
        clear_table()


def dfpn(game: Any, table_mb: float, seconds: float, **options: Any) -> tuple[Any, Any, float]:
    prove(game, node_limit=1, table_mb=1, **options)  # compile first
    began = cpu()
    r = prove(game, table_mb=table_mb, time_limit=seconds, check=False, **options)
    return r.value, r, cpu() - began


def ratio(a: float, b: float) -> str:
    return f"{a / b:,.2f}x" if b else "-"


def compare(names: list[str], table_mb: float, seconds: float, settings: list[str]) -> bool:
    ok = True
    print(f"table {table_mb:,g} MB, {seconds:,g} s a run at most")
    for name in names:
        game = BOARDS[name]()
        value, nodes, secs = alphabeta(game, table_mb, seconds)
        print(f"{name:10} alpha-beta value-only  {str(value):5} {nodes:>13,} nodes "
              f"{secs:8.2f} s", flush=True)
        ab_nodes, ab_secs = nodes, secs
        if not getattr(game, "cannot_tie", False):
            wins, n1, s1 = alphabeta_win(game, table_mb, seconds)
            print(f"{'':10} alpha-beta 'win?'      {str(wins):5} {n1:>13,} nodes "
                  f"{s1:8.2f} s", flush=True)
        for label in settings:
            options = SETTINGS[label]
            v, r, s = dfpn(game, table_mb, seconds, **options)
            win_nodes = r.answers[0][2] if r.answers else 0
            print(f"{'':10} df-pn {label:9}        {str(v):5} {r.nodes:>13,} nodes "
                  f"{s:8.2f} s  ({r.evaluated:,} children; 'win?' {win_nodes:,} nodes) "
                  f"nodes {ratio(r.nodes, ab_nodes)}, CPU {ratio(s, ab_secs)}", flush=True)
            if v is not None and value is not None and v != value:
                print(f"  WRONG: df-pn says {v}, alpha-beta {value}")
                ok = False
    return ok


def always_kernel() -> Any:
    """kernel.py's source with one rule changed, as a module of its own: a full bucket's
    new entry takes the first slot and the first slot's entry moves to the second."""
    source = Path(sk.__file__).read_text()
    old = "            target = b if unpack(first)[3] <= unpack(second)[3] else b + 2\n"
    new = ("            table[b + 2] = table[b]\n            table[b + 3] = table[b + 1]\n"
           "            target = b\n")
    if old not in source:
        raise SystemExit("kernel.py's replacement rule has changed: update this benchmark")
    path = Path(tempfile.mkdtemp()) / "kernel_always.py"
    path.write_text(source.replace(old, new))
    spec = importlib.util.spec_from_file_location("perfectplay.engine.proof.kernel_always",
                                                  path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "perfectplay.engine.proof"
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def replacement(names: list[str], small_mb: float, seconds: float) -> None:
    patched = always_kernel()
    for name in names:
        game = BOARDS[name]()
        for mb in (small_mb, 64.0):
            line = [f"{name:10} {mb:>8,g} MB"]
            for rule, kernel in (("work", sk), ("always", patched)):
                backends.sk = kernel  # alpha-beta's table rule for this run
                try:
                    value, nodes, secs = alphabeta(game, mb, seconds)
                finally:
                    backends.sk = sk
                line.append(f"alpha-beta {rule}: {str(value):5} {nodes:>11,} ({secs:.2f} s)")
            for rule in ("work", "always"):
                v, r, s = dfpn(game, mb, seconds, replace=rule)
                line.append(f"df-pn {rule}: {str(v):5} {r.nodes:>11,} ({s:.2f} s)")
            print("  ".join(line), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", default=DEFAULT,
                        help=f"comma-separated, of {', '.join(BOARDS)}")
    parser.add_argument("--table-mb", type=float, default=256)
    parser.add_argument("--time", type=float, default=300, help="seconds a run at most")
    parser.add_argument("--settings", default="plain,mobility,weak",
                        help=f"df-pn's settings, comma-separated, of {', '.join(SETTINGS)}")
    parser.add_argument("--replacement", action="store_true",
                        help="compare the tables' replacement rules instead")
    parser.add_argument("--small-mb", type=float, default=0.0625,
                        help="the table under pressure (--replacement)")
    args = parser.parse_args()
    names = [n.strip() for n in args.boards.split(",") if n.strip()]
    unknown = [n for n in names if n not in BOARDS]
    if unknown:
        parser.error(f"unknown board {unknown[0]}; boards: {', '.join(BOARDS)}")
    if args.replacement:
        replacement(names, args.small_mb, args.time)
        return
    settings = [n.strip() for n in args.settings.split(",") if n.strip()]
    if any(n not in SETTINGS for n in settings):
        parser.error(f"settings: of {', '.join(SETTINGS)}")
    if not compare(names, args.table_mb, args.time, settings):
        sys.exit(1)


if __name__ == "__main__":
    main()
