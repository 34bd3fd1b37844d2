"""Requests for the web worker's tests (tests/test_web_worker.py): module functions, so the
spawned worker process can import them by name."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping


def echo(game: str, body: dict[str, object]) -> dict[str, object]:
    """A request answered at once: what it was asked."""
    return {"game": game, **body}


def stubborn(game: str, body: Mapping[str, object], stop: threading.Event
             ) -> Iterator[dict[str, object]]:
    """A stream that answers once, then works ``body['seconds']`` without looking at its
    stop event (as numba compiling a search does), then says whether it was stopped."""
    yield {"started": True}
    time.sleep(float(str(body["seconds"])))
    yield {"stopped": stop.is_set()}


def stopped_at_start(game: str, body: Mapping[str, object], stop: threading.Event
                     ) -> Iterator[dict[str, object]]:
    """A stream that says whether it was stopped before it began."""
    yield {"stopped": stop.is_set()}


def sleepy(game: str, body: dict[str, object]) -> dict[str, object]:
    """A request that works ``body['seconds']`` (a live search, say), then answers."""
    time.sleep(float(str(body["seconds"])))
    return {"slept": body["seconds"]}


def until_stopped(game: str, body: Mapping[str, object], stop: threading.Event
                  ) -> Iterator[dict[str, object]]:
    """A search that runs until it is stopped (at most ``body['seconds']``, default 600):
    it says it started, then, once stopped, writes ``body['flag']`` (a file's path, when
    given) so a test sees the stop reach the worker."""
    yield {"started": True}
    stop.wait(float(str(body.get("seconds", 600))))
    if body.get("flag"):
        with open(str(body["flag"]), "w", encoding="utf-8") as f:
            f.write("stopped" if stop.is_set() else "timed out")
    yield {"stopped": stop.is_set()}


def niceness(game: str, body: dict[str, object]) -> dict[str, object]:
    """The calling thread's nice value (a request answered at once)."""
    import os

    return {"nice": os.getpriority(os.PRIO_PROCESS, 0)}


def niceness_stream(game: str, body: Mapping[str, object], stop: threading.Event
                    ) -> Iterator[dict[str, object]]:
    """The nice value of a stream's thread and of a thread it starts (a search's)."""
    import os

    seen: list[int] = []
    t = threading.Thread(target=lambda: seen.append(os.getpriority(os.PRIO_PROCESS, 0)))
    t.start()
    t.join()
    yield {"nice": os.getpriority(os.PRIO_PROCESS, 0), "its_threads": seen[0]}
