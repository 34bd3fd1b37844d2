"""``perfectplay serve`` stops cleanly: a real server process, stopped as a terminal's Ctrl-C
stops it (SIGINT to the whole foreground process group, the worker process included) and as
systemd stops a service (SIGTERM to every process of the unit) or ``kill PID`` does (SIGTERM
to the server alone). Each time: one line, the exit code (130 for Ctrl-C, 0 for SIGTERM),
no traceback from any process, the port free again and no process left behind; a heavy
request in flight is answered 503 at once rather than holding the stop."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytestmark = pytest.mark.skipif(os.name != "posix", reason="process groups and signals")

START_SECONDS = 120  # a loaded machine: the server imports every game first


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _port_is_free(port: int) -> bool:
    """Whether a server could listen on ``port`` now (SO_REUSEADDR, as servers bind: only a
    socket still listening there refuses)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc; empty elsewhere)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie, dead but not yet reaped, does not count)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _start(port: int) -> subprocess.Popen[str]:
    """``perfectplay serve`` in a process group of its own (as a shell's foreground job),
    once it answers and its worker process is up."""
    proc = subprocess.Popen([sys.executable, "-m", "perfectplay", "serve", "--port",
                             str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    deadline = time.monotonic() + START_SECONDS
    while True:
        assert proc.poll() is None, proc.communicate()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        assert time.monotonic() < deadline, "the server did not answer"
        time.sleep(0.2)
    if Path("/proc").is_dir():  # the worker is started with the server
        assert any("spawn_main" in Path(f"/proc/{c}/cmdline").read_text(errors="replace")
                   for c in _children(proc.pid)), "no worker process"
    return proc


def _stop(proc: subprocess.Popen[str], sig: int, group: bool) -> tuple[int, str, float]:
    """Send ``sig`` to the server (or its whole group); its exit code, its stderr and how
    long it took to end."""
    kids = _children(proc.pid)
    t = time.monotonic()
    if group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        pytest.fail(f"serve did not stop within 60 s of {signal.Signals(sig).name}:\n{err}")
    took = time.monotonic() - t
    deadline = time.monotonic() + 10
    while any(_alive(k) for k in kids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(k) for k in kids), "a process of the server was left running"
    return proc.returncode, err, took


def _heavy_request(port: int, answers: list[object]) -> None:
    """A request the worker process answers, ~10 s of work (play on a 40 x 40 Portal)."""
    board = "\n".join(["O" + "." * 39] + ["." * 40] * 38 + ["." * 39 + "O"])
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/games/portal/play",
                                 data=json.dumps({"text": board}).encode(),
                                 headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=90) as r:
            answers.append(r.status)
    except urllib.error.HTTPError as exc:
        answers.append((exc.code, json.loads(exc.read())["detail"]))
    except OSError as exc:
        answers.append(exc)


def _check_clean(code: int, err: str, want: int) -> None:
    assert "Traceback" not in err and "Error" not in err, err
    assert err.strip().splitlines()[-1] == "perfectplay: stopped serving", err
    assert code == want, (code, err)


def test_ctrl_c_stops_serve_with_one_line_and_130_even_with_a_heavy_request_in_flight():
    port = _free_port()
    proc = _start(port)
    answers: list[object] = []
    asking = threading.Thread(target=_heavy_request, args=(port, answers))
    asking.start()
    time.sleep(1.5)  # the request is in the worker (or waits for its warm-up)
    code, err, took = _stop(proc, signal.SIGINT, group=True)
    asking.join(30)
    _check_clean(code, err, 130)
    assert _port_is_free(port)
    assert answers and answers[0] == (503, "the server is stopping; try again when it is "
                                           "back"), answers
    assert took < 15, f"the stop waited {took:.1f} s for the heavy request"


@pytest.mark.parametrize("group", [True, False], ids=["the whole group", "the server"])
def test_sigterm_stops_serve_with_one_line_and_0(group):
    port = _free_port()
    proc = _start(port)
    time.sleep(1.0)
    code, err, _ = _stop(proc, signal.SIGTERM, group=group)
    _check_clean(code, err, 0)
    assert _port_is_free(port)
