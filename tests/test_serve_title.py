"""``serve --game FILE.py:Class`` or ``--store DIR`` of a game no registry names: its entry
in ``/api/games`` (whose ``title`` the page's tab shows) is titled by the game, not by its
id: the first line of its class's docstring when that is a title, else the class's name in
words (issue 72: the tab read ``tictactoe``)."""

from pathlib import Path

from starlette.testclient import TestClient

from perfectplay.cli.base import load_game
from perfectplay.engine import Value, solve
from perfectplay.web.app import create_app

EXAMPLES = Path(__file__).parent.parent / "examples"


class TakeAway:
    """Take-away from one heap.

    Take 1 or 2 of 4 counters; who takes the last wins."""

    def initial(self) -> int:
        return 4

    def moves(self, n: int) -> list[int]:
        return [m for m in (1, 2) if m <= n]

    def play(self, n: int, m: int) -> int:
        return n - m

    def outcome(self, n: int) -> Value | None:
        return Value.LOSE if n == 0 else None


def _served(solved, gid):
    games = TestClient(create_app(gamesman=solved, gamesman_id=gid)).get("/api/games").json()
    [entry] = [g for g in games["games"] if g["kind"] == "served"]
    return entry


def test_a_served_file_game_is_titled_by_its_class_name_in_words():
    """tic-tac-toe's class docstring opens with a sentence, not a title: its class name."""
    game = load_game(f"{EXAMPLES / 'tictactoe.py'}:TicTacToe", check=False)
    entry = _served(solve(game), "tictactoe")
    # the id "tictactoe" is the catalog's: the served tab is renamed, titled in words
    assert (entry["name"], entry["title"]) == ("tictactoe-served", "Tic Tac Toe (served)")


def test_a_served_game_with_a_short_docstring_is_titled_by_it():
    entry = _served(solve(TakeAway()), "takeaway")
    assert (entry["name"], entry["title"]) == ("takeaway", "Take-away from one heap")
    assert entry["rules"].startswith("Take-away from one heap.\n\nTake 1 or 2")
