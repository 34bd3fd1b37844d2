"""Every deprecated alias warns when it is used (a :class:`DeprecationWarning` naming the new
place) and is listed in CHANGELOG.md with the release that removes it.

The table below is the one list: a new deprecated name is added here and to the
changelog's "Deprecated" list (the last test checks the two agree).
"""

from __future__ import annotations

import re
import warnings
from importlib import import_module
from pathlib import Path

import pytest
from click.testing import CliRunner

CHANGELOG = Path(__file__).resolve().parent.parent / "CHANGELOG.md"
REMOVED_IN = "0.2.0"

#: Old names read as a module's attribute: module -> its old names.
ATTRIBUTES = {
    "perfectplay.nearest": ("DRAW_LIMIT", "Grid", "JUDGES", "MAX_COORD", "MAX_PIECES",
                            "Nearest", "NearestResult", "NoBoard", "NoOptions", "all_nearest",
                            "analyze", "distance_cells", "draw_distances", "frame_distances",
                            "judge_kth_no", "nearest", "parse", "parse_drawn_board",
                            "read_kth_no", "seed_nearest"),
    "perfectplay.tablebase": ("NotInStore", "SolveStopped", "Store", "StoreError", "Tablebase",
                              "_client", "analyze", "check_tiered", "expand_chunk",
                              "margin_text", "open_store", "parse_margin", "query",
                              "read_manifest", "solve_tiered"),
    "perfectplay.outcore": ("CompiledStore", "solve_compiled_store"),
    "perfectplay.gen": ("SPECS", "Spec"),
    "perfectplay.cli": ("run",),
    "perfectplay.plot": ("rock_png", "portal_png", "coins_png"),
    "perfectplay.play": ("coins_table", "COINS_PLAY_LIMIT", "rock_table", "ROCK_PLAY_LIMIT",
                         "portal_table", "PORTAL_EXACT_CELLS", "PortalOracle"),
}
#: Modules deprecated whole: every name they had reads its new place.
WHOLE_MODULES = ("perfectplay.nearest", "perfectplay.tablebase", "perfectplay.outcore")


@pytest.mark.parametrize(("module", "name"),
                         [(m, n) for m, names in ATTRIBUTES.items() for n in names])
def test_an_old_attribute_warns_and_still_works(module, name):
    mod = import_module(module)
    with pytest.warns(DeprecationWarning, match=REMOVED_IN):
        value = getattr(mod, name)
    assert value is not None


def test_the_old_modules_warn_only_when_used():
    """Importing a deprecated module says nothing (a star import or a test collector may
    touch it); reading one of its names does."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for module in WHOLE_MODULES:
            import_module(module)


def test_an_old_name_gives_the_new_object():
    from perfectplay import casegen, gen, no, store
    from perfectplay.store import compiled, reader

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from perfectplay import nearest, outcore, tablebase

        assert nearest.all_nearest is no.all_nearest
        assert tablebase.open_store is store.open_store
        assert outcore.CompiledStore is reader.Store
        assert outcore.solve_compiled_store is compiled.solve_compiled_store
        assert gen.Spec is casegen.Problem and gen.problems() == gen.SPECS


def test_the_old_game_functions_warn():
    """``rock.solve`` and ``portal.solve``, the old names of ``analyze``."""
    from perfectplay import portal, rock

    maze = rock.parse("3 4\n.#.X\n.#..\nE...\n")
    board = portal.parse(".O#..\n....O\n.#.#.\n.....\n#....\n")
    with pytest.warns(DeprecationWarning, match=REMOVED_IN):
        rock.solve(maze)
    with pytest.warns(DeprecationWarning, match=REMOVED_IN):
        portal.solve(board)


def test_the_old_option_all_warns():
    from perfectplay import no

    board = no.parse("5\n1 1\n3 0\n2 3\n0 2\n4 4\n2\n")
    with pytest.warns(DeprecationWarning, match="every"):
        no.analyze(board, all=True)


def test_the_old_command_name_warns():
    """``perfectplay nearest`` (a registered game's old name) still runs ``no``, with a
    DeprecationWarning (hidden by Python's default filters: its output stays the same)."""
    from perfectplay.cli import main

    with pytest.warns(DeprecationWarning, match="perfectplay no"):
        result = CliRunner().invoke(main, ["nearest", "examples/no_drawn.txt", "--all"])
    assert result.exit_code == 0, result.output
    assert result.output == CliRunner().invoke(
        main, ["no", "examples/no_drawn.txt", "--all"]).output


def test_the_old_web_route_warns():
    """``/api/nearest/...``, the web API's old name of ``/api/no/...``."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from perfectplay.web.app import create_app

    client = TestClient(create_app())
    with pytest.warns(DeprecationWarning, match=REMOVED_IN):
        r = client.post("/api/nearest/analyze", json={"text": "5\n1 1\n3 0\n2 3\n0 2\n4 4\n2\n"})
    assert r.status_code == 200, r.text


def _changelog_deprecated() -> str:
    """The text of the changelog's "Deprecated" list of the unreleased version."""
    text = CHANGELOG.read_text()
    unreleased = text.split("\n## ", 2)[1]
    found = re.search(r"\n### Deprecated[^\n]*\n(.*?)(?=\n### |\Z)", unreleased, flags=re.S)
    assert found, "CHANGELOG.md: no '### Deprecated' section under the unreleased version"
    return found.group(1)


def test_every_deprecated_name_is_in_the_changelog_with_its_release():
    listed = _changelog_deprecated()
    assert f"removed in {REMOVED_IN}" in listed
    for module, names in ATTRIBUTES.items():
        assert f"`{module}" in listed, module
        for name in names:
            if module not in WHOLE_MODULES:  # a whole module is listed whole
                assert name in listed, (module, name)
    for other in ("rock.solve", "portal.solve", "all=", "perfectplay nearest",
                  "/api/nearest"):
        assert other in listed, other
