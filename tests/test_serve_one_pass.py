"""The server's judge rides one pass (issue 40, "One pass"): an entry is read once and only
the new deal is replayed, against the state the game's last deal left, which a
:class:`~euchrelog.serve.judge.Judge` keeps by the game, its number of deals and a digest
of their texts; the recorder enters a deal with the replay's result instead of replaying
it again. Before, accepting deal k read the whole game twice and ran 4k deal replays."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from euchrelog import COMPILED
from euchrelog.check import check_text
from euchrelog.generate import random_game, ruleset_for
from euchrelog.models import Log
from euchrelog.notation.writer import dumps
from euchrelog.recorder import Recorder
from euchrelog.recorder import checks as recorder_checks
from euchrelog.replay import GameReplay
from euchrelog.replay.deal import DealReplay
from euchrelog.serve.judge import Judge, game_header, judge
from support.serving import deal_texts, edited

SEATS = {"N": "Ann", "E": "Bob", "S": "Cy", "W": "Dee"}

COUNTED = pytest.mark.skipif(
    COMPILED, reason="counts the replays by patching the pure build's methods (the compiled "
                     "build's classes call each other natively); the builds replay alike")


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts the replays of games and deals, the recorder's own replays of a deal and its
    deals entered again."""
    counts: Counter[str] = Counter()
    deal_run, begin, enter = DealReplay.run, GameReplay.begin, Recorder.enter_again
    check = recorder_checks.replay_deal

    def run_deal(self: DealReplay, d: int) -> Any:
        counts["deal replays"] += 1
        return deal_run(self, d)

    def run_game(self: GameReplay) -> bool:
        counts["game replays"] += 1
        return begin(self)

    def replay_deal(*args: Any, **kwargs: Any) -> Any:
        counts["recorder replays"] += 1
        return check(*args, **kwargs)

    def enter_again(self: Recorder, *args: Any, **kwargs: Any) -> None:
        counts["recorder entries"] += 1
        enter(self, *args, **kwargs)

    monkeypatch.setattr(DealReplay, "run", run_deal)
    monkeypatch.setattr(GameReplay, "begin", run_game)
    monkeypatch.setattr("euchrelog.recorder.game.replay_deal", replay_deal)
    monkeypatch.setattr(Recorder, "enter_again", enter_again)
    yield counts


@COUNTED
@pytest.mark.parametrize("detail", ["score-sheet", "full"])
def test_accepting_deal_40_replays_as_much_as_deal_1(detail: str,
                                                     replays: Counter[str]) -> None:
    header = game_header("four-hand", "progressive deals=40", None, "Club", 1, 1, SEATS)
    texts = deal_texts(7, 40, detail)
    judged = Judge()
    counts = {}
    for k, text in enumerate(texts):
        replays.clear()
        verdict = judged.judge(header, texts[:k], text, game=1)
        assert verdict.accepted, verdict.body()
        counts[k + 1] = dict(replays)
    assert counts[40] == counts[2] == {"deal replays": 1, "recorder entries": 1}
    assert counts[1] == {"game replays": 1, "deal replays": 1, "recorder entries": 1}
    assert judged.readings == 1  # the empty game, once


@COUNTED
def test_the_recorder_enters_a_record_on_its_one_replay(replays: Counter[str]) -> None:
    """``Recorder.from_game`` replays the game once; before, the recorder replayed each deal
    twice more (its cards, then the deal finished)."""
    for deals in (5, 20):
        replays.clear()
        game = random_game(random.Random(deals), ruleset_for("four-hand", target=100),
                           stop_after=deals)
        Recorder.from_game(game)
        assert replays == {"game replays": 1, "deal replays": deals,
                           "recorder entries": deals}


def test_a_game_kept_is_exact_across_servers_restarts_and_corrections() -> None:
    """Two servers on one database, each with its judge: a deal the other entered, a
    restart (a judge that keeps nothing yet) or a correction makes the kept game miss, and
    the game is read whole once; the verdicts are those of a game read whole each time."""
    header = game_header("four-hand", "partners", 100, "Club", 1, 1, SEATS)
    texts = deal_texts(11, 10, "full")
    first, second = Judge(), Judge()

    def enter(server: Judge, k: int) -> None:
        mine = server.judge(header, texts[:k], texts[k], game=7)
        whole = judge(header, texts[:k], texts[k])
        assert mine.accepted and (mine.body(), mine.record) == (whole.body(), whole.record)

    for k in range(3):
        enter(first, k)
    enter(second, 3)  # the other server: it reads the game whole
    enter(first, 4)  # a deal it did not judge: read whole again
    enter(first, 5)
    assert (first.readings, second.readings) == (2, 1)
    restarted = Judge()
    enter(restarted, 6)
    enter(restarted, 7)
    assert restarted.readings == 1
    fixed = texts[3].replace("\n", "  # corrected\n", 1)
    corrected = restarted.judge(header, texts[:8], fixed, at=3, game=7)
    assert corrected.accepted
    assert corrected.body() == judge(header, texts[:8], fixed, at=3).body()
    texts[3] = fixed
    enter(restarted, 8)  # (the correction changed the game's text: read whole once)
    enter(restarted, 9)
    assert restarted.readings == 3


def test_refused_entries_leave_the_kept_game_as_it_was() -> None:
    """Each deal preceded by entries made from it by a few random edits (seeded,
    bounded), every variant: the kept game's verdicts, refusals and records are those of
    the game read whole, and a refusal changes nothing the next entry sees."""
    rng = random.Random(5)
    letters = "NESWCDHS9TJQKA0123456789 \n#\"dealerpointstrumpmakeralonetricksrenege"
    for n, variant in enumerate(["four-hand", "cutthroat", "three-hand", "ghost",
                                 "two-hand"]):
        seats = Recorder(variant).seats
        header = game_header(variant, "partners", 10, "Club", 1, 1,
                             {str(s): f"P{s}" for s in seats})
        game = random_game(rng, ruleset_for(variant, target=10), first_dealer=seats[0],
                           detail=rng.choice(["full", "score-sheet", "play-only"]))
        blocks = dumps(Log(games=(game,))).split("\n\n")
        texts = [b.strip("\n") + "\n" for b in blocks if b.startswith("deal ")][:8]
        kept = Judge()
        for k, text in enumerate(texts):
            for _ in range(3):
                entry = edited(text, rng, 3, letters)
                mine = kept.judge(header, texts[:k], entry, game=n)
                whole = judge(header, texts[:k], entry)
                assert (mine.body(), mine.record) == (whole.body(), whole.record), entry
            assert kept.judge(header, texts[:k], text, game=n).accepted
        assert kept.readings == 1


def test_an_entry_with_tags_is_refused_at_every_deal() -> None:
    """Before, a tag line in the first deal's entry was read as part of the game's
    header (so ``[Date "..."]`` was taken, stored and written into the record)."""
    header = game_header("four-hand", "partners", 10, "Club", 1, 1, SEATS)
    one = "deal 1 dealer N\n  trump H maker E tricks 3\n"
    two = "deal 2 dealer E\n  trump S maker S tricks 3\n"
    for deals, entry in (([], '[Date "2026-01-02"]\n' + one), ([one], '[Date "x"]\n' + two)):
        verdict = judge(header, deals, entry)
        assert not verdict.accepted
        assert verdict.findings[0]["code"] == "S101"
        assert "without tags" in verdict.findings[0]["message"]
    assert not judge(header, [one], two + '[Event "y"]\n').accepted


THREE_HAND = """deal 1 dealer N
  hands N: 9C TC QS KS AD  E: 9S TS AS 9D TD  S: JD QH JH 9H KD
  up AH  kitty JC KC AC QD JS TH QC KH
  bid E pass, S order
  1. N: AH  E: 9D  S: 9H
  2. N: KS  E: AS  S: KD
  3. E: 9S  S: QH  N: QS
  4. S: JH  N: TC  E: TD
  5. S: JD  N: AD  E: TS
"""
"""Issue 40's three-hand deal: the dealer plays the upcard, with no exchange line (which
docs/notation.md allows): a legal deal, which every path finds clean."""


def test_the_three_hand_deal_is_judged_as_check_judges_it() -> None:
    header = game_header("three-hand", "partners", 10, "Club", 1, 1,
                         {"N": "Ann", "E": "Bob", "S": "Cy"})
    checked, = check_text(header + THREE_HAND + "unfinished\n")
    assert checked.findings == []
    verdict = judge(header, [], THREE_HAND)
    assert verdict.accepted, verdict.findings
