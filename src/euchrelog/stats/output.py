"""Writing statistics: a terminal table, CSV, JSON and one self-contained HTML page with
inline SVG charts (docs/stats.md).

Every renderer takes a :class:`~euchrelog.stats.Collector` and returns text; none of them
prints, reads a clock or fetches anything. One table of columns (:func:`sections`) gives
every format its figures, so the formats always agree.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..events.output import PALETTE
from ..report import visible
from ..rules import find_variant
from . import POSITIONS, Collector, Group, Tally

STATS_FORMAT = "euchrelog-stats"
"""The ``format`` field of the JSON output."""

Value = int | float | None
"""A figure: a count, a rate (0 to 1, ``None`` when nothing was counted) or an average."""


@dataclass(frozen=True)
class Column:
    """A figure of the statistics: its CSV/JSON key, its heading and its value."""

    key: str
    title: str
    get: Callable[[Tally], Value]
    rate: bool = False
    """Whether it is a share (shown as a percentage)."""


@dataclass(frozen=True)
class Section:
    """Columns shown together in one table of the text and HTML outputs."""

    title: str
    columns: tuple[Column, ...]


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _slug(text: str) -> str:
    return text.replace("'s", "").replace(" ", "_")


def _place_rate(place: int) -> Callable[[Tally], Value]:
    def get(t: Tally) -> Value:
        return _share(t.position_makes[place], t.position_deals[place])
    return get


def _round_rate(bid_round: int) -> Callable[[Tally], Value]:
    def get(t: Tally) -> Value:
        return _share(t.round_makes[bid_round], t.deals)
    return get


def sections(group: Group) -> list[Section]:
    """The tables of a variant's statistics, each with the columns that apply to it: the
    lone-hand columns where going alone is a choice, the double-dummy ones where a deal was
    reviewed."""
    variant = find_variant(group.variant)
    tallies = [*group.players.values(), *group.sides.values()]
    places = POSITIONS.get(group.seats, tuple(f"seat {k}" for k in range(group.seats)))
    bidding = [Column("deals", "deals", lambda t: t.deals),
               Column("makes", "makes", lambda t: t.makes),
               Column("make_rate", "make%", lambda t: _share(t.makes, t.deals), rate=True)]
    rounds = sorted({r for t in tallies for r in t.round_makes} | {1, 2}
                    if variant.bidding == "euchre" else set())
    bidding += [Column(f"round_{r}_rate", f"round {r}%" if r else "round ?%", _round_rate(r),
                       rate=True) for r in rounds]
    bidding += [Column(f"make_rate_{_slug(name)}", name.replace("dealer's ", "") + "%",
                       _place_rate(k), rate=True) for k, name in enumerate(places)]
    maker = [Column("made", "made", lambda t: t.made),
             Column("made_rate", "made%", lambda t: _share(t.made, t.decided), rate=True),
             Column("marched", "marched", lambda t: t.marched),
             Column("marched_rate", "march%", lambda t: _share(t.marched, t.decided), rate=True),
             Column("euchred", "euchred", lambda t: t.euchred),
             Column("euchred_rate", "euchred%", lambda t: _share(t.euchred, t.decided),
                    rate=True)]
    if variant.alone == "declared":
        maker += [Column("lone", "lone", lambda t: t.lone),
                  Column("lone_made", "lone made", lambda t: t.lone_made),
                  Column("lone_marched", "lone march", lambda t: t.lone_marched)]
    defence = [Column("defended", "defended", lambda t: t.defended),
               Column("euchres", "euchres", lambda t: t.euchres),
               Column("euchre_rate", "euchre%", lambda t: _share(t.euchres, t.defended),
                      rate=True)]
    if variant.lone_defender or any(t.lone_defences for t in tallies):
        defence += [Column("lone_defences", "lone def", lambda t: t.lone_defences),
                    Column("lone_defence_euchres", "lone def euchres",
                           lambda t: t.lone_defence_euchres)]
    defence += [Column("reneges_claimed", "reneges claimed", lambda t: t.reneges_claimed),
                Column("reneges_unclaimed", "unclaimed", lambda t: t.reneges_unclaimed),
                Column("points", "points", lambda t: t.points),
                Column("points_per_deal", "points/deal",
                       lambda t: t.points / t.scored_deals if t.scored_deals else None)]
    out = [Section("bidding", tuple(bidding)), Section("as makers", tuple(maker)),
           Section("as defenders, and points", tuple(defence))]
    if any(t.reviewed for t in tallies):
        out.append(Section("double dummy", (
            Column("reviewed", "reviewed", lambda t: t.reviewed),
            Column("tricks_lost", "tricks lost", lambda t: t.tricks_lost),
            Column("tricks_lost_per_deal", "lost/deal",
                   lambda t: t.tricks_lost / t.reviewed if t.reviewed else None),
            Column("beat_par", "beat par", lambda t: t.beat_par),
            Column("missed_par", "missed par", lambda t: t.missed_par))))
    return out


def _columns(group: Group) -> list[Column]:
    return [c for s in sections(group) for c in s.columns]


def _shown(column: Column, value: Value) -> str:
    """A figure for people: a share as a percentage, an average to two places."""
    if value is None:
        return "-"
    if column.rate:
        return f"{100 * value:.1f}"
    if isinstance(value, float):
        return f"{value:+.2f}" if column.key.startswith("points") else f"{value:.2f}"
    return str(value)


def _raw(value: Value) -> Value:
    """A figure for CSV and JSON: shares and averages to four places."""
    return round(value, 4) if isinstance(value, float) else value


def _kinds(group: Group) -> list[tuple[str, list[Tally]]]:
    kinds = [("player", group.ordered(group.players))]
    if group.sides:
        kinds.append(("side", group.ordered(group.sides)))
    return kinds


def _heading(group: Group) -> str:
    return (f"{group.variant}: {_plural(group.games, 'game')}, "
            f"{_plural(group.deals, 'deal')}")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ------------------------------------------------------------------ text


def _grid(headers: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        first = cells[0].ljust(widths[0])
        return "  ".join([first, *(c.rjust(w) for c, w in zip(cells[1:], widths[1:],
                                                              strict=True))]).rstrip()

    return [line(headers), *(line(r) for r in rows)]


def render_text(collector: Collector) -> str:
    """The statistics as tables for the terminal, a block per variant and a table per
    section (percentages: ``%`` columns); names are shown, never obeyed
    (:func:`~euchrelog.report.visible`)."""
    blocks = []
    for group in collector.groups.values():
        out = [_heading(group)]
        for kind, tallies in _kinds(group):
            for section in sections(group):
                out += ["", f"{kind}s, {section.title}"]
                headers = [kind, *(c.title for c in section.columns)]
                out.extend(_grid(headers, [[t.name, *(_shown(c, c.get(t))
                                                     for c in section.columns)]
                                           for t in tallies]))
        blocks.append("\n".join(out) + "\n")
    if not blocks:
        return "no games counted.\n"
    return visible("\n".join(blocks))


# ------------------------------------------------------------------ csv


_FORMULA = ("=", "+", "-", "@", "\t", "\r")
"""What a cell may not start with, lest a spreadsheet run it as a formula."""


def _csv_cell(value: Value | str) -> Value | str:
    """A cell that a spreadsheet shows as text: control characters written as escapes
    (:func:`~euchrelog.report.visible`), a quote in front of what would start a formula."""
    if not isinstance(value, str):
        return "" if value is None else value
    value = visible(value)
    return "'" + value if value.startswith(_FORMULA) else value


def render_csv(collector: Collector) -> str:
    """One table: a header row with every variant's columns, then a row per player and per
    side (``kind``), empty where its variant has no such column."""
    keys: list[str] = []
    for group in collector.groups.values():
        keys += [c.key for c in _columns(group) if c.key not in keys]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["variant", "kind", "name", *keys])
    for group in collector.groups.values():
        columns = {c.key: c for c in _columns(group)}
        for kind, tallies in _kinds(group):
            for t in tallies:
                writer.writerow([_csv_cell(v) for v in (
                    group.variant, kind, t.name,
                    *(_raw(columns[k].get(t)) if k in columns else None for k in keys))])
    return buffer.getvalue()


# ------------------------------------------------------------------ json


def tally_dict(group: Group, tally: Tally, columns: Sequence[Column] | None = None
               ) -> dict[str, Any]:
    """One player's or side's figures, as JSON: every column (those of ``group``, unless
    given), then the counts by bidding round and by seat, and (reviewed deals) by tricks
    lost."""
    places = POSITIONS.get(group.seats, tuple(f"seat {k}" for k in range(group.seats)))
    out: dict[str, Any] = {"name": tally.name}
    out.update({c.key: _raw(c.get(tally)) for c in columns or _columns(group)})
    out["by_round"] = {str(r): n for r, n in sorted(tally.round_makes.items())}
    out["by_seat"] = [{"seat": name, "deals": tally.position_deals[k],
                       "makes": tally.position_makes[k]}
                      for k, name in enumerate(places)]
    if tally.reviewed:
        out["tricks_lost_counts"] = {str(k): n for k, n in sorted(tally.lost_counts.items())}
    return out


def render_json(collector: Collector) -> str:
    """The statistics as one JSON document (docs/stats.md, "JSON")."""
    variants = []
    for g in collector.groups.values():
        columns = _columns(g)
        variants.append({"variant": g.variant, "games": g.games, "deals": g.deals,
                         "players": [tally_dict(g, t, columns) for t in g.ordered(g.players)],
                         "sides": [tally_dict(g, t, columns) for t in g.ordered(g.sides)]})
    doc = {"format": STATS_FORMAT, "version": 1, "games": collector.games,
           "variants": variants}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


# ------------------------------------------------------------------ html


_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       color: #1b1b1b; margin: 24px auto; max-width: 1180px; padding: 0 16px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 26px 0 6px; border-bottom: 2px solid #333; }
h3 { font-size: 15px; margin: 16px 0 4px; }
p.meta { color: #555; margin: 0 0 10px; }
table { border-collapse: collapse; margin: 4px 0 10px; }
th, td { padding: 3px 9px; border-bottom: 1px solid #ddd; text-align: left;
         white-space: nowrap; }
th { background: #f2f2f2; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.scroll { overflow-x: auto; }
figure { margin: 10px 0 18px; }
figcaption { color: #444; font-size: 13px; }
svg { max-width: 100%; height: auto; }
section.variant + section.variant { break-before: page; }
@media print { body { margin: 0; max-width: none; font-size: 10pt; }
  table, figure { break-inside: avoid; } }
"""

CHART_SERIES = 8
"""The players a chart shows at most: those with the most deals."""


def _e(text: object) -> str:
    """Text for the page: markup escaped, control characters written as escapes."""
    return html.escape(visible(str(text)), quote=True)


def _nice_step(span: float) -> float:
    """A round step that divides ``span`` into at most six parts."""
    for step in (0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20, 25, 50, 100):
        if span / step <= 6:
            return step
    return float(10 ** math.ceil(math.log10(span / 6)))


def _legend(labels: Sequence[str], x: float, top: float) -> list[str]:
    parts = []
    for k, label in enumerate(labels):
        y = top + 8 + 22 * k
        parts.append(f'<rect x="{x:.1f}" y="{y - 6:.1f}" width="14" height="12" '
                     f'fill="{PALETTE[k % len(PALETTE)]}"/>')
        parts.append(f'<text x="{x + 20:.1f}" y="{y + 4:.1f}" font-size="13" '
                     f'fill="#1b1b1b">{_e(label)}</text>')
    return parts


def _svg_open(width: int, height: int, kind: str, title: str) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" role="img" class="chart {kind}">',
            f"<title>{_e(title)}</title>",
            '<rect x="0" y="0" width="100%" height="100%" fill="#ffffff"/>']


def _axis(parts: list[str], left: int, top: int, plot_w: int, plot_h: int, high: float,
          ticks: int, unit: str, label: str) -> None:
    for k in range(ticks + 1):
        v = high * k / ticks
        y = top + plot_h - plot_h * k / ticks
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" '
                     f'stroke="{"#999" if k == 0 else "#e3e3e3"}" stroke-width="1"/>')
        parts.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end" font-size="12" '
                     f'fill="#444">{v:g}{unit}</text>')
    parts.append(f'<text x="14" y="{top + plot_h / 2:.1f}" font-size="12" fill="#444" '
                 f'text-anchor="middle" transform="rotate(-90 14 {top + plot_h / 2:.1f})">'
                 f"{_e(label)}</text>")


def bar_chart(kind: str, title: str, groups: Sequence[str],
              series: Sequence[tuple[str, Sequence[float | None]]], unit: str,
              label: str, xlabel: str) -> str:
    """Grouped bars: for each of ``groups`` a bar per series (its values in percent or
    a count), with a legend; a value of ``None`` draws no bar."""
    left, top, bottom, plot_w, plot_h = 60, 20, 58, 640, 260
    longest = max((len(name) for name, _ in series), default=0)
    width = left + plot_w + 40 + round(7.6 * longest) + 20
    height = max(top + plot_h + bottom, top + 16 + 22 * len(series))
    values = [v for _, vs in series for v in vs if v is not None]
    step = _nice_step(max([*values, 1.0]))
    ticks = max(1, math.ceil(max([*values, 1.0]) / step))
    high = step * ticks
    parts = _svg_open(width, height, kind, title)
    _axis(parts, left, top, plot_w, plot_h, high, ticks, unit, label)
    slot = plot_w / max(len(groups), 1)
    bar = slot * 0.8 / max(len(series), 1)
    for g, name in enumerate(groups):
        x0 = left + slot * g + slot * 0.1
        parts.append(f'<text x="{left + slot * (g + 0.5):.1f}" y="{top + plot_h + 20}" '
                     f'text-anchor="middle" font-size="12" fill="#444">{_e(name)}</text>')
        for k, (who, vs) in enumerate(series):
            v = vs[g]
            if v is None:
                continue
            h = plot_h * v / high
            parts.append(f'<rect class="bar" data-name="{_e(who)}" data-value="{v:.1f}" '
                         f'x="{x0 + bar * k:.1f}" y="{top + plot_h - h:.1f}" '
                         f'width="{max(bar - 1, 1):.1f}" height="{h:.1f}" '
                         f'fill="{PALETTE[k % len(PALETTE)]}"><title>{_e(who)}, {_e(name)}: '
                         f"{v:.1f}{_e(unit)}</title></rect>")
    parts.append(f'<text x="{left + plot_w / 2:.1f}" y="{top + plot_h + 44}" '
                 f'text-anchor="middle" font-size="12" fill="#444">{_e(xlabel)}</text>')
    parts += _legend([who for who, _ in series], left + plot_w + 40, top)
    parts.append("</svg>")
    return "\n".join(parts)


def line_chart(kind: str, title: str, xs: Sequence[str],
               series: Sequence[tuple[str, Sequence[float | None]]], label: str) -> str:
    """A line per series over ``xs`` (a point where its value is known), with a legend."""
    left, top, bottom, plot_w, plot_h = 60, 20, 60, 640, 260
    longest = max((len(name) for name, _ in series), default=0)
    width = left + plot_w + 40 + round(7.6 * longest) + 20
    height = max(top + plot_h + bottom, top + 16 + 22 * len(series))
    values = [v for _, vs in series for v in vs if v is not None] + [0.0]
    step = _nice_step(max(values) - min(values))
    low, high = math.floor(min(values) / step) * step, math.ceil(max(values) / step) * step
    high = max(high, low + step)
    parts = _svg_open(width, height, kind, title)

    def x(i: int) -> float:
        return left + (plot_w * i / (len(xs) - 1) if len(xs) > 1 else plot_w / 2)

    def y(v: float) -> float:
        return top + plot_h * (high - v) / (high - low)

    for k in range(round((high - low) / step) + 1):
        v = low + step * k
        parts.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + plot_w}" y2="{y(v):.1f}" '
                     'stroke="#e3e3e3" stroke-width="1"/>')
        parts.append(f'<text x="{left - 8}" y="{y(v) + 4:.1f}" text-anchor="end" '
                     f'font-size="12" fill="#444">{round(v, 2):+g}</text>'.replace("+0<", "0<"))
    parts.append(f'<line x1="{left}" y1="{y(0):.1f}" x2="{left + plot_w}" y2="{y(0):.1f}" '
                 'stroke="#999" stroke-width="1"/>')
    parts.append(f'<text x="14" y="{top + plot_h / 2:.1f}" font-size="12" fill="#444" '
                 f'text-anchor="middle" transform="rotate(-90 14 {top + plot_h / 2:.1f})">'
                 f"{_e(label)}</text>")
    every = max(1, -(-len(xs) // 8))
    for i, name in enumerate(xs):
        last = i == len(xs) - 1 and 2 * (i % every) >= every  # (not crowding the one before)
        if i % every == 0 or last:
            parts.append(f'<text x="{x(i):.1f}" y="{top + plot_h + 20}" text-anchor="middle" '
                         f'font-size="12" fill="#444">{_e(name)}</text>')
    for k, (who, vs) in enumerate(series):
        colour = PALETTE[k % len(PALETTE)]
        points = [(x(i), y(v)) for i, v in enumerate(vs) if v is not None]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        parts.append(f'<g class="series" data-name="{_e(who)}">')
        dash = ' stroke-dasharray="6 4"' if k % 2 else ""  # (partners' lines coincide)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                     f'stroke-width="2.2" stroke-linejoin="round"{dash}/>')
        parts.extend(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{colour}"/>'
                     for px, py in points)
        parts.append("</g>")
    parts += _legend([who for who, _ in series], left + plot_w + 40, top)
    parts.append("</svg>")
    return "\n".join(parts)


def _charted(group: Group) -> list[Tally]:
    return group.ordered(group.players)[:CHART_SERIES]


def seat_chart(group: Group) -> str:
    """The make rate of the players with the most deals, by seat from the dealer."""
    places = POSITIONS.get(group.seats, tuple(f"seat {k}" for k in range(group.seats)))
    series = [(t.name, [None if (r := _place_rate(k)(t)) is None else 100 * r
                        for k in range(len(places))]) for t in _charted(group)]
    return bar_chart("seats", f"{group.variant}: make rate by seat from the dealer", places,
                     series, "%", "trump made, % of deals", "seat from the dealer")


def _timeline(group: Group, tallies: Sequence[Tally]) -> tuple[list[str], list[list[float | None]]]:
    """The x labels and each tally's points per deal at each: by date when every game is
    dated (by month past 40 dates), else by group of games in play order."""
    if group.dated:
        days = sorted({d for t in tallies for d in t.by_date})
        months = len(days) > 40

        def key(day: str) -> str:
            return day[:7] if months else day

        xs = sorted({key(d) for d in days})
        tables: list[dict[str, list[int]]] = []
        for t in tallies:
            merged: dict[str, list[int]] = {}
            for day, (points, deals) in t.by_date.items():
                cell = merged.setdefault(key(day), [0, 0])
                cell[0] += points
                cell[1] += deals
            tables.append(merged)
        return xs, [[c[0] / c[1] if (c := table.get(x)) and c[1] else None for x in xs]
                    for table in tables]
    buckets = sorted({b for t in tallies for b in t.by_order})
    w = group.width
    xs = [f"game {b * w + 1}" if w == 1 else f"games {b * w + 1}-{(b + 1) * w}"
          for b in buckets]
    return xs, [[c[0] / c[1] if (c := t.by_order.get(b)) and c[1] else None for b in buckets]
                for t in tallies]


def points_chart(group: Group) -> str:
    """The points per deal of the players with the most deals, over time."""
    tallies = _charted(group)
    xs, values = _timeline(group, tallies)
    how = "by date" if group.dated else "in game order"
    return line_chart("points", f"{group.variant}: points per deal {how}", xs,
                      [(t.name, v) for t, v in zip(tallies, values, strict=True)],
                      "points per deal")


def lost_chart(group: Group) -> str:
    """The share of reviewed deals by tricks lost to play mistakes, for each side."""
    tallies = [t for t in group.ordered(group.sides or group.players) if t.reviewed]
    tallies = tallies[:CHART_SERIES]
    most = max((k for t in tallies for k in t.lost_counts), default=0)
    xs = [str(k) for k in range(most + 1)]
    series = [(t.name, [100 * t.lost_counts[k] / t.reviewed for k in range(most + 1)])
              for t in tallies]
    return bar_chart("lost", f"{group.variant}: tricks lost to play mistakes in a deal", xs,
                     series, "%", "% of reviewed deals", "tricks lost in the deal")


def _html_table(kind: str, section: Section, tallies: Sequence[Tally]) -> list[str]:
    out = ['<div class="scroll"><table class="stats">', "<thead><tr>",
           f"<th>{_e(kind)}</th>",
           *(f'<th class="num">{_e(c.title)}</th>' for c in section.columns),
           "</tr></thead>", "<tbody>"]
    out += [f"<tr><td>{_e(t.name)}</td>"
            + "".join(f'<td class="num">{_e(_shown(c, c.get(t)))}</td>' for c in section.columns)
            + "</tr>" for t in tallies]
    out += ["</tbody>", "</table></div>"]
    return out


def _html_group(group: Group) -> str:
    out = ['<section class="variant">', f"<h1>{_e(group.variant)}</h1>",
           f'<p class="meta">{_e(_plural(group.games, "game"))}, '
           f'{_e(_plural(group.deals, "deal"))}</p>']
    for kind, tallies in _kinds(group):
        out.append(f"<h2>{_e(kind.capitalize())}s</h2>")
        for section in sections(group):
            out.append(f"<h3>{_e(section.title.capitalize())}</h3>")
            out += _html_table(kind, section, tallies)
    shown = ", ".join(t.name for t in _charted(group))
    out += ["<h2>Charts</h2>", "<figure>", seat_chart(group),
            f"<figcaption>Share of the deals at each seat in which the player made trump "
            f"({_e(shown)}).</figcaption>", "</figure>",
            "<figure>", points_chart(group),
            "<figcaption>Points scored by the player's side per deal "
            + ("on each date." if group.dated else "in each group of games, in the order "
               "read.") + "</figcaption>", "</figure>"]
    if any(t.reviewed for t in (*group.players.values(), *group.sides.values())):
        out += ["<figure>", lost_chart(group),
                "<figcaption>Share of the deals reviewed double-dummy by the tricks that "
                "play mistakes cost in each.</figcaption>", "</figure>"]
    out.append("</section>")
    return "\n".join(out)


def render_html(collector: Collector) -> str:
    """One self-contained page: no script, no link, no font to fetch."""
    body = "\n".join(_html_group(g) for g in collector.groups.values()) or (
        "<p>no games counted.</p>")
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>euchrelog statistics</title>\n<style>{_CSS}</style>\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n")


RENDERERS: dict[str, Callable[[Collector], str]] = {
    "text": render_text, "csv": render_csv, "json": render_json, "html": render_html,
}
"""Each output format of ``euchrelog stats`` and its renderer."""
