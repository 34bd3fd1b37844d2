"""Play against the perfect strategy, in the terminal: one loop for every game.

A :class:`Table` says how one game looks and is typed (the engine game, an oracle that knows
every position's value, how to draw a position and name a move, and who moves). Each game
package builds its own (its :class:`~perfectplay.registry.GameSpec`'s ``play``);
:func:`user_table` builds one for a game you wrote. The :class:`Session` runs the game: it
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

import warnings
from importlib import import_module
from typing import Any

from .state import GameState, Oracle, Ply, Policy, Table, rank
from .tables import user_table
from .terminal import Session

#: Names that moved into the game packages; kept for one release (removed in 0.2.0, see
#: CHANGELOG.md), each with a :class:`DeprecationWarning`.
_MOVED = {
    "coins_table": ("perfectplay.coins", "play_table"),
    "COINS_PLAY_LIMIT": ("perfectplay.coins", "PLAY_LIMIT"),
    "rock_table": ("perfectplay.rock", "play_table"),
    "ROCK_PLAY_LIMIT": ("perfectplay.rock", "PLAY_LIMIT"),
    "portal_table": ("perfectplay.portal", "play_table"),
    "PORTAL_EXACT_CELLS": ("perfectplay.portal", "PLAY_EXACT_CELLS"),
    "PortalOracle": ("perfectplay.portal", "PortalOracle"),
}


def __getattr__(name: str) -> Any:
    """The old names of the game tables, found in their game packages (deprecated: a
    :class:`DeprecationWarning` names the new place). The game package is imported by name
    only when an old name is asked for: play sits below the games and never imports one."""
    if name in _MOVED:
        module, attr = _MOVED[name]
        warnings.warn(f"perfectplay.play.{name} is deprecated (removed in 0.2.0): use "
                      f"{module}.{attr}", DeprecationWarning, stacklevel=2)
        return getattr(import_module(module), attr)
    raise AttributeError(f"module 'perfectplay.play' has no attribute {name!r}")


__all__ = ["GameState", "Oracle", "Ply", "Policy", "Session", "Table", "rank", "user_table"]
