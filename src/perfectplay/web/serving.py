"""Running the page's server until a signal stops it, cleanly: ``perfectplay serve``.

uvicorn handles SIGINT and SIGTERM while it serves: it stops taking connections, lets the
requests in flight finish, runs the app's shut-down, then raises the signal again to the
handler it found. :func:`run_until_stopped` installs that handler, so the signal ends the
run with its number (no KeyboardInterrupt, no death by SIGTERM), and its server stops the
app's worker process as soon as the shut-down begins (:meth:`.worker.HeavyPool.stop`): a
heavy request in flight is answered at once (503) instead of holding the stop for its whole
budget, and the worker, which ignores SIGINT, prints nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect

#: The signals that stop the server.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: Seconds a client has to send a request's whole body, from the request's start: past
#: them the request is answered 408 and its connection closed (a half-sent body held the
#: server's connection for as long as the client liked).
BODY_SECONDS = 10.0

log = logging.getLogger("perfectplay.web")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyTimeout(Exception):
    """The client did not send the request's whole body within :data:`BODY_SECONDS`."""


class GuardedBodies:
    """ASGI middleware around the page's app: a request's body must arrive whole within
    :data:`BODY_SECONDS` (else 408, and the connection is closed), and a client that leaves
    before sending it all is one line in the log (a warning naming the request), not an
    error with a traceback. Once the body is whole, the app's reads (a streaming answer
    waiting for the client to leave) pass through untimed.

    ``seconds``: the budget (default :data:`BODY_SECONDS`, read at each request).

    >>> GuardedBodies(app=None, seconds=2.0).seconds
    2.0
    """

    def __init__(self, app: ASGIApp, seconds: float | None = None) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        seconds = BODY_SECONDS if self.seconds is None else self.seconds
        deadline = asyncio.get_running_loop().time() + seconds
        whole = scope["method"] in ("GET", "HEAD", "OPTIONS")
        started = False

        async def timed_receive() -> Message:
            nonlocal whole
            if whole:
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise BodyTimeout from None
            whole = message["type"] != "http.request" or not message.get("more_body")
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        where = f"{scope['method']} {scope.get('path', '')[:200]}"
        try:
            await self.app(scope, timed_receive, watched_send)
        except ClientDisconnect:
            log.warning("a client left before sending its whole request (%s)", where)
        except BodyTimeout:
            log.warning("a request's body did not arrive whole within %g s; answered 408 "
                        "(%s)", seconds, where)
            if not started:
                await _refuse_slow_body(send, seconds)


async def _refuse_slow_body(send: Send, seconds: float) -> None:
    """408 with a JSON ``detail``, and the connection closed (what is left of the body
    would be read as the next request)."""
    body = json.dumps({"detail": f"the request's body did not arrive whole within "
                                 f"{seconds:g} s"}).encode("utf-8")
    await send({"type": "http.response.start", "status": 408, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class StoppingServer(uvicorn.Server):
    """uvicorn's server, which calls ``on_stop`` as soon as it begins to shut down."""

    def __init__(self, config: uvicorn.Config, on_stop: Any) -> None:
        super().__init__(config)
        self._on_stop = on_stop

    async def shutdown(self, sockets: Any = None) -> None:
        self._on_stop()
        await super().shutdown(sockets=sockets)


class _Stop(Exception):
    """A stop signal, raised in the main thread once uvicorn has shut down."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_stop(signum: int, _frame: Any) -> None:
    raise _Stop(signum)


def show_warnings() -> None:
    """The server's warnings (:data:`log`: a client that left mid-upload, a body past its
    read timeout) as one line each on stderr, ``perfectplay: ...``, as the command line
    writes its own (the library itself adds no handler)."""
    if not any(getattr(h, "perfectplay_serve", False) for h in log.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("perfectplay: %(message)s"))
        handler.setLevel(logging.WARNING)
        handler.perfectplay_serve = True  # type: ignore[attr-defined]
        log.addHandler(handler)


def run_until_stopped(app: Starlette, host: str, port: int) -> int | None:
    """Serve ``app`` (made by :func:`.app.create_app`) on ``host:port`` until it stops; the
    signal that stopped it (SIGINT or SIGTERM), or None when it stopped by itself. Must run
    in the main thread (signals are delivered there)."""
    server = StoppingServer(uvicorn.Config(app, host=host, port=port, log_level="warning"),
                            on_stop=app.state.heavy.stop)
    app.state.heavy.start(every_lane=True)  # every lane's worker starts, the live one warmed
    show_warnings()
    before = {sig: signal.signal(sig, _raise_stop) for sig in STOP_SIGNALS}
    try:
        server.run()
    except _Stop as stop:
        return stop.signum
    except KeyboardInterrupt:  # SIGINT before our handler was in place
        return signal.SIGINT
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
    return None
