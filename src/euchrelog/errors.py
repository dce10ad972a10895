"""The exception types of euchrelog. Each has one meaning.

:class:`EuchrelogError` is the root. :class:`NotationError` is a syntax error in a record;
:class:`IllegalActionError` (and :class:`RenegeError` beneath it) is a breach of the rules
found by the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from .findings import CODES, Code

if TYPE_CHECKING:
    from .cards import Card
    from .seats import Seat


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
    """A JSON record that does not match the schema: where the bad value is in the text
    read (1-based ``line`` and ``column``; 0 where it is not known)."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


E = TypeVar("E", bound="IllegalActionError")


class IllegalActionError(EuchrelogError, ValueError):
    """An act that the rules do not allow at this point of the deal.

    The facts of the breach are fields: the seat at fault, the card, the trick (1-based)
    and the part of the act (``discard`` and ``takes`` of an exchange, ``keeps`` of a
    merge), each ``None`` where it has none. The message is rendered from ``template``
    with the fields and any further ``facts`` (a card not known shows as ``??``); with
    neither, the template is the message as it stands.

    >>> from euchrelog.seats import Seat
    >>> err = IllegalActionError("P701", "{seat} plays twice in trick {trick}", seat=Seat.E,
    ...                          trick=3)
    >>> err.message, err.seat, err.trick, err.card
    ('E plays twice in trick 3', <Seat.E: 'E'>, 3, None)
    """

    def __init__(self, code: str, template: str, *, seat: Seat | None = None,
                 card: Card | None = None, trick: int | None = None, part: str | None = None,
                 **facts: object) -> None:
        super().__init__(code)
        self.code = code
        """The finding code (see docs/findings.md)."""
        self.seat = seat
        """The seat whose act it is, if any."""
        self.card = card
        """The card the fault is about, if any (``None`` also for a card not known)."""
        self.trick = trick
        """The 1-based trick of a play, if the fault is in one."""
        self.part = part
        """The part of the act at fault (``discard``, ``takes``, ``keeps``), if it is one."""
        self._template = template
        self._facts = facts
        named = seat is not None or card is not None or trick is not None or part is not None
        self._message = None if named or facts else template

    @property
    def message(self) -> str:
        """What is wrong, in words: rendered when first asked for (the engine makes many
        errors that no finding reports, trying readings and legal acts)."""
        if self._message is None:
            self._message = self._template.format(
                seat=self.seat, card=self.card or "??", trick=self.trick, part=self.part,
                **self._facts)
        return self._message

    @property
    def kind(self) -> Code:
        """The code's row of the findings table: its name, severity and policy."""
        return CODES[self.code]

    @classmethod
    def stated(cls: type[E], code: str, message: str, *, seat: Seat | None = None,
               card: Card | None = None, trick: int | None = None, part: str | None = None
               ) -> E:
        """An error with ``message`` as it stands (not a template) and these fields."""
        return _restored(cls, code, message, seat, card, trick, part)

    def noted(self: E, note: str) -> E:
        """The same error, of the same type and with the same fields, with ``note`` added to
        its message."""
        return _restored(type(self), self.code, self.message + note, self.seat, self.card,
                         self.trick, self.part)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return _restored, (type(self), self.code, self.message, self.seat, self.card,
                           self.trick, self.part)

    def __str__(self) -> str:
        return f"{self.code} {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


def _restored(kind: type[E], code: str, message: str, seat: Seat | None, card: Card | None,
              trick: int | None, part: str | None) -> E:
    """An error of ``kind`` with this message, as it stands, and these fields."""
    err = kind(code, message)
    err.seat, err.card, err.trick, err.part = seat, card, trick, part
    return err


class RenegeError(IllegalActionError):
    """A play that does not follow suit while the player holds the led suit (P1)."""
