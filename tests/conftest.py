"""pytest configuration: the scripts in tests/wrong/ are programs under test, run by the
stress tester as subprocesses; they must not be collected or imported. ``client`` is a local
Dask cluster of two worker threads and ``process_client`` one of two worker processes, each
made once a test module that asks for it (the stores' tests); ``served_app`` catches what
``perfectplay serve`` passes to the web app.

The suite tests the source tree, in every process it starts too: pytest imports
``src/perfectplay`` for its doctests, so ``src`` goes first on this process's path and on
the ``PYTHONPATH`` its subprocesses, command lines and worker processes inherit. Without
it, on a fresh clone (the package installed, not editable) they imported the installed
copy, whose numba cache is another folder, and compiled every game's kernels a second
time."""

import os
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
if (SRC / "perfectplay").is_dir():
    sys.path.insert(0, str(SRC))
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])])

collect_ignore_glob = ["wrong/*"]


@pytest.fixture
def served_app(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """What ``perfectplay serve`` would hand the web app (``create_app``'s keywords), the
    server itself never started: the command runs to its end and the dict is filled."""
    pytest.importorskip("starlette")
    from perfectplay.web import app, serving

    seen: dict[str, object] = {}

    def fake_create_app(**kwargs: object) -> str:
        seen.update(kwargs)
        return "app"

    monkeypatch.setattr(app, "create_app", fake_create_app)
    monkeypatch.setattr(serving, "run_until_stopped", lambda *a: None)
    return seen


@pytest.fixture(scope="module")
def client():
    """A local Dask cluster of two workers as threads of this process: the tasks run the
    same code as on worker processes, but the game's numba kernels, compiled once here, serve
    them (worker processes would each compile every game's kernels again: most of the
    stores' tests' time). What only separate processes test (pickling a game defined in a
    test, a worker's own import of the package) asks for ``process_client``."""
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                           dashboard_address=None, silence_logs=40)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def process_client():
    """A real local cluster of two worker processes, made as users get it
    (:func:`perfectplay.store.runner.client_for`)."""
    from perfectplay.store.runner import client_for as _client

    c = _client(None, 2)
    yield c
    cluster = c.cluster
    c.close()
    cluster.close()


#: The test modules that hold the suite's longest tests, longest first (pytest --durations,
#: 2026-11-26). They are collected first, each module whole (its module-scoped fixtures,
#: such as ``client``, are made once a worker) and its slow tests first, so pytest-xdist's
#: workers start on them together and finish on short tests together: otherwise a long test
#: drawn last keeps one worker busy while the other idles (a minute and more at the end).
HEAVY_MODULES = ("test_search.py", "test_web_live_browser.py", "test_readme.py",
                 "test_kalah_search.py", "test_store_compiled.py", "test_compiled.py",
                 "test_connect4_hooks.py", "test_web_catalog.py", "test_catalog.py",
                 "test_catalog_domineering.py", "test_saved_target.py",
                 "test_catalog_kalah.py")

#: Tests each over 30 s of that run (with the machine under load), started first in their
#: module.
HEAVY_TESTS = ("test_random_compiled_games_equal_the_strong_solution",
               "test_every_command_line_of_the_readme_runs",
               "test_search_with_an_endgame_store_equals_the_strong_solution",
               "test_random_compiled_games_equal_the_engine",
               "test_every_python_block_of_the_readme_runs",
               "test_moves_inside_a_tier_cycles_and_draws_included",
               "test_acyclic_winlose_games_equal_the_python_engine",
               "test_every_task_path_on_the_cluster",
               "test_ctrl_c_stops_with_what_is_proven",
               "test_an_endgame_store_cut_into_many_tasks_holds_every_root",
               "test_kalah_by_seeds_stored_moves_inside_its_tiers",
               "test_endgame_scores_convert_to_the_engines_strong_solution",
               "test_cli_builds_an_endgame_store_and_searches_with_it",
               "test_scored_acyclic_games_equal_the_python_engine",
               "test_each_games_small_instance_agrees_with_solve",
               "test_the_game_and_its_twin_agree_along_random_lines")


def _heavy_first(item: pytest.Item) -> tuple[int, int]:
    module = item.nodeid.split("::")[0].rsplit("/", 1)[-1]
    name = getattr(item, "originalname", None) or item.name
    rank = HEAVY_MODULES.index(module) if module in HEAVY_MODULES else len(HEAVY_MODULES)
    return rank, 0 if name in HEAVY_TESTS else 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Longest first (see HEAVY_MODULES); a stable sort keeps every other order."""
    items.sort(key=_heavy_first)
