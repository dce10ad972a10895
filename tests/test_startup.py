"""Start-up: ``check`` of a clean one-game file imports no pydantic (issue 40). The models
are the boundary of a game the fast path declines; a clean game of notation or of JSON
Lines goes through the engine's plain acts and the game loop's plain head alone. (How long
start-up takes is bench/run.py's to measure, not a test's.)"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from euchrelog.notation import read_game
from support.builds import PURE_START_UP

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


@PURE_START_UP
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


_ODD_VALUES: tuple[object, ...] = (None, {}, [], "", "n", "ns", "NS", "X", 0, 1, -1, True, 1.0,
                                   10**7, "a\nb", "\ud800", ["x"], [None], {"NS": 1},
                                   {"ns": 1}, {"NS": True}, {"NS": 10**7}, "result",
                                   "unfinished", "Result")
"""Values put in place of a part of a game the loop reads, to hold the head to the models."""


def _mutations(game: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Copies of ``game`` (its JSON form) with one value of what the loop reads changed."""
    out = []
    paths: list[tuple[Any, ...]] = [("tags", 0, "name"), ("tags", 0, "value"),
                                    ("tags", 0, "before"), ("tags", 0, "note"), ("end",),
                                    ("end", "act"), ("end", "scores"), ("end", "winner"),
                                    ("start",), ("after",), ("extra",)]
    for d in range(min(2, len(game.get("deals", [])))):
        paths += [("deals", d, "number"), ("deals", d, "dealer"), ("deals", d, "score"),
                  ("deals", d, "score", "points"), ("deals", d, "score", "total"),
                  ("deals", d, "score", "note"), ("deals", d, "score", "before"),
                  ("deals", d, "before"), ("deals", d, "penalties")]
    for path in paths:
        for value in rng.sample(_ODD_VALUES, 6):
            copy = json.loads(json.dumps(game))
            where: Any = copy
            try:
                for key in path[:-1]:
                    where = where[key]
                where[path[-1]] = value
            except (KeyError, IndexError, TypeError):
                continue
            out.append(copy)
    return out


def test_the_loop_head_takes_only_what_the_models_take_and_reads_it_alike() -> None:
    """What :func:`~euchrelog.head.read_head` reads of a game, the models take and read
    the same; what it declines, the models judge (on valid games and on each with one part
    of what the loop reads changed)."""
    from euchrelog.bulk import DEAL_KEYS, LOOP_KEYS
    from euchrelog.generate import random_game
    from euchrelog.head import Decline, read_head
    from euchrelog.models import Game

    rng = random.Random(40)
    read = 0
    for detail in ("full", "score-sheet", "play-only"):
        game = random_game(random.Random(rng.randrange(2**32)), detail=detail)
        form = json.loads(game.model_dump_json(exclude_defaults=True))
        for candidate in [form, *_mutations(form, rng)]:
            try:
                head = read_head(candidate, DEAL_KEYS - {"penalties"})
            except (Decline, ValueError):
                continue
            read += 1
            model = Game.model_validate({**candidate, "deals": [
                {k: d[k] for k in LOOP_KEYS if k in d} for d in candidate.get("deals", [])]})
            assert [(t.name, t.value) for t in head.tags] == [
                (t.name, t.value) for t in model.tags]
            assert model.start is None and head.start is None
            assert [(d.number, d.dealer, d.sheet, tuple(d.penalties)) for d in head.deals] == [
                (d.number, d.dealer, d.sheet, d.penalties) for d in model.deals]
            assert [(d.score.points, d.score.total) if d.score else None
                    for d in head.deals] == [
                (d.score.points, d.score.total) if d.score else None for d in model.deals]
            end = model.end
            assert (None if head.end is None else (head.end.act, head.end.scores,
                                                   head.end.winner)) == (
                None if end is None else (end.act, end.scores, end.winner))
    assert read > 20
