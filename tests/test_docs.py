"""The docs tell the truth: every record shown with the output of `euchrelog check` (or of
`euchrelog score`, for the event codes E96x that need a whole event) gives exactly that
output, every finding code is documented, and the grammar in the notation spec is the
grammar the parser uses."""

from __future__ import annotations

import re
import shlex
from itertools import pairwise
from pathlib import Path

import click
import pytest
from _pytest.mark.structures import ParameterSet
from click.testing import CliRunner

from euchrelog.cli import main
from euchrelog.findings import CODES, EVENT_CODES, codes_table
from euchrelog.rules import options_table
from make_cli_docs import HELP_BLOCK, help_text, rewritten

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RECORDS = ("euchre", "json", "jsonl")
"""The kinds of block that hold a record a command reads."""
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.MULTILINE | re.DOTALL)


def _examples() -> list[ParameterSet]:
    """Pairs of a record (a ```euchre block, or EGN or OpenSpiel in a ```json or ```jsonl
    block) and the ```console block right after it."""
    found: list[ParameterSet] = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        blocks = [(m.group(1), m.group(2), m.start(), m.end()) for m in FENCE.finditer(text)]
        for (kind, record, _, end), (nkind, console, start, _) in pairwise(blocks):
            between = text[end:start]
            if kind not in RECORDS or nkind != "console" or "\n\n" in between.strip():
                continue  # not a record and its output, or prose that changes the record
            first, *rest = console.splitlines()
            if not first.startswith(("$ euchrelog check ", "$ euchrelog score ",
                                     "$ euchrelog convert ")):
                continue
            output = []
            for out in rest:
                if out.startswith("$ "):
                    break
                output.append(out)
            line = text[: start].count("\n") + 1
            found.append(pytest.param(record, first[2:], output, id=f"{doc.name}:{line}"))
    return found


@pytest.mark.parametrize(("record", "command", "output"), _examples())
def test_documented_check_output(record: str, command: str, output: list[str],
                                 tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    args = shlex.split(command)[1:]
    name = args[-1]
    (tmp_path / name).write_text(record, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args)
    stdout = result.stdout.splitlines()
    assert output in (stdout, stdout + result.stderr.splitlines())


def test_there_are_documented_examples() -> None:
    assert len(_examples()) >= len(CODES)


@pytest.mark.parametrize("code", sorted(EVENT_CODES))
def test_every_event_code_has_a_score_example(code: str) -> None:
    """The event codes are found by `euchrelog score`, never by `check` (they need every game
    of an event), so their documented examples run `score` and show the code."""
    outputs = [p.values[2] for p in _examples() if str(p.values[1]).startswith("euchrelog score ")]
    lines = [str(line) for output in outputs if isinstance(output, list) for line in output]
    assert any(f" {code} " in line for line in lines)


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_code_is_documented(code: str) -> None:
    findings = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    assert f"### {code} {CODES[code].name}" in findings


def test_notation_spec_quotes_the_grammar() -> None:
    spec = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    grammar = (ROOT / "grammar" / "euchre.lark").read_text(encoding="utf-8")
    assert grammar.strip() in spec


def test_rules_mirror_the_shared_rulebook() -> None:
    shared = ROOT.parent / "shared" / "rules" / "RULES.md"
    if not shared.is_file():
        pytest.skip("no shared rulebook beside this checkout")
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == shared.read_text(
        encoding="utf-8")


def _python_examples() -> list[ParameterSet]:
    """README ```python blocks that need no file, each with the ```text block after it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [(m.group(1), m.group(2)) for m in FENCE.finditer(text)]
    return [pytest.param(code, shown, id=f"README.md:{n}")
            for n, ((kind, code), (nkind, shown)) in enumerate(pairwise(blocks))
            if kind == "python" and nkind == "text" and "open(" not in code]


@pytest.mark.parametrize(("code", "shown"), _python_examples())
def test_readme_python_examples(code: str, shown: str, capsys: pytest.CaptureFixture[str]
                                ) -> None:
    exec(compile(code, "README.md", "exec"), {})  # the README's own example, run as shown
    assert capsys.readouterr().out == shown


def _help_blocks() -> list[ParameterSet]:
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    return [pytest.param(m.group(1), m.group(2), id=m.group(1))
            for m in HELP_BLOCK.finditer(text)]


@pytest.mark.parametrize(("command", "shown"), _help_blocks())
def test_cli_help_is_quoted_as_it_is(command: str, shown: str) -> None:
    """(python tests/make_cli_docs.py writes them anew.)"""
    assert help_text(command) == shown


def test_the_cli_manual_is_written_from_the_commands() -> None:
    """Issue 44: docs/cli.md lists every command, quotes ``--version``, every ``--help`` and
    every example on the samples as the commands print them now (``python
    tests/make_cli_docs.py`` writes them anew)."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert rewritten(text) == text
    assert "[`euchrelog serve`]" in text and "[`euchrelog stats`]" in text


def test_every_command_has_its_help_in_the_manual() -> None:
    quoted = {str(p.values[0]) for p in _help_blocks()}
    commands = main.list_commands(click.Context(main))
    assert "--help" in quoted
    assert {f"{name} --help" for name in commands} <= quoted, sorted(quoted)


def test_readme_links_are_files_of_the_repository() -> None:
    """The README's links are relative links to files beside it (the manual ships in the
    package too: ``euchrelog docs``)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)]*)\)", readme)
    assert links
    assert all((ROOT / link.split("#")[0]).is_file() for link in links), links


def test_help_links_no_placeholder_domain() -> None:
    for command in main.list_commands(click.Context(main)):
        assert "example.org" not in help_text(f"{command} --help"), command


def test_the_manual_ships_in_the_package() -> None:
    result = CliRunner().invoke(main, ["docs"])
    assert result.exit_code == 0
    shipped = {line.split()[0] for line in result.output.splitlines()}
    assert shipped == {p.stem for p in (ROOT / "docs").glob("*.md")}
    notation = CliRunner().invoke(main, ["docs", "notation"])
    assert notation.output == (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")


def test_all_codes_table_is_the_code_table() -> None:
    """docs/findings.md lists every code as findings.CODES has it (name, severity, rules)."""
    text = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    assert codes_table() in text


def test_rules_tag_table_is_the_options_table() -> None:
    """docs/notation.md lists every option of the Rules tag as rules.OPTIONS has it."""
    text = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    assert options_table() in text
