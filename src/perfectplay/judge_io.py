"""What every judge format shares: a result with per-case errors, and the case loop.

Formats themselves live with their games (``coins.py``, ``rock``, ``portal``, ``nearest``);
:mod:`perfectplay.judge` only lists them.

One policy for every judge (``lenient=False``, the default):

- the input is the judge's format exactly: a case count T >= 1, or cases ending with the
  judge's terminating ``0`` line; an empty input is an error;
- data after the last case (after T cases, after the ``0``, after a single-case input) is
  an error naming its line and column; the cases before it are still answered;
- a number outside the judge's stated range (docs/howto/input.md: cses1097 n <= 5000 and
  abs(value) <= 10^9, atcoder-dpl n <= 3000 and 1 <= value <= 10^9, devc-portal R, C <=
  100, ...) is an error naming the limit; where the judge states no range, values must fit
  in 64 bits, as every judge's solution assumes.

``lenient=True`` lifts the judges' ranges (the machine's limits stay: grid cells, row
length) and accepts an input that ends without its terminating ``0``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from .errors import InputError
from .textio import Reader, shorten

#: The value range a judge that states none is taken to have: a signed 64-bit integer.
INT64 = (-(2**63), 2**63 - 1)


def check_end(r: Reader, what: str = "the last case") -> None:
    """An :class:`InputError` naming the first data after ``what``, if there is any."""
    if not r.at_end():
        line, col = r.position()
        tok = r.token()
        raise InputError(f"unexpected data {shorten(tok.text)!r} after {what}", line=line,
                         column=col)


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


def record_end(result: JudgeResult, r: Reader, what: str) -> JudgeResult:
    """:func:`check_end`, with the error recorded in ``result`` (the answers so far stand)."""
    try:
        check_end(r, what)
    except InputError as exc:
        result.errors.append(exc)
    return result


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


def counted_cases(text: str, case: Callable[[Reader, int], str | None],
                  what: str = "the number of cases T", lenient: bool = False) -> JudgeResult:
    """The common judge layout: a count T, then T cases read by ``case(reader, k)``; data
    after the T-th case is an error (see the module's policy)."""
    r = Reader(text)
    res = JudgeResult()
    try:
        t = r.header(what, low=0 if lenient else 1)
    except InputError as exc:
        res.errors.append(exc)
        return res
    for k in range(1, t + 1):
        if not answer_case(res, k, functools.partial(case, r, k)):
            return res
    return record_end(res, r, f"the last case (T = {t})")


def cases_until_zero(text: str, case: Callable[[Reader, int, int], str | None],
                     high: int | None = None, lenient: bool = False) -> JudgeResult:
    """The other common layout: cases that each start with n, until a case with n = 0.
    ``case(reader, k, n)`` reads the rest of case k. A missing ``0`` is an error unless
    ``lenient``; data after the ``0`` always is."""
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
            return record_end(res, r, "the terminating 0")
        if not answer_case(res, k, functools.partial(case, r, k, n)):
            return res
    if not lenient:
        line = max(len(r.lines), 1)
        res.errors.append(InputError(
            "the input is empty" if k == 0 else
            "the input ended without the line 0 that ends it (--lenient accepts that)",
            line=line))
    return res
