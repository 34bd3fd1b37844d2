"""Any solved game, read-only, in the shape of GamesCrafters' Universal Web API (UWAPI), the
middleware their front end (GamesmanUni) reads: ``perfectplay serve --store DIR`` or
``--game TARGET`` mounts it under ``/gamesman``.

- ``GET /gamesman/``: the games served (``id``, ``name``, ``type``, ``gui``);
- ``GET /gamesman/{id}/``: the game and its one variant;
- ``GET /gamesman/{id}/{variant}/``: the variant and its start position;
- ``GET /gamesman/{id}/{variant}/positions/?p=POSITION``: the position's ``positionValue``
  (``win``, ``lose``, ``tie``, ``draw``), ``remoteness`` (-200 for a draw, -100 when not
  known) and ``moves`` sorted best first, each with ``moveValue`` (what the mover gets),
  ``deltaRemoteness`` (how much slower than the best move of the same value; 0 for ties and
  draws) and the child's ``position``, ``positionValue`` and ``remoteness``; a scored game
  adds ``winby`` (the margin for the player to move).

Positions are written as Python literals (``repr``: an int code, a tuple) and read back with
:func:`ast.literal_eval`, never executed. Field names and codes follow the UWAPI README
(github.com/GamesCrafters/GamesCraftersUWAPI, "Routes"). Each position costs one look-up and
one per move.
"""

from __future__ import annotations

import ast
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..engine.protocol import Game, capabilities
from ..engine.solution import Solved
from ..errors import InputError

#: UWAPI's remoteness codes: a draw (infinite) and a finite remoteness not known.
DRAW_REMOTENESS = -200
UNKNOWN_REMOTENESS = -100
#: The longest position string read (a literal longer than this is refused, 422).
MAX_POSITION = 10_000
VARIANT = "standard"
_RANK = {"win": 3, "tie": 2, "draw": 1, "lose": 0}


def value_word(value: Any, scored: bool) -> str:
    """A value as UWAPI writes it: ``win``, ``lose``, ``tie`` or ``draw`` (a margin by its
    sign).

    >>> from perfectplay.engine import Value
    >>> value_word(Value.DRAW, False), value_word(-3, True), value_word(0, True)
    ('draw', 'lose', 'tie')
    """
    if scored:
        return "win" if value > 0 else "lose" if value < 0 else "tie"
    return str(value.value)


def remoteness_code(word: str, rem: int | None) -> int:
    """The remoteness UWAPI sends: -200 for a draw, -100 for an unknown one."""
    if word == "draw":
        return DRAW_REMOTENESS
    return UNKNOWN_REMOTENESS if rem is None else int(rem)


def position_string(pos: Any) -> str:
    """A position as text: its Python literal."""
    return repr(pos)


def parse_position(text: str) -> Any:
    """The position a ``p=`` parameter names (a Python literal), or an :class:`InputError`."""
    if len(text) > MAX_POSITION:
        raise InputError(f"the position is {len(text):,} characters; the limit is "
                         f"{MAX_POSITION:,}")
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise InputError(f"{text[:80]!r} is not a position: write it as a Python literal "
                         "(an int code, a tuple ...)") from None


def _move_name(game: Game[Any, Any], move: Any) -> str:
    name = capabilities(game).move_name
    return str(name(move)) if name is not None else str(move)


def _entry(solved: Solved, pos: Any) -> dict[str, Any]:
    """The fields UWAPI gives a position (and a child): string, value, remoteness."""
    value, rem = solved.value(pos), solved.remoteness(pos)
    word = value_word(value, solved.scored)
    out: dict[str, Any] = {"position": position_string(pos),
                           "autoguiPosition": position_string(pos),
                           "positionValue": word, "remoteness": remoteness_code(word, rem)}
    if solved.scored:
        out["winby"] = value
    return out


def position_response(solved: Solved, pos: Any) -> dict[str, Any]:
    """The UWAPI answer for one position (see the module doc); raises the store's
    ``UnknownPosition`` (a KeyError) for a position it does not hold.

    >>> from perfectplay.engine import solve
    >>> class Take:  # take 1 or 2 from a heap; who cannot move loses
    ...     def initial(self): return 4
    ...     def moves(self, n): return [k for k in (1, 2) if k <= n]
    ...     def play(self, n, k): return n - k
    ...     def outcome(self, n): return None
    >>> r = position_response(solve(Take()), 4)
    >>> r["positionValue"], r["remoteness"], [(m["move"], m["moveValue"]) for m in r["moves"]]
    ('win', 3, [('1', 'win'), ('2', 'lose')])
    """
    game = solved.game
    out = _entry(solved, pos)
    moves = []
    for mv in solved.move_values(pos):  # best first, as the engine orders them
        word = value_word(mv.value, solved.scored)
        child = game.play(pos, mv.move)
        moves.append({**_entry(solved, child), "move": _move_name(game, mv.move),
                      "autoguiMove": _move_name(game, mv.move), "moveValue": word,
                      "moveRemoteness": remoteness_code(word, mv.remoteness)})
    _sort_and_delta(moves)
    for m in moves:
        del m["moveRemoteness"]
    out["moves"] = moves
    return out


def _sort_and_delta(moves: list[dict[str, Any]]) -> None:
    """Best first by value (already so, kept stable), and each move's ``deltaRemoteness``:
    how far its remoteness is from the best move of its value (0 for ties and draws)."""
    moves.sort(key=lambda m: -_RANK[m["moveValue"]])
    best: dict[str, int] = {}
    for m in moves:
        word, r = m["moveValue"], m["moveRemoteness"]
        best.setdefault(word, r)
        m["deltaRemoteness"] = 0 if word in ("tie", "draw") or r < 0 or best[word] < 0 \
            else abs(r - best[word])


def routes(solved: Solved, game_id: str, name: str) -> list[Route]:
    """The ``/gamesman`` routes over ``solved`` (see the module doc)."""

    def ok(data: Any) -> Response:
        return JSONResponse(data)

    def missing(what: str) -> Response:
        return JSONResponse({"error": what}, status_code=404)

    async def games(_request: Request) -> Response:
        return ok([{"id": game_id, "name": name, "type": "twoPlayer", "gui": "v0"}])

    async def game(request: Request) -> Response:
        if request.path_params["game"] != game_id:
            return missing(f"no game {request.path_params['game']!r}; this server has "
                           f"{game_id!r}")
        return ok({"id": game_id, "name": name, "allowCustomVariantCreation": False,
                   "supportsWinBy": solved.scored,
                   "variants": [{"id": VARIANT, "name": "Standard", "gui": "v0"}]})

    def _check(request: Request) -> Response | None:
        if request.path_params["game"] != game_id:
            return missing(f"no game {request.path_params['game']!r}")
        if request.path_params["variant"] != VARIANT:
            return missing(f"no variant {request.path_params['variant']!r}; the only one "
                           f"is {VARIANT!r}")
        return None

    async def variant(request: Request) -> Response:
        bad = _check(request)
        if bad is not None:
            return bad
        start = position_string(solved.start)
        return ok({"id": VARIANT, "name": "Standard", "gui": "v0", "startPosition": start,
                   "autoguiStartPosition": start})

    async def position(request: Request) -> Response:
        bad = _check(request)
        if bad is not None:
            return bad
        text = request.query_params.get("p")
        try:
            pos = solved.start if text is None else parse_position(text)
            return ok(position_response(solved, pos))
        except InputError as exc:
            return JSONResponse({"error": str(exc)}, status_code=422)
        except (KeyError, TypeError):
            return missing(f"the position {text!r} is not one this game reaches")

    return [Route("/gamesman/", games), Route("/gamesman/{game}/", game),
            Route("/gamesman/{game}/{variant}/", variant),
            Route("/gamesman/{game}/{variant}/positions/", position)]
