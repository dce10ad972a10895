"""A game written as EGN: :func:`to_egn` (the JSON data) and :func:`dumps_egn` (its
text), each with what EGN cannot hold of the game, phrase by phrase."""

from __future__ import annotations

import json
import re
from typing import Any

from ...acts import Call, Declaration, Exchange, Order, Pass
from ...cards import NO_TRUMP
from ...models import Deal, Game, Line
from ...rules import FOUR_HAND, ruleset_from_tags
from ...seats import SEATS, Seat
from .cards import card_text
from .ruleset import rules_words, ruleset_of
from .tables import (
    ALTERNATIVE,
    CALL_NOTE,
    FILE_TYPE,
    META_TAGS,
    PLAY_NOTE,
    PLAYERS_TAG,
    RULESET_TAG,
    VERSION,
)
from .values import fail, kept_json, uncomment


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
        raise fail(f"EGN records four-hand games, not {ruleset.variant.name}", "game")
    if problems:
        raise fail(f"the tags do not say the rules: {problems[0].message}", "game")
    meta: dict[str, Any] = {}
    keys = {tag.lower(): key for key, tag in META_TAGS.items()}
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
            raw_rules = kept_json(tag.value, f"tag {tag.name}") if tag.value else None
            derive = False
        elif name == PLAYERS_TAG.lower():
            players = kept_json(tag.value, f"tag {tag.name}")
        elif name not in known:
            lost.append(f"tag {tag.name}")
    meta["players"] = players if players is not None else [names.get(s, "") for s in SEATS]
    start = game.start
    total = start.total if start and start.total else {}
    meta["initialScore"] = [total.get("NS", 0), total.get("EW", 0)]
    if start is not None:
        _lost_comments(start.before, start.note, "the start line", lost)
    derived, cannot = ruleset_of(ruleset.options)
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
            notes.setdefault(m.group(1), []).append(uncomment(m.group(2)))
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
        raise fail("EGN records the upcard, the calls and the cards, and this deal has "
                   "only " + ("its score-sheet line" if deal.sheet else "no up line"), where)
    alternatives = []
    for comment in deal.before:
        if comment.startswith(ALTERNATIVE):
            alternatives.append(kept_json(comment[len(ALTERNATIVE):], f"deal {n}: a comment"))
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
        _notes(line, CALL_NOTE, notes, f"a bid line of deal {n}", lost)
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
                raise fail("a trick bid or swap: EGN records four-hand bidding", where)
    if notes:
        bidding["callAnnotations"] = notes
    for act in deal.acts:
        if isinstance(act, Exchange):
            continue
        _lost_comments(act.before, act.note, f"a declaration of deal {n}", lost)
        if isinstance(act, Declaration) and act.act == "alone":
            bidding["isAlone"] = True
        elif isinstance(act, Declaration):
            bidding["aloneDefender"] = SEATS.index(act.seat)
    exchange = deal.exchange
    if exchange is not None:
        _lost_comments(exchange.before, exchange.note, f"the exchange of deal {n}", lost)
        if exchange.act == "declines":
            lost.append(f"deal {n}: the dealer declining the upcard")
        elif exchange.discard is not None:
            bidding["discard"] = card_text(exchange.discard)
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
            _notes(trick, PLAY_NOTE, plays, f"trick {trick.number} of deal {n}", lost)
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
