"""One runner for both kinds of store: small work in this process, large work on Dask.

A task is a plain function of picklable arguments; :class:`Runner` cuts a tier into at most
CHUNKS_PER_WORKER ranges a worker (a few large chunks, never many small ones) and keeps work
of at most LOCAL units in the client, where a Dask round trip would cost more than the work.
A position of a Python game weighs PYTHON_WEIGHT units (its moves run in the interpreter), a
position of a compiled game one.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .layout import SolveStopped, StoreError, need

#: Work of at most this many units runs in the client's own process.
LOCAL = 1 << 16
#: What one position of a Python game weighs against one of a compiled game.
PYTHON_WEIGHT = 32
#: At most this many ranges a worker per tier.
CHUNKS_PER_WORKER = 4
#: Seconds to wait for a given scheduler before saying it cannot be reached.
CONNECT_TIMEOUT = 5


class MainGuardError(StoreError, SystemExit):
    """A local cluster asked for by a script's top-level code outside ``if __name__ ==
    "__main__":``. Dask starts its workers as new Python processes that import the script
    again, so they would run that code again and fail (about 150 lines of "An attempt has
    been made to start a new process before the current process has finished its
    bootstrapping phase"). Also a :class:`SystemExit`: a script that does not catch it ends
    with its one line and exit code 1, not a traceback."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.code = f"perfectplay: error: {message}"


def unguarded_script_line() -> tuple[str, int] | None:
    """``(script, line)`` when this call comes from the top-level code of the script Python
    runs (``__main__`` with a file) outside an ``if __name__ == "__main__":`` block: code a
    spawned worker process runs again when it imports the script. None otherwise (an
    interactive session, a notebook, ``python -c``, guarded code)."""
    import ast

    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or not path or not str(path).endswith(".py"):
        return None
    if getattr(getattr(main, "__spec__", None), "name", "").endswith(".__main__"):
        return None  # python -m package: spawn does not run a package's __main__ again
    frame = sys._getframe(1)
    while frame is not None and not (frame.f_globals is vars(main)
                                     and frame.f_code.co_name == "<module>"):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return None
    line = frame.f_lineno
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return None  # cannot tell: say nothing rather than something wrong
    for node in tree.body:
        if isinstance(node, ast.If) and node.body:
            test = ast.unparse(node.test)
            if "__name__" in test and "__main__" in test and \
                    node.lineno <= line <= (node.end_lineno or node.lineno):
                return None
    return str(path), line


def _check_spawn_safe() -> None:
    """A :class:`MainGuardError` before any process is started when the workers would
    re-run the script that starts them (Dask spawns them unless configured to fork)."""
    import dask

    method = dask.config.get("distributed.worker.multiprocessing-method", "spawn")
    where = None if method == "fork" else unguarded_script_line()
    if where is not None:
        script, line = where
        raise MainGuardError(
            f"{Path(script).name}, line {line}: Dask's worker processes import your script "
            "again and would start the solve again; put the code that solves under "
            'if __name__ == "__main__":')


def client_for(cluster: str | None, workers: int | None) -> Any:
    """A Dask client: a new local cluster of ``workers`` processes (default: the cores), or
    the scheduler at ``cluster``, reached within CONNECT_TIMEOUT seconds. A local cluster
    asked for by a script's unguarded top-level code is a :class:`MainGuardError`."""
    distributed = need("distributed")
    if cluster is None:
        _check_spawn_safe()
        import warnings

        with warnings.catch_warnings():  # "port 8787 in use": another cluster runs here
            warnings.filterwarnings("ignore", message="Port .* is already in use")
            lc = distributed.LocalCluster(n_workers=workers or os.cpu_count() or 1,
                                          threads_per_worker=1, processes=True,
                                          dashboard_address=None, silence_logs=40)
        return distributed.Client(lc)
    try:
        return distributed.Client(cluster, timeout=f"{CONNECT_TIMEOUT}s")
    except Exception as exc:  # noqa: BLE001 - OSError, TimeoutError, ValueError (bad address)
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise StoreError(f"cannot reach the Dask scheduler at {cluster!r} within "
                         f"{CONNECT_TIMEOUT} s ({reason[:200]})") from None


def register_by_value(game: Any) -> None:
    """Workers must be able to unpickle a game defined in a user's file or a test."""
    import cloudpickle

    mod = sys.modules.get(type(game).__module__)
    if mod is not None and not mod.__name__.startswith("perfectplay"):
        cloudpickle.register_pickle_by_value(mod)


class Runner:
    """Runs tasks in this process when they are small, else on the cluster."""

    def __init__(self, client: Any, game: Any, workers: int, weight: int = 1) -> None:
        self.client, self.game, self.workers, self.weight = client, game, workers, weight
        self._game_f: Any = None

    def is_local(self, n: int) -> bool:
        """Is work on ``n`` positions small enough for this process?"""
        return n * self.weight <= LOCAL

    def parts(self, n: int) -> list[tuple[int, int]]:
        """[lo, hi) ranges for ``n`` positions: one when small, else a few per worker."""
        per = max(1, LOCAL // self.weight)
        k = 1 if self.is_local(n) else min(-(-n // per), CHUNKS_PER_WORKER * self.workers)
        cuts = np.linspace(0, n, k + 1).astype(np.int64)
        return [(int(a), int(b)) for a, b in zip(cuts[:-1], cuts[1:], strict=True) if b > a]

    def run(self, fn: Callable[..., Any], calls: list[tuple[Any, ...]], local: bool,
            with_game: bool) -> list[Any]:
        """``fn(*call)`` (``fn(game, *call)`` with ``with_game``) for every call, in order."""
        if local or len(calls) <= 1 or not self.client:
            return [fn(self.game, *c) if with_game else fn(*c) for c in calls]
        if with_game:
            if self._game_f is None:  # a fresh key per run: a game solved again is resent
                self._game_f = self.client.scatter(self.game, broadcast=True, hash=False)
            futures = [self.client.submit(fn, self._game_f, *c, pure=False) for c in calls]
        else:
            futures = [self.client.submit(fn, *c, pure=False) for c in calls]
        return list(self.client.gather(futures))


class Steps:
    """Counts the steps (a tier built, solved or packed) of this run, for ``stop_after``."""

    def __init__(self, stop_after: int | None) -> None:
        self.stop_after, self.done = stop_after, 0

    def next(self) -> None:
        if self.stop_after is not None and self.done >= self.stop_after:
            raise SolveStopped(f"stopped after {self.done} steps; run again to resume")
        self.done += 1


@dataclass(frozen=True)
class StoreJob:
    """What a store solver is given besides the game: the folder (``root``), its manifest
    (what the store already holds; ``format``, ``game`` and ``scored`` set for a new
    store, updated and written as steps finish), the :class:`Runner`, ``say`` (a line a
    step), ``bar`` (a progress bar on a terminal), the :class:`Steps` of this run, and the
    ``roots`` of an endgame store (compiled games only; None: from the start)."""

    root: Path
    manifest: dict[str, Any]
    runner: Runner
    say: Callable[[str], None]
    bar: bool | None
    steps: Steps
    roots: np.ndarray | None = None


class StoreSolver(Protocol):
    """A backend that enumerates, solves and packs a game into a store
    (:func:`perfectplay.store.compiled.solve_compiled_store`,
    :func:`perfectplay.store.python.solve_python_store`): returns the tier numbers and the
    number of positions stored."""

    def __call__(self, game: Any, job: StoreJob) -> tuple[list[int], int]:
        """Solve ``game`` (each backend its own kind: a CompiledGame, or a Python game with
        ``tier``, ``encode`` and ``decode``) into ``job.root``."""
