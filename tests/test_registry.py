"""The registry: a game registered from outside the package appears in the command line, the
web API, play, the demo and the judge without touching those files; and the built-in games
keep the one contract."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest
from click.testing import CliRunner

from perfectplay import Value, registry
from perfectplay.cli import main
from perfectplay.errors import InputError
from perfectplay.judge_io import JudgeResult
from perfectplay.play import user_table
from perfectplay.registry import GameSpec, Result


class Subtraction:
    """Take 1..most tokens from a heap; whoever takes the last token wins."""

    def __init__(self, heap: int, most: int) -> None:
        self.heap, self.most = heap, most

    def initial(self) -> int:
        return self.heap

    def moves(self, n: int) -> list[int]:
        return [k for k in range(1, self.most + 1) if k <= n]

    def play(self, n: int, k: int) -> int:
        return n - k

    def outcome(self, n: int) -> Value | None:
        return Value.LOSE if n == 0 else None


@dataclass(frozen=True)
class ToyOptions:
    most: int = field(default=3, metadata={"help": "Most tokens a turn."})
    style: Literal["plain", "fancy"] = field(default="plain", metadata={"help": "Wording."})
    loud: bool = field(default=False, metadata={"help": "Shout.", "aliases": ("shout",)})


@dataclass(frozen=True)
class ToyResult:
    heap: int
    most: int
    wins: bool
    loud: bool

    def explain(self) -> str:
        text = f"{self.heap} tokens, take 1..{self.most}: the first player " + \
            ("wins" if self.wins else "loses")
        return text.upper() if self.loud else text

    def draw(self, style: bool = False) -> str:
        return "o" * self.heap

    def to_json(self) -> dict[str, Any]:
        return {"heap": self.heap, "most": self.most, "first_player_wins": self.wins}


def toy_parse(text: str, options: ToyOptions) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise InputError(f"a heap is one integer, got {text.strip()!r}") from None


def toy_analyze(heap: int, options: ToyOptions) -> ToyResult:
    return ToyResult(heap, options.most, heap % (options.most + 1) != 0, options.loud)


def toy_judge(text: str, lenient: bool) -> JudgeResult:
    res = JudgeResult()
    res.lines.append("first" if toy_analyze(int(text), ToyOptions()).wins else "second")
    return res


TOY = GameSpec(
    name="toy", title="Subtraction", rules="take 1 to 3 tokens; the last token wins.",
    input_help="HEAP is a file holding the number of tokens.", parse=toy_parse,
    analyze=toy_analyze, options=ToyOptions, examples=("toy heap.txt",),
    judges={"toy-judge": ("Subtraction: who wins?", toy_judge)},
    play=lambda heap, o: user_table(Subtraction(heap, o.most), "Subtraction"),
    headline=lambda r: "[bold]toy[/]", demo="7", demo_title="a heap of 7",
)


@pytest.fixture
def toy():
    registry.register(TOY)
    yield TOY
    registry.unregister("toy")


def test_the_toy_result_keeps_the_contract():
    assert isinstance(toy_analyze(4, ToyOptions()), Result)


def test_a_registered_game_is_a_command(toy, tmp_path):
    assert "toy" in main.list_commands(None)
    heap = tmp_path / "heap.txt"
    heap.write_text("8\n")
    runner = CliRunner()
    out = runner.invoke(main, ["toy", str(heap)])
    assert out.exit_code == 0, out.output
    assert "8 tokens, take 1..3: the first player loses" in out.output  # 8 = 2 x 4
    assert "oooooooo" in out.output
    out = runner.invoke(main, ["toy", str(heap), "--most", "4", "--loud", "--json"])
    assert json.loads(out.output) == {"heap": 8, "most": 4, "first_player_wins": True}
    out = runner.invoke(main, ["toy", str(heap), "--style", "odd"])
    assert out.exit_code == 2 and "odd" in out.output
    out = runner.invoke(main, ["toy", "--help"])
    assert "Subtraction: take 1 to 3 tokens" in out.output and "--most" in out.output


def test_a_registered_game_is_judged_and_played(toy, tmp_path):
    runner = CliRunner()
    listed = runner.invoke(main, ["judge", "--list"]).output
    assert "toy-judge" in listed
    heap = tmp_path / "heap.txt"
    heap.write_text("5")
    assert runner.invoke(main, ["judge", "toy-judge", str(heap)]).output == "first\n"
    # the computer plays first and perfectly: 5 -> 4, the human can never take the last
    out = runner.invoke(main, ["play", "toy", str(heap), "--second", "--seed", "1"],
                        input="1\n1\n1\n1\n1\n")
    assert out.exit_code == 0, out.output
    assert "Game over: player 1 wins." in out.output


def test_a_registered_game_is_served(toy):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from perfectplay.web.app import create_app

    client = TestClient(create_app())
    games = client.get("/api/games").json()["games"]
    toy_entry = next(g for g in games if g["name"] == "toy")
    assert set(toy_entry["analyze"]["properties"]) >= {"text", "most", "style", "loud"}
    res = client.post("/api/toy/analyze", json={"text": "9", "shout": True})
    assert res.status_code == 200, res.text
    assert res.json()["explanation"] == "9 TOKENS, TAKE 1..3: THE FIRST PLAYER WINS"
    res = client.post("/api/toy/analyze", json={"text": "9", "style": "odd"})
    assert res.status_code == 422
    res = client.post("/api/toy/play", json={"text": "6", "moves": ["2"], "humans": [0]})
    assert res.status_code == 200, res.text
    body = res.json()
    assert len(body["computer_moves"]) == 1  # from 4 every move loses; it plays one
    assert body["position"] == 4 - int(body["computer_moves"][0])
    assert body["value"] == "win" and body["mover"] == 0


def test_the_demo_runs_a_registered_game(toy):
    out = CliRunner().invoke(main, ["demo"])
    assert out.exit_code == 0, out.output
    assert "== Subtraction: a heap of 7" in out.output
    assert "7 tokens, take 1..3: the first player wins" in out.output


def test_unknown_options_and_games_are_clear_errors(toy):
    with pytest.raises(InputError, match="unknown option 'many'"):
        toy.make_options({"many": 2})
    with pytest.raises(InputError, match="unknown game 'nope'"):
        registry.get("nope")


@pytest.mark.parametrize("name", ["coins", "rock", "portal", "no"])
def test_every_builtin_game_keeps_the_contract(name):
    spec = registry.get(name)
    assert spec.name == name and spec.title and spec.rules and spec.input_help
    assert dataclasses.is_dataclass(spec.options)
    assert spec.judges and spec.problems and spec.demo
    assert set(spec.problems) == set(spec.judges)
    result = spec.solve_text(spec.demo, **spec.demo_options)
    assert isinstance(result, Result)
    assert result.explain() and isinstance(result.to_json(), dict)
    json.dumps(result.to_json(), default=str)


LOAD_ORDER = """
from perfectplay import registry
import perfectplay.rock  # imported early, as a command for one game does
print(registry.get("rock").name, [s.name for s in registry.games()])
"""

UNREGISTERED = """
from perfectplay import registry
import perfectplay.portal
registry.unregister("portal")
print([s.name for s in registry.games()])
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
