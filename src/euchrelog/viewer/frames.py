"""The states a viewer page steps through: one frame after each act of each deal.

Every frame is computed here, by replaying the record through
:class:`~euchrelog.engine.DealState` (the lenient ``apply_*`` half, so a record with
mistakes still shows what it says), and holds what the page draws: each seat's cards and
card backs, the dummy or ghost hand, the upcard and the kitty or stock, the bidding so
far, trump and maker, the cards on the table and the trick's winner, the tricks each side
has won and the running score. The page's script only steps through these frames and
draws them; it knows no rule of the game.

The findings of :func:`~euchrelog.replay.replay` are tied to the frame of the act they
concern: by their line and column when the game came from notation, else by their deal,
trick and seat.

>>> from euchrelog.notation import parse_game
>>> parsed = parse_game('''[Variant "four-hand"] [Target "1"]
... deal 1 dealer N
...   trump H maker E tricks 3
...   points EW 1
... result EW 1 NS 0 winner EW
... ''')
>>> view = game_view(parsed.game, parsed.source)
>>> [frame["kind"] for frame in view["frames"]]
['deal', 'sheet', 'score']
>>> view["frames"][-1]["score"]
{'NS': 0, 'EW': 1}
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ..actions import exchange_act
from ..acts import Bid, Call, Declaration, Exchange, Merge, Number, Order, Pass, Play, Swap
from ..cards import UNKNOWN, Card, sort_hand
from ..engine import Action, DealState, HandInfo, Phase
from ..findings import Finding
from ..loci import Locus, SourceMap, act_loci
from ..models import Deal, Game, Line, Sheet
from ..replay import DealResult, DealTrace, GameReport, replay
from ..rules import Ruleset
from ..seats import Seat

if TYPE_CHECKING:
    from ..analysis import Review, Settings

Json = dict[str, Any]
"""A frame, a deal or a game of the page's data, as JSON-ready values."""

_SEAT_NAMES = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}


def comments(*lines: Line | None) -> list[str]:
    """The comments of lines of the record: those above each, then the one at its end."""
    found: list[str] = []
    for line in lines:
        if line is not None:
            found.extend(line.before)
            if line.note:
                found.append(line.note)
    return found


def card_text(card: Card | None) -> str:
    """A card as the page's data writes it: its notation, ``??`` when unknown."""
    return UNKNOWN if card is None else str(card)


def _cards(cards: Iterable[Card | None]) -> list[str]:
    return [card_text(c) for c in cards]


def _hand(info: HandInfo) -> Json:
    """The cards a hand is known to hold (in the order a hand is sorted) and its backs."""
    return {"cards": _cards(sort_hand(info.cards)), "backs": info.free}


def player_names(game: Game, seats: Iterable[Seat]) -> dict[str, str]:
    """The name of each seat's player from the name tags (``N`` or ``North``), or ``""``."""
    return {seat.value: game.tag(seat.value) or game.tag(_SEAT_NAMES[seat]) or ""
            for seat in seats}


def bid_text(bid: Bid) -> str:
    """A bid in words, without its seat: ``passes``, ``orders up``, ``calls hearts``."""
    if isinstance(bid, Pass):
        return "passes"
    if isinstance(bid, Order):
        return "orders up"
    if isinstance(bid, Call):
        return f"calls {bid.suit.noun}"
    if isinstance(bid, Number):
        return f"bids {bid.tricks}"
    assert isinstance(bid, Swap)
    return "swaps with the ghost hand"


def act_text(act: Exchange | Merge | Declaration) -> str:
    """An exchange, a dummy merge or a lone declaration in words, seat first."""
    seat = act.seat.value
    if isinstance(act, Exchange):
        if act.act == "declines":
            return f"{seat} declines the upcard"
        taken = f"takes {card_text(act.upcard)}" if act.upcard is not None else "takes the upcard"
        return f"{seat} {taken}, discards {card_text(act.discard)}"
    if isinstance(act, Merge):
        kept = f", keeps {' '.join(_cards(act.keeps))}" if act.keeps else ""
        return f"{seat} takes up the dummy{kept}"
    return f"{seat} goes alone" if act.act == "alone" else f"{seat} defends alone"


def sheet_text(sheet: Sheet) -> str:
    """A score-sheet line in words."""
    if sheet.thrown:
        return "thrown in: everyone passed"
    assert sheet.trump is not None and sheet.maker is not None
    parts = [f"score sheet: {sheet.trump.noun}, maker {sheet.maker}"]
    if sheet.alone:
        parts.append("alone")
    if sheet.defend is not None:
        parts.append(f"{sheet.defend} defends alone")
    if sheet.bid is not None:
        parts.append(f"bid {sheet.bid}")
    if sheet.tricks is not None:
        parts.append(f"{sheet.tricks} tricks")
    if sheet.taken is not None:
        parts.append("taken " + " ".join(f"{s} {n}" for s, n in sheet.taken.items()))
    return ", ".join(parts)


class _DealFrames:
    """Builds the frames of one deal, act by act."""

    def __init__(self, rules: Ruleset, d: int, state: DealState, totals: Mapping[str, int],
                 kitty: tuple[Card | None, ...] | None, source: SourceMap | None) -> None:
        self.rules = rules
        self.d = d
        self.state = state
        self.totals = dict(totals)
        self.kitty = kitty
        self.source = source
        self.bids: list[list[str]] = []
        self.frames: list[Json] = []
        self.sheet: Sheet | None = None
        self.hands: dict[tuple[int, int], Json] = {}
        """Each hand as the frames show it, by what the record tells of it (a hand
        unchanged from one frame to the next is drawn once)."""
        self.discards: list[str] | None = None
        """The discards, until an act other than a play (which discards nothing)."""

    def hand(self, info: HandInfo) -> Json:
        """A hand as a frame shows it (see :func:`_hand`)."""
        key = (info.known, info.free)
        shown = self.hands.get(key)
        if shown is None:
            shown = self.hands[key] = _hand(info)
        return shown

    def place(self, locus: Locus) -> list[int]:
        """The line and column of a part of the record (none without a source)."""
        if self.source is None:
            return []
        return list(self.source.find(locus))

    def add(self, kind: str, text: str, locus: Locus, *, mark: Play | None = None,
            trick: int = 0, notes: list[str] | None = None) -> None:
        """Appends the frame of the state as it now stands, after the act ``text`` at
        ``locus`` (``mark``: the card it plays, in trick number ``trick``; ``notes``: the
        record's comments on it)."""
        state = self.state
        up = state.upcard
        up_place = "up" if up is None else state.place_of(up)
        turned = state.round == 2 or state.fixed_in_round == 2 or state.phase is Phase.THROWN
        table, winner, number = self.table()
        trump = self.sheet.trump if self.sheet is not None and state.trump is None \
            else state.trump
        maker = state.maker or (self.sheet.maker if self.sheet is not None else None)
        frame: Json = {
            "d": self.d, "kind": kind, "text": text, "at": self.place(locus),
            "hands": {s.value: self.hand(state.hands[s]) for s in state.seats},
            "extra": self.hand(state.extra) if state.extra_kind else None,
            "up": None if up is None and self.kitty is None else card_text(up),
            "upAt": ("down" if turned else "up") if up_place == "up" else "hand",
            "kitty": _cards(self.kitty) if self.kitty is not None else None,
            "discards": self.discarded(kind),
            "bids": [list(b) for b in self.bids],
            "trump": str(trump) if trump is not None else None,
            "maker": maker.value if maker is not None else None,
            "alone": state.alone.value if state.alone is not None else None,
            "defender": state.defender.value if state.defender is not None else None,
            "out": [s.value for s in state.sitting_out],
            "trick": trick or number, "table": table, "winner": winner,
            "turn": _seat(state.to_play()),
            "won": self.won(), "score": dict(self.totals),
            "sheet": sheet_text(self.sheet) if self.sheet is not None else None,
            "mark": [mark.seat.value, card_text(mark.card)] if mark is not None else None,
            "findings": [], "notes": notes or [],
        }
        self.frames.append(frame)

    def discarded(self, kind: str) -> list[str]:
        """The cards discarded so far (after a play, as before it)."""
        if kind != "play" or self.discards is None:
            self.discards = _cards(sort_hand(c for c, p in self.state.where.items()
                                             if p == "discard"))
        return self.discards

    def table(self) -> tuple[list[list[str]], str | None, int]:
        """The cards on the table: the trick being played, or the last one while the next
        has no card yet; its winner once it is whole; its number."""
        state = self.state
        if state.current:
            return ([[s.value, card_text(c)] for s, c in state.current], None,
                    len(state.tricks) + 1)
        if state.tricks:
            last = state.tricks[-1]
            return ([[s.value, card_text(c)] for s, c in last], _seat(state.winners[-1]),
                    len(state.tricks))
        return [], None, 0

    def won(self) -> dict[str, int | None]:
        """Tricks won so far by each side (``None``: a trick whose winner is unknown, or a
        deal of the score sheet, which gives no tricks one by one)."""
        rules = self.rules
        if self.sheet is not None and not self.state.tricks:
            return dict.fromkeys(rules.side_names)
        won: dict[str, int | None] = dict.fromkeys(rules.side_names, 0)
        for winner in self.state.winners:
            if winner is None:
                return dict.fromkeys(rules.side_names)
            side = rules.side(winner)
            count = won.get(side)
            if count is not None:
                won[side] = count + 1
        return won


def _seat(seat: Seat | None) -> str | None:
    return seat.value if seat is not None else None


def _deal_frames(game: Game, rules: Ruleset, d: int, totals: dict[str, int],
                 source: SourceMap | None, trace: DealTrace | None = None
                 ) -> tuple[list[Json], Json]:
    """The frames of deal ``d`` from the running ``totals`` before it, and its entry in the
    page's list of deals (the frames where it and each of its tricks begin): on the deal as
    its replay took it (``trace``: its state as dealt, and each bid and act as taken, a
    seat written wrongly shown as the seat it was read as), else as the record writes it."""
    deal = game.deals[d]
    taken: list[Action] = list(trace.acts) if trace is not None else [*deal.bids, *deal.acts]
    if trace is not None:
        state = trace.dealt.copy()
    else:
        extra = deal.extra.cards if deal.extra and deal.extra.kind == rules.extra_hand else None
        hands = {seat: list(cards) for line in deal.hands for seat, cards in line.cards.items()
                 if seat in rules.seats}
        state = DealState(rules, deal.dealer, hands=hands,
                          upcard=deal.up.card if deal.up else None,
                          kitty=deal.up.kitty if deal.up else None, extra=extra)
    builder = _DealFrames(rules, d, state, totals, deal.up.kitty if deal.up else None, source)
    builder.add("deal", f"deal {deal.number}: {deal.dealer} deals", ("deal", d),
                notes=comments(deal, *deal.hands, deal.extra, deal.up))
    k = 0
    for line in deal.bidding:
        for b, written in enumerate(line.bids):
            bid = taken[k] if k < len(taken) else written
            assert isinstance(bid, Pass | Order | Call | Number | Swap)  # (as it was written)
            state.apply_bid(bid)
            builder.bids.append([bid.seat.value, bid_text(bid)])
            builder.add("bid", f"{bid.seat} {bid_text(bid)}", ("deal", d, "bid", k),
                        notes=comments(line) if b == 0 else None)
            k += 1
    if deal.sheet is not None:
        builder.sheet = deal.sheet
        builder.add("sheet", sheet_text(deal.sheet), ("deal", d, "sheet"),
                    notes=comments(deal.sheet))
    for k, (act, locus) in enumerate(zip(deal.acts, act_loci(deal, d), strict=True),
                                     len(deal.bids)):
        state.apply_act(taken[k] if k < len(taken) else act)
        builder.add(locus[2], act_text(act), locus, notes=comments(act))  # exchange or decl
    discard = _untold_discard(state, deal)
    if discard is not None:  # the dealer never holds the discard during the play
        state.apply_act(exchange_act(state.dealer, state.upcard, discard))
        builder.discards = None
    tricks: list[int] = []
    for t, trick in enumerate(deal.tricks):
        tricks.append(len(builder.frames))
        for p, play in enumerate(trick.plays):
            state.apply_play(play)
            text = f"{play.seat} plays {card_text(play.card)}"
            if not state.current and state.tricks:
                winner = state.winners[-1]
                text += f": {winner} wins trick {trick.number}" if winner else ""
            builder.add("play", text, ("deal", d, "trick", t, "play", p), mark=play,
                        trick=trick.number, notes=comments(trick) if p == 0 else None)
        if state.current:  # a trick the record leaves short
            state.end_trick()
    entry: Json = {"number": deal.number, "dealer": deal.dealer.value, "frame": 0,
                   "tricks": tricks, "cards": bool(deal.hands or deal.tricks or deal.up)}
    return builder.frames, entry


class GameView:
    """One game's page data, made deal by deal: :meth:`deals` gives each deal's frames
    (the findings tied to them) and forgets them, so that a page can be written in memory
    bounded by one deal (:func:`~euchrelog.viewer.page.write_page`); :meth:`data` gives it
    all at once (:func:`game_view`).

    :param source: the game's source map, to tie findings to frames by line and column.
    :param report: the game's replay report (replayed here when not given).
    :param title: how the page names the game (default: :func:`game_title`).
    :param double_dummy: add the double-dummy review of every deal it can review (see
        :mod:`euchrelog.viewer.double_dummy`).
    :param single: with ``double_dummy``, add the single-dummy values of the review too,
        worked out with these settings.
    """

    def __init__(self, game: Game, source: SourceMap | None = None,
                 report: GameReport | None = None, title: str = "", *,
                 double_dummy: bool = False, single: Settings | None = None) -> None:
        if report is None:
            report = replay(game, source, trace=True if double_dummy else "acts")
        self.game, self.source, self.report = game, source, report
        self.double_dummy = double_dummy
        self.single = single if double_dummy else None
        self.counted: Callable[[int], object] | None = None
        """Told of each deal once its frames are made (a progress line)."""
        rules = report.ruleset
        self.head: Json = {
            "title": title or game_title(game), "tags": [[t.name, t.value] for t in game.tags],
            "variant": rules.variant.name, "seats": [s.value for s in rules.seats],
            "names": player_names(game, rules.seats), "sides": list(rules.side_names),
            "extraKind": rules.extra_hand, "kittyName": rules.variant.kitty_name,
            "totals": report.totals, "winner": report.winner,
            "comments": comments(*game.tags, game.start, game.end) + list(game.after),
        }
        if double_dummy:
            self.head["dd"] = True
        if self.single is not None:
            self.head["sd"] = {"samples": self.single.samples,
                               "exactLimit": self.single.exact_limit, "seed": self.single.seed}
        self.findings: list[Json] = [_finding(f) for f in report.findings]
        """Every finding of the game; each one's ``frame`` is known once its deal is made."""

    @property
    def title(self) -> str:
        """How the page names the game."""
        return str(self.head["title"])

    def deals(self) -> Iterator[tuple[Json, list[Json]]]:
        """Each deal's entry in the page's list of deals and its frames, in order (the
        frames numbered from the game's first), with the findings tied to them."""
        game, report, rules = self.game, self.report, self.report.ruleset
        start = game.start
        totals = {s: (start.total or {}).get(s, 0) if start else 0 for s in rules.side_names}
        placed = self._findings_by_deal()
        reviews = iter(self._reviews())
        offset = 0
        for d, deal in enumerate(game.deals):
            result = report.deals[d] if d < len(report.deals) else None
            frames, entry = _deal_frames(game, rules, d, totals, self.source,
                                         result.trace if result is not None else None)
            if result is not None:
                totals = dict(result.totals)
            score = _score_frame(frames[-1], deal, result, totals)
            if self.source is not None and deal.score is not None:
                part = "points" if deal.score.points is not None else "total"
                score["at"] = list(self.source.find(("deal", d, part)))
            entry["score"] = len(frames)
            frames.append(score)
            for k, by_line in placed.get(d, ()):
                at = _frame_of(report.findings[k], frames, entry, by_line)
                self.findings[k]["frame"] = at + offset
                frames[at]["findings"].append(k)
            _mark_faults(frames, self.findings)
            reviewed = next(reviews, None)
            if reviewed is not None:
                from .double_dummy import add_review

                add_review(entry, frames, *reviewed)
            entry["frame"] += offset
            entry["tricks"] = [k + offset for k in entry["tricks"]]
            entry["score"] += offset
            offset += len(frames)
            yield entry, frames
            if self.counted is not None:
                self.counted(1)

    def _reviews(self) -> Iterator[tuple[Review, DealState | None]]:
        """The review of each deal, in order (none without the layer), with its par table
        and, when asked for, its single-dummy values, riding the game's replay where it
        kept the deals as taken; with the deal's state at the opening lead (``None``: not
        known), which scores its decisions."""
        if not self.double_dummy:
            return
        from ..analysis import review_game

        report = self.report
        if any(r.trace is None for r in report.deals):
            report = replay(self.game, trace=True)
        deals = report.deals
        for d, review in enumerate(review_game(self.game, par=True, report=report,
                                               single=self.single)):
            trace = deals[d].trace if d < len(deals) else None
            yield review, trace.lead if trace is not None else None

    def _findings_by_deal(self) -> dict[int, list[tuple[int, bool]]]:
        """The deal of each finding that has one, by index: the deal whose lines hold its
        line (``True``: found by line and column), else the first deal of its number."""
        source, deals = self.source, self.game.deals
        starts = [source.find(("deal", d))[0] for d in range(len(deals))] if source else []
        if starts != sorted(starts):
            starts = []
        first: dict[int, int] = {}
        for d, deal in enumerate(deals):
            first.setdefault(deal.number, d)
        placed: dict[int, list[tuple[int, bool]]] = {}
        for k, finding in enumerate(self.report.findings):
            d = bisect_right(starts, finding.line) - 1 if finding.line else -1
            by_line = d >= 0
            if not by_line:
                d = first.get(finding.deal, -1) if finding.deal is not None else -1
            if d >= 0:
                placed.setdefault(d, []).append((k, by_line))
        return placed

    def data(self) -> Json:
        """The whole page data of the game: :attr:`head`, every frame, deal and finding."""
        frames: list[Json] = []
        deals: list[Json] = []
        for entry, shown in self.deals():
            deals.append(entry)
            frames.extend(shown)
        return {**self.head, "findings": self.findings, "deals": deals, "frames": frames}


def game_view(game: Game, source: SourceMap | None = None,
              report: GameReport | None = None, title: str = "") -> Json:
    """The page's data for one game: its tags, seats and players, and every frame (see
    :class:`GameView`)."""
    return GameView(game, source, report, title).data()


def _untold_discard(state: DealState, deal: Deal) -> Card | None:
    """After an order up that the record leaves without its exchange line: the dealer's
    discard, when the play tells it (of the dealer's whole hand and the upcard, the one
    card the dealer never plays); ``None`` when there is no such exchange due, or the
    record does not tell it (a hand not wholly known, a deal left short)."""
    up = state.upcard
    if up is None or state.dealer not in state.hands or not state.exchange_due:
        return None
    hand = state.hands[state.dealer]
    if hand.free or not hand.known:
        return None
    held = {*hand.cards, up}
    played = {p.card for t in deal.tricks for p in t.plays if p.seat == state.dealer}
    left = held - played
    return left.pop() if len(held) == len(hand.cards) + 1 == len(played) + 1 and (
        played <= held and len(left) == 1) else None


def game_title(game: Game, index: int = 1) -> str:
    """How the page names a game: its Event, Round and Table tags, else its number in its
    file."""
    parts = [game.tag("Event") or f"Game {index}"]
    parts += [f"{word} {game.tag(word)}" for word in ("Round", "Table") if game.tag(word)]
    return ", ".join(parts)


def _mark_faults(frames: list[Json], findings: list[Json]) -> None:
    """Gives each frame the cards on its table whose play has a finding (``faults``: seat,
    card and the findings' words)."""
    played: dict[tuple[int, int, str], int] = {}
    for k, frame in enumerate(frames):
        if frame["kind"] == "play" and frame["mark"]:
            played.setdefault((frame["d"], frame["trick"], frame["mark"][0]), k)
    for frame in frames:
        faults = []
        for seat, code in frame["table"]:
            at = played.get((frame["d"], frame["trick"], seat))
            if at is not None and frames[at]["findings"]:
                words = "; ".join(f"{findings[i]['code']} {findings[i]['message']}"
                                  for i in frames[at]["findings"])
                faults.append([seat, code, words])
        frame["faults"] = faults


def _score_frame(last: Json, deal: Deal, result: DealResult | None,
                 totals: dict[str, int]) -> Json:
    """The frame after a deal's points: the last frame of its play, with the points the
    replay scored, those written and the running totals after it."""
    written = ({"points": deal.score.points, "total": deal.score.total}
               if deal.score is not None else None)
    return {**last, "kind": "score", "text": _score_text(deal.number, result), "at": [],
            "mark": None, "findings": [], "score": dict(totals),
            "notes": comments(*deal.claims, *deal.penalties, deal.score),
            "points": result.points if result is not None else None, "written": written,
            "penalties": [[c.side, c.points, c.reason] for c in result.penalties]
            if result is not None else []}


def _score_text(number: int, result: DealResult | None) -> str:
    if result is None:
        return f"deal {number}: not scored (recorded after the game ended)"
    if result.thrown:
        return f"deal {number}: thrown in, no points"
    points = result.points
    if points is None:
        return f"deal {number}: the points cannot be told from the record"
    scored = " ".join(f"{s} {n}" for s, n in points.items() if n) or "no points"
    return f"deal {number}: {scored}"


def _finding(finding: Finding) -> Json:
    return {"code": finding.code, "message": finding.message, "severity": finding.severity,
            "line": finding.line, "column": finding.column, "sheet": finding.kind.sheet,
            "frame": None}


def _frame_of(finding: Finding, frames: list[Json], entry: Json, by_line: bool) -> int:
    """The frame (of its deal's ``frames``) of the act a finding concerns: the act at its
    line and column, else the last act on or above its line (``by_line``); without a
    place, by its trick and seat, the score frame for a finding of the score sheet, else
    the deal's first frame."""
    if by_line:
        here = [finding.line, finding.column]
        exact = next((k for k, f in enumerate(frames) if f["at"] == here), None)
        if exact is not None:
            return exact
        above = [k for k, f in enumerate(frames) if f["at"] and f["at"][0] <= finding.line]
        if above:
            return max(above, key=lambda k: (frames[k]["at"][0], k))
    if finding.kind.sheet:
        return int(entry["score"])
    if finding.trick is not None and finding.seat is not None:
        for k, frame in enumerate(frames):
            if (frame["kind"] == "play" and frame["trick"] == finding.trick
                    and frame["mark"] and frame["mark"][0] == finding.seat):
                return k
    return int(entry["frame"])
