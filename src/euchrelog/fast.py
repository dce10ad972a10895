"""The fast path of ``check``: proves a clean game clean, or declines.

Most games checked in bulk are clean full records. For those, :func:`replay_form` replays
the JSON form that the notation reader builds (:func:`~euchrelog.notation.read_game`: any
spacing, case and comments), and :func:`verify_json` the form ``json.loads`` gives a line
of JSON Lines, on integer cards and bitmask hands, returning the
:class:`~euchrelog.replay.GameReport` the full replay would give.

The fast path never reports a finding. At the first thing it does not cover (a dummy left
unknown, a score-sheet line, an unknown card) or does not like (any fault at all), it
returns ``None``, and the caller builds the models and replays them with
:class:`~euchrelog.engine.DealState`, which places every finding at its line and column.
The test suite holds the two paths to the same verdicts and reports.

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
import re
from dataclasses import dataclass, field
from typing import Any

from .cards import JOKER, NO_TRUMP, Suit, Trump, card_power, effective_suit, make_deck
from .engine import lineup
from .errors import NotationError, RecordError
from .models import SIDE_NAMES, TAG_NAME
from .notation import GameForm, read_game
from .notation.jsonio import json_value
from .replay import Charge, DealResult, GameReport
from .rules import Ruleset, ruleset_from_tags
from .seats import Seat, clockwise_from

_SEAT = {s.value: s for s in Seat}
_SUITS = tuple(Suit)
_SUIT_INDEX = {s.value: i for i, s in enumerate(_SUITS)}
_TRUMPS: tuple[Trump, ...] = (*_SUITS, NO_TRUMP)
"""What fixes a deal's ranking, by index: the four suits, then no trump (H5)."""
_NO_TRUMP = len(_SUITS)


# ------------------------------------------------------------------ tables


@dataclass(frozen=True)
class _Table:
    """Everything the fast replay asks of a ruleset, as plain lookups."""

    ruleset: Ruleset
    seats: tuple[str, ...]
    bidders: dict[str, tuple[str, ...]]
    index: dict[str, int]
    """Card text to bit number."""
    joker: int
    """The joker's bit number, or -1."""
    printed_suit: tuple[int, ...]
    eff: tuple[tuple[int, ...], ...]
    """[trump][card]: the suit the card follows."""
    power: tuple[tuple[tuple[int, ...], ...], ...]
    """[trump][led][card]: the card's strength."""
    suit_mask: tuple[tuple[int, ...], ...]
    """[trump][suit]: the cards that follow the suit."""
    side: dict[str, str]
    sides: tuple[str, ...]
    kitty_size: int
    dummy: bool
    """Whether a dummy hand is dealt (cutthroat)."""
    lineups: dict[tuple[str, str, str | None, str | None],
                  tuple[dict[str, tuple[str, ...]], str]] = field(default_factory=dict)

    def lineup(self, dealer: str, maker: str, alone: str | None,
               defender: str | None) -> tuple[dict[str, tuple[str, ...]], str]:
        """The turn order of a trick for each leader, and the opening leader."""
        key = (dealer, maker, alone, defender)
        found = self.lineups.get(key)
        if found is None:
            playing, leader = lineup(self.ruleset, _SEAT[dealer], _SEAT[maker],
                                     _SEAT[alone] if alone else None,
                                     _SEAT[defender] if defender else None)
            orders = {s.value: tuple(x.value for x in clockwise_from(s, playing))
                      for s in playing}
            found = self.lineups[key] = (orders, leader.value)
        return found


def _supported(ruleset: Ruleset) -> bool:
    """Whether the fast replay covers the ruleset: euchre bidding on an upcard, and no
    ghost hand. The house rules are the ruleset's (H1-H5)."""
    variant = ruleset.variant
    return (ruleset.extra_hand != "ghost" and variant.upcard and variant.bidding == "euchre"
            and bool(variant.scoring))


@functools.lru_cache(maxsize=64)
def _table(ruleset: Ruleset) -> _Table | None:
    if not _supported(ruleset):
        return None
    deck = make_deck(ruleset.options.deck)
    index = {str(card): i for i, card in enumerate(deck)}
    eff: list[tuple[int, ...]] = []
    power: list[tuple[tuple[int, ...], ...]] = []
    masks: list[tuple[int, ...]] = []
    if ruleset.options.no_trump and JOKER in deck:
        return None  # T205: the Benny has no suit at no trump
    for trump in _TRUMPS if ruleset.options.no_trump else _SUITS:
        follows = tuple(_SUIT_INDEX[str(effective_suit(c, trump))] for c in deck)
        eff.append(follows)
        power.append(tuple(tuple(card_power(c, trump, led) for c in deck) for led in _SUITS))
        masks.append(tuple(sum(1 << i for i, s in enumerate(follows) if s == k)
                           for k in range(len(_SUITS))))
    seats = tuple(s.value for s in ruleset.seats)
    return _Table(
        ruleset=ruleset,
        seats=seats,
        bidders={s.value: tuple(x.value for x in clockwise_from(s.left, ruleset.seats))
                 for s in ruleset.seats},
        index=index,
        joker=index.get("JK", -1),
        printed_suit=tuple(_SUIT_INDEX[c.suit.value] if c.suit else -1 for c in deck),
        eff=tuple(eff),
        power=tuple(power),
        suit_mask=tuple(masks),
        side={s.value: ruleset.side(s) for s in ruleset.seats},
        sides=ruleset.side_names,
        kitty_size=ruleset.kitty_size,
        dummy=ruleset.extra_hand == "dummy",
    )


# ------------------------------------------------------------------ the replay


class _DeclineError(Exception):
    """Raised for a game the fast path leaves to the full one."""


_LOOKUP_ERRORS = (_DeclineError, KeyError, IndexError, TypeError, ValueError, AttributeError)
"""What a game of unexpected shape raises on the way: the fast path then declines."""

_GAME_KEYS = frozenset({"tags", "deals", "end"})
_DEAL_KEYS = frozenset({"number", "dealer", "hands", "extra", "up", "bidding", "exchange",
                        "declarations", "tricks", "score", "penalties"})
_UP_KEYS = frozenset({"card", "kitty"})
_EXCHANGE_KEYS = frozenset({"seat", "act", "takes", "upcard", "discard"})
_SCORE_KEYS = frozenset({"points", "total"})
_END_KEYS = frozenset({"act", "scores", "winner"})
_TAG_NAME = re.compile(TAG_NAME)


def replay_game(game: Any, *, commented: bool = True) -> GameReport | None:
    """Replays one game in its JSON form (as ``json.loads`` gives it, or as the notation
    reader builds it): its report if the fast path covers the game and finds it clean,
    else ``None``. Its comments change nothing; ``commented=False`` says it has none."""
    try:
        return _game(_bare(game) if commented else game)
    except _LOOKUP_ERRORS:
        return None


def _int(value: Any) -> int:
    if type(value) is not int:
        raise _DeclineError
    return value


def _sides(value: Any) -> dict[str, int]:
    """A points, total or result mapping of sides to numbers."""
    if type(value) is not dict or not SIDE_NAMES.issuperset(value):
        raise _DeclineError
    for n in value.values():
        _int(n)
    return value


def _game(game: dict[str, Any]) -> GameReport | None:
    if not _GAME_KEYS.issuperset(game):
        return None
    first: dict[str, str] = {}
    for tag in game.get("tags", ()):
        name, value = tag["name"], tag["value"]
        if (len(tag) != 2 or type(value) is not str or type(name) is not str
                or not _TAG_NAME.fullmatch(name)
                or first.setdefault(name.lower(), value) != value):
            return None  # an unknown key, a bad name, or T205
    ruleset, problems = ruleset_from_tags(first)
    if problems:
        return None
    table = _table(ruleset)
    if table is None:
        return None
    report = GameReport(ruleset)
    totals = dict.fromkeys(table.sides, 0)
    ended = False
    due: Seat | None = None
    counted = 0
    deals = game.get("deals", ())
    if type(deals) is not list:
        return None
    for d, deal in enumerate(deals):
        if not _DEAL_KEYS.issuperset(deal):
            return None  # a dummy left unknown, a score-sheet line, a claim
        dealer = _SEAT.get(deal["dealer"])
        if (ended or _int(deal["number"]) != d + 1 or dealer not in ruleset.seats
                or (due is not None and dealer is not due)):
            return None  # D307, D301, D302
        result = _deal(table, deal)
        points = result.points
        assert points is not None
        for side, n in points.items():
            totals[side] += n
        result.penalties = _charges(ruleset, deal, totals)
        score = deal.get("score")
        if score is not None and not _written(table, score, points, totals):
            return None
        result.totals = dict(totals)
        report.deals.append(result)
        due = ruleset.next_dealer(dealer, result.thrown)
        counted += ruleset.counts(result.thrown)
        outcome = ruleset.outcome(totals, counted)
        if outcome is not None:
            ended = True
            report.winner = outcome.winner
    report.totals = totals
    report.ended = ended
    end = game.get("end")
    if end is None:
        return report if ended else None  # G951
    if not _END_KEYS.issuperset(end):
        return None
    act = end.get("act", "result")
    scores = _sides(end["scores"]) if end.get("scores") is not None else {}
    winner = end.get("winner")
    if act == "unfinished":
        return None if ended or winner not in SIDE_NAMES | {None} else report  # G954
    if act != "result" or not ended or winner not in (None, report.winner):
        return None  # G955, G953
    if any(totals.get(s) != v for s, v in scores.items()):
        return None  # G952
    return report


def _charges(ruleset: Ruleset, deal: dict[str, Any], totals: dict[str, int]) -> list[Charge]:
    """The penalties of a deal (H6), taken from the running totals of the sides charged."""
    out = []
    for penalty in deal.get("penalties", ()):
        who, points, reason = penalty["who"], _int(penalty["points"]), penalty["reason"]
        if type(who) is not str or type(reason) is not str or points < 1 or len(penalty) != 3:
            raise _DeclineError  # a shape the models refuse
        charge = Charge.of(ruleset, deal["number"], who, points, reason)
        if charge is None:
            raise _DeclineError  # C904
        totals[charge.side] -= points
        out.append(charge)
    return out


def _written(table: _Table, score: dict[str, Any], points: dict[str, int],
             totals: dict[str, int]) -> bool:
    """Whether the deal's points line agrees with the replay (C901, C902, C904)."""
    if not _SCORE_KEYS.issuperset(score):
        return False
    wrote = score.get("points")
    if wrote is not None and (
            any(s not in totals for s in _sides(wrote))
            or any(wrote.get(s, 0) != points.get(s, 0) for s in table.sides)):
        return False
    total = score.get("total")
    return total is None or all(totals.get(s) == v for s, v in _sides(total).items())


def _cards(value: Any) -> list[str]:
    if type(value) is not list:
        raise _DeclineError
    return value


def _deal(table: _Table, deal: dict[str, Any]) -> DealResult:
    """Replays one deal; raises :class:`_DeclineError` (or a lookup error) at anything the fast
    path does not take."""
    ruleset = table.ruleset
    variant = ruleset.variant
    index = table.index
    dealer: str = deal["dealer"]
    # The cards (D303-D306).
    seen = 0
    masks: dict[str, int] = {}
    size = variant.hand_size
    lines = deal["hands"]
    if type(lines) is not list or len(lines) != 1 or len(lines[0]) != 1:
        raise _DeclineError
    hands = lines[0]["cards"]
    if type(hands) is not dict or len(hands) != len(table.seats):
        raise _DeclineError
    for seat in table.seats:
        cards = _cards(hands[seat])
        if len(cards) != size:
            raise _DeclineError
        mask = 0
        for text in cards:
            i = index[text]
            if seen >> i & 1:
                raise _DeclineError
            mask |= 1 << i
            seen |= 1 << i
        masks[seat] = mask
    dummy = 0
    extra: Any = deal.get("extra")
    if table.dummy:
        if extra["kind"] != "dummy" or len(extra) != 2 or len(_cards(extra["cards"])) != size:
            raise _DeclineError  # D303
        for text in extra["cards"]:
            i = index[text]
            if seen >> i & 1:
                raise _DeclineError
            dummy |= 1 << i
            seen |= 1 << i
    elif extra is not None:
        raise _DeclineError  # D303
    upcard = deal["up"]
    if not _UP_KEYS.issuperset(upcard):
        raise _DeclineError
    up_text = upcard["card"]
    up = index[up_text]
    if up == table.joker or seen >> up & 1:
        raise _DeclineError
    seen |= 1 << up
    kitty = upcard.get("kitty")
    if kitty is not None:
        if len(_cards(kitty)) != table.kitty_size:
            raise _DeclineError
        for text in kitty:
            i = index[text]
            if seen >> i & 1:
                raise _DeclineError
            seen |= 1 << i
    # The bidding (F3-F7).
    order = table.bidders[dealer]
    up_suit = table.printed_suit[up]
    trump = -1
    maker = ""
    round_ = 1
    turn = 0
    thrown = False
    for line in deal.get("bidding", ()):
        if len(line) != 1:
            raise _DeclineError
        for bid in line["bids"]:
            seat = bid["seat"]
            act = bid["act"]
            if trump >= 0 or thrown or seat != order[turn] or len(bid) != (
                    3 if act == "call" else 2):
                raise _DeclineError  # B405, B401
            if act == "pass":
                if round_ == 2 and seat == dealer and ruleset.options.stick_the_dealer:
                    raise _DeclineError  # B404
                turn += 1
                if turn == len(order):
                    turn = 0
                    thrown = round_ == 2
                    round_ = 2
            elif act == "order" and round_ == 1:
                trump, maker = up_suit, seat
            elif (act == "call" and round_ == 2 and bid["suit"] == NO_TRUMP.value
                  and ruleset.options.no_trump):
                trump, maker = _NO_TRUMP, seat  # H5
            elif act == "call" and round_ == 2 and _SUIT_INDEX[bid["suit"]] != up_suit:
                trump, maker = _SUIT_INDEX[bid["suit"]], seat
            else:
                raise _DeclineError  # B402, B403
    if thrown:
        if deal.get("exchange") or deal.get("declarations") or deal.get("tricks"):
            raise _DeclineError
        return DealResult(deal["number"], _SEAT[dealer], {}, {}, thrown=True)
    if trump < 0:
        raise _DeclineError  # unfinished bidding
    # The exchange (F8) and the lone hands (F9).
    exchange = deal.get("exchange")
    if exchange is None:
        if round_ == 1:
            raise _DeclineError  # the record does not say what the dealer did with the upcard
    else:
        act = exchange.get("act", "takes")
        taken = exchange.get("upcard")
        discard = exchange.get("discard")
        if (not _EXCHANGE_KEYS.issuperset(exchange) or round_ != 1
                or exchange["seat"] != dealer or type(exchange.get("takes", False)) is not bool):
            raise _DeclineError  # K501
        if act == "declines":
            if (ruleset.options.dealer_pickup == "required" or exchange.get("takes")
                    or taken is not None or discard is not None):
                raise _DeclineError  # K504
        elif act == "takes":
            if taken is not None and taken != up_text:
                raise _DeclineError  # K503
            six = masks[dealer] | 1 << up
            i = index[discard]
            if not six >> i & 1:
                raise _DeclineError  # K502
            masks[dealer] = six & ~(1 << i)
        else:
            raise _DeclineError
    alone: str | None = None
    defender: str | None = None
    merged = False
    side = table.side
    for decl in deal.get("declarations", ()):
        act, seat = decl["act"], decl["seat"]
        if act == "merge":
            if not table.dummy or seat != maker or alone is not None or merged or len(decl) != 3:
                raise _DeclineError  # K505
            ten = masks[maker] | dummy
            kept = 0
            for text in _cards(decl["keeps"]):
                i = index[text]
                if not ten >> i & 1 or kept >> i & 1:
                    raise _DeclineError  # K506
                kept |= 1 << i
            if len(decl["keeps"]) != size:
                raise _DeclineError  # K506
            masks[maker] = kept
            merged = True
            continue
        if len(decl) != 2 or variant.alone != "declared":
            raise _DeclineError  # A601, A602
        if act == "alone" and seat == maker and alone is None and not merged:
            alone = seat
        elif (act == "defend" and ruleset.options.lone_defender and defender is None
              and side[seat] != side[maker]):
            defender = seat
        else:
            raise _DeclineError  # A601, A602, A603
    if table.dummy and ruleset.options.dummy == "required" and not merged and alone is None:
        raise _DeclineError  # K507
    if alone is None and ruleset.must_go_alone(_SEAT[dealer], _SEAT[maker], round_):
        raise _DeclineError  # A604
    # The play (P1-P4, F10).
    tricks = deal["tricks"]
    if len(tricks) != variant.tricks:
        raise _DeclineError  # P706, or a partial deal
    orders, leader = table.lineup(dealer, maker, alone, defender)
    follows = table.eff[trump]
    strength = table.power[trump]
    suit_mask = table.suit_mask[trump]
    maker_side = side[maker]
    made = 0
    for t, trick in enumerate(tricks):
        turn_order = orders[leader]
        plays = trick["plays"]
        if (trick["number"] != t + 1 or type(trick["number"]) is not int or len(trick) != 2
                or len(plays) != len(turn_order) or sum(map(len, plays)) != 2 * len(plays)):
            raise _DeclineError  # P707, P705
        led = -1
        best = -1
        powers: tuple[int, ...] = ()
        for play, due in zip(plays, turn_order, strict=True):
            seat = play["seat"]
            i = index[play["card"]]
            hand = masks[seat]
            if seat != due or not hand >> i & 1:
                raise _DeclineError  # P701, P702, P703, P708
            suit = follows[i]
            if led < 0:
                led = suit
                powers = strength[led]
            elif suit != led and hand & suit_mask[led]:
                raise _DeclineError  # R801
            masks[seat] = hand & ~(1 << i)
            if powers[i] > best:
                best = powers[i]
                leader = seat
        if side[leader] == maker_side:
            made += 1
    points = ruleset.side_points(_SEAT[maker], made, maker_alone=alone is not None,
                                 defender_alone=defender is not None)
    return DealResult(deal["number"], _SEAT[dealer], points, {}, maker=_SEAT[maker],
                      trump=_TRUMPS[trump].value, alone=alone is not None,
                      defender_alone=defender is not None, maker_tricks=made)


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
    return replay_game(read.form, commented=read.commented)


def verify_notation(text: str) -> GameReport | None:
    """The report of one game of notation, if it reads and the fast path covers it and
    finds it clean; otherwise ``None``."""
    try:
        read = read_game(text)
    except NotationError:
        return None
    return None if isinstance(read, list) else replay_form(read)


_COMMENT_KEYS = frozenset({"before", "note", "after"})


_LINE_LISTS = ("tags", "hands", "bidding", "declarations", "tricks", "claims", "penalties")
"""The lists of lines in a game or deal, each line of which may carry comments."""
_LINES = ("start", "extra", "up", "exchange", "sheet", "score", "end")
"""The single lines of a game or deal that may carry comments."""


def _bare(game: dict[str, Any]) -> dict[str, Any]:
    """A game's JSON form without its comments (``before``, ``note`` and ``after``), which
    change nothing in the replay; the lines that have none are shared, not copied."""
    out = _without_comments(game)
    for key in _LINES:
        if key in out:
            out[key] = _plain(out[key])
    out["tags"] = [_plain(tag) for tag in out["tags"]]
    deals = []
    for deal in out.get("deals", ()):
        deal = _without_comments(deal)
        for key in _LINE_LISTS:
            if key in deal:
                deal[key] = [_plain(line) for line in deal[key]]
        for key in _LINES:
            if key in deal:
                deal[key] = _plain(deal[key])
        deals.append(deal)
    out["deals"] = deals
    return out


def _without_comments(value: dict[str, Any]) -> dict[str, Any]:
    """A copy of a game's or deal's own keys but its comments."""
    return {k: v for k, v in value.items() if k not in _COMMENT_KEYS}


def _plain(line: Any) -> Any:
    """One line without its comments: the line itself if it has none."""
    if type(line) is dict and not _COMMENT_KEYS.isdisjoint(line):
        return _without_comments(line)
    return line


def _encodable(text: str) -> bool:
    """Whether the text can be written as UTF-8 (a lone surrogate cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
