"""The web page's worker (web/worker.py) behind an abandoned search: a request that waits
for its turn while a cancelled stream finishes something no stop event interrupts (numba
compiling the 7x6 Connect Four search, a minute on a loaded machine) is answered, by the
same worker or by the one that replaces it, and its own time budget starts at its turn; a
stream cancelled before its turn stops as it starts.

The paste box hit this: a paste right after opening standard Connect Four waited behind
the first search's compilation, its 30 s budget ran out in the queue, and the page showed
a 503 instead of the position."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest

from heavy_cases import echo, sleepy, stopped_at_start, stubborn
from perfectplay.web import worker
from perfectplay.web.worker import Busy, HeavyPool


async def _abandon(pool: HeavyPool, seconds: float) -> None:
    """Start a stubborn stream, read its first line, and leave (the page's new position)."""
    lines = pool.stream(stubborn, "g", {"seconds": seconds}, seconds=60.0)
    assert json.loads(await anext(lines)) == {"started": True}
    await lines.aclose()


def test_a_request_behind_an_abandoned_stream_is_answered():
    """Its budget (1 s) is shorter than the 3 s the cancelled stream still works: it is
    answered when the worker is free, not refused."""
    async def main() -> tuple[object, float]:
        pool = HeavyPool(slots=2, seconds=1.0)
        try:
            await _abandon(pool, 3.0)
            t = time.monotonic()
            answer = await pool.run(echo, "g", {"n": 1})
            return json.loads(answer), time.monotonic() - t
        finally:
            pool.close()

    answer, waited = asyncio.run(main())
    assert answer == {"game": "g", "n": 1}
    assert waited > 1.0  # it waited for the stream's end, longer than its own budget


def test_a_request_goes_to_the_new_worker_when_the_old_one_is_reaped(monkeypatch):
    """The cancelled stream outlasts CANCEL_SECONDS: its worker is killed and replaced, and
    the request that waited goes to the new one."""
    monkeypatch.setattr(worker, "CANCEL_SECONDS", 1.0)

    async def main() -> tuple[object, bool]:
        pool = HeavyPool(slots=2, seconds=30.0)
        try:
            pool.start()
            old = pool._worker
            await _abandon(pool, 600.0)
            answer = await pool.run(echo, "g", {"n": 2})
            return json.loads(answer), pool._worker is not old
        finally:
            pool.close()

    answer, replaced = asyncio.run(main())
    assert answer == {"game": "g", "n": 2} and replaced


def test_a_stream_cancelled_before_its_turn_stops_as_it_starts():
    """Cancel 2 reaches the worker while stream 1 runs: stream 2 starts stopped."""
    w = worker._Worker()
    try:
        got: dict[int, list[tuple[object, ...]]] = {1: [], 2: []}
        ended = {k: threading.Event() for k in got}

        def handler(k: int):
            def handle(message: tuple[object, ...]) -> None:
                got[k].append(message)
                if message[0] in ("end", "gone"):
                    ended[k].set()
            return handle

        w.submit("stream", 1, stubborn, "g", {"seconds": 1.0}, handler(1))
        while not any(m[0] == "item" for m in got[1]):
            time.sleep(0.01)  # stream 1 runs
        w.submit("stream", 2, stopped_at_start, "g", {}, handler(2))
        w.cancel(2)
        for k in got:
            assert ended[k].wait(60)
        items = [json.loads(m[1]) for m in got[2] if m[0] == "item"]
        assert items == [{"stopped": True}]
        assert [json.loads(m[1]) for m in got[1] if m[0] == "item"] == [
            {"started": True}, {"stopped": False}]
        assert [m[0] for m in got[2]] == ["start", "item", "end"]  # begun after stream 1
    finally:
        w.stop()


# -- a bad request is the same 4xx whichever process finds it (issue 68) -------------------------
#: Where the seed games' analyze and play endpoints live.
API = "/api/games"


def _bodies() -> list[tuple[str, bytes]]:
    """Every hostile or bad body of the web tests (test_web.py), as (path, raw body), and a
    seeded sample of the fuzzer's bodies; the 10,000 junk moves of the issue first."""
    import random

    from test_web import _TEXTS, HOSTILE

    out = [(f"{API}/coins/play", json.dumps({"row": [1, 2, 3, 4, 5],
                                             "moves": ["x"] * 10_000}).encode())]
    out += [(f"{API}/coins/{'play' if b'moves' in body else 'analyze'}", body)
            for body, _status, _words in HOSTILE]
    for path, body in [
            ("coins/analyze", {"row": []}), ("coins/analyze", {"row": [1.5]}),
            ("coins/analyze", {"row": [1, 2], "extra": 1}),
            ("coins/analyze", {"row": [1] * 100_001}),
            ("rock/analyze", {"text": "E..\n..."}), ("portal/analyze", {"text": "O.O",
                                                                        "kind": "tri"}),
            ("no/analyze", {"text": ""}), ("coins/play", {"row": [1, 2], "moves": ["Z"]}),
            ("no/play", {"text": "A*"}), ("rock/play", {"row": [1]}), ("rock/play", {}),
            ("coins/play", {"row": [1, 2], "moves": ["L", "R", "L"]})]:
        out.append((f"{API}/{path}", json.dumps(body).encode()))
    rng = random.Random(68)
    games = ["coins", "rock", "portal", "no"]
    pieces = ["L", "R", "pass", "a1", "b2", "c3", "x", ""]
    for _ in range(30):
        body: dict[str, object] = {}
        if rng.random() < 0.6:
            body["row"] = rng.choice([[rng.randint(-10**20, 10**20) for _ in range(
                rng.randint(0, 8))], "12", None])
        if rng.random() < 0.6:
            body["text"] = rng.choice(_TEXTS)
        if rng.random() < 0.3:
            body["kind"] = rng.choice(["square", "king", "hex", "tri", 3])
        if rng.random() < 0.5:
            body["moves"] = [rng.choice(pieces) for _ in range(rng.randint(0, 6))]
        if rng.random() < 0.3:
            body["humans"] = [rng.randint(-1, 2) for _ in range(rng.randint(0, 3))]
        if rng.random() < 0.3:
            body["strength"] = rng.choice([0.5, 2.0, float("nan"), float("inf")])
        what = rng.choice(["analyze", "play"])
        out.append((f"{API}/{rng.choice(games)}/{what}", json.dumps(body).encode()))
    return out


def test_every_bad_body_gets_the_same_4xx_on_the_heavy_path(monkeypatch):
    """Every hostile body of the web tests, sent down the worker's path too: never a 5xx.
    Counted heavy after the server's own checks (as a large request is), the answer is the
    server's path's byte for byte; sent to the worker unchecked (so the worker finds what is
    wrong), the status is the same. Found by the issue: 10,000 junk moves were heavy, the
    worker refused them, and the server answered 500."""
    import sys

    from starlette.testclient import TestClient

    from perfectplay.web import app as web

    sys.set_int_max_str_digits(0)  # as `perfectplay serve` leaves it
    bodies = _bodies()
    small = TestClient(web.create_app(), raise_server_exceptions=False)
    here = [small.post(path, content=raw, headers={"content-type": "application/json"})
            for path, raw in bodies]
    checked = web._small

    def heavy_after_the_checks(fn, game, body, play):
        checked(lambda *_: None, game, body, play)  # the server's checks, then the worker
        return web._HEAVY

    with TestClient(web.create_app(heavy_slots=1, heavy_seconds=60),
                    raise_server_exceptions=False) as heavy:
        monkeypatch.setattr(web, "_small", heavy_after_the_checks)
        after = [heavy.post(path, content=raw, headers={"content-type": "application/json"})
                 for path, raw in bodies]
        monkeypatch.setattr(web, "_small", lambda *_args: web._HEAVY)
        unchecked = [heavy.post(path, content=raw,
                                headers={"content-type": "application/json"})
                     for path, raw in bodies]
    for (path, raw), a, b, c in zip(bodies, here, after, unchecked, strict=True):
        assert a.status_code < 500 and b.status_code < 500, (path, raw[:80], b.text[:200])
        assert (b.status_code, b.content) == (a.status_code, a.content), (path, raw[:80])
        assert c.status_code == a.status_code, (path, raw[:80], c.text[:200])
        assert c.status_code == 200 or c.json()["detail"]
    assert after[0].status_code == 422 and "move 1 ('x') is not legal" in after[0].text
    assert unchecked[0].text == after[0].text


# -- small requests have a lane of their own (issue 68) -----------------------------------------
def test_a_small_request_is_answered_while_searches_hold_every_heavy_slot():
    """The page's small catalog games shared the heavy slots with 7x6 searches, and 94-96 %
    of them got 503 under mixed load: the small lane has its own worker and slots, so with
    the heavy slot taken (a search working 3 s) a large request is refused at once and a
    small one is answered before the search ends."""
    async def main() -> tuple[object, bool, object]:
        pool = HeavyPool(slots=1, seconds=30.0)
        try:
            search = asyncio.create_task(pool.run(sleepy, "g", {"seconds": 3.0}))
            await asyncio.sleep(0.1)
            with pytest.raises(Busy, match="busy with 1 large request"):
                await pool.run(echo, "g", {"n": 0})
            answer = await pool.run(echo, "g", {"n": 3}, lane="small")
            searching = not search.done()
            return json.loads(answer), searching, json.loads(await search)
        finally:
            pool.close()

    answer, searching, searched = asyncio.run(main())
    assert answer == {"game": "g", "n": 3} and searched == {"slept": 3.0}
    assert searching  # answered while the search still held the heavy worker
