"""A store or a book answers only for its own game and only while it is whole
(perfectplay.store.integrity): another game's folder is refused on resume and on open; a
changed byte of a tier file, of an index or of the manifest's tables, a cut ``.counts`` file
and a missing file are errors naming the file, never answers; one writer at a time (a lock
that a killed run does not leave held); files written whole or not at all, a full disk said
as itself; a healthy book verifies."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from layered import LayeredGraph
from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.cli import main
from perfectplay.store import (
    OtherGame,
    SolveStopped,
    StoreDamaged,
    StoreError,
    StoreInUse,
    open_store,
    solve_tiered,
)
from perfectplay.store.book import build_book
from perfectplay.store.integrity import FolderLock, game_identity
from perfectplay.store.layout import read_manifest, save_array, seal, tier_path, write_manifest
from perfectplay.store.verify import verify_store

C4 = "connect4(width=4, height=3)"


@pytest.fixture(scope="module")
def c4_store(client, tmp_path_factory):
    """Connect Four 4x3 solved into a store (tiers kept by rank: present and counts)."""
    root = tmp_path_factory.mktemp("c4") / "tb"
    solve_tiered(ConnectFour(4, 3), root, client=client, game_ref=C4, check=False)
    return root


def _copy(src: Path, dst: Path) -> Path:
    import shutil

    shutil.copytree(src, dst)
    return dst


def _cli(*args: str):
    return CliRunner().invoke(main, list(args))


# -- another game ---------------------------------------------------------------------------------
def test_a_finished_store_of_another_game_is_refused_not_reported_as_solved(c4_store,
                                                                           tmp_path):
    r = _cli("solve", "connect4(width=3, height=4)", "--store", str(c4_store))
    assert r.exit_code == 1, r.output
    assert "already solved" not in r.output
    assert f"{c4_store} holds a store of ConnectFour(4, 3) ({C4}), not of ConnectFour(3, 4)" \
        in r.output
    with pytest.raises(OtherGame, match=r"not of ConnectFour\(3, 4\)"):
        open_store(c4_store, ConnectFour(3, 4))
    # its own game: already solved, the same answer
    r = _cli("solve", C4, "--store", str(c4_store))
    assert r.exit_code == 0 and "already solved" in r.output, r.output


def test_a_game_of_the_same_name_with_other_rules_is_refused(client, tmp_path):
    """LayeredGraph(5) and LayeredGraph(6) share a name: their rules' digest tells them
    apart, on resume of an unfinished store and on open of a finished one."""
    a, b = LayeredGraph(5, tiers=5, width=6), LayeredGraph(6, tiers=5, width=6)
    assert game_identity(a)["name"] == game_identity(b)["name"]
    with pytest.raises(SolveStopped):
        solve_tiered(a, tmp_path / "half", client=client, stop_after=1)
    with pytest.raises(OtherGame, match="whose rules differ"):
        solve_tiered(b, tmp_path / "half", client=client)
    solve_tiered(a, tmp_path / "half", client=client)  # its own game resumes
    with pytest.raises(OtherGame, match="whose rules differ"):
        open_store(tmp_path / "half", b)
    with open_store(tmp_path / "half", a) as store:
        assert store.sealed and store.verify(sample=None).ok


# -- damage ---------------------------------------------------------------------------------------
def test_a_changed_cell_is_an_error_naming_its_file_not_an_answer(c4_store, tmp_path):
    root = _copy(c4_store, tmp_path / "tb")
    game = ConnectFour(4, 3)
    with open_store(root, game) as store:
        start_tier = int(game.rules.tier(game.canonical(game.initial())))
        truth = store.value()
    path = tier_path(root, start_tier, "cells")
    data = bytearray(path.read_bytes())
    data[0] ^= 1
    path.write_bytes(bytes(data))
    with open_store(root, game) as store, pytest.raises(StoreDamaged, match=str(path)):
        store.value()
    r = _cli("query", str(root))
    assert r.exit_code == 1 and str(path) in r.output and "Traceback" not in r.output
    assert truth.value not in r.output.split("error:")[0]
    r = _cli("verify", str(root), "--sample", "all")
    assert r.exit_code == 1 and "(its checksum differs)" in r.output, r.output


def test_an_edited_value_table_in_the_manifest_is_refused_at_open(c4_store, tmp_path):
    root = _copy(c4_store, tmp_path / "tb")
    manifest = read_manifest(root)
    entry = next(e for e in manifest["tiers"] if len(e["palette"]) >= 2)
    entry["palette"][0], entry["palette"][1] = entry["palette"][1], entry["palette"][0]
    write_manifest(root, manifest)
    with pytest.raises(StoreDamaged, match="manifest.json has changed"):
        open_store(root)
    for command in ("query", "verify", "analyze"):
        r = _cli(command, str(root))
        assert r.exit_code == 1 and "manifest.json has changed" in r.output, (command, r.output)


def test_a_cut_or_missing_counts_file_is_an_error_not_a_read_past_its_end(c4_store, tmp_path):
    root = _copy(c4_store, tmp_path / "tb")
    counts = sorted((root / "tiers").glob("*.counts"), key=lambda p: p.stat().st_size)[-1]
    counts.write_bytes(counts.read_bytes()[:8])
    with pytest.raises(StoreDamaged, match=str(counts)):
        open_store(root)
    counts.unlink()
    for command in ("query", "verify", "analyze"):
        r = _cli(command, str(root))
        assert r.exit_code == 1 and f"{counts} is missing" in r.output, (command, r.output)
        assert "Traceback" not in r.output


def test_a_changed_index_byte_is_refused_at_open(client, tmp_path):
    game = LayeredGraph(5, tiers=5, width=6)  # a Python game: tiers kept by key and index
    root = solve_tiered(game, tmp_path / "tb", client=client).store
    index = next((root / "tiers").glob("*.index"))
    data = bytearray(index.read_bytes())
    data[-1] ^= 0x10
    index.write_bytes(bytes(data))
    with pytest.raises(StoreDamaged, match=f"{index} has changed"):
        open_store(root, game)


def test_an_id_past_the_palette_is_a_store_error(c4_store, tmp_path):
    """A store whose files were written wrong (its checksums match them): a palette id past
    the table is the project's error (a web request gets a 4xx), not an IndexError."""
    root = _copy(c4_store, tmp_path / "tb")
    manifest = read_manifest(root)
    entry = max(manifest["tiers"], key=lambda e: e["size"])
    path = tier_path(root, int(entry["tier"]), "cells")
    cells = np.fromfile(path, np.uint8)
    cells[:] = 250
    cells.tofile(path)
    manifest["checksums"][path.name] = __import__("hashlib").sha256(cells.tobytes()).hexdigest()
    manifest["seal"] = seal(manifest)
    write_manifest(root, manifest)
    game = ConnectFour(4, 3)
    with open_store(root, game) as store:
        code = int(store.codes(int(entry["tier"]))[0])
        with pytest.raises(StoreDamaged, match="value id 250, past the"):
            store.lookup([code])


def test_stores_written_before_checks_are_opened_or_refused_as_documented(c4_store,
                                                                          tmp_path):
    root = _copy(c4_store, tmp_path / "tb")
    manifest = read_manifest(root)
    del manifest["seal"]  # written before seals: its files are still checked
    write_manifest(root, manifest)
    with open_store(root) as store:
        assert not store.sealed and store.value().value == "tie"
        report = verify_store(store, sample=100)
        assert report.ok and any("before manifests were sealed" in n for n in report.notes)
    del manifest["checksums"]  # before checksums: refused, with how to rebuild
    write_manifest(root, manifest)
    with pytest.raises(StoreError, match="written before stores recorded checksums.*rebuild"):
        open_store(root)


# -- one writer -----------------------------------------------------------------------------------
def test_a_second_writer_is_told_who_holds_the_folder(client, tmp_path):
    game = LayeredGraph(5, tiers=5, width=6)
    root = tmp_path / "tb"
    with pytest.raises(SolveStopped):
        solve_tiered(game, root, client=client, stop_after=1)
    with FolderLock(root), pytest.raises(StoreInUse) as caught:
        solve_tiered(game, root, client=client)
    assert f"pid {os.getpid()} on " in str(caught.value) and "since" in str(caught.value)
    assert solve_tiered(game, root, client=client).positions > 0  # released: resumes


def test_a_killed_holder_leaves_no_lock_behind(tmp_path):
    code = ("import sys, time; from pathlib import Path; "
            "from perfectplay.store.integrity import FolderLock; "
            "lock = FolderLock(Path(sys.argv[1])).__enter__(); print('held', flush=True); "
            "time.sleep(60)")
    proc = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        with pytest.raises(StoreInUse, match=f"pid {proc.pid} on "), FolderLock(tmp_path):
            pass
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    with FolderLock(tmp_path):  # the lock file remains; the lock died with its holder
        assert json.loads((tmp_path / "lock").read_text())["pid"] == os.getpid()


# -- writes ---------------------------------------------------------------------------------------
def test_a_full_disk_keeps_the_old_file_and_says_so(tmp_path, monkeypatch):
    path = tmp_path / "a.cells"
    save_array(path, np.arange(4, dtype=np.uint8))

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(StoreError, match=f"cannot write {path}: No space left on device"):
        save_array(path, np.arange(9, dtype=np.uint8))
    assert np.fromfile(path, np.uint8).tolist() == [0, 1, 2, 3]
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left


def test_book_on_a_full_disk_is_one_line(tmp_path, monkeypatch):
    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    r = _cli("book", "connect4(width=4, height=4)", "--plies", "2", "--out",
             str(tmp_path / "b"))
    assert r.exit_code == 1, r.output
    assert "No space left on device" in r.output and "rules raised" not in r.output
    assert "Traceback" not in r.output


# -- books ----------------------------------------------------------------------------------------
def test_a_healthy_book_verifies_and_a_damaged_one_does_not(tmp_path):
    root = build_book(ConnectFour(4, 4), 4, tmp_path / "b",
                      game_ref="connect4(width=4, height=4)").store
    r = _cli("verify", str(root), "--sample", "all", "--json")
    data = json.loads(r.output)
    assert r.exit_code == 0 and data["ok"], r.output
    assert data["checked"] == data["total"] == 119 - 82  # all but the 82 of the last ply
    assert any("82 positions of ply 4" in n for n in data["notes"])
    with pytest.raises(OtherGame, match="holds a book of ConnectFour"):
        build_book(ConnectFour(5, 4), 4, root)
    (tmp_path / "c").mkdir()
    with FolderLock(tmp_path / "c"), pytest.raises(StoreInUse, match="being written by"):
        build_book(ConnectFour(4, 4), 4, tmp_path / "c")
    # a cell of ply 3 (derived, so checked by its children) changed
    game = ConnectFour(4, 4)
    with open_store(root, game) as book:
        tier = 3  # ply 3: three stones
        cells = tier_path(root, tier, "cells")
        ids = np.fromfile(cells, book.tables[tier].cells.dtype)
    ids[0] = (ids[0] + 1) % len(book.tables[tier].rems)
    ids.tofile(cells)
    r = _cli("verify", str(root), "--sample", "all")
    assert r.exit_code == 1 and "3.cells has changed" in r.output
    assert "do not follow from their children" in r.output


def test_serve_answers_a_damaged_file_with_a_4xx_naming_it(c4_store, tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from perfectplay.cli.serve import _served_game
    from perfectplay.web.app import create_app

    root = _copy(c4_store, tmp_path / "tb")
    for cells in (root / "tiers").glob("*.cells"):  # every tier's first id past its table
        data = bytearray(cells.read_bytes())
        data[0] = 200
        cells.write_bytes(bytes(data))
    solved, gid = _served_game(str(root), None)  # opens: the index files are whole
    c = TestClient(create_app(gamesman=solved, gamesman_id=gid), raise_server_exceptions=False)
    [listed] = c.get("/gamesman/").json()
    r = c.get(f"/gamesman/{listed['id']}/standard/positions/")
    assert r.status_code == 422, (r.status_code, r.text)
    assert "cells has changed since the store was written" in r.json()["error"]


def test_a_second_book_run_is_one_line_naming_the_holder(tmp_path):
    (tmp_path / "b").mkdir()
    with FolderLock(tmp_path / "b"):
        r = _cli("book", "connect4(width=4, height=4)", "--plies", "2", "--out",
                 str(tmp_path / "b"))
    assert r.exit_code == 1 and r.output.count("\n") == 1, r.output
    assert f"is being written by another run (pid {os.getpid()} on " in r.output


def test_a_damaged_saved_chunk_is_searched_again_on_resume(tmp_path):
    """A book's chunk file cut by a crash is not an error: its positions are searched
    again, and the book is the one a clean build makes."""
    game = ConnectFour(4, 4)
    with pytest.raises(SolveStopped):
        build_book(game, 4, tmp_path / "b", stop_after=2)
    chunk = sorted((tmp_path / "b" / "work").glob("done-*.npy"))[0]
    chunk.write_bytes(chunk.read_bytes()[:20])
    build_book(game, 4, tmp_path / "b")
    build_book(game, 4, tmp_path / "clean")
    for name in sorted(p.name for p in (tmp_path / "clean" / "tiers").iterdir()):
        assert (tmp_path / "b" / "tiers" / name).read_bytes() == \
            (tmp_path / "clean" / "tiers" / name).read_bytes(), name


SHIPPED_BOOKS = sorted((Path(__file__).resolve().parent.parent / "src" / "perfectplay" /
                        "catalog").glob("*/books/*/manifest.json"))


@pytest.mark.parametrize("manifest", SHIPPED_BOOKS, ids=lambda p: p.parent.name)
def test_the_shipped_books_are_sealed_and_name_their_game(manifest):
    """Every byte a shipped book answers from is covered: its manifest (value tables
    included) by its seal, its tier files by their checksums, and its game recorded, so
    an edited table is an error at open and another game's rules are refused."""
    held = json.loads(manifest.read_text())
    assert held["seal"] == seal(held)
    assert set(held["checksums"]) == {p.name for p in (manifest.parent / "tiers").iterdir()}
    assert held["identity"]["name"] == held["name"] and len(held["identity"]["rules"]) == 64
