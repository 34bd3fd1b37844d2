"""A second core for Python discovery: a forked helper that expands half of each batch.

Discovery of a Python game is the game's own methods called once a position (``outcome``,
``moves``) and once a move (``play``); on Connect Four 4x5 with int positions they are
four fifths of the whole solve. They are plain Python and hold the GIL, so threads cannot
share them, but a process can: the helper is a fork of the solving process (the game comes
with it, nothing is pickled), and takes half of each batch of int positions while the
parent expands the other half. Positions and children cross the pipe pickled (codes as
int64 arrays where the game has them); the parent numbers the helper's children itself.

The result is exactly the serial one: the parent appends the halves in order. If the
helper's half raises anything (or its result does not pickle), the parent expands that
half itself and the error (or the
fallback to objects) is the serial path's. The helper is used only where a fork is safe
and pays: Linux's ``fork``, at least two CPUs this process may run on, no other thread
alive in the parent (a fork copies no thread but may copy a held lock), not inside a
daemon process, and ``PERFECTPLAY_WORKERS`` not set to 1. It starts once discovery has
found :data:`START_AFTER` positions (small games never fork) and is shut down when
discovery ends, fails or is interrupted.

A game whose methods keep state on the game object sees only the parent's half of the
calls in the parent. A discovery that forked and then failed is run again without the
helper before its error is believed, so a game that fills a table in ``play`` (as
:class:`~perfectplay.openspiel.OpenSpielGame` does) still solves; such a game may say
``parallel = False`` to skip the helper, and a game whose answers depend on such state is
already wrong (``check_game`` reports it).

>>> helper_allowed({"PERFECTPLAY_WORKERS": "1"})
False
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Mapping
from typing import Any

START_AFTER = 20_000  # positions found before the helper is forked


def helper_allowed(environ: Mapping[str, str] | None = None) -> bool:
    """May discovery fork a helper here (see the module)?"""
    env = os.environ if environ is None else environ
    if env.get("PERFECTPLAY_WORKERS", "").strip() == "1":
        return False
    if "fork" not in multiprocessing.get_all_start_methods():
        return False
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return (cpus >= 2 and threading.active_count() == 1
            and not multiprocessing.current_process().daemon)


class ExpandHelper:
    """A forked process that runs ``work(batch)`` on each batch it is sent and sends back
    the result (pickled both ways; the work function and the game come with the fork).

    One request at a time: :meth:`submit`, then :meth:`collect`."""

    def __init__(self, work: Callable[[list[Any]], Any]) -> None:
        ctx = multiprocessing.get_context("fork")
        _flush_std()  # else the fork would hold a copy of unwritten output
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(target=_serve, args=(child, self._conn, work), daemon=True,
                                 name="perfectplay-discovery")
        self._proc.start()
        child.close()

    def submit(self, batch: list[Any]) -> None:
        self._conn.send(batch)

    def collect(self) -> Any:
        """The helper's result for the batch submitted, or None when its work failed
        (the caller does that batch itself)."""
        ok, result = self._conn.recv()
        return result if ok else None

    def close(self) -> None:
        try:
            self._conn.close()
        finally:
            self._proc.join(timeout=1)
            if self._proc.is_alive():
                self._proc.terminate()
                self._proc.join()


def _serve(conn: Any, parent_end: Any, work: Callable[[list[Any]], Any]) -> None:
    """The helper's loop: work on each batch until the pipe closes (the fork's copy of
    the parent's end is closed first, or the close would never be seen)."""
    parent_end.close()
    try:
        while True:
            try:
                batch = conn.recv()
            except (EOFError, OSError):
                return
            try:
                reply = True, work(batch)
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


def _flush_std() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
