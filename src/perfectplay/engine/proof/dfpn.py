"""Depth-first proof-number search (df-pn): "does the player to move win?" answered alone.

Alpha-beta (:mod:`.kernel`) orders the moves by the game's ``search_moves`` and searches
them in that order; proof-number search (Allis, van der Meulen and van den Herik 1994)
instead always expands the frontier node that is cheapest to settle, measured by two
numbers a node keeps: the *proof number* (the fewest leaves still to prove the question)
and the *disproof number* (the fewest to refute it). It answers one yes/no question, so it
suits a win/lose game's winner and nothing scored. Here it runs over a
:class:`~perfectplay.engine.CompiledGame`'s compiled rules (the same ``Rules`` the
alpha-beta kernel takes), in numba with no Python per node.

**The question.** In the negamax form (Nagai 2002) each node keeps phi (the proof number of
*its mover's* question) and delta (its disproof number). The question alternates: "does
the mover win?" holds iff some move leads to a child whose mover does not avoid a loss, so
the child is asked "does the mover not lose?" (and the other way round); a move that keeps
the turn (``player``) keeps the question. A node's phi is the least of its children's
numbers that prove it (a child's delta, or its phi for a move that keeps the turn), its
delta the sum of those that refute it (a child's phi, or its delta), capped below
"infinity". A game that cannot tie
(``cannot_tie``: Domineering) asks "win?" everywhere, both questions being one. Ended
children answer at once (a tie answers "win?" no and "not lose?" yes); so does the game's
``static_bounds``: ``WINS_IN_1`` proves both questions, ``LOSES_IN_2`` and ``MUST_LOSE``
refute both, ``CANNOT_WIN`` refutes "win?", ``CANNOT_LOSE`` proves "not lose?" (and, when the
game cannot tie, "win?"); such a child is never expanded. Moves are the game's
``search_moves`` (which prunes only moves no better than one it lists, so both answers
stand), in its order on ties. A new child's first numbers are phi 1 and delta its count of
``search_moves`` (one move proves its question, every one must be refuted: the mobility
of Winands, Uiterwijk and van den Herik 2004), or both 1 (Nagai's) with ``init="one"``.

**The search.** Nagai's df-pn: a node is searched depth-first under two thresholds and
left as soon as its phi or delta reaches one; the child of least phi-cost is entered with
thresholds that make it return when it stops being the best. The child's threshold on the
cost its parent compares is the second-best cost times 1 + epsilon (Pawlewicz and Lew 2007:
fewer re-expansions of the same nodes, where the classic rule returns when the best
child's cost passes the second's by one), and never less than that cost + 1. The stack is
explicit (a line thousands of plies deep needs no recursion); a node's children, their
codes, table keys and numbers are kept in its frame while it is searched.

A node's delta is the sum of its children's (Nagai's), or with ``disproof="weak"`` the
largest plus one a further open child (Ueda, Hashimoto, Hashimoto and Iida 2008: a
position reached by many lines is counted once, not once a line).

**The table.** A node's (phi, delta) is kept by (``canonical`` code, question) in two-slot
buckets: a result replaces the entry of the same key, else an empty slot, else the slot
whose subtree cost less work (nodes, as a log2; the alpha-beta table's rule), or with
``replace="always"`` it takes the first slot and the first slot's entry moves to the
second (the two most recent kept). Proven and refuted positions are kept as phi or delta
0. A child met for the first time is kept too, with its first numbers or its static
answer (``first="kept"``), so the next visit of its parent reads one entry instead of
calling ``static_bounds`` and counting its moves again (Domineering 7x7: 44 % less CPU);
``first="made"`` keeps only expanded nodes.
The two questions of a game that can tie (the second run, "not lose?", after "win?" is
refuted) share one table.

**Cycles.** A game without a ``tier`` has every child compared with the line above it, as
the alpha-beta kernel does, and a repeated position stops the search with the engine's
cycle error: a proof or disproof through a repeated position (the graph-history
interaction, Kishimoto and Müller 2004) is never claimed. The catalog's compiled games
are acyclic.

Cost: O(expansions x moves) rule calls and table look-ups (every child of an expanded node
is made and looked up once a visit); memory O(max_depth x max_moves) besides the table.

References: L. V. Allis, M. van der Meulen, H. J. van den Herik, "Proof-number search",
Artificial Intelligence 66 (1994); A. Nagai, "Df-pn algorithm for searching AND/OR trees
and its applications", PhD thesis, University of Tokyo (2002); J. Pawlewicz and Ł. Lew,
"Improving depth-first PN-search: 1 + ε trick", Computers and Games 2006, LNCS 4630
(2007); M. H. M. Winands, J. W. H. M. Uiterwijk, H. J. van den Herik, "An effective
two-level proof-number search algorithm", Theoretical Computer Science 313 (2004);
T. Ueda, T. Hashimoto, J. Hashimoto, H. Iida, "Weak proof-number search", Computers and
Games 2008, LNCS 5131; A. Kishimoto and M. Müller, "A general solution to the graph
history interaction problem", AAAI 2004.

>>> from perfectplay.games import tictactoe
>>> r = prove(tictactoe(), table_mb=1)
>>> r.value, r.runs
(<Value.TIE: 'tie'>, 2)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, cast

import numpy as np
from numba import njit

from ...errors import GameError, LimitError, show
from ..check import precheck
from ..compiled import CompiledGame, kernel_door
from ..compiled.codetable import mix
from ..protocol import (
    CANNOT_LOSE,
    CANNOT_WIN,
    LOSES_IN_2,
    MUST_LOSE,
    WINS_IN_1,
    Game,
    Position,
    Value,
    cannot_tie,
    capabilities,
    is_compiled,
    is_scored,
)
from ..protocol import LOSE_CODE as LOSE
from ..protocol import TIE_CODE as TIE
from ..protocol import UNKNOWN as ONGOING
from ..protocol import WIN_CODE as WIN
from ..solved import game_picture, move_lines, position_json
from ..status import ABORTED, BAD_OUTCOME, BAD_SEARCH_MOVES, OK, TOO_DEEP, status_error
from .backends import aligned_zeros, table_entries
from .kernel import Kind, log2_work, make_move
from .limits import Limits

__all__ = ["ProofResult", "prove"]

#: "infinity": a proven (phi 0, delta INF) or refuted (phi INF, delta 0) question; sums
#: stop at INF - 1
INF = np.int64(1 << 40)
ASK_WIN, ASK_NOT_LOSE = 0, 1  # the two questions a node is asked (of its mover)
_VALID = 1
_ENTER, _NEXT, _RETURN = range(3)
_GOLDEN = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as an int64: the question's mix


def new_table(table_mb: float) -> np.ndarray:
    """An empty table of at most ``table_mb`` MB: a power of two of 32-byte slots (at least
    1,024), four int64 a slot (the canonical code, phi, delta, and the meta word: bit 0
    valid, bit 1 the question, bits 2.. the log2 of the work, :func:`tt_put`), two slots a
    bucket, each bucket one 64-byte cache line (one miss a look-up; four arrays side by
    side, a first version, cost four)."""
    return aligned_zeros(4 * table_entries(table_mb, 32))


@njit(cache=True)
def _bucket(table, key, ask):
    """The first word of (key, ask)'s bucket of two slots."""
    h = np.int64(mix(key)) ^ (_GOLDEN * ask)
    return (h & ((table.size >> 3) - 1)) << 3


@njit(cache=True)
def tt_get(table, key, ask):
    """(found, phi, delta) kept for ``key`` asked ``ask``. O(1)."""
    b = _bucket(table, key, ask)
    for w in range(b, b + 8, 4):
        m = table[w + 3]
        if m & _VALID and ((m >> 1) & 1) == ask and table[w] == key:
            return True, table[w + 1], table[w + 2]
    return False, np.int64(1), np.int64(1)


@njit(cache=True)
def tt_put(table, key, ask, phi, delta, nodes, always):
    """Keep (phi, delta) for ``key`` asked ``ask`` (see the module doc for which slot),
    its subtree having cost ``nodes`` expansions. O(1)."""
    b = _bucket(table, key, ask)
    work = log2_work(nodes)
    target = -1
    for w in range(b, b + 8, 4):
        m = table[w + 3]
        if m & _VALID and ((m >> 1) & 1) == ask and table[w] == key:
            work = max(work, m >> 2)
            target = w
            break
    if target < 0:
        if always:  # the first slot's entry moves to the second
            for j in range(4):
                table[b + 4 + j] = table[b + j]
            target = b
        elif not table[b + 3] & _VALID:
            target = b
        elif not table[b + 7] & _VALID:
            target = b + 4
        else:
            target = b if (table[b + 3] >> 2) <= (table[b + 7] >> 2) else b + 4
    table[target] = key
    table[target + 1] = phi
    table[target + 2] = delta
    table[target + 3] = _VALID | (ask << 1) | (work << 2)


class Space(NamedTuple):
    """The explicit stack of one :func:`dfpn`: an int64 a ply in each of the first rows
    (index d: the node at depth d), then the children of every ply, max_moves + 1 a ply."""

    pos: np.ndarray  # the position
    ask: np.ndarray  # its question
    key: np.ndarray  # its table key (canonical code)
    th_phi: np.ndarray  # its thresholds
    th_delta: np.ndarray
    n_kids: np.ndarray  # its children
    current: np.ndarray  # the child being searched
    start: np.ndarray  # the expansions when it began (its work)
    c_move: np.ndarray  # a child's move
    c_pos: np.ndarray  # its code
    c_key: np.ndarray  # its table key
    c_pass: np.ndarray  # 1 when the move passes the turn
    c_prove: np.ndarray  # its cost to prove the parent's question (delta, or phi: same turn)
    c_refute: np.ndarray  # its cost to refute it (phi, or delta)
    scratch: np.ndarray  # a child's moves, counted (mobility)


def new_space(max_depth: int, max_moves: int) -> Space:
    """The stack of a search of lines up to ``max_depth`` plies."""
    rows = [np.zeros(max_depth + 1, np.int64) for _ in range(8)]
    kids = [np.zeros((max_depth + 1) * (max_moves + 1), np.int64) for _ in range(6)]
    return Space._make([*rows, *kids, np.zeros(max_moves + 1, np.int64)])


@njit(inline="always")
def _answer(o, known, ask, tie_free):
    """(status, phi, delta) of a child's question from its outcome ``o`` (ended) or its
    static bounds ``known``, or (OK, -1, -1) when neither settles it."""
    if o != ONGOING:
        if o == WIN:
            return OK, np.int64(0), INF
        if o == LOSE:
            return OK, INF, np.int64(0)
        if o == TIE:
            if tie_free:  # a tie where the game says none can be: its declaration is false
                return BAD_OUTCOME, INF, np.int64(0)
            if ask == ASK_WIN:
                return OK, INF, np.int64(0)
            return OK, np.int64(0), INF
        return BAD_OUTCOME, INF, np.int64(0)
    if known & WINS_IN_1:
        return OK, np.int64(0), INF
    if known & (LOSES_IN_2 | MUST_LOSE):
        return OK, INF, np.int64(0)
    if known & CANNOT_WIN and (ask == ASK_WIN or tie_free):
        return OK, INF, np.int64(0)
    if known & CANNOT_LOSE and (ask == ASK_NOT_LOSE or tie_free):
        return OK, np.int64(0), INF
    return OK, np.int64(-1), np.int64(-1)


@njit(nogil=True)
def dfpn(root, root_ask, rules, kind, tie_free, table, space, node_limit, stop, eps_num,
         eps_den, always, mobility, weak, keep_first, counts):
    """df-pn of ``root`` asked ``root_ask`` (module doc): (status, phi, delta, move).
    OK: phi 0 (the question proven; ``move`` a root move that proves it, or -1 when the
    root was settled without one), delta 0 (refuted) or, neither, the node budget or
    ``stop[0]`` ended it first (``counts`` then says so by its status ABORTED instead). A
    status other than OK or ABORTED is the rules' error at the code in ``phi``.
    ``counts[0]`` gets the expansions (the nodes), ``counts[1]`` the children made and
    looked up. ``eps_num / eps_den`` is epsilon; ``always``: always-replace the table.
    O(expansions x moves)."""
    smoves, moves, outcome = rules.search_moves, rules.moves, rules.outcome
    canonical, bounds = rules.canonical, rules.static_bounds
    symmetric = kind.symmetric
    pos, ask_of, key_of = space.pos, space.ask, space.key
    th_phi, th_delta, count, current, start = (space.th_phi, space.th_delta, space.n_kids,
                                               space.current, space.start)
    c_move, c_pos, c_key, c_pass = space.c_move, space.c_pos, space.c_key, space.c_pass
    c_prove, c_refute = space.c_prove, space.c_refute
    stride = kind.max_moves + 1
    max_depth = pos.size - 1
    expanded = np.int64(0)
    made = np.int64(0)
    # the root itself: ended, or settled by its static bounds
    o = outcome(root)
    known = 0 if o != ONGOING else bounds(root)
    status, phi, delta = _answer(o, known, root_ask, tie_free)
    if status != OK:
        return status, root, np.int64(0), np.int64(-1)
    if phi >= 0:
        return OK, phi, delta, np.int64(-1)
    d = np.int64(0)
    pos[0] = root
    ask_of[0] = root_ask
    key_of[0] = canonical(root) if symmetric else root
    th_phi[0] = INF
    th_delta[0] = INF
    state = _ENTER
    r_phi, r_delta = np.int64(0), np.int64(0)
    while True:
        if state == _ENTER:
            expanded += 1
            if (expanded & 1023) == 0 and stop[0] != 0:
                counts[0], counts[1] = expanded, made
                return ABORTED, np.int64(0), np.int64(0), np.int64(-1)
            if expanded > node_limit:
                counts[0], counts[1] = expanded, made
                return ABORTED, np.int64(0), np.int64(0), np.int64(-1)
            p = pos[d]
            ask = ask_of[d]
            start[d] = expanded
            base = d * stride
            k = smoves(p, c_move[base:base + stride])
            if k < 0 or k > kind.max_moves:
                return BAD_SEARCH_MOVES, p, np.int64(0), np.int64(-1)
            if k == 0:
                if moves(p, c_move[base:base + stride]) != 0:
                    return BAD_SEARCH_MOVES, p, np.int64(0), np.int64(-1)
                r_phi, r_delta = INF, np.int64(0)  # no move: a loss
                tt_put(table, key_of[d], ask, r_phi, r_delta, 1, always)
                state = _RETURN
                continue
            for i in range(base, base + k):
                status, c, passes, _ = make_move(p, c_move[i], pos, d, rules, kind)
                if status != OK:
                    return status, c, np.int64(0), np.int64(-1)
                made += 1
                c_ask = ask if tie_free or not passes else 1 - ask
                o = outcome(c)
                ck = c
                if o != ONGOING:  # ended: its answer
                    status, phi, delta = _answer(o, 0, c_ask, tie_free)
                    if status != OK:
                        return status, c, np.int64(0), np.int64(-1)
                else:
                    ck = canonical(c) if symmetric else c
                    found, phi, delta = tt_get(table, ck, c_ask)
                    if not found:  # its static bounds, else its first numbers, kept
                        _, phi, delta = _answer(ONGOING, bounds(c), c_ask, tie_free)
                        if phi < 0:
                            phi = np.int64(1)  # mobility: one move proves it, all refute it
                            delta = max(np.int64(1), smoves(c, space.scratch)) if mobility \
                                else np.int64(1)
                        if keep_first:
                            tt_put(table, ck, c_ask, phi, delta, 1, always)
                c_pos[i] = c
                c_key[i] = ck
                c_pass[i] = 1 if passes else 0
                if passes:
                    c_prove[i], c_refute[i] = delta, phi
                else:
                    c_prove[i], c_refute[i] = phi, delta
            count[d] = k
            state = _NEXT
        elif state == _RETURN:
            if d == 0:
                counts[0], counts[1] = expanded, made
                move = c_move[current[0]] if r_phi == 0 else -1
                return OK, r_phi, r_delta, move
            d -= 1
            i = current[d]
            if c_pass[i]:
                c_prove[i], c_refute[i] = r_delta, r_phi
            else:
                c_prove[i], c_refute[i] = r_phi, r_delta
            state = _NEXT
        else:  # _NEXT: the node at depth d takes its numbers from its children
            base = d * stride
            k = count[d]
            best = base
            first = INF + 1
            second = INF + 1
            total = np.int64(0)
            most = np.int64(0)
            open_kids = 0
            for i in range(base, base + k):
                a = c_prove[i]
                if a < first:
                    second = first
                    first = a
                    best = i
                elif a < second:
                    second = a
                b = c_refute[i]
                total += b
                if b > 0:
                    open_kids += 1
                    most = max(most, b)
            if weak and open_kids > 0:  # Ueda et al.: the most, plus one a sibling
                total = most + open_kids - 1 if most < INF else INF
            phi = first
            delta = INF if total >= INF else total
            if phi >= INF:
                phi, delta = INF, np.int64(0)
            elif phi == 0:
                delta = INF
            elif delta >= INF:  # many children: capped below "refuted"
                delta = INF - 1
            current[d] = best
            if phi == 0 or delta == 0 or phi >= th_phi[d] or delta >= th_delta[d]:
                tt_put(table, key_of[d], ask_of[d], phi, delta, expanded - start[d] + 1,
                       always)
                r_phi, r_delta = phi, delta
                state = _RETURN
                continue
            # the best child's thresholds: return once it is no longer the cheapest (1 + eps)
            if second > INF:
                second = INF
            grow = second + (second * eps_num) // eps_den
            lim_prove = min(th_phi[d], max(second + 1, grow))
            if weak:
                lim_refute = th_delta[d] - (open_kids - 1)
            else:
                lim_refute = th_delta[d] - delta + c_refute[best]
            if lim_refute > INF:
                lim_refute = INF
            if d + 1 > max_depth:
                return TOO_DEEP, pos[d], np.int64(0), np.int64(-1)
            pos[d + 1] = c_pos[best]
            key_of[d + 1] = c_key[best]
            if c_pass[best]:
                ask_of[d + 1] = ask_of[d] if tie_free else 1 - ask_of[d]
                th_phi[d + 1], th_delta[d + 1] = lim_refute, lim_prove
            else:
                ask_of[d + 1] = ask_of[d]
                th_phi[d + 1], th_delta[d + 1] = lim_prove, lim_refute
            d += 1
            state = _ENTER


#: :func:`dfpn` cached on disk, for rules with a digest (:func:`~..compiled.kernel_door`)
dfpn_cached = njit(nogil=True, cache=True)(getattr(dfpn, "py_func", dfpn))


@dataclass
class ProofResult:
    """What :func:`prove` found: the value for the player to move (None when a limit
    stopped it first), the root move that proves a win or a tie (None for a loss, or when
    the root was settled with no move searched), the expansions (``nodes``: df-pn's nodes,
    each a visit that made a node's children), the children made and looked up
    (``evaluated``), the questions asked with their answers and nodes (one for a win or a
    game that cannot tie, two otherwise), the seconds searched and those compiling took."""

    value: Value | None
    best_move: int | None
    nodes: int
    evaluated: int
    runs: int
    seconds: float
    compile_seconds: float = 0.0
    stopped: str | None = None
    answers: list[tuple[str, bool | None, int]] = field(default_factory=list)
    game: Any = None
    position: int = 0
    #: where the position comes from, for the header (the command line fills it in)
    where: str = ""

    @property
    def exact(self) -> bool:
        return self.value is not None

    def describe(self) -> str:
        """The value in words ("win", "lose", "tie") or what was proven when stopped."""
        if self.value is not None:
            return self.value.value
        known = [f"{q} {'yes' if a else 'no'}" for q, a, _ in self.answers if a is not None]
        return "not proven" + (f" ({', '.join(known)})" if known else "")

    def explain(self) -> str:
        """The value, the proving move, the questions and the work, in words."""
        name = capabilities(self.game).name
        lines = [f"df-pn: {name}, {self.where or f'position {show(self.position)}'}",
                 f"value: {self.describe()}"
                 + (" (remoteness not searched)" if self.exact else "  [NOT EXACT]")]
        if self.stopped:
            lines.append(f"stopped by: {self.stopped} (nothing is claimed)")
        if self.best_move is not None:
            lines += move_lines(self.game, self.best_move, [])
        asked = ", ".join(f"{q} {'not answered' if a is None else 'yes' if a else 'no'} "
                          f"({n:,} nodes)" for q, a, n in self.answers)
        lines.append(f"questions: {asked or 'none (the position is settled as it is)'}")
        lines.append(f"nodes: {self.nodes:,} expanded, {self.evaluated:,} children made and "
                     f"looked up, in {self.seconds:.2f} s")
        if self.compile_seconds >= 0.05:
            lines.append(f"compiling: {self.compile_seconds:.2f} s before the search")
        return "\n".join(lines)

    def draw(self, style: bool = False) -> str:
        """The game's picture of the position (its ``draw`` hook), or ""."""
        return game_picture(self.game, self.position, style)

    def to_json(self) -> dict[str, Any]:
        """Everything as JSON-ready data (the value, the proving move, the work)."""
        data = position_json(self.game, self.position, self.value, None, self.best_move, [])
        return {**data, "algorithm": "dfpn", "exact": self.exact, "nodes": self.nodes,
                "evaluated": self.evaluated, "seconds": round(self.seconds, 4),
                "questions": [{"question": q, "answer": a, "nodes": n}
                              for q, a, n in self.answers],
                "stopped": self.stopped, "compile_seconds": round(self.compile_seconds, 4)}


_WARM: set[tuple[Any, ...]] = set()


def prove(game: Game, position: Position | None = None, *, table_mb: float = 64,
          node_limit: int | None = None, time_limit: float | None = None,
          max_depth: int = 10_000, epsilon: float = 0.25,
          replace: Literal["work", "always"] = "work",
          init: Literal["one", "mobility"] = "mobility",
          disproof: Literal["sum", "weak"] = "sum", first: Literal["kept", "made"] = "kept",
          check: bool = True) -> ProofResult:
    """Prove who wins ``position`` (default: the start) of a compiled win/lose/tie game by
    df-pn (module doc): "does the mover win?", then, when that is refuted and the game can
    tie, "does the mover not lose?". The value is the engine's (:func:`~perfectplay.engine.solve`'s)
    for the player to move, without remoteness.

    >>> from perfectplay.games import domineering
    >>> r = prove(domineering(rows=4, cols=4), table_mb=1)
    >>> r.value, r.runs
    (<Value.WIN: 'win'>, 1)

    :param game: a :class:`~perfectplay.engine.CompiledGame` whose values are win, lose or tie.
    :param position: its int code (None: the start).
    :param table_mb: the transposition table in MB (32-byte slots, two a bucket).
    :param node_limit: expansions at most (all questions together); None: no limit.
    :param time_limit: seconds at most; None: no limit.
    :param max_depth: the deepest line followed.
    :param epsilon: Pawlewicz and Lew's epsilon (0: Nagai's df-pn).
    :param replace: the table's rule when a bucket is full: ``"work"`` (the entry whose
        subtree cost less goes) or ``"always"`` (the older entry goes).
    :param init: a new child's first numbers: ``"mobility"`` (phi 1, delta its count of
        ``search_moves``: one move proves it, every one must be refuted; Winands et al.
        2004's mobility) or ``"one"`` (both 1, Nagai's).
    :param disproof: a node's delta from its children's: ``"sum"`` (Nagai's) or ``"weak"``
        (the largest plus one a further open child, Ueda et al. 2008: less double counting
        where many lines meet in one position).
    :param first: ``"kept"``: a child's first numbers (or static answer) go into the
        table when it is made; ``"made"``: only expanded nodes' numbers do.
    :param check: run the bounded check of the game first.
    :returns: a :class:`ProofResult` (``value`` None when a limit stopped the search).
    :raises GameError: a Python game, a scored game, a position not of the game, or rules
        that break their contract (a cycle, a tie in a game that cannot tie).
    :raises LimitError: a limit out of range, or a line deeper than ``max_depth``.
    """
    if not is_compiled(game):
        raise GameError("df-pn searches compiled games only (its kernel runs in numba); "
                        "search a Python game with perfectplay.search")
    assert isinstance(game, CompiledGame)
    if is_scored(game):
        raise GameError(f"{game.name} is scored: df-pn answers who wins, not a margin; "
                        "search it with perfectplay.search")
    Limits.given(table_mb=table_mb, node_limit=node_limit, time_limit=time_limit,
                 max_depth=max_depth)  # the same ranges as search's
    if not 0 <= epsilon <= 16:
        raise LimitError(f"epsilon must be in [0, 16], not {show(epsilon)}")
    for name, given, allowed in (("replace", replace, ("work", "always")),
                                 ("init", init, ("one", "mobility")),
                                 ("disproof", disproof, ("sum", "weak")),
                                 ("first", first, ("kept", "made"))):
        if given not in allowed:
            raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {show(given)}")
    if check:
        precheck(game)
    if position is None:
        position = game.initial()
    problem = game.code_problem(position)
    if problem is not None:
        raise GameError(problem)
    code = int(cast(int, position))
    kernel, rules = kernel_door(game.rules, dfpn, dfpn_cached)
    kind = Kind(scored=False, with_player=game.has_player, with_horizon=game.has_horizon,
                symmetric=game.symmetric, acyclic=game.tiered, max_moves=game.max_moves,
                parallel=False, ordered=game.has_search_moves)
    tie_free = cannot_tie(game)
    table = new_table(table_mb)
    space = new_space(max_depth, game.max_moves)
    stop = np.zeros(1, np.int64)
    counts = np.zeros(2, np.int64)
    num, den = int(round(epsilon * 1024)), 1024
    always = replace == "always"
    mobility = init == "mobility"
    weak = disproof == "weak"
    keep_first = first == "kept"

    def run(ask: int, limit: int) -> tuple[int, int, int, int]:
        out = kernel(np.int64(code), np.int64(ask), rules, kind, tie_free, table, space,
                     np.int64(limit), stop, np.int64(num), np.int64(den), always, mobility,
                     weak, keep_first, counts)
        return int(out[0]), int(out[1]), int(out[2]), int(out[3])

    compiling = 0.0
    warm_key = (id(kernel), id(rules), kind, tie_free)
    if warm_key not in _WARM:  # compile on a one-node budget, not counted as searching
        began = time.perf_counter()
        run(ASK_WIN, 0)
        compiling = time.perf_counter() - began
        table[:] = 0
        _WARM.add(warm_key)
    result = ProofResult(None, None, 0, 0, 0, 0.0, compiling, game=game, position=code)
    began = time.perf_counter()
    budget = node_limit if node_limit is not None else 2**62
    for ask, words in ((ASK_WIN, "win?"), (ASK_NOT_LOSE, "not lose?")):
        counts[:] = 0
        status, phi, delta, move = _timed(run, ask, budget - result.nodes, stop, time_limit,
                                          began)
        result.runs += 1
        result.nodes += int(counts[0])
        result.evaluated += int(counts[1])
        if status == ABORTED:
            result.stopped = "time" if stop[0] else "nodes"
            result.answers.append((words, None, int(counts[0])))
            break
        if status != OK:
            raise status_error(status, phi, game, max_depth=max_depth)
        proven = phi == 0
        result.answers.append((words, proven, int(counts[0])))
        if proven:
            result.value = Value.WIN if ask == ASK_WIN else Value.TIE
            result.best_move = move if move >= 0 else None
            break
        if ask == ASK_NOT_LOSE or tie_free:
            result.value = Value.LOSE
            break
    result.seconds = time.perf_counter() - began
    return result


def _timed(run: Callable[[int, int], tuple[int, int, int, int]], ask: int, limit: int,
           stop: np.ndarray, time_limit: float | None,
           began: float) -> tuple[int, int, int, int]:
    """``run(ask, limit)``, in a thread when there is a clock to watch: ``stop`` is set
    when ``time_limit`` seconds since ``began`` have passed."""
    if time_limit is None:
        return run(ask, limit)
    out: list[tuple[int, int, int, int]] = []
    worker = threading.Thread(target=lambda: out.append(run(ask, limit)), daemon=True)
    worker.start()
    worker.join(max(0.0, time_limit - (time.perf_counter() - began)))
    if worker.is_alive():
        stop[0] = 1
        worker.join()
    return out[0]
