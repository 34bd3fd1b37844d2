"""A package's public names imported on first use (PEP 562's module ``__getattr__``), so
that ``import perfectplay`` or ``import perfectplay.engine`` loads no engine room, numpy or
numba until a name of theirs is asked for (a small Python game's solve needs none of them).

>>> getattr_, dir_ = lazy_names("demo", {"sqrt": "math"}, {})
>>> getattr_("sqrt")(9.0)
3.0
>>> dir_()
['sqrt']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, MutableMapping


def lazy_names(package: str, table: Mapping[str, str], names: MutableMapping[str, object]
               ) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of module ``package`` whose names are ``names``
    (its ``globals()``): a name of ``table`` is imported from the module ``table`` gives the
    first time it is read, then kept in ``names``, so later reads cost what any global's do.
    Any other name is an ``AttributeError`` naming ``package``. O(1) a read."""

    def __getattr__(name: str) -> object:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        names[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*names, *table})

    return __getattr__, __dir__
