"""Writing scored events: a terminal table, CSV, JSON, Markdown and one printable HTML
page with an inline SVG chart (docs/tournaments.md, "Output").

Every renderer takes the events of :func:`euchrelog.events.score_events` and returns
text; none of them prints, reads a clock or fetches anything, so the same events always
give the same text.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..report import visible
from .scorer import EventResult
from .settings import KEYS
from .standings import Award, Standing, TableResult

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
        return f"{award.value} points: {places}"
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

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#17becf", "#bcbd22", "#7f7f7f", "#393b79", "#ad494a")
"""Line colours of the chart; after ten lines the lines are dashed as well."""

_CSS = """
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial,
       sans-serif; color: #1b1b1b; margin: 24px auto; max-width: 1040px; padding: 0 16px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 2px solid #1b1b1b;
     padding-bottom: 2px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
p.meta { color: #555; margin: 0 0 10px; }
p.status { padding: 8px 12px; border-radius: 4px; font-weight: 600; }
p.status.final { background: #e8f5e9; border: 1px solid #66bb6a; }
p.status.provisional { background: #fff3e0; border: 1px solid #fb8c00; }
table { border-collapse: collapse; margin: 4px 0; }
th, td { padding: 3px 10px; border-bottom: 1px solid #ddd; text-align: left;
         white-space: nowrap; }
th { background: #f2f2f2; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.top td { font-weight: 600; }
p.note { color: #444; font-size: 13px; margin: 6px 0 0; }
ul.awards { padding-left: 20px; }
ul.note { color: #444; font-size: 13px; margin: 2px 0 0; padding-left: 20px; }
ul.findings { font-size: 13px; padding-left: 20px; }
ul.findings code { background: #f4f4f4; padding: 0 3px; }
figure { margin: 8px 0; }
figcaption { color: #444; font-size: 13px; }
svg { max-width: 100%; height: auto; }
.rounds { display: flex; flex-wrap: wrap; gap: 4px 28px; }
section.event + section.event { break-before: page; }
@media print {
  body { margin: 0; max-width: none; font-size: 11pt; }
  h2 { break-after: avoid; }
  table, figure, .round { break-inside: avoid; }
  p.status { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
@page { margin: 14mm; }
"""


def _e(text: object) -> str:
    """Text for an HTML page: markup escaped, control characters written as escapes."""
    return html.escape(visible(str(text)), quote=True)


def _nice_step(span: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 8:
            return step
    return max(1, span // 8)


def chart_svg(event: EventResult) -> str:
    """Each row's cumulative points after each round, as an inline SVG line chart."""
    series = event.cumulative()
    rounds = event.rounds
    longest = max((len(f"{label} ({points[-1] if points else 0})") for label, points in series),
                  default=0)
    left, top, bottom, plot_w = 56, 24, 44, 640
    right = 24 + 34 + round(7.6 * longest) + 12  # the legend: a line, then the label
    height = max(400, top + 8 + 22 * len(series) + bottom)
    width, plot_h = left + plot_w + right, height - top - bottom
    values = [v for _, points in series for v in points] + [0]
    low, high = min(values), max(values)
    step = _nice_step(max(high - low, 1))
    low = (low // step) * step
    high = -(-high // step) * step if high > low else low + step
    n = max(len(rounds), 1)

    def x(i: int) -> float:
        return left + plot_w * i / n

    def y(v: int) -> float:
        return top + plot_h * (high - v) / (high - low)

    who = "player" if event.settings.format == "progressive" else "team"
    title = f"cumulative points of each {who} by round"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" role="img" aria-labelledby="chart-title" '
             f'class="chart">',
             f'<title id="chart-title">{_e(event.title)}: {title}</title>',
             '<rect x="0" y="0" width="100%" height="100%" fill="#ffffff"/>']
    for v in range(low, high + 1, step):
        parts.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + plot_w}" y2="{y(v):.1f}" '
                     f'stroke="{"#999" if v == 0 else "#e3e3e3"}" stroke-width="1"/>')
        parts.append(f'<text x="{left - 8}" y="{y(v) + 4:.1f}" text-anchor="end" '
                     f'font-size="12" fill="#444">{v}</text>')
    labels = ["start", *(f"round {r}" for r in rounds)]
    for i, label in enumerate(labels):
        parts.append(f'<line x1="{x(i):.1f}" y1="{top}" x2="{x(i):.1f}" y2="{top + plot_h}" '
                     'stroke="#f0f0f0" stroke-width="1"/>')
        parts.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 20}" text-anchor="middle" '
                     f'font-size="12" fill="#444">{_e(label)}</text>')
    parts.append(f'<text x="{left - 44}" y="{top + plot_h / 2:.1f}" font-size="12" fill="#444" '
                 f'text-anchor="middle" transform="rotate(-90 {left - 44} '
                 f'{top + plot_h / 2:.1f})">points</text>')
    for k, (label, points) in enumerate(series):
        colour = PALETTE[k % len(PALETTE)]
        dash = ' stroke-dasharray="7 4"' if k >= 10 else ""
        coords = [(x(0), y(0)), *((x(i + 1), y(v)) for i, v in enumerate(points))]
        path = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in coords)
        parts.append(f'<g class="series" data-name="{_e(label)}">')
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                     f'stroke-width="2.5" stroke-linejoin="round"{dash}/>')
        parts.extend(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3.5" fill="{colour}"/>'
                     for cx, cy in coords[1:])
        ly = top + 8 + k * 22
        lx = left + plot_w + 24
        parts.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 26}" y2="{ly}" stroke="{colour}" '
                     f'stroke-width="3"{dash}/>')
        final = points[-1] if points else 0
        parts.append(f'<text x="{lx + 34}" y="{ly + 4}" font-size="13" fill="#1b1b1b">'
                     f'{_e(label)} ({final})</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts)


def _html_event(event: EventResult, n: int = 1,
                links: Mapping[tuple[str, int], str] | None = None) -> str:
    cols = columns(event)
    status = "provisional" if event.provisional else "final"
    out = ['<section class="event">', f"<h1>{_e(event.title)}</h1>",
           *([f'<p class="meta">{_e(when_where(event))}</p>'] if when_where(event) else []),
           f'<p class="meta">{_e(headline(event))}</p>',
           f'<p class="status {status}">{_e(status_line(event))}'
           + (f' (<a href="#findings-{n}">see the findings</a>)' if event.provisional else "")
           + "</p>",
           "<h2>Standings</h2>", '<table class="standings">', "<thead><tr>",
           '<th class="num">rank</th>', f"<th>{_who(event)}</th>",
           *(f'<th class="num">{_e(c.title)}</th>' for c in cols), "</tr></thead>", "<tbody>"]
    for s in event.standings:
        top = ' class="top"' if s.rank == 1 else ""
        out.append(f'<tr{top}><td class="num">{_e(_rank(s))}</td><td>{_e(s.label)}</td>'
                   + "".join(f'<td class="num">{_e(c.show(c.get(s)))}</td>' for c in cols)
                   + "</tr>")
    out += ["</tbody>", "</table>", f'<p class="note">{_e(ranking_note(event))}</p>']
    used = decision_lines(event)
    if used:
        out += ['<p class="note">tie-breaks used:</p>', '<ul class="note">',
                *(f"<li>{_e(line)}</li>" for line in used), "</ul>"]
    out += ["<h2>Points by round</h2>", "<figure>", chart_svg(event),
            "<figcaption>Cumulative points after each round, in standings order.</figcaption>",
            "</figure>"]
    out += ["<h2>Awards</h2>", '<ul class="awards">']
    out += [f"<li><strong>{_e(a.title)}</strong>: {_e(award_text(a))}</li>"
            for a in event.awards]
    out += ["</ul>", "<h2>Rounds</h2>", '<div class="rounds">']
    for r in _rounds(event):
        out += ['<div class="round">', f"<h3>Round {_e(r)}</h3>", "<table>",
                "<thead><tr><th>table</th><th>scores</th><th>result</th></tr></thead><tbody>"]
        for t in (t for t in event.tables if t.round == r):
            href = (links or {}).get((t.path, t.line))
            cell = (f'<a href="{_e(href)}" title="replay of this game">{_e(t.table)}</a>'
                    if href else _e(t.table))
            out.append(f"<tr><td>{cell}</td><td>{_e(table_text(t))}</td>"
                       f"<td>{_e(outcome(t))}</td></tr>")
        out += ["</tbody></table>", "</div>"]
    out.append("</div>")
    if event.findings:
        out += [f'<h2 id="findings-{n}">Findings</h2>', '<ul class="findings">']
        out += [f"<li><code>{_e(f'{f.path}:{f.line}:{f.column}')}</code> {_e(f.code)} "
                f"{_e(f.message)}</li>" for f in event.findings]
        out.append("</ul>")
    out.append("</section>")
    return "\n".join(out)


def render_html(events: Sequence[EventResult],
                links: Mapping[tuple[str, int], str] | None = None) -> str:
    """One self-contained printable page: no script, no font to fetch, and no link but,
    with ``links`` (by a game's path and first line), each table's to its game's replay
    page (``score --out-dir``)."""
    title = " / ".join(e.title for e in events) or "standings"
    body = "\n".join(_html_event(e, n, links) for n, e in enumerate(events, 1)) or (
        "<p>no games were read.</p>")
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{_e(title)}: standings</title>\n<style>{_CSS}</style>\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n")


RENDERERS: dict[str, Callable[[Sequence[EventResult]], str]] = {
    "text": render_text, "csv": render_csv, "json": render_json,
    "markdown": render_markdown, "html": render_html,
}
"""Each output format of ``euchrelog score`` and its renderer."""

