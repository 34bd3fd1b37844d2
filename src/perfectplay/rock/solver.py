"""The fast exact solver for The Rock (UVa 10381).

1. d = BFS distance to the exit X over walkable cells.
2. Unique-parent lemma: only a cell u with exactly one parent p != X can be hurt by a block
   next to it, and only by blocking p; then the threat is T(u) = dist(u -> X in G - p),
   else T(u) = d(u).
3. First what decides cheaply that the hybrid below is not needed: the shortest possible
   detours (d + 2 on a grid) by looking two cells around
   (:func:`perfectplay.rock.kernels._short_detour`), else a search of at most
   ``QUICK_SEARCH`` pops; on a random maze these settle nearly every cell.
   T(u) is infinite when p separates u from X (cut vertex, low-points, found only once
   needed); otherwise heavy children (largest subtree) first, by a short detour search or
   else the heavy/light formula (:func:`perfectplay.rock.kernels.heavy_threat`); only
   children by the exits below them (also a chain's cells once its shared search runs out
   of the heavy budget: they are only children); light children by an exact
   vertex-failure detour search (:func:`perfectplay.rock.kernels.detour`) that stops on
   what their siblings' detours already tell (bounds and exact anchor paths); long
   searches switch to a stronger consistent heuristic (:func:`perfectplay.rock.kernels._potential`).
4. f(u) = max(T(u), 1 + min_v f(v)) by label setting, f(X) = 0.

All four in one compiled kernel (:func:`perfectplay.rock.kernels.solve`).

The walker's guaranteed steps from E are f(E). Total time O(n k) on random mazes; heavy
and only children cost O(n log n) in all; light children's searches have no proven bound
inside their heavy sibling's subtree on mazes built against them (docs/algorithms.md, "The
Rock"; measured in benchmarks/rock_adversary.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ..errors import InputError
from ..seedrun import SeedRun, Tracer, disagree, seed_requested, timed, warm_seconds
from . import kernels, seed
from .model import Maze, RockOptions
from .result import RockSolution

INFINITE = -1
#: Pops a heavy child's detour search may take (at least) before the heavy/light formula
#: answers instead. The formula needs every cell's exits (O(m), about two BFS), found when a
#: first heavy search runs out of ``HEAVY_BUDGET``; from then on the budget is
#: ``EXITS_BUDGET``, since the formula costs only a pass and a Dijkstra over the light
#: subtrees; and never less than ``LIGHT_FACTOR`` times their size. Random mazes settle in
#: 2-3 pops and never pay for the exits.
HEAVY_BUDGET = 128
EXITS_BUDGET = 8
LIGHT_FACTOR = 1
#: Once the searches have popped this many cells per open cell, every cell's exits are
#: found (O(m), about 50 ms at 10^6 cells) and the later searches use the stronger
#: heuristic; random mazes with few walls never get there.
LONG_SEARCH = 2
#: Settle the shortest possible detours (d + 1, d + 2) by looking two cells around, with no
#: search (:func:`perfectplay.rock.kernels._short_detour`): most unique-parent cells of a
#: random maze. The tests turn it off to send every cell through the searches and formula.
SHORT_DETOURS = True
#: Before a cell goes to the hybrid (heavy or light, chains, the separation test), a search
#: of at most this many pops: on random mazes nearly every cell the shortest detours leave
#: settles here.
QUICK_SEARCH = 16
#: The low-points (O(n k), about two BFS) are found only when needed: until then a cell cut
#: off from X costs a search that empties its pocket (finding -1 all the same); random
#: mazes' pockets are small.
LAZY_CUTS = True
#: Both gambles stop paying once they have lost n / WASTE pops (n reached cells): the quick
#: searches that ran out, the searches that emptied a pocket before the low-points were
#: found. So an adversary gains at most 2 n / WASTE pops, plus one search, from them.
WASTE = 16


@dataclass(frozen=True)
class SolveStats:
    """What the solver did (for tests and benchmarks): the detour searches' pops, the pops
    of light children's searches (the part with no proven bound), the heavy children the
    formula answered, the cells whose shortest possible detour was found with no search
    (``short``) and those a quick search settled (``quick``), and whether the low-points
    were needed, and the chain cells the only-child rule answered after their chain's
    shared search ran out of the hybrid's budget (``chain_cuts``)."""

    pops: int
    light_pops: int
    formula: int
    short: int = 0
    quick: int = 0
    lowpoints: bool = True
    chain_cuts: int = 0


def analyze(maze: Maze, options: RockOptions | None = None) -> RockSolution:
    """Solve The Rock exactly for every cell (the options change how the result is shown,
    never the answer).

    >>> from perfectplay.rock.model import parse_maze
    >>> analyze(parse_maze("..X.\\n.##.\\n.E..")).value
    11
    """
    opts = options or RockOptions()
    if not seed_requested(opts.method, opts.trace, "fast"):
        return solve_with_stats(maze)[0]
    seed.check_size(maze)
    sol = solve_with_stats(maze)[0]
    return replace(sol, seed=_seed_run(maze, sol, opts.trace))


def _seed_run(maze: Maze, sol: RockSolution, trace: bool) -> SeedRun:
    """The seed's BFSs and sweeps (traced when asked), checked cell by cell against the
    fast solution."""
    fast_seconds = warm_seconds(lambda: solve_with_stats(maze))
    tracer = Tracer(trace)
    (f, work), seconds = timed(lambda: seed.seed_values_counted(maze, tracer))
    for u, fv in f.items():
        want = -1 if fv == math.inf else int(fv)
        if int(sol.f[u]) != want:
            raise disagree(f"the rock at {maze.name(u)}", fv, int(sol.f[u]))
    return SeedRun("f(u) = max(min 1 + f(v), max g(u, v)) swept until nothing changes, g by "
                   "one BFS per blocked cell", "O(n^2 + sweeps x n)", work=work,
                   unit="BFS visits and cell updates", seconds=seconds,
                   fast_seconds=fast_seconds, steps=tracer.steps if trace else None,
                   dropped=tracer.dropped, shape=(maze.rows, maze.cols))


def solve_with_stats(maze: Maze, *, chains: bool = True, heavy: bool = True
                      ) -> tuple[RockSolution, SolveStats]:
    """:func:`analyze` with the benchmark switches and its statistics: ``chains=False``
    turns off the corridor sharing of the detour search, ``heavy=False`` the heavy/light
    hybrid (the formula, the only-child rule and the siblings' bounds: the search alone,
    slower on corridors and adversarial mazes; for comparison only). The judge, the maze
    families and the benchmarks read the statistics.

    >>> from perfectplay.rock.model import parse_maze
    >>> solution, stats = solve_with_stats(parse_maze("..X.\\n.##.\\n.E.."))
    >>> solution.value, stats.pops >= 0
    (11, True)
    """
    if not isinstance(maze, Maze):
        raise InputError(f"analyze() takes a Maze (see parse_maze), got {type(maze).__name__}")
    budgets = kernels.Budgets(HEAVY_BUDGET if heavy else 0, LONG_SEARCH, LIGHT_FACTOR,
                              EXITS_BUDGET, SHORT_DETOURS, QUICK_SEARCH, LAZY_CUTS,
                              WASTE)
    tree, block, found, f, step = kernels.solve(maze.nb, maze.open, maze.exit, chains,
                                                budgets)
    return (RockSolution(maze, f, tree.dist, found.T, block, step),
            SolveStats(int(found.pops), int(found.light_pops), int(found.formula),
                       int(found.short), int(found.quick), bool(found.lowpoints),
                       int(found.chain_cuts)))


def bfs_tree(maze: Maze) -> tuple[kernels.Tree, np.ndarray]:
    """The BFS tree toward X (:class:`~.kernels.Tree`) and each cell's unique parent (-1:
    none, or several), by one BFS and one Euler tour.

    >>> from perfectplay.rock.model import parse_maze
    >>> tree, unique = bfs_tree(parse_maze("E.X"))
    >>> tree.dist.tolist(), unique.tolist()
    ([2, 1, 0], [1, 2, -1])
    """
    dist, order, parent, unique = kernels.bfs_tree(maze.nb, maze.open, maze.exit)
    tin, tout = kernels.euler_intervals(parent, order)
    return kernels.Tree(dist, parent, tin, tout, order), unique
