"""The Python door against what its user would write instead (issue 70): a small game written
as a Python class, solved whole by ``perfectplay.solve``, beside a hand-written memoised
negamax over the same rules (written here, from the rules: the ~15 lines a user writes
instead of installing a solver) and beside GamesmanPy's algorithm (GamesCrafters' Python
solver: a memoised depth-first search over a game class with ``start``, ``generate_moves``,
``do_move`` and ``primitive``; written here from that description, not copied). Each is
timed as a whole process, start-up included, in turn (A B C A B C ...); the CPU ratio of each
pair is taken and the median printed. Before timing, every position's value and remoteness
are checked equal (perfectplay's Solution and GamesmanPy's table against the hand solver's).

Games, the same rule functions for all: Nim (3, 5, 7, 9) with heaps kept in place (1,920
positions); a pursuit on a 4x4 torus (a chaser and a runner step in turn, the chaser wins
by stepping onto the runner: cyclic, mostly draws, 496 positions), whose hand solver is a
retrograde pass (a negamax cannot solve a cycle; nor can GamesmanPy's search: no column);
Dots and Boxes on 2x2 boxes (a box completed moves again: the ``player`` hook; the negamax
keeps the turn too; GamesmanPy's interface has no turn: no column); Connect Four 4x4
(161,029 positions), and with ``--big`` Connect Four 4x5 (1,706,255 positions; minutes).
``outcome`` scans every line of the board, as a user's first version does; the ``-after``
rows add the optional ``outcome_after(pos, move, child)``, which looks only at the lines
through the piece just played (perfectplay asks it of each new child instead of
``outcome``; the hand negamax keeps its ``outcome``).

The root value alone (``--root``, Connect Four 4x5): ``perfectplay.search(value_only=True)``
beside easyAI (when installed: ``pip install easyAI``; the row is skipped with a line
otherwise), whose ``solve_with_iterative_deepening`` with a transposition table proves the
start's value over the same rules written for its ``TwoPlayerGame`` (with ``unmake_move``);
the two values are checked equal first.

    python benchmarks/python_door.py [--repeat 5] [--big] [--root] [--games nim,pursuit]
    python benchmarks/python_door.py --run perfectplay|hand|gamesman|search|easyai GAME
"""

from __future__ import annotations

import sys
from functools import cache

WIN, LOSE, TIE, DRAW = "win", "lose", "tie", "draw"  # the hand solvers' words (Value.name)
FLIP = {WIN: LOSE, LOSE: WIN, TIE: TIE}


# -- the rules, written once for both -------------------------------------------------------
class Nim:
    """Normal play: take any number from one heap; who cannot move loses."""

    def __init__(self, heaps: tuple[int, ...] = (3, 5, 7, 9)) -> None:
        self.heaps = heaps

    def initial(self) -> tuple[int, ...]:
        return self.heaps

    def moves(self, h: tuple[int, ...]) -> list[tuple[int, int]]:
        return [(i, k) for i, x in enumerate(h) for k in range(1, x + 1)]

    def play(self, h: tuple[int, ...], m: tuple[int, int]) -> tuple[int, ...]:
        i, k = m
        return h[:i] + (h[i] - k,) + h[i + 1:]

    def outcome(self, h: tuple[int, ...]) -> None:
        return None


class ConnectFour:
    """Columns of pieces bottom up (1 moves first, then 2); four in a row wins, a full board
    is a tie. ``outcome`` looks at every line for the last mover's four, and says LOSE (for
    the player to move) and TIE in the words it is given: the negamax's strings, or
    perfectplay's ``Value`` members."""

    def __init__(self, width: int = 4, height: int = 4, words: tuple = (LOSE, TIE, WIN)) -> None:
        self.width, self.height = width, height
        self.lose, self.tie = words[:2]
        cells = [(c, r) for c in range(width) for r in range(height)]
        steps = [(1, 0), (0, 1), (1, 1), (1, -1)]
        self.lines = [[(c + i * dc, r + i * dr) for i in range(4)] for c, r in cells
                      for dc, dr in steps
                      if 0 <= c + 3 * dc < width and 0 <= r + 3 * dr < height]

    def initial(self) -> tuple[tuple[int, ...], ...]:
        return ((),) * self.width

    def moves(self, cols: tuple[tuple[int, ...], ...]) -> list[int]:
        return [c for c in range(self.width) if len(cols[c]) < self.height]

    def play(self, cols: tuple[tuple[int, ...], ...], c: int) -> tuple[tuple[int, ...], ...]:
        mover = 1 if sum(map(len, cols)) % 2 == 0 else 2
        return cols[:c] + (cols[c] + (mover,),) + cols[c + 1:]

    def outcome(self, cols: tuple[tuple[int, ...], ...]) -> str | None:
        filled = sum(map(len, cols))
        last = 2 if filled % 2 == 0 else 1
        for line in self.lines:
            if all(r < len(cols[c]) and cols[c][r] == last for c, r in line):
                return self.lose
        return self.tie if filled == self.width * self.height else None


class ConnectFourAfter(ConnectFour):
    """:class:`ConnectFour` told the move just played: only the lines through the new piece
    are looked at."""

    def __init__(self, width: int = 4, height: int = 4, words: tuple = (LOSE, TIE, WIN)) -> None:
        super().__init__(width, height, words)
        self.through = {(c, r): [line for line in self.lines if (c, r) in line]
                        for c in range(width) for r in range(height)}

    def outcome_after(self, cols: tuple[tuple[int, ...], ...], c: int,
                      child: tuple[tuple[int, ...], ...]) -> str | None:
        column = child[c]
        mover = column[-1]
        for line in self.through[c, len(column) - 1]:
            if all(r < len(child[x]) and child[x][r] == mover for x, r in line):
                return self.lose
        return self.tie if sum(map(len, child)) == self.width * self.height else None


class Pursuit:
    """A chaser and a runner on a size x size torus, taking turns, the chaser first: each
    stays or steps to one of the four cells beside it (round the edges), the runner never
    onto the chaser; the chaser wins by stepping onto the runner. A runner that keeps away
    forever draws (the game has cycles). Positions: (chaser's cell, runner's cell, 0 when
    the chaser is to move, else 1)."""

    def __init__(self, size: int = 4, words: tuple = (LOSE, TIE, WIN)) -> None:
        self.size, self.lose = size, words[0]
        n = size
        self.near = [[c] + [(c // n + dr) % n * n + (c % n + dc) % n
                            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
                     for c in range(n * n)]

    def initial(self) -> tuple[int, int, int]:
        return (0, (self.size // 2) * (self.size + 1), 0)

    def moves(self, pos: tuple[int, int, int]) -> list[int]:
        chaser, runner, turn = pos
        if turn == 0:
            return self.near[chaser]
        return [c for c in self.near[runner] if c != chaser]

    def play(self, pos: tuple[int, int, int], to: int) -> tuple[int, int, int]:
        chaser, runner, turn = pos
        return (to, runner, 1) if turn == 0 else (chaser, to, 0)

    def outcome(self, pos: tuple[int, int, int]) -> str | None:
        return self.lose if pos[0] == pos[1] else None  # the runner, to move, is caught


class DotsAndBoxes:
    """Dots and Boxes on 2x2 boxes (3x3 dots, 12 lines), players 0 and 1, 0 first: a line
    that completes a box scores it, and its player moves again; once every line is drawn,
    more boxes wins. Lines 0-5 run across (row r, column c: 2r + c), 6-11 down (6 + 3r +
    c). Positions: (the lines drawn as a bitmask, player 0's boxes less player 1's, the
    player to move); ``player`` says whose turn it is."""

    def __init__(self, words: tuple = (LOSE, TIE, WIN)) -> None:
        self.lose, self.tie, self.win = words
        boxes = [(2 * r + c, 2 * r + 2 + c, 6 + 3 * r + c, 7 + 3 * r + c)
                 for r in range(2) for c in range(2)]
        self.boxes_of = [[sum(1 << x for x in box) for box in boxes if line in box]
                         for line in range(12)]

    def initial(self) -> tuple[int, int, int]:
        return (0, 0, 0)

    def moves(self, pos: tuple[int, int, int]) -> list[int]:
        return [line for line in range(12) if not pos[0] >> line & 1]

    def play(self, pos: tuple[int, int, int], line: int) -> tuple[int, int, int]:
        drawn, lead, who = pos
        drawn |= 1 << line
        won = sum(1 for box in self.boxes_of[line] if drawn & box == box)
        if not won:
            return (drawn, lead, 1 - who)
        return (drawn, lead + won if who == 0 else lead - won, who)

    def player(self, pos: tuple[int, int, int]) -> int:
        return pos[2]

    def outcome(self, pos: tuple[int, int, int]) -> str | None:
        drawn, lead, who = pos
        if drawn != 4095:
            return None
        mine = lead if who == 0 else -lead
        return self.win if mine > 0 else self.lose if mine < 0 else self.tie


GAMES = {"nim": lambda words: Nim(), "pursuit": lambda words: Pursuit(4, words),
         "dots-2x2": lambda words: DotsAndBoxes(words),
         "connect4-4x4": lambda words: ConnectFour(4, 4, words),
         "connect4-4x4-after": lambda words: ConnectFourAfter(4, 4, words),
         "connect4-4x5": lambda words: ConnectFour(4, 5, words),
         "connect4-4x5-after": lambda words: ConnectFourAfter(4, 5, words)}


def perfectplay_words() -> tuple:
    from perfectplay import Value
    return Value.LOSE, Value.TIE, Value.WIN


# -- what the user writes instead ------------------------------------------------------------
def negamax(game):
    """The memoised (value, remoteness) of a position for the player to move: the winner
    hurries, the loser delays, a tie as soon as it can. A game with ``player`` may move
    twice in a row: the child's value is then the mover's own."""
    sys.setrecursionlimit(10_000)
    turn = getattr(game, "player", None)

    @cache
    def solve(pos):
        ended = game.outcome(pos)
        if ended is not None:
            return ended, 0
        if turn is None:
            kids = [solve(game.play(pos, m)) for m in game.moves(pos)]
        else:  # a child of the same mover: its value as the other player's would be
            me, kids = turn(pos), []
            for m in game.moves(pos):
                child = game.play(pos, m)
                v, r = solve(child)
                kids.append((FLIP[v], r) if turn(child) == me else (v, r))
        if not kids:
            return LOSE, 0
        wins = [r for v, r in kids if v == LOSE]
        if wins:
            return WIN, min(wins) + 1
        ties = [r for v, r in kids if v == TIE]
        if ties:
            return TIE, min(ties) + 1
        return LOSE, max(r for _, r in kids) + 1

    return solve


def easyai_value(name: str) -> str:
    """The start's value for the player to move by easyAI's iterative deepening with a
    transposition table (depths 1 to the board's size): win, lose or tie."""
    from easyAI import TwoPlayerGame, solve_with_iterative_deepening
    from easyAI.AI import TranspositionTable

    rules = GAMES[name]((LOSE, TIE))

    class Game(TwoPlayerGame):  # the same rules, in easyAI's interface
        def __init__(self) -> None:
            self.players, self.current_player = [None, None], 1
            self.pos = rules.initial()

        def possible_moves(self):
            return rules.moves(self.pos)

        def make_move(self, c):
            self.pos = rules.play(self.pos, c)

        def unmake_move(self, c):
            self.pos = self.pos[:c] + (self.pos[c][:-1],) + self.pos[c + 1:]

        def is_over(self):
            return rules.outcome(self.pos) is not None

        def scoring(self):
            return -100 if rules.outcome(self.pos) == LOSE else 0

        def ttentry(self):
            return self.pos

    plies = rules.width * rules.height
    result, _, _ = solve_with_iterative_deepening(Game(), range(1, plies + 1), 90,
                                                  tt=TranspositionTable(), verbose=False)
    return {1: WIN, -1: LOSE, 0: TIE}[result]


def retrograde(game) -> dict:
    """Every position's (value, remoteness) of a win/lose game with cycles, as its user
    would write it: number the positions from the start, then work back from the ended
    ones, a queue in order of remoteness (a position with a lost child is won, one whose
    children are all won is lost); what is never reached so is a draw (remoteness None)."""
    from collections import deque
    start = game.initial()
    kids, order, seen = {}, [start], {start}
    for pos in order:
        kids[pos] = [] if game.outcome(pos) is not None else \
            [game.play(pos, m) for m in game.moves(pos)]
        for child in kids[pos]:
            if child not in seen:
                seen.add(child)
                order.append(child)
    parents: dict = {pos: [] for pos in order}
    for pos in order:
        for child in kids[pos]:
            parents[child].append(pos)
    left = {pos: len(kids[pos]) for pos in order}
    table = {pos: (game.outcome(pos) or LOSE, 0) for pos in order if not kids[pos]}
    queue = deque(table)
    while queue:
        pos = queue.popleft()
        value, rem = table[pos]
        for parent in parents[pos]:
            if parent in table:
                continue
            left[parent] -= 1
            if value == LOSE or left[parent] == 0:
                table[parent] = (WIN if value == LOSE else LOSE, rem + 1)
                queue.append(parent)
    return {pos: table.get(pos, (DRAW, None)) for pos in order}


def gamesman_shape(rules):
    """The rules in GamesmanPy's shape, with no call between: ``start``, ``generate_moves``,
    ``do_move`` and ``primitive`` (an ended position's value for the player to move, else
    None) are the same methods under its names."""
    cls = type(rules)
    shaped = type(f"Gamesman{cls.__name__}", (cls,), {
        "start": cls.initial, "generate_moves": cls.moves, "do_move": cls.play,
        "primitive": cls.outcome})
    rules.__class__ = shaped
    return rules


def gamesman(game) -> dict:
    """GamesmanPy's algorithm, written from its description: a depth-first search from
    ``start()`` that memoises each position's (value, remoteness) in a dict, reading an
    ended position from ``primitive`` and any other from its children (``generate_moves``,
    ``do_move``): a lost child makes a win (the nearest), else a tie the nearest tie, else a
    loss (the farthest). The whole game's table."""
    sys.setrecursionlimit(10_000)
    memo: dict = {}

    def visit(pos):
        known = memo.get(pos)
        if known is not None:
            return known
        value = game.primitive(pos)
        if value is not None:
            memo[pos] = (value, 0)
            return memo[pos]
        children = [visit(game.do_move(pos, move)) for move in game.generate_moves(pos)]
        lost = [r for v, r in children if v == LOSE]
        tied = [r for v, r in children if v == TIE]
        if lost:
            memo[pos] = (WIN, min(lost) + 1)
        elif tied:
            memo[pos] = (TIE, min(tied) + 1)
        else:
            memo[pos] = (LOSE, max((r for _, r in children), default=-1) + 1)
        return memo[pos]

    visit(game.start())
    return memo


#: the hand solver of each game (a negamax unless named here) and the games GamesmanPy's
#: search takes (acyclic, turns that alternate: its game shape has no player)
HAND = {"pursuit": retrograde}
GAMESMAN = {"nim", "connect4-4x4", "connect4-4x4-after", "connect4-4x5",
            "connect4-4x5-after"}


def hand_table(name: str):
    """The hand solver of ``name``: a function from a position to its (value, remoteness),
    and the number of positions it met."""
    game = GAMES[name]((LOSE, TIE, WIN))
    if name in HAND:
        table = HAND[name](game)
        return table.__getitem__, len(table)
    solve = negamax(game)
    solve(game.initial())
    return solve, solve.cache_info().currsize


def run(tool: str, name: str) -> str:
    """One solve, as a timed process runs it: the start's value and remoteness (the value
    alone for ``search`` and ``easyai``)."""
    if tool == "easyai":
        return easyai_value(name)
    if tool == "search":
        import perfectplay
        found = perfectplay.search(GAMES[name](perfectplay_words()), value_only=True)
        return found.value.name.lower()
    if tool == "hand":
        game = GAMES[name]((LOSE, TIE, WIN))
        if name in HAND:
            value, rem = HAND[name](game)[game.initial()]
        else:
            value, rem = negamax(game)(game.initial())
        return f"{value} {rem}"
    if tool == "gamesman":
        game = gamesman_shape(GAMES[name]((LOSE, TIE, WIN)))
        value, rem = gamesman(game)[game.start()]
        return f"{value} {rem}"
    import perfectplay
    s = perfectplay.solve(GAMES[name](perfectplay_words()))
    return f"{s.value().name.lower()} {s.remoteness()}"


def check(name: str) -> int:
    """Every position's value and remoteness equal in perfectplay's solve, the hand solver
    and GamesmanPy's (where it runs): the number of positions."""
    import perfectplay
    solve, met = hand_table(name)
    s = perfectplay.solve(GAMES[name](perfectplay_words()))
    seen = 0
    for pos in s.positions():
        assert (s.value(pos).name.lower(), s.remoteness(pos)) == solve(pos), pos
        seen += 1
    assert met == seen  # the hand solver met no other position
    if name in GAMESMAN:
        table = gamesman(gamesman_shape(GAMES[name]((LOSE, TIE, WIN))))
        assert len(table) == seen and all(table[pos] == solve(pos) for pos in table)
    return seen


def timed(tool: str, name: str) -> float:
    """CPU seconds (user + system) of one whole process running :func:`run`."""
    import os
    import subprocess
    before = os.times()
    subprocess.run([sys.executable, __file__, "--run", tool, name], check=True,
                   capture_output=True)
    after = os.times()
    return (after.children_user - before.children_user
            + after.children_system - before.children_system)


def root_row(repeat: int) -> None:
    """Connect Four 4x5's root value: ``perfectplay.search`` against easyAI, the values
    checked equal first; skipped with a line when easyAI is not installed."""
    import importlib.util
    import statistics
    name = "connect4-4x5"
    if importlib.util.find_spec("easyAI") is None:
        print(f"{name} root value: easyAI is not installed (pip install easyAI): skipped")
        return
    ours, theirs = run("search", name), run("easyai", name)
    assert ours == theirs, (ours, theirs)
    a, b = [], []
    for _ in range(repeat):
        a.append(timed("search", name))
        b.append(timed("easyai", name))
    ratio = statistics.median(x / y for x, y in zip(a, b, strict=True))
    print(f"{name} root value ({ours}): perfectplay search {statistics.median(a):.3f}, "
          f"easyAI {statistics.median(b):.3f}, ratio {ratio:.2f}x")
    after = f"{name}-after"  # the search asks outcome_after of each new child
    assert run("search", after) == ours
    c = [timed("search", after) for _ in range(repeat)]
    print(f"{after} root value: perfectplay search {statistics.median(c):.3f} "
          f"({statistics.median(x / y for x, y in zip(c, b, strict=True)):.2f}x easyAI's "
          "without it)")


def row(name: str, repeat: int) -> str:
    """One game's line: positions, then CPU seconds (median) of perfectplay, the hand
    solver and GamesmanPy's (where it runs), each of the last two with the median ratio of
    perfectplay's to it, pair by pair."""
    import statistics
    n = check(name)
    tools = ["perfectplay", "hand"] + (["gamesman"] if name in GAMESMAN else [])
    times: dict[str, list[float]] = {tool: [] for tool in tools}
    for _ in range(repeat):
        for tool in tools:
            times[tool].append(timed(tool, name))
    line = f"{name:<19} {n:>10,} {statistics.median(times['perfectplay']):>12.3f}"
    for tool in tools[1:]:
        ratio = statistics.median(a / b for a, b in zip(times["perfectplay"], times[tool],
                                                        strict=True))
        line += f" {statistics.median(times[tool]):>11.3f} {ratio:>5.2f}x"
    return line


def main() -> None:
    import argparse
    import datetime
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--big", action="store_true", help="Connect Four 4x5 too (minutes)")
    ap.add_argument("--root", action="store_true",
                    help="Connect Four 4x5's root value: perfectplay search against easyAI")
    ap.add_argument("--games", default=None,
                    help=f"comma-separated, of {', '.join(GAMES)} (default: all but 4x5)")
    ap.add_argument("--run", nargs=2, metavar=("TOOL", "GAME"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.run:
        print(run(*args.run))
        return
    names = ["nim", "pursuit", "dots-2x2", "connect4-4x4", "connect4-4x4-after"] + (
        ["connect4-4x5", "connect4-4x5-after"] if args.big else [])
    if args.games:
        names = args.games.split(",")
        unknown = [n for n in names if n not in GAMES]
        if unknown:
            ap.error(f"no game {', '.join(unknown)}: the games are {', '.join(GAMES)}")
    print(f"{datetime.date.today()}, CPU seconds of whole processes, median of "
          f"{args.repeat} rounds")
    if args.root:
        root_row(args.repeat)
        return
    print(f"{'game':<19} {'positions':>10} {'perfectplay':>12} {'hand solver':>11} "
          f"{'ratio':>6} {'GamesmanPy':>11} {'ratio':>6}")
    for name in names:
        print(row(name, args.repeat), flush=True)


if __name__ == "__main__":
    main()
