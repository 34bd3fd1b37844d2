"""Issue 46's outputs in the user's words (items 1, 8 and 9): each behaviour a new user met,
checked as that user meets it (a script, a command line, a played game)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def run_script(tmp_path: Path, source: str, timeout: float = 180
               ) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "snippet.py"
    script.write_text(textwrap.dedent(source))
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=timeout, stdin=subprocess.DEVNULL)


# -- item 1: a store solved from a script without the __main__ guard -------------------------
STORE_SNIPPET = """
import tempfile

from perfectplay.coins import CoinsGame
from perfectplay.store import open_store, solve_tiered

{guard}game = CoinsGame([7, 9, 2, 6, 4])
{indent}folder = tempfile.mkdtemp()
{indent}solve_tiered(game, folder, workers=1)
{indent}with open_store(folder, game=game) as tb:
{indent}    print(tb.counts().total, tb.value())
"""


def test_a_script_without_the_main_guard_gets_one_line(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    out = run_script(tmp_path, STORE_SNIPPET.format(guard="", indent=""))
    assert out.returncode == 1
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("perfectplay: error: snippet.py, line 9: ")
    assert 'if __name__ == "__main__":' in lines[0]


def test_the_guarded_script_solves(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    guarded = STORE_SNIPPET.format(guard='if __name__ == "__main__":\n    ', indent="    ")
    out = run_script(tmp_path, guarded)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["20", "-2"]


def test_the_guard_error_is_a_store_error_too() -> None:
    from perfectplay.store import MainGuardError, StoreError

    err = MainGuardError("x")
    assert isinstance(err, StoreError) and isinstance(err, SystemExit)
    assert err.code == "perfectplay: error: x" and str(err) == "x"


def test_guarded_or_interactive_code_is_left_alone(tmp_path: Path) -> None:
    from perfectplay.store.runner import unguarded_script_line

    assert unguarded_script_line() is None  # pytest's own __main__ is guarded or a -c
    probe = textwrap.dedent("""
        from perfectplay.store.runner import unguarded_script_line
        print(unguarded_script_line())
        def f():
            return unguarded_script_line()
        if __name__ == "__main__":
            print(f())
    """)
    out = run_script(tmp_path, probe)
    assert out.stdout.splitlines() == [f"('{tmp_path / 'snippet.py'}', 3)", "None"]
    inline = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=60)
    assert inline.stdout.splitlines() == ["None", "None"]


# -- item 8: the docs' snippets and extras ---------------------------------------------------
def test_the_pettingzoo_extra_brings_pygame() -> None:
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert any(req.startswith("pygame") for req in extras["pettingzoo"])


def test_the_pettingzoo_snippet_needs_no_examples_folder(tmp_path: Path) -> None:
    pytest.importorskip("pettingzoo")
    out = run_script(tmp_path, """
        from perfectplay import solve
        from perfectplay.games import nim
        from perfectplay.pettingzoo import game_env, play_episode

        env = game_env(solve(nim(heaps=(1, 2, 3))))
        perfect = env.perfect_agent(seed=0)
        print(play_episode(env, {"player_0": perfect, "player_1": perfect}, seed=0))
    """)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "{'player_0': -1, 'player_1': 1}"


# -- item 9: the smaller outputs --------------------------------------------------------------
def test_no_draws_each_numbered_piece_by_its_own_letter() -> None:
    from perfectplay import no

    result = no.analyze(no.parse((EXAMPLES / "no_seed.txt").read_text()))
    board = result.draw()
    assert "P" not in board.splitlines()[1]  # the pieces are told apart, not all P
    assert board.splitlines()[1:6] == ["1 54D23", "2 4A212", "3 321*1", "4 B3212", "5 5432E"]
    assert "A-E the pieces P1-P5 (A is P1, B is P2, ...)" in board


def test_a_tie_between_pieces_says_the_rule_that_breaks_it() -> None:
    from perfectplay import no

    numbered = no.analyze(no.parse((EXAMPLES / "no_seed.txt").read_text())).explain()
    assert "(3-way tie, broken by the lowest number: P1)" in numbered
    drawn = no.analyze(no.parse("A.*.B")).explain()
    assert "broken by reading order (top to bottom, left to right): A" in drawn


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


def test_an_unknown_openspiel_game_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel")
    run = [sys.executable, "-m", "perfectplay", "openspiel"]
    out = subprocess.run([*run, "connect_fuor"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    assert out.stderr.splitlines() == [
        out.stderr.strip()] and "no game 'connect_fuor'" in out.stderr
    assert "did you mean connect_four?" in out.stderr
    out = subprocess.run([*run, "tic_tac_toe(x=1)"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 1 and len(out.stderr.splitlines()) == 1, out.stderr
    assert "Unknown parameter 'x'" in out.stderr


def test_play_waits_at_the_end_so_a_final_blunder_can_be_taken_back() -> None:
    from perfectplay.coins import play_table
    from perfectplay.play import Session

    said: list[str] = []
    typed = iter(["L", "/u", "R", "/q"])  # L(1) loses; taken back at the end, R(2) wins
    Session(play_table([1, 2]), {0}, write=said.append,
            read=lambda _prompt: next(typed)).run()
    text = "\n".join(said)
    assert "the second player wins" in text and Session.AT_END in text
    assert "took back 2 moves: first to move again" in text
    assert text.rstrip().endswith(Session.AT_END)
    assert "the first player wins" in text.split("took back")[1]
    quiet: list[str] = []
    ends = iter(["L"])

    def read(_prompt: str) -> str:  # the end of the input at the end of the game: done
        try:
            return next(ends)
        except StopIteration:
            raise EOFError from None

    Session(play_table([1, 2]), {0}, write=quiet.append, read=read).run()
    assert quiet[-2] == Session.AT_END


@pytest.mark.browser
def test_the_portals_play_board_draws_this_games_walls_as_promised() -> None:
    """The play title says "'+' = walled in this game": a wall played shows '+' on its own
    colour, not black on black like the board's own walls."""
    pytest.importorskip("starlette")
    from browser import served_page

    with served_page() as page:
        page.click("button[data-tab=portal]")
        page.fill("#portal-text", "O...\n.#..\n...O")
        page.select_option("#portal-side", "0")
        page.click("#portal-play")
        page.wait_for_selector("#portal-game td.legal")
        best = page.inner_text("#portal-game ol.moves li.best").split(":")[0]
        page.click(f"#portal-game td[data-cell={best}]")
        page.wait_for_selector("#portal-game td.placed")
        placed = page.query_selector_all("#portal-game td.placed")
        assert len(placed) == 2  # ours and the computer's answer
        colours = [page.evaluate("el => getComputedStyle(el).backgroundColor", td)
                   for td in (*placed, page.query_selector("#portal-game td.wall"))]
        assert all(td.inner_text() == "+" for td in placed)
        assert colours[0] == colours[1] != colours[2]


TINY_PORTAL = '''
from perfectplay.portal import PortalGame, parse_board


class Tiny(PortalGame):
    def __init__(self):
        super().__init__(parse_board("O..\\n.#.\\n..O"))
'''


def test_a_store_prints_its_start_its_sql_headers_and_a_framed_board(tmp_path: Path) -> None:
    """solve --store ends with the start's value (as an in-memory solve does), sql prints
    the column names first, and query's board has its cell names and a legend."""
    pytest.importorskip("distributed")
    pytest.importorskip("duckdb")
    from click.testing import CliRunner

    from perfectplay.cli import main

    (tmp_path / "tiny.py").write_text(TINY_PORTAL)
    store = str(tmp_path / "tb")
    run = CliRunner().invoke
    r = run(main, ["solve", f"{tmp_path / 'tiny.py'}:Tiny", "--store", store,
                   "--workers", "1", "--no-check"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith("solved ") and lines[1] == "start: Tiny, the first player to move"
    assert lines[2].startswith("value: ") and lines[3].startswith("best move: ")
    r = run(main, ["solve", f"{tmp_path / 'tiny.py'}:Tiny", "--store", store, "--json"])
    assert r.exit_code == 0 and '"start": {' in r.output, r.output
    r = run(main, ["sql", store, "SELECT value, count(*) AS positions FROM solved "
                   "GROUP BY value ORDER BY value"])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == "value\tpositions"
    r = run(main, ["query", store, "--moves", "b1"])
    assert r.exit_code == 0, r.output
    assert "\n   abc\n 1 OX.\n 2 .#.\n 3 ..O\nO a portal, # a wall from the start" in r.output
