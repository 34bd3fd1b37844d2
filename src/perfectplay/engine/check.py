"""``check_game``: a conformance check of a user-defined game, in plain words."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import show
from .expand import hashable as _hashable
from .expand import is_move_list, is_points, is_real
from .protocol import Game, Move, Position, Value, capabilities


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
    finds state kept on the game object instead of in the position (the classic: whose turn
    it is, flipped in ``play``): positions whose moves differ on a fresh copy of the game or
    after one more ``play``, attributes that changed during the walk. A position reached
    after both an even and an odd number of moves is named only alongside such a finding
    (on its own it is right: impartial games, positions that tell whose turn it is).

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
    fresh = _copy(game)  # the game object as it was before any call: to find hidden state
    start = _start(report, game)
    if start is _FAILED:
        return report
    walk = _Walk(game, report, start)
    walk.run(max_positions)
    _check_hidden_state(report, game, fresh, walk.queue[:report.positions],
                        walk.both_parities)
    if walk.no_moves:
        report.notes.append(f"{walk.no_moves:,} non-terminal position(s) have no moves: a "
                            "loss for the player to move (normal play)"
                            + ("; in a scored game they end with margin 0" if walk.scored
                               else ""))
    return report


def _start(report: CheckReport, game: Game) -> Position | object:
    """The start position, or _FAILED with the problem reported."""
    try:
        start = game.initial()
    except Exception as exc:  # noqa: BLE001 - a user's game may raise anything
        report.problems.append(f"initial() raised {type(exc).__name__}: {exc}")
        return _FAILED
    if not _hashable(start):
        report.problems.append(f"the start position {show(start)} is not hashable (use a "
                               "tuple, int, ...)")
        return _FAILED
    return start


class _Walk:
    """The breadth-first walk of :func:`check_game`: each position's own checks (player,
    outcome, moves), then each move's (play twice, payoff, tier)."""

    def __init__(self, game: Game, report: CheckReport, start: Position) -> None:
        self.game, self.report = game, report
        caps = capabilities(game)
        self.scored, self.with_player = caps.scored, caps.player is not None
        self.player, self.payoff = caps.player, caps.payoff
        self.tier = caps.tier
        self.step = caps.step
        self.strict = caps.tiered  # compiled tiers must rise
        self.depth: dict[Position, int] = {start: 0}
        self.queue = [start]
        self.no_moves = 0
        # reached after an even and an odd number of moves:
        self.both_parities: Position | None = None

    def run(self, max_positions: int) -> None:
        report, i = self.report, 0
        while i < len(self.queue):
            if len(report.problems) >= _MAX_REPORTED:
                report.notes.append(f"stopped after {_MAX_REPORTED} problems")
                break
            if i >= max_positions:
                report.complete = False
                break
            pos = self.queue[i]
            i += 1
            for move in self.position(pos):
                self.move(pos, move)
        report.positions = i

    def position(self, pos: Position) -> list[Move]:
        """Check one position; its moves when it is not terminal (else none)."""
        game, report = self.game, self.report
        if self.player is not None:
            try:
                who = self.player(pos)
                if who not in (0, 1):
                    report.problems.append(f"player({show(pos)}) returned {show(who)}, not "
                                           "0 or 1")
            except Exception as exc:  # noqa: BLE001
                report.problems.append(f"player({show(pos)}) raised {type(exc).__name__}: "
                                       f"{exc}")
        result = _call(report, "outcome", game.outcome, pos)
        if result is _FAILED:
            return []
        moves = _call(report, "moves", lambda p: game.moves(p), pos)
        if moves is _FAILED:
            return []
        if not is_move_list(moves):
            report.problems.append(f"moves({show(pos)}) returned {show(moves)}: expected a "
                                   "list (or any iterable) of moves")
            return []
        moves = _call(report, "moves", list, moves)
        if moves is _FAILED:
            return []
        if result is not None:
            _check_outcome(report, pos, result, self.scored)
            if moves:
                report.problems.append(f"terminal position {show(pos)} (outcome "
                                       f"{show(result)}) still has moves {show(moves[:5])}")
            return []
        if not moves:
            self.no_moves += 1
        return moves

    def move(self, pos: Position, move: Move) -> None:
        """Check one move: its child is a hashable position, rebuilt equal by playing it
        again; its payoff is a number; its tier does not fall. Queue a new child."""
        game, report = self.game, self.report
        child = _call(report, "play", lambda p, m=move: game.play(p, m), pos, move)
        if child is _FAILED:
            return
        if child is None:
            report.problems.append(f"play({show(pos)}, {show(move)}) returned None: it "
                                   "must return the new position (a missing return?)")
            return
        if not _hashable(child):
            report.problems.append(f"play({show(pos)}, {show(move)}) returned "
                                   f"{show(child)}, which is not hashable")
            return
        again = _call(report, "play", lambda p, m=move: game.play(p, m), pos, move)
        if again is not _FAILED and (again != child or hash(again) != hash(child)):
            report.problems.append(
                f"play({show(pos)}, {show(move)}) is not deterministic, or the positions "
                f"are not equal when rebuilt: {show(child)} then {show(again)}")
        if self.payoff is not None:
            pay = _call(report, "payoff", self.payoff, pos, move)
            if pay is not _FAILED and not is_points(pay):
                report.problems.append(f"payoff({show(pos)}, {show(move)}) is "
                                       f"{show(pay)}, not a finite number")
            if pay is not _FAILED and self.step is not None:
                _check_step(report, self.step, pos, move, child, pay)
        if self.tier is not None:
            _check_tier(report, self.tier, pos, move, child, self.strict)
        d = self.depth.get(child)
        if d is None:
            self.depth[child] = self.depth[pos] + 1
            self.queue.append(child)
        elif ((d - self.depth[pos]) % 2 == 0 and not self.with_player
              and self.both_parities is None):
            self.both_parities = child


_FAILED = object()
_HIDDEN_SAMPLE = 300  # positions asked again on a fresh game object


def _copy(game: Game) -> Game | None:
    try:
        return copy.deepcopy(game)
    except Exception:  # noqa: BLE001 - a game holding an open file, a lock, a compiled kernel
        return None


def _state(game: Game) -> dict[str, Any]:
    return dict(getattr(game, "__dict__", {}))


def _check_hidden_state(report: CheckReport, game: Game, fresh: Game | None,
                        seen: list[Position], both_parities: Position | None) -> None:
    """State kept on the game object rather than in the position (the classic: whose turn
    it is, flipped in ``play``) makes the same position mean different things. Found two
    ways: attributes of the game that changed during the walk, and positions whose moves,
    outcome, payoffs or player differ when asked of a fresh copy of the game, or of that
    copy after one ``play``. A position reached after both an
    even and an odd number of moves is mentioned only with such a finding: on its own it is
    right for impartial games and for games whose position tells whose turn it is."""
    if fresh is None:
        report.notes.append("the game object cannot be copied, so state kept on it (such "
                            "as whose turn it is) was not checked")
        return
    changed = [k for k, v in _state(fresh).items()
               if k in _state(game) and not _same(_state(game)[k], v)]
    scalars = [k for k in changed if isinstance(_state(fresh)[k], str | int | float | bool)]
    step = max(1, len(seen) // _HIDDEN_SAMPLE)
    differs = None
    caps = capabilities(game)
    scored, with_player = caps.scored, caps.player is not None
    for pos in seen[::step]:
        try:
            now = _signature(game, pos, scored, with_player)
            new = _copy(fresh)
            then = _signature(new, pos, scored, with_player)
            if not _same(now, then):
                differs = (pos, now, then)
                break
            _one_play(new, seen[0])  # one play on a fresh copy (a toggle stays toggled),
            again = _signature(new, pos, scored, with_player)  # then the same questions
            if not _same(again, then):
                differs = (pos, again, then)
                break
        except Exception:  # noqa: BLE001 - already reported by the walk
            continue
    if differs is None:  # the same answers whatever happened before: no hidden state
        if changed:
            report.warnings.append(
                f"the game object's {', '.join(changed[:3])} changed while it was walked "
                "(its answers did not): fine for a cache, wrong if it holds part of the "
                "position")
        return
    found = []
    if scalars:
        found.append("its " + ", ".join(f"{k} ({show(_state(fresh)[k])} at the start, "
                                        f"{show(_state(game)[k])} now)" for k in scalars[:3])
                     + " changed while it was walked")
    if differs is not None:
        pos, now, then = differs
        what = next(k for k, a, b in zip(_ASKED, now, then, strict=True) if not _same(a, b))
        found.append(f"{what}({show(pos)}) is {show(_short(then[_ASKED.index(what)]))} on "
                     f"a fresh copy of the game but {show(_short(now[_ASKED.index(what)]))} "
                     "after other calls")
    parity = (f"; position {show(both_parities)} is reached after both an even and an odd "
              "number of moves, so it must say whose turn it is"
              if both_parities is not None else "")
    report.problems.append(
        "the game keeps state outside the position: " + "; ".join(found) + parity +
        ". Put it in the position (e.g. whose turn it is), or define player(pos)")


_ASKED = ("moves", "outcome", "payoff", "player")


def _signature(game: Any, pos: Position, scored: bool, with_player: bool
               ) -> tuple[Any, ...]:
    """Everything the game answers about ``pos``: its moves, its outcome, the payoff of
    its first moves (scored games) and who moves (games with ``player``)."""
    moves = list(game.moves(pos))
    return (moves, game.outcome(pos),
            [game.payoff(pos, m) for m in moves[:8]] if scored else None,
            game.player(pos) if with_player else None)


def _one_play(game: Any, start: Position) -> None:
    """One ``play`` from the start (if it has a move), as a game being played would."""
    moves = list(game.moves(start))
    if moves:
        game.play(start, moves[0])


def _short(x: Any) -> Any:
    if isinstance(x, Value):
        return x.value
    return x[:6] if isinstance(x, list) else x


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - an __eq__ that raises or returns an array
        return a is b


def _check_step(report: CheckReport, step: Callable[[Position, Move], object], pos: Position,
                move: Move, child: Position, pay: object) -> None:
    """``step(pos, move)`` must be ``(play(pos, move), payoff(pos, move))``."""
    got = _call(report, "step", step, pos, move)
    if got is not _FAILED and got != (child, pay):
        report.problems.append(f"step({show(pos)}, {show(move)}) returned {show(got)}, not "
                               f"(play, payoff) = {show((child, pay))}")


def _check_tier(report: CheckReport, tier: Callable[[Position], int], pos: Position,
                move: Move, child: Position,
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


def _call(report: CheckReport, name: str, fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return fn(*args)
    except Exception as exc:  # noqa: BLE001
        shown = ", ".join(show(a) for a in args)
        report.problems.append(f"{name}({shown}) raised {type(exc).__name__}: {exc}")
        return _FAILED


def _check_outcome(report: CheckReport, pos: Position, result: object, scored: bool) -> None:
    if isinstance(result, Value):
        if result is Value.DRAW:
            report.problems.append(f"outcome({show(pos)}) is DRAW: draws are proved by the engine, "
                                   "an outcome is WIN, LOSE or TIE")
        elif scored and result is not Value.TIE:
            report.problems.append(f"outcome({show(pos)}) is {result.name} in a scored game: use "
                                   "Value.TIE or the final points for the player to move")
        return
    if scored and is_points(result):
        return
    if scored and is_real(result):
        report.problems.append(f"outcome({show(pos)}) is {show(result)}: final points must "
                               "be finite numbers")
        return
    report.problems.append(f"outcome({show(pos)}) is {show(result)}: expected None, Value.WIN, "
                           "Value.LOSE or Value.TIE" + (" or a number" if scored else ""))
