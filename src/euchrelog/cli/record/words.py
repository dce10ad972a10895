"""Reading the answers of ``euchrelog record``: words into cards, suits, seats, bids and
acts (:func:`parse_bids`, :func:`parse_act`), and an entry back into words
(:func:`describe`). An answer that cannot be read raises :class:`UnclearError`."""

from __future__ import annotations

from collections.abc import Sequence

from ...acts import Bid, Call, Declaration, Exchange, Merge, Number, Order, Pass, Play, Swap
from ...cards import NO_TRUMP, Card, Suit, Trump, parse_card, parse_trump
from ...models import Penalty, Sheet
from ...notation.writer import act_text, exchange_text, penalty_text, sheet_text
from ...recorder import Action, DealCards, Recorder
from ...rules import MOON, Ruleset, Variant
from ...seats import SEATS, Seat

_SUIT_WORDS: dict[str, Trump] = {
    "clubs": Suit.CLUBS, "diamonds": Suit.DIAMONDS, "hearts": Suit.HEARTS,
    "spades": Suit.SPADES, "no-trump": NO_TRUMP, "notrump": NO_TRUMP}
_SEAT_LETTERS = {s.value.lower(): s for s in SEATS}


class UnclearError(Exception):
    """An answer that cannot be read; the message says what was expected."""


def number_word(word: str) -> int | None:
    """A number written in the digits 0-9, else ``None`` (``²`` is not a number)."""
    return int(word) if word.isascii() and word.isdigit() else None


def _words(text: str) -> list[str]:
    return text.replace(",", " ").replace(":", " ").lower().split()


def _card_word(word: str) -> Card | None:
    try:
        return parse_card(word)
    except ValueError:
        raise UnclearError(f"not a card: {word!r} (a card is written like 9H, TS, 10c or JK)") \
            from None


def cards_text(text: str) -> tuple[Card | None, ...]:
    """The cards an answer names, separated by spaces or commas (``??``: not seen)."""
    return tuple(_card_word(w) for w in _words(text))


def suit_word(word: str) -> Trump | None:
    """The suit, or no trump (``NT``, H5), a word names."""
    if word in _SUIT_WORDS:
        return _SUIT_WORDS[word]
    try:
        return parse_trump(word)
    except ValueError:
        return None


def suit_choices(rules: Ruleset) -> list[str]:
    """The answers that name trump in this game: the suits, and NT under no-trump (H5)."""
    return ["C", "D", "H", "S", *(["NT"] if rules.options.no_trump else [])]


def trump_news(trump: Trump) -> str:
    """How the session says what was made trump.

    >>> trump_news(Suit.HEARTS), trump_news(NO_TRUMP)
    ('hearts are trump', 'no trump is called')
    """
    return "no trump is called" if trump is NO_TRUMP else f"{trump.noun} are trump"


def seat_word(word: str, seats: Sequence[Seat]) -> Seat:
    """The seat a word names, one of ``seats``."""
    seat = _SEAT_LETTERS.get(word.lower())
    if seat is None:
        raise UnclearError(f"not a seat: {word!r} (the seats are {' '.join(seats)})")
    if seat not in seats:
        raise UnclearError(f"{seat} has no player (the seats are {' '.join(seats)})")
    return seat


def show_cards(cards: Sequence[Card | None]) -> str:
    """Cards as the session shows them (``??`` for one not seen)."""
    return " ".join("??" if c is None else str(c) for c in cards)


def parse_bids(text: str, seat: Seat, variant: Variant) -> list[Bid]:
    """The bids an answer at a bidding prompt stands for: ``pass``, ``order``, ``call H``
    (or just ``H``), a trick bid ``3``-``6`` or ``moon``, ``swap`` with or without the bid
    after it; a seat letter in front bids for that seat (``S order``).

    >>> from euchrelog.rules import GHOST
    >>> parse_bids("swap 4", Seat.E, GHOST)
    [Swap(act='swap', seat=<Seat.E: 'E'>), Number(act='bid', seat=<Seat.E: 'E'>, tricks=4)]
    """
    words = _words(text)
    if len(words) > 1 and words[0] in _SEAT_LETTERS:
        seat = _SEAT_LETTERS[words.pop(0)]
    bids: list[Bid] = []
    if words and words[0] == "swap":
        bids.append(Swap(act="swap", seat=seat))
        words.pop(0)
        if not words:
            return bids
    if words[:1] == ["call"] and len(words) == 2:
        words.pop(0)
        suit = suit_word(words[0])
        if suit is None:
            raise UnclearError(f"not a suit: {words[0]!r} (the suits are C D H S; NT is "
                               "no trump)")
        return [*bids, Call(act="call", seat=seat, suit=suit)]
    if len(words) != 1:
        raise UnclearError(f"not a bid: {text.strip()!r} (type ? for help)")
    word = words[0]
    if word in ("pass", "p"):
        bids.append(Pass(act="pass", seat=seat))
    elif word in ("order", "o", "up", "assist", "take"):
        bids.append(Order(act="order", seat=seat))
    elif word == "moon":
        bids.append(Number(act="bid", seat=seat, tricks=MOON))
    elif number_word(word) is not None and len(word) < 4:
        bids.append(Number(act="bid", seat=seat, tricks=int(word)))
    elif suit_word(word) is not None:
        suit = suit_word(word)
        assert suit is not None
        bids.append(Call(act="call", seat=seat, suit=suit))
    else:
        what = "swap, pass, 3 to 6 or moon" if variant.bidding == "tricks" else \
            "pass, order or a suit to call"
        raise UnclearError(f"not a bid: {text.strip()!r} (expected {what}; type ? for help)")
    return bids


def parse_act(text: str, rec: Recorder) -> Action:
    """The act an answer stands for between the bidding and the last card: a card (the
    dealer's discard while the exchange is open, else a play), ``discard KD``,
    ``declines``, ``merge`` or ``merge keeps ...``, ``alone``, ``defend E``; a seat in front
    acts for that seat (``E: AD``, ``N discards KD``, ``E merges``)."""
    state = rec.state
    assert state is not None
    words = _words(text)
    seat: Seat | None = None
    if len(words) > 1 and words[0] in _SEAT_LETTERS:
        seat = _SEAT_LETTERS[words.pop(0)]
    head, rest = words[0], words[1:]
    maker = state.maker or state.dealer
    if head in ("declines", "decline"):
        return Exchange(seat=seat or state.dealer, act="declines")
    if head in ("takes", "take") and "discards" in rest:
        rest = rest[rest.index("discards"):]
        head, rest = rest[0], rest[1:]
    if head in ("discard", "discards", "d"):
        if len(rest) != 1:
            raise UnclearError("say which card the dealer discards, e.g. discard KD (?? if "
                               "not seen)")
        return Exchange(seat=seat or state.dealer, takes=state.upcard is not None,
                        upcard=state.upcard, discard=_card_word(rest[0]))
    if head in ("merge", "merges"):
        if rest[:1] == ["keeps"]:
            rest = rest[1:]
        keeps = tuple(_card_word(w) for w in rest) if rest else None
        return Merge(act="merge", seat=seat or maker, keeps=keeps)
    if head in ("alone", "defend"):
        if len(rest) > 1:
            raise UnclearError(f"{head} names one seat, e.g. {head} E")
        who = seat_word(rest[0], SEATS) if rest else seat
        if who is None and head == "alone":
            who = maker
        if who is None:
            options = [s for s in rec.seats
                       if state.can(Declaration(act="defend", seat=s))]
            if len(options) != 1:
                raise UnclearError("say who defends alone, e.g. defend " + (
                    str(options[0]) if options else "E"))
            who = options[0]
        return Declaration(act="alone" if head == "alone" else "defend", seat=who)
    if len(words) == 1:
        card = _card_word(head)
        if rec.exchange_pending and seat is None:
            return Exchange(seat=state.dealer, takes=state.upcard is not None,
                            upcard=state.upcard, discard=card)
        turn = state.to_play()
        return Play(seat=seat or turn or state.dealer, card=card)
    raise UnclearError(f"not understood: {text.strip()!r} (type ? for help)")


def describe(entry: DealCards | Action | Sheet | Penalty) -> str:
    """An entry in words, as the record writes it."""
    if isinstance(entry, DealCards):
        return f"the start of deal {entry.number}"
    if isinstance(entry, Swap):
        return f"{entry.seat} swap"
    if isinstance(entry, Call):
        return f"{entry.seat} call {entry.suit}"
    if isinstance(entry, Number):
        return f"{entry.seat} {'moon' if entry.tricks == MOON else entry.tricks}"
    if isinstance(entry, Pass | Order):
        return f"{entry.seat} {entry.act}"
    if isinstance(entry, Exchange):
        return exchange_text(entry)
    if isinstance(entry, Merge | Declaration):
        return act_text(entry)
    if isinstance(entry, Play):
        return f"{entry.seat}: {entry.card or '??'}"
    if isinstance(entry, Penalty):
        return penalty_text(entry)
    return sheet_text(entry)


def yes_no(text: str) -> bool:
    """``y``/``yes`` or ``n``/``no``.

    :raises UnclearError: for anything else.
    """
    word = text.strip().lower()
    if word in ("y", "yes"):
        return True
    if word in ("n", "no"):
        return False
    raise UnclearError("answer y or n")

