"""An EGN ruleset and the rules reference's options, each way: :func:`rules_words` reads
one into the words of the ``Rules`` tag, :func:`ruleset_of` writes options as one, with
what EGN cannot say. The options table's ``egn`` column spells the fields."""

from __future__ import annotations

import json
from typing import Any

from ...rules import FOUR_HAND, OPTIONS, Options
from .values import checked_object, fail, whole_number

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


def _points(value: object) -> str:
    """A number of points in words: ``1 point``, ``3 points``."""
    return f"{value} point" if value == 1 and type(value) is int else f"{value} points"


def rules_words(ruleset: dict[str, Any], where: str) -> list[str]:
    """The options of the ``Rules`` tag that an EGN ruleset means, or a refusal naming
    the flag that has no equivalent in the rules reference."""
    checked_object(ruleset, where, _FIELDS)
    words = []
    for flag, meaning in _NO_EQUIVALENT.items():
        if ruleset.get(flag, False) is not False:
            raise fail(f"{flag}: {meaning} has no equivalent in the rules reference",
                       f"{where}.{flag}")
    if ruleset.get("num_players", 4) != 4:
        raise fail("num_players: EGN games of other than four players are not read",
                   f"{where}.num_players")
    if ruleset.get("loner_march_score", 4) != 4:
        raise fail(f"loner_march_score: {_points(ruleset['loner_march_score'])} has no "
                   "equivalent in the rules reference (F11 scores 4)",
                   f"{where}.loner_march_score")
    euchred = ruleset.get("loner_euchred_score", 2)
    if euchred not in (2, 3, 4) or type(euchred) is not int:
        raise fail(f"loner_euchred_score: {_points(euchred)} has no equivalent in the rules "
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
        raise fail(f"min_rank {low}{' with a joker' if joker else ''}: the decks are 24, "
                   "25 (with the Benny) and 32 cards", f"{where}.min_rank")
    if joker:
        words.append("deck=25")
    elif low == 7:
        words.append("deck=32")
    target = whole_number(ruleset.get("winning_score", 10), f"{where}.winning_score", 0)
    deals = whole_number(ruleset.get("num_deals", 0), f"{where}.num_deals", 0)
    if deals:
        words.append(f"deals={deals}")
    if target and target != 10:
        words.append(f"target={target}")
    lead = ruleset.get("loner_lead", "LEFT_OF_DEALER")
    if lead not in ("LEFT_OF_DEALER", "LEFT_OF_LONER"):
        raise fail(f"loner_lead {json.dumps(lead)} is not LEFT_OF_DEALER or LEFT_OF_LONER",
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


def ruleset_of(options: Options) -> tuple[dict[str, Any], list[str]]:
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
