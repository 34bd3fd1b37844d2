"""Progress reporting for long solves: a rich progress bar on a terminal, silence otherwise.

>>> with Progress("positions", enabled=False) as bar:
...     bar.update(10)
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any


class Progress:
    """A counter with a live display on stderr when it is a terminal.

    ``enabled=None`` (the default) shows the bar only when stderr is a TTY, so pipes, tests and
    CI stay silent. Updates are cheap; callers still batch them (every 2**16 items).
    Beside the bar, the start, each new stage and the end are logged at INFO on ``logger``
    (``perfectplay.engine`` or ``perfectplay.store``), which is what a service or a notebook
    collects; the library adds no handler but the package's ``NullHandler``.
    """

    def __init__(self, description: str, total: int | None = None,
                 enabled: bool | None = None, logger: str = "perfectplay.engine") -> None:
        if enabled is None:
            enabled = sys.stderr.isatty()
        self.enabled = enabled
        self.description = description
        self.total = total
        self._progress: Any = None
        self._task: Any = None
        self._log = logging.getLogger(logger)
        self._completed = 0

    def __enter__(self) -> Progress:
        self._log.info("%s: started%s", self.description,
                       "" if self.total is None else f" ({self.total} in all)")
        if self.enabled:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                SpinnerColumn,
                TextColumn,
                TimeElapsedColumn,
            )
            from rich.progress import Progress as RichProgress

            self._progress = RichProgress(
                SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                MofNCompleteColumn(), TimeElapsedColumn(),
                console=Console(stderr=True), transient=True,
            )
            self._progress.__enter__()
            self._task = self._progress.add_task(self.description, total=self.total)
        return self

    def update(self, completed: int, description: str | None = None) -> None:
        self._completed = completed
        if description is not None and description != self.description:
            self.description = description
            self._log.info("%s: %d done", description, completed)
        if self._progress is not None:
            kwargs: dict[str, Any] = {"completed": completed}
            if description is not None:
                kwargs["description"] = description
            self._progress.update(self._task, **kwargs)

    @contextmanager
    def paused(self) -> Iterator[None]:
        """The live display stopped (its refresh thread joined) for the block: discovery
        forks its helper process inside one, with no other thread running."""
        if self._progress is None:
            yield
            return
        # rich's stop() only signals its refresh thread: join it, so no thread is left
        refresher = getattr(getattr(self._progress, "live", None), "_refresh_thread", None)
        self._progress.stop()
        if refresher is not None:
            refresher.join(timeout=1)
        try:
            yield
        finally:
            self._progress.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._log.info("%s: %s after %d", self.description,
                       "finished" if exc_type is None else "stopped", self._completed)
        if self._progress is not None:
            self._progress.__exit__(exc_type, exc, tb)
