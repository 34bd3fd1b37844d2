"""Closing the Portal as text: the board with its cut cells and a portal path, the winning
argument with this board's numbers, and the cut cells in words. Imports the model (the
board, the winner and the method); reads the result through :class:`Answer`, the fields it
needs, so the result (which calls these functions) is never imported here.

>>> from perfectplay import portal
>>> print(portal.analyze(portal.parse("O.O")).draw())  # doctest: +ELLIPSIS
  abc
1 OXO
O a portal, # a wall, ...
"""

from __future__ import annotations

from typing import Protocol

from ..grid import framed, undrawn
from ..seedrun import SeedRun
from .model import ALIF, BELLA, WALL, Board, Method, SafeMoves, Winner


class Answer(Protocol):
    """What the text reads of a :class:`~perfectplay.portal.PortalResult`."""

    @property
    def winner(self) -> Winner: ...
    @property
    def connected(self) -> bool: ...
    @property
    def empty(self) -> int: ...
    @property
    def turns(self) -> int | None: ...
    @property
    def method(self) -> Method: ...
    @property
    def grundy(self) -> int | None: ...
    @property
    def free_cells(self) -> int | None: ...
    @property
    def core_cells(self) -> int | None: ...
    @property
    def nodes(self) -> int | None: ...
    @property
    def seconds(self) -> float | None: ...
    @property
    def winning(self) -> list[int] | None: ...
    @property
    def unchecked(self) -> list[int] | None: ...
    @property
    def seed(self) -> SeedRun | None: ...
    @property
    def board(self) -> Board | None: ...
    @property
    def path_cells(self) -> int: ...
    @property
    def moves(self) -> SafeMoves: ...


def draw(board: Board, moves: SafeMoves, style: bool = False) -> str:
    """The board with cut cells as ``X``, safe cells on the path as ``*``, other safe cells
    ``.``; walls ``#`` and portals ``O``; column letters and row numbers as cell names read.
    With ``style``, rich markup colours them."""
    if board.grid is None:
        return ""
    too_large = undrawn(board.grid.rows, board.grid.cols, "board", "; --json or --png show it")
    if too_large:
        return too_large
    marks = {c: "*" for c in moves.path[1:-1]}
    marks.update({c: "X" for c in moves.cut})
    colours = {"X": "bold red", "*": "green", "O": "bold cyan", WALL: "dim"}
    g = board.grid
    cells = []
    for r, row in enumerate(g.lines()):
        out = []
        for c, ch in enumerate(row):
            mark = marks.get(g.index(r, c), ch)
            out.append((mark, f"[{colours[mark]}]{mark}[/]" if style and mark in colours
                        else mark))
        cells.append(out)
    return framed(cells, sep="" if g.cols <= 26 else " ") + "\n" + PORTAL_LEGEND


#: What the board's marks mean, printed under it.
PORTAL_LEGEND = ("O a portal, # a wall, * a safe cell on the portal path found, X a cut "
                 "cell (walling it disconnects the portals: its player loses), . another "
                 "safe cell")


def explain(result: Answer) -> str:
    """The argument, with this board's numbers; then the seed's method when it ran."""
    text = _argument(result)
    if result.seed is not None:
        text += "\n\n" + "\n".join(result.seed.lines())
    return text


def _argument(result: Answer) -> str:
    if not result.connected:
        return ("The portals are not connected at the start, so Alif has already lost: "
                "Bella wins.")
    if result.method == Method.PARITY:
        return _parity_argument(result)
    if result.method == Method.SEARCH:
        return _search_argument(result)
    free = result.free_cells or 0
    return (
        f"This board is not bipartite, so portal paths of both parities exist and no "
        f"parity rule holds. Exact search: the safe-move game on the portals' "
        f"component has Grundy value {result.grundy}, and {_free_cells_text(free)} "
        f"(parity {free % 2}); {result.grundy} xor {free % 2} "
        f"{'!= 0: the first player' if result.winner == ALIF else '= 0: the second player'} "
        f"wins. {result.winner} wins.")


def _search_argument(result: Answer) -> str:
    """What proof search proved, and why it may ignore most of the board."""
    free = result.free_cells or 0
    wins = result.winner == ALIF

    def named(cells: list[int] | None) -> list[str]:
        return [result.board.name(c) if result.board is not None else str(c)
                for c in cells or []]

    names, unchecked = named(result.winning), named(result.unchecked)
    moves = (f" Winning first moves: {', '.join(names[:12])}"
             f"{' ...' if len(names) > 12 else ''}." if wins and names else "")
    if unchecked:
        moves += (f" {len(unchecked)} first move{'s' if len(unchecked) > 1 else ''} "
                  f"({', '.join(unchecked[:6])}{' ...' if len(unchecked) > 6 else ''}) not "
                  "checked within the time limit: the winner is proven, the list of winning "
                  "moves is not complete.")
    return (
        "This board is not bipartite, so no parity rule holds. Nobody walls a cut cell "
        "while a safe cell is left (that loses at once), so the game is a run of safe "
        "moves. Only the cells on some portal-to-portal path can ever become cut cells; "
        f"here {result.core_cells} such cells form the core, and "
        f"{_free_cells_text(free)}. Each such outside cell is one free move, and two free "
        "moves cancel out (whoever needs a tempo answers one with the other), so only "
        f"their parity ({free % 2}) matters. Once walls leave cells every path crosses, "
        "the core falls apart into blocks in series, each an independent game whose "
        "Grundy value adds by xor. Proof search over the largest block beside one nim heap "
        f"for the rest, with a table of positions already proven, searched {result.nodes:,} "
        "positions "
        f"in {result.seconds or 0:.2f} s and proved that the "
        f"{'first' if wins else 'second'} player wins.{moves} {result.winner} wins.")


def _free_cells_text(free: int) -> str:
    if free == 0:
        return "no empty cell lies outside it"
    if free == 1:
        return "1 empty cell outside it is an independent single move"
    return f"{free} empty cells outside it are independent single moves"


def _parity_argument(result: Answer) -> str:
    """The invariant in words: the number of safe moves depends on play, its parity
    does not."""
    turns = result.turns or 0
    loser = BELLA if turns % 2 else ALIF
    count = ("there is no safe move at all: every empty cell is already a cut cell"
             if turns == 0 else
             f"with the path of {result.path_cells} cells found (a shortest one), "
             f"{result.empty} - {result.path_cells - 2} = {turns}, so every game has an "
             f"{'odd' if turns % 2 else 'even'} number of safe moves, {turns} at most")
    return (
        "Nobody walls a cut cell (one whose walling disconnects the portals) while a safe "
        "cell is left, since that loses at once. So the game is a run of safe moves that "
        "ends when every empty cell left is a cut cell: the portals are then joined by a "
        "single path P of empty cells, and every other empty cell has been walled. That "
        "is empty - (|P| - 2) safe moves (|P| counts both portals). Which path survives "
        "depends on play, so the number of safe moves does too, but not its parity: "
        "the board is bipartite, so every portal-to-portal path has the same parity. "
        f"Here, {count}. After an {'odd' if turns % 2 else 'even'} number of safe moves"
        f"{' (none included)' if turns % 2 == 0 else ''} it is {loser}'s turn with only "
        f"cut cells left: {loser} must disconnect the portals and loses. "
        f"{result.winner} wins.")


def summary(result: Answer) -> str:
    """The cut cells in words (the line under the explanation)."""
    if not result.connected or result.board is None:
        return ""
    cells = result.moves.cut
    cut = ", ".join(result.board.name(c) for c in cells[:NAMED_CUTS]) or "none"
    if len(cells) > NAMED_CUTS:
        cut += f" and {len(cells) - NAMED_CUTS:,} more (--json lists them all)"
    return (f"Safe cells: {len(result.moves.safe):,}; cut cells (walling one disconnects "
            f"the portals): {cut}")


#: Cut cells the summary line names (a corridor of a large board has thousands).
NAMED_CUTS = 40
