"""Every web request has a time budget and no request holds the server (issue 68): /gamesman
answers a position off the event loop within its budget (503 with Retry-After past it, never
a hang); a half-sent body is refused after its read timeout; a client that leaves mid-upload
is one log line. Tiny budgets, so nothing waits long."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

import pytest

pytest.importorskip("starlette")
import httpx2 as httpx  # noqa: E402
from starlette.applications import Starlette  # noqa: E402

from perfectplay.engine import solve  # noqa: E402
from perfectplay.web import gamescrafters  # noqa: E402


class Take:
    """Take 1 or 2 from a heap of 4; who cannot move loses."""

    def initial(self) -> int:
        return 4

    def moves(self, n: int) -> list[int]:
        return [k for k in (1, 2) if k <= n]

    def play(self, n: int, k: int) -> int:
        return n - k

    def outcome(self, n: int) -> None:
        return None


class Stalled:
    """A solved game whose look-ups wait for ``release`` (at most 5 s): a live position's
    search, which took 88-136 s on the server's event loop in the issue."""

    def __init__(self, release: threading.Event) -> None:
        self.solved = solve(Take())
        self.release = release

    def __getattr__(self, name: str) -> Any:
        return getattr(self.solved, name)

    def value(self, pos: Any = None) -> Any:
        self.release.wait(5.0)
        return self.solved.value(pos)


def _app(solved: Any) -> Starlette:
    return Starlette(routes=gamescrafters.routes(solved, "take", "Take"))


POSITION = "/gamesman/perfectplay-take/standard/positions/"


def test_a_slow_gamesman_position_is_503_within_its_budget(monkeypatch):
    """A position whose look-up outlasts the budget (0.3 s here) is answered 503 with
    Retry-After at once, while other requests are answered; a second position while it
    still works is refused at once; once it has finished, the retry is answered."""
    monkeypatch.setattr(gamescrafters, "GAMESMAN_SECONDS", 0.3, raising=False)
    release = threading.Event()
    app = _app(Stalled(release))

    async def main() -> tuple[Any, ...]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            t = time.monotonic()
            slow, listing = await asyncio.gather(c.get(POSITION), c.get("/gamesman/"))
            waited = time.monotonic() - t
            busy = await c.get(POSITION + "?p=3")
            release.set()
            for _ in range(100):  # the abandoned look-up ends, its answer kept
                again = await c.get(POSITION)
                if again.status_code == 200:
                    break
                await asyncio.sleep(0.05)
            return slow, listing, waited, busy, again

    slow, listing, waited, busy, again = asyncio.run(main())
    assert slow.status_code == 503 and int(slow.headers["retry-after"]) > 0
    assert "0.3 s" in slow.json()["error"]
    assert listing.status_code == 200 and listing.json()[0]["id"] == "perfectplay-take"
    assert waited < 3.0  # not the 5 s the look-up would have held the event loop
    assert busy.status_code == 503 and "retry-after" in busy.headers
    assert again.status_code == 200 and again.json()["positionValue"] == "win"


# -- request bodies ------------------------------------------------------------------------------
async def _post(app: Any, chunks: list[bytes], then: str) -> tuple[list[dict[str, Any]], bool]:
    """POST ``chunks`` of a body to the ASGI ``app`` straight, then ``then``: "hang" (the
    client sends nothing more) or "leave" (it disconnects); the messages the app sent and
    whether it raised."""
    messages = [{"type": "http.request", "body": c, "more_body": True} for c in chunks]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop(0)
        if then == "leave":
            return {"type": "http.disconnect"}
        await asyncio.Event().wait()  # a client that never sends the rest
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/echo",
             "raw_path": b"/echo", "query_string": b"", "root_path": "",
             "headers": [(b"content-type", b"application/json"),
                         (b"content-length", b"1000")],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000)}
    try:
        await asyncio.wait_for(app(scope, receive, send), 5.0)
    except Exception:  # noqa: BLE001 - what uvicorn would log as a traceback
        return sent, True
    return sent, False


def _reader() -> Starlette:
    """An app that reads each body whole, behind the page's middleware (the page's own
    app has it: :func:`test_the_page_guards_its_bodies`)."""
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from perfectplay.web.app import create_app

    async def echo(request: Request) -> Response:
        return Response(await request.body())

    page = create_app()
    return Starlette(routes=[Route("/echo", echo, methods=["POST"])],
                     middleware=page.user_middleware)


def test_the_page_guards_its_bodies():
    from perfectplay.web.app import create_app
    from perfectplay.web.serving import GuardedBodies

    assert [m.cls for m in create_app().user_middleware][:1] == [GuardedBodies]


def test_a_half_sent_body_is_refused_after_its_read_timeout(monkeypatch):
    """400 half-sent bodies were held 90 s: a body not whole within BODY_SECONDS (0.2 s
    here) is answered 408 and the connection closed."""
    from perfectplay.web import serving

    monkeypatch.setattr(serving, "BODY_SECONDS", 0.2, raising=False)
    t = time.monotonic()
    sent, raised = asyncio.run(_post(_reader(), [b'{"row": [1, 2'], "hang"))
    assert not raised and time.monotonic() - t < 3.0
    start = next(m for m in sent if m["type"] == "http.response.start")
    assert start["status"] == 408 and (b"connection", b"close") in start["headers"]
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    assert b"0.2 s" in body


def test_a_client_that_leaves_mid_upload_is_one_log_line(caplog):
    """Every client that left mid-upload left a 43-line traceback in the server's log: it
    is one line now (a warning), and nothing is raised to the server."""
    with caplog.at_level(logging.INFO):
        sent, raised = asyncio.run(_post(_reader(), [b'{"row": [1, 2'], "leave"))
    assert not raised
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1 and "left before" in lines[0].getMessage()
    assert "\n" not in lines[0].getMessage() and lines[0].exc_info is None
