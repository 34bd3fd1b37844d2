"""The game registry: the one contract every game keeps, and the one list of games.

Every game, a seed problem or a catalog game, is a :class:`GameEntry`: its name, title and
rules in a sentence, the command lines it is shown with (``examples``), its own board code
for the web page (``script``), the page's budgets (``budget``: what the page solves;
``live``: what it answers live by search) and what it offers (:attr:`GameEntry.offers`:
``analyze``, ``play``, ``judge``, ``solve``, ``search``, ``explore``, ``live``). Each kind
adds what only it has:

- a seed problem (``perfectplay.coins``, ``.rock``, ``.portal``, ``.no``, or a user's own)
  is a :class:`GameSpec`: ``parse`` (text -> an instance), ``analyze`` (an instance and one
  options dataclass -> a result with ``explain()``, ``draw()`` and ``to_json()``), its judge
  formats, its test generators, its play table, its picture, its demo and how the web page
  shows it (:class:`WebPage`);
- a catalog game (:mod:`perfectplay.catalog`) is a :class:`CatalogGame`: an engine game
  built from checked parameters (:class:`Param`), with its published results
  (:class:`Published`) and a plain Python twin of its rules.

Every kind's contract is defined here (it needs nothing but the project's errors), so a game
package, the command line, the web page and the engine's target reader take the types from
one place.

:func:`games` is the one list, in one order: the seed problems of :data:`BUILTIN`, the
catalog games of :data:`CATALOG`, then any registered in this process or by a plugin. The
command line, the web page (``/api/games``), play, the judge, the generators, the docs'
game tables and pages and the conformance tests loop over it; none of them names a game. A
game is its package plus one line in :data:`BUILTIN` or :data:`CATALOG` (or one
:func:`register` call, or one entry point).

The built-in games are imported here, lazily, the first time a listing asks for them (the
command line starts without loading numba kernels it does not need): this is the only place
in the package that imports on demand for start-up speed.

Games of other packages join through the entry point group ``perfectplay.games``
(:data:`ENTRY_POINTS`): each entry point names a :class:`GameEntry` (a :class:`GameSpec` or
a :class:`CatalogGame`), e.g. in the plugin's ``pyproject.toml``::

    [project.entry-points."perfectplay.games"]
    heap = "mygames.heap:SPEC"

They are loaded on the first listing or the first name the built-in games do not know, so
they reach the command line (``perfectplay games``, ``perfectplay NAME``, ``solve NAME``,
``play NAME``) and the web page like a built-in game. A plugin that fails to load is one
warning naming it (a :class:`PluginWarning`; the command line prints it as one line), and
every other game still works.

>>> [(entry.name, entry.kind) for entry in games()][3:5]
[('no', 'seed'), ('nim', 'catalog')]
>>> find("nim").offers
('solve', 'search', 'play', 'explore')
>>> get("portal").title
'Closing the Portal'
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import typing
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import (
    Any,
    ClassVar,
    Literal,
    Protocol,
    TypeVar,
    overload,
    runtime_checkable,
)

from .errors import InputError

#: The packages of the built-in seed problems (each defines ``SPEC``, a :class:`GameSpec`),
#: in the order the CLI and the page list them. A seed problem joins with one line here.
BUILTIN = ("perfectplay.coins", "perfectplay.rock", "perfectplay.portal", "perfectplay.no")

#: The catalog of famous games (:mod:`perfectplay.catalog`): each module defines ``GAME``, a
#: :class:`CatalogGame`. In the order ``perfectplay games`` lists
#: them. A game joins with one line here.
CATALOG = (
    "perfectplay.catalog.nim",
    "perfectplay.catalog.connect4",
    "perfectplay.catalog.kalah",
    "perfectplay.catalog.othello",
    "perfectplay.catalog.teeko",
    "perfectplay.catalog.tictactoe",
    "perfectplay.catalog.hexapawn",
    "perfectplay.catalog.domineering",
    "perfectplay.catalog.dots_and_boxes",
)

# -- every game's entry ----------------------------------------------------------------
#: The kinds of game: a seed problem (a :class:`GameSpec`) or a catalog game.
Kind = Literal["seed", "catalog"]
#: What a game offers: ``analyze`` (its result for an instance, ``perfectplay NAME``, the
#: web API's ``analyze``), ``play`` (against the computer), ``judge`` (judge formats),
#: ``solve`` and ``search`` (``perfectplay solve|search NAME``), ``explore`` (the page's
#: position-by-position view, solved in the server's worker) and ``live`` (instances too big
#: to solve on the page, answered by a live search).
Offer = Literal["analyze", "play", "judge", "solve", "search", "explore", "live"]
#: A catalog instance's parameters, by name (checked by its entry).
Params = Mapping[str, Any]


@dataclass(frozen=True)
class Budget:
    """What the web page solves of a game named by parameters (a catalog game) in its
    worker: ``fits(params)`` says whether an instance is within the budget (a few million
    positions, solved in about 10 s at most), ``limit`` says so in words, ``default`` is the
    instance the page's tab opens. Measured per game, so it lives in the game's package.

    >>> b = Budget(lambda p: p["n"] <= 9, "n at most 9", {"n": 3})
    >>> b.fits({"n": 12}), b.limit
    (False, 'n at most 9')
    """

    fits: Callable[[Params], bool]
    limit: str
    default: Params


@dataclass(frozen=True)
class LiveBudget:
    """Which instances beyond the page's :class:`Budget` it answers live, by a time-limited
    search of each move (the web page's ``analysis``): ``fits(params)``, ``limit`` in words,
    ``standard`` the instance the tab offers (its parameters)."""

    fits: Callable[[Params], bool]
    limit: str
    standard: Params


@dataclass(frozen=True, kw_only=True)
class GameEntry:
    """What every game says about itself, whatever its kind (see the module doc). Keyword
    arguments only, so each kind adds its own fields after these.

    ``script`` is the game's own board code for the web page: JavaScript shipped in the
    game's package (package data, found with :func:`importlib.resources.files`), served at
    ``/page/NAME.js``; it registers ``perfectplay.boards[NAME]`` (``web/static/app.js``
    says what a seed problem's board gives, ``web/static/explore.js`` a catalog game's).
    None: the page's plain board. ``budget`` and ``live`` are the page's budgets of a game
    named by parameters (None: a seed problem, whose page limits read its parsed instance:
    :attr:`GameSpec.page_limit`, :attr:`GameSpec.heavy`; or a catalog game the page solves
    up to its generic limit, and never live).
    """

    kind: ClassVar[Kind]

    name: str
    title: str
    rules: str
    examples: tuple[str, ...] = ()
    script: Traversable | None = None
    budget: Budget | None = None
    live: LiveBudget | None = None

    @property
    def offers(self) -> tuple[Offer, ...]:
        """What this game offers (:data:`Offer`), in a fixed order."""
        raise NotImplementedError


# -- a seed problem: its own command, parser and explanation ---------------------------
@runtime_checkable
class Result(Protocol):
    """What every game's ``analyze`` returns: text for a learner, a picture, and JSON."""

    def explain(self) -> str: ...

    def draw(self, style: bool = False) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


#: ``(text, lenient) -> JudgeResult``: a judge's input answered in the judge's exact format.
JudgeFn = Callable[[str, bool], Any]


@dataclass(frozen=True)
class NoOptions:
    """The options of a game whose ``analyze`` takes none."""


@dataclass(frozen=True)
class WebPage:
    """How the web page and the API's documentation show a game. Every field has a default:
    a game that gives none gets the plain tab (its input as text, its options as controls,
    Analyze, and Play for a two-player game) and an example body made from its demo. (The
    game's board code is its entry's ``script``, as for every game.)
    """

    #: An analyze body: the example of the API's documentation (default: the demo).
    example: Mapping[str, Any] = field(default_factory=dict)
    #: The body the page's tab starts with (default: the example).
    start: Mapping[str, Any] = field(default_factory=dict)
    tab: str = ""  # the tab's label (default: the title)
    intro: str = ""  # the paragraph under the tab's heading (default: the rules)
    sides: tuple[str, str] = ("first", "second")  # what a human may play, in Play
    #: The options the tab shows as controls (None: every option but ``method`` and
    #: ``trace``, which the seed's stepper sets).
    controls: tuple[str, ...] | None = None


#: ``(result, path) -> Picture``: a game's picture saved as PNG or SVG (needs matplotlib).
PictureFn = Callable[[Any, str | Path], Any]


@dataclass(frozen=True, kw_only=True)
class GameSpec(GameEntry):
    """A seed problem: a :class:`GameEntry` with what the command line, the page, play and
    the contest tools need to analyze its instances.

    ``options`` is a frozen dataclass whose every field has a default; each field becomes a
    command-line option and a key of the web API's body. A field's ``metadata`` may give
    ``help`` (the option's help) and ``flag`` (its spelling on the command line, default
    ``--name``; a ``bool`` field that defaults to True is switched off by its flag).
    ``str`` fields typed as a ``Literal`` become a choice.

    ``parse(text, options)`` reads the text the command line and the page take;
    ``from_values(values, options)``, when given, builds an instance from numbers typed as
    command-line arguments or sent as the web body's ``row`` (the coins).
    """

    kind: ClassVar[Kind] = "seed"

    input_help: str
    parse: Callable[[str, Any], Any]
    analyze: Callable[[Any, Any], Result]
    options: type = NoOptions
    from_values: Callable[[list[int], Any], Any] | None = None
    value_name: str = "value"  # what one of those numbers is called ("coin")
    judges: Mapping[str, tuple[str, JudgeFn]] = field(default_factory=dict)
    problems: Mapping[str, Any] = field(default_factory=dict)  # id -> gen.Problem
    play: Callable[[Any, Any], Any] | None = None  # (instance, options) -> play.Table
    picture: PictureFn | None = None  # (result, path): needs matplotlib
    picture_help: str = "Also save a picture: FILE.png or FILE.svg (needs perfectplay[plot])."
    headline: Callable[[Any], str | None] | None = None
    summary: Callable[[Any], str] | None = None
    grid: Callable[[Any], list[str]] | None = None  # the board as text lines, for the page
    shape: Callable[[Any], tuple[int, int]] | None = None  # an instance's rows and columns
    # an instance whose answer costs far more than its size says (the web page runs those
    # in its worker process, under a time budget)
    heavy: Callable[[Any, Any], bool] | None = None
    # ``(instance, options, play) -> why the page will not answer, or None``: an instance
    # the page cannot answer within its time budget (measured per game), refused up front
    # with that sentence instead of timing out
    page_limit: Callable[[Any, Any, bool], str | None] | None = None
    demo: str = ""  # a bundled instance, as parse reads it
    demo_title: str = ""  # what that instance is, e.g. "the judge's first sample"
    demo_options: Mapping[str, Any] = field(default_factory=dict)
    web: WebPage = field(default_factory=WebPage)  # how the web page shows the game

    @property
    def offers(self) -> tuple[Offer, ...]:
        """``analyze``, then ``play`` for a two-player game and ``judge`` when it has
        judge formats.

        >>> get("coins").offers
        ('analyze', 'play', 'judge')
        """
        out: tuple[Offer, ...] = ("analyze",)
        return out + (("play",) if self.play is not None else ()) + \
            (("judge",) if self.judges else ())

    def example_body(self) -> dict[str, Any]:
        """An analyze body of the web API: the page's example, else the demo as text with
        its options.

        >>> get("coins").example_body()
        {'row': [7, 9, 2, 6, 4, 3], 'table': True}
        """
        return dict(self.web.example) or {"text": self.demo, **self.demo_options}

    def start_body(self) -> dict[str, Any]:
        """The body the page's tab starts with (its ``start``, else the example)."""
        return dict(self.web.start) or self.example_body()

    def make_options(self, values: Mapping[str, Any] | None = None) -> Any:
        """The game's options from a mapping (unknown keys are an :class:`InputError`)."""
        return make_options(self.options, values or {})

    def solve_text(self, text: str, **options: Any) -> Result:
        """``analyze(parse(text))``: the result for an instance written as text.

        >>> get("coins").solve_text("7 9 2 6 4 3").value.first
        18
        """
        opts = self.make_options(options)
        return self.analyze(self.parse(text, opts), opts)


@dataclass(frozen=True)
class OptionField:
    """One field of a game's options, as the command line and the web API show it."""

    name: str
    kind: type  # bool, str, int or float
    default: Any
    help: str
    flag: str
    choices: tuple[str, ...] = ()


def option_fields(options: type) -> list[OptionField]:
    """The fields of an options dataclass with their types, help and flags resolved (read
    once a type: the web API asks for them on every request)."""
    return list(_option_fields(options))


@functools.lru_cache(maxsize=256)
def _option_fields(options: type) -> tuple[OptionField, ...]:
    hints = typing.get_type_hints(options)
    out = []
    for f in dataclasses.fields(options):
        hint = hints[f.name]
        choices: tuple[str, ...] = ()
        if typing.get_origin(hint) is Literal:
            choices = tuple(str(c) for c in typing.get_args(hint))
            kind: type = str
        else:
            kind = hint if isinstance(hint, type) else str
        meta = f.metadata
        out.append(OptionField(f.name, kind, f.default, meta.get("help", ""),
                               meta.get("flag", "--" + f.name.replace("_", "-")), choices))
    return tuple(out)


def make_options(options: type, values: Mapping[str, Any]) -> Any:
    """An options dataclass from a mapping; an unknown key or a value outside a field's
    choices is an :class:`InputError` naming it."""
    fields = {f.name: f for f in option_fields(options)}
    kwargs: dict[str, Any] = {}
    for name, value in values.items():
        if name not in fields:
            known = ", ".join(fields) or "none"
            raise InputError(f"unknown option {name!r}; this game's options: {known}")
        spec = fields[name]
        if spec.choices and value not in spec.choices:
            raise InputError(f"{name} must be one of {', '.join(spec.choices)}, got {value!r}")
        kwargs[name] = value
    return options(**kwargs)


# -- a catalog game: an engine game built from checked parameters -------------------------
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
    suite runs only the results it can afford
    (:data:`perfectplay.catalog.entry.SUITE_SECONDS`) and the benchmark all.
    ``goal`` marks a result beyond the benchmark's limits on this machine: the benchmark
    reports how far it got. ``live`` False marks an instance whose start is too slow to
    answer live (a result reproduced here, in ``seconds``, but not at a person's pace):
    ``play`` and ``serve`` refuse it as they refuse a goal, unless asked for ``--live``.
    """

    args: Mapping[str, Any]
    source: str
    value: str | int | None = None
    remoteness: int | None = None
    positions: int | None = None
    method: Method = "solve"
    seconds: float = 1.0
    goal: bool = False
    live: bool = True
    note: str = ""

    @property
    def answered_live(self) -> bool:
        """Whether ``play`` and ``serve`` answer this instance's start live: neither a goal
        nor marked too slow for a person's pace."""
        return self.live and not self.goal

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


def product_at_most(most: int, *names: str) -> Callable[[Mapping[str, Any]], bool]:
    """A :class:`~perfectplay.registry.Budget`'s test: the integer parameters ``names``
    multiply to at most ``most`` (a board's cells, say).

    >>> product_at_most(20, "width", "height")({"width": 5, "height": 4})
    True
    """
    def fits(params: Mapping[str, Any]) -> bool:
        product = 1
        for name in names:
            product *= int(params[name])
        return product <= most
    return fits


@dataclass(frozen=True, kw_only=True)
class CatalogGame(GameEntry):
    """A famous game as the catalog lists it: a :class:`~perfectplay.registry.GameEntry`
    (name, title, rules, examples, board ``script``, the page's ``budget`` and ``live``
    budget) built by ``factory(**params)``.

    ``limit(params) -> None or a sentence`` refuses a combination of parameters up front;
    ``twin(**params)`` is a plain Python game with the same rules and the same move names
    (``move_name``), written independently of the fast game: the tests solve both on the
    ``small`` instances and compare every position's value and remoteness along random
    lines of play, moves matched by name; ``size(params) -> str`` says how large an instance
    is (e.g. ``"4,531,985,219,092 positions (Edelkamp & Kissmann 2008)"``).

    ``script`` (the entry's board code, ``page.js`` in the game's package) registers
    ``perfectplay.boards[NAME] = {board}`` (see ``web/static/explore.js``). None: the page
    shows the game's ``draw`` text and one button a move. ``budget`` is what the page
    solves (None: up to the page's generic limit, opened at the first ``small``
    instance), ``live`` what it answers live beyond that (None: nothing).

    ``notation`` reads the game's own way of writing a position (:data:`Notation`: Connect
    Four's column digits, a tic-tac-toe or Othello board), for the page's paste box; None:
    move names only. ``notation_hint`` shows that notation in the box ("Pons' digits
    (4453)").
    """

    kind: ClassVar[Kind] = "catalog"

    factory: Callable[..., Any]
    params: tuple[Param, ...] = ()
    published: tuple[Published, ...] = ()
    twin: Callable[..., Any] | None = None
    limit: Callable[[Mapping[str, Any]], str | None] | None = None
    size: Callable[[Mapping[str, Any]], str] | None = None
    #: ``positions(params) -> PositionCount or None``: the number behind ``size``, from the
    #: sources the entry cites (an exact count, an estimate, or a bound above); the games
    #: :meth:`build` makes answer it as their ``positions_bound()`` hook, so a solve far too
    #: big for the memory stops before any work
    positions: Callable[[Mapping[str, Any]], Any] | None = None
    #: instances small enough to solve strongly in a second or two (the conformance and twin
    #: tests run on them): each a mapping of parameters
    small: tuple[Mapping[str, Any], ...] = ()
    notation: Notation | None = None
    notation_hint: str = ""

    @property
    def offers(self) -> tuple[Offer, ...]:
        """``solve``, ``search``, ``play`` and ``explore``, and ``live`` when the page
        answers instances beyond its budget by a live search."""
        out: tuple[Offer, ...] = ("solve", "search", "play", "explore")
        return out + (("live",) if self.live is not None else ())

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
        """The game for these parameters (checked up front), with a ``positions_bound()``
        hook when :attr:`positions` knows its size (naming this call, the way to search it)."""
        values = self.arguments(args, kwargs)
        game = self.factory(**values)
        known = None if self.positions is None else self.positions(values)
        if known is not None:
            bound = dataclasses.replace(known, target=self.call(values))
            # a game without a __dict__ gets no hook (and no up-front refusal)
            with contextlib.suppress(AttributeError):
                game.positions_bound = lambda: bound
        return game

    def call(self, values: Mapping[str, Any]) -> str:
        """How the command line writes this instance: ``connect4(width=5, height=4)``."""
        shown = ", ".join(f"{k}={v!r}" for k, v in values.items())
        return f"{self.name}({shown})" if shown else self.name


# -- the one list of games -------------------------------------------------------------
E = TypeVar("E", bound=GameEntry)

#: Every registered game by name, in :func:`games`' order once a listing has sorted it.
_GAMES: dict[str, GameEntry] = {}
#: The built-in packages the registry has imported (each once).
_IMPORTED: set[str] = set()


def _packages(kind: Kind) -> tuple[str, ...]:
    """The built-in packages of one kind: :data:`BUILTIN` or :data:`CATALOG` (read when
    asked, so a line added to either joins at the next listing)."""
    return BUILTIN if kind == "seed" else CATALOG


def register(entry: E) -> E:
    """Add a game of either kind; its name must be a plain word (re-registering a name
    replaces it, so a module reloaded in a notebook does not fail). Returns the entry."""
    if not _is_entry(entry):
        raise TypeError(f"a game is a GameEntry (a GameSpec or a CatalogGame), got "
                        f"{type(entry).__name__}")
    if not entry.name.isidentifier():
        raise ValueError(f"a game's name must be a plain word, got {entry.name!r}")
    _GAMES[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    """Remove a game (tests register toy games and take them away again)."""
    _GAMES.pop(name, None)


def _is_entry(obj: object) -> bool:
    """Whether ``obj`` is a game's entry, known by its kind (not by its class: a module
    imported twice, as pytest's doctests import a file, makes a second class of the same
    name)."""
    return getattr(obj, "kind", None) in ("seed", "catalog") and \
        isinstance(getattr(obj, "name", None), str)


def _module_name(module: str) -> str:
    return module.rsplit(".", 1)[1]


def _import(module: str, kind: Kind) -> None:
    """A built-in game's package imported, once: a seed problem registers its ``SPEC`` on
    import (so one unregistered before stays out), a catalog game's ``GAME`` is registered
    here."""
    if module in _IMPORTED:
        return
    _IMPORTED.add(module)
    package = import_module(module)
    if kind == "catalog" and _module_name(module) not in _GAMES:
        register(package.GAME)


def _rank(name: str) -> int:
    """Where a game stands in :func:`games`: the seed problems of :data:`BUILTIN`, then the
    catalog games of :data:`CATALOG`, then the rest (in the order they joined)."""
    modules = [_module_name(m) for m in BUILTIN + CATALOG]
    return modules.index(name) if name in modules else len(modules)


def _load(kind: Kind) -> None:
    """Import every built-in game of ``kind`` not imported yet."""
    for module in _packages(kind):
        _import(module, kind)


def _load_one(name: str) -> None:
    """Import only the built-in game called ``name``, if there is one: a command for one
    game need not import the others (about 20 ms a process)."""
    kinds: tuple[Kind, ...] = ("seed", "catalog")
    for kind in kinds:
        for module in _packages(kind):
            if _module_name(module) == name:
                _import(module, kind)


@overload
def games(kind: Literal["seed"]) -> list[GameSpec]: ...
@overload
def games(kind: Literal["catalog"]) -> list[CatalogGame]: ...
@overload
def games(kind: None = None) -> list[GameEntry]: ...
def games(kind: Kind | None = None) -> list[Any]:
    """Every registered game (or every one of ``kind``), in one order: the seed problems
    of :data:`BUILTIN`, the catalog games of :data:`CATALOG`, then the plugins' games and
    any registered in this process. Each says its :attr:`~GameEntry.kind` and
    :attr:`~GameEntry.offers`.

    >>> [entry.name for entry in games("seed")]
    ['coins', 'rock', 'portal', 'no']
    """
    for k in (("seed", "catalog") if kind is None else (kind,)):
        _load(k)
    load_plugins()
    ordered = sorted(_GAMES.values(), key=lambda entry: _rank(entry.name))  # stable
    return [entry for entry in ordered if kind is None or entry.kind == kind]


def names(kind: Kind | None = None) -> list[str]:
    """The names of :func:`games` without importing a built-in game (for help texts and
    quick checks); the plugins' games are loaded to learn their names."""
    load_plugins()
    kinds: tuple[Kind, ...] = ("seed", "catalog") if kind is None else (kind,)
    builtin = [_module_name(m) for k in kinds for m in _packages(k)]
    return builtin + [name for name, entry in _GAMES.items()
                      if entry.kind in kinds and name not in builtin]


def find(name: str) -> GameEntry:
    """The game called ``name``, of either kind (only its package is imported), or an
    :class:`InputError` listing the games."""
    _load_one(name)
    if name not in _GAMES:
        load_plugins()
    if name in _GAMES:
        return _GAMES[name]
    raise InputError(f"unknown game {name!r}; the games are {', '.join(names())}")


def get(name: str) -> GameSpec:
    """The seed problem called ``name``, or an :class:`InputError` listing them."""
    entry = _GAMES.get(name)
    if entry is None:
        _load_one(name)
        _load("seed")
        load_plugins()
        entry = _GAMES.get(name)
    if entry is not None and entry.kind == "seed":
        return typing.cast(GameSpec, entry)
    raise InputError(f"unknown game {name!r}; the games are {', '.join(names('seed'))}")


def judges() -> dict[str, tuple[str, JudgeFn]]:
    """Every judge problem id with its title and its function, game by game."""
    return {pid: entry for spec in games("seed") for pid, entry in spec.judges.items()}


def problems() -> dict[str, Any]:
    """Every generator problem (:class:`perfectplay.gen.Problem`) by judge id."""
    return {pid: entry for spec in games("seed") for pid, entry in spec.problems.items()}


def catalog() -> list[CatalogGame]:
    """The catalog games: ``games("catalog")``.

    >>> "nim" in [entry.name for entry in catalog()]
    True
    """
    return games("catalog")


def catalog_names() -> list[str]:
    """The catalog games' names without importing one: ``names("catalog")``."""
    return names("catalog")


def get_catalog(name: str) -> CatalogGame:
    """The catalog game called ``name``, or an :class:`InputError` listing them (only that
    game's module is imported)."""
    _load_one(name)
    if name not in _GAMES:
        load_plugins()
    entry = _GAMES.get(name)
    if entry is not None and entry.kind == "catalog":
        return typing.cast(CatalogGame, entry)
    raise InputError(f"unknown game {name!r}; the catalog's games are "
                     f"{', '.join(catalog_names())}, or give FILE.py:Class")


# -- games of other packages: the entry point group ------------------------------------------
#: The entry point group through which an installed package adds games: each entry point
#: names a :class:`GameEntry`: a :class:`GameSpec` (a game with its own command, like the
#: coins) or a :class:`CatalogGame` (taken by ``solve NAME``,
#: ``play NAME``, ``perfectplay games``).
#: (Not written out: the group shares its name with the module ``perfectplay.games``, and
#: the layering test reads a module's name spelled out here as an import by name.)
ENTRY_POINTS = f"{__package__}.games"

_PLUGINS_LOADED = False


class PluginWarning(UserWarning):
    """A game plugin of :data:`ENTRY_POINTS` that did not join: the message names it."""


def load_plugins(force: bool = False) -> list[str]:
    """Load the games of the entry point group :data:`ENTRY_POINTS` (once a process, or
    again with ``force``) and return the names that joined. A plugin that cannot be loaded,
    names something that is not a game, or takes a name already used is one warning line
    naming it; the other games are untouched."""
    global _PLUGINS_LOADED
    if _PLUGINS_LOADED and not force:
        return []
    _PLUGINS_LOADED = True
    from importlib.metadata import entry_points  # only when something lists the games

    joined = []
    for ep in entry_points(group=ENTRY_POINTS):
        where = f"game plugin {ep.name!r} ({ep.value}"
        dist = getattr(ep, "dist", None)
        where += f", from {dist.name} {dist.version})" if dist is not None else ")"
        try:
            obj = ep.load()
        except Exception as exc:  # noqa: BLE001 - a plugin may raise anything on import
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            _warn(f"the {where} failed to load: {type(exc).__name__}"
                  + (f": {first}" if first else ""))
            continue
        problem = _join(obj)
        if problem:
            _warn(f"the {where} {problem}")
        else:
            joined.append(obj.name)
    return joined


def _join(obj: object) -> str:
    """Register a plugin's game; what is wrong with it, or "" when it joined."""
    if not _is_entry(obj):
        return f"is a {type(obj).__name__}, not a GameSpec or a CatalogGame"
    entry = typing.cast(GameEntry, obj)
    name = entry.name
    if not name.isidentifier():
        return f"names a game called {name!r}, not a plain word"
    # a plugin never shadows a built-in game, loaded or not
    if name in _GAMES or name in [_module_name(m) for m in BUILTIN + CATALOG]:
        return f"takes the name {name!r} of a game already registered: not loaded"
    register(entry)
    return ""


def _warn(message: str) -> None:
    warnings.warn(f"{message}; the other games work", PluginWarning, stacklevel=3)
