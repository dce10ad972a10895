"""The sample records under samples/: valid ones check clean, each invalid one yields exactly
the findings of its ``.expected`` file, and every sample survives the notation/JSON round
trips.

The tests are parametrized over the files found on disk, so a new sample is picked up
without touching this module. An invalid sample ``<CODE>-<name>.euchre`` (or ``.jsonl``)
has its findings beside it in ``<CODE>-<name>.expected``, one ``CODE LINE:COLUMN`` per line.

An invalid sample may have a ``<CODE>-<name>.args`` file beside it: more arguments for
``euchrelog check``. The size limits (S103, S104) are options of the command line, so their
samples set a small limit there and are checked through the command line only.

The event codes (E961-E969, :data:`~euchrelog.findings.EVENT_CODES`) are not covered here:
``euchrelog check`` never reports them, since they need every game of an event. Their
samples sit in samples/invalid/events/ and are checked against ``euchrelog score`` by
tests/test_score.py; the tests below read only the files directly in samples/invalid/.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from euchrelog.check import check_text
from euchrelog.cli import main
from euchrelog.findings import CODES, EVENT_CODES
from euchrelog.notation import loads
from euchrelog.notation.jsonio import dumps_json, loads_json
from euchrelog.notation.writer import dumps
from euchrelog.rules import VARIANTS

ROOT = Path(__file__).resolve().parents[1]
VALID_DIR = ROOT / "samples" / "valid"
INVALID_DIR = ROOT / "samples" / "invalid"
RECORD_SUFFIXES = (".euchre", ".jsonl", ".json")
SYNTAX_CODES = frozenset({"S101", "S102", "S103", "S104"})
"""The codes of an input that could not be read (exit status 2)."""

Expected = list[tuple[str, int, int]]

ENGINE_DISAGREES: dict[str, str] = {
    # sample stem -> what the engine reports instead of what the sample expects
}
"""Invalid samples whose findings the engine does not yet report as the rules say."""

WRITER_DISAGREES: dict[str, str] = {
    # sample stem -> what the canonical writer loses
}
"""Samples whose canonical text does not read back to the same log (strict xfail of the
round trips that read the canonical text again)."""

VARIANT_NAMES = tuple(v.name for v in VARIANTS)
"""An invalid sample may name its variant after the code: ``<CODE>-<variant>-<name>``."""


def _valid_samples() -> list[Path]:
    return sorted(VALID_DIR.rglob("*.euchre")) if VALID_DIR.is_dir() else []


def _invalid_samples() -> list[Path]:
    if not INVALID_DIR.is_dir():
        return []
    return sorted(p for p in INVALID_DIR.iterdir()
                  if p.is_file() and p.suffix in RECORD_SUFFIXES)


def _expected_files() -> list[Path]:
    return sorted(INVALID_DIR.glob("*.expected")) if INVALID_DIR.is_dir() else []


def _rel(path: Path) -> str:
    return path.relative_to(ROOT / "samples").as_posix()


_LINE_RE = re.compile(r"([A-Z][0-9]{3})\s+([0-9]+):([0-9]+)")


def read_expected(path: Path) -> Expected:
    """The findings an ``.expected`` file lists: (code, line, column), in file order.

    Blank lines and lines starting with ``#`` are skipped.
    """
    out: Expected = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _LINE_RE.fullmatch(line)
        assert m is not None, f"{path.name}:{number}: not 'CODE LINE:COLUMN': {raw!r}"
        out.append((m.group(1), int(m.group(2)), int(m.group(3))))
    return out


def expected_for(sample: Path) -> Expected:
    """The findings expected of an invalid sample."""
    return read_expected(sample.with_suffix(".expected"))


def cli_args(sample: Path) -> list[str]:
    """The extra ``check`` arguments of a sample (its ``.args`` file), if any."""
    args = sample.with_suffix(".args")
    return shlex.split(args.read_text(encoding="utf-8")) if args.is_file() else []


def library_findings(path: Path) -> Expected:
    """The findings ``check_text`` reports for a file, sorted by line and column."""
    text = path.read_text(encoding="utf-8")
    found = [(f.code, f.line, f.column) for result in check_text(text, str(path))
             for f in result.findings]
    return sorted(found, key=lambda f: (f[1], f[2], f[0]))


def _is_syntax_sample(path: Path) -> bool:
    expected = path.with_suffix(".expected")
    return expected.is_file() and any(c in SYNTAX_CODES for c, _, _ in read_expected(expected))


def _invalid_params() -> list[Any]:
    params = []
    for path in _invalid_samples():
        reason = ENGINE_DISAGREES.get(path.stem)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(path, id=path.name, marks=marks))
    return params


def _round_trip_params(*, rereads: bool = False) -> list[Any]:
    """The samples for a round trip; ``rereads``: the test reads the canonical text back,
    so the samples of :data:`WRITER_DISAGREES` are strict xfails."""
    samples = _valid_samples() + [p for p in _invalid_samples()
                                  if p.suffix == ".euchre" and not _is_syntax_sample(p)]
    params = []
    for path in samples:
        reason = WRITER_DISAGREES.get(path.stem) if rereads else None
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(path, id=_rel(path), marks=marks))
    return params


# ------------------------------------------------------------------ valid samples


@pytest.mark.parametrize("path", [pytest.param(p, id=_rel(p)) for p in _valid_samples()])
def test_valid_sample_is_clean(path: Path) -> None:
    """A valid sample checks with no finding at all."""
    text = path.read_text(encoding="utf-8")
    findings = [str(f) for result in check_text(text, _rel(path)) for f in result.findings]
    assert findings == []


# ------------------------------------------------------------------ invalid samples


@pytest.mark.parametrize("path", _invalid_params())
def test_invalid_sample_findings(path: Path) -> None:
    """The library reports exactly the findings of the sample's ``.expected`` file."""
    if cli_args(path):
        pytest.skip("the sample needs options of the command line (its .args file)")
    assert library_findings(path) == expected_for(path)


@pytest.mark.parametrize("path", _invalid_params())
def test_invalid_sample_through_cli(path: Path) -> None:
    """``euchrelog check --format json`` reports the same findings and exit status; a
    claimed renege is a note and alone leaves the exit status 0 (P2)."""
    result = CliRunner().invoke(main, ["check", "--quiet", "--format", "json",
                                       *cli_args(path), str(path)])
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    found = sorted(((r["code"], r["line"], r["column"]) for r in rows),
                   key=lambda f: (f[1], f[2], f[0]))
    assert found == expected_for(path)
    syntax = any(code in SYNTAX_CODES for code, _, _ in found)
    faults = any(r["severity"] != "note" for r in rows)
    assert result.exit_code == (2 if syntax else 1 if faults else 0), result.stderr
    claimed = "claimed" in path.name
    assert all((r["severity"] == "note") == claimed for r in rows if r["code"] == "R801")
    assert all(r["path"] == str(path) for r in rows)


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in _invalid_samples()])
def test_invalid_sample_is_well_formed(path: Path) -> None:
    """``<CODE>-<name>`` (or ``<CODE>-<variant>-<anything>`` for a shared code in another
    variant): a known code, its name, an ``.expected`` file that lists the code, and (for
    notation) a comment line at the top saying what the mistake is."""
    code, _, name = path.stem.partition("-")
    assert code in CODES, f"{path.name}: {code} is not a finding code"
    variant = any(name.startswith(f"{v}-") for v in VARIANT_NAMES)
    assert variant or name.startswith(CODES[code].name), (
        f"{path.name}: expected the name {CODES[code].name!r} or a variant after the code")
    assert path.with_suffix(".expected").is_file(), f"{path.name} has no .expected file"
    assert code in {c for c, _, _ in expected_for(path)}
    if path.suffix == ".euchre":
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# "), f"{path.name}: the first line should say the mistake"


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in _expected_files()])
def test_expected_file_lists_known_codes_in_order(path: Path) -> None:
    """Every ``.expected`` file names existing codes, sorted by line then column, and sits
    beside its record."""
    expected = read_expected(path)
    assert expected, f"{path.name} lists no finding"
    unknown = [code for code, _, _ in expected if code not in CODES]
    assert unknown == []
    assert expected == sorted(expected, key=lambda f: (f[1], f[2]))
    assert any(path.with_suffix(s).is_file() for s in RECORD_SUFFIXES), (
        f"{path.name} has no record beside it")


ENGINE_CODES = sorted(set(CODES) - EVENT_CODES)
"""The codes ``euchrelog check`` reports; the event codes are covered by ``score`` goldens
(tests/test_score.py, ``test_every_event_code_has_a_score_sample``)."""


@pytest.mark.parametrize("code", ENGINE_CODES)
def test_every_code_has_an_invalid_sample(code: str) -> None:
    """Each finding code of ``check`` has a sample named after it whose expected findings
    include it (the event codes E96x are not ``check``'s: see the module docstring)."""
    samples = [p for p in _invalid_samples() if p.stem.split("-", 1)[0] == code]
    assert samples, f"no samples/invalid/{code}-{CODES[code].name}.* for {code}"
    assert any(code in {c for c, _, _ in expected_for(p)} for p in samples
               if p.with_suffix(".expected").is_file())


# ------------------------------------------------------------------ round trips


@pytest.mark.parametrize("path", _round_trip_params())
def test_json_document_round_trip(path: Path) -> None:
    """Notation -> JSON document -> notation gives the canonical text."""
    log = loads(path.read_text(encoding="utf-8"))
    canonical = dumps(log)
    assert dumps(loads_json(dumps_json(log))) == canonical


@pytest.mark.parametrize("path", _round_trip_params())
def test_json_lines_round_trip(path: Path) -> None:
    """Notation -> JSON Lines -> notation gives the canonical text."""
    log = loads(path.read_text(encoding="utf-8"))
    canonical = dumps(log)
    assert dumps(loads_json(dumps_json(log, lines=True))) == canonical


@pytest.mark.parametrize("path", _round_trip_params(rereads=True))
def test_json_notation_json_round_trip(path: Path) -> None:
    """JSON -> notation -> JSON gives the same JSON, as a document and as JSON Lines."""
    log = loads(path.read_text(encoding="utf-8"))
    document = dumps_json(log)
    assert dumps_json(loads(dumps(loads_json(document)))) == document
    lines = dumps_json(log, lines=True)
    assert dumps_json(loads(dumps(loads_json(lines))), lines=True) == lines


@pytest.mark.parametrize("path", _round_trip_params(rereads=True))
def test_canonical_text_is_a_fixed_point(path: Path) -> None:
    """The canonical text reads back to the same log and writes out unchanged."""
    log = loads(path.read_text(encoding="utf-8"))
    canonical = dumps(log)
    assert loads(canonical) == log
    assert dumps(loads(canonical)) == canonical


@pytest.mark.parametrize("path", [pytest.param(p, id=_rel(p)) for p in _valid_samples()])
def test_valid_sample_is_canonical(path: Path) -> None:
    """A valid sample is written in canonical form."""
    text = path.read_text(encoding="utf-8")
    assert dumps(loads(text)) == text
