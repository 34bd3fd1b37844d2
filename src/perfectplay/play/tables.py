"""A user's game in play: its :class:`~.state.Table`, with the game's optional ``draw(pos)``,
``move_name(move)`` and ``parse_move(text)`` hooks, solved whole, or answered live (an
opening book or a store where it holds the position, search elsewhere: standard Connect
Four, Kalah(6, 4)). (The bundled games build their own tables in their packages'
``playtable`` modules.)"""

from __future__ import annotations

from typing import Any

from ..engine import solve
from ..engine.proof.limits import Limits
from ..engine.proof.live import LiveOracle, StoreLike
from ..engine.protocol import Game, capabilities
from ..errors import show
from .state import Oracle, Table


def live_table(game: Game[Any, Any], title: str, book: StoreLike | None = None,
               endgame: StoreLike | None = None, limits: Limits | None = None) -> Table:
    """How a game too big to solve looks in play: every move's value and remoteness from
    ``book`` (a store: an opening book, or a whole solved store) where it holds the child,
    from ``endgame`` likewise, else proven by live search
    (:class:`~perfectplay.engine.proof.live.LiveOracle`, with ``limits``: its table and
    threads)."""
    oracle = LiveOracle(game, book=book, endgame=endgame, limits=limits)
    table = user_table(game, title, oracle)
    table.legend = ("values come from the book (or store) where it holds them; the rest are "
                    "proven by search as you play (a position far from the book can take a "
                    "while)" if book is not None else
                    "no opening book: every value is proven by search as you play (near "
                    "the start of a big game that can take minutes; perfectplay book "
                    "builds one)")
    return table


def user_table(game: Game[Any, Any], title: str, oracle: Oracle | None = None) -> Table:
    """How a game written in Python looks in play, solved whole by the engine (or answered
    by ``oracle``)."""
    sol = solve(game) if oracle is None else oracle
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
