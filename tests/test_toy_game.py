"""Adding a game is one package and one registry line: a toy game written here (a
subtraction game: take 1 to 3 tokens, whoever takes the last token wins), registered with
one :func:`~perfectplay.registry.register` call, is found by the command line, play, the
judge, the generators, the checker, the demo, the web API and the page, and keeps every
check of the registry's contract (:data:`test_registry.CONTRACT`), with nothing else
edited."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pytest
from click.testing import CliRunner

from browser import served_page
from perfectplay import Value, registry
from perfectplay.casegen import Problem
from perfectplay.cli import main
from perfectplay.errors import InputError
from perfectplay.judge_io import JudgeResult
from perfectplay.play import Table, user_table
from perfectplay.registry import GameSpec, Result
from test_registry import CONTRACT


# -- the toy game's package: rules, options, result, judge, generator, play table ------------
class Subtraction:
    """Take 1..most tokens from a heap; whoever takes the last token wins (an engine game)."""

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
    loud: bool = field(default=False, metadata={"help": "Shout."})


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
        heap = int(text.strip())
    except ValueError:
        raise InputError(f"a heap is one integer, got {text.strip()!r}") from None
    if heap < 0:
        raise InputError(f"a heap holds 0 tokens or more, got {heap}")
    return heap


def toy_analyze(heap: int, options: ToyOptions) -> ToyResult:
    return ToyResult(heap, options.most, heap % (options.most + 1) != 0, options.loud)


def toy_judge(text: str, lenient: bool) -> JudgeResult:
    """The judge's format: one heap; the answer "first" or "second" (who wins)."""
    res = JudgeResult()
    try:
        res.lines.append("first" if toy_analyze(toy_parse(text, ToyOptions()),
                                                ToyOptions()).wins else "second")
    except InputError as exc:
        res.errors.append(exc)
    return res


def _smaller(heap: int) -> Iterator[int]:
    yield from range(heap)


TOY_PROBLEM = Problem(
    problem="toy-judge", families=("uniform",),
    make=lambda rng, size, family: rng.randint(0, size),
    write=lambda cases: "".join(f"{heap}\n" for heap in cases),
    valid=lambda heap: heap >= 0, shrink=_smaller,
    explain=lambda heap: toy_analyze(heap, ToyOptions()).explain(),
    answer="first|second", default_size=20, max_size=10**6, single_case=True)


def toy_table(heap: int, options: ToyOptions) -> Table:
    return user_table(Subtraction(heap, options.most), "Subtraction")


TOY = GameSpec(
    name="toy", title="Subtraction", rules="take 1 to 3 tokens; the last token wins.",
    input_help="HEAP is a file holding the number of tokens.", parse=toy_parse,
    analyze=toy_analyze, options=ToyOptions, examples=("toy heap.txt",),
    judges={"toy-judge": ("Subtraction: who wins?", toy_judge)},
    problems={"toy-judge": TOY_PROBLEM}, play=toy_table,
    headline=lambda r: "[bold]toy[/]", demo="7", demo_title="a heap of 7",
)


@pytest.fixture
def toy():
    registry.register(TOY)  # the one line that adds the game
    yield TOY
    registry.unregister("toy")


@pytest.fixture
def heap(tmp_path: Path) -> Path:
    path = tmp_path / "heap.txt"
    path.write_text("8\n")
    return path


# -- the contract ------------------------------------------------------------------------------
def test_the_toy_result_keeps_the_result_protocol():
    assert isinstance(toy_analyze(4, ToyOptions()), Result)


@pytest.mark.parametrize("check", CONTRACT, ids=lambda c: c.__name__)
def test_the_toy_game_keeps_every_contract_check(toy, check):
    check(toy)


def test_the_toy_game_is_listed_after_the_builtin_games(toy):
    names = [spec.name for spec in registry.games("seed")]
    assert names[-1] == "toy" and registry.get("toy") is toy
    assert "toy-judge" in registry.judges() and "toy-judge" in registry.problems()


# -- the command line ----------------------------------------------------------------------------
def test_a_registered_game_is_a_command(toy, heap):
    assert "toy" in main.list_commands(None)
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
    assert "toy" in runner.invoke(main, ["--help"]).output


def test_a_registered_game_is_judged_generated_and_checked(toy, tmp_path):
    runner = CliRunner()
    assert "toy-judge" in runner.invoke(main, ["judge", "--list"]).output
    five = tmp_path / "five.txt"
    five.write_text("5")
    assert runner.invoke(main, ["judge", "toy-judge", str(five)]).output == "first\n"
    generated = runner.invoke(main, ["gen", "toy-judge", "--seed", "3", "--size", "50"])
    assert generated.exit_code == 0, generated.output
    heap = int(generated.output)
    assert 0 <= heap <= 50
    assert generated.output == runner.invoke(
        main, ["gen", "toy-judge", "--seed", "3", "--size", "50"]).output  # same seed
    case = tmp_path / "case.txt"
    case.write_text(generated.output)
    right = "second" if heap % 4 == 0 else "first"
    answer = tmp_path / "answer.txt"
    answer.write_text(right + "\n")
    checked = runner.invoke(main, ["check", "toy-judge", str(case), str(answer)])
    assert checked.exit_code == 0, checked.output
    answer.write_text(("first" if right == "second" else "second") + "\n")
    assert runner.invoke(main, ["check", "toy-judge", str(case), str(answer)]).exit_code == 1


def test_a_registered_game_is_played(toy, tmp_path):
    five = tmp_path / "five.txt"
    five.write_text("5")
    # the computer plays first and perfectly: 5 -> 4, the human can never take the last
    out = CliRunner().invoke(main, ["play", "toy", str(five), "--second", "--seed", "1"],
                             input="1\n1\n1\n1\n1\n")
    assert out.exit_code == 0, out.output
    assert "Game over: player 1 wins." in out.output


def test_the_demo_runs_a_registered_game(toy):
    out = CliRunner().invoke(main, ["demo"])
    assert out.exit_code == 0, out.output
    assert "== Subtraction: a heap of 7" in out.output
    assert "7 tokens, take 1..3: the first player wins" in out.output


def test_unknown_options_are_clear_errors(toy):
    with pytest.raises(InputError, match="unknown option 'many'"):
        toy.make_options({"many": 2})


# -- the web API and the page --------------------------------------------------------------------
def test_a_registered_game_is_served(toy):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from perfectplay.web.app import create_app

    client = TestClient(create_app())
    games = client.get("/api/games").json()["games"]
    entry = next(g for g in games if g["name"] == "toy")
    assert set(entry["analyze"]["properties"]) >= {"text", "most", "style", "loud"}
    assert entry["example"] == {"text": "7"}
    res = client.post("/api/games/toy/analyze", json={"text": "9", "loud": True})
    assert res.status_code == 200, res.text
    assert res.json()["explanation"] == "9 TOKENS, TAKE 1..3: THE FIRST PLAYER WINS"
    res = client.post("/api/games/toy/analyze", json={"text": "9", "style": "odd"})
    assert res.status_code == 422
    res = client.post("/api/games/toy/play", json={"text": "6", "moves": ["2"], "humans": [0]})
    assert res.status_code == 200, res.text
    body = res.json()
    assert len(body["computer_moves"]) == 1  # from 4 every move loses; it plays one
    assert body["position"] == 4 - int(body["computer_moves"][0])
    assert body["value"] == "win" and body["mover"] == 0
    assert "/api/games/toy/analyze" in client.get("/api/schema").json()["paths"]
    assert "/api/games/toy/play" in client.get("/docs").text


def test_the_page_lists_a_registered_game_as_a_plain_tab(toy):
    """The page's tabs are /api/games: the toy game is one, with its options as controls
    and no board code of its own (the page's plain tab)."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from perfectplay.web.app import create_app

    client = TestClient(create_app())
    games = client.get("/api/games").json()["games"]
    assert [g["name"] for g in games][-1] == "toy"
    entry = next(g for g in games if g["name"] == "toy")
    page = entry["page"]
    assert page["tab"] == "Subtraction" and page["intro"] == TOY.rules
    assert page["start"] == {"text": "7"} and entry["script"] is None
    assert [c["name"] for c in page["controls"]] == ["most", "style", "loud"]
    assert page["controls"][1]["choices"] == ["plain", "fancy"]
    assert not page["seed"] and not page["values"]
    assert client.get("/page/toy.js").status_code == 404


@pytest.fixture
def toy_page(toy):
    """The page in Chromium, served with the toy game registered."""
    with served_page() as page:
        yield page


@pytest.mark.browser
def test_the_toy_game_is_analyzed_and_played_on_the_page(toy_page):
    page = toy_page
    page.click("button[data-tab=toy]")
    page.fill("#toy-text", "9")
    page.check("#toy-loud")
    page.click("#toy-analyze")
    page.wait_for_function("document.querySelector('#toy-explain').innerText.length > 0")
    assert page.inner_text("#toy-explain") == "9 TOKENS, TAKE 1..3: THE FIRST PLAYER WINS"
    assert page.inner_text("#toy-map pre") == "o" * 9
    page.fill("#toy-text", "5")
    page.click("#toy-play")
    for _ in range(10):  # the human plays first, always the best move
        page.wait_for_selector("#toy-game .verdict, #toy-game ol.moves li.best")
        if page.query_selector("#toy-game .verdict"):
            break
        count = len(page.query_selector_all("#toy-game ol.history li, #toy-game p.computer"))
        page.click("#toy-game ol.moves li.best")
        page.wait_for_function(
            "n => document.querySelector('#toy-game .verdict') || document.querySelectorAll("
            "'#toy-game ol.history li, #toy-game p.computer').length !== n", arg=count)
    assert "player 1 wins" in page.inner_text("#toy-game .verdict")


def test_random_heaps_agree_with_the_engine(toy):
    """The toy's formula against the engine's solution of its rules (the play table's
    oracle), so the contract tests above check a game that is right."""
    rng = random.Random(0)
    for _ in range(20):
        heap, most = rng.randint(0, 30), rng.randint(1, 5)
        opts = ToyOptions(most=most)
        table = toy_table(heap, opts)
        wins = table.oracle.value(heap) == Value.WIN
        assert wins == toy_analyze(heap, opts).wins
