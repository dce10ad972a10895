"""The normalised form of a record: frozen pydantic models.

The package's modules: :mod:`.fields` (the fields and the bases of every model),
:mod:`.lines` (the lines of a deal, and a game's tags and start line), :mod:`.deal` (one
deal, and its acts after the bidding in the JSON form); this module holds the game, the
log and the end line, and gives every model by name.

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

from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from ..acts import act_kind
from .deal import Deal
from .fields import (
    CARD_PATTERN,
    FORMAT_VERSION,
    SIDE_NAMES,
    TAG_NAME,
    Comment,
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
)
from .lines import (
    Act,
    Bid,
    Bidding,
    Call,
    Claim,
    Declaration,
    Exchange,
    Extra,
    Hands,
    Merge,
    Number,
    Order,
    Pass,
    Penalty,
    Play,
    Score,
    Sheet,
    Start,
    Swap,
    Tag,
    Trick,
    Upcard,
)

__all__ = [
    "CARD_PATTERN", "FORMAT_VERSION", "SIDE_NAMES", "TAG_NAME", "Act", "Bid", "Bidding", "Call",
    "Claim", "Comment", "Count", "Deal", "Declaration", "End", "Exchange", "Extra", "Game",
    "Hands", "Line", "Log", "LogItem", "MaybeCard", "Merge", "Number", "Order", "Ordinal",
    "Pass", "Penalty", "Play", "Points", "Record", "Score", "SeatField", "Sheet", "SideField",
    "Start", "Swap", "Tag", "Tagged", "Trick", "TrumpField", "Upcard", "act_kind", "log_items",
]

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
