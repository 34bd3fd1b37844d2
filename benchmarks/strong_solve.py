"""Where a compiled strong solve spends its time: Connect Four tier by tier, phase by phase.

The tier solver (:mod:`perfectplay.engine.tiers.solver`) runs two sweeps; this script times
each of their parts by wrapping the solver's own functions (the engine carries no timing
code), in CPU seconds (every thread's, user + system: comparable on a shared machine, where
wall time is mostly the other processes) and wall seconds:

- forward: ``expand`` (a tier's children generated into a buffer), ``file`` (the children
  inserted into the tables of their tiers, the tables growing as they fill), ``repack`` (a
  finished tier's table rebuilt at load 0.8);
- backward: ``solve`` (each tier's positions valued from the tiers above: the children
  generated again and looked up).

It then prints the start's value and remoteness and a digest of every position's value and
remoteness (tier by tier, codes sorted), so that a change of the solver can be checked to
give the same answers bit for bit.

    python benchmarks/strong_solve.py [WIDTH HEIGHT]     # default 5 4; the issue's case: 5 5
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.engine.tiers import TierSolution
from perfectplay.engine.tiers import solver as tiers_solver

#: phase -> [CPU seconds, wall seconds, calls]
Totals = dict[str, list[float]]


def timed(fn: Callable[..., Any], phase: str, totals: Totals) -> Callable[..., Any]:
    """``fn``, adding its CPU and wall time to ``totals[phase]`` at each call."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        c, t = time.process_time(), time.perf_counter()
        out = fn(*args, **kwargs)
        row = totals.setdefault(phase, [0.0, 0.0, 0])
        row[0] += time.process_time() - c
        row[1] += time.perf_counter() - t
        row[2] += 1
        return out
    return wrapper


def instrument(totals: Totals) -> None:
    """Wrap the solver's phases (module attributes its sweeps look up at each call)."""
    s = tiers_solver
    s.key_rebuild = timed(s.key_rebuild, "forward: repack", totals)
    s._file_children = timed(s._file_children, "forward: file", totals)
    s._solve_tier = timed(s._solve_tier, "backward: solve", totals)
    door = s.kernel_door

    def timed_door(rules: Any, plain: Any, cached: Any) -> tuple[Any, object]:
        kernel, arg = door(rules, plain, cached)
        if isinstance(kernel, tuple):  # the backward's pair: timed as a whole above
            return kernel, arg
        return timed(kernel, "forward: expand", totals), arg
    s.kernel_door = timed_door


def digest(tiers: tiers_solver.Tiers) -> str:
    """A digest of every position's value and remoteness, tier by tier, codes sorted."""
    h = hashlib.sha256()
    for i, keys in enumerate(tiers.keys):
        used = keys != tiers_solver.EMPTY
        codes = keys[used]
        order = np.argsort(codes)
        h.update(codes[order].tobytes())
        h.update(tiers.values[i][used][order].tobytes())
        h.update(tiers.rems[i][used][order].astype(np.int64).tobytes())
    return h.hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("width", nargs="?", type=int, default=5)
    ap.add_argument("height", nargs="?", type=int, default=4)
    args = ap.parse_args()
    game = ConnectFour(args.width, args.height)
    totals: Totals = {}
    instrument(totals)
    c0, t0 = time.process_time(), time.perf_counter()
    tiers = tiers_solver.enumerate_tiers(game, 10**10, False)
    c1, t1 = time.process_time(), time.perf_counter()
    tiers = tiers_solver.solve_tiers(game, tiers, False)
    c2, t2 = time.process_time(), time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Connect Four {args.width}x{args.height}: {tiers.total:,} positions in "
          f"{len(tiers.sizes)} tiers (the largest {max(tiers.sizes):,})")
    print(f"forward   CPU {c1 - c0:7.2f} s  wall {t1 - t0:7.2f} s")
    print(f"backward  CPU {c2 - c1:7.2f} s  wall {t2 - t1:7.2f} s   peak {peak:,.0f} MB")
    for phase, (cpu, wall, calls) in sorted(totals.items()):
        print(f"  {phase:18s} CPU {cpu:7.2f} s  wall {wall:7.2f} s  ({int(calls)} calls)")
    solution = TierSolution(game, tiers)
    print(f"start: {solution.value()} in {solution.remoteness()}; digest {digest(tiers)}")


if __name__ == "__main__":
    main()
