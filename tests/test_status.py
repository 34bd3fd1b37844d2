"""One set of kernel status codes: defined once (engine/status.py), each with its message."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import perfectplay
from perfectplay.engine import status as st
from perfectplay.engine.status import Status, raise_status, status_error
from perfectplay.errors import GameError, LimitError

PACKAGE = Path(perfectplay.__file__).parent
NAMES = set(Status.__members__)


def _assigned(target: ast.expr, value: ast.expr | None) -> list[tuple[str, ast.expr | None]]:
    """(name, value) of each name an assignment binds (tuples paired when they can be)."""
    if isinstance(target, ast.Name):
        return [(target.id, value)]
    if isinstance(target, ast.Tuple | ast.List):
        values: list[ast.expr | None] = [None] * len(target.elts)
        if isinstance(value, ast.Tuple | ast.List) and len(value.elts) == len(target.elts):
            values = list(value.elts)
        return [pair for t, v in zip(target.elts, values, strict=True)
                for pair in _assigned(t, v)]
    return []


def _other_enum(value: ast.expr | None) -> bool:
    """``X.NAME`` of some other enum (``stress.Verdict.OK``): a different concept that shares
    a name, not a kernel status."""
    return (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)
            and value.value.id != "Status")


def status_definitions() -> dict[str, list[str]]:
    """Module -> the status names it binds at module level (imports do not count)."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            pairs: list[tuple[str, ast.expr | None]] = []
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    pairs += _assigned(target, node.value)
            elif isinstance(node, ast.AnnAssign):
                pairs += _assigned(node.target, node.value)
            names = [name for name, value in pairs if name in NAMES and not _other_enum(value)]
            if names:
                found.setdefault(str(path.relative_to(PACKAGE)), []).extend(names)
    return found


def test_status_names_are_defined_once():
    found = status_definitions()
    assert set(found) == {"engine/status.py"}, found
    assert sorted(found["engine/status.py"]) == sorted(NAMES)


def test_the_ints_are_the_enum():
    values = [int(s) for s in Status]
    assert len(set(values)) == len(values)
    for s in Status:
        assert getattr(st, s.name) == int(s)


class _Game:
    name, max_moves = "Nim", 3


MESSAGES = {
    Status.TOO_MANY_POSITIONS: (LimitError, "more than 1,000 positions; raise max_positions "
                                "if the memory allows"),
    Status.TOO_DEEP: (LimitError, "a line deeper than 50 plies (at 7); raise max_depth"),
    Status.CYCLE: (GameError, "position 7 repeats along a line of play: proof search takes "
                   "acyclic games only (a game that defines tier is); use solve, which "
                   "certifies draws in cyclic games"),
    Status.BAD_MOVE_COUNT: (GameError, "Nim: moves(7) returned a count outside 0..max_moves "
                            "(3)"),
    Status.BAD_SEARCH_MOVES: (GameError, "Nim: moves or search_moves(7) returned a count "
                              "outside 0..max_moves (3), or search_moves listed no move "
                              "where moves has some"),
    Status.BAD_OUTCOME: (GameError, "Nim: outcome(7) is not 0 (ONGOING), 1 (WIN), 2 (LOSE) "
                         "or 3 (TIE)"),
    Status.BAD_PLAYER: (GameError, "Nim: player(7) is not 0 or 1"),
    Status.BAD_CODE: (GameError, "Nim: a move from 7 leads to code -2**63, which cannot be "
                      "a position"),
    Status.BAD_TIER: (GameError, "Nim: a move from 7 does not go to a strictly higher tier"),
    Status.OVERFLOW: (GameError, "Nim: the point margin at 7 overflows int64"),
    Status.BEYOND_LIMIT: (GameError, "Nim: a margin at 7 is beyond +-1,000, more than proof "
                          "search's table holds; use solve"),
    Status.BAD_PAYOFF_SIGN: (GameError, "Nim: the payoff of move 7 has the wrong sign for a "
                             "cost game (one player's payoffs all <= 0, the other's >= 0)"),
}


@pytest.mark.parametrize("status", list(Status), ids=lambda s: s.name)
def test_each_status_has_its_exception(status):
    if status in (Status.OK, Status.ABORTED):
        with pytest.raises(ValueError, match="not an error"):
            status_error(status, 7, _Game(), limit=1000, max_depth=50)
        return
    kind, message = MESSAGES[status]
    exc = status_error(int(status), 7, _Game(), limit=1000, max_depth=50)
    assert type(exc) is kind
    assert str(exc) == message
    with pytest.raises(kind):
        raise_status(int(status), 7, _Game(), 1000, max_depth=50)


def test_ok_raises_nothing_and_an_unknown_code_is_named():
    raise_status(st.OK, 7, _Game())
    assert str(status_error(99, 7, _Game())) == "Nim: status 99 at 7"
