"""A user's game in play: its :class:`~.state.Table`, with the game's optional ``draw(pos)``,
``move_name(move)`` and ``parse_move(text)`` hooks. (The bundled games build their own
tables in their packages' ``playtable`` modules.)"""

from __future__ import annotations

from typing import Any

from ..engine import solve
from ..errors import show
from .state import Table


def user_table(game: Any, title: str) -> Table:
    """How a game written in Python looks in play, solved whole by the engine."""
    sol = solve(game)
    has_player = callable(getattr(game, "player", None))
    # optional hooks: a picture, a move's name, reading a typed move
    draw = getattr(game, "draw", None)
    name = getattr(game, "move_name", None)
    parse = getattr(game, "parse_move", None)
    picture = draw if callable(draw) else show
    return Table(title, game, sol, lambda pos, _history: str(picture(pos)),
                 (lambda pos, m: str(name(m))) if callable(name) else (lambda pos, m: str(m)),
                 ("player 1", "player 2"),
                 (lambda pos, plies: game.player(pos)) if has_player
                 else (lambda pos, plies: plies % 2),
                 parse_move=(lambda pos, text: parse(text)) if callable(parse) else None)
