"""Variants and house rules, as data.

A :class:`Variant` is a table of facts (seats, sides, deal sizes, scoring table,
penalties); :class:`Options` holds the house rules a record declares in its ``Rules``,
``Deck``, ``Target`` and ``Deals`` tags. A :class:`Ruleset` joins the two, and the
engine asks it, never the variant's name.

>>> ruleset, problems = ruleset_from_tags({"Variant": "four-hand", "Rules": "stick-the-dealer"})
>>> ruleset.options.stick_the_dealer, problems
(True, [])
>>> ruleset.deal_points(5, maker_alone=True, defender_alone=False)
('makers', 4)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from .seats import SEATS, Seat

Who = Literal["makers", "defenders"]


@dataclass(frozen=True)
class ScoreRow:
    """One row of a scoring table: when it applies, who scores and how much."""

    tricks: frozenset[int]
    """Tricks taken by the maker's side for which the row applies."""
    who: Who
    """Who scores."""
    points: int
    """How many points."""
    maker_alone: bool | None = None
    """``True``/``False`` to apply only with/without a lone maker; ``None`` for both."""
    defender_alone: bool | None = None
    """Likewise for a lone defender."""

    def applies(self, tricks: int, maker_alone: bool, defender_alone: bool) -> bool:
        """Whether this row scores the given outcome."""
        return (tricks in self.tricks
                and self.maker_alone in (None, maker_alone)
                and self.defender_alone in (None, defender_alone))


def _row(tricks: range | tuple[int, ...], who: Who, points: int, *,
         maker_alone: bool | None = None, defender_alone: bool | None = None) -> ScoreRow:
    return ScoreRow(frozenset(tricks), who, points, maker_alone, defender_alone)


@dataclass(frozen=True)
class Variant:
    """The fixed facts of one form of euchre."""

    name: str
    """The name used in the ``Variant`` tag."""
    aliases: tuple[str, ...]
    """Other names accepted for it."""
    seats: tuple[Seat, ...]
    """The seats that hold players, clockwise."""
    sides: Mapping[Seat, str]
    """The side each seat scores for."""
    hand_size: int
    """Cards dealt to each player."""
    tricks: int
    """Tricks in a deal."""
    decks: tuple[int, ...]
    """Deck sizes allowed, the default first."""
    kitty: Mapping[int, int]
    """Cards in the kitty for each deck size."""
    target: int
    """Default target score."""
    scoring: tuple[ScoreRow, ...]
    """The scoring table, first matching row wins."""
    renege_penalty: int
    """Points to the non-offending side for a renege."""
    renege_penalty_lone: int
    """The same when a lone hand was played."""
    options: frozenset[str]
    """The house-rule options this variant takes."""

    @property
    def side_names(self) -> tuple[str, ...]:
        """The sides, in seat order, each once."""
        return tuple(dict.fromkeys(self.sides[s] for s in self.seats))


FOUR_HAND = Variant(
    name="four-hand",
    aliases=("four", "4", "partnership", "four-hand-partnership", "euchre"),
    seats=SEATS,
    sides={Seat.N: "NS", Seat.S: "NS", Seat.E: "EW", Seat.W: "EW"},
    hand_size=5,
    tricks=5,
    decks=(24, 32, 25),
    kitty={24: 3, 25: 4, 32: 11},
    target=10,
    scoring=(
        _row(range(3, 5), "makers", 1),
        _row((5,), "makers", 2, maker_alone=False),
        _row((5,), "makers", 4, maker_alone=True),
        _row((0,), "defenders", 4, defender_alone=True),
        _row(range(0, 3), "defenders", 2),
    ),
    renege_penalty=2,
    renege_penalty_lone=4,
    options=frozenset({"deck", "target", "deals", "dealer-pickup", "stick-the-dealer",
                       "lone-defender", "lone-lead", "lone-defender-euchre", "renege"}),
)

VARIANTS: tuple[Variant, ...] = (FOUR_HAND,)
"""Every variant the engine can replay."""

KNOWN_LATER = ("cutthroat", "three-hand", "ghost", "two-hand")
"""Variants named in RULES.md that this version does not replay yet."""


def find_variant(name: str) -> Variant:
    """Looks a variant up by name or alias (case-insensitive).

    :raises ValueError: for a name that is not known.
    """
    key = name.strip().lower()
    for variant in VARIANTS:
        if key == variant.name or key in variant.aliases:
            return variant
    if key in KNOWN_LATER:
        raise ValueError(f"variant {name!r} is not supported by this version yet")
    names = ", ".join(v.name for v in VARIANTS)
    raise ValueError(f"unknown variant {name!r} (known: {names})")


@dataclass(frozen=True)
class Options:
    """House rules (RULES.md, "Options at a glance"); the defaults are the rulings."""

    deck: int = 24
    target: int = 10
    deals: int | None = None
    """A game of this many deals instead of one to the target."""
    dealer_pickup: Literal["optional", "required"] = "optional"
    stick_the_dealer: bool = False
    lone_defender: bool = True
    lone_lead: Literal["maker-left", "dealer-left"] = "maker-left"
    lone_defender_euchre: int | None = None
    """Points for any euchre by a lone defender (``None``: the table)."""
    renege: int | None = None
    """Every renege penalty becomes this (``None``: the table)."""

    def spell(self, variant: Variant) -> str:
        """The options that differ from the defaults, as a ``Rules`` tag value."""
        base = Options(deck=variant.decks[0], target=variant.target)
        words = []
        if self.deck != base.deck:
            words.append(f"deck={self.deck}")
        if self.target != base.target:
            words.append(f"target={self.target}")
        if self.deals is not None:
            words.append(f"deals={self.deals}")
        if self.dealer_pickup != base.dealer_pickup:
            words.append(f"dealer-pickup={self.dealer_pickup}")
        if self.stick_the_dealer:
            words.append("stick-the-dealer")
        if not self.lone_defender:
            words.append("no-lone-defender")
        if self.lone_lead != base.lone_lead:
            words.append(f"lone-lead={self.lone_lead}")
        if self.lone_defender_euchre is not None:
            words.append(f"lone-defender-euchre={self.lone_defender_euchre}")
        if self.renege is not None:
            words.append(f"renege={self.renege}")
        return " ".join(words)


@dataclass(frozen=True)
class Ruleset:
    """A variant with its options: everything the engine asks."""

    variant: Variant = FOUR_HAND
    options: Options = field(default_factory=Options)

    @property
    def kitty_size(self) -> int:
        """Cards in the kitty with this deck."""
        return self.variant.kitty[self.options.deck]

    def side(self, seat: Seat) -> str:
        """The side ``seat`` scores for."""
        return self.variant.sides[seat]

    def deal_points(self, maker_tricks: int, *, maker_alone: bool,
                    defender_alone: bool) -> tuple[Who, int]:
        """Who scores and how much for a deal played out (F11)."""
        euchre = self.options.lone_defender_euchre
        if euchre is not None and defender_alone and maker_tricks < 3:
            return ("defenders", euchre)
        for row in self.variant.scoring:
            if row.applies(maker_tricks, maker_alone, defender_alone):
                return (row.who, row.points)
        raise ValueError(f"no scoring row for {maker_tricks} tricks")

    def renege_penalty(self, lone_hand: bool) -> int:
        """Points to each non-offending side for a renege (P3)."""
        if self.options.renege is not None:
            return self.options.renege
        return self.variant.renege_penalty_lone if lone_hand else self.variant.renege_penalty


_CHOICES: dict[str, tuple[str, ...]] = {
    "dealer-pickup": ("optional", "required"),
    "lone-lead": ("maker-left", "dealer-left"),
    "stick-the-dealer": ("on", "off"),
    "lone-defender": ("on", "off"),
}
_NUMBERS = ("deck", "target", "deals", "lone-defender-euchre", "renege")


def _number(name: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"option {name} takes a number, not {text!r}") from None
    if name == "deck" and value not in (24, 25, 32):
        raise ValueError(f"deck={value} is not a deck size (24, 25 or 32)")
    if name in ("target", "deals") and value < 1:
        raise ValueError(f"{name}={value} must be at least 1")
    if name == "lone-defender-euchre" and value != 4:
        raise ValueError(f"lone-defender-euchre={value}: the option's only value is 4")
    if name == "renege" and value < 0:
        raise ValueError(f"renege={value}: a penalty cannot be negative")
    return value


def parse_rules(text: str, variant: Variant) -> tuple[dict[str, str | int | bool], list[str]]:
    """Parses a ``Rules`` tag value into option settings and a list of problems."""
    settings: dict[str, str | int | bool] = {}
    problems: list[str] = []
    for word in text.replace(",", " ").split():
        name, _, value = word.lower().partition("=")
        if name == "no-lone-defender" and not value:
            name, value = "lone-defender", "off"
        if name in ("stick-the-dealer", "lone-defender") and not value:
            value = "on"
        if name not in _CHOICES and name not in _NUMBERS:
            problems.append(f"unknown option {word!r} in the Rules tag")
            continue
        if name not in variant.options:
            problems.append(f"option {name} does not apply to {variant.name}")
            continue
        if name in settings:
            problems.append(f"option {name} is given twice in the Rules tag")
            continue
        if name in _CHOICES:
            if value not in _CHOICES[name]:
                choices = ", ".join(_CHOICES[name])
                problems.append(f"option {name} takes one of {choices}, not {value!r}")
                continue
            settings[name] = value
        else:
            try:
                settings[name] = _number(name, value)
            except ValueError as exc:
                problems.append(str(exc))
    return settings, problems


@dataclass
class TagProblem:
    """A problem with the header tags, as a finding code and a message."""

    code: str
    message: str
    tag: str


def ruleset_from_tags(tags: Mapping[str, str]) -> tuple[Ruleset, list[TagProblem]]:
    """Builds the ruleset a game declares in its tags (names are case-insensitive)."""
    lower = {k.lower(): v for k, v in tags.items()}
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
            number = _number(name, lower[name].strip())
        except ValueError as exc:
            problems.append(TagProblem("T204", f"{name.capitalize()} tag: {exc}", name))
            continue
        if name in settings and settings[name] != number:
            problems.append(TagProblem(
                "T205", f"the {name.capitalize()} tag says {number} but the Rules tag says "
                        f"{name}={settings[name]}", name))
            continue
        settings[name] = number
    options = Options(deck=variant.decks[0], target=variant.target)
    updates: dict[str, object] = {}
    for name, value in settings.items():
        key = name.replace("-", "_")
        if name in ("stick-the-dealer", "lone-defender"):
            updates[key] = value == "on"
        else:
            updates[key] = value
    if "deck" in updates and updates["deck"] not in variant.decks:
        problems.append(TagProblem("T203", f"deck={updates['deck']} is not played in "
                                           f"{variant.name}", "deck"))
        del updates["deck"]
    options = replace(options, **updates)  # type: ignore[arg-type]
    return Ruleset(variant, options), problems
