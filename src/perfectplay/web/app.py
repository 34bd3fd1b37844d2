"""The web page's server: one static page and a JSON API over the same results as the CLI.

``perfectplay serve`` runs :func:`create_app` with uvicorn (extra ``perfectplay[web]``).

- ``POST /api/{game}/analyze``: the game's result (``to_json()``), its explanation and its
  drawing, exactly what ``perfectplay {game} --json`` and the text output show.
- ``POST /api/{game}/play``: the position after a list of moves (by name), in the shape
  GamesCrafters' front ends use: the position, its value and remoteness, and every move with
  its value and remoteness; the computer's replies are played (and listed) until it is a
  human's turn, as in the terminal.

Every request is validated (pydantic) and sized before any work (grids up to
:data:`MAX_SIDE` a side, rows up to :data:`MAX_COINS` coins, bodies up to
:data:`MAX_BODY` bytes); a bad one gets 422 and a message a person can act on. No endpoint
runs user code or touches files.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ..engine.solution import _json_value, json_value
from ..errors import PerfectplayError
from ..play import GameState, Policy, Table

MAX_SIDE = 300
MAX_COINS = 100_000
MAX_BODY = 1_000_000
MAX_MOVES = 10_000
GAMES = ("coins", "rock", "portal", "nearest")
STATIC = {"app.js": "text/javascript", "style.css": "text/css"}


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CoinsAnalyze(_Body):
    row: list[int] = Field(min_length=1, max_length=MAX_COINS)
    line: bool = False
    compare: bool = False
    table: bool = False


class GridAnalyze(_Body):
    text: str = Field(min_length=1, max_length=MAX_BODY)
    kind: Literal["square", "king", "hex"] = "square"
    all: bool = False
    block: bool = False


class PlayBody(_Body):
    row: list[int] | None = Field(default=None, min_length=1, max_length=MAX_COINS)
    text: str | None = Field(default=None, min_length=1, max_length=MAX_BODY)
    kind: Literal["square", "king", "hex"] = "square"
    moves: list[str] = Field(default_factory=list, max_length=MAX_MOVES)
    humans: list[Literal[0, 1]] = Field(default_factory=lambda: [0], max_length=2)
    strength: float = Field(default=1.0, ge=0.0, le=1.0)
    seed: int = Field(default=0, ge=0, le=2**31)


class BadRequest(Exception):
    """A request that is well-formed JSON but not a game this page can show."""


# -- instances, checked before any work ------------------------------------------------------
def _check_side(rows: int, cols: int) -> None:
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise BadRequest(f"the board is {rows} x {cols}; the page takes boards up to "
                         f"{MAX_SIDE} x {MAX_SIDE} (the command line takes more)")


def _grid_rows(text: str) -> None:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    longest = max((len(ln) for ln in lines), default=0)
    _check_side(len(lines), longest)


def analyze(game: str, body: dict[str, Any]) -> dict[str, Any]:
    """The result of one game, as the CLI's --json and text show it."""
    if game == "coins":
        req = CoinsAnalyze.model_validate(body)
        from .. import coins

        result: Any = coins.analyze(req.row, line=req.line, compare=req.compare,
                                    table=req.table)
        return {"result": result.to_json(), "explanation": result.explain(),
                "drawing": result.draw()}
    req2 = GridAnalyze.model_validate(body)
    _grid_rows(req2.text)
    if game == "rock":
        from .. import rock

        result = rock.analyze(rock.parse(req2.text))
        grid = result.maze.grid.lines()
    elif game == "portal":
        from .. import portal

        result = portal.analyze(portal.parse(req2.text, req2.kind))
        grid = result.board.grid.lines()
    else:
        from .. import nearest

        board = nearest.parse(req2.text)
        _check_side(*board.shape)
        result = nearest.analyze(board, all=req2.all, block=req2.block)
        grid = result.cells()
    return {"result": result.to_json(), "explanation": result.explain(),
            "drawing": result.draw(), "grid": grid}


@lru_cache(maxsize=32)
def _table(game: str, key: str, kind: str) -> Table:
    """The solved play table of one instance (cached: a page plays many moves of it)."""
    from .. import play

    if game == "coins":
        return play.coins_table([int(x) for x in key.split()])
    if game == "rock":
        from ..rock import parse

        return play.rock_table(parse(key))
    from ..portal import parse as parse_board

    return play.portal_table(parse_board(key, kind))


def _describe_moves(table: Table, state: GameState) -> list[dict[str, Any]]:
    moves = state.moves() if not state.over() else []
    best = moves[0].value if moves else None
    return [{"name": table.move_name(state.pos, mv.move), "move": json_value(mv.move),
             "value": _json_value(mv.value), "remoteness": mv.remoteness,
             "describe": table.describe(mv.value, mv.remoteness, state.mover),
             "best": mv.value == best} for mv in moves]


def play(game: str, body: dict[str, Any]) -> dict[str, Any]:
    """The position after ``moves`` (names), the computer's replies played."""
    if game == "nearest":
        raise BadRequest("No is not a two-player game: use /api/nearest/analyze")
    req = PlayBody.model_validate(body)
    if game == "coins":
        if req.row is None:
            raise BadRequest("coins needs 'row': the coin values")
        key = " ".join(str(v) for v in req.row)
    else:
        if req.text is None:
            raise BadRequest(f"{game} needs 'text': the board as the CLI reads it")
        _grid_rows(req.text)
        key = req.text
    table = _table(game, key, req.kind)
    state = GameState(table, set(req.humans))
    played: list[dict[str, Any]] = []
    so_far = [0.0]  # the first player's points minus the second's, in scored games
    for k, name in enumerate(req.moves, 1):
        if state.over():
            raise BadRequest(f"move {k} ({name!r}): the game is already over")
        move = state.find_move(name)
        if move is None:
            legal = ", ".join(table.move_name(state.pos, mv.move) for mv in state.moves())
            raise BadRequest(f"move {k} ({name!r}) is not legal here; legal: {legal}")
        by = "human" if state.mover in state.humans else "computer"  # a replayed reply
        played.append(_ply(table, state, move, by, so_far))
    policy = Policy(req.strength, req.seed + len(req.moves))
    computer = []
    while not state.over() and state.mover not in state.humans:
        move = policy.choose(state.moves())
        computer.append(table.move_name(state.pos, move))
        played.append(_ply(table, state, move, "computer", so_far))
    oracle = table.oracle
    over = state.over()
    return {
        "title": table.title, "board": table.render(state.pos, state.history),
        "position": json_value(state.pos), "to_move": table.player_names[state.mover],
        "mover": state.mover, "value": _json_value(oracle.value(state.pos)),
        "remoteness": oracle.remoteness(state.pos),
        "describe": None if over else state.value_text(),
        "moves": _describe_moves(table, state), "over": over,
        "verdict": state.verdict() if over else None,
        "computer_moves": computer, "history": played,
    }


def _first_player_view(value: Any, mover: int) -> float | None:
    """A value as a number from the first player's side: a win 1, a tie or a draw 0, a loss
    -1, a margin as it is (None: never ends)."""
    from ..engine import Value

    if isinstance(value, Value):
        num = {Value.WIN: 1.0, Value.LOSE: -1.0}.get(value, 0.0)
    else:
        num = float(value)
        if num != num or abs(num) == float("inf"):
            return None
    return num if mover == 0 else -num


def _ply(table: Table, state: GameState, move: Any, by: str,
         so_far: list[float]) -> dict[str, Any]:
    """Play ``move`` and describe it for the history and its chart. In a scored game the
    chart shows the first player's final margin as it stands (points so far, ``so_far[0]``,
    plus the value of the rest), so it is flat under perfect play and drops at a mistake."""
    oracle, game = table.oracle, table.game
    mover, pos = state.mover, state.pos
    chosen = next(mv for mv in state.moves() if mv.move == move)

    def chart(value: Any) -> float | None:
        view = _first_player_view(value, mover)
        return None if view is None else so_far[0] + view

    before, after = chart(oracle.value(pos)), chart(chosen.value)
    if callable(getattr(game, "payoff", None)):
        so_far[0] += _first_player_view(game.payoff(pos, move), mover) or 0.0
    ply = state.play(move)
    return {"mover": table.player_names[mover], "by": by, "name": ply.name,
            "before": ply.before, "after": ply.after, "mistake": ply.mistake,
            "chart_before": before, "chart_after": after}


# -- the app ------------------------------------------------------------------------------------
def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"detail": message}, status_code=status)


def _validation_message(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(x) for x in first.get("loc", ())) or "the request"
    return f"{where}: {first.get('msg', 'is not valid')}"


async def _json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BadRequest(f"the request is {len(raw):,} bytes; the limit is {MAX_BODY:,}")
    import json

    try:
        data = json.loads(raw or b"{}")
    except ValueError as exc:
        raise BadRequest(f"the request is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BadRequest("the request must be a JSON object")
    return data


def _endpoint(fn: Any) -> Any:
    async def handle(request: Request) -> Response:
        game = request.path_params["game"]
        if game not in GAMES:
            return _error(404, f"unknown game {game!r}; the games are {', '.join(GAMES)}")
        try:
            body = await _json_body(request)
            return JSONResponse(await run_in_threadpool(fn, game, body))
        except ValidationError as exc:
            return _error(422, _validation_message(exc))
        except (BadRequest, PerfectplayError) as exc:
            return _error(422, str(exc))

    return handle


def _static(name: str) -> str:
    return resources.files("perfectplay.web").joinpath("static", name).read_text("utf-8")


async def _index(_request: Request) -> Response:
    return HTMLResponse(_static("index.html"))


async def _asset(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC:
        return _error(404, f"no such file: {name}")
    return Response(_static(name), media_type=STATIC[name])


def create_app() -> Starlette:
    """The ASGI app: the page, its two assets and the JSON API."""
    return Starlette(routes=[
        Route("/", _index),
        Route("/static/{name}", _asset),
        Route("/api/{game}/analyze", _endpoint(analyze), methods=["POST"]),
        Route("/api/{game}/play", _endpoint(play), methods=["POST"]),
    ])
