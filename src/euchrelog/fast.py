"""The fast path of ``check``: a game replayed from its JSON form, deal by deal through the
engine's bulk entry where it takes the deal.

Most games checked in bulk are clean, and most deals of the others are. The fast path
states no rule of the game: it runs the full replay's game loop
(:class:`~euchrelog.replay.GameReplay`), in which each deal goes through the bulk entry of
the one engine (:meth:`DealState.run <euchrelog.engine.DealState.run>`) with its acts
validated once by their models and kept. A deal the bulk entry does not take (a score-sheet
line, a renege claim, a deal with a fault) is validated as a model and replayed in full.

:func:`check_form` replays a game read from notation (:func:`~euchrelog.notation.read_game`:
any spacing, case and comments) so, findings and all, each placed by the game's source
map. :func:`replay_form` and :func:`verify_json` (the form ``json.loads`` gives a line of
JSON Lines) prove a game clean or decline it: at the first finding they return ``None``,
and the caller builds the models of the whole game and replays them. The test suite and
the fuzzer hold both to the full path's findings, places and reports.

>>> from euchrelog.generate import random_game
>>> from euchrelog.notation.writer import dumps_game
>>> import random
>>> report = verify_notation(dumps_game(random_game(random.Random(3))))
>>> report is not None and report.ended and report.findings
[]
>>> verify_notation('[Variant "four-hand"]\\n\\ndeal 1 dealer Q\\n') is None
True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, cast

from .cards import UNKNOWN, Card, make_deck
from .engine import DealState, Phase, Played, dealt_cleanly
from .errors import NotationError, RecordError
from .kinds import json_value
from .models import (
    Call,
    Deal,
    Declaration,
    Exchange,
    Game,
    Merge,
    Number,
    Order,
    Pass,
    Play,
    Swap,
    act_kind,
)
from .notation import GameForm, Locus, SourceMap, read_game
from .replay import DealResult, GameReplay, GameReport
from .rules import Ruleset
from .seats import Seat

_SEAT = {s.value: s for s in Seat}


# ------------------------------------------------------------------ tables


@dataclass(frozen=True)
class _Table:
    """What the fast replay looks up for a ruleset, beside the ruleset itself."""

    ruleset: Ruleset
    seats: tuple[str, ...]
    cards: dict[str, Card | None]
    """The deck, by the canonical text of each card, and ``??`` for a card not known."""
    plays: dict[str, dict[str, Played]]
    """Every play of a card of :attr:`cards` by a seat, as the engine's tricks hold it, by
    the seat's letter and the card's text (made once: a deal holds many)."""


@functools.lru_cache(maxsize=64)
def _table(ruleset: Ruleset) -> _Table:
    cards: dict[str, Card | None] = {
        UNKNOWN: None, **{str(card): card for card in make_deck(ruleset.options.deck)}}
    return _Table(ruleset=ruleset, seats=tuple(s.value for s in ruleset.seats), cards=cards,
                  plays={s.value: {text: (s, card) for text, card in cards.items()}
                         for s in Seat})


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


def _plays(table: _Table, plays: list[dict[str, Any]]) -> list[Played]:
    """The plays of a trick of the JSON form, as the engine's tricks hold them: looked up
    when written as :func:`~euchrelog.notation.read_game` writes them, else through the
    model of a play."""
    pairs = table.plays
    try:
        return [pairs[play["seat"]][play["card"]] if len(play) == 2 else _played(play)
                for play in plays]
    except KeyError:
        return [_played(play) for play in plays]


def _played(value: Any) -> Played:
    play = cast(Play, _act("play", value))
    return play.seat, play.card


@functools.lru_cache(maxsize=1024)
def _bid(seat: str, act: str, suit: str | None) -> Any:
    """A bid of the JSON form, as :func:`_act` gives it."""
    items = (("seat", seat), ("act", act))
    return _model(act, items if suit is None else (*items, ("suit", suit)))


def _act(kind: str, value: Any) -> Any:
    """The model of an act of ``kind`` written in the JSON form as ``value``."""
    return _model(kind, tuple((k, tuple(v) if type(v) is list else v)
                              for k, v in value.items()))


# ------------------------------------------------------------------ the replay


class _DeclineError(Exception):
    """Raised for a game the fast path leaves to the full one."""


_LOOKUP_ERRORS = (_DeclineError, KeyError, IndexError, TypeError, ValueError, AttributeError)
"""What a game of unexpected shape raises on the way: the fast path then declines."""

_NOTES = frozenset({"before", "note"})
"""The comments of a line, which change nothing."""
_DEAL_KEYS = _NOTES | {"number", "dealer", "hands", "extra", "up", "bidding", "exchange",
                       "declarations", "tricks", "score", "penalties"}
"""What a deal the bulk entry takes may have (not a claim, nor a score-sheet line)."""
_LOOP_KEYS = ("number", "dealer", "score", "penalties")
"""What the game loop reads of a deal; the rest is the bulk entry's."""
_HANDS_KEYS = _NOTES | {"cards"}
_EXTRA_KEYS = _NOTES | {"kind", "cards"}
_UP_KEYS = _NOTES | {"card", "kitty"}
_BIDDING_KEYS = _NOTES | {"bids"}
_TRICK_KEYS = _NOTES | {"number", "plays"}


def replay_game(game: Any) -> GameReport | None:
    """Replays one game in its JSON form (as ``json.loads`` gives it, or as the notation
    reader builds it, comments and all): its report if the fast path finds it clean, else
    ``None``."""
    try:
        return _game(game)
    except _LOOKUP_ERRORS:
        return None


class _BulkReplay(GameReplay):
    """The game loop of the full replay, with each deal the engine's bulk entry takes
    replayed by it from the JSON form, and every other deal by the full replay of its model.
    ``declines``: the first finding declines the game; else findings are collected, placed
    by ``source``."""

    def __init__(self, game: Game, deals: list[dict[str, Any]], source: SourceMap | None,
                 declines: bool) -> None:
        self.forms = deals
        self.declines = declines
        super().__init__(game, source, False, None)
        self.table = _table(self.ruleset)

    def emit(self, code: str, message: str, locus: Locus, **kwargs: Any) -> None:
        if self.declines:
            raise _DeclineError
        super().emit(code, message, locus, **kwargs)

    def model(self, d: int) -> Deal:
        """The model of the whole of deal ``d``: validated with the game, or now."""
        form = self.forms[d]
        if _DEAL_KEYS.issuperset(form):  # the game has the model of its loop's keys only
            return Deal.model_validate(form)
        return self.game.deals[d]

    def either_card(self, d: int, deal: Deal) -> DealResult:
        form = self.forms[d]
        if _DEAL_KEYS.issuperset(form):
            try:
                return _deal(self.table, form)
            except _LOOKUP_ERRORS:
                pass
        # A deal the bulk entry does not take (a score-sheet line, a claim, a fault): the
        # full replay of its model.
        return super().either_card(d, self.model(d))

    def either_dealer(self, d: int, deal: Deal, due: Seat) -> DealResult:
        return super().either_dealer(d, self.model(d), due)


def _game(game: dict[str, Any], source: SourceMap | None = None, declines: bool = True
          ) -> GameReport | None:
    deals = game.get("deals", ())
    if type(deals) is not list:
        return None
    # The models of what the game loop reads; the acts of a deal the bulk entry takes are
    # its own.
    model = Game.model_validate({**game, "deals": [
        {k: deal[k] for k in _LOOP_KEYS if k in deal} if _DEAL_KEYS.issuperset(deal) else deal
        for deal in deals]})
    return _BulkReplay(model, deals, source, declines).run()


def _cards(table: _Table, value: Any, size: int) -> list[Card | None]:
    """The cards of a hand, dummy, ghost hand or kitty of ``size`` cards, each of the deck
    or not known."""
    if type(value) is not list or len(value) != size:
        raise _DeclineError  # D303, D306
    cards = table.cards
    return [cards[text] for text in value]  # a KeyError: D305


def _deal(table: _Table, deal: dict[str, Any]) -> DealResult:
    """Replays one deal through :class:`~euchrelog.engine.DealState`'s bulk entry; raises
    :class:`_DeclineError` (or a lookup error) at anything the bulk entry does not take."""
    ruleset = table.ruleset
    variant = ruleset.variant
    dealer = _SEAT[deal["dealer"]]
    lines = deal.get("hands", [])
    hands: dict[Seat, list[Card | None]] = {}
    if lines:  # else a play-only record
        if type(lines) is not list or len(lines) != 1 or not _HANDS_KEYS.issuperset(lines[0]):
            raise _DeclineError
        written = lines[0]["cards"]
        if type(written) is not dict or len(written) != len(table.seats):
            raise _DeclineError
        hands = {_SEAT[seat]: _cards(table, written[seat], variant.hand_size)
                 for seat in table.seats}
    dealt = [card for cards in hands.values() for card in cards]
    extra: Any = deal.get("extra")
    cards: list[Card | None] | None = None
    if extra is not None:
        if extra["kind"] != ruleset.extra_hand or not _EXTRA_KEYS.issuperset(extra):
            raise _DeclineError  # D303
        cards = _cards(table, extra["cards"], ruleset.extra_size)
        dealt += cards
    up: Any = deal.get("up")
    upcard = kitty = None
    if variant.upcard:
        if not _UP_KEYS.issuperset(up):
            raise _DeclineError
        upcard = table.cards[up["card"]]
        kitty = None if up.get("kitty") is None else _cards(table, up["kitty"],
                                                             ruleset.kitty_size)
        dealt += [upcard, *(kitty or ())]
    elif up is not None:
        raise _DeclineError  # D306
    if not dealt_cleanly(dealt, ruleset.options.deck):
        raise _DeclineError  # D304, D305
    state = DealState(ruleset, dealer, hands=hands, upcard=upcard, kitty=kitty, extra=cards)
    acts: list[Any] = []
    for line in deal.get("bidding", ()):
        if not _BIDDING_KEYS.issuperset(line):
            raise _DeclineError
        acts += [_bid(bid["seat"], bid["act"], bid.get("suit")) if len(bid) == 2 + (
            "suit" in bid) else _act(bid["act"], bid) for bid in line["bids"]]
    exchange = deal.get("exchange")
    if exchange is not None:
        acts.append(_act("exchange", exchange))
    acts += [_act(act_kind(decl), decl) for decl in deal.get("declarations", ())]
    tricks = deal.get("tricks", ())
    plays = []
    for t, trick in enumerate(tricks):
        if (trick["number"] != t + 1 or type(trick["number"]) is not int
                or not _TRICK_KEYS.issuperset(trick)):
            raise _DeclineError  # P707
        plays.append(_plays(table, trick["plays"]))
    if not state.run(acts, plays):
        raise _DeclineError  # a fault: the full path reports it
    if state.phase is Phase.THROWN:
        if exchange is not None or deal.get("declarations") or tricks:
            raise _DeclineError
        return DealResult(deal["number"], dealer, {}, {}, thrown=True)
    points = state.points()
    if points is None or state.trump is None:
        raise _DeclineError  # P706, or a partial deal
    return DealResult(deal["number"], dealer, points, {}, maker=state.maker,
                      trump=state.trump.value, lone=state.alone,
                      defender_alone=state.defender is not None,
                      maker_tricks=state.maker_tricks(), bid_round=state.fixed_in_round,
                      defender=state.defender)


# ------------------------------------------------------------------ entries


def verify_json(text: str) -> GameReport | None:
    """The report of one game of JSON Lines, if the fast path covers it and finds it clean;
    otherwise ``None``."""
    if ("\\u" in text and "\\ud" in text.lower()) or not (text.isascii() or _encodable(text)):
        return None  # perhaps a lone surrogate: the full path decides
    try:
        game = json_value(text)
    except (ValueError, RecordError):
        return None
    return replay_game(game) if type(game) is dict else None


def replay_form(read: GameForm) -> GameReport | None:
    """The report of one game read from notation (:func:`~euchrelog.notation.read_game`),
    if the fast path covers it and finds it clean; otherwise ``None``."""
    return replay_game(read.form)


def check_form(read: GameForm) -> GameReport | None:
    """The report of one game read from notation, findings and all, each placed by the
    game's source map: the deals the bulk entry takes are replayed by it, the others by the
    full replay of their models. ``None`` for a game whose models do not validate, which
    the full path reports."""
    try:
        return _game(read.form, read.source, declines=False)
    except _LOOKUP_ERRORS:
        return None


def verify_notation(text: str) -> GameReport | None:
    """The report of one game of notation, if it reads and the fast path covers it and
    finds it clean; otherwise ``None``."""
    try:
        read = read_game(text)
    except NotationError:
        return None
    return None if isinstance(read, list) else replay_form(read)


def _encodable(text: str) -> bool:
    """Whether the text can be written as UTF-8 (a lone surrogate cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
