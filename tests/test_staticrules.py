"""The search kernels cached on disk (engine/compiled/staticrules.py): a digest that is the same in
every process for the same rules and differs when anything they compile differs, a search
through the cached kernels equal to one through the rules as a NamedTuple (compiled once a
process, as before), rules that cannot be digested searched the old way, and a new process
reading the kernels from numba's cache instead of compiling them."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from perfectplay import search
from perfectplay.engine import CompiledGame
from perfectplay.engine.compiled import staticrules
from perfectplay.engine.compiled.staticrules import StaticRules, rules_digest, static_rules
from perfectplay.engine.proof import backends as sb
from perfectplay.games import connect4, kalah, tictactoe

ROOT = Path(__file__).resolve().parent.parent


def _digest_elsewhere(call: str) -> str:
    code = (f"from perfectplay.games import connect4\nfrom perfectplay.engine.compiled.staticrules "
            f"import rules_digest\nprint(rules_digest({call}.rules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, check=True)
    return out.stdout.strip()


def test_the_digest_is_the_same_in_another_process():
    """What makes numba's disk cache serve the next process: the same rules, the same type."""
    here = rules_digest(connect4(width=5, height=4).rules)
    assert here is not None and len(here) == 64
    assert _digest_elsewhere("connect4(width=5, height=4)") == here


def test_the_digest_differs_with_what_the_rules_compile():
    """Another board (closure values), another game, and the same game's own rules all give
    their own digests; two instances of one board share theirs."""
    digests = [rules_digest(g.rules) for g in (connect4(width=5, height=4),
                                               connect4(width=6, height=4),
                                               kalah(houses=3, seeds=2), tictactoe())]
    assert None not in digests and len(set(digests)) == 4
    assert rules_digest(connect4(width=5, height=4).rules) == digests[0]


def _module_game(tmp_path: Path, name: str, comment: str) -> CompiledGame:
    """A subtraction game (take 1-3) whose rules live in a module file of their own."""
    path = tmp_path / f"{name}.py"
    path.write_text("\n".join([
        f"# {comment}", "from numba import njit", "",
        "@njit(cache=True)", "def moves(n, out):", "    k = 0", "    for t in range(1, 4):",
        "        if t <= n:", "            out[k] = t", "            k += 1", "    return k", "",
        "@njit(cache=True)", "def play(n, t):", "    return n - t", "",
        "@njit(cache=True)", "def outcome(n):", "    return 0", ""]))
    sys.path.insert(0, str(tmp_path))
    try:
        module = __import__(name)
    finally:
        sys.path.remove(str(tmp_path))
    return CompiledGame(13, module.moves, module.play, module.outcome, max_moves=3)


def test_an_edit_of_a_rules_module_changes_the_digest(tmp_path):
    """Numba checks only the kernel's own file: the digest reads the rules' modules, so a
    kernel compiled for an older text is never served."""
    a = _module_game(tmp_path, "rules_a", "one text")
    b = _module_game(tmp_path, "rules_b", "another text")
    assert rules_digest(a.rules) != rules_digest(b.rules)


def test_a_rule_without_a_file_is_digested_by_its_code():
    """A rule typed in a notebook has no module file: its code is in the digest, so an
    edited cell never gets the kernel compiled for the old one."""
    import types

    def cell(body: str):
        module = types.ModuleType("notebook_cell")  # no __file__, not in sys.modules
        exec(f"def moves(n, out):\n    return n {body}\n", module.__dict__)
        return module.moves

    assert rules_digest((cell("+ 1"),)) == rules_digest((cell("+ 1"),))
    assert rules_digest((cell("+ 1"),)) != rules_digest((cell("+ 2"),))
    assert rules_digest((cell("in {1, 2, 3}"),)) is not None


def test_rules_no_digest_can_read_have_none():
    """A rule that closes over a dict (it could change under a cached kernel) has no
    digest, so its game is searched the old way; a closure over numbers has one."""
    table = {1: 2}

    def by_table(n):
        return table[n]

    def by_number(n, k=3):
        return n + k

    assert rules_digest((by_table,)) is None and static_rules((by_table,)) is None
    assert rules_digest((by_number,)) is not None


def _answers(game: CompiledGame) -> dict[str, object]:
    sb.clear_table()  # each search from an empty table (a game's last one is kept)
    r = search(game, analyze=True, progress=False)
    return {"value": r.value, "remoteness": r.remoteness, "nodes": r.nodes,
            "moves": [(m.move, m.describe()) for m in r.moves]}


def test_the_cached_kernels_search_as_the_namedtuple_does(monkeypatch):
    """The same value, remoteness, every move's answer and the same node count: the same
    search, compiled the same way, whichever door the rules come in by (Connect Four, with
    every search hook; each door is its own compile. Scored games go through the cached
    door in every Kalah search test, checked against strong solutions)."""
    game = connect4(width=4, height=4)
    assert isinstance(static_rules(game.rules), StaticRules)
    cached = _answers(game)
    monkeypatch.setattr(staticrules, "static_rules", lambda rules: None)  # kernel_door's
    assert _answers(game) == cached


def test_a_new_process_reads_the_search_from_numbas_cache():
    """This process searches Connect Four 4x4 and Kalah(3, 3) (compiling and storing the
    kernels, unless an earlier test did: the search tests compile both anyway), then a new
    process loads the kernels from the disk cache (numba's own count of hits and misses)
    and answers the same: the search (pin_many) for both games, the remoteness walk for Kalah only
    (a margin game; Connect Four's wins, losses and ties read their remoteness off the
    score and the horizon, so its walk is never compiled)."""
    code = textwrap.dedent("""\
        import json
        from perfectplay import search
        from perfectplay.engine.proof import kernel as sk
        from perfectplay.games import connect4, kalah
        def calls(kernel):
            return sum(kernel.stats.cache_hits.values()) + sum(
                kernel.stats.cache_misses.values())
        c = search(connect4(width=4, height=4), analyze=True, progress=False)
        walked = calls(sk.walk_remoteness_cached)
        k = search(kalah(houses=3, seeds=3), analyze=True, progress=False)
        stats = [sk.pin_many_cached.stats, sk.walk_remoteness_cached.stats]
        print(json.dumps({"answers": [[c.value.value, c.remoteness],
                                      [k.value, k.remoteness]],
                          "walked for connect4": walked,
                          "hits": [sum(s.cache_hits.values()) for s in stats],
                          "misses": [sum(s.cache_misses.values()) for s in stats]}))
        """)
    here = [search(g, analyze=True, progress=False)
            for g in (connect4(width=4, height=4), kalah(houses=3, seeds=3))]
    run = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                    text=True, timeout=600, check=True, cwd=ROOT
                                    ).stdout.splitlines()[-1])
    assert run["answers"] == [[here[0].value.value, here[0].remoteness],
                              [here[1].value, here[1].remoteness]]
    assert run["answers"][0] == ["tie", 16]
    assert run["walked for connect4"] == 0, run
    assert run["hits"] == [2, 1] and run["misses"] == [0, 0], run


def test_a_digest_is_not_a_value_that_numba_keeps():
    """The rules' numba type pickles without its dispatchers (numba's cache index holds
    only the digest) and is one type per digest in a process."""
    import pickle

    a, b = static_rules(tictactoe().rules), static_rules(tictactoe().rules)
    assert a is not None and b is not None
    assert a.numba_type is b.numba_type
    back = pickle.loads(pickle.dumps(a.numba_type))
    assert back is a.numba_type and back.rules is not None
    state = a.numba_type.__reduce__()[1][2]
    assert state["rules"] is None and state["digest"] == a.digest


def test_compiled_discovery_solves_as_the_namedtuple_does(monkeypatch):
    """The in-memory solve of a compiled game discovers through the cached kernel: the same
    positions in the same order, the same values and remoteness as through the functions
    one by one."""
    import importlib

    from perfectplay import solve

    solve_module = importlib.import_module("perfectplay.engine.exact")  # discover_graph's

    cached = solve(tictactoe(), method="graph", progress=False)
    monkeypatch.setattr(solve_module, "static_rules", lambda rules: None)
    plain = solve(tictactoe(), method="graph", progress=False)
    assert len(cached) == len(plain) == 5478
    assert list(cached) == list(plain)  # the same positions, in discovery's order
    assert all((cached.value(p), cached.remoteness(p)) == (plain.value(p), plain.remoteness(p))
               for p in plain)


def test_the_walk_and_the_probes_share_one_compiled_probe(monkeypatch):
    """The remoteness walk calls the very probe the null-window searches call: one
    signature of ``probe`` for a game's rules (a literal argument, such as the thread number
    written as 0, is a signature of its own, and numba compiled the whole probe again for
    it: 3-6 s a game). Through the NamedTuple door, which compiles in this process whatever
    the disk cache holds; the signatures read through the backend's own reference to the
    kernels (``sb.sk``: in a suite run, the module imported here by name showed none)."""
    from numba import typeof

    monkeypatch.setattr(staticrules, "static_rules", lambda rules: None)  # kernel_door's
    game = tictactoe()
    search(game, analyze=True, progress=False)
    mine = [sig for sig in sb.sk.probe.signatures if sig[3] == typeof(game.rules)]
    assert len(mine) == 1, mine
    assert not any(str(t).startswith("Literal") for t in mine[0])


def test_a_new_process_reads_the_tier_solve_from_numbas_cache():
    """The tier solver's kernels take the rules as a StaticRules too: after this process
    solves Connect Four 4x5 by tiers (1,706,255 positions, large tiers solved in parallel
    blocks, small ones on one thread), a new process loads the forward sweep, both backward
    kernels and discovery's from the disk cache, compiling none, and gets the same answer."""
    from perfectplay import solve

    code = textwrap.dedent("""\
        import json
        from perfectplay import solve
        from perfectplay.engine.tiers import kernels as tierkernels
        from perfectplay.engine.tiers import solver as tiers
        from perfectplay.games import connect4
        s = solve(connect4(width=4, height=5), method="tiers")
        kernels = [tiers._expand_cached, tiers._solve_blocks_cached,
                   tierkernels.solve_range_cached]
        print(json.dumps({"answer": [s.value().value, s.remoteness(), len(s)],
                          "hits": [sum(k.stats.cache_hits.values()) for k in kernels],
                          "misses": [sum(k.stats.cache_misses.values()) for k in kernels]}))
        """)
    here = solve(connect4(width=4, height=5), method="tiers")
    run = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                    text=True, timeout=600, check=True, cwd=ROOT
                                    ).stdout.splitlines()[-1])
    assert run["answer"] == [here.value().value, here.remoteness(), len(here)] \
        == ["tie", 20, 1_706_255]  # a tie with the board full (Tromp: 4x5 is drawn)
    assert run["hits"] == [1, 1, 1] and run["misses"] == [0, 0, 0], run


def test_every_kernel_a_cached_kernel_calls_is_in_the_digest():
    """A cached kernel carries the code of every jitted function it calls, but numba checks
    only the date of the kernel's own file: each module holding a jitted function that the
    digest's modules name must be one of them (else an edit there, such as the probe plan's,
    would leave a stale kernel on disk)."""
    import importlib

    from numba.core.registry import CPUDispatcher

    named = set(staticrules.ENGINE_MODULES)
    for name in staticrules.ENGINE_MODULES:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher):
                home = value.py_func.__module__
                if home.startswith("perfectplay."):
                    assert home in named, (name, value.py_func.__qualname__, home)
