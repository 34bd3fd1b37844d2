"""Writing a solved game to a file: every position's key, value and remoteness as arrays
(:func:`to_arrays`), in one ``.npz`` or ``.parquet`` file (:func:`save`); the format and
reading it back are described in :mod:`perfectplay.engine.solved.saved`.

Below every solved form: it needs only their read interface, the :class:`Solved` protocol
(``positions()``, ``_entry``, ``scored``, ``game``), so
:class:`perfectplay.engine.solved.solution.Solved` can save itself without importing the module
that loads files back (which builds on it).
"""

from __future__ import annotations

import ast
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ...errors import GameError, InputError, show
from ...numbaboot import numpy_on_use
from ..protocol import Game, Position, Value, Worth, capabilities
from ..target import is_catalog_target
from ..values import MARGIN, WINLOSE

if TYPE_CHECKING:
    import numpy as np
else:
    np = numpy_on_use  # numpy loads where it is used: not in a small game's solve


class Solved(Protocol):
    """What saving reads of a solved game (:class:`perfectplay.engine.solved.solution.Solved`
    and its kinds that can list their positions): declared here, so this module needs
    nothing above it."""

    @property
    def game(self) -> Game: ...

    @property
    def scored(self) -> bool: ...

    def positions(self) -> Iterator[Position]: ...

    def _entry(self, pos: Position) -> tuple[Worth, int | None]: ...

FORMAT = 1
_SUFFIXES = (".npz", ".parquet")


def _key_kind(solved: Solved, first: Position) -> str:
    if isinstance(first, int | np.integer) and not isinstance(first, bool):
        return "code"
    if capabilities(solved.game).codec:
        return "encode"
    return "literal"


def _literal(pos: Position) -> str:
    text = repr(pos)
    try:
        back = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        back = _Missing
    if back != pos or type(back) is not type(pos):
        raise GameError(f"a position of type {type(pos).__name__} ({show(pos)}) cannot be "
                        "saved: its repr does not read back as the same Python literal; "
                        "give the game encode(pos) -> int and decode(int) -> pos")
    return text


class _Missing:
    pass


def to_arrays(solved: Solved) -> dict[str, np.ndarray]:
    """Every position of a solved game as arrays (one row a position, the start first):
    ``key`` (int64 codes, or the positions' reprs), ``value`` (int8 win/lose codes, or the
    margins), ``remoteness`` (int32, -1 for "never ends"). O(positions)."""
    if getattr(solved, "payer", None) is not None:
        raise GameError("a scored game with cycles (solved as a cost game) cannot be saved "
                        "yet: its tie-breaks depend on who pays, which the file does not hold")
    positions: list[Any] = list(solved.positions())  # ints, or the game's own objects
    kind = _key_kind(solved, positions[0]) if positions else "code"
    encode = capabilities(solved.game).encode
    if kind == "code":
        keys: np.ndarray = np.array([int(p) for p in positions], np.int64)
    elif kind == "encode":
        assert encode is not None
        keys = np.array([int(encode(p)) for p in positions], np.int64)
    else:
        keys = np.array([_literal(p) for p in positions], dtype=object).astype(str)
    entries = [solved._entry(p) for p in positions]
    rems = np.array([-1 if r is None else r for _, r in entries], np.int32)
    if not solved.scored:
        values = np.array([_code(v) for v, _ in entries], np.int8)
    else:
        raw: list[Any] = [v for v, _ in entries]
        if all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in raw) \
                and all(-(2**63) <= int(v) < 2**63 for v in raw):
            values = np.array(raw, np.int64)
        elif all(isinstance(v, int | float | np.integer | np.floating) for v in raw):
            values = np.array(raw, np.float64)
        else:
            raise GameError("margins that are neither ints nor floats (fractions?) cannot "
                            "be saved yet")
    return {"key": keys, "value": values, "remoteness": rems,
            "kind": np.array(kind), "mode": np.array(WINLOSE if not solved.scored else MARGIN)}


def _code(value: Worth) -> int:
    assert isinstance(value, Value)
    return value.code


def portable_target(target: str) -> str:
    """``target`` as it loads from any folder: a catalog game as it is written (it names
    no file), a user's ``FILE.py:Class(args)`` with the file's absolute path (a relative
    one is read from the folder it is given in).

    >>> portable_target("nim(heaps=(3, 4, 5))")
    'nim(heaps=(3, 4, 5))'
    >>> portable_target("/games/nim.py:Nim((3, 4))")
    '/games/nim.py:Nim((3, 4))'
    """
    if is_catalog_target(target):
        return target
    file, _, call = target.partition(".py:")
    return f"{Path(file + '.py').resolve()}:{call}"


def save(solved: Solved, path: str | Path, target: str | None = None) -> Path:
    """Write ``solved`` (any solved game with ``positions()``) to ``path`` (``.npz`` or
    ``.parquet``). ``target`` (a catalog game such as ``nim(heaps=(3, 4, 5))``, or
    ``FILE.py:Class(args)``, recorded with the file's absolute path: see
    :func:`portable_target`) lets :func:`load` rebuild the game by itself, from any
    folder; without it, pass the game to :func:`load`."""
    path = Path(path)
    if target is not None:
        target = portable_target(target)
    if path.suffix not in _SUFFIXES:
        raise InputError(f"a solution is saved as .npz or .parquet, not {path.name!r}")
    arrays = to_arrays(solved)
    meta = {"format": FORMAT, "target": target, "name": game_name(solved.game),
            "kind": str(arrays.pop("kind")), "mode": str(arrays.pop("mode")),
            "positions": len(arrays["key"])}
    # written whole or not at all: a temporary file beside it, flushed, renamed over it
    # (a full disk or a kill during the save leaves a file already at ``path`` as it was)
    tmp = path.with_name(f".{path.name}.tmp{path.suffix}")
    try:
        if path.suffix == ".npz":
            columns: dict[str, Any] = {"meta": np.array(json.dumps(meta)), **arrays}
            np.savez_compressed(tmp, **columns)
        else:
            pa, pq = arrow_modules()
            table = pa.table(arrays).replace_schema_metadata({"perfectplay": json.dumps(meta)})
            pq.write_table(table, tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def arrow_modules() -> tuple[Any, Any]:
    """pyarrow and pyarrow.parquet, imported on first use (an optional extra, ``[scale]``),
    or an :class:`~perfectplay.errors.InputError` saying how to install them; shared by
    writing and reading ``.parquet`` files (:mod:`.saved`)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError("Parquet files need pyarrow: pip install 'perfectplay[scale]'") \
            from None
    return pa, pq


def game_name(game: Game) -> str:
    """The game's name as a saved file records it and a load checks it
    (:func:`~perfectplay.engine.protocol.capabilities`'s ``name``)."""
    return capabilities(game).name
