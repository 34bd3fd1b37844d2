"""Deprecated (removed in 0.2.0): the compiled-game store moved to
:mod:`perfectplay.store.compiled`; every name of that module (and ``CompiledStore``, now
:class:`perfectplay.store.reader.Store`) stays readable from here for old code, each with a
:class:`DeprecationWarning` when it is used."""

from __future__ import annotations

import warnings
from typing import Any

from .store import compiled as _compiled
from .store import reader as _reader


def __getattr__(name: str) -> Any:
    """``perfectplay.outcore.NAME``: ``perfectplay.store.compiled.NAME`` (``CompiledStore``:
    ``perfectplay.store.reader.Store``), with a DeprecationWarning."""
    if name == "CompiledStore":
        new, value = "perfectplay.store.reader.Store", _reader.Store
    elif not name.startswith("__") and hasattr(_compiled, name):
        new, value = f"perfectplay.store.compiled.{name}", getattr(_compiled, name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"perfectplay.outcore is deprecated (removed in 0.2.0): use {new}",
                  DeprecationWarning, stacklevel=2)
    return value
