"""The catalog games' boards in GamesCrafters' image AutoGUI: what GamesmanUni needs to draw
a position as a picture of the board instead of one line of text.

The UWAPI README (github.com/GamesCrafters/GamesCraftersUWAPI, ``games/image_autogui_data.py``)
describes the data a variant sends once, ``imageAutoGUIData``: a theme's ``space`` (its
width and height in its own units), its ``centers`` (points on the board), an optional
``background`` image and ``charImages`` (one image a character). Each position then sends
``autoguiPosition`` ``1_BOARD`` or ``2_BOARD`` (whose turn, then one character a centre:
the image of that character drawn there, ``-`` nothing, ``.`` a text entity whose text
follows after ``~``), and each move an ``autoguiMove`` the client draws as a button:
``A_-_7`` (a click on centre 7), ``L_3_4`` (a line from centre 3 to centre 4), ``M_3_4``
(an arrow). A move with none of these is listed as a button under the board, with its
name as its AutoGUI string.

**Images.** GamesmanUni (v5.0.35) draws an image only from its own bundle: it looks every
path up among the SVG files it was built with (``getImageSource`` in ``ImageAutoGUI.vue``)
and fails on any other. So every image named here is one the client ships
(:data:`CLIENT_IMAGES`, each path checked against its source tree), and this server serves
its own drawing of each at ``/gamesman/images/PATH`` (package data under
``web/static/gamesman/``), so the data is whole on its own: a client or a test that reads
images from the server finds them there.

Boards are built from the game's public face: its ``draw`` text (the grid games), its
``houses_of`` (Kalah), its lines (Dots and Boxes) and its heaps (Nim); the running score a
scored game's position string carries fills the stores and the score.

>>> from perfectplay.registry import get_catalog
>>> game = get_catalog("tictactoe").build()
>>> gui = board_for(game)
>>> gui.entities(game.initial()), gui.move(game.initial(), 4)
('---------', 'A_-_4')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol, cast

#: The image paths used here; each is a file of GamesmanUni v5.0.35's
#: ``src/models/images/svg/`` (the only images the client can draw) and of this package's
#: ``web/static/gamesman/`` (served at ``/gamesman/images/PATH``).
CLIENT_IMAGES = frozenset({
    "general/red_circle.svg", "general/yellow_circle.svg", "general/whitepiece.svg",
    "general/blackpiece.svg", "nim/grid.svg", "nim/x.svg",
    "ttt/3x3grid.svg", "ttt/x.svg", "ttt/o.svg", "othello/grid.svg", "othello/P.svg",
    "domineering/X.svg", "chess/wikipedia/P.svg", "chess/wikipedia/pp.svg",
    "teeko/x.svg", "teeko/o.svg",
})
#: The one theme each board has.
THEME = "perfectplay"
#: The token of a click button: never a character with an image, so the client draws its
#: default circle.
CLICK = "-"

#: A position or a move of a game read here (each board knows its game's).
Pos = object
Center = tuple[float, float]
#: ``imageAutoGUIData``: plain JSON.
JSON = dict[str, object]


class Drawn(Protocol):
    """A game that draws its positions as text and names its moves (the grid games)."""

    def initial(self) -> object: ...

    def draw(self, pos: object, /) -> str: ...

    def move_name(self, move: object, /) -> str: ...


class Sown(Drawn, Protocol):
    """Kalah: houses a side, seeds a house, the seeds of each house and who moves."""

    houses: int
    seeds: int

    def houses_of(self, code: object, /) -> tuple[list[int], int]: ...


class Lines(Protocol):
    """A Dots and Boxes board's lines: the dots each joins, their count, the indices of the
    horizontal line ``h(r, c)`` and the vertical ``v(r, c)``."""

    dots: list[tuple[tuple[int, int], tuple[int, int]]]
    n: int

    def h(self, r: int, c: int) -> int: ...

    def v(self, r: int, c: int) -> int: ...


class Boxes(Protocol):
    """Dots and Boxes: its board's lines, the lines drawn at a position, the boxes done."""

    rows: int
    cols: int
    board: Lines

    def drawn(self, code: object, /) -> set[int]: ...

    def owners(self, lines: set[int], /) -> list[bool]: ...


class Squared(Drawn, Protocol):
    """Othello: the board's side."""

    size: int


class Columns(Drawn, Protocol):
    """Connect Four: its width and height."""

    width: int
    height: int


@dataclass(frozen=True)
class Board:
    """One variant's image AutoGUI: ``data`` (``imageAutoGUIData``), ``entities(pos,
    score)`` (the ``BOARD`` of ``autoguiPosition``, its text entities after ``~``),
    ``move(pos, move)`` (the ``autoguiMove``; None: a listed button), and ``picture(pos,
    score)``, a text picture of the position when the game's ``draw`` leaves something out
    or becomes ambiguous on one line (None: the ``draw``)."""

    data: JSON
    entities: Callable[[Pos, int], str]
    move: Callable[[Pos, Pos], str | None]
    picture: Callable[[Pos, int], str] | None = None


def theme(space: tuple[float, float], centers: list[Center],
          images: dict[str, tuple[str, float]], **extra: float | str) -> JSON:
    """``imageAutoGUIData`` with one theme: its space, centres (rounded to 4 places), the
    image and scale of each character, and ``extra`` fields (``background``,
    ``lineWidth``, ``circleButtonRadius``, ...)."""
    body = {"space": [round(space[0], 4), round(space[1], 4)],
            "centers": [[round(x, 4), round(y, 4)] for x, y in centers],
            "charImages": {c: {"image": path, "scale": round(scale, 4)}
                           for c, (path, scale) in images.items()}, **extra}
    return {"defaultTheme": THEME, "themes": {THEME: body}}


def _texts(board: str, texts: list[str]) -> str:
    """The board with its text entities (one ``.`` each, in order) after ``~``."""
    return "~".join([board, *texts])


# -- the grid games, read from their draw -------------------------------------------------
@dataclass(frozen=True)
class Grid:
    """A board of labelled cells as a game's ``draw`` shows it: the row labels top first,
    the column letters, and a name's (``b2``) cell, counted top-left first."""

    rows: tuple[str, ...]
    cols: tuple[str, ...]

    def cell(self, name: str) -> int | None:
        found = re.fullmatch(r"([a-z]+)(\d+)", name)
        if not found or found[1] not in self.cols or found[2] not in self.rows:
            return None
        return self.rows.index(found[2]) * len(self.cols) + self.cols.index(found[1])


def read_grid(text: str) -> tuple[Grid, str]:
    """The grid and its cells (one character each, top-left first) of a ``draw`` with a
    header of column letters and rows ``LABEL c c c``.

    >>> read_grid("  a b\\n2 . X\\n1 O .\\nX to move")
    (Grid(rows=('2', '1'), cols=('a', 'b')), '.XO.')
    """
    cols: tuple[str, ...] = ()
    rows, cells = [], []
    for line in text.splitlines():
        parts = line.split()
        if not cols and parts and all(len(p) == 1 and p.isalpha() and p.islower()
                                      for p in parts):
            cols = tuple(parts)
        elif cols and len(parts) == len(cols) + 1 and parts[0].isdigit() and all(
                len(p) == 1 for p in parts[1:]):
            rows.append(parts[0])
            cells.extend(parts[1:])
    return Grid(tuple(rows), cols), "".join(cells)


#: A drawn cell's character as an AutoGUI character.
_PIECE = {".": "-", "X": "x", "O": "o", "#": "d", "B": "b", "W": "w"}


def grid_board(game: Drawn, images: dict[str, tuple[str, float]], link: str = "M",
               tile: tuple[str, float] | None = ("nim/grid.svg", 0.96),
               background: str | None = None, extra_rows: float = 0.0) -> Board:
    """A grid game read from its ``draw`` (see :func:`read_grid`): a tile under every cell
    (unless a ``background`` draws the board), its piece over it; a move naming one cell
    (``b2``) a click on it, one naming two (``a1-a2``, a capture ``b3xc2``) a line
    (``link`` ``L``, a domino: over the middle half of the two squares, so that dominoes in
    a row do not overlap) or an arrow (``M``, a step), ``pass`` a button under the board."""
    grid, _ = read_grid(game.draw(game.initial()))
    nr, nc = len(grid.rows), len(grid.cols)
    n = nr * nc
    cells = [(0.5 + i % nc, 0.5 + i // nc) for i in range(n)]
    tiles = [] if tile is None else cells
    pass_at = len(tiles) + n
    centers = tiles + cells + [(nc / 2, nr + 0.5)]
    dominoes = _dominoes(cells, nc, len(centers)) if link == "L" else {}
    centers += [c for pair in dominoes.values() for c in pair[1]]
    chars = dict(images) | ({} if tile is None else {"t": tile})
    data = theme((nc, nr + extra_rows), centers, chars, circleButtonRadius=0.15,
                 lineWidth=0.3, arrowWidth=0.12,
                 **({"background": background} if background else {}))
    base = len(tiles)

    def entities(pos: Pos, _score: int = 0) -> str:
        _, drawn = read_grid(game.draw(pos))
        return "t" * len(tiles) + "".join(_PIECE.get(c, "-") for c in drawn)

    def move(_pos: Pos, mv: Pos) -> str | None:
        name = str(game.move_name(mv)).lower()
        if name == "pass":
            return f"A_P_{pass_at}"
        found = re.fullmatch(r"([a-z]+\d+)(?:[-x]([a-z]+\d+))?", name)  # b2, a1-a2, b3xc2
        if found is None:
            return None
        named = [grid.cell(part) for part in found.groups() if part]
        ends = [e for e in named if e is not None]
        if len(ends) < len(named):
            return None
        if len(ends) == 1:
            return f"A_{CLICK}_{base + ends[0]}"
        if link == "L":
            (a, b), _ = dominoes[(min(ends), max(ends))]
            return f"L_{a}_{b}"
        return f"{link}_{base + ends[0]}_{base + ends[1]}"

    return Board(data, entities, move)


def _dominoes(cells: list[Center], nc: int, first: int
              ) -> dict[tuple[int, int], tuple[tuple[int, int], tuple[Center, Center]]]:
    """Each pair of neighbouring cells (``(i, j)``, ``i < j``): the indices of two new
    centres, from ``first`` on, and the centres themselves, a quarter of the way in from
    each cell's centre towards the other."""
    out: dict[tuple[int, int], tuple[tuple[int, int], tuple[Center, Center]]] = {}
    for i, (xa, ya) in enumerate(cells):
        for j in (i + 1, i + nc):
            if j >= len(cells) or (j == i + 1 and j % nc == 0):
                continue
            (xb, yb), k = cells[j], first + 2 * len(out)
            ends = ((xa + (xb - xa) / 4, ya + (yb - ya) / 4),
                    (xb - (xb - xa) / 4, yb - (yb - ya) / 4))
            out[(i, j)] = ((k, k + 1), ends)
    return out


def tictactoe_board(game: Drawn) -> Board:
    """Tic-tac-toe on GamesCrafters' own 3 x 3 grid, X and O as their pieces."""
    return grid_board(game, {"x": ("ttt/x.svg", 0.9), "o": ("ttt/o.svg", 0.9)}, tile=None,
                      background="ttt/3x3grid.svg")


def othello_board(game: Squared) -> Board:
    """Othello: black and white discs; the 4 x 4 board on GamesCrafters' green grid (a
    strip under it for ``pass``), larger ones on grey tiles."""
    discs = {"x": ("general/blackpiece.svg", 0.9), "o": ("general/whitepiece.svg", 0.9),
             "P": ("othello/P.svg", 0.9)}
    if game.size == 4:  # the client's grid: 40.12 x 50 units of 10 a cell
        return grid_board(game, discs, tile=None, background="othello/grid.svg",
                          extra_rows=1.0)
    return grid_board(game, discs, extra_rows=1.0)


def connect4_board(game: Columns) -> Board:
    """Connect Four: a grey board with white holes, red (first player) and yellow discs; a
    click above a column drops a disc in it."""
    width, height = int(game.width), int(game.height)
    n = width * height
    cells = [(0.5 + i % width, 1.5 + i // width) for i in range(n)]
    tops = [(0.5 + c, 0.5) for c in range(width)]
    data = theme((width, height + 1), cells + cells + tops,
                 {"t": ("nim/grid.svg", 1.0), "x": ("general/red_circle.svg", 0.85),
                  "o": ("general/yellow_circle.svg", 0.85),
                  "e": ("general/whitepiece.svg", 0.8)}, circleButtonRadius=0.25)

    def entities(pos: Pos, _score: int = 0) -> str:
        rows = [r for r in game.draw(pos).splitlines()
                if len(r) == width and set(r) <= set(".XO")]
        return "t" * n + "".join({"X": "x", "O": "o"}.get(c, "e") for c in "".join(rows))

    def move(_pos: Pos, mv: Pos) -> str | None:
        column = cast(int, mv)
        return f"A_{CLICK}_{2 * n + int(column)}" if 0 <= int(column) < width else None

    return Board(data, entities, move)


# -- Kalah: houses, stores and seeds ------------------------------------------------------
def kalah_board(game: Sown) -> Board:
    """Kalah: north's houses over south's, north's store on the left and south's on the
    right, the seeds in each as numbers; a click beside a house sows it. The stores come
    from the running score the position string carries (the mover's store minus the
    other's) and the seeds out of play."""
    m, total = int(game.houses), 2 * int(game.houses) * int(game.seeds)
    south = [(1.5 + i, 2.0) for i in range(m)]
    north = [(1.5 + m - 1 - i, 1.0) for i in range(m)]  # north's house i, right to left
    stores = [(m + 1.5, 1.5), (0.5, 1.5)]  # south's, north's
    pits = south + north
    buttons = [(x, 2.75) for x, _ in south] + [(x, 0.25) for x, _ in north]
    centers = pits + stores + pits + stores + buttons
    data = theme((m + 2, 3), centers, {"h": ("general/yellow_circle.svg", 0.8),
                                       "s": ("general/yellow_circle.svg", 1.0)},
                 circleButtonRadius=0.15, textEntityFontSize=0.35)
    first_button = 2 * (2 * m + 2)

    def seeds(pos: Pos, score: int) -> tuple[list[int], int, int]:
        houses, who = game.houses_of(pos)
        out = total - sum(houses)
        mover = (out + score) // 2
        ours = [mover, out - mover] if who == 0 else [out - mover, mover]  # south, north
        return houses, ours[0], ours[1]

    def entities(pos: Pos, score: int = 0) -> str:
        houses, s, n = seeds(pos, score)
        return _texts("h" * 2 * m + "ss" + "." * (2 * m + 2),
                      [str(h) for h in houses] + [str(s), str(n)])

    def move(pos: Pos, mv: Pos) -> str | None:
        _, who = game.houses_of(pos)
        return f"A_{CLICK}_{first_button + int(who) * m + int(cast(int, mv))}"

    def picture(pos: Pos, score: int) -> str:
        _, s, n = seeds(pos, score)
        return f"{game.draw(pos)}\nstores: north {n}, south {s}"

    return Board(data, entities, move, picture)


# -- Dots and Boxes: dots, lines, boxes and the score ------------------------------------
#: Squares that make one drawn line (they overlap into a bar).
SEGMENTS = 9


def dots_board(game: Boxes) -> Board:
    """Dots and Boxes: the dots, each drawn line as a bar, each complete box shaded, the
    score under the board (A the first player); each free line a line button. Its
    picture marks every free line (``·``) so that no line is lost on one line of text,
    and gives the score (the draw shows neither whose boxes nor how many)."""
    bd = game.board
    rows, cols = int(game.rows), int(game.cols)

    def dot(r: int, c: int) -> Center:
        return (0.5 + c, 0.5 + rows - r)

    boxes = [(1.0 + c, rows - r) for r in range(rows) for c in range(cols)]
    segments = []
    for a, b in bd.dots:
        (xa, ya), (xb, yb) = dot(*a), dot(*b)
        for k in range(SEGMENTS):
            t = 0.2 + 0.6 * k / (SEGMENTS - 1)
            segments.append((xa + (xb - xa) * t, ya + (yb - ya) * t))
    dots = [dot(r, c) for r in range(rows + 1) for c in range(cols + 1)]
    labels = [(0.5, rows + 1.5), (1.0, rows + 1.5), (cols - 0.5, rows + 1.5),
              (cols, rows + 1.5)]
    centers = boxes + segments + dots + labels
    data = theme((cols + 1, rows + 2), centers,
                 {"q": ("nim/grid.svg", 0.8), "k": ("domineering/X.svg", 0.12),
                  "b": ("general/blackpiece.svg", 0.25)},
                 lineWidth=0.1, textEntityFontSize=0.4)
    first_dot = len(boxes) + len(segments)

    def dot_index(r: int, c: int) -> int:
        return first_dot + r * (cols + 1) + c

    def score(pos: Pos, held: int) -> tuple[int, int]:
        done = sum(game.owners(game.drawn(pos)))
        mover_minus = held if _mover(pos) == 0 else -held  # A's minus B's
        a = (done + mover_minus) // 2
        return a, done - a

    def entities(pos: Pos, held: int = 0) -> str:
        lines = game.drawn(pos)
        shade = "".join("q" if full else "-" for full in game.owners(lines))
        bars = "".join(("k" if e in lines else "-") * SEGMENTS for e in range(bd.n))
        a, b = score(pos, held)
        return _texts(shade + bars + "b" * len(dots) + "....", ["A", str(a), "B", str(b)])

    def move(_pos: Pos, mv: Pos) -> str | None:
        a, b = bd.dots[int(cast(int, mv))]
        return f"L_{dot_index(*a)}_{dot_index(*b)}"

    def picture(pos: Pos, held: int) -> str:
        lines, out = game.drawn(pos), []
        full = game.owners(lines)
        for r in range(rows, -1, -1):
            out.append(f"{r + 1} +" + "+".join(
                "---" if bd.h(r, c) in lines else " · " for c in range(cols)) + "+")
            if r:
                cells = []
                for c in range(cols + 1):
                    cells.append("|" if bd.v(r - 1, c) in lines else "·")
                    if c < cols:
                        cells.append(" # " if full[(r - 1) * cols + c] else "   ")
                out.append("  " + "".join(cells))
        a, b = score(pos, held)
        mover = "AB"[_mover(pos)]
        return "\n".join(out) + f"\nA {a}, B {b}; {mover} to move"

    return Board(data, entities, move, picture)


def _mover(code: Pos) -> int:
    """Who moves in a Dots and Boxes code (its bit 0: 0 the first player, A)."""
    return int(cast(int, code)) & 1


# -- Nim: heaps of counters ---------------------------------------------------------------
def nim_board(game: Drawn) -> Board:
    """Nim: each heap a column of counters, its size under it; a click on a counter takes
    it and every counter above it."""
    start = _heaps(game.initial())
    k, top = len(start), max(start, default=0)
    height = 0.55 * top + 1.2
    counters = [(0.7 + 1.2 * j, height - 0.9 - 0.55 * i) for j in range(k) for i in range(top)]
    labels = [(0.7 + 1.2 * j, height - 0.3) for j in range(k)]
    data = theme((1.2 * k + 0.2, height), counters + labels, {"x": ("nim/x.svg", 0.9)},
                 circleButtonRadius=0.12, textEntityFontSize=0.4)

    def entities(pos: Pos, _score: int = 0) -> str:
        heaps = _heaps(pos)
        board = "".join("x" * h + "-" * (top - h) for h in heaps)
        return _texts(board + "." * k, [str(h) for h in heaps])

    def move(pos: Pos, mv: Pos) -> str | None:
        size, left = cast(tuple[int, int], mv)
        return f"A_{CLICK}_{_heaps(pos).index(size) * top + int(left)}"

    return Board(data, entities, move)


def _heaps(pos: Pos) -> tuple[int, ...]:
    """A Nim position: its heaps' sizes."""
    return tuple(cast(tuple[int, ...], pos))


def hexapawn_board(game: Drawn) -> Board:
    """Hexapawn: white and black pawns on grey squares; each move an arrow."""
    return grid_board(game, {"w": ("chess/wikipedia/P.svg", 0.9),
                             "b": ("chess/wikipedia/pp.svg", 0.9)})


def teeko_board(game: Drawn) -> Board:
    """Teeko: black and red pieces on grey squares; a drop a click, a step an arrow."""
    pieces = {"x": ("teeko/x.svg", 0.8), "o": ("teeko/o.svg", 0.8)}
    return grid_board(game, pieces, link="M")


def domineering_board(game: Drawn) -> Board:
    """Domineering: grey squares, covered ones black; each placement a line over the two
    squares the domino would cover."""
    return grid_board(game, {"d": ("domineering/X.svg", 0.96)}, link="L")


# -- coins in a line (a seed game) ------------------------------------------------------
class Row(Protocol):
    """Coins in a line: the row (a position ``(i, j)`` holds coins ``i..j-1``)."""

    coins: tuple[int, ...]


def coins_board(game: Row) -> Board:
    """Coins in a line: the coins left as gold discs with their values, the totals (A the
    first player) under them; a click under an end coin takes it. Its picture gives the
    coins left, the totals and who moves (the position alone is two numbers)."""
    row = tuple(int(c) for c in game.coins)
    n = len(row)
    spots = [(0.6 + 1.1 * i, 0.7) for i in range(n)]
    buttons = [(x, 1.45) for x, _ in spots]
    labels = [(0.6, 2.2), (1.5, 2.2), (2.7, 2.2), (3.6, 2.2)]
    data = theme((1.1 * n + 0.1, 2.7), spots + spots + labels + buttons,
                 {"c": ("general/yellow_circle.svg", 1.0)}, circleButtonRadius=0.12,
                 textEntityFontSize=0.4)

    def state(pos: Pos, held: int) -> tuple[int, int, int, int, int]:
        i, j = cast(tuple[int, int], pos)
        mover = (n - (j - i)) % 2
        taken = sum(row[:i]) + sum(row[j:])
        a = (taken + (held if mover == 0 else -held)) // 2
        return i, j, mover, a, taken - a

    def entities(pos: Pos, held: int = 0) -> str:
        i, j, _, a, b = state(pos, held)
        left = range(i, j)
        board = "".join("c" if k in left else "-" for k in range(n)) + \
            "".join("." if k in left else "-" for k in range(n))
        return _texts(board + "....", [str(row[k]) for k in left] + ["A", str(a), "B", str(b)])

    def move(pos: Pos, mv: Pos) -> str | None:
        i, j = cast(tuple[int, int], pos)
        at = 2 * n + len(labels) + (i if mv == "L" else j - 1)
        return f"A_{CLICK}_{at}" if mv in ("L", "R") else None

    def picture(pos: Pos, held: int) -> str:
        i, j, mover, a, b = state(pos, held)
        left = " ".join(str(c) for c in row[i:j]) or "none"
        return f"coins left {left}\nA {a}, B {b}; {'AB'[mover]} to move"

    return Board(data, entities, move, picture)


#: Each catalog game's board, by its name (each reads its own game's face).
BOARDS: dict[str, Callable[..., Board]] = {
    "tictactoe": tictactoe_board, "connect4": connect4_board, "othello": othello_board,
    "kalah": kalah_board, "dots_and_boxes": dots_board, "domineering": domineering_board,
    "nim": nim_board, "hexapawn": hexapawn_board, "teeko": teeko_board,
    "coins": coins_board,
}
#: The seed games' engine rules that have a board (a subclass with other moves has none).
SEED_BOARDS = {"perfectplay.coins.rules.CoinsGame": "coins"}


def catalog_name(game: object) -> str | None:
    """The catalog package ``game``'s class lives in (``connect4``), or the seed game it is
    the rules of (``coins``, :data:`SEED_BOARDS`), or None."""
    module = type(game).__module__
    if module.startswith("perfectplay.catalog.") and module.count(".") >= 2:
        return module.split(".")[2]
    return SEED_BOARDS.get(f"{module}.{type(game).__qualname__}")


def board_for(game: object) -> Board | None:
    """The image AutoGUI of a catalog game or of coins in a line (None for any other
    game, or when the game's board cannot be read: the client then shows the position's
    text)."""
    make = BOARDS.get(catalog_name(game) or "")
    if make is None:
        return None
    try:
        return make(game)
    except (AttributeError, TypeError, ValueError):  # a board this reader does not know
        return None


def images_of(data: JSON) -> set[str]:
    """Every image path an ``imageAutoGUIData`` names (backgrounds and pieces)."""
    out: set[str] = set()
    for body in cast(Mapping[str, JSON], data["themes"]).values():
        out.update(str(body[key]) for key in ("background", "foreground") if key in body)
        images = cast(Mapping[str, Mapping[str, str]], body["charImages"])
        out.update(img["image"] for img in images.values())
    return out
