"""The web page's worker process for heavy requests: a cap on how many are in flight, a time
budget, and a fresh worker when a request overruns it.

A heavy request (a large board, an exact search, an O(n^2) option on a long row) runs in
one separate process, so its work never holds the server's interpreter: small requests keep
their latency while it runs. At most :attr:`HeavyPool.slots` heavy requests are in flight
(one runs, the others wait in the worker's queue); one more is refused at once (503 with
Retry-After). A request that takes longer than :attr:`HeavyPool.seconds` is answered 503
and its worker is killed and replaced, so no request can hold the worker for ever.

>>> pool = HeavyPool(slots=2, seconds=30.0)
>>> pool.busy, pool.slots
(0, 2)
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
from collections.abc import Callable
from multiprocessing.pool import Pool
from typing import Any

from .. import registry
from ..errors import PerfectplayError

#: The longest a new worker may take to import the games before requests go to it anyway.
STARTUP_SECONDS = 120.0


class Busy(Exception):
    """Every heavy slot is taken, or a heavy request overran its time budget: 503."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class WorkerError(Exception):
    """A request the worker refused (the message is for the client: 422)."""


def call(fn: Callable[[str, dict[str, Any]], Any], game: str, body: dict[str, Any]
         ) -> tuple[bool, Any]:
    """Run ``fn(game, body)`` in the worker: (True, the answer as JSON bytes, encoded here
    so the server's event loop never spends time on a large answer) or (False, the message
    of a refusal); the project's errors and the app's own refusals travel as text, since
    their constructors do not all survive pickling."""
    try:
        return True, json.dumps(fn(game, body), ensure_ascii=False, allow_nan=False,
                                separators=(",", ":")).encode("utf-8")
    except (PerfectplayError, ValueError) as exc:  # BadRequest, pydantic's errors, ...
        return False, str(exc)


def warm() -> int:
    """Import the games in a new worker and solve each one's demo instance, so numba's
    kernels are loaded (its first request then pays for neither)."""
    for spec in registry.games():
        if spec.demo:
            spec.solve_text(spec.demo, **spec.demo_options)
    return len(registry.games())


class HeavyPool:
    """One worker process for heavy requests, ``slots`` in flight, ``seconds`` each."""

    def __init__(self, slots: int, seconds: float) -> None:
        self.slots = slots
        self.seconds = seconds
        self.busy = 0
        self._pool: Pool | None = None
        self._ready: Any = None  # the new worker's warm-up (its imports)

    def start(self) -> None:
        """Start the worker now (the server's start-up) and let it import the games."""
        self._ensure()

    def _ensure(self) -> Pool:
        if self._pool is None:
            self._pool = multiprocessing.get_context("spawn").Pool(processes=1)
            self._ready = self._pool.apply_async(warm)
        return self._pool

    async def _started(self) -> Pool:
        """The worker, once its imports are done: a request's time budget counts its own
        work, not a new worker's start (a few seconds, numba's cache included)."""
        pool = self._ensure()
        ready = self._ready
        if ready is not None and not ready.ready():
            await asyncio.get_running_loop().run_in_executor(None, ready.wait, STARTUP_SECONDS)
        return pool

    def close(self) -> None:
        """Stop the worker (the server's shut-down, or an overrun)."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool = None

    async def run(self, fn: Callable[[str, dict[str, Any]], Any], game: str,
                  body: dict[str, Any]) -> Any:
        """``fn(game, body)`` in the worker, as JSON bytes, within the cap and the time
        budget."""
        if self.busy >= self.slots:
            raise Busy(f"the server is busy with {self.busy} large requests; try again in "
                       "a few seconds", retry_after=5)
        self.busy += 1
        try:
            loop = asyncio.get_running_loop()
            done: asyncio.Future[tuple[bool, Any]] = loop.create_future()

            def settle(value: Any = None, error: BaseException | None = None) -> None:
                if not done.done():
                    if error is not None:
                        done.set_exception(error)
                    else:
                        done.set_result(value)

            (await self._started()).apply_async(
                call, (fn, game, body),
                callback=lambda v: loop.call_soon_threadsafe(settle, v),
                error_callback=lambda e: loop.call_soon_threadsafe(settle, None, e))
            try:
                ok, answer = await asyncio.wait_for(done, self.seconds)
            except TimeoutError:
                self.close()  # the worker may run for hours: replace it
                raise Busy(f"the request took longer than {self.seconds:g} s, the page's "
                           "limit for one request (the command line has none)",
                           retry_after=10) from None
            if not ok:
                raise WorkerError(answer)
            return answer
        finally:
            self.busy -= 1
