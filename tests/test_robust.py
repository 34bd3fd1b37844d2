"""Bad input of every kind gets one clear line and a non-zero exit, never a traceback, and
the good cases of a multi-case input are still answered. One regression test per class of
the hardening issue, and a seeded mutation fuzzer over every judge id and file command."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import coins, no
from perfectplay.cli import main
from perfectplay.errors import InputError, LimitError
from perfectplay.gen import generate, make_case
from perfectplay.gen import problems as generators
from perfectplay.judge import problems
from perfectplay.judge import run as judge_run
from perfectplay.textio import Reader, Token, int_from_digits, int_text, parse_int

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
HUGE = "9" * 5000  # past Python's 4,300-digit conversion limit


def cli(*args: str, stdin: str | bytes | None = None):
    """Run the CLI in process; only SystemExit may leave it, and stderr is our one-liners."""
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"{args}: {type(result.exception).__name__}: {result.exception}"
    assert "Traceback" not in result.output
    for line in result.stderr.splitlines():
        assert line.startswith(("perfectplay: ", "tier ", "solving")), line
    assert "internal error" not in result.stderr
    return result


def fails_with(result, *words: str) -> str:
    assert result.exit_code == 1, (result.exit_code, result.output)
    err = result.stderr.strip()
    for w in words:
        assert w in err, err
    return err


# -- 1. integers of any length ------------------------------------------------------------------
def test_huge_integers_are_read_and_printed_or_refused_by_the_judges_range():
    assert int_from_digits(HUGE) == 10**5000 - 1
    assert int_text(-(10**5000)) == "-1" + "0" * 5000
    r = cli("coins", HUGE, "1", "--json")
    assert r.exit_code == 0 and f'"first": {HUGE}' in r.output
    r = cli("judge", "gfg-coins", stdin=f"1\n2\n{HUGE} 1\n")
    fails_with(r, "case 1, line 3, column 1", "at most 9223372036854775807", "5,000 characters")
    r = cli("judge", "gfg-coins", "--lenient", stdin=f"1\n2\n{HUGE} 1\n")
    assert r.exit_code == 0 and r.output == HUGE + "\n"
    fails_with(cli("rock", "-", stdin=f"{HUGE} 3\nE.X\n"), "line 1", "at most 25000000")
    fails_with(cli("judge", "uva10381", stdin=f"1\n{HUGE} 3\nE.X\n"), "line 2, column 1")


def test_a_scored_game_with_huge_values_prints(tmp_path):
    (tmp_path / "big.py").write_text(
        "class Big:\n"
        "    def initial(self): return 0\n"
        "    def moves(self, p): return [1] if p < 2 else []\n"
        "    def play(self, p, m): return p + 1\n"
        "    def payoff(self, p, m): return 10 ** 5000\n"
        "    def outcome(self, p): return 0 if p >= 2 else None\n")
    for extra in ((), ("--json",)):
        r = cli("solve", f"{tmp_path / 'big.py'}:Big", *extra)
        assert r.exit_code == 0 and "1" + "0" * 5000 in r.output


# -- 2. sizes checked before anything is allocated ---------------------------------------------
@pytest.mark.parametrize("n", ["1000000000", "1000000000000000000", str(2**64)])
def test_kth_no_huge_n_is_refused_at_once(n):
    start = time.perf_counter()
    fails_with(cli("judge", "kth-no", stdin=f"{n}\n0 0\n"), "line 1, column 1",
               f"at most {no.MAX_PIECES}")
    assert time.perf_counter() - start < 5


def test_nearest_api_checks_board_size_up_front():
    with pytest.raises(LimitError):
        no.nearest([(0, 0), (10**5, 10**5)], 0, pieces_block=True)
    with pytest.raises(LimitError):
        no.all_nearest([(0, 0), (1, 1)], walls=np.zeros((6000, 6000), bool))
    with pytest.raises(LimitError):
        no.nearest([(0, 0)] * (no.MAX_PIECES + 1), 0)
    fails_with(cli("gen", "gfg-coins", "--cases", "1000000000"), "GiB", "fewer")


# -- 3. characters --------------------------------------------------------------------------------
@pytest.mark.parametrize("token, name", [("²", "U+00B2"), ("٣", "U+0663"), ("５", "U+FF15"),
                                         ("4\u00a05", "U+00A0")])
def test_only_ascii_digits_and_separators(token, name):
    fails_with(cli("judge", "cses1097", stdin=f"2\n1 {token}\n"), "line 2, column", name)
    fails_with(cli("judge", "uva10381", stdin=f"1\n{token} 3\nE.X\n"), name)


def test_bom_and_line_breaks():
    bom = "\ufeff"
    assert cli("judge", "cses1097", stdin=f"{bom}4\n4 5 1 3\n").output == "8\n"
    assert cli("judge", "cses1097", stdin=(bom + "4\r\n4 5 1 3\r\n").encode()).output == "8\n"
    assert cli("judge", "cses1097", stdin="4\r4 5 1 3\r").output == "8\n"  # lone CR
    r = cli("rock", "-", "--json", stdin=bom + (EXAMPLES / "rock_sample.txt").read_text())
    assert r.exit_code == 0
    # U+2028 is not a line break: it stays inside the value it touches
    fails_with(cli("judge", "cses1097", stdin="4\u20284 5 1 3\n"), "U+2028")
    fails_with(cli("judge", "cses1097", stdin=b"4\n4 5 \xff 3\n"), "line 2, column 5",
               "not UTF-8")


# -- 4. one integer parser -----------------------------------------------------------------------
@pytest.mark.parametrize("bad", ["+-5", "--5", "++5", "5-", "0x10", "1_000", "1e3", "²"])
def test_one_integer_parser_for_arguments(bad):
    fails_with(cli("coins", "3", bad), "coin 2: expected an integer")
    with pytest.raises(InputError):
        parse_int(Token(bad, 1, 1))
    assert parse_int(Token("+5", 1, 1)) == 5 and parse_int(Token("-0", 1, 1)) == 0


# -- 5. a closed stdin ---------------------------------------------------------------------------
def test_closed_stdin_is_a_clear_error():
    code = "from perfectplay.cli import main; main(['judge', 'cses1097', '-'])"
    proc = subprocess.run(["sh", "-c", f'exec "{sys.executable}" -c "{code}" <&-'],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "standard input is closed" in proc.stderr


# -- 6. stores -----------------------------------------------------------------------------------
def test_broken_stores_and_unreachable_scheduler(tmp_path):
    pytest.importorskip("duckdb")
    pytest.importorskip("distributed")
    store = tmp_path / "tb"
    (store / "solved").mkdir(parents=True)
    (store / "manifest.json").write_text("{broken")
    fails_with(cli("query", str(store), "0"), "manifest.json is broken")
    (store / "manifest.json").write_text('{"enumerated": true, "tiers": [0], "game": null}')
    fails_with(cli("query", str(store), "--raw", "0"), "rebuild it: perfectplay solve")
    fails_with(cli("analyze", str(store)), "rebuild it")
    from perfectplay.store.layout import FORMAT

    (store / "manifest.json").write_text(json.dumps({"format": FORMAT, "game": None}))
    fails_with(cli("analyze", str(store)), "did not finish; run it again")
    (store / "tiers").mkdir()
    (store / "tiers" / "0.cells").write_bytes(b"\0")  # shorter than the manifest says
    (store / "manifest.json").write_text(json.dumps({
        "format": FORMAT, "game": None, "done": True, "scored": False, "tiers": [
            {"tier": 0, "size": 5, "bits": 0, "width": 1, "palette": [["win", 1]]}]}))
    fails_with(cli("query", str(store), "--raw", "0"), "damaged")
    fails_with(cli("query", str(store), "--raw", "x1"), "expected an integer (--raw)")
    fresh = tmp_path / "fresh"
    r = cli("solve", f"{EXAMPLES / 'portal_tiers.py'}:Board5x4", "--store", str(fresh),
            "--scheduler", "tcp://127.0.0.1:9")
    fails_with(r, "cannot reach the Dask scheduler")
    assert not fresh.exists()  # nothing half-made


# -- 7. pictures into a missing folder ----------------------------------------------------------
def test_png_into_a_missing_folder(tmp_path):
    target = str(tmp_path / "no" / "such" / "x.png")
    fails_with(cli("rock", str(EXAMPLES / "rock_sample.txt"), "--png", target), "does not exist")
    fails_with(cli("portal", str(EXAMPLES / "portal_seed.txt"), "--png", target),
               "does not exist")
    fails_with(cli("coins", "1", "2", "--png", target), "does not exist")


# -- 8. user games -------------------------------------------------------------------------------
BAD_GAMES = '''
import math
from perfectplay.engine import Value

class Base:
    def initial(self): return 0
    def moves(self, p): return [1, 2] if p < 5 else []
    def play(self, p, m): return p + m
    def outcome(self, p): return Value.LOSE if p >= 5 else None

class MovesNone(Base):
    def moves(self, p): return None

class MovesInt(Base):
    def moves(self, p): return 3

class MovesTypeError(Base):
    def moves(self, p): raise TypeError("boom")

class PlayNone(Base):
    def play(self, p, m): return None

class OutcomeNaN(Base):
    def payoff(self, p, m): return 1
    def outcome(self, p): return math.nan if p >= 5 else None

class PayoffInf(Base):
    def payoff(self, p, m): return math.inf
    def outcome(self, p): return 0 if p >= 5 else None

class Pos:
    def __init__(self, v): self.v = v
    def __eq__(self, o): return type(o) is type(self) and o.v == self.v
    def __hash__(self): return hash(self.v)

class NoRepr(Pos):
    def __repr__(self): raise ValueError("no repr")

class LoopRepr(Pos):
    def __repr__(self): return repr(self)

class NoHash(Pos):
    def __hash__(self): raise RuntimeError("no hash")

class LoopHash(Pos):
    def __hash__(self): return hash(self)

def _objects(cls):
    class G(Base):
        def initial(self): return cls(0)
        def moves(self, p): return [1] if p.v < 3 else []
        def play(self, p, m): return cls(p.v + m)
        def outcome(self, p): return Value.LOSE if p.v >= 3 else None
    return G

ReprRaises, ReprLoops = _objects(NoRepr), _objects(LoopRepr)
HashRaises, HashLoops = _objects(NoHash), _objects(LoopHash)

class MovesRaiseLater(Base):
    def moves(self, p):
        if p == 3:
            raise RuntimeError("moves broke")
        return [1, 2] if p < 5 else []
'''


@pytest.fixture(scope="module")
def bad_games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    (folder / "bad.py").write_text(BAD_GAMES)
    (folder / "exits.py").write_text("raise SystemExit(3)\n")
    return folder


@pytest.mark.parametrize("name, words", [
    ("MovesNone", "returned None"), ("MovesInt", "returned 3"),
    ("MovesTypeError", "TypeError: boom"), ("PlayNone", "returned None"),
    ("OutcomeNaN", "nan"), ("PayoffInf", "inf"), ("HashRaises", "not hashable"),
    ("HashLoops", "not hashable"), ("MovesRaiseLater", "moves broke")])
def test_broken_user_games_are_one_line_and_fail_check(bad_games, name, words):
    target = f"{bad_games / 'bad.py'}:{name}"
    fails_with(cli("solve", target), words)
    r = cli("solve", target, "--check")
    assert r.exit_code == 1 and "problem" in r.output and "no problems" not in r.output


def test_games_whose_positions_cannot_be_shown_still_solve(bad_games):
    for name in ("ReprRaises", "ReprLoops"):
        r = cli("solve", f"{bad_games / 'bad.py'}:{name}")
        assert r.exit_code == 0 and "whose repr" in r.output and "win in 3" in r.output
        r = cli("play", f"{bad_games / 'bad.py'}:{name}", stdin="1\n1\n1\n")
        assert r.exit_code == 0


def test_module_exit_and_play_of_a_raising_game(bad_games):
    fails_with(cli("solve", f"{bad_games / 'exits.py'}:X"), "SystemExit")
    fails_with(cli("play", f"{bad_games / 'bad.py'}:MovesRaiseLater", stdin="1\n"),
               "moves broke")


# -- 9, 10. arrays, scalars and coordinates in the API ----------------------------------------
def test_nearest_validates_arrays_and_scalars():
    walls = np.array([[0, 1, 0], [0, 0, 0]])  # ints: the wall at (0, 1) must count
    ans = no.nearest([(0, 0), (0, 2), (1, 1)], 0, walls=walls)
    assert ans.distance == 2 and ans.pieces == [2]
    idx, dist = no.all_nearest([(0, 0), (0, 2)], walls=walls)
    assert dist.tolist() == [4, 4]
    for bad_walls in (np.array([[0, 2]]), np.array([0, 1]), np.array([[0.5, 0.0]])):
        with pytest.raises(InputError):
            no.nearest([(0, 0), (0, 1)], 0, walls=bad_walls)
    for start in (1.5, True, None, "0"):
        with pytest.raises(InputError):
            no.nearest([(0, 0), (1, 1)], start)
    with pytest.raises(InputError):
        no.nearest([(0, 0), (0.5, 1)], 0)


@pytest.mark.parametrize("far", [2**62, 2**63, -(2**63) - 1])
def test_far_coordinates_are_refused_not_overflowed(far):
    with pytest.raises(LimitError):
        no.all_nearest([(4, 0), (0, 4), (0, far)])
    with pytest.raises(LimitError):
        no.nearest([(4, 0), (0, far)], 0)
    assert no.all_nearest([(4, 0), (0, 4), (0, 2**30)])[1].tolist() == [8, 8, 2**30 - 4]


# -- 11. one policy for every judge ------------------------------------------------------------
SAMPLES = {
    "cses1097": ("4\n4 5 1 3\n", "8\n"),
    "atcoder-dpl": ("4\n10 80 90 30\n", "10\n"),
    "gfg-coins": ("1\n4\n5 3 7 10\n", "15\n"),
    "spoj-twends": ("4 3 2 10 4\n0\n",
                    "In game 1, the greedy strategy might lose by as many as 7 points.\n"),
    "uva10891": ("4\n4 -10 -20 7\n0\n", "7\n"),
    "uva10381": ("1\n3 4\n..X.\n.##.\n.E..\n", "11\n"),
    "devc-portal": ("1\n3 3\nO..\n.#.\n..O\n", "Alif\n"),
    "kth-no": ("5\n1 1\n3 0\n2 3\n0 2\n4 4\n2\n", "0 3\n"),
}


def test_every_judge_is_covered():
    assert set(SAMPLES) == set(problems())


@pytest.mark.parametrize("problem", sorted(SAMPLES))
def test_judge_policy_trailing_data_and_empty_input(problem):
    text, want = SAMPLES[problem]
    assert cli("judge", problem, stdin=text).stdout == want
    r = cli("judge", problem, stdin=text + "7 7\n")
    assert r.stdout == want
    fails_with(r, "unexpected data '7' after")
    fails_with(cli("judge", problem, stdin=""), "line 1")
    fails_with(cli("judge", problem, stdin=" \n\n"))


def test_judge_ranges_and_lenient():
    fails_with(cli("judge", "cses1097", stdin="0\n\n"), "must be in 1..5000")
    fails_with(cli("judge", "cses1097", stdin="2\n1 2000000000\n"), "at most 1000000000")
    fails_with(cli("judge", "atcoder-dpl", stdin="2\n0 5\n"), "at least 1")
    assert cli("judge", "atcoder-dpl", "--lenient", stdin="2\n0 5\n").output == "5\n"
    r = cli("judge", "spoj-twends", stdin="3 1 2 3\n2 1 1\n0\n")
    assert r.stdout.startswith("In game 2,")
    fails_with(r, "case 1", "must be even")
    fails_with(cli("judge", "spoj-twends", stdin="4 3 2 10 4\n"), "without the line 0")
    assert cli("judge", "spoj-twends", "--lenient", stdin="4 3 2 10 4\n").exit_code == 0
    fails_with(cli("judge", "uva10891", stdin="101\n" + "1 " * 101 + "\n0\n"),
               "must be in 1..100")
    big = "1\n101 3\nO.O\n" + "...\n" * 100
    fails_with(cli("judge", "devc-portal", stdin=big), "at most 100")
    assert cli("judge", "devc-portal", "--lenient", stdin=big).exit_code == 0
    fails_with(cli("judge", "devc-portal", stdin="1\n1 3\nO#O\n"), "no empty cell")


# -- 12. coins ---------------------------------------------------------------------------------
def test_coins_limits_and_argument_conflicts(tmp_path):
    row = [str(v % 97) for v in range(100_000)]
    start = time.perf_counter()
    fails_with(cli("coins", *row, "--line"), "O(n^2)", "30,000")
    fails_with(cli("coins", *row, "--compare"), "O(n^2)")
    assert time.perf_counter() - start < 30
    r = cli("coins", *row)
    assert r.exit_code == 0  # the value itself is O(n)
    fails_with(cli("play", "coins"), "no coins given")
    f = tmp_path / "row.txt"
    f.write_text("1 2 3\n")
    fails_with(cli("coins", "1", "2", "--file", str(f)), "not both")
    f.write_text("")
    fails_with(cli("coins", "--file", str(f)), "no coin values")


def test_api_type_errors_are_input_errors():
    from perfectplay import portal, rock

    for call in (lambda: coins.value(None), lambda: coins.optimal_line([1.5]),
                 lambda: coins.best_move("12"), lambda: rock.parse_maze(b"E.X"),
                 lambda: rock.analyze(None), lambda: portal.analyze("O.O"),
                 lambda: no.read_kth_no(None), lambda: Reader(3)):
        with pytest.raises(InputError):
            call()


# -- the fuzzer -----------------------------------------------------------------------------------
PIECES = [HUGE, "-", "+", "²", "٣", "５", "\ufeff", "\u00a0", "\u2028", "\r", "\n", " ",
          "\t", "0", "-1", "1000000000", "99999999999999999999", str(2**64), "#", ".", "O",
          "E", "X", "*", "x", "\x00", "1.5", "1e9"]


def _mutate(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(chars) + 1)
        op = rng.randrange(5)
        if op == 0 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op == 1:
            chars.insert(i, rng.choice(PIECES))
        elif op == 2 and chars:
            chars[min(i, len(chars) - 1)] = rng.choice(PIECES)
        elif op == 3:
            j = rng.randrange(len(chars) + 1)
            chars = chars[:min(i, j)] + chars[max(i, j):]
        else:
            j = rng.randrange(len(chars) + 1)
            chars = chars + chars[min(i, j):max(i, j)]
    return "".join(chars)


FILE_COMMANDS = {"rock": "rock_sample.txt", "portal": "portal_seed.txt", "no": "no_drawn.txt"}


def test_fuzz_every_judge_and_file_command():
    """A seeded mutation loop: every input ends in answers or our own one-line errors."""
    rng = random.Random(14)
    ids = sorted(SAMPLES)
    for k in range(2000):
        if k % 4 == 3:
            cmd = rng.choice(sorted(FILE_COMMANDS) + ["coins"])
            base = ("3 1 4 1 5 9 2 6\n" if cmd == "coins"
                    else (EXAMPLES / FILE_COMMANDS[cmd]).read_text())
            args = ["coins", "--file", "-"] if cmd == "coins" else [cmd, "-"]
        else:
            pid = ids[k % len(ids)]
            cases = 1 if pid in ("cses1097", "atcoder-dpl", "kth-no") else 3
            base = generate(pid, seed=k, cases=cases, size=5)
            args = ["judge", pid] + (["--lenient"] if rng.random() < 0.3 else [])
        r = cli(*args, stdin=_mutate(rng, base).encode("utf-8", "surrogatepass"))
        assert r.exit_code in (0, 1), (args, r.exit_code)


MULTI = ["gfg-coins", "spoj-twends", "uva10891", "uva10381", "devc-portal"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(MULTI), st.integers(0, 3), st.integers(0, 10**6))
def test_one_bad_case_costs_only_itself(problem, bad, seed):
    """Spoil one value (or cell) inside case ``bad``: the other cases answer as before and
    the one error names case ``bad + 1``."""
    cases = [make_case(problem, seed, i, 5) for i in range(4)]
    good = judge_run(problem, generators()[problem].write(cases))
    assert good.ok and len(good.lines) == 4
    spoiled = list(cases)
    if problem in ("uva10381", "devc-portal"):
        rows = list(cases[bad])
        rows[0] = "?" + rows[0][1:]
        spoiled[bad] = rows
    else:
        spoiled[bad] = [*cases[bad][:-1], "x"]
    res = judge_run(problem, generators()[problem].write(spoiled))
    want = good.lines[:bad] + good.lines[bad + 1:]
    if problem == "spoj-twends":  # its lines name the game number
        assert [ln.split(",")[1] for ln in res.lines] == [ln.split(",")[1] for ln in want]
    else:
        assert res.lines == want
    assert len(res.errors) == 1 and res.errors[0].case == bad + 1


def test_the_api_judges_never_raise_and_every_error_says_where():
    rng = random.Random(7)
    for k in range(600):
        pid = sorted(SAMPLES)[k % len(SAMPLES)]
        res = judge_run(pid, _mutate(rng, SAMPLES[pid][0]), lenient=bool(k % 2))
        assert all(isinstance(e, InputError) for e in res.errors)
        assert all(e.line is not None or e.case is not None for e in res.errors), \
            [str(e) for e in res.errors]


@pytest.mark.parametrize("name, words", [
    ("MovesNone", "returned None"), ("MovesInt", "returned 3"),
    ("MovesTypeError", "TypeError: boom"), ("PlayNone", "returned None"),
    ("OutcomeNaN", "nan"), ("PayoffInf", "inf"), ("HashRaises", "no hash"),
    ("MovesRaiseLater", "moves broke")])
def test_broken_user_games_fail_search_in_one_line(bad_games, name, words):
    fails_with(cli("search", f"{bad_games / 'bad.py'}:{name}"), words)


def test_search_options_and_moves_are_checked(bad_games):
    target = f"{bad_games / 'bad.py'}:Base"
    for args, words in [(["--table-mb", "nan"], "--table-mb must be a number"),
                        (["--time", "nan"], "--time must be a positive number")]:
        r = cli("search", target, *args)  # a bad option value is a usage error: exit 2
        assert r.exit_code == 2 and words in r.stderr, (r.exit_code, r.output)
    for args, words in [(["--moves", "1,1,1,1,1,1"], "is not legal there"),
                        (["--moves", "x"], "move 1 ('x') is not legal")]:
        fails_with(cli("search", target, *args), words)
    for name in ("ReprRaises", "ReprLoops"):
        r = cli("search", f"{bad_games / 'bad.py'}:{name}")
        assert r.exit_code == 0 and "win in 3" in r.output


@pytest.mark.parametrize("odd", ["\ud800", "\udfff", "\U0001F600", "\u00e9", "\x00"])
def test_any_character_in_a_grid_is_named_with_its_place(odd):
    """The grid parser decodes a whole grid at once: lone surrogates (valid in JSON and in
    surrogate-escaped text), characters past the BMP and NUL are each an InputError with
    their line and column, never a UnicodeError."""
    from perfectplay import no, portal, rock

    for parse, text in ((rock.parse, f"E..\n.{odd}X"), (portal.parse, f"O..\n.{odd}O"),
                        (no.parse, f"*..\n.{odd}A")):
        with pytest.raises(InputError, match=r"line 2, column 2: unknown character"):
            parse(text)


def test_an_unknown_option_of_a_game_is_named_with_a_suggestion() -> None:
    from click.testing import CliRunner

    from perfectplay.cli import main

    out = CliRunner().invoke(main, ["coins", "1", "2", "--tabel"])
    assert out.exit_code == 2
    assert out.stderr.strip() == ("perfectplay: error: coins: no such option --tabel "
                                  "(did you mean --table?)")
    out = CliRunner().invoke(main, ["coins", "1", "-2", "3"])  # a negative coin stays a coin
    assert out.exit_code == 0, out.output
    out = CliRunner().invoke(main, ["play", "coins", "1", "2", "--tabel"])
    assert out.exit_code == 2 and "no such option --tabel (did you mean --table?)" in out.stderr
