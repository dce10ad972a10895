"""One deal as the recorder holds it: :class:`DealRecord` (how it started, what was entered,
where it stands, its record), the reneges entered as played (:class:`Renege`), and the
engine state and the plays it offers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from ..actions import play_table
from ..acts import (
    Bid,
    Call,
    Declaration,
    Exchange,
    Merge,
    Number,
    Order,
    Pass,
    Play,
    Swap,
    replaced,
)
from ..cards import Card, effective_suit
from ..engine import DealState, Phase
from ..models import Bidding, Claim, Deal, Extra, Hands, Penalty, Score, Sheet, Trick, Upcard
from ..rules import Ruleset
from ..seats import SEATS, Seat, clockwise_from
from .entries import DealCards, Entry


@dataclass(frozen=True)
class Renege:
    """A play entered as a renege that happened at the table (P1)."""

    entry: int
    """Its place among the deal's entries."""
    seat: Seat
    trick: int
    """The trick of the renege, 1-based."""
    claimed: bool
    """Whether the table claimed it (P2): the deal records a claim and scores the penalty."""


@dataclass
class DealRecord:
    """One deal as recorded: how it started, what was entered, and where it stands."""

    cards: DealCards
    state: DealState
    entries: list[Entry] = field(default_factory=list)
    reneges: list[Renege] = field(default_factory=list)
    """The plays among ``entries`` that were entered as reneges, in order."""
    rounds: list[int] = field(default_factory=list)
    """The bidding round of each bid among ``entries``, in order (the bid lines)."""
    points: dict[str, int] | None = None
    """The points the deal scored, once it is over."""
    written: Deal | None = None
    """The record of the deal once it is over, with its points and total (kept, so that
    writing the game after every entry does not rebuild every deal)."""
    after: dict[str, int] | None = None
    """The running totals after the deal, kept with ``written``."""
    text: tuple[Deal, str] | None = None
    """A record of the deal and its canonical text (kept, so that writing the game after
    every entry does not write every deal again)."""
    kept: Deal | None = None
    """The deal as read from a record, when it could not be entered act by act (its points
    only, or a card not known): it is written as read, and its only entries are the
    penalties charged in it since."""
    thrown: bool = False
    """Whether the deal was thrown in (everyone passed), once it is over."""
    sheet_acts: tuple[Declaration, ...] = ()
    """The declaration lines a score-sheet line brings with it: under ``partner-alone`` the
    maker's partner alone, which the line's own ``alone`` does not say, and then the
    line's ``defend`` too (a line's words must agree with the deal's declaration lines).
    They are written before the line, after the declarations entered."""

    @property
    def over(self) -> bool:
        """Whether the deal is finished: played out, thrown in, or scored from its sheet."""
        return self.points is not None

    @property
    def sheet(self) -> Sheet | None:
        """The deal's score-sheet line, if it has one."""
        return next((e for e in self.entries if isinstance(e, Sheet)), None)

    @property
    def penalties(self) -> tuple[Penalty, ...]:
        """The penalties charged in the deal (H6)."""
        return tuple(e for e in self.entries if isinstance(e, Penalty))

    @property
    def claims(self) -> tuple[Claim, ...]:
        """The renege claims of the deal, as the record writes them."""
        return tuple(Claim(seat=r.seat, trick=r.trick) for r in self.reneges if r.claimed)

    @property
    def ended(self) -> bool:
        """Whether the play is over: played out, thrown in, or stopped at the end of the
        trick of a claimed renege (whose penalty replaces the tricks, P2; in ghost the deal
        is played out, P3)."""
        return self.state.phase in (Phase.DONE, Phase.THROWN) or bool(
            self.claims and self.state.ruleset.variant.scoring and not self.state.current)

    def model(self, score: Score | None = None) -> Deal:
        """The record of the deal as entered so far, with ``score`` when it is over."""
        cards = self.cards
        order = clockwise_from(cards.dealer.left, SEATS)
        hands = (Hands(cards={s: cards.hands[s] for s in order if s in cards.hands}),) \
            if cards.hands else ()
        kind = self.state.ruleset.extra_hand
        extra = Extra(kind=kind, cards=cards.extra) if cards.extra is not None and kind else None
        up = Upcard(card=cards.upcard, kitty=cards.kitty) if (
            cards.upcard is not None or cards.kitty is not None) else None
        lines: dict[int, list[Bid]] = {}
        acts: list[Exchange | Merge | Declaration] = []
        sheet: Sheet | None = None
        bids = iter(self.rounds)
        for entry in self.entries:
            if isinstance(entry, Pass | Order | Call | Number | Swap):
                lines.setdefault(next(bids), []).append(entry)
            elif isinstance(entry, Exchange | Merge | Declaration):
                acts.append(entry)
            elif isinstance(entry, Sheet):
                sheet = entry
        if sheet is not None:
            acts.extend(self.sheet_acts)
        state = self.state
        played = [*state.tricks, state.current] if state.current else list(state.tricks)
        table = play_table()  # (the plays the engine keeps: one model a seat and card)
        # (the models take the engine's plain acts as they are: ``cast`` says so to a type
        # checker without pydantic's plugin, as the compiled build's is)
        tricks = tuple(Trick(number=k, plays=cast(Any, tuple(
            table[s][c.index] if c is not None else Play(seat=s, card=None) for s, c in plays)))
            for k, plays in enumerate(played, 1))
        return Deal(number=cards.number, dealer=cards.dealer, hands=hands, extra=extra, up=up,
                    bidding=tuple(Bidding(bids=cast(Any, tuple(b)))
                                  for _, b in sorted(lines.items())),
                    acts=cast(Any, tuple(acts)), sheet=sheet, tricks=tricks,
                    claims=self.claims, penalties=self.penalties, score=score)

    def restart(self) -> None:
        """Enters the deal's entries again on a fresh engine state (each was verified when
        taken): its points and its record are then to be found again."""
        state = deal_state(self.state.ruleset, self.cards)
        self.state = state
        self.rounds = []
        self.points = None
        self.written = None
        self.after = None
        self.thrown = False
        self.reneges = [r for r in self.reneges if r.entry < len(self.entries)]
        for entry in self.entries:
            if isinstance(entry, Pass | Order | Call | Number | Swap):
                self.rounds.append(state.round)
                state.apply_bid(entry)
            elif isinstance(entry, Exchange):
                state.apply_exchange(entry)
            elif isinstance(entry, Merge):
                state.apply_merge(entry)
            elif isinstance(entry, Declaration):
                state.apply_declare(entry)
            elif isinstance(entry, Play):
                state.apply_play(entry)


def deal_state(ruleset: Ruleset, cards: DealCards) -> DealState:
    """A fresh engine state for a deal that starts with ``cards``."""
    return DealState(ruleset, cards.dealer, hands=dict(cards.hands), upcard=cards.upcard,
                     kitty=cards.kitty, extra=cards.extra)


def kept_model(kept: Deal, penalties: tuple[Penalty, ...], totals: Mapping[str, int]
            ) -> Deal:
    """A deal kept as read, with the penalties charged in it since after its own, and
    then the running totals after them."""
    if not penalties:
        return kept
    score = (kept.score.model_copy(update={"total": dict(totals)}) if kept.score is not None
             else Score(total=dict(totals)))
    return kept.model_copy(update={"penalties": (*kept.penalties, *penalties),
                                   "score": score})


def written_exchange(state: DealState, exchange: Exchange) -> Exchange:
    """The exchange as the record writes it: naming the upcard taken."""
    if exchange.act == "takes" and state.upcard is not None and exchange.upcard is None:
        return replaced(exchange, takes=True, upcard=state.upcard)
    return exchange


def playable(state: DealState, seat: Seat, card: Card) -> bool:
    """Whether ``seat`` may play ``card`` now and the play proves no earlier renege (R802)."""
    play = Play(seat=seat, card=card)
    if state.check_play(play) is not None:
        return False
    trump = state.trump
    return trump is None or effective_suit(card, trump) not in state.showouts[seat]
