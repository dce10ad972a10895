"""``# noqa`` comments: the findings a comment on their line leaves out, and the comments
that name no code (N101) or leave out nothing (N102)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .findings import CODES, Edit, Finding, Fix, nearest_code, noqa_of

if TYPE_CHECKING:
    from .check import GameCheck
    from .sources import Chunk


def apply_noqa(result: GameCheck, chunk: Chunk) -> None:
    """Leaves out of ``result`` the findings a ``# noqa`` comment on their line suppresses;
    reports each code a comment names that is no code (N101), and keeps aside each comment,
    or code of one, that suppresses nothing (N102, :attr:`GameCheck.unused`). A comment on
    a line skipped for a syntax error is not judged."""
    first = chunk.first_line
    lines = chunk.text.split("\n")
    comments = {first + k: noqa for k, line in enumerate(lines)
                if (noqa := noqa_of(line)) is not None}
    used: dict[int, set[str]] = {}
    kept = []
    for f in result.findings:
        noqa = comments.get(f.line)
        if noqa is not None and noqa.names(f.code) and not f.kind.syntax:
            used.setdefault(f.line, set()).add(f.code)
        else:
            kept.append(f)
    skipped = {f.line for f in result.findings if f.kind.syntax}
    found: list[Finding] = []
    for line, noqa in comments.items():
        text = lines[line - first]
        unknown = [(c, a, b) for c, a, b in noqa.codes or () if c not in CODES]
        for code, a, b in unknown:
            meant = nearest_code(code)
            fix = None if meant is None else Fix(
                (Edit(meant, line=line, column=a, end=b),), f"write {meant} for {code}",
                safe=False)
            found.append(Finding("N101", f"{code} in this '# noqa' comment is no finding code, "
                                         "so it leaves nothing out"
                                 + (f"; did you mean {meant}?" if meant else ""),
                                 line, a, path=chunk.path, game=chunk.index, fix=fix))
        if line in skipped:
            continue
        names = used.get(line, set())
        if noqa.codes is None:
            idle = [] if names else [("", noqa.column, noqa.end)]
        else:
            idle = [(c, a, b) for c, a, b in noqa.codes if c in CODES and c not in names]
        if not idle:
            continue
        idle_codes = [c for c, _, _ in idle]
        if noqa.codes is None or len(idle) == len(noqa.codes):
            rest = text[noqa.end - 1:].strip()
            if rest:  # the comment's own words stay
                edit = Edit(f"# {rest}", line=line, column=noqa.column,
                            end=len(text.rstrip()) + 1)
            else:  # the comment goes, with the spaces before it
                edit = Edit("", line=line, column=len(text[:noqa.column - 1].rstrip()) + 1,
                            end=noqa.end)
            what = ("'# noqa'" if noqa.codes is None
                    else f"'# noqa: {', '.join(idle_codes)}'")
        else:
            codes = [c for c, _, _ in noqa.codes if c not in idle_codes]
            edit = Edit(", ".join(codes), line=line, column=noqa.codes[0][1],
                        end=noqa.codes[-1][2])
            what = f"{', '.join(idle_codes)} in '# noqa'"
        result.unused.append(Finding(
            "N102", f"{what} leaves out no finding on this line", line,
            idle[0][1], path=chunk.path, game=chunk.index,
            fix=Fix((edit,), f"remove {what}")))
    result.findings = sorted(kept + found, key=lambda f: (f.line, f.column))
