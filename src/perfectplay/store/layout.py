"""The store's layout on disk: the manifest, the file names, the errors.

A store is a folder::

    manifest.json          what is stored and how far the solve got (written atomically)
    tiers/T.cells          each stored position's entry in tier T's palette (uint8, uint16
                           or uint32, as few bytes as the palette needs), in key order
    tiers/T.keys, T.index  the positions of tier T as sorted keys (mixed codes, uint64) with
                           a bucket index (int64): games without a rank
    tiers/T.present, T.counts
                           the positions of tier T as one bit per rank (uint64 words) and the
                           number of set bits before every 512-bit block (int64): games with
                           ``rank``/``unrank`` (no key is stored at all)
    work/                  what a solve needs while it runs (deleted at the end)

Each tier's palette (in the manifest) lists the distinct (value, remoteness) pairs of its
positions: a value name (win, lose, tie, draw) or a margin as exact text (big integers and
fractions come back unchanged), and the remoteness (-1 for a draw). Connect Four's tiers
need fewer than 256 pairs, so a position costs one byte plus its bit.
"""

from __future__ import annotations

import hashlib
import json
import os
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import PerfectplayError
from ..textio import int_from_digits, int_text

#: The format every store written now has; older stores are refused with how to rebuild.
FORMAT = "perfectplay-store-2"
_OLD = {"compiled-v1": "a store of perfectplay 0.x (compiled-v1, 13 bytes a position)"}
WIDTHS = {1: np.uint8, 2: np.uint16, 4: np.uint32}


class StoreError(PerfectplayError):
    """A store that cannot be read or written: damaged, unfinished, or of another kind."""


class SolveStopped(StoreError):
    """A tiered solve stopped before the end; running it again resumes it."""


def need(module: str) -> Any:
    """An optional module, or a one-line error naming the extra that brings it."""
    try:
        return __import__(module, fromlist=["_"])
    except ImportError:
        raise StoreError(f"this needs the scale extra ({module} is missing): pip install "
                         "'perfectplay[scale]'") from None


#: How the manifest of every dense endgame table names its kind ("kalah dense endgame
#: table" ends with it): such a folder is read by the search, never as a store.
DENSE_KIND = "dense endgame table"


def read_manifest(store: str | Path) -> dict[str, Any]:
    """The store's manifest ({} if there is none yet), checked: a broken one, or one of an
    older format, is a clear error that says how to start again, never a misread."""
    path = Path(store) / "manifest.json"
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise StoreError(f"{path} is broken ({exc}); delete the store folder to solve "
                         "again") from None
    if not isinstance(data, dict) or not isinstance(data.get("game"), str | None):
        raise StoreError(f"{path} is not a perfectplay manifest; delete the store folder "
                         "to solve again")
    if str(data.get("kind", "")).endswith(DENSE_KIND):
        raise StoreError(f"{store} holds a dense endgame table (solve --endgame K --dense), "
                         "not a store: search GAME --store, play GAME --store, book GAME "
                         "--store and serve --live-store read it")
    fmt = data.get("format")
    if fmt != FORMAT:
        old = "a store of perfectplay 0.x (Parquet tiers)" if fmt is None else \
            _OLD.get(fmt, f"format {fmt!r}, which this version does not know")
        raise StoreError(f"{store} holds {old}; rebuild it: perfectplay solve GAME --store "
                         "NEW_FOLDER")
    return data


def write_manifest(root: Path, manifest: dict[str, Any]) -> None:
    """Replace the manifest atomically: a kill or a full disk leaves the old one or the new
    one (written to a temporary file, flushed to the disk, renamed)."""
    replace_file(root / "manifest.json", [json.dumps(manifest).encode()])


def replace_file(path: Path, blocks: Any) -> None:
    """Write ``path`` whole or not at all: the bytes of ``blocks`` go to ``path.tmp``, which
    is flushed to the disk (fsync) and renamed over ``path``; the folder is flushed too, so
    the rename survives a crash. A full disk or any I/O error is a :class:`StoreError`
    naming the file and the cause; the old file, if any, is left as it was."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "wb") as fh:
            for block in blocks:
                fh.write(block)
            fh.flush()
            os.fsync(fh.fileno())
        tmp.replace(path)
        sync_folder(path.parent)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise StoreError(f"cannot write {path}: {exc.strerror or exc}") from None


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (the names renamed into it) to the disk."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def seal(manifest: dict[str, Any]) -> str:
    """SHA-256 of the manifest's canonical JSON text, its own ``seal`` left out: recorded
    in the manifest when a store is finished, checked on every open.

    >>> seal({"format": "x", "tiers": []}) == seal({"tiers": [], "format": "x", "seal": "?"})
    True
    """
    body = json.loads(json.dumps({k: v for k, v in manifest.items() if k != "seal"}))
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"))
                          .encode()).hexdigest()  # as read back: int keys become text


#: The files of a tier (``tiers/T.kind``).
KINDS = ("cells", "keys", "index", "present", "counts")


def finish(root: Path, manifest: dict[str, Any]) -> None:
    """Mark a solved store done: its tiers listed in order, every tier file's SHA-256
    recorded (``checksums``: what :func:`perfectplay.store.verify.verify_store` and every
    reader check the files against later) after each is flushed to the disk, the manifest
    sealed (:func:`seal`) and written. Reads every byte once (O(store size))."""
    manifest["tiers"] = sorted(manifest["packed"], key=lambda e: e["tier"])
    manifest["checksums"] = checksums(root, sync=True)
    manifest["done"] = True
    manifest["seal"] = seal(manifest)
    write_manifest(root, manifest)


def checksums(root: str | Path, sync: bool = False) -> dict[str, str]:
    """SHA-256 of every tier file of the store at ``root`` (file name -> hex digest);
    ``sync``: each file flushed to the disk first (as a store is finished)."""
    out = {}
    for path in sorted((Path(root) / "tiers").glob("*.*")):
        if path.suffix[1:] in KINDS:
            out[path.name] = file_digest(path, sync)
    return out


def file_digest(path: Path, sync: bool = False) -> str:
    """A file's SHA-256, read in 16 MiB blocks (``sync``: flushed to the disk first)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        if sync:
            os.fsync(fh.fileno())
        while block := fh.read(1 << 24):
            h.update(block)
    return h.hexdigest()


def tier_path(root: Path, t: int, kind: str) -> Path:
    """``root/tiers/T.kind`` (kind: cells, keys, index, present, counts)."""
    return root / "tiers" / f"{t}.{kind}"


def map_file(path: Path, dtype: Any, count: int, mode: str = "r") -> np.ndarray:
    """``count`` items of ``path`` memory-mapped (an empty array for none: mmap cannot map
    zero bytes); a missing or short file is a damaged store."""
    if count == 0:
        return np.zeros(0, dtype)
    if not path.exists() or path.stat().st_size < count * np.dtype(dtype).itemsize:
        raise StoreError(f"{path} is missing or short: the store is damaged; delete it and "
                         "solve again")
    return np.memmap(path, dtype=dtype, mode=mode, shape=(count,))  # type: ignore[call-overload]


def save_array(path: Path, a: np.ndarray) -> None:
    """An array as a raw file, written whole then renamed (a kill or a full disk leaves
    none or all: :func:`replace_file`)."""
    replace_file(path, (np.ascontiguousarray(a[k:k + (1 << 24)]).tobytes()
                        for k in range(0, a.size, 1 << 24)))


def margin_text(value: Any) -> str:
    """A margin as exact text: an int in full, a Fraction as "p/q", a float by its repr
    (so 2**60 + 1 and 1/3 come back unchanged, see :func:`parse_margin`).

    >>> margin_text(2**60 + 1), margin_text(Fraction(1, 3)), margin_text(0.5)
    ('1152921504606846977', '1/3', '0.5')
    """
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int | np.integer):
        return int_text(int(value))
    if isinstance(value, Fraction):
        return f"{int_text(value.numerator)}/{int_text(value.denominator)}"
    return repr(float(value))


def parse_margin(text: str) -> Any:
    """The inverse of :func:`margin_text`: an int, a Fraction or a float, exactly."""
    if "/" in text:
        num, den = text.split("/")
        return Fraction(int_from_digits(num), int_from_digits(den))
    if any(ch in text for ch in ".eEni"):  # 0.5, 1e+300, inf, nan
        return float(text)
    return int_from_digits(text)
