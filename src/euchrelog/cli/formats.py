"""How ``euchrelog check`` prints its findings: the formats (``text``, ``json``, ``github``,
``sarif``), the ``--statistics`` count, colour, and which findings are wanted
(``--select``, ``--ignore`` and ``# noqa`` comments).

The one table :data:`LEVELS` maps a finding's severity to what each format calls it.

>>> selection = Selection.parse(("R8",), ("R802",))
>>> selection.wants("R801"), selection.wants("R802"), selection.wants("C901")
(True, False, False)
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, TextIO
from urllib.parse import quote

import click

from .. import __version__
from ..findings import CODES, Finding, Fix, nearest_code
from ..report import visible, visible_context
from .options import current_config

HOMEPAGE = "https://euchrelog.example.org/"
"""The project's home page (``Homepage`` in pyproject.toml)."""
FINDINGS_URL = HOMEPAGE + "docs/findings.md"
"""Where every finding code is documented."""

FORMATS = ("text", "json", "github", "sarif")
"""The values of ``check --format``."""


@dataclass(frozen=True)
class Level:
    """What one severity is called in each output."""

    sarif: str
    """SARIF's ``level``: ``error``, ``warning`` or ``note``."""
    github: str
    """The GitHub workflow command: ``error``, ``warning`` or ``notice``."""
    colour: str
    """The colour of the code on a terminal."""


LEVELS = {
    "error": Level("error", "error", "red"),
    "warning": Level("warning", "warning", "yellow"),
    "note": Level("note", "notice", "cyan"),
}
"""Each severity a finding can have, and what the outputs call it."""


def level(finding: Finding) -> Level:
    """The output levels of a finding's severity."""
    return LEVELS[finding.severity]


def help_uri(code: str) -> str:
    """The documentation of a code: its heading in findings.md.

    >>> help_uri("R801")
    'https://euchrelog.example.org/docs/findings.md#r801-renege'
    """
    return f"{FINDINGS_URL}#{code.lower()}-{CODES[code].name}"


# ------------------------------------------------------------------ which findings


@dataclass(frozen=True)
class Selection:
    """The codes ``--select`` and ``--ignore`` leave in, by code or prefix; a code reported
    only on request (``opt_in``: N102) is left in when ``unused_noqa`` asks for it or
    ``--select`` names it (or a prefix of it)."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    unused_noqa: bool = False

    @classmethod
    def parse(cls, select: tuple[str, ...], ignore: tuple[str, ...], *,
              unused_noqa: bool = False) -> Selection:
        """Reads the options' values: codes or prefixes, comma-separated or repeated.

        :raises ValueError: for a value that is the prefix of no code.
        """
        chosen = cls(_codes(select), _codes(ignore), unused_noqa)
        asked = any(code.startswith(chosen.select) for code, c in CODES.items() if c.opt_in)
        return replace(chosen, unused_noqa=unused_noqa or asked)

    def wants(self, code: str) -> bool:
        """Whether a finding of ``code`` is reported: a syntax error always is (a game that
        cannot be read is not checked at all)."""
        kind = CODES[code]
        if kind.syntax:
            return True
        if kind.opt_in and not self.unused_noqa:
            return False
        if self.select and not code.startswith(self.select):
            return False
        return not code.startswith(self.ignore) if self.ignore else True

    def wants_finding(self, finding: Finding) -> bool:
        """Whether ``finding`` is reported (:meth:`wants` its code)."""
        return self.wants(finding.code)

    def for_path(self, path: str) -> Selection:
        """The selection in one file: the configuration's ``per-file-ignores`` added."""
        more = current_config().ignored(path)
        return replace(self, ignore=self.ignore + _codes(more)) if more else self


def _codes(values: tuple[str, ...]) -> tuple[str, ...]:
    """Codes or prefixes, comma-separated or repeated, in upper case.

    :raises ValueError: for one that is the prefix of no code.
    """
    parts = tuple(p.strip().upper() for v in values for p in v.split(",") if p.strip())
    for part in parts:
        if not any(code.startswith(part) for code in CODES):
            meant = nearest_code(part) if len(part) == 4 else None
            hint = f"; did you mean {meant}?" if meant else ""
            raise ValueError(f"{part!r} is no finding code nor the start of one{hint}")
    return parts


# ------------------------------------------------------------------ colour


COLOUR_CHOICES = ("auto", "always", "never")


def colour_option(command: Callable[..., None]) -> Callable[..., None]:
    """The ``--color`` option of a command that prints findings for people."""
    return click.option(
        "--color", "colour", type=click.Choice(COLOUR_CHOICES), default="auto",
        show_default=True,
        help="Colour the path and code of each finding: auto on a terminal unless NO_COLOR "
             "is set.")(command)


def use_colour(stream: TextIO, choice: str = "auto") -> bool:
    """Whether to colour what goes to ``stream``: ``always``, ``never``, or (``auto``) on a
    terminal unless ``NO_COLOR`` is set."""
    if choice != "auto":
        return choice == "always"
    return not os.environ.get("NO_COLOR") and stream.isatty()


# ------------------------------------------------------------------ printing


def _github_escape(text: str, *, prop: bool = False) -> str:
    """A value escaped for a GitHub workflow command (its message, or a property)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


@dataclass
class FindingPrinter:
    """Prints findings in one format as they come, and what comes after them."""

    fmt: str = "text"
    colour: bool = False
    statistics: bool = False
    """Print a count per code at the end instead of each finding."""
    counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    """Findings by code and severity (one code can be an error or a note)."""
    results: list[dict[str, Any]] = field(default_factory=list)
    """SARIF results, printed at the end as one log."""

    def emit(self, finding: Finding, context: str = "") -> None:
        """Prints (or keeps, for SARIF and statistics) one finding."""
        self.counts[finding.code, finding.severity] += 1
        if self.statistics:
            return
        if self.fmt == "json":
            click.echo(json.dumps(finding.to_dict(), ensure_ascii=False))
        elif self.fmt == "github":
            click.echo(self.github(finding))
        elif self.fmt == "sarif":
            self.results.append(sarif_result(finding))
        else:
            click.echo(self.text(finding), color=self.colour)
            for line in visible_context(context).splitlines():
                click.echo(f"    {line}")

    def text(self, finding: Finding) -> str:
        """``path:line:column: CODE message``, the path and code coloured if asked, and
        control characters shown escaped (a record cannot drive the terminal)."""
        plain = visible(str(finding))
        if not self.colour:
            return plain
        where = visible(f"{finding.path}:") if finding.path else ""
        place, _, rest = plain[len(where):].partition(f" {finding.code} ")
        code = click.style(finding.code, fg=level(finding).colour, bold=True)
        return f"{click.style(where, bold=True) if where else ''}{place} {code} {rest}"

    @staticmethod
    def github(finding: Finding) -> str:
        """A GitHub Actions workflow command that annotates the finding's line."""
        props = [f"file={_github_escape(visible(finding.path), prop=True)}"] if finding.path else []
        if finding.line:
            props.append(f"line={finding.line}")
        if finding.column:
            props.append(f"col={finding.column}")
        props.append(f"title={_github_escape(f'{finding.code} {finding.name}', prop=True)}")
        message = _github_escape(visible(finding.message))
        return f"::{level(finding).github} {','.join(props)}::{message}"

    def close(self) -> None:
        """Prints what comes after the findings: the statistics, or the SARIF log."""
        if self.statistics:
            for (code, severity), count in sorted(self.counts.items(),
                                                  key=lambda kv: (-kv[1], kv[0])):
                click.echo(f"{count:>6}  {code}  {severity:<7}  {CODES[code].name}")
        elif self.fmt == "sarif":
            click.echo(json.dumps(sarif_log(self.results), indent=2, ensure_ascii=False))


def sarif_result(finding: Finding) -> dict[str, Any]:
    """A finding as a SARIF 2.1.0 ``result``."""
    uri = quote(finding.path.replace(os.sep, "/")) if finding.path else "stdin"
    location: dict[str, Any] = {"artifactLocation": {"uri": uri}}
    if finding.line:
        location["region"] = {"startLine": finding.line,
                              **({"startColumn": finding.column} if finding.column else {})}
    result: dict[str, Any] = {"ruleId": finding.code, "level": level(finding).sarif,
                              "message": {"text": visible(finding.message)},
                              "locations": [{"physicalLocation": location}]}
    if finding.fix is not None and finding.fix.edits:
        result["fixes"] = [sarif_fix(finding.fix, uri)]
    return result


def sarif_fix(fix: Fix, uri: str) -> dict[str, Any]:
    """A fix as SARIF 2.1.0 writes it: each edit the replacement of a region of one line
    (a line deleted: the region up to the next line's start); safe or not, in its
    ``properties``."""
    replacements = []
    for edit in fix.edits:
        if edit.text is None:
            region = {"startLine": edit.line, "startColumn": 1, "endLine": edit.line + 1,
                      "endColumn": 1}
        else:
            region = {"startLine": edit.line, "startColumn": edit.column,
                      "endColumn": edit.end}
        replacements.append({"deletedRegion": region,
                             "insertedContent": {"text": edit.text or ""}})
    return {"description": {"text": fix.title},
            "artifactChanges": [{"artifactLocation": {"uri": uri},
                                 "replacements": replacements}],
            "properties": {"applicability": "safe" if fix.safe else "unsafe"}}


def sarif_log(results: list[dict[str, Any]]) -> dict[str, Any]:
    """A SARIF 2.1.0 log of one run of euchrelog with ``results``, describing every code."""
    rules = [{"id": c.code, "name": c.name, "shortDescription": {"text": c.summary},
              "helpUri": help_uri(c.code),
              "defaultConfiguration": {"level": LEVELS[c.severity].sarif}}
             for c in CODES.values()]
    driver = {"name": "euchrelog", "version": __version__, "informationUri": HOMEPAGE,
              "rules": rules}
    return {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
            "runs": [{"tool": {"driver": driver}, "results": results}]}
