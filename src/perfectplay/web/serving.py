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

import signal
from typing import Any

import uvicorn
from starlette.applications import Starlette

#: The signals that stop the server.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


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


def run_until_stopped(app: Starlette, host: str, port: int) -> int | None:
    """Serve ``app`` (made by :func:`.app.create_app`) on ``host:port`` until it stops; the
    signal that stopped it (SIGINT or SIGTERM), or None when it stopped by itself. Must run
    in the main thread (signals are delivered there)."""
    server = StoppingServer(uvicorn.Config(app, host=host, port=port, log_level="warning"),
                            on_stop=app.state.heavy.stop)
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
