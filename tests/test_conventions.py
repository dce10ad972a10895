"""The conventions of the tools users know (issue 44): configuration found as ruff and black
find theirs and honoured by check, fmt and analyze; pre-commit hooks; noqa comments that
name no code or leave nothing out; "did you mean"; explain by name; JSON errors at their
place, in the project's words; the dead card; the traps of ``record``; casual games in
``score``; an empty file; the option names across commands; ``docs`` through a pager.
Each test failed on 72fdb3c."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

from euchrelog.check import check_text
from euchrelog.cli import main
from euchrelog.cli.options import JOBS
from euchrelog.findings import nearest_code, noqa_of
from euchrelog.notation import loads
from euchrelog.replay import replay
from euchrelog.rules import find_variant, parse_rules

ROOT = Path(__file__).resolve().parent.parent
INVALID = ROOT / "samples" / "invalid"
VALID = ROOT / "samples" / "valid"


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input)


def _club(tmp_path: Path) -> Path:
    """A folder ``club/sub`` with a record with a C901 and one with a renege."""
    sub = tmp_path / "club" / "sub"
    sub.mkdir(parents=True)
    shutil.copy(INVALID / "C901-points-differ.euchre", sub / "points.euchre")
    shutil.copy(INVALID / "R801-renege.euchre", sub / "renege.euchre")
    return sub


# ------------------------------------------------------------------ configuration


def test_check_reads_the_configuration_found_from_the_sources_up(tmp_path: Path) -> None:
    sub = _club(tmp_path)
    (tmp_path / "club" / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.euchrelog]\nselect = ["C9"]\n\n'
        '[tool.euchrelog.check]\nformat = "json"\n', encoding="utf-8")
    result = run("check", "-q", str(sub))
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["code"] for r in rows] == ["C901"]
    given = run("check", "-q", "--format", "text", "--select", "R8", str(sub))
    assert given.stdout.count(" R801 ") == 1 and "C901" not in given.stdout
    isolated = run("check", "-q", "--isolated", str(sub))
    assert " C901 " in isolated.stdout and " R801 " in isolated.stdout


def test_euchrelog_toml_comes_before_pyproject_and_config_names_a_file(tmp_path: Path) -> None:
    sub = _club(tmp_path)
    (tmp_path / "club" / "pyproject.toml").write_text(
        '[tool.euchrelog]\nselect = ["C9"]\n', encoding="utf-8")
    (tmp_path / "club" / "euchrelog.toml").write_text('select = ["R8"]\n', encoding="utf-8")
    assert "R801" in run("check", "-q", str(sub)).stdout
    other = tmp_path / "other.toml"
    other.write_text('ignore = ["R8", "C9"]\n', encoding="utf-8")
    named = run("check", "-q", "--config", str(other), str(sub))
    assert named.stdout == "" and named.exit_code == 0


def test_a_pyproject_without_the_table_is_passed_over(tmp_path: Path) -> None:
    sub = _club(tmp_path)
    (tmp_path / "euchrelog.toml").write_text('select = ["C9"]\n', encoding="utf-8")
    (tmp_path / "club" / "pyproject.toml").write_text('[project]\nname = "x"\n',
                                                      encoding="utf-8")
    assert "R801" not in run("check", "-q", str(sub)).stdout


def test_per_file_ignores_and_exclude(tmp_path: Path) -> None:
    sub = _club(tmp_path)
    (tmp_path / "club" / "euchrelog.toml").write_text(
        'exclude = ["renege.euchre"]\nper-file-ignores = { "sub/points.*" = ["C901"] }\n',
        encoding="utf-8")
    result = run("check", str(sub))
    assert result.exit_code == 0 and "checked 1 file" in result.stderr
    named = run("check", "-q", str(sub / "renege.euchre"), str(sub / "points.euchre"))
    assert " R801 " in named.stdout and "C901" not in named.stdout


def test_fmt_and_analyze_honour_the_configuration(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    messy = "[Event \"x\"] [Variant \"four-hand\"]\n[Target \"1\"]\nDEAL 1 DEALER n\n" \
            "  Trump h maker s TRICKS 3\n  points ns 1\nresult NS 1 EW 0 winner ns\n"
    (folder / "messy.euchre").write_text(messy, encoding="utf-8")
    shutil.copy(VALID / "three-hand-club-night.euchre", folder / "club.euchre")
    assert run("fmt", "--check", str(folder)).exit_code == 1
    (folder / "euchrelog.toml").write_text('exclude = ["messy.euchre"]\n\n[analyze]\n'
                                           'format = "json"\nno-par = true\n', encoding="utf-8")
    assert run("fmt", "--check", str(folder)).exit_code == 0
    analyzed = run("analyze", "-q", str(folder))
    rows = [json.loads(line) for line in analyzed.stdout.splitlines()]
    assert rows and all("par" not in row or not row["par"] for row in rows)
    assert run("analyze", "-q", "--isolated", str(folder)).stdout.startswith(str(folder))


def test_record_takes_its_house_rules_from_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "euchrelog.toml").write_text(
        '[record]\nvariant = "four-hand"\nrules = "stick-the-dealer"\ntarget = 5\n',
        encoding="utf-8")
    path = tmp_path / "g.euchre"
    result = run("record", str(path), input="Ann\nBen\nCleo\nDev\nN\n")
    assert result.exit_code == 0, result.output
    game = loads(path.read_text(encoding="utf-8")).games[0]
    assert (game.tag("Rules"), game.tag("Target")) == ("stick-the-dealer", "5")


@pytest.mark.parametrize(("text", "said"), [
    ('selct = ["C9"]\n', "unknown key 'selct'; did you mean select?"),
    ('format = "json"\n', "unknown key 'format' (it goes in the table [check])"),
    ('[check]\nformt = "json"\n', "'formt' is no option of the command that a configuration "
                                  "can set; did you mean format?"),
    ('[check]\nformat = "xml"\n', "format = 'xml': Invalid value for '--format'"),
    ('select = [\n', "not TOML"),
    ('[check]\noutput = "x"\n', "'output' is no option of the command"),
])
def test_a_configuration_it_cannot_take_is_a_usage_error(tmp_path: Path, text: str,
                                                         said: str) -> None:
    sub = _club(tmp_path)
    (tmp_path / "euchrelog.toml").write_text(text, encoding="utf-8")
    result = run("check", str(sub))
    assert result.exit_code == 2
    assert said in result.output and "euchrelog.toml" in result.output


# ------------------------------------------------------------------ pre-commit


def _manifest() -> list[dict[str, Any]]:
    """The hooks of .pre-commit-hooks.yaml, as pre-commit reads and checks them."""
    from pre_commit.clientlib import load_manifest  # type: ignore[import-untyped]

    hooks: list[dict[str, Any]] = load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))
    return hooks


def test_the_hooks_file_is_a_pre_commit_manifest() -> None:
    hooks = {hook["id"]: hook for hook in _manifest()}
    assert set(hooks) == {"euchrelog-check", "euchrelog-fmt"}
    assert hooks["euchrelog-check"]["entry"] == "euchrelog check"
    assert hooks["euchrelog-fmt"]["entry"] == "euchrelog fmt --in-place"


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")
def test_pre_commit_runs_the_hooks_over_the_samples(tmp_path: Path) -> None:
    """The hooks of .pre-commit-hooks.yaml, as a local repository's hooks (language system,
    the entry this Python's euchrelog: no network), run by pre-commit over the valid
    samples pass; a record with a finding fails check, and one not canonical fails fmt."""
    repo = tmp_path / "repo"
    shutil.copytree(VALID, repo / "records")
    hooks = [{**hook, "language": "system",
              "entry": hook["entry"].replace("euchrelog", f"{sys.executable} -m euchrelog", 1)}
             for hook in _manifest()]
    (repo / ".pre-commit-config.yaml").write_text(  # (YAML reads JSON)
        json.dumps({"repos": [{"repo": "local", "hooks": hooks}]}), encoding="utf-8")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "GIT_CONFIG_GLOBAL":
           os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}

    def pre_commit() -> subprocess.CompletedProcess[str]:
        subprocess.run(["git", "add", "-A"], cwd=repo, env=env, check=True)
        return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"],
                              cwd=repo, env=env, capture_output=True, text=True, check=False)

    subprocess.run(["git", "init", "-q"], cwd=repo, env=env, check=True)
    clean = pre_commit()
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "euchrelog check" in clean.stdout and "euchrelog fmt" in clean.stdout
    shutil.copy(INVALID / "R801-renege.euchre", repo / "records" / "renege.euchre")
    found = pre_commit()
    assert found.returncode == 1 and "R801" in found.stdout
    (repo / "records" / "renege.euchre").unlink()
    messy = repo / "records" / "messy.euchre"
    messy.write_text((VALID / "score-sheet.euchre").read_text("utf-8").replace(
        "deal 1 dealer", "DEAL 1 DEALER"), encoding="utf-8")
    formatted = pre_commit()
    assert formatted.returncode == 1 and "files were modified by this hook" in formatted.stdout
    assert messy.read_text("utf-8") == (VALID / "score-sheet.euchre").read_text("utf-8")


# ------------------------------------------------------------------ noqa, did you mean


def test_an_unknown_code_in_noqa_is_a_warning_that_says_the_code_meant() -> None:
    text = (INVALID / "N101-unknown-noqa-code.euchre").read_text("utf-8")
    found = [f for g in check_text(text) for f in g.findings]
    assert [f.code for f in found] == ["C901", "N101"]
    assert found[1].message.endswith("did you mean C901?")
    assert noqa_of("  points NS 2  # noqa: C9O1 (agreed)") is not None
    assert nearest_code("C9O1") == "C901"


def test_unused_noqa_is_reported_on_request_and_fixed() -> None:
    path = str(INVALID / "N102-unused-noqa.euchre")
    assert run("check", path).exit_code == 0
    asked = run("check", "--unused-noqa", path)
    assert asked.exit_code == 1 and " N102 " in asked.stdout
    assert " N102 " in run("check", "--select", "N1", path).stdout
    text = (INVALID / "C901-points-differ.euchre").read_text("utf-8").replace(
        "points EW 2  total NS 0 EW 2", "points EW 2  total NS 0 EW 2  # noqa: C901, R801 seen")
    found = [f for g in check_text(text) for f in g.unused]
    assert [f.message for f in found] == ["R801 in '# noqa' leaves out no finding on this line"]
    result = run("check", "--fix", "--unused-noqa", "-q", "-", input=text)
    assert "points EW 2  total NS 0 EW 2  # noqa: C901 seen\n" in result.stdout


@pytest.mark.parametrize(("args", "said"), [
    (["chek", "x"], "No such command 'chek'. Did you mean 'check'?"),
    (["check", "--select", "R8O1", str(VALID)], "did you mean R801?"),
    (["explain", "R8O1"], "did you mean R801?"),
    (["explain", "reneg"], "did you mean renege (R801)?"),
    (["record", "--variant", "fourhand", "x.euchre"], "did you mean four-hand?"),
    (["stats", "--variant", "fourhand", str(VALID)], "did you mean four-hand?"),
    (["docs", "notatin"], "did you mean notation?"),
])
def test_did_you_mean(args: list[str], said: str) -> None:
    result = run(*args)
    assert result.exit_code == 2 and said in result.output


def test_a_misspelt_house_rule_or_variant_says_the_one_meant() -> None:
    _, problems = parse_rules("stick-the-dealr", find_variant("four-hand"))
    assert problems == ["unknown option 'stick-the-dealr' in the Rules tag; did you mean "
                        "stick-the-dealer?"]
    with pytest.raises(ValueError, match="did you mean four-hand"):
        find_variant("fourhand")


def test_explain_takes_a_code_or_its_name() -> None:
    assert run("explain", "renege").output == run("explain", "R801").output
    assert run("explain", "false-claim").output.startswith("### R803 false-claim")


# ------------------------------------------------------------------ JSON errors


def _json_document(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    text = run("convert", str(VALID / "four-hand-24-club-night.euchre")).stdout
    return tmp_path / "bad.json", json.loads(text)


def test_a_bad_value_of_a_json_document_is_placed_at_its_line_and_column(
        tmp_path: Path) -> None:
    path, data = _json_document(tmp_path)
    text = json.dumps(data, indent=2).replace('"dealer": "E"', '"dealer": "Q"', 1)
    path.write_text(text, encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if '"Q"' in row)
    column = text.splitlines()[line - 1].index('"Q"') + 1
    result = run("check", str(path))
    assert result.stdout.startswith(
        f"{path}:{line}:{column}: S102 game 1, deal 1, dealer: not a seat: 'Q'")
    converted = run("convert", str(path))
    assert f"{path}:{line}:{column}: S102 game 1, deal 1, dealer" in converted.output


@pytest.mark.parametrize(("bend", "said"), [
    (lambda deal: deal.pop("dealer"), "game 1, deal 1: dealer is missing"),
    (lambda deal: deal["tricks"][0].update(plays=[]),
     "game 1, deal 1, trick 1, plays: at least 1 item needed, none given"),
    (lambda deal: deal.update(number="one"), "game 1, deal 1, number: expected a whole number, "
                                             "found 'one'"),
    (lambda deal: deal.update(bogus=1), "game 1, deal 1: unknown key 'bogus'"),
])
def test_json_errors_are_in_the_projects_words(tmp_path: Path, bend: object,
                                               said: str) -> None:
    path, data = _json_document(tmp_path)
    games = data["games"]
    assert isinstance(games, list)
    bend(games[0]["deals"][0])  # type: ignore[operator]
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    result = run("check", str(path))
    assert f" S102 {said}" in result.stdout
    assert "should have" not in result.stdout and "Field required" not in result.stdout
    assert f"{path}:1:1:" not in result.stdout


def test_a_bad_line_of_json_lines_is_placed_at_its_column(tmp_path: Path) -> None:
    line = run("convert", "--to", "jsonl", str(VALID / "score-sheet.euchre")).stdout
    bent = line.replace('"dealer":"E"', '"dealer":"Q"', 1)
    path = tmp_path / "bad.jsonl"
    path.write_text(line + bent, encoding="utf-8")
    result = run("check", str(path))
    column = bent.index('"Q"') + 1
    assert result.stdout.startswith(f"{path}:2:{column}: S102 deal ")


# ------------------------------------------------------------------ the dead card


DEAD_CARD = """[Variant "four-hand"]
[Target "1"]

deal 1 dealer N
  up QS  kitty JC JD JH
  bid E pass, S pass, W pass, N order
  N takes QS discards KS
  1. E: AC  S: 9H  W: TD  N: 9D
  2. E: KC  S: TH  W: QD  N: KD
  3. E: QC  S: QH  W: QS  N: AS
  4. N: JS  E: TC  S: KH  W: 9S
  5. N: AD  E: 9C  S: AH  W: TS
RESULT
"""


def test_a_dead_card_does_not_zero_its_deal() -> None:
    """The reproduction of issue 44: W's QS cannot be (N took it up), but no card the record
    leaves W beats N's AS, so every trick's winner is known: the P702 is the deal's one
    finding and the deal scores as played. Its tricks go E, E, N, N, W (W trumps the last
    lead with TS): N's side takes two, and is euchred, EW 2, so the result the issue wrote,
    NS 1, is itself wrong (G952, G953), and the true one is accepted."""
    written = DEAD_CARD.replace("RESULT", "result NS 1 EW 0 winner NS")
    report = replay(loads(written).games[0])
    assert [f.code for f in report.findings] == ["P702", "G952", "G953"]
    assert report.deals[0].points == {"EW": 2}
    true = DEAD_CARD.replace("RESULT", "result NS 0 EW 2 winner EW")
    assert [f.code for f in replay(loads(true).games[0]).findings] == ["P702"]


# ------------------------------------------------------------------ record


SETUP = ["Ann", "Ben", "Cleo", "Dev", "N"]
DEAL = ["full", "9C TC QS KS AD", "9S TS AS 9D TD", "JD AH KH QH 9H", "AC KC QC JC KD", "JH",
        "QD TH JS", "pass", "order", "discard KD", "AD"]


def test_record_takes_the_corrected_card_after_a_refused_one(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    result = run("record", str(path), "--target", "2", input="\n".join(
        [*SETUP, *DEAL, "9S", "9D"]) + "\n")
    assert "was 9S played all the same (a renege)? [y/n, or the card played] > 9D" in (
        result.output)
    assert "answer y or n" not in result.output
    assert "  1. E: AD  S: 9D\n" in path.read_text(encoding="utf-8")
    typo = run("record", str(tmp_path / "h.euchre"), "--target", "2", input="\n".join(
        [*SETUP, *DEAL, "9S", "maybe", "9D"]) + "\n")
    assert "answer y or n, or type the card played instead" in typo.output


def test_record_offers_a_seats_only_legal_card(tmp_path: Path) -> None:
    path = tmp_path / "g.euchre"
    plays = ["9D", "9H", "AC", "JD", "JH", "9C", "9S", "KC", "TC", "TD", "AH", "KH", "QC",
             "QS", "TS", "QH", "", "", ""]
    result = run("record", str(path), "--target", "2", input="\n".join(
        [*SETUP, *DEAL, *plays]) + "\n")
    assert "N plays [JC] (Enter for JC) > " in result.output
    assert "  5. W: QH  N: JC  E: KS  S: AS\n" in path.read_text(encoding="utf-8")


# ------------------------------------------------------------------ score, empty files


def test_score_of_one_casual_game_gives_its_result(tmp_path: Path) -> None:
    text = (VALID / "four-hand-24-club-night.euchre").read_text("utf-8")
    casual = "\n".join(line for line in text.splitlines()
                       if not line.startswith(("[Event", "[Round", "[Table"))) + "\n"
    path = tmp_path / "casual.euchre"
    path.write_text(casual, encoding="utf-8")
    result = run("score", str(path))
    assert result.exit_code == 0, result.output
    assert "E962" not in result.output and "0 teams" not in result.stdout
    assert result.stdout.startswith("casual games (no Event tag)\n")
    assert "2 teams, 1 round, 1 game, 10 deals" in result.stdout
    assert "   1  Walt Brenner & Gus Ferris       1    1     0" in result.stdout
    assert "final: every game checks clean" in result.stdout


def test_an_empty_file_is_said_to_hold_no_game(tmp_path: Path) -> None:
    empty = tmp_path / "empty.euchre"
    empty.write_text("", encoding="utf-8")
    checked = run("check", str(empty))
    assert checked.exit_code == 0
    assert checked.stderr == f"checked 1 file, 0 games, 0 deals: {empty} holds no game\n"
    both = run("check", str(empty), str(VALID / "score-sheet.euchre"))
    assert f"({empty} holds no game): all clean" in both.stderr
    scored = run("score", str(empty))
    assert scored.exit_code == 0 and f"{empty} holds no game" in scored.stderr


# ------------------------------------------------------------------ options, docs


def _commands() -> list[click.Command]:
    ctx = click.Context(main)
    return [c for name in main.list_commands(ctx) if (c := main.get_command(ctx, name))]


def test_options_are_named_alike_across_commands() -> None:
    """One name and one short name for one meaning, on every command that has it; --jobs
    has one default, the shared constant; the commands that read records take --config."""
    shorts = {"--force": "-f", "--output": "-o", "--quiet": "-q", "--jobs": "-j"}
    for command in _commands():
        for param in command.params:
            if not isinstance(param, click.Option):
                continue
            for long, short in shorts.items():
                if long in param.opts:
                    assert short in param.opts, (command.name, long)
            if "--jobs" in param.opts:
                assert param.default == JOBS, command.name
    readers = {c.name for c in _commands()
               if any("--max-file-size" in getattr(p, "opts", ()) for p in c.params)}
    assert readers >= {"check", "fmt", "analyze"}
    for command in _commands():
        if command.name in readers:
            assert any("--config" in getattr(p, "opts", ()) for p in command.params)


def test_docs_pages_a_part_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from euchrelog.cli import docs as module

    paged: list[str] = []
    monkeypatch.setattr(module, "on_terminal", lambda: True)
    monkeypatch.setattr(click, "echo_via_pager", lambda text: paged.append(str(text)))
    result = run("docs", "notation")
    assert result.stdout == "" and paged == [(ROOT / "docs" / "notation.md").read_text("utf-8")]
    monkeypatch.setattr(module, "on_terminal", lambda: False)
    assert run("docs", "notation").stdout == paged[0]
