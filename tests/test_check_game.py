"""check_game's checks of the hooks (issue 42): each problem in plain words naming the
position, the value checks skipped with a note when the game is too big to solve, and the
issue's own case: a tiered Kayles whose decode is wrong on purpose."""

from __future__ import annotations

from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.engine import check_game


class Kayles:
    """Kayles on five pins, tiered by pins down; a position is a bit mask of standing pins."""

    def __init__(self, broken: str = "") -> None:
        self.broken = broken

    def initial(self):
        return 0b11111

    def moves(self, pins):
        return [(i,) for i in range(5) if pins >> i & 1] + \
            [(i, i + 1) for i in range(4) if pins >> i & 3 == 3]

    def play(self, pins, move):
        for i in move:
            pins &= ~(1 << i)
        return pins

    def outcome(self, pins):
        return None

    def tier(self, pins):
        return 5 - bin(pins).count("1")

    def encode(self, pins):
        if self.broken == "encode" and pins == 0b00110:
            return 0b10110  # the code of another position
        return pins

    def decode(self, code):
        if self.broken == "decode" and code == 0b10110:
            return 0b00110
        return code

    def canonical(self, pins):
        mirror = int(f"{pins:05b}"[::-1], 2)
        if self.broken == "canonical":
            return min(pins, mirror ^ 1)  # not the mirror: another row
        return min(pins, mirror)


def test_the_issue_case_a_wrong_decode_is_named_with_its_position():
    assert check_game(Kayles()).ok
    report = check_game(Kayles("decode"))
    assert not report.ok
    assert report.problems == ["decode(encode(22)) = decode(22) is 6, not the position"]


def test_two_positions_with_one_code_are_both_named():
    report = check_game(Kayles("encode"))
    assert any("encode gives" in p and "22" in p and " 6 " in p for p in report.problems), \
        report.problems


def test_a_canonical_that_is_no_symmetry_is_caught():
    report = check_game(Kayles("canonical"))
    assert not report.ok
    assert all(p.startswith("canonical(") or "more problem" in p for p in report.problems)


def test_the_value_checks_are_skipped_with_a_note_when_the_game_is_too_big():
    report = check_game(ConnectFour(4, 3), max_positions=2000)
    assert report.ok and not report.complete
    assert any("were not checked" in n and "2,000" in n for n in report.notes), str(report)
    assert check_game(ConnectFour(4, 3)).notes == []
