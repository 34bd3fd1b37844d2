"""The page served on a free local port and opened in headless Chromium (Playwright), for
the browser tests of tests/test_web.py and tests/test_toy_game.py.

Chromium is found at $PERFECTPLAY_CHROMIUM or as ``chromium`` on PATH; without one a test
is skipped with that reason, except under CI (``CI`` set), where it fails."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def chromium() -> str | None:
    return os.environ.get("PERFECTPLAY_CHROMIUM") or shutil.which("chromium")


@contextlib.contextmanager
def served_page(**app_options: Any) -> Iterator[Any]:
    """A Playwright page at the app's front page, once its tabs are built from
    /api/games; the server and the browser stop when the block ends. ``app_options`` go
    to ``create_app`` (``gamesman=``, a solved game served as by ``serve --game``)."""
    path = chromium()
    if path is None or not Path(path).exists():
        reason = "no Chromium: set PERFECTPLAY_CHROMIUM or put chromium on PATH"
        if os.environ.get("CI"):
            pytest.fail(reason + " (CI must run the browser tests)")
        pytest.skip(reason)
    sync_api = pytest.importorskip("playwright.sync_api")
    import uvicorn

    from perfectplay.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(**app_options), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector("body[data-ready='1']")
            yield page
            browser.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)
