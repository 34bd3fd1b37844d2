"""The terminal loop: show the position and every move's value, read what the person types,
answer with the computer's move, and after the game show the value history. All game logic
is in :mod:`.state`; this module only reads and writes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .state import GameState, Policy, Table


class Session:
    """A game at the terminal. ``humans`` is the set of players (0, 1) typed by a person;
    ``strength`` is the chance the computer plays the perfect move (else a random one);
    ``opening``: moves by name played first (see :class:`~.state.GameState`)."""

    HELP = ("type a move by its name or its number in the list; commands start with '/' so "
            "they never clash with a move: /h hint, /u undo, /r restart, /q quit, /? help")
    COMMANDS = {"/h": "hint", "/hint": "hint", "/u": "undo", "/undo": "undo",
                "/r": "restart", "/restart": "restart", "/q": "quit", "/quit": "quit",
                "/?": "help", "/help": "help", "?": "help"}

    AT_END = ("the game is over: /u takes back your last move, /r plays again, /q (or "
              "Enter) quits")

    def __init__(self, table: Table, humans: set[int], strength: float = 1.0,
                 seed: int | None = None, write: Callable[[str], None] = print,
                 read: Callable[[str], str] = input, linger: bool = True,
                 opening: Sequence[str] = ()) -> None:
        #: ``linger``: at the end of the game, wait for /u (take back a final blunder), /r
        #: or /q instead of returning at once (when a person plays)
        self.linger = linger
        self.policy = Policy(strength, seed)
        self.state = GameState(table, humans, opening)
        self.table = table
        self.write = write
        self.read = read

    def show(self) -> None:
        t, st = self.table, self.state
        self.write("")
        self.write(t.render(st.pos, st.history))
        if st.over():  # the verdict follows; no "to move" line, no empty move list
            return
        who = st.mover
        self.write(f"{t.player_names[who]} to move: {st.value_text()}")
        for k, mv in enumerate(st.moves(), 1):
            self.write(f"  {k:>2}. {t.move_name(st.pos, mv.move):<8} "
                       f"{t.describe(mv.value, mv.remoteness, who)}")

    def run(self) -> None:
        t, st = self.table, self.state
        self.write(f"{t.title}. {self.HELP}")
        if t.legend:
            self.write(t.legend)
        while True:
            if st.over():
                self.show()
                self.write(st.verdict())
                self.write(st.value_history())
                if not (self.linger and st.humans and self.after_the_end()):
                    return
                continue
            if st.mover not in st.humans:
                move = self.policy.choose(st.moves())
                said = t.announce(st.pos, move) if t.announce is not None else None
                self.write(said or f"{t.player_names[st.mover]} (computer) plays "
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

    def after_the_end(self) -> bool:
        """At the end of the game: True when the person took a move back (/u) or started
        again (/r), False when they quit (/q, Enter, end of input)."""
        self.write(self.AT_END)
        while True:
            try:
                text = self.read("game over> ")
            except EOFError:
                self.write("")
                return False
            typed = text.strip().lower()
            cmd = self.COMMANDS.get(typed)
            if not typed or cmd == "quit":
                return False
            if cmd in ("undo", "restart"):
                self.command(typed, text)
                return True
            self.write(self.AT_END)

    def command(self, typed: str, text: str) -> bool:
        """Carry out a typed command; False when the person quits."""
        t, st = self.table, self.state
        cmd = self.COMMANDS.get(typed)
        if cmd == "quit":
            return False
        if cmd == "help":
            self.write(self.HELP)
        elif cmd == "hint":
            best = self.policy.hint(st.moves())
            self.write(f"hint: {t.move_name(st.pos, best.move)} "
                       f"({t.describe(best.value, best.remoteness, st.mover)})")
        elif cmd == "undo":
            taken = st.undo()
            self.write("nothing to undo" if not taken else
                       f"took back {taken} move{'s' * (taken > 1)}: "
                       f"{t.player_names[st.mover]} to move again")
        elif cmd == "restart":
            st.restart()
        else:
            why = t.refuse(st.pos, text.strip()) if t.refuse is not None else None
            self.write(why or f"not a move here: {text.strip()!r} (a move's name or number; "
                       "/? for help)")
        return True
