"""EGN, the Euchre Game Notation of NextSuit Labs (a JSON format, ``.egn``), read into a
game and written back.

An EGN file holds one four-hand game: metadata (title, date, players, the score before the
first deal, house rules) and its deals, each the dealer, the upcard, the calls from the
dealer's left, the lone flags, the dealer's discard and the cards of each trick in the
order played (who played them follows from the rules). :func:`from_egn` reads one into a
:class:`~euchrelog.models.Game`, refusing what the rules reference has no equivalent for
and naming the field; :func:`to_egn` writes a game back and lists what EGN cannot hold.
docs/interop.md gives the whole mapping.

>>> text = ('{"fileType": "Euchre Game Notation", "version": "1.4", "metadata": '
...         '{"players": ["Ann", "Bob", "Cy", "Dee"], "initialScore": [4, 9]}, "deals": []}')
>>> game = loads_egn(text).game
>>> game.start.total
{'NS': 4, 'EW': 9}
>>> to_egn(game)[0]["metadata"]["initialScore"]
[4, 9]
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from ..cards import NO_TRUMP, Card, Suit, Trump, parse_card
from ..errors import RecordError
from ..loci import Locus
from ..models import (
    Bid,
    Bidding,
    Call,
    Deal,
    Declaration,
    End,
    Exchange,
    Game,
    Hands,
    Line,
    Order,
    Pass,
    Play,
    Start,
    Tag,
    Trick,
    Upcard,
)
from ..notation.jsonio import TOO_DEEP, json_value, too_deep
from ..replay import replay
from ..rules import FOUR_HAND, OPTIONS, Options, ruleset_from_tags
from ..seats import SEATS, Seat
from . import ConversionError, Converted, parse_json, seat_tricks

FILE_TYPE = "Euchre Game Notation"
VERSION = "1.4"
"""The EGN version written."""

_TOP = frozenset({"fileType", "version", "metadata", "deals"})
_META = frozenset({"gameId", "title", "description", "players", "initialScore", "finalScore",
                   "date", "ruleset"})
_DEAL = frozenset({"dealNumber", "initialState", "phases", "alternativeLines"})
_INITIAL = frozenset({"dealer", "upCard", "playerCards", "kitty"})
_BIDDING = frozenset({"phaseNumber", "type", "calls", "isAlone", "aloneDefender", "discard",
                      "cardExchanges", "callAnnotations"})
_PLAY = frozenset({"phaseNumber", "type", "tricks", "isAlone", "playAnnotations",
                   "initialLead"})
_META_TAGS = {"title": "Event", "date": "Date", "gameId": "GameId",
              "description": "Description"}
"""Metadata that becomes a tag of the same meaning."""
RULESET_TAG = "EgnRuleset"
"""The tag that keeps an EGN ruleset exactly as written, so that it is written back so."""
PLAYERS_TAG = "EgnPlayers"
"""The tag that keeps EGN player objects (names with external ids) as written."""

_RENAMED = {"calls_annotations": "callAnnotations", "tricks_annotations": "playAnnotations",
            "player_cards": "playerCards", "card_exchanges": "cardExchanges",
            "match_id": "gameId", "matchId": "gameId", "initial_score": "initialScore",
            "initial_state": "initialState", "phase_number": "phaseNumber",
            "is_alone": "isAlone", "alone_defender": "aloneDefender",
            "play_annotations": "playAnnotations", "alternative_lines": "alternativeLines",
            "branch_index": "branchIndex", "up_card": "upCard", "file_type": "fileType",
            "max_deals": "num_deals", "player_ids": "playerIds"}
"""The snake_case fields of EGN before 1.2 and their names now (as egn-upgrade renames)."""
_RENDERING = frozenset({"timings", "views", "layouts", "videoUrl", "viewSwitches", "screens"})
"""Fields of early EGN files for the renderer and the video, which egn-upgrade drops."""

_CALL_NOTE = re.compile(r"call (\d+): (.*)")
_PLAY_NOTE = re.compile(r"play (\d+): (.*)")
_ALTERNATIVE = "alternative: "
_SUITS = {"c": Suit.CLUBS, "d": Suit.DIAMONDS, "h": Suit.HEARTS, "s": Suit.SPADES}
_RANKS = {"N": "9", "T": "T", "J": "J", "Q": "Q", "K": "K", "A": "A", "9": "9", "8": "8",
          "7": "7"}
_NO_EQUIVALENT = {
    "farmers": "the farmer's hand",
    "partners_best": "calling for the partner's best card",
    "go_under": "going under (swapping cards with the kitty)",
    "fast_break": "the fast break",
    "four_trick_tokens": "four-trick tokens",
}
"""EGN house rules, switched on, that the rules reference has no option for."""
_FIELDS = frozenset({*(name for row in OPTIONS for name in row.egn or ()), *_NO_EQUIVALENT,
                     "loner_march_score", "num_players"})
"""The fields of an EGN ruleset: those the options table spells, the house rules without
an equivalent, and two that must keep their one value."""


def _fail(message: str, where: str) -> ConversionError:
    return ConversionError(message, where)


def _object(value: Any, where: str, keys: frozenset[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _fail("expected an object", where)
    for key in value:
        if key not in keys:
            raise _fail(f"unknown field {key!r}", where)
    return value


def _int(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    if type(value) is not int or (low is not None and value < low) or (
            high is not None and value > high):
        span = f" from {low} to {high}" if high is not None else ""
        raise _fail(f"expected a whole number{span}, found {json.dumps(value)}", where)
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _fail("expected a string", where)
    if "\n" in value or "\r" in value:
        raise _fail("a line break: the notation keeps this as a one-line tag", where)
    return value


# ------------------------------------------------------------------ cards

_CARD = re.compile(r"([78N9TJQKAX])([SsHhCcDdxtngh])|([LRB])")


def _card(value: Any, where: str, trump: Trump | None) -> Card | None:
    """An EGN card: ``9c``, ``Nc`` (nine), ``R``/``L`` (the bowers), ``B`` (the Benny),
    ``Xx`` (unknown)."""
    m = _CARD.fullmatch(value) if isinstance(value, str) else None
    if m is None:
        raise _fail(f"not an EGN card: {json.dumps(value)}", where)
    if m.group(3) == "B":
        return parse_card("JK")
    if m.group(3):
        if trump is None:
            raise _fail(f"bower {value} before trump is fixed", where)
        if trump is NO_TRUMP:
            raise _fail(f"bower {value} at no trump, which has no bowers", where)
        return parse_card("J" + str(trump if value == "R" else trump.partner))
    rank, suit = m.group(1), m.group(2)
    if rank == "X" and suit == "x":
        return None
    if rank == "X" or suit == "x":
        raise _fail(f"card {value} has an unknown {'rank' if rank == 'X' else 'suit'}: the "
                    "notation writes a card whole, or ?? when unknown", where)
    if suit.lower() not in _SUITS:
        raise _fail(f"card {value} names a generic suit (trump, next, green): the notation "
                    "writes real suits", where)
    return parse_card(_RANKS[rank] + suit.upper())


def card_text(card: Card | None) -> str:
    """A card as EGN writes it: ``Th``, ``B`` for the Benny, ``Xx`` for unknown."""
    if card is None:
        return "Xx"
    text = str(card)
    return "B" if text == "JK" else text[0] + text[1].lower()


# ------------------------------------------------------------------ the ruleset

def rules_words(ruleset: dict[str, Any], where: str) -> list[str]:
    """The options of the ``Rules`` tag that an EGN ruleset means, or a refusal naming
    the flag that has no equivalent in the rules reference."""
    _object(ruleset, where, _FIELDS)
    words = []
    for flag, meaning in _NO_EQUIVALENT.items():
        if ruleset.get(flag, False) is not False:
            raise _fail(f"{flag}: {meaning} has no equivalent in the rules reference",
                        f"{where}.{flag}")
    if ruleset.get("num_players", 4) != 4:
        raise _fail("num_players: EGN games of other than four players are not read",
                    f"{where}.num_players")
    if ruleset.get("loner_march_score", 4) != 4:
        raise _fail(f"loner_march_score: {ruleset['loner_march_score']} points has no "
                    "equivalent in the rules reference (F11 scores 4)",
                    f"{where}.loner_march_score")
    euchred = ruleset.get("loner_euchred_score", 2)
    if euchred not in (2, 3, 4) or type(euchred) is not int:
        raise _fail(f"loner_euchred_score: {euchred} points has no equivalent in the rules "
                    "reference (euchred-loner takes 2, 3 or 4, H1)",
                    f"{where}.loner_euchred_score")
    if ruleset.get("std", True):
        words.append("stick-the-dealer")
    for flag, word in (("canadian", "canadian-loner"), ("allow_no_trump", "no-trump")):
        if ruleset.get(flag, False):
            words.append(word)
    low = ruleset.get("min_rank", 9)
    joker = ruleset.get("joker", False)
    if low not in (7, 9) or (joker and low != 9):
        raise _fail(f"min_rank {low}{' with a joker' if joker else ''}: the decks are 24, "
                    "25 (with the Benny) and 32 cards", f"{where}.min_rank")
    if joker:
        words.append("deck=25")
    elif low == 7:
        words.append("deck=32")
    target = _int(ruleset.get("winning_score", 10), f"{where}.winning_score", 0)
    deals = _int(ruleset.get("num_deals", 0), f"{where}.num_deals", 0)
    if deals:
        words.append(f"deals={deals}")
    if target and target != 10:
        words.append(f"target={target}")
    lead = ruleset.get("loner_lead", "LEFT_OF_DEALER")
    if lead not in ("LEFT_OF_DEALER", "LEFT_OF_LONER"):
        raise _fail(f"loner_lead {json.dumps(lead)} is not LEFT_OF_DEALER or LEFT_OF_LONER",
                    f"{where}.loner_lead")
    if lead == "LEFT_OF_DEALER":
        words.append("lone-lead=dealer-left")
    if ruleset.get("defend_alone", False):
        words.append("lone-defender-euchre=4")  # EGN: a lone defender who euchres scores 4
    else:
        words.append("no-lone-defender")
    if euchred != 2:
        words.append(f"euchred-loner={euchred}")
    return words


def _ruleset_of(options: Options) -> tuple[dict[str, Any], list[str]]:
    """An EGN ruleset for options, and the options EGN cannot say: each option of the
    options table without an EGN spelling that differs from its default, and a lone
    defender's euchre that scores other than EGN's 4."""
    ruleset: dict[str, Any] = {"std": options.stick_the_dealer}
    if options.canadian_loner:
        ruleset["canadian"] = True
    if options.no_trump:
        ruleset["allow_no_trump"] = True
    if options.deck != 24:
        ruleset.update({"min_rank": 7} if options.deck == 32 else {"joker": True})
    if options.deals:
        ruleset["num_deals"] = options.deals
    elif options.target != 10:
        ruleset["winning_score"] = options.target
    ruleset["loner_lead"] = ("LEFT_OF_DEALER" if options.lone_lead == "dealer-left"
                             else "LEFT_OF_LONER")
    ruleset["defend_alone"] = options.lone_defender
    if options.euchred_loner != 2:
        ruleset["loner_euchred_score"] = options.euchred_loner
    lost = []
    if options.lone_defender and options.lone_defender_euchre != 4:
        lost.append("a lone defender's euchre scoring 2 (EGN's defend_alone scores 4)")
    base = Options.defaults(FOUR_HAND)
    for row in OPTIONS:
        value = getattr(options, row.field)
        if row.egn is None and value != getattr(base, row.field):
            lost.append(row.word(value))
    return ruleset, lost


# ------------------------------------------------------------------ EGN to a game


class _Reader:
    """Reads one EGN game, keeping where each part came from."""

    def __init__(self) -> None:
        self.places: dict[Locus, str] = {("game",): "$"}
        self.tags: list[Tag] = []
        self.ruleset = ruleset_from_tags({"variant": FOUR_HAND.name})[0]

    def tag(self, name: str, value: str, where: str) -> None:
        self.places[("tag", len(self.tags))] = where
        self.tags.append(Tag(name=name, value=value))

    def game(self, data: Any) -> Converted:
        top = _object(data, "$", _TOP)
        for key in ("fileType", "version", "metadata", "deals"):
            if key not in top:
                raise _fail(f"missing field {key!r}", "$")
        if top["fileType"] != FILE_TYPE:
            raise _fail(f"fileType is {json.dumps(top['fileType'])}, not {FILE_TYPE!r}",
                        "$.fileType")
        meta = _object(top["metadata"], "$.metadata", _META)
        for key, name in _META_TAGS.items():
            if key in meta:
                self.tag(name, _text(meta[key], f"$.metadata.{key}"), f"$.metadata.{key}")
        self.tag("Variant", FOUR_HAND.name, "$.metadata")
        ruleset = meta.get("ruleset", {})
        words = " ".join(rules_words(ruleset, "$.metadata.ruleset"))
        self.ruleset = ruleset_from_tags({"variant": FOUR_HAND.name, "rules": words})[0]
        self.tag("Rules", words, "$.metadata.ruleset")
        # As written, or empty for none: written back exactly while the Rules tag agrees.
        self.tag(RULESET_TAG, _compact(ruleset) if "ruleset" in meta else "",
                 "$.metadata.ruleset")
        self.players(meta.get("players"))
        deals_in = top["deals"]
        if not isinstance(deals_in, list):
            raise _fail("expected a list of deals", "$.deals")
        deals = tuple(self.deal(d, raw) for d, raw in enumerate(deals_in))
        start = self.start(meta, deals)
        game = Game(tags=tuple(self.tags), start=start, deals=deals,
                    end=None if deals else End(act="unfinished"))
        return Converted(game.model_copy(update={"end": self.end(meta, game)}), self.places)

    def players(self, players: Any) -> None:
        where = "$.metadata.players"
        if not isinstance(players, list) or len(players) != 4:
            raise _fail("expected the four players, seat 0 to seat 3 (N, E, S, W)", where)
        objects = False
        for k, (seat, player) in enumerate(zip(SEATS, players, strict=True)):
            if isinstance(player, dict):
                objects = True
                player = player.get("name")
            self.tag(str(seat), _text(player, f"{where}[{k}]"), f"{where}[{k}]")
        if objects:
            self.tag(PLAYERS_TAG, _compact(players), where)

    def start(self, meta: dict[str, Any], deals: tuple[Deal, ...]) -> Start | None:
        where = "$.metadata.initialScore"
        score = meta.get("initialScore", [0, 0])
        if not isinstance(score, list) or len(score) != 2:
            raise _fail("expected two scores, team 0 (seats 0 and 2) and team 1", where)
        ns, ew = (_int(n, f"{where}[{k}]") for k, n in enumerate(score))
        first = deals[0].number if deals else 1
        self.places[("start",)] = where
        self.places[("start", "total", "NS")] = f"{where}[0]"
        self.places[("start", "total", "EW")] = f"{where}[1]"
        if first == 1 and not (ns or ew):
            return None
        return Start(deal=first if first != 1 else None,
                     total={"NS": ns, "EW": ew} if ns or ew else None)

    def end(self, meta: dict[str, Any], game: Game) -> End | None:
        where = "$.metadata.finalScore"
        if "finalScore" in meta:
            score = meta["finalScore"]
            if not isinstance(score, list) or len(score) != 2:
                raise _fail("expected two scores, team 0 (seats 0 and 2) and team 1", where)
            self.places[("end",)] = where
            self.places[("end", "score", "NS")] = f"{where}[0]"
            self.places[("end", "score", "EW")] = f"{where}[1]"
            return End(scores={"NS": _int(score[0], f"{where}[0]"),
                               "EW": _int(score[1], f"{where}[1]")})
        self.places[("end",)] = "$"
        self.places[("tail",)] = "$.deals"
        if not game.deals or not replay(game).ended:
            return End(act="unfinished")  # EGN says so by leaving out the final score
        return None

    def deal(self, d: int, raw: Any) -> Deal:
        where = f"$.deals[{d}]"
        if isinstance(raw, str):
            raise _fail("a condensed (bitpacked) deal: expand it to JSON first (egn-convert)",
                        where)
        data = _object(raw, where, _DEAL)
        for key in ("dealNumber", "initialState", "phases"):
            if key not in data:
                raise _fail(f"missing field {key!r}", where)
        loc: Locus = ("deal", d)
        self.places[loc] = where
        self.places[(*loc, "number")] = f"{where}.dealNumber"
        number = _int(data["dealNumber"], f"{where}.dealNumber", 0) + 1
        init = _object(data["initialState"], f"{where}.initialState", _INITIAL)
        iwhere = f"{where}.initialState"
        dealer = SEATS[_int(init.get("dealer"), f"{iwhere}.dealer", 0, 3)]
        self.places[(*loc, "dealer")] = f"{iwhere}.dealer"
        phases = data["phases"]
        if not isinstance(phases, list):
            raise _fail("expected a list of phases", f"{where}.phases")
        bidding: dict[str, Any] = {}
        playing: dict[str, Any] = {}
        bp = tp = 0
        for k, phase in enumerate(phases):
            kind = phase.get("type") if isinstance(phase, dict) else None
            if kind == "EUCHRE_BIDDING" and not bidding:
                bidding, bp = _object(phase, f"{where}.phases[{k}]", _BIDDING), k
            elif kind == "TRICK_PLAY" and not playing:
                playing, tp = _object(phase, f"{where}.phases[{k}]", _PLAY), k
            else:
                raise _fail("expected one EUCHRE_BIDDING and one TRICK_PLAY phase",
                            f"{where}.phases[{k}]")
        bwhere, twhere = f"{where}.phases[{bp}]", f"{where}.phases[{tp}]"
        if "cardExchanges" in bidding:
            raise _fail("cardExchanges: passing cards (partner's best, going under) has no "
                        "equivalent in the rules reference", f"{bwhere}.cardExchanges")
        calls = bidding.get("calls", [])
        if not isinstance(calls, list):
            raise _fail("expected a list of calls", f"{bwhere}.calls")
        upwhere = f"{iwhere}.upCard"
        if "upCard" not in init:
            raise _fail("missing field 'upCard'", iwhere)
        bids, maker, trump = self.calls(loc, calls, dealer, init["upCard"], upwhere,
                                        f"{bwhere}.calls")
        up = _card(init["upCard"], upwhere, trump)
        self.places[(*loc, "up")] = upwhere
        kitty = None
        if "kitty" in init and not (isinstance(init["kitty"], list) and "" in init["kitty"]):
            # early EGN wrote "" for a card not known: such a kitty is not read
            kitty = self.cards(init["kitty"], f"{iwhere}.kitty", trump, (*loc, "up", "kitty"))
        fields: dict[str, Any] = {
            "number": number, "dealer": dealer,
            "up": Upcard(card=up, kitty=tuple(kitty) if kitty else None),
            "hands": self.hands(loc, init, iwhere, trump),
            "bidding": self.bid_lines(bids, bidding, bwhere),
            "before": _alternatives(data.get("alternativeLines", []), where),
        }
        decls: list[Declaration] = []
        if bidding.get("isAlone", False):
            if maker is None:
                raise _fail("isAlone, but no one called trump", f"{bwhere}.isAlone")
            self.places[(*loc, "decl", len(decls))] = f"{bwhere}.isAlone"
            decls.append(Declaration(act="alone", seat=maker))
        defender = _int(bidding.get("aloneDefender", -1), f"{bwhere}.aloneDefender", -1, 3)
        if defender >= 0:
            self.places[(*loc, "decl", len(decls))] = f"{bwhere}.aloneDefender"
            decls.append(Declaration(act="defend", seat=SEATS[defender]))
        fields["declarations"] = tuple(decls)
        if "discard" in bidding:
            self.places[(*loc, "exchange")] = f"{bwhere}.discard"
            self.places[(*loc, "discard")] = f"{bwhere}.discard"
            fields["exchange"] = Exchange(seat=dealer, takes=True, upcard=up,
                                          discard=_card(bidding["discard"], f"{bwhere}.discard",
                                                        trump))
        if playing:
            fields["tricks"] = self.tricks(loc, playing, twhere, dealer, maker, trump,
                                           tuple(decls))
        return Deal(**fields)

    def calls(self, loc: Locus, calls: list[Any], dealer: Seat, upcard: Any, upwhere: str,
              where: str) -> tuple[list[Bid], Seat | None, Trump | None]:
        """The bids, the maker and trump of a list of EGN calls."""
        bids: list[Bid] = []
        maker: Seat | None = None
        trump: Trump | None = None
        for k, call in enumerate(calls):
            seat = SEATS[(SEATS.index(dealer) + 1 + k) % 4]
            self.places[(*loc, "bid", k)] = f"{where}[{k}]"
            if not isinstance(call, str):
                raise _fail(f"not an EGN call: {json.dumps(call)}", f"{where}[{k}]")
            if call == "Pass":
                bids.append(Pass(act="pass", seat=seat))
                continue
            if call == "Order":
                bids.append(Order(act="order", seat=seat))
                up = _card(upcard, upwhere, None)
                suit: Trump | None = up.suit if up is not None else None
            elif call in _SUITS or call == "n":
                suit = _SUITS.get(call, NO_TRUMP)  # n: no trump (H5)
                bids.append(Call(act="call", seat=seat, suit=suit))
            elif call == "x":
                raise _fail("an unknown call: the notation records the suit called",
                            f"{where}[{k}]")
            else:
                raise _fail(f"not an EGN call: {json.dumps(call)}", f"{where}[{k}]")
            if maker is None:
                maker, trump = seat, suit
        return bids, maker, trump

    def bid_lines(self, bids: list[Bid], phase: dict[str, Any],
                  where: str) -> tuple[Bidding, ...]:
        """The bids as one line per round, with the call annotations above their line."""
        if not bids:
            if phase.get("callAnnotations"):
                raise _fail("annotations of calls, but no calls", f"{where}.callAnnotations")
            return ()
        rounds = [bids[:4], bids[4:]] if len(bids) > 4 else [bids]
        notes: list[list[str]] = [[] for _ in rounds]
        for k, texts in _annotations(phase.get("callAnnotations", {}),
                                     f"{where}.callAnnotations"):
            line = min(k // 4, len(rounds) - 1)
            notes[line].extend(f"call {k}: {_comment(t)}" for t in texts)
        return tuple(Bidding(bids=tuple(r), before=tuple(n))
                     for r, n in zip(rounds, notes, strict=True))

    def hands(self, loc: Locus, init: dict[str, Any], where: str,
              trump: Trump | None) -> tuple[Hands, ...]:
        hands = init.get("playerCards")
        if hands is None:
            return ()
        where = f"{where}.playerCards"
        if not isinstance(hands, list) or len(hands) != 4:
            raise _fail("expected the four hands, seat 0 to seat 3", where)
        cards: dict[Seat, tuple[Card | None, ...]] = {}
        for k, (seat, hand) in enumerate(zip(SEATS, hands, strict=True)):
            self.places[(*loc, "hands", seat)] = f"{where}[{k}]"
            held = self.cards(hand, f"{where}[{k}]", trump, (*loc, "hands", seat, "card"))
            if held:
                cards[seat] = tuple(held)
        return (Hands(cards=cards),) if cards else ()

    def cards(self, value: Any, where: str, trump: Trump | None,
              loc: Locus) -> list[Card | None]:
        if not isinstance(value, list):
            raise _fail("expected a list of cards", where)
        for k in range(len(value)):
            self.places[(*loc, k)] = f"{where}[{k}]"
        return [_card(c, f"{where}[{k}]", trump) for k, c in enumerate(value)]

    def tricks(self, loc: Locus, phase: dict[str, Any], where: str, dealer: Seat,
               maker: Seat | None, trump: Trump | None,
               decls: tuple[Declaration, ...]) -> tuple[Trick, ...]:
        """The tricks, each play given to its seat (see :func:`.seat_tricks`)."""
        raw = phase.get("tricks", [])
        if not isinstance(raw, list):
            raise _fail("expected a list of tricks", f"{where}.tricks")
        if not raw:
            return ()
        if trump is None:
            raise _fail("tricks, but no one called trump: who played each card cannot be "
                        "told", f"{where}.tricks")
        flat: list[int] = []
        cards = []
        for t, trick in enumerate(raw):
            twhere = f"{where}.tricks[{t}]"
            if trick == []:
                raise _fail("an empty trick", twhere)
            self.places[(*loc, "trick", t)] = twhere
            cards.append(self.cards(trick, twhere, trump, (*loc, "trick", t, "play")))
            for p in range(len(trick)):
                self.places[(*loc, "trick", t, "seat", p)] = f"{twhere}[{p}]"
            flat.extend([t] * len(trick))
        notes: dict[int, list[str]] = {}
        for k, texts in _annotations(phase.get("playAnnotations", {}),
                                     f"{where}.playAnnotations"):
            t = flat[k] if k < len(flat) else len(raw) - 1
            notes.setdefault(t, []).extend(f"play {k}: {_comment(x)}" for x in texts)
        alone = next((d.seat for d in decls if d.act == "alone"), None)
        defender = next((d.seat for d in decls if d.act == "defend"), None)
        try:
            seats = seat_tricks(self.ruleset, dealer, maker, alone, defender, trump, cards)
        except ValueError as exc:
            raise _fail(str(exc), f"{where}.tricks") from None
        return tuple(Trick(number=t + 1, before=tuple(notes.get(t, ())),
                           plays=tuple(Play(seat=s, card=c) for s, c in zip(ss, cc, strict=True)))
                     for t, (ss, cc) in enumerate(zip(seats, cards, strict=True)))


def _annotations(value: Any, where: str) -> list[tuple[int, list[str]]]:
    """An EGN annotation map, from decision index to texts, in index order."""
    if not isinstance(value, dict):
        raise _fail("expected an object from index to annotations", where)
    out = []
    for key, texts in value.items():
        if not (isinstance(key, str) and key.isdigit()) or not isinstance(texts, list) or not all(
                isinstance(t, str) for t in texts):
            raise _fail(f"annotation {key!r}: expected a list of strings under an index", where)
        out.append((int(key), texts))
    return sorted(out, key=lambda item: item[0])


def _comment(text: str) -> str:
    """An annotation as comment text: as written when a comment keeps it so, else as a
    JSON string."""
    if text == text.strip() and "\n" not in text and "\r" not in text and not text.startswith(
            '"'):
        return text
    return json.dumps(text, ensure_ascii=False)


def _uncomment(text: str) -> str:
    return str(_json(text, "an annotation")) if text.startswith('"') else text


def _json(text: str, what: str) -> Any:
    """JSON kept in a tag or a comment; one that is not JSON, or over the limits of JSON
    read from a source, is refused."""
    try:
        return json_value(text)
    except RecordError as exc:
        raise _fail(f"{exc}: {text[:40]!r}", what) from None
    except ValueError:
        raise _fail(f"not JSON: {text[:40]!r}", what) from None


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _alternatives(lines: Any, where: str) -> tuple[str, ...]:
    """Analysis lines as comments above the deal line (``# alternative: {...}``)."""
    if not isinstance(lines, list):
        raise _fail("expected a list of alternative lines", f"{where}.alternativeLines")
    return tuple(_ALTERNATIVE + _compact(line) for line in lines)


def from_egn(data: Any) -> Converted:
    """A game from an EGN file parsed from JSON, with the JSON path of each part.

    :raises ConversionError: for what is not EGN, or has no equivalent in the rules
        reference (naming the field).
    """
    if too_deep(data):
        raise _fail(TOO_DEEP, "$")
    try:
        converted = _Reader().game(upgrade(data))
    except ValidationError as exc:
        error = exc.errors()[0]
        place = ".".join(str(part) for part in error["loc"])
        raise _fail(f"{exc.title} {place}: {error['msg'].lower()}", "$") from None
    converted.lost = _dropped(data)
    return converted


def _dropped(data: Any) -> list[str]:
    """What an EGN file says that its game does not keep: the fields egn-upgrade drops
    (when no known kitty is read), and numbers that are written back as EGN numbers them."""
    out: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, list):
            for k, item in enumerate(node):
                walk(item, f"{where}[{k}]")
            return
        if not isinstance(node, dict):
            return
        for key, value in node.items():
            if key in _RENDERING or key == "initialLead" or (
                    key == "kitty" and isinstance(value, list) and "" in value):
                out.append(f"{where}.{key}")
            elif key in ("playerCards", "player_cards") and isinstance(value, list) and not any(
                    value):
                out.append(f"{where}.{key} (no card known)")
            elif key == "aloneDefender" and value == -1:
                out.append(f"{where}.{key} (-1: no one)")
            elif key == "isAlone" and node.get("type") == "TRICK_PLAY":
                out.append(f"{where}.{key} (the bidding's isAlone says it)")
            elif key != "alternativeLines":
                walk(value, f"{where}.{key}")
        if "phaseNumber" in node and "type" in node and not where.endswith(
                f"[{node['phaseNumber']}]"):
            out.append(f"{where}.phaseNumber {node['phaseNumber']} (written as its place)")

    walk(data, "$")
    if isinstance(data, dict) and not str(data.get("version", VERSION)).startswith(VERSION):
        out.append(f"$.version {data['version']} (written as {VERSION})")
    return out


def upgrade(data: Any) -> Any:
    """An EGN file of an earlier version in the fields of the current one, as egn-upgrade
    makes it: snake_case fields renamed, the renderer's fields dropped. (``kitty``, which
    egn-upgrade also drops, is read when known, and not written back; ``initialLead``,
    dropped too, is left unread: the rules say who leads.)"""
    if isinstance(data, list):
        return [upgrade(item) for item in data]
    if not isinstance(data, dict):
        return data
    return {_RENAMED.get(k, k): upgrade(v) for k, v in data.items() if k not in _RENDERING}


def loads_egn(text: str) -> Converted:
    """A game from the text of an EGN file (see :func:`from_egn`)."""
    return from_egn(parse_json(text, "$"))


# ------------------------------------------------------------------ a game to EGN


def to_egn(game: Game) -> tuple[dict[str, Any], list[str]]:
    """An EGN file for a four-hand game, and what EGN cannot hold of it (each a phrase).

    :raises ConversionError: for a game EGN cannot record at all (another variant, a deal
        from the score sheet, a deal without its upcard); ``where`` is then ``deal N`` or
        ``game``.
    """
    lost: list[str] = []
    values: dict[str, str] = {}
    for tag in game.tags:
        values.setdefault(tag.name.lower(), tag.value)
    ruleset, problems = ruleset_from_tags(values)
    if ruleset.variant is not FOUR_HAND:
        raise _fail(f"EGN records four-hand games, not {ruleset.variant.name}", "game")
    if problems:
        raise _fail(f"the tags do not say the rules: {problems[0].message}", "game")
    meta: dict[str, Any] = {}
    keys = {tag.lower(): key for key, tag in _META_TAGS.items()}
    names: dict[Seat, str] = {}
    raw_rules: Any = None
    derive = True
    players: Any = None
    known = {"variant", "rules", "deck", "target", "deals"}
    for tag in game.tags:
        name = tag.name.lower()
        _lost_comments(tag.before, tag.note, f"tag {tag.name}", lost)
        if name in keys:
            meta[keys[name]] = tag.value
        elif name in ("n", "e", "s", "w", "north", "east", "south", "west"):
            names[Seat(name[0].upper())] = tag.value
        elif name == RULESET_TAG.lower():
            raw_rules = _json(tag.value, f"tag {tag.name}") if tag.value else None
            derive = False
        elif name == PLAYERS_TAG.lower():
            players = _json(tag.value, f"tag {tag.name}")
        elif name not in known:
            lost.append(f"tag {tag.name}")
    meta["players"] = players if players is not None else [names.get(s, "") for s in SEATS]
    start = game.start
    total = start.total if start and start.total else {}
    meta["initialScore"] = [total.get("NS", 0), total.get("EW", 0)]
    if start is not None:
        _lost_comments(start.before, start.note, "the start line", lost)
    derived, cannot = _ruleset_of(ruleset.options)
    if not derive:
        words = " ".join(rules_words(raw_rules or {}, f"tag {RULESET_TAG}"))
        derive = ruleset_from_tags({**values, "rules": words})[0].options != ruleset.options
    if derive:
        meta["ruleset"] = derived
        lost.extend(cannot)
    elif raw_rules is not None:
        meta["ruleset"] = raw_rules
    end = game.end
    if end is not None:
        _lost_comments(end.before, end.note, "the end line", lost)
        if end.scores:
            meta["finalScore"] = [end.scores.get("NS", 0), end.scores.get("EW", 0)]
    lost.extend(f"comment after the game: {c}" for c in game.after)
    deals = [_deal_out(deal, lost) for deal in game.deals]
    return {"fileType": FILE_TYPE, "version": VERSION, "metadata": meta, "deals": deals}, lost


def _notes(line: Line, pattern: re.Pattern[str], notes: dict[str, list[str]], what: str,
           lost: list[str]) -> None:
    """The annotations among the comments of a line (``call 5: text``), by index; the
    other comments are lost."""
    for comment in line.before:
        m = pattern.fullmatch(comment)
        if m:
            notes.setdefault(m.group(1), []).append(_uncomment(m.group(2)))
        else:
            lost.append(f"comment above {what}: {comment}")
    if line.note is not None:
        lost.append(f"comment after {what}: {line.note}")


def _lost_comments(before: tuple[str, ...], note: str | None, what: str,
                   lost: list[str]) -> None:
    lost.extend(f"comment above {what}: {c}" for c in before)
    if note is not None:
        lost.append(f"comment after {what}: {note}")


def _deal_out(deal: Deal, lost: list[str]) -> dict[str, Any]:
    n = deal.number
    where = f"deal {n}"
    if deal.up is None or (deal.sheet is not None and not deal.bids):
        raise _fail("EGN records the upcard, the calls and the cards, and this deal has "
                    "only " + ("its score-sheet line" if deal.sheet else "no up line"), where)
    alternatives = []
    for comment in deal.before:
        if comment.startswith(_ALTERNATIVE):
            alternatives.append(_json(comment[len(_ALTERNATIVE):], f"deal {n}: a comment"))
        else:
            lost.append(f"comment above deal {n}: {comment}")
    if deal.note is not None:
        lost.append(f"comment after deal {n}: {deal.note}")
    init: dict[str, Any] = {"dealer": SEATS.index(deal.dealer), "upCard": card_text(deal.up.card)}
    if deal.up.kitty is not None:
        lost.append(f"deal {n}: the kitty")
    _lost_comments(deal.up.before, deal.up.note, f"the up line of deal {n}", lost)
    if deal.hands:
        held = {seat: cards for line in deal.hands for seat, cards in line.cards.items()}
        init["playerCards"] = [[card_text(c) for c in held.get(s, ())] for s in SEATS]
        for hands in deal.hands:
            _lost_comments(hands.before, hands.note, f"a hands line of deal {n}", lost)
    bidding: dict[str, Any] = {"phaseNumber": 0, "type": "EUCHRE_BIDDING",
                               "calls": [], "isAlone": False}
    notes: dict[str, list[str]] = {}
    turn = SEATS.index(deal.dealer)
    for line in deal.bidding:
        _notes(line, _CALL_NOTE, notes, f"a bid line of deal {n}", lost)
        for bid in line.bids:
            turn = (turn + 1) % 4
            if bid.seat != SEATS[turn]:
                lost.append(f"deal {n}: the seat of the bid by {bid.seat} (EGN gives each "
                            "call to the next seat in turn)")
            if isinstance(bid, Pass):
                bidding["calls"].append("Pass")
            elif isinstance(bid, Order):
                bidding["calls"].append("Order")
            elif isinstance(bid, Call):
                bidding["calls"].append("n" if bid.suit is NO_TRUMP else str(bid.suit).lower())
            else:
                raise _fail("a trick bid or swap: EGN records four-hand bidding", where)
    if notes:
        bidding["callAnnotations"] = notes
    for act in deal.declarations:
        _lost_comments(act.before, act.note, f"a declaration of deal {n}", lost)
        if isinstance(act, Declaration) and act.act == "alone":
            bidding["isAlone"] = True
        elif isinstance(act, Declaration):
            bidding["aloneDefender"] = SEATS.index(act.seat)
    if deal.exchange is not None:
        _lost_comments(deal.exchange.before, deal.exchange.note, f"the exchange of deal {n}",
                       lost)
        if deal.exchange.act == "declines":
            lost.append(f"deal {n}: the dealer declining the upcard")
        elif deal.exchange.discard is not None:
            bidding["discard"] = card_text(deal.exchange.discard)
    if deal.sheet is not None:
        lost.append(f"deal {n}: the score-sheet line (EGN works it out from the calls and "
                    "cards)")
    phases: list[dict[str, Any]] = [bidding]
    if deal.tricks:
        play: dict[str, Any] = {"phaseNumber": 1, "type": "TRICK_PLAY",
                                "tricks": [[card_text(p.card) for p in t.plays]
                                           for t in deal.tricks]}
        plays: dict[str, list[str]] = {}
        for trick in deal.tricks:
            _notes(trick, _PLAY_NOTE, plays, f"trick {trick.number} of deal {n}", lost)
        if plays:
            play["playAnnotations"] = plays
        phases.append(play)
    lost.extend(f"deal {n}: the renege claim against {c.seat}" for c in deal.claims)
    lost.extend(f"deal {n}: the penalty charged to {p.who}" for p in deal.penalties)
    if deal.score is not None:
        lost.append(f"deal {n}: the points line (EGN works the score out)")
    out: dict[str, Any] = {"dealNumber": n - 1, "initialState": init, "phases": phases}
    if alternatives:
        out["alternativeLines"] = alternatives
    return out


def dumps_egn(game: Game) -> tuple[str, list[str]]:
    """The text of an EGN file for a game, and what EGN cannot hold of it."""
    data, lost = to_egn(game)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n", lost
