"""Start-up: ``check`` of a clean one-game file imports no pydantic (issue 40). The models
are the boundary of a game the fast path declines; a clean game of notation or of JSON
Lines goes through the engine's plain acts and the game loop's plain head alone. (How long
start-up takes is bench/run.py's to measure, not a test's.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from euchrelog.notation import read_game

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "valid" / "four-hand-set.euchre"

_CHILD = """
import runpy, sys
sys.argv = ["euchrelog", "check", "-q", sys.argv[1]]
try:
    runpy.run_module("euchrelog", run_name="__main__")
except SystemExit as exc:
    status = exc.code
else:
    status = 0
print(status, "pydantic" in sys.modules, "euchrelog.models" in sys.modules, file=sys.stderr)
"""
"""Runs ``euchrelog check -q FILE`` and tells its status and whether pydantic and the
models were imported."""


def _check(path: Path) -> tuple[int, bool, bool]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True,
                          text=True, env=env, check=True, cwd=ROOT)
    status, pydantic, models = done.stderr.split()[-3:]
    return int(status), pydantic == "True", models == "True"


def _json_line(path: Path) -> str:
    read = read_game(path.read_text(encoding="utf-8"))
    assert not isinstance(read, list)
    return json.dumps(read.form)


@pytest.mark.parametrize("kind", ["notation", "JSON Lines"])
def test_a_clean_one_game_file_is_checked_without_pydantic(kind: str, tmp_path: Path) -> None:
    path = SAMPLE
    if kind == "JSON Lines":
        path = tmp_path / "game.jsonl"
        path.write_text(_json_line(SAMPLE) + "\n", encoding="utf-8")
    assert _check(path) == (0, False, False)


def test_a_game_with_a_finding_still_gets_its_models(tmp_path: Path) -> None:
    """The full path validates at the boundary: a wrong points line is reported as ever."""
    text = SAMPLE.read_text(encoding="utf-8").replace("points NS 2  total NS 2 EW 0",
                                                       "points NS 1  total NS 1 EW 0", 1)
    assert text != SAMPLE.read_text(encoding="utf-8")
    path = tmp_path / "slip.euchre"
    path.write_text(text, encoding="utf-8")
    status, _, _ = _check(path)
    assert status == 1
