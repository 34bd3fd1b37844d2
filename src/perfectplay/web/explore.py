"""Any solved game explored position by position, for the page and any client: every game of
the catalog (``connect4(width=4, height=4)``, solved in memory in the server's worker, once,
cached there) and the game ``perfectplay serve --game TARGET`` or ``--store DIR`` serves.

- each catalog game's entry in ``GET /api/games`` (:func:`catalog_entry`: parameters with
  their defaults and limits, the page's default instance and the page's budget in words),
  and the served game's (:func:`served`);
- ``GET /api/games/{target}/position?p=KEY&moves=a,b``: the position ``p`` (its key, or
  the ``PICTURE~KEY`` string of ``/gamesman``; default: the start), then the ``moves`` given
  by name: its value in words, its remoteness, whose turn it is, the board (the game's
  ``draw``), "Player 1 should win in 13", and every legal move by name with its value for
  the mover, its remoteness and its child's key; with ``moves`` from the start, the value
  history of those moves (mistakes marked).

A target is checked before any work: its name and parameters by the catalog entry
(:meth:`~perfectplay.registry.CatalogGame.arguments`, its ``limit`` included), then by the
page's budget (its entry's ``budget``, measured per game): an instance too big to solve
here in a few seconds is refused with 422 and the limit, not sent to the worker to time out.
Position strings, value words and the order of the moves are those of :mod:`.gamescrafters`
(one codec, one value logic).

>>> check_target("connect4(width=4, height=4)").call
'connect4(width=4, height=4)'
>>> check_target("connect4(width=7, height=6)")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
perfectplay.errors.LimitError: connect4(width=7, height=6) is too big for the page: ...
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import AsyncGenerator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from .. import registry
from ..catalog import Budget, CatalogGame, Param
from ..engine import CompiledGame, solve
from ..engine.protocol import Move, Position, Worth, capabilities
from ..engine.solved.solution import Solved, game_picture, move_name
from ..engine.strong import Method
from ..engine.target import parse_call
from ..engine.values import MoveValue
from ..errors import InputError, LimitError, PerfectplayError
from ..registry import GameEntry
from . import live
from .answers import (
    AnalysisLine,
    Answer,
    CatalogParam,
    ExploreAnswer,
    ExploreEntry,
    ExploreMove,
    ExplorePly,
    GameAnswer,
    HistoryLine,
    ParamKind,
    PasteAnswer,
    Problem,
    ValueWord,
)
from .computer import check_seed, check_strength, choose_move
from .gamescrafters import (
    PositionCodec,
    catalog_of,
    lookups_of,
    remoteness_code,
    rules_of,
    value_word,
    wrangle_moves,
)
from .notation import read_paste
from .positions import (
    Query,
    Target,
    first_player_view,
    legal_move,
    margin,
    number,
    parse_moves,
    summary,
    turn_word,
    valued_ply,
    words,
)
from .worker import Busy, HeavyPool, WorkerError

#: The most positions a catalog instance may reach on the page: the backstop for a game
#: without a budget of its own (a user's registered game); a solve that passes it stops
#: with a LimitError (422). Connect Four 5x4, the largest within a budget, has 3,945,711.
PAGE_POSITIONS = 5_000_000
#: Seconds a catalog position may take in the worker, its instance's solve included (the
#: largest within the games' budgets takes about 10 s here, kernels compiled, but a loaded
#: machine takes several times that); after that the worker is replaced (503).
SOLVE_SECONDS = 120.0
#: Solved instances the worker keeps (Connect Four 5x4 takes about 360 MB, 4x4 about 20).
CACHED = 4


#: A live stream's function in the worker: (instance, body, stop event) -> its lines.
LiveLines = Callable[[str, Mapping[str, object], threading.Event],
                     Iterator[dict[str, object]]]
#: A JSON object (an OpenAPI fragment).
JsonObject = dict[str, object]


def budget(entry: CatalogGame) -> Budget:
    """The page's budget of a catalog game: its entry's ``budget`` (measured per game, in
    its package), else anything up to :data:`PAGE_POSITIONS` positions, opened at its first
    small instance."""
    if entry.budget is not None:
        return entry.budget
    start = entry.small[0] if entry.small else {}
    return Budget(lambda _a: True, f"at most {PAGE_POSITIONS:,} positions", start)


def check_target(text: str) -> Target:
    """The catalog instance ``text`` names (``connect4`` or ``connect4(width=4,
    height=4)``), its parameters checked by the catalog and then by the page's budget: an
    :class:`InputError` for a bad name or parameter, a :class:`LimitError` for an instance
    beyond the page."""
    if len(text) > 1_000:
        raise InputError(f"the game is {len(text):,} characters; the page takes 1,000")
    name, args, kwargs = parse_call(text)
    entry: CatalogGame = registry.get_catalog(name)
    values = entry.arguments(args, kwargs)
    target = Target(entry, values)
    page = budget(entry)
    if not page.fits(values):
        bare = "" if "(" in text else f" (the catalog's default for {name!r})"
        raise LimitError(f"{target.call}{bare} is too big for the page: {entry.title} here "
                         f"takes {page.limit}, and opens {entry.call(page.default)} "
                         "(`perfectplay solve` or `search` takes more)")
    return target


def is_live(text: str) -> bool:
    """Whether the page answers the catalog instance ``text`` live (:mod:`.live`): it is
    beyond the page's solve budget, and its entry's ``live`` budget takes it; False for anything
    else, a bad name included (the solve path then says what is wrong)."""
    try:
        check_target(text)
        return False
    except LimitError:
        pass
    except PerfectplayError:  # a bad name or parameter: the solve path's message
        return False
    try:
        live.check_live(text)
    except PerfectplayError:
        return False
    return True


def checked_target(text: str) -> tuple[Target, bool]:
    """The catalog instance ``text`` checked for the page, and whether it is answered live
    (:func:`is_live`): the solve path's check, and the live one for an instance beyond the
    solve budget; what the solve path says is wrong when neither takes it. One check each,
    where asking :func:`is_live` first ran them twice."""
    try:
        return check_target(text), False
    except LimitError as too_big:
        try:
            return live.check_live(text), True
        except PerfectplayError:
            raise too_big from None


def checked_live(text: str) -> Target:
    """The catalog instance ``text`` names, checked for the live analysis (the stream): an
    instance the page solves instead is told to ask ``/position``, not called too big."""
    try:
        return live.check_live(text)
    except LimitError:
        target = check_target(text)  # beyond the page too: its LimitError says so
        raise InputError(f"{target.call} is solved on the page, not searched live: its "
                         "/position answers every move's value (the live analysis streams "
                         f"{' and '.join(sorted(live.live_names()))})") from None


# -- one position, for any solved game ----------------------------------------------------------
@dataclass(frozen=True)
class Explorer:
    """A solved game and what its answers need: the position codec and its title."""

    solved: Solved
    codec: PositionCodec
    name: str
    title: str


@lru_cache(maxsize=CACHED)
def catalog_explorer(call: str) -> Explorer:
    """The catalog instance ``call`` solved (in the worker process: once, then cached)."""
    target = check_target(call)
    game = target.entry.build(**target.args)
    # compiled discovery (method="graph") beats the tier solver 10-100 times on the page's
    # sizes: Connect Four 4x4 0.05 s against 5.2 s (2026-11-26)
    method: Method = "graph" if isinstance(game, CompiledGame) else "auto"
    solved = solve(game, max_positions=PAGE_POSITIONS, progress=False, method=method)
    return Explorer(solved, PositionCodec(game), call, target.entry.title)


def explore(ex: Explorer, query: Query) -> dict[str, object]:
    """The answer for one position (see the module doc): ``query["p"]`` (a key or a
    position string; None: the start) then ``query["moves"]`` (comma-separated names)."""
    solved, game = ex.solved, ex.solved.game
    text = query.get("p")
    try:
        pos = solved.start if text is None else ex.codec.read(text)
        solved.value(pos)
    except (KeyError, TypeError):
        raise InputError(f"the position {str(text)[:60]!r} is not one {ex.title} "
                         "reaches") from None
    who = _turns(game, ex.codec.first_turn(text, pos, solved.start))
    history: list[ExplorePly] = []
    so_far = [0.0]
    for k, name in enumerate(parse_moves(query.get("moves")), 1):
        turn = who(pos, k - 1)
        moves = solved.move_values(pos)
        move = legal_move(game, pos, name) if moves else None
        if move is None:
            legal = ", ".join(move_name(game, mv.move) for mv in moves)
            raise InputError(f"move {k} ({name[:40]!r}) is not legal there; legal: "
                             f"{legal or 'none (the game is over)'}")
        history.append(_ply(ex, pos, move, turn, so_far))
        pos = game.play(pos, move)
    answer = _position(ex, pos, who(pos, len(history)), history, so_far[0])
    strength = query.get("strength")
    if strength is not None:
        answer.computer = None if answer.over else choose_move(
            [(m.name, m.value or "", m.margin, m.remoteness) for m in answer.moves],
            check_strength(strength), query.get("seed"), len(history))
    return answer.to_json()


def _turns(game: object, first: int | None) -> Callable[[Position, int], int | None]:
    """Who moves at a position reached in some plies: the game's ``player`` hook; else the
    plies' parity counted from ``first``, who moved at the position the plies start from
    (0 at the start; a position string's whose-turn marker, ``PICTURE~2_KEY``); else not
    known (None)."""
    player = capabilities(game).player
    if player is not None:
        return lambda pos, _plies: int(player(pos))
    if first is not None:
        return lambda _pos, plies: (first + plies) % 2
    return lambda _pos, _plies: None


def _ply(ex: Explorer, pos: Position, move: Move, turn: int | None, so_far: list[float]
         ) -> ExplorePly:
    """One move of the history: the mover's value before and after, whether it was a
    mistake (it lowered the mover's value), and both as the first player's numbers. In a
    scored game both are final margins: the points so far (``so_far[0]``, the first
    player's minus the second's) and the margin from here."""
    solved = ex.solved
    moves = solved.move_values(pos)
    chosen = next(mv for mv in moves if mv.move == move)
    ply = valued_ply(move_name(solved.game, move), turn,
                     (solved.value(pos), solved.remoteness(pos)),
                     (chosen.value, chosen.remoteness), so_far[0], solved.scored)
    payoff = capabilities(solved.game).payoff
    if payoff is not None and turn is not None:
        so_far[0] += first_player_view(payoff(pos, move), turn) or 0.0
    return ply


def _word(value: Worth, scored: bool) -> ValueWord:
    """The value's word (:func:`.gamescrafters.value_word`), typed."""
    return cast(ValueWord, value_word(value, scored))


def _position(ex: Explorer, pos: Position, turn: int | None, history: list[ExplorePly],
              so_far: float) -> ExploreAnswer:
    solved, codec = ex.solved, ex.codec
    value, rem = solved.value(pos), solved.remoteness(pos)
    moves = solved.move_values(pos)
    over = not moves
    return ExploreAnswer(
        target=ex.name, title=ex.title, key=codec.key(pos), position=codec.text(pos, turn),
        value=_word(value, solved.scored), margin=margin(value, solved.scored),
        remoteness=rem, turn=turn_word(turn),
        summary=summary(value, rem, solved.scored, turn, over, so_far),
        points=number(so_far),
        board=game_picture(solved.game, pos) or repr(pos), over=over,
        moves=_moves(ex, pos, moves), history=history)


def _moves(ex: Explorer, pos: Position, moves: list[MoveValue]) -> list[ExploreMove]:
    """Every legal move, best first (the engine's order), with UWAPI's deltaRemoteness."""
    solved, game = ex.solved, ex.solved.game
    rows: list[dict[str, Any]] = []
    for mv in moves:
        word = value_word(mv.value, solved.scored)
        rows.append({"moveValue": word, "remoteness": remoteness_code(word, mv.remoteness)})
    wrangle_moves(rows)  # sets each row's deltaRemoteness (its order is UWAPI's, not used)
    top = (moves[0].value, moves[0].remoteness) if moves else None
    return [ExploreMove(name=move_name(game, mv.move), value=row["moveValue"],
                        margin=margin(mv.value, solved.scored), remoteness=mv.remoteness,
                        delta_remoteness=row["deltaRemoteness"],
                        words=words(mv.value, mv.remoteness, solved.scored),
                        best=(mv.value, mv.remoteness) == top,
                        key=ex.codec.key(game.play(pos, mv.move)))
            for mv, row in zip(moves, rows, strict=True)]


# -- the explored games' entries in /api/games ----------------------------------------------
_KINDS: dict[type, ParamKind] = {int: "int", tuple: "tuple", bool: "bool", str: "str"}


def _param(p: Param) -> CatalogParam:
    kind = _KINDS.get(p.kind, "str")
    default = list(p.default) if isinstance(p.default, tuple) else p.default
    return CatalogParam(name=p.name, kind=kind, default=default, help=p.help, low=p.low,
                        high=p.high)


def script_address(entry: GameEntry) -> str | None:
    """Where the page loads a game's own board code (``/page/NAME.js``), or None."""
    return None if entry.script is None else f"/page/{entry.name}.js"


def catalog_entry(entry: CatalogGame) -> GameAnswer:
    """One catalog game as ``/api/games`` lists it: what every game says, then its
    parameters and the page's limits (its entry's ``budget`` and ``live``)."""
    page = budget(entry)
    start = entry.arguments((), page.default)
    limit = page.limit + (f"; larger, answered live by search: {live.live_limit(entry)}"
                          if entry.live is not None else "")
    standard = None if entry.live is None else \
        entry.call(entry.arguments((), entry.live.standard))
    return GameAnswer(
        name=entry.name, title=entry.title, rules=entry.rules, kind="catalog",
        offers=list(entry.offers), script=script_address(entry),
        explore=ExploreEntry(params=[_param(p) for p in entry.params],
                             default=entry.call(start), limit=limit,
                             board=entry.name if entry.script is not None else None,
                             paste=entry.notation_hint, live=standard))


def served_entry(name: str, title: str, rules: str, of: CatalogGame | None = None
                 ) -> GameAnswer:
    """The game ``serve --game``/``--store`` serves, as ``/api/games`` lists it: drawn
    with the board of ``of``, the catalog game it is an instance of, when that has one."""
    board = of.name if of is not None and of.script is not None else None
    return GameAnswer(name=name, title=title, rules=rules, kind="served", offers=["explore"],
                      script=None if of is None else script_address(of),
                      explore=ExploreEntry(params=[], default=name,
                                           limit="solved when the server started",
                                           board=board))


def catalog_answer(call: str, query: Query) -> dict[str, object]:
    """The worker's side of ``/api/games/{target}/position``: ``call`` solved (once) and
    the position answered; a position not held or a bad move is an :class:`InputError`."""
    return explore(catalog_explorer(call), query)


# -- the routes ---------------------------------------------------------------------------------
def problem(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    """A refusal: ``status`` with a :class:`Problem` body saying ``message`` (every route
    of the page's server answers its refusals through this)."""
    return JSONResponse(Problem(detail=message).to_json(), status_code=status,
                        headers=headers)


#: What a route refuses after it has read the request: the worker's slots all taken or its
#: budget overrun (503), or a request the game or the worker found wrong (422).
REFUSED = (Busy, PerfectplayError, WorkerError)


def _refused(exc: Exception) -> Response:
    """The answer to one of :data:`REFUSED`: 503 with Retry-After, or 422 with the reason."""
    if isinstance(exc, Busy):
        return problem(503, str(exc), {"Retry-After": str(exc.retry_after)})
    return problem(422, str(exc))


@dataclass(frozen=True)
class Served:
    """The game ``serve --game``/``--store`` serves, as the page explores it: its explorer
    (already solved) and its entry in ``/api/games``."""

    explorer: Explorer
    entry: GameAnswer


#: The longest first line of a class docstring taken as a game's title (a longer one is a
#: sentence about the game, such as tic-tac-toe's "A position is the board as ...").
TITLE_CHARS = 40


def game_title(game: object) -> str:
    """The title of a game no registry names (one served from the user's file or store):
    the first line of its class's own docstring when that is short enough to be a title
    (its final period dropped), else the class's name in words.

    >>> class TicTacToe:
    ...     "A position is the board as a 9-character string of 'X', 'O' and '.'."
    >>> game_title(TicTacToe())
    'Tic Tac Toe'
    >>> class Heap:
    ...     "Take-away from one heap."
    >>> game_title(Heap())
    'Take-away from one heap'
    """
    doc = type(game).__dict__.get("__doc__")
    first = doc.strip().splitlines()[0].strip().removesuffix(".") if doc and doc.strip() \
        else ""
    if first and len(first) <= TITLE_CHARS:
        return first
    words = re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z])(?=[0-9])", " ",
                   type(game).__name__.replace("_", " ")).strip()
    return words[:1].upper() + words[1:] if words else "A served game"


def served(solved: Solved, gamesman_id: str) -> Served:
    """The served game under its name: ``gamesman_id`` (``tictactoe``, ``board``), or
    ``gamesman_id-served`` when that is a registered game's name, so both are listed."""
    name = gamesman_id
    title, rules = rules_of(solved.game, gamesman_id)
    if catalog_of(solved.game) is None:  # a user's game: its tab titled in words, not its id
        title = game_title(solved.game)
    if name in registry.names():  # its tab beside the registry's own
        name += "-served"
        title += " (served)"
    ex = Explorer(solved, PositionCodec(solved.game), name, title)
    return Served(ex, served_entry(name, title, rules or "A game served by perfectplay.",
                                   catalog_of(solved.game)))


def _query(request: Request) -> dict[str, str | None]:
    return {k: request.query_params.get(k) for k in ("p", "moves", "strength", "seed")}


def catalog_paste(call: str, body: Mapping[str, object]) -> dict[str, object]:
    """The worker's side of ``/api/games/{target}/read``: the paste ``body["text"]`` read
    (:func:`.notation.read_paste`) on the instance ``call`` (solved, or built for a live
    target)."""
    name = parse_call(call)[0]
    game = live.live_game(call)[0] if is_live(call) else catalog_explorer(call).solved.game
    return PasteAnswer.model_validate(read_paste(name, game, str(body.get("text") or ""))
                                      ).to_json()


def routes(heavy: HeavyPool, serving: Served | None, live_stores: Sequence[str] = ()
           ) -> list[Route]:
    """``/api/games/{target}/position``, ``/analysis`` (a live target's moves, streamed:
    :mod:`.live`), ``/history`` and ``/read`` (a paste). A catalog position is answered by
    the worker (``heavy``), where its instance is solved once; the served game's here.
    ``live_stores``: stores the live analysis reads (books, endgame stores)."""
    def unknown(name: str) -> Response:
        known = ", ".join(registry.catalog_names()
                          + ([serving.explorer.name] if serving else []))
        if name in registry.names("seed"):
            return problem(404, f"{name} is a seed problem, analyzed, not explored: POST "
                                f"/api/games/{name}/analyze (the explored games: {known})")
        return problem(404, f"no game {name[:60]!r} here; the explored games: {known}")

    async def position(request: Request) -> Response:
        target, query = request.path_params["target"], _query(request)
        try:
            if serving is not None and target == serving.explorer.name:
                looks = lookups_of(serving.explorer.solved)  # off the loop, bounded (503)
                return JSONResponse(await looks.run(lambda: explore(serving.explorer, query)))
            name = parse_call(target)[0]
            if name not in registry.catalog_names():
                return unknown(name)
            parse_moves(query["moves"])
            if query["strength"] is not None:
                check_strength(query["strength"])
            check_seed(query["seed"])
            checked, answered_live = await run_in_threadpool(checked_target, target)
            if answered_live:
                answer = await heavy.run(live.live_position, checked.call, dict(query),
                                         seconds=live.LIVE_SECONDS, lane="live")
            else:
                answer = await heavy.run(catalog_answer, checked.call, dict(query),
                                         seconds=SOLVE_SECONDS, lane="small")
            return Response(answer, media_type="application/json")
        except REFUSED as exc:
            return _refused(exc)

    async def live_stream(request: Request, lines_of: LiveLines, error: Callable[[str], bytes]
                          ) -> Response:
        """A live target's JSON lines from the worker (``lines_of`` there), the target,
        the position and the moves checked first: a refusal is a 4xx answer, not a line
        (the worker reads them in milliseconds). Leaving cancels the worker's search."""
        target, query = request.path_params["target"], _query(request)
        try:
            name = parse_call(target)[0]
            if name not in registry.catalog_names():
                return unknown(name)
            parse_moves(query["moves"])
            if query["strength"] is not None:
                check_strength(query["strength"])
            check_seed(query["seed"])
            points = request.query_params.get("points")
            checked = await run_in_threadpool(checked_live, target)
            await heavy.run(live.live_position, checked.call, dict(query),
                            seconds=live.LIVE_SECONDS, lane="live")
        except REFUSED as exc:
            return _refused(exc)
        body = {**query, "stores": list(live_stores), "points": points}
        lines = heavy.stream(lines_of, checked.call, body, seconds=live.LIVE_SECONDS,
                             lane="live")

        async def ndjson() -> AsyncGenerator[bytes, None]:
            try:
                async for line in lines:
                    yield line + b"\n"
            except REFUSED as exc:
                yield error(str(exc))
            finally:
                await lines.aclose()  # the client left: the worker's search is cancelled

        return StreamingResponse(ndjson(), media_type="application/x-ndjson",
                                 headers={"Cache-Control": "no-store"})

    async def analysis(request: Request) -> Response:
        return await live_stream(request, live.live_analysis, lambda detail: _line(
            AnalysisLine(kind="error", detail=detail).to_json()))

    async def history(request: Request) -> Response:
        return await live_stream(request, live.live_history, lambda detail: _line(
            HistoryLine(kind="error", detail=detail).to_json()))

    async def paste(request: Request) -> Response:
        target = request.path_params["target"]
        text = request.query_params.get("text") or ""
        try:
            if serving is not None and target == serving.explorer.name:
                game = serving.explorer.solved.game
                read = await run_in_threadpool(read_paste, "", game, text)
                return JSONResponse(PasteAnswer.model_validate(read).to_json())
            name = parse_call(target)[0]
            if name not in registry.catalog_names():
                return unknown(name)
            checked, answered_live = await run_in_threadpool(checked_target, target)
            answer = await heavy.run(catalog_paste, checked.call, {"text": text},
                                     seconds=SOLVE_SECONDS,
                                     lane="live" if answered_live else "small")
            return Response(answer, media_type="application/json")
        except REFUSED as exc:
            return _refused(exc)

    return [Route("/api/games/{target}/position", position),
            Route("/api/games/{target}/analysis", analysis),
            Route("/api/games/{target}/history", history),
            Route("/api/games/{target}/read", paste)]


def _line(obj: Mapping[str, object]) -> bytes:
    return json.dumps(obj, ensure_ascii=False).encode("utf-8") + b"\n"


def openapi_paths(answer: Callable[[str, type[Answer]], JsonObject],
                  errors: Mapping[str, object]) -> JsonObject:
    """This module's routes for ``/api/schema``; ``answer(description, model)`` makes a
    response entry, ``errors`` the refusals."""
    p = {"name": "p", "in": "query", "required": False, "schema": {"type": "string"},
         "description": "The position: its key (or /gamesman's PICTURE~KEY string); the "
                        "start when left out."}
    moves = {"name": "moves", "in": "query", "required": False,
             "schema": {"type": "string"},
             "description": "Moves to play from it, by name, comma-separated ('2,3,3')."}
    strength = {"name": "strength", "in": "query", "required": False,
                "schema": {"type": "string"},
                "description": "The computer's strength from 0 to 1 (1: perfect; s < 1: with "
                               "chance s a random move that keeps the value, else any "
                               "move): the answer names its move here (`computer`)."}
    seed = {"name": "seed", "in": "query", "required": False, "schema": {"type": "string"},
            "description": "Seeds the computer's draw (with the moves played), so a game "
                           "replays the same way."}
    target = {"name": "target", "in": "path", "required": True,
              "schema": {"type": "string"},
              "description": "A catalog game and its parameters as a call, "
                             "'connect4(width=4, height=4)', or the served game's name."}
    return {
        "/api/games/{target}/position": {"get": {
            "x-example": "/api/games/tictactoe/position?moves=b2,a1",
            "summary": "One position of a solved game: its value, remoteness, whose turn, "
                       "the board and every move's value.",
            "parameters": [target, p, moves, strength, seed],
            "responses": {
                "200": answer("The position and every legal move.", ExploreAnswer),
                "404": answer("No such game: `detail` lists them.", Problem),
                **{k: v for k, v in errors.items() if k != "413"}}}},
        "/api/games/{target}/analysis": {"get": {
            "x-example": "/api/games/connect4%28width%3D7%2C%20height%3D6%29/analysis"
                         "?moves=5,5,5,4,2,2,4,3,3,3,2,3,4,5,1,1,7,6,4,4,1,5,1,1,5",
            "summary": "A live position (a game too big to solve here: 7x6 Connect Four, "
                       "Kalah with 6 houses): every move's value, then its remoteness, as "
                       "JSON lines (application/x-ndjson), each as soon as it is proven; "
                       "then a line 'done' with the position's value. Leaving cancels the "
                       "search.",
            "parameters": [target, p, moves, strength, seed],
            "responses": {
                "200": answer("JSON lines, each of this shape (`kind`: move, done or "
                              "error).", AnalysisLine),
                "404": answer("No such game: `detail` lists them.", Problem),
                **{k: v for k, v in errors.items() if k != "413"}}}},
        "/api/games/{target}/history": {"get": {
            "x-example": "/api/games/connect4%28width%3D7%2C%20height%3D6%29/history"
                         "?moves=5,5,5,4,2,2,4,3,3,3,2,3,4,5,1,1,7,6,4,4,1,5,1,1,5",
            "summary": "The value history of a live line: every move played from a position "
                       "not yet analysed gets its values, those positions analysed the "
                       "latest first (20 s in all), as JSON lines: one 'ply' line a move as "
                       "its values are known, then 'done'. Leaving cancels the search.",
            "parameters": [target, p, moves],
            "responses": {
                "200": answer("JSON lines, each of this shape (`kind`: ply, done or "
                              "error).", HistoryLine),
                "404": answer("No such game: `detail` lists them.", Problem),
                **{k: v for k, v in errors.items() if k != "413"}}}},
        "/api/games/{target}/read": {"get": {
            "x-example": "/api/games/tictactoe/read?text=x...o...x",
            "summary": "A pasted position read: moves by name, or the game's own notation "
                       "(Connect Four: Pons' column digits from 1, '4453'; tic-tac-toe: a "
                       "9-character board).",
            "parameters": [target, {"name": "text", "in": "query", "required": True,
                                    "schema": {"type": "string"},
                                    "description": "What was pasted."}],
            "responses": {
                "200": answer("The moves (or the position's key) to open.", PasteAnswer),
                "404": answer("No such game: `detail` lists them.", Problem),
                **{k: v for k, v in errors.items() if k != "413"}}}},
    }
