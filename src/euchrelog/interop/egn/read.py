"""EGN read into a game: :func:`loads_egn` and :func:`from_egn` give a
:class:`~euchrelog.interop.Converted` game with the JSON path of each of its parts, after
:func:`upgrade` has brought an earlier version's fields up to date; what the rules
reference has no equivalent for is refused, naming the field."""

from __future__ import annotations

import json
from typing import Any, cast

from pydantic import ValidationError

from ...acts import Bid, Call, Declaration, Exchange, Order, Pass, Play
from ...cards import NO_TRUMP, Card, Trump
from ...kinds import TOO_DEEP, too_deep
from ...loci import Locus
from ...models import Bidding, Deal, End, Game, Hands, Start, Tag, Trick, Upcard
from ...replay import replay
from ...rules import FOUR_HAND, ruleset_from_tags
from ...seats import SEATS, Seat
from .. import Converted, parse_json, seat_tricks
from .cards import SUITS, read_card
from .ruleset import rules_words
from .tables import ALTERNATIVE, FILE_TYPE, META_TAGS, PLAYERS_TAG, RULESET_TAG, VERSION
from .values import as_comment, checked_object, compact, fail, one_line_text, whole_number

_TOP = frozenset({"fileType", "version", "metadata", "deals"})
_META = frozenset({"gameId", "title", "description", "players", "initialScore", "finalScore",
                   "date", "ruleset"})
_DEAL = frozenset({"dealNumber", "initialState", "phases", "alternativeLines"})
_INITIAL = frozenset({"dealer", "upCard", "playerCards", "kitty"})
_BIDDING = frozenset({"phaseNumber", "type", "calls", "isAlone", "aloneDefender", "discard",
                      "cardExchanges", "callAnnotations"})
_PLAY = frozenset({"phaseNumber", "type", "tricks", "isAlone", "playAnnotations",
                   "initialLead"})
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
        top = checked_object(data, "$", _TOP)
        for key in ("fileType", "version", "metadata", "deals"):
            if key not in top:
                raise fail(f"missing field {key!r}", "$")
        if top["fileType"] != FILE_TYPE:
            raise fail(f"fileType is {json.dumps(top['fileType'])}, not {FILE_TYPE!r}",
                       "$.fileType")
        meta = checked_object(top["metadata"], "$.metadata", _META)
        for key, name in META_TAGS.items():
            if key in meta:
                self.tag(name, one_line_text(meta[key], f"$.metadata.{key}"), f"$.metadata.{key}")
        self.tag("Variant", FOUR_HAND.name, "$.metadata")
        ruleset = meta.get("ruleset", {})
        words = " ".join(rules_words(ruleset, "$.metadata.ruleset"))
        self.ruleset = ruleset_from_tags({"variant": FOUR_HAND.name, "rules": words})[0]
        self.tag("Rules", words, "$.metadata.ruleset")
        # As written, or empty for none: written back exactly while the Rules tag agrees.
        self.tag(RULESET_TAG, compact(ruleset) if "ruleset" in meta else "",
                 "$.metadata.ruleset")
        self.players(meta.get("players"))
        deals_in = top["deals"]
        if not isinstance(deals_in, list):
            raise fail("expected a list of deals", "$.deals")
        deals = tuple(self.deal(d, raw) for d, raw in enumerate(deals_in))
        start = self.start(meta, deals)
        game = Game(tags=tuple(self.tags), start=start, deals=deals,
                    end=None if deals else End(act="unfinished"))
        return Converted(game.model_copy(update={"end": self.end(meta, game)}), self.places)

    def players(self, players: Any) -> None:
        where = "$.metadata.players"
        if not isinstance(players, list) or len(players) != 4:
            raise fail("expected the four players, seat 0 to seat 3 (N, E, S, W)", where)
        objects = False
        for k, (seat, player) in enumerate(zip(SEATS, players, strict=True)):
            if isinstance(player, dict):
                objects = True
                player = player.get("name")
            self.tag(str(seat), one_line_text(player, f"{where}[{k}]"), f"{where}[{k}]")
        if objects:
            self.tag(PLAYERS_TAG, compact(players), where)

    def start(self, meta: dict[str, Any], deals: tuple[Deal, ...]) -> Start | None:
        where = "$.metadata.initialScore"
        score = meta.get("initialScore", [0, 0])
        if not isinstance(score, list) or len(score) != 2:
            raise fail("expected two scores, team 0 (seats 0 and 2) and team 1", where)
        ns, ew = (whole_number(n, f"{where}[{k}]") for k, n in enumerate(score))
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
                raise fail("expected two scores, team 0 (seats 0 and 2) and team 1", where)
            self.places[("end",)] = where
            self.places[("end", "score", "NS")] = f"{where}[0]"
            self.places[("end", "score", "EW")] = f"{where}[1]"
            return End(scores={"NS": whole_number(score[0], f"{where}[0]"),
                               "EW": whole_number(score[1], f"{where}[1]")})
        self.places[("end",)] = "$"
        self.places[("tail",)] = "$.deals"
        if not game.deals or not replay(game).ended:
            return End(act="unfinished")  # EGN says so by leaving out the final score
        return None

    def deal(self, d: int, raw: Any) -> Deal:
        where = f"$.deals[{d}]"
        if isinstance(raw, str):
            raise fail("a condensed (bitpacked) deal: expand it to JSON first (egn-convert)",
                       where)
        data = checked_object(raw, where, _DEAL)
        for key in ("dealNumber", "initialState", "phases"):
            if key not in data:
                raise fail(f"missing field {key!r}", where)
        loc: Locus = ("deal", d)
        self.places[loc] = where
        self.places[(*loc, "number")] = f"{where}.dealNumber"
        number = whole_number(data["dealNumber"], f"{where}.dealNumber", 0) + 1
        init = checked_object(data["initialState"], f"{where}.initialState", _INITIAL)
        iwhere = f"{where}.initialState"
        dealer = SEATS[whole_number(init.get("dealer"), f"{iwhere}.dealer", 0, 3)]
        self.places[(*loc, "dealer")] = f"{iwhere}.dealer"
        phases = data["phases"]
        if not isinstance(phases, list):
            raise fail("expected a list of phases", f"{where}.phases")
        bidding: dict[str, Any] = {}
        playing: dict[str, Any] = {}
        bp = tp = 0
        for k, phase in enumerate(phases):
            kind = phase.get("type") if isinstance(phase, dict) else None
            if kind == "EUCHRE_BIDDING" and not bidding:
                bidding, bp = checked_object(phase, f"{where}.phases[{k}]", _BIDDING), k
            elif kind == "TRICK_PLAY" and not playing:
                playing, tp = checked_object(phase, f"{where}.phases[{k}]", _PLAY), k
            else:
                raise fail("expected one EUCHRE_BIDDING and one TRICK_PLAY phase",
                           f"{where}.phases[{k}]")
        bwhere, twhere = f"{where}.phases[{bp}]", f"{where}.phases[{tp}]"
        if "cardExchanges" in bidding:
            raise fail("cardExchanges: passing cards (partner's best, going under) has no "
                       "equivalent in the rules reference", f"{bwhere}.cardExchanges")
        calls = bidding.get("calls", [])
        if not isinstance(calls, list):
            raise fail("expected a list of calls", f"{bwhere}.calls")
        upwhere = f"{iwhere}.upCard"
        if "upCard" not in init:
            raise fail("missing field 'upCard'", iwhere)
        bids, maker, trump = self.calls(loc, calls, dealer, init["upCard"], upwhere,
                                        f"{bwhere}.calls")
        up = read_card(init["upCard"], upwhere, trump)
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
                raise fail("isAlone, but no one called trump", f"{bwhere}.isAlone")
            self.places[(*loc, "decl", len(decls))] = f"{bwhere}.isAlone"
            decls.append(Declaration(act="alone", seat=maker))
        defender = whole_number(bidding.get("aloneDefender", -1), f"{bwhere}.aloneDefender", -1, 3)
        if defender >= 0:
            self.places[(*loc, "decl", len(decls))] = f"{bwhere}.aloneDefender"
            decls.append(Declaration(act="defend", seat=SEATS[defender]))
        exchange: tuple[Exchange, ...] = ()
        if "discard" in bidding:
            self.places[(*loc, "exchange")] = f"{bwhere}.discard"
            self.places[(*loc, "discard")] = f"{bwhere}.discard"
            exchange = (Exchange(seat=dealer, takes=True, upcard=up,
                                 discard=read_card(bidding["discard"], f"{bwhere}.discard",
                                                   trump)),)
        fields["acts"] = (*exchange, *decls)
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
                raise fail(f"not an EGN call: {json.dumps(call)}", f"{where}[{k}]")
            if call == "Pass":
                bids.append(Pass(act="pass", seat=seat))
                continue
            if call == "Order":
                bids.append(Order(act="order", seat=seat))
                up = read_card(upcard, upwhere, None)
                suit: Trump | None = up.suit if up is not None else None
            elif call in SUITS or call == "n":
                suit = SUITS.get(call, NO_TRUMP)  # n: no trump (H5)
                bids.append(Call(act="call", seat=seat, suit=suit))
            elif call == "x":
                raise fail("an unknown call: the notation records the suit called",
                           f"{where}[{k}]")
            else:
                raise fail(f"not an EGN call: {json.dumps(call)}", f"{where}[{k}]")
            if maker is None:
                maker, trump = seat, suit
        return bids, maker, trump

    def bid_lines(self, bids: list[Bid], phase: dict[str, Any],
                  where: str) -> tuple[Bidding, ...]:
        """The bids as one line per round, with the call annotations above their line."""
        if not bids:
            if phase.get("callAnnotations"):
                raise fail("annotations of calls, but no calls", f"{where}.callAnnotations")
            return ()
        rounds = [bids[:4], bids[4:]] if len(bids) > 4 else [bids]
        notes: list[list[str]] = [[] for _ in rounds]
        for k, texts in _annotations(phase.get("callAnnotations", {}),
                                     f"{where}.callAnnotations"):
            line = min(k // 4, len(rounds) - 1)
            notes[line].extend(f"call {k}: {as_comment(t)}" for t in texts)
        return tuple(Bidding(bids=cast(Any, tuple(r)), before=tuple(n))
                     for r, n in zip(rounds, notes, strict=True))

    def hands(self, loc: Locus, init: dict[str, Any], where: str,
              trump: Trump | None) -> tuple[Hands, ...]:
        hands = init.get("playerCards")
        if hands is None:
            return ()
        where = f"{where}.playerCards"
        if not isinstance(hands, list) or len(hands) != 4:
            raise fail("expected the four hands, seat 0 to seat 3", where)
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
            raise fail("expected a list of cards", where)
        for k in range(len(value)):
            self.places[(*loc, k)] = f"{where}[{k}]"
        return [read_card(c, f"{where}[{k}]", trump) for k, c in enumerate(value)]

    def tricks(self, loc: Locus, phase: dict[str, Any], where: str, dealer: Seat,
               maker: Seat | None, trump: Trump | None,
               decls: tuple[Declaration, ...]) -> tuple[Trick, ...]:
        """The tricks, each play given to its seat (see :func:`.seat_tricks`)."""
        raw = phase.get("tricks", [])
        if not isinstance(raw, list):
            raise fail("expected a list of tricks", f"{where}.tricks")
        if not raw:
            return ()
        if trump is None:
            raise fail("tricks, but no one called trump: who played each card cannot be "
                       "told", f"{where}.tricks")
        flat: list[int] = []
        cards = []
        for t, trick in enumerate(raw):
            twhere = f"{where}.tricks[{t}]"
            if trick == []:
                raise fail("an empty trick", twhere)
            self.places[(*loc, "trick", t)] = twhere
            cards.append(self.cards(trick, twhere, trump, (*loc, "trick", t, "play")))
            for p in range(len(trick)):
                self.places[(*loc, "trick", t, "seat", p)] = f"{twhere}[{p}]"
            flat.extend([t] * len(trick))
        notes: dict[int, list[str]] = {}
        for k, texts in _annotations(phase.get("playAnnotations", {}),
                                     f"{where}.playAnnotations"):
            t = flat[k] if k < len(flat) else len(raw) - 1
            notes.setdefault(t, []).extend(f"play {k}: {as_comment(x)}" for x in texts)
        alone = next((d.seat for d in decls if d.act == "alone"), None)
        defender = next((d.seat for d in decls if d.act == "defend"), None)
        try:
            seats = seat_tricks(self.ruleset, dealer, maker, alone, defender, trump, cards)
        except ValueError as exc:
            raise fail(str(exc), f"{where}.tricks") from None
        return tuple(Trick(number=t + 1, before=tuple(notes.get(t, ())),
                           plays=cast(Any, tuple(Play(seat=s, card=c)
                                                 for s, c in zip(ss, cc, strict=True))))
                     for t, (ss, cc) in enumerate(zip(seats, cards, strict=True)))


def _annotations(value: Any, where: str) -> list[tuple[int, list[str]]]:
    """An EGN annotation map, from decision index to texts, in index order."""
    if not isinstance(value, dict):
        raise fail("expected an object from index to annotations", where)
    out = []
    for key, texts in value.items():
        if not (isinstance(key, str) and key.isdigit()) or not isinstance(texts, list) or not all(
                isinstance(t, str) for t in texts):
            raise fail(f"annotation {key!r}: expected a list of strings under an index", where)
        out.append((int(key), texts))
    return sorted(out, key=lambda item: item[0])


def _alternatives(lines: Any, where: str) -> tuple[str, ...]:
    """Analysis lines as comments above the deal line (``# alternative: {...}``)."""
    if not isinstance(lines, list):
        raise fail("expected a list of alternative lines", f"{where}.alternativeLines")
    return tuple(ALTERNATIVE + compact(line) for line in lines)


def from_egn(data: Any) -> Converted:
    """A game from an EGN file parsed from JSON, with the JSON path of each part.

    :raises ConversionError: for what is not EGN, or has no equivalent in the rules
        reference (naming the field).
    """
    if too_deep(data):
        raise fail(TOO_DEEP, "$")
    try:
        converted = _Reader().game(upgrade(data))
    except ValidationError as exc:
        error = exc.errors()[0]
        place = ".".join(str(part) for part in error["loc"])
        raise fail(f"{exc.title} {place}: {error['msg'].lower()}", "$") from None
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
