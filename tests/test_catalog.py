"""The catalog of famous games, every game alike (OpenSpiel's registry-driven conformance
tests are the model): each game passes ``check_game`` on its small instances, agrees with
its plain Python twin position by position along random lines, reproduces every published
result the suite can afford, and is reached by name from Python and the command line.
Each game's own file (tests/test_catalog_NAME.py) holds what only that game has."""

from __future__ import annotations

import random
from typing import Any

import pytest

from perfectplay import check_game, solve
from perfectplay.catalog import SUITE_SECONDS, reproduce
from perfectplay.errors import InputError
from perfectplay.registry import CATALOG, catalog, catalog_names, get_catalog

ENTRIES = catalog()
SMALL = [pytest.param(e, args, id=f"{e.name}-{'-'.join(map(str, args.values()))}")
         for e in ENTRIES for args in e.small]
PUBLISHED = [pytest.param(e, p, id=f"{e.name}-{'-'.join(map(str, p.args.values()))}-{k}")
             for e in ENTRIES for k, p in enumerate(e.published)
             if not p.goal and p.seconds <= SUITE_SECONDS]


def test_every_catalog_module_registers_its_game_under_its_module_name() -> None:
    assert [e.name for e in ENTRIES][:len(CATALOG)] == [m.rsplit(".", 1)[1] for m in CATALOG]
    assert catalog_names()[:len(CATALOG)] == [e.name for e in ENTRIES[:len(CATALOG)]]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_every_game_says_what_it_is_and_cites_a_source(entry: Any) -> None:
    assert entry.title and entry.rules.endswith(".")
    assert entry.small, f"{entry.name} names no small instance for the conformance tests"
    assert entry.twin is not None, f"{entry.name} has no plain Python twin"
    assert entry.published, f"{entry.name} gives no published result"
    for p in entry.published:
        assert p.source and any(ch.isdigit() for ch in p.source), \
            f"{entry.name}: cite the source with its year: {p.source!r}"
        entry.arguments((), p.args)  # every published instance is a valid one


@pytest.mark.parametrize(("entry", "args"), SMALL)
def test_small_instances_pass_the_conformance_check(entry: Any, args: dict[str, Any]) -> None:
    report = check_game(entry.build(**args), max_positions=20_000)
    assert report.ok, str(report)


@pytest.mark.parametrize(("entry", "args"), SMALL)
def test_the_game_and_its_twin_agree_along_random_lines(entry: Any, args: dict[str, Any]
                                                        ) -> None:
    """Both solved strongly; from the start, 30 random lines: at every position on the way
    the value, the remoteness and the set of move names agree, and so do every move's value
    and remoteness (the move played is found in the twin by its name)."""
    fast, twin = entry.build(**args), entry.twin(**args)
    a, b = solve(fast), solve(twin)
    rng = random.Random(len(entry.name))
    for _ in range(30):
        p, q = fast.initial(), twin.initial()
        while True:
            assert (a.value(p), a.remoteness(p)) == (b.value(q), b.remoteness(q)), \
                (entry.name, fast.draw(p) if hasattr(fast, "draw") else p)
            ours = {fast.move_name(mv.move): (mv.value, mv.remoteness)
                    for mv in a.move_values(p)}
            theirs = {twin.move_name(mv.move): (mv.value, mv.remoteness)
                      for mv in b.move_values(q)}
            assert ours == theirs, (entry.name, ours, theirs)
            if not ours:
                break
            name = rng.choice(sorted(ours))
            p = fast.play(p, next(m for m in fast.moves(p) if fast.move_name(m) == name))
            q = twin.play(q, next(m for m in twin.moves(q) if twin.move_name(m) == name))


@pytest.mark.parametrize(("entry", "published"), PUBLISHED)
def test_published_results_are_reproduced(entry: Any, published: Any) -> None:
    found = reproduce(entry, published)
    assert found.agrees, (entry.name, published.claim(), found)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_moves_have_names_the_game_reads_back(entry: Any) -> None:
    game = entry.build(**entry.small[0])
    pos = game.initial()
    for move in game.moves(pos):
        assert game.parse_move(game.move_name(move)) == move
    assert game.parse_move("no such move") is None
    assert isinstance(game.draw(pos), str) and game.draw(pos)


def test_parameters_are_checked_before_anything_is_built() -> None:
    entry = get_catalog(ENTRIES[0].name)
    with pytest.raises(InputError, match="has no parameter 'nonsense'"):
        entry.build(nonsense=1)
    with pytest.raises(InputError, match="unknown game 'chess'"):
        get_catalog("chess")


def test_the_games_module_builds_every_game_by_name() -> None:
    import perfectplay.games as games

    assert games.available() == catalog_names()
    for entry in ENTRIES:
        built = getattr(games, entry.name)(**entry.small[0])
        assert built.initial() == entry.build(**entry.small[0]).initial()
    with pytest.raises(AttributeError, match="no game 'chess'"):
        games.chess  # noqa: B018


def test_perfectplay_games_lists_every_game_with_its_sources() -> None:
    import json

    from click.testing import CliRunner

    from perfectplay.cli import main

    out = CliRunner().invoke(main, ["games"])
    assert out.exit_code == 0, out.output
    for entry in ENTRIES:
        assert f"{entry.name}: {entry.title}." in out.output
        for p in entry.published:
            assert p.source in out.output
    data = json.loads(CliRunner().invoke(main, ["games", "--json"]).output)
    assert [d["name"] for d in data if d["kind"] == "catalog"] == [e.name for e in ENTRIES]
    from perfectplay.catalog.table import results_table
    table = CliRunner().invoke(main, ["games", "tictactoe", "--markdown", "results"])
    assert table.output.strip() == results_table([get_catalog("tictactoe")])
    bad = CliRunner().invoke(main, ["games", "chess"])
    assert bad.exit_code != 0 and "unknown game 'chess'" in bad.output


def test_perfectplay_games_lists_the_seed_problems_too() -> None:
    """``perfectplay games`` lists every game the registry holds, grouped by kind: the seed
    problems first, each with its rules, what it offers and the commands that run it."""
    import json

    from click.testing import CliRunner

    from perfectplay.cli import main
    from perfectplay.registry import games

    out = CliRunner().invoke(main, ["games"]).output
    seeds, catalog_part = out.split("\n\n\nCatalog games: ")
    assert seeds.startswith("Seed problems: ")
    for spec in games("seed"):
        assert f"\n{spec.name}: {spec.title}. " in seeds
        assert f"\n  offers: {', '.join(spec.offers)}\n" in seeds
    assert "    perfectplay rock examples/rock_sample.txt\n" \
        "    perfectplay play rock examples/rock_sample.txt\n" \
        "    perfectplay judge uva10381 FILE\n" in seeds
    assert "perfectplay judge cses1097 FILE   (or atcoder-dpl, gfg-coins, spoj-twends, " \
        "uva10891)" in seeds
    assert "no: The board game No. " in seeds and "perfectplay play no" not in seeds
    assert "\nconnect4: Connect Four. " in catalog_part and "connect4: " not in seeds
    assert "  offers: solve, search, play, explore, live\n" in catalog_part
    data = json.loads(CliRunner().invoke(main, ["games", "--json"]).output)
    assert [d["name"] for d in data] == [e.name for e in games()]
    coins = data[0]
    assert (coins["kind"], coins["offers"], coins["judges"][0]) == (
        "seed", ["analyze", "play", "judge"], "cses1097")
    assert coins["commands"][-2:] == ["perfectplay play coins 7 9 2 6 4 3",
                                      "perfectplay judge cses1097 FILE"]
    one = CliRunner().invoke(main, ["games", "rock"]).output
    assert one.startswith("rock: The Rock. A walker moves") and "Seed problems" not in one
    table = CliRunner().invoke(main, ["games", "coins", "--markdown", "summary"])
    assert table.exit_code != 0 and "coins is a seed problem" in table.output


def test_a_catalog_game_is_solved_by_name_from_any_folder(tmp_path: Any) -> None:
    """No clone needed: the installed command takes the catalog's names, in any folder."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "perfectplay", "solve",
                          "nim(heaps=(1, 2, 3))", "--json"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert '"value": "lose"' in run.stdout
    run = subprocess.run([sys.executable, "-m", "perfectplay", "solve",
                          "nim(heaps=(1, 2, 300))"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode != 0
    assert run.stderr.strip() == "perfectplay: error: heaps[2] must be at most 64, got 300"


def test_the_readme_keeps_no_list_of_the_catalogs_games() -> None:
    """A catalog game is its package plus one registry line: the README points to the
    catalog page (written from the registry when the site is built) and to ``perfectplay
    games`` instead of a table someone must extend by hand."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")
    rows = [name for name in catalog_names() if f"| `{name}` |" in readme]
    assert rows == [], rows
    assert "docs/catalog.md" in readme and "perfectplay games" in readme


def test_the_tables_count_every_result_once_and_mark_the_goals() -> None:
    from perfectplay.catalog.table import results_table, summary_table

    results = results_table(catalog()).splitlines()[2:]
    assert len(results) == sum(len(e.published) for e in catalog())
    goals = sum(p.goal for e in catalog() for p in e.published)
    assert sum("a goal" in row for row in results) == goals
    slow = sum(not p.goal and not p.live for e in catalog() for p in e.published)
    assert sum("not answered live" in row for row in results) == slow
    summary = summary_table(catalog()).splitlines()[2:]
    assert [row.split("|")[1].strip(" `") for row in summary] == list(catalog_names())


def test_a_search_proves_the_remoteness_only_when_the_source_claims_one(monkeypatch: Any
                                                                         ) -> None:
    from perfectplay.catalog import entry as module

    asked: list[bool] = []
    real = module.search

    def spy(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs["remoteness"])
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "search", spy)
    domineering = get_catalog("domineering")
    value_only = next(p for p in domineering.published if p.args == {"rows": 2, "cols": 3})
    assert reproduce(domineering, value_only).agrees
    assert asked == [False]
    nim = get_catalog("nim")
    assert reproduce(nim, nim.published[0]).agrees and asked == [False]  # a solve: no search


def test_a_result_reproduced_but_too_slow_to_play_is_not_a_goal() -> None:
    """Domineering 8x8 (Breuker, Uiterwijk & van den Herik 2000) is reproduced by the
    benchmark's search, so the tables count it as reproduced with its time, and refused by
    ``play`` (its first answer would take that long) as a goal is
    (tests/test_cli_too_big.py plays it); Othello 8x8 stays a goal."""
    from perfectplay.catalog.entry import Listing
    from perfectplay.catalog.table import results_table, summary_table

    domineering = get_catalog("domineering")
    [p] = [p for p in domineering.published if p.args == {"rows": 8, "cols": 8}]
    assert (p.goal, p.live, p.answered_live, p.value) == (False, False, False, "win")
    row = next(r for r in results_table([domineering]).splitlines()
               if "rows=8, cols=8" in r)
    assert "reproduced, 21 s (" in row and "9,741,788 nodes" in row and "goal" not in row
    assert "rows=8, cols=8" not in summary_table([domineering])  # not among the goals
    [listed] = [r for r in Listing.of(domineering).results if "rows=8, cols=8" in r]
    assert listed.endswith("(reproduced here by search, 20.8 s; too slow to answer live)")
    othello = get_catalog("othello")
    [big] = [p for p in othello.published if p.args == {"size": 8}]
    assert big.goal and big.live and not big.answered_live
