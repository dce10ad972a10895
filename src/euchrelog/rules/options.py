"""The options table: the house rules of the ``Rules`` tag (:class:`Options`), one row of
:data:`OPTIONS` each, from which the tag is read (:func:`parse_rules`) and spelt and the
table of docs/notation.md is made (:func:`options_table`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..frozen import Frozen
from ..spelling import did_you_mean
from .variants import VARIANTS, Variant


@dataclass(frozen=True)
class Options(Frozen):
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
    dummy: Literal["optional", "required", "off"] = "off"
    failed_moon: int = -6
    """What a failed moon costs the bidder (G6)."""
    canadian_loner: bool = False
    """The dealer's partner who orders up in round 1 must go alone (H3)."""
    no_trump: bool = False
    """A player may call no trump in round 2 (H5)."""
    euchred_loner: int = 2
    """What the defenders score for euchring a lone maker, at least (H1)."""
    euchre_scoring: Literal["defenders", "set"] = "defenders"
    """Who a euchre scores for: the defenders, or against the makers (H2)."""
    pass_out: Literal["next-dealer", "same-dealer"] = "next-dealer"
    """Who deals after a deal everyone passed (C7, H4)."""
    partner_alone: bool = False
    """Either maker may go alone, the other then sits out (F9)."""
    natural_pickup: bool = False
    """The dealer takes the upcard only holding a natural trump (F4)."""

    @classmethod
    def defaults(cls, variant: Variant) -> Options:
        """The options a record of ``variant`` has when it states none."""
        return cls(deck=variant.decks[0], target=variant.target,
                   lone_defender=variant.lone_defender, dummy=variant.dummy)

    def spell(self, variant: Variant) -> str:
        """The options that differ from the defaults, as a ``Rules`` tag value."""
        base = Options.defaults(variant)
        words = []
        for row in OPTIONS:
            value = getattr(self, row.field)
            if value != getattr(base, row.field):
                words.append(row.word(value))
        return " ".join(words)


@dataclass(frozen=True)
class OptionRow(Frozen):
    """One option of the ``Rules`` tag: a row of the options table, from which the tag is
    read and spelt and the table of docs/notation.md is made."""

    name: str
    """Its name in the ``Rules`` tag."""
    kind: Literal["number", "flag", "choice"]
    """A number (``deck=32``), a flag (``stick-the-dealer``, ``no-lone-defender``) or one
    of ``values`` (``lone-lead=dealer-left``)."""
    values: tuple[str, ...]
    """The words a choice takes (a flag: on, off); empty for a number."""
    writing: str
    """How to write it, for the docs."""
    default: str
    """Its default, in words."""
    rule: str
    """The rules it changes."""
    meaning: str
    """What it does, in words."""
    egn: tuple[str, ...] | None = None
    """The fields of an EGN ruleset that say it; ``None``: EGN cannot, and a game that sets
    it is exported to EGN with the option listed as lost."""
    openspiel: str | None = None
    """The OpenSpiel euchre parameter that sets it; ``None``: OpenSpiel has no parameter
    for it (its rules may fix it, see :mod:`euchrelog.interop.openspiel`)."""

    @property
    def field(self) -> str:
        """The attribute of :class:`Options` that holds it."""
        return self.name.replace("-", "_")

    def word(self, value: object) -> str:
        """The option set to ``value``, as the ``Rules`` tag writes it."""
        if self.kind == "flag":
            return self.name if value else f"no-{self.name}"
        return f"{self.name}={value}"

    @property
    def variants(self) -> str:
        """The variants that take it, in words."""
        names = [v.name for v in VARIANTS if self.name in v.options]
        if len(names) == len(VARIANTS):
            return "all"
        if len(names) == len(VARIANTS) - 1:
            return "all but " + next(v.name for v in VARIANTS if v.name not in names)
        return ", ".join(names)


OPTIONS: tuple[OptionRow, ...] = (
    OptionRow("deck", "number", (), "`deck=24`, `deck=25`, `deck=32`", "24", "C1",
              "32 adds the sevens and eights; 25 adds the Benny (a joker, `JK`)",
              egn=("min_rank", "joker")),
    OptionRow("target", "number", (), "`target=N`, N at least 1", "10; ghost 32",
              "F12, X9, G7, T6", "the score that wins",
              egn=("winning_score",)),
    OptionRow("deals", "number", (), "`deals=N`, N at least 1", "none: play to the target",
              "C9, H4", "the game ends after N deals, thrown-in deals included (but see "
              "`pass-out`), instead of at the target", egn=("num_deals",)),
    OptionRow("dealer-pickup", "choice", ("optional", "required"),
              "`dealer-pickup=optional`, `dealer-pickup=required`", "optional", "F4",
              "whether the dealer must take the upcard after a round-1 order"),
    OptionRow("stick-the-dealer", "flag", ("on", "off"),
              "`stick-the-dealer` (or `stick-the-dealer=on`), `stick-the-dealer=off`", "off",
              "F6", "the dealer may not pass in round 2", egn=("std",),
              openspiel="stick_the_dealer"),
    OptionRow("lone-defender", "flag", ("on", "off"),
              "`no-lone-defender` (or `lone-defender=off`), `lone-defender` (or "
              "`lone-defender=on`)", "on; three-hand off", "F9, X6",
              "whether a defender may defend alone", egn=("defend_alone",),
              openspiel="allow_lone_defender"),
    OptionRow("lone-lead", "choice", ("maker-left", "dealer-left"),
              "`lone-lead=maker-left`, `lone-lead=dealer-left`", "maker-left", "F10",
              "who leads when the maker goes alone", egn=("loner_lead",)),
    OptionRow("lone-defender-euchre", "number", (), "`lone-defender-euchre=4` (the only value)",
              "the F11 table", "F11",
              "points for any euchre by a lone defender (tournament practice: 4)",
              egn=("defend_alone",)),
    OptionRow("renege", "number", (), "`renege=N`, a whole number, at least 0", "the P3 table",
              "P3", "every renege penalty becomes N points (in ghost, the offender loses N)"),
    OptionRow("dummy", "choice", ("optional", "required", "off"),
              "`dummy=optional`, `dummy=required`, `dummy=off`", "optional", "X5",
              "whether the maker may, must (unless alone) or cannot take up the dummy; `off` "
              "deals no dummy"),
    OptionRow("failed-moon", "number", (), "`failed-moon=-6`, `failed-moon=-24`", "-6", "G6",
              "what a failed moon costs the bidder"),
    OptionRow("canadian-loner", "flag", ("off", "on"),
              "`canadian-loner` (or `canadian-loner=on`), `canadian-loner=off`", "off", "H3",
              "the dealer's partner who orders up in round 1 must go alone",
              egn=("canadian",)),
    OptionRow("no-trump", "flag", ("off", "on"), "`no-trump` (or `no-trump=on`), `no-trump=off`",
              "off", "H5", "a player may call no trump in round 2 (`call NT`): no bowers, the "
              "led suit wins", egn=("allow_no_trump",)),
    OptionRow("euchred-loner", "number", (), "`euchred-loner=2`, `euchred-loner=3`, "
              "`euchred-loner=4`", "2", "H1",
              "what the defenders score (at least) for euchring a lone maker",
              egn=("loner_euchred_score",)),
    OptionRow("euchre-scoring", "choice", ("defenders", "set"),
              "`euchre-scoring=defenders`, `euchre-scoring=set`", "defenders", "H2",
              "`set`: a euchre scores nothing for the defenders, the makers lose what the "
              "defenders would have scored (totals may be negative)"),
    OptionRow("pass-out", "choice", ("next-dealer", "same-dealer"),
              "`pass-out=next-dealer`, `pass-out=same-dealer`", "next-dealer", "C7, H4",
              "`same-dealer`: a deal everyone passed is dealt again by the same dealer, and "
              "does not count among `deals=N`"),
    OptionRow("partner-alone", "flag", ("off", "on"),
              "`partner-alone` (or `partner-alone=on`), `partner-alone=off`", "off", "F9, F10",
              "the maker's partner may go alone instead of the maker, who then sits out (one "
              "of the two, once); the lone lead counts from the one alone"),
    OptionRow("natural-pickup", "flag", ("off", "on"),
              "`natural-pickup` (or `natural-pickup=on`), `natural-pickup=off`", "off", "F4",
              "the dealer may take the upcard only holding a card of its printed suit (the "
              "left bower and the Benny do not count); else the order stands and the dealer "
              "declines, even under `dealer-pickup=required`"),
)
"""Every option of the ``Rules`` tag, in the order the tag is spelt."""

OPTION_BY_NAME = {row.name: row for row in OPTIONS}
"""The rows of :data:`OPTIONS`, by name."""


def options_table() -> str:
    """The table of the options in docs/notation.md ("The Rules tag"), from :data:`OPTIONS`."""
    rows = ["| option | how to write it | default | rule | meaning | variants | EGN | OpenSpiel |",
            "|---|---|---|---|---|---|---|---|"]
    rows.extend(f"| {r.name} | {r.writing} | {r.default} | {r.rule} | {r.meaning} | "
                f"{r.variants} | {_spelling(', '.join(r.egn) if r.egn else None)} | "
                f"{_spelling(r.openspiel)} |" for r in OPTIONS)
    return "\n".join(rows)


def _spelling(text: str | None) -> str:
    """An interop spelling for the options table: the field in code, or a dash."""
    return f"`{text}`" if text else "-"


def read_number(name: str, text: str) -> int:
    """The value of the number option ``name`` written ``text``.

    :raises ValueError: for a value the option does not take.
    """
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
    if name == "failed-moon" and value not in (-6, -24):
        raise ValueError(f"failed-moon={value}: the option takes -6 or -24")
    if name == "euchred-loner" and value not in (2, 3, 4):
        raise ValueError(f"euchred-loner={value}: the option takes 2, 3 or 4")
    return value


def number_problem(name: str, text: str) -> str | None:
    """What is wrong with ``text`` as the value of a number option, if anything."""
    try:
        read_number(name, text)
    except ValueError as exc:
        return str(exc)
    return None


def parse_rules(text: str, variant: Variant) -> tuple[dict[str, str | int | bool], list[str]]:
    """Parses a ``Rules`` tag value into option settings and a list of problems."""
    settings: dict[str, str | int | bool] = {}
    problems: list[str] = []
    for word in text.replace(",", " ").split():
        name, _, value = word.lower().partition("=")
        row = OPTION_BY_NAME.get(name)
        flag = OPTION_BY_NAME.get(name.removeprefix("no-"))
        if row is None and not value and flag is not None and flag.kind == "flag":
            row, name, value = flag, flag.name, "off"
        if row is None:
            hint = "" if flag is not None else did_you_mean(  # (no-deck: not a spelling)
                name, [r.name for r in OPTIONS if r.name in variant.options])
            problems.append(f"unknown option {word!r} in the Rules tag{hint}")
            continue
        if row.kind == "flag" and not value:
            value = "on"
        if name not in variant.options:
            problems.append(f"option {name} does not apply to {variant.name}")
            continue
        if name in settings:
            problems.append(f"option {name} is given twice in the Rules tag")
            continue
        if row.kind != "number":
            if value not in row.values:
                choices = ", ".join(row.values)
                problems.append(f"option {name} takes one of {choices}, not {value!r}")
                continue
            settings[name] = value
        else:
            try:
                settings[name] = read_number(name, value)
            except ValueError as exc:
                problems.append(str(exc))
    return settings, problems
