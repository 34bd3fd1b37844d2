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

from .state import GameState, Oracle, Ply, Policy, Table, rank
from .tables import live_table, user_table
from .terminal import Session

__all__ = ["GameState", "Oracle", "Ply", "Policy", "Session", "Table", "live_table", "rank",
           "user_table"]
