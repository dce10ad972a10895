"""A game's report by player, from its single-dummy review: each player's decisions, how
they were graded, what they cost and an accuracy figure (docs/analysis.md, "The game
report").

A **decision** is a bid (a lone defence included), a play or the dealer's discard with
single-dummy values and a choice (two or more options). Each scores
``100 * 2 ** (-loss / HALF)``, its loss less two standard errors when sampled, as its
class takes it (:data:`HALF`: a decision that gives up a quarter of a point on average
scores 50), and a player's **accuracy** is the mean score of its decisions, in the spirit
of lichess's accuracy (a mean of per-move scores that fall as the expected result lost
grows). The points lost are kept apart for the bidding and the play (discards included).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..seats import Seat
from .bidding import BidReview
from .review import ExchangeReview, PlayReview, Review, Skipped
from .single import CLASSES, MARGIN

HALF = 0.25
"""The loss, in points, that halves a decision's score."""
_PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
"""The classes a player's line counts, and their plurals."""


@dataclass
class PlayerReport:
    """One player's decisions in a game, graded single dummy."""

    seat: Seat
    decisions: int = 0
    """Bids, plays and discards with single-dummy values and a choice."""
    bids: int = 0
    """Of :attr:`decisions`, the bids (lone defences included)."""
    classes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CLASSES, 0))
    """The decisions by class."""
    sd_lost: float = 0.0
    """The points the decisions gave up on average, single dummy ("should have"): those of
    the bids (:attr:`bid_lost`) and of the play (:attr:`play_lost`)."""
    bid_lost: float = 0.0
    """The points the bids gave up on average, single dummy."""
    play_lost: float = 0.0
    """The points the plays and discards gave up on average, single dummy."""
    dd_lost: int = 0
    """The tricks the player's plays cost double dummy ("could have"), every play
    counted."""
    score: float = 0.0
    """The sum of the decisions' scores (see :attr:`accuracy`)."""

    @property
    def accuracy(self) -> float | None:
        """The mean score of the decisions, from 0 to 100 (``None``: none)."""
        return self.score / self.decisions if self.decisions else None


def player_reports(reviews: Iterable[Review]) -> dict[Seat, PlayerReport]:
    """Each player's report over the deals of one game (its reviews, as
    :func:`~.review.review_game` gives them with single-dummy values), by seat, in the
    order the seats first play."""
    out: dict[Seat, PlayerReport] = {}
    for review in reviews:
        decisions: list[BidReview | PlayReview | ExchangeReview] = list(review.bids)
        if isinstance(review, Skipped):
            pass  # (a deal thrown in: its bids only)
        elif review.exchange is not None:
            decisions += [review.exchange, *review.plays]
        else:
            decisions += review.plays
        for made in decisions:
            report = out.get(made.seat)
            if report is None:
                report = out[made.seat] = PlayerReport(made.seat)
            if isinstance(made, PlayReview):
                report.dd_lost += made.loss
            sd = made.sd
            if sd is None or len(sd.values) < 2:
                continue
            report.decisions += 1
            report.classes[sd.grade] += 1
            report.sd_lost += sd.loss
            if isinstance(made, BidReview):
                report.bids += 1
                report.bid_lost += sd.loss
            else:
                report.play_lost += sd.loss
            report.score += 100 * 2 ** (-max(sd.loss - MARGIN * (sd.se or 0.0), 0.0) / HALF)
    return out


def players_json(reports: dict[Seat, PlayerReport]) -> dict[str, Any]:
    """The ``players`` object of a game's report line (see ``schema.json``)."""
    return {str(seat): {
        "decisions": r.decisions, "bids": r.bids, "classes": dict(r.classes),
        "sd_lost": round(r.sd_lost, 4), "bid_lost": round(r.bid_lost, 4),
        "play_lost": round(r.play_lost, 4), "dd_lost": r.dd_lost,
        "accuracy": None if r.accuracy is None else round(r.accuracy, 1)}
        for seat, r in reports.items()}


def players_text(reports: dict[Seat, PlayerReport]) -> list[str]:
    """A line a player: ``N: accuracy 91.2% over 12 decisions (1 inaccuracy, 1 mistake),
    0.62 points lost single dummy (0.40 bidding, 0.22 play), 2 tricks double dummy``."""
    out = []
    for seat, r in reports.items():
        worse = [f"{n} {_PLURALS[name] if n > 1 else name}" for name, n in r.classes.items()
                 if n and name in _PLURALS]
        graded = f" ({', '.join(worse)})" if worse else ""
        accuracy = "no decisions" if r.accuracy is None else (
            f"accuracy {r.accuracy:.1f}% over {r.decisions} decision"
            f"{'' if r.decisions == 1 else 's'}{graded}")
        out.append(f"{seat}: {accuracy}, {r.sd_lost:.2f} points lost single dummy "
                   f"({r.bid_lost:.2f} bidding, {r.play_lost:.2f} play), "
                   f"{r.dd_lost} trick{'' if r.dd_lost == 1 else 's'} double dummy")
    return out
