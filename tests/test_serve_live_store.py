"""``perfectplay serve --live-store DIR``: each folder must open as a store before the server
starts (one line, exit 1, when one does not), and the stores reach the app that the page's live
analysis reads them from (``create_app(live_stores=...)``), as absolute paths, since the
worker process may not share the command's folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from layered import LayeredGraph
from perfectplay.cli import main
from perfectplay.store import solve_tiered

pytest.importorskip("starlette")


def test_a_folder_that_is_no_store_is_refused_before_serving(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["serve", "--live-store", str(tmp_path)])
    assert out.exit_code == 1
    assert "is not a store" in out.output and "Traceback" not in out.output
    assert "serving" not in out.output


def test_the_stores_reach_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  client, served_app) -> None:
    solve_tiered(LayeredGraph(3), tmp_path / "layers", client=client)
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(main, ["serve", "--live-store", "layers"])
    assert out.exit_code == 0, out.output
    assert served_app["live_stores"] == [str((tmp_path / "layers").resolve())]
