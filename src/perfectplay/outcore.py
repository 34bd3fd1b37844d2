"""Deprecated: the compiled-game store moved to :mod:`perfectplay.store.compiled`; this
module is that module under its old name."""

from __future__ import annotations

import sys

from .store import compiled as _compiled
from .store.reader import Store as CompiledStore

_compiled.CompiledStore = CompiledStore  # type: ignore[attr-defined]
sys.modules[__name__] = _compiled
