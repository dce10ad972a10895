"""The charts of the pages, drawn by pygal as self-contained SVG to inline in a page: no
script (pygal's own and its configuration are left out: ``js=[]`` and an XML filter), no
XML declaration, no comment, no external style; every series, label and title
:func:`~euchrelog.present.escape.neutral`. A chart over dates has a real time axis
(:class:`pygal.DateLine`): two games a day apart stand a day apart.

Each chart has a stable id (``chart-`` and the name the page gives it), so the same data
always give the same page, and a native tooltip (an SVG ``<title>``) on each point or bar
in place of pygal's scripted one.

>>> svg = category_chart("points", "points-1", "p", ["start", "round 1"], [("Ann", [0, 3])],
...                      "points")
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" id="chart-points-1"')
True
>>> "<script" in svg or "<!--" in svg
False
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from datetime import date
from typing import Any
from xml.etree import ElementTree

import pygal
from pygal.style import Style

from .escape import Markup, neutral

# pygal puts a finder of its map plugins (pygal.maps.*) on sys.meta_path, of the old kind
# (no find_spec), which tools that ask every finder for a spec stumble on (pytest's
# importlib mode does); the charts draw no map, so it is taken off again.
sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, pygal.PluginImportFixer)]

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#17becf", "#bcbd22", "#7f7f7f", "#393b79", "#ad494a")
"""The colours of the series, in order."""

STYLE = Style(
    background="#ffffff", plot_background="#ffffff", foreground="#1b1b1b",
    foreground_strong="#1b1b1b", foreground_subtle="#666666", opacity=".85",
    opacity_hover="1", colors=PALETTE, transition="0ms", stroke_width="2",
    font_family='system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    label_font_size=12, major_label_font_size=12, legend_font_size=13, title_font_size=15,
    value_font_size=12, tooltip_font_size=12, guide_stroke_color="#d0d0d0",
    major_guide_stroke_color="#b0b0b0", guide_stroke_dasharray="1,0",
    major_guide_stroke_dasharray="1,0",
)
"""The look of every chart: the pages' font and colours."""

Values = Sequence[float | None]
"""A series' value at each point (``None``: no value there)."""

_SIZE = {"width": 860, "height": 420}
_LINE = {"linejoin": "round"}
_DASHED = {"linejoin": "round", "dasharray": "6, 4"}


def _svg_tag(element: ElementTree.Element) -> str:
    return element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""


def _tidy(root: ElementTree.Element, names: Sequence[str]) -> ElementTree.Element:
    """Leaves out pygal's scripts, comments, scripted tooltip and repeated ids; names each
    drawn series (``data-name``) and gives each of its points or bars a native tooltip
    from the values pygal describes it with."""
    for parent in list(root.iter()):
        for child in list(parent):
            tag = _svg_tag(child)
            if (not tag or tag == "script"
                    or (tag == "g" and "tooltip-overlay" in child.get("class", ""))):
                parent.remove(child)
            elif child.get("id", "").startswith("activate-serie"):
                del child.attrib["id"]
    for series in root.iter():
        classes = series.get("class", "").split()
        index = next((int(c[6:]) for c in classes if c[:6] == "serie-" and c[6:].isdigit()),
                     None)
        if "series" not in classes or index is None or index >= len(names) or not len(series):
            continue
        name = names[index]
        series.set("data-name", name)
        for point in series.iter():
            descs = {(d.get("class") or "value").split()[0]: d.text or "" for d in point
                     if _svg_tag(d) == "desc"}
            if "value" in descs:
                where = descs.get("x_label", "")
                tip = ElementTree.SubElement(point, "title")
                tip.text = f"{name}, {where}: {descs['value']}" if where else (
                    f"{name}: {descs['value']}")
    return root


def _chart(pygal_class: type[Any], kind: str, ident: str, title: str,
           series: Sequence[tuple[str, Any]], **config: Any) -> Markup:
    """The chart of ``pygal_class`` with these series, of classes ``chart`` and ``kind``
    and id ``chart-`` + ``ident`` (letters, digits and ``-`` kept), its texts made
    neutral."""
    chart = pygal_class(style=STYLE, js=[], disable_xml_declaration=True, explicit_size=True,
                        classes=["chart", kind], title=neutral(title), legend_at_bottom=True,
                        legend_at_bottom_columns=2, truncate_legend=-1, truncate_label=-1,
                        **{**_SIZE, **config})
    chart.uuid = re.sub(r"[^A-Za-z0-9-]+", "-", ident)
    names = [neutral(who) for who, _ in series]
    lines = "stroke_style" in config
    for k, (label, (_, values)) in enumerate(zip(names, series, strict=True)):
        # (every other line dashed: partners' lines coincide)
        chart.add(label, values, **({"stroke_style": _DASHED} if lines and k % 2 else {}))
    chart.add_xml_filter(lambda root: _tidy(root, names))
    return Markup(chart.render(is_unicode=True))


def category_chart(kind: str, ident: str, title: str, xs: Sequence[str],
                   series: Sequence[tuple[str, Values]], label: str) -> Markup:
    """A line per series over the categories ``xs`` (rounds, groups of games)."""
    return _chart(pygal.Line, kind, ident, title, series, stroke_style=_LINE,
                  x_labels=[neutral(x) for x in xs], y_title=neutral(label),
                  x_label_rotation=0 if len(xs) <= 12 else 30,
                  show_minor_x_labels=len(xs) <= 16, x_labels_major_every=max(1, len(xs) // 8))


def time_chart(kind: str, ident: str, title: str,
               series: Sequence[tuple[str, Sequence[tuple[date, float]]]], label: str,
               every: Callable[[date], str] = date.isoformat) -> Markup:
    """A line per series over dates, on a time axis (each point at its date; ``every``
    writes a date on the axis)."""
    return _chart(pygal.DateLine, kind, ident, title, series, stroke_style=_LINE,
                  y_title=neutral(label), x_value_formatter=every, x_label_rotation=20)


def bar_chart(kind: str, ident: str, title: str, groups: Sequence[str],
              series: Sequence[tuple[str, Values]], label: str, xlabel: str) -> Markup:
    """Grouped bars: for each of ``groups`` a bar per series (``None``: no bar)."""
    return _chart(pygal.Bar, kind, ident, title, series, x_labels=[neutral(g) for g in groups],
                  y_title=neutral(label), x_title=neutral(xlabel))
