"""The long fuzz runner (``fuzz/run.py`` and ``fuzz/inputs.py``) keeps working: every
target makes inputs of its kind, the same seed and index make the same input, the shares
keep the expensive targets small, and a short run in-process and through the supervisor
tries its inputs with no escape."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
FUZZ = ROOT / "fuzz"


def _load_runner() -> ModuleType:
    """Loads ``fuzz/run.py`` by its path, as the script it is (it finds its own imports)."""
    spec = importlib.util.spec_from_file_location("run", FUZZ / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["run"] = module
    spec.loader.exec_module(module)
    return module


run = _load_runner()

EXPENSIVE = ("long-line", "repeated-tags", "many-deals", "json-deep", "cli", "cli-file",
             "module")


@pytest.fixture(scope="module")
def corpora() -> Any:
    return run.Corpora(5, games_per_variant=1)


def test_every_target_makes_its_kind_of_input(corpora: Any) -> None:
    schedule = run.Schedule(5, run.targets(30))
    kinds = {"notation": str, "json": str, "interop": str, "event": str, "record": str,
             "module": bytes}
    for target in schedule.targets:
        if target.name == "many-deals":
            continue  # seconds per input; the long run tries it
        value = target.make(schedule.rng(1), corpora.of(0))
        if target.name == "cli-file":
            data, suffix, args = value
            assert isinstance(data, bytes) and args in run.props.CLI_FILE_COMMANDS
            assert suffix in run.props.FOREIGN_EXTENSIONS.values()
        elif target.family == "cli":
            data, args = value
            assert isinstance(data, bytes) and args in run.props.CLI_COMMANDS
        else:
            assert isinstance(value, kinds[target.family]), target.name


def test_an_input_is_made_again_from_its_seed_and_index() -> None:
    schedule = run.Schedule(11, run.targets(30))
    one, other = run.Corpora(11, games_per_variant=1), run.Corpora(11, games_per_variant=1)
    first = [run.make(schedule, one, i) for i in range(40)]
    again = [run.make(schedule, other, i) for i in range(40)]
    assert [(t.name, v) for t, v in first] == [(t.name, v) for t, v in again]
    assert [schedule.target_of(i).name for i in range(40)] == [t.name for t, _ in first]


def test_expensive_targets_keep_a_small_share() -> None:
    every = run.targets(30)
    total = sum(t.weight for t in every)
    expensive = sum(t.weight for t in every if t.name in EXPENSIVE)
    assert expensive / total <= 0.08
    assert all(t.weight > 0 for t in every)
    assert {t.family for t in every} == {"notation", "json", "interop", "event", "record",
                                         "cli", "module"}


def test_a_short_run_in_process_has_no_escape(corpora: Any, tmp_path: Path) -> None:
    chosen = [t for t in run.targets(30) if t.name not in ("module", "many-deals")]
    schedule = run.Schedule(3, chosen)
    journal = io.StringIO()
    current = run.CurrentInput(tmp_path / "current", create=True)
    with (tmp_path / "hangs.txt").open("w", encoding="utf-8") as hangs:  # needs a real file
        worker = run.Worker(schedule, corpora, journal, current, 60.0, hangs, 3600.0)
        worker.run(0, 300, 300)
    current.close()
    records = [json.loads(line) for line in journal.getvalue().splitlines()]
    assert [r for r in records if r["kind"] != "counts"] == []
    assert sum(records[-1]["counts"].values()) == 300


@pytest.mark.slow
def test_the_supervisor_runs_a_worker_and_tallies(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(FUZZ / "run.py"), "--examples", "60", "--seed", "2", "--only",
         "raw", "json-value", "--out", str(tmp_path)],
        capture_output=True, text=True, check=False, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["inputs"] == 60 and summary["escapes"] == {}
    assert set(summary["tried"]) <= {"raw", "json-value"}
    assert "inputs tried: 60" in proc.stdout
    replayed = subprocess.run(
        [sys.executable, str(FUZZ / "run.py"), "--seed", "2", "--only", "raw", "json-value",
         "--replay", "7"], capture_output=True, text=True, check=False, timeout=300)
    assert replayed.returncode == 0 and "input 7 of seed 2" in replayed.stdout


@pytest.mark.parametrize("name", ["json-huge", "event", "record"])
def test_the_targets_of_issue_12_try_what_they_say(corpora: Any, name: str) -> None:
    """Huge numbers and deep JSON Lines, event folders with hostile names, recorder
    scripts: each makes its kind of input, and a few of them pass their property."""
    target = run._by_name(30)[name]
    schedule = run.Schedule(12, [target])
    made = [run.make(schedule, corpora, i)[1] for i in range(25)]
    if name == "json-huge":
        assert all(len(v) > 2000 for v in made)  # 4300 digits, or nested 1000 deep
        assert any(max(map(len, _digit_runs(v)), default=0) > 4300 for v in made)
    elif name == "event":
        assert any(run.props.EVENT_SEPARATOR in v for v in made)
        assert any("<script>" in v or "=HYPERLINK" in v for v in made)
    else:
        # the first line is the options: a game's, bad ones, or none at all (empty)
        assert all(v.startswith("--") or v.split("\n")[0] == "" for v in made)
        assert any(len(v.split("\n")) > 10 for v in made)
    for value in made:
        assert run.attempt(target.check, value) is None


@pytest.mark.parametrize("name", ["egn", "emn", "openspiel", "event-source", "cli-file"])
def test_the_targets_of_issue_23_try_what_they_say(corpora: Any, name: str) -> None:
    """EGN, EMN and OpenSpiel inputs, sources for score's event reader, commands on files
    sniffed as those: each makes its kind of input, JSON nested deep among them for the
    readers from elsewhere, and a few of them pass their property."""
    target = run._by_name(30)[name]
    schedule = run.Schedule(23, [target])
    made = [run.make(schedule, corpora, i)[1] for i in range(200)]
    texts = [v[0].decode("utf-8", "replace") if isinstance(v, tuple) else v for v in made]
    if name in ("egn", "emn"):
        assert sum('"deals"' in t for t in texts) > 150
        assert any("[" * 100 in t or '{"a":' * 100 in t for t in texts)
    elif name == "openspiel":
        assert sum('"actions"' in t for t in texts) > 180
        assert any("[" * 1000 in t or '{"a":' * 1000 in t for t in texts)
    elif name == "event-source":
        assert any(t.lstrip().startswith("{") for t in texts)
        assert any("deal 1" in t for t in texts)
    for value in made[:12]:
        assert run.attempt(target.check, value) is None


def _digit_runs(text: str) -> list[str]:
    import re

    return re.findall(r"[0-9]+", text)


def test_a_stop_file_ends_a_run_cleanly(corpora: Any, tmp_path: Path) -> None:
    schedule = run.Schedule(3, [t for t in run.targets(30) if t.name == "raw"])
    journal = io.StringIO()
    current = run.CurrentInput(tmp_path / "current", create=True)
    (tmp_path / run.STOP).touch()
    with (tmp_path / "hangs.txt").open("w", encoding="utf-8") as hangs:
        worker = run.Worker(schedule, corpora, journal, current, 60.0, hangs, 3600.0,
                            tmp_path / run.STOP)
        worker.run(0, 1000, 1000)
    current.close()
    last = json.loads(journal.getvalue().splitlines()[-1])
    assert last["next"] == 100 and sum(last["counts"].values()) == 100


def test_every_property_the_runner_uses_is_in_the_support_package() -> None:
    """``fuzz/`` reaches the fuzz suite's alphabets, strategies and properties as
    ``props.NAME`` (tests/support/fuzzing.py): each one must be there, or a generator
    breaks only on the inputs that reach it."""
    import re

    from support import fuzzing

    used = {name for path in FUZZ.glob("*.py")
            for name in re.findall(r"\bprops\.(\w+)", path.read_text(encoding="utf-8"))}
    assert used and not [name for name in sorted(used) if not hasattr(fuzzing, name)]


def test_shrinking_keeps_what_goes_with_a_commands_input() -> None:
    """An escape of ``cli-file`` (bytes, a file name ending, a command) shrinks its bytes
    and keeps the rest (the first run of that target broke the shrinker)."""
    def check(value: Any) -> None:
        if b"boom" in value[0]:
            raise KeyError("boom")

    big = (b"one\ntwo boom three\nfour", ".egn", ("check",))
    sig = run.signature(run.attempt(check, big))
    assert run.shrink(check, big, sig) == (b"boom", ".egn", ("check",))
