"""What bots ask of a deal: :class:`DealState`, the acts offered, their numbers, the state
as text, ``copy`` and ``undo``.

:meth:`DealState.legal_actions` lists exactly the acts :meth:`~DealState.do` takes now,
every act has a number (:meth:`DealState.legal_action_ids`, :meth:`DealState.do_id`;
docs/api.md), :meth:`DealState.undo` takes back the last act (as python-chess's
``pop``), and ``print(state)`` shows the deal as cards.

>>> from euchrelog.cards import parse_card
>>> from euchrelog.acts import Exchange, Order, Pass, Play
>>> from euchrelog.rules import Ruleset
>>> from euchrelog.seats import Seat
>>> hands = {Seat.E: "9C TC QS KS AD", Seat.S: "9S TS AS 9D TD",
...          Seat.W: "JD AH KH QH 9H", Seat.N: "AC KC QC JC KD"}
>>> state = DealState(Ruleset(), Seat.N,
...                   hands={s: [parse_card(c) for c in h.split()] for s, h in hands.items()},
...                   upcard=parse_card("JH"))
>>> state.do(Pass(act="pass", seat=Seat.E))
>>> state.can(Order(act="order", seat=Seat.W))
False
>>> state.do(Order(act="order", seat=Seat.S)); state.trump
<Suit.HEARTS: 'H'>
>>> state.exchange_due, len(state.legal_actions()), state.legal_action_ids()[:2]
(True, 10, [37, 38])
>>> state.do(Exchange(seat=Seat.N, discard=parse_card("KD"))); state.to_play()
<Seat.E: 'E'>
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import cast

from ..actions import (
    ACTION_COUNT,
    ALONE_ID,
    BID_ID,
    CALL_ID,
    CARDS_BY_NUMBER,
    DECLINE_ID,
    DEFEND_ID,
    DISCARD_ID,
    MERGE_ID,
    MERGE_KEEPS_ID,
    NUMBERED,
    PARTNER_ALONE_ID,
    PLAIN_BIDS,
    SEAT_NUMBER,
    SEATS_BY_NUMBER,
    SUIT_NUMBER,
    bid_of,
    by_name,
    card_number,
    combination,
    combination_rank,
    declaration_act,
    exchange_act,
    numbers_of,
    pickups,
    play_table,
    plays_of,
    subsets,
    unnamed_merge,
)
from ..acts import KIND_OF, Action, Call, Declaration, Exchange, Merge, Number, Play
from ..cards import (
    NO_TRUMP,
    Card,
    cards_of,
    mask_of,
)
from ..errors import RenegeError
from ..rules import MOON
from ..seats import Seat
from .acts import DealActs
from .state import HandInfo, Phase, following, proved_renege, ruleset_tables


class DealState(DealActs):
    """The state of one deal as bots and players use it (docs/api.md)."""

    def copy(self) -> DealState:
        """An independent copy of the state, to try acts on without changing this one
        (:meth:`undo` walks its own history back).

        Every attribute is copied by name (not by :func:`copy.copy`, which the compiled
        build's classes do not support); ``tests/test_engine.py`` holds the list to
        :meth:`__init__`'s."""
        other = DealState(self.ruleset, self.dealer)
        other._set_from(self, share=False)
        return other

    def _set_from(self, src: DealState, *, share: bool) -> None:
        """Gives this state (of the same ruleset and dealer) every attribute of ``src``:
        its own copies of the mutable ones, unless ``share`` (``src`` is thrown away)."""
        self.upcard, self.phase, self.round = src.upcard, src.phase, src.round
        self.extra_kind, self.played = src.extra_kind, src.played
        self.high, self.swapped, self.merged = src.high, src.swapped, src.merged
        self.trump, self.follows, self.suit_masks = src.trump, src.follows, src.suit_masks
        self.maker, self._makers, self._lineups = src.maker, src._makers, src._lineups
        self.fixed_in_round, self.exchanged = src.fixed_in_round, src.exchanged
        self.alone, self.defender, self.playing = src.alone, src.defender, src.playing
        self.leader, self._merge_list, self._dealt = src.leader, src._merge_list, src._dealt
        if share:
            self.hands, self.extra, self._where = src.hands, src.extra, src._where
            self.acted, self.current, self.tricks = src.acted, src.current, src.tricks
            self.winners, self.showouts, self.reneges = src.winners, src.showouts, src.reneges
            self._done = src._done
            return
        self.hands = {s: HandInfo(h.known, h.held, h.free) for s, h in src.hands.items()}
        extra = src.extra
        self.extra = HandInfo(extra.known, extra.held, extra.free)
        self._where, self.acted = list(src._where), list(src.acted)
        self.current = list(src.current)
        self.tricks = [list(t) for t in src.tricks]
        self.winners = list(src.winners)
        self.showouts = {s: dict(v) for s, v in src.showouts.items()}
        self.reneges = list(src.reneges)
        self._done = src._done

    def __eq__(self, other: object) -> bool:
        """Whether ``other`` is a state of the same deal at the same point: the same
        ruleset, dealer and cards where they are, the same acts' effects (not the history
        :meth:`undo` keeps)."""
        if not isinstance(other, DealState):
            return NotImplemented
        return _facts(self) == _facts(other)

    def __repr__(self) -> str:
        """One line: the variant, the dealer, the phase, trump and maker, the hands, the
        trick under way and the tricks won."""
        return f"<DealState {'; '.join(self._lines())}>"

    def __str__(self) -> str:
        """The state as lines, as :meth:`__repr__` tells it."""
        return "\n".join(self._lines())

    def _lines(self) -> list[str]:
        """What :meth:`__str__` shows, line by line."""
        head = f"{self.variant.name}, dealer {self.dealer}, {self.phase.value}"
        if self.trump is not None:
            head += f", trump {self.trump}"
        if self.maker is not None:
            head += f" (maker {self.maker}"
            head += f", {self.alone} alone" if self.alone is not None else ""
            head += f", {self.defender} defends" if self.defender is not None else ""
            head += f", bid {self.contract}" if self.contract is not None else ""
            head += ")"
        lines = [head]
        out = self.sitting_out
        lines += [f"{seat}: {hand}" + (" (sits out)" if seat in out else "")
                  for seat, hand in self.hands.items()]
        if self.extra_kind is not None and (self.extra.known or self.extra.free):
            lines.append(f"{self.extra_kind}: {self.extra}")
        if self.upcard is not None:
            lines.append(f"up {self.upcard}")
        if self.current:
            plays = " ".join(f"{s} {'??' if c is None else c}" for s, c in self.current)
            lines.append(f"trick {len(self.tricks) + 1}: {plays}")
        won: dict[str, int] = {}
        for seat in self.seats:
            won.setdefault(self.side(seat), 0)
        for winner in self.winners:
            if winner is not None:
                won[self.side(winner)] += 1
        tally = " ".join(f"{side} {n}" for side, n in won.items())
        lines.append(f"tricks {len(self.tricks)}: {tally}")
        points = self.points() if self.phase in (Phase.DONE, Phase.THROWN) else None
        if points is not None:
            lines.append("points " + (" ".join(f"{side} {n}" for side, n in points.items())
                                      or "none (thrown in)"))
        return lines

    def undo(self) -> Action:
        """Takes back the last act made by :meth:`do` or :meth:`do_id` and returns it (as
        python-chess's ``Board.pop``): the state is then equal to the one before it. The
        deal is played again from its cards, without the act.

        :raises ValueError: when no act was made, or the state was changed other than by
            ``do`` (the lenient ``apply_*`` of a record: playing its acts again does not
            give this state).
        """
        done = self._done
        if not done:
            raise ValueError("no act to undo")
        ruleset, dealer, hands, upcard, kitty, extra = self._dealt
        before = DealState(ruleset, dealer, hands=hands, upcard=upcard, kitty=kitty, extra=extra)
        for item in done[:-1]:
            before._redo(item)
        again = before.copy()
        again._redo(done[-1])
        if again != self:
            raise ValueError("undo takes back acts made by do(), and this state was changed "
                             "by the lenient methods of a record (apply_*)")
        last = done[-1]
        self._set_from(before, share=True)
        return before.action_of(last) if isinstance(last, int) else last

    def _redo(self, item: Action | int) -> None:
        """Makes again an act :meth:`do` (an act) or :meth:`do_id` (a number) made."""
        try:
            if isinstance(item, int):
                self.do_id(item)
            else:
                self.do(item)
        except RenegeError:
            pass  # (an act taken once raises only once made: it proved an earlier renege)

    # ------------------------------------------------------------ acts offered

    def legal_actions(self) -> list[Action]:
        """Every act the verifying methods accept now that can still lead to a complete
        deal: :meth:`do` takes each of them. Plays are only of cards the state knows; no
        lead is offered while :attr:`exchange_due`."""
        phase = self.phase
        if phase is _PLAYING:
            return list(self._legal_plays())
        if phase is Phase.BIDDING:
            return list(self._legal_bids()[0])
        if phase is not _DECLARING:
            return []
        due = self.exchange_due
        acts = self._before_lead(due)
        if not due:
            acts += self._legal_plays()
        return acts

    def _before_lead(self, exchange_due: bool) -> list[Action]:
        """The legal exchanges, declarations and merges now (the phase is declaring)."""
        dealer, up = self.dealer, self.upcard
        declines, discards = self._exchanges(exchange_due)
        acts: list[Action] = [exchange_act(dealer, None, None, "declines")] if declines else []
        kept = pickups(dealer, up)
        for card in by_name(discards):
            pickup = kept.get(card.index)
            if pickup is None:
                pickup = kept[card.index] = exchange_act(dealer, up, card)
            acts.append(pickup)
        declarations, merging = self._declarations()
        acts += declarations
        if merging and self.maker is not None:
            acts += self._merges(self.maker)
        return acts

    def _exchanges(self, exchange_due: bool) -> tuple[bool, int]:
        """Whether the dealer may decline now, and the mask of the cards the dealer may
        discard on taking the upcard (the phase is declaring).

        While :attr:`exchange_due` (a pickup naming no discard is legal, unless
        ``natural-pickup`` bars it), so is a pickup discarding any of the six cards
        (:meth:`check_exchange` refuses a discard only outside them, K502), and the
        decline is checked; else no exchange is legal.
        """
        if not exchange_due:
            return False, 0
        dealer, up = self.dealer, self.upcard
        declines = self.check_exchange(exchange_act(dealer, None, None, "declines")) is None
        if self._pickup_barred():
            return declines, 0
        return declines, (self.hands[dealer].known | (up.bit if up is not None else 0)) & self._deck

    def _declarations(self) -> tuple[tuple[Declaration, ...], bool]:
        """The legal lone declarations now, and whether the maker may merge, from
        :meth:`check_declare` and :meth:`check_merge`, kept by everything they ask of the
        state (the phase is declaring)."""
        key = (self.maker, self.merged, self.alone, self.defender, self.dealer,
               self.fixed_in_round)
        table = ruleset_tables(self.ruleset)[1]
        legal: tuple[tuple[Declaration, ...], bool] | None = table.get(key)
        if legal is None:
            options: list[Declaration] = []
            for kind in ("alone", "defend"):  # by the seats that may make them (seats_due)
                due = self.seats_due(declaration_act(kind, self.dealer))
                options += [declaration_act(kind, s) for s in self.seats if s in due]
            maker = self.maker
            legal = table[key] = (
                tuple(d for d in options if self.check_declare(d) is None),
                maker is not None and self.check_merge(unnamed_merge(maker)) is None)
        return legal

    def _legal_plays(self) -> tuple[Play, ...]:
        """The legal plays now (see :meth:`_play_mask`), in the order of their cards'
        names."""
        turn, legal = self._play_mask()
        return plays_of(legal, turn) if turn is not None else ()

    def _play_mask(self) -> tuple[Seat | None, int]:
        """The seat to play and the mask of the cards it may play now, of those the state
        puts in its hand. The cards the hand surely holds are checked as one mask
        (:func:`following`), as :meth:`_plain` checks each; any other card by
        :meth:`check_play`."""
        turn = self.to_play()
        hand = self.hands.get(turn) if turn is not None else None
        if turn is None or hand is None:
            return None, 0
        legal = 0
        if self.phase is _PLAYING:
            held, led = hand.held, self._led()
            legal = held if led is None or not self.current else following(
                held, held, self.suit_masks[led])
            unsure = hand.known & ~held
            if unsure:
                legal |= mask_of(c for c in cards_of(unsure) if self._check_play(turn, c) is None)
        elif self._turn_fault(turn, None) is None:  # the first lead: any card surely held
            legal = hand.held | mask_of(c for c in cards_of(hand.known & ~hand.held)
                                        if self._card_fault(turn, c) is None)
        return turn, legal & self._deck

    def _merges(self, maker: Seat) -> list[Merge]:
        """The merges the maker may make: of five named cards of the ten, when the state
        knows them all, else one naming none (kept while the cards stay the same)."""
        hand = self.hands[maker]
        if hand.free or self.extra.free:
            return [unnamed_merge(maker)]
        key = (maker, hand.known, self.extra.known)
        if self._merge_list[0] != key:
            ten = by_name(hand.known | self.extra.known)
            deck = self._deck
            self._merge_list = (key, tuple(
                Merge(seat=maker, keeps=kept) for kept in combinations(ten, self.variant.hand_size)
                if all(c.bit & deck for c in kept)))  # (a card of no deck is not kept)
        return list(self._merge_list[1])

    def _merge_ids(self, maker: Seat) -> Sequence[int]:
        """The numbers of :meth:`_merges`."""
        hand = self.hands[maker]
        if hand.free or self.extra.free:
            return range(MERGE_ID, MERGE_ID + 1)
        ten = hand.known | self.extra.known
        if ten & ~self._deck:
            return [self.action_id(m) for m in self._merges(maker)]
        return range(MERGE_KEEPS_ID,
                     MERGE_KEEPS_ID + len(subsets(ten.bit_count(), self.variant.hand_size)))

    # ------------------------------------------------------------ acts as numbers

    def action_id(self, act: Action) -> int:
        """The number of ``act`` in the table of :data:`ACTION_COUNT` acts (docs/api.md);
        the seat is the one that makes such an act now, but for a ``defend``.

        :raises ValueError: for an act the table has no number for (a card of no deck, a
            merge keeping other than the maker's five of ten known cards).
        """
        number = NUMBERED.get(id(act))
        if number is not None:
            return number
        kind = KIND_OF[type(act)]  # (an act's model is its act)
        if kind is Play:
            return card_number(cast(Play, act).card)
        if kind is Exchange:
            ex = cast(Exchange, act)
            if ex.act == "declines":
                return DECLINE_ID
            if ex.discard is None:
                raise ValueError("an exchange that does not name its discard has no number")
            return DISCARD_ID + card_number(ex.discard)
        if kind is Declaration:
            decl = cast(Declaration, act)
            if decl.act == "defend":
                return DEFEND_ID + SEAT_NUMBER[decl.seat]
            partner = decl.seat != self.maker and decl.seat in self.makers
            return PARTNER_ALONE_ID if partner else ALONE_ID
        if kind is Merge:
            keeps = cast(Merge, act).keeps
            if keeps is None:
                return MERGE_ID
            ten = self._merge_cards()
            if None in keeps or not set(keeps) <= set(ten):
                raise ValueError("a merge keeping cards not among the ten known has no number")
            return MERGE_KEEPS_ID + combination_rank(
                sorted(ten.index(c) for c in keeps if c is not None), len(ten))
        if kind is Call:
            suit = cast(Call, act).suit
            return CALL_ID + (4 if suit is NO_TRUMP else SUIT_NUMBER[suit])
        if kind is Number:
            tricks = cast(Number, act).tricks
            if not 3 <= tricks <= MOON:
                raise ValueError(f"a bid of {tricks} tricks has no number (3 to {MOON})")
            return BID_ID + tricks - 3
        return PLAIN_BIDS[kind]

    def action_of(self, number: int) -> Action:
        """The act of ``number`` (see :meth:`action_id`), made by the seat due now.

        :raises ValueError: for a number not in the table, or one no seat can make now
            (a play with no seat to play, a merge with no maker).
        """
        if not 0 <= number < ACTION_COUNT:
            raise ValueError(f"not an action number: {number} (0 to {ACTION_COUNT - 1})")
        if number < DISCARD_ID:
            turn = self.to_play()
            if turn is None:
                raise ValueError(f"no seat is to play now (action {number})")
            return play_table()[turn][CARDS_BY_NUMBER[number].index]
        if number < DECLINE_ID:
            return exchange_act(self.dealer, self.upcard, CARDS_BY_NUMBER[number - DISCARD_ID])
        if number == DECLINE_ID:
            return exchange_act(self.dealer, None, None, "declines")
        if DEFEND_ID <= number < MERGE_ID:
            return declaration_act("defend", SEATS_BY_NUMBER[number - DEFEND_ID])
        if number >= ALONE_ID:
            maker = self.maker
            if maker is None:
                raise ValueError(f"no maker is fixed yet (action {number})")
            if number == ALONE_ID:
                return declaration_act("alone", maker)
            if number == PARTNER_ALONE_ID:
                partner = next((s for s in self.makers if s != maker), None)
                if partner is None:
                    raise ValueError(f"the maker has no partner (action {number})")
                return declaration_act("alone", partner)
            if number == MERGE_ID:
                return unnamed_merge(maker)
            ten = self._merge_cards()
            picked = combination(number - MERGE_KEEPS_ID, len(ten), self.variant.hand_size)
            if picked is None:
                raise ValueError(f"no merge of the ten cards has number {number}")
            return Merge(seat=maker, keeps=tuple(sorted((ten[i] for i in picked), key=str)))
        bidder = self.bidder()
        if bidder is None:
            raise ValueError(f"no seat is to bid now (action {number})")
        return bid_of(number, bidder)

    def legal_action_ids(self) -> list[int]:
        """The numbers of :meth:`legal_actions` (see :meth:`action_id`), ascending: worked
        out as :meth:`legal_actions` works them out, without making the acts."""
        phase = self.phase
        if phase is _PLAYING:
            return list(numbers_of(self._play_mask()[1]))
        if phase is Phase.BIDDING:
            return list(self._legal_bids()[1])
        if phase is not _DECLARING:
            return []
        due = self.exchange_due
        declines, discards = self._exchanges(due)
        numbers = [DECLINE_ID] if declines else []
        numbers += [DISCARD_ID + n for n in numbers_of(discards)]
        declarations, merging = self._declarations()
        numbers += map(self.action_id, declarations)
        if merging and self.maker is not None:
            numbers += self._merge_ids(self.maker)
        if not due:
            numbers += numbers_of(self._play_mask()[1])
        numbers.sort()
        return numbers

    def do_id(self, number: int) -> None:
        """Makes the act of ``number`` (see :meth:`action_id`) after verifying it, as
        :meth:`do`.

        :raises ValueError: for a number no act has now (see :meth:`action_of`).
        """
        phase = self.phase
        if 0 <= number < DISCARD_ID and phase is _PLAYING:
            turn = self.to_play()
            if turn is not None:
                proofs = self._do_play(turn, CARDS_BY_NUMBER[number], turn)
                self._done += (number,)  # (for undo)
                for proof in proofs:
                    raise proved_renege(proof)
                return
        elif phase is Phase.BIDDING:
            bid = self._legal_bids()[2].get(number)
            if bid is not None:  # check_bid passed it for this state of the bidding
                self.apply_bid(bid)
                self._done += (number,)  # (for undo)
                return
        self.do(self.action_of(number))

    def _merge_cards(self) -> list[Card]:
        """The ten cards of a merge (the maker's hand and the dummy), by their numbers."""
        maker = self.maker
        known = (self.hands[maker].known if maker is not None else 0) | self.extra.known
        return sorted(cards_of(known), key=card_number)


def _facts(state: DealState) -> tuple[object, ...]:
    """What :meth:`DealState.__eq__` compares: every attribute but the tables kept for speed
    and the history of :meth:`DealState.undo`."""
    return (state.ruleset, state.dealer, state.upcard, state.phase, state.round, state.hands,
            state.extra_kind, state.extra, state._where, state.played, state.high,
            state.swapped, state.merged, state.acted, state.trump, state.maker,
            state.fixed_in_round, state.exchanged, state.alone, state.defender, state.playing,
            state.current, state.tricks, state.winners, state.leader, state.showouts,
            state.reneges)


_DECLARING, _PLAYING = Phase.DECLARING, Phase.PLAYING
"""Phases the play asks for at every card (a module name is quicker than an enum's)."""
