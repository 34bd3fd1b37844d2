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
    return res.lines


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
        lines = [f"case {f.index + 1} failed ({o.verdict}" + (f": {o.detail}" if o.detail else "")
                 + f"); shrunk in {f.steps} step(s) to:", "", sp.write([f.case]).rstrip(), "",
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
           progress: Callable[[int], None] | None = None) -> Failure:
    """Greedy shrinking: take the first candidate (biggest cuts first) that is valid and
    still fails, until none does. Candidates of one round run in parallel."""
    sp = spec(problem)
    case, outcome = failure.case, failure.outcome
    steps = 0
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        while True:
            cands = [c for c in sp.shrink(case) if sp.valid(c)]
            found = None
            for start in range(0, len(cands), jobs):
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
    _can_start(problem, cmd, make_case(problem, seed, 0, size, family), timeout)
    try:
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
                        if progress:
                            progress(f"case {i + 1}: {o.verdict}; shrinking")
                        report.failure = Failure(c, o, i)
                        report.failure = shrink(problem, cmd, report.failure, timeout, jobs)
                        return report
                if progress:
                    progress(f"{report.ran} cases passed")
    except KeyboardInterrupt:
        report.interrupted = True
    return report


#: What a shell or Python says when the program itself is missing.
_NOT_STARTED = ("can't open file", "No such file or directory", "command not found",
                "not found", "ModuleNotFoundError", "is not recognized")


def _can_start(problem: str, cmd: list[str], case: Case, timeout: float) -> None:
    """One line, before any case is judged, when the program cannot even start (a missing
    file, a typo in the command): not a crash to shrink."""
    o = run_once(problem, cmd, case, timeout)
    if o.verdict == CRASH and not o.got.strip() and any(w in o.detail for w in _NOT_STARTED):
        raise InputError(f"the program could not start ({o.detail}). {io_contract(problem)}")


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
    out = CheckResult()
    for k, want in enumerate(res.lines, 1):
        if k > len(got):
            out.append(CaseVerdict(k, False, f"missing; expected {want!r}"))
            continue
        g = got[k - 1]
        if g.split() == want.split():
            out.append(CaseVerdict(k, True, "ok"))
        else:
            out.append(CaseVerdict(k, False, _first_difference(want, g)))
    if len(got) > len(res.lines):
        extra = len(got) - len(res.lines)
        out.append(CaseVerdict(len(res.lines) + 1, False,
                               f"{extra} extra line(s), first {got[len(res.lines)]!r}"))
    return out


def _first_difference(want: str, got: str) -> str:
    w, g = want.split(), got.split()
    for k, (a, b) in enumerate(zip(w, g, strict=False), 1):
        if a != b:
            return f"token {k}: expected {a!r}, got {b!r}"
    return f"expected {len(w)} token(s), got {len(g)}: expected {want!r}, got {got!r}"

