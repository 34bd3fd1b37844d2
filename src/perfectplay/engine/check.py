"""``check_game``: a conformance check of a user-defined game, in plain words."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any

from ..errors import show
from .graph import hashable as _hashable
from .protocol import Value, has_player, is_scored


@dataclass
class CheckReport:
    """What :func:`check_game` found. ``ok`` is true when there are no problems (warnings and
    notes are informational)."""

    positions: int = 0
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    complete: bool = True

    @property
    def ok(self) -> bool:
        return not self.problems

    def __str__(self) -> str:
        lines = [f"checked {self.positions:,} positions"
                 + ("" if self.complete else " (stopped at the limit)")
                 + (": no problems" if self.ok else f": {len(self.problems)} problem(s)")]
        lines += [f"problem: {p}" for p in self.problems]
        lines += [f"warning: {w}" for w in self.warnings]
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


_MAX_REPORTED = 20


def check_game(game: Any, max_positions: int = 100_000) -> CheckReport:
    """Walk up to ``max_positions`` positions of ``game`` and report every protocol problem.

    Checks: the four methods exist; positions are hashable and a position rebuilt by playing
    the same move again is equal, with the same hash (``play`` is deterministic); no moves
    from a terminal position; outcomes are None, WIN, LOSE, TIE (or numbers in scored games);
    payoffs are numbers; ``player`` returns 0 or 1; ``tier`` never falls along a move
    (and rises along every move of a :class:`~perfectplay.engine.CompiledGame`). Notes the
    non-terminal positions without moves (a loss for the player to move, normal play) and
    warns when, with no ``player``, a position is reached after both an even and an odd
    number of moves (fine for an impartial game such as Nim; in a partizan game the
    position must then say whose turn it is).

    >>> class Bad:
    ...     def initial(self): return [0]
    ...     def moves(self, p): return []
    ...     def play(self, p, m): return p
    ...     def outcome(self, p): return None
    >>> print(check_game(Bad()))
    checked 0 positions: 1 problem(s)
    problem: the start position [0] is not hashable (use a tuple, int, ...)
    """
    report = CheckReport()
    for name in ("initial", "moves", "play", "outcome"):
        if not callable(getattr(game, name, None)):
            report.problems.append(f"the game has no method {name}()")
    if report.problems:
        return report
    scored, with_player = is_scored(game), has_player(game)
    try:
        start = game.initial()
    except Exception as exc:  # noqa: BLE001 - a user's game may raise anything
        report.problems.append(f"initial() raised {type(exc).__name__}: {exc}")
        return report
    if not _hashable(start):
        report.problems.append(f"the start position {show(start)} is not hashable (use a tuple, "
                               "int, ...)")
        return report
    tier = getattr(game, "tier", None) if callable(getattr(game, "tier", None)) else None
    strict = getattr(game, "tiered", False) is True  # a CompiledGame's tiers must rise
    depth: dict[Any, int] = {start: 0}
    queue = [start]
    no_moves = 0
    parity_warned = False
    i = 0
    while i < len(queue):
        if len(report.problems) >= _MAX_REPORTED:
            report.notes.append(f"stopped after {_MAX_REPORTED} problems")
            break
        if i >= max_positions:
            report.complete = False
            break
        pos = queue[i]
        i += 1
        if with_player:
            try:
                who = game.player(pos)
                if who not in (0, 1):
                    report.problems.append(f"player({show(pos)}) returned {show(who)}, not 0 or 1")
            except Exception as exc:  # noqa: BLE001
                report.problems.append(f"player({show(pos)}) raised {type(exc).__name__}: {exc}")
        result = _call(report, "outcome", game.outcome, pos)
        if result is _FAILED:
            continue
        moves = _call(report, "moves", lambda p: game.moves(p), pos)
        if moves is _FAILED:
            continue
        if moves is None or isinstance(moves, int | float | str | bytes) \
                or not hasattr(moves, "__iter__"):
            report.problems.append(f"moves({show(pos)}) returned {show(moves)}: expected a "
                                   "list (or any iterable) of moves")
            continue
        moves = _call(report, "moves", list, moves)
        if moves is _FAILED:
            continue
        if result is not None:
            _check_outcome(report, pos, result, scored)
            if moves:
                report.problems.append(f"terminal position {show(pos)} (outcome "
                                       f"{show(result)}) still has moves {show(moves[:5])}")
            continue
        if not moves:
            no_moves += 1
            continue
        for move in moves:
            child = _call(report, "play", lambda p, m=move: game.play(p, m), pos, move)
            if child is _FAILED:
                continue
            if child is None:
                report.problems.append(f"play({show(pos)}, {show(move)}) returned None: it "
                                       "must return the new position (a missing return?)")
                continue
            if not _hashable(child):
                report.problems.append(f"play({show(pos)}, {show(move)}) returned "
                                       f"{show(child)}, which is not hashable")
                continue
            again = _call(report, "play", lambda p, m=move: game.play(p, m), pos, move)
            if again is not _FAILED and (again != child or hash(again) != hash(child)):
                report.problems.append(
                    f"play({show(pos)}, {show(move)}) is not deterministic, or the positions "
                    f"are not equal when rebuilt: {show(child)} then {show(again)}")
            if scored:
                pay = _call(report, "payoff", lambda p, m=move: game.payoff(p, m), pos, move)
                if pay is not _FAILED and not _is_number(pay):
                    report.problems.append(f"payoff({show(pos)}, {show(move)}) is "
                                           f"{show(pay)}, not a finite number")
            if tier is not None:
                _check_tier(report, tier, pos, move, child, strict)
            d = depth.get(child)
            if d is None:
                depth[child] = depth[pos] + 1
                queue.append(child)
            elif (d - depth[pos]) % 2 == 0 and not with_player and not parity_warned:
                parity_warned = True
                report.warnings.append(
                    f"position {show(child)} is reached after both an even and an odd number of "
                    "moves: fine in an impartial game (both players have the same moves); in "
                    "a partizan game the position must say whose turn it is, or the game "
                    "must define player(pos)")
    report.positions = i
    if no_moves:
        report.notes.append(f"{no_moves:,} non-terminal position(s) have no moves: a loss for "
                            "the player to move (normal play)"
                            + ("; in a scored game they end with margin 0" if scored else ""))
    return report


_FAILED = object()


def _check_tier(report: CheckReport, tier: Any, pos: Any, move: Any, child: Any,
                strict: bool) -> None:
    a = _call(report, "tier", tier, pos)
    c = _call(report, "tier", tier, child)
    if a is _FAILED or c is _FAILED:
        return
    if c < a or (strict and c == a):
        report.problems.append(
            f"move {show(move)} from {show(pos)} (tier {a}) goes to {show(child)} (tier {c}): "
            "every move " + ("must go to a strictly higher tier" if strict else
                             "must stay in its tier or go to a higher one"))


def _call(report: CheckReport, name: str, fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except Exception as exc:  # noqa: BLE001
        shown = ", ".join(show(a) for a in args)
        report.problems.append(f"{name}({shown}) raised {type(exc).__name__}: {exc}")
        return _FAILED


def _is_number(x: Any) -> bool:
    """A real number the engine can add and compare: not a bool, not NaN, not infinite."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        return False
    try:
        return math.isfinite(x)
    except (TypeError, ValueError, OverflowError):  # a huge Fraction is still finite
        return True


def _check_outcome(report: CheckReport, pos: Any, result: Any, scored: bool) -> None:
    if isinstance(result, Value):
        if result is Value.DRAW:
            report.problems.append(f"outcome({show(pos)}) is DRAW: draws are proved by the engine, "
                                   "an outcome is WIN, LOSE or TIE")
        elif scored and result is not Value.TIE:
            report.problems.append(f"outcome({show(pos)}) is {result.name} in a scored game: use "
                                   "Value.TIE or the final points for the player to move")
        return
    if scored and _is_number(result):
        return
    if scored and isinstance(result, numbers.Real) and not isinstance(result, bool):
        report.problems.append(f"outcome({show(pos)}) is {show(result)}: final points must "
                               "be finite numbers")
        return
    report.problems.append(f"outcome({show(pos)}) is {show(result)}: expected None, Value.WIN, "
                           "Value.LOSE or Value.TIE" + (" or a number" if scored else ""))
