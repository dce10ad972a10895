"""The ruleset: a variant with its options and seats, everything the engine asks (who
scores, who deals, who may go alone, when the game ends)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from ..frozen import Frozen
from ..seats import SEATS, Seat, clockwise_from
from .options import Options
from .variants import FOUR_HAND, MOON, Variant, Who


@dataclass(frozen=True)
class Ruleset(Frozen):
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

        >>> from euchrelog.rules import ruleset_from_tags
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

        >>> from euchrelog.rules import ruleset_from_tags
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
        options = self.options
        if not options.deals and best < options.target:
            return None  # (as below, without looking for the leaders)
        leaders = [side for side, points in totals.items() if points == best]
        alone = leaders[0] if len(leaders) == 1 else None
        if options.deals:
            return Outcome(alone) if deals >= options.deals else None
        return Outcome(alone) if best >= options.target and alone else None

    def renege_penalty(self, lone_hand: bool) -> int:
        """The renege penalty (P3): points to each other side, or, when negative, to the
        offender."""
        if self.options.renege is not None:
            return self.options.renege * (-1 if self.variant.renege_penalty < 0 else 1)
        return self.variant.renege_penalty_lone if lone_hand else self.variant.renege_penalty


@dataclass(frozen=True)
class Outcome(Frozen):
    """The end of a game: its winner (``None`` for a tie after a fixed number of deals)."""

    winner: str | None
