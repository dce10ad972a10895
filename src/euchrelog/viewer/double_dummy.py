"""The double-dummy layer of the viewer: the values of :mod:`euchrelog.analysis`, added to
the frames of a game as data.

For each deal the analysis reviews, the frame where a seat is about to play gets ``dd``:
the makers' tricks under perfect play after each legal card (``values``), the best cards,
and, for every legal card when there is a choice, the play that follows under perfect
play (``lines``: the trick under way and each later one, with its winner), for the
page's "try another card". The frame of the
play itself gets ``ddPlayed``: the card's cost in tricks and the makers' tricks after it.
A deal the analysis skips says why (``dd.skipped`` of its entry in the list of deals).
The layer is added deal by deal, as the page is written (:func:`add_review`).
"""

from __future__ import annotations

from ..analysis import DealReview, PlayReview, Review, principal_line
from ..cards import Card, sort_hand, trick_winner
from ..seats import Seat
from .frames import Json, card_text


def add_review(entry: Json, frames: list[Json], review: Review) -> None:
    """Adds the double-dummy values of one deal's ``review`` to its entry in the page's
    list of deals and its ``frames`` (numbered from the deal's first, as ``entry`` numbers
    them; see :class:`~euchrelog.viewer.frames.GameView`)."""
    if not isinstance(review, DealReview):
        entry["dd"] = {"skipped": review.reason}
        return
    plays = [k for k in range(entry["frame"], entry["score"]) if frames[k]["kind"] == "play"]
    if len(plays) != len(review.plays):
        entry["dd"] = {"skipped": "the tricks as written do not match the review"}
        return
    entry["dd"] = {"dd": review.dd, "made": review.made,
                   "makers": [s.value for s in review.makers],
                   "lost": dict(review.points_lost)}
    for p, (k, play) in enumerate(zip(plays, review.plays, strict=True)):
        frames[k - 1]["dd"] = _choice(review, p, play)
        frames[k]["ddPlayed"] = {"seat": play.seat.value, "card": card_text(play.card),
                                 "loss": play.loss, "after": play.dd_after}


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
