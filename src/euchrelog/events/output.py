"""Writing scored events: a terminal table, CSV, JSON, Markdown and one printable HTML
page with an inline SVG chart (docs/tournaments.md, "Output").

Every renderer takes the events of :func:`euchrelog.events.score_events` and returns
text; none of them prints, reads a clock or fetches anything, so the same events always
give the same text.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..report import visible
from .scorer import EventResult
from .settings import KEYS
from .standings import Award, Standing, TableResult

if TYPE_CHECKING:
    from markupsafe import Markup

STANDINGS_FORMAT = "euchrelog-standings"
"""The ``format`` field of the JSON output."""


@dataclass(frozen=True)
class Column:
    """A column of the standings: its CSV/JSON key, its heading and its value."""

    key: str
    title: str
    get: Callable[[Standing], int | str]
    """The raw value (CSV and JSON)."""
    show: Callable[[int | str], str] = str
    """How the tables print it."""


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _show_signed(value: int | str) -> str:
    return _signed(value) if isinstance(value, int) else value


def _round_points(round_: str) -> Callable[[Standing], int | str]:
    def get(row: Standing) -> int | str:
        return row.by_round.get(round_, "-")
    return get


def columns(event: EventResult) -> list[Column]:
    """The columns of an event's standings, after the rank and the name.

    Progressive: a column per round, the points and the counts the tie-breaks use;
    partners: the team's record and its points.
    """
    rows = event.standings
    used = {event.settings.format, *event.settings.tiebreaks}
    out: list[Column] = []
    if event.settings.format == "progressive":
        out.extend(Column(f"round_{r}", f"r{r}", _round_points(r)) for r in event.rounds)
        out.append(Column("points", "points", lambda s: s.points_for))
        out.append(Column("deals_won", "deals won", lambda s: s.deals_won))
        out.append(Column("rounds_won", "rounds won", lambda s: s.won))
    else:
        out.append(Column("played", "played", lambda s: s.played))
        out.append(Column("won", "won", lambda s: s.won))
        out.append(Column("lost", "lost", lambda s: s.lost))
        if any(s.drawn for s in rows):
            out.append(Column("drawn", "drawn", lambda s: s.drawn))
        out.append(Column("points_for", "points for", lambda s: s.points_for))
        out.append(Column("points_against", "against", lambda s: s.points_against))
        out.append(Column("points_diff", "diff", lambda s: s.points_diff, _show_signed))
        if "deals-won" in used:
            out.append(Column("deals_won", "deals won", lambda s: s.deals_won))
    if any(s.unfinished for s in rows):
        out.append(Column("unfinished", "unfinished", lambda s: s.unfinished))
    out.append(Column("loners", "loners", lambda s: s.loners))
    out.append(Column("euchres", "euchres", lambda s: s.euchres))
    if "high-game" in used:
        out.append(Column("high_game", "high game",
                          lambda s: s.high_game if s.high_game is not None else "-"))
    return out


def _who(event: EventResult) -> str:
    return "player" if event.settings.format == "progressive" else "team"


def _rank(row: Standing) -> str:
    return f"{row.rank}=" if row.tied else str(row.rank)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def headline(event: EventResult) -> str:
    """One line on how the event is played and how much of it there is."""
    s = event.settings
    who = _plural(len(event.standings), _who(event))
    return (f"{s.describe()}; {who}, {_plural(len(event.rounds), 'round')}"
            f", {_plural(event.games, 'game')}, {_plural(event.deals, 'deal')}")


def when_where(event: EventResult) -> str:
    """When and where the event was played, from its Date and Site tags ("" if neither)."""
    parts = [f"{label}: {', '.join(values)}"
             for label, values in (("Date", event.dates), ("Site", event.sites)) if values]
    return "; ".join(parts)


def status_line(event: EventResult) -> str:
    """Whether the standings are final, and why not."""
    if event.provisional:
        errors = _plural(event.errors, "error")
        stands = "stands" if event.errors == 1 else "stand"
        return (f"provisional: {errors} {stands} in the records, so these standings may "
                "still change")
    return "final: every game checks clean"


def ranking_note(event: EventResult) -> str:
    """The ranking rule, and what a shared rank means when there is one."""
    note = event.settings.ranking()
    if event.tied:
        note += " a rank with = is shared: those rows are level on every tie-break."
    return note


def decision_lines(event: EventResult) -> list[str]:
    """One line per tie a tie-break parted: ``deals won: A (16) ahead of B (14)``."""
    out = []
    for d in event.decisions:
        show = _signed if d.key == "points-diff" else str
        parts = [f"{', '.join(labels)} ({show(value)})" for labels, value in d.parts]
        out.append(f"{KEYS[d.key].says.split(' (')[0]}: {' ahead of '.join(parts)}")
    return out


def award_text(award: Award) -> str:
    """An award's winners and value, or ``none``."""
    if not award.winners:
        return "none"
    if award.details:
        places = "; ".join(f"{w} ({d})" for w, d in zip(award.winners, award.details,
                                                         strict=True))
        return f"{_plural(award.value, 'point')}: {places}"
    return f"{', '.join(award.winners)} ({award.value})"


def table_text(table: TableResult) -> str:
    """One table of a round: each side and its points, then the outcome."""
    return " - ".join(f"{names} {points}" for names, points in table.scores)


def outcome(table: TableResult) -> str:
    """``won by ...``, ``drawn``, ``unfinished`` or ``left out``."""
    if table.status == "left out":
        return "left out of the standings"
    if table.status == "unfinished":
        return "unfinished"
    return f"won by {table.winner}" if table.winner else "drawn"


# ------------------------------------------------------------------ text


def _grid(headers: list[str], rows: list[list[str]], right: list[bool]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        parts = [c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right,
                                                                   strict=True)]
        return "  ".join(parts).rstrip()

    return [line(headers), *(line(r) for r in rows)]


def render_text(events: Sequence[EventResult]) -> str:
    """The standings as a table for the terminal, with the awards and the rounds; what the
    records hold is shown, never obeyed (:func:`~euchrelog.report.visible`)."""
    blocks = []
    for event in events:
        cols = columns(event)
        out = [event.title, headline(event), status_line(event), ""]
        headers = ["rank", _who(event), *(c.title for c in cols)]
        rows = [[_rank(s), s.label, *(c.show(c.get(s)) for c in cols)] for s in event.standings]
        out.extend(_grid(headers, rows, [True, False, *(True for _ in cols)]))
        out.append(ranking_note(event))
        used = decision_lines(event)
        if used:
            out.append("tie-breaks used:")
            out.extend(f"  {line}" for line in used)
        out.append("")
        out.append("awards")
        width = max(len(a.title) for a in event.awards) if event.awards else 0
        out.extend(f"  {a.title.ljust(width)}  {award_text(a)}" for a in event.awards)
        for r in _rounds(event):
            out.append("")
            out.append(f"round {r}")
            tables = [t for t in event.tables if t.round == r]
            cells = [[f"table {t.table}", table_text(t), outcome(t)] for t in tables]
            out.extend("  " + line for line in _grid(["", "", ""], cells,
                                                     [False, False, False])[1:])
        blocks.append("\n".join(out) + "\n")
    return visible("\n".join(blocks))


def _rounds(event: EventResult) -> list[str]:
    """Every round with a table to show, in order (rounds left out too)."""
    return list(dict.fromkeys(t.round for t in event.tables))


# ------------------------------------------------------------------ csv


_FORMULA = ("=", "+", "-", "@", "\t", "\r")
"""What a cell may not start with, lest a spreadsheet run it as a formula (OWASP, "CSV
injection")."""


def _csv_cell(value: int | str) -> int | str:
    """A cell that a spreadsheet shows as text: its control characters written as escapes
    (:func:`~euchrelog.report.visible`), and one that would start a formula gets a single
    quote in front (a lone ``-``, no points, is left alone)."""
    if not isinstance(value, str):
        return value
    value = visible(value)
    return "'" + value if value.startswith(_FORMULA) and value != "-" else value


def _csv_row(cells: Sequence[int | str]) -> str:
    """One CSV row, ended by a line feed; a cell with a line feed or a carriage return
    in it is quoted, so that it can never split the row."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerow([_csv_cell(c) for c in cells])
    return buffer.getvalue()[:-2] + "\n"


def render_csv(events: Sequence[EventResult]) -> str:
    """The standings of every event as one table: one header row with every event's
    columns (each event's in its order), then one row per player or team (empty where its
    event has no such column); each row ends with its event's length and where it came
    from (``deals``, ``target``, ``length_from``, as in the JSON) and its status."""
    if not events:
        return ""
    keys: list[str] = []
    for event in events:  # a new column goes after the event's column before it
        after = len(keys)  # (round_3 after round_2), not after every other event's
        for c in columns(event):
            if c.key in keys:
                after = keys.index(c.key) + 1
            else:
                keys.insert(after, c.key)
                after += 1
    who = {_who(event) for event in events}
    rows = [_csv_row(["event", "rank", "tied", who.pop() if len(who) == 1 else "player or team",
                      *keys, "deals", "target", "length_from", "status"])]
    for event in events:
        cols = {c.key: c for c in columns(event)}
        how = event.settings
        length = ("" if how.deals is None else how.deals,
                  "" if how.target is None else how.target, how.length_basis)
        status = "provisional" if event.provisional else "final"
        rows.extend(_csv_row([event.title, s.rank, "yes" if s.tied else "no", s.label,
                              *(cols[k].get(s) if k in cols else "" for k in keys), *length,
                              status])
                    for s in event.standings)
    return "".join(rows)


# ------------------------------------------------------------------ json


def event_dict(event: EventResult) -> dict[str, Any]:
    """Everything about an event, ready for JSON."""
    s = event.settings
    return {
        "event": event.name,
        "format": s.format,
        "format_from": s.basis,
        "deals": s.deals,
        "target": s.target,
        "length_from": s.length_basis,
        "lone": list(s.lone) if s.lone is not None else None,
        "ranking": [s.primary, *s.tiebreaks],
        "ranking_note": ranking_note(event),
        "tiebreaks_used": [{"tiebreak": d.key, "order": [
            {"names": list(labels), "value": value} for labels, value in d.parts]}
            for d in event.decisions],
        "status": "provisional" if event.provisional else "final",
        "errors": event.errors,
        "files": event.files,
        "games": event.games,
        "deals_played": event.deals,
        "rounds": event.rounds,
        "standings": [{
            "rank": row.rank, "tied": row.tied, "name": row.label, "players": list(row.players),
            "played": row.played, "won": row.won, "lost": row.lost, "drawn": row.drawn,
            "unfinished": row.unfinished, "points_for": row.points_for,
            "points_against": row.points_against, "points_diff": row.points_diff,
            "deals_won": row.deals_won, "loners": row.loners, "euchres": row.euchres,
            "high_game": row.high_game, "by_round": dict(row.by_round),
        } for row in event.standings],
        "awards": [{"award": a.title, "winners": list(a.winners), "value": a.value,
                    "where": list(a.details)} for a in event.awards],
        "tables": [{"round": t.round, "table": t.table,
                    "sides": [{"names": n, "points": p} for n, p in t.scores],
                    "winner": t.winner, "deals": t.deals, "status": t.status,
                    "path": t.path, "line": t.line} for t in event.tables],
        "findings": [f.to_dict() for f in event.findings],
    }


def render_json(events: Sequence[EventResult]) -> str:
    """One JSON document with every event."""
    data = {"format": STANDINGS_FORMAT, "version": 1,
            "events": [event_dict(e) for e in events]}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# ------------------------------------------------------------------ markdown


_MARKDOWN = re.compile(r"[\\`*_\[\]|~<>]|&(?=#?\w+;)")
"""What Markdown (and the HTML inside it) would read as syntax inside a line of text:
emphasis, code, links and images, table cells, strike-through, tags and entities."""


def _md(text: str) -> str:
    """Text that Markdown shows as it is: its syntax escaped with a backslash, and ``<``,
    ``>`` and ``&`` written as HTML entities (which every Markdown renders as text)."""
    entities = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}
    return _MARKDOWN.sub(lambda m: entities.get(m.group(), "\\" + m.group()), visible(text))


def _md_code(text: str) -> str:
    """Text as a Markdown code span, which shows everything as it is: fenced by more
    backticks than the text holds in a row (control characters written as escapes)."""
    text = visible(text)
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def render_markdown(events: Sequence[EventResult]) -> str:
    """The standings, awards, rounds and findings as Markdown."""
    out: list[str] = []
    for event in events:
        cols = columns(event)
        out += [f"# {_md(event.title)}", "", headline(event) + ".", ""]
        out += [f"> **{status_line(event)}**" if event.provisional else status_line(event) + ".",
                ""]
        out += ["## Standings", ""]
        out.append("| " + " | ".join(["rank", _who(event), *(c.title for c in cols)]) + " |")
        out.append("|" + "|".join(["---:", "---", *("---:" for _ in cols)]) + "|")
        for s in event.standings:
            cells = [_rank(s), _md(s.label), *(c.show(c.get(s)) for c in cols)]
            out.append("| " + " | ".join(cells) + " |")
        note = ranking_note(event)
        out += ["", note[:1].upper() + note[1:], ""]
        used = decision_lines(event)
        if used:
            out += ["Tie-breaks used:", "", *(f"- {_md(line)}" for line in used), ""]
        out += ["## Awards", ""]
        out += [f"- **{a.title}**: {_md(award_text(a))}" for a in event.awards]
        out += ["", "## Rounds"]
        for r in _rounds(event):
            out += ["", f"### Round {_md(r)}", "", "| table | scores | result |", "|---|---|---|"]
            for t in (t for t in event.tables if t.round == r):
                out.append(f"| {_md(t.table)} | {_md(table_text(t))} | {_md(outcome(t))} |")
        if event.findings:
            out += ["", "## Findings", ""]
            out += [f"- {_md_code(f'{f.path}:{f.line}:{f.column}')} {f.code} {_md(f.message)}"
                    for f in event.findings]
        out.append("")
    return "\n".join(out)


# ------------------------------------------------------------------ html


@dataclass(frozen=True)
class StandingsRow:
    """A row of the standings table as pages show it."""

    rank: str
    name: str
    cells: list[str]
    top: bool
    """Ranked first."""


@dataclass(frozen=True)
class StandingsTable:
    """The standings table of an event as pages show it (the template
    ``standings.html`` of :mod:`euchrelog.present` draws it, for ``score`` and
    ``serve``)."""

    who: str
    titles: list[str]
    rows: list[StandingsRow]


def standings_table(event: EventResult) -> StandingsTable:
    """The standings of ``event``: rank, name and each column, as the tables print them."""
    cols = columns(event)
    return StandingsTable(_who(event), [c.title for c in cols], [
        StandingsRow(_rank(s), s.label, [c.show(c.get(s)) for c in cols], s.rank == 1)
        for s in event.standings])


def page_parts(event: EventResult, links: Mapping[tuple[str, int], str] | None = None
               ) -> dict[str, Any]:
    """What the pages of ``score`` and ``serve`` show of an event, as texts for their
    templates: the headline, status, standings table, ranking note, tie-breaks used,
    awards, the tables of each round (with ``links``, by a game's path and first line, to
    each table's replay page) and the findings."""
    return {
        "title": event.title, "when_where": when_where(event), "headline": headline(event),
        "status": "provisional" if event.provisional else "final",
        "status_line": status_line(event), "table": standings_table(event),
        "ranking_note": ranking_note(event), "decisions": decision_lines(event),
        "awards": [(a.title, award_text(a)) for a in event.awards],
        "rounds": [(r, [(t.table, (links or {}).get((t.path, t.line)), table_text(t),
                         outcome(t)) for t in event.tables if t.round == r])
                   for r in _rounds(event)],
        "findings": event.findings,
    }


def chart_svg(event: EventResult, n: int = 1) -> Markup:
    """Each row's cumulative points after each round, as an inline SVG line chart (the
    legend gives each row's final points), the ``n``-th of its page."""
    from ..present.charts import category_chart

    series = [(f"{label} ({points[-1] if points else 0})", [0, *points])
              for label, points in event.cumulative()]
    xs = ["start", *(f"round {r}" for r in event.rounds)]
    return category_chart("points", f"points-{n}", f"{event.title}: cumulative points of "
                          f"each {_who(event)} by round", xs, series, "points")


def render_html(events: Sequence[EventResult],
                links: Mapping[tuple[str, int], str] | None = None) -> str:
    """One self-contained printable page: no script, no font to fetch, and no link but,
    with ``links`` (by a game's path and first line), each table's to its game's replay
    page (``score --out-dir``)."""
    from ..present import render

    title = " / ".join(e.title for e in events) or "standings"
    return render("score.html", title=f"{title}: standings", events=[
        {**page_parts(e, links), "chart": chart_svg(e, n)} for n, e in enumerate(events, 1)])


RENDERERS: dict[str, Callable[[Sequence[EventResult]], str]] = {
    "text": render_text, "csv": render_csv, "json": render_json,
    "markdown": render_markdown, "html": render_html,
}
"""Each output format of ``euchrelog score`` and its renderer."""

