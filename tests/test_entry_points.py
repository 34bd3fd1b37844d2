"""Games of other packages join through the entry point group ``perfectplay.games``: a fake
installed distribution (a ``*.dist-info`` folder with ``entry_points.txt`` on the path) adds a
game with its own command (a GameSpec), a catalog game (a CatalogGame) and a broken plugin;
both games reach ``perfectplay games``, ``perfectplay NAME``, ``solve NAME``, ``play NAME``
and the web API, and the broken one is one warning line naming it that breaks nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from perfectplay import registry

PLUGIN = '''
import dataclasses
from dataclasses import dataclass, field

from perfectplay import registry
from perfectplay.catalog import CatalogGame, Param


@dataclass(frozen=True)
class HeapOptions:
    most: int = field(default=3, metadata={"help": "Most tokens a turn."})


@dataclass(frozen=True)
class HeapResult:
    heap: int
    wins: bool

    def explain(self):
        return f"the first player {'wins' if self.wins else 'loses'}"

    def draw(self, style=False):
        return "o" * self.heap

    def to_json(self):
        return {"heap": self.heap, "first_player_wins": self.wins}


SPEC = registry.GameSpec(
    name="heapplug", title="Subtraction", rules="take 1 to 3 tokens; the last token wins.",
    input_help="HEAP is a file holding the number of tokens.", options=HeapOptions,
    parse=lambda text, o: int(text), demo="8",
    analyze=lambda n, o: HeapResult(n, n % (o.most + 1) != 0))


class Take:
    """Take 1 or 2 from one heap; who cannot move loses."""

    def __init__(self, tokens):
        self.tokens = tokens

    def initial(self):
        return self.tokens

    def moves(self, n):
        return [k for k in (1, 2) if k <= n]

    def play(self, n, k):
        return n - k

    def outcome(self, n):
        return None


GAME = CatalogGame(name="takeplug", title="Take one or two",
                   rules="Take 1 or 2 tokens; who cannot move loses.",
                   factory=lambda tokens: Take(tokens),
                   params=(Param("tokens", 7, "the heap", low=0, high=100),))

NIM = dataclasses.replace(GAME, name="nim")  # names taken by built-in games
COINS = dataclasses.replace(SPEC, name="coins")
'''

ENTRY_POINTS = """
[perfectplay.games]
heapplug = fakeplug:SPEC
takeplug = fakeplug:GAME
brokenplug = fakeplug_missing:GAME
"""


def make_distribution(root: Path) -> Path:
    """A folder that, on sys.path, is an installed distribution ``fakeplug`` with three
    entry points in ``perfectplay.games``: a GameSpec, a CatalogGame and a broken one."""
    (root / "fakeplug.py").write_text(PLUGIN)
    info = root / "fakeplug-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fakeplug\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    return root


@pytest.fixture
def plugin_path(tmp_path: Path) -> Path:
    return make_distribution(tmp_path)


def cli(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(root), *filter(None, [os.environ.get("PYTHONPATH")])]), COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "perfectplay", *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=120, cwd=root)


@pytest.fixture
def loaded(plugin_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The registry with the fake distribution's plugins loaded in this process; the
    registry as it was afterwards."""
    monkeypatch.syspath_prepend(str(plugin_path))
    import importlib

    importlib.invalidate_caches()
    with pytest.warns(registry.PluginWarning) as records:
        joined = registry.load_plugins(force=True)
    yield joined, records
    registry.unregister("heapplug")
    registry.unregister("takeplug")
    sys.modules.pop("fakeplug", None)


def test_plugins_join_the_registry(loaded: Any) -> None:
    joined, records = loaded
    assert sorted(joined) == ["heapplug", "takeplug"]
    assert registry.get("heapplug").solve_text("8").explain() == "the first player loses"
    assert registry.get_catalog("takeplug").build(tokens=3).initial() == 3
    assert "takeplug" in registry.catalog_names()
    assert [s.name for s in registry.games()][:4] == ["coins", "rock", "portal", "no"]
    assert registry.catalog()[0].name == "nim"  # the built-in games stay first
    (broken,) = [r for r in records if "brokenplug" in str(r.message)]
    message = str(broken.message)
    assert "\n" not in message and "fakeplug_missing:GAME" in message
    assert "fakeplug 1.0" in message and "ModuleNotFoundError" in message


def test_a_plugin_never_shadows_a_game(plugin_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (plugin_path / "fakeplug-1.0.dist-info" / "entry_points.txt").write_text(
        "[perfectplay.games]\nnim = fakeplug:NIM\ncoins = fakeplug:COINS\n"
        "junk = fakeplug:HeapOptions\n")
    monkeypatch.syspath_prepend(str(plugin_path))
    try:
        with pytest.warns(registry.PluginWarning) as records:
            assert registry.load_plugins(force=True) == []
        messages = [str(r.message) for r in records]
        assert sum("already registered" in m for m in messages) == 2
        assert any("'junk'" in m and "not a GameSpec or a CatalogGame" in m for m in messages)
        assert registry.get_catalog("nim").title == "Nim"
        assert registry.get("coins").title != "Subtraction"
    finally:
        sys.modules.pop("fakeplug", None)


def test_plugins_reach_the_command_line(plugin_path: Path) -> None:
    listing = cli(plugin_path, "games")
    assert listing.returncode == 0, listing.stderr
    assert "takeplug: Take one or two." in listing.stdout
    warnings = [line for line in listing.stderr.splitlines() if "brokenplug" in line]
    assert len(warnings) == 1 and warnings[0].startswith("perfectplay: warning: the game "
                                                         "plugin 'brokenplug'")
    assert "heapplug" in cli(plugin_path, "--help").stdout
    (plugin_path / "heap.txt").write_text("9\n")
    heap = cli(plugin_path, "heapplug", "heap.txt", "--most", "3")
    assert heap.returncode == 0, heap.stderr
    assert "the first player wins" in heap.stdout
    solved = cli(plugin_path, "solve", "takeplug(tokens=6)")
    assert solved.returncode == 0, solved.stderr
    assert "lose" in solved.stdout.lower()  # 6 = 0 mod 3: the player to move loses
    played = cli(plugin_path, "play", "takeplug(tokens=2)", "--seed", "1", stdin="2\n/q\n")
    assert played.returncode == 0, played.stderr
    assert "win" in played.stdout.lower()


def test_plugins_reach_the_web_api(loaded: Any) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from perfectplay.web.app import create_app

    client = TestClient(create_app())
    games = client.get("/api/games").json()
    names = [g["name"] for g in (games["games"] if isinstance(games, dict) else games)]
    assert "heapplug" in names
    answer = client.post("/api/games/heapplug/analyze", json={"text": "8"})
    assert answer.status_code == 200, answer.text
    assert "loses" in answer.text
    assert "takeplug" in names  # the one list: seed problems and catalog games alike


def test_no_plugins_installed_costs_nothing_visible(tmp_path: Path) -> None:
    script = textwrap.dedent("""
        from perfectplay import registry
        assert registry.load_plugins() == []
        print(len(registry.games()), len(registry.catalog()))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path)
    assert out.returncode == 0 and out.stderr == "", out.stderr
