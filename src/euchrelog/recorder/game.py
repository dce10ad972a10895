"""Entering a game while it is played: :class:`Recorder`, the recorded game that takes each
entry once the engine and the replay agree to it, gives it back with :meth:`Recorder.undo`,
and enters a record again to go on with it (:meth:`Recorder.from_game`)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from ..acts import Bid, Call, Declaration, Exchange, Merge, Number, Order, Pass, Play, Swap
from ..cards import Card, Trump, make_deck, sort_hand
from ..engine import Action, proved_renege
from ..errors import IllegalActionError, RenegeError
from ..models import Deal, Game, Penalty, Sheet, Tag
from ..replay import DealResult, rotation
from ..rules import Options, Variant, find_variant, parse_rules
from ..seats import SEATS, Seat, clockwise_from
from .checks import first_fault, replay_deal
from .deal import DealRecord, Renege, deal_state, written_exchange
from .entries import (
    CardLike,
    CardsLike,
    DealCards,
    Entry,
    HandsLike,
    IllegalEntryError,
    PlayersLike,
    RecorderError,
    SeatLike,
    SideLike,
    TakenLike,
    in_deck,
    read_card,
    read_cards,
    read_seat,
    seat_items,
)
from .sheet import penalty_line, sheet_line
from .standing import RecordedGame


class Recorder(RecordedGame):
    """One game being recorded, entry by entry, each verified before it is taken.

    :param variant: the variant, by name (any name the ``Variant`` tag accepts) or object.
    :param options: house rules (default: the variant's defaults).
    :param rules: house rules as a ``Rules`` tag value (``"stick-the-dealer deck=32"``),
        added to ``options``.
    :param target: the score that wins (default: the variant's, or the options').
    :param seats: the seats that hold players (default: the seats of ``players`` when they
        are as many as the players, else the variant's).
    :param players: the player of each seat, written as the ``N``/``E``/``S``/``W`` tags.
    :param tags: tags to put first, e.g. ``{"Event": "Club night", "Date": "2024-03-14"}``.
    :raises IllegalActionError: (an :class:`IllegalEntryError`) with the code ``check``
        gives for a bad option or seat (T202-T205).
    """

    _unknown_ok = False
    """Whether a card played may be ``??`` (only while a record is entered again)."""
    _ride: DealResult | None = None
    """The result of the deal being entered again in its game's replay
    (:meth:`enter_again`), which scores it: the recorder does not replay it again."""

    def __init__(self, variant: str | Variant = "four-hand", *,
                 options: Options | None = None, rules: str | None = None,
                 target: int | None = None, seats: str | Sequence[SeatLike] | None = None,
                 players: PlayersLike | None = None,
                 tags: Mapping[str, str] | None = None) -> None:
        try:
            kind = find_variant(variant) if isinstance(variant, str) else variant
        except ValueError as exc:
            raise IllegalEntryError("T202", str(exc)) from None
        names = {read_seat(s): name for s, name in seat_items(players)}
        if seats is None:
            chosen = tuple(s for s in SEATS if s in names) if len(names) == len(kind.seats) \
                else kind.seats
        else:
            letters = seats.replace(",", " ").split() if isinstance(seats, str) and (
                " " in seats.strip() or "," in seats) else list(seats)
            chosen = tuple(s for s in SEATS if s in {read_seat(x) for x in letters})
            if len(chosen) != len(kind.seats) or len(letters) != len(kind.seats):
                raise IllegalEntryError(
                    "T204", f"{kind.name} is played by {len(kind.seats)} players: name "
                            f"{len(kind.seats)} different seats, not {' '.join(map(str, letters))}")
        strangers = [s for s in names if s not in chosen]
        if strangers:
            raise IllegalEntryError(
                "T204", f"a player for {strangers[0]}, but {strangers[0]} has no seat in this "
                        f"game (the seats are {' '.join(chosen)})")
        built = [Tag(name=k, value=v) for k, v in (tags or {}).items()]
        built.append(Tag(name="Variant", value=kind.name))
        if chosen != kind.seats:
            built.append(Tag(name="Seats", value=" ".join(chosen)))
        base = options if options is not None else Options.defaults(kind)
        settings, _ = parse_rules(rules or "", kind)
        goal = target if target is not None else base.target
        fixed_deals = base.deals is not None or "deals" in settings
        if target is not None or ("target" not in settings and (
                not fixed_deals or goal != kind.target)):
            built.append(Tag(name="Target", value=str(goal)))
        spelled = replace(base, target=kind.target).spell(kind) if options is not None else ""
        words = " ".join(w for w in (spelled, rules or "") if w)
        if words:
            built.append(Tag(name="Rules", value=words))
        built.extend(Tag(name=s.value, value=names[s]) for s in chosen if names.get(s))
        super().__init__(tuple(built))

    # ------------------------------------------------------------ reading a record

    @classmethod
    def from_game(cls, game: Game) -> Recorder:
        """A recorder holding ``game`` as recorded so far, to go on with it (its tags are
        kept as written, comments and all; its deals are entered again one act at a time,
        riding the game's one replay: a deal is not replayed again to be entered).

        :raises IllegalActionError: at the first entry the recorder would refuse, with
            ``deal N:`` in front of the message.
        """
        from .again import Reentry  # (which enters into a Recorder)

        ride = Reentry(game)
        if ride.playable:
            ride.replay.end()
        return ride.enter()

    @classmethod
    def resumed(cls, tags: tuple[Tag, ...]) -> Recorder:
        """A recorder of no deal yet with the header ``tags`` kept as written, to enter the
        deals of a record again (:meth:`enter_again`).

        :raises IllegalActionError: for a tag that makes no game.
        """
        rec = cls.__new__(cls)
        RecordedGame.__init__(rec, tags)
        return rec

    def enter_again(self, deal: Deal, result: DealResult | None, before: Mapping[str, int],
                    *, finished: bool, clean: bool) -> None:
        """Enters a deal of a record again, one act at a time, after the game's replay took
        it: ``result`` is its result there (``None`` past the game's end), ``before`` the
        running totals before it. A ``clean`` deal (no fault in that replay) is scored by
        ``result`` and not replayed again. A ``finished`` deal that cannot be entered act by
        act (its points only, a card not known) is kept as written.

        :raises IllegalActionError: at the first entry refused in a deal not finished, with
            ``deal N:`` in front of the message.
        """
        count = len(self._deals)
        self._unknown_ok = True
        self._ride = result if clean else None
        try:
            self._enter_deal(deal)
        except IllegalActionError as exc:
            if not finished or result is None:
                raise type(exc)(exc.code, f"deal {deal.number}: {exc.message}") from None
        finally:
            self._unknown_ok = False
            self._ride = None
        if (finished and self.deal_open) or len(self._deals) == count:
            del self._deals[count:]
            assert result is not None  # (a deal past the end is refused, D307)
            self._keep(deal, before, result)

    def truncate(self, deals: int) -> None:
        """Takes back every deal after the first ``deals`` (with all their entries)."""
        del self._deals[deals:]

    def _enter_deal(self, deal: Deal) -> None:
        hands: dict[Seat, tuple[Card | None, ...]] = {}
        for line in deal.hands:
            hands.update(line.cards)
        up = deal.up
        claimed = {c.seat for c in deal.claims}
        if claimed and not deal.tricks:
            raise IllegalEntryError(
                "R803", "the record has a renege claim in a deal without its play; the "
                        "recorder records a renege where it is played")
        self.deal(hands, upcard=up.card if up else None, kitty=up.kitty if up else None,
                  extra=deal.extra.cards if deal.extra else None, dealer=deal.dealer)
        for penalty in deal.penalties:
            self.penalty(penalty.who, penalty.points, penalty.reason)
        for bid in deal.bids:
            self.bid(bid)
        for act in deal.acts:
            self.act(act)
        sheet = deal.sheet
        if sheet is not None and self.deal_open:
            self.sheet(trump=sheet.trump, maker=sheet.maker, alone=sheet.alone,
                       defend=sheet.defend, bid=sheet.bid, tricks=sheet.tricks,
                       taken=sheet.taken, thrown=sheet.thrown)
        for trick in deal.tricks:
            for play in trick.plays:
                try:
                    self.play(play)
                except RenegeError:
                    self.renege(play, claimed=play.seat in claimed)
        shown = {r.seat for r in self._deals[-1].reneges if r.claimed} if self._deals else set()
        if claimed - shown:
            seat = sorted(claimed - shown)[0]
            raise IllegalEntryError("R803", f"renege claimed against {seat}, but the record "
                                            f"shows no renege by {seat}")

    def _keep(self, deal: Deal, before: Mapping[str, int], result: DealResult) -> None:
        """Keeps a finished deal as written, with the points ``check`` gives it (the change
        of the running totals, penalties included): a deal that cannot be entered act by
        act, such as one written as its points only or with a card not known."""
        cards = DealCards(deal.number, deal.dealer)
        after = result.totals
        points = {s: after.get(s, 0) - before.get(s, 0) for s in self.ruleset.side_names}
        self._deals.append(DealRecord(cards, deal_state(self.ruleset, cards), points=points,
                                      kept=deal, thrown=result.thrown))

    @classmethod
    def loads(cls, text: str) -> Recorder:
        """A recorder holding the last game of a record in the notation.

        :raises NotationError: for a syntax error.
        :raises IllegalActionError: as :meth:`from_game`.
        """
        from ..notation import loads

        log = loads(text)
        if not log.games:
            raise RecorderError("the record holds no game")
        return cls.from_game(log.games[-1])

    # ------------------------------------------------------------ deals

    def verify_deal(self, hands: HandsLike | None = None, *,
                    upcard: CardLike = None, kitty: CardsLike | None = None,
                    extra: CardsLike | None = None, dealer: SeatLike | None = None) -> None:
        """Raises :class:`IllegalActionError` if :meth:`deal` would refuse these cards."""
        self._new_deal(hands, upcard, kitty, extra, dealer)

    def deal(self, hands: HandsLike | None = None, *,
             upcard: CardLike = None, kitty: CardsLike | None = None,
             extra: CardsLike | None = None, dealer: SeatLike | None = None) -> None:
        """Starts the next deal with the cards that are known.

        :param hands: the hands dealt, by seat, for the seats whose hand is known; a hand is
            all the cards dealt to the seat (``None`` or ``"??"`` for a card not seen).
        :param upcard: the turned-up card (needed to record an order up).
        :param kitty: the rest of the undealt cards (the stock in two-hand), if seen.
        :param extra: the dummy (cutthroat) or the ghost hand (ghost), if seen.
        :param dealer: the dealer; by default, and necessarily after the first deal, the
            seat the deal passes to (C7).
        :raises IllegalActionError: for cards that do not fit the deal (D303-D306), a dealer
            out of turn (D302) or a deal after the end of the game (D307).
        :raises RecorderError: while a deal is open.
        """
        self._deals.append(self._new_deal(hands, upcard, kitty, extra, dealer))

    def deal_random(self, rng: random.Random | None = None, *,
                    dealer: SeatLike | None = None) -> DealCards:
        """Shuffles and deals the next deal (every card known), and returns its cards."""
        rng = rng or random.Random()
        deck = list(make_deck(self.ruleset.options.deck))
        rng.shuffle(deck)
        who = read_seat(dealer) if dealer is not None else (self.dealer or self.seats[0])
        size = self.variant.hand_size
        hands = {}
        for k, seat in enumerate(clockwise_from(who.left, self.seats)):
            hands[seat] = tuple(sort_hand(deck[k * size:(k + 1) * size]))
        used = size * len(self.seats)
        extra = tuple(sort_hand(deck[used:used + self.ruleset.extra_size])) \
            if self.ruleset.extra_hand else None
        used += self.ruleset.extra_size
        upcard = deck[used] if self.variant.upcard else None
        kitty = tuple(deck[used + 1:]) if self.variant.upcard else None
        self.deal(dict(hands), upcard=upcard, kitty=kitty, extra=extra, dealer=who)
        return self._deals[-1].cards

    def _new_deal(self, hands: HandsLike | None, upcard: CardLike,
                  kitty: CardsLike | None, extra: CardsLike | None,
                  dealer: SeatLike | None) -> DealRecord:
        if self.deal_open:
            raise RecorderError(f"deal {self.deal_number} is still open: finish it (or undo "
                                "it) before the next")
        number = len(self._deals) + 1
        if self.over:
            raise IllegalEntryError("D307", f"deal {number} would be recorded after the game "
                                            f"ended ({self._score_text()})")
        due = self.dealer
        who = read_seat(dealer) if dealer is not None else (due or self.seats[0])
        if who not in self.seats:
            raise IllegalEntryError("D302", f"deal {number} is dealt by {who}, but {who} has "
                                            f"no player: the seats are {' '.join(self.seats)}")
        if due is not None and who != due:
            last = self._deals[-1]
            redealt = last.thrown and who == last.cards.dealer
            why = rotation(last.cards.number, last.cards.dealer, due, redealt)
            raise IllegalEntryError("D302", f"deal {number} is dealt by {who}, but {why}")
        cards = DealCards(
            number, who, {read_seat(s): read_cards(c) for s, c in seat_items(hands)},
            read_card(upcard), read_cards(kitty) if kitty is not None else None,
            read_cards(extra) if extra is not None else None)
        if cards.extra is not None and self.ruleset.extra_hand is None:
            raise IllegalEntryError("D303", "a dummy or ghost hand, but this game has none")
        if cards.upcard is not None and not self.variant.upcard:
            raise IllegalEntryError("D306", f"{self.variant.name} has no upcard and no kitty")
        deal = DealRecord(cards, deal_state(self.ruleset, cards))
        if self._ride is None:  # (else the game's replay checked the cards)
            fault = first_fault(replay_deal(self.tags, deal, done=False))
            if fault is not None:
                raise fault
        return deal

    def _open(self) -> DealRecord:
        if not self.deal_open:
            what = "the game is over" if self.over else "call deal() first"
            raise RecorderError(f"no deal is open: {what}")
        return self._deals[-1]

    # ------------------------------------------------------------ acts

    def act(self, action: Action) -> None:
        """Enters any act: a bid, the exchange, a merge, a declaration or a play."""
        if isinstance(action, Pass | Order | Call | Number | Swap):
            self.bid(action)
        elif isinstance(action, Exchange):
            self.exchange(action)
        elif isinstance(action, Merge):
            self.merge(action)
        elif isinstance(action, Declaration):
            self.declare(action)
        else:
            self.play(action)

    def verify(self, action: Action) -> None:
        """Raises :class:`IllegalActionError` if :meth:`act` would refuse ``action``."""
        deal = self._open()
        state = deal.state
        deck = self.ruleset.options.deck
        if isinstance(action, Pass | Order | Call | Number | Swap):
            _refuse(state.check_bid(action))
            if (isinstance(action, Order) and state.upcard is None
                    and self.variant.bidding == "euchre"):
                raise IllegalEntryError(
                    "B406", f"{action.seat} orders up, but the upcard is not recorded: trump "
                            "would be unknown (give the upcard when the deal starts)")
        elif isinstance(action, Exchange):
            in_deck(deck, action.discard, f"discarded by {action.seat}")
            _refuse(state.check_exchange(written_exchange(state, action)))
        elif isinstance(action, Merge):
            for card in action.keeps or ():
                in_deck(deck, card, f"kept by {action.seat}")
            _refuse(state.check_merge(action))
        elif isinstance(action, Declaration):
            _refuse(state.check_declare(action))
        else:
            in_deck(deck, action.card, f"played by {action.seat}")
            _refuse(state.check_play(action))
            if action.card is None and not self._unknown_ok:
                raise IllegalEntryError(
                    "C905", f"{action.seat} plays ??: a trick with an unknown card has no "
                            "winner, so the deal could not be scored (enter the card, or "
                            "record the deal from the score sheet)")

    def can(self, action: Action) -> bool:
        """Whether :meth:`act` would take ``action`` now."""
        try:
            self.verify(action)
        except (IllegalActionError, RecorderError):
            return False
        return True

    def bid(self, bid: Bid) -> None:
        """Enters a bid (a pass, an order, a call, a trick bid or a ghost swap)."""
        self.verify(bid)
        deal = self._open()
        deal.rounds.append(deal.state.round)
        deal.state.apply_bid(bid)
        deal.entries.append(bid)
        self._after(deal)

    def exchange(self, exchange: Exchange) -> None:
        """Enters the dealer's exchange: the upcard taken and a card discarded (``None``
        when not seen), or declined."""
        self.verify(exchange)
        deal = self._open()
        exchange = written_exchange(deal.state, exchange)
        deal.state.apply_exchange(exchange)
        deal.entries.append(exchange)
        self._after(deal)

    def merge(self, merge: Merge) -> None:
        """Enters the maker taking up the dummy (cutthroat), with the cards kept if known."""
        self.verify(merge)
        deal = self._open()
        deal.state.apply_merge(merge)
        deal.entries.append(merge)
        self._after(deal)

    def declare(self, declaration: Declaration) -> None:
        """Enters the maker going alone or a defender defending alone."""
        self.verify(declaration)
        deal = self._open()
        deal.state.apply_declare(declaration)
        deal.entries.append(declaration)
        self._after(deal)

    def play(self, play: Play) -> None:
        """Enters a card played.

        :raises RenegeError: for a renege at the very play (R801) or a play that proves an
            earlier one (R802); the play is not taken.
        """
        self.verify(play)
        deal = self._open()
        proofs = deal.state.apply_play(play)
        deal.entries.append(play)
        if proofs:
            deal.entries.pop()
            self._rebuild(deal)
            raise proved_renege(proofs[0])
        self._after(deal)

    def renege(self, play: Play, *, claimed: bool) -> None:
        """Enters a play that breaks the rule of following suit, as it happened at the table:
        a renege at the very play (R801), or a play that proves an earlier one (R802).

        With ``claimed`` the table noticed and penalised it: the deal records a renege claim
        against the seat and scores the penalty instead of the tricks (P2, P3), so the deal
        ends with that trick (in ghost it is played out, and the offender's loss is added).
        Without, the tricks stand as played, and ``check`` reports the renege with the
        penalty it would have cost.

        :raises IllegalActionError: when the play is refused for another reason (a card
            not held, out of turn...); the play is not taken.
        :raises RecorderError: when the play is no renege at all (enter it with :meth:`play`).
        """
        deal = self._open()
        reneged = False
        try:
            self.verify(play)
        except RenegeError:
            reneged = True
        trick = len(deal.state.tricks) + 1
        proofs = deal.state.apply_play(play)
        if not reneged and not proofs:
            self._rebuild(deal)
            raise RecorderError(f"{play.seat} plays {play.card}: that is no renege (enter it "
                                "as a play)")
        if proofs:
            trick = proofs[0].trick + 1
        deal.entries.append(play)
        deal.reneges.append(Renege(len(deal.entries) - 1, play.seat, trick, claimed))
        self._after(deal)

    def sheet(self, trump: Trump | str | None = None, maker: SeatLike | None = None, *,
              alone: bool | SeatLike | None = None, defend: SeatLike | None = None,
              bid: int | str | None = None, tricks: int | None = None,
              taken: TakenLike | None = None, thrown: bool = False,
              dealer: SeatLike | None = None) -> None:
        """Enters the score-sheet line of a deal, which finishes it.

        With no deal open, a deal is started without cards (``dealer`` as in :meth:`deal`).
        In an open deal where no card has been played, it finishes the deal from the sheet:
        trump, maker, lone hands and the trick bid default to what the bidding and the
        declarations fixed. ``trump`` is a suit, or ``"NT"`` for no trump (H5). ``tricks``
        is the makers' count; in ghost, give ``bid`` (3-6 or ``"moon"``) and ``taken``, each
        player's tricks. ``alone`` is ``True`` when the maker went alone, or the seat that
        went alone: under ``partner-alone`` the maker's partner may, and its ``alone`` line
        is then written before the score-sheet line (whose ``alone`` does not say which
        maker it was, notation.md).

        :raises IllegalActionError: for a line that cannot be right (C903, B408, A601,
            A602, A604, B410) or cannot be scored (C905).
        """
        opened = False
        if not self.deal_open:
            self.deal(dealer=dealer)
            opened = True
        try:
            self._sheet(trump, maker, alone, defend, bid, tricks, taken, thrown)
        except BaseException:
            if opened:
                self._deals.pop()
            raise

    def thrown_in(self, *, dealer: SeatLike | None = None) -> None:
        """Enters a deal that everyone passed, from the score sheet (``thrown in``)."""
        self.sheet(thrown=True, dealer=dealer)

    def verify_penalty(self, who: SideLike, points: int, reason: str) -> Penalty:
        """The penalty line :meth:`penalty` would enter, or raises why it would not."""
        if not self._deals:
            raise RecorderError("no deal yet: a penalty is charged in a deal")
        return penalty_line(self.ruleset, who, points, reason)

    def penalty(self, who: SideLike, points: int, reason: str) -> None:
        """Charges a penalty (H6) to a player (a seat) or a side: its side loses ``points``
        from this deal on. It goes in the open deal, or, when none is open, in the last
        deal; it is no finding, and the running totals take it.

        :raises IllegalActionError: for a player or side not in the game (C904), points
            below 1 or an empty reason (S101).
        :raises RecorderError: before the first deal.
        """
        line = self.verify_penalty(who, points, reason)
        deal = self._deals[-1]
        deal.entries.append(line)
        deal.written = None

    def _sheet(self, trump: Trump | str | None, maker: SeatLike | None,
               alone: bool | SeatLike | None, defend: SeatLike | None, bid: int | str | None,
               tricks: int | None, taken: TakenLike | None, thrown: bool) -> None:
        deal = self._open()
        line, acts = sheet_line(deal, trump, maker, alone, defend, bid, tricks, taken, thrown)
        deal.entries.append(line)
        deal.sheet_acts = acts
        fault, points, thrown = self._scored(deal)
        if fault is None and points is None:
            fault = IllegalEntryError(
                "C905", "the deal cannot be scored from this line: "
                        + ("give the bid and each player's tricks"
                           if not self.variant.scoring else "give the tricks the makers took"))
        if fault is not None:
            deal.entries.pop()
            deal.sheet_acts = ()
            raise fault
        deal.points = dict(points or {})
        deal.thrown = thrown

    def _after(self, deal: DealRecord) -> None:
        """Scores a deal that has just finished, through the replay ``check`` runs; a fault
        that replay finds in it (there should be none) refuses the last entry."""
        if not deal.ended:
            return
        fault, points, thrown = self._scored(deal, (r.seat for r in deal.reneges))
        if fault is None and points is None:
            fault = IllegalEntryError("C905", "the deal cannot be scored from what was entered")
        if fault is not None:
            deal.entries.pop()
            self._rebuild(deal)
            raise fault
        deal.points = dict(points or {})
        deal.thrown = thrown

    def _scored(self, deal: DealRecord, reneged: Iterable[Seat] = ()
                ) -> tuple[IllegalEntryError | None, dict[str, int] | None, bool]:
        """The fault, points and thrown-in flag of a deal that has just finished: by the
        replay ``check`` runs (:func:`~.checks.replay_deal`; the reneges of the seats in
        ``reneged`` were entered as such), or, for a deal entered again after its game's
        replay took it cleanly, by that replay's result."""
        ride = self._ride
        if ride is not None:
            return None, ride.points, ride.thrown
        report = replay_deal(self.tags, deal, done=True)
        result = report.deals[0] if report.deals else None
        return (first_fault(report, reneged), result.points if result else None,
                result.thrown if result else False)

    # ------------------------------------------------------------ undo

    def undo(self) -> DealCards | Entry:
        """Takes back the last entry (or the start of a deal with no entry yet) and returns
        it.

        :raises RecorderError: when nothing has been recorded.
        """
        if not self._deals:
            raise RecorderError("nothing to undo")
        deal = self._deals[-1]
        if not deal.entries:
            self._deals.pop()
            return deal.cards
        entry = deal.entries.pop()
        if isinstance(entry, Sheet):
            deal.sheet_acts = ()
        if deal.kept is None:  # a kept deal's entries are penalties: nothing to replay
            self._rebuild(deal)
        return entry

    def _rebuild(self, deal: DealRecord) -> None:
        """Replays a deal's entries on a fresh engine state (each was verified when taken)."""
        deal.restart()
        if deal.sheet is not None or deal.ended:
            result = replay_deal(self.tags, deal, done=True).deals[0]
            deal.points = dict(result.points or {})
            deal.thrown = result.thrown


def _refuse(fault: IllegalActionError | None) -> None:
    """Raises the fault of an act by the rules, as a record may write it (the engine's
    ``check_*``: an exchange may leave its discard unnamed, a lead come before it)."""
    if fault is not None:
        raise fault
