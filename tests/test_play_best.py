"""Every front end marks as best only the moves as good as the best in value and remoteness:
the fastest win, the slowest loss (the engine's convention). Checked on every registered
game's play table through the web API, along random games from its start position."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from perfectplay import registry  # noqa: E402
from perfectplay.engine.protocol import Score, Value  # noqa: E402
from perfectplay.web.app import create_app  # noqa: E402

PLAYED = [spec.name for spec in registry.games("seed") if spec.play is not None]


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app())


def _value(v):
    return Value(v) if isinstance(v, str) else v


def _rank(move: dict) -> tuple:
    """A move's place in the engine's order; an unknown remoteness (an oracle that knows
    only that a move does not lose at once) counts as longer than any known one."""
    value, rem = _value(move["value"]), move["remoteness"]
    if rem is None:
        losing = value is Value.LOSE or (not isinstance(value, Value) and value < 0)
        return Score(value, 0).key[0], float("inf") if losing else float("-inf")
    return Score(value, rem).key


@pytest.mark.parametrize("game", PLAYED)
def test_best_marks_only_the_moves_as_good_as_the_best(client, game):
    spec = registry.get(game)
    start = spec.start_body()
    rng = random.Random(7)
    lost_with_choices = 0
    for _ in range(6):
        moves: list[str] = []
        for _ply in range(40):
            body = {**start, "moves": moves, "humans": [0, 1]}
            r = client.post(f"/api/games/{game}/play", json=body)
            assert r.status_code == 200, r.text
            d = r.json()
            if d["over"]:
                break
            listed = d["moves"]
            top = max(_rank(m) for m in listed)
            assert [m["best"] for m in listed] == [_rank(m) == top for m in listed], listed
            assert listed[0]["best"]
            if _value(listed[0]["value"]) is Value.LOSE and not all(m["best"] for m in listed):
                lost_with_choices += 1
            moves.append(rng.choice(listed)["name"])
    if game == "portal":  # the case that went wrong: cuts marked best beside safe moves
        assert lost_with_choices > 0
