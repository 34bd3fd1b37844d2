"""numba's disk cache as :mod:`perfectplay.numbacache` makes it: writers take turns, and a
kernel's entry is not served after a module it calls has changed.

Each test runs real processes on a cache folder of its own (``NUMBA_CACHE_DIR``), as two
users' runs, two test workers or a server's workers would."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

numba = pytest.importorskip("numba")

CALLEE = """
import numba

@numba.njit(cache=True)
def step(x):
    return x + {add}
"""

CALLER = """
import numba
from callee import step

@numba.njit(cache=True)
def twice(x):
    return step(step(x))
"""

RUN = """
import sys
import perfectplay  # installs the safe cache before numba loads
import numpy as np
from caller import twice
print(twice(np.int64(1)), twice(np.float64(1.5)), twice(np.int32(2)))
"""


def _write(folder: Path, name: str, text: str) -> None:
    (folder / name).write_text(textwrap.dedent(text))


def _env(folder: Path) -> dict[str, str]:
    src = str(Path(__file__).resolve().parent.parent / "src")
    return {**os.environ, "NUMBA_CACHE_DIR": str(folder / "cache"),
            "PYTHONPATH": os.pathsep.join([str(folder), src])}


def _run(folder: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", RUN], cwd=folder, env=_env(folder),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _answer(proc: subprocess.Popen[str]) -> str:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err[-2000:]
    return out.strip()


def test_an_edited_callee_is_not_served_from_the_callers_cache(tmp_path: Path) -> None:
    _write(tmp_path, "callee.py", CALLEE.format(add=1))
    _write(tmp_path, "caller.py", CALLER)
    assert _answer(_run(tmp_path)) == "3 3.5 4"
    assert _answer(_run(tmp_path)) == "3 3.5 4"  # read back from the cache
    _write(tmp_path, "callee.py", CALLEE.format(add=10))  # the caller's file is untouched
    assert _answer(_run(tmp_path)) == "21 21.5 22"


def test_two_processes_compiling_at_once_leave_entries_that_read_back(tmp_path: Path) -> None:
    _write(tmp_path, "callee.py", CALLEE.format(add=1))
    _write(tmp_path, "caller.py", CALLER)
    runs = [_run(tmp_path) for _ in range(3)]  # cold, all three at once
    assert [_answer(p) for p in runs] == ["3 3.5 4"] * 3
    assert _answer(_run(tmp_path)) == "3 3.5 4"
    data = list((tmp_path / "cache").rglob("caller.twice-*.nbc"))
    assert len(data) == 3, data  # one data file a signature, none written over another


def test_a_save_waits_for_the_lock_a_reader_holds(tmp_path: Path) -> None:
    from numba.core.caching import IndexDataCacheFile

    from perfectplay.numbacache import make_cache_safe

    make_cache_safe()
    files = IndexDataCacheFile(str(tmp_path), "kernel", source_stamp=(0.0, 0))
    held = os.open(str(tmp_path / "kernel.nbi.lock"), os.O_RDWR | os.O_CREAT)
    fcntl.flock(held, fcntl.LOCK_SH)
    saved = threading.Event()
    writer = threading.Thread(target=lambda: (files.save("key", b"data"), saved.set()))
    writer.start()
    time.sleep(0.3)
    assert not saved.is_set()  # blocked while the reader holds its shared lock
    os.close(held)
    writer.join(timeout=30)
    assert saved.is_set()
    assert files.load("key") == b"data"


def test_the_reached_digest_follows_the_modules_a_kernel_calls(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    from perfectplay import numbacache

    _write(tmp_path, "callee.py", CALLEE.format(add=1))
    _write(tmp_path, "caller.py", CALLER)
    monkeypatch.syspath_prepend(str(tmp_path))
    import caller

    first = numbacache.reached_digest(caller.twice.py_func)
    assert numbacache.reached_digest(caller.twice.py_func) == first
    numbacache._module_digest.cache_clear()
    _write(tmp_path, "callee.py", CALLEE.format(add=2))
    assert numbacache.reached_digest(caller.twice.py_func) != first
    numbacache._module_digest.cache_clear()
    for name in ("caller", "callee"):
        sys.modules.pop(name, None)


RACE = """
import os, sys, time
import perfectplay  # installs the safe cache before numba loads
import numpy as np
from caller import twice
while not os.path.exists("go"):
    time.sleep(0.01)
twice(np.int64(1))
print(sum(twice.stats.cache_misses.values()), sum(twice.stats.cache_hits.values()))
"""


def test_two_processes_needing_one_kernel_compile_it_once(tmp_path: Path) -> None:
    _write(tmp_path, "callee.py", CALLEE.format(add=1))
    _write(tmp_path, "caller.py", CALLER)
    runs = [subprocess.Popen([sys.executable, "-c", RACE], cwd=tmp_path, env=_env(tmp_path),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    time.sleep(0.5)
    (tmp_path / "go").write_text("")  # both ask for the same compile at the same moment
    counts = sorted(_answer(p) for p in runs)
    assert counts == ["0 1", "1 0"]  # one compiled, the other waited and read its entry


class Gone:
    """A class an index names, then removed (as an upgrade or an edit removes one)."""


def test_an_index_naming_a_class_that_is_gone_reads_as_a_miss(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    from numba.core.caching import IndexDataCacheFile

    from perfectplay.numbacache import make_cache_safe

    make_cache_safe()
    files = IndexDataCacheFile(str(tmp_path), "kernel", source_stamp=(0.0, 0))
    files.save(("old", Gone()), b"old code")  # the index pickles the key, naming Gone
    monkeypatch.delattr(sys.modules[__name__], "Gone")
    assert files.load(("new",)) is None  # numba alone: AttributeError out of the index
    files.save(("new",), b"new code")
    assert files.load(("new",)) == b"new code"
