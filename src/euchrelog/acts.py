"""The acts of a deal as the engine takes them: a bid (:class:`Pass`, :class:`Order`,
:class:`Call`, :class:`Number`, :class:`Swap`), the dealer's :class:`Exchange`, a dummy
:class:`Merge`, a lone :class:`Declaration` and a :class:`Play`.

They are plain frozen classes, made without pydantic, so that the engine (and ``check`` of
a clean game) imports no model. Each model of an act of :mod:`euchrelog.models` derives
from its act here (``models.Play`` is a ``Play``), so the engine takes either, and a model
takes an act of this module where it takes its own (a deal built of the acts a player
made). An act is equal to another of its kind with the same fields, model or not.

>>> from euchrelog.cards import Suit
>>> from euchrelog.seats import Seat
>>> Call(seat=Seat.E, suit=Suit.HEARTS)
Call(act='call', seat=<Seat.E: 'E'>, suit=<Suit.HEARTS: 'H'>)
>>> Pass(seat=Seat.N) == Pass(seat=Seat.N)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from .cards import Card, Trump, parse_card, parse_trump
from .seats import Seat, parse_seat

__all__ = ["KIND_OF", "Act", "Action", "Bid", "Call", "Declaration", "Exchange", "Merge",
           "Number", "Order", "Pass", "Play", "Swap", "WrittenExchange", "act_hash", "act_kind",
           "fields_of", "plain_kind", "replaced"]


def _seat(value: Seat | str) -> Seat:
    """A seat, or its letter (as a model takes it)."""
    return parse_seat(value) if type(value) is str else cast(Seat, value)


def _card(value: Card | str | None) -> Card | None:
    """A card, its text (``??``: not known) or ``None``."""
    return parse_card(value.strip()) if type(value) is str else cast(Card | None, value)


class Act:
    """The base of every act: frozen, equal by its kind and fields, hashable, pickled by
    its fields (a plain instance keeps them in its ``__dict__``)."""

    FIELDS: ClassVar[tuple[str, ...]] = ()
    """The names of the act's fields, in the order of its model."""

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def _set(self, **fields: object) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        kind = plain_kind(type(self))
        if not isinstance(other, kind):
            return NotImplemented if not isinstance(other, Act) else False
        return self._key() == cast(Act, other)._key()

    def __hash__(self) -> int:
        return act_hash(self)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({fields})"


class Pass(Act):
    """A pass, in either round of bidding."""

    FIELDS = ("act", "seat")
    if TYPE_CHECKING:
        act: str
        seat: Seat

    def __init__(self, *, seat: Seat | str, act: str = "pass") -> None:
        self._set(act=act, seat=_seat(seat))


class Order(Act):
    """An order up of the upcard's suit in round 1 (order, assist and take alike)."""

    FIELDS = ("act", "seat")
    if TYPE_CHECKING:
        act: str
        seat: Seat

    def __init__(self, *, seat: Seat | str, act: str = "order") -> None:
        self._set(act=act, seat=_seat(seat))


class Call(Act):
    """Naming a suit as trump (round 2, or the dealer after a Benny turn-up), or calling no
    trump (round 2 under the ``no-trump`` option, H5)."""

    FIELDS = ("act", "seat", "suit")
    if TYPE_CHECKING:
        act: str
        seat: Seat
        suit: Trump

    def __init__(self, *, seat: Seat | str, suit: Trump | str, act: str = "call") -> None:
        self._set(act=act, seat=_seat(seat),
                  suit=parse_trump(suit) if type(suit) is str else suit)


class Number(Act):
    """A trick bid in ghost-hand bid euchre: 3 to 6 tricks, 6 being the moon (G3)."""

    FIELDS = ("act", "seat", "tricks")
    if TYPE_CHECKING:
        act: str
        seat: Seat
        tricks: int

    def __init__(self, *, seat: Seat | str, tricks: int, act: str = "bid") -> None:
        self._set(act=act, seat=_seat(seat), tricks=tricks)


class Swap(Act):
    """Swapping hands with the ghost hand before bidding (G2)."""

    FIELDS = ("act", "seat")
    if TYPE_CHECKING:
        act: str
        seat: Seat

    def __init__(self, *, seat: Seat | str, act: str = "swap") -> None:
        self._set(act=act, seat=_seat(seat))


class Exchange(Act):
    """The dealer's pickup of the upcard and discard (``act`` ``takes``), or the dealer
    declining it (``declines``). ``takes``: whether the card taken is named (naming
    ``upcard`` is taking it)."""

    FIELDS = ("seat", "act", "takes", "upcard", "discard")
    if TYPE_CHECKING:
        seat: Seat
        act: str
        takes: bool
        upcard: Card | None
        discard: Card | None

    def __init__(self, *, seat: Seat | str, act: str = "takes", takes: bool = False,
                 upcard: Card | str | None = None, discard: Card | str | None = None) -> None:
        card = _card(upcard)
        if card is not None and act == "takes":
            takes = True  # naming the card taken is writing 'takes'
        self._set(seat=_seat(seat), act=act, takes=takes, upcard=card, discard=_card(discard))


class Merge(Act):
    """The maker taking up the dummy and keeping five of the ten cards (X5); ``keeps``:
    the five kept, when named."""

    FIELDS = ("act", "seat", "keeps")
    if TYPE_CHECKING:
        act: str
        seat: Seat
        keeps: tuple[Card | None, ...] | None

    def __init__(self, *, seat: Seat | str, keeps: Iterable[Card | str | None] | None = None,
                 act: str = "merge") -> None:
        self._set(act=act, seat=_seat(seat),
                  keeps=None if keeps is None else tuple(map(_card, keeps)))


class Declaration(Act):
    """Going alone (``act`` ``alone``, the maker) or defending alone (``defend``)."""

    FIELDS = ("act", "seat")
    if TYPE_CHECKING:
        act: str
        seat: Seat

    def __init__(self, *, act: str, seat: Seat | str) -> None:
        self._set(act=act, seat=_seat(seat))


class Play(Act):
    """One card played by one seat (``None``: a card the record does not know)."""

    FIELDS = ("seat", "card")
    if TYPE_CHECKING:
        seat: Seat
        card: Card | None

    def __init__(self, *, seat: Seat | str, card: Card | str | None) -> None:
        self._set(seat=_seat(seat), card=_card(card))


Bid = Pass | Order | Call | Number | Swap
"""One act of bidding."""
Action = Pass | Order | Call | Number | Swap | Exchange | Merge | Declaration | Play
"""Any act: a bid, an exchange, a merge, a declaration or a play."""

_KINDS: tuple[type[Act], ...] = (Pass, Order, Call, Number, Swap, Exchange, Merge,
                                 Declaration, Play)


class _Kinds(dict[type, type]):
    """The act of this module each class of act derives from (a model's, or its own),
    found once."""

    def __missing__(self, cls: type) -> type:
        kind = next((k for k in cls.__mro__ if k in _KINDS), cls)
        self[cls] = kind
        return kind


KIND_OF: dict[type, type] = _Kinds({kind: kind for kind in _KINDS})
"""The act of this module each class of act derives from: the engine's kind of a model."""


def plain_kind(cls: type) -> type:
    """The act of this module that ``cls`` (an act's class, a model's or its own) is."""
    return KIND_OF[cls]


class WrittenExchange(dict[str, Any]):
    """The ``exchange`` of a deal's JSON form, among the acts: an exchange whatever its
    ``act`` says (which the exchange's model then judges)."""


def act_kind(value: Any) -> str:
    """The kind of an act after the bidding: ``alone`` and ``defend`` are declarations,
    ``merge`` a merge, anything else (``takes``, ``declines`` or no act) an exchange."""
    if type(value) is WrittenExchange:
        return "exchange"
    act = value.get("act", "takes") if isinstance(value, dict) else getattr(value, "act", "")
    if not isinstance(act, str):
        return "exchange"  # whose model then refuses the act
    return {"alone": "declaration", "defend": "declaration", "merge": "merge"}.get(
        act, "exchange")


def act_hash(act: Any) -> int:
    """The hash of an act, model or not: of its kind and of the fields of its act (a model
    and the plain act it equals hash alike)."""
    return hash((plain_kind(type(act)).__name__,
                 tuple(getattr(act, name) for name in act.FIELDS)))


def fields_of(act: Act) -> dict[str, Any]:
    """The fields of ``act`` by name (what its model is validated from)."""
    return {name: getattr(act, name) for name in act.FIELDS}


_A = TypeVar("_A", bound=Act)


def replaced(act: _A, **changes: Any) -> _A:
    """``act`` with the fields ``changes`` names changed: a model stays a model (its
    comments kept), a plain act a plain act."""
    copy = getattr(act, "model_copy", None)
    if copy is not None:
        return cast(_A, copy(update=changes))
    return type(act)(**{**fields_of(act), **changes})
