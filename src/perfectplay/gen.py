"""Test generators for every judge problem: valid inputs in the judge's exact format.

Each problem has a :class:`Spec`: how to generate one case (uniform noise and structured
families), how to write cases in the judge's format, what makes a case valid (checked, not
hoped for: The Rock's maze must not be cut by one block), how to shrink a case (for the
stress tester) and how to explain the right answer. Generation uses only
``random.Random(f"{seed}:{index}")``, so the same seed gives the same output on every
machine, and case i does not depend on the others.

>>> print(generate("cses1097", seed=1, cases=1, size=4), end="")
4
-805376703 31063756 -21890532 -659929028
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import InputError, LimitError

Case = Any


@dataclass(frozen=True)
class Spec:
    """Everything the generator, the stress tester and the checker need about a problem."""

    problem: str
    families: tuple[str, ...]
    make: Callable[[random.Random, int, str], Case]  # (rng, size, family) -> case
    write: Callable[[list[Case]], str]  # cases -> the judge's input text
    valid: Callable[[Case], bool]
    shrink: Callable[[Case], Iterator[Case]]  # smaller candidates, biggest cuts first
    explain: Callable[[Case], str]
    answer: str  # regular expression one output line must match
    default_size: int
    max_size: int


# -- coins -------------------------------------------------------------------------------------
def _coin_row(lo: int, hi: int, even: bool) -> Callable[[random.Random, int, str], Case]:
    def make(rng: random.Random, size: int, family: str) -> Case:
        n = max(1, rng.randint(max(1, size // 2), size))
        if even and n % 2:
            n += 1
        if family == "ties":
            return [rng.choice([lo, lo + 1, lo + 2]) if lo >= 0 else rng.choice([-1, 0, 1])
                    for _ in range(n)]
        if family == "largest":
            return [rng.choice([lo, hi]) for _ in range(size + (size % 2 if even else 0))]
        return [rng.randint(lo, hi) for _ in range(n)]

    return make


def _shrink_row(even: bool, lo: int) -> Callable[[Case], Iterator[Case]]:
    def shrink(row: list[int]) -> Iterator[Case]:
        step = 2 if even else 1
        for i in range(len(row) - step + 1):  # drop coins (pairs when n must stay even)
            yield row[:i] + row[i + step:]
        target = 0 if lo <= 0 else lo  # values move toward 0, or the smallest allowed
        for i, v in enumerate(row):
            for w in sorted({target, (v + target) // 2}):
                if w != v:
                    yield row[:i] + [w] + row[i + 1:]

    return shrink


def _in_range(lo: int, hi: int, even: bool, n_max: int) -> Callable[[Case], bool]:
    def valid(row: list[int]) -> bool:
        return (0 < len(row) <= n_max and (not even or len(row) % 2 == 0)
                and all(lo <= v <= hi for v in row))

    return valid


def _coins_explain(row: list[int]) -> str:
    from . import coins

    text = coins.explain(row)
    if len(row) <= 12:
        text += "\n" + coins.format_seed_table(row)
    return text


def _write_one_row(cases: list[Case]) -> str:
    row = cases[0]
    return f"{len(row)}\n{' '.join(map(str, row))}\n"


def _write_gfg(cases: list[Case]) -> str:
    out = [str(len(cases))]
    for row in cases:
        out += [str(len(row)), " ".join(map(str, row))]
    return "\n".join(out) + "\n"


def _write_until_zero(inline: bool) -> Callable[[list[Case]], str]:
    def write(cases: list[Case]) -> str:
        out = []
        for row in cases:
            vals = " ".join(map(str, row))
            out += [f"{len(row)} {vals}"] if inline else [str(len(row)), vals]
        return "\n".join(out + ["0"]) + "\n"

    return write


def _twends_explain(row: list[int]) -> str:
    from . import coins

    return (f"The first player plays perfectly, the second takes the larger end (left on "
            f"ties): the first wins by {coins.twends_margin(row)}.")


def _game_of_sum_explain(row: list[int]) -> str:
    from . import coins

    return f"Taking one or more numbers from one end, A - B = {coins.game_of_sum(row)}."


# -- grids -------------------------------------------------------------------------------------
def _grid_rows(cells: np.ndarray) -> list[str]:
    return ["".join(row) for row in cells.tolist()]


def _climbed(rng: random.Random, size: int, steps: int = 60) -> Case | None:
    """A size x size maze hill-climbed against perfectplay's own detour searches
    (:func:`perfectplay.rock.families.climb`, ``steps`` trials from 30 % random walls,
    against the search alone): mazes where solutions that search detours cell by cell are
    slow. X on the first free cell, E where the guaranteed steps are largest (and finite)."""
    from .rock.families import FREE, WALL, climb

    np_rng = np.random.default_rng(rng.getrandbits(64))
    start = np.where(np_rng.random((size, size)) < 0.3, WALL, FREE).astype(np.uint32)
    best = None
    for maze, _ in climb(start, np_rng, steps, heavy=False):
        best = maze
    return None if best is None else best.grid.lines()


def _noise(rng: random.Random, rows: int, cols: int, rate: float) -> np.ndarray:
    return np.array([["#" if rng.random() < rate else "." for _ in range(cols)]
                     for _ in range(rows)], dtype="<U1")


def _maze(rng: random.Random, rows: int, cols: int, braid: float) -> np.ndarray:
    """A DFS (recursive backtracker, iterative) maze on odd cells, with a share of extra
    openings so that single blocks do not cut it (``braid``)."""
    g = np.full((rows, cols), "#", dtype="<U1")
    starts = [(r, c) for r in range(0, rows, 2) for c in range(0, cols, 2)]
    r0, c0 = rng.choice(starts)
    g[r0, c0] = "."
    stack = [(r0, c0)]
    while stack:
        r, c = stack[-1]
        nxt = [(r + dr, c + dc, dr, dc) for dr, dc in ((0, 2), (0, -2), (2, 0), (-2, 0))
               if 0 <= r + dr < rows and 0 <= c + dc < cols and g[r + dr, c + dc] == "#"]
        if not nxt:
            stack.pop()
            continue
        nr, nc, dr, dc = rng.choice(nxt)
        g[r + dr // 2, c + dc // 2] = "."
        g[nr, nc] = "."
        stack.append((nr, nc))
    for r in range(rows):
        for c in range(cols):
            if g[r, c] == "#" and rng.random() < braid:
                g[r, c] = "."
    return g


def _snake(rng: random.Random, rows: int, cols: int) -> np.ndarray:
    """Horizontal walls with alternating gaps: one long corridor folded up, plus a second
    gap per wall so a single block does not cut it."""
    g = np.full((rows, cols), ".", dtype="<U1")
    for r in range(1, rows, 2):
        g[r, :] = "#"
        gaps = [cols - 1, 0] if (r // 2) % 2 == 0 else [0, cols - 1]
        g[r, gaps[0]] = "."
        g[r, rng.randrange(cols)] = "."
    return g


def _rooms(rng: random.Random, rows: int, cols: int) -> np.ndarray:
    g = _noise(rng, rows, cols, 0.0)
    for _ in range(max(1, rows * cols // 30)):
        r, c = rng.randrange(rows), rng.randrange(cols)
        if rng.random() < 0.5:
            g[r, max(0, c - 3):c + 3] = "#"
        else:
            g[max(0, r - 3):r + 3, c] = "#"
    return g


def _place(rng: random.Random, g: np.ndarray, marks: str) -> bool:
    free = [(r, c) for r in range(g.shape[0]) for c in range(g.shape[1]) if g[r, c] == "."]
    if len(free) < len(marks):
        return False
    for ch, (r, c) in zip(marks, rng.sample(free, len(marks)), strict=True):
        g[r, c] = ch
    return True


def _rock_valid(rows: list[str]) -> bool:
    from .grid import Grid
    from .rock import maze_from_grid, solve

    if not rows or len({len(r) for r in rows}) != 1 or len(rows) > 40 or len(rows[0]) > 40:
        return False
    text = "".join(rows)
    if text.count("E") != 1 or text.count("X") != 1 or set(text) - set("#.EX"):
        return False
    cells = np.array([[ord(ch) for ch in row] for row in rows], dtype=np.uint32)
    return solve(maze_from_grid(Grid(cells))).value is not None  # no single block cuts it


def _portal_valid(rows: list[str]) -> bool:
    if not rows or len({len(r) for r in rows}) != 1 or len(rows) > 100 or len(rows[0]) > 100:
        return False
    text = "".join(rows)
    if text.count("O") != 2 or "." not in text or set(text) - set(".#O"):
        return False
    cols = len(rows[0])
    (a, b) = [i for i, ch in enumerate(text) if ch == "O"]
    ra, ca, rb, cb = a // cols, a % cols, b // cols, b % cols
    return abs(ra - rb) + abs(ca - cb) != 1  # portals never adjacent


def _grid_maker(marks: str, valid: Callable[[Case], bool], braid: float,
                rates: tuple[float, ...], min_cells: int, fallback: list[str]
                ) -> Callable[[random.Random, int, str], Case]:
    """A generator of grids with ``marks`` placed on free cells, drawn until ``valid``."""

    def make(rng: random.Random, size: int, family: str) -> Case:
        if family == "corridor":
            from .rock.families import corridor_room

            return corridor_room(max(2, size // 3)).grid.lines()
        if family == "climbed":
            case = _climbed(rng, size)
            if case is not None and valid(case):
                return case
        for _ in range(200):
            rows, cols = rng.randint(1, size), rng.randint(1, size)
            if family == "largest":
                rows = cols = size
            if rows * cols < min_cells:
                continue
            if family == "maze":
                g = _maze(rng, rows, cols, braid)
            elif family == "snake":
                g = _snake(rng, rows, cols)
            elif family == "rooms":
                g = _rooms(rng, rows, cols)
            else:
                g = _noise(rng, rows, cols, rng.choice(rates))
            if _place(rng, g, marks) and valid(_grid_rows(g)):
                return _grid_rows(g)
        return fallback

    return make


def _shrink_grid(fixed: str) -> Callable[[Case], Iterator[Case]]:
    """Drop a row, drop a column, then turn a wall into a free cell and back."""

    def shrink(rows: list[str]) -> Iterator[Case]:
        for r in range(len(rows)):
            if len(rows) > 1:
                yield rows[:r] + rows[r + 1:]
        for c in range(len(rows[0])):
            if len(rows[0]) > 1:
                yield [row[:c] + row[c + 1:] for row in rows]
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch in fixed:
                    continue
                flip = "." if ch == "#" else "#"
                yield rows[:r] + [row[:c] + flip + row[c + 1:]] + rows[r + 1:]

    return shrink


def _write_grids(cases: list[Case]) -> str:
    out = [str(len(cases))]
    for rows in cases:
        out.append(f"{len(rows)} {len(rows[0])}")
        out += rows
    return "\n".join(out) + "\n"


def _rock_explain(rows: list[str]) -> str:
    from .rock import draw, explain, parse_maze, solve

    sol = solve(parse_maze("\n".join(rows)))
    return explain(sol) + "\nEvery cell's guaranteed steps:\n" + draw(sol)


def _portal_explain(rows: list[str]) -> str:
    from .portal import draw, parse_board, safe_moves, solve

    board = parse_board("\n".join(rows))
    return solve(board).explain() + "\n" + draw(board, safe_moves(board))


# -- kth-no ------------------------------------------------------------------------------------
def _no_make(rng: random.Random, size: int, family: str) -> Case:
    n = size if family == "largest" else rng.randint(2, max(2, size))
    cells = rng.sample(range(n * n), n)
    pieces = [(c // n, c % n) for c in cells]
    if family == "ties":  # put pieces symmetrically around the start
        pieces = pieces[:1] + sorted(pieces[1:], key=lambda p: (p[0] + p[1]) % 3)
    return (pieces, rng.randrange(n))


def _no_valid(case: Case) -> bool:
    pieces, start = case
    n = len(pieces)
    return (n >= 2 and 0 <= start < n and len(set(pieces)) == n
            and all(0 <= r < n and 0 <= c < n for r, c in pieces))


def _no_shrink(case: Case) -> Iterator[Case]:
    pieces, start = case
    for i in range(len(pieces)):
        if i != start:
            yield (pieces[:i] + pieces[i + 1:], start - (i < start))
    for i, (r, c) in enumerate(pieces):
        for rr, cc in ((r - 1, c), (r, c - 1)):
            if rr >= 0 and cc >= 0:
                yield (pieces[:i] + [(rr, cc)] + pieces[i + 1:], start)


def _no_write(cases: list[Case]) -> str:
    pieces, start = cases[0]
    return "\n".join([str(len(pieces))] + [f"{r} {c}" for r, c in pieces] + [str(start)]) + "\n"


def _no_explain(case: Case) -> str:
    from .nearest import nearest

    pieces, start = case
    ans = nearest(pieces, start)
    return (f"Piece {start} at {pieces[start]}: nearest {ans.pieces} at Manhattan distance "
            f"{ans.distance} (ties go to the lowest index).")


# -- the table ---------------------------------------------------------------------------------
INT = r"-?\d+"
SPECS: dict[str, Spec] = {
    "cses1097": Spec("cses1097", ("uniform", "ties", "largest"),
                     _coin_row(-10**9, 10**9, False), _write_one_row,
                     _in_range(-10**9, 10**9, False, 5000), _shrink_row(False, -10**9),
                     _coins_explain, INT, 8, 5000),
    "atcoder-dpl": Spec("atcoder-dpl", ("uniform", "ties", "largest"),
                        _coin_row(1, 10**9, False), _write_one_row,
                        _in_range(1, 10**9, False, 3000), _shrink_row(False, 1),
                        _coins_explain, INT, 8, 3000),
    "gfg-coins": Spec("gfg-coins", ("uniform", "ties", "largest"),
                      _coin_row(1, 1000, True), _write_gfg, _in_range(1, 1000, True, 1000),
                      _shrink_row(True, 1), _coins_explain, INT, 8, 1000),
    "spoj-twends": Spec("spoj-twends", ("uniform", "ties", "largest"),
                        _coin_row(1, 1000, True), _write_until_zero(True),
                        _in_range(1, 1000, True, 1000), _shrink_row(True, 1),
                        _twends_explain,
                        r"In game \d+, the greedy strategy might lose by as many as -?\d+ "
                        r"points\.", 8, 1000),
    "uva10891": Spec("uva10891", ("uniform", "ties", "largest"),
                     _coin_row(-100, 100, False), _write_until_zero(False),
                     _in_range(-100, 100, False, 100), _shrink_row(False, -100),
                     _game_of_sum_explain, INT, 8, 100),
    "uva10381": Spec("uva10381", ("uniform", "maze", "snake", "rooms", "corridor", "climbed",
                                  "largest"),
                     _grid_maker("EX", _rock_valid, 0.15, (0.0, 0.1, 0.2, 0.3), 2, ["EX"]),
                     _write_grids, _rock_valid, _shrink_grid("EX"),
                     _rock_explain, INT, 6, 40),
    "devc-portal": Spec("devc-portal", ("uniform", "maze", "snake", "rooms", "largest"),
                        _grid_maker("OO", _portal_valid, 0.3, (0.0, 0.15, 0.3, 0.5), 3,
                                    ["O.O"]),
                        _write_grids, _portal_valid, _shrink_grid("O"),
                        _portal_explain, r"Alif|Bella", 5, 100),
    "kth-no": Spec("kth-no", ("uniform", "ties", "largest"), _no_make, _no_write, _no_valid,
                   _no_shrink, _no_explain, r"\d+ \d+", 6, 2000),
}
SINGLE_CASE = {"cses1097", "atcoder-dpl", "kth-no"}


def spec(problem: str) -> Spec:
    if problem not in SPECS:
        raise InputError(f"unknown problem {problem!r}; known: {', '.join(SPECS)}")
    return SPECS[problem]


def make_case(problem: str, seed: int, index: int, size: int | None = None,
              family: str = "mixed") -> Case:
    """Case ``index`` of a run with ``seed``: independent of the other cases."""
    sp = spec(problem)
    size = sp.default_size if size is None else size
    if not 1 <= size <= sp.max_size:
        raise InputError(f"--size for {problem} must be 1..{sp.max_size}, got {size}")
    rng = random.Random(f"{problem}:{seed}:{index}")
    fam = family
    if family == "mixed":
        fam = rng.choice(sp.families)
    elif family not in sp.families:
        raise InputError(f"unknown family {family!r} for {problem}; known: mixed, "
                         f"{', '.join(sp.families)}")
    return sp.make(rng, size, fam)


#: The most text :func:`generate` builds in memory, estimated before any case is made.
MAX_OUTPUT_BYTES = 1 << 30
GRIDS = {"uva10381", "devc-portal"}


def estimated_bytes(problem: str, cases: int, size: int | None) -> int:
    """An upper estimate of the text ``cases`` cases of ``size`` take (a grid case is about
    size^2 characters; a row or a No board about 12 characters a value)."""
    sp = spec(problem)
    size = sp.default_size if size is None else size
    per_case = (size + 1) * (size + 8) if problem in GRIDS else 12 * size + 16
    return cases * per_case


def generate(problem: str, seed: int = 0, cases: int = 1, size: int | None = None,
             family: str = "mixed") -> str:
    """Judge input text with ``cases`` cases (problems with one case per input: 1).

    The size of the text is checked up front against MAX_OUTPUT_BYTES (a
    :class:`LimitError`), so a typo like ``--cases 1000000000`` stops at once.
    """
    sp = spec(problem)
    if problem in SINGLE_CASE and cases != 1:
        raise InputError(f"{problem} takes one case per input")
    if cases < 1:
        raise InputError(f"the number of cases must be at least 1, got {cases}")
    need = estimated_bytes(problem, cases, size)
    if need > MAX_OUTPUT_BYTES:
        raise LimitError(f"{cases:,} cases of size {size or sp.default_size} would be about "
                         f"{need / 2**30:.1f} GiB of text; the limit is "
                         f"{MAX_OUTPUT_BYTES / 2**30:.0f} GiB: ask for fewer or smaller cases")
    return sp.write([make_case(problem, seed, i, size, family) for i in range(cases)])
