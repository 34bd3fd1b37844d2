"""Kalah(m, n) as a compiled scored game with extra turns (and a Python twin for the tests).

m houses a side, n seeds in each at the start. A move sows the seeds of one of the mover's
houses counter-clockwise, one a slot, into the mover's own store but never the opponent's.
A last seed in the mover's store gives another move (``player`` says who moves); a last seed
in an empty house of the mover's captures it and the seeds opposite (Irving, Donkers and
Uiterwijk's "empty capture": even when the house opposite is empty). When either side has no
seeds left the game ends and each player stores the seeds on their own side.

The value is the point margin, so the stores need not be in the position: each move's
payoff is what it puts in the mover's store. A position is the houses and the player to
move, in one int64: bit 0 the player, then one field of bit_length(2mn) bits per house, so
sowing is additions to the code, with no decoding and no allocation. Kalah(m, n) fits so
when 2m * bit_length(2mn) + 1 <= 63: (6, 2), (5, 4), (4, 4), ...

Bigger games (Kalah(6, 3) to (6, 6)) are *ranked*: the 2m houses, holding at most N = 2mn
seeds, are the bars of a stars-and-bars picture, bar j at b_j = c_0 + ... + c_j + j, and
their rank in the combinatorial number system is sum_j C(b_j, j + 1) < C(N + 2m, 2m)
(Knuth, TAOCP 7.2.1.3): C(60, 12) ~ 1.4e12 for (6, 4), C(72, 12) ~ 1.5e13 for (6, 5). The
code is rank << 15 | seeds in play << 8 | seeds on south's side << 1 | player, so the end,
the final score and ``margin_bound`` (the seeds in play: the mover cannot gain more) read
the code without decoding it; a move decodes the houses (O(N + m)), sows them and ranks
them again. Ranks below C(k + 2m, 2m) are exactly the boards with at most k seeds in play:
:meth:`Kalah.endgame_positions` lists them, the roots of an endgame store that
``perfectplay search --store`` reads at its leaves. The ranked code is chosen only when the
bit fields do not fit (``ranked=True`` forces it, for the tests). The tier is
(seeds stored, then how far the seeds on the board still are from their stores): every move
either stores a seed or moves seeds towards their store, so the tier strictly increases.

    perfectplay solve 'examples/kalah.py:Kalah(4, 3)'

Published (Irving, Donkers and Uiterwijk 2000, "Solving Kalah", ICGA Journal 23(3)): who
wins each Kalah(m, n) for small m and n (the tests check m, n <= 3), and the first player's
margin: (6, 2) +10 (benchmarks/engine.py reproduces it by a strong solve), (6, 3) +2,
(6, 4) +10, (6, 5) +12 (their Table 9; benchmarks/kalah_search.py reproduces them by
search).
"""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np
from numba import njit

from perfectplay.engine import ONGOING, TIE, CompiledGame, Value


@njit
def sow_pits(pits, who, move, m):
    """Sow house ``move`` of player ``who`` in ``pits`` (south's m houses, then north's),
    in place: (who moves next, seeds the mover stored), with the empty-capture rule."""
    own = who * m
    other = m - own
    ring = 2 * m + 1  # the mover's houses, the mover's store, the opponent's houses
    seeds = pits[own + move]
    pits[own + move] = 0
    idx = move
    stored = 0
    for _ in range(seeds):
        idx += 1
        if idx == ring:
            idx = 0
        if idx < m:
            pits[own + idx] += 1
        elif idx == m:
            stored += 1
        else:
            pits[other + idx - m - 1] += 1
    if idx == m:
        return who, stored  # the last seed in the store: move again
    if idx < m and pits[own + idx] == 1:  # the last seed in an empty house
        opposite = other + m - 1 - idx
        stored += 1 + pits[opposite]
        pits[own + idx] = 0
        pits[opposite] = 0
    return 1 - who, stored


def binomials(top: int, houses: int) -> np.ndarray:
    """C(a, k) for a <= top + houses, k <= houses (the ranks' table)."""
    return np.array([[comb(a, k) for k in range(houses + 1)]
                     for a in range(top + houses + 1)], np.int64)


@njit
def unrank_pits(r, binom, houses, top, pits):
    """The houses of rank ``r`` (at most ``top`` seeds in all; module doc): the bars' places
    from the last down, each the largest b with C(b, j + 1) <= what is left, then the seeds
    between consecutive bars. O(top + houses)."""
    b = top + houses - 1
    for j in range(houses - 1, -1, -1):
        while binom[b, j + 1] > r:
            b -= 1
        r -= binom[b, j + 1]
        pits[j] = b
        b -= 1
    prev = 0
    for j in range(houses):
        bar = pits[j]
        pits[j] = bar - prev
        prev = bar + 1


@njit
def positions_within(k, binom, houses, top, pack):
    """The codes of every position with at most ``k`` seeds in play, both players to move:
    ranks 0 .. C(k + houses, houses) - 1 are exactly those houses."""
    count = binom[k + houses, houses]
    out = np.empty(2 * count, np.int64)
    pits = np.empty(houses, np.int64)
    for r in range(count):
        unrank_pits(r, binom, houses, top, pits)
        out[2 * r] = pack(pits, 0)
        out[2 * r + 1] = pack(pits, 1)
    return out


def ending_rules(sides):
    """``outcome``, ``score`` and ``player`` of a Kalah code, from ``sides(code)`` -> (the
    mover's seeds on the board, the opponent's): the game ends when a side is empty, and
    each player then stores the seeds on their own side."""

    @njit
    def outcome(code):
        mine, theirs = sides(code)
        return TIE if mine == 0 or theirs == 0 else ONGOING

    @njit
    def score(code):
        mine, theirs = sides(code)
        return mine - theirs

    @njit
    def player(code):
        return code & 1

    return outcome, score, player


class Kalah(CompiledGame):
    """Kalah with ``houses`` houses a side and ``seeds`` seeds in each (moves: 0..m-1, the
    mover's houses from the left end of their row)."""

    def __init__(self, houses: int = 6, seeds: int = 4, ranked: bool | None = None) -> None:
        m, n = houses, seeds
        total = 2 * m * n
        b = max(1, total.bit_length())  # bits a house needs: it can hold every seed
        if m < 1 or n < 0:
            raise ValueError(f"Kalah({m}, {n}) needs m >= 1 houses and n >= 0 seeds")
        self.houses, self.seeds, self.bits = m, n, b
        self.wide = 2 * m * b + 1 > 63 if ranked is None else bool(ranked)
        if self.wide:
            self._init_ranked(m, n)
            return
        pmax = total * m
        ring = 2 * m + 1  # the mover's houses, the mover's store, the opponent's houses
        field = (1 << b) - 1

        @njit
        def get(code, house):  # houses 0..m-1 south's, m..2m-1 north's; bit 0 the player
            return (code >> (1 + house * b)) & field

        @njit
        def sow(code, move):
            """(next code, seeds stored by the mover): all in the code's bit fields."""
            who = code & 1
            own = who * m
            other = m - own
            seeds = get(code, own + move)
            code -= seeds << (1 + (own + move) * b)
            idx = move
            stored = 0
            for _ in range(seeds):
                idx += 1
                if idx == ring:
                    idx = 0
                if idx < m:
                    code += 1 << (1 + (own + idx) * b)
                elif idx == m:
                    stored += 1
                else:
                    code += 1 << (1 + (other + idx - m - 1) * b)
            nxt = 1 - who
            if idx == m:
                nxt = who  # the last seed in the store: move again
            elif idx < m and get(code, own + idx) == 1:  # the last seed in an empty house
                opposite = other + m - 1 - idx
                taken = get(code, opposite)
                stored += 1 + taken
                code -= (1 << (1 + (own + idx) * b)) + (taken << (1 + opposite * b))
            return (code & ~1) | nxt, stored

        @njit
        def moves(code, out):
            own = (code & 1) * m
            k = 0
            for i in range(m):
                if get(code, own + i) > 0:
                    out[k] = i
                    k += 1
            return k

        @njit
        def play(code, move):
            return sow(code, move)[0]

        @njit
        def payoff(code, move):
            return sow(code, move)[1]

        @njit
        def sides(code):
            own = (code & 1) * m
            mine = 0
            theirs = 0
            for i in range(m):
                mine += get(code, own + i)
                theirs += get(code, m - own + i)
            return mine, theirs

        outcome, score, player = ending_rules(sides)

        @njit
        def margin_bound(code):
            on_board = 0
            for i in range(2 * m):
                on_board += get(code, i)
            return on_board  # the mover cannot gain more than the seeds in play

        @njit
        def tier(code):
            on_board = 0
            distance = 0
            for i in range(2 * m):
                c = get(code, i)
                on_board += c
                distance += c * (m - i % m)
            return (total - on_board) * (pmax + 1) + (pmax - distance)

        @njit
        def pack(pits, who):
            code = who
            for i in range(2 * m):
                code += pits[i] << (1 + i * b)
            return code

        self._pack = pack
        start = sum(n << (1 + i * b) for i in range(2 * m))
        super().__init__(start, moves, play, outcome, max_moves=m, score=score,
                         payoff=payoff, player=player, tier=tier, margin_bound=margin_bound,
                         name=f"Kalah({m}, {n})")

    def _init_ranked(self, m: int, n: int) -> None:
        """Kalah(m, n) too big for one bit field a house: the houses are one number, their
        rank in the combinatorial number system (module doc), beside the seeds on the board
        and on south's side, so that ``outcome``, ``score`` and ``margin_bound`` read the
        code without decoding it."""
        total, houses = 2 * m * n, 2 * m
        if total > 127 or comb(total + houses, houses) >= 1 << 48:
            raise ValueError(f"Kalah({m}, {n}) is too big for a 63-bit code: it needs "
                             "2mn <= 127 and C(2mn + 2m, 2m) < 2**48")
        binom = binomials(total, houses)
        pmax = total * m

        @njit
        def unpack(code, pits):
            """The seeds of every house (south's 0..m-1, then north's) of ``code``."""
            unrank_pits(code >> 15, binom, houses, total, pits)

        @njit
        def pack(pits, who):
            rank = 0
            bar = -1
            south = 0
            on_board = 0
            for j in range(houses):
                bar += pits[j] + 1
                rank += binom[bar, j + 1]
                on_board += pits[j]
                if j < m:
                    south += pits[j]
            return (rank << 15) | (on_board << 8) | (south << 1) | who

        @njit
        def decoded(code):
            pits = np.empty(houses, np.int64)
            unpack(code, pits)
            return pits

        @njit
        def sow(code, move):
            pits = decoded(code)
            nxt, stored = sow_pits(pits, code & 1, move, m)
            return pits, nxt, stored

        @njit
        def play(code, move):
            pits, nxt, _ = sow(code, move)
            return pack(pits, nxt)

        @njit
        def payoff(code, move):
            return sow(code, move)[2]

        @njit
        def step(code, move):
            pits, nxt, stored = sow(code, move)
            return pack(pits, nxt), stored

        @njit
        def moves(code, out):
            pits = decoded(code)
            own = (code & 1) * m
            k = 0
            for i in range(m):
                if pits[own + i] > 0:
                    out[k] = i
                    k += 1
            return k

        @njit
        def search_moves(code, out):
            """Every move, those that end in the store (another move) first, then captures,
            then the rest; houses nearer the store first within each group."""
            pits = decoded(code)
            own = (code & 1) * m
            k = 0
            for group in range(3):
                for i in range(m - 1, -1, -1):
                    seeds = pits[own + i]
                    if seeds == 0:
                        continue
                    land = (i + seeds) % (2 * m + 1)
                    g = 0 if land == m else (
                        1 if land < m and (pits[own + land] == 0 or seeds == 2 * m + 1)
                        else 2)
                    if g == group:
                        out[k] = i
                        k += 1
            return k

        @njit
        def sides(code):
            south = (code >> 1) & 127
            north = ((code >> 8) & 127) - south
            return (north, south) if code & 1 else (south, north)

        outcome, score, player = ending_rules(sides)

        @njit
        def margin_bound(code):
            return (code >> 8) & 127  # the mover cannot gain more than the seeds in play

        @njit
        def tier(code):
            pits = decoded(code)
            on_board = 0
            distance = 0
            for i in range(houses):
                on_board += pits[i]
                distance += pits[i] * (m - i % m)
            return (total - on_board) * (pmax + 1) + (pmax - distance)

        self._pack, self._unpack = pack, unpack
        start = int(pack(np.full(houses, n, np.int64), 0))
        CompiledGame.__init__(self, start, moves, play, outcome, max_moves=m, score=score,
                              payoff=payoff, player=player, tier=tier,
                              search_moves=search_moves, margin_bound=margin_bound,
                              step=step, name=f"Kalah({m}, {n})")

    def endgame_positions(self, k: int) -> np.ndarray:
        """Every position with at most ``k`` seeds still in play (either player to move):
        the roots of an endgame store, ``solve_tiered(game, path, roots=...)``, or
        ``perfectplay solve TARGET --store DIR --endgame K``. 2 x C(k + 2m, 2m) codes."""
        total = 2 * self.houses * self.seeds
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= total:
            raise ValueError(f"k must be a number of seeds from 0 to {total}, not {k!r}")
        houses = 2 * self.houses
        return positions_within(k, binomials(total, houses), houses, total, self._pack)

    def houses_of(self, code: int) -> tuple[list[int], int]:
        """(seeds in each house, south's first, then north's; the player to move)."""
        if self.wide:
            pits = np.empty(2 * self.houses, np.int64)
            self._unpack(np.int64(code), pits)
            return [int(p) for p in pits], code & 1
        b, f = self.bits, (1 << self.bits) - 1
        return [(code >> (1 + i * b)) & f for i in range(2 * self.houses)], code & 1

    def draw(self, code: int) -> str:
        pits, who = self.houses_of(code)
        m = self.houses
        north = " ".join(f"{p:2d}" for p in reversed(pits[m:]))
        south = " ".join(f"{p:2d}" for p in pits[:m])
        return f"north {north}\nsouth {south}\n{'south' if who == 0 else 'north'} to move"

    def move_name(self, move: int) -> str:
        return "abcdefghijklmnopqrstuvwxyz"[move]


class KalahPy:
    """The same game in the Python protocol, written independently: positions are
    (houses tuple of 2m counts, player to move); the board is simulated with both stores."""

    def __init__(self, houses: int = 6, seeds: int = 4) -> None:
        self.m, self.n = houses, seeds

    def initial(self) -> tuple[tuple[int, ...], int]:
        return (self.n,) * (2 * self.m), 0

    def player(self, pos: tuple[tuple[int, ...], int]) -> int:
        return pos[1]

    def moves(self, pos: tuple[tuple[int, ...], int]) -> list[int]:
        houses, who = pos
        return [i for i in range(self.m) if houses[who * self.m + i]]

    def _board(self, pos: tuple[tuple[int, ...], int], move: int) -> tuple[Any, int, int]:
        m = self.m
        houses, who = pos
        # slots 0..m-1 south, m south store, m+1..2m north, 2m+1 north store
        board = list(houses[:m]) + [0] + list(houses[m:]) + [0]
        skip = 2 * m + 1 if who == 0 else m
        mine = m if who == 0 else 2 * m + 1
        slot = (0 if who == 0 else m + 1) + move
        seeds, board[slot] = board[slot], 0
        while seeds:
            slot = (slot + 1) % (2 * m + 2)
            if slot != skip:
                board[slot] += 1
                seeds -= 1
        nxt = 1 - who
        own = range(0, m) if who == 0 else range(m + 1, 2 * m + 1)
        if slot == mine:
            nxt = who
        elif slot in own and board[slot] == 1:
            opposite = 2 * m - slot
            board[mine] += 1 + board[opposite]
            board[slot] = board[opposite] = 0
        return board, nxt, board[mine]

    def play(self, pos: tuple[tuple[int, ...], int], move: int) -> tuple[tuple[int, ...], int]:
        board, nxt, _ = self._board(pos, move)
        m = self.m
        return tuple(board[:m] + board[m + 1:2 * m + 1]), nxt

    def payoff(self, pos: tuple[tuple[int, ...], int], move: int) -> int:
        return self._board(pos, move)[2]

    def step(self, pos: tuple[tuple[int, ...], int], move: int
             ) -> tuple[tuple[tuple[int, ...], int], int]:
        """(play, payoff) from one sowing: the engine's discovery calls this instead."""
        board, nxt, stored = self._board(pos, move)
        m = self.m
        return (tuple(board[:m] + board[m + 1:2 * m + 1]), nxt), stored

    def outcome(self, pos: tuple[tuple[int, ...], int]) -> int | Value | None:
        houses, who = pos
        mine = sum(houses[who * self.m:(who + 1) * self.m])
        theirs = sum(houses) - mine
        if mine and theirs:
            return None
        return mine - theirs
