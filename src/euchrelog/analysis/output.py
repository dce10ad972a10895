"""How reviews are shown: annotated tricks as text, and comments written back into a
record (``analyze --annotate``).

A play that loses tricks reads ``W: 9H loses 1 trick; AH keeps 3``: West's nine of hearts
lets the makers' total under perfect play move by one trick against West's side, and the
ace of hearts would have kept it at 3. The comments written into a record all begin with
``dd:``, so that a record annotated again gets its old review replaced, not doubled.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..models import Deal, Game, Trick
from .bidding import BidReview
from .review import DealReview, ExchangeReview, ParEntry, PlayReview, Review, Skipped

PREFIX = "dd:"
"""What every comment of a review begins with."""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def play_text(play: PlayReview) -> str:
    """A play that loses tricks, in words: ``W: 9H loses 1 trick; AH keeps 3`` (a renege:
    ``E: QS reneges (R801 ...); AC keeps 4``)."""
    best = " ".join(str(c) for c in play.best)
    keeps = "keeps" if len(play.best) == 1 else "keep"
    what = (f"reneges ({play.fault})" if play.fault is not None
            else f"loses {_plural(play.loss, 'trick')}")
    return f"{play.seat}: {play.card} {what}; {best} {keeps} {play.values[play.best[0]]}"


def sd_text(play: PlayReview | ExchangeReview) -> str | None:
    """A play (or the dealer's discard) single dummy graded an inaccuracy or worse, in
    words: ``sd E: JH mistake, 0.52 points on average below TD (1.52)`` (``sd E: discards
    9D ...``); ``None`` for a better one."""
    sd = play.sd
    if sd is None or sd.grade in ("best", "good"):
        return None
    best = " ".join(str(c) for c in sd.best)
    error = f" ± {sd.se:.2f}" if sd.se else ""
    verb = "discards " if isinstance(play, ExchangeReview) else ""
    net = sd.net or sd.points
    return (f"sd {play.seat}: {verb}{play.card} {sd.grade}, {sd.loss:.2f}{error} points on "
            f"average below {best} ({net[sd.best[0]]:.2f})")


def bid_text(bid: BidReview) -> str | None:
    """A bid single dummy graded an inaccuracy or worse, in words: ``sd N: bids order
    blunder, 1.00 ± 0.22 points on average below pass (1.44)`` (the net points of the best
    option in brackets); ``None`` for a better one."""
    sd = bid.sd
    if sd is None or sd.grade in ("best", "good"):
        return None
    best = ", ".join(sd.best)
    return (f"sd {bid.seat}: bids {bid.bid} {sd.grade}, {sd.loss:.2f} ± {sd.se:.2f} points "
            f"on average below {best} ({sd.net[sd.best[0]]:.2f})")


def summary(review: DealReview) -> str:
    """One line on the deal: the contract, the double-dummy result, what was made and the
    points the mistakes cost."""
    alone = " alone" if review.alone else ""
    defend = f", {review.defender} defends alone" if review.defender else ""
    bid = f" bid {review.contract}" if review.contract is not None else ""
    makers = "".join(str(s) for s in review.makers)
    text = (f"trump {review.trump} by {review.maker}{alone}{bid}{defend}: double dummy "
            f"{review.dd} for {makers}, made {review.made}")
    if review.stopped is not None:
        text += f" when the review stops at {review.stopped}"
    lost = [f"{side} lost {_plural(n, 'point')}" for side, n in review.points_lost.items() if n]
    return text + ("; " + ", ".join(lost) if lost else "")


def par_lines(par: Sequence[ParEntry]) -> list[str]:
    """The par table, one line a trump: each maker's tricks and points."""
    out: list[str] = []
    trumps = list(dict.fromkeys(e.trump for e in par))
    for trump in trumps:
        parts = []
        for e in (e for e in par if e.trump == trump):
            alone = " alone" if e.alone else ""
            points = " ".join(f"{side} {n}" for side, n in e.points.items()) or "nothing"
            parts.append(f"{e.maker}{alone} {e.tricks} ({points})")
        out.append(f"par {trump}: " + ", ".join(parts))
    return out


def trick_plays(review: DealReview) -> list[list[PlayReview]]:
    """The plays of the review, trick by trick."""
    size = len(review.seats)
    return [list(review.plays[k:k + size]) for k in range(0, len(review.plays), size)]


def review_text(item: Review, where: str) -> list[str]:
    """The text of one review: a heading (``where`` names the file and game), each trick
    with the makers' total after every play, each play that loses tricks, and the par
    table."""
    bids = [f"  {line}" for line in map(bid_text, item.bids) if line is not None]
    if isinstance(item, Skipped):
        return [f"{where} deal {item.deal}: not reviewed: {item.reason}", *bids]
    out = [f"{where} deal {item.deal}: {summary(item)}", *bids]
    discard = sd_text(item.exchange) if item.exchange is not None else None
    if discard is not None:
        out.append(f"  {discard}")
    for number, plays in enumerate(trick_plays(item), 1):
        out.append(f"  {number}. " + "  ".join(f"{p.seat}: {p.card} {p.dd_after}"
                                               for p in plays))
        out.extend(f"     {play_text(p)}" for p in plays if p.loss or p.fault)
        out.extend(f"     {line}" for line in map(sd_text, plays) if line is not None)
    out.extend(f"  {line}" for line in par_lines(item.par))
    return out


def _ours(comment: str) -> bool:
    return comment.startswith(PREFIX)


def _trick(trick: Trick, plays: Iterable[PlayReview]) -> Trick:
    kept = tuple(c for c in trick.before if not _ours(c))
    plays = list(plays)
    notes = tuple(f"{PREFIX} {play_text(p)}" for p in plays if p.loss or p.fault)
    notes += tuple(f"{PREFIX} {line}" for line in map(sd_text, plays) if line is not None)
    return trick.model_copy(update={"before": kept + notes})


def annotate_deal(deal: Deal, item: Review | None) -> Deal:
    """``deal`` with the comments of its review (replacing those of an earlier review):
    above the deal, the summary and the par table; above a trick, each play of it that
    loses tricks."""
    kept = tuple(c for c in deal.before if not _ours(c))
    tricks = tuple(_trick(t, ()) for t in deal.tricks)
    if item is None:
        return deal.model_copy(update={"before": kept, "tricks": tricks})
    notes: tuple[str, ...]
    bids = tuple(f"{PREFIX} {line}" for line in map(bid_text, item.bids) if line is not None)
    if isinstance(item, Skipped):
        notes = (f"{PREFIX} not reviewed: {item.reason}", *bids)
        return deal.model_copy(update={"before": kept + notes, "tricks": tricks})
    notes = (f"{PREFIX} {summary(item)}", *(f"{PREFIX} {line}" for line in par_lines(item.par)),
             *bids)
    discard = sd_text(item.exchange) if item.exchange is not None else None
    if discard is not None:
        notes += (f"{PREFIX} {discard}",)
    by_trick = trick_plays(item)
    tricks = tuple(_trick(t, by_trick[k] if k < len(by_trick) else ())
                   for k, t in enumerate(deal.tricks))
    return deal.model_copy(update={"before": kept + notes, "tricks": tricks})


def annotate(game: Game, reviews: Iterable[Review]) -> Game:
    """``game`` with the comments of its reviews (those of :func:`review_game`, in the order
    of its deals)."""
    items = list(reviews)
    deals = tuple(annotate_deal(deal, items[k] if k < len(items) else None)
                  for k, deal in enumerate(game.deals))
    return game.model_copy(update={"deals": deals})
