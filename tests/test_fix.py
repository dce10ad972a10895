"""``check --fix`` (issue 44): every correction the replay proves is made in the text, and
nothing else.

The gate is a property over single slips (tests/support/slips.py) made in generated games
of every variant and level of detail, as written and as typed by hand: where the slip's
finding carries a safe fix, ``--fix`` makes it, the fixed record checks clean, and no line
but the slip's changes; where it carries none, the record is left as it is. With
``--unsafe-fixes`` the same holds for the guesses (a seat letter). The command line is
tested on the samples: ``--diff``, ``--fix``, standard input, SARIF's ``fixes``, a record
whose fixes would leave a new finding (left as written), and ``check`` after ``--fix``
finding nothing ``--fix`` would correct.
"""

from __future__ import annotations

import json
import random
import shutil
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchrelog.check import check_text
from euchrelog.cli import main
from euchrelog.findings import CODES, Finding
from euchrelog.fixes import fix_text
from euchrelog.generate import Detail, random_game
from euchrelog.notation.writer import dumps_game
from euchrelog.replay.readings import proving_fixes
from strategies import VARIANT_NAMES
from support.records import random_ruleset, respell
from support.slips import KINDS, Slip, slips
from test_slips import clean_records

ROOT = Path(__file__).resolve().parent.parent
INVALID = ROOT / "samples" / "invalid"
DETAILS: tuple[Detail, ...] = ("full", "play-only", "unknown-cards", "score-sheet")
SAFE_KINDS = ("card", "dealt-card", "cards-exchanged", "points", "total", "trick-doubled",
              "tricks-swapped")
"""The kinds of slip whose finding ``--fix`` corrects (where the record tells how)."""
SEAT_KINDS = ("play-seat", "bid-seat", "exchange-seat")
"""The kinds whose correction is a guess (``--unsafe-fixes``)."""


def faults(text: str) -> list[Finding]:
    """The faults of a text and their fixes as ``check --fix`` finds them (proving the fix
    of a deal's one misplaced card, which a plain check leaves out)."""
    with proving_fixes():
        return [f for game in check_text(text, "slip.euchre") for f in game.findings
                if f.is_fault]


def only_slip_lines(slipped: str, fixed: str, lines: frozenset[int]) -> bool:
    """Whether ``fixed`` is ``slipped`` with only the lines of the slip changed or deleted:
    every other line is there, in its order, and no line more."""
    kept = [line for k, line in enumerate(slipped.split("\n"), 1) if k not in lines]
    out = fixed.split("\n")
    rest = iter(out)
    return (all(any(line == other for other in rest) for line in kept)
            and len(kept) <= len(out) <= len(kept) + len(lines))


def fixed_as_promised(slip: Slip, text: str, *, unsafe: bool = False) -> str:
    """What became of one slip under ``--fix``: ``fixed`` (as the gate asks), ``kept`` (no
    fix offered, text unchanged), or what went wrong."""
    found = faults(text)
    offered = [f for f in found if f.fix is not None and (f.fix.safe or unsafe)]
    outcome = fix_text(text, "slip.euchre", unsafe=unsafe)
    if not offered:
        return "kept" if outcome.text == text else "changed without a fix"
    if outcome.withheld or not outcome.fixed:
        return f"withheld: {[f.message for f in offered]}"
    left = faults(outcome.text)
    if left:
        return f"not clean: {[(f.code, f.line, f.message) for f in left]}"
    if not only_slip_lines(text, outcome.text, slip.lines):
        return "changed another line"
    return "fixed"


@st.composite
def slipped(draw: st.DrawFn, kinds: tuple[str, ...]) -> tuple[Slip, str]:
    """A single slip of one of ``kinds`` in a generated game of any variant and detail,
    as written or typed by hand."""
    variant = draw(st.sampled_from(VARIANT_NAMES))
    detail = draw(st.sampled_from(DETAILS))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    game = random_game(rng, random_ruleset(rng, variant), detail=detail,
                       stop_after=draw(st.sampled_from((2, 3, 5))))
    found = list(slips(dumps_game(game), kinds))
    if not found:
        return Slip("none", dumps_game(game), frozenset(), frozenset(), "no slip"), ""
    slip = found[draw(st.integers(0, len(found) - 1))]
    spelt = draw(st.booleans())
    return slip, respell(slip.text, random.Random(slip.where)) if spelt else slip.text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(slipped(KINDS))
def test_a_single_slip_is_fixed_as_the_gate_asks(drawn: tuple[Slip, str]) -> None:
    """Gate of issue 44: every fixable slip fixed, the fixed record checks clean, and
    nothing but the slipped line changes; a slip without a fix leaves the record as it is."""
    slip, text = drawn
    if slip.kind == "none":
        return
    assert fixed_as_promised(slip, text) in ("fixed", "kept"), slip.where


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(slipped(SEAT_KINDS))
def test_a_seat_slip_is_fixed_with_unsafe_fixes(drawn: tuple[Slip, str]) -> None:
    slip, text = drawn
    if slip.kind == "none":
        return
    assert fixed_as_promised(slip, text, unsafe=True) == "fixed", slip.where
    assert fixed_as_promised(slip, text) == "kept", slip.where


@pytest.mark.slow
def test_the_slip_corpus_is_fixed_as_the_gate_asks() -> None:
    """The corpus of tests/test_slips.py (four slips of each kind a record): every slip with
    a fix is fixed as promised, and the kinds a record can tell are fixed nearly always (a
    card written twice whose two places both fit is left as written, and so are points
    that differ from a score-sheet line, where either number may be the slip)."""
    rng = random.Random(44)
    tally: Counter[tuple[str, str]] = Counter()
    bad: list[str] = []
    for name, text in clean_records():
        by_kind: dict[str, list[Slip]] = {}
        for slip in slips(text):
            by_kind.setdefault(slip.kind, []).append(slip)
        for kind in KINDS:
            chosen = by_kind.get(kind, [])
            for slip in rng.sample(chosen, min(4, len(chosen))):
                unsafe = kind in SEAT_KINDS
                outcome = fixed_as_promised(slip, slip.text, unsafe=unsafe)
                tally[kind, outcome if outcome in ("fixed", "kept") else "bad"] += 1
                if outcome not in ("fixed", "kept"):
                    bad.append(f"{name} {slip.where}: {outcome}")
    assert not bad, bad[:10]
    for kind in (*SAFE_KINDS, *SEAT_KINDS):
        done, total = tally[kind, "fixed"], tally[kind, "fixed"] + tally[kind, "kept"]
        least = 0.8 if kind in ("card", "dealt-card", "points") else 1.0
        assert total and done / total >= least, (kind, tally)


# ------------------------------------------------------------------ the samples


def _fixable_samples() -> list[Path]:
    return sorted(p for p in INVALID.glob("*.euchre")
                  if any(f.fix is not None and f.fix.safe
                         for g in check_text(p.read_text("utf-8")) for f in g.findings))


def test_the_fixable_codes_are_those_the_table_says() -> None:
    """Each finding that carries a fix is of a code whose ``fix`` column says so, and a
    safe fix only of a code that is safe to fix."""
    for path in sorted(INVALID.glob("*.euchre")):
        for game in check_text(path.read_text("utf-8")):
            for f in game.findings + game.unused:
                if f.fix is not None:
                    assert f.kind.fix, (path.name, f.code)
                    assert not f.fix.safe or f.kind.fix == "safe", (path.name, f.code)
    assert {c.code for c in CODES.values() if c.fix == "safe"} >= {
        "P702", "P709", "C901", "C902", "G952", "G953"}


@pytest.mark.parametrize("path", _fixable_samples(), ids=lambda p: p.name)
def test_check_after_fix_finds_nothing_fix_would_correct(path: Path, tmp_path: Path) -> None:
    copy = tmp_path / path.name
    shutil.copy(path, copy)
    before = CliRunner().invoke(main, ["check", "--fix", "--format", "json", "-q", str(copy)])
    after = CliRunner().invoke(main, ["check", "--format", "json", "-q", str(copy)])
    assert after.stdout == before.stdout
    rows = [json.loads(line) for line in after.stdout.splitlines()]
    assert not any(r["fix"] and r["fix"]["applicability"] == "safe" for r in rows)
    assert all(r["fix"] for r in rows), "a finding fixed left one unfixed behind"


def test_a_fix_that_would_leave_a_new_finding_is_not_made(tmp_path: Path) -> None:
    """In a game to 2, the deal's points are written EW 2 for the EW 1 it scored, and the
    result follows them: correcting the points (and the total) would leave a result the
    game did not reach. The record is left as written, and check says so; with
    --unsafe-fixes the result becomes ``unfinished`` too, and the record checks clean."""
    text = (INVALID / "C901-points-differ.euchre").read_text("utf-8").replace(
        '[Target "1"]', '[Target "2"]').replace("result winner EW", "result NS 0 EW 2 winner EW")
    path = tmp_path / "carried.euchre"
    path.write_text(text, encoding="utf-8")
    assert [f.code for f in faults(text)] == ["C901"]
    result = CliRunner().invoke(main, ["check", "--fix", str(path)])
    assert path.read_text("utf-8") == text
    assert f"left as written: {path} game 1" in result.stderr
    assert "C901" in result.stdout and result.exit_code == 1
    result = CliRunner().invoke(main, ["check", "--fix", "--unsafe-fixes", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_text("utf-8").endswith("points EW 1  total NS 0 EW 1\n\nunfinished\n")


def test_diff_shows_the_fix_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "c.euchre"
    shutil.copy(INVALID / "C901-points-differ.euchre", path)
    text = path.read_text("utf-8")
    result = CliRunner().invoke(main, ["check", "--diff", str(path)])
    assert result.exit_code == 1
    assert "-  points EW 2  total NS 0 EW 2\n+  points EW 1  total NS 0 EW 1\n" in result.stdout
    assert path.read_text("utf-8") == text
    assert "would fix 2 findings in 1 file" in result.stderr
    clean = CliRunner().invoke(main, ["check", "--diff", str(ROOT / "samples" / "valid")])
    assert clean.exit_code == 0 and clean.stdout == ""


def test_fix_keeps_every_other_character_of_a_hand_typed_record(tmp_path: Path) -> None:
    """A fix writes the part it corrects in canonical form, and nothing else: the case,
    spacing, comments and line ends (CRLF) of the rest stay."""
    text = (INVALID / "P702-card-not-held-letter-slip.euchre").read_text("utf-8")
    typed = text.replace("  3. N: KS  E: TC  S: TD  W: AH",
                         "  3.  n: ks   E: 10c  s:td W: AH   # hm").replace("\n", "\r\n")
    path = tmp_path / "typed.euchre"
    path.write_bytes(typed.encode("utf-8"))
    result = CliRunner().invoke(main, ["check", "--fix", str(path)])
    assert result.exit_code == 0, result.output
    fixed = path.read_bytes().decode("utf-8")
    assert fixed == typed.replace("n: ks", "n: KC")


def test_unsafe_fixes_make_the_guesses(tmp_path: Path) -> None:
    path = tmp_path / "b.euchre"
    shutil.copy(INVALID / "B401-bid-out-of-turn-bid-under-wrong-seat.euchre", path)
    text = path.read_text("utf-8")
    safe = CliRunner().invoke(main, ["check", "--fix", str(path)])
    assert safe.exit_code == 1 and path.read_text("utf-8") == text
    unsafe = CliRunner().invoke(main, ["check", "--fix", "--unsafe-fixes", str(path)])
    assert unsafe.exit_code == 0, unsafe.output
    assert path.read_text("utf-8") != text


def test_fix_of_standard_input_writes_the_record(tmp_path: Path) -> None:
    text = (INVALID / "C901-points-differ.euchre").read_text("utf-8")
    result = CliRunner().invoke(main, ["check", "--fix", "-q", "-"], input=text)
    assert result.exit_code == 0
    assert result.stdout == text.replace("points EW 2  total NS 0 EW 2",
                                         "points EW 1  total NS 0 EW 1")


def test_sarif_and_json_carry_the_fix() -> None:
    path = str(INVALID / "P702-card-not-held-letter-slip.euchre")
    sarif = json.loads(CliRunner().invoke(main, ["check", "--format", "sarif", "-q", path]).stdout)
    result = sarif["runs"][0]["results"][0]
    change = result["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert change == {"deletedRegion": {"startLine": 15, "startColumn": 9, "endColumn": 11},
                      "insertedContent": {"text": "KC"}}
    assert result["fixes"][0]["properties"] == {"applicability": "safe"}
    row = json.loads(CliRunner().invoke(main, ["check", "--format", "json", "-q", path]).stdout)
    assert row["fix"] == {"applicability": "safe", "message": "write KC for KS",
                          "edits": [{"line": 15, "column": 9, "end_column": 11,
                                     "content": "KC"}]}


def test_fix_and_diff_do_not_go_together() -> None:
    path = str(INVALID / "C901-points-differ.euchre")
    assert CliRunner().invoke(main, ["check", "--fix", "--diff", path]).exit_code == 2
