"""What the engine's bulk entry replays of a deal (:class:`Parts`: its cards, acts and
tricks as the engine holds them), from the JSON form of the deal or read straight from the
text of a game of notation.

:func:`form_parts` makes them of a deal of the JSON form (as ``json.loads`` gives it, or as
:func:`~euchrelog.notation.read_game` builds it). :func:`read_parts` reads a game of notation
into them with the same line reader, with the game's source map but without the JSON form
of its deals: :func:`euchrelog.fast.check_notation` replays the game from that alone, and
the form of a deal is made only for a deal the bulk entry does not take (a slip; a
score-sheet deal, whose model is that of the keys the game loop reads). The lines it leaves
to the form (a merge, a renege claim) decline the game, which is then read into its form.
The tests hold the two ways to the same parts on every record.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from .cards import CARD_SLOTS, UNKNOWN, Card, card_at
from .engine import Played
from .models import (
    Call,
    Declaration,
    Exchange,
    Merge,
    Number,
    Order,
    Pass,
    Play,
    Score,
    Sheet,
    Swap,
    act_kind,
)
from .notation.assembly import (
    Form,
    GameAssembler,
    GameForm,
    bid_forms,
    exchange_form,
    score_form,
    trick_words,
)
from .notation.lines import LeftToParser, keep_verdict, read_lines_into
from .notation.patterns import SPELLING
from .notation.reader import line_terminals, prepared
from .seats import Seat

SEATS = {s.value: s for s in Seat}
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


class _SeatPlays(dict[str, Played]):
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
        plays = self[letter] = _SeatPlays(SEATS[letter.upper()])
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
    """The bids, then the exchange and the lone declarations (or merges), as models."""
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


_MODELS: dict[str, type[Pass | Order | Call | Number | Swap | Exchange | Merge | Declaration
                        | Play]] = {
    "pass": Pass, "order": Order, "call": Call, "bid": Number, "swap": Swap,
    "exchange": Exchange, "merge": Merge, "declaration": Declaration, "play": Play}
"""The model of each kind of act: a bid by its ``act``, the rest by their kind."""


@functools.lru_cache(maxsize=4096)
def _model(kind: str, items: tuple[tuple[str, Any], ...]) -> Any:
    """The act of a line of the JSON form, validated once by its model and kept: the acts
    of a deal are few and recur in every deal."""
    return _MODELS[kind].model_validate({k: list(v) if type(v) is tuple else v
                                         for k, v in items})


@functools.lru_cache(maxsize=1024)
def _bid(seat: str, act: str, suit: str | None) -> Any:
    """A bid of the JSON form, as :func:`act_of` gives it."""
    items = (("seat", seat), ("act", act))
    return _model(act, items if suit is None else (*items, ("suit", suit)))


def act_of(kind: str, value: Any) -> Any:
    """The model of an act of ``kind`` written in the JSON form as ``value``."""
    return _model(kind, tuple((k, tuple(v) if type(v) is list else v)
                              for k, v in value.items()))


def bid_act(bid: Any) -> Any:
    """The model of a bid of the JSON form."""
    size = len(bid)
    if size == 2 or (size == 3 and bid.get("suit") is not None):  # (a null suit: the model)
        return _bid(bid["seat"], bid["act"], bid.get("suit"))
    return act_of(bid["act"], bid)


def _played(value: Any) -> Played:
    play = act_of("play", value)
    return play.seat, play.card


def _plays(plays: list[dict[str, Any]]) -> list[Played]:
    """The plays of a trick of the JSON form: looked up when written as
    :func:`~euchrelog.notation.read_game` writes them, else through the model of a play."""
    try:
        return [PLAYS[play["seat"]][play["card"]] if len(play) == 2 else _played(play)
                for play in plays]
    except KeyError:
        return [_played(play) for play in plays]


_NOTES = frozenset({"before", "note"})
"""The comments of a line, which change nothing."""
DEAL_KEYS = _NOTES | {"number", "dealer", "hands", "extra", "up", "bidding", "exchange",
                      "declarations", "tricks", "score", "penalties"}
"""What a deal the bulk entry takes may have (not a claim, nor a score-sheet line)."""
LOOP_KEYS = ("number", "dealer", "sheet", "score", "penalties")
"""What the game loop reads of a deal, and the full replay of a score-sheet deal; the rest
is the bulk entry's."""
_HANDS_KEYS = _NOTES | {"cards"}
_EXTRA_KEYS = _NOTES | {"kind", "cards"}
_UP_KEYS = _NOTES | {"card", "kitty"}
_BIDDING_KEYS = _NOTES | {"bids"}
_TRICK_KEYS = _NOTES | {"number", "plays"}


def _comment(text: Any) -> bool:
    """Whether a comment of the JSON form is one the models take (a lone surrogate is
    declined before, with the text: :func:`~euchrelog.fast.verify_json`)."""
    return type(text) is str and "\n" not in text


def _line(line: Any, keys: frozenset[str], size: int) -> Any:
    """``line``, a line of a deal of the JSON form that the bulk entry reads, when it has
    the keys it may have (``keys``) and comments the models take; ``size``: how many keys it
    has without comments. Else raises :class:`DeclineError`: the models, whose findings
    the bulk entry would otherwise miss, tell what is wrong."""
    if type(line) is not dict or not keys.issuperset(line):
        raise DeclineError
    if len(line) > size:  # comments: what the bulk entry does not read, it checks here
        _comments(line)
    return line


def _comments(line: dict[str, Any]) -> None:
    """Raises :class:`DeclineError` unless the comments of ``line`` are as the models take
    them: a ``note`` of one line, ``before`` a list of such."""
    note = line.get("note")
    before = line.get("before", ())
    if ((note is not None and not _comment(note))
            or ("before" in line and type(before) is not list)
            or not all(map(_comment, before))):
        raise DeclineError


def _list(deal: dict[str, Any], key: str) -> list[Any]:
    """The list a deal of the JSON form holds at ``key`` (none: an empty one); raises
    :class:`DeclineError` for anything else there, which the models refuse."""
    value = deal.get(key, _NONE)
    if type(value) is not list:
        raise DeclineError
    return value


_NONE: list[Any] = []
"""What :func:`_list` reads of a key a deal does not have (never changed)."""


def _cards(value: Any) -> list[Card | None]:
    """The cards of a hand, dummy, ghost hand or kitty of the JSON form."""
    if type(value) is not list or not value:
        raise DeclineError  # D303, D306; none: the models refuse it
    return [CARDS[text] for text in value]  # a KeyError: D305


def form_parts(deal: dict[str, Any]) -> Parts:
    """The parts of a deal of the JSON form; raises :class:`DeclineError` (or a lookup
    error) at anything the bulk entry does not take, and at anything the models refuse
    that the bulk entry does not read (a comment that is not text, an empty list), so
    that a deal it takes is one the models take."""
    if "before" in deal or "note" in deal:
        _comments(deal)
    lines = _list(deal, "hands")
    hands: dict[Seat, list[Card | None]] = {}
    if lines:  # else a play-only record
        if len(lines) != 1:
            raise DeclineError
        written = _line(lines[0], _HANDS_KEYS, 1)["cards"]
        if type(written) is not dict or not written:
            raise DeclineError
        hands = {SEATS[seat]: _cards(cards) for seat, cards in written.items()}
    extra: Any = deal.get("extra")
    if extra is not None:
        _line(extra, _EXTRA_KEYS, 2)
        extra = (extra["kind"], _cards(extra["cards"]))
    up: Any = deal.get("up")
    if up is not None:
        _line(up, _UP_KEYS, 1 + ("kitty" in up))
        kitty = up.get("kitty")
        up = (CARDS[up["card"]], None if kitty is None else _cards(kitty))
    acts: list[Any] = []
    for line in _list(deal, "bidding"):
        bids = _line(line, _BIDDING_KEYS, 1)["bids"]
        if type(bids) is not list or not bids:
            raise DeclineError
        acts += [bid_act(bid) for bid in bids]
    bids = len(acts)
    exchange = deal.get("exchange")
    if exchange is not None:
        acts.append(act_of("exchange", exchange))
    acts += [act_of(act_kind(decl), decl) for decl in _list(deal, "declarations")]
    tricks = []
    for t, trick in enumerate(_list(deal, "tricks")):
        _line(trick, _TRICK_KEYS, 2)
        plays = trick["plays"]
        if (trick["number"] != t + 1 or type(trick["number"]) is not int
                or type(plays) is not list or not plays):
            raise DeclineError  # P707; the models refuse the rest
        tricks.append(_plays(plays))
    sheet = deal.get("sheet")
    return Parts(hands, extra, up, acts, bids, tricks,
                 None if sheet is None else sheet_key(sheet))


def sheet_key(sheet: Form) -> tuple[tuple[str, Any], ...]:
    """A score-sheet line of the JSON form, comments aside, as a key: all the full replay
    of a deal of nothing else reads of it, but its number and dealer."""
    return tuple((k, tuple(v.items()) if type(v) is dict else v)
                 for k, v in sheet.items() if k not in _NOTES)


# ------------------------------------------------------------------ from the text


class _PartsAssembler(GameAssembler):
    """Reads a game of notation into what the game loop reads of it (its tags, start, end
    and each deal's number, dealer, points and penalties, in the JSON form), each deal's
    :class:`Parts` and the game's source map, with the builders' own splitting of each line
    (``bid_forms``, ``trick_words``, ...) and their own keeping of its places. The JSON
    form of a deal is made only when asked for (:meth:`form_of`: a deal the bulk entry
    does not take). A line the parts do not hold, or that the form's builder would refuse,
    raises :class:`DeclineError`."""

    def __init__(self, fold: bool) -> None:
        super().__init__(fold=fold)
        self.body = _PARTS_BODY
        self.parts: list[Parts] = []
        self.rare: list[tuple[int, tuple[int, str, str, int]]] = []
        """The lines of a deal that are placed as they are read, not kept for later (each
        deal's and line's number, kind, text and column), for :meth:`form_of`."""
        self.hands_read: dict[Seat, list[Card | None]] | None = None
        self.extra_read: tuple[str, list[Card | None]] | None = None
        self.up_read: tuple[Card | None, list[Card | None] | None] | None = None
        self.bids: list[Any] = []
        self.exchange_read: Any = None
        self.acts: list[Any] = []
        self.plays: list[list[Played]] = []
        self.sheet_read: tuple[tuple[str, Any], ...] | None = None
        """The deal's score-sheet (or thrown) line, as :func:`sheet_key` gives it."""

    def form_of(self, d: int) -> Form:
        """The JSON form of deal ``d``, as :func:`~euchrelog.notation.read_game` makes it
        (its comments aside, which change nothing), from the lines kept for its places."""
        # (one pass over the game's lines for the deal asked for: a game with a finding
        # asks for one or two)
        lines = [(kept[3], kept[0], kept[2], kept[4]) for kept in self.later if kept[1] == d]
        lines += [row for d_at, row in self.rare if d_at == d]
        assembler = GameAssembler(fold=self.fold)
        for number, kind, text, column in sorted(lines):
            assembler.line(kind, text, number, column, None)
        assembler.close_deal()
        return assembler.deals[0]

    def deal(self, text: str, line: int, column: int, note: str | None) -> None:
        super().deal(text, line, column, note)
        self.hands_read = self.extra_read = self.up_read = self.exchange_read = None
        self.sheet_read = None
        self.bids, self.acts, self.plays = [], [], []

    def close_deal(self) -> None:
        if self.d < 0 or len(self.parts) > self.d:
            return
        if self.penalties:
            self.deal_form["penalties"] = self.penalties
        bids = len(self.bids)
        acts = self.bids
        if self.exchange_read is not None:
            acts.append(self.exchange_read)
        acts += self.acts
        self.parts.append(Parts(self.hands_read or {}, self.extra_read, self.up_read, acts, bids,
                                self.plays, self.sheet_read))

    def hands(self, text: str, line: int, column: int) -> Form:
        if self.hands_read is not None:
            raise DeclineError  # (two hands lines: the form's bulk entry declines them too)
        hands: dict[Seat, list[Card | None]] = {}
        cards: list[Card | None] = []
        for word in text.replace(":", " ").split()[1:]:  # a seat is one letter, a card more
            if len(word) > 1:
                cards.append(WRITTEN[word])
                continue
            seat = SEATS[word.upper()]
            if seat in hands:
                raise DeclineError
            cards = hands[seat] = []
        self.keep("hands", text, line, column)
        self.hands_read = hands
        return {}

    def extra(self, text: str, line: int, column: int) -> Form:
        if self.extra_read is not None:
            raise DeclineError
        kind, cards = self.read_extra(text, line, column)
        self.rare.append((self.d, (line, "extra", text, column)))
        self.extra_read = (kind, [CARDS[card] for card in cards])
        return {}

    def up(self, text: str, line: int, column: int) -> Form:
        if self.up_read is not None:
            raise DeclineError
        words = text.split()  # up, the card, then kitty and its cards
        self.keep("up", text, line, column)
        self.up_read = (WRITTEN[words[1]],
                        [WRITTEN[c] for c in words[3:]] if len(words) > 2 else None)
        return {}

    def bid(self, text: str, line: int, column: int) -> Form:
        bids = _bid_line(text)
        self.keep("bid", text, line, column, self.nbids)
        self.nbids += len(bids)
        self.bids += bids
        return {}

    def exchange(self, text: str, line: int, column: int) -> Form:
        if self.exchange_read is not None:
            raise DeclineError
        self.keep_exchange(text, line, column)
        self.exchange_read = _exchange_line(text)
        return {}

    def declare(self, text: str, line: int, column: int) -> Form:
        form = super().declare(text, line, column)
        self.rare.append((self.d, (line, "declare", text, column)))
        self.acts.append(act_of("declaration", form))
        return {}

    def trick(self, text: str, line: int, column: int) -> Form:
        number, words = trick_words(text, line, column)
        plays = self.plays
        if number != len(plays) + 1:
            raise DeclineError  # P707
        if not plays:
            self.tricks.append({})  # (what the lines after the first trick are checked by)
        self.keep("trick", text, line, column, len(plays))
        plays.append([WRITTEN_PLAYS[seat][next(words)] for seat in words])
        return {}

    def score(self, text: str, line: int, column: int) -> Form:
        if "score" in self.deal_form:
            raise DeclineError
        score = _SCORES.get(text)
        if score is None:
            form = score_form(text, line, column, self.d)
            try:
                score = Score.model_validate(form)
            except ValidationError:
                score = form  # (the game's model tells what is wrong with it)
            else:
                _keep(_SCORES, text, score)
        self.deal_form["score"] = score
        self.keep("score", text, line, column)
        return {}

    def sheet(self, text: str, line: int, column: int) -> Form:
        kept = _SHEETS.get(text)
        if kept is None or "sheet" in self.deal_form:
            form = super().sheet(text, line, column)
            key = sheet_key(form)
            try:
                kept = (Sheet.model_validate(form), key)
            except ValidationError:
                self.sheet_read = key  # (the game's model tells what is wrong with it)
                return {}
            _keep(_SHEETS, text, kept)
        else:
            self.keep("sheet", text, line, column)
        self.deal_form["sheet"], self.sheet_read = kept
        return {}

    def thrown(self, text: str, line: int, column: int) -> Form:
        form = super().thrown(text, line, column)
        self.rare.append((self.d, (line, "thrown", text, column)))
        self.sheet_read = sheet_key(form)
        return form

    def penalty(self, text: str, line: int, column: int) -> Form:
        form = super().penalty(text, line, column)
        self.rare.append((self.d, (line, "penalty", text, column)))
        return form

    def declined(self, text: str, line: int, column: int) -> Form:
        """A line the parts do not hold (a merge, a renege claim)."""
        raise DeclineError


_SCORES: dict[str, Any] = {}
"""The points line of each text, validated once as its model (points lines recur)."""
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
    """The bids of a bid line, as models (kept by the line's text: bid lines recur)."""
    return tuple(bid_act(bid) for bid in bid_forms(text))


@functools.lru_cache(maxsize=4096)
def _exchange_line(text: str) -> Any:
    """The exchange of an exchange line, as a model (kept likewise)."""
    return act_of("exchange", exchange_form(text))


_PARTS_BODY: dict[str, Callable[[Any, str, int, int], Form]] = {
    "trick": _PartsAssembler.trick, "hands": _PartsAssembler.hands, "up": _PartsAssembler.up,
    "bid": _PartsAssembler.bid, "extra": _PartsAssembler.extra,
    "exchange": _PartsAssembler.exchange, "declare": _PartsAssembler.declare,
    "penalty": _PartsAssembler.penalty, "score": _PartsAssembler.score,
    "sheet": _PartsAssembler.sheet, "thrown": _PartsAssembler.thrown,
    **dict.fromkeys(("merge", "claim"), _PartsAssembler.declined),
}
"""The builder of each line of a deal the parts hold, by its alias in the grammar."""


@dataclass(frozen=True)
class PartsRead:
    """A game of notation read into :class:`Parts` (:func:`read_parts`)."""

    game: GameForm
    """What the game loop reads of the game, in its JSON form (each deal with the keys the
    loop reads; a points line as its model, validated once by the line's text, as bid lines
    are), and the game's source map."""
    parts: list[Parts]
    form_of: Callable[[int], Form]
    """The whole JSON form of a deal, made when asked for."""


def read_parts(text: str, first_line: int = 1) -> PartsRead | None:
    """Reads a game of notation into each deal's :class:`Parts`; ``None`` for a game left
    to :func:`~euchrelog.notation.read_game` (see :class:`_PartsAssembler`).

    :raises DeclineError: (or a lookup error, or :class:`~euchrelog.errors.NotationError`)
        likewise.
    """
    text, fold = prepared(text, first_line)
    assembler = _PartsAssembler(fold)
    read = read_lines_into(text, line_terminals(), assembler, first_line)
    if read is None:  # (the same for the JSON form's reader, which need not read it again)
        keep_verdict(text, first_line, LeftToParser(assembler.unmatched))
    if read is not True:
        return None
    return PartsRead(assembler.finish(), assembler.parts, assembler.form_of)
