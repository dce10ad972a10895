"""OpenSpiel's euchre game: a history of integer actions read into a game.

OpenSpiel (``open_spiel/games/euchre``) plays one deal per game and records it as a list
of actions: the dealer (0-3 for N, E, S, W), the 20 cards dealt (card ``rank * 4 + suit``,
ranks 9 T J Q K A, suits C D H S; the first card to the dealer, then clockwise), the
upcard, the bids (24 pass; 25-28 clubs, diamonds, hearts, spades as trump), the dealer's
discard after an order, the go-alone decisions (29 alone, 30 with the partner) and the
cards played. Its parameters are ``allow_lone_defender`` (default false) and
``stick_the_dealer`` (default true). Its rules are four-hand with these options of
RULES.md: the dealer must pick up (``dealer-pickup=required``), the dealer's left leads a
lone hand (``lone-lead=dealer-left``), any euchre by a lone defender scores 4
(``lone-defender-euchre=4``, or ``no-lone-defender``), and a deal everyone passes is not
dealt again: the game is one deal (``deals=1``), thrown in or played. This module needs
no OpenSpiel.

>>> actions = [0, *range(20), 20, 24, 24, 24, 24, 24, 24, 24, 24]
>>> game = from_history(actions, {"stick_the_dealer": False}).game
>>> game.deals[0].bids[-1].act, game.tag("Rules")
('pass', 'deals=1 dealer-pickup=required lone-lead=dealer-left no-lone-defender')
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from ..acts import Bid, Call, Declaration, Exchange, Order, Pass, Play
from ..cards import Card, Suit, parse_card
from ..loci import Locus
from ..models import Bidding, Deal, End, Game, Hands, Tag, Trick, Upcard
from ..replay import GameReport
from ..rules import FOUR_HAND, OPTIONS, Options, ruleset_from_tags
from ..seats import SEATS, Seat
from . import ConversionError, Converted, parse_json, seat_tricks

PASS = 24
"""The action of a pass."""
TRUMP = {25: Suit.CLUBS, 26: Suit.DIAMONDS, 27: Suit.HEARTS, 28: Suit.SPADES}
"""The actions that name trump (an order in round 1, a call in round 2)."""
ALONE = 29
"""Going alone (the maker) or defending alone (a defender)."""
PARTNER = 30
"""Playing with the partner."""
PARAMETERS = {"allow_lone_defender": False, "stick_the_dealer": True}
"""OpenSpiel's euchre parameters and their defaults (each the ``openspiel`` column of a
row of the options table)."""
_FIXED = ("deals=1", "dealer-pickup=required", "lone-lead=dealer-left")
"""The options OpenSpiel's rules fix."""
_RANKS = "9TJQKA"
_SUITS = "CDHS"


def card_of(action: int) -> Card:
    """The card of an action from 0 to 23 (``rank * 4 + suit``)."""
    card = parse_card(_RANKS[action // 4] + _SUITS[action % 4])
    assert card is not None
    return card


def rules_words(params: dict[str, bool]) -> str:
    """The ``Rules`` tag of an OpenSpiel euchre game with these parameters."""
    words = list(_FIXED)
    base = Options.defaults(FOUR_HAND)
    for row in OPTIONS:
        if row.openspiel is not None and params[row.openspiel] != getattr(base, row.field):
            words.append(row.word(params[row.openspiel]))
    if params["allow_lone_defender"]:
        words.append("lone-defender-euchre=4")  # OpenSpiel scores a lone defender's euchre 4
    return " ".join(words)


class _Reader:
    """Walks one history action by action, keeping where each part of the deal came from."""

    def __init__(self, actions: list[int], params: dict[str, bool], line: int) -> None:
        self.actions = actions
        self.params = params
        self.line = line
        self.i = 0
        self.places: dict[Locus, str] = {}

    def at(self, locus: Locus, index: int | None = None) -> None:
        self.places[locus] = f"{self.line}:{self.i if index is None else index}"

    def next(self) -> int | None:
        """The next action, or ``None`` at the end of a history cut short."""
        if self.i >= len(self.actions):
            return None
        self.i += 1
        return self.actions[self.i - 1]

    def fail(self, message: str) -> ConversionError:
        return ConversionError(message, f"{self.line}:{self.i - 1}")

    def game(self) -> Converted:
        words = rules_words(self.params)
        ruleset = ruleset_from_tags({"variant": FOUR_HAND.name, "rules": words})[0]
        tags = (Tag(name="Variant", value=FOUR_HAND.name), Tag(name="Rules", value=words))
        self.places[("game",)] = f"{self.line}:0"
        deal, finished = self.deal(ruleset)
        end = None if finished else End(act="unfinished")
        self.places[("end",)] = self.places[("tail",)] = f"{self.line}:{len(self.actions)}"
        return Converted(Game(tags=tags, deals=(deal,), end=end), self.places, f"{self.line}:0")

    def deal(self, ruleset: Any) -> tuple[Deal, bool]:
        first = self.next()
        if first is None:
            raise ConversionError("an empty history: it starts with the dealer",
                                  f"{self.line}:0")
        if first not in range(4):
            raise self.fail(f"action {first}: the first action is the dealer, 0 to 3")
        dealer = SEATS[first]
        loc: Locus = ("deal", 0)
        self.at(loc, 0)
        self.at((*loc, "dealer"), 0)
        hands: dict[Seat, list[Card | None]] = {s: [] for s in SEATS}
        for k in range(20):
            dealt = self.card()
            if dealt is None:
                return self.done(dealer, hands), False
            seat = SEATS[(first + k) % 4]
            self.at((*loc, "hands", seat, "card", len(hands[seat])), self.i - 1)
            hands[seat].append(dealt)
        up = self.card()
        if up is None:
            return self.done(dealer, hands), False
        self.at((*loc, "up"), self.i - 1)
        fields: dict[str, Any] = {"up": Upcard(card=up)}
        bids: list[Bid] = []
        seat = dealer
        maker: Seat | None = None
        trump: Suit | None = None
        while maker is None and len(bids) < 8:
            bid = self.next()
            if bid is None:
                return self.done(dealer, hands, fields, bids), False
            seat = seat.left
            self.at((*loc, "bid", len(bids)), self.i - 1)
            if bid == PASS:
                bids.append(Pass(act="pass", seat=seat))
                continue
            if bid not in TRUMP:
                raise self.fail(f"action {bid}: a bid is 24 (pass) or 25 to 28 (a suit)")
            maker, trump = seat, TRUMP[bid]
            if len(bids) < 4:
                bids.append(Order(act="order", seat=seat) if trump == up.suit
                            else Call(act="call", seat=seat, suit=trump))
            else:
                bids.append(Call(act="call", seat=seat, suit=trump))
        if maker is None or trump is None:
            return self.done(dealer, hands, fields, bids), True  # thrown in: the game is over
        if len(bids) <= 4:
            discard = self.card()
            if discard is None:
                return self.done(dealer, hands, fields, bids), False
            self.at((*loc, "exchange"), self.i - 1)
            self.at((*loc, "discard"), self.i - 1)
            fields["acts"] = (Exchange(seat=dealer, takes=True, upcard=up, discard=discard),)
        decls = self.declarations(loc, dealer, maker)
        if decls is None:
            return self.done(dealer, hands, fields, bids), False
        fields["acts"] = (*fields.get("acts", ()), *decls)
        alone = next((d.seat for d in decls if d.act == "alone"), None)
        defender = next((d.seat for d in decls if d.act == "defend"), None)
        size = 4 - (alone is not None) - (defender is not None)
        plays: list[Card | None] = []
        starts: list[int] = []
        while len(plays) < 5 * size:
            played = self.card()
            if played is None:
                break
            starts.append(self.i - 1)
            plays.append(played)
        tricks = [plays[t:t + size] for t in range(0, len(plays), size)]
        seats = seat_tricks(ruleset, dealer, maker, alone, defender, trump, tricks)
        out = []
        for t, (cards, who) in enumerate(zip(tricks, seats, strict=True)):
            self.at((*loc, "trick", t), starts[t * size])
            for p in range(len(cards)):
                self.at((*loc, "trick", t, "play", p), starts[t * size + p])
            out.append(Trick(number=t + 1, plays=cast(Any, tuple(
                Play(seat=s, card=c) for s, c in zip(who, cards, strict=True)))))
        fields["tricks"] = tuple(out)
        if self.i < len(self.actions):
            raise ConversionError("actions after the end of the deal",
                                  f"{self.line}:{self.i}")
        return self.done(dealer, hands, fields, bids), len(plays) == 5 * size

    def card(self) -> Card | None:
        action = self.next()
        if action is None:
            return None
        if action not in range(24):
            raise self.fail(f"action {action}: a card is 0 to 23")
        return card_of(action)

    def declarations(self, loc: Locus, dealer: Seat,
                     maker: Seat) -> tuple[Declaration, ...] | None:
        """The maker's go-alone decision, then the defenders' (when allowed), as OpenSpiel
        asks them: the defender nearer the dealer's left first."""
        action = self.next()
        if action is None:
            return None
        if action not in (ALONE, PARTNER):
            raise self.fail(f"action {action}: the maker chooses 29 (alone) or 30 (partner)")
        out: list[Declaration] = []
        if action == ALONE:
            self.at((*loc, "decl", 0), self.i - 1)
            out.append(Declaration(act="alone", seat=maker))
        if not self.params["allow_lone_defender"]:
            return tuple(out)
        asked = dealer.left
        if asked in (maker, maker.partner):
            asked = asked.left
        while True:
            action = self.next()
            if action is None:
                return None
            if action not in (ALONE, PARTNER):
                raise self.fail(f"action {action}: a defender chooses 29 (alone) or 30 "
                                "(partner)")
            if action == ALONE:
                self.at((*loc, "decl", len(out)), self.i - 1)
                out.append(Declaration(act="defend", seat=asked))
                return tuple(out)
            if asked not in (dealer.left, dealer.left.left):
                return tuple(out)
            asked = asked.partner

    def done(self, dealer: Seat, hands: dict[Seat, list[Card | None]],
             fields: dict[str, Any] | None = None, bids: list[Bid] | None = None) -> Deal:
        """The deal as far as the history goes."""
        held = {s: tuple(c) for s, c in hands.items() if c}
        out = dict(fields or {})
        if bids:
            out["bidding"] = tuple(Bidding(bids=cast(Any, tuple(bids[r:r + 4]))) for r in (0, 4)
                                   if bids[r:r + 4])
        return Deal(number=1, dealer=dealer, hands=(Hands(cards=held),) if held else (), **out)


def from_history(actions: Any, params: Any = None, line: int = 1) -> Converted:
    """A game from an OpenSpiel euchre history (its list of actions) and the game's
    parameters; positions are ``line:index`` of the action.

    :raises ConversionError: for what is not such a history.
    """
    given = {} if params is None else params
    if not isinstance(given, dict) or any(
            k not in PARAMETERS or not isinstance(v, bool) for k, v in given.items()):
        raise ConversionError("params: expected an object of allow_lone_defender and "
                              "stick_the_dealer, true or false", f"{line}:0")
    if not isinstance(actions, list) or not all(type(a) is int for a in actions):
        raise ConversionError("actions: expected a list of whole numbers", f"{line}:0")
    return _Reader(actions, {**PARAMETERS, **given}, line).game()


def read_lines(text: str) -> Iterator[Converted | ConversionError]:
    """The games of a file of histories, one JSON object a line (``{"params": {...},
    "actions": [...]}``); a line that is not one costs only its own game."""
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            item = parse_json(raw, f"{number}:0")
        except ConversionError as exc:
            yield exc
            continue
        if not isinstance(item, dict) or "actions" not in item or set(item) - {
                "actions", "params"}:
            yield ConversionError("expected an object with actions and optional params",
                                  f"{number}:0")
            continue
        try:
            yield from_history(item["actions"], item.get("params"), number)
        except ConversionError as exc:
            yield exc


def returns(report: GameReport) -> list[float]:
    """What OpenSpiel's ``Returns()`` gives for a replayed one-deal game: each seat's
    side's points less the other side's (zero-sum), seats N, E, S, W."""
    points = report.deals[0].points if report.deals else None
    got = points or {}
    ns, ew = got.get("NS", 0), got.get("EW", 0)
    return [float(ns - ew if s in (Seat.N, Seat.S) else ew - ns) for s in SEATS]
