"""Long solves and searches log through ``logging`` beside the progress bar (issue 30).

The suite is often run with ``-p no:logging`` (no ``caplog``), so the records are caught by a
handler of our own on the package logger.
"""

from __future__ import annotations

import logging

import pytest

import perfectplay
from perfectplay import Value, search, solve
from perfectplay.engine.discovery.graph import discover


class Nim:
    def __init__(self, heaps):
        self.heaps = tuple(sorted(heaps))

    def initial(self):
        return self.heaps

    def moves(self, heaps):
        return [(i, k) for i, h in enumerate(heaps) for k in range(1, h + 1)]

    def play(self, heaps, move):
        i, k = move
        return tuple(sorted(heaps[:i] + (heaps[i] - k,) + heaps[i + 1:]))

    def outcome(self, heaps):
        return None


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def caught():
    logger = logging.getLogger("perfectplay")
    handler, level = _Records(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


def test_the_package_adds_only_a_null_handler():
    handlers = logging.getLogger("perfectplay").handlers  # before any fixture adds one
    assert [type(h) for h in handlers] == [logging.NullHandler]
    assert perfectplay.__version__


def test_a_solve_logs_its_stages_at_info(caught):
    game = Nim([3, 4])
    n = len(discover(game).terminal)
    solution = solve(game, progress=False)
    assert solution.value() is Value.WIN  # 3 xor 4 != 0
    lines = [(r.name, r.levelno, r.getMessage()) for r in caught.records]
    assert ("perfectplay.engine", logging.INFO, "discovering positions: started") in lines
    assert ("perfectplay.engine", logging.INFO,
            f"discovering positions: finished after {n}") in lines


def test_a_search_logs_its_start_and_end(caught):
    result = search(Nim([3, 4, 5]))
    assert result.value is Value.WIN  # 3 ^ 4 ^ 5 = 2
    lines = [r.getMessage() for r in caught.records if r.name == "perfectplay.search"]
    assert lines[0] == "search of Nim: started"
    assert lines[-1] == f"search of Nim: {result.describe()} after {result.nodes:,} nodes"
