"""Reading judge input: whitespace-separated tokens and lines, each with its line and column.

Judge formats mix token streams (``n`` then ``n`` integers) with raw lines (grid rows). A
:class:`Reader` serves both from one text and remembers positions, so every error can say
exactly where it is.

The text policy, the same for every reader (the judges' formats are ASCII):

- a UTF-8 byte order mark at the start of the text is ignored (Windows editors write one);
- a line ends at LF, CR LF or a lone CR; nothing else breaks a line (not U+2028, not U+0085);
- values are separated by ASCII spaces and tabs (also form feed and vertical tab); any other
  character, a no-break space U+00A0 included, is part of a value, and the error about that
  value names the character and its code point;
- integers are ASCII digits with an optional sign: no ``²``, no Arabic-Indic or full-width
  digits, no ``_``; any length (see :func:`int_from_digits`).

>>> r = Reader("2\\n 10 -3\\n")
>>> r.integer("count"), r.integer("value"), r.integer("value")
(2, 10, -3)
>>> r.at_end()
True
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from .errors import InputError

#: What separates values on a line.
SPACE = " \t\f\v"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_INTEGER = re.compile(r"[+-]?[0-9]+")
_CHUNK = 4000  # digits converted at once: under CPython's 4,300-digit conversion limit


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` by the policy above (BOM dropped; LF, CR LF, CR end a line).

    >>> split_lines("\\ufeffa\\r\\nb\\rc\\u2028d\\n")
    ['a', 'b', 'c\\u2028d']
    """
    if not isinstance(text, str):
        raise InputError(f"expected text (a str), got {type(text).__name__}"
                         + (": decode bytes first, e.g. data.decode('utf-8')"
                            if isinstance(text, bytes | bytearray) else ""))
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def int_from_digits(text: str) -> int:
    """``[+-]digits`` as an int of any length, whatever ``sys.get_int_max_str_digits`` says.

    Long strings are converted by halves, each under the interpreter's limit.

    >>> int_from_digits("-" + "9" * 5000) == -(10 ** 5000 - 1)
    True
    """
    sign = -1 if text[:1] == "-" else 1
    digits = text.lstrip("+-")
    return sign * _digits_value(digits)


def _digits_value(digits: str) -> int:
    if len(digits) <= _CHUNK:
        return int(digits)
    half = len(digits) // 2
    return _digits_value(digits[:half]) * 10 ** (len(digits) - half) + \
        _digits_value(digits[half:])


def int_text(value: int) -> str:
    """``str(value)`` for an int of any length, whatever the interpreter's digit limit.

    >>> int_text(10 ** 5000) == "1" + "0" * 5000
    True
    """
    if value < 0:
        return "-" + int_text(-value)
    if value.bit_length() <= _CHUNK * 3:  # under 4,000 * 3.32 bits: fewer than 4,300 digits
        return str(value)
    k = int(value.bit_length() * 0.30103) // 2  # about half the decimal digits
    high, low = divmod(value, 10 ** k)
    return int_text(high) + int_text(low).rjust(k, "0")


def describe_char(ch: str) -> str:
    """A character as a person can find it: ``'²' (U+00B2 SUPERSCRIPT TWO)``."""
    name = unicodedata.name(ch, "")
    return f"{ch!r} (U+{ord(ch):04X}{' ' + name if name else ''})"


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
        self.lines = split_lines(text)
        self.row = 0  # index of the current line
        self.col = 0  # index into the current line

    # -- positions -------------------------------------------------------------------------
    def _skip_space(self) -> None:
        while self.row < len(self.lines):
            line = self.lines[self.row]
            while self.col < len(line) and line[self.col] in SPACE:
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
            last = max(len(self.lines), 1)
            raise InputError(f"input ended where {what} was expected", line=last, fatal=True)
        line = self.lines[self.row]
        start = self.col
        while self.col < len(line) and line[self.col] not in SPACE:
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
        if rest.strip(SPACE):
            start = self.col + (len(rest) - len(rest.lstrip(SPACE)))
            return Token(rest.strip(SPACE), self.row + 1, start + 1)
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
            if self.lines[self.row][self.col :].strip(SPACE):
                extra = shorten(self.lines[self.row][self.col :].strip(SPACE))
                raise InputError(
                    f"unexpected {extra!r} after the last value on the line",
                    line=self.row + 1, column=self.col + 1,
                )
            self.next_line()
        while skip_blank and self.row < len(self.lines) and not self.lines[self.row].strip(SPACE):
            self.next_line()
        if self.row >= len(self.lines):
            raise InputError(f"input ended where {what} was expected",
                             line=max(len(self.lines), 1), fatal=True)
        text = self.lines[self.row].strip(SPACE)
        lead = len(self.lines[self.row]) - len(self.lines[self.row].lstrip(SPACE))
        tok = Token(text, self.row + 1, lead + 1)
        self.next_line()
        return tok


def parse_int(tok: Token, what: str = "an integer", low: int | None = None,
              high: int | None = None) -> int:
    """``tok`` as a Python integer, or an :class:`InputError` naming the token and its place.

    Only ASCII digits with one optional sign are an integer, of any length; a value outside
    [low, high] is an error naming the limit (decided from the length alone when the token
    is far longer than the limit, so a megabyte of digits costs no conversion).

    >>> parse_int(Token("+17", 1, 1))
    17
    >>> try:
    ...     parse_int(Token("1²", 2, 5))
    ... except InputError as exc:
    ...     print(exc.column, exc.message.split(": ")[1])
    6 '²' (U+00B2 SUPERSCRIPT TWO) is not an ASCII digit
    """
    text = tok.text
    if not _INTEGER.fullmatch(text):
        raise _not_an_integer(tok, what)
    sig = text.lstrip("+-").lstrip("0")  # the significant digits
    negative = text.startswith("-") and sig != ""

    def far_beyond(bound: int) -> bool:
        return len(sig) > len(str(abs(bound))) + 1

    def out_of_range(limit: str) -> InputError:
        return InputError(f"{what} must be {limit}, got {shorten(text)}", line=tok.line,
                          column=tok.column)

    if low is not None and negative and far_beyond(low):
        raise out_of_range(f"at least {low}")
    if high is not None and not negative and far_beyond(high):
        raise out_of_range(f"at most {high}")
    value = int_from_digits(text)
    if low is not None and value < low:
        raise out_of_range(f"at least {low}")
    if high is not None and value > high:
        raise out_of_range(f"at most {high}")
    return value


def _not_an_integer(tok: Token, what: str) -> InputError:
    """The error for a token that is not an integer, naming the first odd character."""
    text = tok.text
    message = f"expected {what}, got {shorten(text)!r}"
    column = tok.column
    for k, ch in enumerate(text):
        if not ch.isascii() or not ch.isprintable():
            message += f": {describe_char(ch)} is not " + (
                "an ASCII digit" if ch.isdigit() or ch.isnumeric() else
                "a separator (only ASCII spaces and tabs separate values)" if ch.isspace()
                else "allowed here")
            column = tok.column + k
            break
    return InputError(message, line=tok.line, column=column)


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters for an error message, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit // 2]}...{text[-8:]} ({len(text):,} characters)"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the word, in the singular for 1: "1 step", "3 steps", "0 cells".

    >>> plural(1, "coin"), plural(2, "coin"), plural(0, "cell is", "cells are")
    ('1 coin', '2 coins', '0 cells are')
    """
    return f"{n} {word if n == 1 else (many or word + 's')}"
