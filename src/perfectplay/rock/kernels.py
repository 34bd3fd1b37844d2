"""numba kernels of the fast Rock solver. Plain arrays in and out; each runs as Python under
``NUMBA_DISABLE_JIT=1``. Notation (docs/algorithms.md, "The Rock"): d = BFS distance to the
exit X; a parent of u is a neighbour w with d(w) = d(u) - 1; T(u) the rock's best immediate
threat at u."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine.kernels import heap_pop, heap_push


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
def euler_intervals(tree, order):
    """Preorder numbers ``tin`` and subtree ends ``tout`` of the BFS tree, without recursion:
    subtree sizes by reverse BFS order, then each child numbered after its elder siblings.
    x lies in the subtree of p exactly when tin[p] <= tin[x] <= tout[p]. O(n)."""
    n = tree.size
    size = np.zeros(n, np.int32)
    for idx in range(order.size - 1, -1, -1):
        u = order[idx]
        size[u] += 1
        if tree[u] >= 0:
            size[tree[u]] += size[u]
    tin = np.full(n, -1, np.int32)
    nxt = np.zeros(n, np.int32)  # next free preorder number among u's children
    root = order[0]
    tin[root] = 0
    nxt[root] = 1
    for idx in range(1, order.size):
        u = order[idx]
        p = tree[u]
        tin[u] = nxt[p]
        nxt[p] += size[u]
        nxt[u] = tin[u] + 1
    tout = tin + size - 1
    return tin, tout


@njit(cache=True)
def lowpoints(nb, open_, root):
    """Iterative DFS from ``root`` over open cells: discovery times, the last discovery time
    in each DFS subtree, low-points and DFS parents (Hopcroft–Tarjan 1973). O(n k)."""
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
    return disc, fin, low, dpar


@njit(cache=True)
def separates(nb, disc, fin, low, dpar, p, u):
    """Does removing cell p cut cell u off from the DFS root? True exactly when u lies in
    the subtree of a DFS child c of p with low[c] >= disc[p]; a u outside p's subtree (or
    p itself) matches no child and is not cut off. O(k)."""
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
def _exit_bound(nb, tree, X, p):
    """The cheapest d(a) + 1 + d(o) over edges (a, o) from below p to outside p's subtree
    (the least of its children's :func:`exits_below_parent`), -1 if none or not known."""
    best = -1
    if X.size == 0:
        return best
    for t in range(nb.shape[1]):
        c = nb[p, t]
        if c >= 0 and tree[c] == p and X[c] >= 0 and (best < 0 or X[c] < best):
            best = X[c]
    return best


@njit(cache=True)
def _child_holding(nb, tree, tin, tout, p, w):
    """The child of p whose BFS subtree holds w (w below p), -1 if none. O(k)."""
    for t in range(nb.shape[1]):
        c = nb[p, t]
        if c >= 0 and tree[c] == p and tin[c] <= tin[w] <= tout[c]:
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
def detour(nb, dist, tin, tout, start, p, banned, key, stamp, closed, buckets, sizes, sid,
           budget=0, xp=-1, tree=None, T=None, known=None, via=None, anchor=None):
    """Shortest distance from ``start`` to X avoiding cells p and ``banned``, given that
    every cell outside p's BFS subtree reaches X in d steps avoiding them both. ``nb`` lists
    open neighbours only (walls removed).

    A* with a consistent heuristic (d, raised inside p's subtree by ``xp`` when given:
    :func:`_potential`): a step x -> w costs 1 + h(w) - h(x) in {0, 1, 2}, so three
    rotating buckets replace the heap, and the first popped cell outside p's subtree ends
    the search. Returns (distance, pops); distance -1 when X is unreachable, -3 when
    ``budget`` (> 0) pops did not settle it.

    Siblings (``start`` a child of p; ``tree``, ``T``, ``known``, ``via`` and ``anchor``
    given): for a sibling c of ``start`` whose detour T(c) = dist(c -> X in G - p) is
    known, a cell w below c reaches X in G - p within d(w) - d(c) + T(c) steps (up the
    tree to c, then c's detour) and no faster than T(c) - (d(w) - d(c)) (the triangle
    inequality through the tree path back to c); when w is on the tree path from c down to
    ``anchor[c]``, a cell of c's subtree on one of c's shortest detours, the two meet and
    w's distance is known exactly. The upper bounds end the search once its keys reach the
    best of them, the lower bound prunes cells that cannot beat it, and a cell whose
    distance is exact is not entered at all: all three only stop the search sooner. When
    the search settles, ``anchor[start]`` gets the last cell below ``start`` on the route
    it found (-1 if none).
    """
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
    if T is not None and tin[p] < tin[start] <= tout[p]:
        for t in range(k):
            c = nb[p, t]
            if c >= 0 and c != start and tree[c] == p:
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
                c = _child_holding(nb, tree, tin, tout, p, w)
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


@njit(cache=True)
def threats(nb, dist, unique, tin, tout, disc, fin, low, dpar, exit_, use_chains, order, tree,
            budget, long_search, light_factor=1, exits_budget=8):
    """T(u) for every reached cell (-1 = infinite), the searches' total pops, how many
    heavy children the formula answered, each cell's anchor (a cell of its subtree on one
    of its shortest detours, -1 if none was recorded), and the pops of light children's
    searches (the work without a proven bound: what the targeted adversary maximises).

    T(u) = d(u) unless u has exactly one parent p != X; then T(u) = dist(u -> X in G - p):
    - infinite when p separates u from X (low-points; no search);
    - with ``budget`` > 0 (the hybrid), once the exits below every cell are known (after
      the searches have popped ``long_search`` cells a cell, or when the formula is first
      needed): when u is p's only child, T(u) = X(u) - d(u) at once (the heavy/light
      formula with no light subtrees);
    - if u lies in a chain (cells with two neighbours) and the exits are not known yet,
      the walk from u away from p is forced to the chain's far end e, m steps on, so T(u) =
      m + dist(e -> X avoiding p and the chain). When p is itself a chain cell that
      distance does not depend on which one (the cells behind p are a dead end), so each
      chain end is searched once and shared by the whole chain. (When p is the cell beyond
      the chain's end, blocking it may cut other routes too, so that cell gets a search of
      its own.);
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
    T = dist.copy()
    key = np.zeros(n, np.int32)
    stamp = np.full(n, -1, np.int32)
    closed = np.full(n, -1, np.int32)
    buckets = np.empty((3, n), np.int32)
    sizes = np.zeros(3, np.int64)
    # chains are labelled on first use; arrays sized for the worst case, filled lazily
    cid = np.full(n, -1, np.int32)
    pos = np.empty(n, np.int32)
    length = np.empty(n, np.int64)
    ends = np.empty((n, 2), np.int64)
    outside = np.empty((n, 2), np.int64)
    memo = np.empty((n, 2), np.int64)
    chains_made = 0
    pops = 0
    sid = 0
    pending = np.empty(n, np.int32)  # heavy children whose search ran out of budget
    npending = 0
    # the exits below each cell (values X, exit cells Xa), for the formula, the only-child
    # rule and the searches' stronger heuristic: found once the searches have popped
    # ``long_search`` cells a reached cell, or when a first heavy search runs out
    X = np.full(0, -1, np.int64)
    Xa = np.full(0, -1, np.int32)
    # a cell below u on one of its shortest detours (-1: none known), and the searches'
    # back links that find it
    anchor = np.full(n, -1, np.int32)
    via = np.empty(n, np.int32)
    # known[u]: T(u) is final. A cell with several parents (or none) has T = d from the
    # start; it is also its own detour when one of its parents is blocked.
    known = unique < 0
    hybrid = budget > 0
    formula = 0
    light_pops = 0  # pops of light children's own searches: the part with no proven bound
    later = np.empty(n, np.int32)  # the light children, in the order the first phase met them
    nlater = 0
    for phase in range(2):
        # heavy children first (searched within a budget, else the formula), so that the
        # light children's searches can stop on their heavy sibling's known detour
        if phase == 1 and npending:
            if X.size == 0:
                X, Xa = exits_below_parent(nb, dist, tree, tin, tout)
            pops += _settle_heavy(nb, dist, unique, tin, tout, order, X, Xa,
                                  pending[:npending], T, anchor)
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
            heavy = phase == 0 and is_heavy(nb, tree, tin, tout, p, u)
            if phase == 0 and not heavy:
                later[nlater] = u  # a light child: its turn comes in the second phase
                nlater += 1
                continue
            known[u] = True
            if hybrid and X.size == 0 and pops >= long_search * order.size:
                # the searches (chains' included) have popped long_search cells per reached
                # cell: find the exits
                X, Xa = exits_below_parent(nb, dist, tree, tin, tout)
            if X.size and only_child(nb, tree, p, u):
                # p's subtree is u's and p: T(u) is the formula with no light subtrees,
                # the cheapest exit from below u (-1: none, p separates u from X)
                T[u] = X[u] - dist[u] if X[u] >= 0 else -1
                anchor[u] = Xa[u]
                continue
            if separates(nb, disc, fin, low, dpar, p, u):
                T[u] = -1
                continue
            c = -1
            if use_chains and X.size == 0 and is_link(nb, exit_, u):
                if cid[u] < 0:
                    build_chain(nb, exit_, u, chains_made, cid, pos, length, ends, outside)
                    memo[chains_made, 0] = -3
                    memo[chains_made, 1] = -3
                    chains_made += 1
                c = cid[u]
            side = -1
            # short chains gain nothing from sharing: search from u directly
            if c >= 0 and length[c] >= MIN_CHAIN and outside[c, 0] >= 0:
                if (cid[p] == c and pos[p] < pos[u]) or (pos[u] == 0 and outside[c, 0] == p):
                    side = 1  # p is toward end 0: the walk goes to end 1
                else:
                    side = 0
            if side < 0:
                sid += 1
                limit = 0
                if hybrid and heavy:
                    # the formula costs a pass and a Dijkstra over p's light subtrees, once
                    # the exits are known: search up to that long first (and at least the
                    # budget), so a heavy child costs O(|light| + budget)
                    light = _light_size(tin, tout, p, u)
                    short = budget if X.size == 0 else min(budget, exits_budget)
                    limit = max(short, light_factor * light)
                xp = _exit_bound(nb, tree, X, p)
                if hybrid:
                    T[u], used = detour(nb, dist, tin, tout, u, p, -1, key, stamp, closed,
                                        buckets, sizes, sid, limit, xp, tree, T, known, via,
                                        anchor)
                else:
                    T[u], used = detour(nb, dist, tin, tout, u, p, -1, key, stamp, closed,
                                        buckets, sizes, sid, 0, xp)
                pops += used
                if not heavy:
                    light_pops += used
                if T[u] == -3:
                    known[u] = False
                    pending[npending] = u
                    npending += 1
                    if X.size == 0:
                        # the formula will need the exits: find them now, so the rest of
                        # the searches get the short budget and the stronger heuristic
                        X, Xa = exits_below_parent(nb, dist, tree, tin, tout)
                continue
            e = outside[c, side]
            m = length[c] - pos[u] if side == 1 else pos[u] + 1
            if e == exit_:
                T[u] = m
                continue
            if cid[p] != c:
                # p is the cell beyond the chain's end, not a chain cell: blocking it may
                # also cut routes from e, so this one search is not shared with the chain
                sid += 1
                found, used = detour(nb, dist, tin, tout, e, p, ends[c, side], key, stamp,
                                     closed, buckets, sizes, sid, 0, _exit_bound(nb, tree, X, p))
                pops += used
                T[u] = found if found < 0 else m + found
                continue
            if memo[c, side] == -3:
                sid += 1
                memo[c, side], used = detour(nb, dist, tin, tout, e, p, ends[c, side], key,
                                             stamp, closed, buckets, sizes, sid, 0,
                                             _exit_bound(nb, tree, X, p))
                pops += used
            if memo[c, side] < 0:
                T[u] = memo[c, side]
            else:
                T[u] = m + memo[c, side]
    return T, pops, formula, anchor, light_pops


@njit(cache=True)
def _settle_heavy(nb, dist, unique, tin, tout, order, X, Xa, pending, T, anchor):
    """T of the heavy children whose search ran out of budget, by :func:`heavy_threat`
    (into ``T`` and ``anchor``); returns the cells its Dijkstras settled."""
    n = nb.shape[0]
    pre = np.empty(order.size, np.int32)
    for v in order:
        pre[tin[v]] = v
    lab = np.full(n, -1, np.int64)
    mark = np.full(n, -1, np.int32)
    done = np.full(n, -1, np.int32)
    most = 0
    for u in pending:
        p = unique[u]
        most = max(most, _light_size(tin, tout, p, u))
    hk = np.empty(most * (nb.shape[1] + 1) + 1, np.int64)  # one Dijkstra's pushes
    hr = np.zeros(hk.size, np.int64)  # the engine's heap breaks ties by a second key
    hv = np.empty(hk.size, np.int64)
    pops = 0
    for i in range(pending.size):
        u = pending[i]
        # stamped by u's place in the list, not by p: tied heavy children share a parent
        T[u], work, anchor[u] = heavy_threat(nb, dist, pre, tin, tout, X, Xa, unique[u], u,
                                             lab, mark, done, hk, hr, hv, i)
        pops += work
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
    link = np.full(n, -1, np.int32)
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
def only_child(nb, tree, p, u):
    """Is u the only child of p in the BFS tree? O(k)."""
    for t in range(nb.shape[1]):
        w = nb[p, t]
        if w >= 0 and w != u and tree[w] == p:
            return False
    return True


@njit(cache=True)
def is_heavy(nb, tree, tin, tout, p, u):
    """Is u a heavy child of p: no other child of p has a larger BFS subtree? (Ties make
    two heavy children; the formula is exact for any child, heaviness only bounds its
    cost.) O(k)."""
    size = tout[u] - tin[u]
    for t in range(nb.shape[1]):
        w = nb[p, t]
        if w >= 0 and w != u and tree[w] == p and tout[w] - tin[w] > size:
            return False
    return True


@njit(cache=True)
def heavy_threat(nb, dist, pre, tin, tout, X, Xa, p, h, lab, stamp, done, hk, hr, hv, sid):
    """T(h) exactly for the heavy child h of p (h's only parent), with no search through
    h's subtree:

        T(h) = min(X(h), min over edges (a, b), a below h, b in L, of d(a) + 1 + lab(b))
               - d(h)

    where X is :func:`exits_below_parent` and lab the distances to X inside G - p -
    sub(h), found by one Dijkstra over L, the light subtrees of p, seeded by their edges to
    cells outside p's subtree (which keep their distance). Exact: a BFS tree has no edge
    from below h to p but (h, p), and a shortest detour from h goes down inside sub(h)
    along the tree (d(a) - d(h) steps) and never comes back once it leaves. A cell lies in
    a light subtree of at most log2 n ancestors, so all these Dijkstras together cost
    O(n k log^2 n). ``sid`` marks this call's cells in ``stamp`` and ``done`` (a new one
    each call: tied heavy children share their parent). ``Xa`` is the exit cell of each
    value of X. Returns (T(h), -1 if infinite; cells the Dijkstra settled; a cell below h
    on a shortest detour from h, -1 if none)."""
    k = nb.shape[1]
    hsize = 0
    nlight = _light_size(tin, tout, p, h)
    for j in range(nlight):
        b = _light_cell(pre, tin, tout, p, h, j)
        stamp[b] = sid
        lab[b] = -1
        for t in range(k):
            o = nb[b, t]
            outside = o >= 0 and not (tin[p] <= tin[o] <= tout[p])
            if outside and (lab[b] < 0 or dist[o] + 1 < lab[b]):
                lab[b] = dist[o] + 1
        if lab[b] >= 0:
            hsize = heap_push(hk, hr, hv, hsize, lab[b], 0, b)
    work = 0
    while hsize > 0:
        key = hk[0]
        b = hv[0]
        hsize = heap_pop(hk, hr, hv, hsize)
        if done[b] == sid or key != lab[b]:
            continue
        done[b] = sid
        work += 1
        for t in range(k):
            w = nb[b, t]
            if (w >= 0 and stamp[w] == sid and done[w] != sid
                    and (lab[w] < 0 or key + 1 < lab[w])):
                lab[w] = key + 1
                hsize = heap_push(hk, hr, hv, hsize, key + 1, 0, w)
    best = X[h]
    anchor = Xa[h]
    for j in range(nlight):
        b = _light_cell(pre, tin, tout, p, h, j)
        if lab[b] < 0:
            continue
        for t in range(k):
            a = nb[b, t]
            if a >= 0 and tin[h] <= tin[a] <= tout[h]:
                c = dist[a] + 1 + lab[b]
                if best < 0 or c < best:
                    best = c
                    anchor = a
    return (-1 if best < 0 else best - dist[h]), work, anchor
