"""The web server under load, on loopback: 32 clients sending small requests keep their
latency (p99 under 250 ms) while heavy requests run beside them in the worker process,
and the server's memory stays bounded. Bounded in count (32 x 15 small requests) and time
(under a minute)."""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CLIENTS, REQUESTS = 32, 15
P99_SECONDS = 0.25
#: The server process's resident memory after the run (the worker process is apart).
MAX_SERVER_MB = 700


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _post(port: int, path: str, body: dict, timeout: float = 60) -> tuple[int, float]:
    data = json.dumps(body).encode()
    t = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("POST", path, data, {"content-type": "application/json"})
        status = conn.getresponse().status
    finally:
        conn.close()
    return status, time.perf_counter() - t


def _get_all(port: int, path: str, timeout: float = 180) -> int:
    """GET ``path`` and read the whole answer (a streamed analysis to its end): the status."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "perfectplay", "serve", "--port",
                             str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={**os.environ})
    try:
        deadline = time.time() + 90
        while time.time() < deadline:
            try:
                if _post(port, "/api/games/coins/analyze", {"row": [1, 2]}, 5)[0] == 200:
                    break
            except OSError:
                time.sleep(0.3)
        else:
            pytest.fail("the server did not start within 90 s")
        rock = (EXAMPLES / "rock_sample.txt").read_text()
        portal = (EXAMPLES / "portal_seed.txt").read_text()
        for path, body in (("/api/games/rock/analyze", {"text": rock}),
                           ("/api/games/portal/analyze", {"text": portal})):
            assert _post(port, path, body)[0] == 200  # numba's kernels loaded
        for live_game in ("connect4(width=7, height=6)",
                          "kalah(houses=6, seeds=4, empty_capture=True)"):
            assert _get_all(port, f"/api/games/{quote(live_game)}/analysis") == 200  # the
            # live worker's start-up warm-up is over (it would share the cores with the run)
        yield port, proc
    finally:
        proc.terminate()
        proc.wait(30)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc (Linux)")
def test_small_requests_keep_their_latency_beside_heavy_ones(server):
    port, proc = server
    side = 220  # a heavy request: 48,400 cells, in the worker
    maze = "\n".join(["E" + "." * (side - 1)] + ["." * side] * (side - 2) +
                     ["." * (side - 1) + "X"])
    rock = (EXAMPLES / "rock_sample.txt").read_text()
    stop = threading.Event()
    heavy_codes: list[int] = []

    def heavy() -> None:
        while not stop.is_set():
            heavy_codes.append(_post(port, "/api/games/rock/analyze", {"text": maze})[0])
            if heavy_codes[-1] == 503:
                stop.wait(0.5)  # told to come back later (a client honours Retry-After)

    latencies: list[float] = []
    codes: list[int] = []
    lock = threading.Lock()

    def client(k: int) -> None:
        rng = random.Random(k)
        for i in range(REQUESTS):
            if i % 3 == 2:
                status, dt = _post(port, "/api/games/rock/analyze", {"text": rock})
            else:
                row = [rng.randint(-50, 50) for _ in range(rng.randint(1, 30))]
                status, dt = _post(port, "/api/games/coins/analyze", {"row": row, "line": True})
            with lock:
                latencies.append(dt)
                codes.append(status)

    heavies = [threading.Thread(target=heavy) for _ in range(3)]
    for t in heavies:
        t.start()
    time.sleep(0.5)  # the heavy requests are running
    clients = [threading.Thread(target=client, args=(k,)) for k in range(CLIENTS)]
    start = time.perf_counter()
    for t in clients:
        t.start()
    for t in clients:
        t.join(120)
    elapsed = time.perf_counter() - start
    stop.set()
    for t in heavies:
        t.join(120)
    assert codes == [200] * (CLIENTS * REQUESTS)
    latencies.sort()
    p50 = latencies[len(latencies) // 2]
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    print(f"{len(latencies)} small requests in {elapsed:.1f} s: p50 {p50 * 1000:.0f} ms, "
          f"p99 {p99 * 1000:.0f} ms; heavy answers {sorted(set(heavy_codes))} "
          f"({len(heavy_codes)}); server {_rss_mb(proc.pid):.0f} MB")
    assert p99 < P99_SECONDS, f"p99 {p99 * 1000:.0f} ms"
    assert heavy_codes and set(heavy_codes) <= {200, 503} and 200 in heavy_codes
    assert _rss_mb(proc.pid) < MAX_SERVER_MB
