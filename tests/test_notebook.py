"""Notebook views: every result, solution, saved solution, store and search result renders
an HTML card holding its real values, the moves table and the drawing, escaped."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from nim import Nim
from tictactoe import TicTacToe

import perfectplay
from perfectplay import coins, no, portal, rock, search, solve

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def read(name: str) -> str:
    return (EXAMPLES / name).read_text()


def text_of(html: str) -> str:
    assert html.startswith('<div class="perfectplay">') and html.endswith("</div>")
    return unescape(html)


def test_a_solution_shows_its_value_moves_and_board():
    s = solve(TicTacToe())
    html = s._repr_html_()
    shown = text_of(html)
    assert "tie in 9" in shown and "5,478" in shown
    assert shown.count("tie in 9") >= 9  # the start and its nine moves, all ties
    assert "a1" in shown and "b2" in shown  # moves by the game's names
    assert "a b c" in shown  # the drawing
    after = "XO......."  # X to move wins: the card of another position shows its value
    assert s.value(after) is perfectplay.Value.WIN
    assert f"win in {s.remoteness(after)}" in text_of(s._repr_html_(after))


def test_a_saved_solution_and_a_search_result_show_themselves(tmp_path):
    s = solve(Nim((1, 2, 3)))
    back = perfectplay.load(s.save(tmp_path / "n.npz"), game=Nim((1, 2, 3)))
    assert "lose in" in text_of(back._repr_html_())
    # a search result's card is one class for every game: a Python game's search shows it
    # without compiling a search kernel for a compiled game's rules (10 s, nowhere else used)
    result = search(TicTacToe(), analyze=True)
    shown = text_of(result._repr_html_())
    assert result.describe() in shown and f"{result.nodes:,}" in shown


def test_the_four_games_results_show_explanation_and_drawing():
    results = [
        coins.analyze(coins.parse("3 2 2 3 1 2")),
        rock.analyze(rock.parse(read("rock_sample.txt"))),
        portal.analyze(portal.parse_board(read("portal_seed.txt"))),
        no.analyze(no.parse(read("no_seed.txt"))),
    ]
    for result in results:
        html = result._repr_html_()
        shown = text_of(html)
        assert result.explain() in shown
        drawing = result.draw()
        if drawing:
            assert drawing in shown
        assert "<script" not in html


def test_text_is_escaped():
    class Angle:
        """A game whose drawing holds markup."""

        def initial(self):
            return 1

        def moves(self, pos):
            return [1] if pos else []

        def play(self, pos, move):
            return 0

        def outcome(self, pos):
            return None

        def draw(self, pos):
            return "<script>alert(1)</script>"

    html = solve(Angle())._repr_html_()
    assert "<script>" not in html and "&lt;script&gt;" in html


@pytest.mark.parametrize("name", ["coins", "portal"])
def test_a_view_never_fails_on_a_broken_drawing(name, monkeypatch):
    result = (coins.analyze(coins.parse("1 2 3")) if name == "coins" else
              portal.analyze(portal.parse_board(read("portal_seed.txt"))))

    def broken(*args, **kwargs):
        raise RuntimeError("no picture")

    monkeypatch.setattr(type(result), "draw", broken)
    assert result.explain() in text_of(result._repr_html_())


def _cells(html: str) -> dict[str, str]:
    """A card's facts: each header cell and the cell beside it."""
    return dict(re.findall(r"<th[^>]*>([^<]*)</th><td[^>]*>([^<]*)</td>", unescape(html)))


def test_a_search_card_names_its_best_move_and_separates_its_numbers():
    """The card speaks the user's words (issue 46, item 3): the best move by the game's name,
    never its internal code; keys as words; numbers with separators; flags as yes or no."""
    # the Python game: a compiled game's search kernels would cost 10 s of compiling here
    result = search(TicTacToe(), analyze=True)
    facts = _cells(result._repr_html_())
    assert facts["best move"] == TicTacToe().move_name(result.best_move)
    assert facts["best move"] != str(result.best_move)  # a name, not the move's code
    assert "best_move" not in facts and "best move name" not in facts
    assert facts["exact"] == "yes" and facts["value"] == "tie"
    assert facts["nodes"] == f"{result.nodes:,}"
    assert "position" not in facts  # a code; the board is drawn


def test_moves_and_numbers_are_words_not_reprs():
    """A game without move_name names its moves by repr ('L'): the card shows L; a count
    past a thousand has its separators, a margin keeps its sign."""
    from perfectplay.coins import CoinsGame
    from perfectplay.notebook import facts_of, words

    html = solve(CoinsGame([3, 2, 2, 3]))._repr_html_()
    rows = dict(re.findall(r"<tr><td[^>]*>([^<]*)</td><td[^>]*>([^<]*)</td></tr>",
                           unescape(html)))
    assert set(rows) == {"L", "R"}
    assert "'" not in "".join(rows)
    assert words(139837) == "139,837" and words("+3") == "+3" and words(False) == "no"
    assert words(perfectplay.Value.WIN) == "win"
    assert facts_of({"nodes_per_second": 139837, "board": "a\nb", "exact": True,
                     "best_move": 3, "best_move_name": "d", "note": None}) == [
        ("nodes per second", "139,837"), ("exact", "yes"), ("best move", "d")]
