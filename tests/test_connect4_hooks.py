"""Connect Four's proof-search hooks and score conventions against strong solutions.

``search_moves`` may leave a move out only when a move it lists is at least as good (value and
remoteness), so at every position of a strongly solved board the best listed move must give
the position's own value and remoteness; ``horizon`` must count the empty cells and equal
every tie's remoteness. Both are checked at every position of 4x4 and 5x4 by a numba loop
over the solution's arrays (shown to catch a wrong hook), and on samples (4x5 too) through
the public ``move_values``, with the order of the listed moves. :func:`from_pons_score` is
checked against an independent negamax in Pascal Pons's score convention over the Python
twin on every position of 4x4 and 3x5, and against the engine's strong solve of the 50
endgame positions of tests/data/connect4, read by :func:`position_from_moves`.
"""

from __future__ import annotations

import copy
import random
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from perfectplay import Value, solve
from perfectplay.catalog.connect4 import (
    ConnectFour,
    ConnectFourPy,
    from_pons_score,
    position_from_moves,
)
from perfectplay.engine import (
    CANNOT_LOSE,
    CANNOT_WIN,
    LOSE,
    LOSES_IN_2,
    MUST_LOSE,
    NOT_SOONER,
    ONGOING,
    TIE,
    WIN,
    WINS_IN_1,
)
from perfectplay.engine.compiled.codetable import EMPTY
from perfectplay.engine.solved.solution import winlose_key

DATA = Path(__file__).resolve().parent / "data" / "connect4"
SETS = ["endgame_L1", "midgame_L1", "midgame_L2", "opening_L1", "opening_L2", "opening_L3"]


board = cache(ConnectFour)  # each board compiles its own functions: build each once


@cache
def solved(w: int, h: int):
    """(game, solution, sorted codes, their value codes, their remoteness) of a w x h board."""
    game = board(w, h)
    s = solve(game)
    t = s.tiers
    used = [k != EMPTY for k in t.keys]
    codes = np.concatenate([k[u] for k, u in zip(t.keys, used, strict=True)])
    vals = np.concatenate([v[u] for v, u in zip(t.values, used, strict=True)])
    rems = np.concatenate([r[u] for r, u in zip(t.rems, used, strict=True)])
    order = np.argsort(codes)
    return (game, s, codes[order], vals[order].astype(np.int64),
            rems[order].astype(np.int64))


def tuple_of(code: int, w: int, h: int) -> tuple[str, ...]:
    """A code as ConnectFourPy's position, decoding Tromp's key independently: each column's
    marker is its highest set bit, the bits below it are the mover's stones."""
    fields = [(code >> (c * (h + 1))) & ((1 << (h + 1)) - 1) for c in range(w)]
    n = sum(f.bit_length() - 1 for f in fields)
    return tuple(_column(f, n % 2) for f in fields)


@cache
def _column(field: int, o_moves: int) -> str:
    """One column's string from its field of the key (the mover is X after an even number
    of stones, O after an odd one)."""
    me, other = ("O", "X") if o_moves else ("X", "O")
    return "".join(me if field >> r & 1 else other for r in range(field.bit_length() - 1))


# -- every position, in compiled code ---------------------------------------------------------
@njit
def _key(v, r):
    """winlose_key as one int: win > tie > lose; a win or tie sooner, a loss later."""
    if v == WIN:
        return 3 * 4096 - r
    if v == TIE:
        return 2 * 4096 - r
    return r


@njit
def _check_every_position(codes, vals, rems, w, h, search_moves, moves, play, outcome,
                          horizon):
    """Counts of (positions searched, positions pruned, bad horizon, tie remoteness != horizon,
    no move listed, illegal or repeated move, best listed move != the position's value)."""
    buf = np.empty(w + 1, np.int64)
    legal = np.empty(w + 1, np.int64)
    h1 = h + 1
    searched = pruned = bad_horizon = bad_tie = empty = illegal = worse = 0
    for i in range(codes.size):
        code = codes[i]
        stones = 0  # the height of each column is the place of its marker bit
        for c in range(w):
            field = (code >> (c * h1)) & ((1 << h1) - 1)
            while field > 1:
                field >>= 1
                stones += 1
        if horizon(code) != w * h - stones:
            bad_horizon += 1
        if vals[i] == TIE and rems[i] != w * h - stones:
            bad_tie += 1
        if outcome(code) != ONGOING:
            continue
        searched += 1
        n = moves(code, legal)
        k = search_moves(code, buf)
        if k < 1:
            empty += 1
            continue
        if k < n:
            pruned += 1
        best = -1
        for j in range(k):
            m = buf[j]
            ok = False
            for q in range(n):
                ok = ok or legal[q] == m
            for q in range(j):
                ok = ok and buf[q] != m
            if not ok:
                illegal += 1
                break
            child = play(code, m)
            x = np.searchsorted(codes, child)
            if x == codes.size or codes[x] != child:  # not a position of the game
                illegal += 1
                break
            v = vals[x]
            v = LOSE if v == WIN else WIN if v == LOSE else v  # the child's mover is the other
            best = max(best, _key(v, rems[x] + 1))
        if best != _key(vals[i], rems[i]):
            worse += 1
    return searched, pruned, bad_horizon, bad_tie, empty, illegal, worse


@pytest.mark.parametrize("w,h", [(4, 4), (5, 4)])
def test_search_moves_keep_the_best_move_at_every_position(w, h):
    game, _, codes, vals, rems = solved(w, h)
    r = game.rules
    searched, pruned, *bad = _check_every_position(
        codes, vals, rems, w, h, r.search_moves, r.moves, r.play, r.outcome, r.horizon)
    assert bad == [0, 0, 0, 0, 0], dict(zip(
        ["horizon", "tie remoteness", "no move", "illegal or repeated", "best move lost"],
        bad, strict=True))
    assert searched > 0.7 * codes.size  # the rest have ended (about 21% on 5x4)
    assert pruned > 0.1 * searched  # the hook does prune


def test_the_check_catches_a_hook_that_drops_good_moves():
    """The same loop with a wrong hook (the first legal column only) finds positions whose
    best move is lost: the check above is not vacuous."""
    game, _, codes, vals, rems = solved(4, 4)
    r = game.rules
    legal_moves = r.moves

    @njit
    def first_column_only(code, out):
        legal_moves(code, out)
        return 1

    _, _, *bad = _check_every_position(codes, vals, rems, 4, 4, first_column_only, r.moves,
                                       r.play, r.outcome, r.horizon)
    assert bad[:4] == [0, 0, 0, 0] and bad[4] > 1000


# -- samples, through the public API ----------------------------------------------------------
CENTRE = {4: [2, 1, 3, 0], 5: [2, 1, 3, 0, 4]}  # the tie-break order, written out


def winning_cells(code: int, w: int, h: int) -> set[tuple[int, int]]:
    """The empty cells (column, row) where the player who just moved into ``code`` would
    complete four, found on ConnectFourPy's picture of the board (gravity ignored)."""
    pos = tuple_of(code, w, h)
    who = "O" if sum(map(len, pos)) % 2 == 0 else "X"
    grid = {(c, r): pos[c][r] for c in range(w) for r in range(len(pos[c]))}
    cells = set()
    for c in range(w):
        for r in range(len(pos[c]), h):
            grid[c, r] = who
            if any(all(grid.get((c + (i - j) * dc, r + (i - j) * dr)) == who
                       for i in range(4))
                   for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)) for j in range(4)):
                cells.add((c, r))
            del grid[c, r]
    return cells


def order_weight(game: ConnectFour, code: int, move: int, w: int, h: int) -> int:
    """The weight ``search_moves`` orders a move by, from the pictures of the board: the
    mover's winning cells after it that are not right above a cell where the opponent wins
    (before it), those of them right above a playable cell counted twice."""
    child = game.play(code, move)
    mine = winning_cells(child, w, h)
    theirs = winning_cells(code, w, h)
    useful = {(c, r) for c, r in mine if (c, r - 1) not in theirs}
    heights = [len(col) for col in tuple_of(child, w, h)]
    over = {(c, r) for c, r in useful if r == heights[c] + 1}
    return len(useful) + len(over)


def _check_sample(w: int, h: int, count: int) -> None:
    """At ``count`` random positions: the best listed move by ``move_values`` and winlose_key
    is the position's own value and remoteness; horizon and ties as above."""
    game, s, codes, _, _ = solved(w, h)
    buf = np.empty(w + 1, np.int64)
    rng = random.Random(w * 100 + h)
    for code in rng.sample(codes.tolist(), count):
        _, stones = game.stones(code)
        assert game.rules.horizon(np.int64(code)) == w * h - stones
        if s.value(code) is Value.TIE:
            assert s.remoteness(code) == w * h - stones
        if game.outcome(code) is not None:
            continue
        k = int(game.rules.search_moves(np.int64(code), buf))
        listed = [int(m) for m in buf[:k]]
        assert 1 <= k == len(set(listed)) and set(listed) <= set(game.moves(code))
        if k > 1:  # the regular case: best first by the weighed winning cells, then centre
            keys = [(-order_weight(game, code, m, w, h), CENTRE[w].index(m))
                    for m in listed]
            assert keys == sorted(keys), (game.draw(code), listed)
        by_move = {mv.move: mv for mv in s.move_values(code)}
        best = max((by_move[m] for m in listed), key=lambda mv: winlose_key(mv.value,
                                                                            mv.remoteness))
        assert (best.value, best.remoteness) == (s.value(code), s.remoteness(code)), \
            game.draw(code)


def test_search_moves_on_samples_through_move_values():
    _check_sample(4, 4, 1500)
    _check_sample(5, 4, 1500)


@pytest.mark.slow
def test_search_moves_on_a_sample_of_4x5():
    _check_sample(4, 5, 3000)


def test_search_moves_cases():
    """The rules one by one on 7x6 (columns from 0): the win alone, the block alone, two
    threats, never right under the opponent's winning cell, centre first; and narrow boards
    where four fits in no direction or only one."""
    game = board()
    buf = np.empty(8, np.int64)

    def listed(columns: str, g: ConnectFour = game) -> list[int]:
        k = g.rules.search_moves(np.int64(position_from_moves(g, columns)), buf)
        return [int(m) for m in buf[:k]]

    assert listed("") == [3, 2, 4, 1, 5, 0, 6]
    assert listed("010101") == [0]  # X wins on column 0 at once
    assert listed("01010") == [0]  # O must block column 0
    assert len(listed("26364")) == 1  # X threatens columns 1 and 5: O loses in 2 anyway
    # O holds row 1 of columns 4, 5, 6: X playing column 3 would let O win on top
    assert sorted(listed("45640506")) == [0, 1, 2, 4, 5, 6]
    # four fits in one direction only: vertically on 2x5, horizontally on 5x3
    assert listed("0101", board(2, 5)) == [0, 1]  # three in column 0 first
    assert listed("0011", board(5, 3)) == [2, 3, 1, 0, 4]  # 2 and 3 make a threat
    assert listed("", board(3, 3)) == [1, 0, 2]  # no four fits at all


# -- Pascal Pons's scores ---------------------------------------------------------------------
def pons_scores(w: int, h: int):
    """A memoised negamax in Pons's score convention over ConnectFourPy: 0 for a draw; a win
    by the stone that makes the board hold m stones scores (w*h + 2 - m) // 2 for the winner
    (Pons: (w*h + 1 - n) // 2 for a win next move with n stones on the board), the loser the
    opposite; a position already lost (a four on the board) -((w*h + 2 - n) // 2)."""
    game = ConnectFourPy(w, h)
    cells = w * h
    memo: dict[tuple[str, ...], int] = {}

    def four_through(pos: tuple[str, ...], c: int) -> bool:
        """Did the top stone of column c make four? (down its column, or along a row or a
        diagonal both ways)"""
        col = pos[c]
        r = len(col) - 1
        me = col[r]
        if col[r - 3:] == me * 4 and r >= 3:
            return True
        for dr in (0, 1, -1):
            run = 1
            for step in (1, -1):
                cc, rr = c + step, r + step * dr
                while 0 <= cc < w and 0 <= rr < len(pos[cc]) and pos[cc][rr] == me:
                    run += 1
                    cc, rr = cc + step, rr + step * dr
            if run >= 4:
                return True
        return False

    def score(pos: tuple[str, ...]) -> int:
        if pos in memo:
            return memo[pos]
        n = sum(map(len, pos))
        if n == cells:
            best = 0
        else:
            moves = game.moves(pos)
            children = [(c, game.play(pos, c)) for c in moves]
            if any(four_through(child, c) for c, child in children):
                best = (cells + 1 - n) // 2
            else:
                best = max(-score(child) for _, child in children)
        memo[pos] = best
        return best

    def top_level(pos: tuple[str, ...]) -> int:
        """The score of any position: an ended one has its four through the last stone, a
        column's top stone."""
        if sum(map(len, pos)) >= 7 and any(pos[c] and four_through(pos, c) for c in range(w)):
            return -((cells + 2 - sum(map(len, pos))) // 2)
        return score(pos)

    return top_level


def _check_pons(w: int, h: int, positions) -> None:
    """from_pons_score of the negamax's score is the solution's (value, remoteness) at every
    one of ``positions``, (ConnectFourPy position, value, remoteness) triples."""
    score = pons_scores(w, h)
    seen = set()
    for pos, value, rem in positions:
        s = score(pos)
        assert from_pons_score(s, sum(map(len, pos)), w, h) == (value, rem), (pos, s)
        seen.add(s)
    assert len(seen) > 8  # wins and losses of many lengths, and draws


def test_pons_scores_convert_to_the_engines_values_on_every_position_of_4x4():
    _, _, codes, vals, rems = solved(4, 4)
    names = {WIN: Value.WIN, LOSE: Value.LOSE, TIE: Value.TIE}
    _check_pons(4, 4, ((tuple_of(code, 4, 4), names[v], r) for code, v, r in
                       zip(codes.tolist(), vals.tolist(), rems.tolist(), strict=True)))


def test_pons_scores_convert_on_every_position_of_3x5():
    """An odd number of cells (the last stone is the first player's), solved by the Python
    engine over ConnectFourPy itself."""
    s = solve(ConnectFourPy(3, 5))
    _check_pons(3, 5, ((pos, s.value(pos), s.remoteness(pos)) for pos in s.positions()))


def test_pons_score_formula():
    """Hand-checked 7x6 cases, and the ends of the range."""
    assert from_pons_score((42 + 1 - 10) // 2, 10) == (Value.WIN, 1)  # a win next move
    assert from_pons_score((42 + 1 - 11) // 2, 11) == (Value.WIN, 1)
    assert from_pons_score(-((42 + 1 - 11) // 2), 10) == (Value.LOSE, 2)  # lost in 2
    assert from_pons_score(1, 0) == (Value.WIN, 41)  # the first player's 21st stone
    assert from_pons_score(-1, 0) == (Value.LOSE, 42)
    assert from_pons_score(0, 0) == (Value.TIE, 42)
    assert from_pons_score(-2, 0) == (Value.LOSE, 40)
    assert from_pons_score(18, 0) == (Value.WIN, 7)  # the quickest win from the start
    assert from_pons_score(-1, 42) == (Value.LOSE, 0)  # lost by the 42nd stone
    assert from_pons_score(-((42 + 2 - 20) // 2), 20) == (Value.LOSE, 0)  # lost already
    for bad in [(19, 0), (1, 42), (-22, 0), (0, 43)]:
        with pytest.raises(ValueError):
            from_pons_score(*bad)


# -- the public test sets ---------------------------------------------------------------------
def read_set(name: str) -> list[tuple[str, int]]:
    lines = (DATA / f"7x6_{name}.txt").read_text().splitlines()
    return [(m, int(s)) for m, s in (line.split() for line in lines)]


def test_test_sets_read_and_convert():
    """Every position of the sets is legal and ongoing, its score converts to a value that
    fits the board, and the first move search_moves lists wins at once exactly when the
    converted score is a win in 1."""
    game = board()
    buf = np.empty(8, np.int64)
    for name in SETS:
        rows = read_set(name)
        assert len(rows) == 50
        for moves, score in rows:
            code = position_from_moves(game, moves)
            assert game.outcome(code) is None
            value, rem = from_pons_score(score, len(moves))
            assert 1 <= rem <= 42 - len(moves) or value is Value.TIE
            k = game.rules.search_moves(np.int64(code), buf)
            win_now = game.outcome(game.play(code, int(buf[0]))) is Value.LOSE
            assert win_now == (value is Value.WIN and rem == 1)
            assert k >= 1


def test_position_from_moves_rejects_bad_strings():
    game = board(4, 4)
    assert position_from_moves(game, "") == game.start_code
    assert position_from_moves(game, "2231", first_column=1) == \
        position_from_moves(game, "1120")
    for bad in ["4", "x", "00000", "01010101"]:  # no column, full, after a win
        with pytest.raises(ValueError):
            position_from_moves(game, bad)


@pytest.mark.slow
def test_endgame_scores_convert_to_the_engines_strong_solution():
    """The 50 endgame positions (29 to 41 stones) strongly solved by the engine, each from its
    own start: (value, remoteness) equal the file's score through from_pons_score. This is
    the conversion checked on the real 7x6 data, search aside."""
    game = board()
    for moves, score in read_set("endgame_L1"):
        from_here = copy.copy(game)  # the same compiled rules, started at this position
        from_here.start_code = position_from_moves(game, moves)
        s = solve(from_here)
        assert (s.value(), s.remoteness()) == from_pons_score(score, len(moves)), moves


@njit
def _check_static_bounds(codes, vals, rems, static_bounds):
    """Over every position: (cannot-win claims, cannot-lose claims, must-lose claims, wrong
    claims, wins in 1 not flagged WINS_IN_1, losses in 2 not flagged LOSES_IN_2, the others
    not flagged NOT_SOONER). The two exact flags must name every such position: a win in 1
    is a playable winning cell, and a loss in 2 is a position where every move leaves the
    opponent a win at once; every other position that has not ended says NOT_SOONER (Connect
    Four: a four takes two moves)."""
    cannot_win = cannot_lose = must_lose = wrong = missed_win = missed_loss = missed_slow = 0
    for i in range(codes.size):
        known = static_bounds(codes[i])
        if known & CANNOT_WIN:
            cannot_win += 1
            wrong += vals[i] == WIN
        if known & CANNOT_LOSE:
            cannot_lose += 1
            wrong += vals[i] == LOSE
        if known & MUST_LOSE:
            must_lose += 1
            wrong += vals[i] != LOSE
        win1 = vals[i] == WIN and rems[i] == 1
        loss2 = vals[i] == LOSE and rems[i] == 2
        if known & WINS_IN_1:
            wrong += not win1
        elif win1:
            missed_win += 1
        if known & LOSES_IN_2:
            wrong += not loss2
        elif loss2:
            missed_loss += 1
        if known & NOT_SOONER:  # neither of the above, and no result sooner than 3 or 4 plies
            wrong += (known & (WINS_IN_1 | LOSES_IN_2)) != 0
            wrong += (vals[i] == WIN and rems[i] < 3) or (vals[i] == LOSE and rems[i] < 4)
        elif known & (WINS_IN_1 | LOSES_IN_2) == 0 and rems[i] > 0:
            missed_slow += 1  # not ended, no exact flag: NOT_SOONER holds and must be said
    return cannot_win, cannot_lose, must_lose, wrong, missed_win, missed_loss, missed_slow


@pytest.mark.parametrize("w,h", [(4, 4), (5, 4), (3, 5), (6, 3)])
def test_static_bounds_hold_at_every_position(w, h):
    """No line left, Allis' claimeven (even heights) and the exact flags: every claim
    checked against the strong solution, every win in 1 and loss in 2 flagged, and the
    claims are many (the hook does work)."""
    game, _, codes, vals, rems = solved(w, h)
    cannot_win, cannot_lose, must_lose, wrong, missed_win, missed_loss, missed_slow = \
        _check_static_bounds(codes, vals, rems, game.rules.static_bounds)
    assert (wrong, missed_win, missed_loss, missed_slow) == (0, 0, 0, 0)
    if h % 2:
        return  # claimeven needs an even height: the counts below are for the even boards
    assert must_lose > 0.001 * codes.size
    assert cannot_win > 0.25 * codes.size and cannot_lose > 0.05 * codes.size
