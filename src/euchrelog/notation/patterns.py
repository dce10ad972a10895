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
from ..loci import _CARD
from ..models import TAG_NAME

_I = re.IGNORECASE
_TAG_RE = re.compile(rf'\[({TAG_NAME})\s*"((?:[^"\\\n]|\\.)*)"\s*\]')
_DEAL_RE = re.compile(r"deal\s+(\d+)\s+dealer\s+([NESW])", _I)
_START_RE = re.compile(r"start(?:\s+deal\s+(\d+))?", _I)
_HAND_RE = re.compile(rf"([NESW])\s*:\s*({_CARD}(?:\s+{_CARD})*)", _I)
_UP_RE = re.compile(rf"up\s+({_CARD})(?:\s+kitty\s+(.*))?", _I)
_BID_RE = re.compile(r"([NESW])\s+(swap\b)?\s*(pass|order|call\s+(NT|\S)|moon|\d+)?", _I)
_EXCHANGE_RE = re.compile(
    rf"([NESW])\s+(?:(?:takes\s+({_CARD})\s+)?discards\s+({_CARD})|(declines))", _I)
_DECLARE_RE = re.compile(r"(alone|defend)\s+([NESW])", _I)
_CLAIM_RE = re.compile(r"renege\s+([NESW])(?:\s+trick\s+(\d+))?", _I)
_PENALTY_RE = re.compile(
    r'penalty\s+(NS|EW|[NESW])\s+(\d+)\s+("(?:[^"\\\n]|\\.)*"|.*?)\s*', _I)
_SHEET_RE = re.compile(
    r"trump\s+(NT|\S)\s+maker\s+([NESW])(\s+alone)?(?:\s+defend\s+([NESW]))?"
    r"(?:\s+bid\s+(\d+|moon))?(?:\s+tricks\s+(\d+|[NESW].*))?", _I)
_TAKEN_RE = re.compile(r"([NESW])\s+(\d+)", _I)
_EXTRA_RE = re.compile(r"(dummy|ghost)\s*:?\s*(.*)", _I)
_MERGE_RE = re.compile(r"([NESW])\s+merges(?:\s+keeps\s+(.*))?", _I)
_SIDE_RE = re.compile(r"\b(NS|EW|[NESW])\s+(-?\d+)", _I)
_WINNER_RE = re.compile(r"winner\s+(NS|EW|[NESW])", _I)
_TOTAL_SPLIT_RE = re.compile(r"\btotal\b", _I)


_FOLDING = "\u0130\u0131\u017f\u212a"
"""The letters other than ASCII that Python's case-insensitive matching takes for an ASCII
one (dotted and dotless I, the long s, the Kelvin sign): the grammar's keywords, seats and
cards may be written with them, and the builders read them as i, s and k."""
_FOLD = str.maketrans(_FOLDING, "iisk")


class _Spellings(dict[str, str]):
    """The canonical spelling of each card as written (``10h`` -> ``TH``), found once."""

    def __missing__(self, text: str) -> str:
        spelt = self[text] = normalize_card(text)
        return spelt


_SPELLING = _Spellings()
