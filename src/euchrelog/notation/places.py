"""Placing the parts of a line in the source map.

The assembler (:mod:`.assembly`) places the rare lines as it reads them; the frequent ones
(a deal's head, hands, up card, bids, exchange, tricks, points and score sheet) are kept as
text and placed by their placer here only when a finding first asks for a place
(:class:`~euchrelog.loci.SourceMap`).
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from ..errors import NotationError
from ..loci import CARD_RE, Locus, Placer
from .patterns import (
    BID_RE,
    DEAL_RE,
    EXCHANGE_RE,
    HAND_RE,
    SHEET_RE,
    SIDE_RE,
    SPELLING,
    TOTAL_SPLIT_RE,
    UP_RE,
)


def placed_at(locus: Locus, placer: Placer, *args: Any) -> tuple[int, int]:
    """The place of ``locus`` on one line, from the placer of that line."""
    places: dict[Locus, tuple[int, int]] = {}
    placer(places, {}, *args)
    return places[locus]


def nth_match(pattern: re.Pattern[str], text: str, k: int) -> re.Match[str]:
    """The ``k``-th match of ``pattern`` in ``text`` (there is one)."""
    return next(itertools.islice(pattern.finditer(text), k, None))


def read_placed_sides(places: dict[Locus, tuple[int, int]], text: str, line: int, column: int,
                      locus: Locus) -> dict[str, int]:
    """The points of each side in ``text``, placed under ``locus``."""
    out: dict[str, int] = {}
    for m in SIDE_RE.finditer(text):
        side = m.group(1).upper()
        if side in out:
            raise NotationError(f"side {side} is written twice", line, column + m.start(1))
        places[(*locus, side)] = (line, column + m.start(1))
        out[side] = int(m.group(2))
    return out


def read_placed_cards(places: dict[Locus, tuple[int, int]], text: str, line: int, column: int,
                      locus: Locus) -> list[str]:
    """The cards in ``text``, each placed under ``locus``."""
    out = []
    for k, m in enumerate(CARD_RE.finditer(text)):
        places[(*locus, k)] = (line, column + m.start())
        out.append(SPELLING[m.group()])
    return out


# The placers of the frequent lines (each the ``place`` of its line's row in :mod:`.kinds`):
# each places the parts of its line as the line's builder would, with the regular
# expressions that split the line, when a finding first asks.

_Places = dict[Locus, tuple[int, int]]
_Texts = dict[Locus, tuple[str, int, int]]
"""A source map's texts of lines (see :attr:`SourceMap.cards`)."""


def place_deal(places: _Places, lines: _Texts, text: str, line: int, column: int,
               d: int) -> None:
    """Places a deal line: its head, number and dealer."""
    m = DEAL_RE.fullmatch(text)
    assert m is not None
    places[("deal", d)] = (line, column)
    places[("deal", d, "dealer")] = (line, column + m.start(2))
    places[("deal", d, "number")] = (line, column + m.start(1))


def place_trick(places: _Places, lines: _Texts, text: str, line: int, column: int, d: int,
                t: int) -> None:
    """Places a trick line, and keeps the text of its plays (placed by :mod:`euchrelog.loci`)."""
    end = text.index(".") + 1
    places[("deal", d, "trick", t)] = (line, column)
    lines[("deal", d, "trick", t)] = (text[end:], line, column + end)


def place_hands(places: _Places, lines: _Texts, text: str, line: int, column: int,
                d: int) -> None:
    """Places each seat of a hands line, and keeps the text of its cards."""
    for hm in HAND_RE.finditer(text):
        locus = ("deal", d, "hands", hm.group(1).upper())
        places[locus] = (line, column + hm.start(1))
        lines[locus] = (hm.group(2), line, column + hm.start(2))


def place_up(places: _Places, lines: _Texts, text: str, line: int, column: int,
             d: int) -> None:
    """Places an up line: the upcard and each card of the kitty."""
    um = UP_RE.fullmatch(text)
    assert um is not None
    places[("deal", d, "up")] = (line, column + um.start(1))
    if um.group(2) is not None:
        read_placed_cards(places, um.group(2), line, column + um.start(2),
                          ("deal", d, "up", "kitty"))


def place_bids(places: _Places, lines: _Texts, text: str, line: int, column: int, d: int,
               first: int) -> None:
    """Places each bid of a bid line, numbered from ``first``."""
    n = first
    for bm in BID_RE.finditer(text, 3):
        if bm.group(2):
            places[("deal", d, "bid", n)] = (line, column + bm.start(2))
            n += 1
        if bm.group(3) is not None:
            places[("deal", d, "bid", n)] = (
                line, column + (bm.start(1) if not bm.group(2) else bm.start(3)))
            n += 1


def place_exchange(places: _Places, lines: _Texts, text: str, line: int, column: int,
                   where: Locus, merged: bool) -> None:
    """Places an exchange line at ``where`` (the deal, or its act after the merge)."""
    em = EXCHANGE_RE.fullmatch(text)
    assert em is not None
    places[where if merged else (*where, "exchange")] = (line, column)
    if em.group(2):
        places[(*where, "takes")] = (line, column + em.start(2))
    if em.group(3):
        places[(*where, "discard")] = (line, column + em.start(3))


def place_score(places: _Places, lines: _Texts, text: str, line: int, column: int,
                d: int) -> None:
    """Places a points line: its points and running total, side by side."""
    split = TOTAL_SPLIT_RE.search(text)
    cut = split.start() if split else len(text)
    if text[:6].lower() == "points":
        places[("deal", d, "points")] = (line, column)
        read_placed_sides(places, text[:cut], line, column, ("deal", d, "points"))
    if split:
        places[("deal", d, "total")] = (line, column + cut)
        read_placed_sides(places, text[cut:], line, column + cut, ("deal", d, "total"))


def place_sheet(places: _Places, lines: _Texts, text: str, line: int, column: int,
                d: int) -> None:
    """Places a score-sheet line and each of its parts."""
    places[("deal", d, "sheet")] = (line, column)
    sm = SHEET_RE.fullmatch(text)
    assert sm is not None
    for group, part in ((1, "trump"), (2, "maker"), (4, "defend"), (5, "bid"), (6, "tricks")):
        if sm.group(group):
            places[("deal", d, "sheet", part)] = (line, column + sm.start(group))
