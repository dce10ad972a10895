"""One row a kind of line (issue 40, "One reader"): notation/kinds.py holds, for each line
terminal of the grammar, its words, its builders of the JSON form and of the parts form,
its placer and its writer; the one assembler makes either form from those rows. The rows
agree with the grammar, and each line the writer writes reads back as the line of a row."""

from __future__ import annotations

from pathlib import Path

import pytest

from euchrelog.notation import loads, split_games
from euchrelog.notation.assembly import GameAssembler
from euchrelog.notation.grammar import shipped_line_table
from euchrelog.notation.kinds import BODY, FORM, KINDS, PARTS, PLACERS, WORDS
from euchrelog.notation.lines import read_lines_into
from euchrelog.notation.parts import DeclineError
from euchrelog.notation.reader import line_terminals
from euchrelog.notation.writer import game_lines

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted((ROOT / "samples" / "valid").glob("*.euchre"))


def _line_table() -> tuple[dict[str, str], dict[str, str]]:
    table = shipped_line_table()
    assert table is not None
    return table


def test_each_line_terminal_of_the_grammar_has_one_row() -> None:
    terminals, patterns = _line_table()
    assert {(k.terminal, k.name) for k in KINDS if k.terminal != "TAG"} == set(terminals.items())
    assert len({k.terminal for k in KINDS}) == len(KINDS)
    assert set(WORDS) == set(patterns)
    assert all(k.write is not None and k.words for k in KINDS)


def test_both_outputs_build_every_line_of_a_deal() -> None:
    aliases = {alias for alias in _line_table()[0].values()
               if alias not in ("opening", "deal", "end")}
    assert {k.name for k in BODY} == aliases == set(FORM.body) == set(PARTS.body)
    assert FORM.before_play is PARTS.before_play and FORM.placers is PARTS.placers


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_line_kept_for_later_has_a_placer(path: Path) -> None:
    """A line the assembler keeps to place when a finding asks is of a kind with a
    placer, in either output."""
    for _, text in split_games(path.read_text(encoding="utf-8").splitlines(keepends=True)):
        for output in (FORM, PARTS):
            assembler = GameAssembler(output)
            try:
                read = read_lines_into(text, line_terminals(), assembler)
            except DeclineError:  # (a merge or a claim: the parts leave the game to the form)
                continue
            if read is True:
                assert {kept[0] for kept in assembler.later} <= set(PLACERS)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_the_writers_line_reads_back_as_its_kind(path: Path) -> None:
    """Each line the writer writes is taken by the terminal of a row."""
    terminals = line_terminals()
    by_terminal = {k.terminal: k for k in KINDS}
    for game in loads(path.read_text(encoding="utf-8")).games:
        for line in game_lines(game):
            text = line.strip().split("  #")[0]
            if not text or text.startswith(("#", "[")):
                continue
            m = terminals.match(text)
            assert m is not None and m.lastgroup in by_terminal, text
