"""The normalised form of a record: frozen pydantic models.

Every line of the notation is a model that derives from :class:`Line`, so the comments
that stood above it (``before``) and at its end (``note``) travel with it through JSON.
Cards are :class:`~euchrelog.cards.Card` objects (``None`` where the record says ``??``)
and serialise to their notation, e.g. ``"TH"``.

>>> deal = Deal(number=1, dealer="N")
>>> deal.dealer
<Seat.N: 'N'>
>>> Trick(number=1, plays=[{"seat": "n", "card": "10h"}]).plays[0].card
Card('TH')
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    PlainSerializer,
    PlainValidator,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    StrictBool,
    StrictInt,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic import Tag as PydanticTag
from pydantic_core import InitErrorDetails

from .cards import UNKNOWN, Card, Suit, Trump, parse_card, parse_trump
from .seats import Seat, parse_seat

FORMAT_VERSION = 1
"""The version of the notation and of the JSON form."""

CARD_PATTERN = r"^(?i:(?:[2-9TJQKA]|10)[CDHS♣♦♥♠]|JK|\?\?)$"


def _card_in(value: Any) -> Card | None:
    if value is None or isinstance(value, Card):
        return value
    if not isinstance(value, str):
        raise ValueError("a card must be a string such as 9H, TS, JK or ??")
    return parse_card(value.strip())


def _card_out(card: Card | None) -> str:
    return UNKNOWN if card is None else str(card)


MaybeCard = Annotated[
    Card | None,
    PlainValidator(_card_in),
    PlainSerializer(_card_out, return_type=str),
    WithJsonSchema({"type": "string", "pattern": CARD_PATTERN, "examples": ["9H", "TS", "??"]}),
]
"""A card, or ``None`` for a card the record does not know (``??``)."""


def _seat_in(value: Any) -> Seat:
    if isinstance(value, Seat):
        return value
    if not isinstance(value, str):
        raise ValueError("a seat must be one of N, E, S, W")
    return parse_seat(value)


def _trump_in(value: Any) -> Trump:
    if isinstance(value, Suit):
        return value
    if not isinstance(value, str):
        raise ValueError("a trump must be one of C, D, H, S or NT")
    return parse_trump(value)


SeatField = Annotated[
    Seat,
    PlainValidator(_seat_in),
    PlainSerializer(str, return_type=str),
    WithJsonSchema({"type": "string", "enum": ["N", "E", "S", "W"]}),
]
TrumpField = Annotated[
    Trump,
    PlainValidator(_trump_in),
    PlainSerializer(str, return_type=str),
    WithJsonSchema({"type": "string", "enum": ["C", "D", "H", "S", "NT"]}),
]
"""A suit, or ``NT`` for no trump (H5)."""


def _side_in(value: Any) -> str:
    if not isinstance(value, str) or value.upper() not in SIDE_NAMES:
        raise ValueError(f"not a side: {value!r} (expected a seat or a team such as NS)")
    return value.upper()


SIDE_NAMES = frozenset({"N", "E", "S", "W", "NS", "EW"})

TAG_NAME = r"[A-Za-z][A-Za-z0-9_+\-]*"
"""The spelling of a tag name: a letter, then letters, digits, ``_``, ``+`` or ``-``."""
SideField = Annotated[str, PlainValidator(_side_in),
                      WithJsonSchema({"type": "string", "enum": sorted(SIDE_NAMES)})]
"""A side that scores: a team (``NS``, ``EW``) or, in games for one, a seat."""


class Record(BaseModel):
    """Base of every model: frozen, and unknown fields are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


def _text(value: str, what: str) -> str:
    if "\n" in value:
        raise ValueError(f"{what} is one line: it cannot hold a line break")
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(f"{what} holds a character that is not text (a lone "
                             "surrogate)") from None
    return value


def _comment_in(value: str) -> str:
    return _text(value, "a comment").strip()


Comment = Annotated[str, AfterValidator(_comment_in)]
"""A comment's text, without the ``#``: one line, with no blanks around it."""


def _one_line(value: str) -> str:
    return _text(value, "a tag value")


Count = Annotated[StrictInt, Field(ge=0, le=999_999)]
"""A count the notation writes with at most six digits."""
Points = Annotated[StrictInt, Field(ge=-999_999, le=999_999)]
"""Points, as the notation writes them: at most six digits and a sign."""
Ordinal = Annotated[StrictInt, Field(ge=1, le=999_999)]
"""A deal or trick number: from 1, at most six digits."""


class Tagged(Record):
    """An act whose kind ``act`` has one value, which a model made in Python may leave out
    (``Order(seat=S)``). The field itself has no default, so JSON always writes it (it
    tags the act) and a schema requires it, as before; only the constructor fills it in."""

    if not TYPE_CHECKING:  # (type checkers see the kind as the field's default)

        def __init__(self, **data: Any) -> None:
            if "act" not in data:
                data["act"] = _kind_of(type(self))
            super().__init__(**data)


@functools.cache
def _kind_of(model: type[Tagged]) -> str:
    """The one value of the ``act`` of a :class:`Tagged` model."""
    kind: str = get_args(model.model_fields["act"].annotation)[0]
    return kind


class Line(Record):
    """A model that stands on a line of its own in the notation."""

    before: tuple[Comment, ...] = ()
    """Comment lines directly above this line, without the ``#``."""
    note: Comment | None = None
    """The comment at the end of this line, without the ``#``."""


# ---------------------------------------------------------------- header


class Tag(Line):
    """A header tag, ``[Name "value"]``. Unknown tags are kept as they are."""

    name: str = Field(pattern=f"^{TAG_NAME}$")
    value: Annotated[str, AfterValidator(_one_line)]


# ---------------------------------------------------------------- the deal


class Hands(Line):
    """A ``hands`` line: the cards dealt to one or more seats."""

    cards: dict[SeatField, Annotated[tuple[MaybeCard, ...], Field(min_length=1)]] = Field(
        min_length=1)


class Upcard(Line):
    """The ``up`` line: the turned-up card and, when recorded, the kitty below it."""

    card: MaybeCard
    kitty: Annotated[tuple[MaybeCard, ...], Field(min_length=1)] | None = None


class Pass(Tagged):
    """A pass, in either round of bidding."""

    if TYPE_CHECKING:
        act: Literal["pass"] = "pass"
    else:
        act: Literal["pass"]
    seat: SeatField


class Order(Tagged):
    """An order up of the upcard's suit in round 1 (order, assist and take alike)."""

    if TYPE_CHECKING:
        act: Literal["order"] = "order"
    else:
        act: Literal["order"]
    seat: SeatField


class Call(Tagged):
    """Naming a suit as trump (round 2, or the dealer after a Benny turn-up), or calling no
    trump (round 2 under the ``no-trump`` option, H5)."""

    if TYPE_CHECKING:
        act: Literal["call"] = "call"
    else:
        act: Literal["call"]
    seat: SeatField
    suit: TrumpField


class Number(Tagged):
    """A trick bid in ghost-hand bid euchre: 3 to 6 tricks, 6 being the moon (G3)."""

    if TYPE_CHECKING:
        act: Literal["bid"] = "bid"
    else:
        act: Literal["bid"]
    seat: SeatField
    tricks: Count


class Swap(Tagged):
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


class Exchange(Line):
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


class Merge(Line, Tagged):
    """The maker taking up the dummy and keeping five of the ten cards (X5)."""

    if TYPE_CHECKING:
        act: Literal["merge"] = "merge"
    else:
        act: Literal["merge"]
    seat: SeatField
    keeps: Annotated[tuple[MaybeCard, ...], Field(min_length=1)] | None = None
    """The five cards kept, when the record names them."""


class Declaration(Line):
    """Going alone (``alone``, the maker) or defending alone (``defend``)."""

    act: Literal["alone", "defend"]
    seat: SeatField


class _WrittenExchange(dict[str, Any]):
    """The ``exchange`` of a deal's JSON form, among the acts: an exchange whatever its
    ``act`` says (which the exchange's model then judges)."""


def act_kind(value: Any) -> str:
    """The kind of an act after the bidding: ``alone`` and ``defend`` are declarations,
    ``merge`` a merge, anything else (``takes``, ``declines`` or no act) an exchange."""
    if type(value) is _WrittenExchange:
        return "exchange"
    act = value.get("act", "takes") if isinstance(value, dict) else getattr(value, "act", "")
    if not isinstance(act, str):
        return "exchange"  # whose model then refuses the act
    return {"alone": "declaration", "defend": "declaration", "merge": "merge"}.get(
        act, "exchange")


Act = Annotated[Annotated[Declaration, PydanticTag("declaration")]
                | Annotated[Merge, PydanticTag("merge")]
                | Annotated[Exchange, PydanticTag("exchange")], Discriminator(act_kind)]
"""What the dealer, the maker or a defender does between the bidding and the first lead:
the exchange, the dummy merge or a lone declaration."""


class Play(Record):
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
    value = _text(value, "a penalty's reason").strip()
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


_JSON_ACTS = frozenset({"exchange", "declarations"})
"""The keys of a deal's JSON form that hold its :attr:`Deal.acts`."""
_LATE = ("an exchange among the declarations is one written after the merge; before it, it "
         "is the deal's exchange")


def _canonical(acts: Any) -> Any:
    """``acts`` (as given in Python) with the exchange first, unless a merge comes before it:
    the order of the exchange and lone declarations is free (RULES.md)."""
    if not isinstance(acts, list | tuple) or len(acts) < 2:
        return acts
    kinds = [act_kind(a) for a in acts]
    if "exchange" not in kinds:
        return acts
    k = kinds.index("exchange")
    if k == 0 or "merge" in kinds[:k]:
        return acts
    return (acts[k], *acts[:k], *acts[k + 1:])


def _json_loc(loc: tuple[int | str, ...], first: int) -> tuple[int | str, ...]:
    """The place in the JSON form of an error at ``loc`` of a deal read from it, whose
    ``exchange`` is the first of the acts when ``first`` is 1."""
    if loc[:1] != ("acts",):
        return loc
    if len(loc) < 2 or not isinstance(loc[1], int):
        return ("declarations", *loc[1:])
    if loc[1] < first:
        return ("exchange", *loc[3:])  # (without the index and the act's kind)
    return ("declarations", loc[1] - first, *loc[2:])


def _json_form_schema(schema: dict[str, Any]) -> None:
    """The JSON schema of a deal as its JSON form writes it: ``exchange`` and
    ``declarations`` in place of ``acts``."""
    properties: dict[str, Any] = schema["properties"]
    acts: dict[str, Any] = properties["acts"]
    exchange = next(item for item in acts["items"]["oneOf"]  # (its reference, as generated)
                    if "Exchange" in item["$ref"])
    form: dict[str, Any] = {}
    for name, value in properties.items():
        if name == "acts":
            form["exchange"] = {"anyOf": [exchange, {"type": "null"}], "default": None}
            form["declarations"] = {**acts, "title": "Declarations"}
        else:
            form[name] = value
    schema["properties"] = form


class Deal(Line):
    """One deal, from the deal line to the points."""

    model_config = ConfigDict(json_schema_extra=_json_form_schema)

    number: Ordinal
    dealer: SeatField
    hands: tuple[Hands, ...] = ()
    extra: Extra | None = None
    up: Upcard | None = None
    bidding: tuple[Bidding, ...] = ()
    acts: tuple[Act, ...] = ()
    """What the dealer, the maker and the defenders do between the bidding and the first
    lead, in the order written: the exchange, the dummy merge and lone declarations. The
    exchange comes first (the order of the exchange and lone declarations is free, and the
    model puts it first), unless it was written after the merge (a breach of X5 that the
    replay reports, K501): it then keeps its place. The JSON form writes the acts as
    ``exchange`` (the exchange, when it comes first) and ``declarations`` (the others)."""
    sheet: Sheet | None = None
    tricks: tuple[Trick, ...] = ()
    claims: tuple[Claim, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    score: Score | None = None

    @model_validator(mode="after")
    def _once_each(self) -> Deal:
        if len(self.hands) > 1:  # (one line names each seat once)
            seats = [seat for line in self.hands for seat in line.cards]
            if len(seats) != len(set(seats)):
                raise ValueError("a seat's hand is written once in a deal")
        acts = self.acts
        if len(acts) < 2:
            return self
        if sum(isinstance(a, Merge) for a in acts) > 1:
            raise ValueError("a deal has one merge")
        exchanges = [k for k, a in enumerate(acts) if isinstance(a, Exchange)]
        if len(exchanges) > 1:
            raise ValueError("a deal has one exchange")
        if exchanges and exchanges[0] > 0 and not any(
                isinstance(a, Merge) for a in acts[:exchanges[0]]):
            raise ValueError(_LATE)
        return self

    @model_validator(mode="wrap")
    @classmethod
    def _json_form_in(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        if not isinstance(data, dict) or _JSON_ACTS.isdisjoint(data):
            if isinstance(data, dict) and "acts" in data:
                data = {**data, "acts": _canonical(data["acts"])}
            return handler(data)
        if "acts" in data:
            raise ValueError("a deal gives its acts as acts, or as exchange and declarations "
                             "(its JSON form), not both")
        exchange = data.get("exchange")
        rest = data.get("declarations", ())
        form = {key: value for key, value in data.items() if key not in _JSON_ACTS}
        first = int(exchange is not None and isinstance(rest, list | tuple))
        if first:
            form["acts"] = [_WrittenExchange(exchange) if isinstance(exchange, dict)
                            else exchange, *rest]
        else:
            form["acts"] = rest
            if exchange is not None:  # (beside declarations that are not a list)
                form["exchange"] = exchange
        try:
            deal = handler(form)
        except ValidationError as exc:
            raise ValidationError.from_exception_data(exc.title, [
                InitErrorDetails(type=e["type"], loc=_json_loc(e["loc"], first),
                                 input=e["input"], ctx=e.get("ctx", {}))
                for e in exc.errors()]) from None
        if not first and deal.acts and isinstance(deal.acts[0], Exchange):
            raise ValueError(_LATE)
        return deal

    @model_serializer(mode="wrap")
    def _json_form_out(self, handler: SerializerFunctionWrapHandler,
                       info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if "acts" not in data:
            return data
        form: dict[str, Any] = {}
        for key, value in data.items():
            if key != "acts":
                form[key] = value
                continue
            first = self.exchange is not None and not self.late_exchange
            if first or not (info.exclude_defaults or info.exclude_none):
                form["exchange"] = value[0] if first else None
            rest = value[1:] if first else value
            if rest or not info.exclude_defaults:
                form["declarations"] = rest
        return form

    @property
    def exchange(self) -> Exchange | None:
        """The deal's exchange, wherever it was written (``None`` if it has none)."""
        for act in self.acts:
            if isinstance(act, Exchange):
                return act
        return None

    @property
    def late_exchange(self) -> bool:
        """Whether the deal's exchange was written after the merge (a breach of X5, K501)."""
        return bool(self.acts) and not isinstance(self.acts[0], Exchange) and (
            self.exchange is not None)

    @property
    def merge(self) -> Merge | None:
        """The dummy merge, if any."""
        for act in self.acts:
            if isinstance(act, Merge):
                return act
        return None

    @property
    def declarations(self) -> tuple[Declaration, ...]:
        """The lone declarations (``alone`` and ``defend``), in the order made."""
        return tuple(a for a in self.acts if isinstance(a, Declaration))

    @property
    def bids(self) -> tuple[Bid, ...]:
        """Every bid of the deal, across its ``bid`` lines."""
        if len(self.bidding) == 1:
            return self.bidding[0].bids
        return tuple(b for line in self.bidding for b in line.bids)


class End(Line):
    """The game's last line: the recorded result, or a mark that the record is unfinished."""

    act: Literal["result", "unfinished"] = "result"
    scores: dict[SideField, Points] | None = None
    winner: SideField | None = None

    @model_validator(mode="before")
    @classmethod
    def _no_empty_scores(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("scores") == {}:
            return {k: v for k, v in data.items() if k != "scores"}  # "result" alone
        return data

    @model_validator(mode="after")
    def _unfinished_alone(self) -> End:
        if self.act == "unfinished" and (self.scores is not None or self.winner is not None):
            raise ValueError("an unfinished record has no scores and no winner")
        return self


class Game(Record):
    """One game: header tags, deals and an optional end line."""

    tags: tuple[Tag, ...] = Field(min_length=1)
    start: Start | None = None
    """Where a game recorded from the middle starts: its first deal and the totals."""
    deals: tuple[Deal, ...] = ()
    end: End | None = None
    after: tuple[Comment, ...] = ()
    """Comment lines after the game's last line."""

    @model_validator(mode="after")
    def _written_out(self) -> Game:
        if not self.deals and self.end is None:
            raise ValueError("a game has a deal or an end line ('unfinished' at least)")
        return self

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag called ``name`` (case-insensitive)."""
        key = name.lower()
        for tag in self.tags:
            if tag.name.lower() == key:
                return tag.value
        return default


class Log(Record):
    """A file of games: the JSON document form of a ``.euchre`` file."""

    format: Literal["euchrelog"] = "euchrelog"
    version: Literal[1] = 1
    games: tuple[Game, ...] = ()
    comments: tuple[Comment, ...] = ()
    """Comment lines of a file that holds no game."""

    @field_validator("games", mode="before")
    @classmethod
    def _games_list(cls, value: Any) -> Any:
        return tuple(value) if isinstance(value, list) else value

    @model_validator(mode="after")
    def _comments_in_place(self) -> Log:
        if any(game.after for game in self.games[:-1]):
            raise ValueError("only the last game has comments after it (the comments above "
                             "a game belong to its first tag)")
        if self.games and self.comments:
            raise ValueError("a log with games keeps its last comments in the last game's "
                             "after, not in comments")
        return self


LogItem = Game | tuple[str, ...]
"""A log read or written game by game: a game, or the comment lines of a log with no game."""


def log_items(log: Log) -> tuple[LogItem, ...]:
    """The items of a whole log, as :func:`~euchrelog.notation.iter_log` yields them."""
    return (*log.games, log.comments) if log.comments else log.games
