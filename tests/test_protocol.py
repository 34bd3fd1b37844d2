"""The game protocol has one reader (engine/protocol.py): a game's optional hooks and the
attributes it declares are read there, once, into a ``Capabilities`` record by
``capabilities(game)`` (or by protocol.py's few helpers, such as ``is_scored``), and no other
module asks a game ``getattr(game, "hook")`` or ``hasattr(game, "hook")`` itself. The rule
is stated in docs/architecture.md; this test holds it, by reading the source of every
module (so a read made inside a function counts as much as one at the top)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import NamedTuple

from perfectplay.engine.protocol import HOOKS, Capabilities, capabilities

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "perfectplay"

#: The one module that reads a game's hooks.
READER = "engine/protocol.py"

#: Reads of a game object elsewhere that are not of a hook, each with why.
NOT_HOOKS = {
    ("engine/check.py", None): "the check asks for the four methods every game must have "
                               "(initial, moves, play, outcome) to report the missing ones",
    ("engine/check.py", "__dict__"): "the check compares a game's own state before and "
                                     "after a walk, to find state kept outside the position",
    ("engine/check.py", "cannot_tie"): "the check reads the declaration as the game wrote "
                                       "it, to refute a false one",
}

#: A name that holds a game: ``game``, ``self.game``, ``live_game(...)``, not ``endgame``.
GAME_NAME = re.compile(r"(^|_)games?$")


class Read(NamedTuple):
    module: str
    line: int
    attribute: str | None  # None: a name computed at run time
    text: str


def names_a_game(node: ast.expr) -> bool:
    """True when the expression is or holds a game by its names (a variable, an attribute
    or a function whose name ends in ``game``)."""
    for sub in ast.walk(node):
        name = sub.id if isinstance(sub, ast.Name) else (
            sub.attr if isinstance(sub, ast.Attribute) else None)
        if name is not None and GAME_NAME.search(name):
            return True
    return False


def game_reads(module: str, text: str) -> list[Read]:
    """Every ``getattr`` or ``hasattr`` call in ``text`` (the source of ``module``) whose
    object is a game."""
    reads = []
    for node in ast.walk(ast.parse(text, module)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2):
            continue
        if not names_a_game(node.args[0]):
            continue
        name = node.args[1]
        attribute = name.value if isinstance(name, ast.Constant) else None
        reads.append(Read(module, node.lineno, attribute, ast.unparse(node)))
    return reads


def all_reads() -> list[Read]:
    return [read for path in sorted(PACKAGE.rglob("*.py"))
            for read in game_reads(path.relative_to(PACKAGE).as_posix(), path.read_text())]


def test_no_module_but_the_protocol_asks_a_game_for_a_hook() -> None:
    stray = [f"{r.module}:{r.line}: {r.text}" for r in all_reads()
             if r.module != READER and (r.module, r.attribute) not in NOT_HOOKS]
    assert stray == [], ("read the game's hooks through capabilities(game) "
                         "(engine/protocol.py), not by getattr or hasattr:\n" + "\n".join(stray))


def test_the_scan_sees_a_read_wherever_it_is_made() -> None:
    """The scan is not blind: reads at the top, inside functions and methods, of
    ``self.game``, of a function's game and by a computed name are found; an endgame store
    is not a game."""
    text = ("draw = getattr(game, 'draw', None)\n"
            "def f(self, endgame):\n"
            "    return hasattr(self.game, 'player'), getattr(endgame, 'leaf', None)\n"
            "class C:\n"
            "    def g(self, name):\n"
            "        return getattr(live_game(1)[0], 'name', None), getattr(game, name)\n")
    found = sorted((r.line, r.attribute or "") for r in game_reads("probe.py", text))
    assert found == [(1, "draw"), (3, "player"), (6, ""), (6, "name")]


def test_capabilities_hold_every_hook_the_docs_name() -> None:
    """Each hook of HOOKS is a field of Capabilities, None when the game lacks it."""
    fields = set(Capabilities.__dataclass_fields__)
    assert set(HOOKS) <= fields

    class Bare:
        def initial(self) -> int: return 0
        def moves(self, n: int) -> list[int]: return []
        def play(self, n: int, m: int) -> int: return n
        def outcome(self, n: int) -> None: return None

    caps = capabilities(Bare())
    assert [h for h in HOOKS if getattr(caps, h) is not None] == []
