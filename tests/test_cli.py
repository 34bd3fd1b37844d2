"""The command line, driven as a user drives it: outputs, exit codes, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfectplay import registry
from perfectplay.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def run(*args, stdin=None):
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert "Traceback" not in result.output
    return result


def test_demo_runs_every_game():
    r = run("demo")
    assert r.exit_code == 0
    for title in ("Tic-tac-toe", *(s.title for s in registry.games("seed") if s.demo)):
        assert f"== {title}" in r.output
    assert "Proof search proves the same tie in 9" in r.output


def test_judge_list_and_samples():
    r = run("judge", "--list")
    ids = {line.split()[0] for line in r.output.splitlines()}
    assert {"cses1097", "atcoder-dpl", "gfg-coins", "spoj-twends", "uva10891", "uva10381",
            "devc-portal", "kth-no"} <= ids
    assert run("judge", "cses1097", stdin="4\n4 5 1 3\n").output == "8\n"
    assert run("judge", "devc-portal",
               stdin="2\n3 3\nO..\n.#.\n..O\n1 10\n..O.#...O.\n").output == "Alif\nBella\n"
    assert run("judge", "uva10381", stdin="1\n3 4\n..X.\n.##.\n.E..\n").output == "11\n"
    assert run("judge", "kth-no", str(EXAMPLES / "no_seed.txt")).stdout == "0 3\n"


def test_judge_errors_are_one_line_and_good_cases_still_answer():
    r = run("judge", "gfg-coins", stdin="2\n2\n1 x\n2\n5 6\n")
    assert r.exit_code == 1
    assert r.stdout == "6\n"
    assert r.stderr.strip() == ("perfectplay: error: case 1, line 3, column 3: expected an "
                                "integer value, got 'x'")
    r = run("judge", "nope")
    assert r.exit_code == 2 and "unknown problem" in r.stderr
    r = run("judge", "cses1097", "/no/such/file")
    assert r.exit_code == 1 and r.stderr.strip() == "perfectplay: error: no such file: " \
        "/no/such/file"


def test_rock_infinite_case_prints_minus_one_and_explains():
    r = run("judge", "uva10381", stdin="2\n1 3\nE.X\n1 2\nEX\n")
    assert r.stdout == "-1\n1\n"
    assert "case 1" in r.stderr and "blocking b1" in r.stderr
    assert r.exit_code == 0


def test_coins_command():
    r = run("coins", "7", "9", "2", "6", "4", "3", "--json", "--table", "--compare")
    data = json.loads(r.output)
    assert data["value"]["first"] == 18 and data["first_move"] == "R"
    assert data["table"]["P"][0][5] == 18
    assert data["strategies"]["greedy"] == 16
    r = run("coins", "3", "-2", "5")
    assert r.exit_code == 0 and "guarantee" in r.output
    r = run("coins", "3", "x")
    assert r.exit_code == 1 and r.stderr.strip() == "perfectplay: error: coin 2: expected an " \
        "integer, got 'x'"
    assert run("coins").exit_code == 1


def test_rock_portal_no_commands(tmp_path):
    r = run("rock", str(EXAMPLES / "rock_sample.txt"), "--json")
    assert json.loads(r.output)["value"] == 11
    r = run("portal", str(EXAMPLES / "portal_seed.txt"))
    assert r.exit_code == 0 and r.output.startswith("Bella wins.")
    r = run("portal", str(EXAMPLES / "portal_seed.txt"), "--kind", "king", "--json")
    assert json.loads(r.output)["method"] == "exact"
    r = run("no", str(EXAMPLES / "no_drawn.txt"), "--all", "--json")
    assert json.loads(r.output)["distance"] == 4
    r = run("nearest", str(EXAMPLES / "no_drawn.txt"))  # the game's old name: no command
    assert r.exit_code == 2 and "No such command 'nearest'" in r.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("E.Q\n..X\n")
    r = run("rock", str(bad))
    assert r.exit_code == 1
    assert r.stderr.strip() == "perfectplay: error: line 1, column 3: unknown character " \
        "'Q' (allowed: # . E X)"


def test_solve_a_user_game_from_a_file(tmp_path):
    r = run("solve", f"{EXAMPLES / 'tictactoe.py'}:TicTacToe", "--json")
    data = json.loads(r.output)
    assert data["value"] == "tie" and data["counts"]["total"] == 5478
    r = run("solve", f"{EXAMPLES / 'nim.py'}:Nim", "--check")
    assert r.exit_code == 0 and "value: win in" in r.output
    broken = tmp_path / "broken.py"
    broken.write_text("class G:\n    def initial(self): return 0\n    def moves(self, p): "
                      "return [1]\n    def play(self, p, m): return 1 / 0\n"
                      "    def outcome(self, p): return None\n")
    r = run("solve", f"{broken}:G")
    assert r.exit_code == 1
    assert "ZeroDivisionError" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = run("solve", f"{broken}:G", "--check")
    assert r.exit_code == 1 and "play(0, 1) raised ZeroDivisionError" in r.output
    assert run("solve", "nofile.py:G").exit_code == 1
    assert run("solve", f"{broken}:Missing").exit_code == 1


@pytest.mark.parametrize("cmd", sorted(main.commands)
                         + [spec.name for spec in registry.games("seed")])
def test_every_command_has_help_with_an_example(cmd):
    """Every tool and every registered game."""
    r = run(cmd, "--help")
    assert r.exit_code == 0 and "Example" in r.output


def test_python_dash_m_runs():
    out = subprocess.run([sys.executable, "-m", "perfectplay", "judge", "cses1097"],
                         input="4\n4 5 1 3\n", capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout == "8\n"


#: One process runs every case of the test below, one after the other: the extras of all the
#: cases are blocked while the command line is imported (importing it needs none of them),
#: then each case's own while it runs (one start-up of 1-2 s instead of seven).
BLOCKER = """
import contextlib, io, json, sys
class Missing:
    blocked = set()
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.blocked:
            raise ImportError(name + " is not installed")
finder = Missing()
sys.meta_path.insert(0, finder)
finder.blocked = {every!r}
from perfectplay.cli import main
results = []
for args, blocked in {cases!r}:
    finder.blocked = {{blocked}}
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(args)
            code = 0
        except SystemExit as exc:
            code = exc.code
    results.append([code, out.getvalue(), err.getvalue()])
print(json.dumps(results))
"""

MISSING_EXTRAS = [
    (["rock", "examples/rock_sample.txt", "--png", "{tmp}/x.png"], "matplotlib", "[plot]"),
    (["coins", "1", "2", "3", "--png", "{tmp}/x.png"], "matplotlib", "[plot]"),
    (["portal", "examples/portal_seed.txt", "--png", "{tmp}/x.png"], "matplotlib", "[plot]"),
    (["solve", "examples/portal_tiers.py:Board5x4", "--store", "{tmp}/tb"], "distributed",
     "[scale]"),
    (["sql", "{tmp}", "SELECT 1"], "duckdb", "[scale]"),
    (["export", "{tmp}"], "pyarrow", "[scale]"),
    (["serve"], "uvicorn", "[web]"),
]


@pytest.fixture(scope="module")
def without_extras(tmp_path_factory):
    """(exit code, stdout, stderr, the case's folder) of every case of MISSING_EXTRAS, each
    run with its extra missing, in one process."""
    folders = [tmp_path_factory.mktemp(f"extra{k}") for k in range(len(MISSING_EXTRAS))]
    cases = [([a.format(tmp=folder) for a in args], blocked)
             for (args, blocked, _), folder in zip(MISSING_EXTRAS, folders, strict=True)]
    every = sorted({blocked for _, blocked, _ in MISSING_EXTRAS})
    out = subprocess.run([sys.executable, "-c", BLOCKER.format(every=every, cases=cases)],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    return [(*result, folder)
            for result, folder in zip(json.loads(out.stdout), folders, strict=True)]


@pytest.mark.parametrize("case", range(len(MISSING_EXTRAS)),
                         ids=[f"{a[0]}-{b}" for a, b, _ in MISSING_EXTRAS])
def test_a_missing_extra_is_one_line_before_any_work(without_extras, case):
    """Without an optional extra, the command says which in one line and does nothing:
    no result printed, no file or folder made, no traceback."""
    code, stdout, stderr, folder = without_extras[case]
    words = MISSING_EXTRAS[case][2]
    assert code == 1, stderr
    assert stdout == "" and stderr.count("\n") == 1, stderr
    assert f"pip install 'perfectplay{words}'" in stderr
    assert list(folder.iterdir()) == []


def test_words_a_newcomer_meets_are_explained_where_they_appear():
    """The demo says what 'the seed' is and states each game's rules; the maps say what
    their marks mean."""
    demo = CliRunner().invoke(main, ["demo"])
    assert demo.exit_code == 0
    assert '"the seed" below is that document' in demo.output
    assert demo.output.count("Rules: ") == sum(1 for s in registry.games("seed") if s.demo)
    rock = CliRunner().invoke(main, ["rock", "examples/rock_sample.txt"])
    assert "R where the rock falls" in rock.output and "E the entrance" in rock.output
    portal = CliRunner().invoke(main, ["portal", "examples/portal_seed.txt"])
    assert "X a cut cell" in portal.output and "* a safe cell on the portal path" in portal.output
    no = CliRunner().invoke(main, ["no", "examples/no_drawn.txt"])
    assert "the last digit of numbers over 9" in no.output
