"""The Python-game backend of a store: any game with ``tier``, ``encode`` and ``decode``.

1. *Enumerate*, lowest tier first: workers expand chunks of the tier's positions; children
   that stay in the tier are expanded again (the closure), the others wait, as sorted
   codes, for their own tier. Each tier's codes go to ``work/T.npy``.
2. *Solve*, highest tier first: workers evaluate chunks of the tier, looking children up in
   the packed tiers above (:class:`perfectplay.store.reader.Tier`, cached per worker); a
   position whose moves all leave the tier is decided there, with the engine's own rule
   for a move (:func:`~perfectplay.engine.tiers.kernels.move_option`). Positions with moves inside
   the tier are finished in the client by the engine's kernels: win/lose games by
   retrograde analysis seeded with their best solved option
   (:func:`~perfectplay.store.sortedtiers.with_seed_chains`; cycles allowed, what stays
   unknown is a certified draw), scored games children first in exact arithmetic
   (:func:`~perfectplay.engine.solved.scored.negamax_exact`; moves inside a tier may not cycle).
   Then the tier is packed: sorted keys, a palette of exact (value, remoteness) pairs (big
   integers and fractions come back unchanged) and a palette id a position.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..engine.compiled.kernels import retrograde, reverse_csr, topological_order
from ..engine.protocol import Capabilities, Game, Move, Position, Score, Value, capabilities
from ..engine.solved.scored import negamax_exact, scored_option
from ..engine.tiers.kernels import better_option, move_option
from ..errors import GameError
from ..progress import Progress
from .layout import (
    WIDTHS,
    StoreError,
    finish,
    margin_text,
    save_array,
    tier_path,
    write_manifest,
)
from .reader import Tier
from .runner import Runner, StoreJob
from .sortedtiers import build_index, index_bits, mix_all, with_seed_chains


def check_tiered(game: Game) -> None:
    """A Python game must define ``tier``, ``encode`` and ``decode`` for a store."""
    caps = capabilities(game)
    for name, hook in (("tier", caps.tier), ("encode", caps.encode), ("decode", caps.decode)):
        if hook is None:
            raise GameError(f"a tiered solve needs the game to define {name}(); see "
                            "perfectplay.store")


# -- enumeration ---------------------------------------------------------------------------------
def _tier_hooks(caps: Capabilities) -> tuple[Callable[[int], Position],
                                             Callable[[Position], int],
                                             Callable[[Position], int],
                                             Callable[[Position, Move], Any]]:
    """(decode, encode, tier, payoff) of a game :func:`check_tiered` accepted (payoff: a
    stand-in never called in a win/lose game)."""
    assert caps.decode is not None and caps.encode is not None and caps.tier is not None
    return caps.decode, caps.encode, caps.tier, caps.payoff or _no_payoff


def _no_payoff(pos: Position, move: Move) -> int:
    raise AssertionError("a win/lose game has no payoff")


#: Children of a chunk whose code is decoded back and compared (the round trip's other
#: direction; every position's own code is checked).
ROUND_TRIPS = 64


def expand_chunk(game: Game, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Children (encoded) and their tiers of every non-terminal position in ``codes``.

    As it goes it checks what a store relies on, before any tier is solved: every position's
    ``encode(decode(code)) == code``, ``decode(encode(child)) == child`` for the first
    :data:`ROUND_TRIPS` children (two positions sharing a code), and no move falling to a
    lower tier; a failure is a :class:`GameError` and the store is left unfinished (a later
    read refuses it)."""
    decode, encode, tier_of, _ = _tier_hooks(capabilities(game))
    kids: list[int] = []
    tiers: list[int] = []
    for code in codes.tolist():
        pos = decode(code)
        if encode(pos) != code:
            raise GameError(f"decode({code}) is {pos!r}, whose encode is {encode(pos)}: "
                            "encode and decode must be inverses")
        if game.outcome(pos) is not None:
            continue
        here = tier_of(pos)
        for move in game.moves(pos):
            child = game.play(pos, move)
            t = tier_of(child)
            if t < here:
                raise GameError(f"move {move!r} from {pos!r} goes from tier {here} down to "
                                f"tier {t}; moves must stay in their tier or go up")
            kid = encode(child)
            if len(kids) < ROUND_TRIPS and decode(kid) != child:
                raise GameError(f"encode({child!r}) is {kid}, whose decode is "
                                f"{decode(kid)!r}: encode and decode must be inverses")
            kids.append(kid)
            tiers.append(t)
    return np.array(kids, dtype=np.int64), np.array(tiers, dtype=np.int64)


def _map_chunks(runner: Runner, fn: Callable[..., Any], codes: np.ndarray,
                *extra: Any) -> list[Any]:
    """``fn(game, part, *extra)`` over ``codes`` cut by the runner."""
    calls = [(codes[lo:hi], *extra) for lo, hi in runner.parts(codes.size)] or \
        [(codes, *extra)]
    return runner.run(fn, calls, runner.is_local(codes.size), True)


def _enumerate(game: Game, root: Path, runner: Runner, say: Callable[[str], None]
               ) -> list[dict[str, int]]:
    start = game.initial()
    _, encode, tier_of, _ = _tier_hooks(capabilities(game))
    pending: dict[int, list[np.ndarray]] = {tier_of(start):
                                            [np.array([encode(start)], np.int64)]}
    built = []
    while pending:
        t = min(pending)
        tier_codes = np.unique(np.concatenate(pending.pop(t)))
        frontier = tier_codes
        while frontier.size:
            inside = []
            for kids, ktiers in _map_chunks(runner, expand_chunk, frontier):
                for u in np.unique(ktiers):
                    sel = kids[ktiers == u]
                    if u == t:
                        inside.append(sel)
                    else:
                        pending.setdefault(int(u), []).append(np.unique(sel))
            if not inside:
                break
            new = np.setdiff1d(np.unique(np.concatenate(inside)), tier_codes)
            tier_codes = np.union1d(tier_codes, new)
            frontier = new
        np.save(root / "work" / f"{t}.npy", tier_codes)
        built.append({"tier": int(t), "size": int(tier_codes.size)})
        say(f"tier {t}: {tier_codes.size:,} positions")
    return built


# -- solving (worker side) -----------------------------------------------------------------------
_TIERS: dict[tuple[str, int, int], Tier] = {}


def _table(root: str, entry: dict[str, Any], scored: bool) -> Tier:
    """A packed tier, cached in the worker (a store solved again is reread)."""
    path = tier_path(Path(root), entry["tier"], "cells")
    key = (root, entry["tier"], path.stat().st_mtime_ns)
    if key not in _TIERS:
        if len(_TIERS) >= 16:
            _TIERS.pop(next(iter(_TIERS)))
        _TIERS[key] = Tier(Path(root), entry, scored)
    return _TIERS[key]


@dataclass
class Evaluated:
    """What a worker found for one chunk: decided positions, and the positions left for
    the client (moves inside the tier): each move as (child code or None, its solved
    (value, remoteness) or None, passes, payoff)."""

    codes: list[int] = field(default_factory=list)
    values: list[Any] = field(default_factory=list)
    rems: list[int] = field(default_factory=list)
    open_codes: list[int] = field(default_factory=list)
    open_who: list[int] = field(default_factory=list)
    open_moves: list[list[tuple[int | None, Any, bool, Any]]] = field(default_factory=list)


def _terminal(result: Any, scored: bool) -> Any:
    if scored:
        return 0 if isinstance(result, Value) else result
    if not isinstance(result, Value) or result is Value.DRAW:
        raise GameError(f"outcome returned {result!r}")
    return result


def evaluate_chunk(game: Game, codes: np.ndarray, root: str, tier: int,
                   tables: dict[int, dict[str, Any]], scored: bool) -> Evaluated:
    """Evaluate positions of ``tier``: children in higher tiers are looked up, so a
    position whose moves all leave the tier is decided here."""
    caps = capabilities(game)
    decode, encode, tier_of, payoff = _tier_hooks(caps)
    player = caps.player
    out = Evaluated()
    for code in codes.tolist():
        pos = decode(code)
        result = game.outcome(pos)
        if result is not None:
            out.codes.append(code)
            out.values.append(_terminal(result, scored))
            out.rems.append(0)
            continue
        who = player(pos) if player is not None else 0
        moves: list[tuple[int | None, Any, bool, Any]] = []
        inside = False
        for move in game.moves(pos):
            child = game.play(pos, move)
            t, ccode = tier_of(child), encode(child)
            passes = player is None or player(child) != who
            pay = payoff(pos, move) if scored else 0
            if t == tier:
                inside = True
                moves.append((ccode, None, passes, pay))
                continue
            if t not in tables:
                raise GameError(f"child {child!r} of {pos!r} is in tier {t}, which the "
                                "enumeration never reached")
            table = _table(root, tables[t], scored)
            slot = int(table.slots(np.array([ccode], np.int64))[0])
            if slot < 0:
                raise GameError(f"child {child!r} of {pos!r} is missing from tier {t}")
            pid = int(table.cells[slot])
            moves.append((None, (table.values[pid], int(table.rems[pid])), passes, pay))
        if not moves:
            out.codes.append(code)
            out.values.append(0 if scored else Value.LOSE)
            out.rems.append(0)
        elif inside:
            out.open_codes.append(code)
            out.open_who.append(int(who))
            out.open_moves.append(moves)
        else:
            value, rem = _best_option(moves, scored)
            out.codes.append(code)
            out.values.append(value)
            out.rems.append(rem)
    return out


def _best_option(moves: list[tuple[int | None, Any, bool, Any]], scored: bool
                 ) -> tuple[Any, int]:
    """The best of solved moves for the mover, by the engine's rule: exact margins in a
    scored game (the int64 kernels cannot hold 2**70 or a third), else the engine's own
    :func:`~perfectplay.engine.tiers.kernels.move_option` and ``better_option``."""
    if scored:
        best = None
        for _, (value, rem), passes, pay in moves:
            option = scored_option(pay, value, rem, passes)
            if best is None or Score(*option) > Score(*best):
                best = option
        assert best is not None
        return best
    have, bv, br = False, 0, 0
    for _, (value, rem), passes, _ in moves:
        _, v, r = move_option(False, passes, 0, value.code, rem, 0)
        if not have or better_option(False, v, r, bv, br):
            have, bv, br = True, int(v), int(r)
    return Value.from_code(bv), br


# -- solving (client side) -----------------------------------------------------------------------
def solve_python_store(game: Game, job: StoreJob) -> tuple[list[int], int]:
    """Enumerate, solve and pack ``game`` into ``job.root`` (see the module doc); returns
    the tier numbers and the number of positions stored (a :class:`~.runner.StoreSolver`)."""
    root, manifest, runner, say, steps = job.root, job.manifest, job.runner, job.say, job.steps
    manifest.setdefault("backend", "python")
    if manifest["backend"] != "python":
        raise StoreError(f"{root} holds a store of a compiled game; use another folder")
    manifest.setdefault("packed", [])
    (root / "work").mkdir(parents=True, exist_ok=True)
    (root / "tiers").mkdir(exist_ok=True)
    if not manifest.get("enumerated"):
        manifest["built"] = _enumerate(game, root, runner, say)
        manifest["enumerated"] = True
        write_manifest(root, manifest)
    built = manifest["built"]
    scored = bool(manifest["scored"])
    done = {e["tier"] for e in manifest["packed"]}
    order = sorted(built, key=lambda b: -b["tier"])
    with Progress("solving tiers", total=len(order), enabled=job.bar,
                  logger="perfectplay.store") as shown:
        for k, b in enumerate(order):
            t = b["tier"]
            shown.update(k, description=f"solving tier {t}")
            if t in done:
                continue
            steps.next()
            codes = np.load(root / "work" / f"{t}.npy")
            tables = {e["tier"]: e for e in manifest["packed"]}
            parts = _map_chunks(runner, evaluate_chunk, codes, str(root), t, tables, scored)
            entry = _write_tier(root, t, *_finish_tier(parts, scored))
            manifest["packed"].append(entry)
            write_manifest(root, manifest)
            say(f"tier {t} solved")
    finish(root, manifest)
    shutil.rmtree(root / "work", ignore_errors=True)
    return [b["tier"] for b in built], sum(b["size"] for b in built)


def _finish_tier(parts: list[Evaluated], scored: bool
                 ) -> tuple[list[int], list[Any], list[int]]:
    """Every position of a tier: the workers' decided ones, and the open ones solved here
    by the engine's kernels (see the module doc)."""
    codes = [c for p in parts for c in p.codes]
    values = [v for p in parts for v in p.values]
    rems = [r for p in parts for r in p.rems]
    open_codes = [c for p in parts for c in p.open_codes]
    if not open_codes:
        return codes, values, rems
    open_who = [w for p in parts for w in p.open_who]
    open_moves = [m for p in parts for m in p.open_moves]
    known = {c: (v, r) for c, v, r in zip(codes, values, rems, strict=True)}
    solve = _inside_scored if scored else _inside_winlose
    ov, orems = solve(open_codes, open_who, open_moves, known)
    return codes + open_codes, values + ov, rems + orems


def _solved_child(child: int | None, got: Any, known: dict[int, tuple[Any, int]]
                  ) -> tuple[Any, int]:
    """A move's solved child: what the worker looked up, or a position of this tier it
    decided."""
    if got is not None:
        return got
    assert child is not None
    return known[child]


def _inside_winlose(open_codes: list[int], who: list[int],
                    moves: list[list[tuple[int | None, Any, bool, Any]]],
                    known: dict[int, tuple[Any, int]]) -> tuple[list[Any], list[int]]:
    """Win/lose open positions: their moves among themselves as a graph, each one's best
    solved option as a seed, then the engine's retrograde analysis."""
    index = {c: i for i, c in enumerate(open_codes)}
    n = len(open_codes)
    offsets = np.zeros(n + 1, np.int64)
    children: list[int] = []
    seed_v = np.zeros(n, np.int64)
    seed_r = np.zeros(n, np.int64)
    has_seed = np.zeros(n, np.bool_)
    alternate = True
    for i, ms in enumerate(moves):
        solved: list[tuple[int | None, Any, bool, Any]] = []
        for child, got, passes, pay in ms:
            alternate &= passes
            if child is not None and child in index:
                children.append(index[child])
            else:
                solved.append((None, _solved_child(child, got, known), passes, pay))
        if solved:
            v, r = _best_option(solved, False)
            has_seed[i], seed_v[i], seed_r[i] = True, v.code, r
        offsets[i + 1] = len(children)
    kids = np.array(children, np.int64)
    off, kids2, terminal, players = with_seed_chains(
        offsets, kids, seed_v, seed_r, has_seed, np.array(who, np.int8), alternate)
    rev_off, rev_src, _ = reverse_csr(off, kids2, False)
    value, rem = retrograde(off, kids2, rev_off, rev_src, terminal, players, alternate)
    return [Value.from_code(v) for v in value[:n].tolist()], rem[:n].tolist()


def _inside_scored(open_codes: list[int], who: list[int],
                   moves: list[list[tuple[int | None, Any, bool, Any]]],
                   known: dict[int, tuple[Any, int]]) -> tuple[list[Any], list[int]]:
    """Scored open positions: their moves as a graph whose solved children are leaves of
    known margin and remoteness, solved children first in exact arithmetic by the engine's
    :func:`~perfectplay.engine.solved.scored.negamax_exact`. A cycle is refused."""
    index = {c: i for i, c in enumerate(open_codes)}
    n = len(open_codes)
    leaves: list[tuple[Any, int]] = []
    offsets = np.zeros(n + 1, np.int64)
    children: list[int] = []
    pays: list[Any] = []
    player = list(who)
    alternate = all(passes for ms in moves for _, _, passes, _ in ms)
    for i, ms in enumerate(moves):
        for child, got, passes, pay in ms:
            if child is not None and child in index:
                children.append(index[child])
            else:
                leaves.append(_solved_child(child, got, known))
                player.append(1 - who[i] if passes else who[i])
                children.append(n + len(leaves) - 1)
            pays.append(pay)
        offsets[i + 1] = len(children)
    total = n + len(leaves)
    offs = np.concatenate([offsets, np.full(len(leaves), offsets[-1], np.int64)])
    kids = np.array(children, np.int64)
    rev_off, rev_src, _ = reverse_csr(offs, kids, False)
    order, k = topological_order(offs, rev_off, rev_src)
    if k < total:
        stuck = next(open_codes[i] for i in range(n) if i not in set(order[:k].tolist()))
        raise GameError(f"the moves inside a tier of this scored game form a cycle (through "
                        f"position code {stuck}); a store solves scored games whose moves "
                        "inside a tier never return, and the in-memory engine solves cyclic "
                        "cost games")
    finals = [0] * n + [v for v, _ in leaves]
    leaf_rems = [0] * n + [r for _, r in leaves]
    values, rems = negamax_exact(order, offs, kids, pays, finals,
                                 None if alternate else np.array(player, np.int64), leaf_rems)
    return values[:n], rems[:n]


def _write_tier(root: Path, t: int, codes: list[int], values: list[Any],
                rems: list[int]) -> dict[str, Any]:
    """Pack one solved tier: sorted keys and index, the palette, a palette id a position."""
    keys = mix_all(np.array(codes, np.int64))
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    bits = index_bits(keys.size)
    palette: dict[tuple[str, int], int] = {}
    ids = np.empty(keys.size, np.int64)
    for j, i in enumerate(order.tolist()):
        v = values[i]
        text = margin_text(v) if not isinstance(v, Value) else v.value
        ids[j] = palette.setdefault((text, int(rems[i])), len(palette))
    width = 1 if len(palette) <= 1 << 8 else 2 if len(palette) <= 1 << 16 else 4
    for kind, arr in (("keys", keys), ("index", build_index(keys, bits)),
                      ("cells", ids.astype(WIDTHS[width]))):
        save_array(tier_path(root, t, kind), arr)
    return {"tier": t, "size": int(keys.size), "bits": bits, "width": width,
            "palette": [[text, rem] for text, rem in palette]}
