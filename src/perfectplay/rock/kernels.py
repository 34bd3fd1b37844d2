"""numba kernels of the fast Rock solver. Plain arrays in and out; each runs as Python under
``NUMBA_DISABLE_JIT=1``. Notation (docs/algorithms.md, "The Rock"): d = BFS distance to the
exit X; a parent of u is a neighbour w with d(w) = d(u) - 1; T(u) the rock's best immediate
threat at u."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload


def borrowed(a):
    """A view of array ``a`` that the compiled code does not reference-count (as Python,
    ``a`` itself).

    Compiled code counts references to an array with atomic increments, one pair wherever
    a function receives or binds it; the kernels called once per cell with a dozen arrays
    paid them per call (a quarter to a third of the adversarial tiling's solve, measured
    with perf). A borrowed view has no owner, so those counts do nothing. It must not
    outlive ``a``: take views only of a function's arguments, which its caller keeps alive
    for the whole call, or of arrays used again after the views' last use
    (:func:`_keep_alive`), and never return them."""
    return a


@intrinsic
def _unowned(typingctx, a):
    """The array struct of ``a`` with its owner (meminfo) and parent object cleared."""
    if not isinstance(a, types.Array):
        return None

    def codegen(context, builder, sig, args):
        view = context.make_array(sig.args[0])(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return a(a), codegen


# numba's stubs know neither jit_options' "cache" nor an intrinsic called from jitted code
@overload(borrowed, jit_options={"cache": True})  # type: ignore[typeddict-unknown-key]
def _borrowed_compiled(a):
    return lambda a: _unowned(a)  # type: ignore[call-arg]


class Tree(NamedTuple):
    """The BFS tree toward X and what is read off it: d, each cell's tree parent (-1 for X
    and unreached cells), Euler intervals (u lies below p exactly when tin[p] <= tin[u] <=
    tout[p]) and the BFS order of the reached cells."""

    dist: np.ndarray
    parent: np.ndarray
    tin: np.ndarray
    tout: np.ndarray
    order: np.ndarray


class Lowpoints(NamedTuple):
    """The DFS from X: discovery times, each DFS subtree's last discovery time, low-points
    and DFS parents (:func:`lowpoints`)."""

    disc: np.ndarray
    fin: np.ndarray
    low: np.ndarray
    parent: np.ndarray


class Budgets(NamedTuple):
    """How long the hybrid lets a heavy child's search run before the formula answers:
    ``heavy`` pops (0 turns the hybrid off), ``exits`` once the exits are known, never less
    than ``light_factor`` times p's light subtrees; the exits are found once the searches
    have popped ``long_search`` cells per reached cell (see :mod:`.solver`).

    What decides cheaply when the hybrid is not needed (all off only to make the tests send
    every cell through the searches and the formula): ``short`` settles the shortest
    possible detours with no search (:func:`_short_detour`); ``quick`` (pops, 0: off) runs
    a search that small from every other cell before its turn in the hybrid; ``lazy_cuts``
    finds the low-points only when needed, not before the first search. The two gambles
    are each allowed to waste n / ``waste`` pops (n reached cells): quick searches that
    run out, searches that end in a cell cut off from X before the low-points are known;
    past that the quick searches stop and the low-points are found."""

    heavy: int
    long_search: int
    light_factor: int
    exits: int
    short: bool = True
    quick: int = 0
    lazy_cuts: bool = False
    waste: int = 8


class SearchSpace(NamedTuple):
    """One detour search's arrays, reused by every search: keys, the search that last
    reached (``stamp``) and closed each cell, and the three rotating buckets."""

    key: np.ndarray
    stamp: np.ndarray
    closed: np.ndarray
    buckets: np.ndarray
    sizes: np.ndarray


class Siblings(NamedTuple):
    """What a search from a child of p may use of its siblings: T, whether each T is
    final, the searches' back links and each settled cell's anchor (a cell of its subtree
    on one of its shortest detours, -1 if none)."""

    T: np.ndarray
    known: np.ndarray
    via: np.ndarray
    anchor: np.ndarray


class Exits(NamedTuple):
    """For each cell h, the cheapest way out of h's subtree past its parent, d(a) + 1 + d(o)
    (``dist``, -1 if none), and that edge's end a below h (``cell``); both empty until
    found (:func:`exits_below_parent`)."""

    dist: np.ndarray
    cell: np.ndarray


class Chains(NamedTuple):
    """Corridors of cells with two open neighbours, labelled on first use: each cell's
    chain and place in it, each chain's length, end cells, the cells beyond its ends, and
    the memoised search from each end (-3: not searched yet)."""

    chain: np.ndarray
    pos: np.ndarray
    length: np.ndarray
    ends: np.ndarray
    outside: np.ndarray
    memo: np.ndarray


class Threats(NamedTuple):
    """What :func:`threats` returns: T (-1 infinite), the searches' pops, the heavy
    children the formula answered, each cell's anchor, the light children's pops, and the
    cells :func:`_short_detour` settled with no search, those the quick search settled
    (``Budgets.quick``), whether the low-points were found (``Budgets.lazy_cuts``), and the
    chain cells the only-child rule answered because their chain's shared search ran out
    of the hybrid's budget (``chain_cuts``)."""

    T: np.ndarray
    pops: int
    formula: int
    anchor: np.ndarray
    light_pops: int
    short: int
    quick: int
    lowpoints: bool
    chain_cuts: int = 0


class FormulaSpace(NamedTuple):
    """The heavy/light formula's arrays: labels (distances inside G - p - sub(h)), the
    run that last stamped and settled each cell, and one Dijkstra's binary heap, each entry
    a label and a cell packed in one integer (:func:`_heap_entry`)."""

    label: np.ndarray
    stamp: np.ndarray
    done: np.ndarray
    heap: np.ndarray


@njit(cache=True)
def bfs_tree(nb, open_, exit_):
    """BFS from X with the parent count folded in (when u is popped, every cell nearer to X
    is already labelled). Returns d (-1 = unreachable), the cells in BFS order, ``tree[u]``
    the first parent (a BFS tree rooted at X) and ``unique[u]`` the parent when u has
    exactly one, else -1. One pass, O(n k)."""
    n = nb.shape[0]
    dist = np.full(n, -1, np.int32)
    order = np.empty(n, np.int32)
    tree = np.full(n, -1, np.int32)
    unique = np.full(n, -1, np.int32)
    dist[exit_] = 0
    order[0] = exit_
    head, tail = 0, 1
    while head < tail:
        u = order[head]
        head += 1
        count = 0
        for t in range(nb.shape[1]):
            w = nb[u, t]
            if w < 0 or not open_[w]:
                continue
            if dist[w] < 0:
                dist[w] = dist[u] + 1
                order[tail] = w
                tail += 1
            elif dist[w] == dist[u] - 1:
                if count == 0:
                    tree[u] = w
                count += 1
        if count == 1:
            unique[u] = tree[u]
    return dist, order[:tail], tree, unique


@njit(cache=True)
def solve(nb, open_, exit_, use_chains, budgets):
    """The whole fast solve in one kernel: :func:`bfs_tree`, :func:`euler_intervals`,
    :func:`threats` and :func:`label_setting`. One compiled entry point, because each one
    a fresh process calls costs a cache load (about 3 ms each, measured). Returns the
    :class:`Tree`, each cell's block (its unique parent unless that is X, else -1), the
    :class:`Threats`, f and the best next steps."""
    dist, order, parent, unique = bfs_tree(nb, open_, exit_)
    tin, tout = euler_intervals(parent, order)
    tree = Tree(dist, parent, tin, tout, order)
    found = threats(nb, open_, tree, unique, exit_, use_chains, budgets)
    f, step = label_setting(nb, found.T, exit_)
    for u in range(unique.size):
        if unique[u] == exit_:
            unique[u] = -1  # blocking X never hurts: the walker steps onto it
    return tree, unique, found, f, step


@njit(cache=True)
def euler_intervals(tree, order):
    """Preorder numbers ``tin`` and subtree ends ``tout`` of the BFS tree, without recursion:
    subtree sizes by reverse BFS order, then each child numbered after its elder siblings.
    x lies in the subtree of p exactly when tin[p] <= tin[x] <= tout[p]. O(n).

    One array serves three purposes in turn (fewer fresh pages to touch): u's subtree size
    until u is numbered, then the next free number among u's children, which ends at tin[u]
    + size(u) = tout[u] + 1 once they all are (unreached cells: tin -1, tout -2)."""
    n = tree.size
    tout = np.zeros(n, np.int32)
    for idx in range(order.size - 1, -1, -1):
        u = order[idx]
        tout[u] += 1
        if tree[u] >= 0:
            tout[tree[u]] += tout[u]
    tin = np.full(n, -1, np.int32)
    root = order[0]
    tin[root] = 0
    tout[root] = 1
    for idx in range(1, order.size):
        u = order[idx]
        p = tree[u]
        tin[u] = tout[p]
        tout[p] += tout[u]
        tout[u] = tin[u] + 1
    for u in range(n):
        tout[u] -= 1 if tin[u] >= 0 else 2
    return tin, tout


@njit(cache=True)
def lowpoints(nb, open_, root):
    """Iterative DFS from ``root`` over open cells: discovery times, the last discovery time
    in each DFS subtree, low-points and DFS parents (Hopcroft–Tarjan 1973), as
    :class:`Lowpoints`. O(n k)."""
    n = nb.shape[0]
    k = nb.shape[1]
    disc = np.full(n, -1, np.int32)
    fin = np.full(n, -1, np.int32)
    low = np.full(n, -1, np.int32)
    dpar = np.full(n, -1, np.int32)
    stack = np.empty(n, np.int32)
    edge = np.zeros(n, np.int8)
    time = 0
    disc[root] = low[root] = time
    time += 1
    stack[0] = root
    top = 1
    while top > 0:
        u = stack[top - 1]
        if edge[u] < k:
            w = nb[u, edge[u]]
            edge[u] += 1
            if w < 0 or not open_[w]:
                continue
            if disc[w] < 0:
                disc[w] = low[w] = time
                time += 1
                dpar[w] = u
                stack[top] = w
                top += 1
            elif w != dpar[u] and disc[w] < low[u]:
                low[u] = disc[w]
        else:
            top -= 1
            fin[u] = time - 1
            p = dpar[u]
            if p >= 0 and low[u] < low[p]:
                low[p] = low[u]
    return Lowpoints(disc, fin, low, dpar)


@njit(cache=True)
def separates(nb, lows, p, u):
    """Does removing cell p cut cell u off from the DFS root? True exactly when u lies in
    the subtree of a DFS child c of p with low[c] >= disc[p]; a u outside p's subtree (or
    p itself) matches no child and is not cut off (``lows``: :func:`lowpoints`). O(k)."""
    disc, fin, low, dpar = lows.disc, lows.fin, lows.low, lows.parent
    if disc[u] < disc[p]:
        return False  # u was reached before p: it reaches the root without p
    for t in range(nb.shape[1]):
        c = nb[p, t]
        if c >= 0 and dpar[c] == p and disc[c] <= disc[u] <= fin[c]:
            return low[c] >= disc[p]
    return False


MIN_CHAIN = 3  # chains shorter than this are searched cell by cell


@njit(cache=True)
def open_degree(nb, u):
    deg = 0
    for t in range(nb.shape[1]):
        if nb[u, t] >= 0:
            deg += 1
    return deg


@njit(cache=True)
def is_link(nb, exit_, u):
    """A chain cell: exactly two open neighbours, and not the exit."""
    return u != exit_ and open_degree(nb, u) == 2


@njit(cache=True)
def build_chain(nb, exit_, s, c, cid, pos, length, ends, outside):
    """Label the maximal run of chain cells through ``s`` as chain ``c``: each cell's
    position, the run's two end cells and the cell beyond each end (``outside``, -1 for a
    closed loop). ``nb`` must list open neighbours only. O(run length * k).

    A walker inside a chain has no choice but to follow it, which the detour search uses.
    """
    k = nb.shape[1]
    # walk to one end
    prev = -1
    u = s
    closed = False
    while True:
        nxt = -1
        for t in range(k):
            w = nb[u, t]
            if w >= 0 and w != prev:
                nxt = w
                break
        if nxt < 0 or not is_link(nb, exit_, nxt):
            break
        prev = u
        u = nxt
        if u == s:
            closed = True
            break
    first = u
    before = -1
    for t in range(k):
        w = nb[u, t]
        if w >= 0 and not is_link(nb, exit_, w):
            before = w
            break
    # walk to the other end, numbering
    prev = before
    m = 0
    after = -1
    while True:
        cid[u] = c
        pos[u] = m
        m += 1
        nxt = -1
        for t in range(k):
            w = nb[u, t]
            if w >= 0 and w != prev and not (m == 1 and closed and w == before):
                nxt = w
                break
        if nxt < 0 or not is_link(nb, exit_, nxt) or cid[nxt] == c:
            after = nxt
            break
        prev = u
        u = nxt
    length[c] = m
    ends[c, 0] = first
    ends[c, 1] = u
    if closed or (after >= 0 and cid[after] == c):
        outside[c, 0] = -1
        outside[c, 1] = -1
    else:
        outside[c, 0] = before
        outside[c, 1] = after


@njit(cache=True)
def _potential(dist, tin, tout, p, xp, x):
    """The search's heuristic at x: d(x) outside p's subtree (exact there), and inside
    max(d(x), xp - d(x)), xp being the cheapest d(a) + 1 + d(o) over edges (a, o) from
    below p to outside its subtree: any route from x leaves by such an edge, and reaching
    a takes at least d(a) - d(x) steps. Both parts change by at most 1 a step, so the
    heuristic stays consistent."""
    if xp < 0 or tin[x] < tin[p] or tin[x] > tout[p]:
        return dist[x]
    v = xp - dist[x]
    return v if v > dist[x] else dist[x]


@njit(cache=True)
def _exit_bound(nb, parent, exit_dist, p):
    """The cheapest d(a) + 1 + d(o) over edges (a, o) from below p to outside p's subtree
    (the least of its children's :func:`exits_below_parent`), -1 if none or not known."""
    best = -1
    if exit_dist.size == 0:
        return best
    for t in range(nb.shape[1]):
        c = nb[p, t]
        if (c >= 0 and parent[c] == p and exit_dist[c] >= 0
                and (best < 0 or exit_dist[c] < best)):
            best = exit_dist[c]
    return best


@njit(cache=True)
def _child_holding(nb, parent, tin, tout, p, w):
    """The child of p whose BFS subtree holds w (w below p), -1 if none. O(k)."""
    for t in range(nb.shape[1]):
        c = nb[p, t]
        if c >= 0 and parent[c] == p and tin[c] <= tin[w] <= tout[c]:
            return c
    return -1


@njit(cache=True)
def _route_anchor(tin, tout, via, start, x):
    """Walking back from x along the search's ``via`` links: the first cell below
    ``start`` (the last one of the route that lies there)."""
    while not (tin[start] <= tin[x] <= tout[start]):
        x = via[x]
    return x


@njit(cache=True)
def detour(nb, tree, start, p, banned, space, search_id, budget, xp, sibs, use_sibs):
    """Shortest distance from ``start`` to X avoiding cells p and ``banned``, given that
    every cell outside p's BFS subtree reaches X in d steps avoiding them both. ``nb`` lists
    open neighbours only (walls removed); ``tree`` is the :class:`Tree`, ``space`` the
    :class:`SearchSpace` (cells stamped with ``search_id``, new for every search).

    A* with a consistent heuristic (d, raised inside p's subtree by ``xp`` when given:
    :func:`_potential`): a step x -> w costs 1 + h(w) - h(x) in {0, 1, 2}, so three
    rotating buckets replace the heap, and the first popped cell outside p's subtree ends
    the search. Returns (distance, pops); distance -1 when X is unreachable, -3 when
    ``budget`` (> 0) pops did not settle it.

    Siblings (``use_sibs``, ``start`` a child of p; ``sibs`` the :class:`Siblings`): for a
    sibling c of ``start`` whose detour T(c) = dist(c -> X in G - p) is known, a cell w
    below c reaches X in G - p within d(w) - d(c) + T(c) steps (up the tree to c, then c's
    detour) and no faster than T(c) - (d(w) - d(c)) (the triangle inequality through the
    tree path back to c); when w is on the tree path from c down to ``anchor[c]``, a cell
    of c's subtree on one of c's shortest detours, the two meet and w's distance is known
    exactly. The upper bounds end the search once its keys reach the best of them, the
    lower bound prunes cells that cannot beat it, and a cell whose distance is exact is not
    entered at all: all three only stop the search sooner. When the search settles,
    ``anchor[start]`` gets the last cell below ``start`` on the route it found (-1 if
    none).
    """
    dist, tin, tout, parent = tree.dist, tree.tin, tree.tout, tree.parent
    key, stamp, closed = space.key, space.stamp, space.closed
    buckets, sizes = space.buckets, space.sizes
    T, known, via, anchor = sibs.T, sibs.known, sibs.via, sibs.anchor
    sid = search_id
    k = nb.shape[1]
    sizes[0] = 0
    sizes[1] = 0
    sizes[2] = 0
    cur = 0
    stamp[start] = sid
    key[start] = 0
    buckets[0, 0] = start
    sizes[0] = 1
    used = 0
    h0 = _potential(dist, tin, tout, p, xp, start)
    # bounds: some sibling's detour is known; record: some sibling's is not (it may use
    # this search's anchor). Neither changes the answer.
    bounds = False
    record = False
    if use_sibs and tin[p] < tin[start] <= tout[p]:
        for t in range(k):
            c = nb[p, t]
            if c >= 0 and c != start and parent[c] == p:
                if not known[c]:
                    record = True
                elif T[c] >= 0:
                    bounds = True
    best = -1  # the best bound through a sibling's subtree (a distance), -1 = none
    best_from = -1  # the cell the best bound was reached from
    while True:
        if best >= 0 and h0 + cur >= best:
            if record:
                anchor[start] = _route_anchor(tin, tout, via, start, best_from)
            return best, used
        b = cur % 3
        if sizes[b] == 0:
            if sizes[0] + sizes[1] + sizes[2] == 0:
                if record:
                    anchor[start] = -1 if best < 0 else _route_anchor(tin, tout, via, start,
                                                                      best_from)
                return best, used
            cur += 1
            continue
        sizes[b] -= 1
        x = buckets[b, sizes[b]]
        if closed[x] == sid or key[x] != cur:
            continue
        closed[x] = sid
        used += 1
        if budget > 0 and used > budget:
            if record:
                anchor[start] = -1
            return -3, used
        if tin[x] < tin[p] or tin[x] > tout[p]:
            if record:
                anchor[start] = _route_anchor(tin, tout, via, start, via[x])
            return h0 + cur, used
        hx = dist[x]
        # _potential, inlined here and below: called per neighbour it made the searches
        # 30-45 % slower (measured on 10^6-cell mazes)
        if xp >= 0 and xp - dist[x] > hx:  # x is inside p's subtree
            hx = xp - dist[x]
        for t in range(k):
            w = nb[x, t]
            if w < 0 or w == p or w == banned:
                continue
            outside = tin[w] < tin[p] or tin[w] > tout[p]
            hw = dist[w]
            if xp >= 0 and not outside and xp - dist[w] > hw:
                hw = xp - dist[w]
            nk = cur + 1 + hw - hx
            if nk == cur and outside:
                # a free step out of p's subtree: no open cell has a smaller key, so w would
                # be popped next with this key anyway
                if record:
                    anchor[start] = _route_anchor(tin, tout, via, start, x)
                return h0 + cur, used
            if stamp[w] == sid and nk >= key[w]:
                continue
            if bounds and not outside and not (tin[start] <= tin[w] <= tout[start]):
                c = _child_holding(nb, parent, tin, tout, p, w)
                if c >= 0 and known[c] and T[c] >= 0:
                    g = nk - hw + h0  # steps from start to w
                    a = anchor[c]
                    exact = a >= 0 and tin[w] <= tin[a] <= tout[w]
                    up = g + T[c] + (dist[c] - dist[w] if exact else dist[w] - dist[c])
                    if best < 0 or up < best:
                        best = up
                        best_from = x
                    if exact:
                        continue  # every route through w is worth up
                    low = T[c] + dist[c] - dist[w]
                    if g + (low if low > hw else hw) >= best:
                        continue  # nothing through w beats the bound
            stamp[w] = sid
            key[w] = nk
            if record:
                via[w] = x
            bw = nk % 3
            buckets[bw, sizes[bw]] = w
            sizes[bw] += 1


@njit(cache=True, inline="always")
def _borrow_exits(exits):
    """:class:`Exits` of :func:`borrowed` views."""
    return Exits(borrowed(exits.dist), borrowed(exits.cell))


@njit(cache=True, inline="always")
def _borrow_lows(lows):
    """:class:`Lowpoints` of :func:`borrowed` views."""
    return Lowpoints(borrowed(lows.disc), borrowed(lows.fin), borrowed(lows.low),
                     borrowed(lows.parent))


@njit(cache=True)
def _keep_alive(a, b):
    """Nothing: a use of the tuples of arrays whose :func:`borrowed` views a loop reads,
    placed after the loop, so the compiled code keeps them until then."""


@njit(cache=True)
def threats(nb, open_, tree, unique, exit_, use_chains, budgets):
    """T(u) for every reached cell (-1 = infinite), as :class:`Threats`: with T the
    searches' total pops, how many heavy children the formula answered, each cell's anchor
    (a cell of its subtree on one of its shortest detours, -1 if none was recorded), and
    the pops of light children's searches (the work without a proven bound: what the
    targeted adversary maximises), and the cheap decisions' counts. ``tree`` is the
    :class:`Tree`, ``open_`` the walkable cells (for the low-points), ``budgets`` the
    :class:`Budgets`.

    T(u) = d(u) unless u has exactly one parent p != X; then T(u) = dist(u -> X in G - p):
    - first the cheap decisions, whether u is heavy or light: the shortest possible
      detours, d(u) + 1 or + 2, by looking two cells around (:func:`_short_detour`), else
      a search of at most ``budgets.quick`` pops (its answer, when it has one, is exact);
      the cells left go on below;
    - infinite when p separates u from X (low-points; no search). With
      ``budgets.lazy_cuts`` the low-points are found only once needed: when a heavy
      child's search runs out, or when the searches that found a cell cut off (which
      they do exactly, emptying its pocket) have popped n / ``budgets.waste`` cells; a
      search before then may pop only what is left of that allowance, and if it runs out
      the low-points are found and the cell asked again;
    - with ``budgets.heavy`` > 0 (the hybrid), once the exits below every cell are known (after
      the searches have popped ``long_search`` cells a cell, or when the formula is first
      needed): when u is p's only child, T(u) = X(u) - d(u) at once (the heavy/light
      formula with no light subtrees);
    - if u lies in a chain (cells with two neighbours) and the exits are not known yet,
      the walk from u away from p is forced to the chain's far end e, m steps on, so T(u) =
      m + dist(e -> X avoiding p and the chain). When p is itself a chain cell that
      distance does not depend on which one (the cells behind p are a dead end), so each
      chain end is searched once and shared by the whole chain. (When p is the cell beyond
      the chain's end, blocking it may cut other routes too, so that cell gets a search of
      its own.) The shared search stops at ``budgets.heavy`` pops; then u, the only child
      of the chain cell p, gets the only-child rule (the exits found if needed);
    - otherwise :func:`detour` from u. Heavy children (largest subtree) go first: a search
      of at most max(``budget``, ``light_factor`` |light|) pops (``budget`` drops to
      ``exits_budget`` once the exits are known: the first search that runs out finds
      them), then :func:`heavy_threat` exactly; light children after, their searches
      bounded by what their siblings know (their detours and anchors: see
      :func:`detour`). With the exits known, later searches use the stronger heuristic
      of :func:`_potential`.
    ``use_chains`` False runs the plain search everywhere (for comparison: ``budget`` 0
    turns off the formula, the only-child rule and the siblings' bounds). O(n k) on random
    mazes; heavy and only children cost O(n log n) in all, light children's searches have
    no proven bound inside their heavy sibling's subtree (docs/algorithms.md). Pops count
    the searches' pops and the cells the formula's Dijkstras settle.
    """
    n = nb.shape[0]
    T = tree.dist.copy()
    # keys are read only where the search's stamp is
    space = SearchSpace(np.empty(n, np.int32), np.full(n, -1, np.int32),
                        np.full(n, -1, np.int32), np.empty((3, n), np.int32),
                        np.zeros(3, np.int64))
    # chains are labelled on first use; arrays sized for the worst case, filled lazily
    chains = Chains(np.full(n, -1, np.int32), np.empty(n, np.int32), np.empty(n, np.int64),
                    np.empty((n, 2), np.int64), np.empty((n, 2), np.int64),
                    np.empty((n, 2), np.int64))
    # known[u]: T(u) is final. A cell with several parents (or none) has T = d from the
    # start; it is also its own detour when one of its parents is blocked. The anchors and
    # the searches' back links that find them serve the light children's sibling bounds.
    sibs = Siblings(T, unique < 0, np.empty(n, np.int32), np.full(n, -1, np.int32))
    pending = np.empty(n, np.int32)  # heavy children whose search ran out of budget
    later = np.empty(n, np.int32)  # the light children, in the order the first phase met them
    pops, formula, light_pops, short, quick, lowpoints, chain_cuts = _threats_loop(
        nb, open_, tree, unique, exit_, use_chains, budgets, space, chains, sibs, pending,
        later)
    return Threats(T, pops, formula, sibs.anchor, light_pops, short, quick, lowpoints,
                   chain_cuts)


@njit(cache=True)
def _threats_loop(nb, open_, tree, unique, exit_, use_chains, budgets, space, chains, sibs,
                  pending, later):
    """The body of :func:`threats` over the arrays it allocated (``pending`` and ``later``:
    scratch lists of n cells), all read through :func:`borrowed` views: the searches and
    tests called per cell then pay no reference counts. Fills ``sibs`` (T, known,
    anchors); returns the counts of :class:`Threats`."""
    n = nb.shape[0]
    nb, open_, unique = borrowed(nb), borrowed(open_), borrowed(unique)
    tree = Tree(borrowed(tree.dist), borrowed(tree.parent), borrowed(tree.tin),
                borrowed(tree.tout), borrowed(tree.order))
    space = SearchSpace(borrowed(space.key), borrowed(space.stamp), borrowed(space.closed),
                        borrowed(space.buckets), borrowed(space.sizes))
    chains = Chains(borrowed(chains.chain), borrowed(chains.pos), borrowed(chains.length),
                    borrowed(chains.ends), borrowed(chains.outside), borrowed(chains.memo))
    sibs = Siblings(borrowed(sibs.T), borrowed(sibs.known), borrowed(sibs.via),
                    borrowed(sibs.anchor))
    pending, later = borrowed(pending), borrowed(later)
    T = sibs.T
    # the exits below each cell, for the formula, the only-child rule and the searches'
    # stronger heuristic: found once the searches have popped ``long_search`` cells a
    # reached cell, or when a first heavy search runs out
    # (``exits`` and ``lows`` are borrowed views of ``exits_owner`` and ``lows_owner``,
    # which stay alive until _keep_alive below)
    exits_owner = Exits(np.full(0, -1, np.int64), np.full(0, -1, np.int32))
    exits = _borrow_exits(exits_owner)
    # the low-points, for the separation test: found before the first search, or (lazy)
    # once the searches that end cut off have popped n / waste cells or when a heavy
    # search first runs out
    none = np.full(0, -1, np.int32)
    lows_owner = Lowpoints(none, none, none, none)
    lows = _borrow_lows(lows_owner)
    hybrid = budgets.heavy > 0
    chains_made = pops = search_id = formula = light_pops = settled_short = settled_quick = 0
    quick_waste = cut_waste = 0  # the pops the two gambles lost (Budgets)
    chain_cuts = 0
    reached = tree.order.size
    npending = 0
    nlater = 0
    # the arrays the loop reads, bound once: a named tuple's field read in the loop costs
    # a reference count per read where the compiler cannot pair them (measured)
    dist, parent, tin, tout = tree.dist, tree.parent, tree.tin, tree.tout
    known, anchor = sibs.known, sibs.anchor
    for phase in range(2):
        # heavy children first (searched within a budget, else the formula), so that the
        # light children's searches can stop on their heavy sibling's known detour
        if phase == 1 and npending:
            if exits.dist.size == 0:
                exits_owner = _find_exits(nb, tree)
                exits = _borrow_exits(exits_owner)
            pops += _settle_heavy(nb, tree, unique, exits, pending[:npending], sibs)
            known[pending[:npending]] = True
            formula += npending
            npending = 0
        for idx in range(n if phase == 0 else nlater):
            u = idx if phase == 0 else later[idx]
            if known[u]:
                continue
            p = unique[u]
            if p == exit_:
                known[u] = True
                continue
            if phase == 0 and budgets.short:
                found_t, found_a = _short_detour(nb, dist, parent, unique, u, p)
                if found_t >= 0:
                    # the least a detour can be: no search, whatever u's place in the tree
                    T[u] = found_t
                    anchor[u] = found_a
                    known[u] = True
                    settled_short += 1
                    continue
            if (phase == 0 and budgets.quick > 0 and quick_waste * budgets.waste < reached
                    and not (lows.disc.size and separates(nb, lows, p, u))):
                # a plain search of a few pops settles most other cells of a random maze:
                # try it before the hybrid's bookkeeping (heavy or light, chains, cuts;
                # a cell known to be cut off gets no search)
                search_id += 1
                found_t, used = detour(nb, tree, u, p, -1, space, search_id, budgets.quick,
                                       _exit_bound(nb, parent, exits.dist, p), sibs,
                                       hybrid)
                pops += used
                if found_t != -3:
                    T[u] = found_t
                    known[u] = True
                    settled_quick += 1
                    if found_t == -1 and lows.disc.size == 0:
                        cut_waste += used
                    continue
                quick_waste += used
            heavy = phase == 0 and is_heavy(nb, parent, tin, tout, p, u)
            if phase == 0 and not heavy:
                later[nlater] = u  # a light child: its turn comes in the second phase
                nlater += 1
                continue
            known[u] = True
            if hybrid and exits.dist.size == 0 and pops >= budgets.long_search * tree.order.size:
                # the searches (chains' included) have popped long_search cells per reached
                # cell: find the exits
                exits_owner = _find_exits(nb, tree)
                exits = _borrow_exits(exits_owner)
            if exits.dist.size and only_child(nb, parent, p, u):
                # p's subtree is u's and p: T(u) is the formula with no light subtrees,
                # the cheapest exit from below u (-1: none, p separates u from X)
                T[u] = exits.dist[u] - dist[u] if exits.dist[u] >= 0 else -1
                anchor[u] = exits.cell[u]
                continue
            if lows.disc.size == 0 and (not budgets.lazy_cuts
                                        or cut_waste * budgets.waste >= reached):
                lows_owner = lowpoints(nb, open_, exit_)
                lows = _borrow_lows(lows_owner)
            if lows.disc.size and separates(nb, lows, p, u):
                T[u] = -1
                continue
            c = -1
            if use_chains and exits.dist.size == 0 and is_link(nb, exit_, u):
                if chains.chain[u] < 0:
                    build_chain(nb, exit_, u, chains_made, chains.chain, chains.pos,
                                chains.length, chains.ends, chains.outside)
                    chains.memo[chains_made, 0] = -3
                    chains.memo[chains_made, 1] = -3
                    chains_made += 1
                c = chains.chain[u]
            side = _chain_side(chains, c, p, u)
            while True:
                # before the low-points are known a search may pop only what is left of
                # the gamble's allowance; if it runs out, find them and ask again
                allow = 0
                if lows.disc.size == 0:
                    allow = max(1, reached // budgets.waste - cut_waste)
                if side < 0:
                    search_id += 1
                    T[u], used, cut = _search_threat(nb, tree, u, p, heavy, hybrid, budgets,
                                                     exits, space, search_id, sibs, allow)
                    if not heavy:
                        light_pops += used
                else:
                    T[u], used, search_id, cut = _chain_threat(
                        nb, tree, u, p, c, side, chains, exit_, exits, space, search_id,
                        sibs, allow, budgets.heavy if hybrid else 0)
                pops += used
                if lows.disc.size == 0 and T[u] < 0:
                    cut_waste += used  # -1, or -3 (ran out): lost to the gamble
                if T[u] != -3 or lows.disc.size:
                    break
                # ran out: before the formula or another search, the cheaper question, is u
                # cut off from X? Then search again unless the hybrid's budget stopped it
                lows_owner = lowpoints(nb, open_, exit_)
                lows = _borrow_lows(lows_owner)
                if separates(nb, lows, p, u):
                    T[u] = -1
                    break
                if cut:
                    break
            if T[u] == -3 and side >= 0:
                # a chain's shared search ran out of the hybrid's budget: p is a chain cell,
                # so u is its only child, and the only-child rule answers (finding the
                # exits, which the other cells of the chain then use too)
                if exits.dist.size == 0:
                    exits_owner = _find_exits(nb, tree)
                    exits = _borrow_exits(exits_owner)
                T[u] = exits.dist[u] - dist[u] if exits.dist[u] >= 0 else -1
                anchor[u] = exits.cell[u]
                chain_cuts += 1
            elif T[u] == -3:
                known[u] = False
                pending[npending] = u
                npending += 1
                if exits.dist.size == 0:
                    # the formula will need the exits: find them now, so the rest of the
                    # searches get the short budget and the stronger heuristic
                    exits_owner = _find_exits(nb, tree)
                    exits = _borrow_exits(exits_owner)
    found_lows = lows.disc.size > 0  # read before the owners may go: views never outlive them
    _keep_alive(exits_owner, lows_owner)
    return (pops, formula, light_pops, settled_short, settled_quick, found_lows, chain_cuts)


@njit(cache=True, inline="always")
def _short_detour(nb, dist, parent, unique, u, p):
    """T(u) when u's detour around its only parent p is as short as any can be, else -3;
    with an anchor (a cell of u's subtree on that detour). O(k^2), no search.

    A step changes d by -1, 0 or +1, so a walk from u (at d) to X (at 0) avoiding p has
    at least d + 1 steps, and the first step cannot go down (p is u's only parent). Every
    cell w at d(w) >= 1 has a parent, and a walk that has reached w may go on down to X
    avoiding p exactly when some parent of w is not p (``unique[w] != p``): below that
    parent's level there is no p to meet.
    - d + 1 steps: one flat step and d down, the flat one first: u -> w with d(w) = d(u)
      and unique[w] != p.
    - Failing that, d + 2 steps: one up and d + 1 down, the up step first (after a flat
      first step, up and down would need d + 3): u -> w -> z with d(w) = d(u) + 1, d(z) =
      d(u), z != u, unique[z] != p; or two flat and d down, both flat first (a flat step
      then down is the first case): u -> w -> z with d(w) = d(z) = d(u), z != u,
      unique[z] != p.
    On a grid (bipartite) only the up-and-down case occurs, and it settles most cells of a
    random maze: what the search would find in its first two pops, without its set-up.
    The anchor is w when it lies below u (an up step to a child of u), else u itself (on
    every detour from u)."""
    du = dist[u]
    k = nb.shape[1]
    for t in range(k):
        w = nb[u, t]
        if w >= 0 and dist[w] == du and unique[w] != p:
            return du + 1, u
    found = -3
    for t in range(k):
        w = nb[u, t]
        if w < 0 or (dist[w] != du + 1 and dist[w] != du):
            continue
        for s in range(k):
            z = nb[w, s]
            if z >= 0 and z != u and dist[z] == du and unique[z] != p:
                found = du + 2
                if parent[w] == u:
                    return found, w
    return found, u


@njit(cache=True)
def _find_exits(nb, tree):
    """:func:`exits_below_parent` as :class:`Exits`."""
    best, cell = exits_below_parent(nb, tree.dist, tree.parent, tree.tin, tree.tout)
    return Exits(best, cell)


# The three phases of a cell's threat below are inlined into threats(): a call passing
# these named tuples of arrays pays a reference count per array, which made walled mazes
# 20-50 % slower (measured on 300 x 300 and 600 x 600 random mazes).
@njit(cache=True, inline="always")
def _chain_side(chains, c, p, u):
    """Which end of u's chain c the walk from u away from p reaches (0 or 1), or -1 when
    u is searched on its own (no chain, or a chain too short to share)."""
    if c < 0 or chains.length[c] < MIN_CHAIN or chains.outside[c, 0] < 0:
        return -1  # short chains gain nothing from sharing: search from u directly
    pos = chains.pos
    if (chains.chain[p] == c and pos[p] < pos[u]) or (pos[u] == 0
                                                      and chains.outside[c, 0] == p):
        return 1  # p is toward end 0: the walk goes to end 1
    return 0


@njit(cache=True, inline="always")
def _search_threat(nb, tree, u, p, heavy, hybrid, budgets, exits, space, search_id, sibs,
                   allow):
    """T(u) by a detour search from u (search ``search_id``): a heavy child's search in
    the hybrid is cut at its budget (-3: the formula answers it later); light children's
    use their siblings' bounds; any search stops after ``allow`` pops (> 0) too. Returns
    (T(u), pops, whether it was the hybrid's budget that cut it)."""
    limit = 0
    if hybrid and heavy:
        # the formula costs a pass and a Dijkstra over p's light subtrees, once the exits
        # are known: search up to that long first (and at least the budget), so a heavy
        # child costs O(|light| + budget)
        light = _light_size(tree.tin, tree.tout, p, u)
        short = budgets.heavy if exits.dist.size == 0 else min(budgets.heavy, budgets.exits)
        limit = max(short, budgets.light_factor * light)
    budget = limit if allow == 0 or (0 < limit <= allow) else allow
    xp = _exit_bound(nb, tree.parent, exits.dist, p)
    found, used = detour(nb, tree, u, p, -1, space, search_id, budget, xp, sibs, hybrid)
    return found, used, budget == limit


@njit(cache=True, inline="always")
def _chain_threat(nb, tree, u, p, c, side, chains, exit_, exits, space, search_id, sibs,
                  allow, budget):
    """T(u) for u in a chain c: the walk away from p is forced to the chain's end ``side``,
    m steps on, then the search from the cell beyond that end (shared by the whole chain,
    memoised, when p is a chain cell; at most ``allow`` pops when > 0, -3 and nothing
    memoised if that runs out). The shared search also stops after ``budget`` pops (> 0,
    the hybrid's): then p, a chain cell, has u as its only child, and the only-child rule
    answers once the exits are known (:func:`threats`). Returns (T(u), pops, the last
    search id used, whether ``budget`` stopped the search)."""
    e = chains.outside[c, side]
    m = chains.length[c] - chains.pos[u] if side == 1 else chains.pos[u] + 1
    if e == exit_:
        return m, 0, search_id, False
    if e == p:
        # a loop hanging from p: the forced walk leads back to the blocked cell (without
        # the separation test, which would have caught it, this case reaches here)
        return -1, 0, search_id, False
    if chains.chain[p] != c:
        # p is the cell beyond the chain's end, not a chain cell: blocking it may also cut
        # routes from e, so this one search is not shared with the chain
        search_id += 1
        found, used = detour(nb, tree, e, p, chains.ends[c, side], space, search_id, allow,
                             _exit_bound(nb, tree.parent, exits.dist, p), sibs, False)
        return (found if found < 0 else m + found), used, search_id, False
    used = 0
    limit = allow if budget == 0 or (0 < allow <= budget) else budget
    if chains.memo[c, side] == -3:
        search_id += 1
        chains.memo[c, side], used = detour(nb, tree, e, p, chains.ends[c, side], space,
                                            search_id, limit,
                                            _exit_bound(nb, tree.parent, exits.dist, p),
                                            sibs, False)
    if chains.memo[c, side] < 0:
        return chains.memo[c, side], used, search_id, (chains.memo[c, side] == -3
                                                       and limit == budget)
    return m + chains.memo[c, side], used, search_id, False


@njit(cache=True)
def _settle_heavy(nb, tree, unique, exits, pending, sibs):
    """T of the heavy children whose search ran out of budget, by :func:`heavy_threat`
    (into ``sibs.T`` and ``sibs.anchor``); returns the cells its Dijkstras settled."""
    n = nb.shape[0]
    pre = np.empty(tree.order.size, np.int32)
    for v in tree.order:
        pre[tree.tin[v]] = v
    most = 0
    for u in pending:
        most = max(most, _light_size(tree.tin, tree.tout, unique[u], u))
    size = most * (nb.shape[1] + 1) + 1  # one Dijkstra's pushes
    # labels are read only where this run's stamp is (fewer fresh pages to touch)
    space = FormulaSpace(np.empty(n, np.int64), np.full(n, -1, np.int32),
                         np.full(n, -1, np.int32), np.empty(size, np.int64))
    return _settle_heavy_loop(nb, tree, unique, exits, pending, sibs, pre, space)


@njit(cache=True)
def _settle_heavy_loop(nb, tree, unique, exits, pending, sibs, pre, space):
    """The loop of :func:`_settle_heavy` over :func:`borrowed` views of its arrays (one
    :func:`heavy_threat` call per pending child, with no reference counts)."""
    nb, unique, pending, pre = borrowed(nb), borrowed(unique), borrowed(pending), borrowed(pre)
    tree = Tree(borrowed(tree.dist), borrowed(tree.parent), borrowed(tree.tin),
                borrowed(tree.tout), borrowed(tree.order))
    exits = Exits(borrowed(exits.dist), borrowed(exits.cell))
    space = FormulaSpace(borrowed(space.label), borrowed(space.stamp), borrowed(space.done),
                         borrowed(space.heap))
    T, anchor = borrowed(sibs.T), borrowed(sibs.anchor)
    pops = 0
    for i in range(pending.size):
        u = pending[i]
        # stamped by u's place in the list, not by p: tied heavy children share a parent
        threat, settled, a = heavy_threat(nb, tree, pre, exits, unique[u], u, space, i)
        T[u] = threat
        anchor[u] = a
        pops += settled
    return pops


@njit(cache=True)
def label_setting(nb, T, exit_):
    """f(u) = max(T(u), 1 + min_v f(v)), f(X) = 0, for every cell (-1 = infinite).

    Knuth's generalisation of Dijkstra: the right side is a superior function, so cells can
    be fixed in increasing f. A cell's min is given by the first neighbour fixed, so each
    cell is queued once, with its final value: either the next level (val + 1, a FIFO list)
    or its own T(u) > val + 1 (a bucket per T value). O(n k + max T).
    Returns f and each cell's best next step (-1 at X or when infinite).
    """
    n = nb.shape[0]
    k = nb.shape[1]
    top = 0
    for u in range(n):
        if T[u] > top:
            top = T[u]
    head = np.full(top + 2, -1, np.int32)  # cells waiting for f = their T
    link = np.empty(n, np.int32)  # written when a cell joins a bucket, read after
    f = np.full(n, -1, np.int32)
    step = np.full(n, -1, np.int32)
    level = np.empty(n, np.int32)  # cells with f = val (FIFO), then val + 1
    nxt = np.empty(n, np.int32)
    f[exit_] = 0
    level[0] = exit_
    size = 1
    waiting = 0  # cells in T buckets above the current value
    val = 0
    while size > 0 or waiting > 0:
        if val <= top:
            while head[val] >= 0:
                v = head[val]
                head[val] = link[v]
                level[size] = v
                size += 1
                waiting -= 1
        nsize = 0
        for idx in range(size):
            v = level[idx]
            for t in range(k):
                u = nb[v, t]
                if u < 0 or f[u] >= 0 or T[u] < 0 or u == exit_:
                    continue
                step[u] = v
                if T[u] > val + 1:
                    f[u] = T[u]
                    link[u] = head[T[u]]
                    head[T[u]] = u
                    waiting += 1
                else:
                    f[u] = val + 1
                    nxt[nsize] = u
                    nsize += 1
        level, nxt = nxt, level
        size = nsize
        val += 1
    return f, step


@njit(cache=True)
def exits_below_parent(nb, dist, tree, tin, tout):
    """For every cell h: the cheapest way out of h's BFS subtree by a non-tree edge (a, o)
    that lands outside the subtree of h's parent, d(a) + 1 + d(o) (-1 if none). "Safe
    travel" by union-find (Bhosle and Gonzalez 2004 for edge failures): non-tree edges in
    increasing d(a) + d(o) + 1 (a counting sort), each giving its value to the unassigned
    cells on the tree path from a up to one level below the lowest common ancestor, the
    assigned ones skipped by path-compressed jumps. O(m alpha(n)) after the sort. Returns
    the values and, for each cell, the edge's end a below it (-1 if none): a cell of h's
    subtree on a cheapest such way out."""
    n = nb.shape[0]
    k = nb.shape[1]
    top = 0
    for u in range(n):
        if dist[u] > top:
            top = dist[u]
    count = np.zeros(2 * top + 3, np.int64)
    m = 0
    for u in range(n):
        if dist[u] < 0:
            continue
        for t in range(k):
            w = nb[u, t]
            if w > u and dist[w] >= 0 and tree[u] != w and tree[w] != u:
                count[dist[u] + dist[w] + 2] += 1
                m += 1
    for i in range(count.size - 1):
        count[i + 1] += count[i]
    ea = np.empty(m, np.int32)
    eb = np.empty(m, np.int32)
    for u in range(n):
        if dist[u] < 0:
            continue
        for t in range(k):
            w = nb[u, t]
            if w > u and dist[w] >= 0 and tree[u] != w and tree[w] != u:
                j = count[dist[u] + dist[w] + 1]
                ea[j] = u
                eb[j] = w
                count[dist[u] + dist[w] + 1] += 1
    best = np.full(n, -1, np.int64)
    src = np.full(n, -1, np.int32)
    jump = np.arange(n).astype(np.int32)  # jump[x] == x: x not yet given a value
    for j in range(m):
        for side in range(2):
            a = ea[j] if side == 0 else eb[j]
            o = eb[j] if side == 0 else ea[j]
            key = dist[a] + dist[o] + 1
            x = a
            while True:
                # find: the nearest ancestor-or-self of x without a value
                r = x
                while jump[r] != r:
                    r = jump[r]
                while jump[x] != r:
                    nx = jump[x]
                    jump[x] = r
                    x = nx
                x = r
                p = tree[x]
                if p < 0 or tin[p] <= tin[o] <= tout[p]:
                    break  # x's parent holds o below it: the edge no longer leaves
                best[x] = key
                src[x] = a
                jump[x] = p
                x = p
    return best, src


@njit(cache=True)
def _light_size(tin, tout, p, h):
    """Cells in p's light subtrees: p's subtree without p and without h's subtree."""
    return (tout[p] - tin[p]) - (tout[h] - tin[h] + 1)


@njit(cache=True)
def _light_cell(pre, tin, tout, p, h, j):
    """The j-th cell (0 <= j < :func:`_light_size`) of p's light subtrees, in preorder: p's
    preorder block is p, then its children's blocks, so the light cells are the block
    without p and without h's contiguous block."""
    i = tin[p] + 1 + j
    return pre[i if i < tin[h] else i + tout[h] - tin[h] + 1]


@njit(cache=True)
def only_child(nb, parent, p, u):
    """Is u the only child of p in the BFS tree (``parent``: each cell's tree parent)? O(k)."""
    for t in range(nb.shape[1]):
        w = nb[p, t]
        if w >= 0 and w != u and parent[w] == p:
            return False
    return True


@njit(cache=True)
def is_heavy(nb, parent, tin, tout, p, u):
    """Is u a heavy child of p: no other child of p has a larger BFS subtree? (Ties make
    two heavy children; the formula is exact for any child, heaviness only bounds its
    cost.) O(k)."""
    size = tout[u] - tin[u]
    for t in range(nb.shape[1]):
        w = nb[p, t]
        if w >= 0 and w != u and parent[w] == p and tout[w] - tin[w] > size:
            return False
    return True


@njit(cache=True, inline="always")
def _heap_entry(key, cell):
    """A heap entry: ``key`` (a label, >= 0) above ``cell`` (< 2^32) in one integer, so the
    heap compares one number and reads one array."""
    return (np.int64(key) << 32) | np.int64(cell)


# The formula's heap is one array of packed entries, its two operations inlined: the
# engine's three-array heap, called per push and pop, paid reference counts on each array
# (the atomic increments were a third of the adversarial tiling's solve, measured by perf).
@njit(cache=True, inline="always")
def _heap_push(heap, size, entry):
    """Push ``entry`` onto the binary min-heap ``heap[:size]``; returns the new size."""
    j = size
    while j > 0:
        up = (j - 1) >> 1
        if heap[up] <= entry:
            break
        heap[j] = heap[up]
        j = up
    heap[j] = entry
    return size + 1


@njit(cache=True, inline="always")
def _heap_pop(heap, size):
    """Drop the top of the binary min-heap ``heap[:size]`` (read it first at index 0);
    returns the new size."""
    size -= 1
    last = heap[size]
    j = 0
    while True:
        child = 2 * j + 1
        if child >= size:
            break
        if child + 1 < size and heap[child + 1] < heap[child]:
            child += 1
        if heap[child] >= last:
            break
        heap[j] = heap[child]
        j = child
    heap[j] = last
    return size


@njit(cache=True)
def heavy_threat(nb, tree, pre, exits, p, h, space, run):
    """T(h) exactly for the heavy child h of p (h's only parent), with no search through
    h's subtree:

        T(h) = min(X(h), min over edges (a, b), a below h, b in L, of d(a) + 1 + label(b))
               - d(h)

    where X is :func:`exits_below_parent` (``exits``) and label the distances to X inside
    G - p - sub(h), found by one Dijkstra over L, the light subtrees of p, seeded by their
    edges to cells outside p's subtree (which keep their distance). Exact: a BFS tree has
    no edge from below h to p but (h, p), and a shortest detour from h goes down inside
    sub(h) along the tree (d(a) - d(h) steps) and never comes back once it leaves. A cell
    lies in a light subtree of at most log2 n ancestors, so all these Dijkstras together
    cost O(n k log^2 n). ``run`` marks this call's cells in ``space`` (a
    :class:`FormulaSpace`; a new mark each call: tied heavy children share their parent).
    Returns (T(h), -1 if infinite; cells the Dijkstra settled; a cell below h on a shortest
    detour from h, -1 if none)."""
    k = nb.shape[1]
    dist, tin, tout = tree.dist, tree.tin, tree.tout
    label, stamp, done = space.label, space.stamp, space.done
    heap = space.heap
    heap_size = 0
    nlight = _light_size(tin, tout, p, h)
    for j in range(nlight):
        b = _light_cell(pre, tin, tout, p, h, j)
        stamp[b] = run
        label[b] = -1
        for t in range(k):
            o = nb[b, t]
            outside = o >= 0 and not (tin[p] <= tin[o] <= tout[p])
            if outside and (label[b] < 0 or dist[o] + 1 < label[b]):
                label[b] = dist[o] + 1
        if label[b] >= 0:
            heap_size = _heap_push(heap, heap_size, _heap_entry(label[b], b))
    settled = 0
    while heap_size > 0:
        key = heap[0] >> 32
        b = heap[0] & 0xFFFFFFFF
        heap_size = _heap_pop(heap, heap_size)
        if done[b] == run or key != label[b]:
            continue
        done[b] = run
        settled += 1
        for t in range(k):
            w = nb[b, t]
            if (w >= 0 and stamp[w] == run and done[w] != run
                    and (label[w] < 0 or key + 1 < label[w])):
                label[w] = key + 1
                heap_size = _heap_push(heap, heap_size, _heap_entry(key + 1, w))
    best = exits.dist[h]
    anchor = exits.cell[h]
    for j in range(nlight):
        b = _light_cell(pre, tin, tout, p, h, j)
        if label[b] < 0:
            continue
        for t in range(k):
            a = nb[b, t]
            if a >= 0 and tin[h] <= tin[a] <= tout[h]:
                c = dist[a] + 1 + label[b]
                if best < 0 or c < best:
                    best = c
                    anchor = a
    return (-1 if best < 0 else best - dist[h]), settled, anchor
