"""The page served on a free local port and opened in headless Chromium (Playwright), for
the browser tests of tests/test_web.py and tests/test_toy_game.py.

Chromium is found at $PERFECTPLAY_CHROMIUM or as ``chromium`` on PATH; without one a test
is skipped with that reason, except under CI (``CI`` set), where it fails."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def chromium() -> str | None:
    return os.environ.get("PERFECTPLAY_CHROMIUM") or shutil.which("chromium")


def need_chromium() -> tuple[str, Any]:
    """(Chromium's path, Playwright's sync API), or the test skipped (failed under CI)."""
    path = chromium()
    if path is None or not Path(path).exists():
        reason = "no Chromium: set PERFECTPLAY_CHROMIUM or put chromium on PATH"
        if os.environ.get("CI"):
            pytest.fail(reason + " (CI must run the browser tests)")
        pytest.skip(reason)
    return path, pytest.importorskip("playwright.sync_api")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def _page_at(url: str, path: str, sync_api: Any) -> Iterator[Any]:
    """Headless Chromium at ``url``, once the page's tabs are built."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        yield page
        browser.close()


@contextlib.contextmanager
def served_page(**app_options: Any) -> Iterator[Any]:
    """A Playwright page at the app's front page, once its tabs are built from
    /api/games; the server and the browser stop when the block ends. ``app_options`` go
    to ``create_app`` (``gamesman=``, a solved game served as by ``serve --game``)."""
    path, sync_api = need_chromium()
    import uvicorn

    from perfectplay.web.app import create_app

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(**app_options), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    try:
        with _page_at(f"http://127.0.0.1:{port}/", path, sync_api) as page:
            yield page
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextlib.contextmanager
def cli_page(*serve_args: str, wait: float = 240) -> Iterator[Any]:
    """A Playwright page at ``perfectplay serve SERVE_ARGS`` run as a user runs it: the
    command in a process of its own (from the repository's root, so ``examples/...``
    resolves), on a free port, opened once it answers; stopped by SIGTERM at the end,
    which must end it with exit code 0."""
    path, sync_api = need_chromium()
    port = _free_port()
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen([sys.executable, "-m", "perfectplay", "serve", "--port", str(port),
                             *serve_args], cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        began = time.monotonic()
        while True:
            if proc.poll() is not None:
                pytest.fail(f"perfectplay serve {' '.join(serve_args)} ended with "
                            f"{proc.returncode}: {proc.stdout.read() if proc.stdout else ''}")
            try:
                with urllib.request.urlopen(url + "api/games", timeout=5):
                    break
            except OSError:
                if time.monotonic() - began > wait:
                    pytest.fail(f"perfectplay serve did not answer within {wait:g} s")
                time.sleep(0.2)
        with _page_at(url, path, sync_api) as page:
            yield page
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            out, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
    assert proc.returncode == 0, out


@contextlib.contextmanager
def catalog_page() -> Iterator[Any]:
    """:func:`served_page` once the catalog's tabs are ready, with a 120 s default timeout
    (a first compile of a game's kernels may take that long on a cold cache)."""
    with served_page() as page:
        page.set_default_timeout(120_000)
        page.wait_for_selector("body[data-catalog-ready='1']")
        yield page


def open_catalog_game(page: Any, target: str, moves: str = "", mode: str = "first") -> str:
    """Open the catalog game ``target`` after ``moves`` (by name, comma-separated) with the
    computer playing ``mode``, by the page's own URL, and wait for its tab to show that
    ply with nothing loading. The tab's CSS selector."""
    from urllib.parse import quote

    name = target.split("(")[0]
    base = page.url.split("#")[0]
    page.goto(f"{base}#play={quote(target)}&moves={quote(moves)}&mode={mode}")
    page.reload()
    page.wait_for_selector("body[data-catalog-ready='1']")
    sec = f"#tab-cat-{name}"
    plies = len([m for m in moves.split(",") if m])
    page.wait_for_selector(f"{sec}.active[data-ply='{plies}']:not([data-loading])")
    return sec
