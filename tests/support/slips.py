"""Single slips of a scorer's pen, made in the text of a clean record (issue 11, RULES.md P4).

Each slip changes one thing a person could write wrongly: one seat letter of a play, a bid
or an exchange; one letter of a card played or dealt (its rank or its suit: in a trick, a
hand, the dummy or ghost hand, the upcard or the kitty), where the record shows every
hand; two cards of one seat swapped between tricks; the cards of two seats exchanged
within a trick; a trick line deleted, doubled or swapped with the next; one points figure
or one running total; and typos that make lines unreadable: two or three in one deal, one
in an exchange word (``takes``, ``discards``), in a merge's ``keeps``, or in a second hands
line. A slip returns the new text, the lines it touched (1-based, in the new text) and the
finding codes that name it; a slip of typos is one S101 at each of its lines.
:func:`slips` lists every slip of a record of the kinds asked for, so a test can
check that each one is reported once, where it was made.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from euchrelog.errors import NotationError
from euchrelog.generate import contract
from euchrelog.models import Deal, Game, Trick
from euchrelog.notation import loads
from euchrelog.rules import ruleset_from_tags
from strategies import _renege_swaps as renege_swaps
from strategies import _swap as swap

SEAT_LETTERS = "NESW"
TRICK = re.compile(r"^\s+(\d+)\.\s")
PLAY = re.compile(r"\b([NESW]): ")
BID_LINE = re.compile(r"^\s+bid\s")
BID_ACT = re.compile(r"(?:bid\s+|,\s*)([NESW]) ")
EXCHANGE = re.compile(r"^(\s+)([NESW])( (?:takes|declines|discards))")
FIGURE = re.compile(r"\b(NS|EW|[NESW]) (-?\d+)")

KINDS = ("play-seat", "bid-seat", "exchange-seat", "card", "dealt-card", "card-swap",
         "cards-exchanged", "trick-deleted", "trick-doubled", "tricks-swapped", "points",
         "total", "typos-2", "typos-3", "typo-exchange", "typo-merge", "typo-hands")
WRITTEN_CARDS = (*(rank + suit for rank in "789TJQKA" for suit in "CDHS"), "JK")
"""The cards a slip of the pen may write: any rank and suit letter, in the deck or not."""


@dataclass(frozen=True)
class Slip:
    """One slip in a record: its kind, the text with it, the lines it touched and the
    codes that name it."""

    kind: str
    text: str
    lines: frozenset[int]
    codes: frozenset[str]
    where: str
    """What was changed, for a failure message."""
    each: bool = False
    """Whether the slip is one finding at each of its lines (several typos), not one."""


def _replace_at(line: str, start: int, end: int, new: str) -> str:
    return line[:start] + new + line[end:]


def _with_line(lines: list[str], i: int, new: str) -> str:
    out = list(lines)
    out[i] = new
    return "\n".join(out) + "\n"


def _seat_slips(lines: list[str], seats: str) -> Iterator[Slip]:
    for i, line in enumerate(lines):
        if TRICK.match(line):
            matches, kind, codes = list(PLAY.finditer(line)), "play-seat", {"P701", "P704"}
        elif BID_LINE.match(line):
            matches, kind = list(BID_ACT.finditer(line)), "bid-seat"
            codes = {"B401", "B407", "B409"}
        elif m := EXCHANGE.match(line):
            matches, kind, codes = [m], "exchange-seat", {"K501"}
        else:
            continue
        for m in matches:
            group = 2 if kind == "exchange-seat" else 1
            old = m.group(group)
            for new in seats:
                if new == old:
                    continue
                text = _with_line(lines, i, _replace_at(line, m.start(group), m.end(group), new))
                yield Slip(kind, text, frozenset({i + 1}), frozenset(codes),
                           f"line {i + 1}: {old} -> {new}")


def _trick_slips(lines: list[str]) -> Iterator[Slip]:
    tricks = [i for i, line in enumerate(lines) if TRICK.match(line)]
    for i in tricks:
        deleted = lines[:i] + lines[i + 1:]
        yield Slip("trick-deleted", "\n".join(deleted) + "\n", frozenset({i + 1}),
                   frozenset({"P707", "P706"}), f"line {i + 1} deleted")
        doubled = [*lines[:i + 1], lines[i], *lines[i + 1:]]
        yield Slip("trick-doubled", "\n".join(doubled) + "\n", frozenset({i + 2}),
                   frozenset({"P707"}), f"line {i + 1} doubled")
        if i + 1 in tricks:
            swapped = [*lines[:i], lines[i + 1], lines[i], *lines[i + 2:]]
            yield Slip("tricks-swapped", "\n".join(swapped) + "\n",
                       frozenset({i + 1, i + 2}), frozenset({"P707"}),
                       f"lines {i + 1} and {i + 2} swapped")


def _figure_slips(lines: list[str]) -> Iterator[Slip]:
    for i, line in enumerate(lines):
        stripped = line.split("#", 1)[0]
        if not stripped.lstrip().startswith("points"):
            continue
        cut = stripped.find("total")
        for m in FIGURE.finditer(stripped):
            kind = "total" if 0 <= cut < m.start() else "points"
            value = int(m.group(2))
            new = _replace_at(line, m.start(2), m.end(2), str(value + 1))
            yield Slip(kind, _with_line(lines, i, new), frozenset({i + 1}),
                       frozenset({"C901"} if kind == "points" else {"C902"}),
                       f"line {i + 1}: {m.group(0)} -> {m.group(1)} {value + 1}")


def _all_shown(game: Game, deal: Deal) -> bool:
    """Whether the record shows every card of the deal where it was dealt, each once."""
    ruleset = ruleset_from_tags({t.name.lower(): t.value for t in game.tags})[0]
    shown = [c for h in deal.hands for cards in h.cards.values() for c in cards]
    shown += [*deal.extra.cards] if deal.extra else []
    shown += [deal.up.card, *(deal.up.kitty or ())] if deal.up else []
    return None not in shown and len(set(shown)) == ruleset.options.deck


def _card_letters(games: tuple[Game, ...], lines: list[str]) -> Iterator[Slip]:
    """One card of a trick written with one letter changed (another suit, or another rank:
    perhaps a card of no deck), in deals whose every hand and hidden card the record shows.
    The finding is at the card, or at the other play of the card written if the record
    played it twice (either may be the slip)."""
    for deal, spots, spot, trick in _shown_tricks(games, lines):
        line = lines[spot]
        for m, play in zip(PLAY.finditer(line), trick.plays, strict=True):
            old = str(play.card)
            stop = m.end() + len(line[m.end():].split(None, 1)[0])
            for new in WRITTEN_CARDS:
                if sum(a != b for a, b in zip(new, old, strict=True)) != 1:
                    continue
                twice = {spots[u] + 1 for u, other in enumerate(deal.tricks)
                         for q in other.plays if str(q.card) == new}
                yield Slip("card", _with_line(lines, spot, _replace_at(line, m.end(), stop,
                                                                      new)),
                           frozenset({spot + 1} | twice),
                           frozenset({"P701", "P702", "P703", "P708", "P709", "D305"}),
                           f"line {spot + 1}: {play.seat} {old} -> {new}")


def _shown_tricks(games: tuple[Game, ...], lines: list[str]
                  ) -> Iterator[tuple[Deal, list[int], int, Trick]]:
    """Each trick of the deals whose every hand and hidden card the record shows: its deal,
    the line indexes of the deal's tricks, its own line index and the trick."""
    trick_lines = iter(i for i, line in enumerate(lines) if TRICK.match(line))
    for game, deal in ((g, deal) for g in games for deal in g.deals):
        spots = [next(trick_lines) for _ in deal.tricks]
        if _all_shown(game, deal):
            for spot, trick in zip(spots, deal.tricks, strict=True):
                yield deal, spots, spot, trick


def _cards_exchanged(games: tuple[Game, ...], lines: list[str]) -> Iterator[Slip]:
    """The cards of two seats of a trick each written under the other (``E: 9D  S: AD`` for
    ``E: AD  S: 9D``), in deals whose every hand and hidden card the record shows, so that
    each seat plays a card it does not hold. The finding is at the trick."""
    for _, _, spot, trick in _shown_tricks(games, lines):
        line = lines[spot]
        cards = []
        for m in PLAY.finditer(line):
            stop = m.end() + len(line[m.end():].split(None, 1)[0])
            cards.append((m.end(), stop))
        for p, q in combinations(range(len(cards)), 2):
            first, second = trick.plays[p], trick.plays[q]
            if first.card is None or second.card is None or first.card == second.card:
                continue
            (a, b), (c, e) = cards[p], cards[q]
            bent = line[:a] + line[c:e] + line[b:c] + line[a:b] + line[e:]
            yield Slip("cards-exchanged", _with_line(lines, spot, bent),
                       frozenset({spot + 1}), frozenset({"P702", "P708", "P709"}),
                       f"line {spot + 1}: {first.seat} {first.card} <-> "
                       f"{second.seat} {second.card}")


DEALT_LINE = re.compile(r"^\s+(hands|dummy|ghost|up)\s")
DEALT_CARD = re.compile(r"(?<![A-Za-z0-9?])([2-9TJQKA][CDHS]|JK)(?![A-Za-z0-9])")


def _dealt_letters(games: tuple[Game, ...], lines: list[str]) -> Iterator[Slip]:
    """One card of a hands, dummy, ghost or up line written with one letter changed, in
    deals whose every hand and hidden card the record shows. The finding is at the card, or
    at the other place the record deals the card written (either may be the slip)."""
    starts = [i for i, line in enumerate(lines) if line.startswith("deal ")]
    for (game, deal), start in zip(((g, deal) for g in games for deal in g.deals), starts,
                                   strict=True):
        if not _all_shown(game, deal):
            continue
        block = [start + 1 + k for k, line in enumerate(lines[start + 1:])
                 if not line.strip() or line.startswith("deal ")][:1]
        dealt = [i for i in range(start + 1, block[0] if block else len(lines))
                 if DEALT_LINE.match(lines[i])]
        for i in dealt:
            line = lines[i]
            for m in DEALT_CARD.finditer(line):
                old = m.group(1)
                for new in WRITTEN_CARDS:
                    if sum(a != b for a, b in zip(new, old, strict=True)) != 1:
                        continue
                    also = {j + 1 for j in dealt
                            if any(c.group(1) == new for c in DEALT_CARD.finditer(lines[j]))}
                    yield Slip("dealt-card", _with_line(lines, i, _replace_at(line, m.start(1),
                                                                              m.end(1), new)),
                               frozenset({i + 1} | also),
                               frozenset({"D304", "D305"}),
                               f"line {i + 1}: {old} -> {new}")


def _card_swaps(games: tuple[Game, ...], lines: list[str]) -> Iterator[Slip]:
    """Two cards of one seat swapped between two tricks of a deal so that the seat fails
    to follow suit in the first while it holds the card it followed with, as the renege
    injector of tests/strategies.py picks them (the winners of both tricks stay the same,
    else the points change too: a second, real consequence)."""
    trick_lines = iter(i for i, line in enumerate(lines) if TRICK.match(line))
    for game, deal in ((g, deal) for g in games for deal in g.deals):
        ruleset = ruleset_from_tags({t.name.lower(): t.value for t in game.tags})[0]
        spots = [next(trick_lines) for _ in deal.tricks]
        fixed = contract(deal)
        trump = fixed[0] if fixed is not None else None
        if (trump is None or not deal.hands or len(deal.tricks) != ruleset.variant.tricks
                or any(p.card is None for t in deal.tricks for p in t.plays)):
            continue
        for t, p, u, q in renege_swaps(deal, trump):
            swapped = swap(deal, t, p, u, q)
            out = list(lines)
            for spot, trick in ((spots[t], swapped.tricks[t]), (spots[u], swapped.tricks[u])):
                line = out[spot]
                ends = [m.end() for m in PLAY.finditer(line)]
                for at, played in zip(reversed(ends), reversed(trick.plays), strict=True):
                    stop = at + len(line[at:].split(None, 1)[0])
                    line = _replace_at(line, at, stop, str(played.card))
                out[spot] = line
            play = deal.tricks[t].plays[p]
            yield Slip("card-swap", "\n".join(out) + "\n",
                       frozenset({spots[t] + 1, spots[u] + 1}), frozenset({"R801", "R802"}),
                       f"deal {deal.number}: {play.seat} {play.card} (trick {t + 1}) <-> "
                       f"{deal.tricks[u].plays[q].card} (trick {u + 1})")


def _unreadable(lines: list[str], i: int, new: str) -> bool:
    """Whether line ``i`` written ``new`` makes the record unreadable at that very line. (Only
    the header and the deal of line ``i`` are read, the other lines left blank: the line
    numbers keep, and the check is quick.)"""
    head = next((k for k, line in enumerate(lines) if line.startswith("deal ")), len(lines))
    start = next((k for k in range(i, -1, -1) if lines[k].startswith("deal ")), i)
    end = next((k for k in range(i + 1, len(lines))
                if not lines[k].strip() or not lines[k].startswith(" ")), len(lines))
    masked = [line if k < head or start <= k < end else "" for k, line in enumerate(lines)]
    masked[i] = new
    try:
        loads("\n".join(masked) + "\n")
    except NotationError as err:
        return err.line == i + 1
    return False


def typo_line(lines: list[str], i: int) -> str | None:
    """Line ``i`` with the first letter of one of its words (the ``i``-th, counted round, or
    the next that serves) written ``@``, so that the record no longer reads there; ``None``
    if no such typo makes it unreadable at that line."""
    line = lines[i].split("#", 1)[0]
    words = list(re.finditer(r"\S+", line))
    for k in range(len(words)):
        m = words[(i + k) % len(words)]
        new = _replace_at(lines[i], m.start(), m.start() + 1, "@")
        if _unreadable(lines, i, new):
            return new
    return None


def deal_lines(lines: list[str]) -> list[list[int]]:
    """The lines (0-based) of each deal after its deal line, up to a blank line, the next
    deal or the end line; comment lines left out."""
    out: list[list[int]] = []
    current: list[int] | None = None
    for i, line in enumerate(lines):
        if line.startswith("deal "):
            current = []
            out.append(current)
        elif not line.strip() or not line.startswith(" "):
            current = None
        elif current is not None and not line.lstrip().startswith("#"):
            current.append(i)
    return [deal for deal in out if deal]


def _typos(lines: list[str], typed: dict[int, str], chosen: list[int], kind: str) -> Slip:
    out = list(lines)
    for i in chosen:
        out[i] = typed[i]
    return Slip(kind, "\n".join(out) + "\n", frozenset(i + 1 for i in chosen),
                frozenset({"S101"}), f"typos at lines {', '.join(str(i + 1) for i in chosen)}",
                each=True)


def _typo_slips(lines: list[str], kinds: tuple[str, ...]) -> Iterator[Slip]:
    """Two and three typos in one deal, each line unreadable by itself."""
    for deal in deal_lines(lines):
        typed = {i: new for i in deal if (new := typo_line(lines, i)) is not None}
        at = sorted(typed)
        for k in range(len(at) - 1) if "typos-2" in kinds else ():
            yield _typos(lines, typed, at[k:k + 2], "typos-2")
        for k in range(len(at) - 3) if "typos-3" in kinds else ():
            yield _typos(lines, typed, [at[k], at[k + 1], at[k + 3]], "typos-3")


EXCHANGE_WORD = re.compile(r"\b(takes|discards|keeps)\b")


def _word_typos(lines: list[str]) -> Iterator[Slip]:
    """A typo in the word ``takes`` or ``discards`` of an exchange line, or ``keeps`` of a
    merge line (its second letter written ``q``)."""
    for i, line in enumerate(lines):
        for m in EXCHANGE_WORD.finditer(line.split("#", 1)[0]):
            new = _replace_at(line, m.start() + 1, m.start() + 2, "q")
            if _unreadable(lines, i, new):
                kind = "typo-merge" if m.group(1) == "keeps" else "typo-exchange"
                yield Slip(kind, _with_line(lines, i, new), frozenset({i + 1}),
                           frozenset({"S101"}), f"line {i + 1}: {m.group(1)} -> "
                                                f"{new[m.start():m.end()]}", each=True)


HANDS = re.compile(r"^(\s+hands\s+)(.*?\S)(\s+)([NESW]: .*)$")


def _second_hands_typos(lines: list[str]) -> Iterator[Slip]:
    """A hands line of several seats written as two hands lines, the second with a typo."""
    for i, line in enumerate(lines):
        m = HANDS.match(line)
        seats = list(PLAY.finditer(line))
        if m is None or len(seats) < 2 or "#" in line:
            continue
        half = seats[len(seats) // 2].start()
        first, second = line[:half].rstrip(), m.group(1) + line[half:]
        split = [*lines[:i], first, second, *lines[i + 1:]]
        try:
            loads("\n".join(split) + "\n")
        except NotationError:
            continue
        new = typo_line(split, i + 1)
        if new is not None:
            yield Slip("typo-hands", _with_line(split, i + 1, new), frozenset({i + 2}),
                       frozenset({"S101"}), f"line {i + 2}: a second hands line mistyped",
                       each=True)


def slips(text: str, kinds: tuple[str, ...] = KINDS) -> Iterator[Slip]:
    """Every slip of the given kinds that can be made in the clean record ``text``."""
    lines = text.rstrip("\n").split("\n")
    for slip in _seat_slips(lines, SEAT_LETTERS):
        if slip.kind in kinds:
            yield slip
    if "card" in kinds:
        yield from _card_letters(loads(text).games, lines)
    if "dealt-card" in kinds:
        yield from _dealt_letters(loads(text).games, lines)
    if "card-swap" in kinds:
        yield from _card_swaps(loads(text).games, lines)
    if "cards-exchanged" in kinds:
        yield from _cards_exchanged(loads(text).games, lines)
    for slip in (*_trick_slips(lines), *_figure_slips(lines)):
        if slip.kind in kinds:
            yield slip
    if {"typos-2", "typos-3"} & set(kinds):
        yield from _typo_slips(lines, kinds)
    if {"typo-exchange", "typo-merge"} & set(kinds):
        yield from (slip for slip in _word_typos(lines) if slip.kind in kinds)
    if "typo-hands" in kinds:
        yield from _second_hands_typos(lines)
