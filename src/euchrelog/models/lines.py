"""The models of a deal's lines: the hands, the upcard, the bids, the exchange, the dummy or
ghost hand, the merge and lone declarations (the acts after the bidding), the tricks,
claims, penalties, the score-sheet line and the points; and a game's tags and start line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    Discriminator,
    Field,
    StrictBool,
    StrictInt,
    model_validator,
)
from pydantic import Tag as PydanticTag

from .. import acts
from ..acts import act_kind
from ..cards import UNKNOWN
from .fields import (
    TAG_NAME,
    Count,
    Line,
    MaybeCard,
    Ordinal,
    Points,
    Record,
    SeatField,
    SideField,
    Tagged,
    TrumpField,
    one_line,
    text_of,
)


def _from_act(data: Any) -> Any:
    """An act of :mod:`euchrelog.acts` that is no model (one a player made), as the fields
    its model is validated from; anything else as it is."""
    if isinstance(data, acts.Act) and not isinstance(data, Record):
        return acts.fields_of(data)
    return data


class ActModel(Record):
    """The base of the model of an act: it derives from its act of :mod:`euchrelog.acts`
    too (the engine takes either), and takes such an act where it takes its model."""

    @model_validator(mode="before")
    @classmethod
    def _act_fields(cls, data: Any) -> Any:
        return _from_act(data)

    def __hash__(self) -> int:  # (as its act: a model and the plain act it equals, alike)
        return acts.act_hash(self)


class Tag(Line):
    """A header tag, ``[Name "value"]``. Unknown tags are kept as they are."""

    name: str = Field(pattern=f"^{TAG_NAME}$")
    value: Annotated[str, AfterValidator(one_line)]


# ---------------------------------------------------------------- the deal


class Hands(Line):
    """A ``hands`` line: the cards dealt to one or more seats."""

    cards: dict[SeatField, Annotated[tuple[MaybeCard, ...], Field(min_length=1)]] = Field(
        min_length=1)


class Upcard(Line):
    """The ``up`` line: the turned-up card and, when recorded, the kitty below it."""

    card: MaybeCard
    kitty: Annotated[tuple[MaybeCard, ...], Field(min_length=1)] | None = None


class Pass(ActModel, Tagged, acts.Pass):
    """A pass, in either round of bidding."""

    if TYPE_CHECKING:
        act: Literal["pass"] = "pass"
    else:
        act: Literal["pass"]
    seat: SeatField


class Order(ActModel, Tagged, acts.Order):
    """An order up of the upcard's suit in round 1 (order, assist and take alike)."""

    if TYPE_CHECKING:
        act: Literal["order"] = "order"
    else:
        act: Literal["order"]
    seat: SeatField


class Call(ActModel, Tagged, acts.Call):
    """Naming a suit as trump (round 2, or the dealer after a Benny turn-up), or calling no
    trump (round 2 under the ``no-trump`` option, H5)."""

    if TYPE_CHECKING:
        act: Literal["call"] = "call"
    else:
        act: Literal["call"]
    seat: SeatField
    suit: TrumpField


class Number(ActModel, Tagged, acts.Number):
    """A trick bid in ghost-hand bid euchre: 3 to 6 tricks, 6 being the moon (G3)."""

    if TYPE_CHECKING:
        act: Literal["bid"] = "bid"
    else:
        act: Literal["bid"]
    seat: SeatField
    tricks: Count


class Swap(ActModel, Tagged, acts.Swap):
    """Swapping hands with the ghost hand before bidding (G2)."""

    if TYPE_CHECKING:
        act: Literal["swap"] = "swap"
    else:
        act: Literal["swap"]
    seat: SeatField


Bid = Annotated[Pass | Order | Call | Number | Swap, Field(discriminator="act")]
"""One act of bidding, tagged by ``act``."""


class Bidding(Line):
    """A ``bid`` line: bids in the order they were made."""

    bids: tuple[Bid, ...] = Field(min_length=1)


class Exchange(ActModel, Line, acts.Exchange):
    """The dealer's pickup of the upcard and discard, or the dealer declining it."""

    seat: SeatField
    act: Literal["takes", "declines"] = "takes"
    takes: StrictBool = False
    """Whether the record names the card taken (``N takes JH discards KD``)."""
    upcard: MaybeCard = None
    """The card taken, when the record names it (``None`` also for ``takes ??``)."""
    discard: MaybeCard = None

    @model_validator(mode="before")
    @classmethod
    def _named_is_taken(cls, data: Any) -> Any:
        if (isinstance(data, dict) and data.get("upcard") not in (None, UNKNOWN)
                and data.get("takes", False) is False and data.get("act", "takes") == "takes"):
            return {**data, "takes": True}  # naming the card taken is writing 'takes'
        return data

    @model_validator(mode="after")
    def _as_written(self) -> Exchange:
        if self.act == "declines" and (self.takes or self.upcard or self.discard):
            raise ValueError("a dealer who declines takes and discards nothing")
        return self


class Extra(Line):
    """The hand dealt to the empty side: the dummy (cutthroat) or the ghost hand."""

    kind: Literal["dummy", "ghost"]
    cards: tuple[MaybeCard, ...] = Field(min_length=1)


class Merge(ActModel, Line, Tagged, acts.Merge):
    """The maker taking up the dummy and keeping five of the ten cards (X5)."""

    if TYPE_CHECKING:
        act: Literal["merge"] = "merge"
    else:
        act: Literal["merge"]
    seat: SeatField
    keeps: Annotated[tuple[MaybeCard, ...], Field(min_length=1)] | None = None
    """The five cards kept, when the record names them."""


class Declaration(ActModel, Line, acts.Declaration):
    """Going alone (``alone``, the maker) or defending alone (``defend``)."""

    act: Literal["alone", "defend"]
    seat: SeatField


Act = Annotated[Annotated[Declaration, PydanticTag("declaration")]
                | Annotated[Merge, PydanticTag("merge")]
                | Annotated[Exchange, PydanticTag("exchange")], Discriminator(act_kind)]
"""What the dealer, the maker or a defender does between the bidding and the first lead:
the exchange, the dummy merge or a lone declaration."""


class Play(ActModel, acts.Play):
    """One card played by one seat."""

    seat: SeatField
    card: MaybeCard


class Trick(Line):
    """A numbered trick: the plays in the order they were made."""

    number: Ordinal
    plays: tuple[Play, ...] = Field(min_length=1)


class Claim(Line):
    """A renege claim: the players noticed a renege by ``seat`` and penalised it (P2)."""

    seat: SeatField
    trick: Ordinal | None = None


def _reason_in(value: str) -> str:
    value = text_of(value, "a penalty's reason").strip()
    if not value:
        raise ValueError("a penalty gives its reason")
    return value


class Penalty(Line):
    """A penalty charged at the table (H6): ``who`` (a player, or a side) loses ``points``
    from this deal on, for ``reason``."""

    who: SideField
    """The player (a seat) or the side charged."""
    points: Annotated[StrictInt, Field(ge=1, le=999_999)]
    """The points taken off the side's running total."""
    reason: Annotated[str, AfterValidator(_reason_in)]
    """Why, in the scorer's words (one line)."""


class Sheet(Line):
    """A score-sheet line: what was made, without the cards.

    ``thrown`` marks a deal that everyone passed; it then has no other field.
    """

    thrown: StrictBool = False
    trump: TrumpField | None = None
    maker: SeatField | None = None
    alone: StrictBool = False
    defend: SeatField | None = None
    """The seat that defended alone, if any."""
    bid: Count | None = None
    """The winning trick bid (ghost-hand bid euchre)."""
    tricks: Count | None = None
    """Tricks taken by the maker's side."""
    taken: Annotated[dict[SeatField, Count], Field(min_length=1)] | None = None
    """Tricks taken by each player, where each player scores them (ghost)."""

    @model_validator(mode="after")
    def _one_count(self) -> Sheet:
        if self.tricks is not None and self.taken is not None:
            raise ValueError("a sheet gives the makers' tricks or each player's, not both")
        if not self.thrown and (self.trump is None or self.maker is None):
            raise ValueError("a sheet that is not thrown in names the trump and the maker")
        if self.thrown and (self.trump or self.maker or self.alone or self.defend
                            or self.bid is not None or self.tricks is not None or self.taken):
            raise ValueError("a thrown-in sheet has no other field")
        return self


class Score(Line):
    """The points and running totals written at the table for one deal."""

    points: Annotated[dict[SideField, Points], Field(min_length=1)] | None = None
    total: Annotated[dict[SideField, Points], Field(min_length=1)] | None = None

    @model_validator(mode="after")
    def _points_or_total(self) -> Score:
        if self.points is None and self.total is None:
            raise ValueError("a points line gives the points, the total or both")
        return self


class Start(Line):
    """The ``start`` line of a game recorded from the middle: the number of the first
    recorded deal and the running totals before it."""

    deal: Ordinal | None = None
    """The number of the first recorded deal (1 when left out)."""
    total: Annotated[dict[SideField, Points], Field(min_length=1)] | None = None
    """The running totals before that deal (0 for a side left out)."""

    @model_validator(mode="after")
    def _deal_or_total(self) -> Start:
        if self.deal is None and self.total is None:
            raise ValueError("a start line gives the first deal's number, the totals or both")
        return self


