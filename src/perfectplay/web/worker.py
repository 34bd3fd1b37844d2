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

Small requests (the page's catalog games within their budget, a paste) have a lane of their
own (:attr:`HeavyPool.small`: its own worker process and :data:`SMALL_SLOTS` slots), so they
never wait behind a live search nor are refused because searches hold the heavy slots. An
error the worker raises crosses the pipe as itself (:func:`carried`): a bad request is the
same 4xx with the same message whichever process found it.

The worker is one spawned process and a pipe that only it and the server use (not a
``multiprocessing.Pool``, whose shared queue lock, held by an idle worker, is never freed
when that worker is killed from outside, and then hangs the server's shut-down). It ignores
SIGINT from its first instruction: Ctrl-C in a terminal reaches every process of the
foreground group, and only the server answers it, by stopping the worker
(:meth:`HeavyPool.close`) as it shuts down, so no worker prints a traceback. A worker killed
from outside (SIGTERM to the whole group, the kernel's out-of-memory killer) fails only the
requests it held (503) and is replaced by the next one.

>>> pool = HeavyPool(slots=2, seconds=30.0)
>>> pool.busy, pool.slots, pool.lane("small").slots
(0, 2, 8)
"""

from __future__ import annotations

import asyncio
import itertools
import json
import multiprocessing
import pickle
import queue
import signal
import threading
import time
import traceback
from collections.abc import AsyncGenerator, Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from multiprocessing.connection import Connection
from typing import Any, Literal, TypeVar

from pydantic import ValidationError

from .. import registry
from ..errors import PerfectplayError, show_exc

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
    """A request the worker refused with an error that does not survive pickling (the
    message is for the client: 422); ``kind`` names the error's type. Every other error
    the worker raises reaches the server as itself (:func:`carried`)."""

    def __init__(self, message: str, kind: str = "WorkerError") -> None:
        super().__init__(message)
        self.kind = kind

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (str(self), self.kind)


class WorkerFailed(RuntimeError):
    """A bug in the worker whose error does not survive pickling: 500, as the same bug in
    the server would be."""


class WorkerGone(Exception):
    """The worker ended (stopped by the server, or killed from outside) before it answered."""


def call(fn: Callable[[str, dict[str, Any]], Any], game: str, body: dict[str, Any]
         ) -> tuple[bool, Any]:
    """Run ``fn(game, body)`` in the worker: (True, the answer as JSON bytes, encoded here
    so the server's event loop never spends time on a large answer) or (False, the error it
    raised, as :func:`carried` sends it across the pipe)."""
    try:
        return True, json.dumps(fn(game, body), ensure_ascii=False, allow_nan=False,
                                separators=(",", ":")).encode("utf-8")
    except Exception as exc:  # noqa: BLE001 - the server answers it, the worker lives on
        return False, carried(exc)


def is_refusal(exc: BaseException) -> bool:
    """Whether an error is the request's fault (a 4xx), not the server's: the project's
    errors, a ``ValueError`` (pydantic's validation errors, a bad number), a body nested
    too deeply for the recursion limit."""
    return isinstance(exc, PerfectplayError | ValueError | RecursionError)


def carried(exc: Exception) -> Exception:
    """The error ``exc`` as it crosses the pipe to the server: itself, its type and message
    intact, when it survives pickling (the server raises it again, so the page answers it as
    it answers the same error found in the server: the same 4xx, the same message), else
    a :class:`WorkerError` (a refusal, 422) or a :class:`WorkerFailed` (a bug, 500) with its
    type and message as text. A bare ``ValueError`` (not the project's, not pydantic's)
    is a :class:`WorkerError` too: the request's fault, of a type no handler reads. A bug's
    traceback in the worker rides along as a note, for the server's log.

    >>> from perfectplay.errors import InputError
    >>> type(carried(InputError("move 1 is not legal"))).__name__
    'InputError'
    >>> bare = carried(ValueError("could not convert string to float: 'x'"))
    >>> type(bare).__name__, bare.kind
    ('WorkerError', 'ValueError')
    """
    if not is_refusal(exc):
        with suppress(Exception):
            exc.add_note("raised in the web worker:\n" + "".join(
                traceback.format_exception(exc)).rstrip())
    if isinstance(exc, ValueError) and not isinstance(exc, PerfectplayError | ValidationError):
        # a bare ValueError from deep down (float("x")): no handler of the server knows it
        return WorkerError(show_exc(exc), kind=type(exc).__name__)
    with suppress(Exception):
        back = pickle.loads(pickle.dumps(exc))
        if type(back) is type(exc) and str(back) == str(exc):
            return exc
    text = f"{type(exc).__name__}: {show_exc(exc)}"
    return WorkerError(show_exc(exc), kind=type(exc).__name__) if is_refusal(exc) \
        else WorkerFailed(f"the worker failed: {text}")


def warm() -> int:
    """Import the games in a new worker and solve each one's demo instance, so numba's
    kernels are loaded (its first request then pays for neither)."""
    for spec in registry.games("seed"):
        if spec.demo:
            spec.solve_text(spec.demo, **spec.demo_options)
    return len(registry.games("seed"))


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
#: A message of a stream on the pipe: ("item", bytes), ("end", ok, error) or ("gone",).
Message = tuple[object, ...]


def stream_call(fn: Streamer, game: str, body: Mapping[str, object], stop: threading.Event
                ) -> Iterator[Message]:
    """Run the streaming ``fn(game, body, stop)`` in the worker: ("item", JSON bytes) for
    each thing it yields, then ("end", True, None) when it finished or was stopped by
    ``stop``, ("end", False, error) when it raised (:func:`carried`)."""
    try:
        for item in fn(game, body, stop):
            yield "item", json.dumps(item, ensure_ascii=False, allow_nan=False,
                                     separators=(",", ":")).encode("utf-8")
        yield "end", True, None
    except Exception as exc:  # noqa: BLE001 - the server answers it, the worker lives on
        yield "end", False, carried(exc)


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
            body: dict[str, Any], sent: threading.Event) -> tuple[bool, Any]:
        """``call(fn, game, body)`` in the worker (blocking: run it in a thread); ``sent``
        is set when the request goes on the pipe (its turn came)."""
        self.ready.wait()
        with self.turn:
            try:
                self._send(("call", fn, game, body), sent)
                answer: tuple[bool, Any] = self.conn.recv()
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


#: The lanes of requests, each with a worker process and slots of its own: "heavy" (large
#: boards, exact and live searches) and "small" (the page's catalog games within their
#: budget, a live game's board without its search), so a small request never waits behind
#: a search, nor is refused because searches hold every slot.
Lane = Literal["heavy", "small"]
#: Small requests in flight at once on their own worker (one runs, the others wait their
#: turn, each a few milliseconds once its instance is solved); one more gets 503.
SMALL_SLOTS = 8


class HeavyPool:
    """One worker process for heavy requests, ``slots`` in flight, ``seconds`` each; and
    :attr:`small`, a pool of its own for the small lane (``small_slots`` in flight, its
    worker started with its first request, or by :meth:`start` with ``every_lane``)."""

    def __init__(self, slots: int, seconds: float, small_slots: int = SMALL_SLOTS,
                 what: str = "large") -> None:
        self.slots = slots
        self.seconds = seconds
        self.busy = 0
        self.stopping = False
        self.what = what
        self._worker: _Worker | None = None
        self._ids = itertools.count(1)
        self.small = None if small_slots <= 0 else HeavyPool(small_slots, seconds, 0,
                                                              what="small")

    def lane(self, lane: Lane) -> HeavyPool:
        """The pool of ``lane`` (this one for "heavy")."""
        return self.small if lane == "small" and self.small is not None else self

    def start(self, every_lane: bool = False) -> None:
        """Start the worker now (the server's start-up) and let it import the games; with
        ``every_lane``, the small lane's worker too (``perfectplay serve``; a test's app
        starts it with its first small request)."""
        self._ensure()
        if every_lane and self.small is not None:
            self.small.start()

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
        """Stop the worker (an overrun); the small lane's too at the server's shut-down."""
        self._close_worker()
        if self.small is not None:
            self.small.close()

    def _close_worker(self) -> None:
        """Stop this lane's worker (a new one starts with the next request)."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.stop()

    def stop(self) -> None:
        """The server is stopping: stop the worker now, so the heavy requests in flight are
        answered (503) at once instead of holding the shut-down for their whole budget, and
        start no other."""
        self.stopping = True
        if self.small is not None:
            self.small.stop()
        self.close()

    def _refuse_if_stopping(self) -> None:
        if self.stopping:
            raise Busy("the server is stopping; try again when it is back", retry_after=10)

    def _admit(self, seconds: float | None) -> float:
        """Take a slot for one request (or refuse it: the server stopping, every slot
        taken) and return its time budget; the caller gives the slot back."""
        self._refuse_if_stopping()
        if self.busy >= self.slots:
            raise Busy(f"the server is busy with {self.busy} {self.what} requests; try "
                       "again in a few seconds", retry_after=5)
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
                self._close_worker()
        self._refuse_if_stopping()
        raise Busy("the worker for large requests keeps stopping; try again in a few "
                   "seconds", retry_after=5)

    async def run(self, fn: Callable[[str, dict[str, Any]], Any], game: str,
                  body: dict[str, Any], seconds: float | None = None,
                  lane: Lane = "heavy") -> Any:
        """``fn(game, body)`` in the worker of ``lane``, as JSON bytes, within that lane's
        cap and the time budget (``seconds``, default :attr:`seconds`, counted from its
        turn on the worker)."""
        if self.lane(lane) is not self:
            return await self.lane(lane).run(fn, game, body, seconds)
        budget = self._admit(seconds)
        try:
            loop = asyncio.get_running_loop()
            worker, job = await self._sent(
                lambda w, sent: loop.run_in_executor(None, w.ask, fn, game, body, sent))
            try:
                ok, answer = await asyncio.wait_for(job, budget)
            except TimeoutError:
                if self._worker is worker:
                    self._close_worker()  # the worker may run for hours: replace it
                raise Busy(f"the request took longer than {budget:g} s, the page's "
                           "limit for one request (the command line has none)",
                           retry_after=10) from None
            except WorkerGone:
                self._refuse_if_stopping()
                if self._worker is worker:
                    self._close_worker()
                raise Busy("the worker for large requests stopped before it answered "
                           "(it is being restarted); try again in a few seconds",
                           retry_after=5) from None
            if not ok:
                raise answer  # the worker's error, as itself: the same answer as here
            return answer
        finally:
            self.busy -= 1

    async def stream(self, fn: Streamer, game: str, body: Mapping[str, object],
                     seconds: float | None = None, lane: Lane = "heavy"
                     ) -> AsyncGenerator[bytes, None]:
        """``fn(game, body, stop)`` in the worker, each thing it yields as JSON bytes as
        soon as the worker sends it, within the cap and the time budget. Leaving the loop
        early (the client went away, a new position was asked) cancels the stream: the
        worker's ``stop`` event is set, and a worker that has not stopped within
        :data:`CANCEL_SECONDS` is killed and replaced, so an abandoned search never holds
        it. ``lane``: as for :meth:`run`."""
        if self.lane(lane) is not self:
            async for item in self.lane(lane).stream(fn, game, body, seconds):
                yield item
            return
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
                            self._close_worker()
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
                            self._close_worker()
                        raise Busy("the worker for large requests stopped before it "
                                   "answered (it is being restarted); try again in a few "
                                   "seconds", retry_after=5)
                    _, ok, error = message
                    if not ok:
                        assert isinstance(error, Exception)
                        raise error  # the worker's error, as itself
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
            self._close_worker()
