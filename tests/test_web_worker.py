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

from heavy_cases import echo, stopped_at_start, stubborn
from perfectplay.web import worker
from perfectplay.web.worker import HeavyPool


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
        got: dict[int, list[object]] = {1: [], 2: []}
        threads = [threading.Thread(target=w.stream, args=(
            k, fn, "g", body, got[k].append, threading.Event()))
            for k, fn, body in [(1, stubborn, {"seconds": 1.0}), (2, stopped_at_start, {})]]
        threads[0].start()
        while not got[1]:
            time.sleep(0.01)  # stream 1 runs
        w.cancel(2)
        threads[1].start()
        for t in threads:
            t.join(60)
        items = [json.loads(m[1]) for m in got[2] if m[0] == "item"]
        assert items == [{"stopped": True}]
        assert [json.loads(m[1]) for m in got[1] if m[0] == "item"] == [
            {"started": True}, {"stopped": False}]
    finally:
        w.stop()
