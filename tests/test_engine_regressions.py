"""One mistake, one finding: records that once produced a cascade or a silence."""

from __future__ import annotations

import pytest

from euchrelog import loads, replay

FULL = """[Variant "four-hand"] {tags}
deal 1 dealer N
  hands N: 9H TH 9D TD 9C  E: AH KH QH AD KD  S: JH JD QD 9S TS  W: AC KC QC JC TC
  up AS  kitty JS QS KS
  bid E pass, S order
  N takes AS discards 9C
{middle}  1. E: AH  S: JH  W: TC  N: 9H{extra}
  2. E: AD  S: QD  W: KC  N: 9D
  3. E: KH  S: 9S  W: QC  N: TH
  4. S: TS  W: JC  N: AS  E: QH
  5. W: AC  N: TD  E: KD  S: JD
{tail}unfinished
"""


def codes(text: str) -> list[str]:
    return sorted(f.code for f in replay(loads(text).games[0]).findings)


def full(*, tags: str = "", middle: str = "", extra: str = "", tail: str = "") -> str:
    return FULL.format(tags=tags, middle=middle, extra=extra, tail=tail)


def test_the_fixture_is_clean() -> None:
    assert codes(full()) == []


def test_an_extra_card_in_a_trick_is_one_finding() -> None:
    assert codes(full(extra="  E: 9C")) == ["P705"]


def test_sheet_tricks_are_compared_with_the_play() -> None:
    # Spades trump; the left bower JC wins trick 4 for W: the makers NS took only trick 3.
    assert codes(full(middle="  trump S maker S tricks 4\n")) == ["C903"]
    assert codes(full(middle="  trump S maker S tricks 1\n")) == []


def test_sheet_lone_flags_are_compared_with_the_declarations() -> None:
    text = full(middle="  trump S maker S defend E\n").replace(
        "  1. E:", "  defend W\n  1. E:")
    assert "C903" in codes(text)


def test_an_order_with_no_upcard_says_the_play_is_unchecked() -> None:
    text = full().replace("  up AS  kitty JS QS KS\n", "").replace("N takes AS", "N takes ??")
    assert codes(text) == ["B406"]


def test_a_claim_on_a_score_sheet_deal_is_taken_as_recorded() -> None:
    text = """[Variant "four-hand"] [Target "2"]
deal 1 dealer N
  trump H maker E
  renege S
  points EW 2
result EW 2 winner EW
"""
    assert codes(text) == []


def test_a_tag_given_twice_with_two_values() -> None:
    assert codes(full(tags='[Target "10"] [TARGET "7"]')) == ["T205"]


@pytest.mark.parametrize("rules", ["lone-defender-euchre=3", "renege=-1", "deck=52", "bogus"])
def test_bad_option_values(rules: str) -> None:
    assert codes(full(tags=f'[Rules "{rules}"]')) == ["T203"]


def test_an_unknown_variant_is_not_replayed_as_four_hand() -> None:
    assert codes(full().replace("four-hand", "pinochle")) == ["T202"]


def test_points_for_a_side_the_variant_lacks_is_one_finding() -> None:
    assert codes(full(tail="  points S 1\n")) == ["C904"]


def test_takes_unknown_card_round_trips() -> None:
    from euchrelog import dumps

    text = full().replace("N takes AS", "N takes ??")
    assert "N takes ?? discards 9C" in dumps(loads(text))


def test_one_wrong_dealer_is_one_finding() -> None:
    # Deal 2 should be dealt by E; deal 3 by S follows the right rotation again.
    text = """[Variant "four-hand"]
deal 1 dealer N
  thrown in
deal 2 dealer W
  thrown in
deal 3 dealer S
  thrown in
unfinished
"""
    assert codes(text) == ["D302"]


def test_a_refused_swap_does_not_cascade() -> None:
    # N swaps after E already did; whichever hand N then plays from, one finding.
    text = """[Variant "ghost"]
deal 1 dealer S
  hands N: 9C TC QS KS AD AH  E: 9S TS AS 9D TD KH  S: JD QH JH 9H KD QC
  ghost JC KC AC QD JS TH
  bid N pass, E swap 3, S pass
  bid E call C
  1. E: JC  S: QC  N: 9C
unfinished
"""
    assert codes(text) == []
    refused = text.replace("E swap 3, S pass", "E swap 3, N swap, S pass")
    assert codes(refused) == ["B409"]
    assert codes(refused.replace("N: 9C\n", "N: 9S\n")) == ["B409"]  # from the dead hand


def test_a_misspelt_dealer_does_not_put_the_bids_out_of_turn() -> None:
    # Deal 2 is N's to deal; the scorer wrote S, but the bids and play follow N's deal.
    text = full().replace("deal 1 dealer N", "deal 1 dealer W\n  thrown in\ndeal 2 dealer S")
    assert codes(text) == ["D302"]


def test_a_forgotten_merge_is_one_finding() -> None:
    text = """[Variant "cutthroat"]
deal 1 dealer N
  hands N: 9C TC QS KS AD  E: 9S TS AS 9D TD  S: JD QH JH 9H KD
  dummy JC KC AC QD JS
  up AH  kitty TH QC KH
  bid E pass, S order
  N takes AH discards 9C
  1. E: AS  S: 9H  N: QS
  2. S: JC  N: TC  E: 9D
  3. S: JD  N: AH  E: TD
  4. S: AC  N: KS  E: 9S
unfinished
"""
    # S played JC and AC from the dummy: the merge line is missing.
    assert codes(text) == ["P702"]
