"""A random Python game with tiers, for the store's tests: moves inside a tier form cycles,
others climb, and terminals win, lose or tie. Shared by the tests of the stores of Python games
(test_store_python.py), the store's reader and verifier, the check of a game's hooks and the
web server's live stores."""

from __future__ import annotations

import random

from perfectplay import Value


class LayeredGraph:
    """Positions (tier, node); moves inside a tier form cycles, others climb; terminals
    win, lose or tie. Every move passes the turn; the node set per tier is small."""

    def __init__(self, seed: int, tiers: int = 4, width: int = 5):
        rng = random.Random(seed)
        self.succ = {}
        self.term = {}
        for t in range(tiers):
            for v in range(width):
                if t > 0 and rng.random() < 0.2:
                    self.term[(t, v)] = rng.choice([Value.WIN, Value.LOSE, Value.TIE])
                    continue
                kids = []
                for _ in range(rng.randint(1, 3)):
                    if t + 1 < tiers and rng.random() < 0.5:
                        kids.append((rng.randint(t + 1, tiers - 1), rng.randrange(width)))
                    else:
                        kids.append((t, rng.randrange(width)))
                self.succ[(t, v)] = kids
        self.width = width

    def initial(self):
        return (0, 0)

    def moves(self, pos):
        return [] if pos in self.term else list(range(len(self.succ[pos])))

    def play(self, pos, k):
        return self.succ[pos][k]

    def outcome(self, pos):
        return self.term.get(pos)

    def tier(self, pos):
        return pos[0]

    def encode(self, pos):
        return pos[0] * self.width + pos[1]

    def decode(self, code):
        return divmod(int(code), self.width)
