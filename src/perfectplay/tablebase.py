"""Deprecated: the store moved to :mod:`perfectplay.store` (one package, one format, one
reader). These names stay importable from here for old code."""

from __future__ import annotations

from .store import (
    NotInStore,
    SolveStopped,
    Store,
    StoreError,
    Tablebase,
    analyze,
    open_store,
    query,
    solve_tiered,
)
from .store.layout import margin_text, parse_margin, read_manifest
from .store.python import check_tiered, expand_chunk
from .store.runner import client_for as _client

__all__ = ["NotInStore", "SolveStopped", "Store", "StoreError", "Tablebase", "_client",
           "analyze", "check_tiered", "expand_chunk", "margin_text", "open_store",
           "parse_margin", "query", "read_manifest", "solve_tiered"]
