"""The command line: thin click commands that parse options and call the library, one module
a concern: :mod:`~perfectplay.cli.engine` (solve, search, openspiel),
:mod:`~perfectplay.cli.store` (query, analyze, export, sql), :mod:`~perfectplay.cli.contest`
(judge, gen, stress, check), :mod:`~perfectplay.cli.games` (one command per registered game,
play, demo) and :mod:`~perfectplay.cli.serve` (the web page), over the shared
:mod:`~perfectplay.cli.base` (one-line errors, input files, printing a result) and gathered
by :mod:`~perfectplay.cli.group` into :func:`main`, the ``perfectplay`` command.
"""

from __future__ import annotations

from .group import main

__all__ = ["main"]
