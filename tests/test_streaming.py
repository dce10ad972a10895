"""`check` reads game by game, in parallel when asked, and keeps the input order."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from euchrelog.cli import main

ROOT = Path(__file__).resolve().parents[1]
INVALID = sorted((ROOT / "samples" / "invalid").glob("*.euchre"))


def test_parallel_output_is_the_sequential_output(tmp_path: Path) -> None:
    # Many games with findings and syntax errors, in one file.
    big = tmp_path / "all.euchre"
    big.write_text("\n".join(p.read_text(encoding="utf-8") for p in INVALID), encoding="utf-8")
    runner = CliRunner()
    one = runner.invoke(main, ["check", "--jobs", "1", str(big)])
    two = runner.invoke(main, ["check", "--jobs", "2", str(big)])
    assert one.exit_code == two.exit_code == 2
    assert one.stdout == two.stdout and one.stdout.count("\n") >= len(INVALID)
    assert one.stderr == two.stderr


def test_bad_bytes_midway_keep_what_came_before(tmp_path: Path) -> None:
    good = (ROOT / "samples" / "invalid" / "C901-points-differ.euchre").read_bytes()
    path = tmp_path / "mixed.euchre"
    path.write_bytes(good + b"\n[Event \"x\"]\ndeal 1 dealer N\n  thrown \xff in\n")
    result = subprocess.run([sys.executable, "-m", "euchrelog", "check", str(path)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[1] for line in lines] == ["C901", "S101"]
    bad_line = good.count(b"\n") + 4
    assert lines[1].startswith(f"{path}:{bad_line}:10: S101 the file is not UTF-8")


def test_json_lines_are_read_line_by_line(tmp_path: Path) -> None:
    runner = CliRunner()
    sample = ROOT / "samples" / "valid" / "several-games.euchre"
    lines = runner.invoke(main, ["convert", str(sample), "--to", "jsonl"]).stdout
    path = tmp_path / "games.jsonl"
    path.write_text(lines.replace("\n", "\n\n", 1) + "not json\n", encoding="utf-8")
    result = runner.invoke(main, ["check", str(path)])
    assert result.exit_code == 2
    assert result.stdout.startswith(f"{path}:5:1: S102 line 5:")
