"""The exception types of euchrelog. Each has one meaning.

:class:`EuchrelogError` is the root. :class:`NotationError` is a syntax error in a record;
:class:`IllegalActionError` (and :class:`RenegeError` beneath it) is a breach of the rules
found by the engine.
"""

from __future__ import annotations


class EuchrelogError(Exception):
    """The root of every error euchrelog raises on purpose."""


class NotationError(EuchrelogError, ValueError):
    """A record that does not follow the notation, with its place in the source."""

    code = "S101"
    """The finding code it is reported with."""

    def __init__(self, message: str, line: int, column: int, context: str = "") -> None:
        super().__init__(message)
        self.message = message
        """What is wrong, in words."""
        self.line = line
        """1-based line of the offending text."""
        self.column = column
        """1-based column of the offending text."""
        self.context = context
        """The offending line with a caret under the column."""

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


class LimitError(NotationError):
    """An input over one of the size limits (``--max-file-size``, ``--max-line-length``):
    reading stops there."""

    def __init__(self, code: str, message: str, line: int, column: int) -> None:
        super().__init__(message, line, column)
        self.code = code


class RecordError(EuchrelogError, ValueError):
    """A JSON record that does not match the schema."""


class IllegalActionError(EuchrelogError, ValueError):
    """An act that the rules do not allow at this point of the deal."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        """The finding code (see docs/findings.md)."""
        self.message = message
        """What is wrong, in words."""

    def __str__(self) -> str:
        return f"{self.code} {self.message}"


class RenegeError(IllegalActionError):
    """A play that does not follow suit while the player holds the led suit (P1)."""
