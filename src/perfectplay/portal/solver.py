"""The fast, exact answers for Closing the Portal, O(cells) on a bipartite board.

- :func:`analyze`: the winner with the argument in numbers. On a bipartite board (the square
  grid) every portal-to-portal path has the same parity, so the number of safe moves in any
  game is ``empty - (|P| - 2)`` for any path P (|P| counts both portals): odd, Alif makes the
  last safe move and wins. On other boards no such rule holds (7/600 random 4x4 king boards
  break it), so the exact Grundy table of :mod:`perfectplay.portal.rules` answers up to
  its limit, and proof search (:mod:`perfectplay.portal.search`) beyond it, or the tool
  says plainly that the search did not finish in time.
- :func:`safe_moves`: every empty cell whose walling keeps the portals connected, and the
  cut cells. Any cell off a portal-to-portal path P is safe; a cell p_i of P is a cut cell
  exactly when no component of G - P and no chord joins P before i to P after i (an
  interval cover, a difference array). O(cells * k).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from numba import njit

from ..errors import InputError, LimitError
from ..grid import Kind, bfs, bfs_order, path_from
from ..seedrun import SeedRun, Tracer, disagree, seed_requested, timed, warm_seconds
from . import seed
from .model import Board, PortalOptions
from .result import ALIF, BELLA, Method, PortalResult, SafeMoves
from .rules import EXACT_LIMIT, exact_winner
from .search import search_winner


@njit(cache=True)
def cut_cells_on_path(nb, open_, path):
    """For each index of ``path`` (portal to portal), True when walling that cell alone
    disconnects the portals. Components of G - P are labelled by BFS; each covers the open
    interval between the smallest and largest path index it touches; so does each chord."""
    n = nb.shape[0]
    L = path.size
    pos = np.full(n, -1, np.int64)
    for i in range(L):
        pos[path[i]] = i
    diff = np.zeros(L + 1, np.int64)
    seen = np.zeros(n, np.bool_)
    queue = np.empty(n, np.int64)
    for i in range(L):
        u = path[i]
        for t in range(nb.shape[1]):
            w = nb[u, t]
            if w < 0 or not open_[w]:
                continue
            j = pos[w]
            if j > i + 1:  # a chord of the path
                diff[i + 1] += 1
                diff[j] -= 1
            elif j < 0 and not seen[w]:
                lo = i
                hi = i
                seen[w] = True
                queue[0] = w
                head, tail = 0, 1
                while head < tail:
                    x = queue[head]
                    head += 1
                    for s in range(nb.shape[1]):
                        y = nb[x, s]
                        if y < 0 or not open_[y]:
                            continue
                        if pos[y] >= 0:
                            lo = min(lo, pos[y])
                            hi = max(hi, pos[y])
                        elif not seen[y]:
                            seen[y] = True
                            queue[tail] = y
                            tail += 1
                if hi > lo + 1:
                    diff[lo + 1] += 1
                    diff[hi] -= 1
    cut = np.zeros(L, np.bool_)
    cover = 0
    for i in range(L):
        cover += diff[i]
        cut[i] = cover == 0 and 0 < i < L - 1
    return cut


@njit(cache=True)
def is_bipartite_from(nb, open_, source):
    """True when the open cells reachable from ``source`` can be 2-coloured."""
    n = nb.shape[0]
    colour = np.full(n, -1, np.int8)
    queue = np.empty(n, np.int64)
    colour[source] = 0
    queue[0] = source
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        for t in range(nb.shape[1]):
            w = nb[u, t]
            if w < 0 or not open_[w]:
                continue
            if colour[w] < 0:
                colour[w] = 1 - colour[u]
                queue[tail] = w
                tail += 1
            elif colour[w] == colour[u]:
                return False
    return True


def _portal_path(board: Board) -> list[int]:
    s, t = board.portals
    open_ = board.open
    dist, _ = bfs_order(board.nb, open_, s)
    return path_from(dist, board.nb, open_, t)


#: The most empty cells the web page takes within its 30 s budget (measured 2026-11-26 on
#: the 2-core machine, open boards with the portals in opposite corners, the other core
#: busy). Where no parity rule decides the board, cells of the portals' component: analyze
#: 23 cells 1.7 s (the Grundy table), 28 cells 28 s (proof search); play, which values
#: every move of the position, 22 cells 10 s, 23 cells 20.5 s, 28 cells over 9 minutes.
#: Where the parity rule decides it, play still values every move (a BFS each): 898 cells
#: 3.9 s, 3,598 cells 59 s; analyze is linear and needs no limit.
PAGE_CELLS = {"analyze": 28, "play": 23, "play by parity": 2000}


def page_limit(board: Board, options: PortalOptions, play: bool) -> str | None:
    """Why the web page will not answer ``board`` (too much work for its time budget, see
    PAGE_CELLS), or None."""
    parity = options.method == "parity" or (options.method == "auto" and
                                            uses_parity_rule(board))
    if parity and not play:
        return None
    if parity:
        cells, limit, how = int(board.empty.sum()), PAGE_CELLS["play by parity"], \
            "every move's value"
    else:
        what = "play" if play else "analyze"
        cells, limit = _component_cells(board), PAGE_CELLS[what]
        how = "an exact search"
    if cells <= limit:
        return None
    return (f"this board has {cells:,} empty cells{'' if parity else ' between the portals'}"
            f" and its answer needs {how}: the page {'plays' if play else 'analyzes'} such "
            f"boards up to {limit:,} cells (about 30 s of work). Run it from the command "
            "line instead: " + (f"perfectplay play portal BOARD --kind {options.kind}"
                                if play else f"perfectplay portal BOARD --kind {options.kind}"))


def analyze(board: Board, options: PortalOptions | None = None) -> PortalResult:
    """The winner of Closing the Portal, Alif moving first: the parity rule on bipartite
    boards (O(cells)), else the exact Grundy table (at most EXACT_LIMIT cells in the
    portals' component), else proof search within ``options.time_limit`` seconds;
    ``options.method`` forces one of the three (an :class:`InputError` where the parity
    rule does not hold, a :class:`LimitError` past the table's limit or the time).

    >>> from perfectplay.portal.model import parse_board
    >>> print(analyze(parse_board("O..\\n.#.\\n..O")).winner)
    Alif
    >>> analyze(parse_board("O..\\n..O", "king"), PortalOptions("king", "search")).method
    <Method.SEARCH: 'search'>
    """
    opts = options or PortalOptions()
    if not isinstance(board, Board):
        raise InputError(f"analyze() takes a Board (see parse_board), got "
                         f"{type(board).__name__}")
    if seed_requested(opts.method, opts.trace, "auto"):
        seed.check_size(board)
        fast_opts = replace(opts, method="auto", trace=False)
        result = analyze(board, fast_opts)
        return replace(result, seed=_seed_run(board, result, fast_opts, opts.trace))
    method = opts.method
    if method == "auto":
        if uses_parity_rule(board):
            method = "parity"
        else:
            method = "grundy" if _component_cells(board) <= EXACT_LIMIT else "search"
    if method == "parity" and not uses_parity_rule(board):
        raise InputError("the parity rule holds only on bipartite boards (every portal "
                         "path of the same parity); this one is not: use --method grundy "
                         "or search")
    if method == "search":
        return _searched(board, opts.time_limit)
    if method == "grundy" and (k := _component_cells(board)) > EXACT_LIMIT:
        raise LimitError(f"the Grundy table takes at most {EXACT_LIMIT} empty cells in the "
                         f"portals' component; this board has {k}: use --method search "
                         "(or auto)")
    return analyze_exact(board, exact_limit=EXACT_LIMIT if method == "grundy" else -1,
                  parity=method == "parity")


def _seed_run(board: Board, result: PortalResult, fast: PortalOptions, trace: bool
              ) -> SeedRun:
    """The seed's bitmask search (traced when asked), checked against the fast winner."""
    fast_seconds = warm_seconds(lambda: analyze(board, fast))
    tracer = Tracer(trace)
    (first, memo, fills), seconds = timed(lambda: seed.seed_search(board, tracer))
    got = ALIF if first else BELLA
    if got != result.winner:
        raise disagree("portal", str(got), str(result.winner))
    shape = (board.grid.rows, board.grid.cols) if board.grid is not None else None
    return SeedRun(f"every board as a wall bitmask, memoised: {len(memo):,} boards",
                   "O(2^k x k) flood fills for k empty cells", work=fills,
                   unit="flood fills", seconds=seconds, fast_seconds=fast_seconds,
                   steps=tracer.steps if trace else None, dropped=tracer.dropped, shape=shape)


def _component_cells(board: Board) -> int:
    """Empty cells the first portal reaches (the Grundy table's size)."""
    return int(((bfs(board.nb, board.open, board.portals[0]) >= 0) & board.empty).sum())


def _opening(board: Board) -> tuple[int, list[int], dict[int, str], PortalResult | None]:
    """(empty cells, a shortest portal path, its cells' names, the result when the portals
    are already apart: Bella wins, else None): what every method starts from."""
    empty = int(board.empty.sum())
    path = _portal_path(board)
    names = {c: board.name(c) for c in path}
    apart = None if path else PortalResult(BELLA, False, empty, [], None,
                                           Method.DISCONNECTED, names=names, board=board,
                                           split=safe_moves)
    return empty, path, names, apart


def _searched(board: Board, seconds: float) -> PortalResult:
    """The winner by proof search (:func:`~perfectplay.portal.search.search_winner`), or a
    :class:`LimitError` in time, not cells."""
    empty, path, names, apart = _opening(board)
    if apart is not None:
        return apart
    try:
        out = search_winner(board, seconds)
    except LimitError as exc:
        raise LimitError(f"{exc}; raise the time limit (--time-limit, or time_limit in the "
                         "API)") from None
    return PortalResult(ALIF if out.first_wins else BELLA, True, empty, path, None,
                        Method.SEARCH, free_cells=out.free_cells, core_cells=out.core_cells,
                        nodes=out.nodes, seconds=out.seconds, winning=out.winning_cells,
                        unchecked=out.unchecked_cells,
                        names=names, board=board, split=safe_moves)


def analyze_exact(board: Board, exact_limit: int = EXACT_LIMIT, parity: bool = True
                  ) -> PortalResult:
    """The winner without proof search: the parity rule where it holds, else the exact
    Grundy table of up to ``exact_limit`` cells (:func:`analyze` with that limit as a switch,
    for the judge, the test cases and benchmarks); ``parity=False`` skips the parity rule
    (the Grundy table on any board).

    >>> from perfectplay.portal.model import parse_board
    >>> analyze_exact(parse_board("1 10\\n..O.#...O.")).winner
    <Winner.BELLA: 'Bella'>
    """
    if not isinstance(board, Board):
        raise InputError(f"analyze() takes a Board (see parse_board), got "
                         f"{type(board).__name__}")
    empty, path, names, apart = _opening(board)
    if apart is not None:
        return apart
    s = board.portals[0]
    if parity and (board.kind == Kind.SQUARE or is_bipartite_from(board.nb, board.open, s)):
        turns = empty - (len(path) - 2)
        return PortalResult(ALIF if turns % 2 else BELLA, True, empty, path, turns,
                            Method.PARITY, names=names, board=board, split=safe_moves)
    wins, g, free = exact_winner(board, exact_limit)
    return PortalResult(ALIF if wins else BELLA, True, empty, path, None, Method.EXACT,
                        grundy=g, free_cells=free, names=names, board=board,
                        split=safe_moves)


def safe_moves(board: Board) -> SafeMoves:
    """Every safe and every cut cell at once. O(cells * k).

    >>> from perfectplay.portal.model import parse_board
    >>> b = parse_board("O.#\\n#.#\\n#.O")
    >>> [b.name(c) for c in safe_moves(b).cut]
    ['b1', 'b2', 'b3']
    """
    path = _portal_path(board)
    if not path:
        return SafeMoves(False, np.zeros(0, np.int64), [], [])
    p = np.array(path, dtype=np.int64)
    cut_flags = cut_cells_on_path(board.nb, board.open, p)
    cut_mask = np.zeros(board.empty.size, dtype=bool)
    cut_mask[p[cut_flags]] = True
    safe = np.flatnonzero(board.empty & ~cut_mask)
    return SafeMoves(True, safe, sorted(int(c) for c in p[cut_flags]), path)


def uses_parity_rule(board: Board) -> bool:
    """Whether the parity rule answers ``board`` (a square board, or any board whose
    portals' component is bipartite); otherwise only exhaustive search does.

    >>> from perfectplay.portal.model import parse_board
    >>> uses_parity_rule(parse_board("O..\\n..O", "king"))
    False
    """
    return board.kind == Kind.SQUARE or bool(is_bipartite_from(board.nb, board.open,
                                                                board.portals[0]))
