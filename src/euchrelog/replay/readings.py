"""The readings of a deal (P4, "one slip, one finding"): a seat letter, a card, two cards
of a trick exchanged, a lone declaration as written, and the dealer, each read otherwise
where that explains the faults behind it; the reading that leaves the fewest faults is kept.

Every reading is judged by one measure, :func:`misfit`: the faults it leaves and whether
the points written differ from those it scores. The faults are counted by replaying the deal
under the reading (a :data:`Trial`), or, for an act's seat, by the engine over the acts
after it in a copy of the deal's state. The first reading of least misfit is kept, in the
order each kind lists them: the reading as written first (a card read otherwise must also
make up for its own finding), but for an act's seat the due seat's first, since the act as
written is a fault itself. The bounds of the search are the constants below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from itertools import combinations
from typing import TYPE_CHECKING, TypeVar

from ..acts import Declaration, replaced
from ..cards import Card, deck_set
from ..engine import Action, DealState, Phase
from ..findings import Edit, Finding, Fix
from ..loci import Locus
from ..rules import Ruleset
from ..seats import Seat
from .results import DealResult, Emit, points_differ, scored

if TYPE_CHECKING:
    from ..models import Deal, Trick

A = TypeVar("A", bound=Action)


_MAX_SLIP_PLACES = 8
"""Plays whose card :meth:`CardSlips.read` reads otherwise, at the most."""
_SLIP_READINGS = 2
"""Readings of a card otherwise that the one-card-slip search may replay, on average a
deal of the game (a deal may use what the deals before it left): a record of nothing but
faults checks in time linear in its size (bench/growth.py)."""
_MAX_SOLE_PLACES = 4
"""Places of a card written wrongly, its one fault in a deal that the search of a reading
does not try, that :meth:`CardSlips.sole_reading` tries for its fix, at the most."""
_MAX_SLIP_FAULTS = 6
"""Faults of a deal beyond which :meth:`CardSlips.read` looks for one slip behind
them only in the upcard, which fixes trump (the most any other card written wrongly was seen
to cause is five). Nor does it look in a deal with more trick lines than a deal has tricks
(and one written twice), a trick line with more cards than there are players, or more cards
dealt than the deck has: a card slip is not what is wrong there, and each reading would
replay all of it."""

SlipPlace = tuple[Locus, str]
"""A card of a deal that may be written wrongly: where (its locus within the deal: a play
``("trick", t, "play", p)``, a card of a hand ``("hands", seat, "card", k)``, of the dummy or
ghost hand ``("extra", "card", k)``, the upcard ``("up",)``, a card of the kitty
``("up", "kitty", k)``), and why (``card``: it cannot be where it is; ``twice``: it is
played or dealt elsewhere too; ``hand``: its seat plays a card one letter away that the
record does not give it; ``lead``: the next trick is led out of turn; ``renege``: it is the
lead of a trick with a renege; ``exchange``: it and another card of its trick cannot be where
they are, and may be written each under the other's seat)."""
Held = tuple[Locus, Finding]
"""A finding kept back, with its place, while readings of a deal are compared."""
CardReading = tuple[SlipPlace, Card, DealResult, list[Held]]
"""A deal read with one card otherwise: where, the card, and the deal's result and findings."""
Trial = Callable[[int, "Deal"], tuple[DealResult, list[Held]]]
"""Replays deal ``d`` (its index in the game) as the deal given, and returns its result and
its findings, kept back."""


def faults_of(state: DealState, acts: Iterable[Action | None]) -> int:
    """Applies ``acts`` to ``state`` as recorded (``None`` closes a trick) and counts the
    faults, short tricks and proved reneges among them: how well a reading of the record
    fits the rules."""
    count = 0
    for act in acts:
        if act is None:
            if state.phase is Phase.PLAYING and state.current:
                count += len(state.current) < len(state.playing)  # a short trick
                state.end_trick()
            continue
        count += state.check_act(act) is not None
        count += len(state.apply_act(act))
    return count


def misfit(rules: Ruleset, deal: Deal, faults: int, points: dict[str, int] | None) -> int:
    """How badly a reading of ``deal`` fits the record: the ``faults`` it leaves, and one
    more when the points written differ from the ``points`` it scores (``None``: not
    known), since the points written are evidence too (C901)."""
    return faults + points_differ(rules, deal, points)


def read_dealer(trial: Trial, rules: Ruleset, d: int, deal: Deal, due: Seat
                ) -> tuple[DealResult, list[Held]]:
    """Replays a deal under the dealer written and the dealer due, and keeps the reading
    of less misfit: a misspelt dealer is then one finding, D302."""
    readings = []
    choices = (deal.dealer, due) if deal.dealer in rules.seats else (due,)
    for dealer in choices:
        reading = deal.model_copy(update={"dealer": dealer})
        result, held = trial(d, reading)
        readings.append((misfit(rules, reading, sum(f.is_fault for _, f in held),
                                result.points), result, held))
    _, result, findings = min(readings, key=lambda r: r[0])
    result.dealer = deal.dealer
    return result, findings


PROVING_FIXES: ContextVar[bool] = ContextVar("PROVING_FIXES", default=False)
"""Whether the replay also proves the fix of a deal's one card that cannot be where it is
(:meth:`CardSlips.sole_reading`: more replays of that deal): set by ``check --fix``
(:func:`proving_fixes`), which makes them; a plain check does not pay for them."""


@contextmanager
def proving_fixes() -> Iterator[None]:
    """Within the block, replays prove the fix of a deal's one misplaced card too."""
    token = PROVING_FIXES.set(True)
    try:
        yield
    finally:
        PROVING_FIXES.reset(token)


class CardSlips:
    """The search of a game for one card written wrongly in a deal, with the replays it
    may still make: so many a deal, shared by the game's deals (a record of faults checks
    in time linear in its size)."""

    def __init__(self, rules: Ruleset, deals: int) -> None:
        self.rules = rules
        self.deals = deals
        """The deals the search may make replays for."""
        self.left = _SLIP_READINGS * deals
        """Deal replays the search may still make."""

    def cover(self, deals: int) -> None:
        """Makes the search's replays those of a game of ``deals`` deals, when it has more
        than it had (a deal entered after the game's last)."""
        if deals > self.deals:
            self.left += _SLIP_READINGS * (deals - self.deals)
            self.deals = deals

    def read(self, trial: Trial, emit: Emit, d: int, deal: Deal
             ) -> tuple[DealResult, list[Held]]:
        """Replays a deal as written and, when that leaves two faults or more, under each
        reading of one card behind them (see :func:`_slip_places`: played or dealt) as a
        card one letter away. A reading that leaves fewer faults, its own slip counted as
        one, is kept: a card written wrongly is then one finding, at the card (P4), emitted
        here, and not the cascade of faults and wrong points behind it. Reneges are read
        away only by a reading of their trick's lead that leaves no fault at all, where the
        deal as written has three faults or more. Returns the result and the findings of
        the reading kept."""
        result, written = trial(d, deal)
        faults = [(locus, f) for locus, f in written if f.is_fault]
        best = self.card_reading(trial, d, deal, result, faults) if faults else None
        if best is None:
            if len(faults) == 1 and faults[0][1].kind.slip and PROVING_FIXES.get():
                fixed = self.sole_reading(trial, d, deal, *faults[0])
                return result, [(at, fixed if f is faults[0][1] else f) for at, f in written]
            return result, written
        place, card, result, findings = best
        emit_slip(emit, d, deal, place, card, written,
                  clean=not any(f.is_fault for _, f in findings))
        return result, findings

    def sole_reading(self, trial: Trial, d: int, deal: Deal, locus: Locus, finding: Finding
                     ) -> Finding:
        """``finding``, the one fault of its deal and a card that cannot be where it is,
        with the fix that writes the card it must be: at the card, or (for a card written
        twice) at its other place, the one card :func:`sole_card` leaves for it, where the
        deal so read has no fault at all; none if no such reading, or more than one, is
        found."""
        where = locus[2:]
        if locus[:2] != ("deal", d) or not where or (where[0] == "trick" and len(where) != 4):
            return finding
        dealt = _dealt(deal)
        if where[0] != "trick" and not any(at == where for at, _, _ in dealt):
            return finding
        was = _card_at(deal, where)
        if was is None:
            return finding
        places = [where]
        places += [at for at, card, _ in dealt if card == was and at != where]
        places += [("trick", t, "play", q) for t, trick in enumerate(deal.tricks)
                   for q, play in enumerate(trick.plays)
                   if play.card == was and ("trick", t, "play", q) != where]
        deck = deck_set(self.rules.options.deck)
        fitting = []
        for at in places[:_MAX_SOLE_PLACES]:
            card = sole_card(deal, at, deck)
            if card is None:
                continue
            reading = _with_card(deal, at, card)
            result, held = trial(d, reading)
            if misfit(self.rules, reading, sum(f.is_fault for _, f in held), result.points) == 0:
                fitting.append((at, card))
        if len({(card, at[:2] if at[0] == "hands" else at) for at, card in fitting}) != 1:
            return finding  # (two places of one hand that fit alike are one reading)
        at, card = next(((a, c) for a, c in fitting if a == where), fitting[0])
        return replace(finding, fix=Fix((Edit(str(card), "card", str(was), ("deal", d, *at)),),
                                        f"write {card} for {was}"))

    def card_reading(self, trial: Trial, d: int, deal: Deal, result: DealResult,
                     faults: list[Held]) -> CardReading | None:
        """The reading of one card of deal ``d`` that :meth:`read` keeps, with its result
        and findings, if any: ``result`` and ``faults`` are the deal's as written."""
        best: CardReading | None = None
        # The slip itself is a finding too.
        fewest = misfit(self.rules, deal, len(faults), result.points) - 1
        deck = deck_set(self.rules.options.deck)
        seats, tricks = len(self.rules.seats), self.rules.variant.tricks
        readable = (fewest > 0 and len(deal.tricks) <= tricks + 1
                    and all(len(trick.plays) <= seats for trick in deal.tricks)
                    and _dealt_count(deal) <= self.rules.options.deck)
        places = _slip_places(deal, faults) if readable else []
        if fewest >= _MAX_SLIP_FAULTS:  # (an upcard written wrongly upsets the whole deal)
            places = [place for place in places if place[0] == ("up",)]
        readings = _exchanges(deal, faults) if readable and fewest < _MAX_SLIP_FAULTS else []
        readings += _candidates(deal, places[:_MAX_SLIP_PLACES], deck)
        for place, card in readings:
            where, why = place
            if why == "renege" and fewest < 2:
                continue
            if self.left <= 0:
                break
            self.left -= 1
            reading = (_exchanged(deal, where, card) if why == "exchange"
                       else _with_card(deal, where, card))
            trial_result, held = trial(d, reading)
            count = misfit(self.rules, reading, sum(f.is_fault for _, f in held),
                           trial_result.points)
            if count < fewest and (why != "renege" or count == 0):
                best, fewest = (place, card, trial_result, held), count
            if fewest == 0:
                break
        return best


def emit_slip(emit: Emit, d: int, deal: Deal, place: SlipPlace, card: Card,
              written: list[Held], *, clean: bool = False) -> None:
    """The one finding of a card written wrongly at ``place``, read as ``card``: the
    written card's own fault there, that it is played twice (P703) or recorded twice
    (D304), or that the rest of the deal fits the other card (P709). Its fix writes the
    card read (and for two cards of a trick exchanged, both): a safe one where the reading
    leaves the deal ``clean``."""
    where, why = place
    locus: Locus = ("deal", d, *where)
    n = deal.number
    was = _card_at(deal, where)
    own = next((f for at, f in written if at == locus and f.kind.slip), None)
    trick = deal.tricks[where[1]] if where[0] == "trick" else None
    seat = trick.plays[where[3]].seat if trick is not None else None
    doing = (f"{seat} plays {was} in trick {trick.number}" if trick is not None
             else f"{was} ({_holder(deal, where)})")
    if own is not None:
        code, message = own.code, own.message
    elif why == "twice" and trick is not None:
        again = next(other.number for u, other in enumerate(deal.tricks)
                     for q, later in enumerate(other.plays)
                     if later.card == was and (u, q) != (where[1], where[3]))
        code, message = "P703", f"deal {n}: {doing}, and it is played again in trick {again}"
    elif trick is None and any(c == was and at != where for at, c, _ in _dealt(deal)):
        code, message = "D304", f"deal {n}: {doing} is recorded twice"
    else:
        shown = " ".join(sorted(f.code for _, f in written if f.is_fault))
        code, message = "P709", (f"deal {n}: {doing}, but the rest of the deal fits {card} "
                                 f"(as written it shows {shown})")
    taken = str(card)
    edits = [Edit(str(card), "card", str(was), locus)]
    if why == "exchange" and trick is not None:
        q = _play_of(trick, card)
        other = trick.plays[q]
        taken = f"{seat} {card} and {other.seat} {was}"
        edits.append(Edit(str(was), "card", str(card), ("deal", d, "trick", where[1], "play", q)))
    fix = Fix(tuple(edits), f"write {taken} for {was}" if len(edits) == 1 else f"write {taken}",
              safe=clean)
    emit(code, f"{message}; taken as {taken}", locus, deal=n,
         trick=trick.number if trick is not None else None, seat=seat, fix=fix)


def sole_card(deal: Deal, where: Locus, deck: frozenset[Card]) -> Card | None:
    """The one card of ``deck`` one letter away from the card written at ``where`` that
    the rest of the deal leaves for it, if there is exactly one: for a play, a card the
    record gives its seat (:func:`_pointed_to`) and no one plays or discards; for a card of
    a hand, a card its seat plays or discards and no one else is dealt; for the upcard, the
    card the exchange takes; for any other dealt card (or where nothing points), a card no
    one is dealt or plays."""
    written = _card_at(deal, where)
    if written is None:
        return None
    dealt = {card for at, card, _ in _dealt(deal) if at != where}
    played = {play.card for t, trick in enumerate(deal.tricks) for q, play in enumerate(trick.plays)
              if ("trick", t, "play", q) != where}
    ex = deal.exchange
    discard = {ex.discard} if ex is not None and ex.discard is not None else set()
    pointed = _pointed_to(deal, where)
    if where[0] == "hands" and ex is not None and ex.seat == where[1]:
        pointed |= discard
    if where[0] == "trick":
        fits = pointed - played - discard
    elif (where[0] == "hands" or where == ("up",)) and pointed:
        fits = pointed - dealt
    else:
        fits = deck - dealt - played
    found = [card for card in _one_letter(written, deck) if card in fits]
    return found[0] if len(found) == 1 else None


def reseat(rules: Ruleset, state: DealState, act: A, rest: list[Action | None], deal: Deal
           ) -> tuple[A, bool]:
    """The act as written, or as made by a seat due to make it, whichever reading leaves
    fewer faults in the acts of the deal after it (``rest``) and in its written points; on a tie,
    the due seat's (P4). Only a reading in which the act itself is legal is tried, and
    for a lone declaration by the maker's partner, the declaration as written too (see
    :func:`declare_as_written`): then the second value is true."""
    readings = [(replaced(act, seat=seat), False)
                for seat in state.seats_due(act) if seat != act.seat]
    readings = [(a, False) for a, _ in readings if state.check_act(a) is None]
    if declare_as_written(state.copy(), act):
        readings.append((act, True))
    if not readings:
        return act, False
    readings.append((act, False))

    def faults_after(reading: tuple[A, bool]) -> int:
        trial = state.copy()
        if reading[1]:
            declare_as_written(trial, reading[0])
        else:
            trial.apply_act(reading[0])
        # (A claim's penalty, not the tricks, scores a deal with one.)
        return misfit(rules, deal, faults_of(trial, rest),
                      None if deal.claims else scored(deal, trial))

    return min(readings, key=faults_after)


def declare_as_written(state: DealState, act: Action) -> bool:
    """Puts in force, as the record has it, a lone declaration by the maker's partner, which
    the rules do not allow (A601): the partner plays alone and the maker sits out. Whether
    ``act`` is such a declaration (else ``state`` is left as it is)."""
    if not (isinstance(act, Declaration) and act.act == "alone"
            and state.phase is Phase.DECLARING and state.alone is None and not state.merged
            and state.variant.alone not in ("never", "always")
            and act.seat != state.maker and act.seat in state.makers):
        return False
    state.alone = act.seat
    return True


def _slip_places(deal: Deal, faults: list[Held]) -> list[SlipPlace]:
    """The cards that may be the slip behind ``faults``: a card that cannot be where it is
    and every other play or deal of it; the cards of a seat's hand one letter away from a
    card it plays but does not hold; the plays of the trick before a lead out of turn (a
    card that changed the trick's winner); the lead of a trick with a renege (a card that
    changed the suit led)."""
    places: dict[Locus, str] = {}
    leads: list[Locus] = []
    dealt = _dealt(deal)
    for locus, finding in faults:
        where = locus[2:]
        if not where or (where[0] == "trick" and len(where) != 4):
            continue
        if finding.kind.slip and (where[0] == "trick"
                                  or any(at == where for at, _, _ in dealt)):
            card = _card_at(deal, where)
            places.setdefault(where, "card")
            if card is None:
                continue
            for u, trick in enumerate(deal.tricks):
                for q, play in enumerate(trick.plays):
                    if play.card == card:
                        places.setdefault(("trick", u, "play", q), "twice")
            for at, other, _ in dealt:
                if other == card:
                    places.setdefault(at, "twice")
            if finding.kind.suspect == "hand" and where[0] == "trick":
                seat = deal.tricks[where[1]].plays[where[3]].seat
                for at, other, _ in dealt:
                    if at[:2] == ("hands", seat) and other is not None and _one_apart(
                            other, card):
                        places.setdefault(at, "hand")
        elif (where[0] == "trick" and finding.kind.suspect == "lead" and where[3] == 0
              and where[1] > 0):
            t = where[1] - 1
            for q in range(len(deal.tricks[t].plays)):
                places.setdefault(("trick", t, "play", q), "lead")
        elif where[0] == "trick" and finding.kind.renege and where[3] > 0:
            leads.append(("trick", where[1], "play", 0))
    for lead in leads:  # (a lead that is a place for another reason too is tried so)
        places.setdefault(lead, "renege")
    return list(places.items())


def _exchanges(deal: Deal, faults: list[Held]) -> list[tuple[SlipPlace, Card]]:
    """The readings of two cards of a trick written each under the other's seat (``E: 9D
    S: AD`` for ``E: AD  S: 9D``): each two cards of a trick that both cannot be where they
    are (P702, P703, P708), exchanged. A reading is the place of the first of them (why:
    ``exchange``) and the card it is read as, the other's."""
    faulty: dict[int, list[int]] = {}
    for locus, finding in faults:
        where = locus[2:]
        if len(where) == 4 and where[0] == "trick" and finding.kind.slip == "play":
            faulty.setdefault(where[1], []).append(where[3])
    out: list[tuple[SlipPlace, Card]] = []
    for t, plays in faulty.items():
        cards = deal.tricks[t].plays
        for p, q in combinations(sorted(set(plays)), 2):
            first, second = cards[p].card, cards[q].card
            if first is not None and second is not None and first != second:
                out.append(((("trick", t, "play", p), "exchange"), second))
    return out


def _exchanged(deal: Deal, where: Locus, card: Card) -> Deal:
    """The deal with the card at ``where`` (a play) and ``card``, played in the same trick,
    each read under the other's seat."""
    t = where[1]
    was = _card_at(deal, where)
    assert was is not None
    other: Locus = ("trick", t, "play", _play_of(deal.tricks[t], card))
    return _with_card(_with_card(deal, where, card), other, was)


def _play_of(trick: Trick, card: Card) -> int:
    """Which play of ``trick`` plays ``card``."""
    return next(q for q, play in enumerate(trick.plays) if play.card == card)


def _dealt(deal: Deal) -> list[tuple[Locus, Card | None, str]]:
    """Every card the deal's hands, dummy or ghost hand and up line write: where (its locus
    within the deal), the card, and what holds it."""
    out: list[tuple[Locus, Card | None, str]] = []
    for line in deal.hands:
        for seat, cards in line.cards.items():
            out += [(("hands", seat, "card", k), c, f"{seat}'s hand") for k, c in enumerate(cards)]
    if deal.extra is not None:
        out += [(("extra", "card", k), c, f"the {deal.extra.kind}")
                for k, c in enumerate(deal.extra.cards)]
    if deal.up is not None:
        out.append((("up",), deal.up.card, "the upcard"))
        out += [(("up", "kitty", k), c, "the kitty") for k, c in enumerate(deal.up.kitty or ())]
    return out


def _candidates(deal: Deal, places: list[SlipPlace], deck: frozenset[Card]
                ) -> list[tuple[SlipPlace, Card]]:
    """The readings of one card that :meth:`CardSlips.card_reading` tries, in order: at
    each place, each card one letter away that is neither played (for a play) nor dealt (for
    a dealt card) elsewhere in the deal, since a card is played once and dealt once; first,
    at every place, the cards the rest of the record points to (:func:`_pointed_to`), then
    the others."""
    taken = _taken(deal)
    likely: list[tuple[SlipPlace, Card]] = []
    rest: list[tuple[SlipPlace, Card]] = []
    for place in places:
        where = place[0]
        written = _card_at(deal, where)
        if written is None:
            continue
        pointed = _pointed_to(deal, where)
        for card in _one_letter(written, deck):
            if card not in taken[where[0] == "trick"]:
                (likely if card in pointed else rest).append((place, card))
    return likely + rest


def _taken(deal: Deal) -> tuple[frozenset[Card | None], frozenset[Card | None]]:
    """The cards the deal deals, and the cards it plays: a card is dealt once and played
    once, so a card read in place of another is neither dealt elsewhere (for a dealt card)
    nor played elsewhere (for a card played)."""
    return (frozenset(card for _, card, _ in _dealt(deal)),
            frozenset(play.card for trick in deal.tricks for play in trick.plays))


def _pointed_to(deal: Deal, where: Locus) -> frozenset[Card | None]:
    """The cards the rest of the record points to for the card at ``where``: for a play, the
    cards the record gives its seat (dealt, kept in a merge, taken up); for a card of a
    seat's hand, the cards the seat plays; for the upcard, the card the exchange takes."""
    ex = deal.exchange
    if where == ("up",):
        return frozenset((ex.upcard,) if ex is not None else ())
    if where[0] == "trick":
        seat = deal.tricks[where[1]].plays[where[3]].seat
        given = {c for line in deal.hands for c in line.cards.get(seat, ())}
        merge = deal.merge
        if merge is not None and merge.seat == seat:
            given.update(merge.keeps or ())
        if ex is not None and ex.seat == seat and ex.act == "takes":
            given.add(ex.upcard if ex.upcard is not None else
                      deal.up.card if deal.up is not None else None)
        return frozenset(given)
    if where[0] == "hands":
        return frozenset(play.card for trick in deal.tricks for play in trick.plays
                         if play.seat == where[1])
    return frozenset()


def _dealt_count(deal: Deal) -> int:
    """How many cards the deal's hands, dummy or ghost hand and up line write."""
    return (sum(len(cards) for line in deal.hands for cards in line.cards.values())
            + (len(deal.extra.cards) if deal.extra is not None else 0)
            + (1 + len(deal.up.kitty or ()) if deal.up is not None else 0))


def _holder(deal: Deal, where: Locus) -> str:
    """What holds the dealt card at ``where``: a seat's hand, the kitty ..."""
    return next(what for at, _, what in _dealt(deal) if at == where)


def _card_at(deal: Deal, where: Locus) -> Card | None:
    """The card of the deal at ``where`` (see :data:`SlipPlace`)."""
    if where[0] == "trick":
        return deal.tricks[where[1]].plays[where[3]].card
    return next(card for at, card, _ in _dealt(deal) if at == where)


def _one_letter(card: Card, deck: frozenset[Card]) -> list[Card]:
    """The cards of ``deck`` written with one letter of ``card`` changed (``JH`` for
    ``JK`` too): its rank in another suit, or another rank of its suit."""
    return sorted((c for c in deck if _one_apart(c, card)), key=lambda c: c.index)


def _one_apart(a: Card, b: Card) -> bool:
    """Whether two cards are written with one letter changed."""
    return sum(x != y for x, y in zip(str(a), str(b), strict=True)) == 1


def _with_card(deal: Deal, where: Locus, card: Card) -> Deal:
    """The deal with its card at ``where`` read as ``card``."""
    if where[0] == "trick":
        t, p = where[1], where[3]
        trick = deal.tricks[t]
        plays = list(trick.plays)
        plays[p] = plays[p].model_copy(update={"card": card})
        tricks = list(deal.tricks)
        tricks[t] = trick.model_copy(update={"plays": tuple(plays)})
        return deal.model_copy(update={"tricks": tuple(tricks)})
    if where[0] == "hands":
        seat, k = where[1], where[3]
        lines = list(deal.hands)
        i = next(i for i, line in enumerate(lines) if seat in line.cards)
        cards = dict(lines[i].cards)
        cards[seat] = (*cards[seat][:k], card, *cards[seat][k + 1:])
        lines[i] = lines[i].model_copy(update={"cards": cards})
        return deal.model_copy(update={"hands": tuple(lines)})
    if where[0] == "extra":
        assert deal.extra is not None
        k = where[2]
        kept = deal.extra.cards
        return deal.model_copy(update={"extra": deal.extra.model_copy(
            update={"cards": (*kept[:k], card, *kept[k + 1:])})})
    assert deal.up is not None
    if where == ("up",):
        return deal.model_copy(update={"up": deal.up.model_copy(update={"card": card})})
    k, kitty = where[2], deal.up.kitty or ()
    return deal.model_copy(update={"up": deal.up.model_copy(
        update={"kitty": (*kitty[:k], card, *kitty[k + 1:])})})
