"""Every web request has a time budget and no request holds the server (issue 68): /gamesman
answers a position off the event loop within its budget (503 with Retry-After past it, never
a hang); a half-sent body is refused after its read timeout; a client that leaves mid-upload
is one log line. Tiny budgets, so nothing waits long."""

from __future__ import annotations

import asyncio
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
