"""Key stores: how discovery numbers the positions it finds, as compactly as the game allows.

- :class:`CodeStore`: when positions are ints (or the game defines ``encode``/``decode``),
  each is one int64 in a numpy array with an open-addressing id table
  (:mod:`..compiled.codetable`);
  children are numbered in batches by a numba kernel. No Python object is kept a position.
  A small game (up to :data:`SMALL_CODES` positions) keeps its codes in a dict instead, and
  never loads numba: the table takes over when the game grows past that.
- :class:`ObjectStore`: otherwise a dict from position to id, as any hashable object can be
  a position.

Both follow the :class:`KeyStore` protocol, which is all discovery (:mod:`.graph`) and
its expansion (:mod:`.expand`) know of them. A store also says how positions cross to the
helper process of :mod:`..workers` and back (:meth:`KeyStore.payload`,
:meth:`KeyStore.for_helper`, :meth:`KeyStore.adopt`).
"""

from __future__ import annotations

import pickle
from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from ...errors import GameError, show
from ...numbaboot import numpy_on_use
from ..protocol import Move, Position

if TYPE_CHECKING:
    import numpy as np
else:
    np = numpy_on_use  # numpy loads where it is used: not in a small game's solve

#: The keys of one batch's children, in order: an int64 array (int positions), a list of
#: codes (encoded positions) or an int32 array of ids (object positions).
Kids: TypeAlias = "array[int] | list[int]"
#: ``(encode, decode)`` of a game whose positions are codes; ``(None, None)`` when the
#: positions are ints themselves.
Codec: TypeAlias = "tuple[Callable[[Any], int] | None, Callable[[int], Any] | None]"

#: Positions numbered through a dict before the id table (numba) takes over: the kernel's
#: start-up (about 0.7 s) is worth it only for a game that large (issue 70).
SMALL_CODES = 2**17


class NotInt(Exception):
    """A position of a game with an int start is not an int64: use objects instead."""


class ChildKeys(Protocol):
    """What one batch's expansion needs: a fresh ``kids`` container and a key for each
    child (a code, or an id). The helper process uses one of these too
    (:meth:`KeyStore.for_helper`)."""

    def new_kids(self) -> Kids:
        """An empty container for a batch's child keys."""

    def key(self, child: Position, pos: Position, move: Move) -> int:
        """The key of ``child`` (reached from ``pos`` by ``move``); NotInt when a code
        store meets a position that is not an int64."""

    def sent(self, kids: Kids) -> Any:
        """What the helper sends back for a batch's children (their codes, or the
        positions themselves for the parent to number)."""


class KeyStore(ChildKeys, Protocol):
    """Every position found so far, numbered 0..n-1 in discovery order."""

    n: int

    def batch(self, i: int, size: int) -> list[Position]:
        """Positions ``i .. i + size - 1`` (fewer at the end)."""

    def payload(self, i: int, size: int) -> list[Any]:
        """The same positions as they cross to the helper (codes, or the objects)."""

    def unpack(self, payload: list[Any]) -> list[Position]:
        """A payload back as positions (in the helper)."""

    def pickles_equal(self) -> bool:
        """May positions cross a pipe (they come back equal, with equal hashes)?"""

    def intern(self, kids: Kids) -> bytes:
        """Number a batch's children (new ones get the next ids): their int32 ids."""

    def for_helper(self) -> ChildKeys:
        """The child keys the helper process uses for its half of a batch."""

    def adopt(self, children: Any, kids: Kids) -> None:
        """Append what the helper sent back (:meth:`ChildKeys.sent`) to ``kids``."""

    def fields(self) -> dict[str, Any]:
        """The :class:`~perfectplay.engine.discovery.graph.GameGraph` fields that hold the
        positions (``codes`` and ``slots``, or ``objects`` and ``index``)."""


class CodeStore:
    """Positions as int64 codes, numbered by the id-table kernel a batch at a time (in a
    dict, ``ids``, while the game is small: :data:`SMALL_CODES`)."""

    def __init__(self, start: Position, codec: Codec) -> None:
        self.encode, self.decode = codec
        code = self._code(start, None, None)
        self.codes: np.ndarray | array[int] = array("q", [code])
        self.ids: dict[int, int] | None = {code: 0}
        self.slots: np.ndarray | None = None
        self.n = 1

    def _code(self, pos: Position, parent: Position | None, move: Move) -> int:
        """The int64 code of ``pos``; NotInt (keep objects instead) when there is none:
        a position that is not an int64, or an ``encode`` that gives something else (say
        a code past 2**63) or does not round-trip the start through ``decode``."""
        if self.encode is None:
            if type(pos) is not int or not -(2**63) < pos < 2**63:
                raise NotInt
            return pos
        code = self.encode(pos)
        if isinstance(code, bool) or not isinstance(code, int) or not -(2**63) < code < 2**63:
            raise NotInt
        if parent is None and self.decode is not None and self.decode(code) != pos:
            raise NotInt
        return code

    def batch(self, i: int, size: int) -> list[Position]:
        return self.unpack(self.payload(i, size))

    def payload(self, i: int, size: int) -> list[Any]:
        """Positions i.. as what crosses to the helper: their codes."""
        codes: list[int] = self.codes[i:min(self.n, i + size)].tolist()
        return codes

    def unpack(self, payload: list[Any]) -> list[Position]:
        decode = self.decode
        return payload if decode is None else [decode(c) for c in payload]

    @staticmethod
    def pickles_equal() -> bool:
        return True  # codes are ints

    def new_kids(self) -> Kids:
        return array("q") if self.encode is None else []

    def key(self, child: Position, pos: Position, move: Move) -> int:
        return self._code(child, pos, move)

    @staticmethod
    def sent(kids: Kids) -> Any:
        return kids  # codes: the parent numbers them itself

    def for_helper(self) -> ChildKeys:
        return self  # codes are computed the same in the helper

    @staticmethod
    def adopt(children: Any, kids: Kids) -> None:
        kids.extend(children)

    def intern(self, kids: Kids) -> bytes:
        if self.ids is not None:
            return self._intern_small(kids, self.ids)
        # the id table: numba, loaded only for a game past SMALL_CODES positions
        from ..compiled import id_intern
        batch = np.asarray(kids, dtype=np.int64) if isinstance(kids, list) else \
            np.frombuffer(kids, dtype=np.int64) if kids else np.zeros(0, np.int64)
        ids = np.empty(batch.size, np.int64)
        self.slots, self.codes, n = id_intern(self.slots, self.codes, self.n, batch, ids)
        self.n = int(n)
        return ids.astype(np.int32).tobytes()

    def _intern_small(self, kids: Kids, index: dict[int, int]) -> bytes:
        """:meth:`intern` through the dict: new codes get the next ids, in the order the
        kernel gives them; past :data:`SMALL_CODES` positions the table takes over."""
        codes = self.codes
        assert isinstance(codes, array)
        n = self.n
        out = array("i")
        add_code, add_id, known = codes.append, out.append, index.setdefault
        for code in kids:
            i = known(code, n)
            if i == n:
                add_code(code)
                n += 1
            add_id(i)
        self.n = n
        if n > SMALL_CODES:
            self._to_table(codes)
        return out.tobytes()

    def _to_table(self, codes: array[int]) -> None:
        """Hand the codes numbered so far to the id-table kernel (same ids)."""
        from ..compiled import id_rehash
        n = self.n
        table = np.empty(max(1024, 2 * n), np.int64)
        table[:n] = np.frombuffer(codes, dtype=np.int64)
        self.codes, self.ids = table, None
        cap = 2048
        while n * 10 > cap * 7:
            cap *= 2
        self.slots = id_rehash(cap, table, n)

    def fields(self) -> dict[str, Any]:
        if self.ids is not None:
            return {"codes": self.codes, "slots": None, "code_ids": self.ids,
                    "encode": self.encode, "decode": self.decode}
        assert isinstance(self.codes, np.ndarray)
        return {"codes": self.codes[:self.n].copy(), "slots": self.slots,
                "encode": self.encode, "decode": self.decode}


#: In :attr:`ObjectStore.known`: this position's outcome was not told by ``outcome_after``
#: (the start, or a child the helper process found): ask ``outcome``.
ASK: Any = object()


class ObjectStore:
    """Positions as the game's own hashable objects, in a dict. ``after``: the game has
    ``outcome_after``, so the store keeps each new position's outcome (``known``, by id:
    :data:`ASK` where it was not told) until the position is expanded."""

    def __init__(self, start: Position, after: bool = False) -> None:
        try:
            self.index: dict[Position, int] = {start: 0}
        except Exception as exc:  # noqa: BLE001 - TypeError, or a __hash__ raising
            raise GameError(f"the start position {show(start)} is not hashable: "
                            f"{type(exc).__name__}: {exc}") from None
        self.objects = [start]
        self.known: list[Any] | None = [ASK] if after else None
        self.n = 1

    def batch(self, i: int, size: int) -> list[Position]:
        return self.objects[i:i + size]

    payload = batch

    @staticmethod
    def unpack(payload: list[Any]) -> list[Position]:
        return payload

    def pickles_equal(self, samples: int = 64) -> bool:
        """Do positions come back from a pickle round trip equal, with equal hashes
        (checked on ``samples`` of them spread over those found)? Not for pieces compared
        by identity, whose copies the helper would send back."""
        step = max(1, self.n // samples)
        try:
            for pos in self.objects[::step]:
                back = pickle.loads(pickle.dumps(pos, pickle.HIGHEST_PROTOCOL))
                if back != pos or hash(back) != hash(pos):
                    return False
        except Exception:  # noqa: BLE001 - anything that does not pickle stays here
            return False
        return True

    @staticmethod
    def new_kids() -> Kids:
        return array("i")

    def key(self, child: Position, pos: Position, move: Move) -> int:
        cid = self.index.setdefault(child, self.n)
        if cid == self.n:
            self.objects.append(child)
            if self.known is not None:
                self.known.append(ASK)
            self.n += 1
        return cid

    @staticmethod
    def sent(kids: Kids) -> Any:
        raise AssertionError("an object store's helper sends positions (HelperObjects)")

    def for_helper(self) -> ChildKeys:
        return HelperObjects()  # the parent numbers the objects the helper sends

    def adopt(self, children: Any, kids: Kids) -> None:
        key = self.key
        for child in children:
            kids.append(key(child, None, None))

    @staticmethod
    def intern(kids: Kids) -> bytes:
        assert isinstance(kids, array)
        return kids.tobytes()

    def fields(self) -> dict[str, Any]:
        return {"objects": self.objects, "index": self.index}


class HelperObjects:
    """The helper's stand-in for the object store: keeps the children in order (the parent
    numbers them), checking only that they hash."""

    def __init__(self) -> None:
        self.children: list[Position] = []

    @staticmethod
    def new_kids() -> Kids:
        return array("i")

    def key(self, child: Position, pos: Position, move: Move) -> int:
        hash(child)
        self.children.append(child)
        return 0

    def sent(self, kids: Kids) -> Any:
        return self.children
