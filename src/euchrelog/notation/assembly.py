"""Assembly of a game: each line fed to the one assembler, which makes of it what its
output asks (:class:`Output`): the JSON form of the game's models and its source map, or
the fast parts form (:mod:`.parts`: what the engine's bulk entry replays of each deal).

The line reader (:mod:`.lines`) feeds :class:`GameAssembler` each line as it matches it,
the LALR parse (:mod:`.parser`) the lines of its tree; the row of each kind of line
(:mod:`.kinds`) names its builder of each output and its placer (:mod:`.places`).
:func:`validate_form` makes the models of the form.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..acts import act_kind
from ..cards import Card, parse_trump
from ..errors import NotationError
from ..loci import Locus, Placer, SourceMap
from ..rules import MOON
from ..seats import Seat

if TYPE_CHECKING:
    from ..models import Game

from .patterns import (
    CLAIM_RE,
    DECLARE_RE,
    EXTRA_RE,
    FOLD,
    HAND_RE,
    MERGE_RE,
    PENALTY_RE,
    SHEET_RE,
    SPELLING,
    START_RE,
    TAG_RE,
    TAKEN_RE,
    TOTAL_SPLIT_RE,
    WINNER_RE,
)
from .places import (
    nth_match,
    place_deal,
    place_score,
    placed_at,
    read_placed_cards,
    read_placed_sides,
)

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


@dataclass
class GameForm:
    """One game as read from notation, in its JSON form, with the source map for its
    findings."""

    form: Form
    source: SourceMap


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value) if "\\" in value else value


Builder = Callable[["GameAssembler", str, int, int], Form]
"""Makes one line of a deal into the assembler's output: called with the assembler, the
line's text, its line number in the file and its 1-based column; returns the line's form,
to which the assembler adds its comments (the parts form returns an empty one)."""


@dataclass(frozen=True)
class Output:
    """What :class:`GameAssembler` makes of a game (see :mod:`.kinds`, which makes one for
    the JSON form and one for the parts form)."""

    body: dict[str, Builder]
    """The builder of each line of a deal, by its alias in the grammar."""
    before_play: dict[str, str]
    """The lines that must come before the first trick, by alias, named for the message."""
    placers: dict[str, Placer]
    """The placer of each kind of line kept to be placed when a finding asks."""
    opened: Callable[[GameAssembler], None] | None
    """Starts what the output keeps of a new deal, once the deal line is read."""
    closed: Callable[[GameAssembler], None]
    """Puts what was read of the deal into the output (the next deal, or the end, is
    read)."""


class GameAssembler:
    """Builds one game line by line into its output (:class:`Output`), recording every
    position: the line reader gives it each line as it matches it, the LALR parse the
    lines of its tree.

    Lines come with their line number in the file and their 1-based column. The builders
    of the JSON form are its methods (:meth:`trick`, :meth:`hands`, ...); those of the
    parts form (:mod:`.parts`) keep what they read in the attributes below ``parts``."""

    def __init__(self, output: Output, offset: int = 0, fold: bool = False) -> None:
        self.output = output
        self.offset = offset
        """The line of the file before the game's first (for the LALR parse's lines)."""
        self.body: dict[str, Builder] = output.body
        """The builder of each line of a deal, by its alias in the grammar."""
        self.before_play = output.before_play
        self.fold = fold
        """Whether the game holds a letter that only case-insensitive matching takes for an
        ASCII one (see ``FOLDING``)."""
        self.places: dict[Locus, tuple[int, int]] = {}
        self.lines: dict[Locus, tuple[str, int, int]] = {}
        self.later: list[tuple[Any, ...]] = []
        """The lines whose parts are placed when a finding asks (see :class:`SourceMap`)."""
        self.last = 0
        """The number of the last line read that is not a comment."""
        self.pending: list[str] = []
        """The comment lines read since the last line, for the ``before`` of the next."""
        self.unmatched: int | None = None
        """The line that no terminal of the line reader takes, once it has met one."""
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
        # The parts form (:mod:`.parts`): each deal's parts, and those of the deal being read.
        self.parts: list[Any] = []
        """The :class:`~.parts.Parts` of each deal read."""
        self.rare: list[tuple[int, tuple[int, str, str, int]]] = []
        """The lines of a deal that are placed as they are read, not kept for later (each
        deal's and line's number, kind, text and column), for the JSON form of a deal made
        when asked (:attr:`euchrelog.bulk.PartsRead.form_of`)."""
        self.hands_read: dict[Seat, list[Card | None]] | None = None
        self.extra_read: tuple[str, list[Card | None]] | None = None
        self.up_read: tuple[Card | None, list[Card | None] | None] | None = None
        self.bids: list[Any] = []
        self.exchange_read: Any = None
        self.acts: list[Any] = []
        self.plays: list[list[tuple[Seat, Card | None]]] = []
        self.sheet_read: tuple[tuple[str, Any], ...] | None = None
        """The deal's score-sheet (or thrown) line, as :func:`~.parts.sheet_key` gives it."""
        self.modelled = False
        """Whether a line of the game makes the game loop read its models (a score-sheet,
        thrown-in or penalty line, which the loop's plain head declines): its points lines
        are then read as models too."""

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
        return GameForm(game, SourceMap(self.places, self.lines, self.later,
                                        self.output.placers))

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
            m = TAG_RE.fullmatch(text)
            assert m is not None
            tag_note = note if i == last else None
            self.tags.append(_commented({"name": m.group(1), "value": _unescape(m.group(2))},
                                        self.above(), tag_note))

    def line(self, kind: str, text: str, line: int, column: int, note: str | None) -> None:
        """One line of the game that is not a tag line: ``kind`` is its rule in the grammar
        (``opening``, ``deal``, ``end``) or, for a line of a deal, its alias."""
        self.last = line
        if self.fold and kind != "penalty":  # a penalty's reason is kept as written
            text = text.translate(FOLD)
        build = self.body.get(kind)
        if build is not None:
            before = self.pending
            if before:  # as self.above(), in the hottest path
                self.pending = []
            if self.tricks and kind in self.before_play:
                raise NotationError(f"{self.before_play[kind]} must come before the first "
                                    "trick", line, column)
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
        m = START_RE.match(text)
        assert m is not None
        self.places[("start",)] = (line, column)
        form: Form = {}
        if m.group(1) is not None:
            self.places[("start", "deal")] = (line, column + m.start(1))
            if int(m.group(1)) < 1:
                raise NotationError("a deal number starts at 1", line, column + m.start(1))
            form["deal"] = int(m.group(1))
        split = TOTAL_SPLIT_RE.search(text)
        if split:
            cut = split.start()
            self.places[("start", "total")] = (line, column + cut)
            form["total"] = read_placed_sides(self.places, text[cut:], line, column + cut,
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
            wm = WINNER_RE.search(text)
            if wm:
                self.places[("end", "winner")] = (line, column + wm.start(1))
                body = text[: wm.start()]
            scores = read_placed_sides(self.places, body, line, column, ("end", "score"))
            if scores:
                form["scores"] = scores
            if wm:
                form["winner"] = wm.group(1).upper()
        return form

    def close_deal(self) -> None:
        """Puts what was read of the deal being read into the output."""
        self.output.closed(self)

    def close_form(self) -> None:
        """Puts the lists of the deal being read into its form (the JSON form's
        :attr:`Output.closed`)."""
        form = self.deal_form
        for name, lines in (("hands", self.hand_lines), ("bidding", self.bid_lines),
                            ("declarations", self.decls), ("tricks", self.tricks),
                            ("claims", self.claims), ("penalties", self.penalties)):
            if lines:
                form[name] = lines

    def deal(self, text: str, line: int, column: int, note: str | None) -> None:
        self.output.closed(self)  # as self.close_deal(), in the hot path
        _, number, _, dealer = text.split()
        d = self.d = len(self.deals)
        self.keep("deal", text, line, column)
        if int(number) < 1:
            raise NotationError("a deal number starts at 1",
                                *placed_at(("deal", d, "number"), place_deal, text, line,
                                           column, d))
        self.deal_form = _commented({"number": int(number), "dealer": dealer.upper()},
                                    self.above(), note)
        self.deals.append(self.deal_form)
        self.hand_lines, self.bid_lines, self.decls = [], [], []
        self.tricks, self.claims, self.penalties = [], [], []
        self.nbids = 0
        self.merged = False
        opened = self.output.opened
        if opened is not None:
            opened(self)

    def trick(self, text: str, line: int, column: int) -> Form:
        number, words = trick_words(text, line, column)
        tricks = self.tricks
        self.keep("trick", text, line, column, len(tricks))
        form = {"number": number, "plays": [{"seat": seat.upper(), "card": SPELLING[next(words)]}
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
                cards.append(SPELLING[word])
                continue
            seat = word.upper()
            if seat in seats or seat in earlier:
                raise NotationError(f"the hand of {seat} is written twice", line,
                                    column + nth_match(HAND_RE, text, len(seats)).start(1))
            cards = seats[seat] = []
        self.keep("hands", text, line, column)
        form: Form = {"cards": seats}
        hands.append(form)
        return form

    def up(self, text: str, line: int, column: int) -> Form:
        if "up" in self.deal_form:
            raise NotationError("a deal has one up line", line, column)
        words = text.split()  # up, the card, then kitty and its cards
        up: Form = {"card": SPELLING[words[1]]}
        if len(words) > 2:
            up["kitty"] = [SPELLING[c] for c in words[3:]]
        self.keep("up", text, line, column)
        self.deal_form["up"] = up
        return up

    def bid(self, text: str, line: int, column: int) -> Form:
        bids = bid_forms(text)
        self.keep("bid", text, line, column, self.nbids)
        self.nbids += len(bids)
        form: Form = {"bids": bids}
        self.bid_lines.append(form)
        return form

    def extra(self, text: str, line: int, column: int) -> Form:
        if "extra" in self.deal_form:
            raise NotationError("a deal has one dummy or ghost line", line, column)
        kind, cards = self.read_extra(text, line, column)
        form: Form = {"kind": kind, "cards": cards}
        self.deal_form["extra"] = form
        return form

    def read_extra(self, text: str, line: int, column: int) -> tuple[str, list[str]]:
        """The kind and cards of a dummy or ghost line, placed."""
        xm = EXTRA_RE.fullmatch(text)
        assert xm is not None
        self.places[("deal", self.d, "extra")] = (line, column)
        return xm.group(1).lower(), read_placed_cards(self.places, xm.group(2), line,
                                                      column + xm.start(2),
                                                ("deal", self.d, "extra", "card"))

    def merge(self, text: str, line: int, column: int) -> Form:
        if self.merged:
            raise NotationError("a deal has one merge line", line, column)
        self.merged = True
        mm = MERGE_RE.fullmatch(text)
        assert mm is not None
        decls = self.decls
        self.places[("deal", self.d, "decl", len(decls))] = (line, column)
        merge: Form = {"act": "merge", "seat": mm.group(1).upper()}
        if mm.group(2) is not None:
            merge["keeps"] = read_placed_cards(self.places, mm.group(2), line, column + mm.start(2),
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
        self.keep_exchange(text, line, column)
        exchange = exchange_form(text)
        if merged:
            decls.append(exchange)
        else:
            self.deal_form["exchange"] = exchange
        return exchange

    def declare(self, text: str, line: int, column: int) -> Form:
        dm = DECLARE_RE.fullmatch(text)
        assert dm is not None
        decls = self.decls
        self.places[("deal", self.d, "decl", len(decls))] = (line, column + dm.start(2))
        form: Form = {"act": dm.group(1).lower(), "seat": dm.group(2).upper()}
        decls.append(form)
        return form

    def keep(self, kind: str, text: str, line: int, column: int, *more: int) -> None:
        """Keeps a line of the deal being read, of ``kind``, to be placed when a finding
        first asks (see :class:`~euchrelog.loci.SourceMap`)."""
        self.later.append((kind, self.d, text, line, column, self.d, *more))

    def keep_exchange(self, text: str, line: int, column: int) -> None:
        """Keeps the exchange line of the deal being read, as :meth:`keep` does."""
        merged = self.merged
        self.later.append(("exchange", self.d, text, line, column,
                           ("deal", self.d, "decl", len(self.decls)) if merged
                           else ("deal", self.d), merged))

    def claim(self, text: str, line: int, column: int) -> Form:
        cm = CLAIM_RE.fullmatch(text)
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
        penm = PENALTY_RE.fullmatch(text)
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
        self.keep("sheet", text, line, column)
        sm = SHEET_RE.fullmatch(text)
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
            for km in TAKEN_RE.finditer(text, sm.start(6)):
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
        score = score_form(text, line, column, self.d)
        self.keep("score", text, line, column)
        self.deal_form["score"] = score
        return score



def trick_words(text: str, line: int, column: int) -> tuple[int, Iterator[str]]:
    """The number of a trick line and its words: each seat, then its card."""
    head, _, rest = text.partition(".")
    number = int(head)
    if number < 1:
        raise NotationError("a trick number starts at 1", line, column)
    return number, iter(rest.replace(":", " ").split())


def exchange_form(text: str) -> Form:
    """The dealer's exchange of an exchange line, in the JSON form."""
    words = text.split()  # the seat, then takes and the card, discards and the card
    exchange: Form = {"seat": words[0].upper()}
    if words[1].lower() == "declines":
        exchange["act"] = "declines"
    else:
        exchange["act"] = "takes"
        if words[1].lower() == "takes":
            exchange["takes"] = True
            exchange["upcard"] = SPELLING[words[2]]
        exchange["discard"] = SPELLING[words[-1]]
    return exchange


def score_form(text: str, line: int, column: int, d: int) -> Form:
    """The points (and running total) of deal ``d``'s points line, in the JSON form."""
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
            place_score({}, {}, text, line, column, d)
        sides[side] = int(words[i + 1])
        i += 2
    return score


def bid_forms(text: str) -> list[Form]:
    """The bids of a bid line, in the JSON form (its syntax proved by its terminal)."""
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
    return bids


def validate_form(form: Form, first_line: int = 1) -> Game:
    """The models of a game read in its JSON form (pydantic validates them here).

    :raises NotationError: for a value the models refuse, placed at the game.
    """
    from pydantic import ValidationError

    from ..models import Game  # (the reader itself makes no model)
    try:
        return Game.model_validate(form)
    except ValidationError as exc:
        raise NotationError(f"invalid value: {exc.errors()[0]['msg'].lower()}",
                            first_line, 1, "") from None
