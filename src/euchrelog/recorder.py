"""Recording a game while it is played: :class:`Recorder`.

A recorder holds one game. It is fed the deals (with whatever cards are known), the bids,
the dealer's exchange, the merge and lone declarations and every card played, or, for a
deal known only from the score sheet, its score-sheet line. Each entry is verified against
:class:`~euchrelog.engine.DealState` (and, for the cards of a deal, a score-sheet line and
a finished deal, against the replay that ``euchrelog check`` runs) before it is taken, so
the record is right by construction: an illegal entry raises
:class:`~euchrelog.errors.IllegalActionError` with the finding code ``check`` would give,
and changes nothing. :meth:`Recorder.undo` takes back the last entry;
:meth:`Recorder.from_game` rebuilds a recorder from a record, to go on with it.

>>> rec = Recorder("four-hand", target=1, players={"N": "Ann", "E": "Ben", "S": "Cy", "W": "Dee"})
>>> rec.deal({"E": "9C TC QS KS AD", "S": "9S TS AS 9D TD", "W": "JD AH KH QH 9H",
...           "N": "AC KC QC JC KD"}, upcard="JH", dealer="N")
>>> rec.bid(Pass(act="pass", seat=Seat.E))
>>> try:
...     rec.bid(Order(act="order", seat=Seat.W))
... except IllegalActionError as exc:
...     print(exc)
B401 W bids out of turn in round 1: it is S's turn
>>> rec.bid(Order(act="order", seat=Seat.S))
>>> rec.sheet(tricks=3)
>>> rec.over, rec.winner, rec.totals
(True, 'NS', {'NS': 1, 'EW': 0})
>>> print(rec.dumps().split("\\n\\n")[1])
deal 1 dealer N
  hands E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: JD AH KH QH 9H  N: AC KC QC JC KD
  up JH
  bid E pass, S order
  trump H maker S tricks 3
  points NS 1  total NS 1 EW 0
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from pydantic import ValidationError

from .cards import Card, Trump, effective_suit, make_deck, parse_card, parse_trump, sort_hand
from .engine import Action, DealState, Phase, proved_renege
from .errors import EuchrelogError, IllegalActionError, RenegeError
from .files import write_atomic
from .findings import CODES
from .models import (
    Bid,
    Bidding,
    Call,
    Claim,
    Deal,
    Declaration,
    End,
    Exchange,
    Extra,
    Game,
    Hands,
    Log,
    Merge,
    Number,
    Order,
    Pass,
    Penalty,
    Play,
    Score,
    Sheet,
    Swap,
    Tag,
    Trick,
    Upcard,
)
from .notation.writer import dumps
from .replay import DealResult, GameReport, replay, rotation
from .rules import (
    MOON,
    Options,
    Ruleset,
    Variant,
    find_variant,
    parse_rules,
    ruleset_from_tags,
)
from .seats import SEATS, Seat, clockwise_from, parse_seat

__all__ = [
    "Action", "CardLike", "CardsLike", "DealCards", "Entry", "HandsLike", "IllegalEntryError",
    "PlayersLike", "Recorder", "RecorderError", "SeatLike", "SideLike", "TakenLike",
    "write_atomic",
]

CardLike = Card | str | None
"""A card as a :class:`~euchrelog.cards.Card`, as text (``"TH"``, ``"10h"``), or ``None``
(or ``"??"``) for a card not seen."""
CardsLike = str | Sequence[CardLike]
"""Cards as a sequence, or as one string of cards separated by spaces (``"9C TC QS"``)."""
SeatLike = Seat | str
"""A seat, or its letter."""
SideLike = Seat | str
"""A player (a seat, or its letter) or a side (``NS``, ``EW``)."""
HandsLike = Mapping[Seat, CardsLike] | Mapping[str, CardsLike]
"""Cards by seat (the seat as a :class:`~euchrelog.seats.Seat` or its letter)."""
TakenLike = Mapping[Seat, int] | Mapping[str, int]
"""Tricks by seat."""
PlayersLike = Mapping[Seat, str] | Mapping[str, str]
"""Names by seat."""


class IllegalEntryError(IllegalActionError):
    """An entry the recorder refuses for a reason the deal's engine state does not see: the
    cards of a deal (D303-D306), the dealer (D302), a score-sheet line (C903, B408, C905),
    a deal after the end (D307), a play or card the record could not score (B406, C905)."""


class RecorderError(EuchrelogError, ValueError):
    """A call out of place rather than an act against the rules: no deal is open, a deal is
    already open, nothing to undo."""


@dataclass(frozen=True)
class DealCards:
    """How a deal starts: its number, its dealer and the cards seen before the bidding."""

    number: int
    dealer: Seat
    hands: Mapping[Seat, tuple[Card | None, ...]] = field(default_factory=dict)
    """The hands dealt, by seat, for the seats whose hand is known (``None``: a card not
    seen)."""
    upcard: Card | None = None
    kitty: tuple[Card | None, ...] | None = None
    extra: tuple[Card | None, ...] | None = None
    """The dummy (cutthroat) or the ghost hand (ghost)."""


Entry = Action | Sheet | Penalty
"""What the recorder takes within a deal: a bid, the exchange, a merge, a declaration, a
play, a score-sheet line, or a penalty."""

T = TypeVar("T")

_DEAL_PREFIX = re.compile(r"^deal \d+: ")


def _card(value: CardLike) -> Card | None:
    if value is None or isinstance(value, Card):
        return value
    try:
        return parse_card(value.strip())
    except ValueError as exc:
        raise IllegalEntryError("S101", str(exc)) from None


def _cards(value: CardsLike) -> tuple[Card | None, ...]:
    items: Iterable[CardLike] = value.replace(",", " ").split() if isinstance(value, str) \
        else value
    return tuple(_card(v) for v in items)


def _seat(value: SeatLike) -> Seat:
    if isinstance(value, Seat):
        return value
    try:
        return parse_seat(value.strip().upper())
    except ValueError as exc:
        raise IllegalEntryError("S101", str(exc)) from None


@dataclass(frozen=True)
class _Renege:
    """A play entered as a renege that happened at the table (P1)."""

    entry: int
    """Its place among the deal's entries."""
    seat: Seat
    trick: int
    """The trick of the renege, 1-based."""
    claimed: bool
    """Whether the table claimed it (P2): the deal records a claim and scores the penalty."""


@dataclass
class _Deal:
    """One deal as recorded: how it started, what was entered, and where it stands."""

    cards: DealCards
    state: DealState
    entries: list[Entry] = field(default_factory=list)
    reneges: list[_Renege] = field(default_factory=list)
    """The plays among ``entries`` that were entered as reneges, in order."""
    rounds: list[int] = field(default_factory=list)
    """The bidding round of each bid among ``entries``, in order (the bid lines)."""
    points: dict[str, int] | None = None
    """The points the deal scored, once it is over."""
    written: Deal | None = None
    """The record of the deal once it is over, with its points and total (kept, so that
    writing the game after every entry does not rebuild every deal)."""
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


class Recorder:
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

    def __init__(self, variant: str | Variant = "four-hand", *,
                 options: Options | None = None, rules: str | None = None,
                 target: int | None = None, seats: str | Sequence[SeatLike] | None = None,
                 players: PlayersLike | None = None,
                 tags: Mapping[str, str] | None = None) -> None:
        try:
            kind = find_variant(variant) if isinstance(variant, str) else variant
        except ValueError as exc:
            raise IllegalEntryError("T202", str(exc)) from None
        names = {_seat(s): name for s, name in _items(players)}
        if seats is None:
            chosen = tuple(s for s in SEATS if s in names) if len(names) == len(kind.seats) \
                else kind.seats
        else:
            letters = seats.replace(",", " ").split() if isinstance(seats, str) and (
                " " in seats.strip() or "," in seats) else list(seats)
            chosen = tuple(s for s in SEATS if s in {_seat(x) for x in letters})
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
        self._start(tuple(built))

    def _start(self, tags: tuple[Tag, ...]) -> None:
        values: dict[str, str] = {}
        for tag in tags:
            values.setdefault(tag.name, tag.value)
        ruleset, problems = ruleset_from_tags(values)
        errors = [p for p in problems if CODES[p.code].severity == "error"]
        if errors:
            raise IllegalEntryError(errors[0].code, errors[0].message)
        self.ruleset: Ruleset = ruleset
        """The variant, house rules and seats of the game."""
        self.tags: tuple[Tag, ...] = tags
        """The header of the record."""
        self._deals: list[_Deal] = []
        self._unknown_ok = False
        """Whether a card played may be ``??`` (only while a record is entered again)."""

    # ------------------------------------------------------------ reading a record

    @classmethod
    def from_game(cls, game: Game) -> Recorder:
        """A recorder holding ``game`` as recorded so far, to go on with it (its tags are
        kept as written, comments and all; its deals are entered again one act at a time).

        :raises IllegalActionError: at the first entry the recorder would refuse, with
            ``deal N:`` in front of the message.
        """
        rec = cls.__new__(cls)
        rec._start(game.tags)
        report = replay(game)
        fault = _resume_fault(game, report)
        if fault is not None:
            raise fault
        rec._unknown_ok = True
        for index, deal in enumerate(game.deals):
            count = len(rec._deals)
            finished = index < len(game.deals) - 1 or deal.score is not None
            try:
                rec._enter_deal(deal)
            except IllegalActionError as exc:
                if not finished or index >= len(report.deals):
                    raise type(exc)(exc.code, f"deal {deal.number}: {exc.message}") from None
            if (finished and rec.deal_open) or len(rec._deals) == count:
                del rec._deals[count:]
                rec._keep(deal, report.deals[index - 1].totals if index else {},
                          report.deals[index])
        rec._unknown_ok = False
        end = game.end
        if end is not None and end.act == "result" and not rec.over:
            raise IllegalEntryError("G955", "a result is recorded, but the game had not ended")
        return rec

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
        if deal.exchange is not None:
            self.exchange(deal.exchange)
        for act in deal.declarations:
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
        self._deals.append(_Deal(cards, self._state(cards), points=points, kept=deal,
                                 thrown=result.thrown))

    @classmethod
    def loads(cls, text: str) -> Recorder:
        """A recorder holding the last game of a record in the notation.

        :raises NotationError: for a syntax error.
        :raises IllegalActionError: as :meth:`from_game`.
        """
        from .notation import loads

        log = loads(text)
        if not log.games:
            raise RecorderError("the record holds no game")
        return cls.from_game(log.games[-1])

    # ------------------------------------------------------------ where the game stands

    @property
    def variant(self) -> Variant:
        """The variant played."""
        return self.ruleset.variant

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats that hold players, clockwise from North."""
        return self.ruleset.seats

    @property
    def deal_open(self) -> bool:
        """Whether a deal has been started and is not finished."""
        return bool(self._deals) and not self._deals[-1].over

    @property
    def state(self) -> DealState | None:
        """The engine state of the open deal (read it, do not change it), or ``None``."""
        return self._deals[-1].state if self.deal_open else None

    @property
    def deal_number(self) -> int:
        """The number of the open deal, or of the next one."""
        if self.deal_open or not self._deals:
            return len(self._deals) or 1
        return len(self._deals) + 1

    @property
    def dealer(self) -> Seat | None:
        """The dealer of the open deal, or of the next one (``None`` before the first)."""
        if not self._deals:
            return None
        last = self._deals[-1]
        if not last.over:
            return last.cards.dealer
        return self.ruleset.next_dealer(last.cards.dealer, last.thrown)

    @property
    def entries(self) -> list[Entry]:
        """What was entered in the open deal (or the last one), in order."""
        return list(self._deals[-1].entries) if self._deals else []

    @property
    def deal_cards(self) -> DealCards | None:
        """How the open deal (or the last one) started."""
        return self._deals[-1].cards if self._deals else None

    @property
    def deals(self) -> int:
        """The number of deals recorded, the open one included."""
        return len(self._deals)

    def points(self, index: int = -1) -> dict[str, int] | None:
        """The points a deal scored (by default the last), or ``None`` while it is open."""
        if not self._deals:
            return None
        points = self._deals[index].points
        return dict(points) if points is not None else None

    def alone(self, index: int = -1) -> Seat | None:
        """The seat that went alone for the makers in a deal (by default the last), as the
        record writes it: its ``alone`` line, else the maker of a score-sheet line that says
        ``alone``; ``None`` if no one did."""
        if not self._deals:
            return None
        deal = self._deals[index]
        model = deal.kept or self._deal_model(deal)
        lone = [d.seat for d in model.declarations
                if isinstance(d, Declaration) and d.act == "alone"]
        if lone:
            return lone[0]
        sheet = model.sheet
        return sheet.maker if sheet is not None and sheet.alone else None

    @property
    def totals(self) -> dict[str, int]:
        """The score of each side after the finished deals."""
        totals = dict.fromkeys(self.ruleset.side_names, 0)
        for deal in self._deals:
            self._add(totals, deal)
        return totals

    def _add(self, totals: dict[str, int], deal: _Deal) -> None:
        """Adds a deal's points to running totals, less its penalties (H6)."""
        for side, n in (deal.points or {}).items():
            totals[side] = totals.get(side, 0) + n
        for penalty in deal.penalties:
            side = self.ruleset.side_of(penalty.who)
            totals[side] = totals.get(side, 0) - penalty.points

    @property
    def over(self) -> bool:
        """Whether the game has ended (C9, X9, G7)."""
        finished = [d for d in self._deals if d.over]
        if not finished or self.deal_open:
            return False
        counted = sum(self.ruleset.counts(d.thrown) for d in finished)
        return self.ruleset.outcome(self.totals, counted) is not None

    @property
    def winner(self) -> str | None:
        """The winning side once the game is over (``None`` for a tie after ``deals=N``)."""
        if not self.over:
            return None
        totals = self.totals
        best = max(totals.values())
        leaders = [s for s, v in totals.items() if v == best]
        return leaders[0] if len(leaders) == 1 else None

    @property
    def exchange_pending(self) -> bool:
        """Whether the dealer may still take the upcard (or decline it) in the open deal:
        the engine's :attr:`DealState.exchange_due <euchrelog.engine.DealState.exchange_due>`."""
        return self.state is not None and self.state.exchange_due

    def turn(self) -> Seat | None:
        """The seat to act in the open deal: the bidder, the dealer while the exchange is
        open, else the seat to play; ``None`` when no deal is open."""
        state = self.state
        if state is None:
            return None
        if state.phase is Phase.BIDDING:
            return next((b.seat for b in state.legal_actions()), None)
        if self.exchange_pending:
            return state.dealer
        return state.to_play()

    def legal_actions(self, *, any_card: bool = False) -> list[Action]:
        """What may be entered next in the open deal.

        These are the engine's legal acts (:meth:`DealState.legal_actions`), except that
        while the dealer's exchange is open the plays wait for it, and plays that would
        prove an earlier renege (R802) are left out. With ``any_card``, the plays include
        every card of the deck the seat may hold, not only the cards known to be in its
        hand (for a hand that was not recorded).
        """
        state = self.state
        if state is None:
            return []
        acts: list[Action] = [a for a in state.legal_actions() if not isinstance(a, Play)]
        return acts + list(self.plays(any_card=any_card))

    def plays(self, *, any_card: bool = False) -> list[Play]:
        """The plays among :meth:`legal_actions`: none while the bidding or the dealer's
        exchange is open, else the cards the seat to play may play (with ``any_card``, every
        card of the deck it may hold, not only those known to be in its hand)."""
        state = self.state
        if state is None or state.phase is Phase.BIDDING or self.exchange_pending:
            return []
        seat = state.to_play()
        if seat is None:
            return []
        pool: Iterable[Card] = make_deck(self.ruleset.options.deck) if any_card else sorted(
            state.hands[seat].cards, key=str)
        return [Play(seat=seat, card=c) for c in pool if self._playable(state, seat, c)]

    @staticmethod
    def _playable(state: DealState, seat: Seat, card: Card) -> bool:
        play = Play(seat=seat, card=card)
        if not state.can_play(play):
            return False
        trump = state.trump
        return trump is None or effective_suit(card, trump) not in state.showouts[seat]

    # ------------------------------------------------------------ the record

    def model(self) -> Game:
        """The record of the game so far: the finished deals with their points and running
        totals, the open deal as far as it went, and ``result`` or ``unfinished``."""
        deals: list[Deal] = []
        totals = dict.fromkeys(self.ruleset.side_names, 0)
        for deal in self._deals:
            score = None
            self._add(totals, deal)
            if deal.kept is not None:
                deals.append(self._kept_model(deal.kept, deal.penalties, totals))
                continue
            if deal.points:
                points = {s: deal.points[s] for s in self.ruleset.side_names if s in deal.points}
                score = Score(points=points, total=dict(totals))
            elif deal.over and deal.penalties:
                score = Score(total=dict(totals))
            written = deal.written if deal.over else None
            if written is None:
                written = self._deal_model(deal, score)
                if deal.over:
                    deal.written = written
            deals.append(written)
        if self.over:
            end = End(act="result", scores=dict(totals), winner=self.winner)
        else:
            end = End(act="unfinished")
        return Game(tags=self.tags, deals=tuple(deals), end=end)

    def dumps(self) -> str:
        """The record of the game so far in canonical notation."""
        return dumps(Log(games=(self.model(),)))

    def save(self, path: str | os.PathLike[str], before: Sequence[Game] = (), *,
             force: bool = False) -> None:
        """Writes the record to ``path`` atomically (see :func:`write_atomic`), after the
        games in ``before``; a read-only file only when ``force``.

        :raises OSError: when it cannot be written; the file is then unchanged.
        """
        write_atomic(path, dumps(Log(games=(*before, self.model()))), force=force)

    @staticmethod
    def _kept_model(kept: Deal, penalties: tuple[Penalty, ...], totals: Mapping[str, int]
                    ) -> Deal:
        """A deal kept as read, with the penalties charged in it since after its own, and
        then the running totals after them."""
        if not penalties:
            return kept
        score = (kept.score.model_copy(update={"total": dict(totals)}) if kept.score is not None
                 else Score(total=dict(totals)))
        return kept.model_copy(update={"penalties": (*kept.penalties, *penalties),
                                       "score": score})

    def _deal_model(self, deal: _Deal, score: Score | None = None) -> Deal:
        cards = deal.cards
        order = clockwise_from(cards.dealer.left, SEATS)
        hands = (Hands(cards={s: cards.hands[s] for s in order if s in cards.hands}),) \
            if cards.hands else ()
        kind = self.ruleset.extra_hand
        extra = Extra(kind=kind, cards=cards.extra) if cards.extra is not None and kind else None
        up = Upcard(card=cards.upcard, kitty=cards.kitty) if (
            cards.upcard is not None or cards.kitty is not None) else None
        lines: dict[int, list[Bid]] = {}
        exchange: Exchange | None = None
        acts: list[Merge | Declaration] = []
        sheet: Sheet | None = None
        bids = iter(deal.rounds)
        for entry in deal.entries:
            if isinstance(entry, Pass | Order | Call | Number | Swap):
                lines.setdefault(next(bids), []).append(entry)
            elif isinstance(entry, Exchange):
                exchange = entry
            elif isinstance(entry, Merge | Declaration):
                acts.append(entry)
            elif isinstance(entry, Sheet):
                sheet = entry
        if sheet is not None:
            acts.extend(deal.sheet_acts)
        state = deal.state
        played = [*state.tricks, state.current] if state.current else list(state.tricks)
        tricks = tuple(Trick(number=k, plays=tuple(Play(seat=s, card=c) for s, c in plays))
                       for k, plays in enumerate(played, 1))
        return Deal(number=cards.number, dealer=cards.dealer, hands=hands, extra=extra, up=up,
                    bidding=tuple(Bidding(bids=tuple(b)) for _, b in sorted(lines.items())),
                    exchange=exchange, declarations=tuple(acts), sheet=sheet, tricks=tricks,
                    claims=deal.claims, penalties=deal.penalties, score=score)

    # ------------------------------------------------------------ checks by replay

    def _replay_one(self, deal: _Deal, *, done: bool) -> GameReport:
        """Replays one deal on its own as ``check`` would: as the last deal of an unfinished
        record while it is open, as a whole deal when ``done``."""
        game = Game(tags=self.tags, deals=(self._deal_model(deal),),
                    end=None if done else End(act="unfinished"))
        return replay(game)

    @staticmethod
    def _first_fault(report: GameReport, reneged: Iterable[Seat] = ()
                     ) -> IllegalEntryError | None:
        """The first finding of a replay that refuses an entry; the reneges of the seats in
        ``reneged`` were entered as such (:meth:`renege`) and refuse nothing."""
        allowed = {str(seat) for seat in reneged}
        for finding in report.findings:
            # (D301: the deal is replayed on its own, after no deal before it.)
            if finding.code == "D301" or finding.kind.open == "game" or (
                    finding.severity == "warning" and not finding.kind.open):
                continue
            if finding.kind.renege and finding.seat in allowed:
                continue
            return IllegalEntryError(finding.code, _DEAL_PREFIX.sub("", finding.message))
        return None

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
        who = _seat(dealer) if dealer is not None else (self.dealer or self.seats[0])
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
                  dealer: SeatLike | None) -> _Deal:
        if self.deal_open:
            raise RecorderError(f"deal {self.deal_number} is still open: finish it (or undo "
                                "it) before the next")
        number = len(self._deals) + 1
        if self.over:
            raise IllegalEntryError("D307", f"deal {number} would be recorded after the game "
                                            f"ended ({self._score_text()})")
        due = self.dealer
        who = _seat(dealer) if dealer is not None else (due or self.seats[0])
        if who not in self.seats:
            raise IllegalEntryError("D302", f"deal {number} is dealt by {who}, but {who} has "
                                            f"no player: the seats are {' '.join(self.seats)}")
        if due is not None and who != due:
            last = self._deals[-1]
            redealt = last.thrown and who == last.cards.dealer
            why = rotation(last.cards.number, last.cards.dealer, due, redealt)
            raise IllegalEntryError("D302", f"deal {number} is dealt by {who}, but {why}")
        cards = DealCards(
            number, who, {_seat(s): _cards(c) for s, c in _items(hands)},
            _card(upcard), _cards(kitty) if kitty is not None else None,
            _cards(extra) if extra is not None else None)
        if cards.extra is not None and self.ruleset.extra_hand is None:
            raise IllegalEntryError("D303", "a dummy or ghost hand, but this game has none")
        if cards.upcard is not None and not self.variant.upcard:
            raise IllegalEntryError("D306", f"{self.variant.name} has no upcard and no kitty")
        deal = _Deal(cards, self._state(cards))
        fault = self._first_fault(self._replay_one(deal, done=False))
        if fault is not None:
            raise fault
        return deal

    def _state(self, cards: DealCards) -> DealState:
        return DealState(self.ruleset, cards.dealer, hands=dict(cards.hands), upcard=cards.upcard,
                         kitty=cards.kitty, extra=cards.extra)

    def _open(self) -> _Deal:
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
        if isinstance(action, Pass | Order | Call | Number | Swap):
            state.verify_bid(action)
            if (isinstance(action, Order) and state.upcard is None
                    and self.variant.bidding == "euchre"):
                raise IllegalEntryError(
                    "B406", f"{action.seat} orders up, but the upcard is not recorded: trump "
                            "would be unknown (give the upcard when the deal starts)")
        elif isinstance(action, Exchange):
            self._in_deck(action.discard, f"discarded by {action.seat}")
            state.verify_exchange(self._exchange(state, action))
        elif isinstance(action, Merge):
            for card in action.keeps or ():
                self._in_deck(card, f"kept by {action.seat}")
            state.verify_merge(action)
        elif isinstance(action, Declaration):
            state.verify_declare(action)
        else:
            self._in_deck(action.card, f"played by {action.seat}")
            state.verify_play(action)
            if action.card is None and not self._unknown_ok:
                raise IllegalEntryError(
                    "C905", f"{action.seat} plays ??: a trick with an unknown card has no "
                            "winner, so the deal could not be scored (enter the card, or "
                            "record the deal from the score sheet)")

    def _in_deck(self, card: Card | None, what: str) -> None:
        """Refuses a card outside the game's deck (D305), which a seat whose hand is not
        known could otherwise be entered as holding."""
        deck = self.ruleset.options.deck
        if card is not None and card not in make_deck(deck):
            raise IllegalEntryError("D305", f"{card} ({what}) is not in the {deck}-card deck")

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
        exchange = self._exchange(deal.state, exchange)
        deal.state.apply_exchange(exchange)
        deal.entries.append(exchange)
        self._after(deal)

    @staticmethod
    def _exchange(state: DealState, exchange: Exchange) -> Exchange:
        """The exchange as the record writes it: naming the upcard taken."""
        if exchange.act == "takes" and state.upcard is not None and exchange.upcard is None:
            return exchange.model_copy(update={"takes": True, "upcard": state.upcard})
        return exchange

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
        deal.reneges.append(_Renege(len(deal.entries) - 1, play.seat, trick, claimed))
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
        try:
            line = Penalty(who=str(who).strip(), points=points, reason=reason)
        except ValidationError as exc:
            error = exc.errors()[0]
            raise IllegalEntryError("S101", _plain(error["msg"])) from None
        if self.ruleset.side_of(line.who) not in self.ruleset.side_names:
            raise IllegalEntryError(
                "C904", f"a penalty to {line.who}, but {self.variant.name} scores for "
                        f"{' and '.join(self.ruleset.side_names)}")
        return line

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
        state = deal.state
        if state.tricks or state.current:
            raise IllegalEntryError(
                "C903", "cards have been played in this deal: enter the rest of the tricks "
                        "(or undo them to score the deal from the sheet)")
        bidding = any(isinstance(e, Pass | Order | Call | Number | Swap) for e in deal.entries)
        if bidding and state.phase is Phase.BIDDING:
            raise IllegalEntryError(
                "C903", "the bidding is unfinished: finish it, or undo it to score the deal "
                        "from the sheet")
        if state.phase is Phase.DECLARING and not thrown:
            trump = state.trump if trump is None else trump
            maker = state.maker if maker is None else maker
            if alone is None:
                alone = state.alone is not None
            if defend is None:
                defend = state.defender
            if bid is None:
                bid = state.contract
        if isinstance(trump, str):
            try:
                trump = parse_trump(trump.strip())
            except ValueError as exc:
                raise IllegalEntryError("S101", str(exc)) from None
        acts: list[Declaration] = []
        if alone is not None and not isinstance(alone, bool):
            seat = _seat(alone)
            if seat not in (state.alone, None if maker is None else _seat(maker)):
                acts.append(Declaration(act="alone", seat=seat))
            alone = True
        if acts and defend is not None and _seat(defend) != state.defender:
            acts.append(Declaration(act="defend", seat=_seat(defend)))
        probe = state
        if acts and state.phase is Phase.BIDDING and trump is not None and maker is not None:
            probe = self._state(deal.cards)
            probe.fix_contract(trump, _seat(maker))
        for act in acts if probe.phase is Phase.DECLARING else ():
            probe.verify_declare(act)
        fields = {
            "thrown": thrown, "trump": trump,
            "maker": _seat(maker) if maker is not None else None, "alone": bool(alone),
            "defend": _seat(defend) if defend is not None else None, "bid": _trick_bid(bid),
            "tricks": tricks,
            "taken": self._taken(taken) if taken is not None else None}
        try:
            line = Sheet.model_validate(fields)
        except ValidationError as exc:
            error = exc.errors()[0]
            where = ".".join(str(p) for p in error["loc"])
            raise IllegalEntryError("C903", _plain(f"{where}: {error['msg']}" if where
                                                   else error["msg"])) from None
        deal.entries.append(line)
        deal.sheet_acts = tuple(acts)
        report = self._replay_one(deal, done=True)
        fault = self._first_fault(report)
        points = report.deals[0].points if report.deals else None
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
        deal.thrown = report.deals[0].thrown

    def _taken(self, taken: TakenLike) -> dict[Seat, int]:
        """Each player's tricks, in seat order."""
        counts = {_seat(s): n for s, n in _items(taken)}
        return {s: counts[s] for s in sorted(counts, key=SEATS.index)}

    def _after(self, deal: _Deal) -> None:
        """Scores a deal that has just finished, through the replay ``check`` runs; a fault
        that replay finds in it (there should be none) refuses the last entry."""
        if not deal.ended:
            return
        report = self._replay_one(deal, done=True)
        fault = self._first_fault(report, (r.seat for r in deal.reneges))
        points = report.deals[0].points if report.deals else None
        if fault is None and points is None:
            fault = IllegalEntryError("C905", "the deal cannot be scored from what was entered")
        if fault is not None:
            deal.entries.pop()
            self._rebuild(deal)
            raise fault
        deal.points = dict(points or {})
        deal.thrown = report.deals[0].thrown

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

    def _rebuild(self, deal: _Deal) -> None:
        """Replays a deal's entries on a fresh engine state (each was verified when taken)."""
        state = self._state(deal.cards)
        deal.state = state
        deal.rounds = []
        deal.points = None
        deal.written = None
        deal.thrown = False
        deal.reneges = [r for r in deal.reneges if r.entry < len(deal.entries)]
        for entry in deal.entries:
            if isinstance(entry, Pass | Order | Call | Number | Swap):
                deal.rounds.append(state.round)
                state.apply_bid(entry)
            elif isinstance(entry, Exchange):
                state.apply_exchange(entry)
            elif isinstance(entry, Merge):
                state.apply_merge(entry)
            elif isinstance(entry, Declaration):
                state.apply_declare(entry)
            elif isinstance(entry, Play):
                state.apply_play(entry)
        if deal.sheet is not None or deal.ended:
            result = self._replay_one(deal, done=True).deals[0]
            deal.points = dict(result.points or {})
            deal.thrown = result.thrown

    def _score_text(self) -> str:
        return " ".join(f"{s} {n}" for s, n in self.totals.items())


def _items(mapping: Mapping[Seat, T] | Mapping[str, T] | None) -> list[tuple[SeatLike, T]]:
    """The items of a mapping keyed by seats or by seat letters."""
    return list(mapping.items()) if mapping is not None else []


def _resume_fault(game: Game, report: GameReport) -> IllegalEntryError | None:
    """The first finding of ``check`` that a record to go on with may not have: anything
    but the marks of a recording that stopped (no end line, a game that ended without its
    result line, the last deal short of tricks or points, its last trick left open); a
    renege is no fault here: it is entered again as one (:meth:`Recorder.renege`)."""
    last = game.deals[-1] if game.deals else None
    stopped = game.end is None or game.end.act == "unfinished"
    for finding in report.findings:
        if finding.kind.open == "game" or finding.kind.renege:
            continue
        if stopped and last is not None and finding.deal == last.number and (
                finding.kind.open == "deal" or (
                    finding.kind.open == "trick" and last.tricks
                    and finding.trick == last.tricks[-1].number)):
            continue
        if finding.severity == "warning" and not finding.kind.open:
            continue
        return IllegalEntryError(finding.code, finding.message)
    return None


def _trick_bid(bid: int | str | None) -> int | None:
    if bid is None or isinstance(bid, int):
        return bid
    text = bid.strip().lower()
    if text == "moon":
        return MOON
    try:
        return int(text)
    except ValueError:
        raise IllegalEntryError("B408", f"a bid of {bid!r}: a bid is 3 to 6 tricks, or moon") \
            from None


def _plain(message: str) -> str:
    """A pydantic message as one lowercase line."""
    text = message.strip().replace("Value error, ", "")
    return text[:1].lower() + text[1:]
