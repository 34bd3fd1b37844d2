"""Saved solutions: every kind of game written to .npz and .parquet and read back answers
exactly as the solution it came from (every position's value and remoteness, the moves of
a sample of positions), and bad files, names and positions are clear errors."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from nim import Nim
from tictactoe import TicTacToe

import perfectplay
from perfectplay import Value, solve
from perfectplay.catalog.connect4 import ConnectFour, ConnectFourPy
from perfectplay.catalog.kalah import Kalah
from perfectplay.coins import CoinsGame
from perfectplay.engine.compiled.kernels import better_margin
from perfectplay.engine.protocol import Score
from perfectplay.engine.solved.solution import winlose_key
from perfectplay.errors import GameError, InputError
from perfectplay.portal import PortalGame, parse_board

ROOT = Path(__file__).resolve().parent.parent


class Loop:
    """A cyclic win/lose game with draws: positions 0..5 on a ring, moves +1 or +2, and 5
    is lost for the player to move; 3 and 4 only go round (draws appear)."""

    def initial(self) -> int:
        return 0

    def moves(self, pos: int) -> list[int]:
        return [] if pos == 5 else [1, 2]

    def play(self, pos: int, move: int) -> int:
        return (pos + move) % 6 if pos < 3 else (pos + 3 * move) % 6

    def outcome(self, pos: int) -> Value | None:
        return Value.LOSE if pos == 5 else None


def _coins():
    return CoinsGame([3, 9, 1, 2, 7, 4, 4, 1])


def _portal():
    return PortalGame(parse_board("O...\n.#..\n...O", "king"))


GAMES = {  # name: (make the game, its target or None, how positions are keyed)
    "tictactoe (str positions)": (TicTacToe, "examples/tictactoe.py:TicTacToe", "literal"),
    "nim (tuple positions)": (lambda: Nim((2, 3, 4)), "examples/nim.py:Nim((2, 3, 4))",
                              "literal"),
    "connect four 4x3 in Python (tuples of strings)": (
        lambda: ConnectFourPy(4, 3), None, "literal"),
    "a cyclic game with draws (int positions)": (Loop, None, "code"),
    "coins (scored, encode/decode)": (_coins, None, "encode"),
    "the portal (int positions)": (_portal, None, "code"),
    "connect four 4x3 compiled, tier by tier": (
        lambda: ConnectFour(4, 3), "connect4(width=4, height=3)", "code"),
    "kalah(2, 2) compiled (scored)": (lambda: Kalah(2, 2), "kalah(houses=2, seeds=2)",
                                      "code"),
}


def same_answers(a, b, rng: random.Random) -> None:
    """b answers every position of a alike, and the moves of a sample alike."""
    positions = list(a.positions())
    assert len(b) == len(positions)
    for pos in positions:
        assert b.value(pos) == a.value(pos) and b.remoteness(pos) == a.remoteness(pos), pos
    for pos in rng.sample(positions, min(40, len(positions))):
        assert b.move_values(pos) == a.move_values(pos)
        assert b.best_moves(pos) == a.best_moves(pos)
    assert b.counts() == a.counts()


COMPILED = ("connect four 4x3 compiled, tier by tier", "kalah(2, 2) compiled (scored)")


@pytest.mark.parametrize("name,suffix", [(n, s) for n in GAMES for s in (".npz", ".parquet")
                                         if s == ".npz" or n not in COMPILED])
def test_every_kind_of_game_round_trips(name, suffix, tmp_path, monkeypatch):
    """(Compiled games compile their kernels again for the loaded instance: .npz only.)"""
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    monkeypatch.chdir(ROOT)  # targets name files under examples/
    make, target, kind = GAMES[name]
    game = make()
    original = solve(game)
    path = original.save(tmp_path / f"game{suffix}", target=target)
    back = perfectplay.load(path) if target else perfectplay.load(path, game=make())
    assert back.kind == kind
    same_answers(original, back, random.Random(name))
    assert back.explain() == original.explain() or back.value() == original.value()
    arrays = original.to_arrays()
    assert len(arrays["key"]) == len(arrays["value"]) == len(arrays["remoteness"]) == len(back)
    for k in ("key", "value", "remoteness"):
        assert np.array_equal(np.asarray(back.to_arrays()[k]), np.asarray(arrays[k]))


def test_draws_are_kept_as_never_ending(tmp_path):
    original = solve(Loop())
    assert Value.DRAW in original.counts().by_value
    back = perfectplay.load(original.save(tmp_path / "loop.npz"), game=Loop())
    draws = [p for p in back.positions() if back.value(p) is Value.DRAW]
    assert draws and all(back.remoteness(p) is None for p in draws)


def test_positions_that_do_not_read_back_are_refused(tmp_path):
    class Boxed:
        """Positions are objects whose repr is not a literal: no encode/decode."""

        class Pos:
            def __init__(self, n):
                self.n = n

            def __eq__(self, other):
                return isinstance(other, Boxed.Pos) and other.n == self.n

            def __hash__(self):
                return hash(self.n)

        def initial(self):
            return self.Pos(3)

        def moves(self, pos):
            return [1, 2] if pos.n > 0 else []

        def play(self, pos, move):
            return self.Pos(max(0, pos.n - move))

        def outcome(self, pos):
            return None

    with pytest.raises(GameError, match="encode"):
        solve(Boxed()).save(tmp_path / "boxed.npz")


def test_bad_files_names_and_positions_are_clear_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    s = solve(Nim((1, 2)))
    with pytest.raises(InputError, match=".npz or .parquet"):
        s.save(tmp_path / "nim.csv")
    with pytest.raises(InputError, match="cannot write"):
        s.save(tmp_path / "no such folder" / "nim.npz")
    path = s.save(tmp_path / "nim.npz")
    with pytest.raises(InputError, match="names no game"):
        perfectplay.load(path)
    with pytest.raises(InputError, match="not of TicTacToe"):
        perfectplay.load(path, game=TicTacToe())
    back = perfectplay.load(path, game=Nim((1, 2)))
    with pytest.raises(KeyError, match="not a position"):
        back.value((7, 7))
    assert (7, 7) not in back and back.get((7, 7)) is None
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip file")
    with pytest.raises(InputError, match="not a saved solution"):
        perfectplay.load(junk)
    with pytest.raises(InputError, match="no such file"):
        perfectplay.load(tmp_path / "missing.npz")


def test_the_command_line_saves_and_queries(tmp_path):
    def cli(*args):
        return subprocess.run([sys.executable, "-m", "perfectplay", *args], cwd=ROOT,
                              capture_output=True, text=True)

    out = cli("solve", "examples/nim.py:Nim((3, 4, 5))", "--save", str(tmp_path / "n.npz"))
    assert out.returncode == 0 and "saved" in out.stdout, out.stderr
    solution = solve(Nim((3, 4, 5)))
    out = cli("query", str(tmp_path / "n.npz"), "(3, 4, 4)", "--json")
    assert out.returncode == 0, out.stderr
    import json

    data = json.loads(out.stdout)
    assert data["value"] == solution.value((3, 4, 4)).value
    assert data["remoteness"] == solution.remoteness((3, 4, 4))
    out = cli("query", str(tmp_path / "n.npz"), "(9, 9, 9)")
    assert out.returncode == 1 and "not a position" in out.stderr
    assert "Traceback" not in out.stderr
    out = cli("solve", "examples/nim.py:Nim((1, 2))", "--save", str(tmp_path / "n.txt"))
    assert out.returncode == 2 and ".npz or .parquet" in out.stderr


# -- the one tie-break: Score orders moves exactly as the keys it replaced ----------------------
_OLD_RANK = {Value.WIN: 3, Value.TIE: 2, Value.DRAW: 1, Value.LOSE: 0}


def _old_winlose_key(value, rem):
    """The win/lose key Score replaced (solution.winlose_key before Score)."""
    if value is Value.WIN or value is Value.TIE:
        return (_OLD_RANK[value], -(rem or 0))
    return (_OLD_RANK[value], rem or 0)


def _old_scored_key(value, rem):
    """The margin key Score replaced (scored.scored_key)."""
    if rem is None:
        return (value, 0)
    return (value, -rem if value >= 0 else rem)


def _old_cost_key(value, rem, payer_moves):
    """The cost-game key Score replaced (scored.cost_key)."""
    if rem is None:
        return (value, 0)
    return (value, -rem if payer_moves else rem)


_REM = st.none() | st.integers(0, 60)
_MARGIN = (st.integers(-6, 6) | st.integers(-(2**70), 2**70)
           | st.fractions(max_denominator=7).filter(lambda f: abs(f) < 10)
           | st.sampled_from([0.5, -0.5, -0.0, float("inf"), -float("inf")]))
_WINLOSE = st.tuples(st.sampled_from(list(Value)), _REM)


def _same_order(pairs, old, new):
    """Sorting by ``old`` and by ``new`` (stable, best first) gives the same list, and
    every pair compares the same way."""
    assert (sorted(pairs, key=old, reverse=True) == sorted(pairs, key=new, reverse=True))
    for a in pairs:
        for b in pairs:
            assert (old(a) < old(b)) == (new(a) < new(b)), (a, b)
            assert (old(a) == old(b)) == (not new(a) < new(b) and not new(b) < new(a))


@given(st.lists(_WINLOSE, max_size=8))
def test_score_orders_winlose_as_before(pairs):
    _same_order(pairs, lambda p: _old_winlose_key(*p), lambda p: Score(*p))
    _same_order(pairs, lambda p: _old_winlose_key(*p), lambda p: winlose_key(*p))


@given(st.lists(st.tuples(_MARGIN, _REM), max_size=8))
def test_score_orders_margins_as_before(pairs):
    _same_order(pairs, lambda p: _old_scored_key(*p), lambda p: Score(*p))


@given(st.lists(st.tuples(_MARGIN, _REM), max_size=8), st.booleans())
def test_score_orders_cost_games_as_before(pairs, payer_moves):
    _same_order(pairs, lambda p: _old_cost_key(*p, payer_moves),
                lambda p: Score(*p, hurry=payer_moves))


@given(st.lists(st.tuples(st.integers(-50, 50) | st.fractions(max_denominator=5),
                          st.integers(0, 60)), min_size=1, max_size=8))
def test_inlined_margin_keys_agree_with_score(options):
    """negamax_exact writes Score's key out for speed, and the int64 kernels compare by
    better_margin: both pick the option Score picks (the first of equals)."""
    best = max(options, key=lambda o: Score(*o))
    inlined = None
    for v, r in options:
        key = (v, -r if v >= 0 else r)  # as in scored.negamax_exact
        if inlined is None or key > inlined[0]:
            inlined = (key, (v, r))
    assert inlined is not None and inlined[1] == best
    ints = [(int(v), r) for v, r in options if v.denominator == 1 and abs(v) < 2**40]
    if ints:
        pick = ints[0]
        for v, r in ints[1:]:
            if better_margin(v, r, *pick):
                pick = (v, r)
        assert Score(*pick).key == max(Score(*o) for o in ints).key
