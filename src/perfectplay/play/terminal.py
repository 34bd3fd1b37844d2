"""The terminal loop: show the position and every move's value, read what the person types,
answer with the computer's move, and after the game show the value history. All game logic
is in :mod:`.state`; this module only reads and writes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .state import GameState, Policy, Table


class Session:
    """A game at the terminal. ``humans`` is the set of players (0, 1) typed by a person;
    ``strength`` is the chance the computer plays the perfect move (else a random one)."""

    HELP = ("type a move (its number or its name), h = hint, u = undo, r = restart, "
            "q = quit, ? = this help (a move's name wins over a letter: 'restart' always "
            "restarts)")

    def __init__(self, table: Table, humans: set[int], strength: float = 1.0,
                 seed: int | None = None, write: Callable[[str], None] = print,
                 read: Callable[[str], str] = input) -> None:
        self.policy = Policy(strength, seed)
        self.state = GameState(table, humans)
        self.table = table
        self.write = write
        self.read = read

    # the state's facts, for callers of the old interface
    @property
    def pos(self) -> Any:
        return self.state.pos

    @property
    def history(self) -> list[Any]:
        return self.state.history

    def show(self) -> None:
        t, st = self.table, self.state
        self.write("")
        self.write(t.render(st.pos))
        who = st.mover
        self.write(f"{t.player_names[who]} to move: {st.value_text()}")
        for k, mv in enumerate(st.moves(), 1):
            self.write(f"  {k:>2}. {t.move_name(st.pos, mv.move):<8} "
                       f"{t.describe(mv.value, mv.remoteness, who)}")

    def run(self) -> None:
        t, st = self.table, self.state
        self.write(f"{t.title}. {self.HELP}")
        while True:
            if st.over():
                self.show()
                self.write(st.verdict())
                self.write(st.value_history())
                return
            if st.mover not in st.humans:
                move = self.policy.choose(st.moves())
                self.write(f"{t.player_names[st.mover]} (computer) plays "
                           f"{t.move_name(st.pos, move)}")
                st.play(move)
                continue
            self.show()
            try:
                text = self.read(f"{t.player_names[st.mover]}> ")
            except EOFError:
                self.write("")
                return
            move = st.find_move(text)  # a move's name wins over a one-letter command
            if move is not None:
                st.play(move)
                continue
            if not self.command(text.strip().lower(), text):
                return

    def command(self, cmd: str, text: str) -> bool:
        """Carry out a typed command; False when the person quits."""
        t, st = self.table, self.state
        if cmd in ("q", "quit", "exit"):
            return False
        if cmd in ("?", "help"):
            self.write(self.HELP)
        elif cmd in ("h", "hint"):
            best = self.policy.hint(st.moves())
            self.write(f"hint: {t.move_name(st.pos, best.move)} "
                       f"({t.describe(best.value, best.remoteness, st.mover)})")
        elif cmd in ("u", "undo"):
            if not st.undo():
                self.write("nothing to undo")
        elif cmd in ("r", "restart"):
            st.restart()
        else:
            self.write(f"not a move here: {text.strip()!r} ({self.HELP})")
        return True
