"""Deprecated (removed in 0.2.0): the store moved to :mod:`perfectplay.store` (one package,
one format, one reader). These names stay readable from here for old code, each with a
:class:`DeprecationWarning` naming its new place when it is used."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

from . import store
from .store import layout, python, runner

#: Each old name: (its module now, its name there).
_MOVED: dict[str, tuple[ModuleType, str]] = {
    **{name: (store, name) for name in (
        "NotInStore", "SolveStopped", "Store", "StoreError", "Tablebase", "analyze",
        "open_store", "query", "solve_tiered")},
    "margin_text": (layout, "margin_text"),
    "parse_margin": (layout, "parse_margin"),
    "read_manifest": (layout, "read_manifest"),
    "check_tiered": (python, "check_tiered"),
    "expand_chunk": (python, "expand_chunk"),
    "_client": (runner, "client_for"),
}

__all__ = sorted(_MOVED)


def __getattr__(name: str) -> Any:
    """``perfectplay.tablebase.NAME``: the store's name for it, with a DeprecationWarning."""
    if name not in _MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attr = _MOVED[name]
    warnings.warn(f"perfectplay.tablebase is deprecated (removed in 0.2.0): use "
                  f"{module.__name__}.{attr}", DeprecationWarning, stacklevel=2)
    return getattr(module, attr)
