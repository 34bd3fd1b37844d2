"""The forked discovery helper: its cases (tests/workers_cases.py) run in a fresh
interpreter, where no thread left by another test stops the fork; here, the rules of when
it may fork."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from nojit import ROOT
from perfectplay.engine import workers

CAN_FORK = sys.platform.startswith("linux") and len(os.sched_getaffinity(0)) >= 2


@pytest.mark.skipif(not CAN_FORK, reason="the helper needs Linux and two CPUs")
def test_forked_discovery_cases_in_a_fresh_interpreter():
    env = {k: v for k, v in os.environ.items() if k != "PERFECTPLAY_WORKERS"}
    # -n 0: the cases in that one interpreter (the suite's -n auto started two more, 5 s
    # of CPU for 31 quick cases)
    out = subprocess.run([sys.executable, "-m", "pytest", "tests/workers_cases.py",
                          "-p", "no:cacheprovider", "-rs", "-n", "0"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert " passed" in out.stdout and "skipped" not in out.stdout, out.stdout[-2000:]


def test_helper_allowed_respects_the_switch_and_other_threads(monkeypatch):
    assert not workers.helper_allowed({"PERFECTPLAY_WORKERS": "1"})
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert workers.helper_allowed({}) == CAN_FORK
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert not workers.helper_allowed({})
