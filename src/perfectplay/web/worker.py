"""The web page's worker processes for heavy requests: a cap on how many are in flight, a
time budget, and a fresh worker when a request overruns it.

A heavy request (a large board, an exact search, an O(n^2) option on a long row) runs in
one separate process, so its work never holds the server's interpreter: small requests keep
their latency while it runs. At most :attr:`HeavyPool.slots` heavy requests are in flight
(one runs, the others wait their turn); one more is refused at once (503 with
Retry-After). A request that takes longer than :attr:`HeavyPool.seconds` is answered 503
and its worker is replaced, so no request can hold the worker for ever. The budget counts
from the request's turn on the worker, not its wait behind the one before (which ends
within that one's own budget): a request waiting behind an abandoned search that is still
compiling is answered, by the same worker or by the one that replaced it.

Three lanes, each with a worker process and slots of its own (:meth:`HeavyPool.lane`):
"heavy" (the seed problems' large requests), "small" (the page's catalog games within their
budget: :data:`SMALL_SLOTS`) and "live" (the live games: their boards, pastes and searches,
:data:`LIVE_SEARCHES` searches side by side among :data:`LIVE_SLOTS` requests), so a small
request never waits behind a search, nor is refused because searches hold every slot. The
workers that search yield the CPU (:data:`LANE_NICE`): the server's event loop and the
small lane keep their latency beside four live searches. An error the worker raises
crosses the pipe as itself (:func:`carried`): a bad request is the same 4xx with the same
message whichever process found it.

A worker is one spawned process and a pipe that only it and the server use (not a
``multiprocessing.Pool``, whose shared queue lock, held by an idle worker, is never freed
when that worker is killed from outside, and then hangs the server's shut-down); requests
share the pipe, each message carrying its request's number. It ignores SIGINT from its
first instruction: Ctrl-C in a terminal reaches every process of the foreground group, and
only the server answers it, by stopping the worker (:meth:`HeavyPool.close`) as it shuts
down, so no worker prints a traceback. A worker replaced because one request overran (a
search that ignores its stop event) is stopped once the requests running beside it have
answered; a worker killed from outside (the kernel's out-of-memory killer) has the requests
it held asked again of its replacement, once, then 503.

>>> pool = HeavyPool(slots=2, seconds=30.0)
>>> pool.busy, pool.slots, pool.lane("small").slots
(0, 2, 8)
"""

from __future__ import annotations

import asyncio
import itertools
import json
import multiprocessing
import os
import pickle
import queue
import signal
import sys
import threading
import time
import traceback
from collections.abc import AsyncGenerator, Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from multiprocessing.connection import Connection
from typing import Any, Literal, cast

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


#: A streaming request's function: (game, body, stop) -> the JSON-ready things it yields.
Streamer = Callable[[str, Mapping[str, object], threading.Event], Iterator[object]]
#: A message of a stream on the pipe: ("item", bytes), ("end", ok, error) or ("gone",).
Message = tuple[object, ...]
#: A request's function: (game, body) -> its JSON-ready answer.
Caller = Callable[[str, dict[str, Any]], Any]
#: A request as the worker receives it: (kind "call" or "stream", its number, the function,
#: the game, the body).
Job = tuple[str, int, Callable[..., object], str, Mapping[str, object]]


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


#: Whether ``nice`` lowers the calling thread alone (and the threads it starts later), as
#: on Linux, rather than the whole process.
NICE_PER_THREAD = sys.platform == "linux"


def renice(increment: int) -> None:
    """Lower the CPU priority by ``increment``: this thread's and those it starts later
    on Linux, the process' elsewhere (a search yields the cores to the server and the
    small lane; nothing where the system refuses)."""
    if increment > 0:
        with suppress(AttributeError, OSError):
            os.nice(increment)


def warm_up(warmers: tuple[Callable[[], object], ...]) -> None:
    """Run each of ``warmers``; a failing one is its game's requests' problem."""
    for warmer in warmers:
        with suppress(Exception):
            warmer()


def serve_requests(conn: Connection, warmers: tuple[Callable[[], object], ...] = (warm,),
                   concurrent: bool = False, nice: int = 0) -> None:
    """The worker's life: ignore SIGINT, lower its priority by ``nice`` (on Linux, with
    ``concurrent``: its searches' threads only, so a board asked beside the searches keeps
    the server's priority), warm up (each of ``warmers``: the seed games' demos,
    :func:`warm`, for the heavy and small lanes; the live games' kernels for the live lane
    of ``perfectplay serve``), say so, then answer each request the server sends until the
    server closes the pipe (or stops the worker).

    Every message carries its request's number, so requests share the pipe: a reader
    thread takes each message off it; a request says ``("start", id)`` when it begins,
    then its answer (``("answer", id, ok, payload)``) or its stream (``("item", id,
    bytes)`` ..., ``("end", id, ok, error)``). ``concurrent``: each request runs in a
    thread of its own as soon as it arrives (the live lane: the server's slots bound
    them); else one at a time, in order. A ``("cancel", id)`` sets stream ``id``'s stop
    event (one registered when the request arrived, so a stream cancelled before its turn
    stops at its start), and a search the page abandoned stops within its next check."""
    ignore_sigint()
    searches_alone = concurrent and NICE_PER_THREAD
    if not searches_alone:
        renice(nice)  # the whole worker
    warm_up(warmers)
    sending = threading.Lock()

    def send(message: object) -> None:
        with sending, suppress(OSError):  # the server is gone: the reader ends the worker
            conn.send(message)

    send(True)
    jobs: queue.Queue[Job | None] = queue.Queue()
    stops: dict[int, threading.Event] = {}

    def answer(job: Job) -> None:
        kind, ident, fn, game, body = job
        send(("start", ident))
        try:
            if kind == "call":
                send(("answer", ident, *call(cast(Caller, fn), game, dict(body))))
                return
            if searches_alone:
                renice(nice)  # this search and its threads; a board beside it is not
            for message in stream_call(cast(Streamer, fn), game, body, stops[ident]):
                send((message[0], ident, *message[1:]))
        finally:
            stops.pop(ident, None)

    def read() -> None:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                jobs.put(None)  # the server is gone
                return
            if message[0] == "cancel":
                stop = stops.get(message[1])
                if stop is not None:
                    stop.set()
                continue
            stops[message[1]] = threading.Event()
            if concurrent:
                threading.Thread(target=answer, args=(message,), daemon=True,
                                 name=f"perfectplay-request-{message[1]}").start()
            else:
                jobs.put(message)

    threading.Thread(target=read, daemon=True, name="perfectplay-heavy-reader").start()
    while (job := jobs.get()) is not None:
        answer(job)


#: A request's messages as its handler gets them: ("start",), ("answer", ok, payload),
#: ("item", bytes), ("end", ok, error), or ("gone",) when the worker ended first.
Handler = Callable[[Message], None]


class _Worker:
    """One worker process and the server's end of its pipe. Requests share the pipe, each
    known by its number: a dispatcher thread reads every message and hands it to its
    request's handler (so the server's event loop never blocks on the pipe); when the
    worker ends, every request still waiting gets ``("gone",)``."""

    def __init__(self, warmers: tuple[Callable[[], object], ...] = (warm,),
                 concurrent: bool = False, nice: int = 0) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=serve_requests, args=(child, warmers, concurrent,
                                                                nice),
                                   daemon=True, name="perfectplay-heavy")
        with sigint_ignored():
            self.process.start()
        child.close()  # the worker's end lives in the worker only: its death is our EOF
        self.ready = threading.Event()  # set once the warm-up is over (or the worker gone)
        self.lock = threading.Lock()  # the handlers, and one message on the pipe at a time
        self.handlers: dict[int, Handler] = {}
        self.started: set[int] = set()  # requests the worker has begun
        self.closed = threading.Event()  # set by stop(), or when the worker ended
        self.stopped = False  # stopped by the server (not killed from outside)
        self.retiring = False  # replaced: stopped once its last started request ends
        threading.Thread(target=self._dispatch, daemon=True,
                         name="perfectplay-heavy-dispatch").start()

    def _dispatch(self) -> None:
        """Hand each message to its request's handler until the pipe closes, then tell
        every request still waiting that the worker is gone."""
        with suppress(EOFError, OSError):  # the worker died while warming up
            self.conn.recv()
            self.ready.set()
            while True:
                message: Message = self.conn.recv()
                ident = message[1]
                assert isinstance(ident, int)
                with self.lock:
                    handler = self.handlers.get(ident)
                    if message[0] == "start" and handler is not None:
                        self.started.add(ident)
                if handler is not None:
                    handler((message[0], *message[2:]))
                if message[0] in ("answer", "end") and self.forget(ident):
                    self.stop_soon()  # retiring, and that was its last request
        self.ready.set()
        with self.lock:
            self.closed.set()
            left, self.handlers = list(self.handlers.values()), {}
        for handler in left:
            handler(("gone",))

    def submit(self, kind: str, ident: int, fn: Callable[..., object], game: str,
               body: Mapping[str, object], handler: Handler) -> None:
        """Send request ``ident`` (``kind`` "call" or "stream"), its messages to
        ``handler``; :class:`WorkerGone` if the worker is already stopped (the request was
        never sent: the pool gives it to the next worker)."""
        with self.lock:
            if self.closed.is_set():
                raise WorkerGone
            self.handlers[ident] = handler
            try:
                self.conn.send((kind, ident, fn, game, body))
            except OSError:
                del self.handlers[ident]
                raise WorkerGone from None

    def forget(self, ident: int) -> bool:
        """Request ``ident`` ended (or was given up): drop its handler; whether the worker,
        retiring, has no started request left (then stop it)."""
        with self.lock:
            self.handlers.pop(ident, None)
            self.started.discard(ident)
            return self.retiring and not (self.started & set(self.handlers))

    def cancel(self, ident: int) -> None:
        """Ask the worker to stop stream ``ident`` (dropped there if it has ended)."""
        with suppress(OSError), self.lock:
            self.conn.send(("cancel", ident))

    def stop(self) -> None:
        """End the worker: SIGTERM (it dies at once, even inside a compiled kernel), SIGKILL
        if it lingers; the requests waiting on it then get ``("gone",)``."""
        self.stopped = True
        self.closed.set()
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(STOP_SECONDS)
            if self.process.is_alive():
                self.process.kill()
        self.process.join()

    def stop_soon(self) -> None:
        """:meth:`stop` from a thread of its own: the event loop never waits for a process
        to end."""
        self.stopped = True
        self.closed.set()
        threading.Thread(target=self.stop, daemon=True, name="perfectplay-heavy-stop").start()


#: The lanes of requests, each with a worker process and slots of its own: "heavy" (the
#: seed problems' large boards and exact searches, one at a time), "small" (the page's
#: catalog games within their budget, one at a time, each a few milliseconds once solved)
#: and "live" (the live games: a board, a paste, and the searches, run side by side), so a
#: small request never waits behind a search, nor is refused because searches hold every
#: slot.
Lane = Literal["heavy", "small", "live"]
#: Small requests in flight at once on their own worker (one runs, the others wait their
#: turn, each a few milliseconds once its instance is solved); one more gets 503.
SMALL_SLOTS = 8
#: Live searches (an analysis, a history) in flight at once, side by side in the live
#: worker, each within its own time limit; one more gets 503. A live board or paste (a few
#: milliseconds) is never held behind them: :data:`LIVE_SLOTS` in all.
LIVE_SEARCHES = 4
#: Live requests in flight at once, the searches among them.
LIVE_SLOTS = 16
#: How much each lane's worker lowers its CPU priority (``nice``): the searches yield the
#: cores to the server's event loop and the small lane, which answer in milliseconds.
LANE_NICE: dict[Lane, int] = {"heavy": 5, "small": 0, "live": 10}
#: Times a request is sent to a worker: a worker that dies (killed from outside, out of
#: memory) while it holds a request has it asked again of its replacement, once.
ATTEMPTS = 2


class HeavyPool:
    """One worker process for heavy requests, ``slots`` in flight, ``seconds`` each; and
    a pool of its own for each other lane (:meth:`lane`): "small" (``small_slots`` in
    flight) and "live" (:data:`LIVE_SLOTS`, :data:`LIVE_SEARCHES` searches among them, run
    side by side). Each lane's worker starts with its first request, or with :meth:`start`
    (``every_lane``: the server's start-up, where the live worker also runs ``live_warm``,
    loading the live games' kernels, so the first live answer pays no compiling)."""

    def __init__(self, slots: int, seconds: float, small_slots: int = SMALL_SLOTS,
                 what: str = "large", live_warm: Callable[[], object] | None = None,
                 *, kind: Lane = "heavy", searches: int | None = None) -> None:
        self.slots = slots
        self.seconds = seconds
        self.busy = 0
        self.searching = 0
        self.searches = searches
        self.stopping = False
        self.what = what
        self.kind = kind
        #: What the lane's worker does before its first request (the live lane: nothing,
        #: or the live games' warm-up once :meth:`start` gave it).
        self.warmers: tuple[Callable[[], object], ...] = () if kind == "live" else (warm,)
        self.live_warm = live_warm
        self._worker: _Worker | None = None
        self._ids = itertools.count(1)
        self.small = None if small_slots <= 0 else HeavyPool(small_slots, seconds, 0,
                                                              what="small", kind="small")
        self.live = None if kind != "heavy" else HeavyPool(
            LIVE_SLOTS, seconds, 0, what="live", kind="live", searches=LIVE_SEARCHES)

    def lane(self, lane: Lane) -> HeavyPool:
        """The pool of ``lane`` (this one for "heavy")."""
        other = {"small": self.small, "live": self.live}.get(lane)
        return other if other is not None else self

    def start(self, every_lane: bool = False) -> None:
        """Start the worker now (the server's start-up) and let it import the games; with
        ``every_lane``, the other lanes' workers too, the live one warmed with
        ``live_warm`` before its first request (the live games' kernels): ``perfectplay
        serve``. A test's app starts a lane with its first request, unwarmed."""
        self._ensure()
        if not every_lane:
            return
        if self.small is not None:
            self.small.start()
        if self.live is not None:
            self.live.warmers = () if self.live_warm is None else (self.live_warm,)
            self.live.start()

    def _ensure(self) -> _Worker:
        self._refuse_if_stopping()
        if self._worker is None or not self._worker.process.is_alive():
            if self._worker is not None:
                self._retire(self._worker)  # killed from outside: reap it
            self._worker = _Worker(self.warmers, self.kind == "live", LANE_NICE[self.kind])
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
        """Stop the worker (an overrun); the other lanes' too at the server's shut-down."""
        self._close_worker()
        for other in (self.small, self.live):
            if other is not None:
                other.close()

    def _close_worker(self) -> None:
        """Stop this lane's worker now (a new one starts with the next request)."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.stop()

    def _retire(self, worker: _Worker, ident: int | None = None) -> None:
        """Replace ``worker``, which overran request ``ident`` (or died): the next request
        starts a new one; it is stopped at once if it runs no other request (one waiting
        for its turn is sent again to the new worker), else as soon as the last of them
        ends, so a stuck search never costs the others beside it their answers."""
        if self._worker is worker:
            self._worker = None
        worker.retiring = True
        if ident is None or worker.forget(ident) or not worker.started:
            worker.stop_soon()

    def _ended(self, worker: _Worker, ident: int) -> None:
        """Request ``ident`` ended: stop its worker if it was retiring and this was the
        last request it ran."""
        if worker.forget(ident):
            worker.stop_soon()

    def stop(self) -> None:
        """The server is stopping: stop the workers now, so the requests in flight are
        answered (503) at once instead of holding the shut-down for their whole budget, and
        start no other."""
        self.stopping = True
        for other in (self.small, self.live):
            if other is not None:
                other.stop()
        self.close()

    def _refuse_if_stopping(self) -> None:
        if self.stopping:
            raise Busy("the server is stopping; try again when it is back", retry_after=10)

    def _admit(self, seconds: float | None, search: bool = False) -> float:
        """Take a slot for one request (or refuse it: the server stopping, every slot
        taken, or every search slot for a search) and return its time budget; the caller
        gives the slot back (:meth:`_release`)."""
        self._refuse_if_stopping()
        if self.busy >= self.slots:
            raise Busy(f"the server is busy with {self.busy} {self.what} requests; try "
                       "again in a few seconds", retry_after=5)
        if search and self.searches is not None and self.searching >= self.searches:
            raise Busy(f"the server is busy with {self.searching} live searches; try "
                       "again in a few seconds", retry_after=5)
        self.busy += 1
        self.searching += search
        return self.seconds if seconds is None else seconds

    def _release(self, search: bool) -> None:
        self.busy -= 1
        self.searching -= search

    async def _submit(self, kind: str, fn: Callable[..., object], game: str,
                      body: Mapping[str, object]
                      ) -> tuple[_Worker, int, asyncio.Queue[Message]]:
        """Send a request to the lane's worker (started if need be): the worker, the
        request's number and the queue its messages arrive on."""
        loop = asyncio.get_running_loop()
        for _ in range(3):
            worker = await self._started()
            self._refuse_if_stopping()
            ident = next(self._ids)
            messages: asyncio.Queue[Message] = asyncio.Queue()

            def handle(message: Message, q: asyncio.Queue[Message] = messages) -> None:
                loop.call_soon_threadsafe(q.put_nowait, message)

            try:
                worker.submit(kind, ident, fn, game, body, handle)
            except WorkerGone:
                self._retire(worker)
                continue
            return worker, ident, messages
        self._refuse_if_stopping()
        raise Busy(f"the worker for {self.what} requests keeps stopping; try again in a "
                   "few seconds", retry_after=5)

    async def _turn(self, worker: _Worker, messages: asyncio.Queue[Message]) -> bool:
        """Wait for the request's turn on ``worker`` (its ``start``): False when the worker
        ended first (the request was never begun: it goes to the next worker). The wait is
        not the request's time: the request before it ends within its own budget, a
        cancelled stream within :data:`CANCEL_SECONDS` (then its worker is replaced)."""
        first = await messages.get()
        if first[0] == "gone":
            self._refuse_if_stopping()
            self._retire(worker)
            return False
        return True

    def _lost(self, worker: _Worker, attempt: int) -> None:
        """The worker ended while it ran the request: the next attempt if it was killed
        from outside (its replacement is asked once), else a 503."""
        self._refuse_if_stopping()
        ours = worker.stopped  # stopped by the server: an overrun, a shut-down
        self._retire(worker)
        if ours or attempt + 1 >= ATTEMPTS:
            raise Busy(f"the worker for {self.what} requests stopped before it answered "
                       "(it is being restarted); try again in a few seconds", retry_after=5)

    def _overrun(self, worker: _Worker, ident: int, budget: float) -> Busy:
        """The request overran its budget: its worker is replaced (see :meth:`_retire`)."""
        worker.cancel(ident)
        self._retire(worker, ident)
        return Busy(f"the request took longer than {budget:g} s, the page's limit for one "
                    "request (the command line has none)", retry_after=10)

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
            attempt = 0
            while True:
                worker, ident, messages = await self._submit("call", fn, game, body)
                try:
                    if not await self._turn(worker, messages):
                        continue
                    try:
                        message = await asyncio.wait_for(messages.get(), budget)
                    except TimeoutError:
                        raise self._overrun(worker, ident, budget) from None
                    if message[0] == "gone":
                        self._lost(worker, attempt)
                        attempt += 1
                        continue
                finally:
                    self._ended(worker, ident)
                _, ok, answer = message
                if not ok:
                    assert isinstance(answer, Exception)
                    raise answer  # the worker's error, as itself: the same answer as here
                return answer
        finally:
            self._release(False)

    async def stream(self, fn: Streamer, game: str, body: Mapping[str, object],
                     seconds: float | None = None, lane: Lane = "heavy"
                     ) -> AsyncGenerator[bytes, None]:
        """``fn(game, body, stop)`` in the worker, each thing it yields as JSON bytes as
        soon as the worker sends it, within the cap (a search's slot) and the time budget.
        Leaving the loop early (the client went away, a new position was asked) cancels the
        stream: the worker's ``stop`` event is set, and a worker that has not stopped it
        within :data:`CANCEL_SECONDS` is replaced (:meth:`_retire`), so an abandoned search
        never holds it. A stream whose worker dies is run again once by the new worker (its
        lines from the start again). ``lane``: as for :meth:`run`."""
        if self.lane(lane) is not self:
            async for item in self.lane(lane).stream(fn, game, body, seconds):
                yield item
            return
        budget = self._admit(seconds, search=True)
        try:
            attempt = 0
            while True:
                worker, ident, messages = await self._submit("stream", fn, game, body)
                ended = False
                try:
                    if not await self._turn(worker, messages):
                        ended = True
                        continue
                    deadline = time.monotonic() + budget
                    while True:
                        try:
                            message = await asyncio.wait_for(
                                messages.get(), max(0.0, deadline - time.monotonic()))
                        except TimeoutError:
                            ended = True
                            raise self._overrun(worker, ident, budget) from None
                        if message[0] != "item":
                            break
                        assert isinstance(message[1], bytes)
                        yield message[1]
                    ended = True
                    if message[0] == "gone":
                        self._lost(worker, attempt)
                        attempt += 1
                        continue
                    _, ok, error = message
                    if not ok:
                        assert isinstance(error, Exception)
                        raise error  # the worker's error, as itself
                    return
                finally:
                    if ended:
                        self._ended(worker, ident)
                    else:  # abandoned (perhaps before its turn): stop the search, and
                        worker.cancel(ident)  # make sure it stops
                        asyncio.get_running_loop().call_later(
                            CANCEL_SECONDS, self._reap, worker, ident)
        finally:
            self._release(True)

    def _reap(self, worker: _Worker, ident: int) -> None:
        """A cancelled stream: replace its worker if it is still running it."""
        with worker.lock:
            running = ident in worker.handlers and not worker.closed.is_set()
        if running:
            self._retire(worker, ident)
        else:
            self._ended(worker, ident)
