"""What makes a store (or an opening book) answer only for its own game and only while it is
whole, and keeps two writers out of one folder.

- **The game** (:func:`game_identity`): the game's name, whether it is scored, and a digest
  of its rules: the codes, tiers, outcomes and children of the first
  :data:`FINGERPRINT_POSITIONS` positions reached from the start (breadth first). Two games
  that differ in their parameters or their rules differ there, whatever they are called or
  wherever their file lives. It is recorded in the manifest when a store is begun and
  compared on every resume and every open (:func:`check_identity`).
- **The manifest** (:func:`~perfectplay.store.layout.seal`): the SHA-256 of the
  manifest's own text (its value tables included) without the seal, recorded in it when
  the store is finished and checked on every open (:func:`check_seal`).
- **The tier files**: their SHA-256 digests (recorded in the manifest since stores had
  checksums) are checked by :class:`~perfectplay.store.reader.Tier` before a tier's files
  are first read (:func:`check_file`).
- **One writer** (:class:`FolderLock`): an exclusive ``flock`` on ``lock`` in the folder,
  held while a run writes; a second run is refused with who holds it (pid, host, command,
  since when). The kernel drops the lock when its process dies (a kill -9 included), so a
  stale lock file never blocks.

"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import socket
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

from ..engine.protocol import Game, capabilities
from ..errors import PerfectplayError
from .layout import StoreError, file_digest, seal

#: How many positions from the start the rules' digest reads (a few milliseconds).
FINGERPRINT_POSITIONS = 200


class StoreDamaged(StoreError):
    """A store's file or manifest differs from what was written: never read as an answer."""


class StoreInUse(StoreError):
    """Another run is writing the folder (it holds the folder's lock)."""


class OtherGame(StoreError):
    """The folder holds a store (or book) of another game than the one given."""


# -- the game -------------------------------------------------------------------------------------
def game_identity(game: Game) -> dict[str, Any]:
    """The game as a store records it: name, scored, and the digest of its rules (see the
    module doc).

    >>> from perfectplay.catalog.connect4 import ConnectFour
    >>> a, b = game_identity(ConnectFour(4, 4)), game_identity(ConnectFour(5, 4))
    >>> a["name"], a["rules"] == b["rules"], len(a["rules"])
    ('ConnectFour(4, 4)', False, 64)
    """
    caps = capabilities(game)
    return {"name": caps.name, "scored": bool(caps.scored), "rules": rules_digest(game)}


def rules_digest(game: Game) -> str:
    """SHA-256 of what the game's rules say of its first :data:`FINGERPRINT_POSITIONS`
    positions (breadth first from the start): each one's code, tier and outcome and its
    children's codes (sorted). Costs that many positions' moves."""
    caps = capabilities(game)
    encode = caps.encode or int
    tier = caps.tier
    h = hashlib.sha256(f"{caps.name}|{bool(caps.scored)}".encode())
    start = game.initial()
    seen = {encode(start)}
    todo = deque([start])
    done = 0
    while todo and done < FINGERPRINT_POSITIONS:
        pos = todo.popleft()
        done += 1
        end = game.outcome(pos)
        kids: list[int] = []
        if end is None:
            for move in game.moves(pos):
                child = game.play(pos, move)
                code = int(encode(child))
                kids.append(code)
                if code not in seen:
                    seen.add(code)
                    todo.append(child)
        where = None if tier is None else int(tier(pos))
        h.update(f"{int(encode(pos))};{where};{_worth(end)};{sorted(kids)}\n".encode())
    return h.hexdigest()


def _worth(end: Any) -> str:
    """An outcome as text that does not depend on the process (a Value's name, a margin)."""
    return "-" if end is None else str(getattr(end, "value", end))


def describe_game(held: dict[str, Any]) -> str:
    """A recorded game in words: its name, and the target it was solved from if any."""
    name = held.get("name") or "an unnamed game"
    return f"{name} ({held['game']})" if held.get("game") else str(name)


def check_identity(root: Path, manifest: dict[str, Any], game: Game, what: str = "store",
                   given: str | None = None) -> None:
    """An :class:`OtherGame` error naming both games and the folder unless the store at
    ``root`` (its ``manifest``) was made from ``game``. A manifest written before games
    were recorded is compared by name only. ``given`` names the game asked for (its target)."""
    caps = capabilities(game)
    mine = describe_game({"name": caps.name, "game": given})
    held = manifest.get("identity")
    if not isinstance(held, dict):
        if manifest.get("name") not in (None, caps.name):
            raise OtherGame(f"{root} holds a {what} of {describe_game(manifest)}, not of "
                            f"{mine}: choose another folder")
        return
    if held.get("name") != caps.name or bool(held.get("scored")) != bool(caps.scored):
        raise OtherGame(f"{root} holds a {what} of {describe_game(manifest)}, not of {mine}: "
                        "choose another folder")
    try:
        digest = rules_digest(game)
    except PerfectplayError:
        raise
    except Exception as exc:  # noqa: BLE001 - a user's game may raise anything
        raise OtherGame(f"{root}: cannot compare the game asked for with the one the {what} "
                        f"was made from ({type(exc).__name__} from its rules)") from None
    if held.get("rules") != digest:
        raise OtherGame(f"{root} holds a {what} of {describe_game(manifest)}, whose rules "
                        f"differ from those of the game asked for, {mine} (its parameters "
                        "or its code changed since?): choose another folder, or give the "
                        "game it was made from")


# -- the manifest ---------------------------------------------------------------------------------
def check_seal(root: Path, manifest: dict[str, Any]) -> bool:
    """True when the manifest is sealed and whole; False for one written before seals (see
    docs/howto/stores.md); a :class:`StoreDamaged` error when it was changed."""
    recorded = manifest.get("seal")
    if recorded is None:
        return False
    if recorded != seal(manifest):
        raise StoreDamaged(f"{root / 'manifest.json'} has changed since the store was "
                           "written (its seal differs): the store is damaged; solve it "
                           "again into a new folder")
    return True


def check_file(path: Path, digest: str | None) -> None:
    """A :class:`StoreDamaged` error naming ``path`` unless its SHA-256 is ``digest``
    (None: nothing recorded, nothing checked)."""
    if digest is None:
        return
    try:
        found = file_digest(path)
    except FileNotFoundError:
        raise StoreDamaged(f"{path} is missing: the store is damaged; solve it again "
                           "into a new folder") from None
    except OSError as exc:
        raise StoreDamaged(f"cannot read {path}: {exc.strerror or exc}") from None
    if found != digest:
        raise StoreDamaged(f"{path} has changed since the store was written (its checksum "
                           "differs): the store is damaged; solve it again into a new "
                           "folder")


# -- one writer -----------------------------------------------------------------------------------
LOCK_NAME = "lock"


class FolderLock:
    """An exclusive lock on a store or book folder while a run writes it (see the module
    doc). Use as a context manager; a second holder gets a :class:`StoreInUse` error."""

    def __init__(self, root: Path, what: str = "store") -> None:
        self.path = Path(root) / LOCK_NAME
        self.what = what
        self._fd: int | None = None

    def __enter__(self) -> FolderLock:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"cannot lock {self.path}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = _holder(fd)
            os.close(fd)
            raise StoreInUse(f"{self.path.parent} is being written by another run "
                             f"({holder}): wait for it to end, or stop it (a run that "
                             "died holds nothing)") from None
        info = {"pid": os.getpid(), "host": socket.gethostname(),
                "command": " ".join(sys.argv)[:300],
                "since": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info).encode(), 0)
        self._fd = fd
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def _holder(fd: int) -> str:
    """Who holds the lock, as its holder wrote it: 'pid 12, host h, since ..., command ...'."""
    try:
        info = json.loads(os.pread(fd, 4096, 0) or b"{}")
    except (OSError, ValueError):
        info = {}
    if not isinstance(info, dict) or "pid" not in info:
        return "it has not said who it is yet"
    return (f"pid {info.get('pid')} on {info.get('host')}, since {info.get('since')}: "
            f"{info.get('command')}")
