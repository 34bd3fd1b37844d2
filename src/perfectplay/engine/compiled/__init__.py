"""The numba door: a game's rules as compiled functions over int64 codes.

:class:`CompiledGame` (:mod:`.game`), the engine's integer kernels (:mod:`.kernels`), the
open-addressing code tables (:mod:`.codetable`), one compiled function for every copy of a rule
(:mod:`.jitmemo`), the rules as one numba type whose kernels cache on disk
(:mod:`.staticrules`) and every size of a board on one set of rules (:mod:`.shapes`).

>>> from perfectplay.engine.compiled import CompiledGame, WIN
"""

from .codetable import (
    EMPTY,
    capacity_for,
    home_slot,
    id_find,
    id_intern,
    id_rehash,
    key_find,
    key_insert_many,
    key_rebuild,
    mix,
    new_keys,
    prefetch,
    probe,
    unmix,
)
from .game import (
    INT64_MAX,
    LOSE,
    ONGOING,
    TIE,
    WIN,
    CompiledGame,
    Rules,
    discover_cached,
    discover_compiled,
    ended,
)
from .kernels import (
    better_margin,
    bfs_parity,
    label_setting_int64,
    margin_of_move,
    negamax_int64,
    retrograde,
    reverse_csr,
    topological_order,
)
from .shapes import Shapes, bind
from .staticrules import kernel_door, static_rules

__all__ = [
    "CompiledGame",
    "EMPTY",
    "INT64_MAX",
    "LOSE",
    "ONGOING",
    "Rules",
    "Shapes",
    "TIE",
    "WIN",
    "better_margin",
    "bind",
    "bfs_parity",
    "capacity_for",
    "home_slot",
    "discover_cached",
    "discover_compiled",
    "ended",
    "id_find",
    "id_intern",
    "id_rehash",
    "kernel_door",
    "key_find",
    "key_insert_many",
    "key_rebuild",
    "label_setting_int64",
    "margin_of_move",
    "mix",
    "negamax_int64",
    "new_keys",
    "prefetch",
    "probe",
    "retrograde",
    "reverse_csr",
    "static_rules",
    "topological_order",
    "unmix",
]
