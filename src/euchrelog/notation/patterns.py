"""The patterns of the notation's lines: the regular expressions that split a line into
its parts, the canonical spelling of each card as written, and the letters that
case-insensitive matching folds to ASCII ones.

The reader's builders (:mod:`.assembly`), placers (:mod:`.places`) and diagnosis
(:mod:`.diagnosis`) share them; the card pattern itself is :mod:`euchrelog.loci`'s, which
finds plays and cards in a line's text without the reader.
"""

from __future__ import annotations

import re

from ..cards import normalize_card
from ..loci import CARD_TEXT, LazyPattern
from ..rules.tags import TAG_NAME

ANY_CASE = re.IGNORECASE



TAG_RE = re.compile(rf'\[({TAG_NAME})\s*"((?:[^"\\\n]|\\.)*)"\s*\]')
DEAL_RE = LazyPattern(r"deal\s+(\d+)\s+dealer\s+([NESW])", ANY_CASE)
START_RE = LazyPattern(r"start(?:\s+deal\s+(\d+))?", ANY_CASE)
HAND_RE = re.compile(rf"([NESW])\s*:\s*({CARD_TEXT}(?:\s+{CARD_TEXT})*)", ANY_CASE)
UP_RE = LazyPattern(rf"up\s+({CARD_TEXT})(?:\s+kitty\s+(.*))?", ANY_CASE)
BID_RE = LazyPattern(r"([NESW])\s+(swap\b)?\s*(pass|order|call\s+(NT|\S)|moon|\d+)?", ANY_CASE)
EXCHANGE_RE = LazyPattern(
    rf"([NESW])\s+(?:(?:takes\s+({CARD_TEXT})\s+)?discards\s+({CARD_TEXT})|(declines))", ANY_CASE)
DECLARE_RE = LazyPattern(r"(alone|defend)\s+([NESW])", ANY_CASE)
CLAIM_RE = LazyPattern(r"renege\s+([NESW])(?:\s+trick\s+(\d+))?", ANY_CASE)
PENALTY_RE = LazyPattern(
    r'penalty\s+(NS|EW|[NESW])\s+(\d+)\s+("(?:[^"\\\n]|\\.)*"|.*?)\s*', ANY_CASE)
SHEET_RE = re.compile(
    r"trump\s+(NT|\S)\s+maker\s+([NESW])(\s+alone)?(?:\s+defend\s+([NESW]))?"
    r"(?:\s+bid\s+(\d+|moon))?(?:\s+tricks\s+(\d+|[NESW].*))?", ANY_CASE)
TAKEN_RE = re.compile(r"([NESW])\s+(\d+)", ANY_CASE)
EXTRA_RE = LazyPattern(r"(dummy|ghost)\s*:?\s*(.*)", ANY_CASE)
MERGE_RE = LazyPattern(r"([NESW])\s+merges(?:\s+keeps\s+(.*))?", ANY_CASE)
SIDE_RE = LazyPattern(r"\b(NS|EW|[NESW])\s+(-?\d+)", ANY_CASE)
WINNER_RE = re.compile(r"winner\s+(NS|EW|[NESW])", ANY_CASE)
TOTAL_SPLIT_RE = re.compile(r"\btotal\b", ANY_CASE)


FOLDING = "\u0130\u0131\u017f\u212a"
"""The letters other than ASCII that Python's case-insensitive matching takes for an ASCII
one (dotted and dotless I, the long s, the Kelvin sign): the grammar's keywords, seats and
cards may be written with them, and the builders read them as i, s and k."""
FOLD = str.maketrans(FOLDING, "iisk")


class _Spellings(dict[str, str]):
    """The canonical spelling of each card as written (``10h`` -> ``TH``), found once."""

    def __missing__(self, text: str) -> str:
        spelt = self[text] = normalize_card(text)
        return spelt


SPELLING = _Spellings()
