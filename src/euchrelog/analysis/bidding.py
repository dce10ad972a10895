"""Single-dummy values of the bids: what each option of a seat at its bid (pass, order up,
call a suit, alone or not) is worth on average over the layouts of the cards it could not
see, the rest of the bidding made by the bidding model and the play valued double dummy
(docs/analysis.md, "The bids").

At a bid the seat has seen its own hand as dealt, the upcard and the bids before it; no
card has been played, so the layouts are every way to deal the other cards to the other
hands, the hand dealt to the empty side (cutthroat's dummy) and the undealt pile, all
weighed the same (nothing is inferred from the bids). They number in the millions, so
:data:`BID_SAMPLES` of them are drawn (``exact`` is always false). Every option is
valued on the same layouts, so the standard error of a loss is of paired differences.

In each layout, for each option: the deal is made again through the engine with the
layout's hands, the bids before are made as recorded, then the option; every later
decision before the lead (the later bids, the dealer's exchange, the lone hands and lone
defences) is the rule-based reference player's (:class:`~euchrelog.players.rules.
RuleBasedPlayer`, docs/players.md), but for the deciding seat's own lone hand, which the
option says; the contract reached is played double dummy by the review's
:class:`~.solver.Solver` from the opening lead, and scored by the engine
(:meth:`~euchrelog.engine.DealState.points`; a deal thrown in scores nothing).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import DISCARD_ID
from ..acts import Call, Declaration, Exchange, Merge, Order, Pass
from ..cards import NO_TRUMP, Card, cards_of, deck_mask
from ..engine import Action, DealState, Phase, lineup
from ..frozen import Frozen
from ..players.rules import RuleBasedPlayer
from ..players.turns import STAND, next_turn
from ..players.view import Decision
from ..rules import Ruleset
from ..seats import Seat
from .single import TIE, Settings, grade, net_points, side_points, standard_error
from .solver import Solver

BID_SHARE = 4
"""The bids draw :attr:`~.single.Settings.samples` divided by this many layouts (at least
:data:`BID_LEAST`): a bid's every option plays a whole deal out in every layout."""
BID_LEAST = 4
"""The fewest layouts a bid draws."""

DEFEND = "defend"
"""The option of a defender who defends alone."""
STAND_NAME = "stand"
"""The option of a defender who does not."""

_MODEL = RuleBasedPlayer()
"""The bidding model (it keeps nothing between decisions)."""


def bid_samples(settings: Settings) -> int:
    """The layouts a bid draws under ``settings``."""
    return max(settings.samples // BID_SHARE, min(BID_LEAST, settings.samples))


@dataclass(frozen=True)
class BidValues(Frozen):
    """The single-dummy values of one bid, its options by name (as the notation writes
    them: ``pass``, ``order``, ``order alone``, ``call H``, ``call H alone``, ``call NT``);
    the fields of :class:`~.single.SingleDummy`."""

    exact: bool
    """Always false: the layouts before the play are drawn."""
    layouts: int
    """The number of layouts."""
    samples: int
    """Layouts drawn."""
    values: dict[str, float | None]
    """Each option that makes trump, with the mean of its makers' tricks; ``None`` for a
    pass (the makers are not the same in every layout)."""
    points: dict[str, float]
    """Each option, with the mean points of the deciding side (:func:`~.single.
    side_points`)."""
    best: tuple[str, ...]
    """The options of the most :attr:`net` points."""
    loss: float
    """The best option's :attr:`net` points less the chosen one's."""
    grade: str
    """The class (``class`` in JSON), as a play's."""
    se: float
    """The standard error of :attr:`loss`."""
    net: dict[str, float]
    """Each option, with the mean of the deciding side's points less the most any side of
    the other camp scores (:func:`~.single.net_points`)."""


@dataclass(frozen=True)
class BidReview(Frozen):
    """One bid of the record, and its single-dummy values."""

    seat: Seat
    bid: str
    """The option chosen, as :attr:`BidValues.points` names it."""
    sd: BidValues | None
    """``None`` when the bid had one option (a stuck dealer with one suit to call), or the
    choice is none of the options the engine offers."""


@dataclass(frozen=True)
class _Option(Frozen):
    """One option of a bid: the bid, and whether the seat then goes alone."""

    name: str
    bid: Pass | Order | Call | Declaration | None
    """The act (``None``: the seat stands, making no lone defence)."""
    alone: bool | None
    """Whether the seat then goes alone (``None``: the model says, after a pass or a
    defence)."""


def bid_json(review: BidReview) -> dict[str, Any]:
    """The JSON object of one bid (an entry of a deal's ``bids``)."""
    out: dict[str, Any] = {"seat": str(review.seat), "bid": review.bid}
    sd = review.sd
    if sd is not None:
        out["sd"] = {
            "exact": sd.exact, "layouts": sd.layouts, "samples": sd.samples,
            "values": {k: None if v is None else round(v, 4) for k, v in sd.values.items()},
            "points": {k: round(v, 4) for k, v in sd.points.items()},
            "best": list(sd.best), "loss": round(sd.loss, 4), "class": sd.grade,
            "se": round(sd.se, 4), "net": {k: round(v, 4) for k, v in sd.net.items()}}
    return out


def review_bids(dealt: DealState, acts: Sequence[Action], settings: Settings, where: str
                ) -> tuple[tuple[BidReview, ...], str | None]:
    """The single-dummy values of every bid of a deal, from its state as dealt and its
    acts before the play as the replay took them (``where``: the name of its draws'
    streams, seed, game and deal); or why its bids are not reviewed."""
    rules = dealt.ruleset
    if rules.variant.bidding == "tricks":
        return (), ("ghost-hand trick bids are not reviewed (the model does not bid tricks "
                    "nor swap)")
    if any(dealt.hands[s].free for s in rules.seats) or dealt.upcard is None:
        return (), "the hands as dealt are not all recorded"
    alone = {a.seat for a in acts if isinstance(a, Declaration) and a.act == "alone"}
    solvers: dict[tuple[Any, ...], Solver] = {}
    out: list[BidReview] = []
    state = dealt.copy()
    samples = bid_samples(settings)
    for k, act in enumerate(acts):
        if state.check_act(act) is not None:
            break
        options: list[_Option] = []
        if isinstance(act, Pass | Order | Call) and state.phase is Phase.BIDDING:
            options = _options(state, act.seat)
            chosen = _name(act, act.seat in alone and not isinstance(act, Pass))
            if chosen not in {o.name for o in options}:
                chosen = _name(act, False)
        elif isinstance(act, Declaration) and act.act == "defend":
            options = [_Option(DEFEND, act, None), _Option(STAND_NAME, None, None)]
            chosen = DEFEND
        if options:
            sd: BidValues | None = None
            if len(options) > 1 and chosen in {o.name for o in options}:
                rng = random.Random(f"{where}/bid/{k}")
                sd = _value(dealt, acts[:k], act.seat, options, chosen, samples, rng,
                            solvers)
            out.append(BidReview(act.seat, chosen, sd))
        state.apply_act(act)
    return tuple(out), None


def _name(bid: Pass | Order | Call, alone: bool) -> str:
    """An option's name (see :class:`BidValues`)."""
    text = f"call {bid.suit}" if isinstance(bid, Call) else bid.act
    return f"{text} alone" if alone else text


def _options(state: DealState, seat: Seat) -> list[_Option]:
    """The options of ``seat`` bidding at ``state``: each legal bid, a bid that makes
    trump both alone and not where the rules allow each."""
    out: list[_Option] = []
    for act in state.legal_actions():
        if isinstance(act, Pass):
            out.append(_Option("pass", act, False))
            continue
        if not isinstance(act, Order | Call):
            continue
        for alone in (False, True):
            trial = state.copy()
            trial.apply_bid(act)
            if _lead(trial, seat, alone, None) is not None:
                out.append(_Option(_name(act, alone), act, alone))
    return out


def _lead(state: DealState, seat: Seat, alone: bool | None,
          choose: Callable[[Decision], int] | None, stood: set[Seat] | None = None
          ) -> DealState | None:
    """``state`` taken on to its opening lead (or thrown in): every decision by
    ``choose`` (the bidding model; ``None``: the first legal act, to see whether the
    option can be played), but ``seat``'s own lone hand, which is ``alone`` (``None``:
    the model's too); ``stood``: the seats that make no more act before the lead.
    ``None`` when the deal cannot go on so (a lone hand the rules require or refuse)."""
    stood = set(stood or ())
    declared = False
    while state.phase is Phase.BIDDING or state.phase is Phase.DECLARING:
        turn = next_turn(state, stood)
        if turn is None:
            return None
        numbers = turn.actions
        declaring = state.phase is Phase.DECLARING
        if declaring and all(n < DISCARD_ID for n in numbers):
            return None if alone and not declared else state  # the opening lead
        mine = alone is not None and declaring and turn.seat == seat and not declared
        lone = [n for n in numbers if n != STAND and _is_alone(state, n, seat)] if mine else []
        if lone or (mine and STAND in numbers):
            if alone:
                if not lone:
                    return None
                numbers = (lone[0],)
                declared = True
            else:
                numbers = tuple(n for n in numbers if n not in lone)
                if not numbers:
                    return None
        if len(numbers) == 1 or choose is None:
            number = numbers[0]
        else:
            number = choose(Decision(state, turn.seat, numbers))
        if number == STAND and declaring:
            stood.add(turn.seat)
            continue
        state.do_id(number)
    return state if state.phase is Phase.THROWN else None


def _redo(state: DealState, act: Action) -> None:
    """Makes again in a layout an act made before the decision: as recorded, but the
    dealer's discard and a merge, which the deciding seat did not see, are the model's
    (taking or declining as recorded)."""
    if isinstance(act, Exchange | Merge):
        turn = next_turn(state)
        if turn is not None:
            numbers = tuple(n for n in turn.actions if n != STAND
                            and _same_kind(state.action_of(n), act))
            if numbers:
                state.do_id(numbers[0] if len(numbers) == 1 else _MODEL.choose(
                    Decision(state, turn.seat, numbers)))
                return
    state.apply_act(act)


def _same_kind(made: Action, act: Action) -> bool:
    """Whether ``made`` is an act of the kind of ``act`` (an exchange taking or declining
    as it does, a merge)."""
    if isinstance(act, Exchange):
        return isinstance(made, Exchange) and made.act == act.act
    return type(made) is type(act)


def _is_alone(state: DealState, number: int, seat: Seat) -> bool:
    """Whether the act of ``number`` is ``seat`` going alone."""
    act = state.action_of(number)
    return isinstance(act, Declaration) and act.act == "alone" and act.seat == seat


def _value(dealt: DealState, before: Sequence[Action], seat: Seat,
           options: list[_Option], chosen: str, samples: int, rng: random.Random,
           solvers: dict[tuple[Any, ...], Solver]) -> BidValues:
    """The values of ``options`` of ``seat`` after the bids ``before``, over ``samples``
    layouts drawn with ``rng``."""
    rules = dealt.ruleset
    count, draws = _layouts(dealt, seat, samples, rng)
    points: dict[str, list[float]] = {o.name: [] for o in options}
    nets: dict[str, list[float]] = {o.name: [] for o in options}
    tricks: dict[str, list[float]] = {o.name: [] for o in options}
    for hands, extra, pile in draws:
        for option in options:
            state = DealState(rules, dealt.dealer, hands=hands, upcard=dealt.upcard,
                              kitty=pile, extra=extra or None)
            for act in before:
                _redo(state, act)
            if option.bid is not None:
                state.apply_act(option.bid)
            stood = set() if option.bid is not None else {seat}
            end = _lead(state, seat, option.alone, _MODEL.choose, stood)
            made, mean, net = _score(end, seat, solvers)
            points[option.name].append(mean)
            nets[option.name].append(net)
            tricks[option.name].append(made)
    means = {name: sum(v) / len(v) for name, v in nets.items()}
    top = max(means.values())
    best = tuple(name for name in means if means[name] >= top - TIE)
    loss = max(top - means[chosen], 0.0)
    se = standard_error([a - b for a, b in zip(nets[best[0]], nets[chosen], strict=True)])
    values: dict[str, float | None] = {
        o.name: sum(tricks[o.name]) / len(draws) if isinstance(o.bid, Order | Call) else None
        for o in options}
    own = {name: sum(v) / len(v) for name, v in points.items()}
    return BidValues(False, count, len(draws), values, own, best, loss,
                     grade(loss, se, chosen in best), se, means)


def _score(state: DealState | None, seat: Seat, solvers: dict[tuple[Any, ...], Solver]
           ) -> tuple[float, float, float]:
    """The makers' tricks under perfect play from the opening lead of ``state`` and the
    points of ``seat``'s side with them, its own and net (:func:`~.single.side_points`,
    :func:`~.single.net_points`); a deal thrown in (or not to be played on) is worth
    nothing."""
    if state is None or state.phase is Phase.THROWN or state.trump is None:
        return 0.0, 0.0, 0.0
    assert state.maker is not None
    seats, leader = lineup(state.ruleset, state.dealer, state.maker, state.alone,
                           state.defender)
    makers = tuple(s for s in seats if s in state.makers)
    key = (state.trump, seats, makers)  # (one table for either maker of a side)
    solver = solvers.get(key)
    if solver is None:
        solver = solvers[key] = Solver(state.trump, seats, makers)
    hands = tuple(state.hands[s].known for s in seats)
    if state.trump is NO_TRUMP and any(h & _joker(state) for h in hands):
        return 0.0, 0.0, 0.0  # (no trump is not played with the Benny: the engine refuses it)
    tricks = solver.value((hands, seats.index(leader), ()))
    return float(tricks), side_points(state, seat, tricks), net_points(state, seat, tricks)


def _joker(state: DealState) -> int:
    """The Benny's bit, in a deck that has it (else 0)."""
    return sum(c.bit for c in cards_of(deck_mask(state.ruleset.options.deck))
               if c.suit is None)


def _layouts(dealt: DealState, seat: Seat, samples: int, rng: random.Random
             ) -> tuple[int, list[tuple[dict[Seat, list[Card]], list[Card], list[Card]]]]:
    """The number of layouts of the cards ``seat`` cannot see at its bid, and ``samples``
    of them drawn uniformly with ``rng``: each the hands by seat (its own included), the
    hand dealt to the empty side and the undealt pile."""
    rules: Ruleset = dealt.ruleset
    own = dealt.hands[seat].known
    up = dealt.upcard
    assert up is not None
    hidden = cards_of(deck_mask(rules.options.deck) & ~own & ~up.bit)
    size = rules.variant.hand_size
    others = [s for s in rules.seats if s != seat]
    sizes = [size] * len(others) + [rules.extra_size]
    pile = len(hidden) - sum(sizes)
    count = math.factorial(len(hidden))
    for part in (*sizes, pile):
        count //= math.factorial(part)
    out = []
    mine = cards_of(own)
    for _ in range(samples):
        order = list(hidden)
        rng.shuffle(order)
        hands: dict[Seat, list[Card]] = {seat: mine}
        at = 0
        for other in others:
            hands[other] = order[at:at + size]
            at += size
        extra = order[at:at + rules.extra_size]
        at += rules.extra_size
        out.append((hands, extra, order[at:]))
    return count, out

