"""A second core for Python discovery: a forked helper that expands half of each batch.

Discovery of a Python game is the game's own methods called once a position (``outcome``,
``moves``) and once a move (``play``); on Connect Four 4x5 with int positions they are
four fifths of the whole solve. They are plain Python and hold the GIL, so threads cannot
share them, but a process can: the helper is a fork of the solving process (the game comes
with it, nothing of it is pickled), and expands the second half of each batch while the
parent expands the first. Positions cross the pipe as codes where the game has them (int
positions, ``encode``/``decode``), else pickled, and so do the children that come back;
the parent numbers them itself, appending the helper's half after its own, so every array
and id is exactly the serial pass's.

The same helper serves an opening book's build (:func:`perfectplay.store.book.build_book`
with ``jobs``): several of them, each searching blocks of positions with its own table,
kept busy at once through :func:`wait_any`.

When it is used: on Linux (``fork``; macOS lists it but forking there is unsafe), with at
least two CPUs this process may run on, in no daemon process, with ``PERFECTPLAY_WORKERS``
not set to 1, once discovery has found :data:`START_AFTER` positions (small games never
fork), and only if no other thread runs at that moment (the progress bar's refresh thread
is paused for the fork: a fork copies no thread but may copy a lock one holds). Object
positions must come back from a pickle round trip equal, with equal hashes (checked on a
sample first: pieces compared by identity stay in the parent). A game may also say
``parallel = False``.

When something goes wrong: a fork that fails, or a helper that fails or dies on a batch
(its half is then expanded by the parent), leaves discovery to go on alone. A discovery
that forked and then fails is run again without the helper before its error is believed,
so a game that fills a table on itself in ``play`` (as
:class:`~perfectplay.openspiel.OpenSpielGame` does, which says ``parallel = False``) still
solves; a game whose answers depend on such state is wrong anyway (``check_game`` reports
it). The helper is shut down when discovery ends, fails or is interrupted.

>>> helper_allowed({"PERFECTPLAY_WORKERS": "1"})
False
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

START_AFTER = 20_000  # positions found before the helper is forked


def helper_allowed(environ: Mapping[str, str] | None = None) -> bool:
    """May discovery fork a helper here, now (see the module)?"""
    env = os.environ if environ is None else environ
    if env.get("PERFECTPLAY_WORKERS", "").strip() == "1":
        return False
    if (not sys.platform.startswith("linux")
            or "fork" not in multiprocessing.get_all_start_methods()):
        return False  # macOS lists fork too, but forking there is unsafe
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return (cpus >= 2 and threading.active_count() == 1
            and not multiprocessing.current_process().daemon)


def start_helper(work: Callable[[Any], Any]) -> ExpandHelper | None:
    """An :class:`ExpandHelper` running ``work``, or None if the fork fails (no memory,
    too many processes): discovery then goes on alone."""
    try:
        return ExpandHelper(work)
    except OSError:
        return None


class ExpandHelper:
    """A forked process that runs ``work(payload)`` on each payload it is sent and sends
    back the result (pickled both ways; the work function and the game come with the fork).

    One request at a time: :meth:`submit`, then :meth:`collect`."""

    def __init__(self, work: Callable[[Any], Any]) -> None:
        ctx = multiprocessing.get_context("fork")
        _flush_std()  # else the fork would hold a copy of unwritten output
        self._conn, child = ctx.Pipe()
        try:
            self._proc = ctx.Process(target=_serve, args=(child, self._conn, work),
                                     daemon=True, name="perfectplay-discovery")
            self._proc.start()
        except BaseException:
            self._conn.close()
            raise
        finally:
            child.close()

    def submit(self, payload: Any) -> bool:
        """Send the helper a payload: False if it has died (the pipe is closed)."""
        try:
            self._conn.send(payload)
        except OSError:  # BrokenPipeError, ConnectionResetError: it is gone
            return False
        return True

    @property
    def alive(self) -> bool:
        """Is the helper still running (it may have died on a payload)?"""
        return self._proc.is_alive()

    def collect(self) -> Any:
        """The helper's result for what was submitted, or None when its work failed or
        it died (the caller does that batch itself)."""
        ready = multiprocessing.connection.wait([self._conn, self._proc.sentinel])
        if self._conn not in ready:
            return None  # the helper ended without answering
        try:
            ok, result = self._conn.recv()
        except (EOFError, OSError):
            return None
        return result if ok else None

    def close(self) -> None:
        try:
            self._conn.close()
        finally:
            self._proc.join(timeout=1)
            for stop in (self._proc.terminate, self._proc.kill):
                if self._proc.is_alive():
                    stop()
                    self._proc.join(timeout=1)
            if not self._proc.is_alive():
                self._proc.close()


def wait_any(helpers: Sequence[ExpandHelper]) -> list[ExpandHelper]:
    """Wait until at least one of ``helpers`` (each with a payload submitted) has its
    result ready or has died, and return those: their :meth:`~ExpandHelper.collect` does
    not block. Lets one process keep several helpers busy at once."""
    ends: dict[Any, ExpandHelper] = {}
    for h in helpers:
        ends[h._conn] = ends[h._proc.sentinel] = h
    ready = multiprocessing.connection.wait(list(ends))
    return list(dict.fromkeys(ends[r] for r in ready))


def _serve(conn: Any, parent_end: Any, work: Callable[[Any], Any]) -> None:
    """The helper's loop: work on each payload until the pipe closes (the fork's copy of
    the parent's end is closed first, or the close would never be seen). Ctrl-C and
    SIGTERM end it plainly (not the parent's handlers), and it writes through fresh
    standard streams (a lock another thread held at the fork stays held here)."""
    parent_end.close()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _end_with_parent()
    _fresh_std()
    try:
        while True:
            try:
                payload = conn.recv()
            except (EOFError, OSError):
                return
            try:
                reply = True, work(payload)
            except BaseException:  # noqa: BLE001 - the parent redoes the batch and reports it
                reply = False, None
            try:
                conn.send(reply)
            except Exception:  # noqa: BLE001 - a result that does not pickle: the parent redoes it
                conn.send((False, None))
    except KeyboardInterrupt:
        return
    finally:
        _flush_std()  # what the game printed here
        os._exit(0)  # no atexit handler of the parent's runs twice


def _end_with_parent() -> None:
    """Ask Linux to send this helper SIGTERM when the process that forked it dies (killed
    outright, it can close no pipe in time): no helper goes on searching for a builder
    that is gone. Elsewhere, or without libc, the closed pipe ends it after its payload."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM)
        if os.getppid() == 1:  # the parent died before the call: it would never come
            os._exit(0)


def _fresh_std() -> None:
    for name, fd in (("stdout", 1), ("stderr", 2)):
        with contextlib.suppress(OSError):
            setattr(sys, name, open(fd, "w", buffering=1, closefd=False))  # noqa: SIM115


def _flush_std() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
