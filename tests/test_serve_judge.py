"""The judge of ``euchrelog serve`` without a server: what the recorder and the replay say
of one deal entered into a table game, and that no entry, however broken, raises."""

from __future__ import annotations

import random

import pytest

from euchrelog.serve.judge import DrawError, game_header, judge, sheet_choices
from support.serving import deal_texts, edited

SEATS = {"N": "Ann", "E": "Bob", "S": "Cy", "W": "Dee"}
HEADER = game_header("four-hand", "partners", 2, "Club", 1, 1, SEATS)
PLAYED = """deal 1 dealer N
  hands E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: JD AH KH QH 9H  N: AC KC QC JC KD
  up JH  kitty QD TH JS
  bid E pass, S order
  N takes JH discards KD
  1. E: AD  S: 9S  W: 9H  N: AC
"""
"""The README's deal with South's first two cards swapped: a renege in trick 1."""
REST = """  2. W: JD  N: JH  E: 9C  S: 9D
  3. N: KC  E: TC  S: TD  W: AH
  4. W: KH  N: QC  E: QS  S: TS
  5. W: QH  N: JC  E: KS  S: AS
"""


def _codes(entry: str, deals: list[str] | None = None) -> tuple[bool, list[tuple[str, str]]]:
    verdict = judge(HEADER, deals or [], entry)
    return verdict.accepted, [(f["code"], f["severity"]) for f in verdict.findings]


def test_a_renege_the_table_did_not_claim_is_taken_as_played() -> None:
    assert _codes(PLAYED + REST) == (True, [("R801", "error")])


def test_a_claimed_renege_is_a_note_and_ends_the_deal() -> None:
    verdict = judge(HEADER, [], PLAYED + "  renege S trick 1\n")
    assert verdict.accepted and verdict.over and verdict.totals == {"NS": 0, "EW": 2}
    assert [(f["code"], f["severity"], f["line"]) for f in verdict.findings] == [
        ("R801", "note", 6)]


def test_play_after_a_claimed_renege_is_refused_not_raised() -> None:
    accepted, _ = _codes(PLAYED + "  renege S trick 1\n" + REST)
    assert not accepted


def test_an_unfinished_deal_is_refused_without_the_game_s_own_end() -> None:
    accepted, codes = _codes("deal 1 dealer N\n  bid E pass\n")
    assert not accepted and ("G951", "error") not in codes and codes


def test_a_correction_must_leave_the_later_deals_standing() -> None:
    one = "deal 1 dealer N\n  trump H maker E tricks 3\n"
    two = "deal 2 dealer E\n  trump S maker S tricks 3\n"
    assert judge(HEADER, [one, two], "deal 1 dealer N\n  trump H maker N tricks 3\n",
                 at=0).totals == {"NS": 2, "EW": 0}
    ended = judge(HEADER, [one, two], "deal 1 dealer N\n  trump H maker E tricks 5\n", at=0)
    assert not ended.accepted and ended.findings[0]["code"] == "D307"


def test_the_draw_is_the_recorder_s() -> None:
    assert sheet_choices(HEADER) == {"trumps": ["C", "D", "H", "S"],
                                     "trump_labels": ["\u2663", "\u2666", "\u2665", "\u2660"],
                                     "seats": ["N", "E", "S", "W"], "sides": ["NS", "EW"],
                                     "side_seats": {"NS": ["N", "S"], "EW": ["E", "W"]},
                                     "tricks": 5}
    with pytest.raises(DrawError, match="round 2 table 3: "):
        game_header("four-hand", "partners", None, "Club", 2, 3, {**SEATS, "X": "Eve"})
    with pytest.raises(DrawError, match="unknown format"):
        game_header("four-hand", "swiss", None, "Club", 1, 1, SEATS)


def test_no_entry_raises() -> None:
    """Entries made from real deals by a few random edits (seeded, bounded): each is
    accepted or refused, as a deal or as a correction, and nothing raises."""
    rng = random.Random(29)
    header = game_header("four-hand", "progressive deals=3", None, "Club", 1, 1, SEATS)
    for n in range(300):
        texts = deal_texts(n % 20, 3, rng.choice(["full", "score-sheet", "play-only"]))
        k = rng.randrange(len(texts))
        entry = edited(texts[k], rng)
        judge(header, texts[:k], entry)
        judge(header, texts, entry, at=k)
