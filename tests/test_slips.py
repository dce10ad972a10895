"""One slip, one finding, at the slip (issues 11 and 13; RULES.md P4 and the rule for totals).

Clean records of every variant and level of detail, as the generator writes them and as a
person types them (other case and spacing, comments at line ends), and every valid
sample but those that leave a hand open (``OPEN_SAMPLES``), get every single slip of
:mod:`slips` in turn: a seat letter of a play, a bid or an exchange; two cards of a seat
swapped; the cards of two seats of a trick exchanged; a trick line deleted, doubled or
swapped with the next; one points figure or one running total; two or three typos in a
deal, or one in an exchange, merge or second hands line.
Each slip must be reported (never "clean"), and at least 98% of them as exactly one fault,
of the slip's codes, on a line the slip touched (a deleted line: the line before or after
the gap); typos as one S101 at each unreadable line. A typo that makes a line unreadable
is one S101 there, and the rest of the game is still checked.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from euchrelog.check import check_text
from euchrelog.errors import NotationError
from euchrelog.findings import Finding
from euchrelog.generate import Detail, random_game
from euchrelog.notation import loads
from euchrelog.notation.writer import dumps_game
from strategies import VARIANT_NAMES
from support.builds import PURE_ONLY
from support.records import random_ruleset, respell
from support.slips import KINDS, Slip, deal_lines, slips, typo_line

ROOT = Path(__file__).resolve().parent.parent
DETAILS: tuple[Detail, ...] = ("full", "play-only", "unknown-cards", "score-sheet")
PER_KIND = 12
"""Slips of each kind tried per record (drawn with a fixed seed)."""

EXCEPTIONS: dict[str, str] = {}
"""Slips known to give other than one finding, by ``Slip.where``, with the reason. None
is known today; a slip listed here must still be reported."""


def faults(text: str) -> list[Finding]:
    """The findings of ``text`` that are faults (notes left out)."""
    return [f for game in check_text(text, "slip.euchre") for f in game.findings if f.is_fault]


OPEN_SAMPLES: dict[str, str] = {
    "three-hand-upcard-no-exchange.euchre":
        "the exchange is not written, so the dealer's discard is any of six cards: a slip "
        "in the dealer's cards can be a legal record (docs/notation.md, the dealer's "
        "exchange)",
}
"""Valid samples that are no ground for slips, with the reason."""


def clean_records() -> Iterator[tuple[str, str]]:
    """(name, text) of clean records: generated, respelt, and the valid samples."""
    rng = random.Random(20261201)
    for variant in VARIANT_NAMES:
        for detail in DETAILS:
            for n in range(2):
                ruleset = random_ruleset(rng, variant)
                game = random_game(random.Random(rng.randrange(2**32)), ruleset,
                                   detail=detail, stop_after=rng.choice((3, 4, 6)))
                yield f"{variant}-{detail}-{n}", dumps_game(game)
    for path in sorted((ROOT / "samples" / "valid").glob("*.euchre")):
        if path.name in OPEN_SAMPLES:
            continue
        yield f"samples/valid/{path.name}", path.read_text(encoding="utf-8")


def _outcome(slip: Slip, found: list[Finding]) -> str:
    if not found:
        return "clean"
    if slip.each:  # one finding at each line of the slip
        if [(f.code, f.line) for f in found] == [("S101", line) for line in sorted(slip.lines)]:
            return "one"
        return "many" if len(found) > len(slip.lines) else "elsewhere"
    if len(found) > 1:
        return "many"
    lines = set(slip.lines)
    if slip.kind == "trick-deleted":
        lines |= {line - 1 for line in slip.lines}
    if found[0].line in lines and found[0].code in slip.codes:
        return "one"
    return "elsewhere"


def _trial(name: str, text: str, rng: random.Random, spelt: bool) -> Iterator[
        tuple[str, Slip, list[Finding]]]:
    by_kind: dict[str, list[Slip]] = {}
    for slip in slips(text):
        by_kind.setdefault(slip.kind, []).append(slip)
    for kind in KINDS:
        chosen = by_kind.get(kind, [])
        for slip in rng.sample(chosen, min(PER_KIND, len(chosen))):
            written = respell(slip.text, random.Random(slip.where)) if spelt else slip.text
            yield name, slip, faults(written)


@pytest.mark.slow
@pytest.mark.parametrize("spelt", [False, True], ids=["canonical", "hand-typed"])
def test_every_single_slip_is_one_finding_at_the_slip(spelt: bool) -> None:
    rng = random.Random(11)
    tally: Counter[str] = Counter()
    bad: list[str] = []
    for name, text in clean_records():
        base = respell(text, random.Random(name)) if spelt else text
        assert faults(base) == [], f"{name} is not clean"
        for record, slip, found in _trial(name, text, rng, spelt):
            outcome = _outcome(slip, found)
            tally[outcome] += 1
            if outcome != "one" and slip.where not in EXCEPTIONS:
                bad.append(f"{record} {slip.kind} {slip.where}: "
                           + "; ".join(f"{f.line} {f.code} {f.message}" for f in found))
    total = sum(tally.values())
    assert total > 1500
    assert tally["clean"] == 0, bad
    assert tally["one"] / total >= 0.98, (tally, bad[:20])
    assert not bad, bad[:20]


def test_every_kind_of_slip_is_tried() -> None:
    kinds = {slip.kind for _, text in clean_records() for slip in slips(text)}
    assert kinds == set(KINDS)


def _typos(text: str, rng: random.Random, count: int) -> Iterator[tuple[int, str]]:
    """(line, text) with one character of one line of a deal or the end changed so that the
    line no longer reads."""
    lines = text.split("\n")
    places = [i for i, line in enumerate(lines)
              if line.strip() and not line.lstrip().startswith(("#", "["))]
    for i in rng.sample(places, min(count, len(places))):
        line = lines[i]
        at = rng.randrange(len(line.rstrip()))
        bent = [*lines[:i], line[:at] + rng.choice("XZ@!Q%") + line[at + 1:], *lines[i + 1:]]
        typed = "\n".join(bent)
        try:
            loads(typed)
        except NotationError:
            yield i + 1, typed


def test_one_unreadable_line_is_one_finding_and_the_rest_is_checked() -> None:
    """A typo that makes a line unreadable is one S101 at that line (RULES.md P4), and a
    real slip elsewhere in the game is still found."""
    rng = random.Random(13)
    tried = 0
    bad: list[str] = []
    for name, text in clean_records():
        for line, typed in _typos(text, rng, 10):
            tried += 1
            found = faults(typed)
            if [(f.code, f.line) for f in found] != [("S101", line)]:
                bad.append(f"{name} line {line}: " + "; ".join(
                    f"{f.line} {f.code} {f.message}" for f in found))
    assert tried > 500
    assert not bad, bad[:10]


def test_a_typo_does_not_blind_the_check_of_its_game() -> None:
    text = (ROOT / "samples" / "valid" / "four-hand-24-club-night.euchre").read_text(
        encoding="utf-8")
    slip = next(s for s in slips(text, ("total",)) if min(s.lines) > 40)
    lines = slip.text.split("\n")
    first_trick = next(i for i, line in enumerate(lines) if line.lstrip().startswith("1."))
    lines[first_trick] = lines[first_trick].replace(":", ";", 1)
    found = faults("\n".join(lines))
    assert [(f.code, f.line) for f in found] == [("S101", first_trick + 1),
                                                 ("C902", min(slip.lines))]


def test_an_unreadable_first_deal_of_a_game_from_the_middle_is_one_finding() -> None:
    """The deal after it is numbered from the start line, not from deal 1 (P4)."""
    text = ((ROOT / "samples" / "valid" / "from-the-middle.euchre").read_text("utf-8")
            .replace("deal 7 dealer S", "deal Q dealer S"))
    found = [f for game in check_text(text) for f in game.findings]
    assert [(f.code, f.line) for f in found] == [("S101", 12)]
    assert "deal 7 (lines 12-14) is skipped" in found[0].message


def _deal_replays(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], int]:
    """The fault codes of ``text`` and how many times a deal was replayed to find them."""
    from euchrelog.replay import GameReplay

    calls = 0
    deal = GameReplay.deal

    def counted(self: GameReplay, d: int, model: object) -> object:
        nonlocal calls
        calls += 1
        return deal(self, d, model)  # type: ignore[arg-type]

    monkeypatch.setattr(GameReplay, "deal", counted)
    return [f.code for f in faults(text)], calls


@PURE_ONLY
def test_a_card_slip_is_found_by_reading_the_deal_again(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "samples" / "invalid" / "P702-card-not-held-letter-slip.euchre").read_text(
        "utf-8")
    codes, calls = _deal_replays(text, monkeypatch)
    assert codes == ["P702"]
    assert calls > 1


@PURE_ONLY
def test_a_trick_line_of_many_cards_is_not_read_card_by_card(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by fuzz/run.py (seed 20261211, inputs 82176 and 110131): a trick line of
    thousands of cards after a lead out of turn had each of its first cards read as every
    card one letter away, each reading a replay of the whole line. Such a deal is not one
    card slip, and is replayed once."""
    text = (ROOT / "samples" / "invalid" / "P702-card-not-held-letter-slip.euchre").read_text(
        "utf-8").replace("1. E: AD  S: 9D  W: 9H  N: AC", "1. E: AD  S: 9D  W: 9H  N: AC"
                         + "  N: AC" * 500)
    codes, calls = _deal_replays(text, monkeypatch)
    assert "P705" in codes
    assert calls == 1


@PURE_ONLY
def test_a_deal_of_more_cards_than_the_deck_is_not_read_card_by_card(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by fuzz/run.py (seed 20261214, input 63864): a hands line of thousands of
    cards had each card behind a fault read as every card one letter away. A deal that
    writes more cards than the deck has is not one card slip, and is replayed once."""
    text = (ROOT / "samples" / "invalid" / "P702-card-not-held-letter-slip.euchre").read_text(
        "utf-8").replace("N: AC KC QC JC KD", "N: AC KC QC JC KD" + " 9C" * 500)
    codes, calls = _deal_replays(text, monkeypatch)
    assert "D303" in codes
    assert calls == 1


def test_the_slip_search_replays_at_most_two_readings_a_deal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23: a game whose every deal has several faults (the first trick's two first
    cards exchanged, the points written for the other side) is replayed at most three times
    a deal, the deal as written and two readings, so that its check takes time linear in
    its size (bench/growth.py measures it)."""
    import re

    from euchrelog.generate import ruleset_for

    game = random_game(random.Random(23), ruleset_for("four-hand"))
    text = dumps_game(game)
    text = re.sub(r"(  1\. [NESW]: )(\S\S)(  [NESW]: )(\S\S)", r"\1\4\3\2", text)
    text = re.sub(r"  total NS -?\d+ EW -?\d+", "", text)
    text = text.replace("points NS", "points XX").replace("points EW", "points NS").replace(
        "points XX", "points EW")
    deals = text.count("\ndeal ")
    codes, calls = _deal_replays(text, monkeypatch)
    assert deals >= 5 and len(codes) >= deals
    assert calls <= 3 * deals


def test_two_cards_of_a_trick_exchanged_are_one_finding() -> None:
    """Issue 27: the cards of two seats of a trick written each under the other (``E: 9D
    S: AD`` for ``E: AD  S: 9D``) are one finding at the trick, taken as exchanged, not a
    P702 for each card."""
    rng = random.Random(27)
    tried = 0
    bad: list[str] = []
    for name, text in clean_records():
        chosen = list(slips(text, ("cards-exchanged",)))
        for slip in rng.sample(chosen, min(2, len(chosen))):
            tried += 1
            found = faults(slip.text)
            if _outcome(slip, found) != "one":
                bad.append(f"{name} {slip.where}: "
                           + "; ".join(f"{f.line} {f.code} {f.message}" for f in found))
            else:
                assert " and " in found[0].message.rsplit("; taken as ", 1)[1]
    assert tried > 50
    assert not bad, bad[:10]


LONE_PARTNER = """[Variant "four-hand"]
[Target "10"]

deal 1 dealer N
  hands E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: JD AH KH QH 9H  N: AC KC QC JC KD
  up JH  kitty QD TH JS
  bid E pass, S order
  N takes JH discards KD
  alone N
  1. E: AD  W: 9H  N: JH
  2. N: AC  E: 9C  W: JD
  3. W: AH  N: KC  E: TC
  4. W: KH  N: QC  E: QS
  5. W: QH  N: JC  E: KS
  points EW 2

unfinished
"""


def test_an_illegal_lone_declaration_played_as_written_is_one_finding() -> None:
    """Issue 27: the dealer declares alone after his partner ordered up (A601), and the
    tricks are played so, the dealer alone and the maker sitting out. The declaration as
    written is a reading too: the tricks that fit it add nothing, and the deal scores as
    the lone hand played (a euchred lone hand: EW 2)."""
    found = faults(LONE_PARTNER)
    assert [(f.code, f.line) for f in found] == [("A601", 9)]
    assert found[0].message.endswith("; taken as written: N plays alone")
    assert [(f.code, f.line) for f in faults(LONE_PARTNER.replace("EW 2", "EW 4"))] == [
        ("A601", 9), ("C901", 15)]


POINTS_SLIP = """[Variant "four-hand"]
[Target "TARGET"]

deal 1 dealer N
  trump H maker E tricks 5
  points EW 4

result EW 4 NS 0 winner EW
"""


@pytest.mark.parametrize(("target", "found"), [
    ("5", [("C901", 6), ("G955", 8)]),
    ("4", [("C901", 6)]),
    ("2", [("C901", 6)]),
])
def test_a_result_carried_from_a_points_slip_is_excused_only_if_it_ends_the_game(
        target: str, found: list[tuple[str, int]]) -> None:
    """Issue 27: a deal that scored EW 2 written ``points EW 4``, and the result the scorer
    carried, ``EW 4``. In a game to 5 the game had not ended even on the scorer's own
    numbers: the result is a second slip (G955). To 4 it ended on the scorer's numbers,
    and to 2 on the true ones too: the result carried from the slip adds nothing."""
    text = POINTS_SLIP.replace("TARGET", target)
    assert [(f.code, f.line) for f in faults(text)] == found


@pytest.mark.parametrize("count", [2, 3])
def test_several_typos_in_a_deal_are_one_finding_each_and_the_deal_is_still_checked(
        count: int) -> None:
    """Issue 27: each unreadable line is one S101 at its line, however many a deal has, and
    the deal is replayed around them: a renege before them in the same deal is still
    found (RULES.md P4)."""
    text = (ROOT / "samples" / "valid" / "four-hand-24-club-night.euchre").read_text("utf-8")
    for renege in slips(text, ("card-swap",)):
        lines = renege.text.rstrip("\n").split("\n")
        last = max(renege.lines) - 1
        deal = next(d for d in deal_lines(lines) if last in d)
        after = [i for i in deal if i > last and typo_line(lines, i) is not None]
        if len(after) >= count:
            break
    else:
        raise AssertionError("no renege with lines after it to mistype")
    found = faults(renege.text)
    assert len(found) == 1 and found[0].line in renege.lines
    typed = list(lines)
    for i in after[:count]:
        typed[i] = typo_line(lines, i) or ""
    expected = [(found[0].code, found[0].line), *(("S101", i + 1) for i in after[:count])]
    assert [(f.code, f.line) for f in faults("\n".join(typed) + "\n")] == expected


TYPO_KINDS = ("typos-2", "typos-3", "typo-exchange", "typo-merge", "typo-hands")


def test_typos_are_one_s101_each_in_every_kind_of_line() -> None:
    """Issue 27: two or three typos in a deal, a typo in an exchange's ``takes`` or
    ``discards``, a merge's ``keeps`` or a second hands line: one S101 at each unreadable
    line, and nothing else."""
    rng = random.Random(2727)
    tally: Counter[str] = Counter()
    bad: list[str] = []
    for name, text in clean_records():
        by_kind: dict[str, list[Slip]] = {}
        for slip in slips(text, TYPO_KINDS):
            by_kind.setdefault(slip.kind, []).append(slip)
        for kind, chosen in by_kind.items():
            for slip in rng.sample(chosen, min(2, len(chosen))):
                tally[kind] += 1
                found = faults(slip.text)
                if _outcome(slip, found) != "one":
                    bad.append(f"{name} {slip.where}: "
                               + "; ".join(f"{f.line} {f.code} {f.message}" for f in found))
    assert set(tally) == set(TYPO_KINDS), tally
    assert not bad, bad[:10]


def test_the_typos_of_a_deal_skipped_for_its_deal_line_are_reported_too() -> None:
    """Issue 27: a deal whose deal line cannot be read is skipped whole, and each other
    unreadable line of it is one S101 too (a scorer needs one run for all the typos)."""
    text = (ROOT / "samples" / "valid" / "four-hand-24-club-night.euchre").read_text("utf-8")
    lines = text.rstrip("\n").split("\n")
    deal = deal_lines(lines)[1]
    head = deal[0] - 1
    typed = list(lines)
    typed[head] = lines[head].replace("dealer", "dealr")
    inner = [i for i in deal if typo_line(lines, i) is not None][1:3]
    for i in inner:
        typed[i] = typo_line(lines, i) or ""
    found = faults("\n".join(typed) + "\n")
    assert [(f.code, f.line) for f in found] == [("S101", i + 1) for i in (head, *inner)]
    assert "deal 2 (lines" in found[0].message
    assert all(f.message.endswith(f"line {f.line} is skipped with deal 2") for f in found[1:])
