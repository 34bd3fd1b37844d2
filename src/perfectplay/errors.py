"""The project's exception types.

Every problem with a user's input is an :class:`InputError` that knows where it happened (case
number, line, column), so the command line can print one clear line and carry on with the next
case. Problems in a user-defined game are :class:`GameError`.
"""

from __future__ import annotations


class PerfectplayError(Exception):
    """Base class of every error perfectplay raises on purpose."""


class InputError(PerfectplayError, ValueError):
    """Bad input text, with where it is.

    >>> str(InputError("expected an integer, got 'x'", case=2, line=5, column=3))
    "case 2, line 5, column 3: expected an integer, got 'x'"
    """

    def __init__(
        self,
        message: str,
        *,
        case: int | None = None,
        line: int | None = None,
        column: int | None = None,
        fatal: bool = False,
    ) -> None:
        self.message = message
        self.case = case
        self.line = line
        self.column = column
        #: True when the reader lost its place (a bad case header, the end of the input), so
        #: the cases after this one cannot be read.
        self.fatal = fatal
        super().__init__(self.__str__())

    def where(self) -> str:
        parts = []
        if self.case is not None:
            parts.append(f"case {self.case}")
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.column is not None:
            parts.append(f"column {self.column}")
        return ", ".join(parts)

    def with_case(self, case: int) -> InputError:
        """The same error, labelled with a case number."""
        return InputError(self.message, case=case, line=self.line, column=self.column,
                          fatal=self.fatal)

    def as_fatal(self) -> InputError:
        """The same error, marked as one after which no further case can be read."""
        return InputError(self.message, case=self.case, line=self.line, column=self.column,
                          fatal=True)

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message


class GameError(PerfectplayError):
    """A user-defined game broke the engine's protocol.

    :func:`perfectplay.engine.check_game` lists every such problem at once.
    """


class LimitError(PerfectplayError):
    """An input is larger than a limit checked up front (grid size, positions, memory)."""


def show(x: object, limit: int = 120) -> str:
    """``repr(x)`` for a message, safe whatever a user's object does: a repr that raises or
    recurses is named rather than raised, and a long one is cut.

    >>> class Odd:
    ...     def __repr__(self): raise ValueError("no")
    >>> show(Odd()), show("x" * 200)[-11:]
    ('<Odd whose repr raised ValueError>', '(202 chars)')
    """
    try:
        text = repr(x)
    except RecursionError:
        return f"<{type(x).__name__} whose repr recursed>"
    except Exception as exc:  # noqa: BLE001 - a user's __repr__ may raise anything
        return f"<{type(x).__name__} whose repr raised {type(exc).__name__}>"
    if not isinstance(text, str):
        return f"<{type(x).__name__}>"
    return text if len(text) <= limit else f"{text[:limit - 20]}... ({len(text)} chars)"


def show_exc(exc: BaseException, limit: int = 200) -> str:
    """``str(exc)`` for a message, safe when a user's exception cannot say what it is."""
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001 - a user's __str__ may raise anything
        return f"<{type(exc).__name__} whose message raised>"
    return text if len(text) <= limit else f"{text[:limit - 20]}... ({len(text)} chars)"
