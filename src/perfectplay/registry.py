"""The game registry: the one contract every game package keeps, and the one place games are
found.

A game package (``perfectplay.coins``, ``.rock``, ``.portal``, ``.no``, or a user's own)
describes itself with a :class:`GameSpec`: its name and rules in a sentence, ``parse`` (text
-> an instance), ``analyze`` (an instance and one options dataclass -> a result with
``explain()``, ``draw()`` and ``to_json()``), its judge formats, its test generators, its
play table, its picture, its demo instance and how the web page shows it (:class:`WebPage`:
its example body, its tab, and optionally its own board code). The command line, the web
page, play, the judge, the generators, the stress tester and the demo loop over
:func:`games`; none of them names a game. Adding a game is one package and one
:func:`register` call.

The built-in games are imported here, lazily, the first time :func:`games` is called (the
command line starts without loading numba kernels it does not need): this is the only place
in the package that imports on demand for start-up speed.

Games of other packages join through the entry point group ``perfectplay.games``
(:data:`ENTRY_POINTS`): each entry point names a :class:`GameSpec` or a catalog game (a
:class:`~perfectplay.catalog.CatalogGame`), e.g. in the plugin's ``pyproject.toml``::

    [project.entry-points."perfectplay.games"]
    heap = "mygames.heap:SPEC"

They are loaded on the first listing (:func:`games`, :func:`catalog`, :func:`catalog_names`)
or the first name the built-in games do not know, so they reach the command line
(``perfectplay games``, ``perfectplay NAME``, ``solve NAME``, ``play NAME``) and the web
page like a built-in game. A plugin that fails to load is one warning naming it (a
:class:`PluginWarning`; the command line prints it as one line), and every other game still
works.

>>> [spec.name for spec in games()][:4]
['coins', 'rock', 'portal', 'no']
>>> get("portal").title
'Closing the Portal'
"""

from __future__ import annotations

import dataclasses
import functools
import typing
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from .errors import InputError

#: The packages of the built-in games, in the order the CLI and the page list them.
BUILTIN = ("perfectplay.coins", "perfectplay.rock", "perfectplay.portal", "perfectplay.no")

#: The catalog of famous games (:mod:`perfectplay.catalog`): each module defines ``GAME``, a
#: :class:`~perfectplay.catalog.CatalogGame`. In the order ``perfectplay games`` lists
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
    Analyze, and Play for a two-player game) and an example body made from its demo.

    ``script`` is the game's own board code, JavaScript shipped in the game's package
    (package data, found with :func:`importlib.resources.files`): the page loads it and it
    registers the game's board views (see ``web/static/app.js``, ``perfectplay.boards``).
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
    script: Traversable | None = None  # the game's board code (JavaScript), or None


#: ``(result, path) -> Picture``: a game's picture saved as PNG or SVG (needs matplotlib).
PictureFn = Callable[[Any, str | Path], Any]


@dataclass(frozen=True)
class GameSpec:
    """Everything the command line, the page, play and the contest tools need about a game.

    ``options`` is a frozen dataclass whose every field has a default; each field becomes a
    command-line option and a key of the web API's body. A field's ``metadata`` may give
    ``help`` (the option's help), ``flag`` (its spelling on the command line, default
    ``--name``; a ``bool`` field that defaults to True is switched off by its flag) and
    ``aliases`` (older names the web API still accepts). ``str`` fields typed as a
    ``Literal`` become a choice.

    ``parse(text, options)`` reads the text the command line and the page take;
    ``from_values(values, options)``, when given, builds an instance from numbers typed as
    command-line arguments or sent as the web body's ``row`` (the coins).
    """

    name: str
    title: str
    rules: str
    input_help: str
    parse: Callable[[str, Any], Any]
    analyze: Callable[[Any, Any], Result]
    options: type = NoOptions
    examples: tuple[str, ...] = ()
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
    aliases: tuple[str, ...] = ()  # older names the command line and the web API still take
    web: WebPage = field(default_factory=WebPage)  # how the web page shows the game

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
    aliases: tuple[str, ...] = ()


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
                               meta.get("flag", "--" + f.name.replace("_", "-")), choices,
                               tuple(meta.get("aliases", ()))))
    return tuple(out)


def make_options(options: type, values: Mapping[str, Any]) -> Any:
    """An options dataclass from a mapping; an unknown key or a value outside a field's
    choices is an :class:`InputError` naming it."""
    fields = {f.name: f for f in option_fields(options)}
    aliases = {a: f.name for f in fields.values() for a in f.aliases}
    kwargs: dict[str, Any] = {}
    for key, value in values.items():
        name = aliases.get(key, key)
        if name not in fields:
            known = ", ".join(fields) or "none"
            raise InputError(f"unknown option {key!r}; this game's options: {known}")
        spec = fields[name]
        if spec.choices and value not in spec.choices:
            raise InputError(f"{name} must be one of {', '.join(spec.choices)}, got {value!r}")
        kwargs[name] = value
    return options(**kwargs)


_GAMES: dict[str, GameSpec] = {}
_LOADED = False


def register(spec: GameSpec) -> GameSpec:
    """Add a game; its name must not clash with another's (re-registering a name replaces
    it, so a module reloaded in a notebook does not fail)."""
    if not spec.name.isidentifier():
        raise ValueError(f"a game's name must be a plain word, got {spec.name!r}")
    _GAMES[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Remove a game (tests register toy games and take them away again)."""
    _GAMES.pop(name, None)


def _load_builtin() -> None:
    """Import every built-in game (each registers its SPEC on import), then order the
    registry: the built-in games first, in BUILTIN's order, whatever was imported before."""
    global _LOADED
    if not _LOADED:
        _LOADED = True
        specs: list[GameSpec] = [import_module(module).SPEC for module in BUILTIN]
        # a built-in game unregistered before stays out
        builtin = [spec for spec in specs if _GAMES.get(spec.name) is spec]
        rest = [spec for spec in _GAMES.values() if all(spec is not b for b in builtin)]
        _GAMES.clear()
        for spec in builtin + rest:
            _GAMES[spec.name] = spec


def _load_one(name: str) -> None:
    """Import only the built-in game called ``name``, if there is one: a command for one
    game need not import the others (about 20 ms a process)."""
    module = f"perfectplay.{name}"
    if not _LOADED and module in BUILTIN:
        import_module(module)  # as loading them all would: its SPEC wins the name


def games() -> list[GameSpec]:
    """Every registered game, the built-in ones first, then the plugins' and any registered
    in this process."""
    _load_builtin()
    load_plugins()
    return list(_GAMES.values())


def get(name: str) -> GameSpec:
    """The game called ``name`` (or one of its aliases), or an :class:`InputError` listing
    the games."""
    _load_one(name)
    if name in _GAMES:
        return _GAMES[name]
    _load_builtin()
    load_plugins()
    if name in _GAMES:
        return _GAMES[name]
    for spec in _GAMES.values():
        if name in spec.aliases:
            return spec
    raise InputError(f"unknown game {name!r}; the games are {', '.join(_GAMES)}")


def judges() -> dict[str, tuple[str, JudgeFn]]:
    """Every judge problem id with its title and its function, game by game."""
    return {pid: entry for spec in games() for pid, entry in spec.judges.items()}


def problems() -> dict[str, Any]:
    """Every generator problem (:class:`perfectplay.gen.Problem`) by judge id."""
    return {pid: entry for spec in games() for pid, entry in spec.problems.items()}


# -- the catalog of famous games ----------------------------------------------------------------
_CATALOG: dict[str, Any] = {}
_CATALOG_LOADED = False


def register_catalog(entry: Any) -> Any:
    """Add a catalog game (a :class:`~perfectplay.catalog.CatalogGame`); a user's
    famous game may join the same way. Its name must not clash with a game of
    :func:`games`, since the command line takes both by name."""
    if not entry.name.isidentifier():
        raise ValueError(f"a game's name must be a plain word, got {entry.name!r}")
    _CATALOG[entry.name] = entry
    return entry


def _load_catalog() -> None:
    global _CATALOG_LOADED
    if not _CATALOG_LOADED:
        _CATALOG_LOADED = True
        builtin = [register_catalog(import_module(module).GAME) for module in CATALOG]
        rest = [entry for entry in _CATALOG.values() if all(entry is not b for b in builtin)]
        _CATALOG.clear()  # the built-in games first, whatever joined before
        for entry in builtin + rest:
            _CATALOG[entry.name] = entry
    load_plugins()


def catalog() -> list[Any]:
    """Every catalog game, in :data:`CATALOG`'s order, then any registered later.

    >>> "nim" in [entry.name for entry in catalog()]
    True
    """
    _load_catalog()
    return list(_CATALOG.values())


def catalog_names() -> list[str]:
    """The catalog's names without importing any built-in game (for help texts); the
    plugins' games are loaded to learn their names."""
    load_plugins()
    return [module.rsplit(".", 1)[1] for module in CATALOG] + \
        [name for name in _CATALOG if f"perfectplay.catalog.{name}" not in CATALOG]


def get_catalog(name: str) -> Any:
    """The catalog game called ``name``, or an :class:`InputError` listing them (only that
    game's module is imported)."""
    module = f"perfectplay.catalog.{name}"
    if name not in _CATALOG and module in CATALOG:
        register_catalog(import_module(module).GAME)
    if name not in _CATALOG:
        load_plugins()
    if name in _CATALOG:
        return _CATALOG[name]
    raise InputError(f"unknown game {name!r}; the catalog's games are "
                     f"{', '.join(catalog_names())}, or give FILE.py:Class")


# -- games of other packages: the entry point group ------------------------------------------
#: The entry point group through which an installed package adds games: each entry point
#: names a :class:`GameSpec` (a game with its own command, like the coins) or a catalog game
#: (anything with ``name`` and ``build``, like :class:`~perfectplay.catalog.CatalogGame`:
#: taken by ``solve NAME``, ``play NAME``, ``perfectplay games``).
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
    name = getattr(obj, "name", None)
    if not isinstance(name, str) or not name.isidentifier():
        kind = type(obj).__name__
        return f"is a {kind}, not a GameSpec or a CatalogGame (a game with a plain-word name)"
    taken = (name in _GAMES or name in _CATALOG or f"perfectplay.catalog.{name}" in CATALOG
             or f"perfectplay.{name}" in BUILTIN  # a plugin never shadows a built-in game
             or any(name in spec.aliases for spec in _GAMES.values()))
    if taken:
        return f"takes the name {name!r} of a game already registered: not loaded"
    if isinstance(obj, GameSpec):
        register(obj)
    elif callable(getattr(obj, "build", None)):
        register_catalog(obj)
    else:
        return f"is a {type(obj).__name__}, not a GameSpec or a CatalogGame"
    return ""


def _warn(message: str) -> None:
    warnings.warn(f"{message}; the other games work", PluginWarning, stacklevel=3)
