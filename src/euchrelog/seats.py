"""Seats at the table, clockwise N -> E -> S -> W.

>>> Seat.N.left
<Seat.E: 'E'>
>>> Seat.E.partner
<Seat.W: 'W'>
"""

from __future__ import annotations

from enum import StrEnum, unique


@unique
class Seat(StrEnum):
    """A compass seat; the value is its notation letter."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def left(self) -> Seat:
        """The next seat clockwise."""
        return _ORDER[(_ORDER.index(self) + 1) % 4]

    @property
    def partner(self) -> Seat:
        """The seat opposite."""
        return _ORDER[(_ORDER.index(self) + 2) % 4]


_ORDER = (Seat.N, Seat.E, Seat.S, Seat.W)
_BY_LETTER = {**{s.value: s for s in _ORDER}, **{s.value.lower(): s for s in _ORDER}}
SEATS = _ORDER
"""All four seats in clockwise order from North."""


def parse_seat(text: str) -> Seat:
    """Parses a seat letter in any case.

    :raises ValueError: if ``text`` is not N, E, S or W.
    """
    seat = _BY_LETTER.get(text)
    if seat is None:
        raise ValueError(f"not a seat: {text!r} (expected N, E, S or W)")
    return seat


def clockwise_from(start: Seat, active: tuple[Seat, ...]) -> list[Seat]:
    """The active seats in turn order, beginning with the first active seat at or after ``start``.

    >>> clockwise_from(Seat.S, (Seat.N, Seat.E, Seat.W))
    [<Seat.W: 'W'>, <Seat.N: 'N'>, <Seat.E: 'E'>]
    """
    return [s for s in _RINGS[start] if s in active]


_RINGS = {seat: [_ORDER[(i + k) % 4] for k in range(4)] for i, seat in enumerate(_ORDER)}


SIDE_NAMES = frozenset({"N", "E", "S", "W", "NS", "EW"})
"""The sides that may score, as written: a seat, or a team (``NS``, ``EW``)."""
