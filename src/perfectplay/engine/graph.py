"""Discovery: walk a game from its start and number every reachable position.

The result, :class:`GameGraph`, is plain arrays in CSR form (``offsets``/``children``), so the
solvers run as numba kernels over integers and never call back into the user's game.
Discovery is a breadth-first loop (no recursion), O(positions + moves) calls of the game's
methods, and it is the only part of a solve that runs the user's Python code.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import GameError, LimitError
from ..progress import Progress
from .protocol import (
    LOSE_CODE,
    TIE_CODE,
    UNKNOWN,
    WIN_CODE,
    Game,
    Value,
    has_player,
    is_scored,
)

_TERMINAL_CODES = {Value.WIN: WIN_CODE, Value.LOSE: LOSE_CODE, Value.TIE: TIE_CODE}
DEFAULT_MAX_POSITIONS = 50_000_000


@dataclass
class GameGraph:
    """Every reachable position of a game, numbered 0.. in discovery order (0 = start).

    ``children[offsets[i]:offsets[i+1]]`` are the positions reached by ``moves[...]`` from
    position ``i``; ``terminal[i]`` is 0 while the game goes on, else the outcome's code.
    For scored games ``payoffs`` (one per move) and ``final_scores`` (terminal points) are set.
    ``player`` is set when the game defines ``player(pos)``.
    """

    positions: list[Any]
    index: dict[Any, int]
    offsets: np.ndarray
    children: np.ndarray
    moves: list[Any]
    terminal: np.ndarray
    scored: bool
    payoffs: list[Any] | None
    final_scores: dict[int, Any] | None
    player: np.ndarray | None

    @property
    def size(self) -> int:
        return len(self.positions)

    def edge_sources(self) -> np.ndarray:
        """For each move, the id of the position it is played from."""
        degree = np.diff(self.offsets)
        return np.repeat(np.arange(self.size, dtype=np.int64), degree)

    def reverse(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Parents in CSR form: ``src[off[c]:off[c+1]]`` are the positions with a move into
        ``c`` (once per move) and ``edge[...]`` the indices of those moves. O(moves)."""
        from .kernels import reverse_csr

        return reverse_csr(self.offsets, self.children)


def discover(game: Game, max_positions: int = DEFAULT_MAX_POSITIONS,
             progress: bool | None = None) -> GameGraph:
    """Number every position reachable from ``game.initial()``.

    Raises :class:`GameError` (with the position) when the game breaks the protocol, and
    :class:`LimitError` past ``max_positions``.
    """
    scored = is_scored(game)
    start = game.initial()
    try:
        index: dict[Any, int] = {start: 0}
    except TypeError as exc:
        raise GameError(f"the start position {start!r} is not hashable: {exc}") from None
    positions: list[Any] = [start]
    offsets = array("q", [0])
    children = array("q")
    terminal = array("b")
    moves_out: list[Any] = []
    payoffs: list[Any] | None = [] if scored else None
    final_scores: dict[int, Any] | None = {} if scored else None
    outcome, moves_of, play = game.outcome, game.moves, game.play
    payoff = game.payoff if scored else None  # type: ignore[attr-defined]
    add_child, add_move = children.append, moves_out.append
    setdefault, add_position = index.setdefault, positions.append
    add_terminal, add_offset = terminal.append, offsets.append
    i = 0
    new = 1  # the id the next new position gets
    with Progress("discovering positions", enabled=progress) as bar:
        while i < new:
            pos = positions[i]
            result = outcome(pos)
            if result is None:
                add_terminal(UNKNOWN)
                try:
                    for move in moves_of(pos):
                        child = play(pos, move)
                        cid = setdefault(child, new)
                        if cid == new:
                            add_position(child)
                            new += 1
                        add_child(cid)
                        add_move(move)
                        if payoff is not None:
                            payoffs.append(payoff(pos, move))  # type: ignore[union-attr]
                except TypeError as exc:
                    if hashable(child):
                        raise
                    raise GameError(f"position {child!r} (after move {move!r} from {pos!r}) "
                                    f"is not hashable: {exc}") from None
            else:
                add_terminal(_terminal_code(result, pos, scored, final_scores, i))
            add_offset(len(children))
            i += 1
            if not i & 0xFFFF:
                bar.update(i)
                if len(positions) > max_positions:
                    raise LimitError(
                        f"more than {max_positions:,} positions; raise max_positions if the "
                        "memory allows (about 100 bytes a position)")
    if len(positions) > max_positions:
        raise LimitError(f"more than {max_positions:,} positions")
    player = None
    if has_player(game):
        player = np.fromiter((_player_of(game, p) for p in positions), dtype=np.int8,
                             count=len(positions))
    return GameGraph(
        positions=positions, index=index,
        offsets=np.frombuffer(offsets, dtype=np.int64).copy(),
        children=np.frombuffer(children, dtype=np.int64).copy(),
        moves=moves_out, terminal=np.frombuffer(terminal, dtype=np.int8).copy(),
        scored=scored, payoffs=payoffs, final_scores=final_scores, player=player,
    )


def _terminal_code(result: Any, pos: Any, scored: bool, final_scores: dict[int, Any] | None,
                   i: int) -> int:
    if isinstance(result, Value):
        if result is Value.DRAW:
            raise GameError(f"outcome({pos!r}) is DRAW: a draw is what the engine proves, an "
                            "outcome must be WIN, LOSE or TIE")
        if scored:
            if result is not Value.TIE:
                raise GameError(f"outcome({pos!r}) is {result.name} in a scored game: return "
                                "Value.TIE or the final points for the player to move")
            final_scores[i] = 0  # type: ignore[index]
            return TIE_CODE
        return _TERMINAL_CODES[result]
    if scored and isinstance(result, int | float) and not isinstance(result, bool):
        final_scores[i] = result  # type: ignore[index]
        return TIE_CODE
    raise GameError(f"outcome({pos!r}) returned {result!r}: expected None, Value.WIN, "
                    "Value.LOSE or Value.TIE" + (" or a number" if scored else ""))


def hashable(x: Any) -> bool:
    """True when ``x`` can be a position (it hashes)."""
    try:
        hash(x)
    except TypeError:
        return False
    return True


def _player_of(game: Any, pos: Any) -> int:
    who = game.player(pos)
    if who not in (0, 1):
        raise GameError(f"player({pos!r}) returned {who!r}: expected 0 or 1")
    return int(who)


def turn_parity(graph: GameGraph) -> tuple[np.ndarray, tuple[int, int] | None]:
    """Who moves at each position under strict alternation: the parity of a shortest path
    from the start. Returns (parity array, None) or (parity, (parent, child)) for the first
    move that joins two positions of equal parity: proof that the positions do not say whose
    turn it is (harmless in an impartial game). O(positions + moves)."""
    from .kernels import bfs_parity

    parity, bad_parent, bad_child = bfs_parity(graph.offsets, graph.children)
    conflict = None if bad_parent < 0 else (int(bad_parent), int(bad_child))
    return parity, conflict
