"""Plain ``random.Random`` builders over records, shared by the lossless properties
(``tests/test_lossless.py``) and the long fuzz runs (``fuzz/inputs.py``).

- :func:`random_ruleset` draws a variant, its seats and house rules, as
  ``strategies.rulesets`` does for Hypothesis;
- :func:`cut_game` stops a game anywhere inside one of its deals and marks it unfinished
  (a partial deal, docs/notation.md sections 7 and 9);
- :func:`hide_more` writes ``??`` for cards of any line, the plays included;
- :func:`decorate` adds comments (above lines, and notes at their ends), closing comments
  and unknown tags;
- :func:`messy` writes a canonical text in another spelling that reads the same: case,
  blanks, ``10`` and suit symbols for cards, tags run together, lines moved where the
  grammar lets them go, CRLF and a byte-order mark. ``fmt`` must turn it back into the
  canonical text.

Every builder is a function of the game and the generator alone, so a seed reproduces it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any, TypeVar

from euchrelog.cards import Card
from euchrelog.models import (
    Bidding,
    Deal,
    End,
    Exchange,
    Game,
    Line,
    Merge,
    Play,
    Tag,
    Trick,
)
from euchrelog.rules import VARIANTS, Options, Ruleset, find_variant
from euchrelog.seats import SEATS

M = TypeVar("M", bound=Line)

VARIANT_NAMES = tuple(v.name for v in VARIANTS)


# ---------------------------------------------------------------- rulesets


def random_ruleset(rng: random.Random, variant: str | None = None) -> Ruleset:
    """A variant (drawn unless given), its seats and every house rule that applies to it,
    drawn as ``strategies.rulesets`` draws them."""
    name = variant if variant is not None else rng.choice(VARIANT_NAMES)
    kind = find_variant(name)
    others = [c for c in combinations(SEATS, len(kind.seats)) if c != kind.seats]
    seats = kind.seats if not others or rng.random() < 0.5 else rng.choice(others)
    takes = kind.options
    target = kind.target
    updates: dict[str, Any] = {
        "deck": rng.choice(kind.decks),
        "target": rng.choice((target, target // 2, (target * 3) // 4, target)),
        "deals": rng.choice((None, None, None, 1, 4, 8)),
        "renege": rng.choice((None, 1, 3)),
    }
    choices: dict[str, tuple[str, Sequence[Any]]] = {
        "dealer-pickup": ("dealer_pickup", ("optional", "required")),
        "stick-the-dealer": ("stick_the_dealer", (False, True)),
        "lone-defender": ("lone_defender", (False, True)),
        "lone-lead": ("lone_lead", ("maker-left", "dealer-left")),
        "lone-defender-euchre": ("lone_defender_euchre", (None, 4)),
        "dummy": ("dummy", ("optional", "optional", "required", "off")),
        "failed-moon": ("failed_moon", (-6, -24)),
        "euchred-loner": ("euchred_loner", (2, 2, 3, 4)),
        "euchre-scoring": ("euchre_scoring", ("defenders", "defenders", "set")),
        "pass-out": ("pass_out", ("next-dealer", "next-dealer", "same-dealer")),
    }
    for option, (field, values) in choices.items():
        if option in takes:
            updates[field] = rng.choice(values)
    return Ruleset(kind, replace(Options.defaults(kind), **updates), seats)


# ---------------------------------------------------------------- partial deals

_HEAD = ("hands", "extra", "up", "bidding", "exchange", "declarations", "sheet")
_TAIL = ("tricks", "claims", "penalties", "score")
FIELDS = _HEAD + _TAIL
"""The parts of a deal in the canonical order, named as in the JSON form (which writes the
acts as ``exchange`` and ``declarations``); a prefix of them is a deal cut short."""


def _parts(deal: Deal) -> dict[str, Any]:
    """The deal's :data:`FIELDS`: the exchange that comes first among its acts, the others
    as ``declarations``, and its other fields."""
    first = deal.exchange if not deal.late_exchange else None
    parts = {f: getattr(deal, f) for f in FIELDS if f not in ("exchange", "declarations")}
    return {**parts, "exchange": first, "declarations": deal.acts[first is not None:]}


def cut_deal(deal: Deal, rng: random.Random, *, mid_trick: bool = True) -> Deal:
    """The deal stopped at a random place: the parts before it kept, the part it falls in
    cut inside (a bid line may stop after any of its bids, and with ``mid_trick`` a trick
    after any of its plays), the rest left out."""
    parts = _parts(deal)
    present = [f for f in FIELDS if parts[f] not in (None, ())]
    if not present:
        return deal
    stop = rng.randrange(len(present) + 1)
    update: dict[str, Any] = {f: () if isinstance(parts[f], tuple) else None
                              for f in present[stop:]}
    if stop < len(present):
        field = present[stop]
        value = parts[field]
        if isinstance(value, tuple):
            keep = rng.randrange(len(value) + 1)
            kept: list[Any] = list(value[:keep])
            if keep < len(value) and rng.random() < 0.5:
                part = value[keep]
                if isinstance(part, Bidding) and len(part.bids) > 1:
                    kept.append(part.model_copy(
                        update={"bids": part.bids[: rng.randrange(1, len(part.bids))]}))
                elif isinstance(part, Trick) and len(part.plays) > 1 and mid_trick:
                    kept.append(part.model_copy(
                        update={"plays": part.plays[: rng.randrange(1, len(part.plays))]}))
            update[field] = tuple(kept)
    if "exchange" in update or "declarations" in update:
        exchange = update.pop("exchange", parts["exchange"])
        rest = update.pop("declarations", parts["declarations"])
        update["acts"] = (*(() if exchange is None else (exchange,)), *rest)
    return deal.model_copy(update=update)


def cut_game(game: Game, rng: random.Random, *, mid_trick: bool = True) -> Game:
    """The game stopped inside one of its deals (see :func:`cut_deal`), and marked
    ``unfinished``."""
    if not game.deals:
        return game.model_copy(update={"end": End(act="unfinished")})
    k = rng.randrange(len(game.deals))
    deals = (*game.deals[:k], cut_deal(game.deals[k], rng, mid_trick=mid_trick))
    return game.model_copy(update={"deals": deals, "end": End(act="unfinished")})


# ---------------------------------------------------------------- unknown cards


def _hidden(cards: Sequence[Card | None], rng: random.Random, rate: float
            ) -> tuple[Card | None, ...]:
    return tuple(None if rng.random() < rate else c for c in cards)


def hide_more(game: Game, rng: random.Random, rate: float = 0.15) -> Game:
    """``??`` for about ``rate`` of the cards of every line: hands, dummy or ghost, upcard
    and kitty, the dealer's exchange, the cards kept in a merge, and the plays."""
    deals = []
    for deal in game.deals:
        update: dict[str, Any] = {
            "hands": tuple(h.model_copy(update={"cards": {
                s: _hidden(c, rng, rate) for s, c in h.cards.items()}}) for h in deal.hands),
            "tricks": tuple(t.model_copy(update={"plays": tuple(
                Play(seat=p.seat, card=None) if rng.random() < rate else p for p in t.plays)})
                for t in deal.tricks),
            "acts": tuple(
                a.model_copy(update={"keeps": _hidden(a.keeps, rng, rate)})
                if isinstance(a, Merge) and a.keeps is not None else a
                for a in deal.acts),
        }
        if deal.extra is not None:
            update["extra"] = deal.extra.model_copy(
                update={"cards": _hidden(deal.extra.cards, rng, rate)})
        if deal.up is not None:
            up_update: dict[str, Any] = {"card": _hidden((deal.up.card,), rng, rate)[0]}
            if deal.up.kitty is not None:
                up_update["kitty"] = _hidden(deal.up.kitty, rng, rate)
            update["up"] = deal.up.model_copy(update=up_update)
        ex = deal.exchange
        if ex is not None and ex.act == "takes":
            hidden = _hidden_exchange(ex, rng, rate)
            update["acts"] = tuple(hidden if a is ex else a for a in update["acts"])
        deals.append(deal.model_copy(update=update))
    return game.model_copy(update={"deals": tuple(deals)})


def _hidden_exchange(ex: Exchange, rng: random.Random, rate: float) -> Exchange:
    """The exchange with its cards hidden; a hidden card taken is written ``takes ??``
    only when the record named it, and reads back as not named."""
    discard = _hidden((ex.discard,), rng, rate)[0]
    if ex.takes and rng.random() < rate:
        return ex.model_copy(update={"takes": False, "upcard": None, "discard": discard})
    return ex.model_copy(update={"discard": discard})


# ---------------------------------------------------------------- comments and tags

COMMENT_WORDS = (
    "scorer unsure", "agreed", "deal 2 dealer E", "[Event \"x\"]", "1. N: 9H", "points NS 4",
    "# twice", "##", "\u2663 \u2666 \u2665 \u2660", "caf\u00e9", "\u00fcber", "\U0001f0a1",
    "tab\there", "a \\ b \" c", "10H ?? JK", "result NS 10", "unfinished", ":", "   inner   ",
    "\u200b", "\u0660\u0661", "x\ry", "trailing,", "\u00a0nbsp\u00a0inside\u00a0x",
)
"""Pieces of comment text: notation that must stay a comment, unicode, odd blanks."""

TAG_NAMES = ("Scorer", "Note", "Annotator", "TimeControl", "X", "x1", "Club_Name",
             "Half-Time", "C++", "Comment", "Dealer", "Board", "Round2", "ECO", "Zz")
"""Unknown tags: names euchrelog does not read."""

KNOWN_TAGS = frozenset({"variant", "deck", "target", "deals", "rules", "seats", "n", "e", "s",
                        "w", "north", "east", "south", "west"})
"""Tag names that change how a game is replayed."""

TAG_VALUES = ("", " ", "Eve", "a \"quoted\" word", "back\\slash", "\\\"", "[not a tag]",
              "# not a comment", "deal 1 dealer N", "  padded  ", "tab\tinside",
              "\u2660 caf\u00e9 \U0001f0a1", "x\ry", "\u2028", "\\", "\"", "#")
"""Tag values, with quotes, backslashes, brackets and hashes that the writer escapes or
keeps."""


def comment_text(rng: random.Random) -> str:
    """A comment as euchrelog stores it: one line, without the ``#`` and without blanks at
    either end (possibly empty)."""
    words = rng.sample(COMMENT_WORDS, rng.randint(0, 3))
    return " ".join(words).strip()


def _note(rng: random.Random) -> str:
    """A note: a non-empty comment (an empty note is written as no note)."""
    text = ""
    while not text:
        text = comment_text(rng)
    return text


def decorate_line(line: M, rng: random.Random, rate: float) -> M:
    """The line with comments above it and a note, each with probability ``rate``."""
    update: dict[str, Any] = {}
    if rng.random() < rate:
        update["before"] = tuple(comment_text(rng) for _ in range(rng.randint(1, 3)))
    if rng.random() < rate:
        update["note"] = _note(rng)
    return line.model_copy(update=update) if update else line


def unknown_tag(rng: random.Random) -> Tag:
    """A tag euchrelog does not read, with an awkward value."""
    name = rng.choice(TAG_NAMES)
    if rng.random() < 0.3:
        name = rng.choice("ABCxyz") + "".join(
            rng.choice("abcXYZ019_+-") for _ in range(rng.randint(0, 12)))
    if name.lower() in KNOWN_TAGS:
        name = "Unknown" + name
    value = rng.choice(TAG_VALUES)
    if rng.random() < 0.3:
        value = "".join(rng.choice(TAG_VALUES) for _ in range(rng.randint(2, 4)))
    return Tag(name=name, value=value)


_LISTS = ("hands", "bidding", "acts", "tricks", "claims", "penalties")
_SINGLE = ("extra", "up", "exchange", "sheet", "score")
"""The parts of a deal that ``decorate`` comments, in this order: the exchange that comes
first among the acts is commented where the JSON form has it, with the single lines."""


def decorate(game: Game, rng: random.Random, *, rate: float = 0.25, last: bool = True,
             tags: int = 3) -> Game:
    """The game with comments above and after its lines (each line with probability
    ``rate``), up to ``tags`` unknown tags among its tags, and, when it is the ``last``
    game of its file, closing comments (a file's comments after its last line belong to
    its last game; those after another game belong to the next game's first tag)."""
    header = list(game.tags)
    for _ in range(rng.randint(0, tags)):
        tag = unknown_tag(rng)
        if all(t.name.lower() != tag.name.lower() for t in header):  # T205 if given twice
            header.insert(rng.randint(0, len(header)), tag)
    deals = []
    for deal in game.deals:
        update: dict[str, Any] = {}
        first = deal.exchange if not deal.late_exchange else None
        for name in _LISTS:
            update[name] = tuple(x if x is first else decorate_line(x, rng, rate)
                                 for x in getattr(deal, name))
        for name in _SINGLE:
            part = first if name == "exchange" else getattr(deal, name)
            if part is None:
                continue
            if name == "exchange":
                update["acts"] = (decorate_line(part, rng, rate), *update["acts"][1:])
            else:
                update[name] = decorate_line(part, rng, rate)
        deals.append(decorate_line(deal.model_copy(update=update), rng, rate))
    end = decorate_line(game.end, rng, rate) if game.end is not None else None
    after: tuple[str, ...] = ()
    if last and rng.random() < rate:
        after = tuple(comment_text(rng) for _ in range(rng.randint(1, 3)))
    return Game(tags=tuple(decorate_line(t, rng, rate) for t in header), deals=tuple(deals),
                end=end, after=after)


# ---------------------------------------------------------------- other spellings

_TAG_LINE = re.compile(r'^(\[[A-Za-z][A-Za-z0-9_+\-]*) ("(?:[^"\\]|\\.)*")\](.*)$')
_CARD_WORD = re.compile(r"^([789TJQKA])([CDHS])$")
_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
_BLANKS = (" ", " ", "  ", "\t", " \t ", "   ")


def _blank(rng: random.Random) -> str:
    return rng.choice(_BLANKS)


def _word(word: str, rng: random.Random) -> str:
    """One word of a line in another spelling: case, ``10`` for ``T``, a suit symbol."""
    card = _CARD_WORD.match(word)
    if card:
        rank, suit = card.groups()
        if rank == "T" and rng.random() < 0.5:
            rank = "10"
        if rng.random() < 0.3:
            suit = _SYMBOLS[suit]
        word = rank + suit
    elif word == "moon" and rng.random() < 0.5:
        word = "6"
    case: Callable[[str], str] = rng.choice((str.lower, str.upper, str.title, str))
    return case(word)


def _content(text: str, rng: random.Random) -> str:
    """The words of a line (no comment) respelt, with other blanks between them: a colon
    after a seat and the dot of a trick number may lose or gain blanks, and the comma
    between bids may go."""
    words = text.split()
    out: list[str] = []
    for i, word in enumerate(words):
        comma = word.endswith(",") and len(word) > 1
        colon = word.endswith(":") and len(word) > 1
        dot = re.fullmatch(r"[0-9]+\.", word) is not None
        core = word[:-1] if comma or colon else word
        piece = _word(core, rng) if not dot else word
        if colon:
            piece += rng.choice(("", " ", "\t")) + ":"
        elif comma:
            piece += rng.choice((",", ",", " ,", ""))
        out.append(piece)
        if i < len(words) - 1:
            out.append(rng.choice(("", " ", "\t")) if (colon or dot) else _blank(rng))
    if out and out[0].lower() in ("dummy", "ghost") and len(words) > 1 and rng.random() < 0.3:
        out[1] = rng.choice((":", ": ", " : "))
    return "".join(out)


def _comment(text: str, rng: random.Random) -> str:
    body = text.strip()
    body = body[1:].strip() if body.startswith("#") else body
    pad = rng.choice(("", " ", "  ", "\t"))
    return "#" + pad + body + rng.choice(("", " ", "\t"))


def _split_note(line: str) -> tuple[str, str | None]:
    """A canonical line that is not a tag or a comment: its words and its note."""
    at = line.find("  #")
    return (line, None) if at < 0 else (line[:at], line[at + 2:])


def _indent(rng: random.Random, usual: str) -> str:
    return usual if rng.random() < 0.5 else rng.choice(("", " ", "  ", "    ", "\t", " \t"))


def _messy_line(line: str, rng: random.Random) -> str:
    stripped = line.lstrip(" ")
    usual = line[: len(line) - len(stripped)]
    if not stripped:
        return rng.choice(("", "", " ", "\t  "))
    if stripped.startswith("#"):
        return _indent(rng, usual) + _comment(stripped, rng)
    if stripped.startswith("["):
        m = _TAG_LINE.match(stripped)
        assert m is not None, stripped
        name, value, rest = m.groups()
        tag = (name + rng.choice(("", " ", "  ", "\t")) + value
               + rng.choice(("", " ", "\t")) + "]")
        after = (rng.choice(("", " ", "\t")) + _comment(rest.strip(), rng)) if rest else ""
        return _indent(rng, "") + tag + after
    words, note = _split_note(stripped)
    reason = ""
    if words.lower().startswith("penalty "):  # the reason is free text: kept as written
        words, reason = " ".join(words.split(" ")[:3]), " ".join(words.split(" ")[3:])
        reason = _blank(rng) + reason
    text = (_indent(rng, usual) + _content(words, rng) + reason
            + rng.choice(("", "", " ", "\t")))
    if note is not None:
        text += rng.choice(("", " ", "  ", "\t")) + _comment(note, rng)
    return text


def _groups(lines: list[str]) -> list[list[str]]:
    """Lines grouped with the comment lines above them (a comment belongs to the next line
    that is not a comment); trailing comments form a group of their own."""
    groups: list[list[str]] = []
    pending: list[str] = []
    for line in lines:
        pending.append(line)
        if line.strip() and not line.lstrip().startswith("#"):
            groups.append(pending)
            pending = []
    if pending:
        groups.append(pending)
    return groups


_MOVABLE = ("up ", "dummy ", "ghost ", "trump ", "thrown ", "hands ")
"""Lines of a deal's head that may stand anywhere before its first trick."""


def _head(group: list[str]) -> str:
    return group[-1].strip()


def _shuffle_deal(groups: list[list[str]], rng: random.Random) -> list[list[str]]:
    """The groups of one deal (its deal line first) with lines moved where the grammar lets
    them go and the model stays the same: the points line anywhere, and one of the up,
    dummy or ghost, score-sheet lines and a lone hands line anywhere before the first
    trick."""
    out = list(groups)
    first_trick = next((i for i, g in enumerate(out) if re.match(r"[0-9]+\.", _head(g))),
                       len(out))
    score = next((i for i, g in enumerate(out) if _head(g).startswith(("points", "total"))),
                 None)
    if score is not None and rng.random() < 0.5:
        moved = out.pop(score)
        out.insert(rng.randint(1, len(out)), moved)
        first_trick = next((i for i, g in enumerate(out) if re.match(r"[0-9]+\.", _head(g))),
                           len(out))
    hands = [i for i, g in enumerate(out) if _head(g).startswith("hands ")]
    movable = [i for i, g in enumerate(out[:first_trick])
               if _head(g).startswith(_MOVABLE) and (not _head(g).startswith("hands ")
                                                    or len(hands) == 1)]
    if movable and rng.random() < 0.5:
        moved = out.pop(rng.choice(movable))
        out.insert(rng.randint(1, first_trick - 1), moved)
    return out


def _shuffle(lines: list[str], rng: random.Random) -> list[str]:
    groups = _groups(lines)
    out: list[list[str]] = []
    deal: list[list[str]] = []
    for group in groups:
        head = _head(group)
        if deal and (not group[-1].startswith("  ") or not head):
            out.extend(_shuffle_deal(deal, rng))
            deal = []
        if head.startswith("deal "):
            deal = [group]
        elif deal:
            deal.append(group)
        else:
            out.append(group)
    out.extend(_shuffle_deal(deal, rng) if deal else [])
    return [line for group in out for line in group]


def messy(text: str, rng: random.Random) -> str:
    """A canonical text written another way that reads the same (see the module doc)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if rng.random() < 0.5:
        lines = _shuffle(lines, rng)
    out: list[str] = []
    open_tag = False  # the last line written is a tag line without a note
    for line in lines:
        if not line.strip() and rng.random() < 0.3:
            continue
        text = _messy_line(line, rng)
        tag = line.startswith("[")
        if tag and open_tag and rng.random() < 0.3:  # tags run together on one line
            out[-1] += rng.choice(("", " ", "   ", "\t")) + text.lstrip()
        else:
            out.append(text)
        open_tag = tag and "#" not in _TAG_LINE.sub(r"\3", line)
        if rng.random() < 0.05:
            out.append(rng.choice(("", " ", "\t")))
            open_tag = False
    ends = rng.choice(("\n", "\r\n", "mixed"))
    body = "".join(line + (rng.choice(("\n", "\r\n")) if ends == "mixed" else ends)
                   for line in out)
    if rng.random() < 0.2:
        body = body.rstrip("\r\n")
    if rng.random() < 0.1:
        body = "\ufeff" + body
    return body


def respell(text: str, rng: random.Random, notes: float = 0.3) -> str:
    """``text`` as a person might type it, line for line (so line numbers keep): other case,
    spacing, ``10`` and suit symbols, and a comment at the end of some lines."""
    out = []
    for line in text.split("\n"):
        respelt = _messy_line(line, rng) if line.strip() else line
        if line.strip() and not line.lstrip().startswith("#") and "#" not in line and (
                rng.random() < notes):
            respelt += rng.choice(("  ", " ", "\t")) + _comment(rng.choice(_NOTES), rng)
        out.append(respelt)
    return "\n".join(out)


_NOTES = ("# checked by Ann", "# ?", "# long trick", "# score agreed", "# moved tables")
