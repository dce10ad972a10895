"""The game loop of a replay: the tags, deal numbers and dealers, each deal (read as
written, or otherwise where that is one slip: :mod:`.readings`), the points, penalties and
running totals, the game's end and its last line."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from ..cards import Card, parse_card
from ..dates import iso_date
from ..errors import IllegalActionError, RenegeError
from ..findings import CODES, Edit, Finding, Fix, Severity
from ..frozen import Frozen
from ..loci import Locus, SourceMap
from ..rules import TagProblem, ruleset_from_tags
from ..seats import Seat, clockwise_from
from .readings import CardSlips, Held, read_dealer
from .results import Charge, DealResult, GameReport, points_differ

if TYPE_CHECKING:
    from ..models import Deal, Game


@dataclass(frozen=True)
class LoopMark(Frozen):
    """Where a game loop stands after a deal (:meth:`GameReplay.mark`)."""

    findings: int
    deals: int
    ended: bool
    winner: str | None
    totals: dict[str, int]
    written: dict[str, int]
    counted: int
    previous: Deal | None
    due: Seat | None
    readings: int
    slips_left: int
    slips_deals: int


class GameReplay:
    """The one game loop: deal numbers and dealers, each deal, points, penalties, running
    totals, the game's end and its last line, each finding reported through :meth:`emit`.

    :func:`replay` runs it; the fast path (:mod:`euchrelog.fast`) runs it too, with deals
    replayed by the engine's bulk entry and any finding declining the game.
    """

    def __init__(self, game: Game, source: SourceMap | None, strict: bool,
                 on_finding: Callable[[Finding], None] | None,
                 trace: bool | Literal["acts"] = False) -> None:
        self.game = game
        self.trace = trace
        """Whether each deal's result keeps the deal as taken (:class:`~.results.DealTrace`)."""
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
        if "variant" not in tags:
            from difflib import get_close_matches  # (a game without a Variant tag)
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
        self.held: list[Held] | None = None
        """Findings kept back, with their places, while readings of a deal are compared."""
        self.slips = CardSlips(self.ruleset, len(game.deals))
        """The game's search for one card written wrongly in a deal."""
        self.playable = not any(CODES[p.code].stops == "game" for p in problems)
        for k, problem in enumerate(problems):
            where = ("tag", names.get(problem.tag, 0))
            fix = None
            if misspelt is not None and k == 0:  # the tag's name written wrongly
                name = game.tags[names[misspelt]].name
                fix = Fix((Edit("Variant", "name", name, where),), f"write Variant for {name}")
            self.emit(problem.code, problem.message, where, fix=fix)
        for i, name in doubled:
            self.emit("T205", f"the {name} tag is given twice with different values; the "
                              "first one counts", ("tag", i))
        if "date" in tags and iso_date(tags["date"]) is None:
            self.emit("T206", f"the Date tag {tags['date']!r} is not a date like "
                              "2025-05-17: stats --date leaves the game out",
                      ("tag", names["date"]))

    def emit(self, code: str, message: str, locus: Locus, *, deal: int | None = None,
             trick: int | None = None, seat: Seat | str | None = None,
             level: Severity | None = None, card: Card | None = None,
             part: str | None = None, fix: Fix | None = None) -> None:
        finding = Finding(code, message, 0, 0, deal=deal, trick=trick,
                          seat=str(seat) if seat is not None else None, level=level,
                          card=str(card) if card is not None else None, part=part, fix=fix)
        if self.held is not None:  # placed if it is kept
            self.held.append((locus, finding))
            return
        self.deliver_at(locus, finding)

    def deliver_at(self, locus: Locus, finding: Finding) -> None:
        """Places a finding at ``locus`` and reports it."""
        if self.source:
            line, column = self.source.find(locus)
            fix = finding.fix
            if fix is not None:  # (each edit at the place of its own part)
                fix = replace(fix, edits=tuple(
                    replace(e, line=at[0], column=at[1]) if e.locus else e
                    for e in fix.edits for at in (self.source.find(e.locus),)))
            finding = replace(finding, line=line, column=column, fix=fix)
        self.deliver(finding)

    def deliver(self, finding: Finding) -> None:
        """Reports a finding: raises a fault in strict mode, else collects it."""
        if self.strict and finding.is_fault:
            cls = RenegeError if finding.kind.renege else IllegalActionError
            seat = finding.seat
            raise cls.stated(finding.code, finding.message, trick=finding.trick,
                             seat=Seat(seat) if seat is not None and seat in Seat.__members__
                             else None,
                             card=parse_card(finding.card) if finding.card else None,
                             part=finding.part)
        self.report.findings.append(finding)
        if self.on_finding is not None:
            self.on_finding(finding)


    # ------------------------------------------------------------------ game

    def run(self) -> GameReport:
        """Replays the game: :meth:`begin`, :meth:`step` each deal, :meth:`end`."""
        if not self.begin():
            return self.report  # an unknown variant: replaying it would only mislead
        for d, deal in enumerate(self.game.deals):
            if not self.step(d, deal):
                break
        return self.end()

    def begin(self) -> bool:
        """Starts the game loop (the totals of the start line); whether the game can be
        replayed at all (not under an unknown variant). The loop's state is kept in
        attributes, so that a game can be taken up again after its last deal
        (:meth:`step`, as the server's judge does with each deal entered)."""
        if not self.playable:
            return False
        rules = self.ruleset
        sides = rules.side_names
        start = self.game.start
        self.totals = {s: (start.total or {}).get(s, 0) if start else 0 for s in sides}
        """The true running totals."""
        for side in (start.total or {}) if start else ():
            if side not in sides:
                self.emit("C904", f"start total for {side}, but {rules.variant.name} scores "
                                  f"for {' and '.join(sides)}", ("start", "total", side))
        self.written = dict(self.totals)
        """The running totals as the scorer kept them."""
        self.before = start.deal - 1 if start and start.deal else 0
        """The deals before the record."""
        self.counted = 0
        """The deals that count among deals=N (H4)."""
        self.played = self.before
        self.previous: Deal | None = None
        # The final scores the result line may give: the true totals, and (after a slip in
        # the points or totals written, or deals after the end) the totals the scorer carried.
        self.readings = [self.totals]
        return True

    def step(self, d: int, deal: Deal) -> bool:
        """Replays ``deal`` as deal ``d`` of the game (``d`` may be past the game's deals: a
        deal entered after them); false when the game had already ended (D307: the deals
        from there on are not replayed)."""
        totals = self.totals
        if self.report.ended:
            self.emit("D307", f"deal {deal.number} is recorded after the game ended",
                      ("deal", d), deal=deal.number)
            late = dict(totals)
            for extra in (deal, *self.game.deals[d + 1:]):
                for side, n in (extra.score.points or {} if extra.score else {}).items():
                    late[side] = late.get(side, 0) + n
            self.readings.append(late)
            return False
        if d >= self.slips.deals:
            self.slips.cover(d + 1)
        due = self.check_sequence(d, deal, self.previous)
        self.previous = deal
        # The last deal of a record marked unfinished may stop anywhere, unless its
        # points were written.
        self.open_deal = (d == len(self.game.deals) - 1 and self.game.end is not None
                          and self.game.end.act == "unfinished" and deal.score is None)
        result = self.either_card(d, deal) if due is None else self.either_dealer(d, deal, due)
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
        result.penalties = self.charges(d, deal) if deal.penalties else []
        for charge in result.penalties:
            totals[charge.side] -= charge.points
        result.totals = dict(totals)
        self.check_written(d, deal, result.points, self.written, totals, result.penalties)
        report = self.report
        report.deals.append(result)
        rules = self.ruleset
        self.counted += rules.counts(result.thrown)
        self.played = played = self.before + self.counted
        outcome = rules.outcome(totals, played)
        if outcome is not None and not (self.open_deal and result.points is None):
            # (a deal of an unfinished record that was not played out ends nothing)
            report.ended = True
            report.winner = outcome.winner
        return True

    def mark(self) -> LoopMark:
        """Where the loop stands after its last deal, to :meth:`rewind` to."""
        report = self.report
        return LoopMark(len(report.findings), len(report.deals), report.ended, report.winner,
                        dict(self.totals), dict(self.written), self.counted, self.previous,
                        self.due, len(self.readings), self.slips.left, self.slips.deals)

    def rewind(self, mark: LoopMark) -> None:
        """Takes the loop back to ``mark`` (:meth:`mark`): the deals stepped since, their
        findings and what they changed are forgotten (a deal entered and refused)."""
        report = self.report
        del report.findings[mark.findings:]
        del report.deals[mark.deals:]
        report.ended, report.winner = mark.ended, mark.winner
        self.totals.clear()
        self.totals.update(mark.totals)  # (the same dict: the first of the readings)
        self.written = dict(mark.written)
        self.counted = mark.counted
        self.played = self.before + mark.counted
        self.previous = mark.previous
        self.due = mark.due
        del self.readings[mark.readings:]
        self.slips.left, self.slips.deals = mark.slips_left, mark.slips_deals

    def end(self) -> GameReport:
        """Ends the game loop: the game's last line against the replay; the report."""
        report = self.report
        totals = self.totals
        report.totals = totals
        # The totals the scorer carried from a slip excuse a result only where, on the
        # scorer's own numbers too, the game ended.
        if any(f.kind.sheet == "slip" for f in report.findings) and (
                self.ruleset.outcome(self.written, self.played) is not None):
            self.readings.append(self.written)
        self.check_end(totals, self.readings)
        return report

    def either_dealer(self, d: int, deal: Deal, due: Seat) -> DealResult:
        """Replays a deal under the dealer written and the dealer due, and keeps the reading
        with fewer findings (:func:`~.readings.read_dealer`)."""
        result, findings = read_dealer(self.trial, self.ruleset, d, deal, due)
        for locus, finding in findings:
            self.deliver_at(locus, finding)
        return result

    def either_card(self, d: int, deal: Deal) -> DealResult:
        """Replays a deal as written or, where that is one card written wrongly, as read
        otherwise (:meth:`~.readings.CardSlips.read`)."""
        result, findings = self.slips.read(self.trial, self.emit, d, deal)
        for locus, finding in findings:
            self.deliver_at(locus, finding)
        return result

    def trial(self, d: int, deal: Deal) -> tuple[DealResult, list[Held]]:
        """Replays deal ``d`` as ``deal``, its findings kept back (a reading's trial)."""
        self.held = []
        result = self.deal(d, deal)
        held, self.held = self.held, None
        return result, held

    def deal(self, d: int, deal: Deal) -> DealResult:
        """Replays deal ``d`` of the game as ``deal`` (:class:`~.deal.DealReplay`)."""
        from .deal import DealReplay  # (a deal the fast path's bulk entry does not take)

        return DealReplay(self.ruleset, self.emit, self.open_deal, deal, self.trace).run(d)

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
                              f"{expected}", ("deal", d, "number"), deal=deal.number,
                      fix=_rewrite(("deal", d, "number"), "number", deal.number, expected,
                                   safe=False))
        if previous is not None:
            rules = self.ruleset
            want = rules.next_dealer(previous.dealer, thrown)
            # After a wrong dealer, the right one of the rotation is right too: one finding.
            if deal.dealer != want and deal.dealer != (
                    rules.next_dealer(self.due, thrown) if self.due else want):
                redealt = thrown and deal.dealer == previous.dealer
                self.emit("D302", f"deal {deal.number} is dealt by {deal.dealer}, but "
                                  f"{rotation(previous.number, previous.dealer, want, redealt)}",
                          ("deal", d, "dealer"), deal=deal.number, seat=deal.dealer,
                          fix=_rewrite(("deal", d, "dealer"), "seat", deal.dealer, want,
                                       safe=False))
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
        if (score is not None and not charges and score.total == totals
                and score.points == points):
            # (the common case, which the comparisons below would find right in full: the
            # points written are the deal's, and the totals the true ones)
            written.update(totals)
            return
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
        if (score.points is not None and points is not None
                and points_differ(self.ruleset, deal, points)):
            wrote = {s: score.points.get(s, 0) for s in sides}
            scored = {s: points.get(s, 0) for s in sides}
            differ = [s for s in sides if wrote[s] != scored[s]]
            side = next((s for s in differ if s in score.points), differ[0])
            fix = None
            if points:  # (a deal thrown in scores nothing, and has no points to write)
                # Points scored from the play are proved; from a score-sheet line, the
                # line's numbers may be the slip as well as the points.
                proved = deal.sheet is None and not any(f.deal == deal.number and f.is_fault
                                                        for f in self.report.findings)
                fix = Fix((Edit(f"points {_sides(points)}", "points", "", ("deal", d, "points")),),
                          f"write points {_sides(points)}", safe=proved and self.known())
            self.emit("C901", f"deal {deal.number}: points written {_sides(wrote)}, but the "
                              f"deal scored {_sides(scored)}",
                      ("deal", d, "points", side), deal=deal.number, fix=fix)
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
                true_totals = {side: totals[side] for side in score.total if side in sides}
                fix = Fix((Edit(f"total {_sides(true_totals)}", "total", "",
                                ("deal", d, "total")),),
                          f"write total {_sides(true_totals)}", safe=self.known())
                self.emit("C902", f"deal {deal.number}: total {s} {score.total[s]} does not add "
                                  f"up: {written[s]} before plus {delta.get(s, 0)}{less} is "
                                  f"{expected[s]}{true}", ("deal", d, "total", s),
                          deal=deal.number, fix=fix)
            for s in sides:
                written[s] = score.total.get(s, expected[s])
        else:
            written.update(expected)

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
                                  f"{shown}, won by {report.winner}", ("end",),
                          fix=self.result_fix(totals))
            return
        wrote = {s: (end.scores or {}).get(s) for s in totals}
        fits = [r for r in readings if all(wrote[s] == r.get(s) for s in totals)]
        if not report.ended:
            if all(r is totals for r in fits):  # a result carried from a slip is no new one
                self.emit("G955", f"a result is recorded, but the game had not ended: {shown}"
                                  f"{self.tie_note(totals)}", ("end",),
                          fix=Fix((Edit("unfinished", "end", "", ("end",)),),
                                  "write unfinished", safe=False))
            return
        winners = {report.winner} | {_leader(r) for r in fits}
        if end.scores:
            wrong = [s for s in end.scores if wrote.get(s) != totals.get(s)]
            if wrong and not fits:
                self.emit("G952", f"the result says {_sides(end.scores)}, but the game ended "
                                  f"{shown}", ("end", "score", wrong[0]),
                          fix=self.result_fix(totals))
        if end.winner is not None and end.winner not in winners:
            self.emit("G953", f"the result names {end.winner} the winner, but "
                              f"{report.winner or 'no one'} won with {shown}", ("end", "winner"),
                      fix=self.result_fix(totals))

    def result_fix(self, totals: dict[str, int]) -> Fix:
        """The fix of a wrong end line: the result the replay gives (the sides in the
        order written, the winner if the line names one or was ``unfinished``)."""
        end = self.game.end
        assert end is not None
        written = end.scores or {}
        order = [*written, *(s for s in totals if s not in written)]
        result = f"result {_sides({s: totals[s] for s in order if s in totals})}"
        winner = self.report.winner
        if winner is not None and (end.act == "unfinished" or end.winner is not None):
            result += f" winner {winner}"
        return Fix((Edit(result, "end", "", ("end",)),), f"write {result}", safe=self.known())

    def known(self) -> bool:
        """Whether the points of every deal so far are known, so that the running totals
        are proved (a fix of a total or of the result is then safe)."""
        return not any(f.kind.sheet == "unknown" for f in self.report.findings)

    def tie_note(self, totals: dict[str, int]) -> str:
        """Why a game at the target goes on: a tie on top (X9, G7)."""
        top = max(totals.values(), default=0)
        leaders = [s for s, v in totals.items() if v == top]
        if len(leaders) > 1 and top >= self.ruleset.options.target:
            return f" ({' and '.join(leaders)} tie on top, so play goes on)"
        return ""

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


def _rewrite(locus: Locus, kind: str, old: object, new: object, *, safe: bool) -> Fix:
    """The fix that writes ``new`` for ``old``, a word of ``kind`` at ``locus``."""
    return Fix((Edit(str(new), kind, str(old), locus),), f"write {new} for {old}", safe=safe)


def _leader(values: dict[str, int]) -> str | None:
    """The side with the most points, if one alone has them."""
    top = max(values.values(), default=0)
    leaders = [s for s, v in values.items() if v == top]
    return leaders[0] if len(leaders) == 1 else None


def _sides(values: dict[str, int]) -> str:
    return " ".join(f"{s} {v}" for s, v in values.items()) or "nothing"
