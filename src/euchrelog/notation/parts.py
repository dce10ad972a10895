"""The fast parts form: what the engine's bulk entry replays of a deal (:class:`Parts`: its
cards, acts and tricks as the engine holds them), made by the one assembler
(:class:`~.assembly.GameAssembler`) with this output in place of the JSON form's.

Each line of a deal has its parts builder here (the ``parts`` of its row in :mod:`.kinds`),
with the form builders' own splitting of the line (``bid_forms``, ``trick_words``, ...)
and their own keeping of its places; the game loop's keys (number, dealer, points,
penalties, score sheet) are still made in the JSON form. A line the parts do not hold, or
that the form's builder would refuse, raises :class:`DeclineError`: the game is then read
into its JSON form (:func:`euchrelog.bulk.read_parts`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..acts import Call, Declaration, Exchange, Merge, Number, Order, Pass, Play, Swap
from ..cards import CARD_SLOTS, UNKNOWN, Card, card_at, parse_card, parse_trump
from ..head import Decline, ScoreHead, one_line, read_score
from ..seats import Seat, parse_seat
from .assembly import Form, GameAssembler, bid_forms, exchange_form, score_form, trick_words
from .patterns import SPELLING

if TYPE_CHECKING:  # (the reader does not import the engine, nor the models)
    from ..engine import Played
    from ..models import Sheet

SEAT_OF_LETTER = {s.value: s for s in Seat}
"""Each seat by its letter."""
CARDS: dict[str, Card | None] = {
    UNKNOWN: None, **{str(c): c for c in map(card_at, range(CARD_SLOTS)) if c is not None}}
"""Every card that can be written, by its canonical text, and ``??`` for a card not known:
whether it is of the game's deck is the engine's to tell (``dealt_cleanly``, the check of a
play)."""
PLAYS: dict[str, dict[str, Played]] = {
    s.value: {text: (s, card) for text, card in CARDS.items()} for s in Seat}
"""Every play of a card by a seat, as the engine's tricks hold it, by the seat's letter and
the card's text (made once: a deal holds many)."""


class _Written(dict[str, Card | None]):
    """Each card as written (``10h``, ``T♥``, ``th``), found once: the card of its
    canonical text (:data:`CARDS`)."""

    def __missing__(self, word: str) -> Card | None:
        card = self[word] = CARDS[SPELLING[word]]
        return card


class _SeatPlays(dict[str, tuple[Seat, Card | None]]):
    """Each play of one seat as written, by the card as written, found once."""

    def __init__(self, seat: Seat) -> None:
        super().__init__()
        self.seat = seat

    def __missing__(self, word: str) -> Played:
        played = self[word] = (self.seat, WRITTEN[word])
        return played


class _WrittenPlays(dict[str, _SeatPlays]):
    """Each play as written, found once: by the seat's letter as written (either case),
    then the card as written (see :class:`_Written`)."""

    def __missing__(self, letter: str) -> _SeatPlays:
        plays = self[letter] = _SeatPlays(SEAT_OF_LETTER[letter.upper()])
        return plays


WRITTEN = _Written()
"""Each card as written, by its text (see :class:`_Written`)."""
WRITTEN_PLAYS = _WrittenPlays()
"""Each play as written (see :class:`_WrittenPlays`)."""


class DeclineError(Exception):
    """Raised for a deal or game the bulk entry leaves to the full replay."""


@dataclass(slots=True)
class Parts:
    """A deal as the bulk entry replays it."""

    hands: dict[Seat, list[Card | None]]
    """The hands written (none in a play-only record)."""
    extra: tuple[str, list[Card | None]] | None
    """The dummy or ghost hand written: its kind and cards."""
    up: tuple[Card | None, list[Card | None] | None] | None
    """The up line: the upcard and the kitty, if written."""
    acts: list[Any]
    """The bids, then the exchange and the lone declarations (or merges), as acts
    (:mod:`euchrelog.acts`)."""
    bids: int
    """How many of :attr:`acts` are bids."""
    tricks: list[list[Played]]
    sheet: tuple[tuple[str, Any], ...] | None = None
    """The deal's score-sheet (or thrown) line, as :func:`sheet_key` gives it: the full
    replay checks it, the bulk entry declines the deal."""

    def sheet_only(self) -> bool:
        """Whether the deal is a score-sheet line and nothing the parts hold (its model is
        that of the keys the game loop reads)."""
        return self.sheet is not None and not (self.hands or self.extra or self.up
                                               or self.acts or self.tricks)


_FIELDS: dict[str, frozenset[str]] = {
    "pass": frozenset({"act", "seat"}), "order": frozenset({"act", "seat"}),
    "swap": frozenset({"act", "seat"}), "call": frozenset({"act", "seat", "suit"}),
    "bid": frozenset({"act", "seat", "tricks"}), "play": frozenset({"seat", "card"}),
    "exchange": frozenset({"seat", "act", "takes", "upcard", "discard", "before", "note"}),
    "declaration": frozenset({"act", "seat", "before", "note"}),
    "merge": frozenset({"act", "seat", "keeps", "before", "note"})}
"""The keys an act of each kind may have in the JSON form (only the lines of their own,
the exchange, a declaration and a merge, have comments)."""
_LIMIT = 999_999


def _seat(value: Any) -> Seat:
    if type(value) is not str:
        raise DeclineError
    return parse_seat(value)  # (a ValueError for no seat: the models tell it)


def _card(value: Any) -> Card | None:
    if value is None:
        return None
    if type(value) is not str:
        raise DeclineError
    return parse_card(value.strip())


@functools.lru_cache(maxsize=4096)
def _act(kind: str, items: tuple[tuple[str, Any], ...]) -> Any:
    """The act of a line of the JSON form, read once and kept (the acts of a deal are few
    and recur in every deal): only an act its model plainly takes, as the engine's act
    (:mod:`euchrelog.acts`); anything else raises :class:`DeclineError` (or a
    ``ValueError``), and the models tell what is wrong."""
    value = dict(items)
    if not _FIELDS[kind].issuperset(value):
        raise DeclineError
    note, before = value.get("note"), value.get("before", ())
    if ((note is not None and not one_line(note)) or type(before) is not tuple
            or not all(map(one_line, before))):
        raise DeclineError
    if kind == "play":
        return Play(seat=_seat(value["seat"]), card=_card(value["card"]))
    act = value.get("act")
    if kind == "exchange":
        return _exchange(value)
    seat = _seat(value["seat"])
    if kind == "declaration":
        if act not in ("alone", "defend"):
            raise DeclineError
        return Declaration(act=act, seat=seat)
    if act != kind:
        raise DeclineError  # (the act tags the kind; a bid of tricks is written "bid")
    if kind == "merge":
        keeps = value.get("keeps")
        if keeps is not None and (type(keeps) is not tuple or not keeps):
            raise DeclineError
        return Merge(seat=seat, keeps=None if keeps is None else tuple(map(_card, keeps)))
    if kind == "call":
        suit = value["suit"]
        if type(suit) is not str:
            raise DeclineError
        return Call(seat=seat, suit=parse_trump(suit))
    if kind == "bid":
        tricks = value["tricks"]
        if type(tricks) is not int or not 0 <= tricks <= _LIMIT:
            raise DeclineError
        return Number(seat=seat, tricks=tricks)
    return _PLAIN_BIDS[kind](seat=seat)


_PLAIN_BIDS: dict[str, type[Pass | Order | Swap]] = {"pass": Pass, "order": Order,
                                                      "swap": Swap}


def _exchange(value: dict[str, Any]) -> Exchange:
    """The dealer's exchange of the JSON form (see :func:`_act`)."""
    act = value.get("act", "takes")
    takes = value.get("takes", False)
    if act not in ("takes", "declines") or type(takes) is not bool:
        raise DeclineError
    written = value.get("upcard")
    if written not in (None, UNKNOWN) and takes is False and act == "takes":
        takes = True  # naming the card taken is writing 'takes'
    upcard, discard = _card(written), _card(value.get("discard"))
    if act == "declines" and (takes or upcard or discard):
        raise DeclineError
    return Exchange(seat=_seat(value["seat"]), act=act, takes=takes, upcard=upcard,
                    discard=discard)


@functools.lru_cache(maxsize=1024)
def _bid(seat: str, act: str, suit: str | None) -> Any:
    """A bid of the JSON form, as :func:`act_of` gives it."""
    items = (("seat", seat), ("act", act))
    if act not in _PLAIN_KINDS:
        raise DeclineError
    return _act(act, items if suit is None else (*items, ("suit", suit)))


_PLAIN_KINDS = frozenset({"pass", "order", "call", "bid", "swap"})
"""The kinds of bid, by their ``act``."""


def act_of(kind: str, value: Any) -> Any:
    """The engine's act of ``kind`` written in the JSON form as ``value`` (see
    :func:`_act`)."""
    if type(value) is not dict:
        raise DeclineError
    return _act(kind, tuple((k, tuple(v) if type(v) is list else v)
                            for k, v in value.items()))


def bid_act(bid: Any) -> Any:
    """The engine's act of a bid of the JSON form."""
    size = len(bid)
    if size == 2 or (size == 3 and bid.get("suit") is not None):  # (a null suit: the model)
        return _bid(bid["seat"], bid["act"], bid.get("suit"))
    return act_of(bid["act"], bid)


NOTES = frozenset({"before", "note"})
"""The comments of a line, which change nothing."""


def sheet_key(sheet: Form) -> tuple[tuple[str, Any], ...]:
    """A score-sheet line of the JSON form, comments aside, as a key: all the full replay
    of a deal of nothing else reads of it, but its number and dealer."""
    return tuple((k, tuple(v.items()) if type(v) is dict else v)
                 for k, v in sheet.items() if k not in NOTES)


# ------------------------------------------------------------------ the output


def open_parts(asm: GameAssembler) -> None:
    """Starts the parts of a new deal (the parts form's ``opened``)."""
    asm.hands_read = asm.extra_read = asm.up_read = asm.exchange_read = None
    asm.sheet_read = None
    asm.bids, asm.acts, asm.plays = [], [], []


def close_parts(asm: GameAssembler) -> None:
    """Puts the parts of the deal read into the assembler's ``parts``, and its penalties
    into its form (the parts form's ``closed``)."""
    if asm.d < 0 or len(asm.parts) > asm.d:
        return
    if asm.penalties:
        asm.deal_form["penalties"] = asm.penalties
    bids = len(asm.bids)
    acts = asm.bids
    if asm.exchange_read is not None:
        acts.append(asm.exchange_read)
    acts += asm.acts
    asm.parts.append(Parts(asm.hands_read or {}, asm.extra_read, asm.up_read, acts, bids,
                           asm.plays, asm.sheet_read))


def hands_parts(asm: GameAssembler, text: str, line: int, column: int) -> Form:
    """The cards of a hands line."""
    if asm.hands_read is not None:
        raise DeclineError  # (two hands lines: the form's bulk entry declines them too)
    hands: dict[Seat, list[Card | None]] = {}
    cards: list[Card | None] = []
    for word in text.replace(":", " ").split()[1:]:  # a seat is one letter, a card more
        if len(word) > 1:
            cards.append(WRITTEN[word])
            continue
        seat = SEAT_OF_LETTER[word.upper()]
        if seat in hands:
            raise DeclineError
        cards = hands[seat] = []
    asm.keep("hands", text, line, column)
    asm.hands_read = hands
    return {}


def extra_parts(asm: GameAssembler, text: str, line: int, column: int) -> Form:
    """The kind and cards of a dummy or ghost line."""
    if asm.extra_read is not None:
        raise DeclineError
    kind, cards = asm.read_extra(text, line, column)
    asm.rare.append((asm.d, (line, "extra", text, column)))
    asm.extra_read = (kind, [CARDS[card] for card in cards])
    return {}


def up_parts(asm: GameAssembler, text: str, line: int, column: int) -> Form:
    """The upcard and kitty of an up line."""
    if asm.up_read is not None:
        raise DeclineError
    words = text.split()  # up, the card, then kitty and its cards
    asm.keep("up", text, line, column)
    asm.up_read = (WRITTEN[words[1]],
                   [WRITTEN[c] for c in words[3:]] if len(words) > 2 else None)
    return {}


def bid_parts(asm: GameAssembler, text: str, line: int, column: int) -> Form:
    """The bids of a bid line, as acts."""
    bids = _bid_line(text)
    asm.keep("bid", text, line, column, asm.nbids)
    asm.nbids += len(bids)
    asm.bids += bids
    return {}


def exchange_parts(asm: GameAssembler, text: str, line: int, column: int) -> Form:
    """The dealer's exchange, as its act."""
    if asm.exchange_read is not None:
        raise DeclineError
    asm.keep_exchange(text, line, column)
    asm.exchange_read = _exchange_line(text)
    return {}


def declare_parts(asm: GameAssembler, text: str, line: int, column: int) -> Form:
    """A lone declaration, as its act."""
    form = asm.declare(text, line, column)
    asm.rare.append((asm.d, (line, "declare", text, column)))
    asm.acts.append(act_of("declaration", form))
    return {}


def trick_parts(asm: GameAssembler, text: str, line: int, column: int) -> Form:
    """The plays of a trick line."""
    number, words = trick_words(text, line, column)
    plays = asm.plays
    if number != len(plays) + 1:
        raise DeclineError  # P707
    if not plays:
        asm.tricks.append({})  # (what the lines after the first trick are checked by)
    asm.keep("trick", text, line, column, len(plays))
    plays.append([WRITTEN_PLAYS[seat][next(words)] for seat in words])
    return {}


def score_parts(asm: GameAssembler, text: str, line: int, column: int) -> Form:
    """A points line, into the deal's form as read plainly (:func:`~euchrelog.head.read_score`:
    the game loop reads it), or as its model in a game whose loop reads its models (see
    ``modelled``), or as its form, whose model then tells what is wrong."""
    if "score" in asm.deal_form:
        raise DeclineError
    kept = _SCORE_MODELS if asm.modelled else _SCORES
    score: Any = kept.get(text)
    if score is None:
        form = score_form(text, line, column, asm.d)
        # (the game loop reads the models of a game so ``modelled``)
        score = (_score_model if asm.modelled else _score_head)(form)
        if score is not form:  # (else the game's model tells what is wrong with it)
            _keep(kept, text, score)
    asm.deal_form["score"] = score
    asm.keep("score", text, line, column)
    return {}


def modelled(asm: GameAssembler) -> None:
    """Marks the game read as one whose loop reads its models (a score-sheet, thrown-in or
    penalty line, which the loop's plain head declines): its points lines from here on are
    read as models, and those read so far plainly become models."""
    asm.modelled = True
    for form in asm.deals:
        score = form.get("score")
        if type(score) is ScoreHead:
            form["score"] = _score_model({k: v for k, v in (("points", score.points),
                                                            ("total", score.total))
                                          if v is not None})


def _score_head(form: Form) -> Any:
    """A points line's form read plainly, or the form when it does not read so."""
    try:
        return read_score(form)
    except (Decline, ValueError):
        return form


def _score_model(form: Form) -> Any:
    """A points line's form as its model, or the form when the model refuses it."""
    from pydantic import ValidationError

    from ..models import Score
    try:
        return Score.model_validate(form)
    except ValidationError:
        return form


def sheet_parts(asm: GameAssembler, text: str, line: int, column: int) -> Form:
    """A score-sheet line, into the deal's form as its model (the game loop reads it) and
    as its :func:`sheet_key`."""
    if not asm.modelled:
        modelled(asm)
    kept = _SHEETS.get(text)
    if kept is None or "sheet" in asm.deal_form:
        form = asm.sheet(text, line, column)
        key = sheet_key(form)
        from pydantic import ValidationError  # (a score-sheet deal: the full replay's)

        from ..models import Sheet
        try:
            kept = (Sheet.model_validate(form), key)
        except ValidationError:
            asm.sheet_read = key  # (the game's model tells what is wrong with it)
            return {}
        _keep(_SHEETS, text, kept)
    else:
        asm.keep("sheet", text, line, column)
    asm.deal_form["sheet"], asm.sheet_read = kept
    return {}


def thrown_parts(asm: GameAssembler, text: str, line: int, column: int) -> Form:
    """A thrown-in line, into the deal's form (the game loop reads it)."""
    if not asm.modelled:
        modelled(asm)
    form = asm.thrown(text, line, column)
    asm.rare.append((asm.d, (line, "thrown", text, column)))
    asm.sheet_read = sheet_key(form)
    return form


def penalty_parts(asm: GameAssembler, text: str, line: int, column: int) -> Form:
    """A penalty line, into the deal's form (the game loop reads it)."""
    if not asm.modelled:
        modelled(asm)
    form = asm.penalty(text, line, column)
    asm.rare.append((asm.d, (line, "penalty", text, column)))
    return form


def declined(asm: GameAssembler, text: str, line: int, column: int) -> Form:
    """A line the parts do not hold (a merge, a renege claim)."""
    raise DeclineError


_SCORES: dict[str, ScoreHead] = {}
"""The points line of each text, read once (points lines recur)."""
_SCORE_MODELS: dict[str, Any] = {}
"""The points line of each text, validated once as its model, for a game whose loop reads
its models."""
_SHEETS: dict[str, tuple[Sheet, tuple[tuple[str, Any], ...]]] = {}
"""The score-sheet line of each text, validated once as its model, with its
:func:`sheet_key` (score-sheet lines recur)."""
_KEPT_LINES = 4096
"""How many lines :data:`_SCORES` and :data:`_SHEETS` keep each at most."""


def _keep(kept: dict[str, Any], text: str, value: Any) -> None:
    """Keeps ``value`` as the model of the line ``text`` in ``kept``, a store of at most
    :data:`_KEPT_LINES` lines (emptied when full: the lines that recur come back)."""
    if len(kept) >= _KEPT_LINES:
        kept.clear()
    kept[text] = value


@functools.lru_cache(maxsize=4096)
def _bid_line(text: str) -> tuple[Any, ...]:
    """The bids of a bid line, as acts (kept by the line's text: bid lines recur)."""
    return tuple(bid_act(bid) for bid in bid_forms(text))


@functools.lru_cache(maxsize=4096)
def _exchange_line(text: str) -> Any:
    """The exchange of an exchange line, as an act (kept likewise)."""
    return act_of("exchange", exchange_form(text))
