"""Reading a store: :class:`Store`, one class for both backends, on the engine's read
interface (:class:`~perfectplay.engine.Solved`).

A position is found in two steps: its tier (the game's ``tier``; with a ``canonical`` rule,
of its canonical code), then its slot in that tier, by rank (one bit test and a count) or by
key (one bucket of the index); the slot's palette id gives value and remoteness. Batches
(:meth:`Store.lookup`) go through compiled kernels, a tier at a time.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.compiled.game import CompiledGame
from ..engine.protocol import Capabilities, Game, Position, Value, capabilities
from ..engine.solved.solution import Solved, position_of
from ..engine.solved.verify import VerifyReport
from ..engine.target import load_target
from ..engine.values import Counts, UnknownPosition
from ..errors import PerfectplayError, show
from .integrity import StoreDamaged, check_file, check_identity, check_seal
from .layout import WIDTHS, StoreError, map_file, parse_margin, read_manifest, tier_path
from .leaf import leaf_of
from .packed import BLOCK_WORDS, canonical_tiers, keyed_slots, ranked_slots, set_ranks, unranked
from .sortedtiers import unmix_all
from .verify import verify_store


class NotInStore(UnknownPosition):
    """A position the store does not hold (not reachable from the start, or not a position
    of this game). A KeyError, as for a dict."""


class Tier:
    """One packed tier: which positions it holds (bits by rank, or sorted keys) and their
    palette ids; ``values`` and ``rems`` are the palette's pairs (rems -1: a draw).

    ``digests`` (file name -> SHA-256, a finished store's ``checksums``): every file is
    checked against its digest before it is first read, the small index files (``counts``,
    ``index``) now, the large ones (``cells``, ``keys``, ``present``) on the first look-up
    that needs them; a damaged or missing file is a :class:`StoreDamaged` error naming it.
    None (a store being solved, or one written before checksums): nothing is checked."""

    def __init__(self, root: Path, entry: dict[str, Any], scored: bool,
                 digests: dict[str, str] | None = None) -> None:
        self.root, self.entry, self.digests = root, entry, digests
        self.number, self.size = int(entry["tier"]), int(entry["size"])
        self._maps: dict[str, np.ndarray] = {}
        self.ranked = "span" in entry
        if self.ranked:
            self.words = -(-int(entry["span"]) // 64)
            self.counts = self._small("counts", -(-self.words // BLOCK_WORDS) + 1)
        else:
            self.bits = int(entry["bits"])
            self.index = self._small("index", (1 << self.bits) + 1)
        pal = entry["palette"]
        self.values = np.empty(len(pal), dtype=object)
        self.values[:] = [parse_margin(v) if scored else Value(v) for v, _ in pal]
        self.rems = np.array([r for _, r in pal], np.int64)

    def _checked(self, kind: str) -> Path:
        """The path of this tier's ``kind`` file, checked against its digest (if any)."""
        path = tier_path(self.root, self.number, kind)
        if self.digests is not None:
            digest = self.digests.get(path.name)
            if digest is None:
                raise StoreDamaged(f"{path}: the manifest records no checksum of it: the "
                                   "store is damaged; solve it again into a new folder")
            check_file(path, digest)
        return path

    def _small(self, kind: str, count: int) -> np.ndarray:
        """A small index file read whole: checked, and exactly ``count`` int64 long (a cut
        file is a damaged store, never a read past its end)."""
        path = self._checked(kind)
        try:
            data = np.fromfile(path, np.int64)
        except OSError as exc:
            raise StoreDamaged(f"cannot read {path}: {exc.strerror or exc}: the store is "
                               "damaged; solve it again into a new folder") from None
        if data.size != count:
            raise StoreDamaged(f"{path} holds {data.size:,} entries, not {count:,}: the "
                               "store is damaged; solve it again into a new folder")
        return data

    def _mapped(self, kind: str, dtype: Any, count: int) -> np.ndarray:
        """A large file memory-mapped, checked on its first use."""
        got = self._maps.get(kind)
        if got is None:
            got = self._maps[kind] = map_file(self._checked(kind), dtype, count)
        return got

    @property
    def cells(self) -> np.ndarray:
        """Each slot's palette id (checked on first use)."""
        return self._mapped("cells", WIDTHS[self.entry["width"]], self.size)

    @property
    def keys(self) -> np.ndarray:
        """The sorted keys of a tier kept by key (checked on first use)."""
        return self._mapped("keys", np.uint64, self.size)

    @property
    def present(self) -> np.ndarray:
        """The bit a rank of a tier kept by rank (checked on first use)."""
        return self._mapped("present", np.uint64, self.words)

    def palette_ids(self, slots: Any) -> np.ndarray:
        """The palette ids at ``slots``, each checked to name an entry of the palette (an
        id past it, from a store without checksums, is a damaged store, not an IndexError)."""
        pid = np.asarray(self.cells[slots]).astype(np.int64)
        if pid.size and int(pid.max()) >= len(self.rems):
            raise StoreDamaged(f"{tier_path(self.root, self.number, 'cells')} holds the value "
                               f"id {int(pid.max())}, past the {len(self.rems)} of its "
                               "tier's table: the store is damaged; solve it again into a "
                               "new folder")
        return pid

    def slots(self, codes: np.ndarray, rank: Any = None) -> np.ndarray:
        """Slots of canonical codes of this tier (-1: not held)."""
        if self.ranked:
            return ranked_slots(codes, rank, self.present, self.counts)
        return keyed_slots(codes, self.keys, self.index, self.bits)

    def codes(self, unrank: Any = None) -> np.ndarray:
        """Every code held, in slot order."""
        if self.ranked:
            return unranked(self.number, set_ranks(self.present), unrank)
        return unmix_all(np.asarray(self.keys))


class Store(Solved):
    """A solved store, read like a :class:`~perfectplay.engine.Solution`: positions as the
    game writes them. Use :func:`perfectplay.store.open_store`; see its example."""

    def __init__(self, path: str | Path, game: Game | None = None) -> None:
        self.path = Path(path)
        manifest = read_manifest(self.path)
        if not manifest:
            raise StoreError(f"{path} is not a store (no manifest.json)")
        if not manifest.get("done"):
            raise StoreError(f"{path}: the solve did not finish; run it again to resume")
        #: False for a store written before manifests were sealed (its files are still
        #: checked against the checksums it records; see docs/howto/stores.md)
        self.sealed = check_seal(self.path, manifest)
        digests = manifest.get("checksums")
        if not isinstance(digests, dict):
            raise StoreError(f"{path} was written before stores recorded checksums, so a "
                             "damaged file could not be told from an answer; rebuild it: "
                             "perfectplay solve GAME --store NEW_FOLDER (or book GAME "
                             "--out NEW_FOLDER)")
        self._manifest = manifest
        self._scored = bool(manifest.get("scored"))
        self.backend = manifest.get("backend", "python")
        self._ref = manifest.get("game")
        self.game_name: str | None = manifest.get("name")  # the game's name when solved
        if game is not None:
            check_identity(self.path, manifest, game)
        self._game = game
        self._caps: Capabilities | None = None
        try:
            self.tables = {int(e["tier"]): Tier(self.path, e, self._scored, digests)
                           for e in manifest["tiers"]}
        except (KeyError, TypeError, ValueError) as exc:  # an unsealed manifest cut or edited
            raise StoreDamaged(f"{self.path / 'manifest.json'} does not describe its tiers "
                               f"({type(exc).__name__}: {exc}): the store is damaged; "
                               "solve it again into a new folder") from None
        self.tiers = sorted(self.tables)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Let the memory maps go (the store can still be read; they come back)."""

    def __repr__(self) -> str:
        return f"<Store {self.path}: {len(self)} positions in {len(self.tiers)} tiers>"

    def __len__(self) -> int:
        return sum(t.size for t in self.tables.values())

    @property
    def scored(self) -> bool:
        return self._scored

    @property
    def target(self) -> str | None:
        """The game the store records (``FILE.py:Class(args)`` or a catalog game), or None
        when it names none (solved from a notebook's game)."""
        return self._ref or None

    @property
    def game(self) -> Game:  # type: ignore[override]  # read-only here: rebuilt on first use
        """The game: the one handed to :func:`~perfectplay.store.open_store`, else rebuilt
        from the target the store records (FILE.py:Class(args))."""
        if self._game is None:
            if not self._ref:
                raise StoreError("this store does not name its game: open it with "
                                 "open_store(path, game=...), or look codes up with "
                                 "lookup()")
            game = load_target(self._ref)
            check_identity(self.path, self._manifest, game, given=self._ref)
            self._game = game
        return self._game

    # -- look-ups ----------------------------------------------------------------------------
    def _locate(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(tier numbers, slots) of codes (slot -1: not held)."""
        tiers = np.full(codes.size, -1, np.int64)
        slots = np.full(codes.size, -1, np.int64)
        if self._game is None and not self._ref:  # no rules: every tier is searched
            if any(t.ranked for t in self.tables.values()):
                raise StoreError(f"{self.path} keeps positions by rank and does not name "
                                 "its game: open it with open_store(path, game=...)")
            for t in self.tiers:
                left = np.flatnonzero(slots < 0)
                s = self.tables[t].slots(codes[left])
                hit = s >= 0
                tiers[left[hit]], slots[left[hit]] = t, s[hit]
            return tiers, slots
        game = self.game
        if isinstance(game, CompiledGame):
            r = game.rules
            canon, tiers = canonical_tiers(codes, r.canonical, r.tier, game.valid)
            rank = game.ranking.rank
        else:
            canon, rank = codes, None
            tiers = np.array([self._tier_of(int(c)) for c in codes.tolist()], np.int64)
        for t in np.unique(tiers).tolist():
            if t not in self.tables:
                continue
            at = np.flatnonzero(tiers == t)
            slots[at] = self.tables[t].slots(canon[at], rank)
        return tiers, slots

    def _hooks(self) -> Capabilities:
        """The game's hooks (``tier``, ``encode``, ``decode``), read once."""
        if self._caps is None:
            self._caps = capabilities(self.game)
        return self._caps

    def _tier_of(self, code: int) -> int:
        caps = self._hooks()
        tier, decode = caps.tier, caps.decode
        assert tier is not None and decode is not None  # a store's game has tiers
        try:
            return int(tier(decode(code)))
        except PerfectplayError:
            raise
        except Exception:  # noqa: BLE001 - a code that is not one of this game's
            return -1

    def _code(self, pos: Position) -> int:
        encode = self._hooks().encode
        assert encode is not None  # a store's game encodes its positions
        try:
            code = int(encode(pos))
        except PerfectplayError:
            raise
        except Exception as exc:  # noqa: BLE001 - not a position of this game
            raise NotInStore(f"{show(pos)} is not a position of this game "
                             f"({type(exc).__name__}: {exc})") from None
        if not -(2**63) < code < 2**63:
            raise NotInStore(f"{show(pos)} is not a position of this game (code {code} is "
                             "outside int64)")
        return code

    def _entry(self, pos: Any) -> tuple[Any, int | None]:
        code = self._code(pos)
        tiers, slots = self._locate(np.array([code], np.int64))
        if slots[0] < 0:
            raise NotInStore(f"position {show(pos)} (code {code}) is not in the store: not "
                             "reachable from the start")
        table = self.tables[int(tiers[0])]
        pid = int(table.palette_ids(slots[:1])[0])
        rem = int(table.rems[pid])
        return table.values[pid], None if rem < 0 else rem

    def verify(self, sample: int | None = 100_000, seed: int = 0) -> VerifyReport:
        """Audit the store: its files against their checksums, then ``sample`` random
        positions (None: all) recomputed from their children (see
        :mod:`perfectplay.store.verify`).

        :param sample: how many random positions to recompute (None: every one).
        :param seed: the seed of the sample.
        :returns: a :class:`~perfectplay.engine.solved.verify.VerifyReport`: ``ok``, what
            was checked, each file or position found wrong.
        """
        return verify_store(self, sample, seed)

    def lookup(self, codes: Any) -> dict[str, np.ndarray]:
        """Batch look-up of encoded positions (any symmetric image of a stored one):
        arrays ``found``, ``value`` (objects), ``remoteness`` (-1 for none or not found)
        and ``tier``, in the order given.

        :param codes: the positions' int64 codes (the game's ``encode``), any shape.
        :returns: the four arrays by name, one entry a code.
        :raises StoreError: the store keeps positions by rank and names no game (open it
            with the game), or a file it reads is damaged (:class:`StoreDamaged`).
        """
        codes = np.asarray(codes, dtype=np.int64).ravel()
        tiers, slots = self._locate(codes)
        found = slots >= 0
        value = np.full(codes.size, None, dtype=object)
        rem = np.full(codes.size, -1, np.int64)
        for t in np.unique(tiers[found]).tolist():
            at = np.flatnonzero(found & (tiers == t))
            table = self.tables[t]
            pid = table.palette_ids(slots[at])
            value[at] = table.values[pid]
            rem[at] = table.rems[pid]
        return {"found": found, "value": value, "remoteness": rem, "tier": tiers}

    # -- summaries ---------------------------------------------------------------------------
    def tier_counts(self, t: int) -> dict[int, int]:
        """How many positions of tier ``t`` have each palette id."""
        table = self.tables[t]
        counts = np.zeros(len(table.rems), np.int64)
        step = 1 << 26
        for k in range(0, table.size, step):
            got = np.bincount(np.asarray(table.cells[k:k + step]), minlength=len(table.rems))
            if got.size > counts.size:  # an id past the palette: damaged
                table.palette_ids(np.flatnonzero(table.cells[k:k + step] >= counts.size)[:1]
                                  + k)
            counts += got
        return {i: int(n) for i, n in enumerate(counts.tolist()) if n}

    def counts(self) -> Counts:
        """Positions by value and by remoteness (a pass over the palette ids)."""
        by_value: Counter[Any] = Counter()
        by_rem: Counter[int | None] = Counter()
        for t in self.tiers:
            table = self.tables[t]
            for pid, n in self.tier_counts(t).items():
                by_value[table.values[pid]] += n
                r = int(table.rems[pid])
                by_rem[None if r < 0 else r] += n
        if self.scored:
            ordered = dict(sorted(by_value.items(), key=lambda kv: kv[0]))
        else:
            ordered = {v: by_value[v] for v in (Value.WIN, Value.LOSE, Value.TIE, Value.DRAW)
                       if by_value[v]}
        rems: dict[int | None, int] = {k: by_rem[k] for k in sorted(
            k for k in by_rem if k is not None)}
        if by_rem[None]:
            rems[None] = by_rem[None]
        return Counts(by_value=ordered, by_remoteness=rems, total=len(self))

    def leaf(self) -> Any:
        """The store as a search's leaves (:func:`perfectplay.store.leaf.leaf_of`): pass the
        store as ``search(..., endgame=store)``."""
        return leaf_of(self)

    def _summary(self) -> list[str]:
        return [f"the store holds {len(self):,} positions in {len(self.tiers)} tiers"]

    def position_of(self, literal: str | None = None, moves: str | None = None) -> Any:
        """The position a query names (see
        :func:`~perfectplay.engine.solved.solution.position_of`)."""
        return position_of(self.game, literal, moves)

    def codes(self, t: int) -> np.ndarray:
        """Every code tier ``t`` holds, in slot order (with ranks: needs the game).

        :param t: a tier of the store (one of ``tiers``).
        :returns: the codes, an int64 array.
        """
        table = self.tables[t]
        if not table.ranked:
            return table.codes(None)
        game = self.game
        assert isinstance(game, CompiledGame)  # only a compiled game ranks its positions
        return table.codes(game.ranking.unrank)
