"""A dense endgame table of Kalah: the margin of every position with at most k seeds in play,
one signed byte a position, found by its rank (no keys), built seeds-in-play layer by layer.

Irving, Donkers and Uiterwijk (2000) solved Kalah(6, 4) and (6, 5) with endgame databases;
Mark Rawlings (2015) kept every position of at most 34 seeds. A position of Kalah's houses
is worth, to its mover, a margin that does not depend on the seeds already stored nor on
how many seeds the game began with: one table serves Kalah(m, n) for every n. Positions are
taken from the mover's side (``mine``, then ``theirs``, each a row of m houses in its owner's
sowing order), so there is one entry a board of houses, not two.

**The numbering.** The boards of total k come after every board of fewer seeds
(C(k - 1 + 2m, 2m) of them); inside total k, the blocks of i seeds on the mover's side come
in order of i, each N_i x N_(k-i) entries (N_s = C(s + m - 1, m - 1), the rows of s seeds);
inside a block, ``rank(mine) * N_(k-i) + rank(theirs)``. A row's rank is its place in
lexicographic order from the house farthest from the store (:func:`row_rank`). So the table
of every board of at most k seeds has exactly C(k + 2m, 2m) entries: 2.7 x 10^9 bytes for
k = 26 on six houses, 5.6 x 10^9 for 28, 1.1 x 10^10 for 30.

**The order of the build.** A move either stores a seed (a capture, or a seed sown into the
store: every seed that reaches the opponent's houses passes the store first), so its board
has fewer seeds, already built; or it leaves every sown seed in the mover's own row, which
makes that row lexicographically smaller (the house sown drops, the houses before it are
unchanged). So a block pair (i, j) and (j, i) is built row by row of the first side
(:func:`_build_pair`): for the row ``a`` of rank r, first every (a, b) (its moves within
the layer reach (b, a') with a' < a, built before), then every (b, a) (they reach (a, b'),
built just now). Each half is split among threads. Time O(positions x m x (seeds + m));
memory the table.

>>> table = build_table(2, 3)                          # two houses a side, up to 3 seeds
>>> table.size, int(table[slot_of([1, 0], [0, 1], 2)])  # one seed each: the mover sows it
(35, 0)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from math import comb
from pathlib import Path

import numba
import numpy as np
from numba import njit, prange

from ...errors import InputError
from ...store.endgame import dense_info

#: The largest margin a signed byte holds: tables of at most this many seeds.
MAX_TABLE_SEEDS = 127


def table_size(m: int, k: int) -> int:
    """Entries (bytes) of the table of every board of m houses a side with at most k seeds:
    C(k + 2m, 2m)."""
    return comb(k + 2 * m, 2 * m)


def row_counts(m: int, top: int) -> np.ndarray:
    """N_s = C(s + m - 1, m - 1): the rows of m houses holding s seeds, s = 0..top."""
    return np.array([comb(s + m - 1, m - 1) for s in range(top + 1)], np.int64)


def block_bases(m: int, top: int) -> np.ndarray:
    """``base[i, j]``: the first entry of the block of boards with i seeds on the mover's side
    and j on the other's (i + j <= top; module doc). Shape (top + 1, top + 1), -1 elsewhere."""
    n = row_counts(m, top)
    base = np.full((top + 1, top + 1), -1, np.int64)
    for k in range(top + 1):
        at = comb(k - 1 + 2 * m, 2 * m) if k else 0
        for i in range(k + 1):
            base[i, k - i] = at
            at += int(n[i] * n[k - i])
    return base


def binomial_table(m: int, top: int) -> np.ndarray:
    """C(a, q) for a <= top + m, q <= m (the rows' ranks)."""
    return np.array([[comb(a, q) for q in range(m + 1)] for a in range(top + m + 1)],
                    np.int64)


def rows_of(m: int, s: int) -> np.ndarray:
    """Every row of m houses holding s seeds, in lexicographic order (the rank order)."""
    out = np.zeros((comb(s + m - 1, m - 1), m), np.int8)
    row = [0] * m

    def fill(p: int, left: int, at: list[int]) -> None:
        if p == m - 1:
            row[p] = left
            out[at[0]] = row
            at[0] += 1
            return
        for v in range(left + 1):
            row[p] = v
            fill(p + 1, left - v, at)

    fill(0, s, [0])
    return out


@njit(cache=True)
def row_rank(row, m, binom):
    """The place of ``row`` among the rows of its seeds in lexicographic order: with R the
    seeds from house p on and q = m - 1 - p, the rows before it that first differ at p number
    C(R + q, q) - C(R - c_p + q, q) (a hockey-stick sum). O(m)."""
    left = 0
    for p in range(m):
        left += row[p]
    r = 0
    for p in range(m - 1):
        q = m - 1 - p
        c = row[p]
        r += binom[left + q, q] - binom[left - c + q, q]
        left -= c
    return r


@njit(cache=True)
def board_slot(mine, theirs, m, base, binom, counts):
    """The entry of the board (``mine`` to move, ``theirs``): module doc. O(m)."""
    i = 0
    j = 0
    for p in range(m):
        i += mine[p]
        j += theirs[p]
    return base[i, j] + row_rank(mine, m, binom) * counts[j] + row_rank(theirs, m, binom)


@njit(cache=True)
def _margin(table, ring, m, base, binom, counts):
    """The mover's margin of the board in ``ring`` (the mover's m houses, the store, the
    other's m houses) as the table says; a side empty ends the game (each stores their own
    side)."""
    i = 0
    j = 0
    for p in range(m):
        i += ring[p]
        j += ring[m + 1 + p]
    if i == 0 or j == 0:
        return i - j
    return table[board_slot(ring[:m], ring[m + 1:], m, base, binom, counts)]


@njit(cache=True)
def _swap(ring, m):
    """The board seen by the other player: their houses first (in place)."""
    for p in range(m):
        t = ring[p]
        ring[p] = ring[m + 1 + p]
        ring[m + 1 + p] = t


@njit(cache=True)
def board_value(mine, theirs, table, m, base, binom, counts, empty_capture, ring):
    """The mover's best margin from (``mine``, ``theirs``), each move's child read from
    ``table`` (which must hold them: boards of fewer seeds, or smaller rows; module doc).
    The sowing and capture are :func:`~.ranked.sow_pits`'s, on a ring of 2m + 1 places with
    the mover's store at m. ``ring`` is scratch space of 2m + 1."""
    i = 0
    j = 0
    for p in range(m):
        i += mine[p]
        j += theirs[p]
    if i == 0 or j == 0:
        return i - j
    size = 2 * m + 1
    best = -MAX_TABLE_SEEDS
    for h in range(m):
        seeds = mine[h]
        if seeds == 0:
            continue
        for p in range(m):
            ring[p] = mine[p]
            ring[m + 1 + p] = theirs[p]
        ring[m] = 0
        ring[h] = 0
        laps, rest = seeds // size, seeds % size
        if laps:
            for p in range(size):
                ring[p] += laps
        for t in range(1, rest + 1):
            ring[(h + t) % size] += 1
        last = (h + seeds) % size
        stored = ring[m]
        if last == m:  # the last seed in the store: the mover moves again
            value = stored + _margin(table, ring, m, base, binom, counts)
        else:
            if last < m and ring[last] == 1:  # the last seed in an empty house
                opposite = m + 1 + (m - 1 - last)
                if empty_capture or ring[opposite] > 0:
                    stored += 1 + ring[opposite]
                    ring[last] = 0
                    ring[opposite] = 0
            _swap(ring, m)
            value = stored - _margin(table, ring, m, base, binom, counts)
        if value > best:
            best = value
    return best


@njit(cache=True, parallel=True)
def _build_half(rows_a, ra, rows_b, lo, table, start, stride, first, m, base, binom,
                counts, empty_capture, threads):
    """One half of a row step of :func:`_build_pair`: the boards (a, b) (``first``) or
    (b, a) for every row b of rank >= lo, split into one contiguous run a thread."""
    nb = rows_b.shape[0]
    for t in prange(threads):
        ring = np.empty(2 * m + 1, np.int64)
        begin = lo + (nb - lo) * t // threads
        end = lo + (nb - lo) * (t + 1) // threads
        for rb in range(begin, end):
            if first:
                v = board_value(rows_a[ra], rows_b[rb], table, m, base, binom, counts,
                                empty_capture, ring)
                table[start + ra * nb + rb] = v
            else:
                v = board_value(rows_b[rb], rows_a[ra], table, m, base, binom, counts,
                                empty_capture, ring)
                table[start + rb * stride + ra] = v


def _build_pair(i: int, j: int, table: np.ndarray, rows: list[np.ndarray], m: int,
                base: np.ndarray, binom: np.ndarray, counts: np.ndarray,
                empty_capture: bool) -> None:
    """The blocks (i, j) and (j, i) of one layer (i <= j), row by row of the i side (module
    doc); with i == j one block, each board once."""
    rows_a, rows_b = rows[i], rows[j]
    same = i == j
    threads = numba.get_num_threads()
    for ra in range(rows_a.shape[0]):
        _build_half(rows_a, ra, rows_b, ra if same else 0, table, int(base[i, j]), 0, True,
                    m, base, binom, counts, empty_capture, threads)
        _build_half(rows_a, ra, rows_b, ra + 1 if same else 0, table, int(base[j, i]),
                    rows_a.shape[0], False, m, base, binom, counts, empty_capture, threads)


def build_table(m: int, k: int, empty_capture: bool = True,
                progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """The dense table of every board of ``m`` houses a side with at most ``k`` seeds in
    play (module doc): int8 margins, C(k + 2m, 2m) of them. ``progress(layer, entries so
    far)`` is called after each layer. Raises ValueError for sizes the numbering cannot
    hold."""
    if m < 1 or not 0 <= k <= MAX_TABLE_SEEDS:
        raise ValueError(f"a dense Kalah table needs m >= 1 houses and 0 <= k <= "
                         f"{MAX_TABLE_SEEDS} seeds, not m={m}, k={k}")
    table = np.zeros(table_size(m, k), np.int8)
    base, binom, counts = block_bases(m, k), binomial_table(m, k), row_counts(m, k)
    rows: list[np.ndarray] = []
    for layer in range(k + 1):
        rows.append(rows_of(m, layer))
        for i in range(layer // 2 + 1):
            _build_pair(i, layer - i, table, rows, m, base, binom, counts, empty_capture)
        if progress is not None:
            progress(layer, table_size(m, layer))
    return table


def slot_of(mine: list[int], theirs: list[int], m: int) -> int:
    """The table entry of the board (``mine`` to move, ``theirs``), each a row of m houses
    in its owner's sowing order (module doc)."""
    top = sum(mine) + sum(theirs)
    return int(board_slot(np.asarray(mine, np.int64), np.asarray(theirs, np.int64), m,
                          block_bases(m, top), binomial_table(m, top), row_counts(m, top)))


#: The files of a saved table: its description and its bytes.
MANIFEST, TABLE_FILE = "manifest.json", "table.npy"


def save_table(directory: str | Path, table: np.ndarray, m: int, k: int,
               empty_capture: bool) -> Path:
    """Write ``table`` (of :func:`build_table`) to ``directory``: ``table.npy`` and a
    manifest naming what it holds, which :func:`load_table` checks."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    if table.size != table_size(m, k) or table.dtype != np.int8:
        raise InputError(f"a table of {table.size:,} {table.dtype} entries is not the table of "
                         f"{m} houses and {k} seeds ({table_size(m, k):,} int8 entries)")
    np.save(out / TABLE_FILE, table)
    (out / MANIFEST).write_text(json.dumps(
        {"kind": KIND, "houses": m, "seeds": k,
         "empty_capture": bool(empty_capture), "entries": int(table.size)}, indent=1) + "\n")
    return out


#: What a dense table's manifest says it is.
KIND = "kalah dense endgame table"


def dense_manifest(directory: str | Path) -> dict[str, object]:
    """The manifest of the Kalah dense table saved in ``directory``, or {} when it holds
    none (a store, or nothing)."""
    info = dense_info(directory)
    return info if info.get("kind") == KIND else {}


def load_table(directory: str | Path, m: int, empty_capture: bool) -> tuple[np.ndarray, int]:
    """(the table, its seeds k) saved in ``directory`` for boards of ``m`` houses with this
    capture rule; ValueError naming what is wrong otherwise (not a table, another board or
    rule, a truncated file)."""
    where = Path(directory)
    try:
        info = json.loads((where / MANIFEST).read_text())
    except (OSError, ValueError) as e:
        raise InputError(f"{where} holds no dense Kalah table ({MANIFEST}: {e})") from None
    if info.get("kind") != KIND:
        raise InputError(f"{where / MANIFEST} does not describe a dense Kalah table")
    if info.get("houses") != m or info.get("empty_capture") != bool(empty_capture):
        raise InputError(f"{where} holds the table of {info.get('houses')} houses "
                         f"(empty_capture={info.get('empty_capture')}), not of {m} houses "
                         f"(empty_capture={bool(empty_capture)})")
    k = int(info["seeds"])
    try:
        table = np.load(where / TABLE_FILE)
    except (OSError, ValueError) as e:
        raise InputError(f"{where / TABLE_FILE} cannot be read: {e}") from None
    if table.dtype != np.int8 or table.shape != (table_size(m, k),):
        raise InputError(f"{where / TABLE_FILE} holds {table.size:,} {table.dtype} entries, "
                         f"not the {table_size(m, k):,} bytes of {k} seeds")
    return table, k
