"""Reading judge input: whitespace-separated tokens and lines, each with its line and column.

Judge formats mix token streams (``n`` then ``n`` integers) with raw lines (grid rows). A
:class:`Reader` serves both from one text and remembers positions, so every error can say
exactly where it is.

>>> r = Reader("2\\n 10 -3\\n")
>>> r.integer("count"), r.integer("value"), r.integer("value")
(2, 10, -3)
>>> r.at_end()
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    line: int  # 1-based
    column: int  # 1-based


class Reader:
    """A cursor over text that hands out tokens or whole lines, tracking positions.

    Time and memory are O(len(text)).
    """

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.row = 0  # index of the current line
        self.col = 0  # index into the current line

    # -- positions -------------------------------------------------------------------------
    def _skip_space(self) -> None:
        while self.row < len(self.lines):
            line = self.lines[self.row]
            while self.col < len(line) and line[self.col].isspace():
                self.col += 1
            if self.col < len(line):
                return
            self.row += 1
            self.col = 0

    def at_end(self) -> bool:
        """True when only whitespace is left."""
        self._skip_space()
        return self.row >= len(self.lines)

    def position(self) -> tuple[int, int]:
        """(line, column), 1-based, of the next token (or of the end of the text)."""
        self._skip_space()
        if self.row >= len(self.lines):
            return (max(len(self.lines), 1), 1)
        return (self.row + 1, self.col + 1)

    # -- tokens ----------------------------------------------------------------------------
    def token(self, what: str = "a value") -> Token:
        """The next whitespace-separated token; an :class:`InputError` at the end of input."""
        self._skip_space()
        if self.row >= len(self.lines):
            line = max(len(self.lines), 1)
            raise InputError(f"input ended where {what} was expected", line=line, fatal=True)
        line = self.lines[self.row]
        start = self.col
        while self.col < len(line) and not line[self.col].isspace():
            self.col += 1
        return Token(line[start : self.col], self.row + 1, start + 1)

    def integer(self, what: str = "an integer", low: int | None = None,
                high: int | None = None) -> int:
        """The next token as an integer, optionally checked to lie in [low, high]."""
        tok = self.token(what)
        return parse_int(tok, what, low, high)

    def header(self, what: str, low: int | None = None, high: int | None = None) -> int:
        """Like :meth:`integer` for a number that says how much input follows (a count, a
        grid size): if it is bad, the reader cannot find the next case, so the error is
        fatal."""
        try:
            return self.integer(what, low, high)
        except InputError as exc:
            raise exc.as_fatal() from None

    def rest_of_line(self) -> Token | None:
        """What is left of the current line after the last token (None if nothing)."""
        if self.row >= len(self.lines):
            return None
        line = self.lines[self.row]
        rest = line[self.col :]
        if rest.strip():
            start = self.col + (len(rest) - len(rest.lstrip()))
            return Token(rest.strip(), self.row + 1, start + 1)
        return None

    def next_line(self) -> None:
        """Move to the start of the next line."""
        self.row += 1
        self.col = 0

    def raw_line(self, what: str = "a line", skip_blank: bool = True) -> Token:
        """The next whole line (stripped of trailing whitespace), as a Token.

        Moves to the next line first if the cursor is in the middle of one that has only
        whitespace left. Blank lines are skipped when ``skip_blank``.
        """
        if self.row < len(self.lines) and self.col > 0:
            if self.lines[self.row][self.col :].strip():
                tok = self.lines[self.row][self.col :].strip()
                raise InputError(
                    f"unexpected {tok!r} after the last value on the line",
                    line=self.row + 1, column=self.col + 1,
                )
            self.next_line()
        while skip_blank and self.row < len(self.lines) and not self.lines[self.row].strip():
            self.next_line()
        if self.row >= len(self.lines):
            raise InputError(f"input ended where {what} was expected",
                             line=max(len(self.lines), 1), fatal=True)
        text = self.lines[self.row].strip()
        lead = len(self.lines[self.row]) - len(self.lines[self.row].lstrip())
        tok = Token(text, self.row + 1, lead + 1)
        self.next_line()
        return tok


def parse_int(tok: Token, what: str = "an integer", low: int | None = None,
              high: int | None = None) -> int:
    """``tok`` as a Python integer, or an :class:`InputError` naming the token and its place."""
    text = tok.text
    body = text[1:] if text[:1] in "+-" else text
    if not body.isdigit() or not body.isascii():
        raise InputError(f"expected {what}, got {text!r}", line=tok.line, column=tok.column)
    value = int(text)
    if low is not None and value < low:
        raise InputError(f"{what} must be at least {low}, got {value}",
                         line=tok.line, column=tok.column)
    if high is not None and value > high:
        raise InputError(f"{what} must be at most {high}, got {value}",
                         line=tok.line, column=tok.column)
    return value
