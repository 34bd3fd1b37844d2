"""What every judge format shares: a result with per-case errors, and the case loop.

Formats themselves live with their games (``coins.py``, ``rock``, ``portal``, ``nearest``);
:mod:`perfectplay.judge` only lists them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .errors import InputError
from .textio import Reader


@dataclass
class JudgeResult:
    """The judge's output lines, plus errors and notes meant for stderr."""

    lines: list[str] = field(default_factory=list)
    errors: list[InputError] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def output(self) -> str:
        return "".join(line + "\n" for line in self.lines)


def answer_case(result: JudgeResult, k: int, case: Callable[[], str | None]) -> bool:
    """Answer case k into ``result``; an :class:`InputError` is recorded, labelled with the
    case number. Returns False when the error is ``fatal`` (the reader lost its place: a
    bad case header, the end of the input), so no later case can be read."""
    try:
        line = case()
    except InputError as exc:
        result.errors.append(exc.with_case(k) if exc.case is None else exc)
        return not exc.fatal
    if line is not None:
        result.lines.append(line)
    return True


def run_cases(count: int, case: Callable[[int], str | None],
              result: JudgeResult) -> JudgeResult:
    """Answer cases 1..count (see :func:`answer_case`); ``case(k)`` returns the output line
    (or None to print nothing)."""
    for k in range(1, count + 1):
        if not answer_case(result, k, lambda k=k: case(k)):
            break
    return result


def counted_cases(text: str, case: Callable[[Reader, int], str | None],
                  what: str = "the number of cases T") -> JudgeResult:
    """The common judge layout: a count T, then T cases read by ``case(reader, k)``."""
    r = Reader(text)
    res = JudgeResult()
    try:
        t = r.header(what, low=0)
    except InputError as exc:
        res.errors.append(exc)
        return res
    return run_cases(t, lambda k: case(r, k), res)


def cases_until_zero(text: str, case: Callable[[Reader, int, int], str | None],
                     high: int | None = None) -> JudgeResult:
    """The other common layout: cases that each start with n, until a case with n = 0 (or
    the end of the input). ``case(reader, k, n)`` reads the rest of case k."""
    r = Reader(text)
    res = JudgeResult()
    k = 0
    while not r.at_end():
        k += 1
        try:
            n = r.header("n (or 0 to end)", low=0, high=high)
        except InputError as exc:
            res.errors.append(exc.with_case(k))
            return res
        if n == 0:
            break
        if not answer_case(res, k, lambda k=k, n=n: case(r, k, n)):
            break
    return res
