"""The variants table: the fixed facts of each form of euchre (seats, sides, deal sizes,
scoring table, penalties), and :func:`find_variant`, which looks one up by name."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from ..frozen import Frozen
from ..seats import SEATS, Seat
from ..spelling import did_you_mean

Who = Literal["makers", "defenders"]


@dataclass(frozen=True)
class ScoreRow(Frozen):
    """One row of a scoring table: when it applies, who scores and how much."""

    tricks: frozenset[int]
    """Tricks taken by the maker's side for which the row applies."""
    who: Who
    """Who scores."""
    points: int
    """How many points."""
    maker_alone: bool | None = None
    """``True``/``False`` to apply only with/without a lone maker; ``None`` for both."""
    defender_alone: bool | None = None
    """Likewise for a lone defender."""

    def applies(self, tricks: int, maker_alone: bool, defender_alone: bool) -> bool:
        """Whether this row scores the given outcome."""
        return (tricks in self.tricks
                and self.maker_alone in (None, maker_alone)
                and self.defender_alone in (None, defender_alone))


def _row(tricks: range | tuple[int, ...], who: Who, points: int, *,
         maker_alone: bool | None = None, defender_alone: bool | None = None) -> ScoreRow:
    return ScoreRow(frozenset(tricks), who, points, maker_alone, defender_alone)


Lead = Literal["partnership", "cutthroat", "maker-left", "bidder"]
"""Opening-lead rules: F10, X7, X10 (the maker's left), G5 (the bidder)."""


@dataclass(frozen=True)
class Variant(Frozen):
    """The fixed facts of one form of euchre."""

    name: str
    """The name used in the ``Variant`` tag."""
    aliases: tuple[str, ...]
    """Other names accepted for it."""
    seats: tuple[Seat, ...]
    """The seats that hold players unless the record says otherwise, clockwise."""
    partnership: bool
    """Whether partners opposite share a side (NS, EW); otherwise each player is a side."""
    hand_size: int
    """Cards dealt to each player."""
    tricks: int
    """Tricks in a deal."""
    decks: tuple[int, ...]
    """Deck sizes allowed, the default first."""
    target: int
    """Default target score."""
    scoring: tuple[ScoreRow, ...]
    """The scoring table, first matching row wins (empty: trick scoring, G6)."""
    renege_penalty: int
    """Points to each non-offending side for a renege (negative: to the offender, G-style)."""
    renege_penalty_lone: int
    """The same when a lone hand was played."""
    options: frozenset[str]
    """The house-rule options this variant takes."""
    extra_hand: Literal["dummy", "ghost"] | None = None
    """The hand dealt to the empty side, if any."""
    upcard: bool = True
    """Whether a card is turned up (and a kitty or stock left)."""
    bidding: Literal["euchre", "tricks"] = "euchre"
    """Two rounds of order/call (F3-F7), or one round of trick bids (G2-G5)."""
    lead: Lead = "partnership"
    """The opening-lead rule."""
    alone: Literal["declared", "never", "always"] = "declared"
    """Whether the maker may declare alone, may not (T4), or always plays alone (X10)."""
    lone_defender: bool = True
    """The default of the ``lone-defender`` option."""
    dummy: Literal["optional", "required", "off"] = "off"
    """The default of the ``dummy`` option."""
    kitty_name: str = "kitty"
    """What the cards left after the deal are called (two-hand: the stock)."""


FOUR_HAND = Variant(
    name="four-hand",
    aliases=("four", "4", "partnership", "four-hand-partnership", "euchre"),
    seats=SEATS,
    partnership=True,
    hand_size=5,
    tricks=5,
    decks=(24, 32, 25),
    target=10,
    scoring=(
        _row(range(3, 5), "makers", 1),
        _row((5,), "makers", 2, maker_alone=False),
        _row((5,), "makers", 4, maker_alone=True),
        _row((0,), "defenders", 4, defender_alone=True),
        _row(range(0, 3), "defenders", 2),
    ),
    renege_penalty=2,
    renege_penalty_lone=4,
    options=frozenset({"deck", "target", "deals", "dealer-pickup", "stick-the-dealer",
                       "lone-defender", "lone-lead", "lone-defender-euchre", "renege",
                       "canadian-loner", "no-trump", "euchred-loner", "euchre-scoring",
                       "pass-out", "partner-alone", "natural-pickup"}),
)

_CUTTHROAT_TABLE = (
    _row(range(3, 5), "makers", 1),
    _row((5,), "makers", 3),
    _row((0,), "defenders", 4, defender_alone=True),
    _row(range(0, 3), "defenders", 2),
)

CUTTHROAT = Variant(
    name="cutthroat",
    aliases=("cutthroat-euchre", "three-hand-dummy", "dummy"),
    seats=(Seat.N, Seat.E, Seat.S),
    partnership=False,
    hand_size=5,
    tricks=5,
    decks=(24, 32, 25),
    target=10,
    scoring=_CUTTHROAT_TABLE,
    renege_penalty=2,
    renege_penalty_lone=2,
    options=frozenset({"deck", "target", "deals", "dealer-pickup", "stick-the-dealer",
                       "lone-defender", "dummy", "renege", "euchre-scoring", "pass-out",
                       "natural-pickup"}),
    extra_hand="dummy",
    lead="cutthroat",
    dummy="optional",
)

THREE_HAND = replace(
    CUTTHROAT,
    name="three-hand",
    aliases=("three", "3", "three-hand-euchre"),
    options=CUTTHROAT.options - {"dummy"},
    extra_hand=None,
    lead="maker-left",
    alone="always",
    lone_defender=False,
    dummy="off",
)

GHOST = Variant(
    name="ghost",
    aliases=("ghost-hand", "bid-euchre", "ghost-hand-bid-euchre"),
    seats=(Seat.N, Seat.E, Seat.S),
    partnership=False,
    hand_size=6,
    tricks=6,
    decks=(24,),
    target=32,
    scoring=(),
    renege_penalty=-2,
    renege_penalty_lone=-2,
    options=frozenset({"target", "deals", "failed-moon", "renege"}),
    extra_hand="ghost",
    upcard=False,
    bidding="tricks",
    lead="bidder",
    alone="never",
    lone_defender=False,
)

TWO_HAND = Variant(
    name="two-hand",
    aliases=("two", "2", "two-hand-euchre"),
    seats=(Seat.N, Seat.S),
    partnership=False,
    hand_size=5,
    tricks=5,
    decks=(24, 32, 25),
    target=10,
    scoring=(
        _row(range(3, 5), "makers", 1),
        _row((5,), "makers", 2),
        _row(range(0, 3), "defenders", 2),
    ),
    renege_penalty=2,
    renege_penalty_lone=2,
    options=frozenset({"deck", "target", "deals", "dealer-pickup", "stick-the-dealer",
                       "renege", "euchre-scoring", "pass-out", "natural-pickup"}),
    alone="never",
    lone_defender=False,
    kitty_name="stock",
)

VARIANTS: tuple[Variant, ...] = (FOUR_HAND, CUTTHROAT, THREE_HAND, GHOST, TWO_HAND)
"""Every variant the engine can replay."""

MOON = 6
"""The trick bid called "moon" in ghost-hand bid euchre (G3)."""


def find_variant(name: str) -> Variant:
    """Looks a variant up by name or alias (case-insensitive).

    :raises ValueError: for a name that is not known.
    """
    key = name.strip().lower()
    for variant in VARIANTS:
        if key == variant.name or key in variant.aliases:
            return variant
    names = [v.name for v in VARIANTS]
    hint = did_you_mean(key, [*names, *(a for v in VARIANTS for a in v.aliases)])
    raise ValueError(f"unknown variant {name!r}{hint} (known: {', '.join(names)})")
