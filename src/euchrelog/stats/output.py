"""Writing statistics: a terminal table, CSV, JSON and one self-contained HTML page with
inline SVG charts (docs/stats.md; the page's template is ``stats.html`` of
:mod:`euchrelog.present`).

Every renderer takes a :class:`~euchrelog.stats.Collector` and returns text; none of them
prints, reads a clock or fetches anything. One table of columns (:func:`sections`) gives
every format its figures, so the formats always agree.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from ..report import visible
from ..rules import find_variant
from . import POSITIONS, Collector, Group, Tally

if TYPE_CHECKING:
    from markupsafe import Markup

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
    help: str = ""
    """What it counts, in words (the page shows it on hover and in its legend)."""


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
    bidding = [Column("deals", "deals", lambda t: t.deals,
                      help="deals played, thrown-in deals included"),
               Column("makes", "makes", lambda t: t.makes,
                      help="deals in which the player fixed trump (a side: one of its "
                           "players)"),
               Column("make_rate", "make%", lambda t: _share(t.makes, t.deals), rate=True,
                      help="makes per deal")]
    rounds = sorted({r for t in tallies for r in t.round_makes} | {1, 2}
                    if variant.bidding == "euchre" else set())
    bidding += [Column(f"round_{r}_rate", f"round {r}%" if r else "round ?%", _round_rate(r),
                       rate=True, help=_ROUND_HELP.get(r, f"trump fixed in bidding round {r}, "
                                                          "per deal")) for r in rounds]
    bidding += [Column(f"make_rate_{_slug(name)}", name.replace("dealer's ", "") + "%",
                       _place_rate(k), rate=True,
                       help=f"of the deals the player sat at the {name} seat (a side: either "
                            "of its seats), the share in which the player made trump")
                for k, name in enumerate(places)]
    maker = [Column("made", "made", lambda t: t.made,
                    help="contracts made: the makers' side scored by them"),
             Column("made_rate", "made%", lambda t: _share(t.made, t.decided), rate=True,
                    help="contracts made, per contract whose end is known"),
             Column("marched", "marched", lambda t: t.marched,
                    help="contracts in which the makers took every trick"),
             Column("marched_rate", "march%", lambda t: _share(t.marched, t.decided), rate=True,
                    help="marches, per contract whose end is known"),
             Column("euchred", "euchred", lambda t: t.euchred,
                    help="contracts euchred: the makers did not score by them"),
             Column("euchred_rate", "euchred%", lambda t: _share(t.euchred, t.decided),
                    rate=True, help="contracts euchred, per contract whose end is known")]
    if variant.alone == "declared":
        maker += [Column("lone", "lone", lambda t: t.lone,
                         help="lone hands, counted for the seat that played alone"),
                  Column("lone_made", "lone made", lambda t: t.lone_made,
                         help="lone hands made"),
                  Column("lone_marched", "lone march", lambda t: t.lone_marched,
                         help="lone hands that took every trick")]
    defence = [Column("defended", "defended", lambda t: t.defended,
                      help="deals defended whose end is known"),
               Column("euchres", "euchres", lambda t: t.euchres,
                      help="euchres taken as a defender"),
               Column("euchre_rate", "euchre%", lambda t: _share(t.euchres, t.defended),
                      rate=True, help="euchres, per deal defended")]
    if variant.lone_defender or any(t.lone_defences for t in tallies):
        defence += [Column("lone_defences", "lone def", lambda t: t.lone_defences,
                           help="lone defences"),
                    Column("lone_defence_euchres", "lone def euchres",
                           lambda t: t.lone_defence_euchres,
                           help="euchres taken by a lone defence")]
    defence += [Column("reneges_claimed", "reneges claimed", lambda t: t.reneges_claimed,
                       help="reneges the table claimed, as the replay accepted the claim"),
                Column("reneges_unclaimed", "unclaimed", lambda t: t.reneges_unclaimed,
                       help="reneges the replay found that nobody claimed"),
                Column("points", "points", lambda t: t.points,
                       help="points scored by the player's side, in the deals whose points "
                            "are known"),
                Column("points_per_deal", "points/deal",
                       lambda t: t.points / t.scored_deals if t.scored_deals else None,
                       help="points per deal whose points are known")]
    out = [Section("bidding", tuple(bidding)), Section("as makers", tuple(maker)),
           Section("as defenders, and points", tuple(defence))]
    if any(t.reviewed for t in tallies):
        out.append(Section("double dummy", (
            Column("reviewed", "reviewed", lambda t: t.reviewed,
                   help="deals reviewed double dummy: every card recorded, the play clean"),
            Column("tricks_lost", "tricks lost", lambda t: t.tricks_lost,
                   help="tricks the player's own plays cost the side against the best card "
                        "at each play"),
            Column("tricks_lost_per_deal", "lost/deal",
                   lambda t: t.tricks_lost / t.reviewed if t.reviewed else None,
                   help="tricks lost per reviewed deal"),
            Column("beat_par", "beat par", lambda t: t.beat_par,
                   help="contracts of theirs that scored more than par"),
            Column("missed_par", "missed par", lambda t: t.missed_par,
                   help="contracts of theirs that scored less than par"))))
    if any(t.sd_decisions for t in tallies):
        out.append(Section("single dummy", (
            Column("sd_decisions", "decisions", lambda t: t.sd_decisions,
                   help="bids, plays and discards graded single dummy (two options or more)"),
            Column("sd_bids", "bids", lambda t: t.sd_bids,
                   help="of the decisions, the bids (lone defences included)"),
            Column("accuracy", "accuracy", lambda t: t.accuracy,
                   help="the mean over the decisions of 100 * 2^(-loss / 0.25), each loss "
                        "less two standard errors (docs/analysis.md)"),
            Column("bid_lost", "lost bidding", lambda t: t.bid_lost,
                   help="points the bids gave up on average, single dummy"),
            Column("play_lost", "lost playing", lambda t: t.play_lost,
                   help="points the plays and discards gave up on average, single dummy"),
            *(Column(f"sd_{name}", name, _count_of(name),
                     help=f"decisions graded {name} single dummy")
              for name in ("inaccuracy", "mistake", "blunder")))))
    return out


def _count_of(grade: str) -> Callable[[Tally], Value]:
    def get(t: Tally) -> Value:
        return t.sd_classes[grade]
    return get


_ROUND_HELP = {
    0: "trump fixed where the record shows no bidding round (a score-sheet line, a Benny "
       "named by the dealer), per deal",
    1: "trump fixed by ordering up the upcard, per deal",
    2: "trump fixed by naming a suit in round 2, per deal",
}


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


CHART_SERIES = 8
"""The players a chart shows at most: those with the most deals."""

MONTHS_PAST = 40
"""Points over time are shown by month past this many dates."""


def _charted(group: Group) -> list[Tally]:
    return group.ordered(group.players)[:CHART_SERIES]


def seat_chart(group: Group) -> Markup:
    """The make rate of the players with the most deals, by seat from the dealer."""
    from ..present.charts import bar_chart

    places = POSITIONS.get(group.seats, tuple(f"seat {k}" for k in range(group.seats)))
    series = [(t.name, [None if (r := _place_rate(k)(t)) is None else round(100 * r, 1)
                        for k in range(len(places))]) for t in _charted(group)]
    return bar_chart("seats", f"seats-{group.variant}",
                     f"{group.variant}: make rate by seat from the dealer", places, series,
                     "trump made, % of deals", "seat from the dealer")


def _per_deal(cell: list[int] | None) -> float | None:
    return round(cell[0] / cell[1], 3) if cell and cell[1] else None


def points_chart(group: Group) -> Markup:
    """The points per deal of the players with the most deals, over time: on a time axis
    by date when every game is dated (by month past :data:`MONTHS_PAST` dates), else by
    group of games in play order."""
    from ..present.charts import category_chart, time_chart

    tallies = _charted(group)
    title = f"{group.variant}: points per deal"
    ident = f"points-{group.variant}"
    if group.dated:
        days = {d for t in tallies for d in t.by_date}
        months = len(days) > MONTHS_PAST

        def when(day: str) -> date:
            return date(int(day[:4]), int(day[5:7]), 1 if months else int(day[8:10]))

        series = []
        for t in tallies:
            merged: dict[date, list[int]] = {}
            for day, (points, deals) in t.by_date.items():
                cell = merged.setdefault(when(day), [0, 0])
                cell[0] += points
                cell[1] += deals
            series.append((t.name, [(d, v) for d, c in sorted(merged.items())
                                    if (v := _per_deal(c)) is not None]))
        return time_chart("points", ident, f"{title} by {'month' if months else 'date'}",
                          series, "points per deal",
                          every=_month if months else date.isoformat)
    buckets = sorted({b for t in tallies for b in t.by_order})
    w = group.width
    xs = [f"game {b * w + 1}" if w == 1 else f"games {b * w + 1}-{(b + 1) * w}"
          for b in buckets]
    return category_chart("points", ident, f"{title} in game order", xs,
                          [(t.name, [_per_deal(t.by_order.get(b)) for b in buckets])
                           for t in tallies], "points per deal")


def _month(day: date) -> str:
    return day.strftime("%Y-%m")


def lost_chart(group: Group) -> Markup:
    """The share of reviewed deals by tricks lost to play mistakes, for each side."""
    from ..present.charts import bar_chart

    tallies = [t for t in group.ordered(group.sides or group.players) if t.reviewed]
    tallies = tallies[:CHART_SERIES]
    most = max((k for t in tallies for k in t.lost_counts), default=0)
    series = [(t.name, [round(100 * t.lost_counts[k] / t.reviewed, 1) for k in range(most + 1)])
              for t in tallies]
    return bar_chart("lost", f"lost-{group.variant}",
                     f"{group.variant}: tricks lost to play mistakes in a deal",
                     [str(k) for k in range(most + 1)], series, "% of reviewed deals",
                     "tricks lost in the deal")


def _html_group(group: Group) -> dict[str, Any]:
    """What the page shows of a variant: its tables (each cell with its figure to sort
    by), the legend of its columns and its charts."""
    tables = []
    for kind, tallies in _kinds(group):
        for section in sections(group):
            tables.append({"kind": kind, "title": section.title, "columns": section.columns,
                           "rows": [(t.name, [(_shown(c, v := c.get(t)), "" if v is None
                                               else repr(_raw(v))) for c in section.columns])
                                    for t in tallies]})
    legend = {c.title: c.help for s in sections(group) for c in s.columns}
    charts = [(seat_chart(group), "Share of the deals at each seat in which the player made "
               f"trump ({', '.join(t.name for t in _charted(group))})."),
              (points_chart(group), "Points scored by the player's side per deal " + (
                  "on each date." if group.dated else "in each group of games, in the order "
                  "read."))]
    if any(t.reviewed for t in (*group.players.values(), *group.sides.values())):
        charts.append((lost_chart(group), "Share of the deals reviewed double-dummy by the "
                       "tricks that play mistakes cost in each."))
    return {"variant": group.variant, "anchor": f"variant-{group.variant}",
            "meta": f"{_plural(group.games, 'game')}, {_plural(group.deals, 'deal')}",
            "tables": tables, "legend": legend, "charts": charts}


def render_html(collector: Collector) -> str:
    """One self-contained page (no link, no font to fetch), the variant most games use
    first; a small script of the page sorts a table by the column clicked."""
    from ..present import render

    groups = sorted(collector.groups.values(), key=lambda g: -g.games)
    return render("stats.html", title="euchrelog statistics",
                  groups=[_html_group(g) for g in groups], names=NAME_HELP)


NAME_HELP = {"player": "the player's name, from the seat tags",
             "side": "the side's two players"}
"""What the first column of the tables holds."""


RENDERERS: dict[str, Callable[[Collector], str]] = {
    "text": render_text, "csv": render_csv, "json": render_json, "html": render_html,
}
"""Each output format of ``euchrelog stats`` and its renderer."""
