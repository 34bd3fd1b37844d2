"""A user's game in play: its :class:`~.state.Table`, with the game's optional ``draw(pos)``,
``move_name(move)`` and ``parse_move(text)`` hooks. (The bundled games build their own
tables in their packages' ``playtable`` modules.)"""

from __future__ import annotations

from typing import Any

from ..engine import solve
from ..engine.protocol import Game, capabilities
from ..errors import show
from .state import Table


def user_table(game: Game[Any, Any], title: str) -> Table:
    """How a game written in Python looks in play, solved whole by the engine."""
    sol = solve(game)
    # optional hooks (read once): who moves, a picture, a move's name, reading a typed move
    caps = capabilities(game)
    player, name, parse = caps.player, caps.move_name, caps.parse_move
    picture = caps.draw or show
    return Table(title, game, sol, lambda pos, _history: str(picture(pos)),
                 (lambda pos, m: str(name(m))) if name is not None else (lambda pos, m: str(m)),
                 ("player 1", "player 2"),
                 (lambda pos, plies: player(pos)) if player is not None
                 else (lambda pos, plies: plies % 2),
                 parse_move=(lambda pos, text: parse(text)) if parse is not None else None)
