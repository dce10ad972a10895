"""The ruleset a game declares in its header tags (``Variant``, ``Rules``, ``Deck``,
``Target``, ``Deals``, ``Seats`` and the player names), with the problems of those tags
as findings (T201-T205)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace

from ..frozen import Frozen
from ..seats import SEATS, Seat
from .options import OPTION_BY_NAME, Options, number_problem, parse_rules, read_number
from .ruleset import Ruleset
from .variants import FOUR_HAND, Variant, find_variant

TAG_NAME = r"[A-Za-z][A-Za-z0-9_+\-]*"
"""The spelling of a tag name: a letter, then letters, digits, ``_``, ``+`` or ``-``."""


@dataclass(frozen=True)
class TagProblem(Frozen):
    """A problem with the header tags, as a finding code and a message."""

    code: str
    message: str
    tag: str


_RULE_TAGS = ("variant", "rules", "deck", "target", "deals", "seats")
"""The tags whose values the ruleset reads; of the player-name tags, it reads which are given."""


def ruleset_from_tags(tags: Mapping[str, str]) -> tuple[Ruleset, list[TagProblem]]:
    """Builds the ruleset a game declares in its tags (names are case-insensitive). Games
    that declare the same get the same ruleset, and its tables with it."""
    lower = {k.lower(): v for k, v in tags.items()}
    ruleset, problems = _ruleset(tuple(lower.get(name) for name in _RULE_TAGS),
                                 tuple(name in lower for name in _NAMES))
    return ruleset, list(problems)


@functools.lru_cache(maxsize=256)
def _ruleset(values: tuple[str | None, ...], named: tuple[bool, ...]
             ) -> tuple[Ruleset, tuple[TagProblem, ...]]:
    lower = {name: value for name, value in zip(_RULE_TAGS, values, strict=True)
             if value is not None}
    lower.update((name, "") for name, given in zip(_NAMES, named, strict=True) if given)
    problems: list[TagProblem] = []
    variant = FOUR_HAND
    if "variant" not in lower:
        problems.append(TagProblem("T201", "no Variant tag: four-hand is assumed", "game"))
    else:
        try:
            variant = find_variant(lower["variant"])
        except ValueError as exc:
            problems.append(TagProblem("T202", str(exc), "variant"))
    settings, words = parse_rules(lower.get("rules", ""), variant)
    problems.extend(TagProblem("T203", w, "rules") for w in words)
    for name in ("deck", "target", "deals"):
        if name not in lower:
            continue
        try:
            number = read_number(name, lower[name].strip())
        except ValueError as exc:
            # "5 points" still says 5: read it so, and the game end is checked (one finding).
            lead = lower[name].split(None, 1)
            readable = lead and lead[0].isdigit() and not number_problem(name, lead[0])
            note = f"; read as {lead[0]}" if readable else ""
            problems.append(TagProblem("T204", f"{name.capitalize()} tag: {exc}{note}", name))
            if not readable:
                continue
            number = int(lead[0])
        if name in settings and settings[name] != number:
            problems.append(TagProblem(
                "T205", f"the {name.capitalize()} tag says {number} but the Rules tag says "
                        f"{name}={settings[name]}", name))
            continue
        settings[name] = number
    options = Options.defaults(variant)
    updates: dict[str, object] = {}
    for name, value in settings.items():
        key = name.replace("-", "_")
        if OPTION_BY_NAME[name].kind == "flag":
            updates[key] = value == "on"
        else:
            updates[key] = value
    if "deck" in updates and updates["deck"] not in variant.decks:
        problems.append(TagProblem("T203", f"deck={updates['deck']} is not played in "
                                           f"{variant.name}", "deck"))
        del updates["deck"]
    if updates.get("no_trump") and updates.get("deck", options.deck) == 25:
        # The Benny belongs to the trump suit (C2): with no trump it would have no suit.
        problems.append(TagProblem("T205", "no-trump does not combine with deck=25: the benny "
                                           "needs a trump suit; no-trump is off", "rules"))
        del updates["no_trump"]
    options = replace(options, **updates)  # type: ignore[arg-type]
    seats, problem = _seats(lower, variant)
    if problem:
        problems.append(TagProblem("T204", problem, "seats"))
    return Ruleset(variant, options, seats), tuple(problems)


_NAME_TAGS = {Seat.N: ("n", "north"), Seat.E: ("e", "east"), Seat.S: ("s", "south"),
              Seat.W: ("w", "west")}
_NAMES = tuple(name for names in _NAME_TAGS.values() for name in names)


def _seats(tags: Mapping[str, str], variant: Variant) -> tuple[tuple[Seat, ...], str]:
    """The seats that hold players: the Seats tag, else the seats that have a player-name
    tag when they are as many as the players, else the variant's default."""
    want = len(variant.seats)
    if "seats" in tags:
        letters = [c for c in tags["seats"].upper() if not c.isspace() and c != ","]
        chosen = [s for s in SEATS if s.value in letters]
        if len(chosen) != want or len(letters) != want:
            return variant.seats, (f"Seats tag: {tags['seats']!r} should name {want} different "
                                   f"seats of N, E, S, W for {variant.name}")
        return tuple(chosen), ""
    named = tuple(s for s in SEATS if any(n in tags for n in _NAME_TAGS[s]))
    if len(named) == want:
        return named, ""
    if len(named) > want:
        return variant.seats, (f"player-name tags for {len(named)} seats, but {variant.name} "
                               f"has {want} players: say which play with a Seats tag")
    return variant.seats, ""
