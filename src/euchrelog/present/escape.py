r"""The one escaper of every page: text is HTML-escaped, and the characters a reader's
screen would obey rather than show (the controls, and the marks that reorder text, such as
U+202E RIGHT-TO-LEFT OVERRIDE and U+2066 LEFT-TO-RIGHT ISOLATE) are written as visible
escapes, as the terminal shows them (:func:`~euchrelog.report.visible`: one rule for
both). Data for a page's script gets the same rule inside its strings.

>>> print(escape('<b>"Ann"</b> & \u202eCo\x1b'))
&lt;b&gt;&#34;Ann&#34;&lt;/b&gt; &amp; \u202eCo\x1b
>>> print(script_json({"name": "</script>\u2066"}))
{"name":"\u003c/script\u003e\\u2066"}
"""

from __future__ import annotations

import json
import re
from typing import Any

from markupsafe import Markup
from markupsafe import escape as markup_escape

from ..report import CONTROL, visible

__all__ = ["Markup", "escape", "neutral", "script_json"]

neutral = visible
"""Text with its control and bidirectional characters written as visible escapes."""


def escape(value: object) -> Markup:
    """``value`` as page text: :func:`neutral`, then HTML-escaped (quotes too, so that it
    may stand in an attribute). Markup (an object with ``__html__``) is left as it is."""
    if hasattr(value, "__html__"):
        return Markup(value)
    return markup_escape(visible(str(value)))


_IN_JSON = re.compile(r"\\(?:u[0-9a-fA-F]{4}|.)|" + CONTROL.pattern)
"""In JSON text: an escape (read left to right, so ``\\\\`` is one), or a raw character
the rule writes as an escape."""

_SHORT = {"b": "\b", "f": "\f", "r": "\r"}

_MARKUP = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026"}


def _neutral_token(match: re.Match[str]) -> str:
    token = match.group()
    if token[0] != "\\":
        char = token
    elif token[1] == "u":
        char = chr(int(token[2:], 16))
    else:
        char = _SHORT.get(token[1], "")
    if not char or not CONTROL.match(char):
        return token
    return json.dumps(visible(char))[1:-1]


def script_json(data: Any) -> Markup:
    """``data`` as JSON for a ``<script type="application/json">`` element: every string
    :func:`neutral` (so a script that shows it with ``textContent`` shows the escapes),
    and ``<``, ``>`` and ``&`` written as JSON escapes, so that no string can close the
    element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    if "\\" in text or CONTROL.search(text):
        text = _IN_JSON.sub(_neutral_token, text)
    return Markup(text.translate(_MARKUP))
