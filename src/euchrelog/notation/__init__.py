"""Reading the notation: the Lark parser, the game splitter and the line builders.

Lark and its exceptions stay inside this module: callers see models and
:class:`~euchrelog.errors.NotationError`. A file is split into games before parsing, so a
syntax error costs only its own game and checking goes on with the next one.

>>> log = loads('[Variant "four-hand"]\\ndeal 1 dealer N\\n  thrown in\\nunfinished\\n')
>>> log.games[0].deals[0].sheet.thrown
True
"""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from pydantic import ValidationError

from ..cards import normalize_card, parse_trump
from ..errors import NotationError
from ..models import (
    TAG_NAME,
    Game,
    Log,
    LogItem,
    act_kind,
)
from ..rules import MOON
from .jsonio import is_json, loads_json

Locus = tuple[Any, ...]
"""Where in a game a finding points: ``("deal", 0, "trick", 2, "play", 1)`` and the like."""

GRAMMAR_FILE = "euchre.lark"


def shipped_text(folder: str, name: str) -> str:
    """The text of a file that the wheel ships in the package under ``folder`` and a
    checkout keeps in the top-level folder of that name (``grammar/``, ``docs/``)."""
    packaged = resources.files("euchrelog") / folder / name
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    # An editable install of a checkout: the folder sits at the top of the tree.
    return (Path(__file__).resolve().parents[3] / folder / name).read_text("utf-8")


def grammar_text(name: str = GRAMMAR_FILE) -> str:
    """The text of a grammar file shipped with the package (``grammar/`` in a checkout)."""
    return shipped_text("grammar", name)


_PLACING = threading.Lock()

_Placer = Callable[..., None]
"""_Places the parts of one line: called with the map's places and line texts, then the
line's text, line number, column and the indices that name it (see ``_PLACERS``)."""


class SourceMap:
    """Line and column (1-based) of each part of one game that a finding can point at.

    The parts of the most frequent lines (the seats of a hands line, each bid, the sides of
    a points line ...) are placed when a finding first asks for a place: a clean game is
    never placed card by card.
    """

    def __init__(self, places: dict[Locus, tuple[int, int]] | None = None,
                 cards: dict[Locus, tuple[str, int, int]] | None = None,
                 later: list[tuple[Any, ...]] | None = None) -> None:
        self._places = {} if places is None else places
        self._cards = {} if cards is None else cards
        self._later = later or []
        """The lines still to place: each its kind (a placer in ``_PLACERS``), the index of
        its deal and the placer's arguments (atoms only: a clean game's map holds nothing
        the garbage collector must visit again)."""
        self._by_deal: dict[Any, list[tuple[Any, ...]]] | None = None
        """The same lines by deal, once a finding has asked for a place (each deal's lines
        are then placed once, whatever the number of deals with findings)."""
        self._placed: set[int] = set()
        """The deals whose lines are placed, while others' are still to place."""

    def _pending(self) -> bool:
        return bool(self._later) if self._by_deal is None else bool(self._by_deal)

    @property
    def places(self) -> dict[Locus, tuple[int, int]]:
        """The place of each part, by its locus."""
        if self._pending():
            self._place()
        return self._places

    @property
    def cards(self) -> dict[Locus, tuple[str, int, int]]:
        """The text of a trick line or of one seat's cards, with its line and column: the
        places of the plays, seats and cards in it are found when a finding asks for them."""
        if self._pending():
            self._place()
        return self._cards

    def _place(self, deal: int | None = None) -> None:
        """Places the lines still to place: of one deal (by its index), or all."""
        with _PLACING:  # another thread sees the lines placed in full or waits here
            if self._by_deal is None:
                by_deal: dict[Any, list[tuple[Any, ...]]] = {}
                for entry in self._later:
                    by_deal.setdefault(entry[1], []).append(entry)
                self._by_deal = by_deal
                self._later = []
            for of in [deal] if deal is not None else list(self._by_deal):
                for kind, _, *args in self._by_deal.get(of, ()):
                    _PLACERS[kind](self._places, self._cards, *args)
                # (dropped last: a thread that finds nothing left to place reads a full map)
                self._by_deal.pop(of, None)
            if deal is not None:
                self._placed.add(deal)

    def find(self, locus: Locus) -> tuple[int, int]:
        """The place of ``locus``, or of the closest enclosing part that has one (the lines
        of a deal are placed when a finding first asks for a place in it)."""
        if self._pending():
            deal = locus[1] if len(locus) > 1 and locus[0] == "deal" else None
            if type(deal) is not int:
                self._place()
            elif deal not in self._placed:
                self._place(deal)
        places, cards = self._places, self._cards
        place = places.get(locus)
        if place is not None:
            return place
        for n in range(len(locus) - 1, 0, -1):
            line = cards.get(locus[:n])
            if line is not None:
                place = _within(line, locus[n:])
                if place is not None:
                    return place
            place = places.get(locus[:n])
            if place is not None:
                return place
        return places.get(("game",), (1, 1))


def _within(line: tuple[str, int, int], rest: Locus) -> tuple[int, int] | None:
    """The place of ``("play", p)``, ``("seat", p)`` or ``("card", k)`` in a line's text."""
    text, number, column = line
    if len(rest) != 2 or not isinstance(rest[1], int):
        return None
    kind, k = rest
    pattern, group = {"play": (_PLAY_RE, 2), "seat": (_PLAY_RE, 1), "card": (_CARD_RE, 0)}.get(
        kind, (None, 0))
    if pattern is None:
        return None
    for i, m in enumerate(pattern.finditer(text)):
        if i == k:
            return number, column + m.start(group)
    return None


@dataclass
class ParsedGame:
    """One game as read from notation, with the source map for its findings."""

    game: Game
    source: SourceMap


# ------------------------------------------------------------------ line patterns

_CARD = r"(?:(?:[2-9TJQKA]|10)[CDHS\u2663\u2666\u2665\u2660]|JK|\?\?)"
_I = re.IGNORECASE
_TAG_RE = re.compile(rf'\[({TAG_NAME})\s*"((?:[^"\\\n]|\\.)*)"\s*\]')
_DEAL_RE = re.compile(r"deal\s+(\d+)\s+dealer\s+([NESW])", _I)
_START_RE = re.compile(r"start(?:\s+deal\s+(\d+))?", _I)
_HAND_RE = re.compile(rf"([NESW])\s*:\s*({_CARD}(?:\s+{_CARD})*)", _I)
_CARD_RE = re.compile(_CARD, _I)
_UP_RE = re.compile(rf"up\s+({_CARD})(?:\s+kitty\s+(.*))?", _I)
_BID_RE = re.compile(r"([NESW])\s+(swap\b)?\s*(pass|order|call\s+(NT|\S)|moon|\d+)?", _I)
_EXCHANGE_RE = re.compile(
    rf"([NESW])\s+(?:(?:takes\s+({_CARD})\s+)?discards\s+({_CARD})|(declines))", _I)
_DECLARE_RE = re.compile(r"(alone|defend)\s+([NESW])", _I)
_PLAY_RE = re.compile(rf"([NESW])\s*:\s*({_CARD})", _I)
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


_BEFORE_PLAY = {
    "hands": "the hands line", "up": "the up line", "bid": "a bid line",
    "extra": "the dummy or ghost line", "merge": "the merge (X5)",
    "exchange": "the exchange", "declare": "a lone declaration (F9)",
    "sheet": "the score-sheet line", "thrown": "the score-sheet line",
}


def _comment_text(token: Token | str) -> str:
    return str(token)[1:].strip()


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value) if "\\" in value else value


class _Builder(Transformer[Token, Any]):
    """Turns the parse of one game into models and a source map (runs inside the parser)."""

    def __init__(self) -> None:
        super().__init__()
        self.offset = 0
        self.fold = False

    # Each line callback returns (kind, token, note); the game callback assembles.
    def tag_line(self, children: list[Any]) -> tuple[str, list[Token], str | None]:
        tokens = [c for c in children if c.type == "TAG"]
        notes = [c for c in children if c.type == "COMMENT"]
        return ("tags", tokens, _comment_text(notes[0]) if notes else None)

    def comment_line(self, children: list[Token]) -> tuple[str, str]:
        return ("comment", _comment_text(children[0]))

    def _line(self, kind: str, children: list[Token]) -> tuple[str, Token, str | None]:
        return (kind, children[0], _comment_text(children[1]) if len(children) > 1 else None)

    def hands(self, c: list[Token]) -> Any:
        return self._line("hands", c)

    def up(self, c: list[Token]) -> Any:
        return self._line("up", c)

    def extra(self, c: list[Token]) -> Any:
        return self._line("extra", c)

    def merge(self, c: list[Token]) -> Any:
        return self._line("merge", c)

    def bid(self, c: list[Token]) -> Any:
        return self._line("bid", c)

    def exchange(self, c: list[Token]) -> Any:
        return self._line("exchange", c)

    def declare(self, c: list[Token]) -> Any:
        return self._line("declare", c)

    def trick(self, c: list[Token]) -> Any:
        return self._line("trick", c)

    def claim(self, c: list[Token]) -> Any:
        return self._line("claim", c)

    def penalty(self, c: list[Token]) -> Any:
        return self._line("penalty", c)

    def sheet(self, c: list[Token]) -> Any:
        return self._line("sheet", c)

    def thrown(self, c: list[Token]) -> Any:
        return self._line("thrown", c)

    def score(self, c: list[Token]) -> Any:
        return self._line("score", c)

    @staticmethod
    def _headed(kind: str, c: list[Any]) -> tuple[str, Token, str | None, list[Any]]:
        """A line with the lines under it: (kind, head token, its note, the lines)."""
        head: Token = c[0]
        rest = c[1:]
        note = None
        if rest and isinstance(rest[0], Token):
            note = _comment_text(rest[0])
            rest = rest[1:]
        return (kind, head, note, rest)

    def deal(self, c: list[Any]) -> tuple[str, Token, str | None, list[Any]]:
        return self._headed("deal", c)

    def end(self, c: list[Any]) -> tuple[str, Token, str | None, list[Any]]:
        return self._headed("end", c)

    def opening(self, c: list[Any]) -> tuple[str, Token, str | None, list[Any]]:
        return self._headed("opening", c)

    def game(self, c: list[Any]) -> list[Any]:
        return c

    def start(self, c: list[Any]) -> GameForm | list[str]:
        comments = [item[1] for item in c if item[0] == "comment"]
        games = [item for item in c if item[0] != "comment"]
        if not games:
            return comments
        return _GameAssembler(self.offset, self.fold).build(comments, games[0])


Form = dict[str, Any]
"""A game, deal or line in the JSON form of the models (the form ``json.loads`` gives a line
of JSON Lines): the reader builds it, the fast replay reads it, and
:meth:`Game.model_validate <euchrelog.models.Game>` makes the models of it."""


def _commented(form: Form, before: list[str], note: str | None) -> Form:
    if before:
        form["before"] = before
    if note is not None:
        form["note"] = note
    return form


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


class _GameAssembler:
    """Builds the JSON form of one game line by line, recording every position: the line
    reader gives it each line as it matches it, the LALR parse the lines of its tree.

    Lines come with their line number in the file and their 1-based column."""

    def __init__(self, offset: int = 0, fold: bool = False) -> None:
        self.offset = offset
        """The line of the file before the game's first (for the LALR parse's lines)."""
        self.fold = fold
        """Whether the game holds a letter that only case-insensitive matching takes for an
        ASCII one (see ``_FOLDING``)."""
        self.places: dict[Locus, tuple[int, int]] = {}
        self.lines: dict[Locus, tuple[str, int, int]] = {}
        self.later: list[tuple[Any, ...]] = []
        """The lines whose parts are placed when a finding asks (see :class:`SourceMap`)."""
        self.last = 0
        """The number of the last line read that is not a comment."""
        self.pending: list[str] = []
        """The comment lines read since the last line, for the ``before`` of the next."""
        self.tags: list[Form] = []
        self.deals: list[Form] = []
        self.game: Form = {"tags": self.tags, "deals": self.deals}
        self.deal_form: Form = {}
        self.d = -1
        """The index of the deal being read."""
        # The lines of the deal being read, by kind.
        self.hand_lines: list[Form] = []
        self.bid_lines: list[Form] = []
        self.decls: list[Form] = []
        self.tricks: list[Form] = []
        self.claims: list[Form] = []
        self.penalties: list[Form] = []
        self.nbids = 0
        self.merged = False

    def build(self, leading: list[str], items: list[Any]) -> GameForm:
        """The form of a game from the items of its LALR parse (see :class:`_Builder`)."""
        offset = self.offset
        self.pending.extend(leading)
        for item in items:
            if item[0] == "comment":
                self.pending.append(item[1])
            elif item[0] == "tags":
                self.tag_line([(t.value, (t.line or 1) + offset, t.column or 1)
                               for t in item[1]], item[2])
            else:
                kind, token, note, rest = item
                self.line(kind, token.value, (token.line or 1) + offset, token.column or 1,
                          note)
                for sub in rest:
                    if sub[0] == "comment":
                        self.pending.append(sub[1])
                    else:
                        token = sub[1]
                        self.line(sub[0], token.value, (token.line or 1) + offset,
                                  token.column or 1, sub[2])
        return self.finish()

    def finish(self) -> GameForm:
        """The form of the game read so far, with its source map."""
        self.close_deal()
        game = self.game
        if self.pending:
            game["after"] = self.pending
        if self.last:
            self.places[("tail",)] = (self.last, 1)
        return GameForm(game, SourceMap(self.places, self.lines, self.later))

    def above(self) -> list[str]:
        """The comment lines read above a line: its ``before``."""
        before = self.pending
        if before:
            self.pending = []
        return before

    def tag_line(self, tags: list[tuple[str, int, int]], note: str | None) -> None:
        """A line of tags: each tag's text, line and column; the note after the last."""
        last = len(tags) - 1
        for i, (text, line, column) in enumerate(tags):
            self.last = line
            if not self.tags:
                self.places[("game",)] = (line, column)
            self.places[("tag", len(self.tags))] = (line, column)
            m = _TAG_RE.fullmatch(text)
            assert m is not None
            tag_note = note if i == last else None
            self.tags.append(_commented({"name": m.group(1), "value": _unescape(m.group(2))},
                                        self.above(), tag_note))

    def line(self, kind: str, text: str, line: int, column: int, note: str | None) -> None:
        """One line of the game that is not a tag line: ``kind`` is its rule in the grammar
        (``opening``, ``deal``, ``end``) or, for a line of a deal, its alias."""
        self.last = line
        if self.fold and kind != "penalty":  # a penalty's reason is kept as written
            text = text.translate(_FOLD)
        build = _BODY.get(kind)
        if build is not None:
            before = self.pending
            if before:  # as self.above(), in the hottest path
                self.pending = []
            if self.tricks and kind in _BEFORE_PLAY:
                raise NotationError(f"{_BEFORE_PLAY[kind]} must come before the first trick",
                                    line, column)
            form = build(self, text, line, column)
            if before:
                form["before"] = before
            if note is not None:
                form["note"] = note
        elif kind == "deal":
            self.deal(text, line, column, note)
        elif kind == "opening":
            self.game["start"] = _commented(self.start(text, line, column), self.above(),
                                            note)
        else:
            self.close_deal()
            self.game["end"] = _commented(self.end(text, line, column), self.above(), note)

    def start(self, text: str, line: int, column: int) -> Form:
        m = _START_RE.match(text)
        assert m is not None
        self.places[("start",)] = (line, column)
        form: Form = {}
        if m.group(1) is not None:
            self.places[("start", "deal")] = (line, column + m.start(1))
            if int(m.group(1)) < 1:
                raise NotationError("a deal number starts at 1", line, column + m.start(1))
            form["deal"] = int(m.group(1))
        split = _TOTAL_SPLIT_RE.search(text)
        if split:
            cut = split.start()
            self.places[("start", "total")] = (line, column + cut)
            form["total"] = _read_sides(self.places, text[cut:], line, column + cut,
                                        ("start", "total"))
        return form

    def end(self, text: str, line: int, column: int) -> Form:
        self.places[("end",)] = (line, column)
        form: Form
        if text.lower().startswith("unfinished"):
            form = {"act": "unfinished"}
        else:
            body = text
            form = {"act": "result"}
            wm = _WINNER_RE.search(text)
            if wm:
                self.places[("end", "winner")] = (line, column + wm.start(1))
                body = text[: wm.start()]
            scores = _read_sides(self.places, body, line, column, ("end", "score"))
            if scores:
                form["scores"] = scores
            if wm:
                form["winner"] = wm.group(1).upper()
        return form

    def close_deal(self) -> None:
        """Puts the lists of the deal being read into its form."""
        form = self.deal_form
        for name, lines in (("hands", self.hand_lines), ("bidding", self.bid_lines),
                            ("declarations", self.decls), ("tricks", self.tricks),
                            ("claims", self.claims), ("penalties", self.penalties)):
            if lines:
                form[name] = lines

    def deal(self, text: str, line: int, column: int, note: str | None) -> None:
        self.close_deal()
        _, number, _, dealer = text.split()
        d = self.d = len(self.deals)
        self.later.append(("deal", d, text, line, column, d))
        if int(number) < 1:
            raise NotationError("a deal number starts at 1",
                                *_placed(("deal", d, "number"), "deal", text, line, column, d))
        self.deal_form = _commented({"number": int(number), "dealer": dealer.upper()},
                                    self.above(), note)
        self.deals.append(self.deal_form)
        self.hand_lines, self.bid_lines, self.decls = [], [], []
        self.tricks, self.claims, self.penalties = [], [], []
        self.nbids = 0
        self.merged = False

    def trick(self, text: str, line: int, column: int) -> Form:
        head, _, rest = text.partition(".")
        number = int(head)
        if number < 1:
            raise NotationError("a trick number starts at 1", line, column)
        tricks = self.tricks
        self.later.append(("trick", self.d, text, line, column, self.d, len(tricks)))
        words = iter(rest.replace(":", " ").split())  # each seat, then its card
        form = {"number": number, "plays": [{"seat": seat.upper(), "card": _SPELLING[next(words)]}
                                            for seat in words]}
        tricks.append(form)
        return form

    def hands(self, text: str, line: int, column: int) -> Form:
        hands = self.hand_lines
        earlier = {seat for h in hands for seat in h["cards"]} if hands else ()
        seats: dict[str, list[str]] = {}
        cards: list[str] = []
        for word in text.replace(":", " ").split()[1:]:  # a seat is one letter, a card more
            if len(word) > 1:
                cards.append(_SPELLING[word])
                continue
            seat = word.upper()
            if seat in seats or seat in earlier:
                raise NotationError(f"the hand of {seat} is written twice", line,
                                    column + _nth(_HAND_RE, text, len(seats)).start(1))
            cards = seats[seat] = []
        self.later.append(("hands", self.d, text, line, column, self.d))
        form: Form = {"cards": seats}
        hands.append(form)
        return form

    def up(self, text: str, line: int, column: int) -> Form:
        if "up" in self.deal_form:
            raise NotationError("a deal has one up line", line, column)
        words = text.split()  # up, the card, then kitty and its cards
        up: Form = {"card": _SPELLING[words[1]]}
        if len(words) > 2:
            up["kitty"] = [_SPELLING[c] for c in words[3:]]
        self.later.append(("up", self.d, text, line, column, self.d))
        self.deal_form["up"] = up
        return up

    def bid(self, text: str, line: int, column: int) -> Form:
        bids: list[Form] = []
        words = text.replace(",", " ").split()
        i, n = 1, len(words)
        while i < n:
            seat = words[i].upper()
            act = words[i + 1].lower()
            i += 2
            if act == "swap":
                bids.append({"act": "swap", "seat": seat})
                if i == n:
                    break
                act = words[i].lower()
                i += 1
            if act in ("pass", "order"):
                bids.append({"act": act, "seat": seat})
            elif act == "call":
                bids.append({"act": "call", "seat": seat, "suit": parse_trump(words[i]).value})
                i += 1
            elif act == "moon":
                bids.append({"act": "bid", "seat": seat, "tricks": MOON})
            elif act.isdigit():
                bids.append({"act": "bid", "seat": seat, "tricks": int(act)})
            else:  # a swap without an act: this word is the next seat
                i -= 1
        self.later.append(("bid", self.d, text, line, column, self.d, self.nbids))
        self.nbids += len(bids)
        form: Form = {"bids": bids}
        self.bid_lines.append(form)
        return form

    def extra(self, text: str, line: int, column: int) -> Form:
        if "extra" in self.deal_form:
            raise NotationError("a deal has one dummy or ghost line", line, column)
        xm = _EXTRA_RE.fullmatch(text)
        assert xm is not None
        self.places[("deal", self.d, "extra")] = (line, column)
        cards = _read_cards(self.places, xm.group(2), line, column + xm.start(2),
                            ("deal", self.d, "extra", "card"))
        form: Form = {"kind": xm.group(1).lower(), "cards": cards}
        self.deal_form["extra"] = form
        return form

    def merge(self, text: str, line: int, column: int) -> Form:
        if self.merged:
            raise NotationError("a deal has one merge line", line, column)
        self.merged = True
        mm = _MERGE_RE.fullmatch(text)
        assert mm is not None
        decls = self.decls
        self.places[("deal", self.d, "decl", len(decls))] = (line, column)
        merge: Form = {"act": "merge", "seat": mm.group(1).upper()}
        if mm.group(2) is not None:
            merge["keeps"] = _read_cards(self.places, mm.group(2), line, column + mm.start(2),
                                         ("deal", self.d, "decl", len(decls), "card"))
        decls.append(merge)
        return merge

    def exchange(self, text: str, line: int, column: int) -> Form:
        decls = self.decls
        if "exchange" in self.deal_form or any(act_kind(a) == "exchange" for a in decls):
            raise NotationError("a deal has one exchange line", line, column)
        # An exchange after the merge keeps its place among the acts after the bidding, so
        # the replay judges it (K501, X5) like every other act.
        merged = self.merged
        self.later.append(("exchange", self.d, text, line, column,
                           ("deal", self.d, "decl", len(decls)) if merged else ("deal", self.d),
                           merged))
        words = text.split()  # the seat, then takes and the card, discards and the card
        exchange: Form = {"seat": words[0].upper()}
        if words[1].lower() == "declines":
            exchange["act"] = "declines"
        else:
            exchange["act"] = "takes"
            if words[1].lower() == "takes":
                exchange["takes"] = True
                exchange["upcard"] = _SPELLING[words[2]]
            exchange["discard"] = _SPELLING[words[-1]]
        if merged:
            decls.append(exchange)
        else:
            self.deal_form["exchange"] = exchange
        return exchange

    def declare(self, text: str, line: int, column: int) -> Form:
        dm = _DECLARE_RE.fullmatch(text)
        assert dm is not None
        decls = self.decls
        self.places[("deal", self.d, "decl", len(decls))] = (line, column + dm.start(2))
        form: Form = {"act": dm.group(1).lower(), "seat": dm.group(2).upper()}
        decls.append(form)
        return form

    def claim(self, text: str, line: int, column: int) -> Form:
        cm = _CLAIM_RE.fullmatch(text)
        assert cm is not None
        claims = self.claims
        self.places[("deal", self.d, "claim", len(claims))] = (line, column + cm.start(1))
        claim: Form = {"seat": cm.group(1).upper()}
        if cm.group(2):
            if int(cm.group(2)) == 0:
                raise NotationError("a trick number starts at 1", line, column + cm.start(2))
            claim["trick"] = int(cm.group(2))
        claims.append(claim)
        return claim

    def penalty(self, text: str, line: int, column: int) -> Form:
        penm = _PENALTY_RE.fullmatch(text)
        assert penm is not None
        penalties = self.penalties
        self.places[("deal", self.d, "penalty", len(penalties))] = (line, column + penm.start(1))
        if int(penm.group(2)) < 1:
            raise NotationError("a penalty is at least 1 point", line, column + penm.start(2))
        reason = penm.group(3)
        if reason.startswith('"'):
            reason = _unescape(reason[1:-1])
        if not reason.strip():
            raise NotationError("a penalty gives its reason", line, column + penm.start(3))
        form: Form = {"who": penm.group(1).upper(), "points": int(penm.group(2)),
                      "reason": reason}
        penalties.append(form)
        return form

    def sheet(self, text: str, line: int, column: int) -> Form:
        if "sheet" in self.deal_form:
            raise NotationError("a deal has one score-sheet line", line, column)
        self.later.append(("sheet", self.d, text, line, column, self.d))
        sm = _SHEET_RE.fullmatch(text)
        assert sm is not None
        sheet: Form = {"trump": parse_trump(sm.group(1)).value, "maker": sm.group(2).upper()}
        if sm.group(3):
            sheet["alone"] = True
        if sm.group(4):
            sheet["defend"] = sm.group(4).upper()
        bid = sm.group(5)
        if bid:
            sheet["bid"] = MOON if bid.lower() == "moon" else int(bid)
        count = sm.group(6)
        if count is not None and count.isdigit():
            sheet["tricks"] = int(count)
        elif count is not None:
            taken: dict[str, int] = {}
            for km in _TAKEN_RE.finditer(text, sm.start(6)):
                seat = km.group(1).upper()
                if seat in taken:
                    raise NotationError(f"the tricks of {seat} are written twice", line,
                                        column + km.start(1))
                taken[seat] = int(km.group(2))
            sheet["taken"] = taken
        self.deal_form["sheet"] = sheet
        return sheet

    def thrown(self, text: str, line: int, column: int) -> Form:
        if "sheet" in self.deal_form:
            raise NotationError("a deal has one score-sheet line", line, column)
        self.places[("deal", self.d, "sheet")] = (line, column)
        form: Form = {"thrown": True}
        self.deal_form["sheet"] = form
        return form

    def score(self, text: str, line: int, column: int) -> Form:
        if "score" in self.deal_form:
            raise NotationError("a deal has one points line", line, column)
        words = text.split()  # points and its sides, then total and its sides
        score: Form = {}
        sides = score[words[0].lower()] = {}
        i, n = 1, len(words)
        while i < n:
            side = words[i].upper()
            if side == "TOTAL":
                sides = score["total"] = {}
                i += 1
                continue
            if side in sides:  # placing the line finds the side written twice
                _PLACERS["score"]({}, {}, text, line, column, self.d)
            sides[side] = int(words[i + 1])
            i += 2
        self.later.append(("score", self.d, text, line, column, self.d))
        self.deal_form["score"] = score
        return score


def _placed(locus: Locus, kind: str, *args: Any) -> tuple[int, int]:
    """The place of ``locus`` on one line of ``kind``, from the placer of that line."""
    places: dict[Locus, tuple[int, int]] = {}
    _PLACERS[kind](places, {}, *args)
    return places[locus]


def _nth(pattern: re.Pattern[str], text: str, k: int) -> re.Match[str]:
    """The ``k``-th match of ``pattern`` in ``text`` (there is one)."""
    return next(itertools.islice(pattern.finditer(text), k, None))


def _read_sides(places: dict[Locus, tuple[int, int]], text: str, line: int, column: int,
                locus: Locus) -> dict[str, int]:
    """The points of each side in ``text``, placed under ``locus``."""
    out: dict[str, int] = {}
    for m in _SIDE_RE.finditer(text):
        side = m.group(1).upper()
        if side in out:
            raise NotationError(f"side {side} is written twice", line, column + m.start(1))
        places[(*locus, side)] = (line, column + m.start(1))
        out[side] = int(m.group(2))
    return out


def _read_cards(places: dict[Locus, tuple[int, int]], text: str, line: int, column: int,
                locus: Locus) -> list[str]:
    """The cards in ``text``, each placed under ``locus``."""
    out = []
    for k, m in enumerate(_CARD_RE.finditer(text)):
        places[(*locus, k)] = (line, column + m.start())
        out.append(_SPELLING[m.group()])
    return out


# The placers of the frequent lines: each places the parts of its line as the line's builder
# would, with the regular expressions that split the line, when a finding first asks.

_Places = dict[Locus, tuple[int, int]]
_Texts = dict[Locus, tuple[str, int, int]]
"""A source map's texts of lines (see :attr:`SourceMap.cards`)."""


def _place_deal(places: _Places, lines: _Texts, text: str, line: int, column: int,
                d: int) -> None:
    m = _DEAL_RE.fullmatch(text)
    assert m is not None
    places[("deal", d)] = (line, column)
    places[("deal", d, "dealer")] = (line, column + m.start(2))
    places[("deal", d, "number")] = (line, column + m.start(1))


def _place_trick(places: _Places, lines: _Texts, text: str, line: int, column: int, d: int,
                 t: int) -> None:
    end = text.index(".") + 1
    places[("deal", d, "trick", t)] = (line, column)
    lines[("deal", d, "trick", t)] = (text[end:], line, column + end)


def _place_hands(places: _Places, lines: _Texts, text: str, line: int, column: int,
                 d: int) -> None:
    for hm in _HAND_RE.finditer(text):
        locus = ("deal", d, "hands", hm.group(1).upper())
        places[locus] = (line, column + hm.start(1))
        lines[locus] = (hm.group(2), line, column + hm.start(2))


def _place_up(places: _Places, lines: _Texts, text: str, line: int, column: int,
              d: int) -> None:
    um = _UP_RE.fullmatch(text)
    assert um is not None
    places[("deal", d, "up")] = (line, column + um.start(1))
    if um.group(2) is not None:
        _read_cards(places, um.group(2), line, column + um.start(2), ("deal", d, "up", "kitty"))


def _place_bids(places: _Places, lines: _Texts, text: str, line: int, column: int, d: int,
                first: int) -> None:
    n = first
    for bm in _BID_RE.finditer(text, 3):
        if bm.group(2):
            places[("deal", d, "bid", n)] = (line, column + bm.start(2))
            n += 1
        if bm.group(3) is not None:
            places[("deal", d, "bid", n)] = (
                line, column + (bm.start(1) if not bm.group(2) else bm.start(3)))
            n += 1


def _place_exchange(places: _Places, lines: _Texts, text: str, line: int, column: int,
                    where: Locus, merged: bool) -> None:
    em = _EXCHANGE_RE.fullmatch(text)
    assert em is not None
    places[where if merged else (*where, "exchange")] = (line, column)
    if em.group(2):
        places[(*where, "takes")] = (line, column + em.start(2))
    if em.group(3):
        places[(*where, "discard")] = (line, column + em.start(3))


def _place_score(places: _Places, lines: _Texts, text: str, line: int, column: int,
                 d: int) -> None:
    split = _TOTAL_SPLIT_RE.search(text)
    cut = split.start() if split else len(text)
    if text[:6].lower() == "points":
        places[("deal", d, "points")] = (line, column)
        _read_sides(places, text[:cut], line, column, ("deal", d, "points"))
    if split:
        places[("deal", d, "total")] = (line, column + cut)
        _read_sides(places, text[cut:], line, column + cut, ("deal", d, "total"))


def _place_sheet(places: _Places, lines: _Texts, text: str, line: int, column: int,
                 d: int) -> None:
    places[("deal", d, "sheet")] = (line, column)
    sm = _SHEET_RE.fullmatch(text)
    assert sm is not None
    for group, part in ((1, "trump"), (2, "maker"), (4, "defend"), (5, "bid"), (6, "tricks")):
        if sm.group(group):
            places[("deal", d, "sheet", part)] = (line, column + sm.start(group))


_PLACERS: dict[str, _Placer] = {
    "deal": _place_deal, "trick": _place_trick, "hands": _place_hands, "up": _place_up,
    "bid": _place_bids, "exchange": _place_exchange, "score": _place_score,
    "sheet": _place_sheet,
}
"""The placer of each kind of line that is placed when a finding asks."""


_BODY: dict[str, Callable[[_GameAssembler, str, int, int], Form]] = {
    "trick": _GameAssembler.trick, "hands": _GameAssembler.hands, "up": _GameAssembler.up,
    "bid": _GameAssembler.bid, "extra": _GameAssembler.extra, "merge": _GameAssembler.merge,
    "exchange": _GameAssembler.exchange, "declare": _GameAssembler.declare,
    "claim": _GameAssembler.claim, "penalty": _GameAssembler.penalty,
    "sheet": _GameAssembler.sheet, "thrown": _GameAssembler.thrown,
    "score": _GameAssembler.score,
}
"""The builder of each line of a deal, by its alias in the grammar."""


@dataclass
class GameForm:
    """One game as read from notation, in its JSON form, with the source map for its
    findings."""

    form: Form
    source: SourceMap


# ------------------------------------------------------------------ the parser


def build_parser(*, strict: bool = False, transformer: Transformer[Token, Any] | None = None,
                 cache: bool = False) -> Lark:
    """Builds the LALR parser of the notation.

    ``strict=True`` makes Lark refuse any shift/reduce conflict or colliding terminals (the
    test suite builds it so); ``cache=True`` keeps the analysed grammar in Lark's cache file
    so that later runs start in milliseconds.
    """
    return Lark(grammar_text(), parser="lalr", lexer="contextual", strict=strict,
                transformer=transformer, maybe_placeholders=False, cache=cache)


_local = threading.local()


def _parser() -> tuple[Lark, _Builder]:
    """This thread's parser and builder: the builder keeps the line offset of the game
    being parsed, so threads must not share one."""
    made: tuple[Lark, _Builder] | None = getattr(_local, "parser", None)
    if made is None:
        builder = _Builder()
        made = _local.parser = (build_parser(transformer=builder, cache=True), builder)
    return made


def _line_terminals(lark: Lark) -> _Lines:
    """This thread's compiled line terminals of ``lark``."""
    made: _Lines | None = getattr(_local, "lines", None)
    if made is None:
        made = _local.lines = _Lines(lark)
    return made


def prepare() -> None:
    """Builds the parser now (from Lark's cache when it can) and compiles its line
    terminals, so that processes forked afterwards share them instead of each building and
    caching them at once."""
    _line_terminals(_parser()[0])


_TERMINAL_WORDS = {
    "TAG": 'a tag like [Event "Club night"]',
    "DEAL": "a deal line like 'deal 1 dealer N'",
    "START": "a start line",
    "HANDS": "a hands line",
    "UP": "an up line",
    "BID": "a bid line",
    "EXCHANGE": "an exchange line like 'N takes JH discards 9C'",
    "DECLARE": "alone or defend",
    "TRICK": "a trick like '1. E: 9H S: AH W: KH N: QH'",
    "CLAIM": "a renege claim",
    "PENALTY": "a penalty line like 'penalty EW 2 table talk'",
    "SHEET": "a score-sheet line like 'trump H maker S tricks 3'",
    "THROWN": "thrown in",
    "SCORE": "a points line",
    "RESULT": "a result line",
    "UNFINISHED": "unfinished",
    "COMMENT": "a comment",
    "_NL": "the end of the line",
    "$END": "the end of the game",
}


def _expected_words(expected: Iterable[str]) -> str:
    names = sorted(set(expected) - {"COMMENT", "_NL", "$END"})
    if "HANDS" in names:
        return "a line of the deal (hands, up, bid, a trick, points ...), a new deal or the result"
    if names == ["TAG"]:
        return "the tags of a new game: this game has ended"
    words = [_TERMINAL_WORDS.get(n, n.lower()) for n in names]
    if not words:
        return "the end of the line"
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]


def text_lines(text: str) -> list[str]:
    """The lines of a text, split at ``\n`` only (as a file is read), without the ends."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def _context(text: str, line: int, column: int) -> str:
    lines = text_lines(text)
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    src = src.replace("\t", " ")
    return f"{src}\n{' ' * (column - 1)}^"


def _syntax_error(exc: UnexpectedInput, chunk: str, offset: int) -> NotationError:
    line = exc.line if isinstance(exc.line, int) and exc.line > 0 else 1
    column = exc.column if isinstance(exc.column, int) and exc.column > 0 else 1
    if isinstance(exc, UnexpectedCharacters):
        lines = text_lines(chunk)
        src = lines[line - 1] if line <= len(lines) else ""
        col, message = diagnose_line(src)
        column = col + 1
    elif isinstance(exc, UnexpectedToken):
        if exc.token.type == "$END":
            lines = text_lines(chunk.rstrip())
            line = max(len(lines), 1)
            column = 1
            message = ("the game has tags but no deal: add a deal line like 'deal 1 dealer N', "
                       "or 'unfinished'")
        else:
            got = str(exc.token).split()[0] if str(exc.token).strip() else exc.token.type
            message = f"unexpected {got!r} here: expected {_expected_words(exc.expected)}"
            above = text_lines(chunk)[: line - 1]
            if "TAG" in exc.expected and not any(a.lstrip().startswith("[") for a in above):
                message = (f"unexpected {got!r}: a game starts with its tags, like "
                           '[Variant "four-hand"], above its first deal')
    elif isinstance(exc, UnexpectedEOF):
        message = "the record ends too early: expected " + _expected_words(exc.expected)
    else:  # pragma: no cover - lark raises only the three above
        message = "syntax error"
    return NotationError(message, line + offset, column, _context(chunk, line, column))


# ------------------------------------------------------------------ fine diagnosis

_WORD_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"?|[^\s,:"]+|[,:]')
_SEAT_WORDS = {"n", "e", "s", "w"}
_TRUMP_OK = re.compile(r"(?i:[CDHS\u2663\u2666\u2665\u2660]|NT)")
_CARD_OK = re.compile(_CARD, _I)
_INT_OK = re.compile(r"[0-9]{1,6}")
_SIGNED_OK = re.compile(r"-?[0-9]{1,6}")
_SIDE_OK = re.compile(r"(?i:NS|EW|[NESW])")


class _DiagnosisError(Exception):
    def __init__(self, column: int, message: str) -> None:
        self.column = column
        self.message = message


class _Cursor:
    """Walks the words of one line, failing with the column of the first wrong word."""

    def __init__(self, text: str, start: int = 0) -> None:
        self.words = [(m.start(), m.group()) for m in _WORD_RE.finditer(text, start)
                      if not m.group().startswith("#")]
        cut = text.find("#", start)
        if cut >= 0:
            self.words = [(p, w) for p, w in self.words if p < cut]
        self.i = 0
        self.end = len(text.rstrip())

    def peek(self) -> str | None:
        return self.words[self.i][1] if self.i < len(self.words) else None

    def fail(self, what: str) -> _DiagnosisError:
        if self.i < len(self.words):
            pos, word = self.words[self.i]
            return _DiagnosisError(pos, f"expected {what}, found {word!r}")
        return _DiagnosisError(self.end, f"expected {what} before the end of the line")

    def take(self, pattern: re.Pattern[str], what: str) -> str:
        word = self.peek()
        if word is None or not pattern.fullmatch(word):
            raise self.fail(what)
        self.i += 1
        return word

    def word(self, *options: str) -> str:
        word = self.peek()
        if word is None or word.lower() not in options:
            raise self.fail(" or ".join(repr(o) for o in options))
        self.i += 1
        return word.lower()

    def done(self) -> None:
        if self.peek() is not None:
            raise self.fail("the end of the line")


_SEAT_P = re.compile(r"(?i:[NESW])")
_A_CARD = "a card like 9H, TS or ??"
_A_SEAT = "a seat like N"


def _cards(cur: _Cursor, stop: re.Pattern[str] | None = None) -> None:
    cur.take(_CARD_OK, _A_CARD)
    while cur.peek() is not None:
        word = cur.peek() or ""
        if stop is not None and stop.fullmatch(word):
            return
        cur.take(_CARD_OK, _A_CARD + (" or a seat like N" if stop is not None else ""))


def _sides(cur: _Cursor, stop: str) -> int:
    n = 0
    while cur.peek() is not None and (cur.peek() or "").lower() != stop:
        cur.take(_SIDE_OK, f"a side like NS or {stop!r}")
        cur.take(_SIGNED_OK, "a number of points")
        n += 1
    return n


def _diagnose(text: str, start: int) -> None:
    cur = _Cursor(text, start)
    first = (cur.peek() or "").lower()
    if first.startswith("["):
        pos = start
        while pos < len(text) and text[pos] not in "#\r\n":
            m = _TAG_RE.match(text, pos)
            if m is None:
                if text[pos] == "[":
                    _diagnose_tag(text, pos)
                raise _DiagnosisError(pos, 'expected another tag or the end of the line, like '
                                      '[Event "Club night"]: a name, a quoted value and a '
                                      "closing ]")
            pos = m.end()
            while pos < len(text) and text[pos] in " \t":
                pos += 1
        raise _DiagnosisError(start, "a tag line cannot stand here: tags come before the deals")
    if first == "deal":
        cur.i += 1
        cur.take(_INT_OK, "a deal number")
        cur.word("dealer")
        cur.take(_SEAT_P, _A_SEAT)
    elif first == "start":
        cur.i += 1
        if cur.word("deal", "total") == "deal":
            cur.take(_INT_OK, "a deal number")
            if cur.peek() is not None:
                cur.word("total")
                if _sides(cur, "") == 0:
                    raise cur.fail("a side like NS and its total")
        elif _sides(cur, "") == 0:
            raise cur.fail("a side like NS and its total")
    elif first == "hands":
        cur.i += 1
        while True:
            cur.take(_SEAT_P, _A_SEAT)
            cur.take(re.compile(":"), "':' after the seat")
            _cards(cur, _SEAT_P)
            if cur.peek() is None:
                break
    elif first == "up":
        cur.i += 1
        cur.take(_CARD_OK, _A_CARD)
        if cur.peek() is not None:
            cur.word("kitty")
            _cards(cur)
    elif first == "bid":
        cur.i += 1
        while True:
            cur.take(_SEAT_P, _A_SEAT)
            if (cur.peek() or "").lower() == "swap":
                cur.i += 1
                if cur.peek() in (None, ","):
                    if cur.peek() == ",":
                        cur.i += 1
                    if cur.peek() is None:
                        break
                    continue
            if _INT_OK.fullmatch(cur.peek() or ""):
                cur.i += 1
            else:
                act = cur.word("pass", "order", "call", "moon")
                if act == "call":
                    cur.take(_TRUMP_OK, "a suit: C, D, H or S (or NT)")
            if cur.peek() == ",":
                cur.i += 1
            if cur.peek() is None:
                break
    elif first in ("dummy", "ghost"):
        cur.i += 1
        if cur.peek() == ":":
            cur.i += 1
        _cards(cur)
    elif first in _SEAT_WORDS:
        cur.i += 1
        act = cur.word("takes", "discards", "declines", "merges")
        if act == "merges" and cur.peek() is not None:
            cur.word("keeps")
            _cards(cur)
        if act == "takes":
            cur.take(_CARD_OK, _A_CARD)
            act = cur.word("discards")
        if act == "discards":
            cur.take(_CARD_OK, _A_CARD)
    elif first in ("alone", "defend"):
        cur.i += 1
        cur.take(_SEAT_P, _A_SEAT)
    elif re.fullmatch(r"[0-9]+\.?", first):
        if not first.endswith("."):
            raise cur.fail("a trick number with a dot, like '1.'")
        cur.i += 1
        cur.take(_SEAT_P, _A_SEAT)
        while True:
            cur.take(re.compile(":"), "':' after the seat")
            cur.take(_CARD_OK, _A_CARD)
            if cur.peek() is None:
                break
            cur.take(_SEAT_P, _A_SEAT)
    elif first == "renege":
        cur.i += 1
        cur.take(_SEAT_P, _A_SEAT)
        if cur.peek() is not None:
            cur.word("trick")
            cur.take(_INT_OK, "a trick number")
    elif first == "penalty":
        cur.i += 1
        cur.take(_SIDE_OK, "the player or side charged, like N or EW")
        cur.take(_INT_OK, "the points of the penalty")
        if cur.peek() is None:
            raise cur.fail("the reason of the penalty (like 'table talk')")
        if (cur.peek() or "").startswith('"'):
            raise cur.fail('a reason in double quotes that ends the line (a quote inside it '
                           'is written \\"), or a reason without quotes')
        return
    elif first == "trump":
        cur.i += 1
        cur.take(_TRUMP_OK, "a suit: C, D, H or S (or NT)")
        cur.word("maker")
        cur.take(_SEAT_P, _A_SEAT)
        if (cur.peek() or "").lower() == "alone":
            cur.i += 1
        if (cur.peek() or "").lower() == "defend":
            cur.i += 1
            cur.take(_SEAT_P, _A_SEAT)
        if (cur.peek() or "").lower() == "bid":
            cur.i += 1
            if (cur.peek() or "").lower() == "moon":
                cur.i += 1
            else:
                cur.take(_INT_OK, "a trick bid like 4 or moon")
        if cur.peek() is not None:
            cur.word("tricks")
            if _SEAT_P.fullmatch(cur.peek() or ""):
                while cur.peek() is not None:
                    cur.take(_SEAT_P, _A_SEAT)
                    cur.take(_INT_OK, "a number of tricks")
            else:
                cur.take(_INT_OK, "a number of tricks, or each seat's tricks like 'N 2 E 1'")
    elif first == "thrown":
        cur.i += 1
        cur.word("in")
    elif first in ("points", "total"):
        cur.i += 1
        if first == "points":
            if not _sides(cur, "total"):
                raise cur.fail("a side like NS and its points")
            if cur.peek() is not None:
                cur.word("total")
        if _sides(cur, "") == 0 and first == "total":
            raise cur.fail("a side like NS and its total")
    elif first == "result":
        cur.i += 1
        _sides(cur, "winner")
        if cur.peek() is not None:
            cur.word("winner")
            cur.take(_SIDE_OK, "the winning side, like NS")
    elif first == "unfinished":
        cur.i += 1
    else:
        raise cur.fail("a line such as deal, hands, up, bid, a trick like '1. N: 9H', "
                       "points or result")
    cur.done()


_TAG_NAME_RE = re.compile(TAG_NAME)
_TAG_VALUE_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _diagnose_tag(text: str, pos: int) -> None:
    """_Places the first wrong character of a tag that starts at ``pos``."""
    name = _TAG_NAME_RE.match(text, pos + 1)
    if name is None:
        raise _DiagnosisError(pos + 1, "expected a tag name (a letter, then letters, digits, "
                                       "_ + or -) after [")
    at = name.end()
    while at < len(text) and text[at] in " \t":
        at += 1
    value = _TAG_VALUE_RE.match(text, at)
    if value is None:
        what = ("a closing \" (the value runs to the end of the line)"
                if text[at:at + 1] == '"' else 'the value in double quotes, like "Club night"')
        raise _DiagnosisError(at, f"expected {what}")
    at = value.end()
    while at < len(text) and text[at] in " \t":
        at += 1
    found = text[at:at + 1]
    hint = ' (a quote inside a value is written \\")' if found not in ("", "\n", "\r") else ""
    raise _DiagnosisError(at, f"expected ] to close the tag{hint}")


def diagnose_line(text: str, start: int = 0) -> tuple[int, str]:
    """Finds the first wrong word of a line the grammar refused: its 0-based column and
    what was expected there, in words.

    >>> diagnose_line("  1. N: 9H E: 1H")
    (14, "expected a card like 9H, TS or ??, found '1H'")
    """
    while start < len(text) and text[start] in " \t":
        start += 1
    try:
        _diagnose(text, start)
    except _DiagnosisError as d:
        return d.column, d.message
    return start, "this line cannot stand here"


# ------------------------------------------------------------------ splitting into games


def split_games(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Splits the lines of a file into games: yields (first line number, text) per game.

    A game starts at a tag line that follows a line of another kind; the comment lines
    just above it belong to it.
    """
    chunk: list[str] = []
    first = 1
    pending = 0  # trailing comment or blank lines at the end of ``chunk``
    seen_body = False
    number = 0
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#"):
            chunk.append(line)
            pending += 1
            continue
        if stripped.startswith("[") and seen_body:
            keep = len(chunk) - pending
            yield first, "\n".join(chunk[:keep]) + "\n"
            chunk = chunk[keep:]
            first = number - len(chunk)
            seen_body = False
        elif not stripped.startswith("["):
            seen_body = True
        chunk.append(line)
        pending = 0
    if chunk and any(s.strip() for s in chunk):
        yield first, "\n".join(chunk) + "\n"
    del number


# ------------------------------------------------------------------ the line reader

_HEADS = ("opening", "deal", "end")
"""The rules of the grammar that start with a line of their own (a deal's lines are the
alternatives of ``body_line``, each named by its alias)."""


class _Lines:
    """The grammar's line terminals, from the LALR parser Lark built from euchre.lark: the
    reader matches each line with all of them at once, so the syntax of a line, and the word
    that starts it, are written once, in the grammar."""

    def __init__(self, lark: Lark) -> None:
        self.kinds: dict[str, str] = {}
        """What each line terminal starts: its rule in ``_HEADS``, or a deal's line alias."""
        for rule in lark.rules:
            head = rule.expansion[0] if rule.expansion else None
            if head is None or not head.is_term:
                continue
            if rule.origin.name == "body_line" and rule.alias:
                self.kinds[head.name] = rule.alias
            elif rule.origin.name in _HEADS:
                self.kinds[head.name] = rule.origin.name
        patterns = {t.name: t.pattern.to_regexp() for t in lark.terminals}
        self.match = re.compile("|".join(f"(?P<{name}>{patterns[name]})"
                                         for name in self.kinds)).fullmatch
        """Matches a whole line with the one terminal that takes it (``lastgroup``)."""
        self.terminal = {name: re.compile(patterns[name]).fullmatch for name in self.kinds}
        """Matches a whole line with one terminal."""
        self.recent: dict[str, str] = {}
        """The terminal that last took a line starting with each character: tried alone
        first, it spares trying the others in turn."""
        self.tag = re.compile(patterns["TAG"] + r"[ \t\f]*").match


def _read_lines(text: str, lines: _Lines, first_line: int = 1,
                fold: bool = False) -> GameForm | list[str] | None:
    """Reads one game line by line, matching each line with its terminal, into its form as
    the LALR parse gives it; ``None`` for anything else (a line no terminal takes, an order
    the grammar may refuse), which the LALR parser then reads or places. Returns the comment
    lines instead when the text holds comments only.

    :raises NotationError: for a game of good syntax that a line builder refuses, as the
        LALR parse would.
    """
    if not text.endswith("\n") or "\f" in text or (
            "\r" in text and "\r" in text.replace("\r\n", "\n")):
        return None
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    match, terminal, recent, kinds = lines.match, lines.terminal, lines.recent, lines.kinds
    assembler = _GameAssembler(fold=fold)
    feed = assembler.line
    refused: NotationError | None = None
    """A builder's error: raised once every line is read, as the LALR parse would (a syntax
    error below it comes first)."""
    stage = 0
    """0: before the tags, 1: tags, 2: after the start line, 3: deals, 4: after the end."""
    rows = text.split("\n")
    rows.pop()  # the text ends with a line end
    for number, raw in enumerate(rows, first_line):
        content = raw.lstrip(" \t")
        if not content:
            continue
        first = content[0]
        if first == "#":
            assembler.pending.append(content[1:].strip())
            continue
        column = len(raw) - len(content) + 1
        if first == "[":
            if stage > 1:
                return None
            stage = 1
            tags: list[tuple[str, int, int]] = []
            at = 0
            while at < len(content) and content[at] == "[":
                m = lines.tag(content, at)
                if m is None:
                    return None
                tags.append((content[at:m.end()].rstrip(" \t\f"), number, column + at))
                at = m.end()
            rest = content[at:]
            if rest and rest[0] != "#":
                return None
            assembler.tag_line(tags, rest[1:].strip() if rest else None)
            continue
        cut = content.find("#")
        if cut < 0:
            note = None
            content = content.rstrip(" \t")
        else:
            note = content[cut + 1:].strip()
            content = content[:cut].rstrip(" \t")
        if stage == 0 or stage == 4:
            return None
        name = recent.get(first)
        if name is None or terminal[name](content) is None:
            m = match(content)
            if m is None:
                return None
            name = recent[first] = m.lastgroup or ""
        kind = kinds[name]
        if kind == "deal":
            stage = 3
        elif kind == "end":
            stage = 4
        elif kind == "opening":
            if stage != 1:
                return None
            stage = 2
        elif stage != 3:
            return None
        if refused is None:
            try:
                feed(kind, content, number, column, note)
            except NotationError as exc:
                refused = exc
    if stage == 0:
        return assembler.pending
    if stage < 3:
        return None
    if refused is not None:
        raise refused
    return assembler.finish()


def parse_game(text: str, first_line: int = 1) -> ParsedGame | list[str]:
    """Parses the text of one game whose first line is ``first_line`` of its file into its
    models (see :func:`read_game`).

    Returns the comment lines instead when the text holds only comments.

    :raises NotationError: on a syntax error, placed in the file.
    """
    read = read_game(text, first_line)
    if isinstance(read, list):
        return read
    return ParsedGame(validate_form(read.form, first_line), read.source)


def validate_form(form: Form, first_line: int = 1) -> Game:
    """The models of a game read in its JSON form (pydantic validates them here).

    :raises NotationError: for a value the models refuse, placed at the game.
    """
    try:
        return Game.model_validate(form)
    except ValidationError as exc:
        raise NotationError(f"invalid value: {exc.errors()[0]['msg'].lower()}",
                            first_line, 1, "") from None


def read_game(text: str, first_line: int = 1) -> GameForm | list[str]:
    """Reads the text of one game whose first line is ``first_line`` of its file into its
    JSON form and source map, without building models.

    Each line is matched with its terminal of the grammar; a game the line reader does not
    take is parsed by Lark's LALR parser, which also places every syntax error. Returns the
    comment lines instead when the text holds only comments.

    :raises NotationError: on a syntax error, placed in the file.
    """
    return _read_game(text, first_line, line_reader=True)


def _read_game(text: str, first_line: int, *, line_reader: bool) -> GameForm | list[str]:
    """:func:`read_game`, by the line reader first or by the LALR parser alone (the tests
    hold the two to the same results)."""
    lark, builder = _parser()
    builder.offset = first_line - 1
    text = text.lstrip("\ufeff")
    builder.fold = False
    if not text.isascii():
        _refuse_surrogates(text, first_line)
        builder.fold = any(letter in text for letter in _FOLDING)  # faster than a regex
    try:
        if line_reader:
            read = _read_lines(text, _line_terminals(lark), first_line, builder.fold)
            if read is not None:
                return read
        result: GameForm | list[str] = lark.parse(text)  # type: ignore[assignment]
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, first_line - 1) from None
    except NotationError as exc:  # from a line builder: add the caret display
        exc.context = exc.context or _context(text, exc.line - first_line + 1, exc.column)
        raise
    return result


def _refuse_surrogates(text: str, first_line: int) -> None:
    """Text that cannot be written as UTF-8 (lone surrogates) is refused where it stands."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        head = text[: exc.start]
        line = head.count("\n")
        column = exc.start - (head.rfind("\n") + 1) + 1
        raise NotationError("a character that is not text (a lone surrogate)",
                            first_line + line, column, _context(text, line + 1, column)) from None


@dataclass
class GameText:
    """The outcome of reading one game in bulk: the game, or the syntax error it has."""

    first_line: int
    parsed: ParsedGame | None = None
    error: NotationError | None = None
    comments: list[str] = field(default_factory=list)


def read_games(lines: Iterable[str]) -> Iterator[GameText]:
    """Reads games one by one, going on after a syntax error (bulk checking)."""
    for first, chunk in split_games(lines):
        try:
            result = parse_game(chunk, first)
        except NotationError as exc:
            yield GameText(first, error=exc)
            continue
        if isinstance(result, ParsedGame):
            yield GameText(first, parsed=result)
        else:
            yield GameText(first, comments=result)


def iter_log(lines: Iterable[str]) -> Iterator[LogItem]:
    """Reads notation game by game, holding no more than one game: yields each game (the
    comments after the last one in its ``after``), or, for a text with no game, its
    comment lines as one tuple.

    :raises NotationError: at the first syntax error.
    """
    held: Game | None = None
    comments: list[str] = []
    for item in read_games(lines):
        if item.error is not None:
            raise item.error
        if item.parsed is None:
            comments.extend(item.comments)
            continue
        if held is not None:
            yield held
        held = item.parsed.game
    if held is not None:
        if comments:
            held = held.model_copy(update={"after": held.after + tuple(comments)})
        yield held
    elif comments:
        yield tuple(comments)


def loads(text: str) -> Log:
    """Parses notation text, or the JSON forms of a log (a document or JSON Lines, read
    by :func:`~euchrelog.notation.jsonio.loads_json`), into a
    :class:`~euchrelog.models.Log`.

    >>> loads('{"tags": [{"name": "Event", "value": "x"}], "end": {"act": "unfinished"}}\\n'
    ...       ).games[0].tag("Event")
    'x'

    :raises NotationError: at the first syntax error of notation.
    :raises RecordError: for JSON that is not a log or a game a line.
    """
    if is_json(text):
        return loads_json(text.lstrip("\ufeff"))
    return log_of(iter_log(text_lines(text.lstrip("\ufeff"))))


def log_of(items: Iterable[LogItem]) -> Log:
    """The :class:`~euchrelog.models.Log` of what :func:`iter_log` yields."""
    items = list(items)
    games = tuple(i for i in items if isinstance(i, Game))
    comments = next((i for i in items if isinstance(i, tuple)), ())
    return Log(games=games, comments=comments)


def load(fp: TextIO) -> Log:
    """Reads notation, or either JSON form, from a text file object (see :func:`loads`)."""
    return loads(fp.read())

