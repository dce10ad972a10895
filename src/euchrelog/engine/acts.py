"""The act table and the one dialect of a player: :class:`DealActs`.

Every kind of act has its check and its application (:data:`ACTS`, from
:class:`~euchrelog.engine.state.DealRules`): :meth:`DealActs.check_act` and
:meth:`DealActs.apply_act` take any act, as a record writes it, and :meth:`DealActs.run`
replays a whole clean deal at once. A player (a bot, a program) uses the one dialect for
every act: :meth:`DealActs.verify` (raises :class:`~euchrelog.errors.IllegalActionError`),
:meth:`DealActs.can` (a bool) and :meth:`DealActs.do` (verifies, then changes the state),
which also refuse what a record may write and a player may not make
(:meth:`DealActs.act_fault`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

from ..actions import (
    NUMBERED,
    bid_candidates,
)
from ..acts import (
    KIND_OF,
    Action,
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
)
from ..cards import (
    Card,
)
from ..errors import IllegalActionError
from ..seats import Seat
from .state import DealRules, Evidence, Phase, Played, proved_renege, ruleset_tables

_NO_PROOFS: tuple[Evidence, ...] = ()
"""No reneges proved (an act that is no play)."""


class DealActs(DealRules):
    """A deal's state with the act table: any act, checked and applied as a record writes
    it, or verified and made as a player makes it."""

    def check_act(self, act: Action) -> IllegalActionError | None:
        """The fault of any act now (a bid, exchange, merge, declaration or play)."""
        return ACTS[type(act)][0](self, act)

    def apply_act(self, act: Action) -> list[Evidence]:
        """Applies any act as recorded; returns the earlier reneges a play proves."""
        proofs = ACTS[type(act)][1](self, act)  # (a play's; the others return None)
        return cast(list[Evidence], proofs) if proofs else []

    def run(self, acts: Iterable[Action], tricks: Iterable[list[Played]]) -> bool:
        """The bulk entry, for replaying a whole deal: applies the acts before the play, then
        the tricks (each a list of seats and cards, which the state keeps), while each act
        is legal. Whether all were, each trick being whole.

        The state stops at the first act that is not (or at a trick left short or run
        into the next), having begun the play if it is in the first trick; the per-act
        ``check_*`` methods then tell what is wrong.
        """
        for act in acts:
            check, apply = ACTS[type(act)]
            if check(self, act) is not None or apply(self, act):
                return False
        for trick in tricks:
            if self.phase is _DECLARING and trick:
                # The first lead: the deal is about to be played.
                if (self._dummy_fault(*trick[0]) is not None
                        or self.check_canadian() is not None):
                    return False
                self._start_play()
            proved = self.play_trick(trick)
            if proved is None:  # not plainly legal: card by card, to see
                done = len(self.tricks)
                for seat, card in trick:
                    if ((card is not None and not card.bit & self._deck)
                            or self._check_play(seat, card) is not None
                            or self._apply_play(seat, card)):
                        return False  # a card of no deck is the replay's to report (D305)
                if self.current or len(self.tricks) != done + 1:
                    return False
            elif proved:
                return False
        return True

    # ------------------------------------------------------------ acts of a player

    def verify(self, act: Action) -> None:
        """Raises :class:`IllegalActionError` (:class:`RenegeError` for a renege) if ``act``,
        of any kind, is not legal now, or is one a record may write but a player may not
        make (see :meth:`act_fault`)."""
        error = self.act_fault(act)
        if error is not None:
            raise error

    def can(self, act: Action) -> bool:
        """Whether ``act``, of any kind, is legal now (:meth:`verify` would pass it)."""
        return self.act_fault(act) is None

    def act_fault(self, act: Action) -> IllegalActionError | None:
        """The fault of ``act`` for a player (:meth:`verify`, :meth:`can`, :meth:`do`): a
        card of no deck in it (D305), its fault by the rules (:meth:`check_act`), or what a
        record may leave out but a player may not: a lead before the dealer's exchange
        (P701), a card played, a discard or the cards a merge keeps not named when the hand
        is known (P702, K502, K506). So :meth:`do` takes exactly the acts
        :meth:`legal_actions` offers when every card is known."""
        kind = KIND_OF[type(act)]  # (an act's model is its act)
        if kind is Play:
            play = cast(Play, act)
            fault = self._named_play_fault(play.seat, play.card)
            if fault is None and self.phase is _DECLARING and self.exchange_due:
                fault = IllegalActionError(
                    "P701", "{seat} leads trick 1 before the dealer {dealer} takes up or "
                            "declines the upcard", seat=play.seat, trick=1, dealer=self.dealer)
        elif kind is Exchange:
            fault = self._named_exchange_fault(cast(Exchange, act))
        elif kind is Merge:
            fault = self._named_merge_fault(cast(Merge, act))
        else:
            fault = None
        return fault if fault is not None else self.check_act(act)

    def _named_play_fault(self, seat: Seat, card: Card | None) -> IllegalActionError | None:
        """The fault of a play by ``seat`` that does not name its card, or names a card of
        no deck (see :meth:`act_fault`)."""
        if card is None:
            return IllegalActionError("P702", "{seat} plays a card it does not name", seat=seat)
        return self._deck_fault(seat, card, "played by")

    def _deck_fault(self, seat: Seat, card: Card, how: str,
                    part: str | None = None) -> IllegalActionError | None:
        """D305 for ``card`` when it is of no card of the deal's deck, as the replay tells
        it (``how`` the seat's act names it: ``played by``...)."""
        if card.bit & self._deck:
            return None
        return IllegalActionError("D305", "{card} ({how} {seat}) is not in the {deck}-card deck",
                                  seat=seat, card=card, part=part, how=how,
                                  deck=self.ruleset.options.deck)

    def _named_exchange_fault(self, ex: Exchange) -> IllegalActionError | None:
        """The fault of a pickup that names a discard of no deck, or names none while the
        dealer's hand is known (see :meth:`act_fault`)."""
        if ex.act == "declines":
            return None
        if ex.discard is not None:
            return self._deck_fault(ex.seat, ex.discard, "discarded by", "discard")
        hand = self.hands.get(ex.seat)
        if hand is not None and hand.free == 0 and self.check_exchange(ex) is None:
            return IllegalActionError(
                "K502", "the dealer {seat} takes the upcard without naming the discard",
                seat=ex.seat, part="discard")
        return None

    def _named_merge_fault(self, merge: Merge) -> IllegalActionError | None:
        """The fault of a merge that keeps a card of no deck, or names none of the cards it
        keeps while the ten are known (see :meth:`act_fault`)."""
        if merge.keeps is not None:
            for card in merge.keeps:
                if card is not None:
                    fault = self._deck_fault(merge.seat, card, "kept by", "keeps")
                    if fault is not None:
                        return fault
            return None
        hand = self.hands.get(merge.seat)
        if (hand is not None and hand.free == 0 and self.extra.free == 0
                and self.check_merge(merge) is None):
            return IllegalActionError(
                "K506", "{seat} merges without naming the {size} cards kept", seat=merge.seat,
                part="keeps", size=self.variant.hand_size)
        return None

    def do(self, act: Action) -> None:
        """Makes ``act``, of any kind, after verifying it.

        :raises IllegalActionError: if it is not legal now (nothing changes then).
        :raises RenegeError: also when a play proves an earlier renege (P1), once made.
        """
        kind, phase = type(act), self.phase  # (a type test is quicker than isinstance)
        if kind is Play and phase is _PLAYING:
            play = cast(Play, act)
            proofs = self._do_play(play.seat, play.card, self.to_play())
        elif phase is Phase.BIDDING and self._legal_bids()[2].get(
                NUMBERED.get(id(act), -1)) is act:  # one check_bid passed for this state
            self.apply_bid(act)
            proofs = _NO_PROOFS
        else:
            self.verify(act)
            proofs = self.apply_act(act)
        self._done += (act,)  # (for undo)
        for proof in proofs:
            raise proved_renege(proof)

    def _do_play(self, seat: Seat, card: Card | None, due: Seat | None) -> Sequence[Evidence]:
        """:meth:`check_play` and :meth:`apply_play` at once (the phase is playing, and
        ``due`` the seat to play): the earlier reneges the play proves."""
        led = self._led()
        if (card is None or not self._plain(((seat, card),), (due,), led, leads=not self.current)
                or not card.bit & self._deck):
            error = self._named_play_fault(seat, card)
            if error is None:
                error = self._play_fault(seat, card)
            if error is not None:
                raise error
        return self._take([(seat, card)], led)

    def _legal_bids(self) -> _LegalBids:
        """The legal bids now, from :meth:`check_bid`, their numbers (ascending) and each
        by its number, kept by everything it asks of the state (the bidding of a deal
        recurs across deals)."""
        key = (self.dealer, self.round, tuple(self.acted), self.high, self.swapped,
               self.upcard)
        table = ruleset_tables(self.ruleset)[0]
        legal: _LegalBids | None = table.get(key)
        if legal is None:
            bids = tuple(b for b in bid_candidates(self.seats) if self.check_bid(b) is None)
            by_number = {NUMBERED[id(b)]: b for b in bids}  # (each bid of the table is numbered)
            legal = table[key] = (bids, tuple(sorted(by_number)), by_number)
        return legal


_Entry = tuple[Callable[[DealRules, Any], IllegalActionError | None],
               Callable[[DealRules, Any], object]]


class _ActTable(dict[type, _Entry]):
    """The check and the application of each kind of act, by the act's class: a model of
    an act (:mod:`euchrelog.models`) has the entry of its act, found once."""

    def __missing__(self, cls: type) -> _Entry:
        kind = KIND_OF[cls]
        if kind is cls:
            raise KeyError(cls)
        entry = self[cls] = self[kind]
        return entry


ACTS: dict[type, _Entry] = _ActTable({
    Play: (DealRules.check_play, DealRules.apply_play),
    Exchange: (DealRules.check_exchange, DealRules.apply_exchange),
    Merge: (DealRules.check_merge, DealRules.apply_merge),
    Declaration: (DealRules.check_declare, DealRules.apply_declare),
    **dict.fromkeys((Pass, Order, Call, Number, Swap), (DealRules.check_bid, DealRules.apply_bid)),
})
"""The check and the application of each kind of act."""

_LegalBids = tuple[tuple[Bid, ...], tuple[int, ...], dict[int, Bid]]
"""The legal bids of a state of the bidding, their numbers, and each by its number."""

_DECLARING, _PLAYING = Phase.DECLARING, Phase.PLAYING
"""Phases the play asks for at every card (a module name is quicker than an enum's)."""
