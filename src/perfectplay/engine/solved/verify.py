"""Audit a solved game: every sampled position's stored value and remoteness recomputed from
its children's stored values (retrograde consistency).

A solver's users trust its answers without re-deriving them, so a solved game (in memory, a
saved file, a store on disk) can be checked after the fact, with no trust in how it was
made. For each position checked, the value and remoteness the children's stored entries
imply are recomputed by the rules alone and compared with the stored entry:

- a position the game says has ended: its outcome (or, scored, its final points), in 0;
- a position with no moves: a loss in 0 (normal play; a margin of 0 in a scored game);
- any other: the best of its moves (a move's value is its child's, flipped when the move
  passes the turn; in a scored game the payoff minus, or plus, the child's margin), ranked
  by the engine's one tie-break (:class:`~perfectplay.engine.protocol.Score`: the winner
  hurries, the loser delays), one move more than that child.

A child the solved game does not hold is a mismatch too (a tier left out, a broken
``encode``). Why this suffices: if every position is consistent, then by induction on the
true remoteness every win, loss and tie is labelled truly (a position that truly ends in r
moves has children that end sooner, labelled truly, which force its label), and what is
left, labelled draw, is a true draw. The same argument verifies chess endgame tablebases
(Thompson 1986 checked his by such a retrograde pass). A sample checks a random subset;
``sample=None`` checks every position, which is the full proof.

Cost: one look-up per move of each position checked (O(positions x moves)); a store's
look-ups go in batches through compiled kernels (:mod:`perfectplay.store.verify`).

>>> from perfectplay.engine import solve
>>> class Take:                        # take 1 or 2 from 7; who cannot move loses
...     def initial(self): return 7
...     def moves(self, n): return [t for t in (1, 2) if t <= n]
...     def play(self, n, t): return n - t
...     def outcome(self, n): return None
>>> verify(solve(Take()), sample=None).explain().splitlines()[0]
'verified 8 of 8 positions: every stored value and remoteness follows from its children'
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Protocol

from ...errors import show
from ..protocol import Game, Position, Score, Value, Worth, capabilities
from ..values import Counts, UnknownPosition, describe


class Audited(Protocol):
    """What :func:`verify` reads of a solved game (:class:`~perfectplay.engine.Solved`
    has it all): its game, whether it is scored, its positions and their entries, and the
    engine's tie-break at a position."""

    @property
    def game(self) -> Game: ...

    @property
    def scored(self) -> bool: ...

    def counts(self) -> Counts: ...

    def positions(self) -> Iterator[Position]: ...

    def _entry(self, pos: Position) -> tuple[Worth, int | None]: ...

    def _score(self, pos: Position, value: Worth, rem: int | None) -> Score: ...


#: How many mismatches a report keeps (the count goes on).
KEEP = 50


@dataclass(frozen=True)
class Mismatch:
    """One position whose stored entry does not follow from its children."""

    position: str  # the position as the game shows it (or its code)
    stored: str  # "win in 5"
    expected: str  # what the children imply, or why nothing could be implied

    def line(self) -> str:
        return f"{self.position}: stored {self.stored}, its children give {self.expected}"


@dataclass
class VerifyReport:
    """What :func:`verify` checked and found."""

    checked: int = 0
    total: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    wrong: int = 0  # every mismatch found (the list keeps the first KEEP)
    problems: list[str] = field(default_factory=list)  # files, manifest, tiers
    notes: list[str] = field(default_factory=list)  # what could not be checked, and why
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """True when nothing was wrong."""
        return self.wrong == 0 and not self.problems

    def add(self, mismatch: Mismatch) -> None:
        self.wrong += 1
        if len(self.mismatches) < KEEP:
            self.mismatches.append(mismatch)

    def explain(self) -> str:
        """The report in words: the first line says whether all is well."""
        whole = "every position" if self.checked == self.total else "a random sample"
        head = f"verified {self.checked:,} of {self.total:,} positions"
        if self.ok:
            lines = [f"{head}: every stored value and remoteness follows from its children"]
        else:
            lines = [f"{head}: {self.wrong:,} do not follow from their children"
                     + (f", {len(self.problems):,} other problem(s)" if self.problems else "")]
            lines += [f"  {p}" for p in self.problems]
            lines += [f"  {m.line()}" for m in self.mismatches]
            if self.wrong > len(self.mismatches):
                lines.append(f"  ... and {self.wrong - len(self.mismatches):,} more")
        lines += [f"  note: {n}" for n in self.notes]
        rate = self.checked / self.seconds if self.seconds > 0 else 0.0
        lines.append(f"  ({whole}, checked in {self.seconds:.2f} s: {rate:,.0f} positions "
                     "a second)")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "checked": self.checked, "total": self.total,
                "wrong": self.wrong, "problems": list(self.problems),
                "notes": list(self.notes),
                "mismatches": [{"position": m.position, "stored": m.stored,
                                "expected": m.expected} for m in self.mismatches],
                "seconds": round(self.seconds, 3)}


def verify(solved: Audited, sample: int | None = 10_000, seed: int = 0) -> VerifyReport:
    """Check ``sample`` positions of ``solved`` chosen at random (``None``: all of them) by
    retrograde consistency (see the module doc). O(checked positions x moves) look-ups."""
    began = time.perf_counter()
    total = solved.counts().total
    report = VerifyReport(total=total)
    for pos in sampled(solved.positions(), total, sample, seed):
        report.checked += 1
        found = check_position(solved, pos)
        if found is not None:
            report.add(found)
    report.seconds = time.perf_counter() - began
    return report


def sampled(positions: Iterable[Position], total: int, sample: int | None,
            seed: int) -> Iterator[Position]:
    """``sample`` of ``total`` positions uniformly at random, in their own order (all when
    ``sample`` is None or at least ``total``): one pass, O(total)."""
    if sample is None or sample >= total:
        yield from positions
        return
    keep = set(random.Random(seed).sample(range(total), sample))
    for i, pos in enumerate(islice(positions, total)):
        if i in keep:
            yield pos


def check_position(solved: Audited, pos: Position) -> Mismatch | None:
    """The mismatch at ``pos``, or None when its stored entry follows from its children."""
    stored = solved._entry(pos)
    try:
        expected = implied_entry(solved, pos)
    except UnknownPosition as exc:
        return Mismatch(show(pos), describe(*stored), f"nothing: {exc}")
    if same_entry(stored, expected):
        return None
    return Mismatch(show(pos), describe(*stored), describe(*expected))


#: One move as :func:`implied` reads it: (payoff or None, the child's value, its
#: remoteness, whether the move passes the turn).
Child = tuple[Any, Worth, "int | None", bool]


def implied_entry(solved: Audited, pos: Position) -> tuple[Worth, int | None]:
    """The (value, remoteness) that the rules and the children's stored entries give
    ``pos`` (raises :class:`UnknownPosition` when a child is not held). The children come
    from the game's own ``moves`` and ``play``, each looked up by position, never from
    what the solved form recorded about them."""
    outcome = solved.game.outcome(pos)
    children = _children(solved, pos) if outcome is None else iter(())
    return implied(solved.scored, solved._score, pos, outcome, children)


def _children(solved: Audited, pos: Position) -> Iterator[Child]:
    """Each move's (payoff or None, child's stored value, its remoteness, passes the
    turn), the child made by the rules and looked up (lazily: a missing one raises)."""
    game = solved.game
    caps = capabilities(game)
    mover = caps.player(pos) if caps.player is not None else None
    for move in game.moves(pos):
        child = game.play(pos, move)
        value, rem = solved._entry(child)
        passes = mover is None or caps.player(child) != mover  # type: ignore[misc]
        yield (caps.payoff(pos, move) if caps.payoff is not None else None), value, rem, \
            passes


def implied(scored: bool, score: Callable[[Position, Worth, int | None], Score],
            pos: Position, outcome: Worth | None,
            children: Iterable[Child]) -> tuple[Worth, int | None]:
    """The rule every solved form must satisfy at ``pos``: an ended position is its
    outcome in 0; one with no moves a loss in 0 (a margin of 0 when scored); any other the
    best of its moves by ``score`` (the engine's tie-break), one move more than its child.
    Shared by the audit of any solved form and the store's batched one."""
    if outcome is not None:
        return final_value(outcome, scored), 0
    best: tuple[Worth, int | None] | None = None
    best_key = None
    for pay, value, rem, passes in children:
        option = _option(pay, value, rem, passes)
        key = score(pos, *option).key
        if best_key is None or key > best_key:
            best, best_key = option, key
    if best is None:
        return (0 if scored else Value.LOSE), 0
    return best


def final_value(outcome: Worth, scored: bool) -> Worth:
    """An ended position's value from its ``outcome``: in a scored game a TIE is 0 points
    (the engine's rule), a number is the final points; else the Value itself."""
    if scored and isinstance(outcome, Value):
        return 0
    return outcome


def _option(pay: Any, value: Worth, rem: int | None,
            passes: bool) -> tuple[Worth, int | None]:
    """What a move to a child of (value, rem) gives its mover: a win/lose value flipped
    when the move passes the turn; a margin the payoff minus (passing) or plus the
    child's; one move more (None stays None: play never ends)."""
    after = None if rem is None else rem + 1
    if pay is None:
        assert isinstance(value, Value)
        return (value.flipped() if passes else value), after
    assert not isinstance(value, Value)
    return (pay - value if passes else pay + value), after


def same_entry(a: tuple[Worth, int | None], b: tuple[Worth, int | None]) -> bool:
    """Equal entries (a margin compared by value: 3 == 3.0)."""
    return a[1] == b[1] and a[0] == b[0]
