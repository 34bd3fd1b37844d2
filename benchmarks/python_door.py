"""The Python door against what its user would write instead (issue 70): a small game written
as a Python class, solved whole by ``perfectplay.solve``, beside a hand-written memoised
negamax over the same rules (written here, from the rules: the ~15 lines a user writes
instead of installing a solver). Each is timed as a whole process, start-up included, the
two in turn (A B A B ...); the CPU ratio of each pair is taken and the median printed.
Before timing, every position's value and remoteness are checked equal (perfectplay's
Solution against the negamax's table).

Games, the same rule functions for both: Nim (3, 5, 7, 9) with heaps kept in place (1,920
positions), Connect Four 4x4 (161,029 positions), and with ``--big`` Connect Four 4x5
(1,706,255 positions; minutes). ``outcome`` scans every line of the board, as a user's first
version does; the ``-after`` rows add the optional ``outcome_after(pos, move, child)``, which
looks only at the lines through the piece just played (perfectplay asks it of each new child
instead of ``outcome``; the hand negamax keeps its ``outcome``).

The root value alone (``--root``, Connect Four 4x5): ``perfectplay.search(value_only=True)``
beside easyAI (when installed: ``pip install easyAI``; the row is skipped with a line
otherwise), whose ``solve_with_iterative_deepening`` with a transposition table proves the
start's value over the same rules written for its ``TwoPlayerGame`` (with ``unmake_move``);
the two values are checked equal first.

    python benchmarks/python_door.py [--repeat 5] [--big] [--root]
    python benchmarks/python_door.py --run perfectplay|hand|search|easyai GAME   (one process)
"""

from __future__ import annotations

import sys
from functools import cache

WIN, LOSE, TIE = "win", "lose", "tie"  # the negamax's own words; perfectplay's Value.name


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

    def __init__(self, width: int = 4, height: int = 4, words: tuple = (LOSE, TIE)) -> None:
        self.width, self.height = width, height
        self.lose, self.tie = words
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

    def __init__(self, width: int = 4, height: int = 4, words: tuple = (LOSE, TIE)) -> None:
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


GAMES = {"nim": lambda words: Nim(), "connect4-4x4": lambda words: ConnectFour(4, 4, words),
         "connect4-4x4-after": lambda words: ConnectFourAfter(4, 4, words),
         "connect4-4x5": lambda words: ConnectFour(4, 5, words),
         "connect4-4x5-after": lambda words: ConnectFourAfter(4, 5, words)}


def perfectplay_words() -> tuple:
    from perfectplay import Value
    return Value.LOSE, Value.TIE


# -- what the user writes instead ------------------------------------------------------------
def negamax(game: Nim | ConnectFour):  # a ConnectFourAfter is a ConnectFour
    """The memoised (value, remoteness) of a position for the player to move: the winner
    hurries, the loser delays, a tie as soon as it can."""
    sys.setrecursionlimit(10_000)

    @cache
    def solve(pos):
        ended = game.outcome(pos)
        if ended is not None:
            return ended, 0
        kids = [solve(game.play(pos, m)) for m in game.moves(pos)]
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
        game = GAMES[name]((LOSE, TIE))
        value, rem = negamax(game)(game.initial())
        return f"{value} {rem}"
    import perfectplay
    s = perfectplay.solve(GAMES[name](perfectplay_words()))
    return f"{s.value().name.lower()} {s.remoteness()}"


def check(name: str) -> int:
    """Every position's value and remoteness equal in both: the number of positions."""
    import perfectplay
    game = GAMES[name]((LOSE, TIE))
    solve = negamax(game)
    s = perfectplay.solve(GAMES[name](perfectplay_words()))
    seen = 0
    for pos in s.positions():
        assert (s.value(pos).name.lower(), s.remoteness(pos)) == solve(pos), pos
        seen += 1
    assert solve.cache_info().currsize == seen  # the negamax met no other position
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


def main() -> None:
    import argparse
    import datetime
    import statistics
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--big", action="store_true", help="Connect Four 4x5 too (minutes)")
    ap.add_argument("--root", action="store_true",
                    help="Connect Four 4x5's root value: perfectplay search against easyAI")
    ap.add_argument("--run", nargs=2, metavar=("TOOL", "GAME"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.run:
        print(run(*args.run))
        return
    names = ["nim", "connect4-4x4", "connect4-4x4-after"] + (
        ["connect4-4x5", "connect4-4x5-after"] if args.big else [])
    print(f"{datetime.date.today()}, CPU seconds of whole processes, median of "
          f"{args.repeat} pairs")
    if args.root:
        root_row(args.repeat)
        return
    print(f"{'game':<14} {'positions':>10} {'perfectplay':>12} {'hand negamax':>13} "
          f"{'ratio':>6}")
    for name in names:
        n = check(name)
        ours, hand, ratios = [], [], []
        for _ in range(args.repeat):
            a, b = timed("perfectplay", name), timed("hand", name)
            ours.append(a)
            hand.append(b)
            ratios.append(a / b)
        print(f"{name:<14} {n:>10,} {statistics.median(ours):>12.3f} "
              f"{statistics.median(hand):>13.3f} {statistics.median(ratios):>5.2f}x")


if __name__ == "__main__":
    main()
