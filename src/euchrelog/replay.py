"""Replaying a whole game: every deal through :class:`~euchrelog.engine.DealState`, then the
points, running totals, dealer rotation, game end and winner.

Bulk mode (the default) collects every :class:`~euchrelog.findings.Finding` and goes on;
``strict=True`` raises the first one as an :class:`~euchrelog.errors.IllegalActionError`.

>>> from euchrelog.notation import loads
>>> game = loads('''[Variant "four-hand"] [Target "1"]
... deal 1 dealer N
...   trump H maker E tricks 3
...   points EW 1
... result EW 1 NS 0 winner EW
... ''').games[0]
>>> report = replay(game)
>>> report.findings, report.winner
([], 'EW')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from difflib import get_close_matches
from itertools import combinations, pairwise
from typing import TypeVar, cast

from .cards import NO_TRUMP, Card, deck_set
from .engine import Action, DealState, Phase, dealt_cleanly, evidence_message
from .errors import IllegalActionError, RenegeError
from .findings import Finding, Severity
from .loci import GameText, Locus, ParsedGame, SourceMap
from .models import Bid, Deal, Declaration, Exchange, Game, Merge, Swap, Trick
from .rules import MOON, Ruleset, TagProblem, ruleset_from_tags
from .seats import SEATS, Seat, clockwise_from

A = TypeVar("A", bound=Action)

RESEAT_CODES = frozenset({"B401", "B407", "B409", "K501", "K505", "A601", "A602", "P701", "P704"})
"""Faults that a seat letter written wrongly makes: the act may be the due seat's (P4)."""


@dataclass
class DealResult:
    """What one deal scored."""

    number: int
    dealer: Seat
    points: dict[str, int] | None
    """Points each side scored in the deal (``None`` when unknown)."""
    totals: dict[str, int]
    """Running totals after the deal."""
    maker: Seat | None = None
    trump: str | None = None
    alone: bool = False
    defender_alone: bool = False
    maker_tricks: int | None = None
    bid_round: int = 0
    """The bidding round that fixed trump: 1 (the upcard ordered up) or 2 (a suit named);
    0 when no round did (a Benny turned up, ghost's trick bids, a score-sheet line)."""
    defender: Seat | None = None
    """The lone defender, if one defended alone."""
    thrown: bool = False
    penalties: list[Charge] = field(default_factory=list)
    """The penalties charged in the deal (H6), already in ``totals``."""


@dataclass(frozen=True)
class Charge:
    """A penalty charged in a deal (H6): to a player, whose side loses the points, or to a
    side."""

    deal: int
    seat: Seat | None
    """The player charged, when the record names one (``None``: a side)."""
    side: str
    """The side whose running total loses the points."""
    points: int
    reason: str

    @classmethod
    def of(cls, rules: Ruleset, deal: int, who: str, points: int, reason: str
           ) -> Charge | None:
        """The charge of a penalty to ``who`` (a seat letter or a side), or ``None`` when
        no one of the game scores as ``who`` (C904)."""
        side = rules.side_of(who)
        if side not in rules.side_names:
            return None
        return cls(deal, Seat(who) if who in SEATS else None, side, points, reason)


@dataclass
class GameReport:
    """The outcome of replaying one game."""

    ruleset: Ruleset
    findings: list[Finding] = field(default_factory=list)
    deals: list[DealResult] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    ended: bool = False
    winner: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the replay found nothing."""
        return not self.findings

    @property
    def penalties(self) -> list[Charge]:
        """Every penalty charged in the game (H6), deal by deal."""
        return [charge for deal in self.deals for charge in deal.penalties]


class GameReplay:
    """The one game loop: deal numbers and dealers, each deal, points, penalties, running
    totals, the game's end and its last line, each finding reported through :meth:`emit`.

    :func:`replay` runs it; the fast path (:mod:`euchrelog.fast`) runs it too, with deals
    replayed by the engine's bulk entry and any finding declining the game.
    """

    def __init__(self, game: Game, source: SourceMap | None, strict: bool,
                 on_finding: Callable[[Finding], None] | None) -> None:
        self.game = game
        self.source = source
        self.strict = strict
        self.on_finding = on_finding
        tags: dict[str, str] = {}
        names: dict[str, int] = {}
        doubled: list[tuple[int, str]] = []
        for i, tag in enumerate(game.tags):
            key = tag.name.lower()
            if key in names:
                if tags[key] != tag.value:
                    doubled.append((i, tag.name))
                continue
            names[key] = i
            tags[key] = tag.value
        misspelt = None if "variant" in tags else next(
            (key for key in tags if get_close_matches(key, ["variant"], cutoff=0.8)), None)
        if misspelt is not None:
            # [Varaint "cutthroat"]: one finding at that tag, and the game is read as its value.
            tags["variant"] = tags[misspelt]
            names["variant"] = names[misspelt]
        self.ruleset, problems = ruleset_from_tags(tags)
        if misspelt is not None:
            name = game.tags[names[misspelt]].name
            problems.insert(0, TagProblem("T201", f"no Variant tag: {name} is read as Variant",
                                          "variant"))
        self.report = GameReport(self.ruleset)
        self.open_deal = False
        self.due: Seat | None = None
        """The dealer the rotation called for at the last deal."""
        self.held: list[tuple[Locus, Finding]] | None = None
        """Findings kept back, with their places, while readings of a deal are compared."""
        self.deal_now: Deal | None = None
        """The deal being replayed."""
        self.acts: list[Action | None] = []
        """The acts of the deal being replayed, in order (``None`` ends a trick)."""
        self.gaps: dict[int, int] = {}
        """Tricks missing from the record of the deal: how many before each trick."""
        self.readings_left = _SLIP_READINGS * len(game.deals)
        """Deal replays the one-card-slip search of this game may still make: so many a
        deal, shared by its deals (a record of faults checks in time linear in its size)."""
        self.playable = not any(p.code == "T202" for p in problems)
        for problem in problems:
            self.emit(problem.code, problem.message, ("tag", names.get(problem.tag, 0)))
        for i, name in doubled:
            self.emit("T205", f"the {name} tag is given twice with different values; the "
                              "first one counts", ("tag", i))

    def emit(self, code: str, message: str, locus: Locus, *, deal: int | None = None,
             trick: int | None = None, seat: Seat | str | None = None,
             level: Severity | None = None) -> None:
        finding = Finding(code, message, 0, 0, deal=deal, trick=trick,
                          seat=str(seat) if seat is not None else None, level=level)
        if self.held is not None:  # placed if it is kept
            self.held.append((locus, finding))
            return
        self.deliver_at(locus, finding)

    def deliver_at(self, locus: Locus, finding: Finding) -> None:
        """Places a finding at ``locus`` and reports it."""
        if self.source:
            line, column = self.source.find(locus)
            finding = replace(finding, line=line, column=column)
        self.deliver(finding)

    def deliver(self, finding: Finding) -> None:
        """Reports a finding: raises a fault in strict mode, else collects it."""
        code, message = finding.code, finding.message
        if self.strict and finding.is_fault:
            cls = RenegeError if code.startswith("R8") and code != "R803" else IllegalActionError
            raise cls(code, message)
        self.report.findings.append(finding)
        if self.on_finding is not None:
            self.on_finding(finding)

    # ------------------------------------------------------------------ game

    def run(self) -> GameReport:
        if not self.playable:
            return self.report  # an unknown variant: replaying it would only mislead
        rules = self.ruleset
        sides = rules.side_names
        start = self.game.start
        totals = {s: (start.total or {}).get(s, 0) if start else 0 for s in sides}
        for side in (start.total or {}) if start else ():
            if side not in sides:
                self.emit("C904", f"start total for {side}, but {rules.variant.name} scores "
                                  f"for {' and '.join(sides)}", ("start", "total", side))
        written = dict(totals)  # the running totals as the scorer kept them
        before = start.deal - 1 if start and start.deal else 0  # deals before the record
        ended = False
        counted = 0  # the deals that count among deals=N (H4)
        played = before
        previous: Deal | None = None
        # The final scores the result line may give: the true totals, and (after a slip in
        # the points or totals written, or deals after the end) the totals the scorer carried.
        readings = [totals]
        for d, deal in enumerate(self.game.deals):
            if ended:
                self.emit("D307", f"deal {deal.number} is recorded after the game ended",
                          ("deal", d), deal=deal.number)
                late = dict(totals)
                for extra in self.game.deals[d:]:
                    for side, n in (extra.score.points or {} if extra.score else {}).items():
                        late[side] = late.get(side, 0) + n
                readings.append(late)
                break
            due = self.check_sequence(d, deal, previous)
            previous = deal
            # The last deal of a record marked unfinished may stop anywhere, unless its
            # points were written.
            self.open_deal = (d == len(self.game.deals) - 1 and self.game.end is not None
                              and self.game.end.act == "unfinished" and deal.score is None)
            result = self.either_card(d, deal) if due is None else self.either_dealer(d, deal,
                                                                                       due)
            points = result.points
            if points is None:
                points = {k: v for k, v in (deal.score.points or {}).items()} if (
                    deal.score and deal.score.points is not None) else None
                if points is None and not self.open_deal:
                    self.emit("C905", f"deal {deal.number}: the points can be neither "
                                      "recomputed from the record nor read from it",
                              ("deal", d), deal=deal.number)
                points = points or {}
            for side, n in points.items():
                if side in totals:
                    totals[side] += n
            result.penalties = self.charges(d, deal)
            for charge in result.penalties:
                totals[charge.side] -= charge.points
            result.totals = dict(totals)
            self.check_written(d, deal, result.points, written, totals, result.penalties)
            self.report.deals.append(result)
            counted += rules.counts(result.thrown)
            played = before + counted
            outcome = rules.outcome(totals, played)
            if outcome is not None and not (self.open_deal and result.points is None):
                # (a deal of an unfinished record that was not played out ends nothing)
                ended = True
                self.report.winner = outcome.winner
        self.report.totals = totals
        self.report.ended = ended
        # The totals the scorer carried from a slip excuse a result only where, on the
        # scorer's own numbers too, the game ended.
        if any(f.code in ("C901", "C902") for f in self.report.findings) and (
                rules.outcome(written, played) is not None):
            readings.append(written)
        self.check_end(totals, readings)
        return self.report

    def either_dealer(self, d: int, deal: Deal, due: Seat) -> DealResult:
        """Replays a deal under the dealer written and the dealer due, and keeps the reading
        with fewer findings: a misspelt dealer is then one finding, D302."""
        readings = []
        choices = (deal.dealer, due) if deal.dealer in self.ruleset.seats else (due,)
        for dealer in choices:
            self.held = []
            result = self.deal(d, deal.model_copy(update={"dealer": dealer}))
            readings.append((len(self.held), result, self.held))
        self.held = None
        _, result, findings = min(readings, key=lambda r: r[0])
        result.dealer = deal.dealer
        for locus, finding in findings:
            self.deliver_at(locus, finding)
        return result

    def either_card(self, d: int, deal: Deal) -> DealResult:
        """Replays a deal as written and, when that leaves two faults or more, under each
        reading of one card behind them (see :func:`_slip_places`: played or dealt) as a
        card one letter away. A reading that leaves fewer faults, its own slip counted as
        one, is kept: a card written wrongly is then one finding, at the card (P4), and not
        the cascade of faults and wrong points behind it. Reneges are read away only by a
        reading of their trick's lead that leaves no fault at all, where the deal as
        written has three faults or more."""
        self.held = []
        result = self.deal(d, deal)
        written, self.held = self.held, None
        faults = [(locus, f) for locus, f in written if f.is_fault]
        best = self.card_reading(d, deal, result, faults) if faults else None
        findings = written
        if best is not None:
            place, card, result, findings = best
            self.emit_slip(d, deal, place, card, written)
        for locus, finding in findings:
            self.deliver_at(locus, finding)
        return result

    def card_reading(self, d: int, deal: Deal, result: DealResult,
                     faults: list[tuple[Locus, Finding]]) -> CardReading | None:
        """The reading of one card of deal ``d`` that :meth:`either_card` keeps, with its
        result and findings, if any: ``result`` and ``faults`` are the deal's as written."""
        best: CardReading | None = None
        # The slip itself is a finding too; the points written are evidence (C901).
        fewest = len(faults) + self.points_differ(deal, result.points) - 1
        deck = deck_set(self.ruleset.options.deck)
        seats, tricks = len(self.ruleset.seats), self.ruleset.variant.tricks
        readable = (fewest > 0 and len(deal.tricks) <= tricks + 1
                    and all(len(trick.plays) <= seats for trick in deal.tricks)
                    and _dealt_count(deal) <= self.ruleset.options.deck)
        places = _slip_places(deal, faults) if readable else []
        if fewest >= _MAX_SLIP_FAULTS:  # (an upcard written wrongly upsets the whole deal)
            places = [place for place in places if place[0] == ("up",)]
        readings = _exchanges(deal, faults) if readable and fewest < _MAX_SLIP_FAULTS else []
        readings += _candidates(deal, places[:_MAX_SLIP_PLACES], deck)
        for place, card in readings:
            where, why = place
            if why == "renege" and fewest < 2:
                continue
            if self.readings_left <= 0:
                break
            self.readings_left -= 1
            self.held = []
            reading = (_exchanged(deal, where, card) if why == "exchange"
                       else _with_card(deal, where, card))
            trial = self.deal(d, reading)
            count = sum(f.is_fault for _, f in self.held) + self.points_differ(
                reading, trial.points)
            if count < fewest and (why != "renege" or count == 0):
                best, fewest = (place, card, trial, self.held), count
            if fewest == 0:
                break
        self.held = None
        return best

    def emit_slip(self, d: int, deal: Deal, place: SlipPlace, card: Card,
                  written: list[tuple[Locus, Finding]]) -> None:
        """The one finding of a card written wrongly at ``place``, read as ``card``: the
        written card's own fault there, that it is played twice (P703) or recorded twice
        (D304), or that the rest of the deal fits the other card (P709)."""
        where, why = place
        locus: Locus = ("deal", d, *where)
        n = deal.number
        was = _card_at(deal, where)
        own = next((f for at, f in written if at == locus and f.code in _OWN_CODES), None)
        trick = deal.tricks[where[1]] if where[0] == "trick" else None
        seat = trick.plays[where[3]].seat if trick is not None else None
        doing = (f"{seat} plays {was} in trick {trick.number}" if trick is not None
                 else f"{was} ({_holder(deal, where)})")
        if own is not None:
            code, message = own.code, own.message
        elif why == "twice" and trick is not None:
            again = next(other.number for u, other in enumerate(deal.tricks)
                         for q, later in enumerate(other.plays)
                         if later.card == was and (u, q) != (where[1], where[3]))
            code, message = "P703", f"deal {n}: {doing}, and it is played again in trick {again}"
        elif trick is None and any(c == was and at != where for at, c, _ in _dealt(deal)):
            code, message = "D304", f"deal {n}: {doing} is recorded twice"
        else:
            shown = " ".join(sorted(f.code for _, f in written if f.is_fault))
            code, message = "P709", (f"deal {n}: {doing}, but the rest of the deal fits {card} "
                                     f"(as written it shows {shown})")
        taken = str(card)
        if why == "exchange" and trick is not None:
            other = trick.plays[_play_of(trick, card)]
            taken = f"{seat} {card} and {other.seat} {was}"
        self.emit(code, f"{message}; taken as {taken}", locus, deal=n,
                  trick=trick.number if trick is not None else None, seat=seat)

    def check_sequence(self, d: int, deal: Deal, previous: Deal | None) -> Seat | None:
        """Deal numbers and dealer rotation; returns the dealer due when it is not the one
        written."""
        seats = self.ruleset.seats
        thrown = bool(self.report.deals) and self.report.deals[-1].thrown
        if deal.dealer not in seats:
            due = (self.ruleset.next_dealer(previous.dealer, thrown) if previous
                   else clockwise_from(deal.dealer, seats)[0])
            where = (rotation(previous.number, previous.dealer, due, redealt=False) if previous
                     else f"the seats are {' '.join(seats)}")
            self.emit("D302", f"deal {deal.number} is dealt by {deal.dealer}, but "
                              f"{deal.dealer} has no player: {where}",
                      ("deal", d, "dealer"), deal=deal.number, seat=deal.dealer)
            self.due = due
            return due
        first = self.game.start.deal or 1 if self.game.start else 1
        expected = previous.number + 1 if previous else first
        # A deal numbered by its place is right too, so one wrong number is one finding.
        if deal.number not in (expected, d + first):
            self.emit("D301", f"deal {deal.number} follows deal {expected - 1}: expected deal "
                              f"{expected}", ("deal", d, "number"), deal=deal.number)
        if previous is not None:
            rules = self.ruleset
            want = rules.next_dealer(previous.dealer, thrown)
            # After a wrong dealer, the right one of the rotation is right too: one finding.
            also = rules.next_dealer(self.due, thrown) if self.due else want
            if deal.dealer not in (want, also):
                redealt = thrown and deal.dealer == previous.dealer
                self.emit("D302", f"deal {deal.number} is dealt by {deal.dealer}, but "
                                  f"{rotation(previous.number, previous.dealer, want, redealt)}",
                          ("deal", d, "dealer"), deal=deal.number, seat=deal.dealer)
                self.due = want
                return want
            self.due = deal.dealer
        else:
            self.due = deal.dealer
        return None

    def charges(self, d: int, deal: Deal) -> list[Charge]:
        """The penalties of a deal (H6), each charged to its side; a penalty to a player or
        side that does not play is reported (C904) and charges nothing."""
        rules = self.ruleset
        out = []
        for k, penalty in enumerate(deal.penalties):
            charge = Charge.of(rules, deal.number, penalty.who, penalty.points, penalty.reason)
            if charge is None:
                self.emit("C904", f"deal {deal.number}: a penalty to {penalty.who}, but "
                                  f"{rules.variant.name} scores for "
                                  f"{' and '.join(rules.side_names)}",
                          ("deal", d, "penalty", k), deal=deal.number)
                continue
            out.append(charge)
        return out

    def check_written(self, d: int, deal: Deal, points: dict[str, int] | None,
                      written: dict[str, int], totals: dict[str, int],
                      charges: list[Charge]) -> None:
        """Compares the points and running total written for a deal with the replay's (the
        rule for totals of RULES.md, "What a record may leave out"); the deal's penalties
        (H6) are in the running totals, not in its points."""
        score = deal.score
        sides = self.ruleset.side_names
        charged = dict.fromkeys(sides, 0)
        for charge in charges:
            charged[charge.side] += charge.points
        if score is None:
            for side in sides:
                written[side] += (points or {}).get(side, 0) - charged[side]
            return
        for key, part in (("points", score.points), ("total", score.total)):
            for side in part or {}:
                if side not in sides:
                    self.emit("C904", f"deal {deal.number}: {key} for {side}, but "
                                      f"{self.ruleset.variant.name} scores for "
                                      f"{' and '.join(sides)}",
                              ("deal", d, key, side), deal=deal.number)
        if score.points is not None and points is not None and self.points_differ(deal, points):
            wrote = {s: score.points.get(s, 0) for s in sides}
            scored = {s: points.get(s, 0) for s in sides}
            differ = [s for s in sides if wrote[s] != scored[s]]
            side = next((s for s in differ if s in score.points), differ[0])
            self.emit("C901", f"deal {deal.number}: points written {_sides(wrote)}, but the "
                              f"deal scored {_sides(scored)}",
                      ("deal", d, "points", side), deal=deal.number)
        delta = score.points if score.points is not None else (points or {})
        expected = {s: written[s] + delta.get(s, 0) - charged[s] for s in sides}
        if score.total is not None:
            readable = all(side in sides for side in score.points or {})  # else C904 said it
            # A total is right if it is the true total, or the scorer's last total plus
            # this deal's points, true or written: one slip is reported where it was made.
            fits = [s for s in sides if s in score.total and score.total[s] in (
                totals[s], expected[s], written[s] + (points or delta).get(s, 0) - charged[s])]
            wrong = [s for s in sides if s in score.total and s not in fits]
            if wrong and readable:
                s = wrong[0]
                true = "" if totals[s] == expected[s] else f", and the true total is {totals[s]}"
                less = f" less the penalty {charged[s]}" if charged[s] else ""
                self.emit("C902", f"deal {deal.number}: total {s} {score.total[s]} does not add "
                                  f"up: {written[s]} before plus {delta.get(s, 0)}{less} is "
                                  f"{expected[s]}{true}", ("deal", d, "total", s),
                          deal=deal.number)
            for s in sides:
                written[s] = score.total.get(s, expected[s])
        else:
            written.update(expected)

    def points_differ(self, deal: Deal, points: dict[str, int] | None) -> bool:
        """Whether the points written for ``deal`` differ from ``points`` (C901; sides that
        do not play are C904's)."""
        score = deal.score
        if score is None or score.points is None or points is None:
            return False
        sides = self.ruleset.side_names
        return all(side in sides for side in score.points) and any(
            score.points.get(s, 0) != points.get(s, 0) for s in sides)

    def check_end(self, totals: dict[str, int], readings: list[dict[str, int]]) -> None:
        """The game's last line against the replay (C9): ``readings`` are the final scores
        the result may give without a finding of its own."""
        end = self.game.end
        report = self.report
        shown = _sides(totals)
        target = self.ruleset.options.target
        if end is None:
            if not report.ended:
                goal = (f"{self.ruleset.options.deals} deals" if self.ruleset.options.deals
                        else f"target {target}")
                tie = self.tie_note(totals)
                self.emit("G951", f"the record stops before the game ended: {shown}, {goal}"
                                  f"{tie}; write 'unfinished' if it was", ("tail",))
            return
        if end.act == "unfinished":
            if report.ended:
                self.emit("G954", f"the record is marked unfinished, but the game ended: "
                                  f"{shown}, won by {report.winner}", ("end",))
            return
        wrote = {s: (end.scores or {}).get(s) for s in totals}
        fits = [r for r in readings if all(wrote[s] == r.get(s) for s in totals)]
        if not report.ended:
            if all(r is totals for r in fits):  # a result carried from a slip is no new one
                self.emit("G955", f"a result is recorded, but the game had not ended: {shown}"
                                  f"{self.tie_note(totals)}", ("end",))
            return
        winners = {report.winner} | {_leader(r) for r in fits}
        if end.scores:
            wrong = [s for s in end.scores if wrote.get(s) != totals.get(s)]
            if wrong and not fits:
                self.emit("G952", f"the result says {_sides(end.scores)}, but the game ended "
                                  f"{shown}", ("end", "score", wrong[0]))
        if end.winner is not None and end.winner not in winners:
            self.emit("G953", f"the result names {end.winner} the winner, but "
                              f"{report.winner or 'no one'} won with {shown}", ("end", "winner"))

    def tie_note(self, totals: dict[str, int]) -> str:
        """Why a game at the target goes on: a tie on top (X9, G7)."""
        top = max(totals.values(), default=0)
        leaders = [s for s, v in totals.items() if v == top]
        if len(leaders) > 1 and top >= self.ruleset.options.target:
            return f" ({' and '.join(leaders)} tie on top, so play goes on)"
        return ""

    # ------------------------------------------------------------------ deal

    def deal(self, d: int, deal: Deal) -> DealResult:
        rules = self.ruleset
        result = DealResult(deal.number, deal.dealer, None, {})
        hands = self.check_cards(d, deal)
        up = deal.up.card if deal.up else None
        kitty = deal.up.kitty if deal.up else None
        extra = deal.extra.cards if deal.extra and deal.extra.kind == rules.extra_hand else None
        state = DealState(rules, deal.dealer, hands=hands, upcard=up, kitty=kitty, extra=extra)
        faulted = False
        n = deal.number

        def fault(err: IllegalActionError, locus: Locus, trick: int | None = None,
                  seat: Seat | None = None, level: Severity | None = None) -> None:
            nonlocal faulted
            if err.code == "B406" and faulted:
                return
            faulted = True
            self.emit(err.code, f"deal {n}: {err.message}", locus, deal=n, trick=trick,
                      seat=seat, level=level)

        tricks = self.trick_order(d, deal)
        bids = deal.bids
        acts: list[Action | None] = [*bids]
        if deal.exchange is not None:
            acts.append(deal.exchange)
        acts.extend(deal.declarations)
        for _, trick in tricks:
            acts.extend(trick.plays)
            acts.append(None)
        self.acts = acts
        self.deal_now = deal
        swapped: tuple[Bid, Bid] | None = None
        made: Locus = ("deal", d, "bid")  # the bid that made the maker, once one has
        for k, bid in enumerate(bids):
            if swapped is not None and swapped[0].seat == bid.seat:
                # "S swap pass": the bid after a swap shares its seat letter, and its slip.
                bid = bid.model_copy(update={"seat": swapped[1].seat})
            written = bid
            bid = self.act(state, bid, k, ("deal", d, "bid", k), fault)
            swapped = (written, bid) if isinstance(bid, Swap) else None
            maker = state.maker
            state.apply_bid(bid)
            if maker is None and state.maker is not None:
                made = ("deal", d, "bid", k)
        sheet = deal.sheet
        if sheet is not None:
            self.check_sheet(d, deal, state)
        at = len(bids)
        if deal.exchange is not None:
            ex = deal.exchange
            err = state.check_exchange(ex)
            where: Locus = ("deal", d, _EXCHANGE_PART.get(err.code, "exchange") if err
                            else "exchange")
            state.apply_exchange(self.act(state, ex, at, where, fault))
            at += 1
        for k, decl in enumerate(deal.declarations):
            locus: Locus = ("deal", d, "decl", k)
            if isinstance(decl, Merge):
                err = state.check_merge(decl)
                if err is not None:
                    locus = _merge_locus(locus, decl, err)
            elif isinstance(decl, Exchange):
                err = state.check_exchange(decl)
                if err is not None and err.code in _EXCHANGE_PART:
                    locus = (*locus, _EXCHANGE_PART[err.code])
            state.apply_act(self.act(state, decl, at + k, locus, fault))
        if sheet is not None and not sheet.thrown:
            if deal.declarations:
                self.compare_sheet_declarations(d, deal, state)
            else:
                self.sheet_declarations(d, deal, state)
        canadian = state.check_canadian() if deal.tricks or sheet is not None else None
        if canadian is not None:  # reported at the maker's bid, not at the first play (H3)
            fault(canadian, made, seat=state.maker)
        claimed = {c.seat for c in deal.claims}
        if deal.tricks and state.maker is not None and state.trump is None:
            self.emit("B406", f"deal {n}: {state.maker} orders up, but the upcard is not "
                              "recorded: trump is unknown, so the play cannot be checked",
                      ("deal", d, "bid"), deal=n, seat=state.maker)
        self.play_tricks(d, deal, tricks, state, claimed, fault)
        result.thrown = state.phase is Phase.THROWN
        result.maker = state.maker
        result.trump = state.trump.value if state.trump else None
        result.alone = state.alone is not None
        result.defender_alone = state.defender is not None
        result.bid_round = state.fixed_in_round
        result.defender = state.defender
        result.points = self.deal_points(d, deal, state, claimed)
        if sheet is not None and not sheet.thrown and deal.tricks and len(state.tricks) == len(
                deal.tricks):
            won = state.tricks_won()
            if won is not None and sheet.taken is not None and any(
                    won.get(seat, 0) != count for seat, count in sheet.taken.items()):
                self.emit("C903", f"deal {n}: the sheet's tricks differ from the play: "
                                  + " ".join(f"{s} {c}" for s, c in won.items()),
                          ("deal", d, "sheet", "tricks"), deal=n)
            played = state.maker_tricks()
            if played is not None and sheet.tricks is not None and played != sheet.tricks:
                self.emit("C903", f"deal {n}: the sheet says the makers took {sheet.tricks} "
                                  f"tricks, but they took {played}",
                          ("deal", d, "sheet", "tricks"), deal=n)
        result.maker_tricks = state.maker_tricks() if deal.tricks else (
            sheet.tricks if sheet and not sheet.thrown else None)
        return result

    def check_cards(self, d: int, deal: Deal) -> dict[Seat, list[Card | None]]:
        """Deal sizes, cards outside the deck and duplicates (C1, C8, F2)."""
        if not (deal.hands or deal.extra or deal.up or deal.tricks):
            return {}  # a score-sheet deal: no card to look at
        rules = self.ruleset
        n = deal.number
        deck = deck_set(rules.options.deck)
        hands: dict[Seat, list[Card | None]] = {}
        seen: dict[Card, Locus] = {}
        twice: set[Card] = set()
        size = rules.variant.hand_size
        # A card in a hand with too many cards is the hand's slip (D303), not a duplicate.
        oversized = {card for line in deal.hands for seat, cards in line.cards.items()
                     if seat in rules.seats and len(cards) > size for card in cards}
        dealt = [card for line in deal.hands for cards in line.cards.values() for card in cards]
        if deal.extra is not None:
            dealt.extend(deal.extra.cards)
        if deal.up is not None:
            dealt.append(deal.up.card)
            dealt.extend(deal.up.kitty or ())
        # Most deals hold each card once, all of the deck: nothing to visit card by card.
        clean = dealt_cleanly(dealt, rules.options.deck)

        def visit(card: Card | None, locus: Locus, what: str) -> None:
            if card is None or clean:
                return
            if card not in deck:
                self.emit("D305", f"deal {n}: {card} ({what}) is not in the "
                                  f"{rules.options.deck}-card deck", locus, deal=n)
            elif card in seen:
                twice.add(card)
                if card not in oversized:
                    self.emit("D304", f"deal {n}: {card} ({what}) is recorded twice", locus,
                              deal=n)
            else:
                seen[card] = locus

        for line in deal.hands:
            for seat, cards in line.cards.items():
                if seat not in rules.seats:
                    self.emit("D303", f"deal {n}: a hand for {seat}, but {seat} has no player "
                                      f"(the seats are {' '.join(rules.seats)})",
                              ("deal", d, "hands", seat), deal=n, seat=seat)
                    continue
                hands[seat] = list(cards)
                if len(cards) != rules.variant.hand_size:
                    self.emit("D303", f"deal {n}: {seat} has {len(cards)} cards, not "
                                      f"{rules.variant.hand_size}", ("deal", d, "hands", seat),
                              deal=n, seat=seat)
                for k, card in enumerate(cards):
                    visit(card, ("deal", d, "hands", seat, "card", k), f"{seat}'s hand")
        for seat, held in hands.items():
            # Which hand really holds a card written twice is unknown: neither, surely.
            hands[seat] = [None if card in twice else card for card in held]
        if deal.extra is not None:
            extra = deal.extra
            if extra.kind != rules.extra_hand:
                has = f"a {rules.extra_hand}" if rules.extra_hand else f"no {extra.kind}"
                self.emit("D303", f"deal {n}: a {extra.kind} hand, but this game has {has}",
                          ("deal", d, "extra"), deal=n)
            else:
                if len(extra.cards) != rules.extra_size:
                    self.emit("D303", f"deal {n}: the {extra.kind} has {len(extra.cards)} cards, "
                                      f"not {rules.extra_size}", ("deal", d, "extra"), deal=n)
                for k, card in enumerate(extra.cards):
                    visit(card, ("deal", d, "extra", "card", k), f"the {extra.kind}")
        if deal.up is not None and not rules.variant.upcard:
            self.emit("D306", f"deal {n}: {rules.variant.name} has no upcard and no kitty",
                      ("deal", d, "up"), deal=n)
        elif deal.up is not None:
            visit(deal.up.card, ("deal", d, "up"), "the upcard")
            if deal.up.kitty is not None:
                for k, card in enumerate(deal.up.kitty):
                    visit(card, ("deal", d, "up", "kitty", k), "the kitty")
                if len(deal.up.kitty) != rules.kitty_size:
                    have = len(deal.up.kitty)
                    self.emit("D306", f"deal {n}: the {rules.variant.kitty_name} has {have} "
                                      f"card{'' if have == 1 else 's'}, not {rules.kitty_size}",
                              ("deal", d, "up", "kitty", 0), deal=n)
        played = {play.card for trick in deal.tricks for play in trick.plays}
        played.discard(None)
        if deck.issuperset(played):
            return hands
        for t, trick in enumerate(deal.tricks):
            for p, play in enumerate(trick.plays):
                if play.card is not None and play.card not in deck:
                    self.emit("D305", f"deal {n}: {play.card} (played by {play.seat}) is not in "
                                      f"the {rules.options.deck}-card deck",
                              ("deal", d, "trick", t, "play", p), deal=n, trick=trick.number)
        return hands

    def check_sheet(self, d: int, deal: Deal, state: DealState) -> None:
        sheet = deal.sheet
        assert sheet is not None
        n = deal.number
        here = ("deal", d, "sheet")
        if not deal.bidding and state.round == 0:
            dealer = deal.dealer
            if sheet.thrown or sheet.maker != dealer:
                what = "the deal is not thrown in" if sheet.thrown else f"not {sheet.maker}"
                self.emit("B407", f"deal {n}: the upcard is the benny: the dealer {dealer} "
                                  f"names trump, {what} (F7)",
                          (*here, "maker" if not sheet.thrown else "thrown"), deal=n)
                if not sheet.thrown:
                    return
        if sheet.thrown and not deal.bidding and self.ruleset.options.stick_the_dealer:
            self.emit("B404", f"deal {n}: the sheet says thrown in, but under "
                              "stick-the-dealer the dealer must name trump (F6)", here, deal=n)
        if sheet.thrown:
            if deal.bidding and state.phase is not Phase.THROWN:
                self.emit("C903", f"deal {n}: the sheet says thrown in, but the bidding fixed "
                                  "trump", here, deal=n)
            elif not deal.bidding:
                state.phase = Phase.THROWN
            return
        assert sheet.trump is not None and sheet.maker is not None
        self.check_sheet_counts(d, deal)
        if not deal.bidding and sheet.trump is NO_TRUMP and not self.ruleset.options.no_trump:
            self.emit("B410", f"deal {n}: the sheet says no trump, but the game is not played "
                              "with no-trump (H5)", (*here, "trump"), deal=n)
        if not deal.bidding:
            if sheet.maker not in self.ruleset.seats:
                self.emit("C903", f"deal {n}: the maker {sheet.maker} has no player",
                          (*here, "maker"), deal=n)
            state.fix_contract(sheet.trump, sheet.maker, sheet.bid)
            return
        if state.trump is not None and (state.trump, state.maker) != (sheet.trump, sheet.maker):
            part = "trump" if state.trump != sheet.trump else "maker"
            self.emit("C903", f"deal {n}: the sheet says trump {sheet.trump} by {sheet.maker}, "
                              f"but the bidding made {state.trump} by {state.maker}",
                      (*here, part), deal=n)
        elif sheet.bid is not None and state.contract not in (None, sheet.bid):
            self.emit("C903", f"deal {n}: the sheet says the bid was {sheet.bid}, but the "
                              f"bidding made {state.contract}", (*here, "bid"), deal=n)

    def check_sheet_counts(self, d: int, deal: Deal) -> None:
        """The numbers on a score-sheet line fit the variant (C903, B408)."""
        sheet = deal.sheet
        assert sheet is not None
        n = deal.number
        here = ("deal", d, "sheet")
        variant = self.ruleset.variant
        ghost = not variant.scoring
        if sheet.tricks is not None and sheet.tricks > variant.tricks:
            self.emit("C903", f"deal {n}: the makers cannot take {sheet.tricks} tricks of "
                              f"{variant.tricks}", (*here, "tricks"), deal=n)
        if sheet.taken is not None:
            strangers = [s for s in sheet.taken if s not in self.ruleset.seats]
            if strangers or sum(sheet.taken.values()) != variant.tricks:
                what = (f"{strangers[0]} has no player" if strangers
                        else f"the tricks add up to {sum(sheet.taken.values())}, not "
                             f"{variant.tricks}")
                self.emit("C903", f"deal {n}: {what}", (*here, "tricks"), deal=n)
        if ghost:
            if sheet.bid is None:
                self.emit("C903", f"deal {n}: a {variant.name} score-sheet line needs the bid, "
                                  "like 'bid 4'", here, deal=n)
            elif not 3 <= sheet.bid <= MOON:
                self.emit("B408", f"deal {n}: a bid of {sheet.bid}: a bid is 3 to 6 tricks, 6 "
                                  "the moon (G3)", (*here, "bid"), deal=n)
            if sheet.tricks is not None:
                self.emit("C903", f"deal {n}: {variant.name} scores each player's tricks: "
                                  "write them like 'tricks N 1 E 1 S 4'", (*here, "tricks"),
                          deal=n)
        elif sheet.bid is not None:
            self.emit("C903", f"deal {n}: a bid of tricks belongs to ghost-hand bid euchre, "
                              f"not {variant.name}", (*here, "bid"), deal=n)

    def compare_sheet_declarations(self, d: int, deal: Deal, state: DealState) -> None:
        sheet = deal.sheet
        assert sheet is not None
        alone = state.alone is not None
        if (sheet.alone, sheet.defend) != (alone, state.defender):
            def spell(alone: bool, defend: Seat | None) -> str:
                words = (["alone"] if alone else []) + ([f"defend {defend}"] if defend else [])
                return " ".join(words) or "no lone hand"

            self.emit("C903", f"deal {deal.number}: the sheet says "
                              f"{spell(sheet.alone, sheet.defend)}, but the declarations say "
                              f"{spell(alone, state.defender)}", ("deal", d, "sheet"),
                      deal=deal.number)

    def sheet_declarations(self, d: int, deal: Deal, state: DealState) -> None:
        sheet = deal.sheet
        assert sheet is not None and sheet.maker is not None
        decls = []
        if sheet.alone:
            decls.append(Declaration(act="alone", seat=sheet.maker))
        if sheet.defend is not None:
            decls.append(Declaration(act="defend", seat=sheet.defend))
        for decl in decls:
            err = state.check_declare(decl)
            if err is not None:
                self.emit(err.code, f"deal {deal.number}: {err.message}", ("deal", d, "sheet"),
                          deal=deal.number, seat=decl.seat)
            state.apply_declare(decl)

    def act(self, state: DealState, act: A, at: int, locus: Locus,
            fault: Callable[..., None]) -> A:
        """Reports the fault of the ``at``-th act of the deal, if any, and returns the act to
        apply (see :meth:`reseat`)."""
        err = state.check_act(act)
        if err is None:
            return act
        chosen, declared = self.reseat(state, act, at) if err.code in RESEAT_CODES else (
            act, False)
        if declared:
            _declare_as_written(state, act)
            err = type(err)(err.code, f"{err.message}; taken as written: {act.seat} plays "
                                      "alone")
        self.report_act(state, err, act, chosen, locus, fault)
        return chosen

    def report_act(self, state: DealState, err: IllegalActionError, act: Action, chosen: Action,
                   locus: Locus, fault: Callable[..., None], trick: int | None = None) -> None:
        """One finding for a faulty act, saying so when it was taken as another seat's."""
        if chosen is not act:
            err = type(err)(err.code, f"{err.message}; taken as {chosen.seat}'s")
        fault(err, locus, trick=trick, seat=act.seat)

    def reseat(self, state: DealState, act: A, at: int) -> tuple[A, bool]:
        """The act as written, or as made by a seat due to make it, whichever reading leaves
        fewer faults in the acts of the deal after it and in its written points; on a tie,
        the due seat's (P4). Only a reading in which the act itself is legal is tried, and
        for a lone declaration by the maker's partner, the declaration as written too (see
        :func:`_declare_as_written`): then the second value is true."""
        readings = [(cast(A, act.model_copy(update={"seat": seat})), False)
                    for seat in state.seats_due(act) if seat != act.seat]
        readings = [(a, False) for a, _ in readings if state.check_act(a) is None]
        if _declare_as_written(state.copy(), act):
            readings.append((act, True))
        if not readings:
            return act, False
        readings.append((act, False))
        rest = self.acts[at + 1:]
        deal = self.deal_now
        assert deal is not None  # set by deal() before any act is read

        def faults_after(reading: tuple[A, bool]) -> int:
            trial = state.copy()
            if reading[1]:
                _declare_as_written(trial, reading[0])
            else:
                trial.apply_act(reading[0])
            # The points written are evidence too.
            return trial.faults(rest) + (not deal.claims and self.points_differ(
                deal, self.scored(deal, trial)))

        return min(readings, key=faults_after)

    def trick_order(self, d: int, deal: Deal) -> list[tuple[int, Trick]]:
        """The tricks in the order they were played, each with its index in the record: a
        trick line written twice is read once, lines written out of order are read in the
        order of their numbers, and a trick missing from the numbers is reported once
        (P707)."""
        self.gaps = {}
        if not deal.tricks:
            return []
        n = deal.number
        order: list[tuple[int, Trick]] = []
        for t, trick in enumerate(deal.tricks):
            if order and trick.plays == order[-1][1].plays:
                self.emit("P707", f"deal {n}: trick {trick.number} is written twice",
                          ("deal", d, "trick", t), deal=n, trick=trick.number)
                continue
            order.append((t, trick))
        numbers = [trick.number for _, trick in order]
        if sorted(numbers) == list(range(1, len(numbers) + 1)) and numbers != sorted(numbers):
            k = next(k for k, number in enumerate(numbers) if number != k + 1)
            t, trick = order[k]
            self.emit("P707", f"deal {n}: trick {trick.number} is written before trick {k + 1}; "
                              "the tricks are read in the order of their numbers",
                      ("deal", d, "trick", t), deal=n, trick=trick.number)
            return sorted(order, key=lambda item: item[1].number)
        tricks = self.ruleset.variant.tricks
        if (numbers and all(a < b for a, b in pairwise(numbers)) and numbers[-1] <= tricks
                and len(numbers) < tricks):
            previous = 0
            for k, (t, trick) in enumerate(order):
                if trick.number > previous + 1:
                    missing = ", ".join(str(m) for m in range(previous + 1, trick.number))
                    self.emit("P707", f"deal {n}: trick {missing} is missing before trick "
                                      f"{trick.number}", ("deal", d, "trick", t), deal=n,
                              trick=trick.number)
                    self.gaps[k] = trick.number - previous - 1
                previous = trick.number
            return order
        for k, (t, trick) in enumerate(order):
            if trick.number != k + 1:
                self.emit("P707", f"deal {n}: trick {trick.number} is the deal's trick {k + 1}",
                          ("deal", d, "trick", t), deal=n, trick=trick.number)
                break
        return order

    def play_tricks(self, d: int, deal: Deal, tricks: list[tuple[int, Trick]],
                    state: DealState, claimed: set[Seat], fault: Callable[..., None]) -> None:
        if not tricks:
            return
        n = deal.number
        reneged: set[tuple[Seat, int]] = set()
        not_held: set[Seat] = set()
        at = len(self.acts) - sum(len(trick.plays) + 1 for _, trick in tricks)
        slots: list[tuple[int, Trick]] = []
        """The record's trick behind each trick of the state (a missing one: the next)."""
        for k, (t, trick) in enumerate(tricks):
            if k >= self.ruleset.variant.tricks:
                self.emit("P706", f"deal {n}: trick {trick.number} is more than the "
                                  f"{self.ruleset.variant.tricks} tricks of a deal",
                          ("deal", d, "trick", t), deal=n, trick=trick.number)
                break
            for _ in range(self.gaps.get(k, 0)):
                state.lose_trick()
                slots.append((t, trick))
            slots.append((t, trick))
            out_of_turn = False
            doubtful = False
            done = len(state.tricks)
            for p, play in enumerate(trick.plays):
                locus = ("deal", d, "trick", t, "play", p)
                if (len(state.tricks) > done and state.phase is not Phase.DONE
                        and play.seat in state.playing):
                    self.emit("P705", f"deal {n}: trick {trick.number} has {len(trick.plays)} "
                                      f"cards, but {len(state.playing)} seats play",
                              locus, deal=n, trick=trick.number)
                    break
                err = state.check_play(play)
                if err is not None and err.code in RESEAT_CODES:
                    chosen, _ = self.reseat(state, play, at + p)
                    if chosen is not play:
                        self.report_act(state, err, play, chosen, locus, fault, trick.number)
                        play = chosen
                        err = None
                    elif out_of_turn:
                        err = None  # a trick written out of order: one finding, not one a card
                    out_of_turn = True
                if err is not None and err.code == "A604":
                    err = None  # reported at the order (H3)
                if err is not None and err.code in ("P702", "P703", "P708"):
                    doubtful = True  # the trick's winner rests on a card the seat lacks
                if err is not None and err.code == "P702":
                    if play.seat in not_held:
                        err = None  # the record of that hand is wrong: one finding a deal
                    not_held.add(play.seat)
                if err is not None and err.code == "R801":
                    if any(seat == play.seat for seat, _ in reneged):
                        err = None  # the penalty is once a deal: so is the finding
                    reneged.add((play.seat, t))
                if err is not None:
                    message = err.message
                    level: Severity | None = None
                    if err.code == "R801":
                        message += self.penalty_note(state, play.seat, claimed)
                        level = "note" if play.seat in claimed else None  # CLAIMED_NOTES
                    fault(IllegalActionError(err.code, message), locus, trick=trick.number,
                          seat=play.seat, level=level)
                    if err.code == "B406":
                        return
                for proof in state.apply_play(play):
                    if any(seat == proof.seat for seat, _ in reneged):
                        continue
                    reneged.add((proof.seat, proof.trick))
                    # A trick the state closed within this line of the record (a line of
                    # more cards than seats play, some of them seats that sit out) is this
                    # line's.
                    proved = slots[min(proof.trick, len(slots) - 1)]
                    self.emit("R802", f"deal {n}: {evidence_message(proof)}"
                                      f"{self.penalty_note(state, proof.seat, claimed)}",
                              ("deal", d, "trick", proved[0], "play", proof.play), deal=n,
                              trick=proved[1].number, seat=proof.seat,
                              level="note" if proof.seat in claimed else None)
            at += len(trick.plays) + 1
            if state.current:
                # The last trick of a record marked unfinished may stop anywhere.
                cut = self.open_deal and k == len(tricks) - 1
                if state.phase is Phase.PLAYING and not out_of_turn and not cut:
                    have = len(state.current)
                    self.emit("P705", f"deal {n}: trick {trick.number} has {have} "
                                      f"card{'s' if have != 1 else ''}, but "
                                      f"{len(state.playing)} seats play",
                              ("deal", d, "trick", t), deal=n, trick=trick.number)
                state.end_trick()
            if doubtful and state.tricks:
                state.doubt_last_trick()
        if (tricks and state.phase is Phase.PLAYING and not claimed and not self.open_deal
                and not self.gaps and len(state.tricks) < self.ruleset.variant.tricks):
            self.emit("P706", f"deal {n}: the record has {len(state.tricks)} of "
                              f"{self.ruleset.variant.tricks} tricks",
                      ("deal", d, "trick", tricks[-1][0]), deal=n)

    def penalty(self, state: DealState, seat: Seat) -> dict[str, int]:
        """The renege penalty for ``seat`` (P3): to each other side, or (ghost) to the
        offender."""
        penalty = self.ruleset.renege_penalty(state.lone_hand)
        if penalty < 0:
            return {state.side(seat): penalty}
        return {s: penalty for s in self.ruleset.side_names if s != state.side(seat)}

    def penalty_note(self, state: DealState, seat: Seat, claimed: set[Seat]) -> str:
        award = " and ".join(f"{s} {n}" for s, n in self.penalty(state, seat).items())
        if seat in claimed:
            return f"; claimed: {award}"
        return f"; not claimed (the penalty would have been {award})"

    def deal_points(self, d: int, deal: Deal, state: DealState,
                    claimed: set[Seat]) -> dict[str, int] | None:
        rules = self.ruleset
        sides = rules.side_names
        offenders = {s for s, _, _ in state.reneges}
        if not deal.tricks:  # a score-sheet deal: a claim is all the record has
            offenders = {c.seat for c in deal.claims}
        for k, claim in enumerate(deal.claims):
            if claim.seat not in offenders:
                self.emit("R803", f"deal {deal.number}: renege claimed against {claim.seat}, but "
                                  f"the record shows no renege by {claim.seat}",
                          ("deal", d, "claim", k), deal=deal.number, seat=claim.seat)
        penalty = next((self.penalty(state, c.seat) for c in deal.claims
                        if c.seat in offenders), None)
        if penalty is not None and not rules.variant.scoring:
            # Ghost: the offender's loss is added to the deal as played (P3).
            played = self.scored(deal, state)
            if played is None:
                return None
            return {s: played.get(s, 0) + penalty.get(s, 0) for s in sides}
        if penalty is not None:
            return penalty
        return self.scored(deal, state)

    def scored(self, deal: Deal, state: DealState) -> dict[str, int] | None:
        """The points of a deal as played or written on its sheet, claims aside, or ``None``
        when the record does not tell."""
        if deal.tricks or deal.sheet is None:
            return state.points()
        return state.points(taken=deal.sheet.taken, made=deal.sheet.tricks)


_CARD_CODES = frozenset({"P702", "P703", "P708", "D305"})
"""Faults of a card that cannot be played where the record has it."""
_OWN_CODES = _CARD_CODES | {"D304"}
"""Faults of a card that cannot be where the record has it, played or dealt."""
_MAX_SLIP_PLACES = 8
"""Plays whose card :meth:`GameReplay.either_card` reads otherwise, at the most."""
_SLIP_READINGS = 2
"""Readings of a card otherwise that the one-card-slip search may replay, on average a
deal of the game (a deal may use what the deals before it left): a record of nothing but
faults checks in time linear in its size (bench/growth.py)."""
_MAX_SLIP_FAULTS = 6
"""Faults of a deal beyond which :meth:`GameReplay.either_card` looks for one slip behind
them only in the upcard, which fixes trump (the most any other card written wrongly was seen
to cause is five). Nor does it look in a deal with more trick lines than a deal has tricks
(and one written twice), a trick line with more cards than there are players, or more cards
dealt than the deck has: a card slip is not what is wrong there, and each reading would
replay all of it."""

SlipPlace = tuple[Locus, str]
"""A card of a deal that may be written wrongly: where (its locus within the deal: a play
``("trick", t, "play", p)``, a card of a hand ``("hands", seat, "card", k)``, of the dummy or
ghost hand ``("extra", "card", k)``, the upcard ``("up",)``, a card of the kitty
``("up", "kitty", k)``), and why (``card``: it cannot be where it is; ``twice``: it is
played or dealt elsewhere too; ``hand``: its seat plays a card one letter away that the
record does not give it; ``lead``: the next trick is led out of turn; ``renege``: it is the
lead of a trick with a renege; ``exchange``: it and another card of its trick cannot be where
they are, and may be written each under the other's seat)."""
CardReading = tuple[SlipPlace, Card, DealResult, list[tuple[Locus, Finding]]]
"""A deal read with one card otherwise: where, the card, and the deal's result and findings."""


def _slip_places(deal: Deal, faults: list[tuple[Locus, Finding]]) -> list[SlipPlace]:
    """The cards that may be the slip behind ``faults``: a card that cannot be where it is
    and every other play or deal of it; the cards of a seat's hand one letter away from a
    card it plays but does not hold; the plays of the trick before a lead out of turn (a
    card that changed the trick's winner); the lead of a trick with a renege (a card that
    changed the suit led)."""
    places: dict[Locus, str] = {}
    leads: list[Locus] = []
    dealt = _dealt(deal)
    for locus, finding in faults:
        where = locus[2:]
        if not where or (where[0] == "trick" and len(where) != 4):
            continue
        code = finding.code
        if code in _OWN_CODES and (where[0] == "trick" or any(at == where for at, _, _ in dealt)):
            card = _card_at(deal, where)
            places.setdefault(where, "card")
            if card is None:
                continue
            for u, trick in enumerate(deal.tricks):
                for q, play in enumerate(trick.plays):
                    if play.card == card:
                        places.setdefault(("trick", u, "play", q), "twice")
            for at, other, _ in dealt:
                if other == card:
                    places.setdefault(at, "twice")
            if code == "P702" and where[0] == "trick":
                seat = deal.tricks[where[1]].plays[where[3]].seat
                for at, other, _ in dealt:
                    if at[:2] == ("hands", seat) and other is not None and _one_apart(
                            other, card):
                        places.setdefault(at, "hand")
        elif where[0] == "trick" and code == "P701" and where[3] == 0 and where[1] > 0:
            t = where[1] - 1
            for q in range(len(deal.tricks[t].plays)):
                places.setdefault(("trick", t, "play", q), "lead")
        elif where[0] == "trick" and code in ("R801", "R802") and where[3] > 0:
            leads.append(("trick", where[1], "play", 0))
    for lead in leads:  # (a lead that is a place for another reason too is tried so)
        places.setdefault(lead, "renege")
    return list(places.items())


def _exchanges(deal: Deal, faults: list[tuple[Locus, Finding]]) -> list[tuple[SlipPlace, Card]]:
    """The readings of two cards of a trick written each under the other's seat (``E: 9D
    S: AD`` for ``E: AD  S: 9D``): each two cards of a trick that both cannot be where they
    are (P702, P703, P708), exchanged. A reading is the place of the first of them (why:
    ``exchange``) and the card it is read as, the other's."""
    faulty: dict[int, list[int]] = {}
    for locus, finding in faults:
        where = locus[2:]
        if len(where) == 4 and where[0] == "trick" and finding.code in _CARD_CODES - {"D305"}:
            faulty.setdefault(where[1], []).append(where[3])
    out: list[tuple[SlipPlace, Card]] = []
    for t, plays in faulty.items():
        cards = deal.tricks[t].plays
        for p, q in combinations(sorted(set(plays)), 2):
            first, second = cards[p].card, cards[q].card
            if first is not None and second is not None and first != second:
                out.append(((("trick", t, "play", p), "exchange"), second))
    return out


def _exchanged(deal: Deal, where: Locus, card: Card) -> Deal:
    """The deal with the card at ``where`` (a play) and ``card``, played in the same trick,
    each read under the other's seat."""
    t = where[1]
    was = _card_at(deal, where)
    assert was is not None
    other: Locus = ("trick", t, "play", _play_of(deal.tricks[t], card))
    return _with_card(_with_card(deal, where, card), other, was)


def _play_of(trick: Trick, card: Card) -> int:
    """Which play of ``trick`` plays ``card``."""
    return next(q for q, play in enumerate(trick.plays) if play.card == card)


def _dealt(deal: Deal) -> list[tuple[Locus, Card | None, str]]:
    """Every card the deal's hands, dummy or ghost hand and up line write: where (its locus
    within the deal), the card, and what holds it."""
    out: list[tuple[Locus, Card | None, str]] = []
    for line in deal.hands:
        for seat, cards in line.cards.items():
            out += [(("hands", seat, "card", k), c, f"{seat}'s hand") for k, c in enumerate(cards)]
    if deal.extra is not None:
        out += [(("extra", "card", k), c, f"the {deal.extra.kind}")
                for k, c in enumerate(deal.extra.cards)]
    if deal.up is not None:
        out.append((("up",), deal.up.card, "the upcard"))
        out += [(("up", "kitty", k), c, "the kitty") for k, c in enumerate(deal.up.kitty or ())]
    return out


def _candidates(deal: Deal, places: list[SlipPlace], deck: frozenset[Card]
                ) -> list[tuple[SlipPlace, Card]]:
    """The readings of one card that :meth:`GameReplay.card_reading` tries, in order: at
    each place, each card one letter away that is neither played (for a play) nor dealt (for
    a dealt card) elsewhere in the deal, since a card is played once and dealt once; first,
    at every place, the cards the rest of the record points to (:func:`_pointed_to`), then
    the others."""
    taken = _taken(deal)
    likely: list[tuple[SlipPlace, Card]] = []
    rest: list[tuple[SlipPlace, Card]] = []
    for place in places:
        where = place[0]
        written = _card_at(deal, where)
        if written is None:
            continue
        pointed = _pointed_to(deal, where)
        for card in _one_letter(written, deck):
            if card not in taken[where[0] == "trick"]:
                (likely if card in pointed else rest).append((place, card))
    return likely + rest


def _taken(deal: Deal) -> tuple[frozenset[Card | None], frozenset[Card | None]]:
    """The cards the deal deals, and the cards it plays: a card is dealt once and played
    once, so a card read in place of another is neither dealt elsewhere (for a dealt card)
    nor played elsewhere (for a card played)."""
    return (frozenset(card for _, card, _ in _dealt(deal)),
            frozenset(play.card for trick in deal.tricks for play in trick.plays))


def _pointed_to(deal: Deal, where: Locus) -> frozenset[Card | None]:
    """The cards the rest of the record points to for the card at ``where``: for a play, the
    cards the record gives its seat (dealt, kept in a merge, taken up); for a card of a
    seat's hand, the cards the seat plays; for the upcard, the card the exchange takes."""
    exchanges = [deal.exchange, *(a for a in deal.declarations if isinstance(a, Exchange))]
    if where == ("up",):
        return frozenset(ex.upcard for ex in exchanges if ex is not None)
    if where[0] == "trick":
        seat = deal.tricks[where[1]].plays[where[3]].seat
        given = {c for line in deal.hands for c in line.cards.get(seat, ())}
        merge = deal.merge
        if merge is not None and merge.seat == seat:
            given.update(merge.keeps or ())
        for ex in exchanges:
            if ex is not None and ex.seat == seat and ex.act == "takes":
                given.add(ex.upcard if ex.upcard is not None else
                          deal.up.card if deal.up is not None else None)
        return frozenset(given)
    if where[0] == "hands":
        return frozenset(play.card for trick in deal.tricks for play in trick.plays
                         if play.seat == where[1])
    return frozenset()


def _dealt_count(deal: Deal) -> int:
    """How many cards the deal's hands, dummy or ghost hand and up line write."""
    return (sum(len(cards) for line in deal.hands for cards in line.cards.values())
            + (len(deal.extra.cards) if deal.extra is not None else 0)
            + (1 + len(deal.up.kitty or ()) if deal.up is not None else 0))


def _holder(deal: Deal, where: Locus) -> str:
    """What holds the dealt card at ``where``: a seat's hand, the kitty ..."""
    return next(what for at, _, what in _dealt(deal) if at == where)


def _card_at(deal: Deal, where: Locus) -> Card | None:
    """The card of the deal at ``where`` (see :data:`SlipPlace`)."""
    if where[0] == "trick":
        return deal.tricks[where[1]].plays[where[3]].card
    return next(card for at, card, _ in _dealt(deal) if at == where)


def _one_letter(card: Card, deck: frozenset[Card]) -> list[Card]:
    """The cards of ``deck`` written with one letter of ``card`` changed (``JH`` for
    ``JK`` too): its rank in another suit, or another rank of its suit."""
    return sorted((c for c in deck if _one_apart(c, card)), key=lambda c: c.index)


def _one_apart(a: Card, b: Card) -> bool:
    """Whether two cards are written with one letter changed."""
    return sum(x != y for x, y in zip(str(a), str(b), strict=True)) == 1


def _with_card(deal: Deal, where: Locus, card: Card) -> Deal:
    """The deal with its card at ``where`` read as ``card``."""
    if where[0] == "trick":
        t, p = where[1], where[3]
        trick = deal.tricks[t]
        plays = list(trick.plays)
        plays[p] = plays[p].model_copy(update={"card": card})
        tricks = list(deal.tricks)
        tricks[t] = trick.model_copy(update={"plays": tuple(plays)})
        return deal.model_copy(update={"tricks": tuple(tricks)})
    if where[0] == "hands":
        seat, k = where[1], where[3]
        lines = list(deal.hands)
        i = next(i for i, line in enumerate(lines) if seat in line.cards)
        cards = dict(lines[i].cards)
        cards[seat] = (*cards[seat][:k], card, *cards[seat][k + 1:])
        lines[i] = lines[i].model_copy(update={"cards": cards})
        return deal.model_copy(update={"hands": tuple(lines)})
    if where[0] == "extra":
        assert deal.extra is not None
        k = where[2]
        kept = deal.extra.cards
        return deal.model_copy(update={"extra": deal.extra.model_copy(
            update={"cards": (*kept[:k], card, *kept[k + 1:])})})
    assert deal.up is not None
    if where == ("up",):
        return deal.model_copy(update={"up": deal.up.model_copy(update={"card": card})})
    k, kitty = where[2], deal.up.kitty or ()
    return deal.model_copy(update={"up": deal.up.model_copy(
        update={"kitty": (*kitty[:k], card, *kitty[k + 1:])})})


def rotation(number: int, dealer: Seat, want: Seat, redealt: bool) -> str:
    """Why ``want`` deals after deal ``number``, dealt by ``dealer`` (C7, H4), for a D302
    message; ``redealt``: the record has the dealer of a thrown-in deal deal again."""
    if want == dealer:
        return (f"deal {number} was thrown in, and under pass-out=same-dealer {want} deals "
                "again (H4)")
    if redealt:
        return (f"the deal passes from {dealer} to {want} after a thrown-in deal too (C7; "
                "only pass-out=same-dealer keeps it, H4)")
    return f"the deal passes from {dealer} to {want}"


_EXCHANGE_PART = {"K502": "discard", "K503": "takes"}
"""The part of an exchange line a finding points at, by its code."""


def _merge_locus(line: Locus, merge: Merge, err: IllegalActionError) -> Locus:
    """The kept card a K506 names, else the merge line."""
    for k, card in enumerate(merge.keeps or ()):
        if card is not None and f" {card}," in f" {err.message}":
            return (*line, "card", k)
    return line


def _declare_as_written(state: DealState, act: Action) -> bool:
    """Puts in force, as the record has it, a lone declaration by the maker's partner, which
    the rules do not allow (A601): the partner plays alone and the maker sits out. Whether
    ``act`` is such a declaration (else ``state`` is left as it is)."""
    if not (isinstance(act, Declaration) and act.act == "alone"
            and state.phase is Phase.DECLARING and state.alone is None and not state.merged
            and state.variant.alone not in ("never", "always")
            and act.seat != state.maker and act.seat in state.makers):
        return False
    state.alone = act.seat
    return True


def _leader(values: dict[str, int]) -> str | None:
    """The side with the most points, if one alone has them."""
    top = max(values.values(), default=0)
    leaders = [s for s, v in values.items() if v == top]
    return leaders[0] if len(leaders) == 1 else None


def _sides(values: dict[str, int]) -> str:
    return " ".join(f"{s} {v}" for s, v in values.items()) or "nothing"


def replay(game: Game | ParsedGame | GameText, source: SourceMap | None = None, *,
           strict: bool = False, on_finding: Callable[[Finding], None] | None = None
           ) -> GameReport:
    """Replays ``game`` and returns its report.

    ``game`` is a model, or a game as :func:`~euchrelog.notation.read_games` reads it,
    whose source map then places the findings.

    :param source: places findings at a line and column, when the game came from notation.
    :param strict: raise the first finding instead of collecting them.
    :param on_finding: called with each finding as it is found.
    :raises IllegalActionError: in strict mode, at the first fault.
    :raises NotationError: for a game read with a syntax error (its ``error``).
    :raises ValueError: for a text read that holds no game, only comments.
    """
    if isinstance(game, GameText):
        if game.error is not None:
            raise game.error
        if game.parsed is None:
            raise ValueError(f"no game to replay at line {game.first_line}: only comments")
        game = game.parsed
    if isinstance(game, ParsedGame):
        return GameReplay(game.game, source or game.source, strict, on_finding).run()
    return GameReplay(game, source, strict, on_finding).run()

