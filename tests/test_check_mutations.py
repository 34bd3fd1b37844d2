"""check_game against broken hooks: each shipped game, on a small size, with one hook broken
one way at a time (issue 42, "no silent wrong answer"). Every unmutated game passes; every
mutation is caught, by a problem that names the broken hook.

A compiled game is broken by rebuilding it from its own compiled rules with one rule
replaced by a small njit function that calls the original and changes its answer at some
positions (``pos % 7 == 3``); a Python game by a wrapper whose hook does the same (at
positions whose hash is 3 mod 7). Run with ``-s`` to see the table and the catch rate.

One mutation is known to go unseen and is marked xfail (strict, so a check that learns to
see it shows up): ``player`` flipped, deterministically, at some positions. It makes
another game, just as consistent: nothing in the rules says who the mover is except
``player`` itself (see check_game's docstring).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from nim import Nim
from numba import njit
from tictactoe import TicTacToe

from layered import LayeredGraph
from perfectplay.catalog.connect4 import ConnectFour
from perfectplay.catalog.kalah import Kalah
from perfectplay.coins import CoinsGame
from perfectplay.engine import (
    CANNOT_LOSE,
    CANNOT_WIN,
    WINS_IN_1,
    CompiledGame,
    Value,
    check_game,
)
from perfectplay.engine.protocol import BOUND_FLAGS
from perfectplay.portal import PortalGame, parse_board

RESULTS: list[tuple[str, str, str, bool]] = []


@pytest.fixture(scope="module", autouse=True)
def _catch_rate():
    yield
    if not RESULTS:
        return
    caught = sum(r[3] for r in RESULTS)
    width = max(len(r[0]) for r in RESULTS)
    print(f"\n{'game':{width}}  {'hook':13}  {'mutation':34}  caught")
    for game, hook, mutation, ok in RESULTS:
        print(f"{game:{width}}  {hook:13}  {mutation:34}  {'yes' if ok else 'NO'}")
    print(f"catch rate: {caught}/{len(RESULTS)} = {100 * caught / len(RESULTS):.1f} %")


@pytest.fixture(autouse=True)
def _seeded():
    """The random mutations draw the same numbers on every run (each is caught whatever
    they draw, but for a few very unlucky draws on the smallest games)."""
    random.seed(42)


# -- the games, small ---------------------------------------------------------------------
def _hit(pos: Any) -> bool:
    return hash(pos) % 7 == 3


class Hooked:
    """A Python game with some hooks added or replaced (the rest are the base game's)."""

    def __init__(self, base: Any, **hooks: Callable[..., Any]) -> None:
        self._base = base
        for name, fn in hooks.items():
            setattr(self, name, fn)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_base":
            raise AttributeError(name)
        return getattr(self._base, name)


_SYMMETRIES = [tuple(r * 3 + c for r, c in cells) for cells in (
    [(r, c) for r in range(3) for c in range(3)],
    [(r, 2 - c) for r in range(3) for c in range(3)],
    [(2 - r, c) for r in range(3) for c in range(3)],
    [(2 - r, 2 - c) for r in range(3) for c in range(3)],
    [(c, r) for r in range(3) for c in range(3)],
    [(c, 2 - r) for r in range(3) for c in range(3)],
    [(2 - c, r) for r in range(3) for c in range(3)],
    [(2 - c, 2 - r) for r in range(3) for c in range(3)])]


@functools.cache
def _ttt_canonical(board: str) -> str:
    return min("".join(board[i] for i in perm) for perm in _SYMMETRIES)


def tictactoe() -> Hooked:
    """Tic-tac-toe with every hook a Python game may have, each correct."""
    base = TicTacToe()
    digits = str.maketrans(".XO", "012")
    return Hooked(
        base,
        tier=lambda b: 9 - b.count("."),
        encode=lambda b: int(b.translate(digits), 3),
        decode=lambda c: "".join(".XO"[int(c) // 3 ** (8 - i) % 3] for i in range(9)),
        canonical=_ttt_canonical,
        player=lambda b: 0 if b.count("X") == b.count("O") else 1,
        search_moves=base.moves,
        static_bounds=lambda b: 0,
        horizon=lambda b: b.count("."),
        outcome_after=lambda b, m, child: base.outcome(child))


def nim() -> Hooked:
    base = Nim((2, 3, 4))
    return Hooked(base, tier=lambda h: 9 - sum(h),
                  encode=lambda h: h[0] * 25 + h[1] * 5 + h[2],
                  decode=lambda c: (int(c) // 25, int(c) // 5 % 5, int(c) % 5))


def coins() -> Hooked:
    base = CoinsGame([3, 1, 4, 1, 5, 9, 2])
    n = len(base.coins)
    return Hooked(base, step=lambda p, m: (base.play(p, m), base.payoff(p, m)),
                  player=lambda p: (n - (p[1] - p[0])) % 2)


def portal() -> PortalGame:
    return PortalGame(parse_board("O...\n.#..\n...O"))


def layered() -> LayeredGraph:
    return LayeredGraph(seed=3, tiers=10, width=20)  # 89 positions


@functools.cache
def connect4() -> ConnectFour:
    return ConnectFour(4, 3)


@functools.cache
def kalah() -> Kalah:
    return Kalah(3, 2, ranked=True)


PYTHON = {"tictactoe": tictactoe, "nim": nim, "coins": coins, "portal": portal,
          "layered": layered}
COMPILED = {"connect4 4x3": connect4, "kalah 3,2": kalah}


# -- breaking a Python game ---------------------------------------------------------------
def py_mutant(make: Callable[[], Any], hook: str,
              mutate: Callable[[Callable[..., Any], Any], Callable[..., Any]]) -> Any:
    base = make()
    return Hooked(base, **{hook: mutate(getattr(base, hook), base)})


def _random(x: Any) -> Any:
    return x + random.randint(0, 1)


PY_MUTATIONS: dict[str, dict[str, Callable[..., Any]]] = {
    "decode": {
        "wrong for some codes": lambda f, g: lambda c: f(c + 1) if c % 7 == 3 else f(c),
        "random": lambda f, g: lambda c: f(c + random.randint(0, 1)) if c % 7 == 3 else f(c),
    },
    "encode": {
        "two positions, one code": lambda f, g: (
            lambda p: f(g.initial()) if _hit(p) else f(p)),
        "random": lambda f, g: lambda p: _random(f(p)) if _hit(p) else f(p),
    },
    "tier": {
        "falls along a move": lambda f, g: lambda p: f(p) - 1000 if _hit(p) else f(p),
        "random": lambda f, g: lambda p: _random(f(p)) if _hit(p) else f(p),
    },
    "canonical": {
        "a non-symmetric board": lambda f, g: (
            lambda b: f(b[1:] + b[0]) if _hit(b) else f(b)),
        "the start": lambda f, g: lambda b: "." * 9 if _hit(b) else f(b),
        "random": lambda f, g: (
            lambda b: random.choice([b, f(b)]) if _hit(b) else f(b)),
    },
    "step": {
        "payoff + 1": lambda f, g: (
            lambda p, m: (f(p, m)[0], f(p, m)[1] + 1) if _hit(p) else f(p, m)),
        "wrong child": lambda f, g: lambda p, m: (p, f(p, m)[1]) if _hit(p) else f(p, m),
        "random": lambda f, g: (
            lambda p, m: (f(p, m)[0], _random(f(p, m)[1])) if _hit(p) else f(p, m)),
    },
    "outcome_after": {
        "never an end": lambda f, g: lambda p, m, c: None,
        "the parent's outcome": lambda f, g: lambda p, m, c: f(p, m, p) if _hit(c) else f(p, m, c),
        "a loss said a win": lambda f, g: (
            lambda p, m, c: Value.WIN if f(p, m, c) is Value.LOSE and _hit(c) else f(p, m, c)),
    },
    "player": {
        "flipped at some positions": lambda f, g: lambda p: 1 - f(p) if _hit(p) else f(p),
        "random": lambda f, g: lambda p: random.randint(0, 1) if _hit(p) else f(p),
    },
    "search_moves": {
        "lists an illegal move": lambda f, g: lambda b: f(b) + [9] if _hit(b) else f(b),
        "only the last move": lambda f, g: lambda b: f(b)[-1:] if _hit(b) else f(b),
        "lists none": lambda f, g: lambda b: [] if _hit(b) else f(b),
        "random": lambda f, g: (
            lambda b: random.sample(f(b), len(f(b))) if _hit(b) else f(b)),
    },
    "static_bounds": {
        "false CANNOT_WIN": lambda f, g: lambda b: CANNOT_WIN if _hit(b) else f(b),
        "false CANNOT_LOSE": lambda f, g: lambda b: CANNOT_LOSE if _hit(b) else f(b),
        "false WINS_IN_1": lambda f, g: lambda b: WINS_IN_1 if _hit(b) else f(b),
        "random": lambda f, g: lambda b: random.randint(0, 1) if _hit(b) else f(b),
    },
    "horizon": {
        "one too small": lambda f, g: lambda b: f(b) - 1 if _hit(b) else f(b),
        "one too large": lambda f, g: lambda b: f(b) + 1 if _hit(b) else f(b),
        "random": lambda f, g: lambda b: _random(f(b)) if _hit(b) else f(b),
    },
}

# which hooks each Python game has (the mutations of tic-tac-toe's board hooks need boards)
PY_HOOKS = {
    "tictactoe": ["decode", "encode", "tier", "canonical", "player", "search_moves",
                  "static_bounds", "horizon", "outcome_after"],
    "nim": ["decode", "encode", "tier"],
    "coins": ["decode", "encode", "tier", "step", "player"],
    "portal": ["decode", "encode", "tier"],
    "layered": ["decode", "encode", "tier"],
}


# -- breaking a compiled game -------------------------------------------------------------
def rebuild(game: CompiledGame, **new: Any) -> CompiledGame:
    """``game`` again from its compiled rules, with the rules in ``new`` replaced."""
    r = game.rules
    kw: dict[str, Any] = {"max_moves": game.max_moves, "name": game.name + " (mutant)"}
    if game.scored:
        kw.update(score=r.score, payoff=r.payoff)
    for on, name in ((game.has_player, "player"), (game.tiered, "tier"),
                     (game.symmetric, "canonical"), (game.has_search_moves, "search_moves"),
                     (game.has_horizon, "horizon"), (game.has_static_bounds, "static_bounds"),
                     (game.has_margin_bound, "margin_bound"), (game.has_step, "step")):
        if on:
            kw[name] = getattr(r, name)
    if game.has_rank:
        kw.update(rank=game.ranking.rank, unrank=game.ranking.unrank)
    kw.update(new)
    return CompiledGame(game.start_code, r.moves, r.play, r.outcome, **kw)


def add(f: Any, by: int) -> Any:
    @njit
    def g(pos):
        return f(pos) + by if pos % 7 == 3 else f(pos)
    return g


def lower_rank(f: Any) -> Any:
    """A rank that gives some positions the rank below theirs: two positions, one rank,
    every rank still inside its tier's range (a rank past the range would make the compiled
    unrank read outside its tables: numba does not check bounds)."""
    @njit
    def g(pos):
        r = f(pos)
        return r - 1 if pos % 7 == 3 and r > 0 else r
    return g


def set_to(f: Any, value: int) -> Any:
    @njit
    def g(pos):
        return value if pos % 7 == 3 else f(pos)
    return g


def noisy(f: Any) -> Any:
    @njit
    def g(pos):
        return f(pos) + np.random.randint(0, 2) if pos % 7 == 3 else f(pos)
    return g


def noisy_rank(f: Any) -> Any:
    """A rank that answers one lower at random at some positions (inside the range)."""
    @njit
    def g(pos):
        r = f(pos)
        return r - np.random.randint(0, 2) if pos % 7 == 3 and r > 0 else r
    return g


def flag(f: Any, bit: int) -> Any:
    @njit
    def g(pos):
        return f(pos) | bit if pos % 7 == 3 else f(pos)
    return g


def flipped(f: Any) -> Any:
    @njit
    def g(pos):
        return 1 - f(pos) if pos % 7 == 3 else f(pos)
    return g


def random_player(f: Any) -> Any:
    @njit
    def g(pos):
        return np.random.randint(0, 2) if pos % 7 == 3 else f(pos)
    return g


def listing(f: Any, how: int) -> Any:
    """search_moves broken: 0 an illegal move first, 1 only the last listed move, 2 none,
    3 a random count."""
    @njit
    def g(pos, out):
        k = f(pos, out)
        if pos % 7 != 3 or k == 0:
            return k
        if how == 0:
            out[0] = 99
            return k
        if how == 1:
            out[0] = out[k - 1]
            return 1
        if how == 2:
            return 0
        return k - np.random.randint(0, 2) if k > 1 else k
    return g


def stepping(f: Any, how: int) -> Any:
    """step broken: 0 payoff + 1, 1 the position itself as the child, 2 a random payoff."""
    @njit
    def g(pos, move):
        child, pay = f(pos, move)
        if pos % 7 != 3:
            return child, pay
        if how == 0:
            return child, pay + 1
        if how == 1:
            return pos, pay
        return child, pay + np.random.randint(0, 2)
    return g


def unranking(f: Any) -> Any:
    @njit
    def g(t, r):
        return f(t, r) + 2 if r % 7 == 3 else f(t, r)
    return g


def swapped_colours(f: Any, split: Any, bottom: int) -> Any:
    """Connect Four's canonical of the board with the colours swapped (same stones, same
    tier, another game) at some positions."""
    @njit
    def g(pos):
        if pos % 7 == 3:
            mover, mask = split(pos)
            return f((mover ^ mask) + mask + bottom)
        return f(pos)
    return g


def c_mutations(name: str) -> list[tuple[str, str, Callable[[], CompiledGame]]]:
    """(hook, mutation, a maker of the broken game) for a compiled game."""
    make = COMPILED[name]

    def m(hook: str, **rules: Callable[[CompiledGame], Any]) -> Callable[[], CompiledGame]:
        def build() -> CompiledGame:
            g = make()
            return rebuild(g, **{k: fn(g) for k, fn in rules.items()})
        return build

    out = [
        ("tier", "falls along a move", m("tier", tier=lambda g: add(g.rules.tier, -10**6))),
        ("tier", "random", m("tier", tier=lambda g: noisy(g.rules.tier))),
    ]
    if name.startswith("connect4"):
        out += [
            ("tier", "flat along a move", m("tier", tier=lambda g: add(g.rules.tier, -1))),
            ("canonical", "the colours swapped", m("canonical", canonical=lambda g:
                swapped_colours(g.rules.canonical, g._split, g.start_code))),
            ("canonical", "the start", m("canonical", canonical=lambda g:
                set_to(g.rules.canonical, g.start_code))),
            ("canonical", "random", m("canonical", canonical=lambda g:
                noisy(g.rules.canonical))),
            *[("static_bounds", f"false {flag_name}", m("static_bounds", static_bounds=lambda g,
               bit=bit: flag(g.rules.static_bounds, bit)))
              for flag_name, bit in BOUND_FLAGS.items()],
            ("static_bounds", "random", m("static_bounds", static_bounds=lambda g:
                noisy(g.rules.static_bounds))),
            ("horizon", "one too small", m("horizon", horizon=lambda g:
                add(g.rules.horizon, -1))),
            ("horizon", "one too large", m("horizon", horizon=lambda g:
                add(g.rules.horizon, 1))),
            ("horizon", "random", m("horizon", horizon=lambda g: noisy(g.rules.horizon))),
            ("rank", "two positions, one rank", m("rank", rank=lambda g:
                lower_rank(g.ranking.rank), unrank=lambda g: g.ranking.unrank)),
            ("rank", "random", m("rank", rank=lambda g: noisy_rank(g.ranking.rank),
                                 unrank=lambda g: g.ranking.unrank)),
            ("unrank", "wrong for some ranks", m("unrank", rank=lambda g: g.ranking.rank,
                                                 unrank=lambda g: unranking(g.ranking.unrank))),
        ]
    if name.startswith("kalah"):
        out += [
            ("player", "flipped at some positions", m("player", player=lambda g:
                flipped(g.rules.player))),
            ("player", "random", m("player", player=lambda g: random_player(g.rules.player))),
            ("step", "payoff + 1", m("step", step=lambda g: stepping(g.rules.step, 0))),
            ("step", "wrong child", m("step", step=lambda g: stepping(g.rules.step, 1))),
            ("step", "random", m("step", step=lambda g: stepping(g.rules.step, 2))),
            ("margin_bound", "0 at some positions", m("margin_bound", margin_bound=lambda g:
                set_to(g.rules.margin_bound, 0))),
            ("margin_bound", "random", m("margin_bound", margin_bound=lambda g:
                noisy(g.rules.margin_bound))),
        ]
    out += [
        ("search_moves", "lists an illegal move", m("search_moves", search_moves=lambda g:
            listing(g.rules.search_moves, 0))),
        ("search_moves", "only the last move", m("search_moves", search_moves=lambda g:
            listing(g.rules.search_moves, 1))),
        ("search_moves", "lists none", m("search_moves", search_moves=lambda g:
            listing(g.rules.search_moves, 2))),
        ("search_moves", "random", m("search_moves", search_moves=lambda g:
            listing(g.rules.search_moves, 3))),
    ]
    return out


# -- the cases ----------------------------------------------------------------------------
UNSEEN = {("player", "flipped at some positions")}
WHY_UNSEEN = ("a deterministic player flipped at some positions is another consistent game: "
              "nothing but player says who moves, so no check without a twin can see it")


def _cases() -> list[Any]:
    cases = []
    for game, hooks in PY_HOOKS.items():
        for hook in hooks:
            for mutation, mutate in PY_MUTATIONS[hook].items():
                if hook == "canonical" and game != "tictactoe":
                    continue

                def build(game: str = game, hook: str = hook, mutate: Any = mutate) -> Any:
                    return py_mutant(PYTHON[game], hook, mutate)
                cases.append((game, hook, mutation, build))
    for game in COMPILED:
        for hook, mutation, build in c_mutations(game):
            cases.append((game, hook, mutation, build))
    return [pytest.param(*c, id=f"{c[0]}-{c[1]}-{c[2]}".replace(" ", "_"),
                         marks=[pytest.mark.xfail(strict=True, reason=WHY_UNSEEN)]
                         if (c[1], c[2]) in UNSEEN else [])
            for c in cases]


@pytest.mark.parametrize("name", [*PYTHON, *COMPILED])
def test_every_unmutated_game_passes(name):
    game = {**PYTHON, **COMPILED}[name]()
    report = check_game(game)
    assert report.ok, str(report)
    assert report.complete
    assert not any("were not checked" in n for n in report.notes), str(report)


@pytest.mark.parametrize(("game", "hook", "mutation", "build"), _cases())
def test_check_game_catches_the_mutation(game, hook, mutation, build):
    report = check_game(build())
    text = "\n".join(report.problems)
    caught = not report.ok and hook in text
    RESULTS.append((game, hook, mutation, caught))
    assert not report.ok, f"{game}: {hook} {mutation} not caught:\n{report}"
    assert hook in text, f"{game}: {hook} {mutation}: the problems do not name {hook}:\n{text}"
