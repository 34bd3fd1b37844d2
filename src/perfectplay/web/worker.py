"""The web page's worker process for heavy requests: a cap on how many are in flight, a time
budget, and a fresh worker when a request overruns it.

A heavy request (a large board, an exact search, an O(n^2) option on a long row) runs in
one separate process, so its work never holds the server's interpreter: small requests keep
their latency while it runs. At most :attr:`HeavyPool.slots` heavy requests are in flight
(one runs, the others wait their turn); one more is refused at once (503 with
Retry-After). A request that takes longer than :attr:`HeavyPool.seconds` is answered 503
and its worker is killed and replaced, so no request can hold the worker for ever. The
budget counts from the request's turn on the worker, not its wait behind the one before
(which ends within that one's own budget): a request waiting behind an abandoned search
that is still compiling is answered, by the same worker or by the one that replaced it.

The worker is one spawned process and a pipe that only it and the server use (not a
``multiprocessing.Pool``, whose shared queue lock, held by an idle worker, is never freed
when that worker is killed from outside, and then hangs the server's shut-down). It ignores
SIGINT from its first instruction: Ctrl-C in a terminal reaches every process of the
foreground group, and only the server answers it, by stopping the worker
(:meth:`HeavyPool.close`) as it shuts down, so no worker prints a traceback. A worker killed
from outside (SIGTERM to the whole group, the kernel's out-of-memory killer) fails only the
requests it held (503) and is replaced by the next one.

>>> pool = HeavyPool(slots=2, seconds=30.0)
>>> pool.busy, pool.slots
(0, 2)
"""

from __future__ import annotations

import asyncio
import itertools
import json
import multiprocessing
import queue
import signal
import threading
import time
from collections.abc import AsyncGenerator, Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from .. import registry
from ..errors import PerfectplayError

#: The longest a new worker may take to import the games before requests go to it anyway.
STARTUP_SECONDS = 120.0
#: How long a stopped worker gets to end after SIGTERM before it is killed outright.
STOP_SECONDS = 5.0
#: How long a cancelled stream (a search the page no longer wants) may take to stop in the
#: worker before the worker is killed and replaced: cancelling is real either way. A search
#: sees its stop event within milliseconds; the grace is for the one thing no event
#: interrupts, numba compiling an instance's kernels on its first request (10-35 s measured
#: for 7x6 Connect Four on a loaded 2-core machine), which a replaced worker would only
#: have to do again.
CANCEL_SECONDS = 60.0


class Busy(Exception):
    """Every heavy slot is taken, or a heavy request overran its time budget: 503."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class WorkerError(Exception):
    """A request the worker refused (the message is for the client: 422)."""


class WorkerGone(Exception):
    """The worker ended (stopped by the server, or killed from outside) before it answered."""


def call(fn: Callable[[str, dict[str, Any]], Any], game: str, body: dict[str, Any]
         ) -> tuple[bool | None, Any]:
    """Run ``fn(game, body)`` in the worker: (True, the answer as JSON bytes, encoded here
    so the server's event loop never spends time on a large answer), (False, the message
    of a refusal) or (None, what failed: a bug, a 500); the project's errors and the app's
    own refusals travel as text, since their constructors do not all survive pickling."""
    try:
        return True, json.dumps(fn(game, body), ensure_ascii=False, allow_nan=False,
                                separators=(",", ":")).encode("utf-8")
    except (PerfectplayError, ValueError) as exc:  # BadRequest, pydantic's errors, ...
        return False, str(exc)
    except Exception as exc:  # noqa: BLE001 - the server reports it, the worker lives on
        return None, f"{type(exc).__name__}: {exc}"


def warm() -> int:
    """Import the games in a new worker and solve each one's demo instance, so numba's
    kernels are loaded (its first request then pays for neither)."""
    for spec in registry.games():
        if spec.demo:
            spec.solve_text(spec.demo, **spec.demo_options)
    return len(registry.games())


def ignore_sigint() -> None:
    """A worker's first act: SIGINT is the server's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while this (main) thread starts a worker: a spawned process keeps an
    ignored signal ignored through exec, so a Ctrl-C while it is still importing (before
    :func:`ignore_sigint` runs) cannot interrupt it. (A Ctrl-C within the few milliseconds
    of the start itself is ignored by the server too: press it again.)"""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals are the main thread's: this is a test's server
        return
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        if handler is not None:  # None: a handler set outside Python, left as it is
            signal.signal(signal.SIGINT, handler)


#: What a request's future gives (the worker's answer, or None for a stream).
T = TypeVar("T")
#: A streaming request's function: (game, body, stop) -> the JSON-ready things it yields.
Streamer = Callable[[str, Mapping[str, object], threading.Event], Iterator[object]]
#: A message of a stream on the pipe: ("item", bytes), ("end", ok, text) or ("gone",).
Message = tuple[object, ...]


def stream_call(fn: Streamer, game: str, body: Mapping[str, object], stop: threading.Event
                ) -> Iterator[Message]:
    """Run the streaming ``fn(game, body, stop)`` in the worker: ("item", JSON bytes) for
    each thing it yields, then ("end", ok, message) as :func:`call` reports its end (ok
    True: finished or stopped by ``stop``)."""
    try:
        for item in fn(game, body, stop):
            yield "item", json.dumps(item, ensure_ascii=False, allow_nan=False,
                                     separators=(",", ":")).encode("utf-8")
        yield "end", True, None
    except (PerfectplayError, ValueError) as exc:
        yield "end", False, str(exc)
    except Exception as exc:  # noqa: BLE001 - the server reports it, the worker lives on
        yield "end", None, f"{type(exc).__name__}: {exc}"


def serve_requests(conn: Connection) -> None:
    """The worker's life: ignore SIGINT, warm up, say so, then answer each request the
    server sends until the server closes the pipe (or stops the worker).

    A reader thread takes every message off the pipe: a request goes to the queue this
    (main) thread answers in order, a ``("cancel", id)`` sets the stop event of stream
    ``id`` if it is the one running (a cancel that arrives after its stream ended is
    dropped; one that arrives before its stream starts stops it at its start), so a search
    the page abandoned stops within its next check of the event."""
    ignore_sigint()
    with suppress(Exception):  # a failing demo is that game's requests' problem
        warm()
    conn.send(True)
    jobs: queue.Queue[tuple[Any, ...] | None] = queue.Queue()
    running: dict[int, threading.Event] = {}
    early: set[int] = set()  # streams cancelled while still on their way
    last = [0]  # the last stream started (a later cancel for an older one is dropped)
    lock = threading.Lock()

    def read() -> None:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                jobs.put(None)  # the server is gone
                return
            if message[0] == "cancel":
                with lock:
                    stop = running.get(message[1])
                    if stop is None and message[1] > last[0]:
                        early.add(message[1])  # cancelled before it started
                if stop is not None:
                    stop.set()
            else:
                jobs.put(message)

    threading.Thread(target=read, daemon=True, name="perfectplay-heavy-reader").start()
    while (job := jobs.get()) is not None:
        if job[0] == "call":
            conn.send(call(*job[1:]))
            continue
        _, ident, fn, game, body = job
        stop = threading.Event()
        with lock:
            running[ident] = stop
            last[0] = ident
            if ident in early:
                early.discard(ident)
                stop.set()  # it ends at its first check, with what it has (nothing)
        try:
            for message in stream_call(fn, game, body, stop):
                conn.send(message)
        finally:
            with lock:
                del running[ident]


class _Worker:
    """One worker process and the server's end of its pipe: one request on the pipe at a
    time, asked from a thread (the server's event loop never blocks on it)."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=serve_requests, args=(child,), daemon=True,
                                   name="perfectplay-heavy")
        with sigint_ignored():
            self.process.start()
        child.close()  # the worker's end lives in the worker only: its death is our EOF
        self.ready = threading.Event()  # set once the warm-up is over (or the worker gone)
        self.turn = threading.Lock()  # one request on the pipe at a time
        self.sending = threading.Lock()  # a cancel is sent while a stream holds the turn
        self.closed = threading.Event()  # set by stop(): no request is sent to it after
        threading.Thread(target=self._wait_ready, daemon=True,
                         name="perfectplay-heavy-ready").start()

    def _wait_ready(self) -> None:
        with suppress(EOFError, OSError):  # the worker died while warming up
            self.conn.recv()
        self.ready.set()

    def _send(self, request: tuple[object, ...], sent: threading.Event) -> None:
        """Send ``request`` (the caller holds the turn) and set ``sent``; :class:`WorkerGone`
        without ``sent`` if the worker was stopped while the caller waited for its turn
        (the request was never sent: the pool gives it to the next worker)."""
        if self.closed.is_set():
            raise WorkerGone
        with self.sending:
            self.conn.send(request)
        sent.set()

    def ask(self, fn: Callable[[str, dict[str, Any]], Any], game: str,
            body: dict[str, Any], sent: threading.Event) -> tuple[bool | None, Any]:
        """``call(fn, game, body)`` in the worker (blocking: run it in a thread); ``sent``
        is set when the request goes on the pipe (its turn came)."""
        self.ready.wait()
        with self.turn:
            try:
                self._send(("call", fn, game, body), sent)
                answer: tuple[bool | None, Any] = self.conn.recv()
            except (EOFError, OSError):
                raise WorkerGone from None
            return answer

    def stream(self, ident: int, fn: Streamer, game: str, body: Mapping[str, object],
               push: Callable[[Message], None], sent: threading.Event) -> None:
        """:func:`stream_call` in the worker, each message handed to ``push`` as it comes
        (blocking: run it in a thread); ``("gone",)`` if the worker ends first, ``sent``
        set when the request goes on the pipe."""
        self.ready.wait()
        with self.turn:
            try:
                self._send(("stream", ident, fn, game, body), sent)
                while True:
                    message: Message = self.conn.recv()
                    push(message)
                    if message[0] == "end":
                        return
            except (EOFError, OSError):
                push(("gone",))

    def cancel(self, ident: int) -> None:
        """Ask the worker to stop stream ``ident`` (dropped there if it has ended)."""
        with suppress(OSError), self.sending:
            self.conn.send(("cancel", ident))

    def stop(self) -> None:
        """End the worker: SIGTERM (it dies at once, even inside a compiled kernel), SIGKILL
        if it lingers; the threads waiting on its pipe then see it closed."""
        self.closed.set()
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(STOP_SECONDS)
            if self.process.is_alive():
                self.process.kill()
        self.process.join()


class HeavyPool:
    """One worker process for heavy requests, ``slots`` in flight, ``seconds`` each."""

    def __init__(self, slots: int, seconds: float) -> None:
        self.slots = slots
        self.seconds = seconds
        self.busy = 0
        self.stopping = False
        self._worker: _Worker | None = None
        self._ids = itertools.count(1)

    def start(self) -> None:
        """Start the worker now (the server's start-up) and let it import the games."""
        self._ensure()

    def _ensure(self) -> _Worker:
        self._refuse_if_stopping()
        if self._worker is None or not self._worker.process.is_alive():
            if self._worker is not None:
                self._worker.stop()  # killed from outside: reap it
            self._worker = _Worker()
        return self._worker

    async def _started(self) -> _Worker:
        """The worker, once its imports are done: a request's time budget counts its own
        work, not a new worker's start (a few seconds, numba's cache included). Polled, not
        waited for in a thread, so a shut-down cancels it at once."""
        worker = self._ensure()
        deadline = time.monotonic() + STARTUP_SECONDS
        while not worker.ready.is_set() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return worker

    def close(self) -> None:
        """Stop the worker (the server's shut-down, or an overrun)."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.stop()

    def stop(self) -> None:
        """The server is stopping: stop the worker now, so the heavy requests in flight are
        answered (503) at once instead of holding the shut-down for their whole budget, and
        start no other."""
        self.stopping = True
        self.close()

    def _refuse_if_stopping(self) -> None:
        if self.stopping:
            raise Busy("the server is stopping; try again when it is back", retry_after=10)

    def _admit(self, seconds: float | None) -> float:
        """Take a slot for one request (or refuse it: the server stopping, every slot
        taken) and return its time budget; the caller gives the slot back."""
        self._refuse_if_stopping()
        if self.busy >= self.slots:
            raise Busy(f"the server is busy with {self.busy} large requests; try again in "
                       "a few seconds", retry_after=5)
        self.busy += 1
        return self.seconds if seconds is None else seconds

    async def _sent(self, start: Callable[[_Worker, threading.Event], asyncio.Future[T]]
                    ) -> tuple[_Worker, asyncio.Future[T]]:
        """Start a request on the worker (``start(worker, sent)`` runs it in a thread) and
        wait for its turn on the pipe: the worker and the request's future.

        The wait is not the request's time: the request before it ends within its own
        budget, a cancelled stream within :data:`CANCEL_SECONDS` (then its worker is
        replaced). A request whose worker was stopped while it waited was never sent: it
        goes to the next worker (so a paste after an abandoned search is answered, not
        refused). Polled, so a shut-down cancels the wait at once."""
        for _ in range(3):
            worker = await self._started()
            self._refuse_if_stopping()
            sent = threading.Event()
            job = start(worker, sent)
            while not sent.is_set() and not job.done():
                await asyncio.sleep(0.02)
            if sent.is_set() or not isinstance(job.exception(), WorkerGone):
                return worker, job
            if self._worker is worker:
                self.close()
        self._refuse_if_stopping()
        raise Busy("the worker for large requests keeps stopping; try again in a few "
                   "seconds", retry_after=5)

    async def run(self, fn: Callable[[str, dict[str, Any]], Any], game: str,
                  body: dict[str, Any], seconds: float | None = None) -> Any:
        """``fn(game, body)`` in the worker, as JSON bytes, within the cap and the time
        budget (``seconds``, default :attr:`seconds`, counted from its turn on the
        worker)."""
        budget = self._admit(seconds)
        try:
            loop = asyncio.get_running_loop()
            worker, job = await self._sent(
                lambda w, sent: loop.run_in_executor(None, w.ask, fn, game, body, sent))
            try:
                ok, answer = await asyncio.wait_for(job, budget)
            except TimeoutError:
                if self._worker is worker:
                    self.close()  # the worker may run for hours: replace it
                raise Busy(f"the request took longer than {budget:g} s, the page's "
                           "limit for one request (the command line has none)",
                           retry_after=10) from None
            except WorkerGone:
                self._refuse_if_stopping()
                if self._worker is worker:
                    self.close()
                raise Busy("the worker for large requests stopped before it answered "
                           "(it is being restarted); try again in a few seconds",
                           retry_after=5) from None
            if ok is None:
                raise RuntimeError(f"the worker failed: {answer}")
            if not ok:
                raise WorkerError(answer)
            return answer
        finally:
            self.busy -= 1

    async def stream(self, fn: Streamer, game: str, body: Mapping[str, object],
                     seconds: float | None = None) -> AsyncGenerator[bytes, None]:
        """``fn(game, body, stop)`` in the worker, each thing it yields as JSON bytes as
        soon as the worker sends it, within the cap and the time budget. Leaving the loop
        early (the client went away, a new position was asked) cancels the stream: the
        worker's ``stop`` event is set, and a worker that has not stopped within
        :data:`CANCEL_SECONDS` is killed and replaced, so an abandoned search never holds
        it."""
        budget = self._admit(seconds)
        try:
            loop = asyncio.get_running_loop()
            messages: asyncio.Queue[Message] = asyncio.Queue()
            ident = next(self._ids)

            def push(message: Message) -> None:
                loop.call_soon_threadsafe(messages.put_nowait, message)

            started: list[tuple[_Worker, asyncio.Future[None]]] = []

            def start(w: _Worker, sent: threading.Event) -> asyncio.Future[None]:
                started[:] = [(w, loop.run_in_executor(None, w.stream, ident, fn, game,
                                                       body, push, sent))]
                return started[0][1]

            ended = False
            try:
                worker, job = await self._sent(start)
                deadline = time.monotonic() + budget
                while True:
                    try:
                        message = await asyncio.wait_for(
                            messages.get(), max(0.0, deadline - time.monotonic()))
                    except TimeoutError:
                        ended = True
                        if self._worker is worker:
                            self.close()
                        raise Busy(f"the request took longer than {budget:g} s, the page's "
                                   "limit for one request", retry_after=10) from None
                    if message[0] == "item":
                        assert isinstance(message[1], bytes)
                        yield message[1]
                        continue
                    ended = True
                    if message[0] == "gone":
                        self._refuse_if_stopping()
                        if self._worker is worker:
                            self.close()
                        raise Busy("the worker for large requests stopped before it "
                                   "answered (it is being restarted); try again in a few "
                                   "seconds", retry_after=5)
                    _, ok, text = message
                    if ok is None:
                        raise RuntimeError(f"the worker failed: {text}")
                    if not ok:
                        raise WorkerError(text)
                    return
            finally:
                if not ended and started:  # abandoned (perhaps before its turn): stop
                    worker, job = started[0]  # the search, and make sure it stops
                    worker.cancel(ident)
                    loop.call_later(CANCEL_SECONDS, self._reap, worker, job)
        finally:
            self.busy -= 1

    def _reap(self, worker: _Worker, job: asyncio.Future[None]) -> None:
        """A cancelled stream that is still running in ``worker``: kill and replace it."""
        if not job.done() and self._worker is worker:
            self.close()
