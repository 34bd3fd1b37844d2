"""A store is not written for a game whose hooks lie: solve_tiered and ``solve --store``
check the game first (on by default), refuse in one line and leave nothing a later read
could take for a solved tier; ``--no-check`` skips the check."""

from __future__ import annotations

import textwrap

import pytest
from click.testing import CliRunner

from perfectplay.cli import main
from perfectplay.errors import GameError
from perfectplay.store import open_store, solve_tiered
from perfectplay.store.layout import read_manifest

KAYLES = textwrap.dedent('''
    class Kayles:
        """Kayles on a row of pins: knock down one pin or two neighbours; the last to move
        wins. Tiered by pins down; a position is a bit mask of standing pins."""

        def __init__(self, n=5, broken=False):
            self.n, self.broken = n, broken

        def initial(self):
            return (1 << self.n) - 1

        def moves(self, pins):
            one = [(i,) for i in range(self.n) if pins >> i & 1]
            two = [(i, i + 1) for i in range(self.n - 1) if pins >> i & 3 == 3]
            return one + two

        def play(self, pins, move):
            for i in move:
                pins &= ~(1 << i)
            return pins

        def outcome(self, pins):
            return None

        def tier(self, pins):
            return self.n - bin(pins).count("1")

        def encode(self, pins):
            return pins

        def decode(self, code):
            if self.broken and code == 0b10110:  # wrong on purpose for one position
                return 0b00110
            return code
''')


@pytest.fixture()
def kayles(tmp_path, monkeypatch):
    (tmp_path / "kayles.py").write_text(KAYLES)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    import kayles
    importlib.reload(kayles)
    return kayles.Kayles


def test_a_broken_decode_is_refused_before_anything_is_written(kayles, client, tmp_path):
    with pytest.raises(GameError, match="decode"):
        solve_tiered(kayles(broken=True), tmp_path / "bd", client=client)
    assert not read_manifest(tmp_path / "bd").get("done")
    # with the check off, the store's own round trips stop it before a tier is solved
    with pytest.raises(GameError, match="encode and decode must be inverses"):
        solve_tiered(kayles(broken=True), tmp_path / "bd2", client=client, check=False)
    assert not read_manifest(tmp_path / "bd2").get("done")
    good = solve_tiered(kayles(), tmp_path / "good", client=client)
    with open_store(good.store, kayles()) as store:
        assert store.verify(sample=None).ok


def test_the_command_refuses_in_one_line_and_no_check_skips(kayles, tmp_path):
    target = f"{tmp_path / 'kayles.py'}:Kayles(5, True)"
    r = CliRunner().invoke(main, ["solve", target, "--store", str(tmp_path / "bd"),
                                  "--workers", "1"])
    assert r.exit_code != 0
    assert "decode" in r.output and "no store was written" in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert not read_manifest(tmp_path / "bd").get("done")
    r = CliRunner().invoke(main, ["solve", target, "--check"])
    assert r.exit_code != 0 and "decode" in r.output
