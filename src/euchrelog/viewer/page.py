"""The viewer page: one self-contained HTML file (inline CSS, SVG cards drawn by a small
inline script, the frames as JSON data), with no network access and no external asset.

The data sits in ``<script type="application/json">`` with ``<``, ``>`` and ``&`` written
as ``\\u003c``, ``\\u003e`` and ``\\u0026``, so no name, tag or comment of a record can
close the element; the script writes every text with ``textContent``.

>>> page = render_page([], "a <b> & c")
>>> "<title>a &lt;b&gt; &amp; c</title>" in page
True
>>> embed_json({"name": "</script><img src=x>"})
'{"name":"\\\\u003c/script\\\\u003e\\\\u003cimg src=x\\\\u003e"}'
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from typing import Any

_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026",
            0x2028: "\\u2028", 0x2029: "\\u2029"}


def embed_json(data: Any) -> str:
    """``data`` as JSON that is safe inside an HTML ``<script>`` element."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(_ESCAPES)


@cache
def _asset(name: str) -> str:
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


_BODY = """\
<svg width="0" height="0" style="position:absolute" aria-hidden="true" focusable="false">
 <defs><pattern id="card-back" width="8" height="8" patternUnits="userSpaceOnUse"
  patternTransform="rotate(45)"><rect width="8" height="8" fill="#1d4e89"/>
  <rect width="4" height="8" fill="#2a64a8"/></pattern></defs></svg>
<header>
 <h1 id="title"></h1>
 <label>Game <select id="game-select" aria-label="game"></select></label>
 <p class="tags" id="tags"></p>
 <details id="game-comments" hidden><summary>Comments</summary><ul id="game-notes"></ul>
 </details>
</header>
<main>
 <section class="controls" aria-label="replay controls">
  <button type="button" id="first" aria-label="first step (Home)">&laquo;</button>
  <button type="button" id="prev" aria-label="previous step (left arrow)">&#x25C0;</button>
  <button type="button" id="next" aria-label="next step (right arrow)">&#x25B6;</button>
  <button type="button" id="last" aria-label="last step (End)">&raquo;</button>
  <input type="range" id="slider" min="0" max="0" value="0" aria-label="step">
  <span class="position" id="position" aria-hidden="true"></span>
  <select id="deal-select" aria-label="jump to deal (Page Up, Page Down)"></select>
  <span class="tricks" id="tricks" role="group"
   aria-label="jump to trick (up and down arrows)"></span>
  <select id="view-select" aria-label="whose cards to show"></select>
  <button type="button" id="print" aria-label="print the game, one deal a page">Print</button>
 </section>
 <section class="board" aria-label="the table">
  <div id="spot-top" class="seat spot-top"></div>
  <div id="spot-left" class="seat spot-left"></div>
  <div id="spot-right" class="seat spot-right"></div>
  <div id="spot-bottom" class="seat spot-bottom"></div>
  <div id="center" class="center"></div>
  <div id="contract" class="info corner-tl" aria-label="contract"></div>
  <div id="score" class="info corner-tr" aria-label="score"></div>
  <div id="bids" class="info corner-bl" aria-label="bidding"></div>
 </section>
 <aside class="side">
  <section class="panel" aria-label="this step">
   <p id="status" aria-live="polite"></p>
  </section>
  <section class="panel" id="notes-panel" aria-label="the record's comments" hidden>
   <h2>Comments</h2>
   <ul class="notes" id="notes"></ul>
  </section>
  <section class="panel" id="dd" aria-label="double-dummy review" hidden>
   <h2>Double dummy</h2>
   <div id="dd-body"></div>
  </section>
  <section class="panel" aria-label="findings">
   <h2>Findings</h2>
   <ul class="findings" id="findings"></ul>
  </section>
  <section class="panel" aria-label="keys">
   <h2>Keys</h2>
   <p class="empty">&larr; &rarr; step &middot; Home End first, last &middot; &uarr; &darr;
   trick &middot; Page Up, Page Down deal</p>
  </section>
 </aside>
 <section class="printout" id="printout" aria-hidden="true"></section>
</main>
<noscript><p>The viewer draws the game with a script; turn scripts on to see it.</p></noscript>
"""


def render_page(games: Sequence[dict[str, Any]], title: str) -> str:
    """The whole page for the games' data (see :func:`~euchrelog.viewer.frames.game_view`)."""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
        f"<title>{html.escape(title)}</title>\n<style>\n{_asset('viewer.css')}</style>\n"
        f"</head>\n<body>\n{_BODY}"
        "<script type=\"application/json\" id=\"euchrelog-data\">"
        f"{embed_json({'games': list(games)})}</script>\n"
        f"<script>\n{_asset('viewer.js')}</script>\n</body>\n</html>\n")
