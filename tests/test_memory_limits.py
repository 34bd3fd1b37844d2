"""Memory limits as the machine sets them (issue 68): under a 6 GB cgroup, Connect Four 6x5
was killed by the kernel after 21 minutes with no message, because only the machine's
MemAvailable and /sys/fs/cgroup/memory.max were read, never the process's own cgroup. The
readers now follow /proc/self/cgroup (v2 ``memory.max``, v1 ``memory.limit_in_bytes`` under
the memory controller's mount, every folder up to the root) and ``RLIMIT_AS``, and a solve
whose size is known up front is refused before any work, naming the need and the limit.
Each test points the readers at fake files in ``tmp_path``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from perfectplay import LimitError, solve, store
from perfectplay.cli import engine as cli_engine
from perfectplay.cli import main
from perfectplay.engine.discovery import graph
from perfectplay.engine.discovery.graph import (
    memory_cap,
    position_limit,
    refuse_too_big,
    refuse_unless_fits,
)
from perfectplay.engine.protocol import PositionCount, capabilities
from perfectplay.engine.target import catalog_positions
from perfectplay.games import connect4, kalah, tictactoe
from perfectplay.registry import catalog
from takeaway import Countdown

GiB, MiB = 2**30, 2**20


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A machine of 64 GiB available, no cgroup limit and no RLIMIT_AS, read from files in
    ``tmp_path`` (each test adds its limits)."""
    (tmp_path / "meminfo").write_text(f"MemTotal: 100 kB\nMemAvailable: {64 * GiB // 1024} kB\n")
    (tmp_path / "cgroup").write_text("0::/\n")
    (tmp_path / "mountinfo").write_text("")
    (tmp_path / "sys").mkdir()
    monkeypatch.setattr(graph, "PROC_MEMINFO", str(tmp_path / "meminfo"))
    monkeypatch.setattr(graph, "PROC_CGROUP", str(tmp_path / "cgroup"))
    monkeypatch.setattr(graph, "PROC_MOUNTINFO", str(tmp_path / "mountinfo"))
    monkeypatch.setattr(graph, "CGROUP_ROOT", str(tmp_path / "sys"))
    monkeypatch.setattr(graph, "_address_space_left", lambda: 2**62)
    return tmp_path


def _files(folder: Path, **files: object) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name.replace("__", ".")).write_text(f"{text}\n")
    return folder


def test_no_limit_is_the_machines_memory(machine):
    cap = memory_cap()
    assert cap.free == 64 * GiB and "MemAvailable" in cap.source


def test_a_v2_cgroup_is_found_through_proc_self_cgroup(machine):
    """A systemd scope (``systemd-run -p MemoryMax=6G``): the limit sits in the process's
    own folder, not at /sys/fs/cgroup/memory.max; page cache it can reclaim is not held."""
    (machine / "cgroup").write_text("0::/user.slice/run-7.scope\n")
    scope = _files(machine / "sys" / "user.slice" / "run-7.scope", memory__max=6 * GiB,
                   memory__current=GiB, memory__stat=f"anon 1\ninactive_file {512 * MiB}")
    cap = memory_cap()
    assert cap.free == 6 * GiB - 512 * MiB
    assert str(scope / "memory.max") in cap.source and "6.0 GiB" in cap.source
    assert position_limit("tiers") == int(cap.free * 0.8) // 30


def test_a_parents_tighter_limit_holds_its_children(machine):
    (machine / "cgroup").write_text("0::/user.slice/run-7.scope\n")
    _files(machine / "sys" / "user.slice", memory__max=4 * GiB, memory__current=3 * GiB)
    _files(machine / "sys" / "user.slice" / "run-7.scope", memory__max="max",
           memory__current=GiB)
    assert memory_cap().free == GiB


def test_a_container_sees_its_cgroup_as_the_root(machine):
    """cgroup v2 with its own namespace: ``0::/`` and the limit at the root, as before."""
    _files(machine / "sys", memory__max=2 * GiB, memory__current=0)
    assert memory_cap().free == 2 * GiB


def test_a_v1_memory_controller_under_its_mount(machine):
    """cgroup v1 (this kind of machine): the memory controller mounted at
    /sys/fs/cgroup/memory, the process in a nested group; a v1 "no limit" is ignored."""
    mount = machine / "sys" / "memory"
    (machine / "cgroup").write_text("5:devices:/\n4:memory:/jobs/abc\n0::/\n")
    (machine / "mountinfo").write_text(
        f"31 23 0:28 / {machine / 'sys'} rw - tmpfs tmpfs rw\n"
        f"35 31 0:32 / {mount} rw,relatime - cgroup cgroup rw,memory\n")
    _files(mount, memory__limit_in_bytes=9223372036854771712, memory__usage_in_bytes=GiB)
    group = _files(mount / "jobs" / "abc", memory__limit_in_bytes=6 * GiB,
                   memory__usage_in_bytes=2 * GiB,
                   memory__stat=f"cache 5\ntotal_inactive_file {GiB}")
    cap = memory_cap()
    assert cap.free == 5 * GiB and str(group / "memory.limit_in_bytes") in cap.source


def test_a_v1_container_whose_mount_root_is_its_own_group(machine):
    mount = machine / "sys" / "memory"
    (machine / "cgroup").write_text("4:memory:/docker/abc\n")
    (machine / "mountinfo").write_text(
        f"35 31 0:32 /docker/abc {mount} ro - cgroup cgroup rw,memory\n")
    _files(mount, memory__limit_in_bytes=3 * GiB, memory__usage_in_bytes=GiB)
    assert memory_cap().free == 2 * GiB


def test_the_address_space_limit_counts_too(machine, monkeypatch):
    monkeypatch.setattr(graph, "_address_space_left", lambda: 3 * GiB)
    cap = memory_cap()
    assert cap.free == 3 * GiB and "RLIMIT_AS" in cap.source


def test_a_solve_that_cannot_fit_is_refused_before_the_work(machine):
    """The issue's case: Connect Four 6x5 (2,818,972,642 positions, Tromp) under a 6 GiB
    cgroup: the need (78.8 GiB at 30 bytes) and the limit (its file), before any work."""
    (machine / "cgroup").write_text("0::/run-7.scope\n")
    _files(machine / "sys" / "run-7.scope", memory__max=6 * GiB, memory__current=0)
    with pytest.raises(LimitError) as err:
        refuse_unless_fits(2_818_972_642, "tiers", "2,818,972,642 positions (Tromp)")
    assert str(err.value).startswith(
        "2,818,972,642 positions (Tromp): about 78.8 GiB at 30 bytes a position, more than "
        "the 4.8 GiB this process may use (80 % of 6.0 GiB: the memory cgroup's limit of "
        "6.0 GiB")
    assert "run-7.scope/memory.max" in str(err.value)
    refuse_unless_fits(1_000_000, "tiers", "a million positions")  # 29 MiB: fits


def test_the_command_line_refuses_it_up_front(machine):
    (machine / "cgroup").write_text("0::/run-7.scope\n")
    _files(machine / "sys" / "run-7.scope", memory__max=6 * GiB, memory__current=0)
    r = CliRunner().invoke(main, ["solve", "connect4(width=6, height=5)"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.output.startswith("perfectplay: error: connect4(width=6, height=5) is too big to "
                               "solve whole: 2,818,972,642 positions (Tromp), at least "
                               "352,371,581 kept up to symmetry: about 9.8 GiB")
    assert "4.8 GiB this process may use" in r.output and "memory.max" in r.output


def test_a_discovery_past_the_limit_says_which_limit(machine):
    """A game whose size is not known up front stops at the limit, which the error names."""
    (machine / "cgroup").write_text("0::/run-7.scope\n")
    _files(machine / "sys" / "run-7.scope", memory__max=MiB, memory__current=0)

    with pytest.raises(LimitError, match=r"more than 3,355 positions, the limit \(what 80 % "
                                         r"of the 1\.0 MiB .*run-7\.scope/memory\.max"):
        solve(Countdown(5000))


def _cgroup_of(machine: Path, limit: int) -> None:
    (machine / "cgroup").write_text("0::/run-7.scope\n")
    _files(machine / "sys" / "run-7.scope", memory__max=limit, memory__current=0)


def test_a_catalog_game_object_is_refused_by_solve_before_any_work(machine):
    """``solve(connect4(width=6, height=5))`` from Python: the catalog's factory gives the game
    its ``positions_bound()`` hook (Tromp's exact count), so the engine refuses it up front
    with the need, the limit's file and the way to search it."""
    _cgroup_of(machine, 6 * GiB)
    game = connect4(width=6, height=5)
    assert game.positions_bound() == PositionCount(
        2_818_972_642, "exact", "2,818,972,642 positions (Tromp)",
        "connect4(width=6, height=5)")
    with pytest.raises(LimitError) as err:
        solve(game)
    text = str(err.value)
    assert text.startswith("2,818,972,642 positions (Tromp), at least 352,371,581 kept up to "
                           "symmetry: about 9.8 GiB at 30 bytes")
    assert "run-7.scope/memory.max" in text
    assert "perfectplay search 'connect4(width=6, height=5)'" in text
    with pytest.raises(LimitError, match=r"max_positions \(1,000\)"):
        solve(game, max_positions=1000)  # refused up front on a count above the limit


def test_a_bound_above_never_refuses_a_game_that_fits(machine):
    """Kalah's "at most" is a bound above: under a 1 MiB cgroup it refuses nothing up front,
    and tic-tac-toe's exact 5,478 fits under 64 GiB and is solved."""
    _cgroup_of(machine, MiB)
    kalah_bound = kalah(houses=2, seeds=2).positions_bound()
    assert kalah_bound.kind == "at most" and not kalah_bound.refuses
    refuse_too_big(capabilities(kalah(houses=6, seeds=6)), "tiers")  # no error
    _cgroup_of(machine, 64 * GiB)
    assert len(solve(tictactoe())) == 5_478


def test_the_engine_and_the_command_line_share_one_refusal(machine, monkeypatch):
    """The command line asks the same function (patched here): no second copy of the logic."""
    asked = []

    def refuse(caps, path, max_positions=None):
        asked.append((caps.name, path, max_positions))
        raise LimitError("refused")

    monkeypatch.setattr(cli_engine, "refuse_too_big", refuse)
    r = CliRunner().invoke(main, ["solve", "tictactoe"])
    assert r.exit_code == 1 and "tictactoe is too big to solve whole: refused" in r.output
    assert len(asked) == 1 and asked[0][1] in ("graph", "tiers")


def test_each_catalog_sentence_says_its_number(machine):
    """Each catalog entry's ``size`` sentence is derived from (or agrees with) its number:
    a count or estimate reads back the same through the sentence; a bound says "at most"."""
    for entry in catalog():
        assert entry.size is not None and entry.positions is not None, entry.name
        for published in entry.published:  # a published count is the entry's number
            known = entry.positions(entry.arguments((), published.args))
            if published.positions is not None and known is not None:
                assert known.count == published.positions, entry.name
        for params in (*entry.small, *(p.args for p in entry.published)):
            values = entry.arguments((), params)
            known, sentence = entry.positions(values), entry.size(values)
            read = catalog_positions(entry.call(values))
            if known is None or known.kind == "at most":
                assert read is None, (entry.name, sentence)
                assert known is None or (known.source == sentence
                                         and "at most" in sentence), sentence
            else:
                assert read == (known.count, sentence), (entry.name, sentence)


def test_a_store_too_big_for_the_disk_or_the_workers_is_refused_before_its_cluster(
        machine, monkeypatch, tmp_path):
    """Connect Four 6x5 into a store: 2.8 x 10^9 positions need at least 3.6 GiB of disk
    (a canonical game keeps at least an eighth) and 1.4 GiB a worker; with 1 GiB of disk
    free and a 2 GiB cgroup both are named, before a Dask cluster starts."""
    _cgroup_of(machine, 2 * GiB)
    monkeypatch.setattr(store.shutil, "disk_usage", lambda _p: shutil._ntuple_diskusage(
        10 * GiB, 9 * GiB, GiB))
    monkeypatch.setattr(store, "client_for", lambda *_a: pytest.fail("a cluster started"))
    with pytest.raises(LimitError) as err:
        store.solve_tiered(connect4(width=6, height=5), tmp_path / "tb", workers=2,
                           check=False)
    text = str(err.value)
    assert text.startswith("a store of 2,818,972,642 positions (Tromp), at least 352,371,581 "
                           "kept up to symmetry needs about 3.6 GiB of disk at 11 bytes a "
                           "position, more than the 1.0 GiB free at ")
    assert "2 worker(s) of about 1.4 GiB each" in text and "memory.max" in text
    assert "perfectplay search 'connect4(width=6, height=5)'" in text
    assert not (tmp_path / "tb").exists()
    disk, worker = store.store_need(1_000_000)  # a game of a million, kept whole
    assert (disk, worker) == (11_000_000, 42_000_000)
