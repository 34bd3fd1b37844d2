"""The registry's contract, checked on every registered game: the built-in ones and any a
test registers (:mod:`test_toy_game` registers a toy game and runs every check here on it).
Every game keeps :data:`ENTRY_CONTRACT` (what a :class:`~perfectplay.registry.GameEntry`
says); a seed problem also keeps :data:`CONTRACT` (each check takes a
:class:`~perfectplay.registry.GameSpec`). The tests are parametrized over
:func:`perfectplay.registry.games`, never over a list of names."""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from collections.abc import Callable

import pytest

from perfectplay import gen, judge, registry
from perfectplay.errors import InputError
from perfectplay.play import GameState
from perfectplay.registry import GameEntry, GameSpec, Result, WebPage, option_fields


# -- what every game says, whatever its kind -------------------------------------------------
def check_entry_describes_itself(entry: GameEntry) -> None:
    """A name that is a plain word and no other game's, a title, rules, its kind, what it
    offers (a seed problem analyzes, a catalog game is solved and explored), found by
    name."""
    assert entry.name.isidentifier() and entry.title and entry.rules
    assert registry.find(entry.name) is entry
    assert [e.name for e in registry.games()].count(entry.name) == 1
    assert entry.kind in ("seed", "catalog") and entry.offers
    assert len(set(entry.offers)) == len(entry.offers)
    if entry.kind == "seed":
        assert type(entry).__name__ == "GameSpec" and entry.offers[0] == "analyze"
        assert ("play" in entry.offers) == (entry.play is not None)
        assert entry.budget is None and entry.live is None
    else:
        assert type(entry).__name__ == "CatalogGame" and "explore" in entry.offers
        assert ("live" in entry.offers) == (entry.live is not None)


def check_entry_board_code(entry: GameEntry) -> None:
    """A game's board code, when it ships some, is JavaScript in its own package that
    registers ``perfectplay.boards[NAME]`` (the page's one board-script mechanism)."""
    if entry.script is None:
        return
    text = entry.script.read_text("utf-8")
    assert f"boards.{entry.name} =" in text or f'boards["{entry.name}"]' in text, entry.name


def check_entry_budgets(entry: GameEntry) -> None:
    """A catalog game's page budget is in its entry, and the instance its tab opens is one
    its parameters and its budget take (so does the live tab's)."""
    if entry.kind != "catalog":
        return
    assert entry.budget is not None, f"{entry.name}: no page budget in its package"
    start = entry.arguments((), entry.budget.default)
    assert entry.budget.fits(start) and entry.budget.limit
    if entry.live is not None:
        standard = entry.arguments((), entry.live.standard)
        assert entry.live.fits(standard) and not entry.budget.fits(standard)


def check_entry_listed_by_the_server(entry: GameEntry) -> None:
    """``GET /api/games`` lists the game with its kind and what it offers."""
    pytest.importorskip("starlette")
    from perfectplay.web.app import games

    listed = {g["name"]: g for g in games()["games"]}
    assert listed[entry.name]["kind"] == entry.kind
    assert listed[entry.name]["offers"] == list(entry.offers)


#: Every check every game keeps, whatever its kind.
ENTRY_CONTRACT: list[Callable[[GameEntry], None]] = [
    check_entry_describes_itself, check_entry_board_code, check_entry_budgets,
    check_entry_listed_by_the_server]


@pytest.mark.parametrize("check", ENTRY_CONTRACT, ids=lambda c: c.__name__)
@pytest.mark.parametrize("name", [entry.name for entry in registry.games()])
def test_every_game_keeps_the_entry_contract(name, check):
    check(registry.find(name))


def test_the_registry_is_one_list_of_every_kind():
    """One list: the seed problems of BUILTIN, then the catalog games of CATALOG, each kind
    a view of it; names() gives the same names without importing a game."""
    every = registry.games()
    assert [e.name for e in every] == registry.names()
    assert [e.name for e in every] == [e.name for e in registry.games("seed")] + [
        e.name for e in registry.games("catalog")]
    assert [e.name for e in every][:len(registry.BUILTIN)] == [
        m.rsplit(".", 1)[1] for m in registry.BUILTIN]
    assert registry.catalog() == registry.games("catalog")
    with pytest.raises(InputError, match="unknown game 'nim'"):
        registry.get("nim")  # a catalog game is not a seed problem
    with pytest.raises(TypeError, match="GameEntry"):
        registry.register(object())  # type: ignore[type-var]


# -- what a seed problem adds ------------------------------------------------------------------
def check_describes_itself(spec: GameSpec) -> None:
    """A name that is a plain word, a title, rules and input help."""
    assert spec.name.isidentifier() and spec.title and spec.rules and spec.input_help
    assert registry.get(spec.name) is spec
    assert isinstance(spec.web, WebPage)


def check_options(spec: GameSpec) -> None:
    """One frozen options dataclass whose every field has a default and a type the command
    line and the web API can show (bool, int, float, str or a Literal of str)."""
    assert dataclasses.is_dataclass(spec.options)
    opts = spec.make_options()
    assert isinstance(opts, spec.options)
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.x_not_an_option = 1
    for f in option_fields(spec.options):
        assert f.kind in (bool, int, float, str), (spec.name, f.name, f.kind)
        assert f.default is not dataclasses.MISSING
        assert all(isinstance(c, str) for c in f.choices)
    with pytest.raises(InputError, match="unknown option"):
        spec.make_options({"x_not_an_option": 1})


def check_analyzes_its_demo(spec: GameSpec) -> None:
    """The demo instance solves to a Result: text, a drawing and JSON."""
    assert spec.demo
    result = spec.solve_text(spec.demo, **spec.demo_options)
    assert isinstance(result, Result)
    assert result.explain() and isinstance(result.draw(), str)
    assert isinstance(result.draw(style=True), str)
    data = result.to_json()
    assert isinstance(data, dict)
    json.dumps(data, default=str)
    if spec.headline is not None:
        assert isinstance(spec.headline(result), str | None)


def check_judges_its_generated_cases(spec: GameSpec) -> None:
    """One generator a judge problem; each generated case is judged without an error, every
    output line in the problem's answer format."""
    assert spec.judges and set(spec.problems) == set(spec.judges)
    for pid, problem in spec.problems.items():
        title, _fn = spec.judges[pid]
        assert title and pid in judge.problems() and pid in gen.problems()
        text = gen.generate(pid, seed=0, cases=1, size=min(problem.default_size, 8))
        assert text == gen.generate(pid, seed=0, cases=1, size=min(problem.default_size, 8))
        out = judge.run(pid, text)
        assert out.ok and out.lines, (pid, out.errors)
        assert all(re.fullmatch(problem.answer, str(line)) for line in out.lines), out.lines


def check_plays_its_demo(spec: GameSpec) -> None:
    """A two-player game's play table: its demo played by perfect moves to the end."""
    if spec.play is None:
        return
    opts = spec.make_options()
    table = spec.play(spec.parse(spec.demo, opts), opts)
    state = GameState(table, set())
    assert table.title and len(table.player_names) == 2
    for _ in range(10):  # a few perfect moves: every one keeps the mover's value
        if state.over():
            break
        assert not state.play(state.moves()[0].move).mistake


def check_shows_on_the_page(spec: GameSpec) -> None:
    """The web API's example and the page's start are bodies its analyze takes."""
    pytest.importorskip("starlette")
    from perfectplay.web.app import analyze, games

    for body in (spec.example_body(), spec.start_body()):
        out = analyze(spec.name, body)
        assert out["explanation"] and isinstance(out["drawing"], str)
    entry = next(g for g in games()["games"] if g["name"] == spec.name)
    assert entry["page"]["tab"] and ("play" in entry) == (spec.play is not None)


#: Every check a seed problem keeps; a game registered by a test runs them all.
CONTRACT: list[Callable[[GameSpec], None]] = [
    check_describes_itself, check_options, check_analyzes_its_demo,
    check_judges_its_generated_cases, check_plays_its_demo, check_shows_on_the_page]


@pytest.mark.parametrize("check", CONTRACT, ids=lambda c: c.__name__)
@pytest.mark.parametrize("name", [spec.name for spec in registry.games("seed")])
def test_every_registered_game_keeps_the_contract(name, check):
    check(registry.get(name))


def test_the_contract_names_every_field_a_game_may_leave_out():
    """A GameSpec's optional parts all have defaults: a game gives name, title, rules
    (every game's), input help, parse and analyze, and nothing else is required."""
    from perfectplay.catalog import CatalogGame

    hints = typing.get_type_hints(GameSpec)

    def required(kind: type) -> list[str]:
        return [f.name for f in dataclasses.fields(kind) if f.default is dataclasses.MISSING
                and f.default_factory is dataclasses.MISSING]

    assert required(GameEntry) == ["name", "title", "rules"]
    assert required(GameSpec) == ["name", "title", "rules", "input_help", "parse", "analyze"]
    assert required(CatalogGame) == ["name", "title", "rules", "factory"]
    assert "web" in hints


def test_unknown_games_are_clear_errors():
    with pytest.raises(InputError, match="unknown game 'nope'"):
        registry.get("nope")
    with pytest.raises(ValueError, match="plain word"):
        registry.register(dataclasses.replace(registry.get("coins"), name="two words"))


LOAD_ORDER = """
from perfectplay import registry
import perfectplay.rock  # imported early, as a command for one game does
print(registry.get("rock").name, [s.name for s in registry.games("seed")])
"""

UNREGISTERED = """
from perfectplay import registry
import perfectplay.portal
registry.unregister("portal")
print([s.name for s in registry.games("seed")])
"""


def test_one_game_first_then_all_in_their_order_and_unregistered_stays_out():
    import subprocess
    import sys
    first = subprocess.run([sys.executable, "-c", LOAD_ORDER], capture_output=True,
                           text=True, check=True).stdout.split(None, 1)
    assert first[0] == "rock"
    assert first[1].strip() == "['coins', 'rock', 'portal', 'no']"
    rest = subprocess.run([sys.executable, "-c", UNREGISTERED], capture_output=True,
                          text=True, check=True).stdout.strip()
    assert rest == "['coins', 'rock', 'no']"
