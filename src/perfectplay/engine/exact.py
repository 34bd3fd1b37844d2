"""The exact solvers behind :func:`~perfectplay.engine.solve`: discovery (Python or compiled,
or tier by tier), then retrograde analysis, margins or label setting for the kind of game.
Unchecked: :func:`~perfectplay.engine.solve` runs the default check first; the check itself
(:mod:`.check`) solves through here, so that the two need no circle of imports."""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np
from numba.core.errors import NumbaError

from ..errors import GameError, show
from .compiled import (
    CompiledGame,
    discover_cached,
    discover_compiled,
    label_setting_int64,
    negamax_int64,
    retrograde,
    static_rules,
    topological_order,
)
from .discovery import (
    GameGraph,
    discover,
    position_limit,
    refuse_too_big,
    solve_path,
    turn_parity,
)
from .protocol import Game, Method, capabilities, check_method
from .solved import COST, MARGIN, WINLOSE, Solution, cost_players, label_setting, negamax_acyclic
from .status import OK, raise_status
from .tiers import TierSolution, enumerate_tiers, solve_tiers


def solve_exact(game: Game | CompiledGame, *, max_positions: int | None = None,
                progress: bool | None = None, method: Method = "auto"
                ) -> Solution | TierSolution:
    """:func:`~perfectplay.engine.solve` without its check: the solver for ``method``
    (see there), on a game taken as it is."""
    check_method(method)
    caps = capabilities(game)  # before any work: a game whose known count cannot fit
    refuse_too_big(caps, solve_path(caps, isinstance(game, CompiledGame), method),
                   max_positions)
    if isinstance(game, CompiledGame) and method != "python":
        tiered = method == "tiers" or (method == "auto" and game.tiered)
        if max_positions is None:
            max_positions = position_limit("tiers" if tiered else "graph")
        if tiered and not game.tiered:
            raise GameError(f"{game.name} defines no tier(): use method='graph'")
        try:
            return _solve_compiled(game, tiered, max_positions, progress)
        except NumbaError as exc:
            raise GameError(_compile_failure(game, exc)) from None
    if method in ("graph", "tiers"):
        raise GameError(f"method={show(method)} needs a CompiledGame")
    graph = discover(cast(Game, game), max_positions=max_positions, progress=progress)
    return solve_graph(game, graph)


def _solve_compiled(game: CompiledGame, tiered: bool, max_positions: int,
                    progress: bool | None) -> Solution | TierSolution:
    if tiered:
        tiers = enumerate_tiers(game, max_positions, progress)
        return TierSolution(game, solve_tiers(game, tiers, progress))
    return solve_graph(game, discover_graph(game, max_positions))


def _compile_failure(game: CompiledGame, exc: Exception) -> str:
    """numba's first complaint (with the source lines it points at), in one error."""
    lines = [ln for ln in str(exc).splitlines() if ln.strip()]
    lines = [ln for ln in lines if not ln.startswith("Failed in nopython mode")]
    cut = next((i for i, ln in enumerate(lines) if ln.startswith("During:")), len(lines))
    detail = "\n".join(lines[:min(cut, 12)])
    return (f"{game.name}: numba could not compile the game's functions. Compiled games "
            "take and return ints only: outcome returns ONGOING, WIN, LOSE or TIE from "
            "perfectplay.engine (not Value members), moves writes into out and returns a "
            f"count. numba says:\n{detail}")


def discover_graph(game: CompiledGame, max_positions: int) -> GameGraph:
    """Compiled discovery of every reachable position into a :class:`GameGraph`."""
    r, start = game.rules, np.int64(game.start_code)
    static = static_rules(r)  # the kernel cached on disk, if the rules have a digest
    if static is not None:
        found = discover_cached(start, static, game.scored, game.has_player, game.max_moves,
                                max_positions)
    else:
        found = discover_compiled(start, r.moves, r.play, r.outcome, r.score, r.payoff,
                                  r.player, game.scored, game.has_player, game.max_moves,
                                  max_positions)
    status, bad, codes, slots, offsets, children, terminal, pays, finals, who = found
    raise_status(int(status), int(bad), game, max_positions)
    return GameGraph(game=game, offsets=offsets,
                     children=children.astype(np.int32) if codes.size < 2**31 else children,
                     terminal=terminal, scored=game.scored,
                     payoffs=pays if game.scored else None,
                     finals=finals if game.scored else None,
                     player=who if game.has_player else None, codes=codes, slots=slots)


def solve_graph(game: Game, graph: GameGraph) -> Solution:
    """Solve an already discovered game graph (see :func:`solve`)."""
    graph.numpy()  # the kernels take numpy arrays
    if not graph.scored:
        rev_off, rev_src, _ = graph.reverse()
        alternate = graph.player is None
        movers = graph.player if graph.player is not None else np.zeros(1, np.int8)
        values, rems = retrograde(graph.offsets, graph.children, rev_off, rev_src,
                                  graph.terminal, movers, alternate)
        return Solution(game, graph, WINLOSE, values, rems, cyclic=None)
    rev_off, rev_src, rev_edge = graph.reverse(with_edges=True)
    order, k = topological_order(graph.offsets, rev_off, rev_src)
    if k == graph.size:
        return Solution(game, graph, MARGIN, *_margins(graph, order), cyclic=False)
    player = graph.player
    if player is None:
        player, conflict = turn_parity(graph)
        if conflict is not None:
            a, b = conflict
            raise GameError(
                "a cyclic scored game must say whose turn it is: positions "
                f"{graph.position(a)!r} and {graph.position(b)!r} are joined by a move but "
                "are both reached after an even (or both after an odd) number of moves; "
                "define player(pos)")
    payer = cost_players(graph, player)
    margins, rems = _costs(graph, player, payer, rev_off, rev_src, rev_edge)
    return Solution(game, graph, COST, margins, rems, player=player, payer=payer, cyclic=True)


def _costs(graph: GameGraph, player: np.ndarray, payer: int, rev_off: np.ndarray,
           rev_src: np.ndarray, rev_edge: np.ndarray) -> tuple[list[Any], list[int | None]]:
    """Margins of a cost game: the int64 numba kernel when the numbers are int64 and nothing
    overflows, else exact Python (which also words a payoff of the wrong sign)."""
    if isinstance(graph.payoffs, np.ndarray) and isinstance(graph.finals, np.ndarray):
        status, _, cost, rem, fixed = label_setting_int64(
            graph.offsets, rev_off, rev_src, rev_edge, graph.payoffs, graph.finals,
            player.astype(np.int8), payer)
        if status == OK:
            mine = player == payer
            margins = np.where(mine, -cost, cost).astype(object)
            margins[~fixed & mine] = -math.inf
            margins[~fixed & ~mine] = math.inf
            rems = np.where(fixed, rem, -1)
            return margins.tolist(), [None if r < 0 else r for r in rems.tolist()]
    return label_setting(graph, player, payer, rev_off, (rev_src, rev_edge))


def _margins(graph: GameGraph, order: np.ndarray) -> tuple[Any, Any]:
    """Margins of an acyclic scored game: int64 in numba when the numbers are int64 and no
    sum overflows, else exact Python arithmetic."""
    if isinstance(graph.payoffs, np.ndarray) and isinstance(graph.finals, np.ndarray):
        alternate = graph.player is None
        player = graph.player if graph.player is not None else np.zeros(1, np.int8)
        ok, values, rems = negamax_int64(order, graph.offsets, graph.children, graph.payoffs,
                                         graph.finals, player, alternate)
        if ok:
            return values, rems
    return negamax_acyclic(graph, order)
