"""The kinds of line of the notation, one row a kind: its terminal in the grammar, what a
syntax error says was expected there, its builder of the JSON form and of the parts form,
its placer, and how the writer writes it.

The grammar (``grammar/euchre.lark``) holds the syntax of each line; everything else the
reader, the checker and the writer know of a kind of line is its row in :data:`KINDS`, from
which the assembler's two outputs (:data:`FORM`, :data:`PARTS`), the placers and the
words of the diagnosis are made. A new kind of line of a deal is its terminal and alias in
the grammar, and one row here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..loci import Placer
from . import parts, places, writer
from .assembly import Builder, GameAssembler, Output


@dataclass(frozen=True)
class LineKind:
    """One kind of line."""

    name: str
    """Its alias in the grammar (a line of a deal), or the rule it starts (``deal``,
    ``opening``, ``end``), or ``tag``."""
    terminal: str
    """Its terminal in the grammar."""
    words: str
    """What it is, in the words of a syntax error that expected it."""
    build: Builder | None = None
    """Its builder of the JSON form (a line of a deal; the others are the assembler's
    own)."""
    parts: Builder | None = None
    """Its builder of the parts form (:mod:`.parts`); ``None`` for a line of a deal the
    parts do not hold (the game is then read into its JSON form)."""
    place: Placer | None = None
    """Its placer, for a line kept to be placed when a finding asks (``None``: placed as
    it is read)."""
    before_play: str | None = None
    """Its name, for a line that must come before the first trick."""
    write: Callable[[Any], str] | None = None
    """Its canonical text, from its model (:mod:`.writer`)."""


KINDS: tuple[LineKind, ...] = (
    LineKind("tag", "TAG", 'a tag like [Event "Club night"]', write=writer.tag_line),
    LineKind("opening", "START", "a start line", write=writer.start_text),
    LineKind("deal", "DEAL", "a deal line like 'deal 1 dealer N'", place=places.place_deal,
             write=writer.deal_text),
    LineKind("hands", "HANDS", "a hands line", GameAssembler.hands, parts.hands_parts,
             places.place_hands, "the hands line", writer.hands_text),
    LineKind("extra", "EXTRA", "a dummy or ghost line", GameAssembler.extra,
             parts.extra_parts, None, "the dummy or ghost line", writer.extra_text),
    LineKind("up", "UP", "an up line", GameAssembler.up, parts.up_parts, places.place_up,
             "the up line", writer.up_text),
    LineKind("bid", "BID", "a bid line", GameAssembler.bid, parts.bid_parts,
             places.place_bids, "a bid line", writer.bid_text),
    LineKind("exchange", "EXCHANGE", "an exchange line like 'N takes JH discards 9C'",
             GameAssembler.exchange, parts.exchange_parts, places.place_exchange,
             "the exchange", writer.exchange_text),
    LineKind("merge", "MERGE", "a merge line", GameAssembler.merge, None, None,
             "the merge (X5)", writer.merge_text),
    LineKind("declare", "DECLARE", "alone or defend", GameAssembler.declare,
             parts.declare_parts, None, "a lone declaration (F9)", writer.declare_text),
    LineKind("trick", "TRICK", "a trick like '1. E: 9H S: AH W: KH N: QH'",
             GameAssembler.trick, parts.trick_parts, places.place_trick, None,
             writer.trick_text),
    LineKind("claim", "CLAIM", "a renege claim", GameAssembler.claim, None, None, None,
             writer.claim_text),
    LineKind("penalty", "PENALTY", "a penalty line like 'penalty EW 2 table talk'",
             GameAssembler.penalty, parts.penalty_parts, None, None, writer.penalty_text),
    LineKind("sheet", "SHEET", "a score-sheet line like 'trump H maker S tricks 3'",
             GameAssembler.sheet, parts.sheet_parts, places.place_sheet,
             "the score-sheet line", writer.sheet_text),
    LineKind("thrown", "THROWN", "thrown in", GameAssembler.thrown, parts.thrown_parts,
             None, "the score-sheet line", writer.sheet_text),
    LineKind("score", "SCORE", "a points line", GameAssembler.score, parts.score_parts,
             places.place_score, None, writer.score_text),
    LineKind("end", "RESULT", "a result line", write=writer.end_text),
    LineKind("end", "UNFINISHED", "unfinished", write=writer.end_text),
)
"""Every kind of line, in the order of the grammar."""

BODY = tuple(kind for kind in KINDS if kind.build is not None)
"""The kinds of line of a deal."""
PLACERS: dict[str, Placer] = {kind.name: kind.place for kind in KINDS if kind.place is not None}
"""The placer of each kind of line that is placed when a finding asks."""
BEFORE_PLAY: dict[str, str] = {kind.name: kind.before_play for kind in KINDS
                               if kind.before_play is not None}
"""The lines of a deal that must come before the first trick, each named for the message."""
WORDS: dict[str, str] = {kind.terminal: kind.words for kind in KINDS}
"""What each terminal is, in the words of a syntax error that expected it."""

FORM = Output({kind.name: kind.build for kind in BODY if kind.build is not None},
              BEFORE_PLAY, PLACERS, None, GameAssembler.close_form)
"""The assembler's JSON form: the form of each line, the game's in its ``game``."""
PARTS = Output({kind.name: parts.declined if kind.parts is None else kind.parts
                for kind in BODY}, BEFORE_PLAY, PLACERS, parts.open_parts, parts.close_parts)
"""The assembler's parts form: each deal's :class:`~.parts.Parts` in its ``parts``, the
game loop's keys in its ``game``."""
