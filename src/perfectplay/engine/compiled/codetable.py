"""Open-addressing hash tables of int64 position codes, as numba kernels over flat arrays.

Two shapes serve the engine:

- a **key table** (:func:`key_insert`, :func:`key_find`): ``keys[slot]`` holds a code or
  :data:`EMPTY`; values live in arrays parallel to ``keys``, so a tier of a compiled game is
  stored as codes plus values and nothing else (about 11 bytes a position at load 0.8);
- an **id table** (:func:`id_intern`, :func:`id_find`): ``slots[slot]`` holds a position id,
  ``codes[id]`` its code, so positions keep their discovery order (id 0 is the start).

Linear probing from a splitmix64 hash (Steele, Lea and Flood 2014, "Fast splittable
pseudorandom number generators"), slot = hash mod capacity, so a table can be sized to any
load. A large key table is two halves chosen by the hash's top bit, each probed on its own,
so inserting and rebuilding run on two threads without locks. Expected probes per
successful look-up at load a: (1 + 1/(1 - a)) / 2 (Knuth, TAOCP vol. 3, 6.4), 3 at
a = 0.8. Every kernel runs as plain Python under ``NUMBA_DISABLE_JIT=1``.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

#: The one int64 that cannot be a position code (marks an empty slot).
EMPTY = np.int64(-(2**63))
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


@njit(cache=True)
def mix(code):
    """splitmix64's finaliser: a bijection of 64-bit words that spreads nearby codes apart.

    The engine's one hash: these tables, the stores' sorted keys (written to disk, so it
    must never change) and proof search's table slots
    (:mod:`perfectplay.engine.proof.kernel`) all use it."""
    z = np.uint64(np.int64(code))  # negative codes wrap, in numba and numpy alike
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


_I1 = np.uint64(pow(0xBF58476D1CE4E5B9, -1, 2**64))  # inverses of mix's multipliers
_I2 = np.uint64(pow(0x94D049BB133111EB, -1, 2**64))
_S54, _S60, _S62 = np.uint64(54), np.uint64(60), np.uint64(62)


@njit(cache=True)
def unmix(key):
    """The code whose :func:`mix` is ``key``: each xor-shift and multiplication undone."""
    z = np.uint64(key)
    z = z ^ (z >> _S31) ^ (z >> _S62)
    z = z * _I2
    z = z ^ (z >> _S27) ^ (z >> _S54)
    z = z * _I1
    z = z ^ (z >> _S30) ^ (z >> _S60)
    return np.int64(z)


def prefetch(a: np.ndarray, i: int) -> None:
    """Ask the processor to start loading the cache line of ``a[i]`` (a hint: nothing else
    changes, and an index out of range is harmless). Probing a table much larger than the
    cache waits on memory at each look-up; asked for a few codes ahead, those waits overlap
    (Connect Four 5x5's tables are 100 MB). Compiled code emits one ``prefetch``
    instruction (see the overload below); plain Python does nothing.

    >>> prefetch(np.zeros(4), 2)
    """


@intrinsic
def _prefetch(typingctx, a, i):
    """LLVM's ``llvm.prefetch`` of ``&a[i]``: a read, kept in every cache level."""
    if not (isinstance(a, types.Array) and isinstance(i, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        aty = signature.args[0]
        array = context.make_array(aty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aty, array, [args[1]],
                                       wraparound=False)
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
            "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0),
                          ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(a, i), codegen


@overload(prefetch)
def _prefetch_compiled(a, i):
    if isinstance(a, types.Array) and isinstance(i, types.Integer):
        return lambda a, i: _prefetch(a, i)  # type: ignore[call-arg]  # numba passes typingctx
    return None


#: How many codes ahead an insertion loop asks for its slot (:func:`prefetch`).
AHEAD = 8


@njit(cache=True)
def _slot(code, cap):
    return np.int64(mix(code) % np.uint64(cap))


@njit(cache=True)
def new_keys(cap):
    """An empty key table of ``cap`` slots."""
    return np.full(max(cap, 4), EMPTY, np.int64)


def capacity_for(n: int, load: float = 0.8) -> int:
    """Slots for ``n`` keys at the given load (at least one free slot in each half)."""
    return max(4, int(n / load) + 2)


#: Key tables of at least this many slots are two independent halves, the half chosen by
#: the hash's top bit, so two threads can insert (or rebuild) at once, each in its half.
SPLIT = 1 << 14


@njit(cache=True)
def _parts(cap):
    return 2 if cap >= SPLIT else 1


@njit(cache=True)
def _home(code, cap):
    """(first slot probed, first slot of the part, slots in the part) for ``code``."""
    z = mix(code)
    if cap < SPLIT:
        return np.int64(z % np.uint64(cap)), 0, cap
    half = cap // 2
    lo = half * np.int64(z >> np.uint64(63))
    return lo + np.int64(z % np.uint64(half)), lo, half


@njit(cache=True)
def probe(keys, first, cap, code):
    """The slot of ``code`` in the table ``keys[first:first + cap]`` (an arena may hold many
    tables), or the empty slot where it would go: linear probing inside its part."""
    s, lo, size = _home(code, cap)
    end = lo + size
    while True:
        k = keys[first + s]
        if k == code or k == EMPTY:
            return first + s
        s += 1
        if s == end:
            s = lo


@njit(cache=True)
def key_find(keys, code):
    """The slot holding ``code``, or -1. Expected O(1)."""
    s = probe(keys, 0, keys.size, code)
    return s if keys[s] == code else -1


@njit(cache=True)
def key_insert(keys, code):
    """Put ``code`` in the table (its part must have a free slot); returns (slot, was new)."""
    s = probe(keys, 0, keys.size, code)
    if keys[s] == code:
        return s, False
    keys[s] = code
    return s, True


@njit(cache=True)
def _part_of(code, cap):
    if cap < SPLIT:
        return 0
    return np.int64(mix(code) >> np.uint64(63))


#: Fewer codes than this are inserted on the calling thread, whatever the table's size:
#: a parallel region costs more than it saves on them, and OpenMP's spinning threads stall
#: it many times over when another process keeps the cores busy.
PARALLEL_CODES = 1 << 14


@njit(cache=True)
def home_slot(code, cap):
    """The slot where probing for ``code`` starts in a table of ``cap`` slots."""
    s, _, _ = _home(code, cap)
    return s


@njit(cache=True)
def prefetch_home(keys, code):
    """:func:`prefetch` the slot where probing for ``code`` starts."""
    prefetch(keys, home_slot(code, keys.size))


@njit(cache=True)
def _insert_serial(keys, codes):
    """Insert ``codes`` on this thread, each slot asked for :data:`AHEAD` codes before its
    turn; returns the number new."""
    n = 0
    for i in range(codes.size):
        if i + AHEAD < codes.size:
            prefetch_home(keys, codes[i + AHEAD])
        _, new = key_insert(keys, codes[i])
        if new:
            n += 1
    return n


@njit(cache=True)
def _insert(keys, codes):
    """Insert ``codes``: on two threads (one a part) when the table has two parts and the
    codes are many, else on this thread. Returns the number new."""
    if _parts(keys.size) == 1 or codes.size < PARALLEL_CODES:
        return _insert_serial(keys, codes)
    return _insert_parts(keys, codes)


@njit(cache=True, parallel=True)
def _insert_parts(keys, codes):
    """Insert ``codes``, one thread per part of the table; returns the number new."""
    parts = _parts(keys.size)
    added = np.zeros(parts, np.int64)
    for p in prange(parts):
        n = 0
        ahead = np.empty(AHEAD, np.int64)  # the parts of the next AHEAD codes, a ring
        for i in range(min(AHEAD, codes.size)):
            ahead[i] = _part_of(codes[i], keys.size)
        for i in range(codes.size):
            mine = ahead[i % AHEAD] == p
            if i + AHEAD < codes.size:  # its part goes where codes[i]'s was
                ahead[i % AHEAD] = _part_of(codes[i + AHEAD], keys.size)
                if ahead[i % AHEAD] == p:
                    prefetch_home(keys, codes[i + AHEAD])
            if mine:
                _, new = key_insert(keys, codes[i])
                if new:
                    n += 1
        added[p] = n
    return added.sum()


@njit(cache=True)
def key_rebuild(keys, cap):
    """The same keys in a fresh table of ``cap`` slots. O(old capacity)."""
    out = new_keys(cap)
    _insert(out, keys[keys != EMPTY])
    return out


@njit(cache=True)
def key_insert_many(keys, count, codes):
    """Insert every code of ``codes`` (``count`` keys are in the table already), first
    growing the table (x2) if the codes could take it past load 0.7.

    Returns (keys, count): the table may be a new array. O(len(codes)) expected."""
    while (count + codes.size) * 10 > keys.size * 7:
        keys = key_rebuild(keys, keys.size * 2)
    return keys, count + _insert(keys, codes)


@njit(cache=True)
def id_find(slots, codes, code):
    """The id of ``code`` in an id table, or -1."""
    cap = slots.size
    s = _slot(code, cap)
    while True:
        i = slots[s]
        if i < 0:
            return -1
        if codes[i] == code:
            return i
        s += 1
        if s == cap:
            s = 0


@njit(cache=True)
def _id_put(slots, codes, i):
    cap = slots.size
    s = _slot(codes[i], cap)
    while slots[s] >= 0:
        s += 1
        if s == cap:
            s = 0
    slots[s] = i


@njit(cache=True)
def id_rehash(slots_cap, codes, n):
    """A fresh id table of ``slots_cap`` slots holding ids 0..n-1 (int32: an in-memory
    graph has fewer than 2**31 positions)."""
    slots = np.full(slots_cap, -1, np.int32)
    for i in range(n):
        _id_put(slots, codes, i)
    return slots


@njit(cache=True)
def id_intern_one(slots, codes, n, code):
    """The id of ``code``, numbering it n if it is new. Returns (id, slots, codes, n): both
    arrays may be new (``codes`` doubles when full, ``slots`` past load 0.7). Expected
    O(1)."""
    cap = slots.size
    s = _slot(code, cap)
    while True:
        i = slots[s]
        if i < 0:
            break
        if codes[i] == code:
            return i, slots, codes, n
        s += 1
        if s == cap:
            s = 0
    if n == codes.size:
        bigger = np.empty(codes.size * 2, np.int64)
        bigger[:n] = codes[:n]
        codes = bigger
    codes[n] = code
    n += 1
    if n * 10 > cap * 7:
        slots = id_rehash(cap * 2, codes, n)
    else:
        slots[s] = n - 1
    return n - 1, slots, codes, n


@njit(cache=True)
def id_intern(slots, codes, n, batch, ids_out):
    """Give each code of ``batch`` its id (:func:`id_intern_one`), writing the ids into
    ``ids_out``. Returns (slots, codes, n). Expected O(len(batch))."""
    for j in range(batch.size):
        ids_out[j], slots, codes, n = id_intern_one(slots, codes, n, batch[j])
    return slots, codes, n
