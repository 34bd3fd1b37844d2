"""Any solved game, read-only, in the shape of GamesCrafters' Universal Web API (UWAPI), the
middleware their front end (GamesmanUni) reads: ``perfectplay serve --store DIR`` or
``--game TARGET`` mounts it under ``/gamesman``, so GamesmanUni's own client, its ``gameAPI``
pointed at ``http://HOST:PORT/gamesman/`` (and ``serve --cors`` naming the client's origin),
plays it unchanged.

- ``GET /gamesman/``: the games served (``id``, ``name``, ``type``, ``gui``: ``v2`` for a
  game drawn by the client's image AutoGUI, ``v0`` for one shown as text): the
  ``--store``/``--game`` one, and under plain ``perfectplay serve`` every two-player seed
  game at its bundled example (:func:`seed_listing`, the variant ``demo``) and every
  catalog game (:func:`catalog_listing`: its small variants), each solved on its first
  position;
- ``GET /gamesman/{id}/``: the game and its variants (the served game's one is
  ``standard``, a catalog game's are named by their parameters, ``houses2_seeds3``), each
  titled by the game's name and parameters (``Kalah(3, 3)``);
- ``GET /gamesman/{id}/standard/``: the variant and its start position
  (``startPosition``, ``autoguiStartPosition``) and its board, ``imageAutoGUIData``
  (:mod:`.autogui`; null for a game without one, whose moves the client lists);
- ``GET /gamesman/images/PATH``: the boards' SVG images (the client draws the copies it
  ships under the same paths; see :mod:`.autogui`);
- ``GET /gamesman/{id}/standard/positions/?p=POSITION``: the position's ``positionValue``
  (``win``, ``lose``, ``tie``, ``draw``), ``remoteness`` (-200 for a draw, -100 when not
  known) and ``moves``, each with ``moveValue`` (what the mover gets), ``deltaRemoteness``
  and the child's ``position``, ``autoguiPosition``, ``positionValue`` and ``remoteness``; a
  scored game adds ``winby``, the winner's margin (0 or more: GamesmanUni says "Player 2
  should lose ... by 2", places the value history's nodes on the winner's side by it and its
  computer maximizes its children's ``winby`` when winning, so it reads no sign). In a
  scored game every value and ``winby`` is the game's *final* margin: the points won so far
  (carried in the position string, ``PICTURE~s3~KEY``: the mover's minus the opponent's)
  plus the margin still to be won, since the client reads the last position's value and
  ``winby`` as the game's result ("has won the game by 2") and colours a move as the
  position it leads to;
- ``GET /gamesman/{id}/standard/instructions/?locale=...``: ``{"instructions": markdown}``,
  the game's rules (English whatever the locale, as UWAPI falls back to).

Field names and codes follow the UWAPI README (github.com/GamesCrafters/GamesCraftersUWAPI,
"Routes"); ``deltaRemoteness`` and the order of the moves are computed as their
``server.py`` computes them (``wrangle_move_objects_2Player``: a win against the fastest
win, a tie against the fastest tie, a loss against the slowest loss, a draw 0; moves sorted
by value, then by it).

**Ids.** Every id is ``perfectplay-NAME``: GamesmanUni draws the ids it knows with its own
boards (``tictactoe``, ``quarto``, ``sim``), which read positions in GamesCrafters' formats;
ours never take that path and show the game's own picture and move names instead.

**Positions** are strings ``PICTURE~KEY`` (:class:`PositionCodec`): ``PICTURE`` is the
game's ``draw`` text on one line (its lines joined by `` | ``; the repr of the position for a
game without ``draw``; a board's own picture where the draw leaves something out or is
ambiguous on one line: Kalah's stores, Dots and Boxes' free lines and score), what
GamesmanUni shows as "Current Position"; ``KEY`` is the
position itself: the game's integer code for a game with ``encode``/``decode`` (compiled
games, stores), else the URL-safe base64 (RFC 4648 section 5, no padding) of the position's
Python literal (read back with :func:`ast.literal_eval`, never executed). GamesmanUni puts
the string into ``?p=`` as it is, unescaped, so a string holds no ``# & + % / ? : \\``
(in the picture they become the look-alikes ``♯ ⅋ ˖ ٪ ∕ ʔ ∶ ∖``) and no line breaks;
only the key is read back (after the last ``~``; a bare key is accepted too), so a picture
mangled on the way (spaces as ``+``, a browser's escapes) does no harm.
``autoguiPosition`` is ``1_KEY`` or ``2_KEY`` (UWAPI's whose-turn marker: the first or second
player to move; for a game with a board, the board's characters instead of the key,
``1_--x-o``), always: GamesmanUni takes whose turn the start is from the first character
of its AutoGUI string (a Restart only gives the first player the move when it is ``1``). A
game whose ``player`` hook says who moves (extra turns) is marked by the hook; for any other
game the turns alternate from the first player's at the start, so the position string
carries the marker too (``PICTURE~2_KEY``, unambiguous: codes hold no ``_`` and a literal's
base64 never starts with ``1`` or ``2``) and each child's is the other one. A key typed bare
(no marker) is the first player's turn at the start and unmarked elsewhere. A move is
named by the game's ``move_name`` in ``move`` and, for a game without a board, in
``autoguiMove`` too (the client's list of moves sends ``move`` back as the ``autoguiMove``
it looks up; on a board ``autoguiMove`` is the move's button, ``A_-_4``), one line, a
``:`` (the separator of the client's move history) and the other unsafe characters as the
pictures' look-alikes.

Each position costs one look-up and one per move.
"""

from __future__ import annotations

import ast
import asyncio
import base64
import binascii
import functools
import inspect
import re
import threading
import weakref
from collections.abc import Callable
from contextlib import suppress
from functools import partial
from importlib import resources
from typing import TYPE_CHECKING, Any, TypeVar, cast

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..catalog.entry import CatalogGame
from ..engine.protocol import Game, Position, Value, capabilities
from ..engine.solved.solution import Solved, game_picture
from ..engine.strong import solve
from ..errors import InputError, PerfectplayError
from ..registry import BUILTIN, GameSpec, catalog, get, get_catalog
from ..registry import games as every_game
from . import autogui
from .worker import Busy

if TYPE_CHECKING:
    from ..play.state import Table

#: What a look-up gives.
T = TypeVar("T")
#: UWAPI's remoteness codes: a draw (infinite) and a finite remoteness not known.
DRAW_REMOTENESS = -200
UNKNOWN_REMOTENESS = -100
#: The longest position string read (a longer one is refused, 422).
MAX_POSITION = 10_000
VARIANT = "standard"
#: Every served id starts with this: GamesmanUni's own boards are chosen by id.
ID_PREFIX = "perfectplay-"
#: UWAPI's order of move values, best first (``key_move_obj_by_move_value_then_...``).
VALUE_ORDER = ("win", "tie", "draw", "lose")
#: Seconds a position may take (a live game's search, ``serve --game connect4``) before it
#: is answered 503 with Retry-After.
GAMESMAN_SECONDS = 30.0
#: Look-ups of positions running or waiting at once (one runs); one more gets 503.
LOOKUPS = 2
#: The seconds a 503 of ``/gamesman`` asks the client to wait.
RETRY_AFTER = 10
#: The separator of the picture and the key in a position string.
KEY_MARK = "~"
#: What a picture's unsafe characters become (a ``#`` would end the URL, ``&`` and ``+``
#: split or change the query, ``%`` starts an escape, ``/ ? \\`` break GamesmanUni's page
#: URLs, ``:`` is its move history's separator): look-alikes that common fonts draw (DejaVu
#: Sans has them all; the full-width forms need a CJK font, else they show as boxes).
PICTURE_ESCAPES = {"#": "\u266f", "&": "\u214b", "+": "\u02d6", "%": "\u066a",
                   "/": "\u2215", "?": "\u0294", ":": "\u2236", "\\": "\u2216"}
_SAFE_PICTURE = str.maketrans(PICTURE_ESCAPES)
_B64 = re.compile(r"[A-Za-z0-9_-]+")
_CODE = re.compile(r"-?[0-9]{1,20}")
#: A key's whose-turn marker (see the module doc).
_MARKED = re.compile(r"[12]_")
#: What starts a scored position's running score (``PICTURE~s3~KEY``).
SCORE_MARK = "s"
_SCORE = re.compile(r"s(-?[0-9]{1,18})")


def served_id(name: str) -> str:
    """The id a game is served under: ``perfectplay-`` and its name's letters and digits,
    lower case (idempotent).

    >>> served_id("TicTacToe"), served_id("ConnectFour(4, 4)"), served_id("perfectplay-nim")
    ('perfectplay-tictactoe', 'perfectplay-connectfour44', 'perfectplay-nim')
    """
    if name.startswith(ID_PREFIX):
        name = name[len(ID_PREFIX):]
    return ID_PREFIX + ("".join(c for c in name.lower() if c.isalnum()) or "game")


def value_word(value: Any, scored: bool) -> str:
    """A value as UWAPI writes it: ``win``, ``lose``, ``tie`` or ``draw`` (a margin by its
    sign).

    >>> from perfectplay.engine import Value
    >>> value_word(Value.DRAW, False), value_word(-3, True), value_word(0, True)
    ('draw', 'lose', 'tie')
    """
    if scored:
        return "win" if value > 0 else "lose" if value < 0 else "tie"
    return str(value.value)


def remoteness_code(word: str, rem: int | None) -> int:
    """The remoteness UWAPI sends: -200 for a draw, -100 for an unknown one."""
    if word == "draw":
        return DRAW_REMOTENESS
    return UNKNOWN_REMOTENESS if rem is None else int(rem)


def one_line(text: str) -> str:
    """A picture as one URL-safe line: its non-blank lines stripped and joined by `` | ``,
    control characters dropped, ``# & + % / ? : \\`` as the look-alikes
    :data:`PICTURE_ESCAPES` gives.

    >>> one_line("  a b\\n1 # .\\n\\nX: 50% & more+ / ?\\n")
    'a b | 1 ♯ . | X∶ 50٪ ⅋ more˖ ∕ ʔ'
    """
    lines = ("".join(c for c in line if c >= " " and c != "\x7f").strip()
             for line in text.splitlines())
    return " | ".join(line for line in lines if line).translate(_SAFE_PICTURE)


class PositionCodec:
    """One game's position strings (see the module doc): :meth:`text` writes
    ``PICTURE~KEY``, :meth:`read` reads the key back (an :class:`InputError` for a string
    that is not one), :meth:`autogui` writes UWAPI's ``autoguiPosition``."""

    def __init__(self, game: Game[Any, Any], gui: autogui.Board | None = None) -> None:
        self.game, self.gui = game, gui
        caps = capabilities(game)
        self.coded = caps.codec
        self._encode, self._decode, self._player = caps.encode, caps.decode, caps.player

    def key(self, pos: Any) -> str:
        """The position's key: its integer code, or the base64 of its literal."""
        if self.coded:
            assert self._encode is not None
            return str(int(self._encode(pos)))
        literal = repr(_plain(pos)).encode("utf-8")
        return base64.urlsafe_b64encode(literal).decode("ascii").rstrip("=")

    def picture(self, pos: Any, score: int = 0) -> str:
        """The game's ``draw`` of the position on one line (its repr without ``draw``), or
        its board's own picture (:attr:`.autogui.Board.picture`: Kalah's stores, Dots and
        Boxes' free lines and score)."""
        if self.gui is not None and self.gui.picture is not None:
            return one_line(self.gui.picture(pos, score)) or "position"
        return one_line(game_picture(self.game, pos) or repr(_plain(pos))) or "position"

    def marker(self, pos: Position, turn: int | None) -> str:
        """UWAPI's whose-turn marker (``1_`` or ``2_``): the ``player`` hook's when the game
        has one, else ``turn``'s (0 the first player; None: no marker)."""
        if self._player is not None:
            turn = int(self._player(pos))
        return "" if turn is None else f"{turn + 1}_"

    def text(self, pos: Any, turn: int | None = None, score: int | None = None) -> str:
        """The position string: ``PICTURE~KEY``, with ``turn``'s marker before the key
        (``PICTURE~2_KEY``) for a game without a ``player`` hook when it is given, and a
        scored game's running ``score`` (the mover's points so far minus the opponent's)
        before that (``PICTURE~s3~2_KEY``)."""
        mark = self.marker(pos, turn) if self._player is None else ""
        held = "" if score is None else f"{SCORE_MARK}{int(score)}{KEY_MARK}"
        return f"{self.picture(pos, score or 0)}{KEY_MARK}{held}{mark}{self.key(pos)}"

    @staticmethod
    def score_of(text: str | None) -> int:
        """The running score a position string carries (``~s3~`` before its key: the
        mover's points so far minus the opponent's), 0 without one.

        >>> PositionCodec.score_of("2 | 1~s-3~2_17"), PositionCodec.score_of("17")
        (-3, 0)
        """
        parts = (text or "").rsplit(KEY_MARK, 2)
        held = _SCORE.fullmatch(parts[-2].strip()) if len(parts) >= 2 else None
        return int(held.group(1)) if held else 0

    def autogui(self, pos: Any, turn: int | None = None, score: int = 0) -> str:
        """UWAPI's AutoGUI string: ``1_KEY``/``2_KEY`` (who moves: the ``player`` hook's, else
        ``turn``'s), or ``KEY`` when neither is known; for a game with a board
        (:mod:`.autogui`) the board's characters instead of the key (``1_--x-o~3``), the
        running ``score`` filling a scored game's stores."""
        body = self.key(pos) if self.gui is None else self.gui.entities(pos, score)
        return f"{self.marker(pos, turn)}{body}"

    def move(self, pos: Position, move: object, name: str) -> str:
        """UWAPI's ``autoguiMove``: the board's button for the move (a click, a line, an
        arrow), else its ``name`` (the client lists it under the board)."""
        found = None if self.gui is None else self.gui.move(pos, move)
        return name if found is None else found

    def turn_of(self, text: str) -> int | None:
        """The turn a position string's marker names (0 the first player), None without."""
        key = text.rpartition(KEY_MARK)[2].strip()
        return int(key[0]) - 1 if _MARKED.match(key) else None

    def first_turn(self, text: str | None, pos: Position, start: Position) -> int | None:
        """Whose turn it is at ``pos``, the position ``text`` names (None: the start), for
        a game without a ``player`` hook: the first player's at the start or for a bare
        key of the start, else the string's marker's (None without one)."""
        turn = 0 if text is None else self.turn_of(text)
        return 0 if turn is None and pos == start else turn

    def read(self, text: str) -> Any:
        """The position a string names (the key after its last ``~``, or the whole string);
        an :class:`InputError` (422) for one that is not a position string of this game.
        A key that is well formed but names no position of the game comes back as whatever
        it decodes to; the look-up then refuses it (404)."""
        if len(text) > MAX_POSITION:
            raise InputError(f"the position is {len(text):,} characters; the limit is "
                             f"{MAX_POSITION:,}")
        key = text.rpartition(KEY_MARK)[2].strip()
        if _MARKED.match(key):
            key = key[2:]
        if self.coded:
            if not _CODE.fullmatch(key):
                raise InputError(f"{_cut(key)!r} is not a position: after the last '~' "
                                 "comes the game's integer code (as the answers write it)")
            assert self._decode is not None
            if not -(2**63) < int(key) < 2**63:
                raise InputError(f"the code {_cut(key)} is not a position: codes are int64 "
                                 "(from -2**63 + 1 to 2**63 - 1)")
            try:
                return self._decode(int(key))
            except Exception:  # noqa: BLE001 - the game's decode refused this code
                raise _NotHeld(f"the code {key} is not a position of this game") from None
        if not _B64.fullmatch(key):
            raise InputError(f"{_cut(key)!r} is not a position: after the last '~' comes "
                             "the URL-safe base64 of its Python literal (as the answers "
                             "write it)")
        try:
            literal = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4)).decode("utf-8")
            return ast.literal_eval(literal)
        except (binascii.Error, UnicodeDecodeError, ValueError, SyntaxError, TypeError,
                MemoryError, RecursionError):
            raise InputError(f"{_cut(key)!r} is not a position: its base64 does not hold "
                             "a Python literal") from None


class _NotHeld(KeyError):
    """A well-formed position string that names no position of the game (404)."""


def _plain(pos: Any) -> Any:
    """numpy integers as ints, so a position's repr is a Python literal."""
    if hasattr(pos, "dtype") and hasattr(pos, "item") and getattr(pos, "ndim", 1) == 0:
        return pos.item()
    return pos


def _cut(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _move_name(game: Game[Any, Any], move: Any) -> str:
    """A move's name as GamesmanUni may hold it: the game's ``move_name`` on one line, its
    ``:`` (the separator of the client's move history, which it imports by splitting on
    it) and other unsafe characters as :func:`one_line`'s look-alikes."""
    name = capabilities(game).move_name
    text = str(name(move)) if name is not None else str(_plain(move))
    return one_line(text) or text.translate(_SAFE_PICTURE)


def variant_title(name: str) -> str:
    """A variant's title: the game's name with its parameters (``Kalah(3, 3)``), safe for
    the client's move history (no ``:``).

    >>> variant_title("Kalah(3, 3)"), variant_title("a.py:Heap")
    ('Kalah(3, 3)', 'a.py∶Heap')
    """
    return one_line(name) or "game"


def _entry(solved: Solved, codec: PositionCodec, pos: Any, turn: int | None,
           score: int = 0) -> dict[str, Any]:
    """The fields UWAPI gives a position (and a child): strings, value, remoteness. In a
    scored game the value is the game's final margin for the mover, ``score`` (the mover's
    points so far minus the opponent's) plus the margin still to be won, as GamesmanUni
    reads a position's value and ``winby`` as the game's result."""
    value, rem = solved.value(pos), solved.remoteness(pos)
    final = 0
    if solved.scored:
        assert not isinstance(value, Value)  # a scored game's value is a margin
        value = final = int(score + value)
    word = value_word(value, solved.scored)
    out: dict[str, Any] = {"position": codec.text(pos, turn,
                                                  score if solved.scored else None),
                           "autoguiPosition": codec.autogui(pos, turn, score),
                           "positionValue": word, "remoteness": remoteness_code(word, rem)}
    if solved.scored:  # the winner's margin: who wins is positionValue (see module doc)
        out["winby"] = abs(final)
    return out


def position_response(solved: Solved, pos: Any, codec: PositionCodec | None = None,
                      turn: int | None = 0, score: int = 0) -> dict[str, Any]:
    """The UWAPI answer for one position (see the module doc); raises the store's
    ``UnknownPosition`` (a KeyError) for a position it does not hold. ``turn``: whose turn
    it is in a game without a ``player`` hook (0 the first player's; None not known), for
    the whose-turn markers. ``score``: a scored game's points so far, the mover's minus
    the opponent's (each move adds its ``payoff``; the child's is the opponent's view when
    the move passes the turn), so every value and ``winby`` is the game's final margin.

    >>> from perfectplay.engine import solve
    >>> class Take:  # take 1 or 2 from a heap; who cannot move loses
    ...     def initial(self): return 4
    ...     def moves(self, n): return [k for k in (1, 2) if k <= n]
    ...     def play(self, n, k): return n - k
    ...     def outcome(self, n): return None
    >>> r = position_response(solve(Take()), 4)
    >>> r["position"], r["positionValue"], r["remoteness"]
    ('4~1_NA', 'win', 3)
    >>> [(m["move"], m["moveValue"], m["deltaRemoteness"]) for m in r["moves"]]
    [('1', 'win', 0), ('2', 'lose', 0)]
    """
    codec = codec or PositionCodec(solved.game)
    game = solved.game
    caps = capabilities(game)
    out = _entry(solved, codec, pos, turn, score)
    after = None if turn is None else 1 - turn
    moves = []
    for mv in solved.move_values(pos):
        child = game.play(pos, mv.move)
        child_score, worth = 0, mv.value
        if solved.scored:
            assert caps.payoff is not None and not isinstance(mv.value, Value)
            gained = score + int(caps.payoff(pos, mv.move))
            passes = caps.player is None or caps.player(child) != caps.player(pos)
            child_score, worth = (-gained if passes else gained), score + mv.value
        word = value_word(worth, solved.scored)
        name = _move_name(game, mv.move)
        moves.append({**_entry(solved, codec, child, after, child_score), "move": name,
                      "autoguiMove": codec.move(pos, mv.move, name), "moveValue": word})
    out["moves"] = wrangle_moves(moves)
    return out


def wrangle_moves(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each move's ``deltaRemoteness`` and the moves' order, as UWAPI's
    ``wrangle_move_objects_2Player`` computes them from the children's remoteness: a
    winning move's remoteness minus the fastest winning move's, a tying move's minus the
    fastest tying move's, the slowest losing move's minus a losing move's, 0 for a draw; an
    unknown remoteness (-100) counts as one more than the largest known of its kind (1 when
    none is known, the slowest loss when it is a loss). Sorted by value (win, tie, draw,
    lose), then by ``deltaRemoteness``, stable (equal moves keep the engine's order).

    Moves are grouped by ``moveValue`` (what the mover gets), which is UWAPI's grouping by
    the child's value whenever the turn passes, and stays right after an extra turn.

    >>> ms = [{"moveValue": v, "remoteness": r} for v, r in
    ...       [("tie", 5), ("win", 3), ("tie", 1), ("lose", 2), ("lose", 6), ("win", 7)]]
    >>> [(m["moveValue"], m["remoteness"], m["deltaRemoteness"]) for m in wrangle_moves(ms)]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('win', 3, 0), ('win', 7, 4), ('tie', 1, 0), ('tie', 5, 4), ('lose', 6, 0),
     ('lose', 2, 4)]
    """
    known: dict[str, list[int]] = {"win": [], "tie": [], "lose": []}
    unknown: set[str] = set()
    for m in moves:
        word, rem = m["moveValue"], m["remoteness"]
        if word in known:
            if rem == UNKNOWN_REMOTENESS:
                unknown.add(word)
            else:
                known[word].append(rem)
    for m in moves:
        word, rem = m["moveValue"], m["remoteness"]
        if word in ("win", "tie"):
            rems = known[word]
            fastest = min(rems) if rems else 1
            if rem == UNKNOWN_REMOTENESS:
                rem = max(rems) + 1 if rems else 1
            delta = rem - fastest
        elif word == "lose":
            rems = known[word]
            slowest = (max(rems) if rems else 0) + (1 if "lose" in unknown else 0)
            delta = slowest - (slowest if rem == UNKNOWN_REMOTENESS else rem)
        else:
            delta = 0
        m["deltaRemoteness"] = delta
    return sorted(moves, key=lambda m: (VALUE_ORDER.index(m["moveValue"]),
                                        m["deltaRemoteness"]))


def catalog_of(game: object) -> CatalogGame | None:
    """The catalog game ``game`` is an instance of (its class lives in that game's
    package), or None."""
    module = type(game).__module__
    if module.startswith("perfectplay.catalog.") and module.count(".") >= 2:
        try:
            return get_catalog(module.split(".")[2])
        except PerfectplayError:
            return None
    return None


def seed_of(game: object) -> GameSpec | None:
    """The built-in seed game ``game`` is the engine rules of (its class lives in that
    game's package, ``perfectplay.coins.rules``), or None."""
    parts = type(game).__module__.split(".")
    if len(parts) >= 3 and ".".join(parts[:2]) in BUILTIN:
        with suppress(PerfectplayError):
            found = get(parts[1])
            return found if isinstance(found, GameSpec) else None
    return None


def rules_of(game: object, name: str) -> tuple[str, str]:
    """A served game's title and rules: a catalog game's own, else its class's docstring (or
    its module's; "" when there is none) under ``name``."""
    entry = catalog_of(game) or seed_of(game)
    if entry is not None:
        return entry.title, entry.rules
    home = inspect.getmodule(type(game))  # its own docstring, not one inherited
    return name, inspect.cleandoc(type(game).__dict__.get("__doc__")
                                  or getattr(home, "__doc__", None) or "")


def instructions(game: Game[Any, Any], name: str) -> str:
    """The game's rules as Markdown (:func:`rules_of`), then how the positions are
    written."""
    name, rules = rules_of(game, name)
    return "\n\n".join(part for part in [
        f"# {name}",
        rules or "A game served by perfectplay.",
        "Every value and remoteness here comes from perfectplay's exact solution of the "
        "game: a move's colour is what it gets its mover under perfect play from then on.",
        "A position is written `PICTURE~KEY`: the game's picture of the board on one line "
        "(its lines separated by `|`), then the key perfectplay reads it back from."] if part)


class OverBudget(Busy):
    """A position not answered within :data:`GAMESMAN_SECONDS`, or one asked while the
    look-ups are taken: 503, with the seconds to wait (a :class:`~.worker.Busy`, so every
    route answers it as it answers a busy worker)."""


class LookUps:
    """The served game's look-ups, off the event loop and bounded: each runs in a thread of
    its own, one at a time (a live game's oracle is not made for two at once), at most
    :data:`LOOKUPS` running or waiting (one more is refused at once), and a request is
    answered 503 when its look-up is not done within :data:`GAMESMAN_SECONDS`.

    A look-up in a Python thread cannot be stopped: one past its budget runs on to its end
    (a live search, minutes at most) and keeps its slot, so new positions are refused with
    Retry-After meanwhile, never queued behind it; its answer is kept by the oracle, so the
    retry is answered at once. A look-up whose request was already answered 503 before its
    turn does not run."""

    def __init__(self) -> None:
        self.gate = threading.Lock()  # one look-up at a time
        self.count = threading.Lock()  # guards held
        self.held = 0  # look-ups running or waiting

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` in a thread, within the budget; its error is raised here."""
        seconds = GAMESMAN_SECONDS
        with self.count:
            if self.held >= LOOKUPS:
                raise OverBudget("the server is still working out an earlier position of "
                                 "this game; try again in a few seconds",
                                 retry_after=RETRY_AFTER)
            self.held += 1
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        abandoned = threading.Event()

        def settle(ok: bool, value: Any) -> None:
            if not done.done() and not abandoned.is_set():  # else no one reads it
                (done.set_result if ok else done.set_exception)(value)

        def look() -> None:
            ok, value = False, cast(object, None)
            try:
                with self.gate:
                    if not abandoned.is_set():
                        try:
                            ok, value = True, work()
                        except Exception as exc:  # noqa: BLE001 - the request answers it
                            value = exc
            finally:
                with self.count:
                    self.held -= 1
            with suppress(RuntimeError):  # the server's loop has ended: no one to tell
                loop.call_soon_threadsafe(settle, ok, value)

        threading.Thread(target=look, daemon=True, name="perfectplay-gamesman").start()
        try:
            return await asyncio.wait_for(asyncio.shield(done), seconds)
        except TimeoutError:
            abandoned.set()
            raise OverBudget(f"the position took longer than {seconds:g} s, the limit for one "
                             "request; it is still being worked out: try again in a few "
                             "seconds", retry_after=RETRY_AFTER) from None


#: The look-ups of each served game, by its id (kept while the game lives).
_LOOKUPS: dict[int, LookUps] = {}


def lookups_of(solved: Solved) -> LookUps:
    """The one :class:`LookUps` of a served game, shared by every route that reads it
    (``/gamesman`` and the page's tab), so its look-ups never run two at once."""
    key = id(solved)
    if key not in _LOOKUPS:
        _LOOKUPS[key] = LookUps()
        with suppress(TypeError):  # not weakly referable: kept for the process's life
            weakref.finalize(solved, _LOOKUPS.pop, key, None)
    return _LOOKUPS[key]


class Variant:
    """One variant served under ``/gamesman``: its id, its title and its game, solved on
    its first look-up (in the look-up's thread, within its budget) unless given solved,
    by ``solver`` when given (a seed game's own oracle), else by the engine. ``board``:
    whether the game has an image AutoGUI (:mod:`.autogui`), said before it is built."""

    def __init__(self, vid: str, title: str, make: Callable[[], Any],
                 solved: Solved | None = None, board: bool = False,
                 solver: Callable[[], Solved] | None = None) -> None:
        self.id, self.title, self._make, self._solved = vid, title, make, solved
        self.board, self._solver = board, solver
        self._game: Any = None if solved is None else solved.game
        self._codec: PositionCodec | None = None
        self._lock = threading.Lock()
        self.looks = lookups_of(solved) if solved is not None else LookUps()

    @property
    def game(self) -> Any:
        """The variant's game (built once, cheap: nothing solved)."""
        with self._lock:
            if self._game is None:
                self._game = self._make()
            return self._game

    @property
    def codec(self) -> PositionCodec:
        if self._codec is None:
            self._codec = PositionCodec(self.game, autogui.board_for(self.game))
        return self._codec

    @property
    def gui(self) -> str:
        """UWAPI's GUI category: ``v2`` (an image AutoGUI) or ``v0`` (text)."""
        return "v2" if self.board else "v0"

    @property
    def start(self) -> Any:
        return self._solved.start if self._solved is not None else self.game.initial()

    @property
    def scored(self) -> bool:
        """A game of point margins (its ``payoff`` hook), known without solving it."""
        if self._solved is not None:
            return self._solved.scored
        return capabilities(self.game).payoff is not None

    def solved(self) -> Solved:
        """The variant solved (once; the first look-up pays for it)."""
        game = self.game
        with self._lock:
            if self._solved is None:
                self._solved = self._solver() if self._solver is not None else \
                    cast(Solved, solve(game, check=False))
            return self._solved


class Listed:
    """One game of ``GET /gamesman/``: its served id, its title and its variants."""

    def __init__(self, game_id: str, name: str, variants: list[Variant]) -> None:
        self.id, self.name, self.variants = served_id(game_id), variant_title(name), variants

    def variant(self, vid: str) -> Variant | None:
        return next((v for v in self.variants if v.id == vid), None)

    @property
    def scored(self) -> bool:
        return any(v.scored for v in self.variants[:1])

    @property
    def gui(self) -> str:
        """``v2`` when a variant has an image AutoGUI, else ``v0``."""
        return "v2" if any(v.board for v in self.variants) else "v0"


def variant_id(values: dict[str, Any]) -> str:
    """A catalog variant's id from its parameters: ``name`` and value, letters and digits
    (``standard`` for a game without parameters).

    >>> variant_id({"houses": 2, "seeds": 3}), variant_id({})
    ('houses2_seeds3', 'standard')
    """
    parts = ["".join(c for c in f"{k}{v}".lower() if c.isalnum()) for k, v in values.items()]
    return "_".join(parts) or VARIANT


def catalog_listing() -> list[Listed]:
    """Every catalog game at its small variants (its default when it names none), each
    built and solved only when asked for."""
    listed = []
    for entry in catalog():
        sizes = [dict(values) for values in entry.small] or [{}]
        variants = []
        for values in sizes:
            full = entry.arguments((), values)
            variants.append(Variant(variant_id(values), entry.call(full),
                                    partial(entry.build, **values),
                                    board=entry.name in autogui.BOARDS))
        listed.append(Listed(entry.name, entry.title, variants))
    return listed


#: The variant id of a seed game's one variant, its bundled instance.
DEMO = "demo"


def seed_listing() -> list[Listed]:
    """Every two-player seed game (one with a play table) at its bundled instance (the
    variant ``demo``, titled by what it is), built and solved by its own play table (the
    game's engine rules and its oracle) only when asked for."""
    listed = []
    for entry in every_game():
        if entry.kind != "seed":
            continue
        spec = cast(GameSpec, entry)
        if spec.play is None or not spec.demo:
            continue
        listed.append(Listed(spec.name, spec.title, [_seed_variant(spec)]))
    return listed


def _seed_variant(spec: GameSpec) -> Variant:
    """A seed game's one variant, its bundled instance: its play table built once, on the
    first request that needs its game."""
    table = functools.cache(partial(_seed_table, spec))

    def game() -> object:
        return table().game

    def oracle() -> Solved:
        return table().oracle

    return Variant(DEMO, f"{spec.title}, {spec.demo_title or 'its example'}", game,
                   solver=oracle, board=spec.name in autogui.BOARDS)


def _seed_table(spec: GameSpec) -> Table:
    """A seed game's play table at its bundled instance (its rules and its oracle)."""
    assert spec.play is not None
    options = spec.make_options(dict(spec.demo_options))
    return spec.play(spec.parse(spec.demo, options), options)


def variant_response(v: Variant) -> dict[str, object]:
    """UWAPI's answer for a variant: its start (``startPosition``, its AutoGUI string as
    both ``autoguiStartPosition`` and ``autoguiPosition``) and its ``imageAutoGUIData``
    (None: the client shows the position's text). Builds the game (not solved)."""
    start = v.start
    text = v.codec.text(start, 0, 0 if v.scored else None)
    auto = v.codec.autogui(start, 0)
    board = v.codec.gui
    # the README lists the start's AutoGUI string as autoguiPosition, its example and
    # server.py (which GamesmanUni reads) as autoguiStartPosition: both are given
    return {"id": v.id, "name": v.title, "gui": "v2" if board else "v0",
            "startPosition": text, "autoguiStartPosition": auto, "autoguiPosition": auto,
            "imageAutoGUIData": None if board is None else board.data}


#: Where the boards' images live (package data), served at ``/gamesman/images/PATH``.
IMAGES = ("static", "gamesman")
_IMAGE_PATH = re.compile(r"[a-z0-9_]+(/[a-z0-9_]+)*\.svg", re.IGNORECASE)


def image_file(path: str) -> bytes | None:
    """The SVG image ``path`` names (``general/red_circle.svg``) among the boards' images,
    or None (a path with anything but letters, digits, ``_`` and ``/``, ending ``.svg``,
    is refused before any file is looked at)."""
    if not _IMAGE_PATH.fullmatch(path):
        return None
    found = resources.files("perfectplay.web").joinpath(*IMAGES, *path.split("/"))
    return found.read_bytes() if found.is_file() else None


def routes(solved: Solved | None, game_id: str, name: str,
           catalog: bool = False) -> list[Route]:
    """The ``/gamesman`` routes (see the module doc): ``solved`` (None: none) under
    ``served_id(game_id)`` with its one variant ``standard``, then, with ``catalog``, every
    catalog game at its small variants (:func:`catalog_listing`, solved on first look-up).
    A position is looked up off the event loop, within :data:`GAMESMAN_SECONDS`
    (:class:`LookUps`)."""
    listed: list[Listed] = []
    if solved is not None:
        title = variant_title(str(capabilities(solved.game).name or name))
        board = autogui.board_for(solved.game) is not None
        listed.append(Listed(game_id, name, [Variant(VARIANT, title, lambda: solved.game,
                                                     solved, board=board)]))
    by_id = {g.id: g for g in listed}
    pending = [catalog]  # the catalog is listed on the first request (its imports wait)
    listing_lock = threading.Lock()

    def listing() -> None:  # done once; a request meanwhile waits for it, and a failure
        with listing_lock:  # leaves it to the next request
            if pending[0]:
                listed.extend(g for g in seed_listing() + catalog_listing()
                              if g.id not in by_id)
                by_id.update((g.id, g) for g in listed)
                pending[0] = False

    def missing(what: str) -> Response:
        return JSONResponse({"error": what}, status_code=404)

    def no_game(request: Request) -> Response:
        known = ", ".join(repr(g) for g in by_id) or "none"
        return missing(f"no game {_cut(request.path_params['game'])!r}; this server has "
                       f"{known}")

    async def games(_request: Request) -> Response:
        if pending[0]:
            await asyncio.to_thread(listing)
        return JSONResponse([{"id": g.id, "name": g.name, "type": "twoPlayer", "gui": g.gui}
                             for g in listed])

    async def game(request: Request) -> Response:
        if pending[0]:
            await asyncio.to_thread(listing)
        g = by_id.get(request.path_params["game"])
        if g is None:
            return no_game(request)
        scored = await asyncio.to_thread(lambda: g.scored)  # builds its first variant
        return JSONResponse({"id": g.id, "name": g.name, "allowCustomVariantCreation": False,
                             "supportsWinBy": scored,
                             "variants": [{"id": v.id, "name": v.title, "gui": v.gui}
                                          for v in g.variants]})

    async def _find(request: Request) -> Variant | Response:
        if pending[0]:
            await asyncio.to_thread(listing)
        g = by_id.get(request.path_params["game"])
        if g is None:
            return no_game(request)
        v = g.variant(request.path_params["variant"])
        if v is None:
            return missing(f"no variant {_cut(request.path_params['variant'])!r}; "
                           f"{g.id!r} has {', '.join(repr(x.id) for x in g.variants)}")
        return v

    async def variant(request: Request) -> Response:
        v = await _find(request)
        if isinstance(v, Response):
            return v
        return JSONResponse(await asyncio.to_thread(variant_response, v))

    def answer(v: Variant, text: str | None) -> dict[str, Any]:
        solved_v = v.solved()
        pos = solved_v.start if text is None else v.codec.read(text)
        turn = v.codec.first_turn(text, pos, solved_v.start)
        return position_response(solved_v, pos, v.codec, turn, v.codec.score_of(text))

    async def position(request: Request) -> Response:
        v = await _find(request)
        if isinstance(v, Response):
            return v
        text = request.query_params.get("p")
        found = v
        try:
            return JSONResponse(await v.looks.run(lambda: answer(found, text)))
        except OverBudget as exc:
            return JSONResponse({"error": str(exc)}, status_code=503,
                                headers={"Retry-After": str(exc.retry_after)})
        except InputError as exc:
            return JSONResponse({"error": str(exc)}, status_code=422)
        except (KeyError, TypeError):  # UnknownPosition is a KeyError (and the project's)
            return missing(f"the position {_cut(text or '')!r} is not one this game reaches")
        except PerfectplayError as exc:  # a damaged store file: said, not a 500
            return JSONResponse({"error": str(exc)}, status_code=422)

    async def image(request: Request) -> Response:
        found = image_file(request.path_params["path"])
        if found is None:
            return missing(f"no image {_cut(request.path_params['path'])!r}")
        return Response(found, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})

    async def rules(request: Request) -> Response:
        v = await _find(request)
        if isinstance(v, Response):
            return v
        g = by_id[request.path_params["game"]]
        game_of = v  # built off the event loop (a catalog game's kernels, a seed's table)
        text = await asyncio.to_thread(lambda: instructions(game_of.game, g.name))
        return JSONResponse({"instructions": text})

    return [Route("/gamesman/images/{path:path}", image),
            Route("/gamesman/", games), Route("/gamesman/{game}/", game),
            Route("/gamesman/{game}/{variant}/", variant),
            Route("/gamesman/{game}/{variant}/positions/", position),
            Route("/gamesman/{game}/{variant}/instructions/", rules)]
