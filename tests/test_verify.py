"""Auditing a solved game (perfectplay.engine.solved.verify): a true solution verifies in full, and
one wrong entry anywhere (a value, a remoteness, a missing child) is found, on random cyclic
games, scored games and games with extra turns."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.engine import Value, solve
from perfectplay.engine.solved.solution import Solved
from perfectplay.engine.solved.verify import verify
from perfectplay.engine.values import Counts, UnknownPosition
from test_engine import GraphGame, Nim, TicTacToe, _random_graph


class Lying(Solved):
    """A solved game that answers like ``inner`` except at the positions of ``lies``
    (position -> (value, remoteness)); ``missing`` positions are not held at all."""

    def __init__(self, inner: Solved, lies: dict[Any, tuple[Any, Any]],
                 missing: frozenset[Any] = frozenset()) -> None:
        self.inner, self.lies, self.missing = inner, lies, missing
        self.game = inner.game

    @property
    def scored(self) -> bool:
        return self.inner.scored

    def _entry(self, pos):
        if pos in self.missing:
            raise UnknownPosition(f"{pos} is not held")
        if pos in self.lies:
            return self.lies[pos]
        return self.inner._entry(pos)

    def _score(self, pos, value, rem):
        return self.inner._score(pos, value, rem)

    def counts(self) -> Counts:
        return self.inner.counts()

    def positions(self) -> Iterator[Any]:
        return (p for p in self.inner.positions() if p not in self.missing)

    def __len__(self) -> int:
        return len(self.inner) - len(self.missing)


class Kayles:
    """Kayles scored: knock down one pin or two adjacent pins, a point a pin knocked down;
    with an extra turn after knocking down two (so ``player`` matters)."""

    def initial(self):
        return ("11111", 0)

    def moves(self, pos):
        row, _ = pos
        out = [(i, 1) for i, c in enumerate(row) if c == "1"]
        out += [(i, 2) for i in range(len(row) - 1) if row[i:i + 2] == "11"]
        return out

    def play(self, pos, move):
        (row, who), (i, k) = pos, move
        row = row[:i] + "0" * k + row[i + k:]
        return (row, who if k == 2 else 1 - who)

    def payoff(self, pos, move):
        return move[1]

    def player(self, pos):
        return pos[1]

    def outcome(self, pos):
        return 0 if "1" not in pos[0] else None


def _flip(value):
    return value.flipped() if value is not Value.TIE and value is not Value.DRAW \
        else Value.WIN


def test_true_solutions_verify_in_full():
    for game in (TicTacToe(), Nim((2, 3, 4)), Kayles()):
        solved = solve(game)
        report = verify(solved, sample=None)
        assert report.ok, report.explain()
        assert report.checked == report.total == len(solved)


def test_a_sample_checks_that_many_positions():
    solved = solve(TicTacToe())
    report = solved.verify(sample=500, seed=3)  # the method is the function
    assert report.ok and report.checked == 500 and report.total == 5478
    assert report.explain().startswith("verified 500 of 5,478 positions: every")


def test_a_wrong_value_a_wrong_remoteness_and_a_missing_child_are_found():
    solved = solve(TicTacToe())
    pos = "XX.OO...."  # X wins at once
    assert (solved.value(pos), solved.remoteness(pos)) == (Value.WIN, 1)
    for lie in [(Value.LOSE, 1), (Value.WIN, 3), (Value.TIE, 1)]:
        report = verify(Lying(solved, {pos: lie}), sample=None)
        assert not report.ok
        assert any(m.position == repr(pos) for m in report.mismatches), report.explain()
    child = "XXXOO...."
    game = solved.game
    parents = {repr(p) for p in solved.positions() if game.outcome(p) is None
               and child in {game.play(p, m) for m in game.moves(p)}}
    assert repr(pos) in parents and len(parents) == 3  # X's third mark came last
    report = verify(Lying(solved, {}, missing=frozenset([child])), sample=None)
    assert {m.position for m in report.mismatches} == parents
    assert all("not held" in m.expected for m in report.mismatches)
    assert report.to_json()["wrong"] == 3


def test_a_wrong_margin_in_a_scored_game_with_extra_turns_is_found():
    solved = solve(Kayles())
    start = solved.start
    value, rem = solved.value(), solved.remoteness()
    for lie in [(value + 1, rem), (value, rem + 2)]:
        report = verify(Lying(solved, {start: lie}), sample=None)
        assert [m.position for m in report.mismatches] == [repr(start)], report.explain()


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), n=st.integers(2, 25))
def test_one_wrong_entry_in_a_random_cyclic_game_is_found(seed, n):
    rng = random.Random(seed)
    succ, terminal = _random_graph(rng, n)
    succ[n] = list(range(n))
    solved = solve(GraphGame(succ, terminal, start=n))
    assert verify(solved, sample=None).ok
    victim = rng.choice(list(solved.positions()))
    value, rem = solved.value(victim), solved.remoteness(victim)
    if rng.random() < 0.5:
        lie = (_flip(value), rem)
    else:
        lie = (value, (rem or 0) + 1 + rng.randrange(3)) if value is not Value.DRAW \
            else (Value.LOSE, 0)
    report = verify(Lying(solved, {victim: lie}), sample=None)
    assert not report.ok
    assert repr(victim) in {m.position for m in report.mismatches}
