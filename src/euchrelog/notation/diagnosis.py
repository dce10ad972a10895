"""Diagnosis of syntax errors: the first wrong word of a line the grammar refused, and what
was expected there, in words.

The parser (:mod:`.parser`) turns Lark's exceptions into a
:class:`~euchrelog.errors.NotationError` with the words and the caret display made here;
:func:`diagnose_line` walks a refused line word by word to place its error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..loci import CARD_TEXT
from ..rules.tags import TAG_NAME
from .kinds import WORDS
from .lines import text_lines
from .patterns import ANY_CASE, TAG_RE

_TERMINAL_WORDS = {
    **WORDS,
    "COMMENT": "a comment",
    "_NL": "the end of the line",
    "$END": "the end of the game",
}
"""What each terminal is, in words: each kind of line's (:mod:`.kinds`), and the rest."""


def expected_words(expected: Iterable[str]) -> str:
    """What the parser expected (its terminals' names), in words."""
    names = sorted(set(expected) - {"COMMENT", "_NL", "$END"})
    if "HANDS" in names:
        return "a line of the deal (hands, up, bid, a trick, points ...), a new deal or the result"
    if names == ["TAG"]:
        return "the tags of a new game: this game has ended"
    words = [_TERMINAL_WORDS.get(n, n.lower()) for n in names]
    if not words:
        return "the end of the line"
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]


def caret_context(text: str, line: int, column: int) -> str:
    """Line ``line`` of ``text`` (1-based), with a caret under ``column``."""
    lines = text_lines(text)
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    src = src.replace("\t", " ")
    return f"{src}\n{' ' * (column - 1)}^"


_WORD_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"?|[^\s,:"]+|[,:]')
_SEAT_WORDS = {"n", "e", "s", "w"}
_TRUMP_OK = re.compile(r"(?i:[CDHS\u2663\u2666\u2665\u2660]|NT)")
_CARD_OK = re.compile(CARD_TEXT, ANY_CASE)
_INT_OK = re.compile(r"[0-9]{1,6}")
_SIGNED_OK = re.compile(r"-?[0-9]{1,6}")
_SIDE_OK = re.compile(r"(?i:NS|EW|[NESW])")


class _DiagnosisError(Exception):
    def __init__(self, column: int, message: str) -> None:
        self.column = column
        self.message = message


class _Cursor:
    """Walks the words of one line, failing with the column of the first wrong word."""

    def __init__(self, text: str, start: int = 0) -> None:
        self.words = [(m.start(), m.group()) for m in _WORD_RE.finditer(text, start)
                      if not m.group().startswith("#")]
        cut = text.find("#", start)
        if cut >= 0:
            self.words = [(p, w) for p, w in self.words if p < cut]
        self.i = 0
        self.end = len(text.rstrip())

    def peek(self) -> str | None:
        return self.words[self.i][1] if self.i < len(self.words) else None

    def fail(self, what: str) -> _DiagnosisError:
        if self.i < len(self.words):
            pos, word = self.words[self.i]
            return _DiagnosisError(pos, f"expected {what}, found {word!r}")
        return _DiagnosisError(self.end, f"expected {what} before the end of the line")

    def take(self, pattern: re.Pattern[str], what: str) -> str:
        word = self.peek()
        if word is None or not pattern.fullmatch(word):
            raise self.fail(what)
        self.i += 1
        return word

    def word(self, *options: str) -> str:
        word = self.peek()
        if word is None or word.lower() not in options:
            raise self.fail(" or ".join(repr(o) for o in options))
        self.i += 1
        return word.lower()

    def done(self) -> None:
        if self.peek() is not None:
            raise self.fail("the end of the line")


_SEAT_P = re.compile(r"(?i:[NESW])")
_A_CARD = "a card like 9H, TS or ??"
_A_SEAT = "a seat like N"


def _cards(cur: _Cursor, stop: re.Pattern[str] | None = None) -> None:
    cur.take(_CARD_OK, _A_CARD)
    while cur.peek() is not None:
        word = cur.peek() or ""
        if stop is not None and stop.fullmatch(word):
            return
        cur.take(_CARD_OK, _A_CARD + (" or a seat like N" if stop is not None else ""))


def _sides(cur: _Cursor, stop: str) -> int:
    n = 0
    while cur.peek() is not None and (cur.peek() or "").lower() != stop:
        cur.take(_SIDE_OK, f"a side like NS or {stop!r}")
        cur.take(_SIGNED_OK, "a number of points")
        n += 1
    return n


def _diagnose(text: str, start: int) -> None:
    cur = _Cursor(text, start)
    first = (cur.peek() or "").lower()
    if first.startswith("["):
        pos = start
        while pos < len(text) and text[pos] not in "#\r\n":
            m = TAG_RE.match(text, pos)
            if m is None:
                if text[pos] == "[":
                    _diagnose_tag(text, pos)
                raise _DiagnosisError(pos, 'expected another tag or the end of the line, like '
                                      '[Event "Club night"]: a name, a quoted value and a '
                                      "closing ]")
            pos = m.end()
            while pos < len(text) and text[pos] in " \t":
                pos += 1
        raise _DiagnosisError(start, "a tag line cannot stand here: tags come before the deals")
    if first == "deal":
        cur.i += 1
        cur.take(_INT_OK, "a deal number")
        cur.word("dealer")
        cur.take(_SEAT_P, _A_SEAT)
    elif first == "start":
        cur.i += 1
        if cur.word("deal", "total") == "deal":
            cur.take(_INT_OK, "a deal number")
            if cur.peek() is not None:
                cur.word("total")
                if _sides(cur, "") == 0:
                    raise cur.fail("a side like NS and its total")
        elif _sides(cur, "") == 0:
            raise cur.fail("a side like NS and its total")
    elif first == "hands":
        cur.i += 1
        while True:
            cur.take(_SEAT_P, _A_SEAT)
            cur.take(re.compile(":"), "':' after the seat")
            _cards(cur, _SEAT_P)
            if cur.peek() is None:
                break
    elif first == "up":
        cur.i += 1
        cur.take(_CARD_OK, _A_CARD)
        if cur.peek() is not None:
            cur.word("kitty")
            _cards(cur)
    elif first == "bid":
        cur.i += 1
        while True:
            cur.take(_SEAT_P, _A_SEAT)
            if (cur.peek() or "").lower() == "swap":
                cur.i += 1
                if cur.peek() in (None, ","):
                    if cur.peek() == ",":
                        cur.i += 1
                    if cur.peek() is None:
                        break
                    continue
            if _INT_OK.fullmatch(cur.peek() or ""):
                cur.i += 1
            else:
                act = cur.word("pass", "order", "call", "moon")
                if act == "call":
                    cur.take(_TRUMP_OK, "a suit: C, D, H or S (or NT)")
            if cur.peek() == ",":
                cur.i += 1
            if cur.peek() is None:
                break
    elif first in ("dummy", "ghost"):
        cur.i += 1
        if cur.peek() == ":":
            cur.i += 1
        _cards(cur)
    elif first in _SEAT_WORDS:
        cur.i += 1
        act = cur.word("takes", "discards", "declines", "merges")
        if act == "merges" and cur.peek() is not None:
            cur.word("keeps")
            _cards(cur)
        if act == "takes":
            cur.take(_CARD_OK, _A_CARD)
            act = cur.word("discards")
        if act == "discards":
            cur.take(_CARD_OK, _A_CARD)
    elif first in ("alone", "defend"):
        cur.i += 1
        cur.take(_SEAT_P, _A_SEAT)
    elif re.fullmatch(r"[0-9]+\.?", first):
        if not first.endswith("."):
            raise cur.fail("a trick number with a dot, like '1.'")
        cur.i += 1
        cur.take(_SEAT_P, _A_SEAT)
        while True:
            cur.take(re.compile(":"), "':' after the seat")
            cur.take(_CARD_OK, _A_CARD)
            if cur.peek() is None:
                break
            cur.take(_SEAT_P, _A_SEAT)
    elif first == "renege":
        cur.i += 1
        cur.take(_SEAT_P, _A_SEAT)
        if cur.peek() is not None:
            cur.word("trick")
            cur.take(_INT_OK, "a trick number")
    elif first == "penalty":
        cur.i += 1
        cur.take(_SIDE_OK, "the player or side charged, like N or EW")
        cur.take(_INT_OK, "the points of the penalty")
        if cur.peek() is None:
            raise cur.fail("the reason of the penalty (like 'table talk')")
        if (cur.peek() or "").startswith('"'):
            raise cur.fail('a reason in double quotes that ends the line (a quote inside it '
                           'is written \\"), or a reason without quotes')
        return
    elif first == "trump":
        cur.i += 1
        cur.take(_TRUMP_OK, "a suit: C, D, H or S (or NT)")
        cur.word("maker")
        cur.take(_SEAT_P, _A_SEAT)
        if (cur.peek() or "").lower() == "alone":
            cur.i += 1
        if (cur.peek() or "").lower() == "defend":
            cur.i += 1
            cur.take(_SEAT_P, _A_SEAT)
        if (cur.peek() or "").lower() == "bid":
            cur.i += 1
            if (cur.peek() or "").lower() == "moon":
                cur.i += 1
            else:
                cur.take(_INT_OK, "a trick bid like 4 or moon")
        if cur.peek() is not None:
            cur.word("tricks")
            if _SEAT_P.fullmatch(cur.peek() or ""):
                while cur.peek() is not None:
                    cur.take(_SEAT_P, _A_SEAT)
                    cur.take(_INT_OK, "a number of tricks")
            else:
                cur.take(_INT_OK, "a number of tricks, or each seat's tricks like 'N 2 E 1'")
    elif first == "thrown":
        cur.i += 1
        cur.word("in")
    elif first in ("points", "total"):
        cur.i += 1
        if first == "points":
            if not _sides(cur, "total"):
                raise cur.fail("a side like NS and its points")
            if cur.peek() is not None:
                cur.word("total")
        if _sides(cur, "") == 0 and first == "total":
            raise cur.fail("a side like NS and its total")
    elif first == "result":
        cur.i += 1
        _sides(cur, "winner")
        if cur.peek() is not None:
            cur.word("winner")
            cur.take(_SIDE_OK, "the winning side, like NS")
    elif first == "unfinished":
        cur.i += 1
    else:
        raise cur.fail("a line such as deal, hands, up, bid, a trick like '1. N: 9H', "
                       "points or result")
    cur.done()


_TAG_NAME_RE = re.compile(TAG_NAME)
_TAG_VALUE_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _diagnose_tag(text: str, pos: int) -> None:
    """_Places the first wrong character of a tag that starts at ``pos``."""
    name = _TAG_NAME_RE.match(text, pos + 1)
    if name is None:
        raise _DiagnosisError(pos + 1, "expected a tag name (a letter, then letters, digits, "
                                       "_ + or -) after [")
    at = name.end()
    while at < len(text) and text[at] in " \t":
        at += 1
    value = _TAG_VALUE_RE.match(text, at)
    if value is None:
        what = ("a closing \" (the value runs to the end of the line)"
                if text[at:at + 1] == '"' else 'the value in double quotes, like "Club night"')
        raise _DiagnosisError(at, f"expected {what}")
    at = value.end()
    while at < len(text) and text[at] in " \t":
        at += 1
    found = text[at:at + 1]
    hint = ' (a quote inside a value is written \\")' if found not in ("", "\n", "\r") else ""
    raise _DiagnosisError(at, f"expected ] to close the tag{hint}")


def diagnose_line(text: str, start: int = 0) -> tuple[int, str]:
    """Finds the first wrong word of a line the grammar refused: its 0-based column and
    what was expected there, in words.

    >>> diagnose_line("  1. N: 9H E: 1H")
    (14, "expected a card like 9H, TS or ??, found '1H'")
    """
    while start < len(text) and text[start] in " \t":
        start += 1
    try:
        _diagnose(text, start)
    except _DiagnosisError as d:
        return d.column, d.message
    return start, "this line cannot stand here"

