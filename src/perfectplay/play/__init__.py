"""Play against the perfect strategy, in the terminal: one loop for every game.

A :class:`Table` says how one game looks and is typed (the engine game, an oracle that knows
every position's value, how to draw a position and name a move, and who moves). Each game
package builds its own (its :class:`~perfectplay.registry.GameSpec`'s ``play``);
:func:`user_table` builds one for a game you wrote, :func:`live_table` one for a game too
big to solve (an opening book, a store, live search). The :class:`Session` runs the game: it
shows each position with every legal move's value and remoteness (GamesCrafters style: "win
in 3", "lose in 5", "draw"), lets the human move, ask for a hint, undo or restart, answers
with the computer's move (perfect, or random with a chosen chance), and after the game
prints the value history, where every mistake shows as a drop in the mover's value at the
move that made it.

The oracle is anything with ``value(pos)``, ``remoteness(pos)`` and ``move_values(pos)``:
an engine :class:`~perfectplay.engine.Solution`, or
:class:`~perfectplay.portal.oracle.PortalOracle`, which answers from the parity rule on
boards too big for exhaustive search.

The parts: :mod:`.state` (the game state and the computer's policy, no input or output),
:mod:`.terminal` (the loop), :mod:`.tables` (a user's game).
"""

import sys
import warnings
from typing import Any

from .. import registry
from .state import GameState, Oracle, Ply, Policy, Table, rank
from .tables import live_table, user_table
from .terminal import Session

#: Names that moved into the game packages: old name -> (game, its name there). Kept for
#: one release (removed in 0.2.0, see CHANGELOG.md), each with a DeprecationWarning.
_MOVED = {
    "coins_table": ("coins", "play_table"),
    "COINS_PLAY_LIMIT": ("coins", "PLAY_LIMIT"),
    "rock_table": ("rock", "play_table"),
    "ROCK_PLAY_LIMIT": ("rock", "PLAY_LIMIT"),
    "portal_table": ("portal", "play_table"),
    "PORTAL_EXACT_CELLS": ("portal", "PLAY_EXACT_CELLS"),
    "PortalOracle": ("portal", "PortalOracle"),
}


def __getattr__(name: str) -> Any:
    """The old names of the game tables (deprecated: a :class:`DeprecationWarning` names the
    new place). Play sits below the games and imports none: the registry loads the game
    (:func:`~perfectplay.registry.get`), and the old name is read off its package."""
    if name in _MOVED:
        game, attr = _MOVED[name]
        warnings.warn(f"perfectplay.play.{name} is deprecated (removed in 0.2.0): use "
                      f"perfectplay.{game}.{attr}", DeprecationWarning, stacklevel=2)
        spec = registry.get(game)  # imports the game's package, as the registry does
        return getattr(sys.modules[f"perfectplay.{spec.name}"], attr)
    raise AttributeError(f"module 'perfectplay.play' has no attribute {name!r}")


__all__ = ["GameState", "Oracle", "Ply", "Policy", "Session", "Table", "live_table", "rank",
           "user_table"]
