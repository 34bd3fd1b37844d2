"""The web page's server: one static page and a JSON API over the same results as the CLI.

``perfectplay serve`` runs :func:`create_app` with uvicorn (extra ``perfectplay[web]``).

One API family, one list of games:

- ``GET /api/games``: every game the server offers, the registry's (seed problems, then
  catalog games) and the one ``serve --game``/``--store`` serves, each with its kind, what
  it offers and what its requests take (the page builds its tabs from this).
- ``POST /api/games/{name}/analyze`` (a seed problem): the result (``to_json()``), its
  explanation and its drawing, exactly what ``perfectplay {name} --json`` and the text
  output show.
- ``POST /api/games/{name}/play`` (a two-player seed problem): the position after a list of
  moves (by name): the position, its value and remoteness, and every move with its value
  and remoteness; the computer's replies are played (and listed) until it is a human's
  turn, as in the terminal.
- ``GET /api/games/{target}/position``, ``/read``, ``/analysis``, ``/history`` (a catalog
  game's instance, ``connect4(width=4, height=4)``, or the served game): explored position
  by position, a paste read, a live analysis streamed (:mod:`.explore`, :mod:`.live`).
- ``GET /page/{name}.js``: a game's own board code (its entry's ``script``).
- ``GET /api/schema``: the whole API as OpenAPI 3.1 (every endpoint, its body's JSON Schema
  and an example); ``GET /docs``: the same as a page, with a curl line per endpoint.
- ``GET /gamesman/...`` (with ``serve --store DIR`` or ``--game TARGET``): one solved game
  in the shape of GamesCrafters' Universal Web API (:mod:`.gamescrafters`).

Every request is validated (pydantic) and sized before any work (grids up to
:data:`MAX_SIDE` a side, rows up to :data:`MAX_COINS` coins, bodies up to
:data:`MAX_BODY` bytes, refused from their Content-Length with 413); a bad one gets 422 and
a message a person can act on. Heavy requests (see :func:`is_heavy`) run in the worker
process of :mod:`.worker`, under a cap and a time budget (503 with Retry-After). No
endpoint runs user code or touches files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from contextlib import asynccontextmanager
from functools import lru_cache, partial
from importlib import resources
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic.json_schema import models_json_schema
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from .. import registry
from ..catalog import CatalogGame
from ..engine.protocol import capabilities
from ..engine.solved.solution import Solved, json_value, value_json
from ..errors import PerfectplayError
from ..play import GameState, Policy, Table
from ..registry import GameSpec, option_fields
from . import explore, gamescrafters, live
from .answers import (
    ANSWERS,
    AnalyzeAnswer,
    ControlAnswer,
    GameAnswer,
    GamesAnswer,
    Kind,
    MoveAnswer,
    Mover,
    PageAnswer,
    PlayAnswer,
    PlyAnswer,
    Problem,
    ValueJson,
)
from .explore import first_player_view, problem
from .serving import GuardedBodies
from .worker import Busy, HeavyPool, WorkerError

MAX_SIDE = 300
MAX_COINS = 100_000
MAX_BODY = 1_000_000
MAX_MOVES = 10_000
#: A request is heavy, and runs in the worker process, when its board has more cells than
#: HEAVY_CELLS (about 200 x 200) or its row more values than HEAVY_VALUES, when its game
#: says so (an exact search, an O(n^2) option), when it asks for a seed's method, or, in
#: play, where every legal move's value is asked at every position replayed, when cells (or
#: values) times positions passes HEAVY_PLAY_WORK (a 20 x 20 board 100 moves in, say).
HEAVY_CELLS = 40_000
HEAVY_VALUES = 20_000
HEAVY_PLAY_WORK = 40_000
#: Play on anything larger than this (cells or values) runs in the worker too: its first
#: request solves the whole game (or, on a large Portal board, asks the parity rule once
#: per legal move).
HEAVY_PLAY_SIZE = 100
#: Heavy requests in flight at once (one runs, one waits); one more gets 503.
HEAVY_SLOTS = 2
#: Seconds a heavy request may take before it is answered 503 and its worker replaced.
HEAVY_SECONDS = 30.0
STATIC = {"app.js": "text/javascript", "explore.js": "text/javascript", "style.css": "text/css",
          "favicon.svg": "image/svg+xml"}


class BadRequest(Exception):
    """A request that is well-formed JSON but not a game this page can show."""


class TooLarge(Exception):
    """A request body over :data:`MAX_BODY` bytes: 413."""


# -- request bodies, one model per game, built from its spec --------------------------------
def _option_fields(spec: GameSpec) -> dict[str, Any]:
    """The game's options as pydantic fields (a Literal for a choice)."""
    out: dict[str, Any] = {}
    for f in option_fields(spec.options):
        kind: Any = Literal[f.choices] if f.choices else f.kind
        out[f.name] = (kind, Field(default=f.default,
                                   description=f.help or f"The option {f.flag}."))
    return out


def _input_fields(spec: GameSpec) -> dict[str, Any]:
    text = f"The instance as the command line reads it: {spec.input_help}"
    if spec.from_values is not None:
        text += " Give this or `row`."
    fields: dict[str, Any] = {
        "text": (str | None, Field(default=None, min_length=1, max_length=MAX_BODY,
                                   description=text))}
    if spec.from_values is not None:
        fields["row"] = (list[int] | None, Field(
            default=None, min_length=1, max_length=MAX_COINS,
            description=f"The instance as numbers, one {spec.value_name} each (up to "
            f"{MAX_COINS:,}). Give this or `text`."))
    return fields


_PLAY_FIELDS: dict[str, Any] = {
    "moves": (list[str], Field(default_factory=list, max_length=MAX_MOVES,
                               description="The moves played so far, by name (as `moves` of "
                               "the answer names them), from the start.")),
    "humans": (list[Literal[0, 1]], Field(default_factory=lambda: [0], max_length=2,
                                          description="The players a human plays: 0 the "
                                          "first, 1 the second; the computer plays the "
                                          "others.")),
    "strength": (float, Field(default=1.0, ge=0.0, le=1.0,
                              description="How often the computer plays a best move: 1 "
                              "always, 0 never (a random move instead).")),
    "seed": (int, Field(default=0, ge=0, le=2**31,
                        description="The seed of the computer's random choices (the same "
                        "seed, the same game).")),
}
_FORBID = ConfigDict(extra="forbid")


@lru_cache(maxsize=64)
def body_model(name: str, play: bool = False) -> type[BaseModel]:
    """The pydantic model of one game's analyze (or play) body: the instance as ``text``
    (or ``row``, numbers, for games typed as values), the game's options, and for play the
    moves so far, the human sides, the computer's strength and its seed."""
    spec = registry.get(name)
    fields = {**_input_fields(spec), **_option_fields(spec), **(_PLAY_FIELDS if play else {})}
    title = f"{spec.name.title()}{'Play' if play else 'Analyze'}"
    return create_model(title, __config__=_FORBID, **fields)


# -- instances, checked before any work ------------------------------------------------------
def _check_side(rows: int, cols: int) -> None:
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise BadRequest(f"the board is {rows} x {cols}; the page takes boards up to "
                         f"{MAX_SIDE} x {MAX_SIDE} (the command line takes more)")


def _grid_rows(text: str) -> None:
    """The board's size from its text, before any parsing: its rows and longest row, not
    counting the judge's "R C" first line when there is one."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if lines and _HEADER.fullmatch(lines[0]):
        lines = lines[1:]
    longest = max((len(ln) for ln in lines), default=0)
    _check_side(len(lines), longest)


_HEADER = re.compile(r"\s*\d+\s+\d+\s*")


def _instance(spec: GameSpec, req: BaseModel, opts: Any) -> tuple[Any, tuple[str, Any]]:
    """The instance a body describes, and a key that names it (for the play cache):
    ``("row", values)`` or ``("text", text)``."""
    row = getattr(req, "row", None)
    text = req.text  # type: ignore[attr-defined]
    if row is not None and text is not None:
        raise BadRequest("give 'text' or 'row', not both")
    if row is not None and spec.from_values is not None:
        return spec.from_values(list(row), opts), ("row", tuple(row))
    if text is None:
        need = "'row' (the values) or 'text'" if spec.from_values else "'text'"
        raise BadRequest(f"{spec.name} needs {need}: the instance as the CLI reads it")
    if spec.from_values is None:
        _grid_rows(text)
    instance = spec.parse(text, opts)
    if spec.shape is not None:
        _check_side(*spec.shape(instance))
    return instance, ("text", text)


def _request(name: str, body: dict[str, Any], play: bool) -> tuple[GameSpec, Any, Any]:
    spec = registry.get(name)
    req = body_model(spec.name, play).model_validate(body)
    opts = spec.make_options({f.name: getattr(req, f.name)
                              for f in option_fields(spec.options)})
    return spec, req, opts


def is_heavy(game: str, body: dict[str, Any], play: bool = False) -> bool:
    """Whether a request runs in the worker process: checks the body as the work would
    (so a bad one is refused at once) and measures its instance."""
    spec, req, opts = _request(game, body, play)
    if play and spec.play is None:
        return False  # refused by play() with its own message
    instance, (how, data) = _instance(spec, req, opts)
    if spec.page_limit is not None and (why := spec.page_limit(instance, opts, play)):
        raise BadRequest(why)  # it could never finish here: no use waiting, or retrying
    if spec.heavy is not None and spec.heavy(instance, opts):
        return True
    if getattr(opts, "method", None) == "seed" or getattr(opts, "trace", False):
        return True  # the seeds' methods are slow by design (their limits are checked)
    if how == "row":
        size, limit = len(data), HEAVY_VALUES
    elif spec.shape is not None:
        rows, cols = spec.shape(instance)
        size, limit = rows * cols, HEAVY_CELLS
    else:
        size, limit = len(data), HEAVY_CELLS
    if play:
        return size > HEAVY_PLAY_SIZE or size * (len(req.moves) + 1) > HEAVY_PLAY_WORK
    return size > limit


def analyze(game: str, body: dict[str, Any]) -> dict[str, Any]:
    """The result of one game, as the CLI's --json and text show it."""
    spec, req, opts = _request(game, body, play=False)
    instance, _ = _instance(spec, req, opts)
    result = spec.analyze(instance, opts)
    grid = {} if spec.grid is None else {"grid": spec.grid(result)}
    return AnalyzeAnswer(result=result.to_json(), explanation=result.explain(),
                         drawing=result.draw(), **grid).to_json()


@lru_cache(maxsize=32)
def _table(game: str, key: tuple[str, Any], options: Any) -> Table:
    """The solved play table of one instance (cached: a page plays many moves of it)."""
    spec = registry.get(game)
    how, data = key
    if how == "row" and spec.from_values is not None:
        instance = spec.from_values(list(data), options)
    else:
        instance = spec.parse(data, options)
    assert spec.play is not None
    return spec.play(instance, options)


def _value(value: Any) -> ValueJson:
    """A value as the answers give it (:func:`~perfectplay.engine.solved.solution.value_json`)."""
    return cast(ValueJson, value_json(value))


def _describe_moves(table: Table, state: GameState) -> list[MoveAnswer]:
    """The legal moves, best first; ``best`` marks those as good as the first in value and
    remoteness (the engine's convention: the fastest win, the slowest loss)."""
    moves = state.moves() if not state.over() else []
    top = (moves[0].value, moves[0].remoteness) if moves else None
    return [MoveAnswer(name=table.move_name(state.pos, mv.move), move=json_value(mv.move),
                       value=_value(mv.value), remoteness=mv.remoteness,
                       describe=table.describe(mv.value, mv.remoteness, state.mover),
                       best=(mv.value, mv.remoteness) == top) for mv in moves]


def play(game: str, body: dict[str, Any]) -> dict[str, Any]:
    """The position after ``moves`` (names), the computer's replies played."""
    spec = registry.get(game)
    if spec.play is None:
        raise BadRequest(f"{spec.title} is not a two-player game: use "
                         f"/api/games/{spec.name}/analyze")
    spec, req, opts = _request(game, body, play=True)
    _, key = _instance(spec, req, opts)
    table = _table(spec.name, key, opts)
    state = GameState(table, set(req.humans))
    played: list[PlyAnswer] = []
    so_far = [0.0]  # the first player's points minus the second's, in scored games
    for k, name in enumerate(req.moves, 1):
        if state.over():
            raise BadRequest(f"move {k} ({name!r}): the game is already over")
        move = state.find_move(name)
        if move is None:
            legal = ", ".join(table.move_name(state.pos, mv.move) for mv in state.moves())
            raise BadRequest(f"move {k} ({name!r}) is not legal here; legal: {legal}")
        by: Mover = "human" if state.mover in state.humans else "computer"  # replayed
        played.append(_ply(table, state, move, by, so_far))
    policy = Policy(req.strength, req.seed + len(req.moves))
    computer = []
    while not state.over() and state.mover not in state.humans:
        move = policy.choose(state.moves())
        computer.append(table.move_name(state.pos, move))
        played.append(_ply(table, state, move, "computer", so_far))
    oracle = table.oracle
    over = state.over()
    return PlayAnswer(
        title=table.title, board=table.render(state.pos, state.history),
        position=json_value(state.pos), to_move=table.player_names[state.mover],
        mover=state.mover, value=_value(oracle.value(state.pos)),
        remoteness=oracle.remoteness(state.pos),
        describe=None if over else state.value_text(),
        moves=_describe_moves(table, state), over=over,
        verdict=state.verdict() if over else None,
        computer_moves=computer, history=played,
    ).to_json()


def _ply(table: Table, state: GameState, move: Any, by: Mover,
         so_far: list[float]) -> PlyAnswer:
    """Play ``move`` and describe it for the history and its chart. In a scored game the
    chart shows the first player's final margin as it stands (points so far, ``so_far[0]``,
    plus the value of the rest), so it is flat under perfect play and drops at a mistake."""
    oracle, game = table.oracle, table.game
    mover, pos = state.mover, state.pos
    chosen = next(mv for mv in state.moves() if mv.move == move)

    def chart(value: Any) -> float | None:
        view = first_player_view(value, mover)
        return None if view is None else so_far[0] + view

    before, after = chart(oracle.value(pos)), chart(chosen.value)
    payoff = capabilities(game).payoff
    if payoff is not None:
        so_far[0] += first_player_view(payoff(pos, move), mover) or 0.0
    ply = state.play(move)
    return PlyAnswer(mover=table.player_names[mover], by=by, name=ply.name,
                     before=ply.before, after=ply.after, mistake=ply.mistake,
                     chart_before=before, chart_after=after)


# -- the app ------------------------------------------------------------------------------------
def _validation_message(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(x) for x in first.get("loc", ())) or "the request"
    return f"{where}: {first.get('msg', 'is not valid')}"


async def _read_body(request: Request) -> bytes:
    """The body, refused (413) from its Content-Length before reading, and read no further
    than the limit when it comes in chunks."""
    length = request.headers.get("content-length")
    if length is not None:
        if not length.strip().isdigit():
            raise BadRequest(f"Content-Length is not a number: {length[:40]!r}")
        if int(length) > MAX_BODY:
            raise TooLarge(f"the request is {int(length):,} bytes; the limit is {MAX_BODY:,}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise TooLarge(f"the request is over {MAX_BODY:,} bytes, the limit")
        chunks.append(chunk)
    return b"".join(chunks)


#: The longest integer a body may hold (Python's own guard, kept here even when the
#: command line lifts it for its own printing: converting longer ones takes quadratic time).
MAX_DIGITS = 4_300


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise ValueError(f"an integer of {digits:,} digits; the page takes at most "
                         f"{MAX_DIGITS:,}")
    return int(text)


def _decode(raw: bytes) -> dict[str, Any]:
    """A JSON object from the body; anything else (not UTF-8, not JSON, nested past the
    decoder's depth, a number of thousands of digits) is a :class:`BadRequest`."""
    try:
        data = json.loads(raw or b"{}", parse_int=_bounded_int)
    except RecursionError:
        raise BadRequest("the request nests too deeply to be a game's body") from None
    except ValueError as exc:  # not JSON, not UTF-8, an integer past 4,300 digits
        raise BadRequest(f"the request is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BadRequest("the request must be a JSON object")
    return data


_HEAVY = object()


def _small(fn: Any, game: str, body: dict[str, Any], play: bool) -> Any:
    """``fn(game, body)`` here, for a small request; :data:`_HEAVY` for one the worker
    process should answer (one trip to the thread pool either way)."""
    return _HEAVY if is_heavy(game, body, play) else fn(game, body)


def _seed_problem(name: str, what: str) -> Response | None:
    """None when ``name`` is a seed problem (whose ``analyze`` and ``play`` these routes
    answer), else the 404 that says what the game offers instead."""
    try:
        entry = registry.find(name)
    except PerfectplayError as exc:
        return problem(404, str(exc))
    if entry.kind == "seed":
        return None
    return problem(404, f"{entry.title} ({entry.name}) is explored, not analyzed: ask GET "
                        f"/api/games/{entry.name}/position (it offers "
                        f"{', '.join(entry.offers)}, not {what})")


def _endpoint(fn: Any, play: bool, heavy: HeavyPool) -> Any:
    async def handle(request: Request) -> Response:
        game = request.path_params["game"]
        refused = _seed_problem(game, "play" if play else "analyze")
        if refused is not None:
            return refused
        try:
            body = _decode(await _read_body(request))
            answer = await run_in_threadpool(_small, fn, game, body, play)
            if answer is _HEAVY:
                return Response(await heavy.run(fn, game, body),
                                media_type="application/json")
            return JSONResponse(answer)
        except TooLarge as exc:
            return problem(413, str(exc))
        except Busy as exc:
            return problem(503, str(exc), {"Retry-After": str(exc.retry_after)})
        except ValidationError as exc:
            return problem(422, _validation_message(exc))
        except (BadRequest, PerfectplayError, WorkerError) as exc:
            return problem(422, str(exc))
        except RecursionError:
            return problem(422, "the request nests too deeply to be answered")

    return handle


#: Where /api/schema keeps the answers' schemas (and /docs looks them up).
_COMPONENTS = "#/components/schemas/"


def _answer(description: str, model: type[BaseModel] = Problem,
            headers: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"description": description, "content": {"application/json": {
        "schema": {"$ref": _COMPONENTS + model.__name__}}}}
    if headers:
        out["headers"] = headers
    return out


_ERRORS = {
    "413": _answer("The body is over the size limit: `detail` says by how much."),
    "422": _answer("The body is not valid for this game: `detail` says what is wrong."),
    "503": _answer("Large requests are all busy, one overran its time budget, or the server "
                   "is stopping: `detail` says which; Retry-After says when to try again.",
                   headers={"Retry-After": {"description": "Seconds to wait before trying "
                                                           "again.",
                                            "schema": {"type": "integer"}}}),
}


def _components() -> dict[str, Any]:
    """The answers' JSON Schemas (each model of :mod:`.answers`, and the models they hold),
    by name, their references pointing into the document's components."""
    _, defs = models_json_schema([(m, "serialization") for m in ANSWERS],
                                 ref_template=_COMPONENTS + "{model}")
    return dict(defs.get("$defs", {}))


def openapi() -> dict[str, Any]:
    """The API as an OpenAPI 3.1 document: every game's analyze and play endpoints with
    the JSON Schema of their bodies (the same pydantic models that validate them) and an
    example body (each game's own, :meth:`~perfectplay.registry.GameSpec.example_body`),
    and ``/api/games``; every answer's schema from the models that make the answers
    (:mod:`.answers`), under ``components/schemas``."""
    paths: dict[str, Any] = {"/api/games": {"get": {
        "x-example": "/api/games",
        "summary": "Every game the server offers (seed problems, catalog games, the served "
                   "game): its kind, what it offers, the JSON Schema of its bodies or its "
                   "parameters, and how the page shows it.",
        "responses": {"200": _answer("Every game, in the registry's order, then the served "
                                     "game.", GamesAnswer)}}}}
    for spec in registry.games("seed"):
        example = spec.example_body()
        paths[f"/api/games/{spec.name}/analyze"] = {"post": {
            "summary": f"{spec.title}: the result, its explanation and its drawing.",
            "description": spec.rules,
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": body_model(spec.name).model_json_schema(), "example": example}}},
            "responses": {"200": _answer("The result, as the command line prints it and "
                                         "its --json.", AnalyzeAnswer), **_ERRORS}}}
        if spec.play is not None:
            paths[f"/api/games/{spec.name}/play"] = {"post": {
                "summary": f"{spec.title}: the position after the moves, every move's "
                           "value.",
                "description": spec.rules,
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": body_model(spec.name, play=True).model_json_schema(),
                    "example": {**example, "moves": []}}}},
                "responses": {"200": _answer("The position, its value and remoteness, "
                                             "every move with its own, and the history.",
                                             PlayAnswer), **_ERRORS}}}
    paths.update(explore.openapi_paths(_answer, _ERRORS))
    return {"openapi": "3.1.0", "info": {"title": "perfectplay", "version": _version()},
            "paths": paths, "components": {"schemas": _components()}}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("perfectplay")
    except PackageNotFoundError:
        return "unknown"


async def _schema(_request: Request) -> Response:
    return JSONResponse(openapi())


def type_words(schema: dict[str, Any], components: dict[str, Any] | None = None) -> str:
    """A JSON Schema's type as a person reads it: ``string``, ``list of integer``, ``one
    of "fast", "seed"``, ``string or null``, a model's name.

    >>> type_words({"anyOf": [{"type": "array", "items": {"type": "integer"}},
    ...                       {"type": "null"}]})
    'list of integer or null'
    >>> type_words({"enum": ["fast", "seed"], "type": "string"})
    'one of "fast", "seed"'
    """
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    if "anyOf" in schema:
        return " or ".join(type_words(s, components) for s in schema["anyOf"])
    if "enum" in schema or "const" in schema:
        values = schema.get("enum", [schema.get("const")])
        return "one of " + ", ".join(json.dumps(v) for v in values)
    kind = schema.get("type")
    if isinstance(kind, list):
        return "any JSON value" if len(kind) >= 6 else " or ".join(kind)
    if kind == "array":
        return "list of " + type_words(schema.get("items", {}), components)
    if kind == "object":
        return "object"
    return str(kind or "any JSON value")


def _field_list(schema: dict[str, Any], components: dict[str, Any]) -> str:
    """A schema's fields as an HTML list: name, type, whether it is required, what it is."""
    import html

    required = set(schema.get("required", ()))
    items = []
    for name, field in schema.get("properties", {}).items():
        must = " (required)" if name in required else ""
        items.append(f"<li><code>{html.escape(name)}</code> "
                     f"<i>{html.escape(type_words(field, components))}</i>{must}: "
                     f"{html.escape(field.get('description', ''))}</li>")
    return "<ul>" + "".join(items) + "</ul>"


async def _docs(request: Request) -> Response:
    """The API in a page a person reads: each endpoint, its body's fields (type and
    description), a curl line, and its answer's fields; then every answer's model."""
    import html

    base = str(request.base_url).rstrip("/")
    doc = openapi()
    components = doc["components"]["schemas"]
    parts = ["<!doctype html><meta charset=utf-8><title>perfectplay API</title>",
             "<h1>perfectplay API</h1><p>The machine-readable version: "
             "<a href=/api/schema>/api/schema</a> (OpenAPI 3.1).</p>"]
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            parts.append(f"<h2>{method.upper()} {html.escape(path)}</h2>"
                         f"<p>{html.escape(op['summary'])}</p>")
            body = op.get("requestBody")
            if body is not None:
                content = body["content"]["application/json"]
                parts.append("<p>The body:</p>" + _field_list(content["schema"], components))
                line = (f"curl -s {base}{path} -H 'content-type: application/json' "
                        f"-d '{json.dumps(content['example'])}'")
                parts.append(f"<pre>{html.escape(line)}</pre>")
            elif "x-example" in op:  # a GET: its example address
                line = f"curl -s '{base}{op['x-example']}'"
                parts.append(f"<pre>{html.escape(line)}</pre>")
            for param in op.get("parameters", []):  # a GET's path and query parameters
                parts.append(f"<p><code>{html.escape(param['name'])}</code> "
                             f"({param['in']}): {html.escape(param['description'])}</p>")
            answers = []
            for status, answer in op["responses"].items():
                ref = answer["content"]["application/json"]["schema"]["$ref"]
                answers.append(f"<li>{status}: {html.escape(answer['description'])} "
                               f"(<a href='#{ref.rsplit('/', 1)[-1]}'>"
                               f"{ref.rsplit('/', 1)[-1]}</a>)</li>")
            parts.append("<p>The answers:</p><ul>" + "".join(answers) + "</ul>")
    parts.append("<h2>The answers' fields</h2>")
    for name, schema in components.items():
        parts.append(f"<h3 id='{html.escape(name)}'>{html.escape(name)}</h3>"
                     f"<p>{html.escape(schema.get('description', ''))}</p>"
                     + _field_list(schema, components))
    return HTMLResponse("\n".join(parts))


def _page_entry(spec: GameSpec) -> PageAnswer:
    """How the page shows a seed problem: its tab, its intro, the body it starts with, the
    options it shows as controls and the sides a human may play."""
    web = spec.web
    fields = option_fields(spec.options)
    shown = web.controls if web.controls is not None else tuple(
        f.name for f in fields if f.name not in ("method", "trace"))
    return PageAnswer(
        tab=web.tab or spec.title, intro=web.intro or spec.rules,
        start=spec.start_body(), sides=list(web.sides),
        values=spec.from_values is not None, value_name=spec.value_name,
        seed=any(f.name == "method" and "seed" in f.choices for f in fields),
        controls=[ControlAnswer(name=f.name, kind=cast(Kind, f.kind.__name__),
                                default=f.default,
                                help=f.help, choices=list(f.choices))
                  for f in fields if f.name in shown],
    )


def seed_entry(spec: GameSpec) -> GameAnswer:
    """One seed problem as ``/api/games`` lists it: what every game says, its bodies' JSON
    Schemas, an example body and how the page's tab shows it."""
    play: dict[str, Any] = {} if spec.play is None else {  # absent, not null
        "play": body_model(spec.name, play=True).model_json_schema()}
    return GameAnswer(name=spec.name, title=spec.title, rules=spec.rules, kind="seed",
                      offers=list(spec.offers), script=explore.script_address(spec),
                      input=spec.input_help, example=spec.example_body(),
                      page=_page_entry(spec),
                      analyze=body_model(spec.name).model_json_schema(), **play)


def games(served: GameAnswer | None = None) -> dict[str, Any]:
    """``GET /api/games``: every game the server offers, in the registry's order (each
    seed problem with the JSON Schema of its bodies, each catalog game with its parameters
    and the page's limits), then ``served``, the game ``serve --game``/``--store`` serves.
    The page builds its tabs from this."""
    out: list[GameAnswer] = []
    for entry in registry.games():
        # by kind, not class (see registry._is_entry)
        if entry.kind == "seed":
            out.append(seed_entry(cast(GameSpec, entry)))
        else:
            out.append(explore.catalog_entry(cast(CatalogGame, entry)))
    return GamesAnswer(games=out + ([served] if served else [])).to_json()


async def _page_script(request: Request) -> Response:
    """A game's own board code (its entry's ``script``), of either kind."""
    name = request.path_params["game"]
    try:
        entry = registry.find(name)
    except PerfectplayError as exc:
        return problem(404, str(exc))
    if entry.script is None:
        return problem(404, f"{entry.title} has no board code of its own")
    return Response(entry.script.read_text("utf-8"), media_type="text/javascript")


def _static(name: str) -> str:
    return resources.files("perfectplay.web").joinpath("static", name).read_text("utf-8")


async def _index(_request: Request) -> Response:
    return HTMLResponse(_static("index.html"))


async def _asset(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC:
        return problem(404, f"no such file: {name}")
    return Response(_static(name), media_type=STATIC[name])


async def _favicon(_request: Request) -> Response:
    return Response(_static("favicon.svg"), media_type=STATIC["favicon.svg"])


def create_app(heavy_slots: int = HEAVY_SLOTS, heavy_seconds: float = HEAVY_SECONDS,
               gamesman: Solved | None = None, gamesman_id: str = "game",
               cors: Sequence[str] = (), live_stores: Sequence[str] = (),
               gamesman_catalog: bool = False) -> Starlette:
    """The ASGI app: the page, its assets and the JSON API; heavy requests go to one worker
    process (started with the server, stopped with it), ``heavy_slots`` at a time, each
    within ``heavy_seconds``. ``gamesman``: a solved game (a store, a Solution) served
    read-only under ``/gamesman`` in GamesCrafters' shape (:mod:`.gamescrafters`), with the
    id ``perfectplay-`` + ``gamesman_id``. ``cors``: the origins (``http://localhost:3000``,
    or ``*``) whose pages may read the answers of GET requests (Starlette's
    CORSMiddleware; none by default), for a GamesmanUni served from elsewhere.
    ``gamesman_catalog``: ``/gamesman`` lists every catalog game too, at its small variants
    (``perfectplay serve`` asks for it).
    ``live_stores``: solved stores (an opening book, an endgame store) the live analysis of
    a game too big for the page reads before it searches (:mod:`.live`)."""
    heavy = HeavyPool(heavy_slots, heavy_seconds,
                      live_warm=partial(live.warm_live, tuple(live_stores)))
    serving = None if gamesman is None else explore.served(gamesman, gamesman_id)

    listed: dict[tuple[str, ...], bytes] = {}  # the list's answer, made once a registry

    async def _games(_request: Request) -> Response:
        """The list of games, made once (30 ms of CPU a time, measured: the largest part of
        the small requests' tail beside live searches) and again only when a game joins
        the registry."""
        key = tuple(registry.names())
        if key not in listed:
            entry = None if serving is None else serving.entry
            body = JSONResponse(await run_in_threadpool(games, entry)).body
            listed.clear()
            listed[key] = bytes(body)
        return Response(listed[key], media_type="application/json")

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> Any:
        heavy.start()
        try:
            yield
        finally:
            heavy.close()

    middleware = [Middleware(GuardedBodies)] + ([] if not cors else [
        Middleware(CORSMiddleware, allow_origins=list(cors), allow_methods=["GET"])])
    app = Starlette(lifespan=lifespan, middleware=middleware, routes=[
        Route("/", _index),
        Route("/favicon.ico", _favicon),
        Route("/static/{name}", _asset),
        Route("/api/games", _games),
        Route("/page/{game}.js", _page_script),
        Route("/api/schema", _schema),
        Route("/docs", _docs),
        Route("/api/games/{game}/analyze", _endpoint(analyze, False, heavy),
              methods=["POST"]),
        Route("/api/games/{game}/play", _endpoint(play, True, heavy), methods=["POST"]),
        *explore.routes(heavy, serving, live_stores),
        *([] if gamesman is None and not gamesman_catalog else gamescrafters.routes(
            gamesman, gamesman_id, "" if gamesman is None else gamescrafters.rules_of(
                gamesman.game, capabilities(gamesman.game).name)[0], gamesman_catalog)),
    ])
    app.state.heavy = heavy  # serve stops it as soon as a stop is asked (HeavyPool.stop)
    return app
