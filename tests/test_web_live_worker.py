"""The live lane of the web worker (web/worker.py): live searches run in a process of their
own, side by side and bounded; a small request is answered while they run; a client that
leaves cancels its search in the worker; and a worker that hangs or dies is replaced
without losing the answers of the requests beside it.

Every wait is for an event (a line, a file, a process' end) under a generous bound, never a
wall-clock latency: the machine may be loaded."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import threading
import time
from pathlib import Path

import pytest

from heavy_cases import echo, sleepy, stubborn, until_stopped
from perfectplay.web import worker
from perfectplay.web.worker import LIVE_SEARCHES, Busy, HeavyPool

#: The longest any event here may take (a worker's start on a loaded machine included).
PATIENCE = 120.0


async def _first_line(lines) -> object:
    return json.loads(await asyncio.wait_for(anext(lines), PATIENCE))


def test_small_and_live_requests_are_answered_beside_four_live_searches():
    """Four live searches hold the live worker (each runs until stopped): a live board,
    in the same worker, is answered while they run; a fifth search is refused at once
    (503), not queued behind them."""
    async def main() -> tuple[list[object], object, bool]:
        pool = HeavyPool(slots=1, seconds=PATIENCE)
        searches = [pool.stream(until_stopped, "g", {"seconds": 600}, lane="live")
                    for _ in range(LIVE_SEARCHES)]
        try:
            started = [await _first_line(s) for s in searches]
            answer = json.loads(await pool.run(echo, "g", {"n": 0}, lane="live"))
            fifth = pool.stream(until_stopped, "g", {}, lane="live")
            with pytest.raises(Busy, match="busy with 4 live searches"):
                await anext(fifth)
            running = pool.live is not None and pool.live.searching == LIVE_SEARCHES
            return started, answer, running
        finally:
            for s in searches:
                await s.aclose()
            pool.close()

    started, answer, running = asyncio.run(main())
    assert started == [{"started": True}] * LIVE_SEARCHES
    assert answer == {"game": "g", "n": 0}
    assert running  # every search still held its slot when the others were answered


def test_a_client_that_leaves_cancels_its_search_in_the_worker(tmp_path: Path):
    """Through HTTP (uvicorn, a real socket): the client reads the stream's first line and
    closes its connection; the server cancels the search, whose worker sees its stop event
    (the search writes its flag file) and frees the search's slot."""
    uvicorn = pytest.importorskip("uvicorn")
    from starlette.applications import Starlette
    from starlette.responses import StreamingResponse
    from starlette.routing import Route

    pool = HeavyPool(slots=1, seconds=PATIENCE)
    flag = tmp_path / "stopped"

    async def search(_request):
        lines = pool.stream(until_stopped, "g", {"flag": str(flag)}, lane="live")

        async def body():
            try:
                async for line in lines:
                    yield line + b"\n"
            finally:
                await lines.aclose()

        return StreamingResponse(body(), media_type="application/x-ndjson")

    app = Starlette(routes=[Route("/search", search)])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.05)
        client = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
        client.sendall(b"GET /search HTTP/1.1\r\nHost: t\r\n\r\n")
        seen = b""
        while b'{"started":true}' not in seen:
            chunk = client.recv(4096)
            assert chunk, "the server closed the stream before its first line"
            seen += chunk
        assert not flag.exists()  # the search runs until it is stopped
        client.close()  # the client leaves
        deadline = time.monotonic() + PATIENCE
        while not flag.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert flag.read_text() == "stopped"  # the worker's stop event was set
        while pool.live is not None and pool.live.searching and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pool.live is not None and pool.live.searching == 0  # its slot is free
    finally:
        server.should_exit = True
        thread.join(30)
        pool.close()


def test_a_hung_search_replaces_the_worker_once_the_searches_beside_it_answer(monkeypatch):
    """A cancelled search that never looks at its stop event (numba compiling, say) past
    CANCEL_SECONDS gets its live worker replaced: the next request goes to a new worker at
    once, while the search that ran beside it in the old one still gets its whole answer;
    the old worker is stopped when that answer is in."""
    monkeypatch.setattr(worker, "CANCEL_SECONDS", 0.5)

    async def main() -> tuple[object, list[object], bool, bool]:
        pool = HeavyPool(slots=1, seconds=PATIENCE)
        live = pool.lane("live")
        hung = pool.stream(stubborn, "g", {"seconds": 600}, lane="live")
        beside = pool.stream(stubborn, "g", {"seconds": 3}, lane="live")
        try:
            assert await _first_line(hung) == {"started": True}
            old = live._worker
            assert old is not None
            lines = [await _first_line(beside)]
            await hung.aclose()  # the page asked another position
            while live._worker is old:
                await asyncio.sleep(0.05)  # reaped after CANCEL_SECONDS
            answer = json.loads(await live.run(echo, "g", {"n": 7}))
            new_worker = live._worker is not None and live._worker is not old
            lines += [json.loads(line) async for line in beside]
            for _ in range(int(PATIENCE / 0.05)):
                if not old.process.is_alive():
                    break
                await asyncio.sleep(0.05)
            return answer, lines, new_worker, old.process.is_alive()
        finally:
            pool.close()

    answer, lines, new_worker, old_alive = asyncio.run(main())
    assert answer == {"game": "g", "n": 7} and new_worker
    assert lines == [{"started": True}, {"stopped": False}]  # answered whole, beside the hang
    assert not old_alive  # stopped once its last request had answered


def test_a_worker_killed_from_outside_is_replaced_and_its_request_answered():
    """The live worker dies (SIGKILL: the out-of-memory killer, say) while it answers a
    request: the request is asked again of its replacement and answered, not lost."""
    async def main() -> tuple[object, bool]:
        pool = HeavyPool(slots=1, seconds=PATIENCE)
        live = pool.lane("live")
        try:
            task = asyncio.create_task(live.run(sleepy, "g", {"seconds": 1.0}))
            while live._worker is None or not live._worker.started:
                await asyncio.sleep(0.02)  # the worker has begun the request
            old = live._worker
            os.kill(old.process.pid, signal.SIGKILL)
            answer = json.loads(await asyncio.wait_for(task, PATIENCE))
            return answer, live._worker is not old
        finally:
            pool.close()

    answer, replaced = asyncio.run(main())
    assert answer == {"slept": 1.0} and replaced


@pytest.mark.skipif(not worker.NICE_PER_THREAD, reason="nice is per thread on Linux only")
def test_live_searches_run_at_a_lower_priority_than_a_board_beside_them():
    """The live worker's searches (and the threads they start) yield the CPU: their nice
    value is LANE_NICE["live"] above that of a board answered in the same worker."""
    from heavy_cases import niceness, niceness_stream

    async def main() -> tuple[object, list[object]]:
        pool = HeavyPool(slots=1, seconds=PATIENCE)
        try:
            board = json.loads(await pool.run(niceness, "g", {}, lane="live"))
            lines = [json.loads(line) async for line in pool.stream(
                niceness_stream, "g", {}, lane="live")]
            return board, lines
        finally:
            pool.close()

    board, lines = asyncio.run(main())
    step = worker.LANE_NICE["live"]
    base = board["nice"]
    assert lines == [{"nice": min(19, base + step), "its_threads": min(19, base + step)}]
