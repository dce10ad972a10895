"""Tally sheets as clubs keep them (issue 42 item 5): a sheet made from a scored event, in
either layout, as CSV and as XLSX, reads back to the same standings; every cell that cannot
be read is reported at ``file:sheet:row:column``; other headers go through a column
mapping; and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from euchrelog.cli import main
from euchrelog.notation import loads
from euchrelog.sheets import (
    Place,
    mapping_of,
    notation,
    read_rows,
    read_sheet,
    tally_rows,
    write_sheet,
)

ROOT = Path(__file__).resolve().parents[1]
SPRING = ROOT / "samples" / "events" / "spring-progressive"

KEPT = ("rank", "name", "played", "won", "lost", "drawn", "points_for", "points_against",
        "points_diff", "by_round")
"""What a tally sheet keeps of a player's standing: not the loners, euchres and deals won,
which the replay counts from who made trump and the tricks, where a sheet has points."""


def _standings(path: Path) -> list[dict[str, object]]:
    """The standings, tied players parted by what a sheet keeps (not by deals won, the
    default of a progressive event, which ``score`` counts from replayed deals only)."""
    done = subprocess.run([sys.executable, "-m", "euchrelog", "score", str(path), "--format",
                           "json", "-q", "--tiebreak", "rounds-won,high-game"],
                          capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    event = json.loads(done.stdout)["events"][0]
    return sorted(({k: row[k] for k in KEPT} for row in event["standings"]),
                  key=lambda r: str(r["name"]))


@pytest.mark.parametrize("layout", ["players", "tables"])
@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_a_sheet_of_a_scored_event_reads_back_to_the_same_standings(
        layout: str, suffix: str, tmp_path: Path) -> None:
    games = [g for f in sorted(SPRING.glob("round-*.euchre"))
             for g in loads(f.read_text(encoding="utf-8")).games]
    original = tmp_path / "original.euchre"
    original.write_text(notation(games), encoding="utf-8")
    sheet = tmp_path / f"Spring Progressive{suffix}"
    write_sheet(tally_rows(games, layout), sheet)
    read, errors = read_sheet(sheet)
    assert errors == []
    again = tmp_path / "again.euchre"
    again.write_text(notation(read), encoding="utf-8")
    assert _standings(again) == _standings(original)
    checked = subprocess.run([sys.executable, "-m", "euchrelog", "check", str(again)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_every_bad_cell_is_reported_at_its_place(tmp_path: Path) -> None:
    rows = [["Round", "Table", "Player", "Partner", "Hand 1", "Hand 2", "Total"],
            ["1", "1", "Ann", "Cy", "1", "", "1"],
            ["1", "1", "Bob", "Dee", "", "two", ""],
            ["1", "1", "Cy", "Ann", "1", "", "3"],
            ["1", "x", "Dee", "Bob", "", "2", ""],
            ["2", "1", "Eve", "Zed", "1", "", ""]]
    path = tmp_path / "club.csv"
    write_sheet(rows, path)
    games, errors = read_sheet(path)
    assert games == []
    assert [str(e) for e in errors] == [
        "club.csv:club:3:F: Bob's hand 2 'two' is not points (a number, a mark x, or blank)",
        "club.csv:club:4:G: Cy's total 3 is not the sum of the hands, 1",
        "club.csv:club:5:B: table 'x' is not a whole number 1 to 999",
        "club.csv:club:2:B: round 1 table 1 has 2 players, not 4",
        "club.csv:club:6:B: round 2 table 1 has 1 players, not 4",
    ]
    book = tmp_path / "club.xlsx"
    write_sheet([["Round", "Table", "N", "E", "S", "W", "NS 1", "EW 1"],
                 ["1", "1", "Ann", "Bob", "Cy", "Dee", "2", "1"],
                 ["1", "2", "Eve", "", "Gil", "Hal", "1", ""]], book)
    _, errors = read_sheet(book)
    assert [str(e) for e in errors] == ["club.xlsx:club:2:H: hand 1: both sides scored (2 and 1)",
                                        "club.xlsx:club:3:D: no player at E"]


def test_a_column_mapping_reads_other_headers() -> None:
    rows = [["Rnd", "Tbl", "Name", "Mate", "H1", "H2"],
            ["1", "1", "Ann", "Cy", "x", ""], ["1", "1", "Bob", "Dee", "", "4"],
            ["1", "1", "Cy", "Ann", "x", ""], ["1", "1", "Dee", "Bob", "", "4"]]
    mapping = mapping_of(["round=Rnd", "table=Tbl", "player=Name", "partner=Mate", "hand=H"])
    games, errors = read_rows(rows, Place("t.csv", "t"), "Club", mapping)
    assert errors == [] and [d.score.points for d in games[0].deals if d.score] == [
        {"NS": 1}, {"EW": 4}]
    with pytest.raises(ValueError, match="field=header"):
        mapping_of(["colour=Red"])


def test_the_command_reads_and_writes_sheets(tmp_path: Path) -> None:
    runner = CliRunner()
    source = SPRING / "round-1.euchre"
    sheet = tmp_path / "r1.xlsx"
    written = runner.invoke(main, ["sheet", "write", str(source), "-o", str(sheet),
                                   "--layout", "tables"])
    assert written.exit_code == 0, written.output
    out = tmp_path / "r1.euchre"
    read = runner.invoke(main, ["sheet", "read", str(sheet), "-o", str(out), "--event",
                                "Spring Progressive"])
    assert read.exit_code == 0, read.output
    assert '[Event "Spring Progressive"]' in out.read_text(encoding="utf-8")
    bad = tmp_path / "bad.csv"
    bad.write_text("Round,Table,Colour\n1,1,red\n", encoding="utf-8")
    refused = runner.invoke(main, ["sheet", "read", str(bad)])
    assert refused.exit_code == 1 and "bad.csv:bad:1:A:" in refused.stderr
    wrong = runner.invoke(main, ["sheet", "read", str(bad), "--column", "colour=x"])
    assert wrong.exit_code == 2 and "field=header" in wrong.stderr
