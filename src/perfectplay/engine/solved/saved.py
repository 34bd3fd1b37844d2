"""Solved games saved to a file and loaded back: every position's key, value and remoteness,
and the game's target, in one ``.npz`` (numpy) or ``.parquet`` (pyarrow) file.

A position is written as its int64 code when positions are ints (compiled games, games with
int positions), or through the game's ``encode``/``decode`` when it has them, or else as its
``repr`` when that reads back as the same Python literal (strings, tuples, frozensets of
numbers ...); any other position type is refused with a clear message (define ``encode``
and ``decode``). Values are win/lose codes (int8: 1 win, 2 lose, 3 tie, 4 draw) or margins
(int64, or float64), remoteness int32 with -1 for "never ends".

:func:`load` gives a :class:`SavedSolution`, which answers through the engine's read
interface (value, remoteness, move_values, best_move, explain, draw, to_json) with the game
rebuilt from the saved target (or the one you pass): moves are asked of the game again, as
a :class:`~perfectplay.engine.solved.solution.Solution` does. Looking a position up is a binary
search in the sorted codes (O(log n)) or a dict look-up of its repr.

>>> import tempfile, pathlib
>>> from perfectplay import solve
>>> from nim import Nim
>>> s = solve(Nim((1, 2)))
>>> where = pathlib.Path(tempfile.mkdtemp()) / "nim.npz"
>>> back = load(save(s, where, target="examples/nim.py:Nim((1, 2))"))
>>> back.value(), back.remoteness(), back.best_move() == s.best_move()
(<Value.WIN: 'win'>, 3, True)
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import InputError, PerfectplayError, show
from ...numbaboot import numpy_on_use
from ..protocol import Game, Position, Value, Worth, capabilities
from ..target import load_target
from ..values import MARGIN, WINLOSE, Counts, UnknownPosition, counts_of
from .savefile import FORMAT, arrow_modules, game_name, save, to_arrays
from .solution import Solved

if TYPE_CHECKING:
    import numpy as np
else:
    np = numpy_on_use  # numpy loads where it is used: not in a small game's solve

__all__ = ["FORMAT", "GameNotRebuilt", "SavedSolution", "load", "save", "to_arrays"]


class GameNotRebuilt(InputError):
    """A saved solution whose game cannot be rebuilt here: it names none, or the target it
    records does not load (a file moved since); pass the game (``load(path, game)``, on the
    command line ``--game TARGET``). ``problem`` says which, without the remedy."""

    def __init__(self, path: Path, target: str | None, reason: str | None = None) -> None:
        self.path = path
        self.problem = (f"{path} names no game" if target is None else
                        f"{path} records the game {target}, which cannot be rebuilt here "
                        f"({reason})")
        remedy = "pass game= (or save with target=)" if target is None else "pass game="
        super().__init__(f"{self.problem}: {remedy}")


def _read(path: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    try:
        if path.suffix == ".npz":
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                arrays = {k: data[k] for k in ("key", "value", "remoteness")}
        elif path.suffix == ".parquet":
            _, pq = arrow_modules()
            table = pq.read_table(path)
            meta = json.loads((table.schema.metadata or {})[b"perfectplay"])
            arrays = {k: table.column(k).to_numpy() for k in ("key", "value", "remoteness")}
        else:
            raise InputError(f"a solution is read from .npz or .parquet, not {path.name!r}")
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged or foreign file
        raise InputError(f"{path} is not a saved solution ({type(exc).__name__}: "
                         f"{show(exc)})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise InputError(f"{path} is a saved solution of another format "
                         f"({meta.get('format') if isinstance(meta, dict) else '?'}, this "
                         f"version reads {FORMAT})")
    return meta, arrays


def load(path: str | Path, game: Game | None = None) -> SavedSolution:
    """A solution saved by :func:`save`, with its game rebuilt from the saved target or
    the ``game`` given (which must have the saved game's name).

    :param path: the saved file (.npz or .parquet).
    :param game: the game it was solved from (None: rebuilt from the target it records).
    :returns: a :class:`SavedSolution`, which answers as the
        :class:`~perfectplay.engine.Solution` saved did.
    :raises InputError: no such file, not a saved solution, a format this version does
        not read, or a ``game`` of another name; :class:`GameNotRebuilt` (an InputError)
        when the file names no game or its target does not load here.
    """
    path = Path(path)
    meta, arrays = _read(path)
    if game is None:
        target = meta.get("target")
        if not target:
            raise GameNotRebuilt(path, None)
        try:
            game = load_target(target)
        except PerfectplayError as exc:
            raise GameNotRebuilt(path, target, str(exc)) from None
    elif game_name(game) != meta.get("name"):
        raise InputError(f"{path} holds a solution of {meta.get('name')}, not of "
                         f"{game_name(game)}")
    return SavedSolution(game, meta, arrays)


class SavedSolution(Solved):
    """A solution read back from a file (see the module doc)."""

    cyclic = None

    def __init__(self, game: Game, meta: dict[str, Any], arrays: dict[str, np.ndarray]
                 ) -> None:
        self.game = game
        self._caps = capabilities(game)
        self.meta = meta
        self.mode = meta["mode"]
        self.kind = meta["kind"]
        keys = arrays["key"]
        self._values = arrays["value"]
        self._rems = arrays["remoteness"]
        if self.kind == "literal":
            self._index: dict[str, int] | None = {str(k): i for i, k in enumerate(keys)}
            self._keys = keys
        else:
            self._index = None
            self._order = np.argsort(keys, kind="stable")
            self._keys = keys.astype(np.int64)
            self._sorted = self._keys[self._order]

    def __repr__(self) -> str:
        return (f"<SavedSolution of {self.meta.get('name')}: {len(self):,} positions>")

    def __len__(self) -> int:
        return len(self._values)

    @property
    def scored(self) -> bool:
        return self.mode == MARGIN

    def _row(self, pos: Position) -> int:
        if self._index is not None:
            i = self._index.get(repr(pos))
        else:
            code: Any = pos
            if self.kind == "encode":
                assert self._caps.encode is not None
                try:
                    code = self._caps.encode(pos)
                except Exception:  # noqa: BLE001 - not a position of this game
                    code = None
            if not isinstance(code, int | np.integer) or isinstance(code, bool) \
                    or not -(2**63) <= int(code) < 2**63:
                raise UnknownPosition(f"{show(pos)} is not a position of this solution")
            j = int(np.searchsorted(self._sorted, np.int64(code)))
            i = int(self._order[j]) if j < len(self._sorted) and \
                self._sorted[j] == code else None
        if i is None:
            raise UnknownPosition(f"{show(pos)} is not a position of this solution "
                                  "(not reachable from the start)")
        return i

    def _entry(self, pos: Position) -> tuple[Worth, int | None]:
        i = self._row(pos)
        r = int(self._rems[i])
        v = self._values[i]
        value: Worth = Value.from_code(int(v)) if self.mode == WINLOSE else (
            int(v) if np.issubdtype(self._values.dtype, np.integer) else float(v))
        return value, (None if r < 0 else r)

    def positions(self) -> Iterator[Position]:
        """Every saved position (the start first), rebuilt from its key."""
        decode = self._caps.decode
        for k in self._keys:
            if self.kind == "literal":
                yield ast.literal_eval(str(k))
            elif self.kind == "encode":
                assert decode is not None
                yield decode(int(k))
            else:
                yield int(k)

    def __iter__(self) -> Iterator[Position]:
        return self.positions()

    def counts(self) -> Counts:
        return counts_of(iter([(self._values, self._rems)]), self.mode, len(self))

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The saved arrays (key, value, remoteness), as :func:`to_arrays` gives them."""
        return {"key": self._keys, "value": self._values, "remoteness": self._rems}
