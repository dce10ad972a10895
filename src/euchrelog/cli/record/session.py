"""The session of ``euchrelog record``: :class:`Session` asks the questions, records each
answer through the :class:`~euchrelog.recorder.Recorder` and saves the file after every
entry."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from pathlib import Path

from ...acts import Call, Declaration, Merge, Number, Order, Pass, Play, Swap
from ...cards import Card, NoTrump, Suit, sort_hand
from ...engine import DealState, Phase
from ...errors import IllegalActionError, RenegeError
from ...files import failure_text
from ...models import Game, Sheet
from ...recorder import Action, CardsLike, DealCards, Recorder, RecorderError
from ...rules import MOON, Variant, find_variant
from ...seats import SEATS, Seat, clockwise_from
from .questions import EVENT_QUESTIONS, EVENT_TAGS, HELP, OPTIONAL, Draft, Question
from .terminal import EXIT_INTERRUPTED, EXIT_USAGE, Console, SaveError, signature
from .words import (
    UnclearError,
    cards_text,
    describe,
    number_word,
    parse_act,
    parse_bids,
    seat_word,
    show_cards,
    suit_choices,
    suit_word,
    trump_news,
    yes_no,
)


class Session:
    """One interactive recording session into one file."""

    def __init__(self, path: Path, console: Console, *, recorder: Recorder | None = None,
                 before: Sequence[Game] = (), variant: Variant | None = None,
                 rules: str | None = None, target: int | None = None,
                 tags: Mapping[str, str] | None = None, force: bool = False) -> None:
        self.path = path
        self.console = console
        self.force = force
        self.saved = signature(path)
        """The file as this session last saved (or read) it: a later change by another
        program is refused."""
        self.rec = recorder
        self.before = tuple(before)
        self.variant = recorder.variant if recorder is not None else variant or find_variant(
            "four-hand")
        self.rules = rules
        self.target = target
        self.tags = dict(tags or {})
        """The event tags given on the command line (Event, Site, Date, Round, Table)."""
        self.renege: tuple[Play, bool] | None = None
        """A play refused as a renege, while the scorer says whether it was played all the
        same (and then, the flag set, whether it was claimed)."""
        self.draft: Draft | None = Draft("setup") if recorder is None else None
        self.mode = "full"
        if recorder is not None and recorder.deals:
            cards = recorder.deal_cards
            bare = cards is not None and not cards.hands and cards.upcard is None
            self.mode = "sheet" if bare and any(
                isinstance(e, Sheet) for e in recorder.entries) else "full"
        self.announced: tuple[int, str] | None = None

    # ------------------------------------------------------------ the loop

    def run(self) -> int:
        """Asks and records until the game is over or the input ends; the exit status."""
        say = self.console.say
        try:
            self.banner()
            while True:
                question = self.question()
                answer = self.console.ask(question.prompt, question.words)
                if answer is None:
                    self.stop()
                    return 0
                text = answer.strip()
                command = text.lower()
                if command in ("?", "help"):
                    self.help(question)
                elif command == "undo":
                    self.undo()
                elif command in ("quit", "exit"):
                    self.stop()
                    return 0
                elif not text and question.default:
                    self.answer(question, question.default)
                elif not text and question.key not in OPTIONAL and not question.key.startswith(
                        OPTIONAL):
                    continue
                elif question.key == "over":
                    if not text:
                        say(f"saved {self.path}")
                        return 0
                    say("  the game is over: press Enter to finish, or type undo")
                else:
                    try:
                        if command.split()[:1] == ["penalty"] and self.rec is not None:
                            self.penalty(text)
                        else:
                            self.answer(question, text)
                    except UnclearError as exc:
                        say(f"  {exc}")
                    except IllegalActionError as exc:
                        say(f"  refused: {exc}")
                    except RecorderError as exc:
                        say(f"  {exc}")
                    except SaveError:
                        raise
                    except Exception as exc:  # a bug: keep the session, report it
                        say(f"  internal error, please report it: {type(exc).__name__}: "
                            f"{exc}; {self.path} holds every entry saved before this answer")
        except SaveError as exc:
            return self.rescue(exc)
        except KeyboardInterrupt:
            say()
            self.stop()
            return EXIT_INTERRUPTED

    def banner(self) -> None:
        """Says what is recorded, and how to get help."""
        if self.rec is not None:
            rec = self.rec
            self.console.say(f"resuming {self.path}: {self.what()}; {self.standing()}")
        else:
            self.console.say(f"recording into {self.path}: {self.what()}")
        self.console.say("type ? for help, undo to take back the last entry, "
                         "Ctrl-D to stop (all is saved)")
        if self.rec is not None and rec.deal_open:
            self.console.say(self.deal_header())

    def what(self) -> str:
        """The game: its variant and target."""
        if self.rec is None:
            probe = Recorder(self.variant, rules=self.rules, target=self.target)
        else:
            probe = self.rec
        options = probe.ruleset.options
        goal = f"{options.deals} deals" if options.deals else f"to {options.target}"
        return f"{probe.variant.name}, {goal}"

    def standing(self) -> str:
        """Where the game stands."""
        rec = self.rec
        assert rec is not None
        if rec.over:
            return f"the game is over, {self.score()}"
        return f"deal {rec.deal_number}, {self.score()}"

    def score(self) -> str:
        """The score in words."""
        assert self.rec is not None
        return "score " + " ".join(f"{s} {n}" for s, n in self.rec.totals.items())

    def stop(self) -> None:
        """Says that all is saved and how to go on."""
        rec = self.rec
        if rec is None:
            self.console.say("stopped before the game was set up: nothing saved")
            return
        if rec.over:
            self.console.say(f"saved {self.path}")
            return
        where = f"deal {rec.deal_number} is unfinished" if rec.deal_open else \
            f"next is deal {rec.deal_number}"
        lost = " (the answers for the deal being started are not)" if (
            self.draft is not None and self.draft.answers) else ""
        self.console.say(f"saved {self.path}{lost}: {where}; go on with: "
                         f"euchrelog record --resume {self.path}")

    def save(self, what: str) -> None:
        """Writes the record, atomically, unless another program changed the file since this
        session last saved it.

        :raises SaveError: when the file cannot be written (``what`` is then not on disk).
        """
        assert self.rec is not None
        if signature(self.path) != self.saved:
            raise SaveError("it changed since this session last saved it (another program "
                            "wrote it), so it is not overwritten", what, changed=True)
        try:
            self.rec.save(self.path, self.before, force=self.force)
        except OSError as exc:
            raise SaveError(failure_text(exc), what) from None
        self.saved = signature(self.path)

    def rescue(self, failure: SaveError) -> int:
        """After a failed save: says what is not on disk and offers to save the record to
        another file; the exit status (2)."""
        say = self.console.say
        draft = " and the answers for the deal being started" if (
            self.draft is not None and self.draft.answers and self.draft.kind != "setup") else ""
        say(f"cannot save {self.path}: {failure.reason}")
        kept = "is as the other program left it" if failure.changed else \
            "holds everything before it"
        say(f"not on disk: {failure.what}{draft}; {self.path} {kept}; no more entries are "
            "taken")
        assert self.rec is not None
        while True:
            answer = self.console.ask("save the record to another file? (a new .euchre "
                                      "file, or Enter to quit) > ", [])
            other = (answer or "").strip()
            if not other:
                say(f"not saved: {failure.what}{draft}")
                return EXIT_USAGE
            path = Path(other).expanduser()
            if path.suffix != ".euchre":
                say("  give the name of a .euchre file")
                continue
            if path.exists() and (path.is_dir() or path.stat().st_size):
                say(f"  {path} exists: give a new file")
                continue
            try:
                self.rec.save(path, self.before)
            except OSError as exc:
                say(f"  cannot save {path}: {failure_text(exc)}")
                continue
            say(f"saved {path}: go on with: euchrelog record --resume {path}")
            return EXIT_USAGE

    # ------------------------------------------------------------ questions

    def question(self) -> Question:
        """The next question."""
        rec = self.rec
        if self.draft is not None and self.draft.kind == "setup":
            return self.setup_question()
        assert rec is not None
        if self.renege is not None:
            play, played = self.renege
            if not played:
                return Question("renege", f"was {play.card} played all the same (a renege)? "
                                          "[y/n, or the card played] > ",
                                ["y", "n", *self.act_question(quiet=True).words])
            return Question("claimed", "did the table claim the renege (the penalty is scored "
                                       "instead of the tricks)? [y/n] > ", ["y", "n"])
        if self.draft is not None:
            return self.draft_question(self.draft)
        if rec.deal_open:
            return self.act_question()
        if rec.over:
            return Question("over", "game over: press Enter to finish, or undo > ", ["undo"])
        self.draft = Draft("deal")
        self.console.say()
        self.console.say(self.deal_header())
        return self.draft_question(self.draft)

    def deal_header(self) -> str:
        """The line that opens a deal."""
        rec = self.rec
        assert rec is not None
        dealer = rec.dealer
        who = f": {dealer} deals" if dealer is not None else ""
        return f"deal {rec.deal_number}{who}; {self.score()}"

    def setup_question(self) -> Question:
        draft = self.draft
        assert draft is not None
        variant = self.variant
        if "Event" in self.tags:
            for name, prompt in EVENT_QUESTIONS.items():
                if name not in self.tags and not draft.has(name):
                    return Question(name, prompt)
        if len(variant.seats) < 4 and not draft.has("seats"):
            return Question("seats", f"seats of the {len(variant.seats)} players "
                                     f"[{' '.join(variant.seats)}] > ", list("NESW"))
        for seat in self.setup_seats():
            if not draft.has(f"player {seat}"):
                return Question(f"player {seat}", f"{seat} player's name (Enter for none) > ")
        raise AssertionError("setup is complete")  # pragma: no cover

    def setup_seats(self) -> tuple[Seat, ...]:
        assert self.draft is not None
        seats = self.draft.get("seats")
        return seats if isinstance(seats, tuple) else self.variant.seats

    def deal_keys(self, draft: Draft) -> list[str]:
        """The questions of a deal draft, given the answers so far."""
        rec = self.rec
        assert rec is not None
        keys: list[str] = []
        if rec.dealer is None and not draft.open_deal:
            keys.append("dealer")
        if not draft.open_deal:
            keys.append("mode")
        mode = "sheet" if draft.open_deal else draft.get("mode")
        if mode == "full":
            dealer = self.draft_dealer(draft)
            keys += [f"hand {s}" for s in clockwise_from(dealer.left, rec.seats)]
            if rec.ruleset.extra_hand:
                keys.append("extra")
            if rec.variant.upcard:
                keys += ["upcard", "kitty"]
        elif mode == "sheet":
            state = rec.state
            fixed = state is not None and state.phase is Phase.DECLARING
            if not fixed:
                keys.append("trump")
                if draft.get("trump") == "thrown":
                    return keys
                keys.append("maker")
                if rec.variant.alone == "declared":
                    keys.append("alone")
                if rec.ruleset.options.lone_defender and rec.variant.alone != "never":
                    keys.append("defend")
                if not rec.variant.scoring:
                    keys.append("bid")
            if rec.variant.scoring:
                keys.append("tricks")
            else:
                keys += [f"taken {s}" for s in rec.seats[:-1]]
        return keys

    def draft_dealer(self, draft: Draft) -> Seat:
        rec = self.rec
        assert rec is not None
        dealer = draft.get("dealer")
        if isinstance(dealer, Seat):
            return dealer
        return rec.dealer or rec.seats[0]

    def draft_question(self, draft: Draft) -> Question:
        rec = self.rec
        assert rec is not None
        key = next((k for k in self.deal_keys(draft) if not draft.has(k)), None)
        assert key is not None, "a complete draft is committed"
        size = rec.variant.hand_size
        seats = list(map(str, rec.seats))
        if key == "dealer":
            return Question(key, f"first dealer [{' '.join(seats)}] (Enter for "
                                 f"{rec.seats[0]}) > ", seats)
        if key == "mode":
            other = "sheet" if self.mode == "full" else "full"
            return Question(key, f"full play or score sheet? (Enter for {self.mode}, or "
                                 f"{other}) > ", ["full", "sheet"])
        if key.startswith("hand "):
            return Question(key, f"{key[5:]}'s hand, {size} cards (Enter if not known) > ",
                            self.unseen(draft))
        if key == "extra":
            kind = rec.ruleset.extra_hand
            return Question(key, f"{kind} hand, {rec.ruleset.extra_size} cards (Enter if "
                                 "not known) > ", self.unseen(draft))
        if key == "upcard":
            return Question(key, "upcard > ", self.unseen(draft))
        if key == "kitty":
            name = rec.variant.kitty_name
            return Question(key, f"{name}, {rec.ruleset.kitty_size} cards (Enter if not "
                                 "seen) > ", self.unseen(draft))
        if key == "trump":
            suits = suit_choices(rec.ruleset)
            if rec.ruleset.options.stick_the_dealer:  # no deal is thrown in (F6)
                return Question(key, f"trump [{' '.join(suits)}] > ", suits)
            return Question(key, f"trump [{' '.join(suits)}], or thrown if everyone passed > ",
                            [*suits, "thrown"])
        if key == "maker":
            return Question(key, f"maker [{' '.join(seats)}] > ", seats)
        if key == "alone":
            partners = self.lone_partners(draft)
            if partners:
                return Question(key, f"did the maker go alone? [y, no, or {' or '.join(partners)}"
                                     " if its partner went alone] (Enter for no) > ",
                                ["y", "no", *partners])
            return Question(key, "did the maker go alone? [y/n] (Enter for n) > ", ["y", "n"])
        if key == "defend":
            return Question(key, "did a defender defend alone? [the seat, or no] (Enter for "
                                 "no) > ", [*seats, "no"])
        if key == "bid":
            return Question(key, "the winning bid [3 4 5 moon] > ", ["3", "4", "5", "moon"])
        if key == "tricks":
            state = rec.state
            contract = ""
            if state is not None and state.phase is Phase.DECLARING:
                assert state.trump is not None
                contract = f"{state.trump.noun} by {state.maker}: "
            return Question(key, f"{contract}tricks the makers took [0-{rec.variant.tricks}] > ",
                            [str(n) for n in range(rec.variant.tricks + 1)])
        seat = key[6:]
        left = rec.variant.tricks - self.taken_so_far(draft)
        return Question(key, f"tricks {seat} took [0-{left}] > ",
                        [str(n) for n in range(left + 1)])

    def unseen(self, draft: Draft) -> list[str]:
        """The cards not yet given in a deal draft: the words that complete."""
        rec = self.rec
        assert rec is not None
        from ...cards import make_deck

        given: set[Card] = set()
        for _, value in draft.answers:
            if isinstance(value, tuple):
                given |= {c for c in value if isinstance(c, Card)}
            elif isinstance(value, Card):
                given.add(value)
        return [str(c) for c in make_deck(rec.ruleset.options.deck) if c not in given]

    def act_question(self, *, quiet: bool = False) -> Question:
        """The question of the open deal: a bid, the exchange, the lead or a play (``quiet``:
        without saying first what may be declared)."""
        rec = self.rec
        assert rec is not None
        state = rec.state
        assert state is not None
        if not quiet:
            self.announce(state)
        seat = rec.turn()
        if state.phase is Phase.BIDDING:
            assert seat is not None
            bids = [a for a in rec.legal_actions() if isinstance(a, Pass | Order | Call | Number
                                                                  | Swap)]
            if state.naming or state.round == 0:
                why = " (the upcard is the benny)" if state.round == 0 else ""
                return Question("bid", f"{seat} names trump{why} [C D H S] > ",
                                ["C", "D", "H", "S"])
            words = [describe(b).split(" ", 1)[1] for b in bids]
            return Question("bid", f"{seat} bids [{', '.join(words)}] > ",
                            [w for b in words for w in b.split()])
        if rec.exchange_pending:
            up = state.upcard
            hand = state.hands[state.dealer]
            if hand.free:
                return Question("act", f"{state.dealer} takes {up} and discards (a card, ?? if "
                                       "not seen), or declines > ",
                                ["declines", "??", *self.any_cards(state)])
            six = sort_hand([*hand.cards, *([up] if up is not None else [])])
            return Question("act", f"{state.dealer} takes {up} and discards [{show_cards(six)}]"
                                   ", or declines > ", ["declines", *map(str, six)])
        plays = rec.plays()
        if seat is None:  # a trick with a card not known (??, in a resumed record)
            return Question("unknown", "a card of the last trick is not known (??), so neither "
                                       "is who leads: type undo to go back to it > ", ["undo"])
        hand = state.hands[seat]
        only = ""
        if hand.free:
            choices, words = "(a card)", [str(p.card) for p in rec.plays(any_card=True)]
        else:
            cards = sort_hand([p.card for p in plays if p.card is not None])
            choices, words = f"[{show_cards(cards)}]", [str(c) for c in cards]
            if len(cards) == 1:  # the seat's only legal card: Enter plays it
                only = str(cards[0])
                choices += f" (Enter for {only})"
        if state.phase is Phase.DECLARING:
            return Question("act", f"{seat} leads {choices} > ",
                            [*words, "alone", "defend", "merge", "keeps"], only)
        trick = len(state.tricks) + 1
        shown = "  ".join(f"{s}: {c or '??'}" for s, c in state.current)
        so_far = f", {shown}" if shown else ""
        verb = "plays" if state.current else "leads"
        return Question("act", f"trick {trick}{so_far}; {seat} {verb} {choices} > ", words,
                        only)

    def any_cards(self, state: DealState) -> list[str]:
        from ...cards import make_deck

        return [str(c) for c in make_deck(state.ruleset.options.deck)
                if state.place_of(c) in (None, state.dealer.value)]

    def announce(self, state: DealState) -> None:
        """Before the lead: says once what may be declared (exchange, merge, lone hands)."""
        rec = self.rec
        assert rec is not None
        if state.phase is not Phase.DECLARING:
            return
        notes: list[str] = []
        maker = state.maker
        assert maker is not None
        if maker is not None and state.can(Merge(act="merge", seat=maker)):
            notes.append(f"{maker} may take up the dummy (merge, or merge keeps 5 cards)")
        lone = sorted((s for s in rec.seats
                       if state.can(Declaration(act="alone", seat=s))),
                      key=lambda s: s != maker)
        if lone:
            how = ["alone" if s == maker else f"alone {s}" for s in lone]
            notes.append(f"{' or '.join(lone)} may go alone ({', or '.join(how)})")
        defenders = [s for s in rec.seats if state.can(
            Declaration(act="defend", seat=s))]
        if defenders:
            who = " or ".join(map(str, defenders))
            notes.append(f"{who} may defend alone (defend {defenders[0]})")
        text = "  before the lead: " + "; ".join(notes)
        mark = (rec.deal_number, text)
        if notes and self.announced != mark:
            self.console.say(text)
        self.announced = mark

    # ------------------------------------------------------------ answers

    def answer(self, question: Question, text: str) -> None:
        """Takes one answer: a draft answer, or an act of the open deal."""
        if text.lower() == "sheet":
            self.switch_to_sheet()
            return
        if self.draft is not None and self.draft.kind == "setup":
            self.setup_answer(question, text)
            return
        if question.key in ("renege", "claimed"):
            self.renege_answer(question.key, text)
            return
        if self.draft is not None:
            self.draft_answer(self.draft, question, text)
            return
        if not text:
            return
        if question.key == "unknown":
            raise UnclearError("undo back to the card not known and enter it, or undo the "
                               "plays of the deal and type sheet")
        rec = self.rec
        assert rec is not None and rec.state is not None
        state = rec.state
        if state.phase is Phase.BIDDING:
            seat = rec.turn()
            assert seat is not None
            acts: list[Action] = list(parse_bids(text, seat, rec.variant))
        else:
            acts = [parse_act(text, rec)]
        for act in acts:
            self.enter(act)

    def renege_answer(self, key: str, text: str) -> None:
        """Whether a refused card was played all the same, and whether it was claimed; to the
        first question, another card is the card played instead (the refused one was a
        slip), entered as the play."""
        assert self.renege is not None
        play, _ = self.renege
        if key == "renege" and text.strip().lower() not in ("y", "yes", "n", "no"):
            rec = self.rec
            assert rec is not None
            try:
                act = parse_act(text, rec)
            except UnclearError:
                raise UnclearError("answer y or n, or type the card played instead") from None
            self.renege = None
            self.enter(act)
            return
        yes = yes_no(text)
        if key == "renege":
            self.renege = (play, True) if yes else None
            return
        self.renege = None
        self.enter(play, renege=yes)
        if yes:
            self.console.say(f"  {play.seat}'s renege is claimed: the deal scores the penalty "
                             "once this trick is played")

    def enter(self, act: Action, *, renege: bool | None = None) -> None:
        """Enters one act (with ``renege``, a play as a renege, claimed or not), saves, and
        says what it did."""
        rec = self.rec
        assert rec is not None and rec.state is not None
        before = rec.state
        phase, round_, tricks = before.phase, before.round, len(before.tricks)
        number = rec.deal_number
        if renege is not None and isinstance(act, Play):
            rec.renege(act, claimed=renege)
        else:
            try:
                rec.act(act)
            except RenegeError:
                if isinstance(act, Play) and act.card is not None:
                    self.renege = (act, False)
                raise
        self.save(f"{describe(act)} (deal {number})")
        say = self.console.say
        state = rec.state
        if state is None:  # the deal is over
            self.deal_over(number)
            return
        if state.phase is Phase.DECLARING and phase is Phase.BIDDING:
            assert state.trump is not None
            bid = f", for {state.contract}" if state.contract else ""
            say(f"  {trump_news(state.trump)}; {state.maker} is the maker{bid}")
        elif state.round != round_ and state.phase is Phase.BIDDING:
            say(f"  everyone passed: {state.upcard} is turned down; round {state.round}")
        if len(state.tricks) > tricks:
            say(self.trick_line(state))

    def trick_line(self, state: DealState) -> str:
        rec = self.rec
        assert rec is not None
        winner = state.winners[-1]
        counts: dict[str, int] = {}
        for seat in state.playing:
            counts.setdefault(state.side(seat), 0)
        for w in state.winners:
            if w is not None:
                counts[state.side(w)] = counts.get(state.side(w), 0) + 1
        shown = " ".join(f"{s} {n}" for s, n in counts.items())
        return f"  trick {len(state.tricks)} to {winner}; tricks {shown}"

    def penalty(self, text: str) -> None:
        """``penalty EW 2 table talk``: charges a penalty (H6) to a player or side, in the
        open deal or, between deals, in the last one."""
        rec = self.rec
        assert rec is not None
        words = text.split(None, 3)
        if len(words) < 4 or not words[2].isdigit():
            raise UnclearError("write a penalty as: penalty, the player or side, the points "
                               "and the reason, e.g. penalty EW 2 table talk")
        reason = words[3].strip()
        if len(reason) > 1 and reason[0] == reason[-1] == '"':
            reason = reason[1:-1]
        rec.penalty(words[1].upper(), int(words[2]), reason)
        number = rec.deal_number if rec.deal_open else rec.deals
        entry = rec.entries[-1]
        self.save(f"{describe(entry)} (deal {number})")
        self.console.say(f"  deal {number}: {describe(entry)}; {self.score()}")

    def deal_over(self, number: int) -> None:
        rec = self.rec
        assert rec is not None
        points = rec.points() or {}
        say = self.console.say
        scored = " ".join(f"{s} {points[s]}" for s in rec.ruleset.side_names if s in points)
        say(f"deal {number}: {scored or 'thrown in'}; {self.score()}")
        if rec.over:
            winner = rec.winner
            say(f"game over: {winner + ' wins' if winner else 'a tie'}, {self.score()}")

    def setup_answer(self, question: Question, text: str) -> None:
        draft = self.draft
        assert draft is not None
        if question.key == "seats":
            if not text:
                draft.answers.append(("seats", self.variant.seats))
                return
            letters = [c for c in text.upper() if not c.isspace() and c != ","]
            chosen = tuple(s for s in SEATS if s.value in letters)
            want = len(self.variant.seats)
            if len(chosen) != want or len(letters) != want:
                raise UnclearError(f"name {want} different seats of N E S W, e.g. "
                              f"{' '.join(self.variant.seats)}")
            draft.answers.append(("seats", chosen))
            return
        if question.key == "Date" and not text:
            text = datetime.date.today().isoformat()
        draft.answers.append((question.key, text))
        if all(draft.has(f"player {s}") for s in self.setup_seats()):
            players = {s: str(draft.get(f"player {s}")) for s in self.setup_seats()}
            given = {**self.tags, **{k: str(v) for k, v in draft.answers if k in EVENT_TAGS}}
            tags = {k: given[k] for k in EVENT_TAGS if given.get(k)}
            self.rec = Recorder(self.variant, rules=self.rules, target=self.target,
                                seats=self.setup_seats(), tags=tags,
                                players={s: n for s, n in players.items() if n})
            self.draft = None
            self.save("the game's setup (its players)")

    def draft_answer(self, draft: Draft, question: Question, text: str) -> None:
        rec = self.rec
        assert rec is not None
        key = question.key
        value = self.parse_answer(draft, key, text)
        draft.answers.append((key, value))
        try:
            self.check_answer(draft, key)
        except (UnclearError, IllegalActionError):
            draft.answers.pop()
            raise
        if key == "mode" and value == "sheet":
            self.mode = "sheet"
        elif key == "mode":
            self.mode = "full"
        if all(draft.has(k) for k in self.deal_keys(draft)):
            self.commit(draft)

    def parse_answer(self, draft: Draft, key: str, text: str) -> object:
        rec = self.rec
        assert rec is not None
        word = text.strip().lower()
        if key == "dealer":
            return seat_word(word, rec.seats) if word else rec.seats[0]
        if key == "mode":
            if not word:
                return self.mode
            if word in ("f", "full", "full play", "play"):
                return "full"
            if word in ("s", "sheet", "score sheet", "score-sheet"):
                return "sheet"
            raise UnclearError("answer full (every card) or sheet (the score-sheet line)")
        if key.startswith("hand ") or key in ("extra", "kitty"):
            return cards_text(text) if word else None
        if key == "upcard":
            if not word:
                raise UnclearError("the upcard is needed to record the bidding (or type sheet to "
                              "score this deal from the score sheet)")
            cards = cards_text(text)
            if len(cards) != 1 or cards[0] is None:
                raise UnclearError("give the one card turned up, e.g. JH")
            return cards[0]
        if key == "trump":
            if word in ("thrown", "thrown in", "t", "-"):
                if rec.ruleset.options.stick_the_dealer:
                    raise UnclearError("under stick-the-dealer no deal is thrown in: the "
                                       "dealer names trump (F6); answer C D H or S")
                return "thrown"
            suit = suit_word(word)
            if suit is None:
                nt = ", NT (no trump)" if rec.ruleset.options.no_trump else ""
                raise UnclearError(f"answer a suit, C D H or S{nt}, or thrown")
            return suit
        if key == "maker":
            return seat_word(word, rec.seats)
        if key == "alone":
            return self.alone_answer(draft, text)
        if key == "defend":
            if word in ("", "no", "none", "-"):
                return None
            if text.strip() == "n":  # 'n' for no, or for North? Ask again.
                raise UnclearError("answer no, or the defender's seat in capitals (N)")
            return seat_word(word, rec.seats)
        if key == "bid":
            if word == "moon":
                return MOON
            if number_word(word) is None or not 3 <= int(word) <= MOON:
                raise UnclearError("a bid is 3 to 6 tricks, or moon")
            return int(word)
        # tricks: the makers' count, or one player's (ghost)
        limit = rec.variant.tricks
        if key.startswith("taken "):
            limit -= self.taken_so_far(draft)
        if number_word(word) is None or int(word) > limit:
            raise UnclearError(f"answer a number of tricks, 0 to {limit}")
        return int(word)

    def contract_state(self, draft: Draft) -> DealState | None:
        """An engine state with the trump and maker of a score-sheet draft fixed (``None``
        before both are answered): what it asks of lone hands is what the rules allow."""
        rec = self.rec
        assert rec is not None
        trump, maker = draft.get("trump"), draft.get("maker")
        if not isinstance(trump, Suit | NoTrump) or not isinstance(maker, Seat):
            return None
        state = DealState(rec.ruleset, self.draft_dealer(draft))
        state.fix_contract(trump, maker)
        return state

    def lone_partners(self, draft: Draft) -> list[Seat]:
        """The maker's partners who may go alone instead of the maker (``partner-alone``),
        given the draft's trump and maker."""
        rec = self.rec
        state = self.contract_state(draft)
        assert rec is not None
        if state is None:
            return []
        return [s for s in rec.seats
                if s != state.maker and state.can(Declaration(act="alone", seat=s))]

    def alone_answer(self, draft: Draft, text: str) -> bool | Seat:
        """Whether the maker went alone (``y``/``n``), or, where its partner may go alone
        instead, the seat that did (the maker's seat is ``True``)."""
        rec = self.rec
        assert rec is not None
        word = text.strip().lower()
        if word in ("y", "yes", "alone"):
            return True
        partners = self.lone_partners(draft)
        if partners and (text.strip() in SEATS or word in ("e", "s", "w")):
            seat = seat_word(word, rec.seats)
            return True if seat == draft.get("maker") else seat
        if text.strip() == "n" and Seat.N in partners:  # 'n' for no, or for North? Ask again.
            raise UnclearError("answer no, or the partner's seat in capitals (N)")
        if word in ("", "n", "no"):
            return False
        if partners:
            raise UnclearError(f"answer y, no, or {' or '.join(partners)} if the maker's "
                               "partner went alone")
        raise UnclearError("answer y or n")

    @staticmethod
    def taken(draft: Draft) -> dict[Seat, int]:
        """Each player's tricks answered so far (ghost)."""
        return {Seat(k[6:]): v for k, v in draft.answers
                if k.startswith("taken ") and isinstance(v, int)}

    def taken_so_far(self, draft: Draft) -> int:
        return sum(self.taken(draft).values())

    def check_answer(self, draft: Draft, key: str) -> None:
        """Refuses an answer that cannot be right, before the rest are asked."""
        rec = self.rec
        assert rec is not None
        if draft.get("mode") == "full" and key.startswith(("hand ", "extra", "upcard", "kitty")):
            hands, upcard, kitty, extra, dealer = self.deal_cards(draft)
            rec.verify_deal(hands, upcard=upcard, kitty=kitty, extra=extra, dealer=dealer)
            return
        if key in ("alone", "defend"):
            state = self.contract_state(draft)
            assert state is not None and state.maker is not None
            alone = draft.get("alone")
            if alone:
                seat = alone if isinstance(alone, Seat) else state.maker
                lone = Declaration(act="alone", seat=seat)
                state.verify(lone)
                state.apply_declare(lone)
            defend = draft.get("defend")
            if isinstance(defend, Seat):
                state.verify(Declaration(act="defend", seat=defend))

    def deal_cards(self, draft: Draft) -> tuple[dict[Seat, CardsLike], Card | None,
                                                CardsLike | None, CardsLike | None, Seat]:
        """The cards of a deal draft: hands, upcard, kitty, dummy or ghost hand, dealer."""
        rec = self.rec
        assert rec is not None

        def cards(key: str) -> CardsLike | None:
            value = draft.get(key)
            return value if isinstance(value, tuple) else None

        hands = {s: c for s in rec.seats if (c := cards(f"hand {s}")) is not None}
        upcard = draft.get("upcard")
        return (hands, upcard if isinstance(upcard, Card) else None, cards("kitty"),
                cards("extra"), self.draft_dealer(draft))

    def commit(self, draft: Draft) -> None:
        """Records a complete draft: the start of a deal, or its score-sheet line."""
        rec = self.rec
        assert rec is not None
        number = rec.deal_number
        try:
            if draft.get("mode") == "full":
                hands, upcard, kitty, extra, dealer = self.deal_cards(draft)
                rec.deal(hands, upcard=upcard, kitty=kitty, extra=extra, dealer=dealer)
            else:
                taken = self.taken(draft)
                if taken:
                    last = rec.seats[-1]
                    taken[last] = rec.variant.tricks - sum(taken.values())
                    taken = {s: taken[s] for s in rec.seats}
                trump = draft.get("trump")
                alone, defend, bid, tricks, maker = (draft.get(k) for k in (
                    "alone", "defend", "bid", "tricks", "maker"))
                rec.sheet(
                    trump=trump if isinstance(trump, Suit | NoTrump) else None,
                    maker=maker if isinstance(maker, Seat) else None,
                    alone=alone if isinstance(alone, bool | Seat) and draft.has("alone")
                    else None,
                    defend=defend if isinstance(defend, Seat) else None,
                    bid=bid if isinstance(bid, int) else None,
                    tricks=tricks if isinstance(tricks, int) else None,
                    taken=taken or None, thrown=trump == "thrown",
                    dealer=self.draft_dealer(draft))
        except (IllegalActionError, RecorderError):
            draft.answers.pop()
            raise
        self.draft = None
        entry = rec.entries[-1] if rec.entries else rec.deal_cards
        assert entry is not None
        self.save(describe(entry) if isinstance(entry, DealCards) else
                  f"{describe(entry)} (deal {number})")
        if not rec.deal_open:
            self.deal_over(number)

    def switch_to_sheet(self) -> None:
        """``sheet`` typed during a deal: score it from the score sheet instead."""
        rec = self.rec
        if rec is None:
            raise UnclearError("set the players up first")
        if self.draft is not None:
            if self.draft.open_deal or self.draft.get("mode") == "sheet":
                raise UnclearError("this deal is being scored from the score sheet already")
            keep = [(k, v) for k, v in self.draft.answers if k == "dealer"]
            self.draft = Draft("deal", [*keep, ("mode", "sheet")])
            self.mode = "sheet"
            return
        state = rec.state
        if state is None:
            raise UnclearError("no deal is open")
        if state.tricks or state.current:
            raise UnclearError("cards have been played in this deal: enter the rest of them, or "
                          "undo them first")
        if state.phase is Phase.BIDDING and any(
                isinstance(e, Pass | Order | Call | Number | Swap) for e in rec.entries):
            raise UnclearError("the bidding has begun: finish it, or undo it first")
        self.draft = Draft("deal", open_deal=True)

    # ------------------------------------------------------------ undo and help

    def undo(self) -> None:
        """Takes back the last answer or entry."""
        say = self.console.say
        if self.renege is not None:
            self.renege = None
            say("  undone: the refused card is not entered")
            return
        draft = self.draft
        if draft is not None and draft.answers:
            key, _ = draft.answers.pop()
            say(f"  undone: the answer to '{key}'")
            return
        if draft is not None and draft.kind == "setup":
            say("  nothing to undo")
            return
        if draft is not None and draft.open_deal:
            self.draft = None
            say("  undone: back to the play of the deal")
            return
        self.draft = None
        rec = self.rec
        assert rec is not None
        lone = rec.alone()
        try:
            undone = rec.undo()
        except RecorderError:
            say("  nothing to undo (the players are set: edit the tags of the file to change "
                "them)")
            return
        if isinstance(undone, Sheet) and not rec.entries and rec.deal_cards is not None and (
                not rec.deal_cards.hands and rec.deal_cards.upcard is None
                and rec.deal_cards.extra is None and rec.deal_cards.kitty is None):
            cards = rec.undo()  # a deal recorded from its sheet: its start goes with it
            assert isinstance(cards, DealCards)
            self.draft = self.sheet_draft(undone, cards.dealer, open_deal=False, alone=lone)
        elif isinstance(undone, Sheet) and not rec.entries:
            self.draft = self.sheet_draft(undone, None, open_deal=True, alone=lone)
        elif isinstance(undone, DealCards):
            self.draft = self.cards_draft(undone)
        self.save(f"the undo of {describe(undone)}")
        say(f"  undone: {describe(undone)}")
        if self.draft is not None and self.draft.answers:
            self.draft.answers.pop()

    def finish_sheet(self, sheet: Sheet) -> None:
        """Goes on with a score-sheet line written without its tricks: its answers are
        taken as given, and the rest is asked."""
        rec = self.rec
        assert rec is not None
        cards = rec.deal_cards
        if not rec.entries and cards is not None and not cards.hands and (
                cards.upcard is None and cards.extra is None and cards.kitty is None):
            rec.undo()  # a deal from its sheet only: it starts when the line is complete
            self.draft = self.sheet_draft(sheet, cards.dealer, open_deal=False)
        else:
            self.draft = self.sheet_draft(sheet, None, open_deal=True)
        self.mode = "sheet"

    def cards_draft(self, cards: DealCards) -> Draft:
        """The answers that started a deal with its cards."""
        rec = self.rec
        assert rec is not None
        answers: list[tuple[str, object]] = []
        if rec.deals == 0:
            answers.append(("dealer", cards.dealer))
        answers.append(("mode", "full"))
        for seat in clockwise_from(cards.dealer.left, rec.seats):
            answers.append((f"hand {seat}", cards.hands.get(seat)))
        if rec.ruleset.extra_hand:
            answers.append(("extra", cards.extra))
        if rec.variant.upcard:
            answers += [("upcard", cards.upcard), ("kitty", cards.kitty)]
        return Draft("deal", answers)

    def sheet_draft(self, sheet: Sheet, dealer: Seat | None, *, open_deal: bool,
                    alone: Seat | None = None) -> Draft:
        """The answers that gave a deal its score-sheet line (``alone``: the seat that went
        alone, when the record names the maker's partner)."""
        rec = self.rec
        assert rec is not None
        draft = Draft("deal", open_deal=open_deal)
        if not open_deal:
            if rec.deals == 0 and dealer is not None:
                draft.answers.append(("dealer", dealer))
            draft.answers.append(("mode", "sheet"))
        state = rec.state
        fixed = open_deal and state is not None and state.phase is Phase.DECLARING
        if not fixed:
            draft.answers.append(("trump", "thrown" if sheet.thrown else sheet.trump))
            if sheet.thrown:
                return draft
            draft.answers.append(("maker", sheet.maker))
            keys = self.deal_keys(draft)
            if "alone" in keys:
                partner = sheet.alone and alone not in (None, sheet.maker)
                draft.answers.append(("alone", alone if partner else sheet.alone))
            if "defend" in keys:
                draft.answers.append(("defend", sheet.defend))
            if "bid" in keys:
                draft.answers.append(("bid", sheet.bid))
        if sheet.tricks is not None:
            draft.answers.append(("tricks", sheet.tricks))
        for seat in rec.seats[:-1]:
            if sheet.taken is not None:
                draft.answers.append((f"taken {seat}", sheet.taken.get(seat, 0)))
        return draft

    def help(self, question: Question) -> None:
        """``?``: what may be typed here, and the commands."""
        say = self.console.say
        rec = self.rec
        key = question.key
        if key.startswith(("hand ", "extra", "kitty")):
            text = "the cards, e.g. 9C TC QS KS AD (?? for one not seen), or Enter if not known"
        elif key.startswith("taken "):
            text = "how many tricks that player took"
        elif key.startswith("player "):
            text = "the player's name, or Enter to leave it out"
        elif key == "bid":
            text = HELP["bid-act"] if self.draft is None else HELP["bid"]
        else:
            text = HELP.get(key, "")
        say(f"  here: {text}")
        if rec is not None:
            say(f"  {self.standing()}")
        say("  commands: undo (take back the last entry), sheet (score this deal from the "
            "score sheet), penalty EW 2 table talk (charge a player or side a penalty), quit "
            "(stop; all is saved), ? (this help); Tab completes")

