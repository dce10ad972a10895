"""Fuzzing the readers, the checker and the command line (Hypothesis, derandomized).

Random text, random JSON and random mutations of real records (the samples and generated
games) are fed to the library and to the CLI. Whatever the input, the library raises only
its own error types, the checker reports instead of raising, the CLI exits 0, 1 or 2 and
never prints a traceback, and whatever reads cleanly survives the format and JSON round
trips. The property functions (``check_notation_text``, ``check_json_text``,
``check_cli_input``, ``check_module_input``) and the strategies are also what
``fuzz/run.py`` calls for long runs.

The linear-time properties never look at a clock (project policy): they read records of
size n and 4n and check that the results agree, so a regular expression that backtracks
catastrophically shows as a test that does not finish rather than as a flaky timing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import Phase, example, given, settings
from hypothesis import strategies as st

from euchrelog.cli import main
from euchrelog.errors import NotationError, RecordError
from euchrelog.notation import loads
from euchrelog.notation.jsonio import dumps_json, loads_json
from euchrelog.notation.writer import dumps
from euchrelog.replay import replay
from support.fuzzing import (
    CLI_COMMANDS,
    CLI_FILE_COMMANDS,
    EGN_TEXTS,
    FOREIGN_EXTENSIONS,
    FUZZ,
    LONG,
    SAMPLE_FILES,
    Drawn,
    _checked,
    both_paths_agree,
    check_cli_file,
    check_cli_input,
    check_event_source,
    check_findings,
    check_foreign_text,
    check_json_text,
    check_module_input,
    check_notation_text,
    check_record_script,
    cli_inputs,
    emn_of,
    foreign_text,
    grammar_texts,
    json_texts,
    json_values,
    line_texts,
    mutated_game_json,
    mutated_records,
    notation_texts,
    raw_texts,
    thrown_in_record,
    token_texts,
)

pytestmark = pytest.mark.slow
"""The fuzz suite, found inputs included, is left out of the quick run."""


# ---------------------------------------------------------------- 1. notation


@FUZZ
@given(raw_texts())
def test_raw_text(text: str) -> None:
    """Random text over a mixed alphabet."""
    check_notation_text(text)


@FUZZ
@given(token_texts())
def test_token_text(text: str) -> None:
    """Notation tokens in random order."""
    check_notation_text(text)


@FUZZ
@given(line_texts())
def test_line_text(text: str) -> None:
    """Random lines that start with a keyword."""
    check_notation_text(text)


@settings(FUZZ, max_examples=200)
@given(grammar_texts())
def test_grammar_text(text: str) -> None:
    """Records that follow the grammar, with random content."""
    check_notation_text(text)


@settings(FUZZ, max_examples=180)
@given(mutated_records())
def test_mutated_record(text: str) -> None:
    """Samples and generated games with random mutations."""
    check_notation_text(text)


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.stem)
def test_sample_round_trips(path: Path) -> None:
    """Every sample as it is (the seeds of the mutations)."""
    check_notation_text(path.read_text(encoding="utf-8"))


# ---------------------------------------------------------------- 2. JSON


@FUZZ
@given(json_values().map(json.dumps))
def test_json_value(text: str) -> None:
    """Random JSON values."""
    check_json_text(text)


@settings(FUZZ, max_examples=80)
@given(mutated_game_json())
def test_mutated_game_json(text: str) -> None:
    """The JSON forms of generated games with random changes."""
    check_json_text(text)


@settings(FUZZ, max_examples=100)
@given(json_texts())
def test_json_text(text: str) -> None:
    """Random JSON documents, JSON Lines and deep nesting."""
    check_json_text(text)


# ---------------------------------------------------------------- 2b. formats from elsewhere


@st.composite
def foreign_texts(draw: st.DrawFn, kind: str) -> str:
    """EGN, EMN and OpenSpiel inputs (``support.fuzzing.foreign_text``), deep JSON too."""
    return foreign_text(Drawn(draw), kind, deep=True)


@settings(FUZZ, max_examples=60)
@pytest.mark.parametrize("kind", sorted(FOREIGN_EXTENSIONS))
@given(data=st.data())
def test_foreign_text(kind: str, data: st.DataObject) -> None:
    """The test data's EGN files, EMN matches and OpenSpiel histories, mutated, random
    values with their keys, and JSON nested deep: each read, checked and converted."""
    check_foreign_text(kind, data.draw(foreign_texts(kind)))


@settings(FUZZ, max_examples=80)
@given(st.one_of(notation_texts(), json_texts(deep=True),
                 st.sampled_from(sorted(FOREIGN_EXTENSIONS)).flatmap(foreign_texts)))
def test_event_source(text: str) -> None:
    """``score``'s event reader on any text, read whole and game by game."""
    check_event_source(text)


@settings(FUZZ, max_examples=30)
@given(st.sampled_from(sorted(FOREIGN_EXTENSIONS)).flatmap(
    lambda kind: st.tuples(foreign_texts(kind), st.just(FOREIGN_EXTENSIONS[kind]))),
    st.sampled_from(CLI_FILE_COMMANDS))
def test_cli_file(item: tuple[str, str], args: tuple[str, ...]) -> None:
    """``check`` and ``convert`` on a file sniffed as EGN, EMN or OpenSpiel."""
    text, suffix = item
    check_cli_file(text.encode("utf-8", "surrogatepass"), suffix, args)


# ---------------------------------------------------------------- 3. the command line


@settings(FUZZ, max_examples=120)
@given(cli_inputs(), st.sampled_from(CLI_COMMANDS))
def test_cli(data: bytes, args: tuple[str, ...]) -> None:
    """Every command on random standard input, through Click's runner."""
    check_cli_input(data, args)


@settings(FUZZ, max_examples=4, phases=(Phase.explicit, Phase.generate))
@given(st.one_of(st.binary(max_size=400), cli_inputs()))
@example(b"\xff\xfe[Variant \"four-hand\"]\n")
@example(b'\xef\xbb\xbf[Variant "four-hand"]\ndeal 1 dealer N\n  thrown in\n# \xc3(\n')
def test_module(data: bytes) -> None:
    """``python -m euchrelog check -`` on random bytes and bytes that are not UTF-8, in a
    process of its own."""
    check_module_input(data)


# ---------------------------------------------------------------- 4. linear time

N = 2_500
"""The small size of the linear-time properties; the large one is 4N."""


def test_many_deals_linear() -> None:
    """A game of n and of 4n thrown-in deals read, format and check alike."""
    small, large = thrown_in_record(N), thrown_in_record(4 * N)
    for text, n in ((small, N), (large, 4 * N)):
        log = loads(text)
        assert len(log.games[0].deals) == n
        assert dumps(log) == text
    codes = [[f.code for r in _checked(t) for f in r.findings] for t in (small, large)]
    assert codes[0] == codes[1]


JUNK_LINES: tuple[tuple[str, str, str], ...] = (
    ("  hands N: ", "9H TS ", "XX"),
    ("  hands N: ", "9H ", "N:"),
    ("  1. ", "N: 9H ", "9H"),
    ("  bid ", "N pass, ", "N foo"),
    ("  points ", "NS 1 ", "NS"),
    ("  up 9H  kitty ", "?? ", "Q"),
    ("result ", "NS 1 ", "winner"),
    ("  ghost ", "10C ", "1C"),
    ("  ", "9H", "!"),
    ('[Event "', 'a\\"', ""),
    ("# ", "9H ", "\udc80"),
)
"""A head, a unit repeated to make a line of card-like junk, and a tail that spoils it."""


def _junk_record(head: str, unit: str, tail: str, n: int) -> str:
    line = head + unit * n + tail
    if head.startswith(("[", "#")):
        return line + '\n[Variant "four-hand"]\ndeal 1 dealer N\n  thrown in\n'
    return f'[Variant "four-hand"]\ndeal 1 dealer N\n{line}\n'


def _shape(text: str) -> list[tuple[str, int, int, str]]:
    return [(f.code, f.line, f.column, re.sub(r"'[^']*'", "'…'", f.message))
            for r in check_findings(text) for f in r.findings]


@pytest.mark.parametrize(("head", "unit", "tail"), JUNK_LINES, ids=lambda v: repr(v)[:12])
def test_long_junk_line_linear(head: str, unit: str, tail: str) -> None:
    """A line of n and 4n units of card-like junk gives the same finding, the column moved
    by the added units (or staying put), and reads the same way."""
    n = LONG // (4 * len(unit))
    small, large = (_junk_record(head, unit, tail, k) for k in (n, 4 * n))
    outcome = []
    for text in (small, large):
        try:
            loads(text)
            outcome.append("ok")
        except NotationError as exc:
            outcome.append(exc.message if "'" not in exc.message else exc.message.split("'")[0])
    assert outcome[0] == outcome[1]
    first, second = _shape(small), _shape(large)
    assert [(c, line, m) for c, line, _, m in first] == [(c, line, m) for c, line, _, m in second]
    for (_, _, a, _), (_, _, b, _) in zip(first, second, strict=True):
        assert b in (a, a + 3 * n * len(unit)), (a, b)


# ---------------------------------------------------------------- escapes found by fuzzing
# Minimal reproductions of the escapes the fuzzing found, kept as regression tests: each
# once raised an exception of no euchrelog type, or made the CLI print a traceback.

CLEAN = '[Variant "four-hand"]\ndeal 1 dealer N\n  thrown in\nunfinished\n'
"""A short clean record."""

DEEP_JSON = '{"games":' + "[" * 100_000 + "]" * 100_000 + "}"
"""JSON nested deeper than Python's recursion limit (was a RecursionError)."""

SHEET_WITHOUT_TRUMP = '{"deals":[{"number":1,"dealer":"N","sheet":{}}]}\n'
"""A JSON game whose score-sheet line has neither trump nor maker (was an AssertionError in
the replay)."""


def _codes(text: str) -> list[str]:
    return [f.code for r in check_findings(text) for f in r.findings]


@pytest.mark.parametrize("text", [DEEP_JSON, SHEET_WITHOUT_TRUMP], ids=["deep", "sheet"])
def test_bad_json_is_a_record_error(text: str) -> None:
    """Deep nesting and a sheet without trump are a RecordError and an S102 finding."""
    with pytest.raises(RecordError):
        loads_json(text)
    assert _codes(text) == ["S102"]


@pytest.mark.parametrize(("text", "code"), [
    ('[Variant "three-hand"]\ndeal 1 dealer W\n  up 9C\n  bid N order\n  1. N: 9H\n', "D302"),
    ('[Variant "cutthroat"]\ndeal 1 dealer W\n  up 9C\n  bid N order\n  W discards 9H\n',
     "K501"),
    ('[Variant "ghost"]\ndeal 1 dealer S\n  bid W swap\n', "B401"),
    # fuzz/run.py, seed 20261201, input 19234: the seat with no player became the maker
    ('[Variant "cutthroat"]\ndeal 1 dealer S\n  bid W call S\n  W merges keeps KC JK\n',
     "B401"),
], ids=["dealer-plays", "dealer-exchanges", "ghost-swap", "maker-merges"])
def test_seat_without_player_is_a_finding(text: str, code: str) -> None:
    """A seat without a player that deals, exchanges or swaps with the ghost hand (was a
    KeyError in the engine) is a finding."""
    loads(text)
    assert code in _codes(text)


def test_lone_surrogate_is_a_notation_error() -> None:
    """A lone surrogate (was kept by ``loads``, then broke the JSON Lines writer) is
    refused where it stands."""
    with pytest.raises(NotationError) as caught:
        loads("# \ud800\n" + CLEAN)
    assert (caught.value.line, caught.value.column) == (1, 3)


@pytest.mark.parametrize(("data", "args", "status"), [
    (DEEP_JSON, ("check", "-"), 2),
    (DEEP_JSON, ("convert", "-"), 2),
    (SHEET_WITHOUT_TRUMP, ("check", "-"), 2),
    (dumps_json(loads(CLEAN), indent=None), ("check", "-"), 0),
], ids=["deep-check", "deep-convert", "sheet-check", "one-line-document"])
def test_cli_on_found_inputs(data: str, args: tuple[str, ...], status: int) -> None:
    """The same inputs through ``python -m euchrelog`` (deep JSON and a bad sheet once
    printed a traceback; a JSON document on one line was read as JSON Lines)."""
    check_module_input(data.encode(), args)
    result = CliRunner().invoke(main, [args[0], "-q", "-"] if args[0] == "check" else args,
                                input=data)
    assert result.exit_code == status, result.output


@pytest.mark.parametrize("brk", ["\x0b", "\x1c", "\x85", "\u2028", "\r", "\x0c"], ids=ascii)
@pytest.mark.parametrize("where", ["line end", "line break"])
def test_readers_agree_on_line_breaks(brk: str, where: str) -> None:
    """``loads``, ``check_text`` and ``euchrelog check`` split lines alike (at ``\\n``
    only): a character that str.splitlines takes for a line break once made ``loads``
    accept what ``check`` refused."""
    text = (CLEAN.replace("\n", brk + "\n", 1) if where == "line end"
            else CLEAN.replace("\n", brk))
    try:
        loads(text)
        read = True
    except NotationError:
        read = False
    assert ("S101" not in _codes(text)) == read
    result = CliRunner().invoke(main, ["check", "-q", "-"], input=text.encode())
    assert (result.exit_code != 2) == read, result.output


def test_dummy_and_ghost_lines_lex_in_linear_time() -> None:
    """A long run of blanks after `ghost` once made the lexer try every split of it."""
    for n in (10_000, 40_000):
        text = '[Variant "ghost"]\ndeal 1 dealer N\n  ghost' + " " * n + "x\nunfinished\n"
        with pytest.raises(NotationError) as err:
            loads(text)
        assert err.value.line == 3


def test_a_card_outside_the_deck_is_refused_to_a_hand_not_known(tmp_path: Path) -> None:
    """The first long run with recorder scripts: a joker played (in a 24-card game) by a
    seat whose hand was not given was taken, then ``check`` found D305 in the file."""
    script = ["Ann", "Ben", "Cy", "Dee", "E", "full", "", "", "", "", "KS", "", "pass",
              "order", "discard JK", "discard KC", "KD", "QS", "QD", "AD", "JK", "9S"]
    check_record_script("\n".join(["", *script]))
    result = CliRunner().invoke(main, ["record", str(tmp_path / "g.euchre")],
                                input="".join(f"{line}\n" for line in script))
    assert "  refused: D305 JK (discarded by E) is not in the 24-card deck" in result.output
    assert "  refused: D305 JK (played by W) is not in the 24-card deck" in result.output


def test_a_renege_played_all_the_same_stays_in_the_record(tmp_path: Path) -> None:
    """A long run (seed 20261204, input 39184): a scorer said a refused card was played
    all the same and the renege not claimed; the record keeps the renege as played, and
    check reports it (R801) once, which the property allows for each renege confirmed."""
    script = ["N E S", "Ann", "Ben", "Cy", "E", "full", "AC KD KS 9H TH", "KC TD JS QS KH",
              "TC QD AS JH JK", "9C 9D JD AD 9S", "TS", "QH QC AH JC", "pass", "order",
              "declines", "merge keeps JD AD 9S JS QS", "AC", "QS", "TC", "JS", "QD", "y",
              "n"]
    check_record_script("\n".join(["--variant cutthroat --rules deck=25", *script]))
    path = tmp_path / "g.euchre"
    CliRunner().invoke(main, ["record", str(path), "--variant", "cutthroat", "--rules",
                              "deck=25"], input="".join(f"{line}\n" for line in script))
    findings = replay(loads(path.read_text(encoding="utf-8")).games[0]).findings
    reneges = [f for f in findings if f.code == "R801"]
    assert len(reneges) == 1 and "E plays QD on the JS lead" in reneges[0].message


def test_a_deal_of_json_has_one_exchange() -> None:
    """A long run (seed 20261204, input 63347): JSON with an exchange and, among the
    declarations, a second one before any merge was taken, and its notation could not be
    read back. A deal has one exchange, in ``exchange`` or after the merge, as in notation."""
    tags = [{"name": "Variant", "value": "cutthroat"}]
    exchange = {"seat": "N", "discard": "TC"}
    merge = {"act": "merge", "seat": "N"}
    declines = {"seat": "N", "act": "declines"}
    cases = (({"exchange": exchange, "declarations": [{"seat": "N"}]}, "one exchange"),
             ({"declarations": [declines, merge]}, "after the merge"))
    for acts, says in cases:
        text = json.dumps({"tags": tags, "deals": [{"number": 1, "dealer": "N", **acts}]})
        with pytest.raises(RecordError, match=says):
            loads_json(text)
    after = {"number": 1, "dealer": "N", "declarations": [merge, declines]}
    log = loads_json(json.dumps({"tags": tags, "deals": [after]}))
    assert loads(dumps(log)) == log


@pytest.mark.parametrize(("part", "field", "value"), [
    ("games", "gameIndex", "1"), ("games", "gameIndex", -1), ("games", "players", [[1], 2, 3, 4]),
    # fuzz/run.py, seed 20261216, input 12164
    ("metadata", "players", 0),
], ids=["index-text", "index-negative", "seat-list", "players-number"])
def test_an_emn_field_of_another_type_is_a_conversion_error(part: str, field: str,
                                                            value: object) -> None:
    """The first runs of the EMN reader: a ``gameIndex`` that is not a whole number was a
    TypeError at ``index + 1``, a seat that is a list a TypeError at the id look-up, and
    ``players`` that is not a list a TypeError where they were counted."""
    match = json.loads(emn_of(EGN_TEXTS[:1]))
    where = "$.games[0]" if part == "games" else "$.metadata"
    (match["games"][0] if part == "games" else match[part])[field] = value
    check_foreign_text("emn", json.dumps(match))
    result = CliRunner().invoke(main, ["convert", "--from", "emn", "-"], input=json.dumps(match))
    assert result.exit_code == 2 and f"{where}.{field}: S102 expected" in result.output


def test_a_renege_proved_in_a_trick_closed_within_a_line_is_placed_on_that_line() -> None:
    """fuzz/run.py, seed 20261222, input 259809: plays written under seats with no player,
    each taken as a seat's that plays, closed two tricks of the state within one trick line;
    a renege proved in the second was looked up past the record's tricks (an IndexError in
    the replay). It is placed on that line."""
    text = ('[Variant "two-hand"]\ndeal 9 dealer E\n'
            "  bid S pass, N pass, E pass, W call H, E 5, W order\n"
            "  7. N: TD  W: 9S  E: 7C\n"
            "  3. S: JS  N: AH  W: TH  W: KS  W: AS\n"
            "  4. W: 9D  W: ??  S: ??\n")
    proofs = [f for r in check_findings(text) for f in r.findings if f.code == "R802"]
    assert [(f.line, f.column) for f in proofs] == [(5, 16)]
    both_paths_agree(text)


def test_a_skipped_span_of_comment_lines_only_has_no_deal_line_to_read_again() -> None:
    """fuzz/run.py, seeds 20261224 and 20261225 (inputs 37740 and 63356): a syntax error
    (a lone surrogate) in a comment of a game whose recovery skipped lines that are all
    comments; the search for the span's deal line found none (a StopIteration in the
    generator of check_text)."""
    text = ('[Zz "\\\\"]\n\n# # twice\n# deal 2 dealer\udcfe\udcbb\udc8a7 \x06\udcf5\udcf6'
            '\udc8f%n\udc84K\udcfb-\udca4\x12 E agreed x\ry\nunfinished  # result NS 10 a \\ b " c')
    results = check_findings(text)
    assert [f.code for r in results for f in r.findings] == ["T201", "S101"]
