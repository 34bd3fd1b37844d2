"""Tiered solving on Dask with an on-disk tablebase (optional extra ``perfectplay[scale]``).

A game that outgrows memory declares tiers: ``tier(pos)`` -> int, every move going to a
strictly higher tier, or staying inside its tier (cycles are allowed only there); and
``encode(pos)`` -> int / ``decode(int)`` -> pos, so positions travel and store as 64-bit
integers. :func:`solve_tiered` then works one tier at a time and keeps only that tier in
memory:

1. *Enumerate*, lowest tier first: Dask workers expand chunks of the tier's positions; the
   children that stay in the tier are expanded again (closure), the others wait, as sorted
   integer arrays, in their own tiers. Each finished tier is written to
   ``STORE/positions/tier=T.parquet``.
2. *Solve*, highest tier first: workers evaluate chunks of the tier, looking children up in
   the already solved tiers (read from Parquet, cached per worker); a position whose moves
   all leave the tier is decided right there. Positions with moves inside the tier are
   finished on the client: win/lose games by retrograde analysis seeded with the outside
   values (a heap in remoteness order, cycles allowed), scored games children first (no
   cycles inside a tier), margins exact. Each tier goes to ``STORE/solved/tier=T.parquet``
   (position, value, margin as exact text, remoteness, best move) and is freed.

Same semantics and same answers as :func:`perfectplay.engine.solve`. A run that is stopped
continues from the last finished tier. ``cluster=None`` starts a local Dask cluster of this
machine's cores; given a scheduler address it runs there unchanged. Queries go through
DuckDB over the Parquet files (:func:`query`, :func:`analyze`), no server.
"""

from __future__ import annotations

import ast
import heapq
import json
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from .engine.compiled import is_compiled
from .engine.protocol import Value, has_player, is_scored
from .engine.scored import scored_key
from .engine.solution import (
    MoveValue,
    UnknownPosition,
    describe,
    move_lines,
    play_moves,
    position_json,
    winlose_key,
)
from .errors import GameError, InputError, PerfectplayError, show
from .progress import Progress
from .textio import int_from_digits, int_text

CHUNK = 20_000


class SolveStopped(PerfectplayError):
    """A tiered solve stopped before the end; running it again resumes it."""


def _need(module: str) -> Any:
    try:
        return __import__(module, fromlist=["_"])
    except ImportError:
        raise PerfectplayError("tiered solving needs the scale extra: pip install "
                               "'perfectplay[scale]'") from None


def margin_text(value: Any) -> str:
    """A margin as exact text for the store: an int in full, a Fraction as "p/q", a float
    by its repr (so 2**60 + 1 and 1/3 come back unchanged, see :func:`parse_margin`).

    >>> margin_text(2**60 + 1), margin_text(Fraction(1, 3)), margin_text(0.5)
    ('1152921504606846977', '1/3', '0.5')
    """
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int | np.integer):
        return int_text(int(value))
    if isinstance(value, Fraction):
        return f"{int_text(value.numerator)}/{int_text(value.denominator)}"
    return repr(float(value))


def parse_margin(text: str) -> Any:
    """The inverse of :func:`margin_text`: an int, a Fraction or a float, exactly."""
    if "/" in text:
        return Fraction(int_from_digits(text.split("/")[0]), int_from_digits(text.split("/")[1]))
    if any(ch in text for ch in ".eEni"):  # 0.5, 1e+300, inf, nan
        return float(text)
    return int_from_digits(text)


def check_tiered(game: Any) -> None:
    for name in ("tier", "encode", "decode"):
        if not callable(getattr(game, name, None)):
            raise GameError(f"a tiered solve needs the game to define {name}(); see "
                            "perfectplay.tablebase")


# -- worker side ---------------------------------------------------------------------------------
def expand_chunk(game: Any, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Children (encoded) and their tiers of every non-terminal position in ``codes``."""
    kids: list[int] = []
    tiers: list[int] = []
    for code in codes.tolist():
        pos = game.decode(code)
        if game.outcome(pos) is not None:
            continue
        here = game.tier(pos)
        for move in game.moves(pos):
            child = game.play(pos, move)
            t = game.tier(child)
            if t < here:
                raise GameError(f"move {move!r} from {pos!r} goes from tier {here} down to "
                                f"tier {t}; moves must stay in their tier or go up")
            kids.append(game.encode(child))
            tiers.append(t)
    return np.array(kids, dtype=np.int64), np.array(tiers, dtype=np.int64)


_TABLES: dict[tuple[str, int, int], tuple[np.ndarray, list[Any], np.ndarray]] = {}


def _table(store: str, tier: int) -> tuple[np.ndarray, list[Any], np.ndarray]:
    """A solved tier as sorted positions, values (margins or value codes) and remoteness,
    cached in the worker (the few most recent tiers)."""
    path = Path(store) / "solved" / f"tier={tier}.parquet"
    try:
        stamp = path.stat().st_mtime_ns  # a store solved again in this process is reread
    except OSError:
        stamp = -1
    key = (store, tier, stamp)
    if key not in _TABLES:
        pos, vals, rem, _ = read_solved_tier(path, best=False)
        if len(_TABLES) >= 6:
            _TABLES.pop(next(iter(_TABLES)))
        _TABLES[key] = (pos, vals, rem)
    return _TABLES[key]


@dataclass
class Evaluated:
    """What a worker found for one chunk: decided rows, and the positions left for the
    client (they have moves inside the tier)."""

    decided: list[tuple[int, Any, int | None, str]]  # code, value, remoteness, best move
    open_: list[tuple[int, list[tuple[str, Any, Any, Any]]]]  # code, moves


def evaluate_chunk(game: Any, codes: np.ndarray, store: str, tier: int,
                   scored: bool) -> Evaluated:
    """Evaluate positions of ``tier``: children in higher tiers are looked up, so a
    position whose moves all leave the tier is decided here."""
    with_player = has_player(game)
    out = Evaluated([], [])
    for code in codes.tolist():
        pos = game.decode(code)
        result = game.outcome(pos)
        if result is not None:
            out.decided.append((code, *_terminal(result, scored), ""))
            continue
        who = game.player(pos) if with_player else None
        moves: list[tuple[str, tuple[Any, ...], Any, Any]] = []
        inside = False
        for move in game.moves(pos):
            child = game.play(pos, move)
            t = game.tier(child)
            ccode = game.encode(child)
            passes = who is None or game.player(child) != who
            pay = game.payoff(pos, move) if scored else None
            if t == tier:
                inside = True
                moves.append((repr(move), ("in", ccode), passes, pay))
                continue
            pos_arr, vals, rems = _table(store, t)
            k = int(np.searchsorted(pos_arr, ccode))
            if k >= pos_arr.size or pos_arr[k] != ccode:
                raise GameError(f"child {child!r} of {pos!r} is missing from tier {t}")
            r = int(rems[k])
            moves.append((repr(move), ("out", vals[k], None if r < 0 else r), passes, pay))
        if not moves:
            out.decided.append((code, *_no_moves(scored), ""))
        elif inside:
            out.open_.append((code, moves))
        else:
            out.decided.append((code, *_best([_mover_view(m, scored) for m in moves],
                                             scored)))
    return out


def _terminal(result: Any, scored: bool) -> tuple[Any, int]:
    if scored:
        return (0 if isinstance(result, Value) else result), 0
    if not isinstance(result, Value) or result is Value.DRAW:
        raise GameError(f"outcome returned {result!r}")
    return result.value, 0


def _no_moves(scored: bool) -> tuple[Any, int]:
    return (0, 0) if scored else (Value.LOSE.value, 0)


def _mover_view(move: tuple[str, Any, Any, Any], scored: bool) -> tuple[str, Any, int | None]:
    """(move, value for the mover, remoteness) of a move whose child is known."""
    name, (_, value, rem), passes, pay = move
    r = None if rem is None else rem + 1
    if scored:
        return name, (pay - value if passes else pay + value), r
    v = Value(value)
    return name, (v.flipped() if passes else v).value, r


def _key(value: Any, rem: int | None, scored: bool) -> tuple[Any, float]:
    return scored_key(value, rem) if scored else winlose_key(Value(value), rem)


def _best(options: list[tuple[str, Any, int | None]], scored: bool) -> tuple[Any, Any, str]:
    name, value, rem = max(options, key=lambda o: _key(o[1], o[2], scored))
    return value, rem, name


# -- client side: positions with moves inside their tier ------------------------------------------
def solve_inside(open_: list[tuple[int, list]], known: dict[int, tuple[Any, int | None]],
                 scored: bool) -> list[tuple[int, Any, int | None, str]]:
    """The engine's retrograde analysis over one tier's positions that have moves inside
    the tier. Moves to known positions (other tiers, or positions of this tier a worker
    already decided, in ``known``) arrive as events with their remoteness; a heap in
    remoteness order replaces the engine's FIFO queue, so a win is still the quickest one
    and a loss the slowest. Then ties spread, and what is left is a certified draw.
    Scored games: see :func:`_scored_inside` (moves inside a tier, no cycles)."""
    if scored:
        return _scored_inside(open_, known)
    index = {code: i for i, (code, _) in enumerate(open_)}
    n = len(open_)
    parents: list[list[tuple[int, bool, str]]] = [[] for _ in range(n)]
    total = [len(moves) for _, moves in open_]
    events: list[tuple[int, int, int, Value, str]] = []  # (rem, tie-break, pos, mover, move)
    tie_moves: list[tuple[int, int, str]] = []
    draw_move = [""] * n
    for i, (_, moves) in enumerate(open_):
        for name, target, passes, _ in moves:
            if target[0] == "in" and target[1] in index:
                parents[index[target[1]]].append((i, passes, name))
                continue
            code_value, rem = known[target[1]] if target[0] == "in" else target[1:]
            v = Value(code_value)
            mover = v.flipped() if passes else v
            r = None if rem is None else rem + 1
            if mover in (Value.WIN, Value.LOSE):
                events.append((r, len(events), i, mover, name))  # type: ignore[arg-type]
            elif mover is Value.TIE:
                tie_moves.append((r, i, name))  # type: ignore[arg-type]
            else:
                draw_move[i] = draw_move[i] or name
    heapq.heapify(events)
    value: list[Value | None] = [None] * n
    rem_of: list[int | None] = [None] * n
    best = [""] * n
    losing = [0] * n
    slowest: list[tuple[int, str]] = [(-1, "")] * n
    order = len(events)
    while events:
        r, _, i, mover, name = heapq.heappop(events)
        if value[i] is not None:
            continue
        if mover is Value.WIN:
            value[i], rem_of[i], best[i] = Value.WIN, r, name
        else:
            losing[i] += 1
            if r > slowest[i][0]:
                slowest[i] = (r, name)
            if losing[i] < total[i]:
                continue
            value[i], (rem_of[i], best[i]) = Value.LOSE, slowest[i]
        for p, passes, pname in parents[i]:
            if value[p] is None:
                here = value[i]
                assert here is not None
                parent_value = here.flipped() if passes else here
                heapq.heappush(events, (r + 1, order, p, parent_value, pname))
                order += 1
    ties = [(r, k, i, name) for k, (r, i, name) in enumerate(tie_moves)]
    heapq.heapify(ties)
    order = len(ties)
    while ties:
        r, _, i, name = heapq.heappop(ties)
        if value[i] is not None:
            continue
        value[i], rem_of[i], best[i] = Value.TIE, r, name
        for p, _, pname in parents[i]:
            if value[p] is None:
                heapq.heappush(ties, (r + 1, order, p, pname))
                order += 1
    for i in range(n):
        if value[i] is None:
            value[i] = Value.DRAW
    for j in range(n):  # a draw keeps playing into a draw
        if value[j] is Value.DRAW:
            for p, _, pname in parents[j]:
                if value[p] is Value.DRAW and not draw_move[p]:
                    draw_move[p] = pname
    return [(open_[i][0], value[i].value, rem_of[i],  # type: ignore[union-attr]
             draw_move[i] if value[i] is Value.DRAW else best[i]) for i in range(n)]


Row = tuple[int, Any, "int | None", str]  # code, value, remoteness, best move


def _scored_inside(open_: list[tuple[int, list]],
                   known: dict[int, tuple[Any, int | None]]) -> list[Row]:
    """A scored game's positions with moves inside their tier: children first (Kahn's
    topological order over the moves inside the tier), each valued as the engine values it
    (the best margin for the mover, exact arithmetic, its remoteness by the engine's
    ordering). Moves inside a tier may not form a cycle in a scored game (the engine's cost
    games need the whole graph): that is a clear error naming a position."""
    index = {code: i for i, (code, _) in enumerate(open_)}
    n = len(open_)
    waiting = [0] * n
    parents: list[list[int]] = [[] for _ in range(n)]
    for i, (_, moves) in enumerate(open_):
        for _, target, _, _ in moves:
            if target[0] == "in" and target[1] in index:
                waiting[i] += 1
                parents[index[target[1]]].append(i)
    ready = [i for i in range(n) if waiting[i] == 0]
    solved: dict[int, tuple[Any, int | None]] = dict(known)
    out = []
    while ready:
        i = ready.pop()
        code, moves = open_[i]
        options = []
        for name, target, passes, pay in moves:
            if target[0] == "in":
                value, rem = solved[target[1]]
                target = ("out", value, rem)
            options.append(_mover_view((name, target, passes, pay), True))
        value, rem, best = _best(options, True)
        solved[code] = (value, rem)
        out.append((code, value, rem, best))
        for parent in parents[i]:
            waiting[parent] -= 1
            if waiting[parent] == 0:
                ready.append(parent)
    if len(out) < n:
        stuck = next(code for i, (code, _) in enumerate(open_) if waiting[i] > 0)
        raise GameError(f"the moves inside a tier of this scored game form a cycle (through "
                        f"position code {stuck}); a store solves scored games whose moves "
                        "inside a tier never return, and the in-memory engine solves cyclic "
                        "cost games")
    return out


# -- the driver ---------------------------------------------------------------------------------
@dataclass
class Tablebase:
    """A solved store: where it is, its tiers and counts."""

    store: Path
    tiers: list[int]
    positions: int
    scored: bool


def _chunks(a: np.ndarray, size: int) -> list[np.ndarray]:
    return [a[k:k + size] for k in range(0, a.size, size)] or [a]


#: Tiers (or closure rounds) with at most this many positions are worked in the client's
#: own process: a Dask round trip costs more than the work.
LOCAL = 2_000
#: At most this many chunks a worker per tier: a few large chunks, not many small ones.
CHUNKS_PER_WORKER = 4


def _run(client: Any, fn: Callable[..., Any], game: Any, game_f: Any, codes: np.ndarray,
         chunk: int, workers: int, *extra: Any) -> list[Any]:
    """``fn(game, part, *extra)`` over ``codes`` split into parts: in this process when the
    work is small, else on the cluster in at most CHUNKS_PER_WORKER parts a worker (each
    at least ``chunk`` positions)."""
    if codes.size <= LOCAL:
        return [fn(game, codes, *extra)]
    parts = max(1, min(-(-codes.size // chunk), CHUNKS_PER_WORKER * max(1, workers)))
    pieces = np.array_split(codes, parts)
    futures = client.map(fn, [game_f] * parts, pieces, *([x] * parts for x in extra),
                         pure=False)
    return client.gather(futures)


#: Seconds to wait for a given scheduler before saying it cannot be reached.
CONNECT_TIMEOUT = 5


def _client(cluster: str | None, workers: int | None) -> Any:
    distributed = _need("distributed")
    if cluster is None:
        import warnings

        with warnings.catch_warnings():  # "port 8787 in use": another cluster runs here
            warnings.filterwarnings("ignore", message="Port .* is already in use")
            lc = distributed.LocalCluster(n_workers=workers or os.cpu_count() or 1,
                                          threads_per_worker=1, processes=True,
                                          dashboard_address=None, silence_logs=40)
        return distributed.Client(lc)
    try:
        return distributed.Client(cluster, timeout=f"{CONNECT_TIMEOUT}s")
    except Exception as exc:  # noqa: BLE001 - OSError, TimeoutError, ValueError (bad address)
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise PerfectplayError(f"cannot reach the Dask scheduler at {cluster!r} within "
                               f"{CONNECT_TIMEOUT} s ({reason[:200]})") from None


def read_manifest(store: str | Path) -> dict[str, Any]:
    """The store's ``manifest.json`` ({} if there is none yet), checked: a broken one is a
    clear error that says how to start again, never a JSON traceback."""
    path = Path(store) / "manifest.json"
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise PerfectplayError(f"{path} is broken ({exc}); delete the store folder to solve "
                               "again") from None
    tiers = data.get("tiers") if isinstance(data, dict) else None
    if not isinstance(data, dict) or data.get("enumerated") and not (
            isinstance(tiers, list) and all(isinstance(t, int) for t in tiers)) \
            or not isinstance(data.get("game"), str | None):
        raise PerfectplayError(f"{path} is not a perfectplay manifest; delete the store "
                               "folder to solve again")
    return data


def _read_columns(path: Path, columns: list[str]) -> Any:
    """Columns of a tier file (a pyarrow Table), or a clear error when the file is not what
    we wrote."""
    import pyarrow.parquet as pq

    try:
        return pq.read_table(path, columns=columns)
    except Exception as exc:  # noqa: BLE001 - ArrowInvalid, OSError, KeyError
        raise PerfectplayError(f"{path} is not a readable tier file ({str(exc)[:200]}); "
                               "delete it and run again to redo that tier") from None


def _read_tier_file(path: Path, column: str) -> np.ndarray:
    """One column of a tier file as an array."""
    return _read_columns(path, [column])[column].to_numpy()


def read_solved_tier(path: Path, best: bool = True
                     ) -> tuple[np.ndarray, list[Any], np.ndarray, list[str] | None]:
    """A solved tier file as sorted positions, values (exact margins, or the value names of
    a win/lose game), remoteness (-1 for none) and, with ``best``, the best moves."""
    columns = ["position", "code", "margin", "remoteness"] + (["best_move"] if best else [])
    t = _read_columns(path, columns).to_pydict()
    values = [parse_margin(m) if m is not None else c
              for m, c in zip(t["margin"], t["code"], strict=True)]
    rems = np.array([-1 if r is None else r for r in t["remoteness"]], dtype=np.int64)
    return (np.array(t["position"], dtype=np.int64), values, rems,
            t["best_move"] if best else None)


def _register_by_value(game: Any) -> None:
    """Workers must be able to unpickle a game defined in a user's file or a test."""
    import cloudpickle

    mod = sys.modules.get(type(game).__module__)
    if mod is not None and not mod.__name__.startswith("perfectplay"):
        cloudpickle.register_pickle_by_value(mod)


def schema(columns: dict[str, Any]) -> Any:
    """Fixed column types, so every tier file reads alike (a tier of draws has no
    remoteness at all, which must still be an integer column)."""
    pa = _need("pyarrow")
    types = {"position": pa.int64(), "tier": pa.int32(), "code": pa.string(),
             "margin": pa.string(), "remoteness": pa.int32(), "best_move": pa.string()}
    return pa.schema([(name, types[name]) for name in columns])


def _write_parquet(path: Path, columns: dict[str, Any]) -> None:
    pa = _need("pyarrow")
    pq = _need("pyarrow.parquet")
    tmp = path.with_suffix(".tmp")
    pq.write_table(pa.table(columns, schema=schema(columns)), tmp)
    tmp.replace(path)  # a tier file exists only once complete: resumable


def solve_tiered(game: Any, store: str | Path, cluster: str | None = None,
                 workers: int | None = None, client: Any = None,
                 progress: Callable[[str], None] | None = None, bar: bool | None = None,
                 stop_after: int | None = None, chunk: int = CHUNK,
                 game_ref: str | None = None) -> Tablebase:
    """Solve a tiered game into ``store`` (see the module doc). ``client`` reuses a running
    Dask client; ``progress`` receives one line per tier, ``bar`` shows a progress bar on a
    terminal; ``stop_after`` stops (:class:`SolveStopped`) after that many newly solved
    tiers, as a kill would; ``game_ref`` (FILE.py:Class) is recorded for ``query``."""
    check_tiered(game)
    _need("pyarrow")
    root = Path(store)
    if root.exists() and not root.is_dir():
        raise PerfectplayError(f"{store} is a file, not a store folder")
    manifest = read_manifest(root)
    scored = is_scored(game)
    manifest_path = root / "manifest.json"
    own = client is None
    if own:
        client = _client(cluster, workers)  # before any folder is made: nothing half-made
    try:
        if not is_compiled(game):
            (root / "positions").mkdir(parents=True, exist_ok=True)
        (root / "solved").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if own:
            client.close()
        raise PerfectplayError(f"cannot make the store {store}: {exc.strerror or exc}") \
            from None
    _register_by_value(game)
    say = progress or (lambda _msg: None)
    try:
        workers_now = len(client.scheduler_info().get("workers", {})) or 1
        if is_compiled(game):
            from .outcore import solve_compiled_store

            tiers, total = solve_compiled_store(game, root, manifest, client, workers_now,
                                                say, bar, stop_after, game_ref)
            return Tablebase(root, sorted(tiers), total, scored)
        if manifest.get("format"):
            raise PerfectplayError(f"{store} holds a store of a compiled game; use another "
                                   "folder")
        game_f = client.scatter(game, broadcast=True, hash=False)  # a fresh key per run
        if not manifest.get("enumerated"):
            tiers = _enumerate(client, game, game_f, root, chunk, say, workers_now)
            manifest = {"enumerated": True, "tiers": tiers, "scored": scored,
                        "game": game_ref}
            manifest_path.write_text(json.dumps(manifest))
        tiers = manifest["tiers"]
        solved_now = 0
        order = sorted(tiers, reverse=True)
        with Progress("solving tiers", total=len(order), enabled=bar) as shown:
            for k, t in enumerate(order):
                out = root / "solved" / f"tier={t}.parquet"
                shown.update(k, description=f"solving tier {t}")
                if out.exists():
                    continue
                if stop_after is not None and solved_now >= stop_after:
                    raise SolveStopped(f"stopped after {solved_now} tiers; run again to "
                                       "resume")
                _solve_tier(client, game, game_f, root, t, scored, chunk, out, workers_now)
                solved_now += 1
                say(f"tier {t} solved")
        total = sum(_count(root / "positions" / f"tier={t}.parquet") for t in tiers)
        return Tablebase(root, sorted(tiers), total, scored)
    finally:
        if own:
            cluster_obj = getattr(client, "cluster", None)
            client.close()
            if cluster_obj is not None:
                cluster_obj.close()


def _count(path: Path) -> int:
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(path).metadata.num_rows
    except Exception as exc:  # noqa: BLE001 - ArrowInvalid, OSError
        raise PerfectplayError(f"{path} is not a readable tier file ({str(exc)[:200]})") \
            from None


def _enumerate(client: Any, game: Any, game_f: Any, root: Path, chunk: int,
               say: Callable[[str], None], workers: int = 1) -> list[int]:
    start = game.initial()
    pending: dict[int, list[np.ndarray]] = {game.tier(start):
                                            [np.array([game.encode(start)], np.int64)]}
    tiers = []
    while pending:
        t = min(pending)
        tier_codes = np.unique(np.concatenate(pending.pop(t)))
        frontier = tier_codes
        while frontier.size:
            inside = []
            for kids, ktiers in _run(client, expand_chunk, game, game_f, frontier, chunk,
                                     workers):
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
        _write_parquet(root / "positions" / f"tier={t}.parquet", {"position": tier_codes})
        tiers.append(int(t))
        say(f"tier {t}: {tier_codes.size:,} positions")
    return tiers


def _solve_tier(client: Any, game: Any, game_f: Any, root: Path, t: int, scored: bool,
                chunk: int, out: Path, workers: int = 1) -> None:
    codes = _read_tier_file(root / "positions" / f"tier={t}.parquet", "position")
    rows: list[tuple[int, Any, int | None, str]] = []
    open_: list = []
    for ev in _run(client, evaluate_chunk, game, game_f, codes, chunk, workers, str(root),
                   t, scored):
        rows += ev.decided
        open_ += ev.open_
    if open_:
        known = {code: (v, r) for code, v, r, _ in rows}
        rows += solve_inside(open_, known, scored)
    rows.sort(key=lambda r: r[0])
    _write_parquet(out, {
        "position": np.array([r[0] for r in rows], dtype=np.int64),
        "tier": np.full(len(rows), t, dtype=np.int32),
        "code": [None if scored else r[1] for r in rows],
        "margin": [margin_text(r[1]) if scored else None for r in rows],
        "remoteness": [r[2] for r in rows],
        "best_move": [r[3] for r in rows],
    })


# -- reading the store: DuckDB ------------------------------------------------------------------
def _duck(store: str | Path) -> Any:
    duckdb = _need("duckdb")
    root = Path(store)
    if not (root / "solved").is_dir() or not any((root / "solved").glob("*.parquet")):
        raise PerfectplayError(f"{store} is not a solved store (no solved/*.parquet)")
    con = duckdb.connect()
    pattern = str(root.resolve() / "solved" / "*.parquet").replace("'", "''")
    try:
        con.execute(f"CREATE VIEW solved AS SELECT * FROM read_parquet('{pattern}')")
        con.execute("SELECT count(*) FROM solved").fetchone()  # reads every file's footer
    except duckdb.Error as exc:
        raise PerfectplayError(f"{store}: a tier file is not readable Parquet "
                               f"({str(exc).splitlines()[0][:200]})") from None
    return con


def query(store: str | Path, positions: Iterable[int]) -> list[dict[str, Any]]:
    """Value, remoteness and best move of encoded positions, straight from disk."""
    con = _duck(store)
    out: list[dict[str, Any]] = []
    for code in positions:
        row = con.execute("SELECT tier, code, margin, remoteness, best_move FROM solved "
                          "WHERE position = ?", [int(code)]).fetchone()
        if row is None:
            out.append({"position": int(code), "found": False})
            continue
        tier, code_v, margin, rem, move = row
        value = code_v if code_v is not None else parse_margin(margin)
        out.append({"position": int(code), "found": True, "tier": tier,
                    "value": value if isinstance(value, int | str) else str(value),
                    "remoteness": rem, "best_move": move})
    return out


def analyze(store: str | Path) -> dict[str, Any]:
    """Counts by value, by remoteness and by tier."""
    con = _duck(store)
    by_value = con.execute("SELECT coalesce(code, CAST(margin AS VARCHAR)) v, count(*) "
                           "FROM solved GROUP BY v ORDER BY v").fetchall()
    by_rem = con.execute("SELECT remoteness, count(*) FROM solved GROUP BY remoteness "
                         "ORDER BY remoteness NULLS LAST").fetchall()
    by_tier = con.execute("SELECT tier, count(*) FROM solved GROUP BY tier ORDER BY tier"
                          ).fetchall()
    total = con.execute("SELECT count(*) FROM solved").fetchone()[0]
    return {"total": total, "by_value": dict(by_value),
            "by_remoteness": {("draw" if r is None else r): n for r, n in by_rem},
            "by_tier": dict(by_tier)}


# -- reading the store like a Solution -----------------------------------------------------------
class NotInStore(UnknownPosition):
    """A position the store does not hold (not reachable from the start, or not a position
    of this game). A KeyError, as for a dict."""


class Store:
    """A solved store, read like a :class:`~perfectplay.engine.Solution`: positions as the
    game writes them (the store records how to rebuild the game), values straight from the
    tier files (each tier read once, then binary search over its sorted codes).

    Use :func:`open_store`; see its example.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        manifest = read_manifest(self.path)
        if not manifest.get("enumerated") or not (self.path / "solved").is_dir():
            raise PerfectplayError(f"{path} is not a solved store (no manifest of a solve)")
        self.tiers: list[int] = sorted(manifest["tiers"])
        self.scored = bool(manifest.get("scored"))
        self._ref = manifest.get("game")
        self._game: Any = None
        self._cache: dict[int, tuple[np.ndarray, list[Any], np.ndarray, list[str]]] = {}

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._cache.clear()

    def __repr__(self) -> str:
        return f"<Store {self.path}: {len(self.tiers)} tiers>"

    @property
    def game(self) -> Any:
        """The game, rebuilt from the target the store records (FILE.py:Class(args))."""
        if self._game is None:
            if not self._ref:
                raise PerfectplayError("this store does not name its game: look positions "
                                       "up by code with lookup()")
            from .engine.target import load_target

            self._game = load_target(self._ref)
        return self._game

    # -- tiers -------------------------------------------------------------------------------
    def _tier(self, t: int) -> tuple[np.ndarray, list[Any], np.ndarray, list[str]]:
        if t not in self._cache:
            path = self.path / "solved" / f"tier={t}.parquet"
            if not path.exists():
                raise PerfectplayError(f"{path} is missing: the solve did not finish; run it "
                                       "again to resume")
            codes, values, rems, best = read_solved_tier(path)
            self._cache[t] = (codes, [Value(v) if isinstance(v, str) else v for v in values],
                              rems, best or [])
        return self._cache[t]

    def _find(self, code: int, tier: int | None) -> tuple[Any, int | None, str] | None:
        for t in ([tier] if tier is not None else self.tiers):
            if t not in self.tiers:
                return None
            codes, values, rems, best = self._tier(t)
            k = int(np.searchsorted(codes, code))
            if k < codes.size and codes[k] == code:
                r = int(rems[k])
                return values[k], None if r < 0 else r, best[k]
        return None

    def _row(self, pos: Any) -> tuple[Any, int | None, str]:
        game = self.game
        try:
            code, tier = int(game.encode(pos)), int(game.tier(pos))
        except PerfectplayError:
            raise
        except Exception as exc:  # noqa: BLE001 - not a position of this game
            raise NotInStore(f"{show(pos)} is not a position of this game "
                             f"({type(exc).__name__}: {exc})") from None
        row = self._find(code, tier)
        if row is None:
            raise NotInStore(f"position {show(pos)} (code {code}) is not in the store: not "
                             "reachable from the start")
        return row

    # -- the Solution-like questions ----------------------------------------------------------
    def value(self, pos: Any | None = None) -> Any:
        """The value for the player to move (a Value, or the margin in a scored game)."""
        return self._row(self._pos(pos))[0]

    def remoteness(self, pos: Any | None = None) -> int | None:
        """Moves to the end under perfect play (None for a draw)."""
        return self._row(self._pos(pos))[1]

    def best_move(self, pos: Any | None = None) -> Any | None:
        """The stored best move, as the game's own move (None at the end)."""
        here = self._pos(pos)
        name = self._row(here)[2]
        if not name:
            return None
        for move in self.game.moves(here):
            if repr(move) == name:
                return move
        return name

    def move_values(self, pos: Any | None = None) -> list[MoveValue]:
        """Every move with its value for the mover and its remoteness, best first; each
        child is looked up in the store."""
        here = self._pos(pos)
        self._row(here)  # the position itself must be in the store
        game, with_player = self.game, has_player(self.game)
        who = game.player(here) if with_player else None
        out = []
        for move in game.moves(here):
            child = game.play(here, move)
            value, rem, _ = self._row(child)
            passes = who is None or game.player(child) != who
            if self.scored:
                pay = game.payoff(here, move)
                mine = pay - value if passes else pay + value
            else:
                mine = value.flipped() if passes else value
            out.append(MoveValue(move, mine, None if rem is None else rem + 1))
        key = scored_key if self.scored else winlose_key
        out.sort(key=lambda mv: key(mv.value, mv.remoteness), reverse=True)
        return out

    def counts(self) -> dict[str, Any]:
        """Positions by value, by remoteness and by tier (DuckDB over the tier files)."""
        return analyze(self.path)

    def explain(self, pos: Any | None = None) -> str:
        """The start (or ``pos``) in words: its value, the best move, every move's value."""
        here = self._pos(pos)
        return "\n".join([f"position {show(here)}: "
                          f"{describe(self.value(here), self.remoteness(here))}",
                          *move_lines(self.game, self.best_move(here),
                                      self.move_values(here))])

    def to_json(self, pos: Any | None = None) -> dict[str, Any]:
        """The start (or ``pos``) as JSON, as a Solution gives it (no counts)."""
        here = self._pos(pos)
        return position_json(here, self.value(here), self.remoteness(here),
                             self.best_move(here), self.move_values(here))

    def position_of(self, literal: str | None = None, moves: str | None = None) -> Any:
        """The position a query names: a Python literal as the game writes positions,
        comma-separated moves from the start (as the game names, reads or writes them), or
        the start when neither is given."""
        if literal is not None and moves is not None:
            raise InputError("give a position or the moves to it, not both")
        if literal is not None:
            try:
                return ast.literal_eval(literal)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                raise InputError(f"{literal!r} is not a Python literal (a number, tuple, "
                                 "string ...)") from None
        return play_moves(self.game, moves or "")

    def lookup(self, codes: Any) -> dict[str, np.ndarray]:
        """Batch lookup of encoded positions: arrays ``found``, ``value`` (objects),
        ``remoteness`` (-1 for none or not found), in the order given. Each tier is searched
        with one vectorised binary search."""
        codes = np.asarray(codes, dtype=np.int64).ravel()
        found = np.zeros(codes.size, bool)
        value = np.full(codes.size, None, dtype=object)
        rem = np.full(codes.size, -1, np.int64)
        for t in self.tiers:
            left = ~found
            if not left.any():
                break
            tcodes, values, rems, _ = self._tier(t)
            idx = np.flatnonzero(left)
            k = np.searchsorted(tcodes, codes[idx])
            hit = (k < tcodes.size) & (tcodes[np.minimum(k, tcodes.size - 1)] == codes[idx])
            for j, kk in zip(idx[hit].tolist(), k[hit].tolist(), strict=True):
                found[j], value[j], rem[j] = True, values[kk], rems[kk]
        return {"found": found, "value": value, "remoteness": rem}

    def _pos(self, pos: Any | None) -> Any:
        return self.game.initial() if pos is None else pos


def open_store(path: str | Path) -> Store:
    """Open a solved store for reading, as a context manager.

    Example (a store made by ``perfectplay solve GAME --store tb/``)::

        with open_store("tb/") as tb:
            tb.value(), tb.remoteness(), tb.best_move()   # the start
            tb.move_values((0, 5))                        # any position, the game's own
            tb.lookup(np.array([0, 7, 42]))               # codes, in bulk
    """
    manifest = read_manifest(path)
    if manifest.get("format"):
        from .outcore import CompiledStore

        return CompiledStore(path)
    return Store(path)
