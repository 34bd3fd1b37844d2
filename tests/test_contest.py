"""gen, stress and check: generators respect the judges' constraints on thousands of seeds;
the stress tester catches deliberately wrong solutions and shrinks them to minimal inputs."""

from __future__ import annotations

import sys
from collections import deque
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfectplay.cli import main
from perfectplay.gen import generate, make_case, problems, spec
from perfectplay.judge import run as judge_run
from perfectplay.stress import CRASH, FORMAT, OK, TIMEOUT, WRONG, check, run_once, stress

WRONG_DIR = Path(__file__).resolve().parent / "wrong"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def py(name: str) -> list[str]:
    """A wrong program of tests/wrong/, run by a Python that skips site (they import only the
    standard library): a third less start-up a run, and the stress tests run hundreds."""
    return [sys.executable, "-S", str(WRONG_DIR / name)]


def no_single_block_cuts(rows: list[str]) -> bool:
    """Independent of the solver: removing any one cell other than E and X leaves a path."""
    cells = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "#"}
    e = next((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "E")
    x = next((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X")

    def reach(blocked):
        seen, q = {e}, deque([e])
        while q:
            r, c = q.popleft()
            for w in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if w in cells and w != blocked and w not in seen:
                    seen.add(w)
                    q.append(w)
        return x in seen

    return reach(None) and all(reach(b) for b in cells - {e, x})


def test_generators_respect_the_constraints_on_thousands_of_seeds():
    for problem, sp in problems().items():
        for seed in range(300):
            case = make_case(problem, seed, 0)
            assert sp.valid(case), (problem, seed, case)
            res = judge_run(problem, sp.write([case]))
            assert not res.errors and len(res.lines) == 1, (problem, seed)
            if problem == "uva10381":
                assert no_single_block_cuts(case)
            if problem == "devc-portal":
                text = "".join(case)
                assert text.count("O") == 2 and "." in text
            if problem in ("gfg-coins", "spoj-twends"):
                assert len(case) % 2 == 0


@pytest.mark.parametrize("problem", sorted(problems()))
def test_every_family_and_the_largest_size(problem):
    sp = spec(problem)
    for family in sp.families:
        for seed in range(5):
            assert sp.valid(make_case(problem, seed, 0, family=family)), (family, seed)
    big = min(sp.max_size, 40)
    assert sp.valid(make_case(problem, 1, 0, size=big, family="largest"))


def test_same_seed_same_output_and_cases_are_independent():
    a = generate("uva10381", seed=5, cases=4)
    assert a == generate("uva10381", seed=5, cases=4)
    assert a != generate("uva10381", seed=6, cases=4)
    # case i does not depend on how many cases were asked for: the first three of five are
    # the three of a three-case run, and each is make_case's own
    for problem in ("devc-portal", "gfg-coins", "uva10891"):
        three = generate(problem, seed=3, cases=3)
        five = generate(problem, seed=3, cases=5)
        body3 = three.split("\n", 1)[1] if problem != "uva10891" else three[:-2]
        assert five.split("\n", 1)[1].startswith(body3) if problem != "uva10891" \
            else five.startswith(body3)
        assert three == spec(problem).write([make_case(problem, 3, i) for i in range(3)])


def assert_minimal(problem, cmd, case):
    sp = spec(problem)
    for cand in sp.shrink(case):
        if sp.valid(cand):
            assert run_once(problem, cmd, cand, 10).verdict == OK, cand


def test_stress_catches_e_next_to_x_printed_as_zero():
    rep = stress("uva10381", py("rock_adjacent_zero.py"), cases=200, seed=0, size=5, jobs=2)
    assert rep.failure is not None and rep.failure.outcome.verdict == WRONG
    rows = rep.failure.case
    assert rep.failure.outcome.expected == ["1"]
    assert rep.failure.outcome.got.strip() == "0"
    assert_minimal("uva10381", py("rock_adjacent_zero.py"), rows)
    assert "The walker can guarantee" in rep.text()


def test_stress_catches_the_greedy_coins_player_and_shrinks_it():
    rep = stress("cses1097", py("coins_greedy.py"), cases=100, seed=0, jobs=2)
    assert rep.failure is not None and rep.failure.outcome.verdict == WRONG
    assert len(rep.failure.case) <= 4
    assert_minimal("cses1097", py("coins_greedy.py"), rep.failure.case)


def test_stress_catches_the_portal_solver_that_ignores_disconnection():
    rep = stress("devc-portal", py("portal_no_connectivity.py"), cases=300, seed=0, jobs=2)
    assert rep.failure is not None and rep.failure.outcome.verdict == WRONG
    assert rep.failure.outcome.expected == ["Bella"]
    assert "not connected" in rep.text()
    assert_minimal("devc-portal", py("portal_no_connectivity.py"), rep.failure.case)


def test_crash_time_out_and_format_are_reported_as_what_they_are():
    rep = stress("cses1097", py("crash.py"), cases=20, jobs=2)
    assert rep.failure.outcome.verdict == CRASH and "ValueError" in rep.failure.outcome.detail
    out = run_once("cses1097", py("slow.py"), [1, 2], timeout=0.5)
    assert out.verdict == TIMEOUT
    out = run_once("cses1097", py("chatty.py"), [1, 2], timeout=10)
    assert out.verdict == FORMAT


def test_a_right_solution_passes():
    rep = stress("cses1097", py("coins_dp.py"), cases=60, seed=3, jobs=2)
    assert rep.failure is None and rep.ran == 60
    assert rep.text() == "all 60 case(s) passed"


def test_check_gives_a_verdict_per_case():
    text = "2\n3 3\nO..\n.#.\n..O\n1 10\n..O.#...O.\n"
    assert all(v.ok for v in check("devc-portal", text, "Alif\nBella\n"))
    verdicts = check("devc-portal", text, "Alif\nAlif\n")
    assert [v.ok for v in verdicts] == [True, False]
    assert verdicts[1].detail == "token 1: expected 'Bella', got 'Alif'"
    verdicts = check("devc-portal", text, "Alif\n")
    assert not verdicts[1].ok and "missing" in verdicts[1].detail


def test_cli_gen_stress_check(tmp_path):
    r = CliRunner().invoke(main, ["gen", "kth-no", "--seed", "2"])
    assert r.exit_code == 0 and r.output == generate("kth-no", seed=2)
    # small values (the ties family): the command's wiring, in a few runs; shrinking values
    # of a billion is the greedy test's above (hundreds of runs)
    r = CliRunner().invoke(main, ["stress", "cses1097", "--cases", "30", "--jobs", "2",
                                  "--family", "ties", "--", *py("coins_greedy.py")])
    assert r.exit_code == 1 and "wrong answer" in r.stdout and "expected:" in r.stdout
    inp, out = tmp_path / "in.txt", tmp_path / "out.txt"
    inp.write_text("4\n4 5 1 3\n")
    out.write_text("8\n")
    r = CliRunner().invoke(main, ["check", "cses1097", str(inp), str(out)])
    assert r.exit_code == 0 and "1 passed, 0 failed" in r.output
    out.write_text("9\n")
    r = CliRunner().invoke(main, ["check", "cses1097", str(inp), str(out)])
    assert r.exit_code == 1 and "expected '8', got '9'" in r.output
    r = CliRunner().invoke(main, ["gen", "nope"])
    assert r.exit_code == 1 and "unknown problem" in r.stderr


def test_stress_says_in_one_line_when_the_program_cannot_start(tmp_path):
    """A missing program is not a crash to shrink: one line, with what the program must
    read and write."""
    from perfectplay.errors import InputError
    from perfectplay.stress import stress as run_stress

    with pytest.raises(InputError, match="could not start.*stdin.*perfectplay gen devc-portal"):
        run_stress("devc-portal", [sys.executable, str(tmp_path / "missing.py")], cases=3)


def test_the_maze_family_makes_varied_answers() -> None:
    import random

    from perfectplay.registry import problems
    from perfectplay.rock import analyze, parse_maze

    make = problems()["uva10381"].make
    rng = random.Random(0)
    answers = [analyze(parse_maze("\n".join(make(rng, 6, "maze")))).value
               for _ in range(60)]
    assert sum(a == 1 for a in answers) <= 6  # was 147 of 200
    assert len(set(answers)) >= 6


def test_stress_says_it_waits_on_a_hanging_program(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from perfectplay import stress

    monkeypatch.setattr(stress, "_shrink_budget", lambda timeout: 1.5)
    said: list[str] = []
    began = time.monotonic()
    hang = [sys.executable, "-c", "import time; time.sleep(60)"]
    report = stress.stress("uva10381", hang, cases=3, timeout=0.3, jobs=2,
                           progress=said.append)
    assert time.monotonic() - began < 15
    assert said[0].startswith("running ") and "waiting up to 0.3 s a case" in said[0]
    assert said[1] == ("case 1: time-out (no answer within 0.3 s); shrinking it, each try "
                       "waiting up to 0.3 s, for at most 1.5 s")
    assert report.failure is not None and report.failure.outcome.verdict == stress.TIMEOUT
    assert report.failure.stopped
    assert "(then stopped: each time-out costs 0.3 s)" in report.text().splitlines()[0]


def test_check_names_the_winner_not_its_enum(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from perfectplay.cli import main

    wrong = tmp_path / "wrong.out"
    wrong.write_text("Bella\nAlif\n")
    out = CliRunner().invoke(main, ["check", "devc-portal",
                                    str(EXAMPLES / "judge" / "devc-portal.txt"), str(wrong)])
    assert out.exit_code == 1
    assert "case 3: WRONG: missing; expected 'Bella'" in out.output
    assert "Winner" not in out.output and "<" not in out.output
