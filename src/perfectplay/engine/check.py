"""``check_game``: a conformance check of a user-defined game, in plain words."""

from __future__ import annotations

import contextlib
import copy
import math
import pickle
import random
import types
import weakref
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..errors import GameError, show
from ..numbaboot import numpy_on_use
from .discovery import hashable as _hashable
from .discovery import is_move_list, is_points, is_real
from .protocol import (
    BOUND_FLAGS,
    LOSES_IN_2,
    NOT_SOONER,
    WINS_IN_1,
    Game,
    Move,
    Position,
    Value,
    Worth,
    capabilities,
    is_compiled,
)
from .solved import Solved

if TYPE_CHECKING:
    import numpy as np

    from .compiled import CompiledGame
else:
    np = numpy_on_use  # numpy only where a hook's answer may be a numpy integer


@dataclass
class CheckReport:
    """What :func:`check_game` found. ``ok`` is true when there are no problems (warnings and
    notes are informational)."""

    positions: int = 0
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    complete: bool = True
    quick: bool = False  # positions sampled along random games (``check_game(quick=True)``)
    #: the problems a solve meets first thing and reports itself (also in ``problems``): an
    #: exception the game raised, a position that cannot be hashed, a step that returns no
    #: pair; :func:`precheck` leaves them to it
    raised: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def __str__(self) -> str:
        lines = [f"checked {self.positions:,} positions"
                 + (" along random games from the start" if self.quick else
                    "" if self.complete else " (stopped at the limit)")
                 + (": no problems" if self.ok else f": {len(self.problems)} problem(s)")]
        lines += [f"problem: {p}" for p in self.problems]
        lines += [f"warning: {w}" for w in self.warnings]
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


_MAX_REPORTED = 20
_ALL_FLAGS = sum(BOUND_FLAGS.values())
_FLAG_LIST = " | ".join(f"{name} ({bit})" for name, bit in BOUND_FLAGS.items())


def check_game(game: Any, max_positions: int | None = None, *,
               tiers_rise: bool | None = None, quick: bool = False) -> CheckReport:
    """Walk up to ``max_positions`` positions of ``game`` (default 100,000) and report every
    problem with what the engine relies on, naming the position. Python and compiled games
    alike.

    **The rules**: the four methods exist; positions are hashable and a position rebuilt by
    playing the same move again is equal, with the same hash (``play`` is deterministic);
    ``moves``, ``outcome``, ``payoff`` and ``player`` give the same answer when asked twice;
    no moves from a terminal position; outcomes are None, WIN, LOSE, TIE (or numbers in
    scored games); payoffs are numbers; ``player`` returns 0 or 1. Notes the non-terminal
    positions without moves (a loss for the player to move, normal play) and finds state
    kept on a Python game object instead of in the position (the classic: whose turn it is,
    flipped in ``play``): positions whose moves differ on a fresh copy of the game or after
    one more ``play``, attributes that changed during the walk. A position reached after
    both an even and an odd number of moves is named only alongside such a finding (on its
    own it is right: impartial games, positions that tell whose turn it is).

    **The hooks**, each asked twice (a hook that answers differently is a problem), on
    every walked position:

    - ``encode``/``decode``: codes are int64, ``decode(encode(p)) == p``, and no two
      walked positions share a code (a compiled game's codes are its positions);
    - ``tier`` never falls along a move (and rises along every move of a
      :class:`~perfectplay.engine.CompiledGame`, whose tiers the in-memory solver takes
      one by one; ``tiers_rise=False`` lets moves stay in their tier, as a store allows,
      and ``True`` asks a rise of any game);
      ``rank``/``unrank`` (compiled): ``unrank(tier(p), rank(p)) == p``, ranks >= 0 and
      different inside a tier;
    - ``step`` (Python or compiled) is ``(play, payoff)``;
    - ``outcome_after(pos, move, child)`` is ``outcome(child)``, along every walked move;
    - ``canonical``: its image is canonical itself, in the same tier, and (on an even
      spread of up to 3,000 positions) ends as the position does and has moves to the
      same canonical children with the same payoffs and turn changes;
    - ``search_moves`` lists legal moves only, and at least one where there are moves;
    - ``static_bounds`` gives flags CANNOT_WIN | CANNOT_LOSE | MUST_LOSE (| WINS_IN_1 |
      LOSES_IN_2 | NOT_SOONER in win/lose games), true at ended positions;
    - ``horizon`` is >= 0, 0 at a tie, >= 1 where there are moves; when the whole game was
      walked, no game from the position lasts longer and every tie from it lasts exactly
      that long;
    - ``cannot_tie`` (an attribute, True): a win/lose game, no walked game ends in a tie.

    **The values**: when the walk took in the whole game (at most ``max_positions``
    positions) and the rules have no problem, the engine solves it once (a Python game
    through its four methods, ``payoff`` and ``player`` only, so that a broken hook cannot
    spoil the answer; a compiled one by compiled discovery, not by tiers) and checks:
    ``canonical(p)`` has the value and remoteness of ``p`` (images the start cannot reach
    are counted in a note); a best move ``search_moves`` lists is as good (value, then
    remoteness) as the best legal move; every ``static_bounds`` claim holds (CANNOT_WIN:
    not a win, a margin <= 0; CANNOT_LOSE: not a loss, a margin >= 0; MUST_LOSE: a loss, a
    margin < 0; WINS_IN_1: a win in 1; LOSES_IN_2: a loss in 2; NOT_SOONER: no win in
    fewer than 3 plies, no loss in 1 to 3); no position of a game declaring
    ``cannot_tie`` is worth a tie; a scored game's margin lies within ``margin_bound``.
    When the game is bigger a note says these were not checked.

    **Quick** (``quick=True``: the check :func:`precheck` makes before every solve and
    search): the positions are sampled along random games from the start (seeded: the same
    ones every run; ``max_positions`` of them, :data:`QUICK_POSITIONS` by default) instead
    of walked breadth first, so endings are seen as well as openings. Each is checked as
    above, every move of it played twice; the hooks are asked on the sample; state kept on
    the game object is looked for on :data:`QUICK_HIDDEN` of them; the game is not solved
    (no value checks, no lengths of games). O(sampled positions x moves) calls of the game.

    **What cannot be seen.** A wrong ``player`` that is deterministic (flipped at some
    positions) makes another game, just as consistent: nothing in the rules but ``player``
    says who moves, so only a twin of the game can tell (the tests compare each shipped
    compiled game with its Python twin). Checked are its range, its determinism and, for
    Python games, that it does not depend on state outside the position. Likewise a rule
    that is wrong but deterministic and consistent (a ``moves`` that forgets a move) is a
    different game, not a broken one. Only walked positions are checked: a hook wrong
    only beyond ``max_positions`` positions from the start is not seen. A compiled
    ``rank`` that answers past its tier's range can make the compiled ``unrank`` read
    outside its tables when it is asked (numba does not check bounds), here as in a store.

    >>> class Bad:
    ...     def initial(self): return [0]
    ...     def moves(self, p): return []
    ...     def play(self, p, m): return p
    ...     def outcome(self, p): return None
    >>> print(check_game(Bad()))
    checked 0 positions: 1 problem(s)
    problem: the start position [0] is not hashable (use a tuple, int, ...)

    :param game: a Python game or a :class:`~perfectplay.engine.CompiledGame`.
    :param max_positions: the most positions walked (None: 100,000, or
        :data:`QUICK_POSITIONS` sampled when ``quick``).
    :param tiers_rise: whether every move must raise ``tier`` (None: a compiled game's
        must, a Python game's may stay in its tier; False: any may stay).
    :param quick: sample positions along random games instead of walking every one, and
        solve nothing (the check made before a solve or a search).
    :returns: a :class:`~perfectplay.engine.CheckReport`: ``ok``, the ``problems`` (each
        naming its position), the notes and the number of positions checked. A broken
        game is reported, never raised.
    """
    if max_positions is None:
        max_positions = QUICK_POSITIONS if quick else 100_000
    report = CheckReport(quick=quick)
    for name in ("initial", "moves", "play", "outcome"):
        if not callable(getattr(game, name, None)):
            report.problems.append(f"the game has no method {name}()")
    if report.problems:
        return report
    # the game object as it was before any call: to find hidden state
    fresh = None if is_compiled(game) else _copy(game)
    start = _start(report, game)
    if start is _FAILED:
        return report
    walk = _Walk(game, report, start, tiers_rise)
    if quick:
        walk.playouts(max_positions, random.Random(_SEED))
    else:
        walk.run(max_positions)
    _Hooks(game, report, walk).run()
    if not is_compiled(game):  # compiled rules see nothing but the code
        _check_hidden_state(report, game, fresh, walk.walked, walk.both_parities,
                            QUICK_HIDDEN if quick else _HIDDEN_SAMPLE)
    if walk.no_moves:
        report.notes.append(f"{walk.no_moves:,} non-terminal position(s) have no moves: a "
                            "loss for the player to move (normal play)"
                            + ("; in a scored game they end with margin 0" if walk.scored
                               else ""))
    return report


def precheck(game: object, *, tiers_rise: bool | None = None) -> None:
    """The check made before every :func:`~perfectplay.engine.solve`,
    :func:`~perfectplay.engine.search` and :func:`~perfectplay.engine.search_many` (and by
    every command that loads a game from a file): :func:`check_game` in its quick mode
    (:data:`QUICK_POSITIONS` positions along random games from the start), raising a
    :class:`~perfectplay.GameError` with its first problem, in one line, when it finds any.
    A few per cent of a solve; ``check=False`` (``--no-check``) skips it. perfectplay's own
    games are not checked again (:func:`checked_by_the_suite`).

    >>> class Flipped:  # whose turn it is kept on the game and flipped in play
    ...     turn = 1
    ...     def initial(self): return ()
    ...     def moves(self, p): return [0, 1] if len(p) < 4 else []
    ...     def play(self, p, m):
    ...         self.turn = 3 - self.turn
    ...         return p + ((m, self.turn),)
    ...     def outcome(self, p): return None
    >>> precheck(Flipped())
    Traceback (most recent call last):
    ...
    perfectplay.errors.GameError: the game failed its check: play((), 0) is not deterministic, ...
    """
    if checked_by_the_suite(game) or _passed(game, tiers_rise):
        return
    report = check_game(game, quick=True, tiers_rise=tiers_rise)
    if len(report.raised) < len(report.problems):
        raise GameError(refusal(report))
    _remember(game, tiers_rise)


#: The game objects that passed :func:`precheck` (with tiers rising, or not), so a loop
#: of searches over one game checks it once.
_PASSED: dict[bool | None, weakref.WeakSet[Any]] = {}


def _passed(game: object, tiers_rise: bool | None) -> bool:
    try:
        return game in _PASSED.get(tiers_rise, ())
    except TypeError:  # a game object that cannot be hashed or weakly referenced
        return False


def _remember(game: object, tiers_rise: bool | None) -> None:
    with contextlib.suppress(TypeError):  # not hashable or not weakly referable: not kept
        _PASSED.setdefault(tiers_rise, weakref.WeakSet()).add(game)


def refusal(report: CheckReport) -> str:
    """The one line :func:`precheck` refuses a game with: the first problem that is not an
    exception the game raised, how many more, and how to see them all or skip the check."""
    found = [p for p in report.problems if p not in report.raised]
    first = " ".join(found[0].split())  # one line, whatever the reprs hold
    more = len(found) - 1
    capped = "+" if len(report.problems) >= _MAX_REPORTED else ""  # the walk stopped there
    return (f"the game failed its check: {first}"
            + (f" (and {more}{capped} more problem{'s' if more > 1 else ''})" if more else "")
            + "; check_game(game) or solve --check reports in full, check=False or "
              "--no-check skips this check")


def checked_by_the_suite(game: object) -> bool:
    """True for perfectplay's own games (the catalog's, the seed problems' rules, the
    OpenSpiel adapter, whose key is checked on random games of its own): the test suite
    checks them in full, so :func:`precheck` does not check them again. Their class is
    defined in the package, outside the engine and the store (whose classes, such as a
    plain :class:`~perfectplay.engine.CompiledGame`, hold rules written elsewhere).

    >>> from perfectplay.games import nim
    >>> checked_by_the_suite(nim(heaps=(1, 2))), checked_by_the_suite(object())
    (True, False)
    """
    module = type(game).__module__ or ""
    return (module.startswith("perfectplay.")
            and not module.startswith(("perfectplay.engine.", "perfectplay.store.")))


def _start(report: CheckReport, game: Game) -> Position | object:
    """The start position, or _FAILED with the problem reported."""
    try:
        start = game.initial()
    except Exception as exc:  # noqa: BLE001 - a user's game may raise anything
        _raised(report, f"initial() raised {type(exc).__name__}: {exc}")
        return _FAILED
    if not _hashable(start):  # a solve hashes it first thing: left to it (its hash's error)
        _raised(report, f"the start position {show(start)} is not hashable (use a tuple, "
                        "int, ...)")
        return _FAILED
    return start


class _Walk:
    """The breadth-first walk of :func:`check_game`: each position's own checks (player,
    outcome, moves), then each move's (play twice, payoff, tier)."""

    def __init__(self, game: Game, report: CheckReport, start: Position,
                 tiers_rise: bool | None = None) -> None:
        self.game, self.report = game, report
        caps = capabilities(game)
        self.scored, self.with_player = caps.scored, caps.player is not None
        self.player, self.payoff = caps.player, caps.payoff
        self.tier = caps.tier
        self.step = caps.step
        self.after = caps.outcome_after
        # compiled tiers must rise for the in-memory tier solver (a store lets them stay)
        self.strict = caps.tiered if tiers_rise is None else tiers_rise
        self.depth: dict[Position, int] = {start: 0}
        self.queue = [start]  # every position found, in the order found
        self.walked: list[Position] = []  # the positions checked, in the order checked
        self.no_moves = 0
        self.edges: dict[Position, list[tuple[Move, Position]]] = {}  # the walked moves
        self.ended: dict[Position, object] = {}  # the outcome of each terminal position
        self.tiers: dict[Position, Any] = {}  # tier(pos), asked once
        # reached after an even and an odd number of moves:
        self.both_parities: Position | None = None

    def tier_of(self, pos: Position) -> Any:
        """``tier(pos)``, asked once a position (its determinism is checked after)."""
        t = self.tiers.get(pos, _FAILED)
        if t is _FAILED:
            assert self.tier is not None
            t = self.tiers[pos] = self.tier(pos)
        return t

    def run(self, max_positions: int) -> None:
        """Breadth first from the start, up to ``max_positions`` positions."""
        report, i = self.report, 0
        while i < len(self.queue):
            if self.enough():
                break
            if i >= max_positions:
                report.complete = False
                break
            self.walk_one(self.queue[i])
            i += 1
        report.positions = i

    def playouts(self, max_positions: int, rng: random.Random) -> None:
        """Random games from the start (a move drawn by ``rng`` at each position), each
        new position checked as :meth:`run` checks it, until ``max_positions`` are checked.
        A game ends where the position has no moves or after ``max_positions // 4`` plies
        (at least 8); at most ``4 * max_positions`` plies in all, so a small game or a
        cycle ends the walk too."""
        report, start = self.report, self.queue[0]
        longest = max(8, max_positions // 4)
        pos, ply = start, 0
        for _ in range(4 * max_positions):
            if len(self.walked) >= max_positions or self.enough():
                break
            if pos not in self.edges:
                self.walk_one(pos)
            kids = self.edges[pos]
            if not kids or ply >= longest:
                pos, ply = start, 0
            else:
                pos, ply = rng.choice(kids)[1], ply + 1
        report.positions = len(self.walked)
        report.complete = len(self.walked) == len(self.queue)

    def enough(self) -> bool:
        """True (with a note) once :data:`_MAX_REPORTED` problems are found."""
        if len(self.report.problems) < _MAX_REPORTED:
            return False
        self.report.notes.append(f"stopped after {_MAX_REPORTED} problems")
        return True

    def walk_one(self, pos: Position) -> None:
        """Check ``pos`` and each of its moves; record its children."""
        self.walked.append(pos)
        kids = self.edges[pos] = []
        for move in self.position(pos):
            child = self.move(pos, move)
            if child is not _FAILED:
                kids.append((move, child))

    def position(self, pos: Position) -> list[Move]:
        """Check one position; its moves when it is not terminal (else none)."""
        game, report = self.game, self.report
        if self.player is not None:
            try:
                who = self.player(pos)
                if who not in (0, 1):
                    report.problems.append(f"player({show(pos)}) returned {show(who)}, not "
                                           "0 or 1")
                again = self.player(pos)
                if again != who:
                    report.problems.append(f"player({show(pos)}) is not deterministic: "
                                           f"{show(who)} then {show(again)}")
            except Exception as exc:  # noqa: BLE001
                _raised(report, f"player({show(pos)}) raised {type(exc).__name__}: {exc}")
        result = _call(report, "outcome", game.outcome, pos)
        if result is _FAILED:
            return []
        again = _call(report, "outcome", game.outcome, pos)
        if again is not _FAILED and not _same(again, result):
            report.problems.append(f"outcome({show(pos)}) is not deterministic: "
                                   f"{show(result)} then {show(again)}")
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
        again = _call(report, "moves", lambda p: list(game.moves(p)), pos)
        if again is not _FAILED and not _same(again, moves):
            report.problems.append(f"moves({show(pos)}) is not deterministic: "
                                   f"{show(_short(moves))} then {show(_short(again))}")
        if result is not None:
            self.ended[pos] = result
            _check_outcome(report, pos, result, self.scored)
            if moves:  # the engine never asks: the quick check only warns
                (report.warnings if report.quick else report.problems).append(
                    f"terminal position {show(pos)} (outcome {show(result)}) still has moves "
                    f"{show(moves[:5])}")
            return []
        if not moves:
            self.no_moves += 1
        return moves

    def move(self, pos: Position, move: Move) -> Position | object:
        """Check one move: its child is a hashable position, rebuilt equal by playing it
        again; its payoff is a number; its tier does not fall. Queue a new child; return it
        (_FAILED when there is none)."""
        game, report = self.game, self.report
        child = _call(report, "play", lambda p, m=move: game.play(p, m), pos, move)
        if child is _FAILED:
            return _FAILED
        if child is None:
            report.problems.append(f"play({show(pos)}, {show(move)}) returned None: it "
                                   "must return the new position (a missing return?)")
            return _FAILED
        if not _hashable(child):  # a solve hashes every child: left to it
            _raised(report, f"play({show(pos)}, {show(move)}) returned {show(child)}, which "
                            "is not hashable")
            return _FAILED
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
            twice = _call(report, "payoff", self.payoff, pos, move)
            if pay is not _FAILED and twice is not _FAILED and not _same(pay, twice):
                report.problems.append(f"payoff({show(pos)}, {show(move)}) is not "
                                       f"deterministic: {show(pay)} then {show(twice)}")
            if pay is not _FAILED and self.step is not None:
                _check_step(report, self.step, pos, move, child, pay)
        if self.after is not None:
            _check_after(report, game, self.after, pos, move, child)
        if self.tier is not None:
            _check_tier(report, self.tier_of, pos, move, child, self.strict)
        d = self.depth.get(child)
        if d is None:
            self.depth[child] = self.depth[pos] + 1
            self.queue.append(child)
        elif ((d - self.depth[pos]) % 2 == 0 and not self.with_player
              and self.both_parities is None):
            self.both_parities = child
        return child


_FAILED = object()
_HIDDEN_SAMPLE = 300  # positions asked again on a fresh game object
#: The positions the quick check (:func:`precheck`, before every solve and search) samples.
QUICK_POSITIONS = 200
#: Of those, the positions asked again on a fresh copy of a Python game (a copy each).
QUICK_HIDDEN = 12
_SEED = 20240601  # the quick check's random games: the same every run


def _copy(game: Game) -> Game | None:
    try:
        return copy.deepcopy(game)
    except Exception:  # noqa: BLE001 - a game holding an open file, a lock, a compiled kernel
        return None


def _state(game: Game) -> dict[str, Any]:
    """The game object's attributes, less its bound methods (a compiled game keeps some,
    and a copy's are other objects that say the same)."""
    return {k: v for k, v in getattr(game, "__dict__", {}).items()
            if not isinstance(v, types.MethodType)}


def _check_hidden_state(report: CheckReport, game: Game, fresh: Game | None,
                        seen: list[Position], both_parities: Position | None,
                        sample: int = _HIDDEN_SAMPLE) -> None:
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
               if k in _state(game) and not _alike(_state(game)[k], v)]
    scalars = [k for k in changed if isinstance(_state(fresh)[k], str | int | float | bool)]
    step = max(1, len(seen) // sample)
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


def _short(x: object) -> object:
    if isinstance(x, Value):
        return x.value
    return x[:6] if isinstance(x, list) else x


def _alike(a: object, b: object, depth: int = 3) -> bool:
    """Equal, or (objects without their own ``==``, such as a helper a game holds and its
    copy) of one type with alike attributes, or (numpy arrays, records of them) pickled
    to the same bytes."""
    if _same(a, b):
        return True
    if type(a) is not type(b):
        return False
    da, db = getattr(a, "__dict__", None), getattr(b, "__dict__", None)
    if (depth and type(a).__eq__ is object.__eq__ and isinstance(da, dict)
            and isinstance(db, dict)):
        return da.keys() == db.keys() and all(_alike(da[k], db[k], depth - 1) for k in da)
    try:  # numpy arrays, records holding them: the same bytes
        return pickle.dumps(a) == pickle.dumps(b)
    except Exception:  # noqa: BLE001 - what does not pickle is not compared
        return False


def _same(a: object, b: object) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - an __eq__ that raises or returns an array
        return a is b


def _check_step(report: CheckReport, step: Callable[[Position, Move], object], pos: Position,
                move: Move, child: Position, pay: object) -> None:
    """``step(pos, move)`` must be ``(play(pos, move), payoff(pos, move))``."""
    got = _call(report, "step", step, pos, move)
    if got is not _FAILED and got != (child, pay):
        # not a pair at all: discovery, which calls step, refuses it itself
        shaped = isinstance(got, tuple) and len(got) == 2
        (_problem if shaped else _raised)(
            report, f"step({show(pos)}, {show(move)}) returned {show(got)}, not (play, "
                    f"payoff) = {show((child, pay))}")


def _check_after(report: CheckReport, game: Game, after: Callable[..., object],
                 pos: Position, move: Move, child: Position) -> None:
    """``outcome_after(pos, move, child)`` must be ``outcome(child)`` (discovery asks it
    instead)."""
    got = _call(report, "outcome_after", after, pos, move, child)
    want = _call(report, "outcome", game.outcome, child)
    if got is not _FAILED and want is not _FAILED and not _same(got, want):
        report.problems.append(
            f"outcome_after({show(pos)}, {show(move)}, {show(child)}) returned {show(got)}, "
            f"not outcome({show(child)}) = {show(want)}")


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
        _raised(report, f"{name}({shown}) raised {type(exc).__name__}: {exc}")
        return _FAILED


def _problem(report: CheckReport, text: str) -> None:
    report.problems.append(text)


def _raised(report: CheckReport, text: str) -> None:
    """A problem a solve meets and reports itself (:attr:`CheckReport.raised`)."""
    report.problems.append(text)
    report.raised.append(text)


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


# -- the optional hooks, after the walk -------------------------------------------------------
_PER_HOOK = 3  # problems reported per hook (the rest are counted)
_LOCAL_SAMPLE = 3000  # positions whose canonical image is played out move by move


class _Plain:
    """The four methods of a game and its ``payoff``/``player``, nothing else: the engine
    solves this view, so the values the hooks are checked against do not depend on the
    hooks (a wrong ``encode`` or ``tier`` cannot spoil them)."""

    parallel = False  # one process: a check should not fork

    def __init__(self, game: Game) -> None:
        self.initial, self.moves, self.play, self.outcome = (
            game.initial, game.moves, game.play, game.outcome)
        caps = capabilities(game)
        if caps.payoff is not None:
            self.payoff = caps.payoff
        if caps.player is not None:
            self.player = caps.player


class _Hooks:
    """The checks of ``encode``/``decode``, ``tier``, ``canonical``, ``step``, ``rank`` and
    ``unrank``, ``search_moves``, ``static_bounds``, ``horizon`` and ``margin_bound`` on the
    walked positions: first what the rules alone tell (round trips, determinism, legal
    moves, terminal positions), then, when the whole game was walked, what its values
    tell (the engine solves the game's :class:`_Plain` view once)."""

    def __init__(self, game: Game, report: CheckReport, walk: _Walk) -> None:
        self.game, self.report, self.walk = game, report, walk
        self.sample = walk.walked
        self.caps = caps = capabilities(game)
        self.counts: dict[tuple[str, bool], int] = {}  # (hook, raised): problems
        self.compiled = compiled = is_compiled(game)
        self.codec = caps.codec and not compiled  # a compiled game's codes are its positions
        self.canonical = caps.canonical if (caps.symmetric or not compiled) else None
        self.tier = caps.tier
        self.player = caps.player
        self.horizon = caps.horizon
        self.search_moves: Callable[[Position], list[Move]] | None = caps.search_moves
        self.static_bounds: Callable[[Position], int] | None = caps.static_bounds
        self.no_tie = getattr(game, "cannot_tie", False) is True  # declared: checked
        self.margin_bound: Callable[[Position], int] | None = None
        self.step: Callable[[Position, Move], Any] | None = None
        self.rank: Callable[[Position], int] | None = None
        self.unrank: Callable[[int, int], Position] | None = None
        self.endgame: Callable[[Position, int, int], tuple[int, int]] | None = None
        if compiled:
            self._compiled_hooks(cast("CompiledGame", game))

    def _compiled_hooks(self, game: CompiledGame) -> None:
        """A compiled game's hooks that its Python face does not show, as Python calls."""
        r, i64 = game.rules, np.int64
        if game.has_search_moves:
            buf = np.empty(game.max_moves + 1, np.int64)

            def listed(pos: Any) -> list[Move]:
                k = int(r.search_moves(i64(pos), buf))
                if not 0 <= k <= game.max_moves:
                    raise GameError(f"it returned {k} moves; max_moves is {game.max_moves}")
                return [int(m) for m in buf[:k]]
            self.search_moves = listed
        if game.has_static_bounds:
            self.static_bounds = lambda pos: int(r.static_bounds(i64(cast(int, pos))))
        if game.has_margin_bound:
            self.margin_bound = lambda pos: int(r.margin_bound(i64(cast(int, pos))))
        if game.has_step:
            self.step = lambda pos, m: tuple(int(x) for x in r.step(i64(cast(int, pos)),
                                                                   i64(m)))
        if game.has_endgame:
            self.endgame = lambda pos, a, b: (lambda s, n: (int(s), int(n)))(
                *r.endgame(i64(cast(int, pos)), i64(a), i64(b)))
        if game.has_rank:
            rk = game.ranking
            self.rank = lambda pos: int(rk.rank(i64(cast(int, pos))))
            self.unrank = lambda t, n: int(rk.unrank(i64(t), i64(n)))

    # -- reporting --------------------------------------------------------------------------
    def problem(self, hook: str, text: str, raised: bool = False) -> None:
        """A problem of ``hook`` (``raised``: an exception it raised), the first
        :data:`_PER_HOOK` of each kind in words, the rest counted."""
        n = self.counts[hook, raised] = self.counts.get((hook, raised), 0) + 1
        if n <= _PER_HOOK:
            (_raised if raised else _problem)(self.report, text)

    def call(self, hook: str, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` asked twice: the answer, or _FAILED with the problem reported (an
        exception, or two different answers)."""
        try:
            first = fn(*args)
            second = fn(*args)
        except Exception as exc:  # noqa: BLE001 - a user's hook may raise anything
            self.problem(hook, f"{hook}({_shown(args)}) raised {type(exc).__name__}: {exc}",
                         raised=True)
            return _FAILED
        if not _same(first, second):
            self.problem(hook, f"{hook}({_shown(args)}) is not deterministic: "
                               f"{show(_short(first))} then {show(_short(second))}")
            return _FAILED
        return first

    def run(self) -> None:
        if self.codec:
            self.check_codec()
        if self.tier is not None:
            tier, known = self.tier, self.walk.tiers
            for pos in self.sample:
                t = known.get(pos, _FAILED)
                again = _try(tier, pos)
                if t is not _FAILED and again is not _FAILED and not _same(t, again):
                    self.problem("tier", f"tier({show(pos)}) is not deterministic: {show(t)} "
                                         f"then {show(again)}")
        if self.step is not None:
            self.check_step()
        if self.rank is not None:
            if any("tier" in problem for problem in self.report.problems):
                # a compiled unrank reads tables by tier: asked with a wrong tier it would
                # read outside them (numba does not check bounds)
                self.report.notes.append("rank and unrank were not checked: fix tier first")
            else:
                self.check_rank()
        if self.canonical is not None:
            self.check_canonical()
        if self.search_moves is not None:
            self.check_search_moves()
        if self.static_bounds is not None:
            self.check_static_bounds()
        if self.horizon is not None:
            self.check_horizon()
        if self.no_tie:
            self.check_cannot_tie()
        if self.margin_bound is not None:
            for pos in self.sample:
                self.call("margin_bound", self.margin_bound, pos)
        if not self.report.quick:  # the quick check solves nothing
            self.check_values()
        for (hook, raised), n in self.counts.items():
            if n > _PER_HOOK:
                (_raised if raised else _problem)(
                    self.report, f"{hook}: {n - _PER_HOOK:,} more "
                    + ("exception(s) raised by" if raised else "problem(s) of") + " the same hook")

    # -- what the rules alone tell ----------------------------------------------------------
    def check_codec(self) -> None:
        """``decode(encode(p)) == p``, codes are int64, and no two positions share one.
        The quick check only asks it of codes the engine would use (:meth:`codes_used`)."""
        assert self.caps.encode is not None and self.caps.decode is not None
        if self.report.quick and not self.codes_used():
            return
        owner: dict[int, Position] = {}
        for pos in self.sample:
            code = self.call("encode", self.caps.encode, pos)
            if code is _FAILED:
                continue
            if isinstance(code, bool) or not isinstance(code, int | np.integer) \
                    or not -(2**63) <= int(code) < 2**63:
                self.problem("encode", f"encode({show(pos)}) is {show(code)}: codes are "
                                       "int64 integers")
                continue
            back = self.call("decode", self.caps.decode, code)
            if back is not _FAILED and (not _same(back, pos) or not _hashable(back)
                                        or hash(back) != hash(pos)):
                self.problem("decode", f"decode(encode({show(pos)})) = decode({code}) is "
                                       f"{show(back)}, not the position")
            other = owner.setdefault(int(code), pos)
            if other is not pos and not _same(other, pos):
                self.problem("encode", f"encode gives {show(other)} and {show(pos)} the same "
                                       f"code {code}: codes must differ for different "
                                       "positions")

    def codes_used(self) -> bool:
        """Whether discovery keeps the sampled positions as codes: every code a Python int
        inside int64 and the start's decoded back; else it keeps the positions as objects
        and the codes do not matter (an ``encode`` past 2**63 is allowed)."""
        encode, decode = self.caps.encode, self.caps.decode
        assert encode is not None and decode is not None
        try:
            codes = [encode(pos) for pos in self.sample]
            if any(isinstance(c, bool) or not isinstance(c, int) or not -(2**63) < c < 2**63
                   for c in codes):
                return False
            return not codes or _same(decode(codes[0]), self.sample[0])
        except Exception:  # noqa: BLE001 - the hook's own check reports it
            return True

    def check_step(self) -> None:
        """A compiled ``step(pos, move)`` is ``(play, payoff)`` (a Python one is checked by
        the walk)."""
        assert self.step is not None and self.caps.payoff is not None
        for pos in self.sample:
            for move, child in self.walk.edges.get(pos, ()):
                got = self.call("step", self.step, pos, move)
                want = (child, self.caps.payoff(pos, move))
                if got is not _FAILED and got != want:
                    self.problem("step", f"step({show(pos)}, {show(move)}) returned "
                                         f"{show(got)}, not (play, payoff) = {show(want)}")

    def check_rank(self) -> None:
        """``unrank(tier(p), rank(p)) == p``, ranks >= 0 and different inside a tier."""
        assert self.rank is not None and self.unrank is not None and self.tier is not None
        owner: dict[tuple[int, int], Position] = {}
        for pos in self.sample:
            r = self.call("rank", self.rank, pos)
            t = _try(self.walk.tier_of, pos)
            if r is _FAILED:
                continue
            if r < 0:
                self.problem("rank", f"rank({show(pos)}) is {r}: ranks are >= 0")
                continue
            back = self.call("unrank", self.unrank, t, r)
            if back is not _FAILED and back != pos:
                self.problem("unrank", f"unrank({t}, rank({show(pos)}) = {r}) is "
                                       f"{show(back)}, not the position")
            other = owner.setdefault((t, r), pos)
            if other != pos:
                self.problem("rank", f"rank gives {show(other)} and {show(pos)} (tier {t}) the "
                                     f"same rank {r}: ranks must differ inside a tier")

    def image(self, pos: Position) -> Position | object:
        """canonical(pos), checked to be a canonical position itself (canonical of it is
        itself) in the same tier; _FAILED when it is not."""
        assert self.canonical is not None
        c = self.call("canonical", self.canonical, pos)
        if c is _FAILED:
            return _FAILED
        if not _hashable(c):
            self.problem("canonical", f"canonical({show(pos)}) is {show(c)}, not hashable")
            return _FAILED
        cc = self.call("canonical", self.canonical, c)
        if cc is not _FAILED and not _same(cc, c):
            self.problem("canonical", f"canonical({show(pos)}) is {show(c)} but canonical of "
                                      f"that is {show(cc)}: one position stands for a "
                                      "symmetric set, so canonical(canonical(p)) == "
                                      "canonical(p)")
            return _FAILED
        if self.tier is not None:
            a, b = _try(self.walk.tier_of, pos), _try(self.tier, c)
            if a is not _FAILED and b is not _FAILED and a != b:
                self.problem("canonical", f"canonical({show(pos)}) is {show(c)}, in tier {b}, "
                                          f"not the position's tier {a}")
                return _FAILED
        return c

    def signature(self, pos: Position) -> tuple[Any, ...]:
        """What a symmetry keeps of a position: its outcome and, for each move, the
        canonical form of the child, the payoff and whether the turn passes (a multiset)."""
        game, caps = self.game, self.caps
        assert self.canonical is not None
        result = game.outcome(pos)
        if result is not None:
            return (_key(result), Counter())
        who = caps.player(pos) if caps.player is not None else None
        kids: Counter[Any] = Counter()
        for move in game.moves(pos):
            child = game.play(pos, move)
            kids[(self.canonical(child),
                  _key(caps.payoff(pos, move)) if caps.payoff is not None else None,
                  caps.player(child) != who if caps.player is not None else True)] += 1
        return (None, kids)

    def check_canonical(self) -> None:
        """canonical(p) is canonical itself, in p's tier, ends as p does, and its moves lead
        to the same canonical children with the same payoffs (on an even spread of the
        walked positions); its value is compared in :meth:`check_values`."""
        step = max(1, len(self.sample) // _LOCAL_SAMPLE)
        self.images: dict[Position, Position] = {}
        for i, pos in enumerate(self.sample):
            c = self.image(pos)
            if c is _FAILED or _same(c, pos):
                continue
            self.images[pos] = c
            if i % step:
                continue
            try:
                mine, theirs = self.signature(pos), self.signature(c)
            except Exception as exc:  # noqa: BLE001 - the image may not be a position
                self.problem("canonical", f"canonical({show(pos)}) is {show(c)}, which the "
                                          f"rules cannot play: {type(exc).__name__}: {exc}",
                             raised=True)
                continue
            if mine != theirs:
                what = ("ends differently" if mine[0] != theirs[0] else
                        "has other moves (after canonical, with their payoffs)")
                self.problem("canonical", f"canonical({show(pos)}) is {show(c)}, which "
                                          f"{what}: not a symmetric image of the position")

    def check_search_moves(self) -> None:
        """Only legal moves, at least one when there are moves (their quality is checked in
        :meth:`check_values`)."""
        order = self.search_moves
        assert order is not None
        self.listed: dict[Position, list[Move]] = {}
        for pos, kids in self.walk.edges.items():
            if pos in self.walk.ended:
                continue
            got = self.call("search_moves", lambda p: list(order(p)), pos)
            if got is _FAILED:
                continue
            legal = [m for m, _ in kids]
            bad = [m for m in got if not any(_same(m, x) for x in legal)]
            if bad:
                self.problem("search_moves", f"search_moves({show(pos)}) lists {show(bad[0])}, "
                                             f"not a legal move (moves: {show(_short(legal))})")
            elif legal and not got:
                self.problem("search_moves", f"search_moves({show(pos)}) lists no move, but "
                                             f"the position has {len(legal)}")
            elif len(got) < len(legal) or any(not any(_same(m, x) for x in got)
                                              for m in legal):
                self.listed[pos] = got  # some move left out: is a listed one as good?

    def check_static_bounds(self) -> None:
        """Flags are CANNOT_WIN (1), CANNOT_LOSE (2), MUST_LOSE (4), WINS_IN_1 (8),
        LOSES_IN_2 (16) and NOT_SOONER (32), the last three in win/lose games only and
        NOT_SOONER never with the other two; at an ended position they agree with its
        outcome (other positions: :meth:`check_values`)."""
        assert self.static_bounds is not None
        self.flags: dict[Position, int] = {}
        for pos in self.sample:
            f = self.call("static_bounds", self.static_bounds, pos)
            if f is _FAILED:
                continue
            if (isinstance(f, bool) or not isinstance(f, int | np.integer)
                    or not 0 <= f <= _ALL_FLAGS):
                self.problem("static_bounds", f"static_bounds({show(pos)}) is {show(f)}: "
                                              f"flags are {_FLAG_LIST}")
                continue
            if f & (WINS_IN_1 | LOSES_IN_2 | NOT_SOONER) and self.caps.scored:
                self.problem("static_bounds", f"static_bounds({show(pos)}) is {int(f)}: "
                                              "WINS_IN_1, LOSES_IN_2 and NOT_SOONER are for "
                                              "win/lose games, not scored ones")
                continue
            if f & NOT_SOONER and f & (WINS_IN_1 | LOSES_IN_2):
                self.problem("static_bounds", f"static_bounds({show(pos)}) is {int(f)}: "
                                              "NOT_SOONER says neither WINS_IN_1 nor "
                                              "LOSES_IN_2 holds")
                continue
            f = self.flags[pos] = int(f)
            if pos in self.walk.ended:
                self.bound_holds(pos, f, _ended_value(self.walk.ended[pos]), 0)

    def bound_holds(self, pos: Position, flags: int, value: Worth | None,
                    remoteness: float | None) -> None:
        if value is None:
            return
        won = value is Value.WIN or (not isinstance(value, Value) and value > 0)
        lost = value is Value.LOSE or (not isinstance(value, Value) and value < 0)
        false = {"CANNOT_WIN": won, "CANNOT_LOSE": lost, "MUST_LOSE": not lost,
                 "WINS_IN_1": not won or remoteness != 1,
                 "LOSES_IN_2": not lost or remoteness != 2,
                 "NOT_SOONER": remoteness is not None and ((won and remoteness < 3)
                                                           or (lost and 0 < remoteness < 4))}
        for name, flag in BOUND_FLAGS.items():
            if flags & flag and false[name]:
                worth = _worth((value, remoteness)) if remoteness is not None \
                    else show(_short(value))
                self.problem("static_bounds", f"static_bounds({show(pos)}) claims {name}, but "
                                              f"the position is worth {worth} to the mover")

    def check_cannot_tie(self) -> None:
        """A game that declares ``cannot_tie`` (:func:`~perfectplay.engine.protocol.cannot_tie`)
        is a win/lose game none of whose walked games ended level: a tie met in the walk
        (or in the quick check's random games) refutes it, as does a position worth a tie
        when the whole game is solved (:meth:`check_values`)."""
        if self.caps.scored:
            self.problem("cannot_tie", "cannot_tie is declared by a scored game: it is for "
                                       "win/lose games (a margin of 0 is not a tie to rule out)")
            return
        tied = next((p for p, result in self.walk.ended.items() if result is Value.TIE), None)
        if tied is not None:
            self.problem("cannot_tie", f"the game declares cannot_tie, but {show(tied)} "
                                       "ends in a tie")

    def check_horizon(self) -> None:
        """A non-negative int, 0 at a tie, >= 1 where there are moves; when the whole game
        was walked, no game from the position is longer and every tie from it is exactly
        that long."""
        assert self.horizon is not None
        self.horizons: dict[Position, int] = {}
        for pos in self.sample:
            h = self.call("horizon", self.horizon, pos)
            if h is _FAILED:
                continue
            if isinstance(h, bool) or not isinstance(h, int | np.integer) or h < 0:
                self.problem("horizon", f"horizon({show(pos)}) is {show(h)}: a number of "
                                        "plies, >= 0")
                continue
            self.horizons[pos] = int(h)
            if self.walk.edges.get(pos) and h < 1:
                self.problem("horizon", f"horizon({show(pos)}) is {h}, but the position has "
                                        "moves")
            elif (not self.caps.scored and self.walk.ended.get(pos) is Value.TIE
                  and h != 0):
                self.problem("horizon", f"horizon({show(pos)}) is {h} at a tie: a tied game "
                                        "lasts exactly horizon plies")
        if self.report.quick:
            return
        if self.report.complete:
            self.horizon_paths()
        else:
            self.report.notes.append("horizon was not checked against the length of the "
                                     "games: the game has more than the "
                                     f"{self.report.positions:,} positions walked")

    def horizon_paths(self) -> None:
        """The longest game and the shortest and longest tie from every walked position (a
        depth-first pass over the walked moves), against its horizon."""
        edges, ended = self.walk.edges, self.walk.ended
        longest: dict[Position, float] = {}
        ties: dict[Position, tuple[int, int] | None] = {}
        scored = self.caps.scored
        for root in self.sample:
            if root in longest:
                continue
            open_ = {root}
            stack = [(root, iter(edges.get(root, ())))]
            while stack:
                pos, it = stack[-1]
                nxt = next(it, None)
                if nxt is not None:
                    child = nxt[1]
                    if child in open_:
                        longest[pos] = math.inf  # a cycle: games of any length
                    elif child not in longest and child in edges:
                        open_.add(child)
                        stack.append((child, iter(edges.get(child, ()))))
                    continue
                stack.pop()
                open_.discard(pos)
                kids = [c for _, c in edges.get(pos, ()) if c in longest]
                far = max((longest[c] + 1 for c in kids), default=0)
                longest[pos] = max(far, longest.get(pos, 0))
                spans = [t for c in kids if (t := ties.get(c)) is not None]
                ties[pos] = ((min(a for a, _ in spans) + 1, max(b for _, b in spans) + 1)
                             if spans else
                             (0, 0) if not scored and ended.get(pos) is Value.TIE else None)
        for pos, h in self.horizons.items():
            if longest.get(pos, 0) > h:
                self.problem("horizon", f"horizon({show(pos)}) is {h}, but a game from there "
                                        f"lasts {_plies(longest[pos])}")
            span = ties.get(pos)
            if span is not None and span != (h, h):
                self.problem("horizon", f"horizon({show(pos)}) is {h}, but a tie from there "
                                        f"ends after {span[0]}" +
                             ("" if span[0] == span[1] else f" to {span[1]}") + " plies")

    # -- what the values tell ---------------------------------------------------------------
    def check_values(self) -> None:
        """Solve the game once (when the walk took in all of it) and check each hook's
        claims against the values: canonical images are worth what their positions are,
        a best listed move is as good as the best move, static bounds hold, margins lie
        within margin_bound."""
        wanted = [name for name, on in (
            ("canonical", getattr(self, "images", None)),
            ("search_moves", getattr(self, "listed", None)),
            ("static_bounds", getattr(self, "flags", None)),
            ("cannot_tie", self.no_tie and not self.caps.scored),
            ("margin_bound", self.margin_bound),
            ("endgame", self.endgame)) if on]
        if not wanted:
            return
        solved = self.solved(" and ".join([", ".join(wanted[:-1]), wanted[-1]]
                                          if len(wanted) > 1 else wanted))
        if solved is None:
            return
        if getattr(self, "images", None):
            self.values_of_images(solved)
        if getattr(self, "listed", None):
            self.values_of_listed(solved)
        for pos, flags in getattr(self, "flags", {}).items():
            if flags and pos in solved:
                self.bound_holds(pos, flags, solved.value(pos), solved.remoteness(pos))
        if self.no_tie and not self.caps.scored:
            tied = next((p for p in self.sample if p in solved
                         and solved.value(p) is Value.TIE), None)
            if tied is not None:
                self.problem("cannot_tie", f"the game declares cannot_tie, but "
                                           f"{show(tied)} is worth a tie")
        if self.margin_bound is not None and self.caps.scored:
            for pos in self.sample:
                b = _try(self.margin_bound, pos)
                v = solved.get(pos)
                if b is not _FAILED and v is not None and not -b <= v <= b:
                    self.problem("margin_bound", f"margin_bound({show(pos)}) is {b}, but the "
                                                 f"mover's margin there is {show(v)}")
        if self.endgame is not None and self.caps.scored:
            self.endgame_holds(solved)

    def endgame_holds(self, solved: Solved) -> None:
        """Each sampled position's ``endgame`` answer, in windows around its margin v and
        off it, is a fail-soft score (<= a: v <= it; >= b: v >= it; else v) with nodes
        >= 1, or (0, 0): left to the engine."""
        assert self.endgame is not None
        for pos in self.sample:
            worth = solved.get(pos)
            if worth is None or isinstance(worth, Value):
                continue
            v = int(worth)
            for a, b in ((v - 1, v + 1), (v, v + 1), (v - 1, v), (v + 2, v + 4),
                         (v - 4, v - 2)):
                got = self.call("endgame", self.endgame, pos, a, b)
                if got is _FAILED or got == (0, 0):
                    continue
                s, n = got
                holds = (v <= s) if s <= a else (v >= s) if s >= b else (v == s)
                if n < 1 or not holds:
                    self.problem("endgame", f"endgame({show(pos)}, {a}, {b}) is ({s}, {n}), "
                                            f"but the mover's margin there is {v} (a "
                                            "fail-soft score and nodes >= 1, or (0, 0))")
                    break

    def solved(self, hooks: str) -> Solved | None:
        """The engine's solution of the game (its plain view for a Python game, the
        compiled graph for a compiled one), or None with a note saying why not (naming the
        ``hooks`` whose claims it was wanted for)."""
        what = f"{hooks} were not checked against the values"
        if not self.report.complete:
            self.report.notes.append(f"{what}: the game has more than the "
                                     f"{self.report.positions:,} positions walked (raise "
                                     "max_positions)")
            return None
        if self.report.problems:
            self.report.notes.append(f"{what}: fix the problems above first")
            return None
        # the solvers load numba: only a full check solves, never the check before a solve
        from .exact import solve_exact
        try:
            if self.compiled:
                return solve_exact(self.game, method="graph", progress=False,
                                   max_positions=max(self.report.positions, 1))
            return solve_exact(_Plain(self.game), progress=False,
                               max_positions=max(self.report.positions, 1))
        except Exception as exc:  # noqa: BLE001 - the solve of a broken game may fail
            self.report.notes.append(f"{what}: solving the game failed "
                                     f"({type(exc).__name__}: {exc})")
            return None

    def values_of_images(self, solved: Solved) -> None:
        away = 0
        for pos, c in self.images.items():
            if c not in solved:
                away += 1
                continue
            mine = (solved.value(pos), solved.remoteness(pos))
            theirs = (solved.value(c), solved.remoteness(c))
            if not _same(mine, theirs):
                self.problem("canonical", f"canonical({show(pos)}) is {show(c)}, worth "
                                          f"{_worth(theirs)}, but the position is worth "
                                          f"{_worth(mine)}")
        if away:
            self.report.notes.append(f"{away:,} canonical image(s) cannot be reached from the "
                                     "start: their values were not compared (their moves "
                                     "were, on a sample)")

    def values_of_listed(self, solved: Solved) -> None:
        for pos, listed in self.listed.items():
            options = solved.move_values(pos)
            if not options:
                continue
            keyed = [(solved._score(pos, mv.value, mv.remoteness).key, mv) for mv in options]
            best = max(keyed, key=lambda km: km[0])
            mine = [km for km in keyed if any(_same(km[1].move, m) for m in listed)]
            top = max(mine, key=lambda km: km[0], default=None)
            if top is None or top[0] < best[0]:
                got = _worth((top[1].value, top[1].remoteness)) if top else "-"
                self.problem("search_moves", f"search_moves({show(pos)}) lists "
                                             f"{show(_short(listed))}, whose best is worth "
                                             f"{got}, but move {show(best[1].move)} is worth "
                                             f"{_worth((best[1].value, best[1].remoteness))}")


def _try(fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return fn(*args)
    except Exception:  # noqa: BLE001 - reported where it is asked first
        return _FAILED


def _key(x: object) -> object:
    """A payoff or an outcome as a dict key (a number, a Value, else its repr)."""
    return x if _hashable(x) else repr(x)


def _ended_value(result: object) -> Worth:
    """The value of an ended position for its mover: its outcome (a Value or points)."""
    return cast(Worth, result)


def _plies(n: float) -> str:
    return "for ever (a cycle)" if n == math.inf else f"{int(n)} plies"


def _worth(entry: tuple[object, object]) -> str:
    value, rem = entry
    shown = value.value if isinstance(value, Value) else show(value)
    return f"{shown} in {rem}" if rem is not None else f"{shown} (never ends)"


def _shown(args: tuple[object, ...]) -> str:
    return ", ".join(show(a) for a in args)
