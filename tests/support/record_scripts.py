"""Answers for ``euchrelog record``, made from recorded games: what a scorer types to
record a game again, deal by deal, as full play or from the score sheet."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from euchrelog.cards import Card
from euchrelog.generate import score_sheet
from euchrelog.models import (
    Call,
    Deal,
    Declaration,
    Exchange,
    Game,
    Merge,
    Number,
    Order,
    Pass,
    Swap,
)
from euchrelog.rules import MOON, Ruleset, ruleset_from_tags
from euchrelog.seats import Seat, clockwise_from

Mode = str
"""``full`` or ``sheet``."""


def ruleset_of(game: Game) -> Ruleset:
    """The ruleset a game declares."""
    tags: dict[str, str] = {}
    for tag in game.tags:
        tags.setdefault(tag.name, tag.value)
    return ruleset_from_tags(tags)[0]


def record_options(ruleset: Ruleset) -> list[str]:
    """The command-line options that record a game of ``ruleset``."""
    from dataclasses import replace

    variant = ruleset.variant
    options = ruleset.options
    args = ["--variant", variant.name]
    rest = replace(options, target=variant.target)
    spelled = rest.spell(variant)
    if spelled:
        args += ["--rules", spelled]
    if options.deals is None:
        args += ["--target", str(options.target)]
    return args


def _cards(cards: Sequence[Card | None]) -> str:
    return " ".join("??" if c is None else str(c) for c in cards)


def _bid(bid: Pass | Order | Call | Number | Swap) -> str:
    if isinstance(bid, Call):
        return f"call {bid.suit}"
    if isinstance(bid, Number):
        return "moon" if bid.tricks == MOON else str(bid.tricks)
    return bid.act


def full_answers(deal: Deal, ruleset: Ruleset) -> list[str]:
    """The answers that record ``deal`` in full (its first answer, the mode, included)."""
    out = ["full"]
    hands: dict[Seat, str] = {}
    for line in deal.hands:
        hands.update({s: _cards(c) for s, c in line.cards.items()})
    out += [hands.get(s, "") for s in clockwise_from(deal.dealer.left, ruleset.seats)]
    if ruleset.extra_hand:
        out.append(_cards(deal.extra.cards) if deal.extra else "")
    if ruleset.variant.upcard:
        assert deal.up is not None and deal.up.card is not None
        out.append(str(deal.up.card))
        out.append(_cards(deal.up.kitty) if deal.up.kitty is not None else "")
    out += [_bid(b) for b in deal.bids]
    for act in deal.acts:
        if isinstance(act, Exchange):
            out.append("declines" if act.act == "declines" else f"discard {act.discard or '??'}")
        elif isinstance(act, Merge):
            out.append("merge" + (f" keeps {_cards(act.keeps)}" if act.keeps else ""))
        else:
            assert isinstance(act, Declaration)
            out.append(f"{act.act} {act.seat}")
    out += [str(p.card) for t in deal.tricks for p in t.plays]
    return out


def sheet_answers(deal: Deal, ruleset: Ruleset, lone: Seat | None = None) -> list[str]:
    """The answers that record ``deal`` from its score-sheet line (``deal.sheet``);
    ``lone`` is the seat that went alone, where the full record names it (under
    ``partner-alone`` the maker's partner is answered by its seat, and no by ``no``, since
    ``n`` may be North)."""
    sheet = deal.sheet
    assert sheet is not None
    if sheet.thrown:
        return ["sheet", "thrown"]
    out = ["sheet", str(sheet.trump), str(sheet.maker)]
    variant = ruleset.variant
    if variant.alone == "declared" and sheet.alone and lone not in (None, sheet.maker):
        out.append(str(lone))
    elif variant.alone == "declared":
        out.append("y" if sheet.alone else "no" if ruleset.options.partner_alone else "n")
    if ruleset.options.lone_defender and variant.alone != "never":
        out.append(str(sheet.defend) if sheet.defend else "")
    if not variant.scoring:
        assert sheet.bid is not None and sheet.taken is not None
        out.append("moon" if sheet.bid == MOON else str(sheet.bid))
        out += [str(sheet.taken.get(s, 0)) for s in ruleset.seats[:-1]]
    else:
        out.append(str(sheet.tricks))
    return out


@dataclass
class Script:
    """What a scorer types to record a game: the setup, then each deal's answers."""

    setup: list[str]
    deals: list[list[str]]
    pending: list[int]
    """For each deal, how many of its first answers are saved only together (the questions
    that start a deal: its cards, or the whole score-sheet line)."""

    @property
    def lines(self) -> list[str]:
        """Every answer, in order."""
        return [*self.setup, *(a for deal in self.deals for a in deal)]

    def rest(self, cut: int) -> list[str]:
        """The answers still to give after a session that got ``lines[:cut]`` and stopped
        (answers that were pending are given again)."""
        start = len(self.setup)
        assert cut >= start, "the setup is saved only once it is complete"
        for deal, pending in zip(self.deals, self.pending, strict=True):
            if cut < start + len(deal):
                return self.lines[start if cut < start + pending else cut:]
            start += len(deal)
        return self.lines[cut:]


def script(game: Game, modes: Callable[[int], Mode] = lambda d: "full",
           names: bool = True) -> Script:
    """The answers that record ``game`` with ``euchrelog record`` (after the options),
    deal ``d`` (0-based) in the mode ``modes(d)``."""
    ruleset = ruleset_of(game)
    setup: list[str] = []
    if len(ruleset.variant.seats) < 4:
        setup.append(" ".join(ruleset.seats))
    setup += [f"Player {s}" if names else "" for s in ruleset.seats]
    sheets = score_sheet(game)
    deals: list[list[str]] = []
    pending: list[int] = []
    for d, deal in enumerate(game.deals):
        lines = [str(deal.dealer)] if d == 0 else []
        if modes(d) == "sheet":
            lone = next((a.seat for a in deal.declarations if a.act == "alone"), None)
            lines += sheet_answers(sheets.deals[d], ruleset, lone)
            pending.append(len(lines))
        else:
            lines += full_answers(deal, ruleset)
            cards = 1 + len(ruleset.seats) + (1 if ruleset.extra_hand else 0) + (
                2 if ruleset.variant.upcard else 0)
            pending.append(cards + (1 if d == 0 else 0))
        deals.append(lines)
    return Script(setup, deals, pending)


def answers(game: Game, modes: Callable[[int], Mode] = lambda d: "full",
            names: bool = True) -> list[str]:
    """Every answer that records ``game`` (see :func:`script`)."""
    return script(game, modes, names).lines
