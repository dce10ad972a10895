"""The double-dummy review of the deals of a record: the API the ``analyze``, ``stats``
and viewer commands share.

:func:`review_game` replays a game (for its findings and ruleset), then, for every deal
whose every card is recorded and whose play is clean, gives a :class:`DealReview`: the
makers' tricks under perfect play before the opening lead (``dd``), the value of every
legal card at every play (:class:`PlayReview`), the points each side's mistakes cost it
and a par table (:class:`ParEntry`). Any other deal is :class:`Skipped`, with the reason.
:func:`principal_line` continues the play from any position of a review, with any card
there, under perfect play.

>>> from euchrelog.notation import loads
>>> game = loads(open("samples/valid/four-hand-24-club-night.euchre").read()).games[0]
>>> first = next(review_game(game))
>>> first.deal, first.dd, [str(s) for s in first.makers]
(1, 4, ['E', 'W'])
>>> first.made, first.plays[0].dd_after
(3, 4)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..acts import Call, Declaration, Exchange, Number, Order, Pass, Play, Swap
from ..cards import NO_TRUMP, Card, Suit, Trump, cards_of, mask_of, sort_hand
from ..engine import DealState, Phase, lineup
from ..errors import IllegalActionError
from ..findings import CODES
from ..frozen import Frozen
from ..models import Deal, Game
from ..replay import GameReport, replay
from ..rules import Ruleset
from ..seats import Seat
from .bidding import BidReview, bid_json, review_bids
from .sampler import Layouts, UnsupportedError
from .single import (
    Settings,
    SingleDummy,
    discard_dummy,
    net_points,
    side_points,
    single_dummy,
)
from .solver import Position, Solver


@dataclass(frozen=True)
class PlayReview(Frozen):
    """One card played, judged against every card the seat could have played."""

    seat: Seat
    card: Card
    dd_after: int
    """The makers' total tricks under perfect play after this play, tricks already won
    included."""
    loss: int
    """Tricks this play cost the side of the player against its best card (0: a best
    card)."""
    best: tuple[Card, ...]
    """The best cards at this point (equivalent cards included), sorted as a hand."""
    values: dict[Card, int]
    """Every legal card at this point, with the makers' total tricks under perfect play if
    it is played."""
    sd: SingleDummy | None = None
    """The single-dummy values of the play, when asked for and the deal allows them."""
    fault: str | None = None
    """The finding of a renege this play is (code and message): the last play reviewed,
    its card not among :attr:`values`; ``None`` for a legal play."""


@dataclass(frozen=True)
class ExchangeReview(Frozen):
    """The dealer's discard, judged single dummy against each card of the six it held."""

    seat: Seat
    card: Card
    """The card discarded."""
    sd: SingleDummy
    """Its single-dummy values: each of the six as the discard (see :mod:`.single`)."""


@dataclass(frozen=True)
class ParEntry(Frozen):
    """One contract the deal's bidding could have reached, played perfectly."""

    trump: Trump
    maker: Seat
    alone: bool
    """Whether the maker goes alone (no lone defence is assumed)."""
    round: int | None
    """1: ordered up, 2: named in round 2; ``None``: named by the dealer on a Benny
    turned up, or a ghost-hand bidder's call (with the recorded bid)."""
    discard: Card | None
    """After an order up, the dealer's discard that is best for the dealer's side."""
    tricks: int
    """The makers' tricks under perfect play."""
    points: dict[str, int]
    """The deal's points with those tricks, by side (the ruleset's scoring)."""


@dataclass(frozen=True)
class DealReview(Frozen):
    """The double-dummy review of one deal played out."""

    game: int
    """The game's number in its file, from 1."""
    deal: int
    """The deal number."""
    trump: Trump
    maker: Seat
    makers: tuple[Seat, ...]
    """The maker's side (the maker alone in the games for one)."""
    alone: bool
    defender: Seat | None
    """The lone defender, if any."""
    contract: int | None
    """The winning trick bid (ghost), else ``None``."""
    seats: tuple[Seat, ...]
    """The seats that play, clockwise."""
    leader: Seat
    """The opening leader."""
    hands: dict[Seat, tuple[Card, ...]]
    """Each playing seat's cards at the opening lead."""
    dd: int
    """The makers' tricks under perfect play from the opening lead."""
    made: int
    """The makers' tricks as played."""
    plays: tuple[PlayReview, ...]
    """Every play, in order."""
    points_lost: dict[str, int]
    """By side: the points that side's mistakes cost it. Each play that loses a trick
    costs its side the points the side scores with the makers at the best card's value
    less those at the played card's value (the deal's scoring); ghost-hand defenders,
    who score their own tricks, are not counted."""
    par: tuple[ParEntry, ...]
    """The par table (see :class:`ParEntry`)."""
    sd_skipped: str | None = None
    """Why the plays have no single-dummy values though they were asked for (a merge, a
    swap), else ``None``."""
    stopped: str | None = None
    """The first finding of the play (code and message) where the review stops, in a deal
    whose play breaks a rule; ``None`` when every play is reviewed."""
    exchange: ExchangeReview | None = None
    """With single-dummy values, the dealer's discard (when the dealer took the upcard and
    plays)."""
    bids: tuple[BidReview, ...] = ()
    """With single-dummy values, every bid of the deal (:mod:`.bidding`)."""
    bids_skipped: str | None = None
    """Why the bids have no single-dummy values though they were asked for (ghost's trick
    bids), else ``None``."""


@dataclass(frozen=True)
class Skipped(Frozen):
    """A deal that is not reviewed, and why."""

    game: int
    deal: int
    reason: str
    bids: tuple[BidReview, ...] = ()
    """With single-dummy values, the bids of a deal thrown in whose hands are recorded
    (:mod:`.bidding`)."""


Review = DealReview | Skipped
"""What :func:`review_game` yields for each deal."""

_IN_PLAY = ("P", "R")
"""The finding codes of the play (docs/findings.md): the review stops at the first."""
_AFTER_PLAY = "C9"
"""The finding codes of the score, which come after the play (it is reviewed whole)."""


def review_game(game: Game, index: int = 1, *, par: bool = True,
                report: GameReport | None = None, single: Settings | None = None
                ) -> Iterator[Review]:
    """Reviews every deal of ``game`` (the ``index``-th game of its file), in order.

    :param par: also work out each deal's par table (the most costly part).
    :param single: also work out the single-dummy values of every play and of the
        dealer's discard (:mod:`.single`) with these settings.
    :param report: the game's replay with its deals as taken (``replay(game, trace=True)``),
        whose one pass the review rides; the game is replayed so when it is not given.
    """
    if report is None or any(r.trace is None for r in report.deals):
        report = replay(game, trace=True)
    rules = report.ruleset
    traces = {r.number: r.trace for r in report.deals}
    faulty: dict[int, set[str]] = {}
    in_play: set[int] = set()
    for finding in report.findings:
        if finding.deal is None or finding.code.startswith(_AFTER_PLAY):
            continue
        if finding.code.startswith(_IN_PLAY):
            in_play.add(finding.deal)
        else:
            faulty.setdefault(finding.deal, set()).add(finding.code)
    unknown = any(f.kind.stops == "game" for f in report.findings)
    for deal in game.deals:
        if unknown:
            yield Skipped(index, deal.number, "the variant is unknown")
            continue
        reason = _unreviewable(deal, rules, faulty.get(deal.number, set()))
        trace = traces.get(deal.number)
        if reason is None and (trace is None or trace.lead is None):
            reason = "not played out: no trick recorded"
        if reason is not None:
            bids: tuple[BidReview, ...] = ()
            if single is not None and trace is not None and reason.startswith("thrown in"):
                bids = review_bids(trace.dealt, trace.acts, single,
                                   f"{single.seed}/{index}/{deal.number}")[0]
            yield Skipped(index, deal.number, reason, bids)
            continue
        assert trace is not None and trace.lead is not None
        yield _review(index, deal, rules, par, trace.dealt, trace.lead, single,
                      deal.number in in_play, trace.acts)


def principal_line(review: DealReview, at: int, card: Card | None = None
                   ) -> list[tuple[Seat, Card]]:
    """The play from play ``at`` (an index of ``review.plays``) to the end under perfect
    play, with ``card`` played there instead of the card the record has (``None``: the
    best card). The list starts with the play at ``at``.

    :raises ValueError: when ``at`` is no play of the deal, or ``card`` may not be played
        there.
    """
    if not 0 <= at < len(review.plays):
        raise ValueError(f"deal {review.deal} has no play {at} (it has {len(review.plays)})")
    solver = Solver(review.trump, review.seats, review.makers)
    position = solver.position(review.hands, review.leader)
    for play in review.plays[:at]:
        position = solver.after(position, play.card.index)
    line: list[tuple[Seat, Card]] = []
    for _ in range(len(review.plays) - at):
        seat = solver.turn(position)
        values = solver.values(position)
        if card is not None and not line:
            if card not in values:
                legal = " ".join(str(c) for c in sort_hand(values))
                raise ValueError(f"{seat} may not play {card} there (legal: {legal})")
            chosen = card
        else:
            chosen = _best(values, seat in review.makers)[0]
        line.append((seat, chosen))
        position = solver.after(position, chosen.index)
    return line


def review_json(item: Review) -> dict[str, Any]:
    """The JSON object of a review (see docs/analysis.md and ``schema.json``)."""
    if isinstance(item, Skipped):
        return {"game": item.game, "deal": item.deal, "skipped": item.reason,
                **({"bids": [bid_json(b) for b in item.bids]} if item.bids else {})}
    return {
        "game": item.game,
        "deal": item.deal,
        "trump": str(item.trump),
        "maker": str(item.maker),
        "makers": [str(s) for s in item.makers],
        "alone": item.alone,
        "defender": str(item.defender) if item.defender else None,
        "contract": item.contract,
        "seats": [str(s) for s in item.seats],
        "leader": str(item.leader),
        "hands": {str(s): [str(c) for c in cards] for s, cards in item.hands.items()},
        "dd": item.dd,
        "made": item.made,
        "plays": [_play_json(p) for p in item.plays],
        "points_lost": dict(item.points_lost),
        "par": [{"trump": str(e.trump), "maker": str(e.maker), "alone": e.alone,
                 "round": e.round, "discard": str(e.discard) if e.discard else None,
                 "tricks": e.tricks, "points": dict(e.points)} for e in item.par],
        **({"sd_skipped": item.sd_skipped} if item.sd_skipped is not None else {}),
        **({"stopped": item.stopped} if item.stopped is not None else {}),
        **({"exchange": {"seat": str(item.exchange.seat), "card": str(item.exchange.card),
                         "sd": sd_json(item.exchange.sd)}} if item.exchange is not None else {}),
        **({"bids": [bid_json(b) for b in item.bids]} if item.bids else {}),
        **({"bids_skipped": item.bids_skipped} if item.bids_skipped is not None else {}),
    }


def sd_json(sd: SingleDummy) -> dict[str, Any]:
    """The JSON object of single-dummy values (``sd``)."""
    return {
        "exact": sd.exact, "layouts": sd.layouts, "samples": sd.samples,
        "values": {str(c): round(v, 4) for c, v in sd.values.items()},
        "points": {str(c): round(v, 4) for c, v in sd.points.items()},
        "best": [str(c) for c in sd.best], "loss": round(sd.loss, 4), "class": sd.grade,
        "se": None if sd.se is None else round(sd.se, 4),
        "net": {str(c): round(v, 4) for c, v in (sd.net or sd.points).items()}}


def _play_json(play: PlayReview) -> dict[str, Any]:
    """The JSON object of one play (with ``sd`` when it has single-dummy values)."""
    out: dict[str, Any] = {
        "seat": str(play.seat), "card": str(play.card), "dd_after": play.dd_after,
        "loss": play.loss, "best": [str(c) for c in play.best],
        "values": {str(c): v for c, v in play.values.items()}}
    if play.sd is not None:
        out["sd"] = sd_json(play.sd)
    if play.fault is not None:
        out["fault"] = play.fault
    return out


# ---------------------------------------------------------------- one deal


def _unreviewable(deal: Deal, rules: Ruleset, codes: set[str]) -> str | None:
    """Why ``deal`` cannot be reviewed, or ``None``."""
    if deal.sheet is not None and not deal.tricks:
        return "a score-sheet line: the cards are not recorded"
    if (deal.sheet is not None and deal.sheet.thrown) or (
            deal.bids and not any(isinstance(b, Order | Call) for b in deal.bids)):
        return "thrown in: no one made trump"
    if not deal.hands:
        return "play-only: the hands are not recorded"
    cards: list[Card | None] = [c for line in deal.hands for h in line.cards.values() for c in h]
    cards += [p.card for trick in deal.tricks for p in trick.plays]
    if deal.extra is not None:
        cards += deal.extra.cards
    if deal.up is not None:
        cards.append(deal.up.card)
    if None in cards:
        return "unknown cards: the record writes ?? for a card"
    held = {seat for line in deal.hands for seat in line.cards}
    missing = [str(seat) for seat in rules.seats if seat not in held]
    if missing:
        return f"unknown cards: the hand of {' '.join(missing)} is not recorded"
    traded = deal.merge is not None or any(isinstance(b, Swap) for b in deal.bids)
    if traded and deal.extra is None:
        return f"unknown cards: the {rules.extra_hand} hand is not recorded"
    if codes:
        return f"the replay has findings in this deal ({', '.join(sorted(codes))})"
    if len(deal.tricks) != rules.variant.tricks:
        return (f"not played out: {len(deal.tricks)} of {rules.variant.tricks} tricks "
                "recorded")
    return None


def _best(values: Mapping[Card, int], maximise: bool) -> tuple[Card, ...]:
    """The cards of the best value for the side to play, sorted as a hand."""
    best = max(values.values()) if maximise else min(values.values())
    return tuple(sort_hand(c for c, v in values.items() if v == best))


def _points(state: DealState, tricks: int) -> dict[str, int]:
    """The deal's points when the makers take ``tricks`` (a ghost-hand bidder: its own)."""
    if state.ruleset.variant.scoring:
        points = state.points(made=tricks)
    else:
        assert state.maker is not None
        points = state.points(taken={state.maker: tricks})
    return points or {}


def _review(index: int, deal: Deal, rules: Ruleset, with_par: bool, dealt: DealState,
            state: DealState, single: Settings | None = None, faulty: bool = False,
            acts: Sequence[Any] = ()) -> Review:
    """The review of ``deal``, a deal :func:`_unreviewable` lets through, from the replay's
    states of it as dealt and at the opening lead (``single``: with single-dummy values;
    ``faulty``: the play breaks a rule, and the review stops at its first fault)."""
    if state.phase is not Phase.DECLARING or state.trump is None or state.maker is None:
        return Skipped(index, deal.number, "no contract: trump or the maker is not known")
    seats, leader = lineup(rules, deal.dealer, state.maker, state.alone, state.defender)
    played: dict[Seat, list[Card]] = {seat: [] for seat in seats}
    if faulty:  # the hands as the record deals them (the tricks may not hold them)
        played = {seat: cards_of(state.hands[seat].known) for seat in seats}
    else:
        for trick in deal.tricks:
            for play in trick.plays:
                assert play.card is not None  # (see _unreviewable)
                played.setdefault(play.seat, []).append(play.card)
    if set(played) != set(seats) or any(len(cards) != rules.variant.tricks
                                        for cards in played.values()):
        return Skipped(index, deal.number, "the tricks do not hold each seat's whole hand")
    trump, makers = state.trump, state.makers
    solver = Solver(trump, seats, makers)
    position = solver.position(played, leader)
    dd = value = solver.value(position)
    won = 0
    plays: list[PlayReview] = []
    lost: dict[str, int] = {}
    walk = _Walk(index, deal.number, state, solver, played, single)
    exchange = walk.exchange(acts, leader)
    bids: tuple[BidReview, ...] = ()
    bids_skipped: str | None = None
    if single is not None:
        bids, bids_skipped = review_bids(dealt, acts, single, walk.where)
    stopped: str | None = None
    for play in [p for trick in deal.tricks for p in trick.plays]:
        card = play.card
        assert card is not None
        fault = walk.fault(play.seat, card) if faulty else None
        if fault is not None:
            stopped = f"{fault.code} {fault.message}"
            if (CODES[fault.code].renege and play.seat == solver.turn(position)
                    and card.bit & position[0][seats.index(play.seat)]):
                plays.append(_renege(solver, position, won, value, play.seat, card, stopped,
                                     walk.step(play.seat, card, position, won, renege=True)))
                won += bool(solver.trick_won(position, card.index))
            break
        sd = walk.step(play.seat, card, position, won)
        found = solver.values(position, value - won)
        if card not in found or play.seat != solver.turn(position):
            # (the replay found no fault, so this is never expected)
            return Skipped(index, deal.number, f"{play.seat} plays {card} where the review "
                                               "cannot follow the play")
        values = {c: won + found[c] for c in sort_hand(found)}
        maker = play.seat in makers
        best = _best(values, maker)
        value = values[card]
        loss = abs(values[best[0]] - value)
        plays.append(PlayReview(play.seat, card, value, loss, best, values, sd))
        if loss and (rules.variant.scoring or maker):
            side = rules.side(play.seat)
            cost = (_points(state, values[best[0]]).get(side, 0)
                    - _points(state, value).get(side, 0))
            lost[side] = lost.get(side, 0) + cost
        won += bool(solver.trick_won(position, card.index))
        position = solver.after(position, card.index)
    hands = {seat: tuple(sort_hand(played[seat])) for seat in seats}
    par = _par(deal, dealt) if with_par else ()
    if walk.skipped is not None:
        plays = [replace(p, sd=None) for p in plays]
        exchange = None
    if faulty and stopped is None:
        codes = "the replay has findings in the play that the review cannot place"
        return Skipped(index, deal.number, codes)
    return DealReview(index, deal.number, trump, state.maker, makers, state.alone is not None,
                      state.defender, state.contract, seats, leader, hands, dd, won,
                      tuple(plays), lost, par, walk.skipped, stopped, exchange, bids,
                      bids_skipped)


def _renege(solver: Solver, position: Position, won: int, value: int, seat: Seat, card: Card,
            fault: str, sd: SingleDummy | None) -> PlayReview:
    """A renege graded where it happened: the legal cards' values, the card played's (its
    trick and perfect play after it), and the tricks it moved against the best legal card
    (none when it gains: the penalty is its cost, which its single-dummy grade counts)."""
    found = solver.values(position, value - won)
    values = {c: won + found[c] for c in sort_hand(found)}
    maker = seat in solver.seats and solver.maker[solver.seats.index(seat)]
    best = _best(values, maker)
    after = won + int(bool(solver.trick_won(position, card.index))) + solver.value(
        solver.after(position, card.index))
    loss = max(values[best[0]] - after if maker else after - values[best[0]], 0)
    return PlayReview(seat, card, after, loss, best, values, sd, fault)


class _Walk:
    """The play of a deal stepped through the engine (what each seat has seen), with the
    single-dummy values of each play when asked for."""

    def __init__(self, game: int, deal: int, state: DealState, solver: Solver,
                 hands: Mapping[Seat, Sequence[Card]], single: Settings | None) -> None:
        self.state = state.copy()
        self.solver = solver
        self.single = single
        self.where = f"{single.seed if single else 0}/{game}/{deal}"
        self.left = {seat: mask_of(cards) for seat, cards in hands.items()}
        tricks = range(state.variant.tricks + 1) if single is not None else range(0)
        self.worth = {seat: [net_points(state, seat, t) for t in tricks]
                      for seat in solver.seats}
        self.own = {seat: [side_points(state, seat, t) for t in tricks]
                    for seat in solver.seats}
        penalty = state.ruleset.renege_penalty(state.lone_hand)
        self.penalty = -float(abs(penalty))
        """What a renege scores for the offender's side, less the most another side
        scores (the penalty, P3)."""
        self.count = 0
        self.skipped: str | None = None
        """Why the deal has no single-dummy values, once a play could not have them."""

    def exchange(self, acts: Sequence[Any], leader: Seat) -> ExchangeReview | None:
        """The dealer's discard judged single dummy (``None``: not asked for, no discard
        recorded, or the dealer does not play), from the state at the opening lead."""
        taken = next((a for a in acts if isinstance(a, Exchange) and a.act == "takes"), None)
        if self.single is None or taken is None or taken.discard is None:
            return None
        seat, discard = taken.seat, taken.discard
        if (seat not in self.solver.seats or self.state.place_of(discard) != "discard"
                or seat != self.state.dealer):
            return None
        try:
            layouts = Layouts(self.state, seat)
        except UnsupportedError as exc:
            self.skipped = str(exc)
            return None
        rng = random.Random(f"{self.where}/exchange")
        sd = discard_dummy(self.solver, layouts, leader, discard, self.worth[seat],
                           self.single, rng, self.own[seat])
        return ExchangeReview(seat, discard, sd)

    def fault(self, seat: Seat, card: Card) -> IllegalActionError | None:
        """The engine's fault of ``seat`` playing ``card`` now, if any."""
        return self.state.check_play(Play(seat=seat, card=card))

    def step(self, seat: Seat, card: Card, position: Position, won: int, *,
             renege: bool = False) -> SingleDummy | None:
        """The single-dummy values of ``seat`` playing ``card`` at ``position`` (``None``
        when not asked for, or not to be had), then the play made; ``renege``: the card
        is a renege, which scores the penalty."""
        found: SingleDummy | None = None
        if self.single is not None and self.skipped is None:
            try:
                layouts = Layouts(self.state, seat)
                if layouts.own != self.left[seat]:
                    raise UnsupportedError(f"the record does not tell {seat}'s hand as it played")
                rng = random.Random(f"{self.where}/{self.count}")
                found = single_dummy(self.solver, layouts, position, won, card,
                                     self.worth[seat], self.single, rng,
                                     self.penalty if renege else None, self.own[seat])
            except UnsupportedError as exc:
                self.skipped = str(exc)
        self.count += 1
        self.left[seat] &= ~card.bit
        self.state.apply_play(Play(seat=seat, card=card))
        return found


# ---------------------------------------------------------------- par


@dataclass(frozen=True)
class _Contract:
    """A contract's opening position in the solver that plays it. Sides that play the same
    seats from the same lead play one game (the makers' tricks are the tricks the other
    side does not take), so a solver may count the other side's tricks (``flipped``)."""

    solver: Solver
    position: Position
    flipped: bool

    def value(self) -> int:
        """The makers' tricks under perfect play."""
        value = self.solver.value(self.position)
        return self._tricks - value if self.flipped else value

    def at_least(self, target: int) -> bool:
        """Whether the makers take at least ``target`` tricks under perfect play."""
        if self.flipped:
            return not self.solver.at_least(self.position, self._tricks - target + 1)
        return self.solver.at_least(self.position, target)

    @property
    def _tricks(self) -> int:
        return self.position[0][self.position[1]].bit_count()


class _Solves:
    """The solvers of one deal's par table, one a trump, line-up and side (the same game is
    reached by more than one bidding, and shares its table)."""

    def __init__(self) -> None:
        self.solvers: dict[tuple[Trump, tuple[Seat, ...], tuple[Seat, ...]], Solver] = {}

    def start(self, state: DealState) -> _Contract | None:
        """The contract of ``state`` (trump fixed, declarations made) at its opening lead,
        or ``None`` when that lead would not be legal (a declaration the rules require is
        missing)."""
        assert state.trump is not None
        seats, leader = lineup(state.ruleset, state.dealer, state.maker, state.alone,
                               state.defender)
        hands = {seat: cards_of(state.hands[seat].known) for seat in seats}
        if state.check_play(Play(seat=leader, card=hands[leader][0])) is not None:
            return None
        flipped = seats[0] not in state.makers
        side = tuple(s for s in seats if (s in state.makers) is not flipped)
        key = (state.trump, seats, side)
        solver = self.solvers.get(key)
        if solver is None:
            solver = self.solvers[key] = Solver(state.trump, seats, side)
        return _Contract(solver, solver.position(hands, leader), flipped)


def _biddings(state: DealState, deal: Deal) -> Iterator[tuple[int | None, list[Any]]]:
    """Each bidding that could fix a contract in ``deal`` (as a list of bids), with its
    round (see :attr:`ParEntry.round`); the engine refuses those the rules do not allow."""
    if state.variant.bidding == "tricks":
        asked = [b for b in deal.bids if not isinstance(b, Call)]
        high = next((b for b in reversed(asked) if isinstance(b, Number)), None)
        if high is None:
            return
        for suit in (*Suit, NO_TRUMP):
            yield None, [*asked, Call(act="call", seat=high.seat, suit=suit)]
        return
    bidders = state.bidders
    up = state.upcard
    if up is None:
        return
    if state.round == 0:  # the Benny turned up: the dealer names trump
        for suit in Suit:
            yield None, [Call(act="call", seat=state.dealer, suit=suit)]
        return
    passes = [Pass(act="pass", seat=s) for s in bidders]
    for k, seat in enumerate(bidders):
        yield 1, [*passes[:k], Order(act="order", seat=seat)]
    for suit in (*Suit, NO_TRUMP):
        for k, seat in enumerate(bidders):
            yield 2, [*passes, *passes[:k], Call(act="call", seat=seat, suit=suit)]


def _par(deal: Deal, start: DealState) -> tuple[ParEntry, ...]:
    """The par table of ``deal`` (see :class:`ParEntry`), from its state as dealt."""
    rules = start.ruleset
    solves = _Solves()
    entries: list[ParEntry] = []
    for round_, bids in _biddings(start, deal):
        state = start.copy()
        if not _bid(state, bids) or state.maker is None or state.trump is None:
            continue
        maker, dealer, trump = state.maker, state.dealer, state.trump
        discards: list[Card | None] = [None]
        if state.upcard is not None:
            six = [*cards_of(state.hands[dealer].known), state.upcard]
            legal = [c for c in six if state.check_exchange(_taking(state, c)) is None]
            if legal:
                # Of cards worth the same to the dealer, one discard is tried.
                live = mask_of(c for s in state.seats for c in state.hands[s].cards) | (
                    state.upcard.bit)
                groups = Solver(trump, state.seats, ()).equivalent(legal, cards_of(live))
                discards = [group[-1] for group in groups]
        declaration = Declaration(act="alone", seat=maker)
        for alone in (False, True):
            if alone and state.check_declare(declaration) is not None:
                continue
            found = _dealers_choice(solves, state, discards, declaration if alone else None)
            if found is None:
                continue
            value, discard, trial = found
            if dealer not in lineup(rules, dealer, maker, trial.alone, None)[0]:
                discard = None  # the dealer sits out: the discard does not matter
            entries.append(ParEntry(trump, maker, alone, round_, discard, value,
                                    _points(trial, value)))
    return tuple(entries)


def _taking(state: DealState, discard: Card) -> Exchange:
    """The dealer taking the upcard of ``state`` and discarding ``discard``."""
    return Exchange(seat=state.dealer, takes=True, upcard=state.upcard, discard=discard)


def _dealers_choice(solves: _Solves, state: DealState, discards: Sequence[Card | None],
                    declaration: Declaration | None
                    ) -> tuple[int, Card | None, DealState] | None:
    """The makers' tricks when the dealer makes the discard best for the dealer's side
    (``None`` in ``discards``: no exchange), after ``declaration``; with the discard and
    the state. ``None`` when the contract cannot be played so."""
    found: tuple[int, Card | None, DealState] | None = None
    maximise = state.dealer in state.makers
    for discard in discards:
        trial = state.copy()
        if discard is not None:
            trial.apply_exchange(_taking(state, discard))
        if declaration is not None:
            trial.apply_declare(declaration)
        contract = solves.start(trial)
        if contract is None:
            continue
        if found is not None:
            # Only a better discard matters: a bound first.
            better = found[0] + 1 if maximise else found[0]
            if contract.at_least(better) is not maximise:
                continue
        found = (contract.value(), discard, trial)
    return found


def _bid(state: DealState, bids: Sequence[Any]) -> bool:
    """Makes ``bids`` in ``state``; whether each was legal and they fixed trump."""
    for bid in bids:
        if state.check_bid(bid) is not None:
            return False
        state.apply_bid(bid)
    return state.phase is Phase.DECLARING
