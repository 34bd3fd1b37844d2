"""``perfectplay verify``: a saved solution or a store as written verifies (exit 0); one
changed value is named by position with exit 1; a bad --sample is one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from click.testing import CliRunner

from perfectplay.cli import main

NIM = str(Path(__file__).resolve().parent.parent / "examples" / "nim.py") + ":Nim((2, 3, 4))"


def _saved(tmp_path: Path) -> Path:
    path = tmp_path / "nim.npz"
    r = CliRunner().invoke(main, ["solve", NIM, "--save", str(path)])
    assert r.exit_code == 0, r.output
    return path


def test_a_saved_solution_verifies_in_full(tmp_path):
    path = _saved(tmp_path)
    r = CliRunner().invoke(main, ["verify", str(path), "--sample", "all"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("verified 28 of 28 positions: every stored value")
    r = CliRunner().invoke(main, ["verify", str(path), "--sample", "10", "--json"])
    data = json.loads(r.output)
    assert r.exit_code == 0 and data["ok"] and data["checked"] == 10 and data["total"] == 28


def test_a_changed_value_is_named_and_exits_1(tmp_path):
    path = _saved(tmp_path)
    with np.load(path) as f:
        arrays = {k: f[k] for k in f.files}
    i = int(np.flatnonzero(arrays["key"] == "(1, 2, 3)")[0])  # 1 ^ 2 ^ 3 = 0: lost
    arrays["value"][i] = 1  # now says "win"
    np.savez_compressed(path, **arrays)
    r = CliRunner().invoke(main, ["verify", str(path), "--sample", "all"])
    assert r.exit_code == 1
    assert "(1, 2, 3): stored win in" in r.output and "its children give lose in" in r.output


def test_a_bad_sample_is_one_line(tmp_path):
    r = CliRunner().invoke(main, ["verify", str(_saved(tmp_path)), "--sample", "some"])
    assert r.exit_code != 0
    assert "--sample is a count of positions (at least 1) or 'all', not 'some'" in r.output


def test_a_save_on_a_full_disk_keeps_the_file_already_there(tmp_path, monkeypatch):
    """--save writes a temporary file, flushes and renames it: a full disk during the save
    is one line naming the file, and the good solution saved before is left whole."""
    import errno
    import os

    path = _saved(tmp_path)
    before = path.read_bytes()

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    r = CliRunner().invoke(main, ["solve", NIM, "--save", str(path)])
    assert r.exit_code == 1
    assert f"cannot write {path}: No space left on device" in r.output
    assert path.read_bytes() == before and sorted(tmp_path.iterdir()) == [path]
    monkeypatch.undo()
    r = CliRunner().invoke(main, ["verify", str(path), "--sample", "all"])
    assert r.exit_code == 0, r.output
