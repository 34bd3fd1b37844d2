"""``play`` and ``serve --game`` on a catalog instance beyond this machine: one line naming
the catalog's record and smaller instances, exit 1, at once, where they used to search or
solve without a word until killed; standard Connect Four is served live (its book, then
search), as ``play`` plays it, instead of being solved whole in memory."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.cli import main
from perfectplay.engine.proof.live import LiveOracle

TOO_BIG = [("othello", "othello(size=4, opening='')"),
           ("teeko", "teeko(size=3, pieces=3, advanced=False)"),
           ("domineering", "domineering(rows=4, cols=4)"),
           ("domineering(rows=8, cols=8)", "domineering(rows=3, cols=4)")]


@pytest.mark.parametrize(("target", "smaller"), TOO_BIG)
@pytest.mark.parametrize("command", ["play", "serve"])
def test_an_instance_beyond_this_machine_is_refused_in_one_line(command, target, smaller):
    args = ["play", target] if command == "play" else ["serve", "--game", target]
    out = CliRunner().invoke(main, args, input="")
    assert out.exit_code == 1, out.output
    [line] = out.output.strip().splitlines()
    assert line.startswith(f"perfectplay: error: {target}: too big to answer here")
    assert smaller in line and "Traceback" not in out.output


def test_a_smaller_instance_still_plays():
    out = CliRunner().invoke(main, ["play", "othello(size=4)"], input="/q\n")
    assert out.exit_code == 0, out.output
    assert "too big" not in out.output


def test_serve_game_connect4_is_live_from_its_book(served_app):
    out = CliRunner().invoke(main, ["serve", "--game", "connect4"])
    assert out.exit_code == 0, out.output
    assert "answered live: its opening book, then search" in out.output
    served = served_app["gamesman"]
    assert isinstance(served, LiveOracle) and served.book is not None
    game = ConnectFour(7, 6)
    # the book answers the start at once: a first-player win in 41 plies (Allis 1988,
    # Tromp's database; remoteness as Pons' solver reports it)
    assert (served.value(game.initial()).name, served.remoteness(game.initial())) == \
        ("WIN", 41)


def test_live_asks_for_the_search_anyway(monkeypatch):
    """``--live`` plays even a goal instance (each answer searched for as long as it
    takes): the refusal is for a person who did not ask for that."""
    from perfectplay.cli import book

    seen = {}

    def fake_live_table(game, title, book=None):
        seen["title"] = title
        raise SystemExit(0)

    monkeypatch.setattr(book, "live_table", fake_live_table)
    out = CliRunner().invoke(main, ["play", "domineering", "--live"], input="")
    assert out.exit_code == 0 and seen["title"] == "domineering", out.output
