"""The catalog's contract: what a famous game says about itself, and how a published result
is reproduced.

A catalog game is an engine game (a :class:`perfectplay.engine.Game` or
:class:`~perfectplay.engine.CompiledGame`) built by a factory from keyword parameters,
described by a :class:`CatalogGame`: its name, its rules in a sentence, its
:class:`Param` s (checked up front, so ``connect4(width=40)`` is a clear error, not a
numba overflow), the :class:`Published` results the literature gives for it, and a plain
Python ``twin`` of its rules that the tests hold the fast game against. The registry
(:func:`perfectplay.registry.catalog`) is the one list of them; the command line takes
``NAME`` or ``NAME(key=value, ...)`` wherever it takes ``FILE.py:Class``.

:func:`reproduce` is the one way a published result is checked: the tests call it for every
result cheap enough for the suite, ``benchmarks/catalog.py`` for all of them, timed.

>>> p = Param("heaps", (3, 4, 5), "the heap sizes", kind=tuple)
>>> p.check((1, 2))
(1, 2)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from typing import Any, Literal

from ..engine import search, solve
from ..errors import InputError

#: How a result is reproduced: a strong solve in memory (``solve``), a proof search of the
#: start (``search``), or counting the positions a strong solve reaches (``count``).
Method = Literal["solve", "search"]


@dataclass(frozen=True)
class Param:
    """One keyword parameter of a catalog game's factory, with its limits.

    ``low``/``high`` bound an ``int`` (inclusive; for a tuple, each element); ``limit`` is
    ``(predicate over all parameters, the sentence saying what it needs)`` for a rule that
    ties several parameters together (Connect Four's ``width * (height + 1) <= 62``) and is
    given on :class:`CatalogGame`, not here.
    """

    name: str
    default: Any
    help: str
    kind: type = int
    low: int | None = None
    high: int | None = None

    def check(self, value: Any) -> Any:
        """The value, or an :class:`InputError` saying which parameter is wrong and why."""
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InputError(f"{self.name} must be an integer, got {value!r}")
            self._in_range(value, self.name)
            return value
        if self.kind is tuple:
            if isinstance(value, int) and not isinstance(value, bool):
                value = (value,)
            if not isinstance(value, (tuple, list)) or not all(
                    isinstance(v, int) and not isinstance(v, bool) for v in value):
                raise InputError(f"{self.name} must be a tuple of integers, got {value!r}")
            for k, v in enumerate(value):
                self._in_range(v, f"{self.name}[{k}]")
            return tuple(value)
        if not isinstance(value, self.kind):
            raise InputError(f"{self.name} must be a {self.kind.__name__}, got {value!r}")
        return value

    def _in_range(self, value: int, what: str) -> None:
        if self.low is not None and value < self.low:
            raise InputError(f"{what} must be at least {self.low:,}, got {value:,}")
        if self.high is not None and value > self.high:
            raise InputError(f"{what} must be at most {self.high:,}, got {value:,}")

    def describe(self) -> str:
        """``width=7 (4-9)``: the parameter, its default and its range, for listings."""
        span = ""
        if self.low is not None or self.high is not None:
            span = f" ({'' if self.low is None else self.low}-" \
                   f"{'' if self.high is None else self.high})"
        return f"{self.name}={self.default!r}{span}"


@dataclass(frozen=True)
class Pasted:
    """A position read from a game's own notation (what a person pastes into the page's
    position box): the ``moves`` (names) that reach it from the start, or the position
    given whole (``key``: its code); ``notation`` names how it was read ("Pons' column
    digits")."""

    notation: str
    moves: tuple[str, ...] = ()
    key: int | None = None


#: A game's notation reader: (the game, the text) -> the position, None when the text is not
#: written in this notation (it is then read as move names), an InputError saying where when
#: it is but says something impossible.
Notation = Callable[[Any, str], Pasted | None]


@dataclass(frozen=True)
class Published:
    """A result the literature gives for one instance, and where.

    ``value`` is the start's value for the player to move (a ``Value`` name: ``"win"``,
    ``"lose"``, ``"tie"``, ``"draw"``; or an ``int`` margin in a scored game);
    ``remoteness`` the plies to the end under perfect play and ``positions`` the number of
    positions reachable from the start, when the source gives them. ``method`` says how the
    catalog reproduces it; ``seconds`` is about what that takes on a 2-core machine, so the
    suite runs only the results it can afford (:data:`SUITE_SECONDS`) and the benchmark all.
    ``goal`` marks a result beyond the suite and perhaps beyond this machine: the benchmark
    reports how far it got.
    """

    args: Mapping[str, Any]
    source: str
    value: str | int | None = None
    remoteness: int | None = None
    positions: int | None = None
    method: Method = "solve"
    seconds: float = 1.0
    goal: bool = False
    note: str = ""

    def claim(self) -> str:
        """The result in words: ``a tie in 16 plies``, ``+10 for the first player``."""
        parts = []
        if isinstance(self.value, int):
            parts.append(f"{self.value:+d} for the first player")
        elif self.value is not None:
            parts.append({"win": "a first-player win", "lose": "a second-player win",
                          "tie": "a tie", "draw": "a draw"}[self.value])
        if self.remoteness is not None:
            parts.append(f"in {self.remoteness:,} plies")
        if self.positions is not None:
            parts.append(f"{self.positions:,} positions")
        return " ".join(parts[:2]) + ("; " + parts[2] if len(parts) > 2 else "") \
            if parts else self.note


#: The suite reproduces the published results that take at most this long (the rest run in
#: ``benchmarks/catalog.py``).
SUITE_SECONDS = 10.0


@dataclass(frozen=True)
class CatalogGame:
    """A famous game as the catalog lists it: built by ``factory(**params)``.

    ``limit(params) -> None or a sentence`` refuses a combination of parameters up front;
    ``twin(**params)`` is a plain Python game with the same rules and the same move names
    (``move_name``), written independently of the fast game: the tests solve both on the
    ``small`` instances and compare every position's value and remoteness along random
    lines of play, moves matched by name; ``size(params) -> str`` says how large an instance
    is (e.g. ``"4,531,985,219,092 positions (Edelkamp & Kissmann 2008)"``).

    ``script`` is the game's own board for the web page: JavaScript shipped in the game's
    package (package data, found with :func:`importlib.resources.files`, as a seed game's
    ``WebPage.script``), served at ``/page/catalog/NAME.js``; it registers
    ``perfectplay.catalogBoards[NAME]`` (see ``web/static/app.js``). None: the page shows
    the game's ``draw`` text and one button a move.

    ``notation`` reads the game's own way of writing a position (:data:`Notation`: Connect
    Four's column digits, a tic-tac-toe or Othello board), for the page's paste box; None:
    move names only. ``notation_hint`` shows that notation in the box ("Pons' digits
    (4453)").
    """

    name: str
    title: str
    rules: str
    factory: Callable[..., Any]
    params: tuple[Param, ...] = ()
    published: tuple[Published, ...] = ()
    twin: Callable[..., Any] | None = None
    limit: Callable[[Mapping[str, Any]], str | None] | None = None
    size: Callable[[Mapping[str, Any]], str] | None = None
    #: instances small enough to solve strongly in a second or two (the conformance and twin
    #: tests run on them): each a mapping of parameters
    small: tuple[Mapping[str, Any], ...] = ()
    examples: tuple[str, ...] = ()
    script: Traversable | None = None
    notation: Notation | None = None
    notation_hint: str = ""

    def arguments(self, args: tuple[Any, ...] = (), kwargs: Mapping[str, Any] | None = None
                  ) -> dict[str, Any]:
        """Every parameter's value: the defaults, then the arguments given (positional in
        the order of :attr:`params`), each checked; a clear error for anything unknown."""
        kwargs = dict(kwargs or {})
        names = [p.name for p in self.params]
        if len(args) > len(names):
            raise InputError(f"{self.name} takes at most {len(names)} arguments "
                             f"({', '.join(names) or 'none'}), got {len(args)}")
        for name, value in zip(names, args, strict=False):  # args checked not longer above
            if name in kwargs:
                raise InputError(f"{self.name}: {name} given twice")
            kwargs[name] = value
        unknown = sorted(set(kwargs) - set(names))
        if unknown:
            raise InputError(f"{self.name} has no parameter {unknown[0]!r}; its parameters: "
                             f"{', '.join(names) or 'none'}")
        values = {p.name: p.check(kwargs.get(p.name, p.default)) for p in self.params}
        if self.limit is not None:
            why = self.limit(values)
            if why:
                raise InputError(f"{self.call(values)}: {why}")
        return values

    def build(self, *args: Any, **kwargs: Any) -> Any:
        """The game for these parameters (checked up front)."""
        return self.factory(**self.arguments(args, kwargs))

    def call(self, values: Mapping[str, Any]) -> str:
        """How the command line writes this instance: ``connect4(width=5, height=4)``."""
        shown = ", ".join(f"{k}={v!r}" for k, v in values.items())
        return f"{self.name}({shown})" if shown else self.name


@dataclass(frozen=True)
class Reproduced:
    """What :func:`reproduce` found for a published result, and how long it took."""

    published: Published
    value: str | int | None
    remoteness: int | None
    positions: int | None
    exact: bool
    seconds: float

    @property
    def agrees(self) -> bool:
        """Every figure the source gives was found, and equal."""
        p = self.published
        return self.exact and all(
            want is None or want == got for want, got in
            ((p.value, self.value), (p.remoteness, self.remoteness),
             (p.positions, self.positions)))


def _worth_name(value: Any) -> str | int | None:
    """A start's value as :class:`Published` writes it: a Value's name or an int margin."""
    if value is None:
        return None
    name = getattr(value, "value", None)
    if isinstance(name, str):
        return name
    return int(value)


def reproduce(entry: CatalogGame, published: Published, *, time_limit: float | None = None,
              workers: int = 1, table_mb: float = 64) -> Reproduced:
    """Compute what ``published`` claims, by its method; ``exact`` is False when a search
    stopped at ``time_limit`` first. A search proves the remoteness only when the source
    gives one.

    Cost: a strong solve is linear in the positions reachable; a search, what the proof
    needs. Example: ``reproduce(get_catalog("tictactoe"), tictactoe.published[0]).agrees``.
    """
    game = entry.build(**published.args)
    start = time.perf_counter()
    if published.method == "search":
        # a value alone is far cheaper to prove than its remoteness (Domineering 8x7: 215 s
        # against more than 600 s), so the remoteness is searched only when it is claimed
        result = search(game, time_limit=time_limit, workers=workers, table_mb=table_mb,
                        remoteness=published.remoteness is not None)
        return Reproduced(published, _worth_name(result.value), result.remoteness, None,
                          result.exact, time.perf_counter() - start)
    solution = solve(game)
    positions = len(solution) if published.positions is not None else None
    return Reproduced(published, _worth_name(solution.value()), solution.remoteness(),
                      positions, True, time.perf_counter() - start)


@dataclass(frozen=True)
class Listing:
    """One game as ``perfectplay games`` shows it: its parameters, its published results
    (each pointing to its source by number) and the sources, each once."""

    name: str
    title: str
    rules: str
    params: list[str] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, entry: CatalogGame) -> Listing:
        sources: list[str] = []
        results = []
        for p in entry.published:
            if p.source not in sources:
                sources.append(p.source)
            results.append(f"{entry.call(entry.arguments((), p.args))}: {p.claim()} "
                           f"[{sources.index(p.source) + 1}]" + (" (a goal)" if p.goal else ""))
        return cls(entry.name, entry.title, entry.rules,
                   [p.describe() for p in entry.params], results,
                   [f"[{k}] {s}" for k, s in enumerate(sources, 1)])
