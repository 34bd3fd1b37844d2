"""Test generators for every judge problem: valid inputs in the judge's exact format.

Each problem has a :class:`~perfectplay.casegen.Problem`, kept by its game package and
found through :mod:`perfectplay.registry`: how to generate one case (uniform noise and structured
families), how to write cases in the judge's format, what makes a case valid (checked, not
hoped for: The Rock's maze must not be cut by one block), how to shrink a case (for the
stress tester) and how to explain the right answer. Generation uses only
``random.Random(f"{seed}:{index}")``, so the same seed gives the same output on every
machine, and case i does not depend on the others.

>>> print(generate("cses1097", seed=1, cases=1, size=4), end="")
4
-805376703 31063756 -21890532 -659929028
"""

from __future__ import annotations

import random

from . import registry
from .casegen import Case, Problem
from .errors import InputError, LimitError


def problems() -> dict[str, Problem]:
    """Every judge problem the generators know, game by game."""
    return registry.problems()


def spec(problem: str) -> Problem:
    """The generator of one judge problem, or an :class:`InputError` listing them."""
    known = problems()
    if problem not in known:
        raise InputError(f"unknown problem {problem!r}; known: {', '.join(known)}")
    return known[problem]


def make_case(problem: str, seed: int, index: int, size: int | None = None,
              family: str = "mixed") -> Case:
    """Case ``index`` of a run with ``seed``: independent of the other cases."""
    sp = spec(problem)
    size = sp.default_size if size is None else size
    if not 1 <= size <= sp.max_size:
        raise InputError(f"--size for {problem} must be 1..{sp.max_size}, got {size}")
    rng = random.Random(f"{problem}:{seed}:{index}")
    fam = family
    if family == "mixed":
        fam = rng.choice(sp.families)
    elif family not in sp.families:
        raise InputError(f"unknown family {family!r} for {problem}; known: mixed, "
                         f"{', '.join(sp.families)}")
    return sp.make(rng, size, fam)


#: The most text :func:`generate` builds in memory, estimated before any case is made.
MAX_OUTPUT_BYTES = 1 << 30


def estimated_bytes(problem: str, cases: int, size: int | None) -> int:
    """An upper estimate of the text ``cases`` cases of ``size`` take (a grid case is about
    size^2 characters; a row or a No board about 12 characters a value)."""
    sp = spec(problem)
    size = sp.default_size if size is None else size
    per_case = (size + 1) * (size + 8) if sp.grid else 12 * size + 16
    return cases * per_case


def generate(problem: str, seed: int = 0, cases: int = 1, size: int | None = None,
             family: str = "mixed") -> str:
    """Judge input text with ``cases`` cases (problems with one case per input: 1).

    The size of the text is checked up front against MAX_OUTPUT_BYTES (a
    :class:`LimitError`), so a typo like ``--cases 1000000000`` stops at once.
    """
    sp = spec(problem)
    if sp.single_case and cases != 1:
        raise InputError(f"{problem} takes one case per input")
    if cases < 1:
        raise InputError(f"the number of cases must be at least 1, got {cases}")
    need = estimated_bytes(problem, cases, size)
    if need > MAX_OUTPUT_BYTES:
        raise LimitError(f"{cases:,} cases of size {size or sp.default_size} would be about "
                         f"{need / 2**30:.1f} GiB of text; the limit is "
                         f"{MAX_OUTPUT_BYTES / 2**30:.0f} GiB: ask for fewer or smaller cases")
    return sp.write([make_case(problem, seed, i, size, family) for i in range(cases)])

