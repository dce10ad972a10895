"""Variants and house rules, as data.

A :class:`Variant` is a table of facts (seats, sides, deal sizes, scoring table,
penalties); :class:`Options` holds the house rules a record declares in its ``Rules``,
``Deck``, ``Target`` and ``Deals`` tags. A :class:`Ruleset` joins the two, and the
engine asks it, never the variant's name.

>>> ruleset, problems = ruleset_from_tags({"Variant": "four-hand", "Rules": "stick-the-dealer"})
>>> ruleset.options.stick_the_dealer, problems
(True, [])
>>> ruleset.deal_points(5, maker_alone=True, defender_alone=False)
('makers', 4)
>>> cutthroat, _ = ruleset_from_tags({"Variant": "cutthroat", "Seats": "N E W"})
>>> cutthroat.side_names, cutthroat.kitty_size
(('N', 'E', 'W'), 3)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from .seats import SEATS, Seat, clockwise_from

Who = Literal["makers", "defenders"]


@dataclass(frozen=True)
class ScoreRow:
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
class Variant:
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
    names = ", ".join(v.name for v in VARIANTS)
    raise ValueError(f"unknown variant {name!r} (known: {names})")


@dataclass(frozen=True)
class Options:
    """House rules (RULES.md, "Options at a glance"); the defaults are the rulings."""

    deck: int = 24
    target: int = 10
    deals: int | None = None
    """A game of this many deals instead of one to the target."""
    dealer_pickup: Literal["optional", "required"] = "optional"
    stick_the_dealer: bool = False
    lone_defender: bool = True
    lone_lead: Literal["maker-left", "dealer-left"] = "maker-left"
    lone_defender_euchre: int | None = None
    """Points for any euchre by a lone defender (``None``: the table)."""
    renege: int | None = None
    """Every renege penalty becomes this (``None``: the table)."""
    dummy: Literal["optional", "required", "off"] = "off"
    failed_moon: int = -6
    """What a failed moon costs the bidder (G6)."""
    canadian_loner: bool = False
    """The dealer's partner who orders up in round 1 must go alone (H3)."""
    no_trump: bool = False
    """A player may call no trump in round 2 (H5)."""
    euchred_loner: int = 2
    """What the defenders score for euchring a lone maker, at least (H1)."""
    euchre_scoring: Literal["defenders", "set"] = "defenders"
    """Who a euchre scores for: the defenders, or against the makers (H2)."""
    pass_out: Literal["next-dealer", "same-dealer"] = "next-dealer"
    """Who deals after a deal everyone passed (C7, H4)."""
    partner_alone: bool = False
    """Either maker may go alone, the other then sits out (F9)."""
    natural_pickup: bool = False
    """The dealer takes the upcard only holding a natural trump (F4)."""

    @classmethod
    def defaults(cls, variant: Variant) -> Options:
        """The options a record of ``variant`` has when it states none."""
        return cls(deck=variant.decks[0], target=variant.target,
                   lone_defender=variant.lone_defender, dummy=variant.dummy)

    def spell(self, variant: Variant) -> str:
        """The options that differ from the defaults, as a ``Rules`` tag value."""
        base = Options.defaults(variant)
        words = []
        for row in OPTIONS:
            value = getattr(self, row.field)
            if value != getattr(base, row.field):
                words.append(row.word(value))
        return " ".join(words)


@dataclass(frozen=True)
class OptionRow:
    """One option of the ``Rules`` tag: a row of the options table, from which the tag is
    read and spelt and the table of docs/notation.md is made."""

    name: str
    """Its name in the ``Rules`` tag."""
    kind: Literal["number", "flag", "choice"]
    """A number (``deck=32``), a flag (``stick-the-dealer``, ``no-lone-defender``) or one
    of ``values`` (``lone-lead=dealer-left``)."""
    values: tuple[str, ...]
    """The words a choice takes (a flag: on, off); empty for a number."""
    writing: str
    """How to write it, for the docs."""
    default: str
    """Its default, in words."""
    rule: str
    """The rules it changes."""
    meaning: str
    """What it does, in words."""
    egn: tuple[str, ...] | None = None
    """The fields of an EGN ruleset that say it; ``None``: EGN cannot, and a game that sets
    it is exported to EGN with the option listed as lost."""
    openspiel: str | None = None
    """The OpenSpiel euchre parameter that sets it; ``None``: OpenSpiel has no parameter
    for it (its rules may fix it, see :mod:`euchrelog.interop.openspiel`)."""

    @property
    def field(self) -> str:
        """The attribute of :class:`Options` that holds it."""
        return self.name.replace("-", "_")

    def word(self, value: object) -> str:
        """The option set to ``value``, as the ``Rules`` tag writes it."""
        if self.kind == "flag":
            return self.name if value else f"no-{self.name}"
        return f"{self.name}={value}"

    @property
    def variants(self) -> str:
        """The variants that take it, in words."""
        names = [v.name for v in VARIANTS if self.name in v.options]
        if len(names) == len(VARIANTS):
            return "all"
        if len(names) == len(VARIANTS) - 1:
            return "all but " + next(v.name for v in VARIANTS if v.name not in names)
        return ", ".join(names)


OPTIONS: tuple[OptionRow, ...] = (
    OptionRow("deck", "number", (), "`deck=24`, `deck=25`, `deck=32`", "24", "C1",
              "32 adds the sevens and eights; 25 adds the Benny (a joker, `JK`)",
              egn=("min_rank", "joker")),
    OptionRow("target", "number", (), "`target=N`, N at least 1", "10; ghost 32",
              "F12, X9, G7, T6", "the score that wins",
              egn=("winning_score",)),
    OptionRow("deals", "number", (), "`deals=N`, N at least 1", "none: play to the target",
              "C9, H4", "the game ends after N deals, thrown-in deals included (but see "
              "`pass-out`), instead of at the target", egn=("num_deals",)),
    OptionRow("dealer-pickup", "choice", ("optional", "required"),
              "`dealer-pickup=optional`, `dealer-pickup=required`", "optional", "F4",
              "whether the dealer must take the upcard after a round-1 order"),
    OptionRow("stick-the-dealer", "flag", ("on", "off"),
              "`stick-the-dealer` (or `stick-the-dealer=on`), `stick-the-dealer=off`", "off",
              "F6", "the dealer may not pass in round 2", egn=("std",),
              openspiel="stick_the_dealer"),
    OptionRow("lone-defender", "flag", ("on", "off"),
              "`no-lone-defender` (or `lone-defender=off`), `lone-defender` (or "
              "`lone-defender=on`)", "on; three-hand off", "F9, X6",
              "whether a defender may defend alone", egn=("defend_alone",),
              openspiel="allow_lone_defender"),
    OptionRow("lone-lead", "choice", ("maker-left", "dealer-left"),
              "`lone-lead=maker-left`, `lone-lead=dealer-left`", "maker-left", "F10",
              "who leads when the maker goes alone", egn=("loner_lead",)),
    OptionRow("lone-defender-euchre", "number", (), "`lone-defender-euchre=4` (the only value)",
              "the F11 table", "F11",
              "points for any euchre by a lone defender (tournament practice: 4)",
              egn=("defend_alone",)),
    OptionRow("renege", "number", (), "`renege=N`, a whole number, at least 0", "the P3 table",
              "P3", "every renege penalty becomes N points (in ghost, the offender loses N)"),
    OptionRow("dummy", "choice", ("optional", "required", "off"),
              "`dummy=optional`, `dummy=required`, `dummy=off`", "optional", "X5",
              "whether the maker may, must (unless alone) or cannot take up the dummy; `off` "
              "deals no dummy"),
    OptionRow("failed-moon", "number", (), "`failed-moon=-6`, `failed-moon=-24`", "-6", "G6",
              "what a failed moon costs the bidder"),
    OptionRow("canadian-loner", "flag", ("off", "on"),
              "`canadian-loner` (or `canadian-loner=on`), `canadian-loner=off`", "off", "H3",
              "the dealer's partner who orders up in round 1 must go alone",
              egn=("canadian",)),
    OptionRow("no-trump", "flag", ("off", "on"), "`no-trump` (or `no-trump=on`), `no-trump=off`",
              "off", "H5", "a player may call no trump in round 2 (`call NT`): no bowers, the "
              "led suit wins", egn=("allow_no_trump",)),
    OptionRow("euchred-loner", "number", (), "`euchred-loner=2`, `euchred-loner=3`, "
              "`euchred-loner=4`", "2", "H1",
              "what the defenders score (at least) for euchring a lone maker",
              egn=("loner_euchred_score",)),
    OptionRow("euchre-scoring", "choice", ("defenders", "set"),
              "`euchre-scoring=defenders`, `euchre-scoring=set`", "defenders", "H2",
              "`set`: a euchre scores nothing for the defenders, the makers lose what the "
              "defenders would have scored (totals may be negative)"),
    OptionRow("pass-out", "choice", ("next-dealer", "same-dealer"),
              "`pass-out=next-dealer`, `pass-out=same-dealer`", "next-dealer", "C7, H4",
              "`same-dealer`: a deal everyone passed is dealt again by the same dealer, and "
              "does not count among `deals=N`"),
    OptionRow("partner-alone", "flag", ("off", "on"),
              "`partner-alone` (or `partner-alone=on`), `partner-alone=off`", "off", "F9, F10",
              "the maker's partner may go alone instead of the maker, who then sits out (one "
              "of the two, once); the lone lead counts from the one alone"),
    OptionRow("natural-pickup", "flag", ("off", "on"),
              "`natural-pickup` (or `natural-pickup=on`), `natural-pickup=off`", "off", "F4",
              "the dealer may take the upcard only holding a card of its printed suit (the "
              "left bower and the Benny do not count); else the order stands and the dealer "
              "declines, even under `dealer-pickup=required`"),
)
"""Every option of the ``Rules`` tag, in the order the tag is spelt."""

_OPTION = {row.name: row for row in OPTIONS}


def options_table() -> str:
    """The table of the options in docs/notation.md ("The Rules tag"), from :data:`OPTIONS`."""
    rows = ["| option | how to write it | default | rule | meaning | variants | EGN | OpenSpiel |",
            "|---|---|---|---|---|---|---|---|"]
    rows.extend(f"| {r.name} | {r.writing} | {r.default} | {r.rule} | {r.meaning} | "
                f"{r.variants} | {_spelling(', '.join(r.egn) if r.egn else None)} | "
                f"{_spelling(r.openspiel)} |" for r in OPTIONS)
    return "\n".join(rows)


def _spelling(text: str | None) -> str:
    """An interop spelling for the options table: the field in code, or a dash."""
    return f"`{text}`" if text else "-"


@dataclass(frozen=True)
class Ruleset:
    """A variant with its options and seats: everything the engine asks."""

    variant: Variant = FOUR_HAND
    options: Options = field(default_factory=Options)
    seats: tuple[Seat, ...] = ()
    """The seats that hold players, clockwise (default: the variant's)."""

    def __post_init__(self) -> None:
        if not self.seats:
            object.__setattr__(self, "seats", self.variant.seats)

    @functools.cached_property
    def extra_hand(self) -> Literal["dummy", "ghost"] | None:
        """The hand dealt to the empty side in this game, if any."""
        if self.variant.extra_hand == "dummy" and self.options.dummy == "off":
            return None
        return self.variant.extra_hand

    @functools.cached_property
    def extra_size(self) -> int:
        """Cards in the dummy or ghost hand."""
        return self.variant.hand_size if self.extra_hand else 0

    @functools.cached_property
    def kitty_size(self) -> int:
        """Cards left after the deal and the upcard: the kitty, or the stock (T1)."""
        if not self.variant.upcard:
            return 0
        dealt = self.variant.hand_size * len(self.seats) + self.extra_size
        return self.options.deck - dealt - 1

    def side(self, seat: Seat) -> str:
        """The side ``seat`` scores for."""
        if self.variant.partnership:
            return "NS" if seat in (Seat.N, Seat.S) else "EW"
        return seat.value

    def side_of(self, who: str) -> str:
        """The side that ``who``, a player (a seat letter) or a side (``NS``), scores for;
        one not in :attr:`side_names` is not in the game."""
        return self.side(Seat(who)) if who in SEATS else who

    @functools.cached_property
    def side_names(self) -> tuple[str, ...]:
        """The sides, in seat order, each once."""
        return tuple(dict.fromkeys(self.side(s) for s in self.seats))

    def deal_points(self, maker_tricks: int, *, maker_alone: bool,
                    defender_alone: bool) -> tuple[Who, int]:
        """Who scores and how much for a deal played out (F11, X8, T5, H1); under
        ``euchre-scoring=set`` a euchre is the makers' loss (H2).

        >>> rules, _ = ruleset_from_tags({"Variant": "four-hand",
        ...                               "Rules": "euchred-loner=3 euchre-scoring=set"})
        >>> rules.deal_points(2, maker_alone=True, defender_alone=False)
        ('makers', -3)
        """
        options = self.options
        row = next((row for row in self.variant.scoring
                    if row.applies(maker_tricks, maker_alone, defender_alone)), None)
        if row is None:
            raise ValueError(f"no scoring row for {maker_tricks} tricks")
        who, points = row.who, row.points
        if who == "defenders":
            if options.lone_defender_euchre is not None and defender_alone:
                points = options.lone_defender_euchre
            if maker_alone:
                points = max(points, options.euchred_loner)
            if options.euchre_scoring == "set":
                return ("makers", -points)
        return (who, points)

    def side_points(self, maker: Seat, maker_tricks: int, *, maker_alone: bool,
                    defender_alone: bool) -> dict[str, int]:
        """The points of a deal played out, by side (see :meth:`deal_points`).

        >>> Ruleset().side_points(Seat.E, 1, maker_alone=False, defender_alone=False)
        {'NS': 2}
        """
        key = (maker, maker_tricks, maker_alone, defender_alone)
        points = self._side_points.get(key)
        if points is None:
            who, won = self.deal_points(maker_tricks, maker_alone=maker_alone,
                                        defender_alone=defender_alone)
            maker_side = self.side(maker)
            points = self._side_points[key] = (
                {maker_side: won} if who == "makers"
                else {s: won for s in self.side_names if s != maker_side})
        return dict(points)

    @functools.cached_property
    def _side_points(self) -> dict[tuple[Seat, int, bool, bool], dict[str, int]]:
        """:meth:`side_points` as it is worked out, by its arguments (a deal's points are
        few and recur)."""
        return {}

    def lone_makers(self, dealer: Seat, maker: Seat, fixed_in_round: int) -> tuple[Seat, ...]:
        """The seats that may go alone for the makers (F9): the maker, and under
        ``partner-alone`` the maker's partner too, but for a maker that must go alone
        (H3, :meth:`must_go_alone`).

        >>> rules, _ = ruleset_from_tags({"Variant": "four-hand", "Rules": "partner-alone"})
        >>> rules.lone_makers(Seat.N, Seat.E, 1)
        (<Seat.E: 'E'>, <Seat.W: 'W'>)
        """
        if not self.options.partner_alone or self.must_go_alone(dealer, maker, fixed_in_round):
            return (maker,)
        side = self.side(maker)
        return (maker, *(s for s in self.seats if s != maker and self.side(s) == side))

    def must_go_alone(self, dealer: Seat, maker: Seat, fixed_in_round: int) -> bool:
        """Whether the maker must go alone (H3, ``canadian-loner``): the dealer's partner
        who orders up in round 1."""
        return (self.options.canadian_loner and fixed_in_round == 1 and maker != dealer
                and self.side(maker) == self.side(dealer))

    def next_dealer(self, dealer: Seat, thrown: bool) -> Seat:
        """Who deals after ``dealer``: the next seat with a player (C7), or the same dealer
        after a deal everyone passed under ``pass-out=same-dealer`` (H4)."""
        if thrown and self.options.pass_out == "same-dealer":
            return dealer
        return self._next_seat[dealer]

    @functools.cached_property
    def _next_seat(self) -> dict[Seat, Seat]:
        """The next seat with a player after each seat, clockwise."""
        return {seat: clockwise_from(seat.left, self.seats)[0] for seat in SEATS}

    def counts(self, thrown: bool) -> bool:
        """Whether a deal counts among the N of ``deals=N``: every deal, except one thrown
        in under ``pass-out=same-dealer`` (H4)."""
        return not (thrown and self.options.pass_out == "same-dealer")

    def trick_points(self, bidder: Seat, bid: int, taken: Mapping[Seat, int]) -> dict[str, int]:
        """Ghost-hand scoring (G6): 1 a trick, a made moon 24, a set bidder loses the bid."""
        points = {self.side(s): n for s, n in taken.items() if s != bidder}
        made = taken.get(bidder, 0)
        if made >= bid:
            points[self.side(bidder)] = 24 if bid == MOON else made
        else:
            points[self.side(bidder)] = self.options.failed_moon if bid == MOON else -bid
        return points

    def outcome(self, totals: Mapping[str, int], deals: int) -> Outcome | None:
        """How the game ended after ``deals`` deals (those that :meth:`counts`) with these
        totals, or ``None`` while it goes on (C9, X9, G7, H2, H4): after the number of deals
        of ``deals=N``, else when one side alone has the most points and at least the
        target.

        >>> Ruleset().outcome({"NS": 10, "EW": 4}, 7)
        Outcome(winner='NS')
        >>> Ruleset().outcome({"NS": 9, "EW": 4}, 7) is None
        True
        """
        best = max(totals.values(), default=0)
        leaders = [side for side, points in totals.items() if points == best]
        alone = leaders[0] if len(leaders) == 1 else None
        if self.options.deals:
            return Outcome(alone) if deals >= self.options.deals else None
        return Outcome(alone) if best >= self.options.target and alone else None

    def renege_penalty(self, lone_hand: bool) -> int:
        """The renege penalty (P3): points to each other side, or, when negative, to the
        offender."""
        if self.options.renege is not None:
            return self.options.renege * (-1 if self.variant.renege_penalty < 0 else 1)
        return self.variant.renege_penalty_lone if lone_hand else self.variant.renege_penalty


@dataclass(frozen=True)
class Outcome:
    """The end of a game: its winner (``None`` for a tie after a fixed number of deals)."""

    winner: str | None


def _number(name: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"option {name} takes a number, not {text!r}") from None
    if name == "deck" and value not in (24, 25, 32):
        raise ValueError(f"deck={value} is not a deck size (24, 25 or 32)")
    if name in ("target", "deals") and value < 1:
        raise ValueError(f"{name}={value} must be at least 1")
    if name == "lone-defender-euchre" and value != 4:
        raise ValueError(f"lone-defender-euchre={value}: the option's only value is 4")
    if name == "renege" and value < 0:
        raise ValueError(f"renege={value}: a penalty cannot be negative")
    if name == "failed-moon" and value not in (-6, -24):
        raise ValueError(f"failed-moon={value}: the option takes -6 or -24")
    if name == "euchred-loner" and value not in (2, 3, 4):
        raise ValueError(f"euchred-loner={value}: the option takes 2, 3 or 4")
    return value


def _problem(name: str, text: str) -> str | None:
    """What is wrong with ``text`` as the value of a number option, if anything."""
    try:
        _number(name, text)
    except ValueError as exc:
        return str(exc)
    return None


def parse_rules(text: str, variant: Variant) -> tuple[dict[str, str | int | bool], list[str]]:
    """Parses a ``Rules`` tag value into option settings and a list of problems."""
    settings: dict[str, str | int | bool] = {}
    problems: list[str] = []
    for word in text.replace(",", " ").split():
        name, _, value = word.lower().partition("=")
        row = _OPTION.get(name)
        flag = _OPTION.get(name.removeprefix("no-"))
        if row is None and not value and flag is not None and flag.kind == "flag":
            row, name, value = flag, flag.name, "off"
        if row is None:
            problems.append(f"unknown option {word!r} in the Rules tag")
            continue
        if row.kind == "flag" and not value:
            value = "on"
        if name not in variant.options:
            problems.append(f"option {name} does not apply to {variant.name}")
            continue
        if name in settings:
            problems.append(f"option {name} is given twice in the Rules tag")
            continue
        if row.kind != "number":
            if value not in row.values:
                choices = ", ".join(row.values)
                problems.append(f"option {name} takes one of {choices}, not {value!r}")
                continue
            settings[name] = value
        else:
            try:
                settings[name] = _number(name, value)
            except ValueError as exc:
                problems.append(str(exc))
    return settings, problems


@dataclass(frozen=True)
class TagProblem:
    """A problem with the header tags, as a finding code and a message."""

    code: str
    message: str
    tag: str


_RULE_TAGS = ("variant", "rules", "deck", "target", "deals", "seats")
"""The tags whose values the ruleset reads; of the player-name tags, it reads which are given."""


def ruleset_from_tags(tags: Mapping[str, str]) -> tuple[Ruleset, list[TagProblem]]:
    """Builds the ruleset a game declares in its tags (names are case-insensitive). Games
    that declare the same get the same ruleset, and its tables with it."""
    lower = {k.lower(): v for k, v in tags.items()}
    ruleset, problems = _ruleset(tuple(lower.get(name) for name in _RULE_TAGS),
                                 tuple(name in lower for name in _NAMES))
    return ruleset, list(problems)


@functools.lru_cache(maxsize=256)
def _ruleset(values: tuple[str | None, ...], named: tuple[bool, ...]
             ) -> tuple[Ruleset, tuple[TagProblem, ...]]:
    lower = {name: value for name, value in zip(_RULE_TAGS, values, strict=True)
             if value is not None}
    lower.update((name, "") for name, given in zip(_NAMES, named, strict=True) if given)
    problems: list[TagProblem] = []
    variant = FOUR_HAND
    if "variant" not in lower:
        problems.append(TagProblem("T201", "no Variant tag: four-hand is assumed", "game"))
    else:
        try:
            variant = find_variant(lower["variant"])
        except ValueError as exc:
            problems.append(TagProblem("T202", str(exc), "variant"))
    settings, words = parse_rules(lower.get("rules", ""), variant)
    problems.extend(TagProblem("T203", w, "rules") for w in words)
    for name in ("deck", "target", "deals"):
        if name not in lower:
            continue
        try:
            number = _number(name, lower[name].strip())
        except ValueError as exc:
            # "5 points" still says 5: read it so, and the game end is checked (one finding).
            lead = lower[name].split(None, 1)
            readable = lead and lead[0].isdigit() and not _problem(name, lead[0])
            note = f"; read as {lead[0]}" if readable else ""
            problems.append(TagProblem("T204", f"{name.capitalize()} tag: {exc}{note}", name))
            if not readable:
                continue
            number = int(lead[0])
        if name in settings and settings[name] != number:
            problems.append(TagProblem(
                "T205", f"the {name.capitalize()} tag says {number} but the Rules tag says "
                        f"{name}={settings[name]}", name))
            continue
        settings[name] = number
    options = Options.defaults(variant)
    updates: dict[str, object] = {}
    for name, value in settings.items():
        key = name.replace("-", "_")
        if _OPTION[name].kind == "flag":
            updates[key] = value == "on"
        else:
            updates[key] = value
    if "deck" in updates and updates["deck"] not in variant.decks:
        problems.append(TagProblem("T203", f"deck={updates['deck']} is not played in "
                                           f"{variant.name}", "deck"))
        del updates["deck"]
    if updates.get("no_trump") and updates.get("deck", options.deck) == 25:
        # The Benny belongs to the trump suit (C2): with no trump it would have no suit.
        problems.append(TagProblem("T205", "no-trump does not combine with deck=25: the benny "
                                           "needs a trump suit; no-trump is off", "rules"))
        del updates["no_trump"]
    options = replace(options, **updates)  # type: ignore[arg-type]
    seats, problem = _seats(lower, variant)
    if problem:
        problems.append(TagProblem("T204", problem, "seats"))
    return Ruleset(variant, options, seats), tuple(problems)


_NAME_TAGS = {Seat.N: ("n", "north"), Seat.E: ("e", "east"), Seat.S: ("s", "south"),
              Seat.W: ("w", "west")}
_NAMES = tuple(name for names in _NAME_TAGS.values() for name in names)


def _seats(tags: Mapping[str, str], variant: Variant) -> tuple[tuple[Seat, ...], str]:
    """The seats that hold players: the Seats tag, else the seats that have a player-name
    tag when they are as many as the players, else the variant's default."""
    want = len(variant.seats)
    if "seats" in tags:
        letters = [c for c in tags["seats"].upper() if not c.isspace() and c != ","]
        chosen = [s for s in SEATS if s.value in letters]
        if len(chosen) != want or len(letters) != want:
            return variant.seats, (f"Seats tag: {tags['seats']!r} should name {want} different "
                                   f"seats of N, E, S, W for {variant.name}")
        return tuple(chosen), ""
    named = tuple(s for s in SEATS if any(n in tags for n in _NAME_TAGS[s]))
    if len(named) == want:
        return named, ""
    if len(named) > want:
        return variant.seats, (f"player-name tags for {len(named)} seats, but {variant.name} "
                               f"has {want} players: say which play with a Seats tag")
    return variant.seats, ""
