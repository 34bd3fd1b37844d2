"""perfectplay.engine.proof.limits: one Limits value for the search, the batch, the live
analysis, the book and the CLI; its defaults written once, checked when it is made (before
any work)."""

from __future__ import annotations

import dataclasses
import math

import pytest
from click.testing import CliRunner

import perfectplay
from perfectplay import LimitError, Limits, engine
from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.cli import main
from perfectplay.engine import search, search_many
from perfectplay.engine.proof import LiveOracle, analyze_moves
from perfectplay.engine.proof.limits import BOOK_LIMITS
from perfectplay.store.book import build_book
from takeaway import Subtract


def test_one_value_with_the_defaults_written_once():
    limits = Limits()
    assert (limits.time_limit, limits.node_limit, limits.table_mb, limits.workers,
            limits.max_depth) == (None, None, 64, 1, 10_000)
    assert perfectplay.Limits is engine.Limits is Limits
    assert Limits(table_mb=256) == BOOK_LIMITS
    with pytest.raises(dataclasses.FrozenInstanceError):
        limits.table_mb = 1  # type: ignore[misc]
    assert Limits.given(Limits(workers=2), table_mb=128, time_limit=None) == \
        Limits(table_mb=128, workers=2)
    assert Limits.given() is not None and Limits.given() == Limits()


@pytest.mark.parametrize(("field", "value"), [
    ("table_mb", -1), ("table_mb", 0), ("table_mb", math.nan), ("table_mb", 1e9),
    ("table_mb", "64"), ("workers", 0), ("workers", 65), ("workers", True), ("workers", 1.5),
    ("time_limit", math.nan), ("time_limit", -1.0), ("time_limit", 0),
    ("node_limit", 0), ("node_limit", 2.5), ("max_depth", 0), ("max_depth", 10**7),
])
def test_a_bad_field_is_a_limit_error_naming_it(field, value):
    with pytest.raises(LimitError, match=f"^{field} must be"):
        Limits(**{field: value})
    with pytest.raises(LimitError, match=f"^{field} must be"):
        Limits().replace(**{field: value})


def test_search_takes_limits_or_its_fields_as_keywords():
    game = Subtract()
    whole = search(game, limits=Limits(max_depth=50))
    assert (whole.describe(), whole.exact) == ("win in 5", True)
    cut = search(game, limits=Limits(node_limit=3))
    assert not cut.exact and cut.stopped == "nodes"
    same = search(game, node_limit=3)
    assert (same.nodes, same.lower, same.upper) == (cut.nodes, cut.lower, cut.upper)
    # a keyword overrides the value's field
    assert search(game, limits=Limits(node_limit=3), node_limit=10_000).exact
    with pytest.raises(LimitError, match="workers"):
        search(game, workers=0)
    with pytest.raises(LimitError, match="limits must be a Limits"):
        search(game, limits={"table_mb": 1})  # type: ignore[arg-type]
    batch = search_many(game, [7, 6], limits=Limits(time_limit=60))
    assert [r.describe() for r in batch] == ["win in 5", "lose in 4"]


def test_live_analysis_checks_its_limits_when_called_not_when_read():
    with pytest.raises(LimitError, match="time_limit"):
        analyze_moves(Subtract(), limits=Limits(), time_limit=math.nan)
    reports = list(analyze_moves(Subtract(), limits=Limits(node_limit=10_000)))
    assert [r.words for r in reports if r.exact] == ["win in 5", "lose in 4"]
    with pytest.raises(LimitError, match="exact"):
        LiveOracle(Subtract(), limits=Limits(time_limit=5))
    assert LiveOracle(Subtract(), workers=2).limits == Limits(workers=2)


def test_a_book_refuses_bad_limits_before_any_work(tmp_path):
    out = tmp_path / "bk"
    with pytest.raises(LimitError, match="table_mb"):
        build_book(ConnectFour(4, 4), 2, out, table_mb=-1)
    with pytest.raises(LimitError, match="time_limit"):
        build_book(ConnectFour(4, 4), 2, out, limits=Limits(time_limit=5))
    assert not out.exists()


@pytest.mark.parametrize(("option", "value"), [("--table-mb", "-1"), ("--table-mb", "nan"),
                                               ("--workers", "0")])
def test_book_command_refuses_a_bad_limit_before_writing_anything(tmp_path, option, value):
    out = tmp_path / "bk"
    r = CliRunner().invoke(main, ["book", "connect4(width=4, height=4)", "--plies", "2",
                                  "--out", str(out), option, value])
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and "book:" not in r.output  # no summary printed
    assert option in r.output
    assert not out.exists()  # no manifest.json, no folder


def test_search_command_names_the_option_of_a_bad_limit():
    r = CliRunner().invoke(main, ["search", "tictactoe", "--time", "nan"])
    assert r.exit_code == 2 and "--time must be a positive number" in r.output, r.output
