"""Live per-move analysis (perfectplay.engine.proof.live): every move's value, then its
remoteness, from a book, a store or search, checked against independent answers:
the strong solution of small boards (solve), and Pascal Pons's published scores of 7x6
test positions (tests/data/connect4, converted by from_pons_score)."""

import random
import threading
from pathlib import Path

import pytest

from perfectplay.catalog.connect4 import ConnectFour, from_pons_score, position_from_moves
from perfectplay.coins.rules import CoinsGame
from perfectplay.engine import Value, solve
from perfectplay.engine.proof.live import MoveReport, analyze_moves
from perfectplay.engine.protocol import Score
from perfectplay.errors import GameError, LimitError
from perfectplay.store import open_store
from perfectplay.store.book import build_book, find_book

DATA = Path(__file__).parent / "data" / "connect4"


@pytest.fixture(scope="module")
def c4():
    game = ConnectFour(4, 4)
    return game, solve(game)


def random_positions(game, count: int, most: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = game.initial()
        for _ in range(rng.randrange(most + 1)):
            if game.outcome(pos) is not None:
                break
            pos = game.play(pos, rng.choice(game.moves(pos)))
        if game.outcome(pos) is None:
            out.append(pos)
    return out


def final(reports: list[MoveReport]) -> dict:
    """The last report of each move, as (value, remoteness)."""
    last = {}
    for r in reports:
        last[r.move] = r
    assert all(r.exact for r in last.values())
    return {m: (r.value, r.remoteness) for m, r in last.items()}


def solved_moves(solution, pos) -> dict:
    return {mv.move: (mv.value, mv.remoteness) for mv in solution.move_values(pos)}


def check_order(reports: list[MoveReport]) -> int:
    """Values before remoteness: every searched move's value is reported before any
    searched move's remoteness is; a move's reports never contradict each other. Returns
    how many reports gave a value alone (remoteness still to come), so that a caller can
    check the order was put to the test at all."""
    searched = [r for r in reports if r.source == "search"]
    first_exact_after_value = None
    alone = 0
    for i, r in enumerate(searched):
        assert r.value is not None
        if r.remoteness is None and r.value is not Value.DRAW:  # a value alone: no
            assert first_exact_after_value is None  # exact-only report came before it
            assert not r.exact
            alone += 1
        elif first_exact_after_value is None and any(
                s.move == r.move for s in searched[:i]):
            first_exact_after_value = i
    by_move: dict = {}
    for r in reports:
        if r.move in by_move and by_move[r.move] is not None:
            assert r.value == by_move[r.move]
        by_move[r.move] = r.value
    return alone


def check_bounds(reports: list[MoveReport]) -> None:
    """While a move's remoteness is searched, its report bounds it ('win in 17' ..
    'win in 1'): the same value both ends, and the remoteness proven later lies between
    them."""
    exact = {r.move: r for r in reports if r.exact}
    for r in reports:
        if r.exact or r.value is Value.DRAW:
            continue
        ends = [w.split() for w in (r.lower, r.upper)]
        assert [e[0] for e in ends] == [r.value.value] * 2, r
        lo, hi = sorted(int(e[-1]) for e in ends)
        assert lo <= exact[r.move].remoteness <= hi, (r, exact[r.move])


def test_every_move_of_random_4x4_positions_equals_the_solution(c4):
    game, solution = c4
    alone = 0
    for pos in random_positions(game, 14, 12, seed=1):
        reports = list(analyze_moves(game, pos))
        assert {r.name for r in reports} == {game.move_name(m) for m in game.moves(pos)}
        assert final(reports) == solved_moves(solution, pos), pos
        alone += check_order(reports)
        check_bounds(reports)
    assert alone > 0  # some values came before their remoteness: the order was tested


def test_the_book_answers_its_own_children_and_search_the_rest(c4, tmp_path):
    game, solution = c4
    build_book(game, 3, tmp_path / "bk")
    with open_store(tmp_path / "bk", game) as book:
        for pos in random_positions(game, 6, 3, seed=2):
            reports = list(analyze_moves(game, pos, book=book))
            stones = game.stones(pos)[1]
            sources = {r.source for r in reports}
            assert sources == ({"book"} if stones < 3 else {"search"}), (pos, sources)
            assert final(reports) == solved_moves(solution, pos)


def test_a_stop_event_ends_with_honest_bounds(c4):
    game, solution = c4
    stop = threading.Event()
    stop.set()
    reports = list(analyze_moves(game, stop=stop))
    assert len(reports) == 4
    for r in reports:  # nothing proven: the bounds are every value
        assert (r.value, r.exact, r.lower, r.upper) == (None, False, "lose in 1", "win in 1")
        assert r.words == "nothing is proven of its value"


def test_a_time_limit_ends_with_bounds_too(c4):
    game, _ = c4
    reports = list(analyze_moves(game, time_limit=1e-9))
    assert [(r.value, r.exact) for r in reports] == [(None, False)] * 4


@pytest.mark.slow  # compiles the 7x6 search (about 10 s of CPU)
@pytest.mark.parametrize("name", ["endgame_L1", "midgame_L1"])
def test_the_best_move_of_pons_positions_has_pons_score(name):
    """Pons's score of a 7x6 position (his test sets) is the value and remoteness of its
    best move, as every move is analysed live."""
    game = ConnectFour(7, 6)
    rows = (DATA / f"7x6_{name}.txt").read_text().split("\n")[:4]
    for row in rows:
        moves, score = row.split()
        pos = position_from_moves(game, moves)
        got = final(list(analyze_moves(game, pos)))
        best = max(got.values(), key=lambda vr: Score(*vr).key)
        assert best == from_pons_score(int(score), len(moves)), row


def test_a_scored_game_equals_its_solution_searched_or_read_from_a_store():
    """Margins (coins in a line: take an end coin, the difference of the totals), by search
    and by a store (the whole solution as the book): every move as solve says."""
    game = CoinsGame([7, 9, 2, 6, 4, 3, 5, 1])
    solution = solve(game)
    for pos in [(0, 8), (1, 7), (2, 5), (3, 4)]:
        want = solved_moves(solution, pos)
        assert final(list(analyze_moves(game, pos))) == want
        reports = list(analyze_moves(game, pos, book=solution))
        assert {r.source for r in reports} == {"book"} and final(reports) == want
    assert solution.value((0, 8)) == max(v for v, _ in
                                         final(list(analyze_moves(game, (0, 8)))).values())


def test_a_python_game_equals_its_solution():
    class Subtract:  # take 1, 2 or 3 from a heap of 10; who cannot move loses
        def initial(self):
            return 10

        def moves(self, n):
            return [k for k in (1, 2, 3) if k <= n]

        def play(self, n, k):
            return n - k

        def outcome(self, n):
            return None

    game = Subtract()
    solution = solve(game)
    for pos in range(1, 11):
        assert final(list(analyze_moves(game, pos))) == solved_moves(solution, pos)
    assert list(analyze_moves(game, 0)) == []  # no move, no report


def test_bad_options_are_one_clear_error(c4):
    game, _ = c4
    with pytest.raises(LimitError, match="table_mb"):
        next(analyze_moves(game, table_mb=-1))
    with pytest.raises(GameError, match="int code"):
        next(analyze_moves(game, "(1, 2)"))
    with pytest.raises(GameError, match="holds"):
        next(analyze_moves(game, endgame=type("S", (), {"game_name": "Other"})()))


def test_reports_say_their_answer_in_words(c4):
    game, _ = c4
    reports = list(analyze_moves(game))
    data = reports[-1].to_json()
    assert set(data) == {"move", "value", "remoteness", "lower", "upper", "exact", "source",
                         "words"}
    assert data["value"] in ("win", "lose", "tie") and isinstance(data["remoteness"], int)
    assert data["words"] == f"{data['value']} in {data['remoteness']}"


def test_the_7x6_start_is_read_from_the_shipped_book_without_a_search():
    game = ConnectFour(7, 6)
    reports = list(analyze_moves(game, book=find_book(game)))
    assert [r.source for r in reports] == ["book"] * 7 and all(r.exact for r in reports)
    words = {r.name: r.words for r in reports}
    assert words["4"] == "win in 41"  # the middle column, on ply 41 (Allis 1988; Tromp)
    assert {words[c].split()[0] for c in "35"} == {"tie"}


@pytest.mark.parametrize("target, plies", [("connect4(width=4, height=4)", 3),
                                           ("kalah(houses=3, seeds=2)", 2)])
def test_a_books_last_ply_bounds_every_move_and_answers_alike(target, plies, tmp_path,
                                                              monkeypatch):
    """A position the book holds but whose children it does not (its last ply): the
    position's exact score bounds each move's search (no move beats it), so the
    analysis takes fewer probes, and every move's value and remoteness is still the
    strong solution's (Connect Four 4x4; Kalah(3, 2), a margin game with extra turns)."""
    from perfectplay.engine.proof import backends as searchbackends
    from perfectplay.engine.target import load_target
    from perfectplay.store import open_store
    from perfectplay.store.book import book_layers, build_book

    game = load_target(target)
    solution = solve(game)
    build_book(game, plies, tmp_path / "bk", game_ref=target)
    probes = {"n": 0}
    real = searchbackends.CompiledBackend.close

    def counted(self, *args, **kwargs):  # every search's probes, counted as it ends
        probes["n"] += self.probes
        return real(self, *args, **kwargs)

    monkeypatch.setattr(searchbackends.CompiledBackend, "close", counted)
    last = [int(c) for c in book_layers(game, plies)[-1].tolist()]
    counts = {}
    with open_store(tmp_path / "bk", game) as book:
        for name, store in (("without", None), ("with", book)):
            probes["n"] = 0
            for pos in last:
                if game.outcome(pos) is None:
                    reports = list(analyze_moves(game, pos, book=store))
                    assert final(reports) == solved_moves(solution, pos), (name, pos)
            counts[name] = probes["n"]
    assert 0 < counts["with"] < counts["without"], counts
