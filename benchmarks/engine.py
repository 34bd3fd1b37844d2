"""Engine throughput and memory, beside baselines run in the same process.

Cases (each runs in a fresh subprocess so its peak memory is its own):

- ``python``: Connect Four 4x5 written as a Python game with int positions, perfectplay's
  strong solve vs a plain memoised negamax (functools.cache) on the same game: time and
  bytes per position (peak RSS over the baseline after imports, / positions);
- ``python-tuples``: the same with tuple positions (no compact codes possible);
- ``c4-5x5``, ``c4-6x4``, ``c4-7x4``: Connect Four compiled, tier by tier;
- ``kalah``: Kalah(6, 2) compiled (``--kalah M N`` for another);
- ``kalah-python``: Kalah(4, 2) as a Python game with tuple positions, with the ``step``
  hook and without it, vs a memoised negamax that takes child and points from one call
  (``--kalah-python M N`` for another);
- ``counters``, ``torus``: the 10^6-position Python games of the first engine benchmark, vs
  memoised minimax and a plain Python retrograde pass.

    python benchmarks/engine.py [CASE ...]      # default: python c4-5x5 c4-6x4 kalah
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections import deque
from functools import cache

from perfectplay import Value, solve


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


# -- Connect Four as a Python game -----------------------------------------------------------
class ConnectFourInts:
    """Python protocol, positions as ints (Tromp's key: mover + mask + bottom)."""

    def __init__(self, w: int, h: int) -> None:
        self.w, self.h, self.h1 = w, h, h + 1
        self.bottom = sum(1 << (c * self.h1) for c in range(w))
        self.full = sum(((1 << h) - 1) << (c * self.h1) for c in range(w))
        self.col = (1 << self.h1) - 1
        self.tops = [1 << (c * self.h1 + h - 1) for c in range(w)]  # the top row

    def split(self, code: int) -> tuple[int, int]:
        b = self.bottom
        s = code | ((code & ~b) >> 1)
        s |= (s & ~(b * 3)) >> 2
        s |= (s & ~(b * 15)) >> 4
        mask = (s & ~b) >> 1
        return code - mask - b, mask

    def initial(self) -> int:
        return self.bottom

    def moves(self, code: int) -> list[int]:
        _, mask = self.split(code)
        return [c for c in range(self.w) if not mask & self.tops[c]]

    def play(self, code: int, c: int) -> int:
        mover, mask = self.split(code)
        mask2 = mask | (mask + self.bottom) & (self.col << (c * self.h1))
        return (mover ^ mask) + mask2 + self.bottom

    def outcome(self, code: int) -> Value | None:
        mover, mask = self.split(code)
        o = mover ^ mask
        for d in (1, self.h1, self.h, self.h + 2):
            m = o & (o >> d)
            if m & (m >> (2 * d)):
                return Value.LOSE
        return Value.TIE if mask == self.full else None


class ConnectFourTuples(ConnectFourInts):
    """The same game with positions as 1-tuples around the int: Python objects, no codes."""

    def initial(self):
        return (super().initial(),)

    def moves(self, p):
        return super().moves(p[0])

    def play(self, p, c):
        return (super().play(p[0], c),)

    def outcome(self, p):
        return super().outcome(p[0])


def memoised_negamax(game, cutoff: bool = False) -> tuple[int, float]:
    """The textbook baseline: the start's value only, each position once (functools.cache).
    ``cutoff``: stop at a position's first winning child (no better value exists): fewer
    positions visited, the other simplest negamax."""
    sys.setrecursionlimit(100_000)

    @cache
    def value(p):
        out = game.outcome(p)
        if out is not None:
            return -1 if out is Value.LOSE else 0
        if not cutoff:
            return max(-value(game.play(p, m)) for m in game.moves(p))
        best = -1
        for m in game.moves(p):
            best = max(best, -value(game.play(p, m)))
            if best == 1:
                break
        return best

    t = time.perf_counter()
    value(game.initial())
    return value.cache_info().currsize, time.perf_counter() - t


def case_python(kind: str) -> dict:
    game = (ConnectFourInts if kind == "ints" else ConnectFourTuples)(4, 5)
    solve(type(game)(3, 3))  # load the kernels outside the timing
    base = rss_mb()
    t = time.perf_counter()
    s = solve(game, progress=False)
    dt = time.perf_counter() - t
    n, peak = len(s), peak_mb()
    out = {"positions": n, "value": s.value().value, "remoteness": s.remoteness(),
           "seconds": dt, "bytes_per_position": (peak - base) * 2**20 / n}
    del s
    return out


def case_negamax(kind: str) -> dict:
    game = (ConnectFourInts if kind == "ints" else ConnectFourTuples)(4, 5)
    base = rss_mb()
    n, dt = memoised_negamax(game)
    out = {"positions": n, "seconds": dt,
           "bytes_per_position": (peak_mb() - base) * 2**20 / n}
    out["cutoff_positions"], out["cutoff_seconds"] = memoised_negamax(
        (ConnectFourInts if kind == "ints" else ConnectFourTuples)(4, 5), cutoff=True)
    return out


def case_compiled(game_expr: str) -> dict:
    from perfectplay.catalog.connect4 import ConnectFour
    from perfectplay.catalog.kalah import Kalah

    game = eval(game_expr, {"ConnectFour": ConnectFour, "Kalah": Kalah})  # noqa: S307
    base = rss_mb()
    t = time.perf_counter()
    s = solve(game, max_positions=10**10, progress=False)
    dt = time.perf_counter() - t
    v = s.value()
    return {"game": game_expr, "positions": len(s), "value": getattr(v, "value", v),
            "remoteness": s.remoteness(), "seconds": dt, "peak_mb": peak_mb(),
            "base_mb": base, "bytes_per_position": (peak_mb() - base) * 2**20 / len(s)}


# -- the 10^6-position Python games of the first benchmark ---------------------------------
class TwoCounters:
    """Acyclic: a position a*W + b; a move takes 1 or 2 from a, or 1 or 3 from b."""

    def __init__(self, w: int) -> None:
        self.w = w
        self.table = [[tuple(m for m, ok in ((-w, a >= 1), (-2 * w, a >= 2), (-1, b >= 1),
                                             (-3, b >= 3)) if ok)
                       for b in range(4)] for a in range(3)]

    def initial(self) -> int:
        return (self.w - 1) * self.w + (self.w - 1)

    def moves(self, p: int) -> tuple[int, ...]:
        a, b = divmod(p, self.w)
        return self.table[a if a < 2 else 2][b if b < 3 else 3]

    def play(self, p: int, m: int) -> int:
        return p + m

    def outcome(self, p: int) -> None:
        return None


class Torus:
    """Cyclic: a token on a W x W torus; a move steps right or down; some diagonal cells end
    the game, lost for the player to move there."""

    def __init__(self, w: int) -> None:
        self.w = w

    def initial(self) -> int:
        return 1

    def moves(self, p: int) -> tuple[int, int]:
        return (1, self.w)

    def play(self, p: int, m: int) -> int:
        x, y = divmod(p, self.w)
        return ((x + (m == self.w)) % self.w) * self.w + (y + (m == 1)) % self.w

    def outcome(self, p: int) -> Value | None:
        x, y = divmod(p, self.w)
        return Value.LOSE if x == y and (x * 7 + 3) % 5 == 0 else None


def plain_retrograde(game) -> tuple[int, float]:
    t = time.perf_counter()
    start = game.initial()
    seen, order = {start}, [start]
    kids: dict = {}
    parents: dict = {}
    i = 0
    while i < len(order):
        p = order[i]
        i += 1
        cs = [] if game.outcome(p) is not None else [game.play(p, m) for m in game.moves(p)]
        kids[p] = cs
        for c in cs:
            parents.setdefault(c, []).append(p)
            if c not in seen:
                seen.add(c)
                order.append(c)
    val, count = {}, {p: len(cs) for p, cs in kids.items()}
    q = deque(p for p in order if not kids[p])
    for p in q:
        val[p] = -1
    while q:
        c = q.popleft()
        for p in parents.get(c, ()):
            if p in val:
                continue
            if val[c] == -1:
                val[p] = 1
                q.append(p)
            else:
                count[p] -= 1
                if count[p] == 0:
                    val[p] = -1
                    q.append(p)
    return len(order), time.perf_counter() - t


def case_million(which: str) -> dict:
    game = TwoCounters(1000) if which == "counters" else Torus(1000)
    solve(type(game)(8))
    t = time.perf_counter()
    n = len(solve(game, progress=False))
    dt = time.perf_counter() - t
    if which == "counters":
        sys.setrecursionlimit(1_000_000)

        @cache
        def value(p):
            return max((-value(game.play(p, m)) for m in game.moves(p)), default=-1)

        tb = time.perf_counter()
        value(game.initial())
        tb = time.perf_counter() - tb
        nb = value.cache_info().currsize
    else:
        nb, tb = plain_retrograde(game)
    return {"positions": n, "seconds": dt, "baseline_positions": nb, "baseline_seconds": tb}


def memoised_scored_negamax(game) -> tuple[int, float]:
    """The baseline for a scored game with extra turns: the start's margin only, each
    position once, child and points from one ``step`` call."""
    sys.setrecursionlimit(100_000)

    @cache
    def value(p):
        out = game.outcome(p)
        if out is not None:
            return out
        best = None
        for m in game.moves(p):
            child, pts = game.step(p, m)
            v = value(child)
            s = pts + v if game.player(child) == game.player(p) else pts - v
            best = s if best is None or s > best else best
        return best

    t = time.perf_counter()
    value(game.initial())
    return value.cache_info().currsize, time.perf_counter() - t


def case_kalah_python(a) -> dict:
    """Kalah(m, n) as a Python game (tuple positions): the Python door with ``step``, then
    without it (``play`` and ``payoff`` apart), against the memoised negamax, each the best
    of three runs in this process."""
    from perfectplay.catalog.kalah import KalahPy

    class NoStep(KalahPy):
        step = None

    m, n = a.kalah_python
    solve(KalahPy(2, 2), method="python")  # load the kernels outside the timing
    out: dict = {"game": f"Kalah({m}, {n})"}
    for name, make in (("step", KalahPy), ("play+payoff", NoStep)):
        times = []
        for _ in range(3):
            t = time.perf_counter()
            s = solve(make(m, n), method="python", progress=False)
            times.append(time.perf_counter() - t)
        out[name] = min(times)
        out["positions"], out["value"] = len(s), s.value()
    out["negamax"] = min(memoised_scored_negamax(KalahPy(m, n))[1] for _ in range(3))
    return out


CASES = {
    "python": lambda a: {"perfectplay": case_python("ints"), "negamax": case_negamax("ints")},
    "python-tuples": lambda a: {"perfectplay": case_python("tuples"),
                                "negamax": case_negamax("tuples")},
    "c4-5x5": lambda a: case_compiled("ConnectFour(5, 5)"),
    "c4-6x4": lambda a: case_compiled("ConnectFour(6, 4)"),
    "c4-7x4": lambda a: case_compiled("ConnectFour(7, 4)"),
    "kalah": lambda a: case_compiled(f"Kalah({a.kalah[0]}, {a.kalah[1]})"),
    "kalah-python": case_kalah_python,
    "counters": lambda a: case_million("counters"),
    "torus": lambda a: case_million("torus"),
}


def report(name: str, r: dict) -> str:
    if name.startswith("python"):
        p, b = r["perfectplay"], r["negamax"]
        return (f"{name}: Connect Four 4x5, {p['positions']:,} positions, {p['value']} in "
                f"{p['remoteness']}: perfectplay {p['seconds']:.1f} s, "
                f"{p['bytes_per_position']:.0f} B/position; memoised negamax "
                f"{b['seconds']:.1f} s, {b['bytes_per_position']:.0f} B/position; time ratio "
                f"{p['seconds'] / b['seconds']:.2f}x; against the negamax that stops at a "
                f"winning child ({b['cutoff_positions']:,} positions, "
                f"{b['cutoff_seconds']:.1f} s) {p['seconds'] / b['cutoff_seconds']:.2f}x")
    if name == "kalah-python":
        b = r["negamax"]
        return (f"{name}: {r['game']} as a Python game, {r['positions']:,} positions, "
                f"{r['value']:+}: with step {r['step']:.2f} s ({r['step'] / b:.2f}x), with "
                f"play and payoff {r['play+payoff']:.2f} s ({r['play+payoff'] / b:.2f}x); "
                f"memoised negamax {b:.2f} s")
    if name in ("counters", "torus"):
        return (f"{name}: {r['positions']:,} positions in {r['seconds']:.2f} s = "
                f"{r['positions'] / r['seconds']:,.0f} pos/s; baseline "
                f"{r['baseline_positions'] / r['baseline_seconds']:,.0f} pos/s")
    return (f"{r['game']}: {r['positions']:,} positions, {r['value']} in {r['remoteness']}, "
            f"{r['seconds']:.1f} s, peak {r['peak_mb']:,.0f} MB "
            f"({r['bytes_per_position']:.1f} B/position over {r['base_mb']:.0f} MB at start)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cases", nargs="*", metavar="CASE",
                    help=f"any of {', '.join(CASES)} (default: python c4-5x5 c4-6x4 kalah)")
    ap.add_argument("--kalah", nargs=2, type=int, default=[6, 2], metavar=("M", "N"))
    ap.add_argument("--kalah-python", nargs=2, type=int, default=[4, 2], metavar=("M", "N"))
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(CASES[args.child](args)))
        return
    unknown = [c for c in args.cases if c not in CASES]
    if unknown:
        ap.error(f"unknown case(s) {', '.join(unknown)}; choose from {', '.join(CASES)}")
    for name in args.cases or ["python", "c4-5x5", "c4-6x4", "kalah"]:
        cmd = [sys.executable, __file__, "--child", name, "--kalah", *map(str, args.kalah),
               "--kalah-python", *map(str, args.kalah_python)]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode:
            print(f"{name}: failed\n{out.stderr}", file=sys.stderr)
            continue
        print(report(name, json.loads(out.stdout.strip().splitlines()[-1])), flush=True)


if __name__ == "__main__":
    main()
