"""The double-dummy and single-dummy layers of the viewer: the values of
:mod:`euchrelog.analysis`, added to the frames of a game as data.

For each deal the analysis reviews, the frame where a seat is about to play gets ``dd``:
the makers' tricks under perfect play after each legal card (``values``), the best cards,
and, for every legal card when there is a choice, the play that follows under perfect
play (``lines``: the trick under way and each later one, with its winner), for the
page's "try another card". The frame of the
play itself gets ``ddPlayed``: the card's cost in tricks and the makers' tricks after it.
The deal's entry gets the par table (``dd.par``) and its contract, for the page's par grid.
A deal the analysis skips says why (``dd.skipped`` of its entry in the list of deals).

Every decision the review judges (each play, and with single-dummy values each bid and the dealer's
discard) also gets ``decision``, on the frame before its act, in one shape for every kind
of decision (:func:`decision_json`): its options, each with the deciding side's points
single dummy (``sd``, when the review has them) and double dummy (``dd``, when it has
them), the option chosen, its loss and class, and the points expected after it. The page
draws the values on the cards, the evaluation graph and the mistakes from it alone.
The layer is added deal by deal, as the page is written (:func:`add_review`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis import DealReview, PlayReview, Review, SingleDummy, principal_line
from ..analysis.bidding import DEFEND, BidReview, BidValues
from ..analysis.review import ExchangeReview, ParEntry
from ..analysis.single import CLASSES, grade, net_points
from ..cards import Card, sort_hand, trick_winner
from ..engine import DealState
from ..seats import Seat
from .frames import Json, card_text

MISTAKES = CLASSES[2:]
"""The classes the page's mistake keys stop at: inaccuracy, mistake and blunder."""


def add_review(entry: Json, frames: list[Json], review: Review,
               lead: DealState | None = None) -> None:
    """Adds the values of one deal's ``review`` to its entry in the page's list of deals
    and its ``frames`` (numbered from the deal's first, as ``entry`` numbers them; see
    :class:`~euchrelog.viewer.frames.GameView`); ``lead``: the deal's state at the opening
    lead, which scores the makers' tricks for the decisions' points (none: no decision)."""
    if not isinstance(review, DealReview):
        entry["dd"] = {"skipped": review.reason}
        return
    plays = [k for k in range(entry["frame"], entry["score"]) if frames[k]["kind"] == "play"]
    short = review.stopped is not None and len(review.plays) <= len(plays)
    if len(plays) != len(review.plays) and not short:
        entry["dd"] = {"skipped": "the tricks as written do not match the review"}
        return
    entry["dd"] = {"dd": review.dd, "made": review.made,
                   "makers": [s.value for s in review.makers],
                   "lost": dict(review.points_lost),
                   "contract": {"trump": str(review.trump), "maker": review.maker.value,
                                "alone": review.alone},
                   "par": [par_json(e) for e in review.par]}
    if review.stopped is not None:
        entry["dd"]["stopped"] = review.stopped
    if review.sd_skipped is not None:
        entry["dd"]["sdSkipped"] = review.sd_skipped
    worth = _worth(lead, review.seats)
    for p, (k, play) in enumerate(zip(plays, review.plays, strict=False)):
        frames[k - 1]["dd"] = _choice(review, p, play)
        frames[k]["ddPlayed"] = {"seat": play.seat.value, "card": card_text(play.card),
                                 "loss": play.loss, "after": play.dd_after}
        if worth is not None:
            frames[k - 1]["decision"] = play_decision(play, lead_side(lead, play.seat),
                                                      worth[play.seat])
    exchange = review.exchange
    if exchange is not None and lead is not None:
        at = next((k for k in range(entry["frame"] + 1, entry["score"])
                   if frames[k]["kind"] == "exchange"
                   and frames[k]["text"].startswith(exchange.seat.value + " takes")), None)
        if at is not None:
            frames[at - 1]["decision"] = discard_decision(exchange,
                                                          lead_side(lead, exchange.seat))
    if lead is not None:
        _add_bids(entry, frames, review.bids, lead)


def _add_bids(entry: Json, frames: list[Json], bids: Sequence[BidReview],
              lead: DealState) -> None:
    """Adds the decision of each bid the review values to the frame before the bid's (a
    lone defence's: before its declaration), the reviews of the bids in the order of the
    deal's bids (up to a first fault), those of the lone defences in theirs."""
    span = range(entry["frame"], entry["score"])
    made = [k for k in span if frames[k]["kind"] == "bid"]
    defences = [k for k in span if frames[k]["kind"] == "decl"
                and frames[k]["text"].endswith("defends alone")]
    for frame_numbers, reviews in (
            (made, [b for b in bids if b.bid != DEFEND]),
            (defences, [b for b in bids if b.bid == DEFEND])):
        for k, bid in zip(frame_numbers, reviews, strict=False):
            if bid.sd is not None:
                frames[k - 1]["decision"] = bid_decision(bid, lead_side(lead, bid.seat))


def lead_side(lead: DealState | None, seat: Seat) -> str:
    """The side of ``seat`` in the deal (its ruleset's name for it)."""
    assert lead is not None
    return lead.ruleset.side(seat)


def _worth(lead: DealState | None, seats: Sequence[Seat]) -> dict[Seat, list[float]] | None:
    """For each seat that plays, its side's points (less the most the other camp scores;
    :func:`~euchrelog.analysis.single.net_points`) by the makers' total tricks."""
    if lead is None:
        return None
    tricks = range(lead.variant.tricks + 1)
    return {seat: [net_points(lead, seat, t) for t in tricks] for seat in seats}


def par_json(entry: ParEntry) -> Json:
    """One contract of the par table, as the page's par grid reads it."""
    return {"trump": str(entry.trump), "maker": entry.maker.value, "alone": entry.alone,
            "tricks": entry.tricks, "points": dict(entry.points)}


def _round(value: float) -> float:
    return round(value, 4)


def _net(sd: SingleDummy) -> dict[Card, float]:
    """The single-dummy points the page shows: the net ones, as the double-dummy points
    beside them (:func:`~euchrelog.analysis.single.net_points`)."""
    return sd.net or sd.points


def decision_json(kind: str, seat: Seat, side: str, chosen: str, options: list[Json],
                  sd: SingleDummy | BidValues | None, dd_loss: float | None, dd_after: float | None,
                  dd_best: bool = False) -> Json:
    """One decision as the page reads it, whatever its kind (``play``, ``discard``, a
    bid): its ``options``, each ``{"option", "sd", "dd"}`` with the deciding side's
    points single and double dummy (``None``: not known), the option ``chosen``, and how
    it is judged (``by``: ``sd`` where the single-dummy values are had, else ``dd``): its
    ``loss`` in points, its ``class`` and the points expected ``after`` it; ``sdInfo``:
    the layouts valued, and the standard error of the loss when sampled. Judged double
    dummy (``dd_loss``, ``dd_after``: points; ``dd_best``: the option is among the best),
    the class is the single-dummy thresholds' on the loss in points
    (:func:`~euchrelog.analysis.single.grade`)."""
    found: Json = {"kind": kind, "seat": seat.value, "side": side, "chosen": chosen,
                   "options": options}
    if sd is not None:
        top = max((sd.net or sd.points).values())
        found.update(by="sd", loss=_round(sd.loss), grade=sd.grade,
                     after=_round(top - sd.loss),
                     sdBest=[c if isinstance(c, str) else card_text(c) for c in sd.best],
                     sdInfo={"exact": sd.exact, "layouts": sd.layouts, "samples": sd.samples,
                             "se": None if sd.se is None else _round(sd.se)})
    elif dd_loss is not None and dd_after is not None:
        found.update(by="dd", loss=_round(dd_loss), after=_round(dd_after),
                     grade=grade(dd_loss, None, dd_best))
    else:
        found.update(by=None, loss=None, after=None, grade=None)
    found["class"] = found.pop("grade")
    return found


def play_decision(play: PlayReview, side: str, worth: Sequence[float]) -> Json:
    """The decision of one play: each legal card's points for the seat's side, single
    dummy (when the play has its values) and double dummy (the makers' tricks under
    perfect play, scored by ``worth``: the side's points by the makers' tricks); the best
    cards double dummy are the review's (of the most tricks for the seat's side)."""
    sd = play.sd
    best_cards = [card_text(c) for c in play.best]
    options = [{"option": card_text(c), "dd": worth[v],
                "sd": _round(_net(sd)[c]) if sd is not None and c in sd.points else None}
               for c, v in play.values.items()]
    best = max(worth[v] for v in play.values.values())
    after = worth[play.dd_after]
    found = decision_json("play", play.seat, side, card_text(play.card), options, sd,
                          max(best - after, 0.0), after,
                          play.fault is None and card_text(play.card) in best_cards)
    found["ddBest"] = best_cards
    if play.fault is not None:
        found["fault"] = play.fault
    return found


def discard_decision(exchange: ExchangeReview, side: str) -> Json:
    """The decision of the dealer's discard: each of the six cards it held as the discard,
    single dummy (the review has no double-dummy value of a discard)."""
    sd = exchange.sd
    options = [{"option": card_text(c), "sd": _round(_net(sd)[c]), "dd": None}
               for c in sort_hand(sd.points)]
    return decision_json("discard", exchange.seat, side, card_text(exchange.card), options,
                         sd, None, None)


def bid_decision(bid: BidReview, side: str) -> Json:
    """The decision of one bid: each option the bidder had (``pass``, ``order``, ``call H
    alone``, ...), single dummy (the review has no double-dummy value of a bid)."""
    sd = bid.sd
    assert sd is not None
    options = [{"option": name, "sd": _round(points), "dd": None}
               for name, points in sd.net.items()]
    return decision_json("bid", bid.seat, side, bid.bid, options, sd, None, None)


def _choice(review: DealReview, p: int, play: PlayReview) -> Json:
    """What the seat to play at play ``p`` could do: each legal card's value, the best
    cards, and the perfect-play line after each card when there is a choice."""
    cards = sort_hand(play.values)
    lines = {}
    if len(cards) > 1:
        for card in cards:
            lines[card_text(card)] = _tricks(review, p, principal_line(review, p, card))
    return {"seat": play.seat.value, "values": [[card_text(c), play.values[c]] for c in cards],
            "best": [card_text(c) for c in play.best], "value": play.values[play.best[0]],
            "lines": lines}


def _tricks(review: DealReview, p: int, line: list[tuple[Seat, Card]]) -> list[Json]:
    """The rest of the deal after play ``p`` as ``line`` has it, trick by trick: the trick
    under way (with the cards played in it before ``p``), then each later one, each with
    its winner (:func:`~euchrelog.cards.trick_winner`)."""
    size = len(review.seats)
    start = p - p % size
    plays = [(r.seat, r.card) for r in review.plays[start:p]] + line
    tricks = []
    for k in range(0, len(plays), size):
        trick = plays[k:k + size]
        winner = (trick[trick_winner([c for _, c in trick], review.trump)][0].value
                  if len(trick) == size else None)
        tricks.append({"plays": [[s.value, card_text(c)] for s, c in trick],
                       "winner": winner})
    return tricks

