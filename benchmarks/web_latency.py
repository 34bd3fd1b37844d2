"""The web page's latency, through HTTP as a browser asks (issue 44's targets):

1. **standard Connect Four (7x6), live**: every move's value and remoteness of positions
   reached by random play from the start, each from ``GET /api/games/.../position`` to
   the last line (``done``) of ``GET /api/games/.../analysis``; p50 and p95 of the full
   answer, and of the first move's line (target: p95 <= 2 s, goal 0.3 s);
2. **the page's first load of a game** once the server is warm: the page, its scripts,
   ``/api/games`` and each catalog game's first position (its default instance; target
   <= 1 s), each solved once before it is timed;
3. **a move's answer in every catalog game once solved**: the position route after a
   click, over random games of each default instance (``--moves`` a game; target p95
   <= 100 ms).

    python benchmarks/web_latency.py                       # 40 positions, 0 to 30 plies
    python benchmarks/web_latency.py --positions 200 --seed 4  # the figure docs/benchmarks.md gives
    python benchmarks/web_latency.py --book book/ --min-plies 8 --positions 100
    python benchmarks/web_latency.py --game 'kalah(houses=6, seeds=4)' --book dense24/ \
        --positions 40 --max-plies 20 --moves 0     # Kalah(6, 4) live, a dense table read
    python benchmarks/web_latency.py --json

Beside live searches (``--beside N``), on a fresh ``perfectplay serve`` (a subprocess, its
workers warmed at start-up as a user's server is), numba's disk cache filled first by a
process of its own (what a server's first start compiles, once):

4. **the first live answer after start-up**: once the server has settled (``--settle``
   seconds: its live worker warmed), the first analyses of standard Connect Four (a
   25-ply position, then one just past the opening book; target <= 2 s past compiling);
5. **every catalog game's first answer**: its default position, never asked before, its
   solve included (target <= 1 s);
6. **small requests beside N live searches**: N load generators (processes at ``nice
   10``, each analysing random 7x6 positions past the book, 8-16 plies, one after the
   other) keep N searches running while this process times small requests one after
   the other for ``--small-seconds``: the list of games (``/api/games``, and
   GamesmanUni's ``/gamesman/``), a tic-tac-toe position, a coins analysis, a 7x6 live
   board (its position route, no search); p50 and p99 each and in all (target p99 <
   250 ms with N = 4).

    python benchmarks/web_latency.py --beside 4 --small-seconds 60

The server is the real one (uvicorn, the heavy worker process) on a free local port; the
7x6 search kernels are compiled by a first analysis before anything is timed. Random play:
uniform among the legal moves, seeded (``--seed``), to a number of plies drawn uniformly in
[--min-plies, --max-plies] (a game that ends sooner is drawn again). Every answer is
checked exact (a stopped analysis is reported, never counted as an answer).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import quote, urlencode

C7 = "connect4(width=7, height=6)"


def _serve(books: list[str]) -> tuple[str, object, threading.Thread]:
    import uvicorn

    from perfectplay.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(live_stores=books)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server, thread


def _get(url: str, timeout: float = 600) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read()


def analyse(base: str, moves: list[str], game: str = C7
            ) -> tuple[float, float, dict[str, object]]:
    """(seconds to the first move's line, seconds to the end, the done line) of one
    position, the position route included, as the page asks."""
    query = f"?{urlencode({'moves': ','.join(moves)})}" if moves else ""
    began = time.perf_counter()
    _get(f"{base}/api/games/{quote(game)}/position{query}")
    first = None
    done: dict[str, object] = {}
    with urllib.request.urlopen(f"{base}/api/games/{quote(game)}/analysis{query}",
                                timeout=600) as r:
        for raw in r:
            line = json.loads(raw)
            if first is None and line["kind"] == "move":
                first = time.perf_counter() - began
            if line["kind"] in ("done", "error"):
                done = line
    total = time.perf_counter() - began
    return first if first is not None else total, total, done


def random_positions(n: int, low: int, high: int, seed: int, game: str = C7
                     ) -> list[list[str]]:
    """``n`` move lists of random play (uniform moves) with low..high plies, not over (the
    game's move names; standard Connect Four's through its Python twin, as measured
    before)."""
    if game != C7:
        return _random_lines(n, low, high, seed, game)
    from perfectplay.catalog.connect4.twin import ConnectFourPy

    twin, rng, out = ConnectFourPy(7, 6), random.Random(seed), []
    while len(out) < n:
        plies = rng.randint(low, high)
        pos, moves = twin.initial(), []
        for _ in range(plies):
            if twin.outcome(pos) is not None:
                break
            c = rng.choice(twin.moves(pos))
            pos, moves = twin.play(pos, c), moves + [str(c + 1)]
        if twin.outcome(pos) is None and len(moves) == plies:
            out.append(moves)
    return out


def _random_lines(n: int, low: int, high: int, seed: int, call: str) -> list[list[str]]:
    from perfectplay.engine.target import load_catalog_target

    game, rng, out = load_catalog_target(call), random.Random(seed), []
    while len(out) < n:
        plies = rng.randint(low, high)
        pos, moves = game.initial(), []
        for _ in range(plies):
            legal = list(game.moves(pos)) if game.outcome(pos) is None else []
            if not legal:
                break
            move = rng.choice(legal)
            pos, moves = game.play(pos, move), moves + [game.move_name(move)]
        if game.outcome(pos) is None and list(game.moves(pos)) and len(moves) == plies:
            out.append(moves)
    return out


def _explored(base: str) -> list[dict[str, Any]]:
    """The catalog games of ``GET /api/games`` (each with its ``explore`` entry)."""
    return [g for g in json.loads(_get(f"{base}/api/games"))["games"]
            if g["kind"] == "catalog"]


def first_loads(base: str) -> dict[str, float]:
    """Each catalog game's first load, warm: the page and its scripts, the list of games,
    the game's board code and its default position (solved once before)."""
    out = {}
    for g in _explored(base):
        position = f"{base}/api/games/{quote(g['explore']['default'])}/position"
        _get(position)  # solved once in the worker (not timed: the server is warm)
        began = time.perf_counter()
        for path in ("/", "/static/app.js", "/static/explore.js", "/static/style.css",
                     "/api/games"):
            _get(base + path)
        if g["script"]:
            _get(base + g["script"])
        _get(position)
        out[g["name"]] = time.perf_counter() - began
    return out


def move_answers(base: str, moves_per_game: int, seed: int) -> dict[str, list[float]]:
    """Each catalog game's answer to a move once solved, as the page asks after a click:
    ``GET /api/games/{default}/position?moves=...`` (the position and every move's value,
    remoteness or margin), timed over random games of the default instance (uniform moves,
    seeded) until ``moves_per_game`` answers are timed; the game is solved once first."""
    rng, out = random.Random(seed), {}
    for g in _explored(base):
        url = f"{base}/api/games/{quote(g['explore']['default'])}/position"
        _get(url)  # solved once in the worker (not timed)
        times: list[float] = []
        line: list[str] = []
        while len(times) < moves_per_game:
            query = f"?{urlencode({'moves': ','.join(line)})}" if line else ""
            began = time.perf_counter()
            answer = json.loads(_get(url + query))
            times.append(time.perf_counter() - began)
            names = [m["name"] for m in answer["moves"]]
            line = line + [rng.choice(names)] if names and not answer["over"] else []
        out[g["name"]] = times
    return out


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


# -- beside live searches, on a fresh `perfectplay serve` -------------------------------------
#: Where the first live answers are asked (columns from 0): a 25-ply position (the one
#: main() compiles with) and one just past the book.
FIRST_LIVE = ("4443113222123400653304004", "3344322")
#: The kinds of small request timed beside the searches: (name, method, path, body).
SMALL = [("games", "GET", "/api/games", None),
         ("gamesman", "GET", "/gamesman/", None),
         ("tictactoe", "GET", "/api/games/tictactoe/position?moves=b2,a1", None),
         ("coins", "POST", "/api/games/coins/analyze", {"row": [3, 1, 4, 1, 5, 9, 2, 6]}),
         ("live board", "GET", f"/api/games/{quote(C7)}/position?moves=4,4,5,3,3,3,2,6",
          None)]


def _spawn_server(port: int) -> subprocess.Popen[bytes]:
    """``perfectplay serve`` on ``port``, its output dropped."""
    return subprocess.Popen([sys.executable, "-m", "perfectplay", "serve", "--port",
                             str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_up(base: str, seconds: float = 120) -> float:
    """Seconds until the server answers ``/api/games``."""
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        try:
            _get(f"{base}/api/games", timeout=5)
            return time.perf_counter() - began
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start within 120 s")


def _request(base: str, method: str, path: str, body: object) -> int:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            r.read()
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code


def first_answers(base: str) -> dict[str, object]:
    """The first live analyses (moves as columns from 0), then each catalog game's first
    position (its default instance, its solve included), on a server that settled."""
    live = []
    for digits in FIRST_LIVE:
        first, total, done = analyse(base, [str(int(c) + 1) for c in digits])
        live.append({"plies": len(digits), "first": round(first, 3), "total": round(total, 3),
                     "exact": bool(done.get("exact"))})
    catalog = {}
    for g in _explored(base):
        began = time.perf_counter()
        _get(f"{base}/api/games/{quote(g['explore']['default'])}/position")
        catalog[g["name"]] = round(time.perf_counter() - began, 3)
    return {"live": live, "catalog": catalog}


def load_generator(base: str, seed: int) -> None:
    """One live search after another (random 7x6 positions past the book, 8-16 plies), as
    a user of the page asks them, until killed; a line per analysis on stdout."""
    lines = random_positions(500, 8, 16, seed)
    print(json.dumps({"ready": True}), flush=True)
    for moves in lines:
        try:
            _first, total, done = analyse(base, moves)
            print(json.dumps({"total": round(total, 3), "exact": bool(done.get("exact"))}),
                  flush=True)
        except urllib.error.HTTPError as exc:
            print(json.dumps({"status": exc.code}), flush=True)
            time.sleep(2)


def small_beside(base: str, searches: int, seconds: float) -> dict[str, object]:
    """Small requests timed one after the other for ``seconds`` while ``searches`` load
    generators (niced processes) keep live searches running."""
    script = os.path.abspath(__file__)
    gens = [subprocess.Popen(["nice", "-n", "10", sys.executable, script, "--load", base,
                              "--seed", str(k)], stdout=subprocess.PIPE, text=True)
            for k in range(searches)]
    times: dict[str, list[float]] = {name: [] for name, *_ in SMALL}
    codes: dict[int, int] = {}
    try:
        for g in gens:  # each generator has started (its imports take a while, niced)
            assert g.stdout is not None and "ready" in g.stdout.readline()
        time.sleep(3)  # the searches are running
        began = time.perf_counter()
        k = 0
        while time.perf_counter() - began < seconds:
            name, method, path, body = SMALL[k % len(SMALL)]
            t = time.perf_counter()
            code = _request(base, method, path, body)
            times[name].append(time.perf_counter() - t)
            codes[code] = codes.get(code, 0) + 1
            k += 1
    finally:
        for g in gens:
            g.kill()
    analyses = [json.loads(line) for g in gens for line in g.communicate()[0].splitlines()
                if "ready" not in line]
    every = [t for ts in times.values() for t in ts]
    return {"searches": searches, "requests": len(every), "codes": codes,
            "p50_ms": round(statistics.median(every) * 1000, 1),
            "p99_ms": round(_pct(every, 0.99) * 1000, 1),
            "max_ms": round(max(every) * 1000, 1),
            "by_kind": {name: {"p50_ms": round(statistics.median(ts) * 1000, 1),
                               "p99_ms": round(_pct(ts, 0.99) * 1000, 1)}
                        for name, ts in times.items() if ts},
            "analyses": {"done": sum("total" in a for a in analyses),
                         "exact": sum(bool(a.get("exact")) for a in analyses),
                         "refused": sum("status" in a for a in analyses)}}


def fill_cache() -> None:
    """Compile what a server's first answers run into numba's disk cache (the live games'
    warm-up, each catalog game's default instance solved), as any server's first start
    does once: the first answers are then timed past compiling."""
    from perfectplay import registry
    from perfectplay.web import explore
    from perfectplay.web.live import warm_live

    warm_live()
    for entry in registry.catalog():
        explore.catalog_answer(entry.call(explore.budget(entry).default), {"p": None})


def beside(searches: int, seconds: float, settle: float) -> dict[str, object]:
    """Items 4-6 of the module doc on a fresh ``perfectplay serve``, numba's disk cache
    filled first by a process of its own (:func:`fill_cache`)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    began = time.perf_counter()
    subprocess.run([sys.executable, os.path.abspath(__file__), "--fill-cache"], check=True)
    compiled = time.perf_counter() - began
    began = time.perf_counter()
    server = _spawn_server(port)
    try:
        up = _wait_up(base)
        time.sleep(settle)
        report: dict[str, object] = {"fill_cache_seconds": round(compiled, 1),
                                     "server_up_seconds": round(up, 1), "settle": settle,
                                     "load": os.getloadavg()[0]}
        report.update(first_answers(base))
        report["since_spawn_seconds"] = round(time.perf_counter() - began, 1)
        report["small"] = [small_beside(base, n, seconds) for n in (0, searches)]
        return report
    finally:
        server.terminate()
        server.wait(30)


def print_beside(report: dict[str, Any]) -> None:
    print(f"numba's cache filled first in {report['fill_cache_seconds']} s (compiling "
          "where it was stale)")
    print(f"fresh `perfectplay serve`: up in {report['server_up_seconds']} s, asked after "
          f"{report['settle']} s more (load average {report['load']:.1f} at the start)")
    for row in report["live"]:
        print(f"  first live 7x6 answer, {row['plies']} plies: {row['total']} s (first "
              f"move {row['first']} s, exact {row['exact']})")
    print("  each catalog game's first answer (solve included): " + ", ".join(
        f"{k} {v:.3f} s" for k, v in report["catalog"].items()))
    for small in report["small"]:
        print(f"small requests beside {small['searches']} live searches: {small['requests']} "
              f"requests, p50 {small['p50_ms']} ms, p99 {small['p99_ms']} ms, max "
              f"{small['max_ms']} ms; status {small['codes']}; searches "
              f"{small['analyses']}")
        print("  " + ", ".join(f"{k} p50 {v['p50_ms']} / p99 {v['p99_ms']} ms"
                               for k, v in small["by_kind"].items()))



def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--min-plies", type=int, default=0)  # the target: from any position
    ap.add_argument("--max-plies", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", default=C7, help="the live game (a catalog call)")
    ap.add_argument("--book", action="append", default=[],
                    help="a store the live analysis reads: an opening book (perfectplay "
                    "book ...), an endgame store or a dense table; repeatable")
    ap.add_argument("--moves", type=int, default=200,
                    help="answers to a move timed in each other catalog game")
    ap.add_argument("--beside", type=int, default=0, metavar="N",
                    help="time the first answers of a fresh `perfectplay serve` and small "
                    "requests beside N live searches (items 4-6), instead of items 1-3")
    ap.add_argument("--small-seconds", type=float, default=60.0,
                    help="seconds of small requests timed, with no search and beside N")
    ap.add_argument("--settle", type=float, default=20.0,
                    help="seconds a fresh server is left to warm up before it is asked")
    ap.add_argument("--load", metavar="URL", help=argparse.SUPPRESS)  # a load generator
    ap.add_argument("--fill-cache", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.fill_cache:
        fill_cache()
        return
    if args.load:
        load_generator(args.load, args.seed)
        return
    if args.beside:
        found = beside(args.beside, args.small_seconds, args.settle)
        if args.json:
            print(json.dumps(found, indent=1))
        else:
            print_beside(found)
        return
    base, server, thread = _serve(args.book)
    try:
        began = time.perf_counter()
        if args.game == C7:  # compiles the kernels (and loads the stores) before timing
            analyse(base, [str(int(c) + 1) for c in "4443113222123400653304004"])
        else:
            analyse(base, random_positions(1, 40, 40, args.seed + 1, args.game)[0], args.game)
        warm = time.perf_counter() - began
        firsts, totals, stopped, rows = [], [], 0, []
        for moves in random_positions(args.positions, args.min_plies, args.max_plies,
                                      args.seed, args.game):
            first, total, done = analyse(base, moves, args.game)
            if not done.get("exact"):
                stopped += 1
            else:
                firsts.append(first)
                totals.append(total)
            rows.append({"plies": len(moves), "first": round(first, 3),
                         "total": round(total, 3), "exact": bool(done.get("exact"))})
        loads = first_loads(base)
        answers = move_answers(base, args.moves, args.seed) if args.moves else {}
    finally:
        server.should_exit = True  # type: ignore[attr-defined]
        thread.join(30)
    report = {
        "warm_up_seconds": round(warm, 1), "positions": len(rows), "stopped": stopped,
        "game": args.game, "plies": [args.min_plies, args.max_plies], "book": args.book,
        "full_p50": round(statistics.median(totals), 3) if totals else None,
        "full_p95": round(_pct(totals, 0.95), 3) if totals else None,
        "full_max": round(max(totals), 3) if totals else None,
        "first_p50": round(statistics.median(firsts), 3) if firsts else None,
        "first_p95": round(_pct(firsts, 0.95), 3) if firsts else None,
        "first_load_p50": round(statistics.median(loads.values()), 3),
        "first_load_max": round(max(loads.values()), 3),
        "first_load": {k: round(v, 3) for k, v in loads.items()},
        "move_answer_p95": {k: round(_pct(v, 0.95), 4) for k, v in answers.items()},
        "move_answer_p95_all": round(_pct([t for v in answers.values() for t in v], 0.95), 4)
        if answers else None,
        "rows": rows}
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(f"{args.game}, {len(rows)} positions of random play ({args.min_plies}-"
          f"{args.max_plies} plies), stores: {', '.join(args.book) or 'the shipped book'}; "
          f"compile/warm-up {warm:.1f} s")
    print(f"  full answer (all moves, value and remoteness): p50 {report['full_p50']} s, "
          f"p95 {report['full_p95']} s, max {report['full_max']} s; stopped {stopped}")
    print(f"  first move's line: p50 {report['first_p50']} s, p95 {report['first_p95']} s")
    slow = sorted(rows, key=lambda r: -r["total"])[:5]
    print("  slowest: " + ", ".join(f"{r['plies']} plies {r['total']} s" for r in slow))
    print(f"page's first load of a game (warm): p50 {report['first_load_p50']} s, max "
          f"{report['first_load_max']} s")
    print("  " + ", ".join(f"{k} {v:.3f} s" for k, v in loads.items()))
    if not answers:
        return
    print(f"a move's answer in the other catalog games, solved ({args.moves} a game): p95 "
          f"{report['move_answer_p95_all'] * 1000:.1f} ms over all")
    print("  " + ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in
                           report["move_answer_p95"].items()))  # type: ignore[union-attr]


if __name__ == "__main__":
    main()
