"""A game being played, with no input or output: the position, the history, what each move
did to the mover's value, undo and restart; and the computer's policy. The terminal loop
(:mod:`.terminal`) and any other front end drive these.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import MoveValue, Value, describe
from ..engine.protocol import Game
from ..engine.solved.solution import Solved, winlose_key
from ..errors import InputError

#: Anything that knows every position's value: the engine's read interface, answered by a
#: Solution, a store (:class:`~perfectplay.store.Store`) and
#: :class:`~perfectplay.portal.oracle.PortalOracle`.
Oracle = Solved


@dataclass
class Table:
    """Everything a front end needs to know about one game: the rules, the oracle, how a
    position is drawn and a move named, who moves, and how values read."""

    title: str
    game: Game[Any, Any]  # the rules (an engine game)
    oracle: Oracle
    render: Callable[[Any, list[Any]], str]  # (position, history) -> the board
    move_name: Callable[[Any, Any], str]
    player_names: tuple[str, str]
    player_of: Callable[[Any, int], int]  # (position, plies played) -> 0 or 1
    describe: Callable[[Any, int | None, int], str] = field(
        default=lambda v, r, _who: describe(v, r))
    final: Callable[[list[Any]], str] | None = None  # scored games: points per player
    #: (position, typed text) -> a move, or None: a game's own way to read a move
    parse_move: Callable[[Any, str], Any] | None = None
    #: (position, typed text) -> why that is not a move here, or None for the default
    refuse: Callable[[Any, str], str | None] | None = None
    #: (position, move) -> how the computer's move is announced, or None for "plays X"
    announce: Callable[[Any, Any], str | None] | None = None
    #: What the screen's words and values mean, printed once at the start
    legend: str = ""


def rank(value: Any) -> float:
    """A number that orders values for the mover, higher better, as the engine orders
    them: win > tie > draw > lose (a tie is a result, a draw never ends), or the margin."""
    if isinstance(value, Value):
        return float(winlose_key(value, 0)[0])
    return float(value)


@dataclass
class Ply:
    """One move of the game, with what it did to the mover's value."""

    mover: int
    move: Any
    name: str
    before: str  # the mover's value before the move
    after: str  # the value the move gave the mover
    mistake: bool


class GameState:
    """The position and the history of one game; every method is pure bookkeeping.
    ``opening``: moves by name played from the start first (``play --moves``), as part of
    the history; a restart plays them again."""

    def __init__(self, table: Table, humans: set[int], opening: Sequence[str] = ()) -> None:
        self.table = table
        self.humans = humans
        self.opening = list(opening)
        self.restart()

    def restart(self) -> None:
        self.pos = self.table.game.initial()
        self.history: list[tuple[Any, Ply]] = []  # (position before, ply)
        for k, name in enumerate(self.opening, 1):
            move = None if self.over() else self.find_move(name, numbers=False)
            if move is None:
                legal = [self.table.move_name(self.pos, mv.move) for mv in self.moves()]
                raise InputError(f"move {k} of the opening ({name[:40]!r}) is not legal "
                                 f"there; legal: {', '.join(legal) or 'none (the game is over)'}")
            self.play(move)

    @property
    def mover(self) -> int:
        return self.table.player_of(self.pos, len(self.history))

    def moves(self) -> list[MoveValue]:
        """The legal moves, best first, with their values."""
        return self.table.oracle.move_values(self.pos)

    def over(self) -> bool:
        return not self.moves()

    def value_text(self, pos: Any | None = None, who: int | None = None) -> str:
        pos = self.pos if pos is None else pos
        who = self.mover if who is None else who
        o = self.table.oracle
        return self.table.describe(o.value(pos), o.remoteness(pos), who)

    def play(self, move: Any) -> Ply:
        """Play ``move`` (one of :meth:`moves`); a mistake is a move that lowers the
        mover's value."""
        t = self.table
        who = self.mover
        moves = self.moves()
        chosen = next((mv for mv in moves if mv.move == move), None)
        if chosen is None:
            raise InputError(f"{t.move_name(self.pos, move)} is not a legal move here")
        best = max(rank(mv.value) for mv in moves)
        ply = Ply(who, move, t.move_name(self.pos, move), self.value_text(self.pos, who),
                  t.describe(chosen.value, chosen.remoteness, who), rank(chosen.value) < best)
        self.history.append((self.pos, ply))
        self.pos = t.game.play(self.pos, move)
        return ply

    def undo(self) -> int:
        """Take back moves until it is a human's turn again (at least one move); returns
        how many were taken back (0: nothing to undo)."""
        if not self.history:
            return 0
        self.pos = self.history.pop()[0]
        taken = 1
        while self.history and self.mover not in self.humans:
            self.pos = self.history.pop()[0]
            taken += 1
        return taken

    def find_move(self, text: str, numbers: bool = True) -> Any | None:
        """A typed move: the game's own reading (``parse_move``), its name as the list shows
        it, then its number in the list (so a move named "4" is that move, not the fourth in
        the list), and only then the move itself as text (so "1" is the first in the list,
        never a move whose internal code is 1). ``numbers`` False: the game's reading and
        names only, no list numbers or raw moves (an opening's moves)."""
        moves = self.moves()
        text = text.strip()
        legal = {repr(mv.move): mv.move for mv in moves}
        if self.table.parse_move is not None:
            try:
                move = self.table.parse_move(self.pos, text)
            except Exception:  # noqa: BLE001 - a game's parser refusing the text
                move = None
            if move is not None and repr(move) in legal:
                return legal[repr(move)]
        for mv in moves:
            if text.lower() == self.table.move_name(self.pos, mv.move).lower():
                return mv.move
        if not numbers:
            return None
        if text.isascii() and text.isdigit() and 1 <= int(text) <= len(moves):
            return moves[int(text) - 1].move
        for mv in moves:  # the move itself (coins' "L" for "L(5)"), after the list's numbers:
            if text.lower() == str(mv.move).lower():  # Kalah's house b is 1, not item 1
                return mv.move
        return None

    def verdict(self) -> str:
        """Who won (win/lose games) or the points (scored games)."""
        t = self.table
        if not self.history:
            return "The game is over before it started."
        if t.final is not None:
            return "Game over: " + t.final(list(self.history))
        who = self.mover  # the player to move at the end
        v = t.oracle.value(self.pos)
        names = t.player_names
        if v is Value.WIN:
            return f"Game over: {names[who]} wins."
        if v is Value.LOSE:
            return f"Game over: {names[1 - who]} wins."
        return "Game over: a tie." if v is Value.TIE else "Game over: a draw."

    def value_history(self) -> str:
        """Every move with the mover's value before it and the value it kept; a mistake is
        marked where the value dropped."""
        lines = ["Value history (each move: the mover's value before -> what the move kept):"]
        for k, (_, ply) in enumerate(self.history, 1):
            mark = "   <- mistake" if ply.mistake else ""
            lines.append(f"  {k:>3}. {self.table.player_names[ply.mover]:<8} "
                         f"{ply.name:<8} {ply.before:>18} -> {ply.after}{mark}")
        return "\n".join(lines)


class Policy:
    """The computer's choice: the perfect move with chance ``strength``, else a random
    legal one (seeded, so a game can be replayed)."""

    def __init__(self, strength: float = 1.0, seed: int | None = None) -> None:
        if not 0.0 <= strength <= 1.0:
            raise InputError(f"strength must be between 0 and 1, got {strength}")
        self.strength = strength
        self.rng = random.Random(seed)

    def choose(self, moves: list[MoveValue]) -> Any:
        if self.rng.random() < self.strength:
            return moves[0].move  # best first; a losing side's best delays the loss
        return self.rng.choice(moves).move

    @staticmethod
    def hint(moves: list[MoveValue]) -> MoveValue:
        return moves[0]
