"""Play against the perfect strategy, in the terminal: one loop for every game.

A :class:`Table` says how one game looks and is typed (the engine game, an oracle that knows
every position's value, how to draw a position and name a move, and who moves). The
:class:`Session` runs the game: it shows each position with every legal move's value and
remoteness (GamesCrafters style: "win in 3", "lose in 5", "draw"), lets the human move, ask
for a hint, undo or restart, answers with the computer's move (perfect, or random with a
chosen chance), and after the game prints the value history, where every mistake shows as a
drop in the mover's value at the move that made it.

The oracle is anything with ``value(pos)``, ``remoteness(pos)`` and ``move_values(pos)``:
an engine :class:`~perfectplay.engine.Solution`, or :class:`PortalOracle`, which answers from
the parity rule on boards too big for exhaustive search.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .engine import MoveValue, Value, describe
from .errors import InputError, LimitError, show


class Oracle(Protocol):
    def value(self, pos: Any) -> Any: ...

    def remoteness(self, pos: Any) -> int | None: ...

    def move_values(self, pos: Any) -> list[MoveValue]: ...


@dataclass
class Table:
    """Everything the session needs to know about one game."""

    title: str
    game: Any
    oracle: Oracle
    render: Callable[[Any], str]
    move_name: Callable[[Any, Any], str]
    player_names: tuple[str, str]
    player_of: Callable[[Any, int], int]  # (position, plies played) -> 0 or 1
    describe: Callable[[Any, int | None, int], str] = field(
        default=lambda v, r, _who: describe(v, r))
    final: Callable[[list[Any]], str] | None = None  # scored games: points per player


def _rank(value: Any) -> float:
    """A number that orders values for the mover (higher is better)."""
    if isinstance(value, Value):
        return {Value.LOSE: 0, Value.DRAW: 1, Value.TIE: 1, Value.WIN: 2}[value]
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


class Session:
    """A game in progress. ``humans`` is the set of players (0, 1) typed by a person;
    ``strength`` is the chance the computer plays the perfect move (else a random one)."""

    def __init__(self, table: Table, humans: set[int], strength: float = 1.0,
                 seed: int | None = None, write: Callable[[str], None] = print,
                 read: Callable[[str], str] = input) -> None:
        if not 0.0 <= strength <= 1.0:
            raise InputError(f"strength must be between 0 and 1, got {strength}")
        self.table = table
        self.humans = humans
        self.strength = strength
        self.rng = random.Random(seed)
        self.write = write
        self.read = read
        self.restart()

    def restart(self) -> None:
        self.pos = self.table.game.initial()
        self.history: list[tuple[Any, Ply]] = []  # (position before, ply)

    # -- facts about the current position ------------------------------------------------
    @property
    def mover(self) -> int:
        return self.table.player_of(self.pos, len(self.history))

    def over(self) -> bool:
        return not self.table.oracle.move_values(self.pos)

    def value_text(self, pos: Any, who: int) -> str:
        o = self.table.oracle
        return self.table.describe(o.value(pos), o.remoteness(pos), who)

    def show(self) -> None:
        t = self.table
        self.write("")
        self.write(t.render(self.pos))
        who = self.mover
        self.write(f"{t.player_names[who]} to move: {self.value_text(self.pos, who)}")
        for k, mv in enumerate(t.oracle.move_values(self.pos), 1):
            self.write(f"  {k:>2}. {t.move_name(self.pos, mv.move):<8} "
                       f"{t.describe(mv.value, mv.remoteness, who)}")

    # -- moving ---------------------------------------------------------------------------
    def play(self, move: Any) -> None:
        t = self.table
        who = self.mover
        moves = t.oracle.move_values(self.pos)
        chosen = next(mv for mv in moves if mv.move == move)
        best = max(_rank(mv.value) for mv in moves)
        ply = Ply(who, move, t.move_name(self.pos, move), self.value_text(self.pos, who),
                  t.describe(chosen.value, chosen.remoteness, who),
                  _rank(chosen.value) < best)
        self.history.append((self.pos, ply))
        self.pos = t.game.play(self.pos, move)

    def computer_move(self) -> Any:
        moves = self.table.oracle.move_values(self.pos)
        if self.rng.random() < self.strength:
            return moves[0].move  # best first; a losing side's best delays the loss
        return self.rng.choice(moves).move

    def undo(self) -> bool:
        """Take back moves until it is a human's turn again (at least one move)."""
        if not self.history:
            return False
        self.pos = self.history.pop()[0]
        while self.history and self.mover not in self.humans:
            self.pos = self.history.pop()[0]
        return True

    def parse(self, text: str) -> Any | None:
        """A typed move: its number in the list, or its name as the list shows it."""
        moves = self.table.oracle.move_values(self.pos)
        text = text.strip()
        if text.isdigit() and 1 <= int(text) <= len(moves):
            return moves[int(text) - 1].move
        for mv in moves:
            if text.lower() in (self.table.move_name(self.pos, mv.move).lower(),
                                str(mv.move).lower()):
                return mv.move
        return None

    # -- the loop -------------------------------------------------------------------------
    HELP = ("type a move (its number or its name), h = hint, u = undo, r = restart, "
            "q = quit, ? = this help (a move's name wins over a letter: 'restart' always "
            "restarts)")

    def run(self) -> None:
        t = self.table
        self.write(f"{t.title}. {self.HELP}")
        while True:
            if self.over():
                self.show()
                self.write(self.verdict())
                self.write(self.value_history())
                return
            if self.mover not in self.humans:
                move = self.computer_move()
                self.write(f"{t.player_names[self.mover]} (computer) plays "
                           f"{t.move_name(self.pos, move)}")
                self.play(move)
                continue
            self.show()
            try:
                text = self.read(f"{t.player_names[self.mover]}> ")
            except EOFError:
                self.write("")
                return
            move = self.parse(text)  # a move's name wins over a one-letter command
            if move is not None:
                self.play(move)
                continue
            cmd = text.strip().lower()
            if cmd in ("q", "quit", "exit"):
                return
            if cmd in ("?", "help"):
                self.write(self.HELP)
            elif cmd in ("h", "hint"):
                best = t.oracle.move_values(self.pos)[0]
                self.write(f"hint: {t.move_name(self.pos, best.move)} "
                           f"({t.describe(best.value, best.remoteness, self.mover)})")
            elif cmd in ("u", "undo"):
                if not self.undo():
                    self.write("nothing to undo")
            elif cmd in ("r", "restart"):
                self.restart()
            else:
                self.write(f"not a move here: {text.strip()!r} ({self.HELP})")

    def verdict(self) -> str:
        """Who won (win/lose games) or the points (scored games)."""
        t = self.table
        if not self.history:
            return "The game is over before it started."
        if t.final is not None:
            return "Game over. " + t.final([(pos, ply) for pos, ply in self.history])
        who = self.mover  # the player to move at the end
        v = t.oracle.value(self.pos)
        names = t.player_names
        if v is Value.WIN:
            return f"Game over: {names[who]} wins."
        if v is Value.LOSE:
            return f"Game over: {names[1 - who]} wins."
        return "Game over: a tie."

    def value_history(self) -> str:
        """Every move with the mover's value before it and the value it kept; a mistake is
        marked where the value dropped."""
        lines = ["Value history (each move: the mover's value before -> what the move kept):"]
        for k, (_, ply) in enumerate(self.history, 1):
            mark = "   <- mistake" if ply.mistake else ""
            lines.append(f"  {k:>3}. {self.table.player_names[ply.mover]:<8} "
                         f"{ply.name:<8} {ply.before:>18} -> {ply.after}{mark}")
        return "\n".join(lines)


# -- tables for the bundled games ---------------------------------------------------------------
COINS_PLAY_LIMIT = 400
ROCK_PLAY_LIMIT = 900  # walkable cells: the engine solves (cells x blocked cells) positions


def coins_table(row: list[int]) -> Table:
    from . import coins as c
    from .engine import solve

    if len(row) > COINS_PLAY_LIMIT:
        raise LimitError(f"play is for rows of at most {COINS_PLAY_LIMIT} coins (the engine "
                         f"keeps every position); got {len(row)}")
    game = c.CoinsGame(row)

    def render(pos: tuple[int, int]) -> str:
        i, j = pos
        left = " ".join(str(x) for x in row[:i])
        mid = " ".join(f"[{x}]" for x in row[i:j])
        right = " ".join(str(x) for x in row[j:])
        return f"taken: {left or '-'} | left: {mid or '-'} | taken: {right or '-'}"

    def name(pos: tuple[int, int], move: str) -> str:
        i, j = pos
        return f"{move}({row[i] if move == 'L' else row[j - 1]})"

    def margin(v: Any, r: int | None, _who: int) -> str:
        return f"{v:+d} from here on ({r} coins left)" if r is not None else str(v)

    def totals(history: list[Any]) -> str:
        score = [0, 0]
        for pos, ply in history:
            score[ply.mover] += game.payoff(pos, ply.move)
        return f"first {score[0]}, second {score[1]}."

    return Table("Coins in a line", game, solve(game), render, name,
                 ("first", "second"), lambda pos, plies: plies % 2, margin, totals)


def rock_table(maze: Any) -> Table:
    from .engine import solve
    from .grid import cell_name
    from .rock import RockGame

    if int(maze.open.sum()) > ROCK_PLAY_LIMIT:
        raise LimitError(f"play is for mazes of at most {ROCK_PLAY_LIMIT} walkable cells; "
                         f"got {int(maze.open.sum())}")
    game = RockGame(maze)
    g = maze.grid

    def render(pos: tuple) -> str:
        at = pos[1] if pos[0] != "X" else maze.exit
        blocked = pos[2] if pos[0] == "W" else -1
        lines = []
        if g.cols <= 26:
            lines.append("   " + "".join(chr(97 + c) for c in range(g.cols)))
        for r, line in enumerate(g.lines()):
            cells = []
            for c, ch in enumerate(line):
                i = g.index(r, c)
                cells.append("W" if i == at else "R" if i == blocked else ch)
            lines.append(f"{r + 1:>2} " + "".join(cells))
        return "\n".join(lines)

    def name(pos: tuple, move: Any) -> str:
        if move in ("pass", "wait"):
            return move
        return cell_name(*g.coords(move))

    def steps(v: Any, r: int | None, who: int) -> str:
        if isinstance(v, float) and math.isinf(v):
            return "the walker never arrives"
        k = -v if who == 0 else v
        return f"the walker needs {k} more steps"

    def arrived(history: list[Any]) -> str:
        walked = sum(1 for _, ply in history if ply.mover == 0)
        return f"The walker reached the exit after {walked} steps."

    sol = solve(game)
    return Table("The Rock", game, sol, render, name, ("walker", "rock"),
                 lambda pos, plies: game.player(pos), steps, arrived)


class PortalOracle:
    """Values of Closing the Portal from the fast rule, for boards too big for exhaustive
    search (bipartite boards only): the mover wins exactly when the number of safe moves
    left is odd. That number depends on which final path survives, which both sides steer,
    so the exact remoteness is known only for a cut move (a loss in 1); other remoteness is
    reported as unknown (None) rather than guessed. A position is the set of walled cells,
    as in :class:`~perfectplay.portal.PortalGame`."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def _turns(self, walls: int) -> int | None:
        from .portal import solve

        board = self.game.board.with_walls([c for k, c in enumerate(self.game.cells)
                                            if walls >> k & 1])
        res = solve(board)
        return res.turns if res.connected else None

    def value(self, walls: int) -> Value:
        out = self.game.outcome(walls)
        if out is not None:
            return out
        return Value.WIN if self._turns(walls) % 2 else Value.LOSE  # type: ignore[operator]

    def remoteness(self, walls: int) -> int | None:
        return 0 if self.game.outcome(walls) is not None else None

    def move_values(self, walls: int) -> list[MoveValue]:
        out = []
        for m in self.game.moves(walls):
            child = self.game.play(walls, m)
            ends = self.game.outcome(child) is not None  # a cut: lost at once
            out.append(MoveValue(m, self.value(child).flipped(), 1 if ends else None))
        # wins first; among losses, safe moves (unknown, longer) before cuts (loss in 1)
        out.sort(key=lambda mv: (_rank(mv.value), mv.remoteness is None), reverse=True)
        return out


PORTAL_EXACT_CELLS = 14


def portal_table(board: Any) -> Table:
    from .engine import solve
    from .grid import cell_name
    from .portal import PortalGame
    from .portal.solver import is_bipartite_from

    game = PortalGame(board)
    if game.k <= PORTAL_EXACT_CELLS:
        oracle: Oracle = solve(game)
    elif board.kind == "square" or is_bipartite_from(board.nb, board.open, board.portals[0]):
        oracle = PortalOracle(game)
    else:
        raise LimitError(f"play on a non-bipartite board needs exhaustive search: at most "
                         f"{PORTAL_EXACT_CELLS} empty cells, got {game.k}")
    g = board.grid

    def render(walls: int) -> str:
        if g is None:
            walled = sorted(board.name(c) for k, c in enumerate(game.cells) if walls >> k & 1)
            return f"walled: {walled}"
        new = {g.coords(c): "+" for k, c in enumerate(game.cells) if walls >> k & 1}
        shown = g.with_cells(new).lines()
        head = ["   " + "".join(chr(97 + c) for c in range(g.cols))] if g.cols <= 26 else []
        return "\n".join(head + [f"{r + 1:>2} {line}" for r, line in enumerate(shown)])

    def name(walls: int, move: int) -> str:
        c = game.cells[move]
        return cell_name(*g.coords(c)) if g is not None else str(c)

    return Table("Closing the Portal ('+' = walled in this game)", game, oracle, render,
                 name, ("Alif", "Bella"), lambda pos, plies: plies % 2)


def user_table(game: Any, title: str) -> Table:
    from .engine import solve

    sol = solve(game)
    has_player = callable(getattr(game, "player", None))
    draw = getattr(game, "draw", None)  # optional hooks: a picture, a move's name
    name = getattr(game, "move_name", None)
    return Table(title, game, sol, draw if callable(draw) else show,
                 (lambda pos, m: name(m)) if callable(name) else (lambda pos, m: str(m)),
                 ("player 1", "player 2"),
                 (lambda pos, plies: game.player(pos)) if has_player
                 else (lambda pos, plies: plies % 2))
