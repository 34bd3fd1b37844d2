"""Games too big to solve on the page, answered live: standard Connect Four (7x6) and
Kalah(6, 4), position by position, every move's value and remoteness streamed from the
server's worker as each is proven.

- ``GET /api/games/{target}/position`` of a live target answers at once with the board,
  whose turn it is and the legal moves by name, their values not yet known (``live``
  true, ``value`` null);
- ``GET /api/games/{target}/analysis?p=KEY&moves=a,b`` streams the analysis as JSON
  lines (``application/x-ndjson``), one object a line: ``{"kind": "move", ...}`` for every
  report of :func:`perfectplay.engine.proof.live.analyze_moves` (a move's value first, its
  remoteness after, bounds while it is searched; moves an opening book or an endgame store
  holds at once), then one ``{"kind": "done", ...}`` with the position's value and
  summary (and the computer's move when ``strength`` is given), or ``{"kind": "error"}``.

The search runs in the server's live worker (:mod:`.worker`, its "live" lane: a process
apart from the server's event loop, at a lower CPU priority, up to
:data:`.worker.LIVE_SEARCHES` searches side by side), within :data:`ANALYSIS_SECONDS` (the
stream then ends with the bounds proven so far); a board or a paste of a live game is
answered there beside the searches, never behind them. A client that goes away, or asks
for a new position (the page aborts the old request), cancels the search: the worker's stop
event is set, and a worker that has not stopped within :data:`.worker.CANCEL_SECONDS` is
replaced (once the other searches beside it have answered). ``perfectplay serve`` warms
the live worker at start-up (:func:`warm_live`: each live game built, its stores opened and
its search kernels loaded), so the first live answer pays no compiling.

The value history: the worker remembers every exact analysis it finished (the last
:data:`PROVEN_POSITIONS`), so a live game's history shows, for each move played from a
position analysed before, the mover's value before and after it, whether it was a mistake,
and the chart's points; a move from a position never analysed (a pasted line, a shared URL)
is listed by name alone until ``GET /api/games/{target}/history`` fills it in: it
analyses those positions, the latest first (the nearest the end are the quickest, so the
budget fills the most moves; each analysis has a table of its own, as on ``/analysis``),
within :data:`HISTORY_SECONDS` in all, and streams each move as its position is proven
(:func:`live_history`).

Stores: ``create_app(live_stores=[DIR, ...])`` names solved stores the analysis reads before
it searches: a store built from the start (an opening book, ``perfectplay book``) as
``book``, one built from roots (an endgame store, ``solve --store --endgame``) as
``endgame``; each is used for the instance whose game it holds (its manifest's name).

>>> check_live("connect4(width=7, height=6)").call
'connect4(width=7, height=6)'
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import suppress
from functools import lru_cache
from typing import Literal, cast

from .. import registry
from ..catalog import CatalogGame
from ..engine import CompiledGame, Value
from ..engine.proof.kernel import Leaf
from ..engine.proof.limits import Limits
from ..engine.proof.live import MoveReport, analyze_moves, warm_up
from ..engine.protocol import Game, Position, Score, Worth, capabilities
from ..engine.solved.solution import game_picture, move_name
from ..engine.target import parse_call
from ..errors import InputError, LimitError
from ..store import open_store
from ..store.book import find_book
from ..store.endgame import DenseEndgame, fits_dense, is_dense_table
from ..store.layout import read_manifest
from ..store.reader import Store
from .answers import (
    AnalysisLine,
    ExploreAnswer,
    ExploreMove,
    ExplorePly,
    HistoryLine,
    ValueWord,
)
from .computer import choose_move
from .gamescrafters import PositionCodec, remoteness_code, value_word, wrangle_moves
from .positions import (
    Query,
    Target,
    legal_move,
    parse_moves,
    summary,
    turn_word,
    valued_ply,
)

#: Seconds one live analysis may search (the page then shows the bounds proven): a user
#: waits no longer, and a search slot of the live worker (:data:`.worker.LIVE_SEARCHES`)
#: is free again within it.
ANALYSIS_SECONDS = 20.0
#: Seconds the worker may take for a live request in all: the analysis, the kernels'
#: compilation on the first request of an instance (not counted in the analysis' time) and
#: opening its stores.
LIVE_SECONDS = 180.0
#: Where a move's answer comes from (an opening book, an endgame store, the search).
Source = Literal["book", "store", "search"]


def _search_threads() -> int:
    """Threads each live search uses: two where this process may run on two CPUs or more
    (its affinity: taskset, a cpuset; a CPU quota such as ``docker --cpus=1`` is not seen),
    else one. One user's analysis then takes both cores of a small server: the p95 of 40
    positions of random play 2.65 s with one thread, 1.95 s with two (docs/benchmarks.md)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return 2 if cpus >= 2 else 1


#: Threads each live search uses (one shared table): see :func:`_search_threads`.
SEARCH_WORKERS = _search_threads()
#: What one live analysis may spend besides its time (the request's): the search's default
#: table (64 MB, which answers Pons' midgame positions in milliseconds), SEARCH_WORKERS
#: threads sharing it.
LIVE_LIMITS = Limits(workers=SEARCH_WORKERS)
#: Exact analyses a worker remembers for the value history (oldest dropped first).
PROVEN_POSITIONS = 20_000
#: Seconds the history of one line may take to fill in, all its positions together.
HISTORY_SECONDS = 20.0
#: (target, position key) -> each move's (value, remoteness) for the player making it.
Proven = dict[str, tuple[Worth, int | None]]
_proven: OrderedDict[tuple[str, str], Proven] = OrderedDict()
#: Searches run side by side in the live worker: one writer of :data:`_proven` at a time.
_proven_lock = threading.Lock()
#: Plies of first moves played from a live game's start to the position :func:`warm_live`
#: analyses (deep in the game, so its search is short), and that analysis' time limit.
WARM_PLIES = 24
WARM_SECONDS = 2.0


def live_limit(entry: CatalogGame) -> str:
    """What the page answers live of a catalog game, in words (its entry's ``live``
    budget, with the time each analysis may take); "" for a game never answered live.

    >>> from perfectplay import registry
    >>> live_limit(registry.get_catalog("connect4"))
    'any board the catalog takes (width x (height + 1) at most 62); each analysis stops after 20 s'
    """
    if entry.live is None:
        return ""
    return f"{entry.live.limit}; each analysis stops after {ANALYSIS_SECONDS:g} s"


def live_names() -> list[str]:
    """The catalog games the page answers live beyond its solve budget."""
    return [entry.name for entry in registry.catalog() if entry.live is not None]


def check_live(text: str) -> Target:
    """The catalog instance ``text`` names, if the page answers it live: an
    :class:`InputError` for a bad name or parameter, a :class:`LimitError` for an instance
    neither solved nor answered live here."""
    if len(text) > 1_000:
        raise InputError(f"the game is {len(text):,} characters; the page takes 1,000")
    name, args, kwargs = parse_call(text)
    entry: CatalogGame = registry.get_catalog(name)
    target = Target(entry, entry.arguments(args, kwargs))
    if entry.live is None or not entry.live.fits(target.args):
        raise LimitError(f"{target.call} is too big for the page, solved or live")
    return target


# -- in the worker ------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def live_game(call: str) -> tuple[Game, PositionCodec, str]:
    """The instance ``call`` built (once a worker: its kernels compile), its position codec
    and its title."""
    target = check_live(call)
    game = target.entry.build(**target.args)
    return game, PositionCodec(game), target.entry.title


class Endgame:
    """An endgame store as the analysis reads it, its leaves (the arrays the search looks
    positions up in, :meth:`Store.leaf`) loaded once a worker instead of once an analysis
    (0.2-0.4 s for Kalah(6, 4)'s 12-seed store, measured)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.game_name = store.game_name
        self._leaf: Leaf | None = None

    def value(self, pos: Position | None = None) -> Worth:
        """The store's value of ``pos`` (a KeyError for one it does not hold)."""
        return self.store.value(pos)

    def remoteness(self, pos: Position | None = None) -> int | None:
        """The store's remoteness of ``pos``."""
        return self.store.remoteness(pos)

    def leaf(self) -> Leaf:
        """The search's leaves, loaded on the first call."""
        if self._leaf is None:
            self._leaf = cast(Leaf, self.store.leaf())
        return self._leaf


@lru_cache(maxsize=8)
def _open(path: str, call: str) -> Store:
    """The store at ``path`` of the live instance ``call``, opened once a worker."""
    return open_store(path, live_game(call)[0])


@lru_cache(maxsize=8)
def _endgame(path: str, call: str) -> Endgame:
    """The endgame store at ``path`` of ``call``, its leaves kept once loaded."""
    return Endgame(_open(path, call))


@lru_cache(maxsize=4)
def shipped_book(call: str) -> Store | None:
    """The opening book shipped with the live instance ``call``'s package
    (:func:`perfectplay.store.book.find_book`: standard Connect Four's), or None."""
    game = live_game(call)[0]
    return find_book(game) if isinstance(game, CompiledGame) else None


@lru_cache(maxsize=8)
def _dense(path: str, call: str) -> DenseEndgame | None:
    """The dense endgame table at ``path`` for ``call``, or None when it is another board's
    (its table read from disk once a worker, on the first search)."""
    game = live_game(call)[0]
    return DenseEndgame(game, path) if fits_dense(game, path) else None


def stores_for(call: str, paths: Sequence[str]
               ) -> tuple[Store | None, Endgame | DenseEndgame | None]:
    """(book, endgame) for the live instance ``call``: the first of the stores at
    ``paths`` that holds its game (the manifest's name) and was built from its start (else
    the book its package ships), and the first endgame: a store built from roots, or a
    dense endgame table the instance reads (None where there is none)."""
    book: Store | None = None
    endgame: Endgame | DenseEndgame | None = None
    name = capabilities(live_game(call)[0]).name  # as a store's manifest names its game
    for path in paths:
        if is_dense_table(path):
            if endgame is None:
                endgame = _dense(path, call)
            continue
        manifest = read_manifest(path)
        if manifest.get("name") != name:
            continue
        if manifest.get("roots") and endgame is None:
            endgame = _endgame(path, call)
        elif not manifest.get("roots") and book is None:
            book = _open(path, call)
    return book if book is not None else shipped_book(call), endgame


def warm_live(paths: Sequence[str] = ()) -> list[str]:
    """Ready the live worker for its first request (``perfectplay serve`` runs it at the
    worker's start-up): each live game's standard instance built, its stores (``paths``,
    else the shipped book) opened, and one short analysis of a position deep in the game,
    which loads every search kernel (numba's disk cache, or a compile the first time).
    The calls warmed. A failing game is left cold: its own requests say what is wrong.

    >>> "connect4(width=7, height=6)" in warm_live()  # doctest: +SKIP
    True
    """
    warmed = []
    for entry in registry.catalog():
        if entry.live is None:
            continue
        call = entry.call(entry.live.standard)
        with suppress(Exception):
            _warm_one(call, paths)
            warmed.append(call)
    return warmed


def _warm_one(call: str, paths: Sequence[str]) -> None:
    """One live instance warmed (see :func:`warm_live`)."""
    game = live_game(call)[0]
    book, endgame = stores_for(call, list(paths))
    pos = game.initial()
    for _ in range(WARM_PLIES):
        legal = list(game.moves(pos)) if game.outcome(pos) is None else []
        child = next((game.play(pos, m) for m in legal
                      if game.outcome(game.play(pos, m)) is None), None)
        if child is None:
            break
        pos = child
    warm_up(game, pos, endgame)
    for _report in analyze_moves(game, pos, limits=LIVE_LIMITS.replace(
            time_limit=WARM_SECONDS), book=book, endgame=endgame):
        pass


def _as_query(body: Mapping[str, object]) -> Query:
    """The ``p`` and ``moves`` of a worker's body, as a query."""
    return {k: None if body.get(k) is None else str(body.get(k)) for k in ("p", "moves")}


def _walk(game: Game, codec: PositionCodec, title: str, query: Query
          ) -> tuple[Position, list[tuple[Position, str, int | None]],
                     Callable[[Position, int], int | None]]:
    """The position ``query`` names and the moves played to it (position before, name,
    who moved), every move checked legal."""
    text = query.get("p")
    try:
        pos = game.initial() if text is None else codec.read(text)
        legal = list(game.moves(pos)) if game.outcome(pos) is None else []
    except (KeyError, TypeError, ValueError) as exc:
        why = f": {exc.args[0]}" if isinstance(exc, KeyError | ValueError) and exc.args \
            and isinstance(exc.args[0], str) else ""
        raise InputError(f"the position {str(text)[:60]!r} is not one of {title}"
                         f"{why[:200]}") from None
    player = capabilities(game).player
    first = codec.first_turn(text, pos, game.initial())

    def who(p: Position, plies: int) -> int | None:
        if player is not None:
            return int(player(p))
        return None if first is None else (first + plies) % 2

    played = []
    for k, name in enumerate(parse_moves(query.get("moves")), 1):
        move = legal_move(game, pos, name) if legal else None
        if move is None:
            names = ", ".join(move_name(game, m) for m in legal)
            raise InputError(f"move {k} ({name[:40]!r}) is not legal there; legal: "
                             f"{names or 'none (the game is over)'}")
        played.append((pos, name, who(pos, k - 1)))
        pos = game.play(pos, move)
        legal = list(game.moves(pos)) if game.outcome(pos) is None else []
    return pos, played, who


def live_position(call: str, query: Query) -> dict[str, object]:
    """The worker's side of ``/position`` for a live target: the board, whose turn, the
    moves by name (their values come from the analysis stream)."""
    game, codec, title = live_game(call)
    pos, played, who = _walk(game, codec, title, query)
    over = game.outcome(pos) is not None or not list(game.moves(pos))
    turn = who(pos, len(played))
    moves = [] if over else list(game.moves(pos))
    scored = capabilities(game).scored
    leads = _leads(game, played)
    history = [_history_ply(name, mover, _proven.get((call, codec.key(before))), lead, scored)
               for (before, name, mover), lead in zip(played, leads[:-1], strict=True)]
    points = leads[-1]
    line = "searching ..."
    if over:
        end = game.outcome(pos)
        value: Worth = end if end is not None else Value.LOSE
        line = summary(value, 0, scored, turn, True, points)
    return ExploreAnswer(
        target=call, title=title, key=codec.key(pos), position=codec.text(pos, turn),
        value=None, margin=None, remoteness=None, turn=turn_word(turn), summary=line,
        points=int(points) if points.is_integer() else points,
        board=game_picture(game, pos) or repr(pos), over=over,
        moves=[ExploreMove(name=move_name(game, m), value=None, margin=None, remoteness=None,
                           delta_remoteness=0, words="searching ...", best=False,
                           key=codec.key(game.play(pos, m))) for m in moves],
        history=history, live=True).to_json()


def live_analysis(call: str, body: Mapping[str, object], stop: threading.Event
                  ) -> Iterator[dict[str, object]]:
    """The worker's side of ``/analysis``: every report of ``analyze_moves`` as a JSON
    object, then the position's value (see the module doc). ``body``: the query (``p``,
    ``moves``), ``stores`` (paths), ``seconds`` (the analysis' limit), ``strength`` and
    ``seed`` (the computer's move, chosen when the analysis is complete)."""
    game, codec, title = live_game(call)
    pos, played, who = _walk(game, codec, title, _as_query(body))
    turn = who(pos, len(played))
    scored = capabilities(game).scored
    paths = body.get("stores") or ()
    assert isinstance(paths, list | tuple)
    book, endgame = stores_for(call, [str(p) for p in paths])
    started = time.monotonic()
    last: dict[str, MoveReport] = {}
    seconds = float(str(body.get("seconds") or ANALYSIS_SECONDS))
    for report in analyze_moves(game, pos, limits=LIVE_LIMITS.replace(time_limit=seconds),
                                book=book, endgame=endgame, stop=stop):
        last[report.name] = report
        word = None if report.value is None else word_of(report.value, scored)
        yield AnalysisLine(kind="move", name=report.name, value=word,
                           margin=_margin(report.value, scored),
                           remoteness=report.remoteness, lower=report.lower,
                           upper=report.upper, exact=report.exact,
                           source=cast(Source, report.source), words=report.words,
                           seconds=round(time.monotonic() - started, 3)).to_json()
    done = _done(codec, pos, turn, scored, last, stop.is_set(), started, body, len(played))
    if done["exact"]:
        _remember(call, codec.key(pos), last)
    else:
        proven = sum(r.value is not None for r in last.values())
        done["summary"] = stopped_summary(call, game, proven, len(last), seconds)
    yield AnalysisLine.model_validate(done).to_json()


def live_history(call: str, body: Mapping[str, object], stop: threading.Event
                 ) -> Iterator[dict[str, object]]:
    """The worker's side of ``/history``: the value history of the line to the position
    (``body``: ``p``, ``moves``, ``stores``), each move played from a position not yet
    analysed filled in by analysing that position (see the module doc). Streams
    ``{"kind": "ply", "index": i, "ply": ...}`` for each move whose values are known, the
    latest first, then ``{"kind": "done", "complete": ...}``. A position whose analysis
    the time or ``stop`` cuts short is not remembered, and ends the stream."""
    game, codec, title = live_game(call)
    _pos, played, _who = _walk(game, codec, title, _as_query(body))
    scored = capabilities(game).scored
    paths = body.get("stores") or ()
    assert isinstance(paths, list | tuple)
    book, endgame = stores_for(call, [str(p) for p in paths])
    if played:
        warm_up(game, played[-1][0], endgame)  # compiling is not counted in the budget
    started = time.monotonic()
    leads = _leads(game, played)
    complete = True
    for i in range(len(played) - 1, -1, -1):
        before, name, mover = played[i]
        key = codec.key(before)
        if (call, key) not in _proven and mover is not None:
            left = HISTORY_SECONDS - (time.monotonic() - started)
            reports = {} if left <= 0 or stop.is_set() else {
                r.name: r for r in analyze_moves(
                    game, before, limits=LIVE_LIMITS.replace(time_limit=left), book=book,
                    endgame=endgame, stop=stop)}
            if not reports or not all(r.exact for r in reports.values()):
                complete = False
                break
            _remember(call, key, reports)
        ply = _history_ply(name, mover, _proven.get((call, key)), leads[i], scored)
        yield HistoryLine(kind="ply", index=i, ply=ply,
                          seconds=round(time.monotonic() - started, 3)).to_json()
    yield HistoryLine(kind="done", complete=complete,
                      seconds=round(time.monotonic() - started, 3)).to_json()


def _leads(game: Game, played: Sequence[tuple[Position, str, int | None]]) -> list[float]:
    """The first player's lead in points before each move of ``played``, and after the
    last (all 0 in a game without payoffs): one more than the moves."""
    payoff = capabilities(game).payoff
    leads = [0.0]
    for before, name, mover in played:
        gain = 0.0
        if payoff is not None and mover is not None:
            gain = float(payoff(before, legal_move(game, before, name)))
        leads.append(leads[-1] + (gain if mover == 0 else -gain))
    return leads


def _remember(call: str, key: str, reports: Mapping[str, MoveReport]) -> None:
    """Keep an exact analysis for the value history (see the module doc)."""
    moves: Proven = {}
    for name, r in reports.items():
        assert r.value is not None  # every report is exact
        moves[name] = (r.value, r.remoteness)
    with _proven_lock:
        _proven[(call, key)] = moves
        _proven.move_to_end((call, key))
        while len(_proven) > PROVEN_POSITIONS:
            _proven.popitem(last=False)


def _history_ply(name: str, mover: int | None, known: Proven | None, points: float,
                 scored: bool) -> ExplorePly:
    """One move of a live game's history: its values if the position it was played from
    was analysed (the mover's best value there, the move's, a mistake if it is worse, and
    both as the first player's chart points, ``points`` the first player's lead so far),
    else its name alone."""
    if known is None or name not in known or mover is None:
        return ExplorePly(name=name, turn=turn_word(mover), before="", after="",
                          mistake=False, chart_before=None, chart_after=None)
    best = max(known.values(), key=lambda v: Score(v[0], v[1]))
    return valued_ply(name, mover, best, known[name], points, scored)


def _margin(value: Worth | None, scored: bool) -> int | float | None:
    if not scored or value is None or isinstance(value, Value):
        return None
    return int(value) if float(value).is_integer() else float(value)


def _done(codec: PositionCodec, pos: Position, turn: int | None, scored: bool,
          reports: Mapping[str, MoveReport], stopped: bool, started: float,
          body: Mapping[str, object], plies: int) -> dict[str, object]:
    """The stream's last line: the position's value and remoteness from its moves' (when
    every one is exact), the best moves, each move's delta remoteness, the summary, and
    the computer's choice when asked (an analysis stopped before every move was exact:
    the best move whose value was proven, its remoteness unknown counted as 0)."""
    seconds = round(time.monotonic() - started, 3)
    exact = bool(reports) and all(r.exact for r in reports.values())
    out: dict[str, object] = {"kind": "done", "exact": exact, "stopped": stopped,
                              "seconds": seconds, "key": codec.key(pos)}
    known = {name: r.value for name, r in reports.items() if r.value is not None}
    ranked = sorted((r for r in reports.values() if r.name in known),
                    key=lambda r: Score(known[r.name], r.remoteness), reverse=True)
    end = None if reports else codec.game.outcome(pos)
    if end is not None:  # the game is over: its value is the rules', nothing to search
        out.update(exact=True, value=value_word(end, scored), margin=_margin(end, scored),
                   remoteness=0, best=[], delta={})
        out["summary"] = summary(end, 0, scored, turn, True,
                                 float(str(body.get("points") or 0)))
        return out
    if not exact:  # its summary: live_analysis's stopped_summary, which names the game
        if body.get("strength") is not None and reports:
            # the computer still moves: the best move whose value is proven, else any
            out["computer"] = (ranked[0] if ranked else next(iter(reports.values()))).name
        return out
    top = ranked[0]
    assert top.value is not None  # every report is exact
    rows = [{"moveValue": value_word(r.value, scored),
             "remoteness": remoteness_code(value_word(r.value, scored), r.remoteness)}
            for r in ranked]
    wrangle_moves(rows)
    out["value"] = value_word(top.value, scored)
    out["margin"] = _margin(top.value, scored)
    out["remoteness"] = top.remoteness
    out["best"] = [r.name for r in ranked
                   if (r.value, r.remoteness) == (top.value, top.remoteness)]
    out["delta"] = {r.name: row["deltaRemoteness"] for r, row in zip(ranked, rows,
                                                                     strict=True)}
    out["summary"] = summary(top.value, top.remoteness, scored, turn, False,
                             float(str(body.get("points") or 0)))
    strength = body.get("strength")
    if strength is not None:
        choices = [(r.name, value_word(r.value, scored), r.value, r.remoteness)
                   for r in ranked]
        out["computer"] = choose_move(choices, str(strength), body.get("seed"),
                                      plies)
    return out


def stopped_summary(call: str, game: Game, proven: int, moves: int, seconds: float) -> str:
    """The line of an analysis stopped at its time limit before every move was exact: how
    many moves' values it proved, and when it proved none, that it answers nothing and what
    would (a store served with the page: Kalah's dense endgame table, another game's
    opening book), rather than a summary that reads as an answer.

    >>> from perfectplay.catalog.kalah import Kalah
    >>> print(stopped_summary("kalah(houses=6, seeds=4)", Kalah(6, 4), 0, 6, 20.0)[:76])
    no move proven within the 20 s budget: build an endgame store with `perfectp
    >>> stopped_summary("kalah(houses=6, seeds=4)", Kalah(6, 4), 2, 6, 20.0)
    'stopped at the 20 s budget with 2 of 6 moves proven: the others show their bounds'
    """
    if proven:
        return (f"stopped at the {seconds:g} s budget with {proven} of {moves} moves proven: "
                "the others show their bounds")
    if capabilities(game).dense_endgame is not None:
        store = f"{parse_call(call)[0]}-dense24/"
        build = (f"build an endgame store with `perfectplay solve '{call}' --store {store} "
                 "--endgame 24 --dense`")
    else:
        store = f"{parse_call(call)[0]}-book/"
        build = (f"build an opening book with `perfectplay book '{call}' --plies 8 --out "
                 f"{store}`")
    return (f"no move proven within the {seconds:g} s budget: {build} and serve it with "
            f"`perfectplay serve --live-store {store}` for move values")


def word_of(value: Worth, scored: bool) -> ValueWord:
    """The value's word, typed."""
    return cast(ValueWord, value_word(value, scored))
