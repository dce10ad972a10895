"""The replay of one deal through :class:`~euchrelog.engine.DealState`: its cards, bids,
exchange, declarations, score-sheet line and tricks, each fault reported at its act, and the
points it scored."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise, product
from typing import TYPE_CHECKING, Literal, cast

from ..acts import Declaration, Exchange, Merge, Swap
from ..cards import NO_TRUMP, Card, deck_set, trick_winner
from ..engine import Action, DealState, Evidence, Phase, proved_renege
from ..errors import IllegalActionError
from ..findings import Edit, Fix, Severity
from ..loci import Locus, act_loci, part_locus
from ..rules import MOON, Ruleset
from ..seats import Seat
from .census import check_cards
from .readings import A, declare_as_written, reseat
from .results import DealResult, DealTrace, Emit, scored

if TYPE_CHECKING:
    from ..models import Bid, Deal, Trick


class DealReplay:
    """The replay of one deal of a game, each finding reported through ``emit``."""

    def __init__(self, rules: Ruleset, emit: Emit, open_deal: bool, deal: Deal,
                 trace: bool | Literal["acts"] = False) -> None:
        self.ruleset = rules
        self.trace = trace
        """Whether to keep the deal as taken (:class:`~.results.DealTrace`); ``"acts"``:
        without the state at the opening lead."""
        self.emit = emit
        self.open_deal = open_deal
        """The deal is the last of a record marked unfinished, and may stop anywhere."""
        self.deal = deal
        """The deal being replayed."""
        self.acts: list[Action | None] = []
        """The acts of the deal, in order (``None`` ends a trick)."""
        self.gaps: dict[int, int] = {}
        """Tricks missing from the record of the deal: how many before each trick."""

    def run(self, d: int) -> DealResult:
        """Replays the deal, deal ``d`` of the game, and returns what it scored."""
        deal = self.deal
        rules = self.ruleset
        result = DealResult(deal.number, deal.dealer, None, {})
        hands = check_cards(rules, self.emit, d, deal)
        up = deal.up.card if deal.up else None
        kitty = deal.up.kitty if deal.up else None
        extra = deal.extra.cards if deal.extra and deal.extra.kind == rules.extra_hand else None
        state = DealState(rules, deal.dealer, hands=hands, upcard=up, kitty=kitty, extra=extra)
        dealt = state.copy() if self.trace else None
        taken: list[Action] = []
        faulted = False
        n = deal.number

        def fault(err: IllegalActionError, locus: Locus, trick: int | None = None,
                  seat: Seat | None = None, level: Severity | None = None,
                  fix: Fix | None = None) -> None:
            nonlocal faulted
            if err.kind.stops == "deal" and faulted:
                return
            faulted = True
            self.emit(err.code, f"deal {n}: {err.message}", locus, deal=n, trick=trick,
                      seat=seat, level=level, card=err.card, part=err.part, fix=fix)

        tricks = self.trick_order(d, deal)
        bids = deal.bids
        acts: list[Action | None] = [*bids, *deal.acts]
        for _, trick in tricks:
            acts.extend(trick.plays)
            acts.append(None)
        self.acts = acts
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
            taken.append(bid)
            if maker is None and state.maker is not None:
                made = ("deal", d, "bid", k)
        sheet = deal.sheet
        if sheet is not None:
            self.check_sheet(d, deal, state)
        at = len(bids)
        for k, (act, locus) in enumerate(zip(deal.acts, act_loci(deal, d), strict=True)):
            if isinstance(act, Merge):
                err = state.check_merge(act)
                if err is not None:
                    locus = _merge_locus(locus, act, err)
            elif isinstance(act, Exchange):
                err = state.check_exchange(act)
                if err is not None and err.part is not None:
                    locus = part_locus(locus, err.part)
            chosen = self.act(state, act, at + k, locus, fault)
            state.apply_act(chosen)
            taken.append(chosen)
        if sheet is not None and not sheet.thrown:
            if deal.declarations or deal.merge is not None:  # (a merge: no lone maker)
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
        lead = state.copy() if self.trace is True and tricks else None
        self.play_tricks(d, deal, tricks, state, claimed, fault, canadian)
        if dealt is not None:
            result.trace = DealTrace(dealt, taken, lead)
        result.thrown = state.phase is Phase.THROWN
        result.maker = state.maker
        result.trump = state.trump.value if state.trump else None
        result.lone = state.alone
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
        apply (see :func:`~euchrelog.replay.readings.reseat`)."""
        err = state.check_act(act)
        if err is None:
            return act
        chosen, declared = (reseat(self.ruleset, state, act, self.acts[at + 1:], self.deal)
                            if err.kind.reseat else (act, False))
        if declared:
            declare_as_written(state, act)
            err = err.noted(f"; taken as written: {act.seat} plays alone")
        self.report_act(state, err, act, chosen, locus, fault)
        return chosen

    def report_act(self, state: DealState, err: IllegalActionError, act: Action, chosen: Action,
                   locus: Locus, fault: Callable[..., None], trick: int | None = None) -> None:
        """One finding for a faulty act, saying so when it was taken as another seat's (and
        then its fix, a guess, writes that seat)."""
        fix = None
        if chosen is not act:
            err = err.noted(f"; taken as {chosen.seat}'s")
            at = (*locus[:-2], "seat", locus[-1]) if locus[-2:-1] == ("play",) else locus
            fix = Fix((Edit(str(chosen.seat), "seat", str(act.seat), at),),
                      f"write {chosen.seat} for {act.seat}", safe=False)
        fault(err, locus, trick=trick, seat=act.seat, fix=fix)

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
                          ("deal", d, "trick", t), deal=n, trick=trick.number,
                          fix=Fix((Edit(None, "line", "", ("deal", d, "trick", t)),),
                                  f"delete the second trick {trick.number}"))
                continue
            order.append((t, trick))
        numbers = [trick.number for _, trick in order]
        if sorted(numbers) == list(range(1, len(numbers) + 1)) and numbers != sorted(numbers):
            k = next(k for k, number in enumerate(numbers) if number != k + 1)
            t, trick = order[k]
            due = order[numbers.index(k + 1)][0]
            swap = Fix((Edit(None, "swap", "", ("deal", d, "trick", t)),
                        Edit(None, "swap", "", ("deal", d, "trick", due))),
                       f"put trick {k + 1} before trick {trick.number}")
            self.emit("P707", f"deal {n}: trick {trick.number} is written before trick {k + 1}; "
                              "the tricks are read in the order of their numbers",
                      ("deal", d, "trick", t), deal=n, trick=trick.number, fix=swap)
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
                    state: DealState, claimed: set[Seat], fault: Callable[..., None],
                    canadian: IllegalActionError | None) -> None:
        """Replays the tricks; ``canadian`` is the deal's canadian-loner fault, reported at
        the order already."""
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
            proved = (state.play_trick([(play.seat, play.card) for play in trick.plays])
                      if canadian is None else None)
            if proved is not None:  # a trick plainly legal: played at once, as in bulk
                for proof in proved:
                    self.proved(d, deal, state, proof, reneged, slots, claimed)
                at += len(trick.plays) + 1
                continue
            out_of_turn = False
            doubtful: list[int] = []
            """The plays of the trick whose card its seat cannot have played."""
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
                if err is not None and err.kind.reseat:
                    chosen, _ = reseat(self.ruleset, state, play, self.acts[at + p + 1:], deal)
                    if chosen is not play:
                        self.report_act(state, err, play, chosen, locus, fault, trick.number)
                        play = chosen
                        err = None
                    elif out_of_turn:
                        err = None  # a trick written out of order: one finding, not one a card
                    out_of_turn = True
                if err is not None and canadian is not None and err.code == canadian.code:
                    err = None  # reported at the order (H3)
                if err is not None and err.kind.slip == "play":
                    doubtful.append(len(state.current))  # the trick may rest on it
                if err is not None and err.kind.suspect == "hand":
                    if play.seat in not_held:
                        err = None  # the record of that hand is wrong: one finding a deal
                    not_held.add(play.seat)
                if err is not None and err.kind.renege:
                    if any(seat == play.seat for seat, _ in reneged):
                        err = None  # the penalty is once a deal: so is the finding
                    reneged.add((play.seat, t))
                if err is not None:
                    level: Severity | None = None
                    if err.kind.renege:
                        err = err.noted(self.penalty_note(state, play.seat, claimed))
                        level = "note" if play.seat in claimed else None
                    fault(err, locus, trick=trick.number, seat=play.seat, level=level)
                    if err.kind.stops == "deal":
                        return
                for proof in state.apply_play(play):
                    self.proved(d, deal, state, proof, reneged, slots, claimed)
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
            if doubtful and state.tricks and not self.winner_sure(deal, state, doubtful):
                state.doubt_last_trick()
        if (tricks and state.phase is Phase.PLAYING and not claimed and not self.open_deal
                and not self.gaps and len(state.tricks) < self.ruleset.variant.tricks):
            self.emit("P706", f"deal {n}: the record has {len(state.tricks)} of "
                              f"{self.ruleset.variant.tricks} tricks",
                      ("deal", d, "trick", tricks[-1][0]), deal=n)

    def winner_sure(self, deal: Deal, state: DealState, doubtful: list[int]) -> bool:
        """Whether the last trick's winner is the same whatever card was played at each
        of its ``doubtful`` plays (a card its seat cannot have played): the card written,
        or any card of the deck that the record neither plays elsewhere nor places
        elsewhere (in another hand, the kitty, the discard, the upcard taken up). Then
        the trick, and the deal's points, stand although the card is wrong (C8, P4)."""
        trump = state.trump
        trick = state.tricks[-1]
        winner = state.winners[-1]
        if trump is None or winner is None or len(doubtful) > 2 or any(
                q >= len(trick) for q in doubtful):
            return False
        written = {play.card for other in deal.tricks for play in other.plays}
        choices: list[list[Card]] = []
        for q in doubtful:
            seat, card = trick[q]
            if card is None:
                return False
            mine = seat.value
            choices.append([card, *(c for c in deck_set(self.ruleset.options.deck)
                                    if c not in written and state.place_of(c) in (None, mine))])
        cards = [c for _, c in trick]
        for chosen in product(*choices):
            for q, card in zip(doubtful, chosen, strict=True):
                cards[q] = card
            if None in cards or trick[trick_winner(cast(list[Card], cards), trump)][0] != winner:
                return False
        return True

    def proved(self, d: int, deal: Deal, state: DealState, proof: Evidence,
               reneged: set[tuple[Seat, int]], slots: list[tuple[int, Trick]],
               claimed: set[Seat]) -> None:
        """Reports a renege a later play proves (R802), once a deal for its seat
        (``reneged``: the seats reported so far, with their tricks)."""
        if any(seat == proof.seat for seat, _ in reneged):
            return
        reneged.add((proof.seat, proof.trick))
        # A trick the state closed within this line of the record (a line of more cards
        # than seats play, some of them seats that sit out) is this line's.
        t, trick = slots[min(proof.trick, len(slots) - 1)]
        self.emit("R802", f"deal {deal.number}: {proved_renege(proof).message}"
                          f"{self.penalty_note(state, proof.seat, claimed)}",
                  ("deal", d, "trick", t, "play", proof.play), deal=deal.number,
                  trick=trick.number, seat=proof.seat, card=proof.card,
                  level="note" if proof.seat in claimed else None)

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
            played = scored(deal, state)
            if played is None:
                return None
            return {s: played.get(s, 0) + penalty.get(s, 0) for s in sides}
        if penalty is not None:
            return penalty
        return scored(deal, state)

def _merge_locus(line: Locus, merge: Merge, err: IllegalActionError) -> Locus:
    """The kept card a K506 names, else the merge line."""
    for k, card in enumerate(merge.keeps or ()):
        if card is not None and card == err.card:
            return (*line, "card", k)
    return line
