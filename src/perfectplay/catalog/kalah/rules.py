"""Kalah(m, n) as a compiled scored game with extra turns: :class:`Kalah`, its rules made
from the module-level kernels of :mod:`.fields` (a bit field a house) or :mod:`.ranked` (the
houses' rank in the combinatorial number system) with the board's size fixed.

The value is the point margin, so the stores need not be in the position: each move's
payoff is what it puts in the mover's store. The tier is (seeds stored, then how far the
seeds on the board still are from their stores): every move either stores a seed or moves
seeds towards their store, so the tier strictly increases. The ranked code is chosen only
when the bit fields do not fit (``ranked=True`` forces it, for the tests).

Each rule here is a one-line ``@njit(cache=True)`` function closing over numbers (and the
ranks' small table) only, so numba's on-disk cache serves it to the next process. Moves are
the mover's houses, 0..m-1 from the left end of their row, named ``a``, ``b``, ... as the
mover sees them (``parse_move`` reads the letters back).

>>> game = Kalah(2, 2)
>>> print(game.draw(game.initial()))
       b  a
north  2  2
south  2  2
       a  b
south to move
>>> [game.move_name(m) for m in game.moves(game.initial())], game.parse_move("B")
(['a', 'b'], 1)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from ...engine import CompiledGame
from ...engine.compiled.game import Kernel
from ...engine.proof.kernel import Leaf, dense_leaf
from .dense import (
    MAX_TABLE_SEEDS,
    binomial_table,
    block_bases,
    board_slot,
    build_table,
    dense_manifest,
    load_table,
    row_counts,
    save_table,
)
from .fields import (
    in_play_fields,
    moves_fields,
    outcome_of,
    pack_fields,
    seeds_at,
    sides_fields,
    sow_fields,
    tier_fields,
)
from .ranked import (
    binomials,
    moves_ranked,
    pack_ranked,
    positions_within,
    ranked_fits,
    search_moves_ranked,
    sides_ranked,
    step_ranked,
    tier_ranked,
    unrank_pits,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

LETTERS = "abcdefghijklmnopqrstuvwxyz"


@njit(cache=True)
def dense_slot_of(pits, who, m, base, binom, counts):
    """The entry of the houses ``pits`` (south's, then north's), ``who`` to move, in a dense
    endgame table (:mod:`.dense`: the mover's row first)."""
    own = who * m
    other = m - own
    return board_slot(pits[own:own + m], pits[other:other + m], m, base, binom, counts)


def _dense_tables(m: int, total: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The numbering of :mod:`.dense` for every board of at most ``total`` seeds."""
    return block_bases(m, total), binomial_table(m, total), row_counts(m, total)


def field_rules(m: int, n: int, empty_capture: bool) -> dict[str, Kernel]:
    """The rules of Kalah(m, n) on bit-field codes (CompiledGame's keywords, and ``pack``)."""
    total = 2 * m * n
    b = max(1, total.bit_length())  # bits a house needs: it can hold every seed
    empty = bool(empty_capture)

    @njit(cache=True)
    def moves(code, out):
        return moves_fields(code, out, m, b)

    @njit(cache=True)
    def play(code, move):
        return sow_fields(code, move, m, b, empty)[0]

    @njit(cache=True)
    def payoff(code, move):
        return sow_fields(code, move, m, b, empty)[1]

    @njit(cache=True)
    def outcome(code):
        mine, theirs = sides_fields(code, m, b)
        return outcome_of(mine, theirs)

    @njit(cache=True)
    def score(code):
        mine, theirs = sides_fields(code, m, b)
        return mine - theirs

    @njit(cache=True)
    def player(code):
        return code & 1

    @njit(cache=True)
    def tier(code):
        return tier_fields(code, m, b, total)

    @njit(cache=True)
    def margin_bound(code):
        return in_play_fields(code, m, b)  # the mover cannot gain more than the seeds in play

    @njit(cache=True)
    def pack(pits, who):
        return pack_fields(pits, who, m, b)

    @njit(cache=True)
    def valid(code):  # houses' fields only, and no more seeds in play than the game has
        return code >= 0 and code >> (2 * m * b + 1) == 0 and in_play_fields(code, m, b) <= total

    dbase, dbinom, dcounts = _dense_tables(m, total)

    @njit(cache=True)
    def dense_index(code):
        pits = np.empty(2 * m, np.int64)
        for i in range(2 * m):
            pits[i] = seeds_at(code, i, b)
        return dense_slot_of(pits, code & 1, m, dbase, dbinom, dcounts)

    return {"moves": moves, "play": play, "payoff": payoff, "outcome": outcome,
            "score": score, "player": player, "tier": tier, "margin_bound": margin_bound,
            "dense_index": dense_index, "valid": valid, "pack": pack}


def ranked_rules(m: int, n: int, empty_capture: bool) -> dict[str, Kernel]:
    """The rules of Kalah(m, n) on ranked codes (CompiledGame's keywords, ``pack`` and
    ``unpack``)."""
    total = 2 * m * n
    binom = binomials(total, 2 * m)
    empty = bool(empty_capture)

    @njit(cache=True)
    def unpack(code, pits):
        """The seeds of every house (south's 0..m-1, then north's) of ``code``, into pits."""
        unrank_pits(code >> 15, binom, 2 * m, total, pits)

    @njit(cache=True)
    def pack(pits, who):
        return pack_ranked(pits, who, binom, m)

    ranks = int(binom[total + 2 * m, 2 * m])  # the ways to lay at most `total` seeds out

    @njit(cache=True)
    def valid(code):  # a rank in range, and the sums beside it those of its houses
        if code < 0 or code >> 15 >= ranks:
            return False
        pits = np.empty(2 * m, np.int64)
        unrank_pits(code >> 15, binom, 2 * m, total, pits)
        return pack_ranked(pits, code & 1, binom, m) == code

    @njit(cache=True)
    def play(code, move):
        return step_ranked(code, move, binom, m, total, empty)[0]

    @njit(cache=True)
    def payoff(code, move):
        return step_ranked(code, move, binom, m, total, empty)[1]

    @njit(cache=True)
    def step(code, move):
        return step_ranked(code, move, binom, m, total, empty)

    @njit(cache=True)
    def moves(code, out):
        return moves_ranked(code, out, binom, m, total)

    @njit(cache=True)
    def search_moves(code, out):
        return search_moves_ranked(code, out, binom, m, total)

    @njit(cache=True)
    def outcome(code):
        mine, theirs = sides_ranked(code)
        return outcome_of(mine, theirs)

    @njit(cache=True)
    def score(code):
        mine, theirs = sides_ranked(code)
        return mine - theirs

    @njit(cache=True)
    def player(code):
        return code & 1

    @njit(cache=True)
    def margin_bound(code):
        return (code >> 8) & 127  # the mover cannot gain more than the seeds in play

    @njit(cache=True)
    def tier(code):
        return tier_ranked(code, binom, m, total)

    dbase, dbinom, dcounts = _dense_tables(m, total)

    @njit(cache=True)
    def dense_index(code):
        pits = np.empty(2 * m, np.int64)
        unrank_pits(code >> 15, binom, 2 * m, total, pits)
        return dense_slot_of(pits, code & 1, m, dbase, dbinom, dcounts)

    return {"moves": moves, "play": play, "payoff": payoff, "step": step, "outcome": outcome,
            "score": score, "player": player, "tier": tier, "search_moves": search_moves,
            "margin_bound": margin_bound, "dense_index": dense_index, "valid": valid,
            "pack": pack, "unpack": unpack}


class Kalah(CompiledGame):
    """Kalah with ``houses`` houses a side and ``seeds`` seeds in each (moves: 0..m-1, the
    mover's houses from the left end of their row). ``empty_capture`` (Irving, Donkers and
    Uiterwijk's rule, the default) captures with a last seed in an empty house of the
    mover's even when the house opposite is empty; without it such a seed just stays."""

    def __init__(self, houses: int = 6, seeds: int = 4, ranked: bool | None = None,
                 empty_capture: bool = True) -> None:
        m, n = houses, seeds
        if m < 1 or n < 0:
            raise ValueError(f"Kalah({m}, {n}) needs m >= 1 houses and n >= 0 seeds")
        total = 2 * m * n
        b = max(1, total.bit_length())  # bits a house needs: it can hold every seed
        self.houses, self.seeds, self.bits = m, n, b
        self.empty_capture = bool(empty_capture)
        self.wide = 2 * m * b + 1 > 63 if ranked is None else bool(ranked)
        if self.wide and not ranked_fits(m, n):
            raise ValueError(f"Kalah({m}, {n}) is too big for a 63-bit code: it needs "
                             "2mn <= 127 and C(2mn + 2m, 2m) < 2**48")
        rules = (ranked_rules if self.wide else field_rules)(m, n, self.empty_capture)
        self._pack = rules.pop("pack")
        self._unpack: Kernel | None = rules.pop("unpack", None)
        start = int(self._pack(np.full(2 * m, n, np.int64), 0))
        name = f"Kalah({m}, {n})" if self.empty_capture else \
            f"Kalah({m}, {n}, empty_capture=False)"
        super().__init__(start, max_moves=m, name=name, **rules)

    def endgame_positions(self, k: int) -> np.ndarray:
        """Every position with at most ``k`` seeds still in play (either player to move):
        the roots of an endgame store, ``solve_tiered(game, path, roots=...)``, or
        ``perfectplay solve TARGET --store DIR --endgame K``. 2 x C(k + 2m, 2m) codes."""
        total = 2 * self.houses * self.seeds
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= total:
            raise ValueError(f"k must be a number of seeds from 0 to {total}, not {k!r}")
        return positions_within(k, binomials(total, 2 * self.houses), self.houses, total,
                                0 if self.wide else self.bits)

    def build_dense_endgame(self, k: int, directory: str | Path,
                            progress: Callable[[int, int], None] | None = None) -> Path:
        """Build and save the dense endgame table of every position with at most ``k``
        seeds in play (:mod:`.dense`: one byte a position, C(k + 2m, 2m) of them; the same
        table serves every number of seeds a house), for :meth:`dense_endgame`."""
        total = 2 * self.houses * self.seeds
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= min(total,
                                                                           MAX_TABLE_SEEDS):
            raise ValueError(f"k must be a number of seeds from 0 to {min(total, 127)}, "
                             f"not {k!r}")
        table = build_table(self.houses, k, self.empty_capture, progress)
        return save_table(directory, table, self.houses, k, self.empty_capture)

    def dense_endgame(self, directory: str | Path) -> Leaf:
        """The search's leaf of a saved dense endgame table (:meth:`build_dense_endgame`):
        ``search(game, endgame=game.dense_endgame(DIR))`` reads the margin of every position
        with at most k seeds in play instead of searching it. An InputError when the table
        is another board's or rule's, or damaged."""
        table, k = load_table(directory, self.houses, self.empty_capture)
        return dense_leaf(table, k)

    def dense_endgame_fits(self, directory: str | Path) -> bool:
        """True when ``directory`` holds a dense endgame table this game reads: one of its
        number of houses and capture rule (any seeds: the table of k seeds serves every
        Kalah(m, n)). Reads the manifest only."""
        info = dense_manifest(directory)
        return info.get("houses") == self.houses and \
            info.get("empty_capture") == bool(self.empty_capture)

    def houses_of(self, code: int) -> tuple[list[int], int]:
        """(seeds in each house, south's first, then north's; the player to move)."""
        if self._unpack is not None:  # the ranked code
            pits = np.empty(2 * self.houses, np.int64)
            self._unpack(np.int64(code), pits)
            return [int(p) for p in pits], code & 1
        b, f = self.bits, (1 << self.bits) - 1
        return [(code >> (1 + i * b)) & f for i in range(2 * self.houses)], code & 1

    def draw(self, code: int) -> str:
        """North's row over south's, each house under or over its letter as its owner names
        it (both sow counter-clockwise: south from left to right, north from right to left;
        each store is past the end of its owner's row), and who moves."""
        pits, who = self.houses_of(code)
        m = self.houses
        letters = "  ".join(LETTERS[:m])
        north = " ".join(f"{p:2d}" for p in reversed(pits[m:]))
        south = " ".join(f"{p:2d}" for p in pits[:m])
        return (f"       {letters[::-1]}\nnorth {north}\nsouth {south}\n       {letters}\n"
                f"{'south' if who == 0 else 'north'} to move")

    def move_name(self, move: int) -> str:
        return LETTERS[move]

    def parse_move(self, text: str) -> int | None:
        """The house named ``text`` (``a`` .. the m-th letter, either case), or None."""
        text = text.strip().lower()
        return LETTERS.index(text) if len(text) == 1 and text in LETTERS[:self.houses] \
            else None

    def plot(self, code: int, ax: Axes) -> None:
        """The board on a matplotlib Axes: north's row above south's, each house's seeds
        written in it, the houses lettered as their owners name them."""
        pits, who = self.houses_of(code)
        m = self.houses
        ax.fill([-1, m, m, -1], [-0.5, -0.5, 1.5, 1.5], color="#c8a165")
        for i in range(m):
            for y, count, letter in ((0, pits[i], LETTERS[i]),
                                     (1, pits[2 * m - 1 - i], LETTERS[m - 1 - i])):
                ax.fill([i - 0.4, i + 0.4, i + 0.4, i - 0.4],
                        [y - 0.4, y - 0.4, y + 0.4, y + 0.4], color="#8b5a2b")
                ax.text(i, y, str(count), ha="center", va="center", color="white")
                ax.text(i, y - 0.47 if y == 0 else y + 0.47, letter, ha="center",
                        va="top" if y == 0 else "bottom", fontsize=8)
        ax.set_title(f"{'south' if who == 0 else 'north'} to move")
        ax.set_xlim(-1, m)
        ax.set_ylim(-0.7, 1.7)
        ax.set_aspect("equal")
        ax.axis("off")
