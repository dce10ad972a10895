"""The one way out for pages: every HTML page of euchrelog (``view``, ``stats --format
html``, ``score --format html``, the pages of ``serve``) is written here.

- :mod:`.escape`: the one escaper (:func:`escape`: HTML, and the control and
  bidirectional characters shown as escapes, not obeyed; :func:`script_json` for the data
  a page's script reads);
- :mod:`.render`: the Jinja2 environment (autoescape, every ``{{ }}`` through
  :func:`escape`) and the templates of ``templates/``: one page shell, ``base.html``, and
  the standings table written once (``standings.html``), used by ``score`` and ``serve``;
- :mod:`.charts`: the charts, self-contained SVG drawn by pygal, dates on a time axis.
"""

from __future__ import annotations

from .escape import Markup, escape, neutral, script_json
from .render import ENVIRONMENT, chunks, render, write

__all__ = ["ENVIRONMENT", "Markup", "chunks", "escape", "neutral", "render", "script_json",
           "write"]
