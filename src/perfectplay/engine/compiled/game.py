"""Compiled games: the rules as numba functions over int64 position codes.

The second door into the engine. A :class:`CompiledGame` names a start code and a few
functions that numba compiles; discovery and solving then run without returning to the
interpreter, so the engine works at the speed of a C solver (GamesCrafters' GamesmanOne is
the model: dense codes, moves generated in compiled code, no stored edges for tiered games).

The functions (plain Python functions are compiled with ``numba.njit`` for you):

============================  ==================================================================
``moves(pos, out) -> int``    write the legal moves (int64) into ``out[0:k]``, return k; at most
                              ``max_moves`` of them
``play(pos, move) -> int``    the code of the next position
``outcome(pos) -> int``       ``ONGOING`` (0) while the game goes on, else ``WIN``, ``LOSE`` or
                              ``TIE`` for the player to move (in a scored game: any non-zero)
``score(pos) -> int``         *scored games*: the mover's final points at an ended position
``payoff(pos, move) -> int``  *optional*: points the mover scores with ``move``; makes the game
                              scored (values are exact int64 point margins)
``player(pos) -> int``        *optional*: 0 or 1, who moves (extra turns)
``tier(pos) -> int``          *optional*: every move goes to a strictly higher tier; the game is
                              then solved tier by tier with no stored moves
``canonical(pos) -> int``     *optional*: one code for all the positions a symmetry maps onto
                              each other (Connect Four: a board and its mirror image); a store
                              (:mod:`perfectplay.store`) then keeps only canonical codes, and
                              proof search one table entry
``search_moves(pos, out)``    *optional, for proof search* (:mod:`perfectplay.engine.proof`):
                              the moves to search, best first, into ``out``, returning their
                              count. It may leave a legal move out only when a move it lists
                              is at least as good for the mover (value and remoteness), and
                              lists at least one move when ``moves`` has any (Connect Four:
                              only the winning move when there is one, only the block when the
                              opponent threatens, never a move under the opponent's threat)
``static_bounds(pos) -> int`` *optional, for proof search*: what is known of ``pos`` without
                              search, as flags: ``CANNOT_WIN`` (1) the mover cannot win (a
                              scored game: its margin is at most 0), ``CANNOT_LOSE`` (2) the
                              mover cannot lose (margin at least 0), ``MUST_LOSE`` (4) it
                              loses (margin below 0); in win/lose games also ``WINS_IN_1``
                              (8) it wins with its next move, ``LOSES_IN_2`` (16) it loses
                              in 2 whatever it plays (the search then enters no child); 0
                              when nothing is known (Connect Four: a playable winning cell,
                              two threats; no line left to complete; Allis' claimeven)
``margin_bound(pos) -> int``  *optional, scored games, for proof search*: the mover's margin
                              from ``pos`` on lies in [-bound, bound] (Kalah: the seeds
                              still in play), so a null window outside it fails at once
``step(pos, move)``           *optional, scored games, for proof search*: ``(play(pos, move),
                              payoff(pos, move))`` from one piece of work (Kalah: one sowing)
``dense_index(pos) -> int``   *optional, scored games with margin_bound, for proof search*:
                              the entry of ``pos`` in a dense endgame table of every
                              position whose ``margin_bound`` is at most some gate (Kalah:
                              the rank of its houses, :mod:`perfectplay.catalog.kalah.dense`),
                              which the search then reads instead of searching; called only
                              at or below the gate
``endgame(pos, a, b)``        *optional, scored games, for proof search*: ``(score, nodes)``,
                              the mover's margin of a position near the end searched by the
                              game itself, fail-soft in the window (a, b) (a score <= a
                              bounds the margin from above, >= b from below,
                              else it is the margin), and the nodes that cost (>= 1); or
                              ``(0, 0)`` where the game leaves the position to the engine
                              (Othello: the last 10 empty squares on bitboards, with no
                              table, symmetry or decoding)
``horizon(pos) -> int``       *optional, for proof search*: every game from ``pos`` ends within
                              this many plies, and a game that ends level ends after exactly
                              this many (Connect Four: the empty cells). Search then knows a
                              tie's remoteness without searching for it
``rank(pos) -> int``          *optional, for stores*: a dense number of ``pos`` inside its tier,
                              0 <= rank < a few times the tier's size, one-to-one on the codes
                              of a tier (Connect Four: the columns' heights, then which stones
                              are the mover's, in the combinatorial number system). A store
                              then keeps a bit per rank instead of an 8-byte key
``unrank(tier, r) -> int``    *with rank*: the code of rank ``r`` in ``tier`` (the inverse)
``valid(pos) -> int``         *optional*: non-zero when the code names a position of the game
                              (Connect Four: every column's marker bit in place, the right
                              number of stones each); :meth:`CompiledGame.decode` and the
                              stores then refuse any other code before a kernel reads it, so
                              a code typed into a URL or a query cannot index a table out of
                              range
============================  ==================================================================

Codes are any int64 except -2**63. A compiled game also answers the Python protocol
(``initial()``, ``moves(pos)`` as a list, ...), so :func:`perfectplay.engine.check_game`,
``play`` and the Python engine take it as it is; the tests solve each compiled game both ways.

>>> from perfectplay.engine import solve
>>> def moves(n, out):            # take 1, 2 or 3 from a heap of n; who cannot move loses
...     k = 0
...     for take in range(1, 4):
...         if take <= n:
...             out[k] = take
...             k += 1
...     return k
>>> def play(n, take): return n - take
>>> def outcome(n): return ONGOING
>>> s = solve(CompiledGame(21, moves, play, outcome, max_moves=3))
>>> s.value(), s.remoteness(), s.best_move()
(<Value.WIN: 'win'>, 11, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeAlias, cast

import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

from ...errors import GameError, show
from ..protocol import (
    LOSE_CODE,
    TIE_CODE,
    UNKNOWN,
    WIN_CODE,
    Value,
)
from ..status import (
    BAD_CODE,
    BAD_MOVE_COUNT,
    BAD_OUTCOME,
    BAD_PLAYER,
    OK,
    TOO_MANY_POSITIONS,
)
from .codetable import EMPTY, id_intern_one, id_rehash
from .jitmemo import canonical
from .staticrules import tolerant

ONGOING, WIN, LOSE, TIE = UNKNOWN, WIN_CODE, LOSE_CODE, TIE_CODE  # one set of codes
_VALUES = {WIN: Value.WIN, LOSE: Value.LOSE, TIE: Value.TIE}
INT64_MAX = 2**63 - 1


#: A numba-compiled function (a dispatcher: called from Python, and from other kernels).
Kernel: TypeAlias = Callable[..., Any]


class Rules(NamedTuple):
    """The compiled functions of a game (see the module doc); unused ones are stubs."""

    moves: Kernel
    play: Kernel
    outcome: Kernel
    score: Kernel
    payoff: Kernel
    player: Kernel
    tier: Kernel
    canonical: Kernel
    search_moves: Kernel
    horizon: Kernel
    static_bounds: Kernel
    margin_bound: Kernel
    step: Kernel
    dense_index: Kernel
    endgame: Kernel


class Ranking(NamedTuple):
    """A compiled game's optional dense numbering inside a tier (see the module doc), kept
    apart from :class:`Rules` so the search and solve kernels never compile it."""

    rank: Kernel
    unrank: Kernel


@njit(cache=True)
def _zero1(pos):
    return 0


@njit(cache=True)
def _zero2(pos, move):
    return 0


@njit(cache=True)
def _minus1(pos):
    return -1


@njit(cache=True)
def _no_step(pos, move):
    return pos, 0


@njit(cache=True)
def _no_endgame(pos, alpha, beta):
    return np.int64(0), np.int64(0)


@njit(cache=True)
def _same(pos):
    return pos


@njit(cache=True)
def any_code(pos):
    """The ``valid`` of a game without one (every code passes), and of codes checked
    already."""
    return 1


def _jit(fn: object, name: str) -> Kernel | None:
    """``fn`` compiled (plain functions through ``njit``), as the first dispatcher this
    process made for the same rule (:func:`~.jitmemo.canonical`), so a second instance of a
    game reuses the kernels compiled for the first."""
    if fn is None:
        return None
    if isinstance(fn, CPUDispatcher):
        return canonical(fn)
    if not callable(fn):
        raise GameError(f"{name} must be a function, not {type(fn).__name__}")
    return canonical(cast(CPUDispatcher, njit(fn)))


def _jit_rule(fn: object, name: str) -> Kernel:
    """:func:`_jit` of a function every game has (``moves``, ``play``, ``outcome``)."""
    kernel = _jit(fn, name)
    if kernel is None:
        raise GameError(f"{name} must be a function, not None")
    return kernel


class CompiledGame:
    """A game given as numba-compiled functions over int64 codes (see the module doc).

    ``initial`` is the start code; ``max_moves`` bounds the moves of any position. Subclass
    it to add ``draw(pos)`` (a picture of a position for people) and ``move_name(move)``.
    Each function is described in the table of :mod:`perfectplay.engine.compiled.game`.

    :param initial: the start code (an int64 other than -2**63).
    :param moves: ``moves(pos, out) -> k``: the legal moves written into ``out[0:k]``.
    :param play: ``play(pos, move)``: the code of the next position.
    :param outcome: ``outcome(pos)``: ``ONGOING``, else ``WIN``, ``LOSE`` or ``TIE`` for the
        player to move.
    :param max_moves: the most moves of any position (>= 1).
    :param score: a scored game's final points of the mover at an ended position.
    :param payoff: the points the mover scores with a move (makes the game scored).
    :param player: 0 or 1, who moves (extra turns).
    :param tier: a tier every move rises from (solved tier by tier, no stored moves).
    :param canonical: one code for the positions a symmetry maps onto each other.
    :param search_moves: the moves proof search tries, best first, possibly pruned.
    :param horizon: the plies within which every game from a position ends.
    :param static_bounds: what is known of a position without search, as flags.
    :param margin_bound: the bound of a scored game's margin from a position on.
    :param step: ``(play, payoff)`` from one piece of work (scored games).
    :param dense_index: a position's entry in a dense endgame table (with margin_bound).
    :param endgame: ``(score, nodes)`` of a position the game searches itself near the end.
    :param rank: a dense number of a position inside its tier (for stores; with tier).
    :param unrank: the code of a rank in a tier (with rank).
    :param valid: non-zero when a code names a position of the game.
    :param name: the game's name (None: the class's).
    :raises GameError: a start code or ``max_moves`` out of range, or hooks that do not
        go together (rank without unrank or tier, step or margin_bound without payoff,
        dense_index without margin_bound, endgame without payoff).
    """

    def __init__(self, initial: int, moves: Callable[..., int], play: Callable[..., int],
                 outcome: Callable[..., int], *, max_moves: int,
                 score: Callable[..., int] | None = None,
                 payoff: Callable[..., int] | None = None,
                 player: Callable[..., int] | None = None,
                 tier: Callable[..., int] | None = None,
                 canonical: Callable[..., int] | None = None,
                 search_moves: Callable[..., int] | None = None,
                 horizon: Callable[..., int] | None = None,
                 static_bounds: Callable[..., int] | None = None,
                 margin_bound: Callable[..., int] | None = None,
                 step: Callable[..., Any] | None = None,
                 dense_index: Callable[..., int] | None = None,
                 endgame: Callable[..., Any] | None = None,
                 rank: Callable[..., int] | None = None,
                 unrank: Callable[..., int] | None = None,
                 valid: Callable[..., int] | None = None,
                 name: str | None = None) -> None:
        if isinstance(initial, bool) or not isinstance(initial, int | np.integer):
            raise GameError(f"the start code must be an int, not {show(initial)}")
        if not -(2**63) < int(initial) <= INT64_MAX:
            raise GameError(f"the start code {initial} is outside int64 (or is -2**63)")
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise GameError(f"max_moves must be a positive int, not {show(max_moves)}")
        self.start_code = int(initial)
        self.max_moves = max_moves
        self.scored = payoff is not None
        self.tiered = tier is not None
        self.has_player = player is not None
        self.name = name or type(self).__name__
        jmoves = _jit_rule(moves, "moves")
        self.rules = Rules(
            moves=jmoves, play=_jit_rule(play, "play"),
            outcome=_jit_rule(outcome, "outcome"),
            score=_jit(score, "score") or _zero1, payoff=_jit(payoff, "payoff") or _zero2,
            player=_jit(player, "player") or _zero1, tier=_jit(tier, "tier") or _zero1,
            canonical=_jit(canonical, "canonical") or _same,
            search_moves=_jit(search_moves, "search_moves") or jmoves,
            horizon=_jit(horizon, "horizon") or _zero1,
            static_bounds=_jit(static_bounds, "static_bounds") or _zero1,
            margin_bound=_jit(margin_bound, "margin_bound") or _zero1,
            step=_jit(step, "step") or _no_step,
            dense_index=_jit(dense_index, "dense_index") or _minus1,
            endgame=_jit(endgame, "endgame") or _no_endgame)
        self.ranking = Ranking(_jit(rank, "rank") or _zero1, _jit(unrank, "unrank") or _zero2)
        if (rank is None) != (unrank is None) or rank is not None and tier is None:
            raise GameError("rank and unrank come together, and only with tier")
        self.has_rank = rank is not None
        self.valid = _jit(valid, "valid") or any_code
        self.has_valid = valid is not None
        self.symmetric = canonical is not None
        self.has_search_moves = search_moves is not None
        self.has_horizon = horizon is not None
        self.has_static_bounds = static_bounds is not None
        self.has_margin_bound = margin_bound is not None
        self.has_step = step is not None
        self.has_dense_index = dense_index is not None
        self.has_endgame = endgame is not None
        if endgame is not None and payoff is None:
            raise GameError("endgame is for scored games (with payoff)")
        if dense_index is not None and margin_bound is None:
            raise GameError("dense_index needs margin_bound (the gate of a dense table)")
        if step is not None and payoff is None:
            raise GameError("step is for scored games (with payoff)")
        if margin_bound is not None and payoff is None:
            raise GameError("margin_bound is for scored games (with payoff)")
        # The Python protocol, so every tool that takes a Python game takes this one too.
        if self.scored:
            self.payoff = self._payoff
        if self.has_player:
            self.player = self._player
        if self.tiered:
            self.tier = self._tier
        if self.has_horizon:
            self.horizon = self._horizon

    def __repr__(self) -> str:
        return f"<CompiledGame {self.name}>"

    # -- the Python protocol ---------------------------------------------------------------
    def initial(self) -> int:
        return self.start_code

    def moves(self, pos: int) -> list[int]:
        """The legal moves of ``pos`` as a list (calls the compiled ``moves``; none once the
        game has ended, as the kernels never ask ``moves`` of an ended position)."""
        if self.rules.outcome(np.int64(pos)) != ONGOING:
            return []
        buf = np.empty(self.max_moves + 1, np.int64)
        k = int(self.rules.moves(np.int64(pos), buf))
        if not 0 <= k <= self.max_moves:
            raise GameError(f"moves({pos}) returned {k} moves; max_moves is {self.max_moves}")
        return [int(m) for m in buf[:k]]

    def play(self, pos: int, move: int) -> int:
        return int(self.rules.play(np.int64(pos), np.int64(move)))

    def outcome(self, pos: int) -> Value | int | None:
        code = int(self.rules.outcome(np.int64(pos)))
        if code == ONGOING:
            return None
        if self.scored:
            return int(self.rules.score(np.int64(pos)))
        if code not in _VALUES:
            raise GameError(f"outcome({pos}) returned {code}: expected 0 (ONGOING), 1 (WIN), "
                            "2 (LOSE) or 3 (TIE)")
        return _VALUES[code]

    def _payoff(self, pos: int, move: int) -> int:
        return int(self.rules.payoff(np.int64(pos), np.int64(move)))

    def _player(self, pos: int) -> int:
        return int(self.rules.player(np.int64(pos)))

    def _tier(self, pos: int) -> int:
        return int(self.rules.tier(np.int64(pos)))

    def _horizon(self, pos: int) -> int:
        return int(self.rules.horizon(np.int64(pos)))

    def canonical(self, pos: int) -> int:
        """The code a store keeps for ``pos`` (``pos`` itself without a symmetry)."""
        return int(self.rules.canonical(np.int64(pos)))

    def encode(self, pos: int) -> int:
        return int(pos)

    def decode(self, code: int) -> int:
        """The position of ``code``: the code itself, once it is an int64 (not -2**63) and,
        when the game has a ``valid`` rule, names one of its positions; ValueError
        otherwise (a code read from a person or a URL is checked here before any kernel
        reads it). O(1) plus one ``valid`` call.

        >>> def moves(n, out): return 0
        >>> game = CompiledGame(3, moves, lambda n, m: n, lambda n: 2, max_moves=1,
        ...                     valid=lambda n: n >= 0)
        >>> game.decode(5)
        5
        >>> game.decode(-1)
        Traceback (most recent call last):
        ...
        ValueError: the code -1 is not a position of CompiledGame
        """
        problem = self.code_problem(code)
        if problem is not None:
            raise ValueError(problem)
        return int(code)

    def code_problem(self, code: object) -> str | None:
        """Why ``code`` names no position of this game (None when it names one)."""
        if isinstance(code, bool) or not isinstance(code, int | np.integer):
            return f"a code is an int, not {show(code)}"
        if not -(2**63) < int(code) <= INT64_MAX:
            return f"the code {int(code)} is outside int64 (or is -2**63)"
        if self.has_valid and not self.valid(np.int64(code)):
            return f"the code {int(code)} is not a position of {self.name}"
        return None


def is_compiled(game: object) -> bool:
    return isinstance(game, CompiledGame)


@njit
def ended(o, code, score, scored):
    """(status, value code, final points) of a position whose ``outcome`` is ``o`` != 0: a
    scored game's end is a TIE-coded position worth ``score(code)``."""
    if scored:
        return OK, TIE, score(code)
    if o == WIN or o == LOSE or o == TIE:
        return OK, o, 0
    return BAD_OUTCOME, 0, 0


@njit(cache=True)
def _grow(a, need):
    """``a``, or a copy at least twice as long when ``need`` exceeds it. The copy is a loop:
    a slice assignment (``b[:n] = a``) compiles numba's shape-mismatch error and its string
    formatting, 2 s of every process's first discovery."""
    if need <= a.size:
        return a
    b = np.empty(max(need, a.size * 2), a.dtype)
    for i in range(a.size):
        b[i] = a[i]
    return b


@njit
def discover_compiled(start, moves, play, outcome, score, payoff, player, scored,
                      with_player, max_moves, max_positions):
    """Every position reachable from ``start``, numbered in breadth-first order, with its
    moves as CSR arrays: the compiled twin of :func:`perfectplay.engine.discovery.graph.discover`.

    Returns (status, bad code, codes, id table, offsets, children, terminal, payoffs,
    finals, player). Expected O(positions + moves) with an id hash table."""
    codes = np.empty(1024, np.int64)
    codes[0] = start
    n = 1
    slots = id_rehash(2048, codes, 1)
    offsets = np.zeros(1025, np.int64)
    terminal = np.zeros(1024, np.int8)
    finals = np.zeros(1024 if scored else 0, np.int64)
    who = np.zeros(1024 if with_player else 0, np.int8)
    children = np.empty(4096, np.int64)
    pays = np.empty(4096 if scored else 0, np.int64)
    buf = np.empty(max_moves + 1, np.int64)
    m = 0
    i = 0
    while i < n:
        if i >= terminal.size:
            terminal = _grow(terminal, i + 1)
            offsets = _grow(offsets, terminal.size + 1)
            if scored:
                finals = _grow(finals, terminal.size)
            if with_player:
                who = _grow(who, terminal.size)
        code = codes[i]
        if with_player:
            w = player(code)
            if w != 0 and w != 1:
                return BAD_PLAYER, code, codes, slots, offsets, children, terminal, pays, \
                    finals, who
            who[i] = w
        t = outcome(code)
        terminal[i] = 0
        if scored:
            finals[i] = 0
        if t != ONGOING:
            status, terminal[i], final = ended(t, code, score, scored)
            if status != OK:
                return status, code, codes, slots, offsets, children, terminal, pays, \
                    finals, who
            if scored:
                finals[i] = final
        else:
            k = moves(code, buf)
            if k < 0 or k > max_moves:
                return BAD_MOVE_COUNT, code, codes, slots, offsets, children, terminal, pays, \
                    finals, who
            if m + k > children.size:
                children = _grow(children, m + k)
                if scored:
                    pays = _grow(pays, m + k)
            for j in range(k):
                child = play(code, buf[j])
                if child == EMPTY:
                    return BAD_CODE, code, codes, slots, offsets, children, terminal, pays, \
                        finals, who
                cid, slots, codes, n = id_intern_one(slots, codes, n, child)
                children[m] = cid
                if scored:
                    pays[m] = payoff(code, buf[j])
                m += 1
            if n > max_positions:
                return TOO_MANY_POSITIONS, code, codes, slots, offsets, children, terminal, \
                    pays, finals, who
        offsets[i + 1] = m
        i += 1
    return OK, 0, codes[:n].copy(), slots, offsets[:n + 1].copy(), children[:m].copy(), \
        terminal[:n].copy(), pays[:m].copy(), finals[:n].copy() if scored else finals, \
        who[:n].copy() if with_player else who


@njit(cache=True)
def discover_cached(start, rules, scored, with_player, max_moves, max_positions):
    """:func:`discover_compiled` with the rules as one
    :class:`~perfectplay.engine.compiled.staticrules.StaticRules`, so numba caches it on disk (the
    rules' functions passed on are typed by the digest's type: each call is direct)."""
    return discover_compiled(start, rules.moves, rules.play, rules.outcome, rules.score,
                             rules.payoff, rules.player, scored, with_player, max_moves,
                             max_positions)


tolerant(discover_cached)  # a cached entry that cannot be read back is compiled again
