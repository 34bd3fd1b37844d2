"""Opening books: the exact value and remoteness of every position within N plies of the
start, written as a store, so a game too big to solve (standard Connect Four) answers its
openings at once and searches only past them.

A book is an ordinary store (:mod:`perfectplay.store.layout`: the game's tiers, a palette
id a position, positions by rank or by key), read through the one read interface
(:func:`perfectplay.store.open_store`, :meth:`Store.lookup`, ``value``, ``remoteness``,
``move_values``); its manifest says ``"book": {"plies": N}``. Only positions reached in at
most N plies are held (canonical under the game's symmetry), and every one is exact:

1. *enumerate* the positions ply by ply from the start (canonical codes, each counted at
   the first ply it is reached);
2. *search* every position of the last ply (:func:`perfectplay.engine.search`, one
   transposition table kept across them all, or one a process with ``jobs``), saved in
   chunks of :data:`CHUNK` (blocks of :data:`BLOCK` with ``jobs``) so a killed build
   resumes where it stopped;
3. *derive* the plies before it by minimax over their children, which are all in the
   book: exact, and thousands of times cheaper than searching them (the engine's
   convention: the best move by :class:`~perfectplay.engine.protocol.Score`, winner
   fastest, loser slowest). A position with a child not yet valued (a game whose moves can
   reach a shallower ply, as Kalah's extra turns can) is searched instead;
4. *pack* each tier as a store packs it and write the manifest last.

>>> from perfectplay.games import connect4  # doctest: +SKIP
>>> build_book(connect4(width=7, height=6), 4, "book/")  # doctest: +SKIP
Book(store=PosixPath('book'), plies=4, positions=..., searched=..., ...)

Complexity: O(P x b) to enumerate and derive the P positions (b moves each), plus one
proof search per position of the last ply (the whole cost; measured on docs/benchmarks.md).
"""

from __future__ import annotations

import io
import math
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, cast

import numpy as np

from ..engine.check import precheck
from ..engine.compiled.game import CompiledGame
from ..engine.proof.backends import child_bound, edge
from ..engine.proof.driver import check_endgame, search
from ..engine.proof.limits import BOOK_LIMITS, Limits
from ..engine.proof.result import SearchScore, score_of
from ..engine.protocol import Capabilities, Score, Value, Worth, capabilities
from ..engine.solved.scored import scored_option
from ..engine.workers import ExpandHelper, helper_allowed, start_helper, wait_any
from ..errors import GameError, LimitError, show
from ..progress import Progress
from .endgame import DenseEndgame
from .integrity import FolderLock, check_identity, game_identity
from .layout import (
    FORMAT,
    WIDTHS,
    SolveStopped,
    StoreError,
    finish,
    margin_text,
    read_manifest,
    replace_file,
    save_array,
    tier_path,
    write_manifest,
)
from .packed import count_blocks, mark_present
from .plies import MAX_BOOK_POSITIONS, MAX_PLIES, book_layers, check_plies
from .reader import Store
from .sortedtiers import build_index, index_bits, mix_all

__all__ = ["BLOCK", "CHUNK", "MAX_BOOK_POSITIONS", "MAX_PLIES", "SAVE_SECONDS", "Book",
           "book_layers", "build_book", "find_book", "parent_bounds"]

#: Positions of the last ply searched between two saves (a kill loses at most these).
CHUNK = 32
#: Positions of the last ply a process is handed at a time when several search (``jobs``).
BLOCK = 8
#: The searched positions are saved at least this often (seconds).
SAVE_SECONDS = 30.0
#: A line of progress at most this often (seconds).
REPORT_SECONDS = 5.0


@dataclass
class Book:
    """A finished book: where, how deep, how many positions (``searched``: those of the
    last ply, proven by search), the bytes of its tier files, and what this run did
    (``resumed``: searched chunks an earlier run had saved; ``already``: it was done;
    ``jobs``: the helper processes started to search, 1 for none)."""

    store: Path
    plies: int
    positions: int
    searched: int
    bytes: int
    seconds: float
    resumed: int = 0
    already: bool = False
    jobs: int = 1


def _book_limits(limits: Limits | None, workers: int | None, table_mb: float | None) -> Limits:
    """A book's searches' limits (:data:`BOOK_LIMITS` by default), checked before any work:
    a LimitError for a field out of range, or a time or node limit (a book's answers are
    exact)."""
    limits = Limits.given(BOOK_LIMITS if limits is None else limits, workers=workers,
                          table_mb=table_mb)
    if limits.time_limit is not None or limits.node_limit is not None:
        raise LimitError("a book's searches run to the end: its limits take no time_limit "
                         "or node_limit")
    return limits


def build_book(game: CompiledGame, plies: int, out: str | Path, *,
               game_ref: str | None = None, limits: Limits | None = None,
               workers: int | None = None, table_mb: float | None = None,
               progress: Callable[[str], None] | None = None, bar: bool | None = None,
               stop_after: int | None = None, endgame: Store | DenseEndgame | None = None,
               jobs: int = 1, shallower: Store | None = None, check: bool = True) -> Book:
    """Build (or resume) the book of ``game``'s first ``plies`` plies in the folder ``out``
    (see the module doc). ``game_ref`` (a catalog target such as
    ``connect4(width=7, height=6)`` or FILE.py:Class) is recorded so ``open_store(out)``
    rebuilds the game; ``limits`` (:class:`~perfectplay.engine.proof.limits.Limits`,
    default :data:`~perfectplay.engine.proof.limits.BOOK_LIMITS`: a 256 MB table; or its
    ``workers`` and ``table_mb`` as keywords, which override it; a time or node limit is
    refused, as every answer of a book is exact) go to each search (one table kept for
    the whole build, one a process with ``jobs``); ``progress`` gets a line now and then
    (positions done of all, the rate, the time left), ``bar`` a progress bar on a
    terminal; ``stop_after`` stops (:class:`SolveStopped`) after that many chunks are
    saved (blocks, with ``jobs``; those under way may add a few more), as a kill would;
    ``endgame``, an open
    endgame store of the game (``solve_tiered(..., roots=game.endgame_positions(k))``) or a
    dense endgame table (:class:`~perfectplay.store.endgame.DenseEndgame`), is
    read by every search instead of searching what it holds (Kalah: the positions with few
    seeds left), which only saves work: the book's answers are exact either way. ``jobs``
    searches that many positions of the last ply at once, each in a forked process with a
    table of its own (``table_mb`` each, and its own copy of the endgame store's leaf when
    a search first needs it), blocks of :data:`BLOCK` positions handed out in order (Linux,
    and only where :func:`~perfectplay.engine.workers.helper_allowed`; else one at a
    time, and ``Book.jobs`` says 1; an int from 1 to 64, else a LimitError). On two cores
    two processes build 1.74x as fast as one, two threads sharing a table (``workers=2``)
    1.63x (``benchmarks/book_jobs.py``, docs/benchmarks.md). ``shallower``: an open book
    of the same game at least ``plies - 1`` deep (the one shipped, an earlier build):
    the exact score of each position one ply above the last bounds its children's
    searches (no move beats its position's score, :func:`parent_bounds`), which saves
    probes, never changes an answer. ``check``: the game is checked once first, as
    ``search`` checks it (``check=False`` skips it).

    A folder holding another game's book, or a book of other plies, is refused.
    """
    if not isinstance(game, CompiledGame):
        raise StoreError("a book is built for a compiled game (the catalog's Connect Four, "
                         "Kalah, ...): a Python game is small enough to solve")
    if not game.tiered:
        raise StoreError(f"{game.name} has no tier function; a book is a store and needs one")
    limits = _book_limits(limits, workers, table_mb)
    check_plies(plies)
    check_endgame(game, endgame)
    if check:
        precheck(game)  # the default check, once (not at each search)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= 64:
        raise LimitError(f"jobs must be an int from 1 to 64, not {show(jobs)}")
    if shallower is not None:
        _check_shallower(shallower, game, plies)
    root = Path(out)
    if root.exists() and not root.is_dir():
        raise StoreError(f"{out} is a file, not a folder for a book")
    manifest = read_manifest(root)
    if manifest:
        _check_same(manifest, root, game, plies, game_ref)
        if manifest.get("done"):
            return _finished(root, plies, manifest)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot make the book {out}: {exc.strerror or exc}") from None
    with FolderLock(root, "book"):
        return _build_locked(game, plies, root, game_ref, limits, progress, bar,
                             stop_after, endgame, jobs, shallower)


def _finished(root: Path, plies: int, manifest: dict[str, Any]) -> Book:
    """The Book of a folder a run finished before."""
    return Book(root, plies, sum(e["size"] for e in manifest["tiers"]),
                int(manifest["book"]["searched"]), _bytes(root), 0.0, already=True)


def _build_locked(game: CompiledGame, plies: int, root: Path, game_ref: str | None,
                  limits: Limits, progress: Callable[[str], None] | None,
                  bar: bool | None, stop_after: int | None,
                  endgame: Store | DenseEndgame | None, jobs: int,
                  shallower: Store | None) -> Book:
    """Begin or resume the book at ``root``, the folder's lock held (the manifest read
    again: another run may have finished it meanwhile)."""
    manifest = read_manifest(root)
    began = time.monotonic()
    if manifest:
        _check_same(manifest, root, game, plies, game_ref)
        if manifest.get("done"):
            return _finished(root, plies, manifest)
    else:
        manifest = {"format": FORMAT, "game": game_ref, "name": capabilities(game).name,
                    "scored": game.scored, "backend": "compiled", "book": {"plies": plies},
                    "identity": game_identity(game)}
        write_manifest(root, manifest)
    try:
        (root / "work").mkdir(exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot make {root / 'work'}: {exc.strerror or exc}") from None
    say = progress or (lambda _line: None)
    layers = book_layers(game, plies)
    total = sum(layer.size for layer in layers)
    say(f"{total:,} positions in {plies} plies; {layers[-1].size:,} of them on ply "
        f"{plies} to search")
    bounds = {} if shallower is None or plies == 0 else \
        parent_bounds(game, layers[-2], layers[-1], shallower)
    if bounds:
        say(f"{len(bounds):,} positions of ply {plies} bounded by their parents' scores")
    searched = _searcher(game, limits, endgame, bounds)
    vals, rems, resumed, used = _search_last(layers[-1], root / "work", searched, say, bar,
                                             stop_after, jobs)
    known = _derive(game, layers, vals, rems, searched)
    _write(game, root, manifest, known)
    manifest = read_manifest(root)
    manifest["book"] = {"plies": plies, "searched": int(layers[-1].size),
                        "positions": total}
    finish(root, manifest)
    shutil.rmtree(root / "work", ignore_errors=True)
    return Book(root, plies, total, int(layers[-1].size), _bytes(root),
                time.monotonic() - began, resumed=resumed, jobs=used)


def _check_shallower(book: Store, game: CompiledGame, plies: int) -> None:
    """A StoreError unless ``book`` is a finished book of ``game`` at least ``plies - 1``
    deep: a wrong bound would make a wrong book, so another game's is refused up front."""
    name = capabilities(game).name
    manifest = read_manifest(book.path)
    held = manifest.get("book")
    if not isinstance(held, dict):
        raise StoreError(f"{book.path} is a store, not a book: the bounds come from a book "
                         "of the same game")
    if book.game_name != name or bool(manifest.get("scored")) != game.scored:
        raise StoreError(f"{book.path} holds a book of {book.game_name}, not of {name}: "
                         "its scores cannot bound this game's searches")
    if int(held.get("plies", -1)) < plies - 1:
        raise StoreError(f"{book.path} holds a book of {held.get('plies')} plies: bounds for "
                         f"ply {plies} need one of at least {plies - 1}")


def _check_same(manifest: dict[str, Any], root: Path, game: CompiledGame, plies: int,
                game_ref: str | None) -> None:
    """A StoreError unless the folder holds a book (finished or not) of ``game`` and
    ``plies``: another game's (by name or by rules), a store, or other plies are refused."""
    book = manifest.get("book")
    if not isinstance(book, dict):
        raise StoreError(f"{root} holds a store, not a book: choose another folder")
    check_identity(root, manifest, game, "book", given=game_ref)
    if book.get("plies") != plies:
        raise StoreError(f"{root} holds a book of {book.get('plies')} plies, not {plies}: "
                         "choose another folder, or delete it to build again")


def _bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in (root / "tiers").glob("*.*"))


#: One position's (packed value, remoteness), proven: what :func:`_searcher` makes.
Searched = Callable[[int], tuple[int, int]]


def _search_last(codes: np.ndarray, work: Path, searched: Searched,
                 say: Callable[[str], None], bar: bool | None,
                 stop_after: int | None, jobs: int = 1) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Value codes (or margins) and remoteness (-1: none) of every position of the last
    ply, searched in order; saved every :data:`CHUNK` positions or :data:`SAVE_SECONDS`
    (a file ``done-LO-HI.npy`` a chunk), and what earlier runs saved read back; with
    ``jobs`` > 1, by that many forked processes, a block of :data:`BLOCK` each at a time.
    Returns them with the number of positions read back and the processes that searched."""
    n = codes.size
    vals = np.zeros(n, np.int64)
    rems = np.full(n, -1, np.int64)
    have = np.zeros(n, bool)
    for path in sorted(work.glob("done-*.npy")):
        try:
            a, b = (int(x) for x in path.stem.split("-")[1:3])
            saved = np.load(path)
        except (OSError, ValueError, EOFError):  # damaged: its positions are searched again
            continue
        if saved.shape == (2, b - a) and b <= n:
            vals[a:b], rems[a:b] = saved
            have[a:b] = True
    resumed = int(have.sum())
    if resumed:
        say(f"resuming: {resumed:,} positions of the last ply were searched before")
    todo = np.flatnonzero(~have).tolist()
    helpers = _start_jobs(jobs, searched, codes) if jobs > 1 and len(todo) > BLOCK else []
    if jobs > 1 and not helpers and len(todo) > BLOCK:
        say("searching in this process alone: no second process can be forked here")
    run = _Run(n, resumed, vals, rems, work, say, stop_after)
    try:
        with Progress(f"book: searching the last ply ({n:,} positions)", total=n,
                      enabled=bar, logger="perfectplay.store") as shown:
            run.shown = shown
            shown.update(resumed)
            if helpers:
                _search_blocks(run, helpers, codes, todo, searched)
            else:
                _search_in_order(run, codes, todo, searched)
    finally:
        for helper in helpers:
            helper.close()
    return vals, rems, resumed, max(1, len(helpers))


class _Run:
    """What the last ply's search has done so far: the answers, the chunks saved, the
    progress shown (one place for the serial and the parallel loop)."""

    def __init__(self, n: int, resumed: int, vals: np.ndarray, rems: np.ndarray, work: Path,
                 say: Callable[[str], None], stop_after: int | None) -> None:
        self.n, self.resumed, self.vals, self.rems, self.work = n, resumed, vals, rems, work
        self.say, self.stop_after = say, stop_after
        self.done = self.chunks = 0
        self.began = self.last_report = time.monotonic()
        self.shown: Progress | None = None

    def check_stop(self) -> None:
        if self.stop_after is not None and self.chunks >= self.stop_after:
            raise SolveStopped(f"stopped after {self.chunks} chunks; run again to resume")

    def saved(self, lo: int, hi: int, searched: int) -> None:
        """Positions lo..hi-1 are answered: save them as one chunk, show the progress."""
        _save_chunk(self.work, lo, hi, self.vals, self.rems)
        self.chunks += 1
        self.progressed(searched)

    def progressed(self, searched: int) -> None:
        self.done += searched
        assert self.shown is not None
        self.shown.update(self.resumed + self.done)
        now = time.monotonic()
        if now - self.last_report >= REPORT_SECONDS or self.resumed + self.done == self.n:
            self.last_report = now
            self.say(_rate_line(self.resumed + self.done, self.n, self.done, now - self.began))


def _search_in_order(run: _Run, codes: np.ndarray, todo: list[int],
                     searched: Searched) -> None:
    """One position after another, a chunk saved every :data:`CHUNK` positions, at the end
    of each run of consecutive ones, or every :data:`SAVE_SECONDS`."""
    last_save = time.monotonic()
    lo: int | None = None
    for k, i in enumerate(todo):
        if lo is None:
            run.check_stop()
            lo = i
        run.vals[i], run.rems[i] = searched(int(codes[i]))
        now = time.monotonic()
        last_of_run = k + 1 == len(todo) or todo[k + 1] != i + 1
        if last_of_run or i + 1 - lo >= CHUNK or now - last_save >= SAVE_SECONDS:
            run.chunks += 1
            _save_chunk(run.work, lo, i + 1, run.vals, run.rems)
            lo, last_save = None, now
        run.progressed(1)


def _blocks(todo: list[int], size: int) -> list[tuple[int, int]]:
    """``todo`` (sorted indices) as (lo, hi) runs of consecutive indices, each at most
    ``size`` long.

    >>> _blocks([0, 1, 2, 5, 6], 2)
    [(0, 2), (2, 3), (5, 7)]
    """
    out: list[tuple[int, int]] = []
    for i in todo:
        if out and out[-1][1] == i and i - out[-1][0] < size:
            out[-1] = (out[-1][0], i + 1)
        else:
            out.append((i, i + 1))
    return out


def _start_jobs(jobs: int, searched: Searched, codes: np.ndarray) -> list[ExpandHelper]:
    """``jobs`` forked processes, each searching the blocks it is sent, or none where a
    fork is not allowed (:func:`helper_allowed`) or fails."""
    if not helper_allowed():
        return []

    def work(block: tuple[int, int]) -> np.ndarray:
        return _search_block(searched, codes, *block)

    helpers = []
    for _ in range(jobs):
        helper = start_helper(work)
        if helper is None:
            break
        helpers.append(helper)
    return helpers


def _search_blocks(run: _Run, helpers: list[ExpandHelper], codes: np.ndarray,
                   todo: list[int], searched: Searched) -> None:
    """Keep every helper busy with the next block in order; save each block as it comes
    back. A block a helper could not answer (it failed or died) is searched here, so its
    error, if it is one, is raised as the serial search raises it."""
    blocks = _blocks(todo, BLOCK)
    blocks.reverse()
    busy: dict[ExpandHelper, tuple[int, int]] = {}
    idle = list(helpers)
    while blocks or busy:
        while idle and blocks:
            run.check_stop()
            helper = idle.pop()
            if helper.submit(blocks[-1]):  # else it died since: not used again
                busy[helper] = blocks.pop()
        if not busy:  # every helper died: the rest here, in order
            run.check_stop()
            lo, hi = blocks.pop()
            run.vals[lo:hi], run.rems[lo:hi] = _search_block(searched, codes, lo, hi)
            run.saved(lo, hi, hi - lo)
            continue
        for helper in wait_any(list(busy)):
            lo, hi = busy.pop(helper)
            got = helper.collect()
            if got is None:  # failed or died: do it here (and raise its error, if any)
                got = _search_block(searched, codes, lo, hi)
            run.vals[lo:hi], run.rems[lo:hi] = got
            run.saved(lo, hi, hi - lo)
            if helper.alive:  # one that dies just after is caught by its next submit
                idle.append(helper)
        run.check_stop()


def _search_block(searched: Searched, codes: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """Positions lo..hi-1 of the last ply proven: a (2, hi - lo) array of values and
    remoteness."""
    return np.array([searched(int(c)) for c in codes[lo:hi].tolist()],
                    np.int64).reshape(-1, 2).T


def _save_chunk(work: Path, lo: int, hi: int, vals: np.ndarray, rems: np.ndarray) -> None:
    """Positions lo..hi-1 of the last ply, saved whole or not at all (written, flushed to
    the disk, renamed: :func:`~perfectplay.store.layout.replace_file`)."""
    data = io.BytesIO()
    np.save(data, np.stack([vals[lo:hi], rems[lo:hi]]))
    replace_file(work / f"done-{lo:09d}-{hi:09d}.npy", [data.getvalue()])


def _rate_line(done: int, n: int, searched: int, seconds: float) -> str:
    """'1,234 / 8,000 positions, 12.5 a second, about 9 min left' (a slow search: 'one
    every 3.4 min')."""
    rate = searched / seconds if seconds > 0 else 0.0
    left = (n - done) / rate if rate > 0 else float("inf")
    when = "done" if done == n else (f"about {_duration(left)} left" if rate > 0 else "")
    pace = f"{rate:,.1f} a second" if rate >= 1 or rate == 0 else \
        f"one every {_duration(1 / rate)}"
    return f"searched {done:,} / {n:,} positions, {pace}, {when}"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.1f} min" if seconds < 600 else f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def parent_bounds(game: CompiledGame, parents: np.ndarray, children: np.ndarray,
                  book: Store) -> dict[int, tuple[SearchScore, SearchScore]]:
    """Bounds on the search score of each of ``children`` (canonical codes) from the
    exact scores ``book`` holds of ``parents``: no move is better for its mover than its
    position's score, so a child the turn passes to scores at least
    ``child_bound(parent's score)`` and one whose mover moves again (Kalah's extra turn)
    at most that. O(parents x moves); parents the book does not hold give none.

    >>> from perfectplay.games import connect4
    >>> game = connect4(width=7, height=6)
    >>> layers = book_layers(game, 5)
    >>> bounds = parent_bounds(game, layers[4], layers[5], find_book(game))
    >>> len(bounds) == layers[5].size  # every position of ply 5 has a parent on ply 4
    True
    """
    caps = capabilities(game)
    wanted = set(children.tolist())
    out: dict[int, tuple[SearchScore, SearchScore]] = {}
    for code in parents.tolist():
        try:
            score = score_of(book.value(code), book.remoteness(code), game.scored)
        except KeyError:
            continue
        if score is None or game.outcome(code) is not None:
            continue
        for move in game.moves(code):
            child, passes, pay = edge(game, caps, code, move)
            canon = game.canonical(int(cast(int, child)))
            if canon not in wanted:
                continue
            bound = child_bound(score, passes, pay, game.scored)
            lo, hi = out.get(canon, (-math.inf, math.inf))
            out[canon] = (max(lo, bound), hi) if passes else (lo, min(hi, bound))
    return out


def _searcher(game: CompiledGame, limits: Limits,
              endgame: Store | DenseEndgame | None,
              known: dict[int, tuple[SearchScore, SearchScore]] | None = None) -> Searched:
    """The book's one way to prove a position: (value code or margin, remoteness), its
    outcome if it has ended, else by search (with the endgame store, if any, and the
    bounds ``known`` of it)."""
    known = known or {}

    def searched(code: int) -> tuple[int, int]:
        end = game.outcome(code)
        if end is not None or not game.moves(code):
            value, rem = _ended(game, end)
            return _pack_value(value, game.scored), rem
        r = search(game, code, limits=limits, endgame=endgame,
                   known=known.get(code), check=False)  # checked once, by build_book
        if not r.exact or r.value is None:
            raise GameError(f"the search of {show(code)} did not finish")
        return _pack_value(r.value, game.scored), -1 if r.remoteness is None else r.remoteness

    return searched


def _ended(game: CompiledGame, end: Worth | None) -> tuple[Worth, int]:
    if end is None:  # no legal move and no outcome: the mover loses (scored: no points)
        return (0 if game.scored else Value.LOSE), 0
    return end, 0


def _pack_value(value: Worth, scored: bool) -> int:
    if scored:
        return 0 if isinstance(value, Value) else int(value)
    assert isinstance(value, Value)
    return value.code


def _unpack_value(v: int, scored: bool) -> Worth:
    return int(v) if scored else Value.from_code(int(v))


def _derive(game: CompiledGame, layers: list[np.ndarray], vals: np.ndarray, rems: np.ndarray,
            searched: Searched) -> dict[int, tuple[int, int]]:
    """(packed value, remoteness) of every book position: the last ply's as searched, each
    ply before it by minimax over its children (searched when a child is not valued yet)."""
    known: dict[int, tuple[int, int]] = {
        int(c): (int(v), int(r)) for c, v, r in zip(layers[-1].tolist(), vals.tolist(),
                                                    rems.tolist(), strict=True)}
    caps = capabilities(game)
    for layer in reversed(layers[:-1]):
        for code in layer.tolist():
            got = _minimax(game, caps, code, known)
            known[code] = got if got is not None else searched(code)
    return known


def _minimax(game: CompiledGame, caps: Capabilities, code: int,
             known: dict[int, tuple[int, int]]) -> tuple[int, int] | None:
    """(packed value, remoteness) of ``code`` from its children's, or None when one of
    them is not known."""
    end = game.outcome(code)
    moves = game.moves(code)
    if end is not None or not moves:
        final, zero = _ended(game, end)
        return _pack_value(final, game.scored), zero
    player = caps.player
    who = player(code) if player is not None else None
    best: tuple[Score, Worth, int | None] | None = None
    for move in moves:
        child = game.play(code, move)
        got = known.get(game.canonical(child))
        if got is None:
            return None
        value, crem = _unpack_value(got[0], game.scored), got[1]
        passes = player is None or player(child) != who
        rem: int | None = None if crem < 0 else crem + 1
        mine: Worth
        if game.scored:
            pay = caps.payoff(code, move) if caps.payoff is not None else 0
            mine, _ = scored_option(pay, value, crem, passes)
        else:
            assert isinstance(value, Value)
            mine = value.flipped() if passes else value
        score = Score(mine, rem)
        if best is None or score.key > best[0].key:
            best = (score, mine, rem)
    assert best is not None
    return _pack_value(best[1], game.scored), -1 if best[2] is None else best[2]


def _write(game: CompiledGame, root: Path, manifest: dict[str, object],
           known: dict[int, tuple[int, int]]) -> None:
    """Every tier's files (as a store packs them) and the manifest's ``packed`` entries."""
    codes = np.fromiter(known.keys(), np.int64, len(known))
    packed = np.array(list(known.values()), np.int64).reshape(-1, 2)
    tiers = np.array([game._tier(c) for c in codes.tolist()], np.int64)
    (root / "tiers").mkdir(exist_ok=True)
    entries = []
    for t in np.unique(tiers).tolist():
        at = np.flatnonzero(tiers == t)
        entries.append(_write_tier(game, root, t, codes[at], packed[at]))
    manifest["packed"] = entries
    write_manifest(root, manifest)


def _write_tier(game: CompiledGame, root: Path, t: int, codes: np.ndarray,
                packed: np.ndarray) -> dict[str, object]:
    """One tier's files: palette ids in slot order, positions by rank (when ranks are dense
    enough to cost less than keys) or by sorted keys. Returns the manifest entry."""
    pairs: dict[tuple[int, int], int] = {}
    ids = np.array([pairs.setdefault((int(v), int(r)), len(pairs))
                    for v, r in packed.tolist()], np.int64)
    width = 1 if len(pairs) <= 1 << 8 else 2 if len(pairs) <= 1 << 16 else 4
    palette = [[margin_text(v) if game.scored else Value.from_code(v).value, r]
               for v, r in pairs]
    entry: dict[str, object] = {"tier": t, "size": int(codes.size), "width": width,
                             "palette": palette}
    ranks = None
    if game.has_rank:
        rank = game.ranking.rank
        ranks = np.array([int(rank(np.int64(c))) for c in codes.tolist()], np.int64)
        span = int(ranks.max()) + 1
        if span > 72 * codes.size:  # a bit a rank would cost more than a key a position
            ranks = None
    if ranks is not None:
        order = np.argsort(ranks, kind="stable")
        present = np.zeros(-(-span // 64), np.uint64)
        if not mark_present(ranks[order], present):
            raise GameError(f"{game.name}: rank gives two positions of tier {t} one number")
        save_array(tier_path(root, t, "present"), present)
        save_array(tier_path(root, t, "counts"), count_blocks(present))
        entry["span"] = span
    else:
        keys = mix_all(codes)
        order = np.argsort(keys, kind="stable")
        keys = keys[order]
        bits = index_bits(codes.size)
        save_array(tier_path(root, t, "keys"), keys)
        save_array(tier_path(root, t, "index"), build_index(keys, bits))
        entry["bits"] = bits
    save_array(tier_path(root, t, "cells"), ids[order].astype(WIDTHS[width]))
    return entry


def find_book(game: CompiledGame) -> Store | None:
    """The book shipped with ``game``'s package (a folder ``books/NAME`` beside the module
    that defines it, NAME its name with only letters, digits and dashes), opened, or None.
    Standard Connect Four ships one: ``find_book(connect4(width=7, height=6))``."""
    module = type(game).__module__
    package = module.rpartition(".")[0] or module
    folder = re.sub(r"[^A-Za-z0-9]+", "-", capabilities(game).name).strip("-")
    try:
        path = Path(str(resources.files(package) / "books" / folder))
    except (ModuleNotFoundError, TypeError):
        return None
    if not (path / "manifest.json").exists():
        return None
    store = Store(path, game)
    if store.game_name != capabilities(game).name:
        return None
    return store
