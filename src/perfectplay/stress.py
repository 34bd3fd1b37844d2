"""The stress tester and the checker: find where a contestant's program is wrong.

:func:`stress` runs the program on generated cases (all cores, one case per run), compares
its output with perfectplay's, classifies each failure (crash, time-out, wrong format, wrong
answer), shrinks the first failing case to a locally minimal one (no single shrink step of
:mod:`perfectplay.gen` fails any more) and explains the right answer. :func:`check` compares
an output file with the right answers case by case, like a testlib checker.
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .errors import InputError
from .gen import Case, make_case, spec
from .judge import run as judge_run


class Verdict(StrEnum):
    """What one run of a contestant's program came to."""

    CRASH = "crash"
    TIMEOUT = "time-out"
    FORMAT = "wrong format"
    WRONG = "wrong answer"
    OK = "ok"


CRASH, TIMEOUT, FORMAT, WRONG, OK = (Verdict.CRASH, Verdict.TIMEOUT, Verdict.FORMAT,
                                     Verdict.WRONG, Verdict.OK)


@dataclass
class Outcome:
    """One run of the contestant's program on one input."""

    verdict: Verdict
    expected: list[str]
    got: str
    detail: str = ""


def expected_lines(problem: str, case: Case) -> list[str]:
    res = judge_run(problem, spec(problem).write([case]))
    if res.errors:  # a generated or shrunk case is always valid; this is a bug if it fires
        raise InputError(f"perfectplay rejected its own case: {res.errors[0]}")
    return [str(line) for line in res.lines]  # a judge may answer with an enum (Winner)


def run_once(problem: str, cmd: list[str], case: Case, timeout: float) -> Outcome:
    """Run ``cmd`` on one case and judge what it printed."""
    text = spec(problem).write([case])
    want = expected_lines(problem, case)
    try:
        proc = subprocess.run(cmd, input=text, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return Outcome(TIMEOUT, want, "", f"no answer within {timeout:g} s")
    except OSError as exc:
        raise InputError(f"cannot run {' '.join(cmd)}: {exc.strerror}") from None
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-3:]
        return Outcome(CRASH, want, proc.stdout,
                       f"exit code {proc.returncode}" + (": " + " | ".join(tail) if tail
                                                         else ""))
    got_lines = [ln.strip() for ln in proc.stdout.strip().splitlines() if ln.strip()]
    pattern = re.compile(spec(problem).answer)
    if len(got_lines) != len(want) or not all(pattern.fullmatch(g) for g in got_lines):
        return Outcome(FORMAT, want, proc.stdout,
                       f"expected {len(want)} line(s) like {want[0]!r}")
    if [g.split() for g in got_lines] != [w.split() for w in want]:
        return Outcome(WRONG, want, proc.stdout)
    return Outcome(OK, want, proc.stdout)


@dataclass
class Failure:
    case: Case
    outcome: Outcome
    index: int  # the generator's index (make_case); people read index + 1
    shrunk_from: Case | None = None
    steps: int = 0
    stopped: bool = False  # shrinking stopped at its time budget (time-outs are slow)


@dataclass
class StressReport:
    problem: str
    ran: int = 0
    failure: Failure | None = None
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)

    def text(self) -> str:
        sp = spec(self.problem)
        if self.failure is None:
            head = "interrupted after" if self.interrupted else "all"
            return f"{head} {self.ran} case(s) passed"
        f = self.failure
        o = f.outcome
        shrunk = f"shrunk in {f.steps} step(s)" + (
            f" (then stopped: each time-out costs {o.detail.split('within ')[-1]})"
            if f.stopped else "")
        lines = [f"case {f.index + 1} failed ({o.verdict}" + (f": {o.detail}" if o.detail else "")
                 + f"); {shrunk} to:", "", sp.write([f.case]).rstrip(), "",
                 *([io_contract(self.problem) + ".", ""] if o.verdict == CRASH else []),
                 "expected: " + " / ".join(o.expected),
                 "got:      " + (o.got.strip() or "(nothing)"), "", "why:",
                 sp.explain(f.case)]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"problem": self.problem, "ran": self.ran,
                                "interrupted": self.interrupted, "failure": None}
        if self.failure is not None:
            f, o, sp = self.failure, self.failure.outcome, spec(self.problem)
            data["failure"] = {"case": f.index + 1, "verdict": str(o.verdict),
                               "detail": o.detail, "shrink_steps": f.steps,
                               "input": sp.write([f.case]), "expected": o.expected,
                               "got": o.got, "explanation": sp.explain(f.case)}
        return data


def shrink(problem: str, cmd: list[str], failure: Failure, timeout: float, jobs: int,
           progress: Callable[[int], None] | None = None,
           budget: float | None = None) -> Failure:
    """Greedy shrinking: take the first candidate (biggest cuts first) that is valid and
    still fails, until none does, or until ``budget`` seconds have passed (then the
    smallest case found so far). Candidates of one round run in parallel."""
    sp = spec(problem)
    case, outcome = failure.case, failure.outcome
    steps = 0
    ends = None if budget is None else time.monotonic() + budget
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        while True:
            cands = [c for c in sp.shrink(case) if sp.valid(c)]
            found = None
            for start in range(0, len(cands), jobs):
                if ends is not None and time.monotonic() > ends:
                    return Failure(case, outcome, failure.index, failure.case, steps,
                                   stopped=True)
                batch = cands[start:start + jobs]
                outs = list(pool.map(lambda c: run_once(problem, cmd, c, timeout), batch))
                for c, o in zip(batch, outs, strict=True):
                    if o.verdict != OK:
                        found = (c, o)
                        break
                if found:
                    break
            if found is None:
                return Failure(case, outcome, failure.index, failure.case, steps)
            case, outcome = found
            steps += 1
            if progress:
                progress(steps)


def stress(problem: str, cmd: list[str], cases: int = 200, seed: int = 0,
           size: int | None = None, family: str = "mixed", timeout: float = 5.0,
           jobs: int = 2, progress: Callable[[str], None] | None = None) -> StressReport:
    """Run ``cmd`` on ``cases`` generated cases; stop at the first failure and shrink it.

    Ctrl-C stops the run and returns what was found so far.
    """
    report = StressReport(problem)
    sp = spec(problem)
    if progress:
        progress(f"running {' '.join(cmd)} on case 1 (waiting up to {timeout:g} s a case)")
    first = make_case(problem, seed, 0, size, family)
    outcome = _can_start(problem, cmd, first, timeout)
    try:
        if outcome.verdict != OK and sp.valid(first):  # case 1 failed: no need to run it again
            report.ran = 1
            report.failure = _shrunk(problem, cmd, Failure(first, outcome, 0), timeout, jobs,
                                     progress)
            return report
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for start in range(0, cases, jobs):
                idx = list(range(start, min(cases, start + jobs)))
                batch = [make_case(problem, seed, i, size, family) for i in idx]
                for c in batch:
                    if not sp.valid(c):
                        raise InputError(f"the generator made an invalid {problem} case "
                                         f"(seed {seed}): {c!r}")
                outs = list(pool.map(lambda c: run_once(problem, cmd, c, timeout), batch))
                for i, c, o in zip(idx, batch, outs, strict=True):
                    report.ran += 1
                    if o.verdict != OK:
                        report.failure = _shrunk(problem, cmd, Failure(c, o, i), timeout,
                                                 jobs, progress)
                        return report
                if progress:
                    progress(f"{report.ran} cases passed")
    except KeyboardInterrupt:
        report.interrupted = True
    return report


def _shrunk(problem: str, cmd: list[str], failure: Failure, timeout: float, jobs: int,
            progress: Callable[[str], None] | None) -> Failure:
    """A failure shrunk, saying so on ``progress``: a time-out (each try waits the whole
    ``timeout``) is shrunk for at most :func:`_shrink_budget` seconds."""
    o = failure.outcome
    waits = o.verdict == TIMEOUT
    if progress:
        progress(f"case {failure.index + 1}: {o.verdict}" + (
            f" ({o.detail}); shrinking it, each try waiting up to {timeout:g} s, for at most "
            f"{_shrink_budget(timeout):g} s" if waits else "; shrinking"))
    step = None if progress is None else (lambda n: progress(f"shrinking: {n} step(s) so far"))
    return shrink(problem, cmd, failure, timeout, jobs, step,
                  _shrink_budget(timeout) if waits else None)


def _shrink_budget(timeout: float) -> float:
    """Seconds a time-out is shrunk for: each try of a hanging program costs the whole
    ``timeout``, so shrinking one stops after about three rounds of tries."""
    return max(10.0, 3 * timeout)


#: What a shell or Python says when the program itself is missing.
_NOT_STARTED = ("can't open file", "No such file or directory", "command not found",
                "not found", "ModuleNotFoundError", "is not recognized")


def _can_start(problem: str, cmd: list[str], case: Case, timeout: float) -> Outcome:
    """Case 1's outcome; one line, before any case is judged, when the program cannot even
    start (a missing file, a typo in the command): not a crash to shrink."""
    o = run_once(problem, cmd, case, timeout)
    if o.verdict == CRASH and not o.got.strip() and any(w in o.detail for w in _NOT_STARTED):
        raise InputError(f"the program could not start ({o.detail}). {io_contract(problem)}")
    return o


def io_contract(problem: str) -> str:
    """What a program under test reads and writes."""
    return (f"stress runs the command once a case: the case in the judge's input format on "
            f"its stdin (perfectplay gen {problem} shows one), its answer in the judge's "
            "output format on its stdout")


@dataclass
class CaseVerdict:
    case: int  # counted from 1
    ok: bool
    detail: str


class CheckResult(list[CaseVerdict]):
    """The verdict of every case, in order, with the renderings the CLI prints."""

    @property
    def failed(self) -> int:
        return sum(not v.ok for v in self)

    def text(self) -> str:
        lines = [f"case {v.case}: {'ok' if v.ok else 'WRONG: ' + v.detail}" for v in self]
        return "\n".join(lines + [f"{len(self) - self.failed} passed, {self.failed} failed"])

    def to_json(self) -> dict[str, Any]:
        return {"passed": len(self) - self.failed, "failed": self.failed,
                "cases": [{"case": v.case, "ok": v.ok, "detail": v.detail} for v in self]}


def check(problem: str, input_text: str, output_text: str) -> CheckResult:
    """Verdict per case of ``output_text`` against the right answers to ``input_text``."""
    res = judge_run(problem, input_text)
    if res.errors:
        raise InputError(f"the input is not valid for {problem}: {res.errors[0]}")
    got = [ln.strip() for ln in output_text.strip().splitlines() if ln.strip()]
    wanted = [str(line) for line in res.lines]  # a judge may answer with an enum (Winner)
    out = CheckResult()
    for k, want in enumerate(wanted, 1):
        if k > len(got):
            out.append(CaseVerdict(k, False, f"missing; expected {want!r}"))
            continue
        g = got[k - 1]
        if g.split() == want.split():
            out.append(CaseVerdict(k, True, "ok"))
        else:
            out.append(CaseVerdict(k, False, _first_difference(want, g)))
    if len(got) > len(wanted):
        extra = len(got) - len(wanted)
        out.append(CaseVerdict(len(wanted) + 1, False,
                               f"{extra} extra line(s), first {got[len(wanted)]!r}"))
    return out


def _first_difference(want: str, got: str) -> str:
    w, g = want.split(), got.split()
    for k, (a, b) in enumerate(zip(w, g, strict=False), 1):
        if a != b:
            return f"token {k}: expected {a!r}, got {b!r}"
    return f"expected {len(w)} token(s), got {len(g)}: expected {want!r}, got {got!r}"

