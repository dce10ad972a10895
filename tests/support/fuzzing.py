"""The alphabets, strategies and properties of the fuzz suite, shared by tests/test_fuzz.py
and by ``fuzz/run.py`` for long runs.

Random text, random JSON and random mutations of real records (the samples and generated
games) are fed to the library and to the CLI. Whatever the input, the library raises only
its own error types, the checker reports instead of raising, the CLI exits 0, 1 or 2 and
never prints a traceback, and whatever reads cleanly survives the format and JSON round
trips: the property functions (``check_notation_text``, ``check_json_text``,
``check_cli_input``, ``check_module_input``, ...) assert it.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from euchrelog.check import GameCheck, check_chunk, check_text, notation_chunks
from euchrelog.cli import main
from euchrelog.cli.record import Console
from euchrelog.errors import EuchrelogError, NotationError, RecordError
from euchrelog.events import Entry, iter_entries, read_entries, score_events
from euchrelog.events.output import RENDERERS
from euchrelog.findings import CODES
from euchrelog.interop import ConversionError, check_converted, read_source
from euchrelog.interop.egn import dumps_egn
from euchrelog.kinds import head_of, is_history, is_json, kind_of
from euchrelog.models import Log
from euchrelog.notation import loads
from euchrelog.notation.jsonio import dumps_json, loads_json
from euchrelog.notation.writer import dumps, dumps_game
from euchrelog.replay import replay
from euchrelog.sources import given_lines
from strategies import VARIANT_NAMES, games

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_FILES = sorted((ROOT / "samples").rglob("*.euchre"))
SAMPLES: tuple[str, ...] = tuple(p.read_text(encoding="utf-8") for p in SAMPLE_FILES)
"""Every sample record, valid and invalid: the seeds of the mutations."""

LONG = 100_000
"""The length of the very long lines the mutations insert."""

TRACEBACK = "Traceback"
SCRATCH = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
"""Where the recorder's files go while fuzzed (memory: a save's fsync costs nothing)."""

FUZZ = settings(derandomize=True, deadline=None, database=None, max_examples=150,
                suppress_health_check=list(HealthCheck))
"""Every property runs derandomized: the same inputs on every run."""


# ---------------------------------------------------------------- alphabets and tokens

KEYWORDS = (
    "deal", "dealer", "hands", "up", "kitty", "bid", "pass", "order", "call", "moon", "swap",
    "takes", "discards", "declines", "merges", "keeps", "alone", "defend", "renege", "trick",
    "trump", "maker", "tricks", "thrown", "in", "points", "total", "result", "winner",
    "unfinished", "dummy", "ghost", "DEAL", "Hands", "UNFINISHED",
)
CARDS = ("9H", "TS", "10C", "JD", "QH", "KS", "AC", "7D", "8S", "JK", "??", "A♠", "10♥", "jk",
         "9h", "1H", "0S", "TX", "JKK", "???")
SEATS = ("N", "E", "S", "W", "NS", "EW", "n", "ew", "X")
TAGS = (
    '[Variant "four-hand"]', '[Variant "cutthroat"]', '[Variant "three-hand"]',
    '[Variant "ghost"]', '[Variant "two-hand"]', '[Variant "five-hand"]', '[Target "1"]',
    '[Target "0"]', '[Target "-5"]', '[Target "99999999999999999999"]', '[Deals "2"]',
    '[Deck "25"]', '[Deck "32"]', '[Deck "7"]', '[Seats "N S"]', '[Seats "NESW"]',
    '[Rules "stick-the-dealer"]', '[Rules "dummy=required lone-defender"]',
    '[Rules "failed-moon=-24 renege=0"]', '[Rules "target=٣"]', '[N "Ann"]', '[East "Bob"]',
    '[Event "a \\" b"]', '[X ""]', '[',
)
PUNCTUATION = (":", ",", ".", "[", "]", '"', "\\", "#", "-", "=", "(", "{", "}", "1.", "2.",
               "0.", "5.", "6.", "-1", "0", "3", "4", "6", "999999", "1234567", "٣")
SPACES = (" ", "  ", "\t", "\n", "\r\n", "\r", "\n\n", "\x0c", "\x0b", "\x85", "\u2028")
ODD_CHARS = ("\ufeff", "\x00", "\x1b", "\x7f", "\x1c", "\u00e9", "\u2663", "\u2666", "\u2665",
             "\u2660", "\U0001f0a1", "\u200b", "\u0301", "\udc80", "\udcff", "\ud800", "\uffff",
             "\u0660")
TOKENS: tuple[str, ...] = (*KEYWORDS, *CARDS, *SEATS, *TAGS, *PUNCTUATION, *SPACES, *ODD_CHARS)
"""Pieces of the notation and pieces of trouble, glued at random."""

CHARS = tuple(sorted({c for t in TOKENS for c in t}))

BAD_CARDS = ("1H", "", " ", "9", "H9", "JKK", "??x", "10♠", " 9h ", "jk", "JK ", "TT", "9Ⓗ",
             "\udc80", "0x9H", "9H9H", "??", "1O", "JK?", "♠A")


def _mixed_chars() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(CHARS), st.characters(),
                     st.characters(codec="ascii"), st.sampled_from(ODD_CHARS))


def raw_texts() -> st.SearchStrategy[str]:
    """Text over a mixed alphabet: notation characters, unicode, controls, surrogates."""
    return st.text(_mixed_chars(), max_size=300)


def token_texts() -> st.SearchStrategy[str]:
    """Notation tokens glued in random order."""
    return st.lists(st.sampled_from(TOKENS), max_size=80).map("".join)


ALL_CARDS = (*(r + s for r in "789TJQKA" for s in "CDHS"), "JK", "??")
_SEATS = "NESW"
_SIDES = ("NS", "EW", "N", "E", "S", "W")
_SUITS = "CDHS"

# ---------------------------------------------------------------- one source of choices

T = TypeVar("T")


class Source(Protocol):
    """Where the generators below take their choices from: a ``random.Random`` (the long
    runs of ``fuzz/run.py``) or Hypothesis (:class:`Drawn`, the suite), so that both try
    the same inputs, written once."""

    def randint(self, a: int, b: int) -> int: ...  # pragma: no cover - a protocol

    def choice(self, seq: Sequence[T]) -> T: ...  # pragma: no cover - a protocol

    def random(self) -> float: ...  # pragma: no cover - a protocol


class Drawn:
    """A :class:`Source` that draws its choices from Hypothesis."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def randint(self, a: int, b: int) -> int:
        return self.draw(st.integers(a, b))

    def choice(self, seq: Sequence[T]) -> T:
        return self.draw(st.sampled_from(seq))

    def random(self) -> float:
        return self.draw(st.floats(0, 1, exclude_max=True))


def size(src: Source, high: int) -> int:
    """A size from 0 to ``high``, small ones more often."""
    return int(high * src.random() ** 2 + 0.5)


_RANGES = ((0x20, 0x7E), (0x00, 0x1F), (0x80, 0x24F), (0x300, 0x36F), (0x2000, 0x206F),
           (0x2660, 0x2667), (0xD800, 0xDFFF), (0xE000, 0xFFFF), (0x10000, 0x10FFFF))


def mixed_char(src: Source) -> str:
    """One character of the mixed alphabet: the notation's characters, any code point
    (surrogates included), ASCII, and the odd characters above."""
    kind = src.randint(0, 3)
    if kind == 0:
        return src.choice(CHARS)
    if kind == 1:
        low, high = src.choice(_RANGES)
        return chr(src.randint(low, high))
    if kind == 2:
        return chr(src.randint(0, 127))
    return src.choice(ODD_CHARS)


def mixed_text(src: Source, high: int) -> str:
    """Text over the mixed alphabet, up to ``high`` characters."""
    return "".join(mixed_char(src) for _ in range(size(src, high)))


def bytes_text(src: Source) -> str:
    """Random bytes read as UTF-8 with the bad ones escaped or replaced."""
    data = bytes(src.randint(0, 255) for _ in range(size(src, 24)))
    return data.decode("utf-8", src.choice(("surrogateescape", "replace")))


# ---------------------------------------------------------------- notation


def line_text(src: Source) -> str:
    """Records made of lines that start with a keyword: closer to the grammar, so the
    parser and the replay go deeper than on raw text."""
    lines = [src.choice(TAGS) for _ in range(src.randint(0, 4))]
    starts = (*KEYWORDS, *(f"{n}." for n in range(8)), *SEATS, "#")
    pools: tuple[Sequence[str], ...] = (CARDS, SEATS, KEYWORDS, PUNCTUATION)
    for _ in range(src.randint(0, 24)):
        indent = src.choice(("", "  ", "\t", " "))
        rest = []
        for _ in range(size(src, 12)):
            pool = src.randint(0, 4)
            rest.append(str(src.randint(-3, 12)) if pool == 4 else src.choice(pools[pool]))
        sep = src.choice((" ", "  ", ", ", "\t", ": "))
        lines.append(indent + sep.join([src.choice(starts), *rest]))
    end = src.choice(("\n", "\r\n", "\n\n"))
    return end.join(lines) + src.choice(("", end))


def _cards(src: Source, low: int = 1, high: int = 7) -> str:
    return " ".join(src.choice(ALL_CARDS) for _ in range(src.randint(low, high)))


def _sides(src: Source) -> str:
    return " ".join(f"{src.choice(_SIDES)} {src.randint(-30, 40)}"
                    for _ in range(src.randint(1, 4)))


def _bid(src: Source) -> str:
    act = src.choice(("pass", "pass", "order", "call", "moon", "number", "swap", "swap number"))
    if act == "call":
        act = f"call {src.choice(_SUITS)}"
    elif act == "number":
        act = str(src.randint(0, 8))
    elif act == "swap number":
        act = f"swap {src.randint(2, 7)}"
    return f"{src.choice(_SEATS)} {act}"


def _sheet(src: Source) -> str:
    if src.randint(0, 4) == 0:
        return "thrown in"
    text = f"trump {src.choice(_SUITS)} maker {src.choice(_SEATS)}"
    if src.random() < 0.5:
        text += " alone"
    if src.randint(0, 3) == 0:
        text += f" defend {src.choice(_SEATS)}"
    if src.randint(0, 3) == 0:
        text += f" bid {src.choice(('3', '4', '5', '6', 'moon', '0', '9'))}"
    if src.random() < 0.5:
        if src.random() < 0.5:
            text += f" tricks {src.randint(0, 7)}"
        else:
            text += " tricks " + " ".join(f"{src.choice(_SEATS)} {src.randint(0, 7)}"
                                          for _ in range(src.randint(1, 4)))
    return text


def _body_line(src: Source, kind: str, trick: int) -> str:
    seat = src.choice(_SEATS)
    if kind == "hands":
        return "hands " + "  ".join(f"{src.choice(_SEATS)}: {_cards(src)}"
                                    for _ in range(src.randint(1, 4)))
    if kind == "extra":
        return f"{src.choice(('ghost', 'dummy', 'dummy:'))} {_cards(src)}"
    if kind == "up":
        kitty = f"  kitty {_cards(src, 1, 16)}" if src.random() < 0.5 else ""
        return f"up {src.choice(ALL_CARDS)}{kitty}"
    if kind == "bid":
        return "bid " + ", ".join(_bid(src) for _ in range(src.randint(1, 6)))
    if kind == "exchange":
        card = src.choice(ALL_CARDS)
        return src.choice((f"{seat} takes {card} discards {_cards(src, 1, 1)}",
                           f"{seat} discards {card}", f"{seat} declines"))
    if kind == "merge":
        keeps = f" keeps {_cards(src, 1, 6)}" if src.random() < 0.5 else ""
        return f"{seat} merges{keeps}"
    if kind == "declare":
        return f"{src.choice(('alone', 'defend'))} {seat}"
    if kind == "trick":
        plays = "  ".join(f"{src.choice(_SEATS)}: {src.choice(ALL_CARDS)}"
                          for _ in range(src.randint(1, 5)))
        number = trick if src.randint(0, 5) else src.randint(1, 9)
        return f"{number}. {plays}"
    if kind == "claim":
        at = f" trick {src.randint(1, 7)}" if src.random() < 0.5 else ""
        return f"renege {seat}{at}"
    if kind == "sheet":
        return _sheet(src)
    total = f"  total {_sides(src)}" if src.random() < 0.5 else ""
    return src.choice((f"points {_sides(src)}{total}", f"total {_sides(src)}"))


BODY_KINDS = ("hands", "extra", "up", "bid", "exchange", "merge", "declare", "sheet", "trick",
              "claim", "score")
"""The lines of a deal, in the order the parser allows (tricks after the others)."""


def grammar_text(src: Source) -> str:
    """Records that follow the grammar, with random seats, cards, bids and numbers: they
    get past the parser, so the replay engine sees every odd combination."""
    lines = [src.choice(TAGS[:-1]) for _ in range(src.randint(0, 5))]
    if not lines or src.randint(0, 3) == 0:
        lines.insert(0, f'[Variant "{src.choice(VARIANT_NAMES)}"]')
    for d in range(1, src.randint(1, 4) + 1):
        number = d if src.randint(0, 5) else src.randint(1, 9)
        lines += ["", f"deal {number} dealer {src.choice(_SEATS)}"]
        kinds = sorted((src.choice(BODY_KINDS) for _ in range(size(src, 14))),
                       key=BODY_KINDS.index)
        trick = 0
        for kind in kinds:
            trick += kind == "trick"
            lines.append("  " + _body_line(src, kind, trick))
    end = src.choice(("", "unfinished", "result", "result NS 10 EW 3 winner NS"))
    if end == "result" and src.random() < 0.5:
        end = f"result {_sides(src)} winner {src.choice(_SIDES)}"
    lines += ["", end] if end else []
    return "\n".join(lines) + "\n"


@st.composite
def line_texts(draw: st.DrawFn) -> str:
    """:func:`line_text`, drawn by Hypothesis."""
    return line_text(Drawn(draw))


@st.composite
def grammar_texts(draw: st.DrawFn) -> str:
    """:func:`grammar_text`, drawn by Hypothesis."""
    return grammar_text(Drawn(draw))


# ---------------------------------------------------------------- mutations of records

_SPLIT_RE = re.compile(r"(\s+)")


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _tokens(text: str) -> list[str]:
    return _SPLIT_RE.split(text)


def _at(src: Source, items: Sequence[Any]) -> int:
    return src.randint(0, max(len(items) - 1, 0))


def _delete_line(src: Source, text: str) -> str:
    lines = _lines(text)
    del lines[_at(src, lines)]
    return "\n".join(lines)


def _duplicate_line(src: Source, text: str) -> str:
    lines = _lines(text)
    i = _at(src, lines)
    lines.insert(_at(src, lines), lines[i])
    return "\n".join(lines)


def _swap_lines(src: Source, text: str) -> str:
    lines = _lines(text)
    i, j = _at(src, lines), _at(src, lines)
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _delete_token(src: Source, text: str) -> str:
    tokens = _tokens(text)
    del tokens[_at(src, tokens)]
    return "".join(tokens)


def _duplicate_token(src: Source, text: str) -> str:
    tokens = _tokens(text)
    i = _at(src, tokens)
    tokens.insert(_at(src, tokens), tokens[i] + " ")
    return "".join(tokens)


def _swap_tokens(src: Source, text: str) -> str:
    tokens = _tokens(text)
    i, j = _at(src, tokens), _at(src, tokens)
    tokens[i], tokens[j] = tokens[j], tokens[i]
    return "".join(tokens)


def _replace_token(src: Source, text: str) -> str:
    tokens = _tokens(text)
    tokens[_at(src, tokens)] = src.choice(TOKENS)
    return "".join(tokens)


def _truncate(src: Source, text: str) -> str:
    return text[: src.randint(0, len(text))]


def _insert(src: Source, text: str) -> str:
    at = src.randint(0, len(text))
    kind = src.randint(0, 2)
    junk = (bytes_text(src) if kind == 0 else mixed_text(src, 8) if kind == 1
            else src.choice(TOKENS))
    return text[:at] + junk + text[at:]


def _line_ends(src: Source, text: str) -> str:
    return text.replace("\n", src.choice(("\r\n", "\r", "\n\r", "\r\r\n", "\x85", "\u2028",
                                          "\x0b")))


def _tabs(src: Source, text: str) -> str:
    return text.replace(src.choice(("  ", " ")), src.choice(("\t", " \t", "\x0c", "\u00a0")))


def _case(src: Source, text: str) -> str:
    return src.choice((str.upper, str.lower, str.swapcase))(text)


def _bom(src: Source, text: str) -> str:
    at = src.choice((0, 0, len(text) // 2))
    return text[:at] + "\ufeff" + text[at:]


def _long_line(src: Source) -> str:
    unit = src.choice(("9H ", "TS  ", "10C ", "?? ", "N: 9H ", "NS 1 ", "N pass, ", "a", "#",
                       "9", " ", "\t", "JK", "\\\""))
    head = src.choice(("", "  hands N: ", "  1. ", "  bid ", "  points ", "# ", '[Event "',
                       "  up 9H  kitty ", "result ", "  ghost "))
    return head + unit * (LONG // len(unit)) + src.choice(("", "XX", "9", '"]', " N:"))


def long_line(src: Source, text: str) -> str:
    """A line of 100000 characters of card-like junk inserted."""
    lines = _lines(text)
    lines.insert(_at(src, lines), _long_line(src))
    return "\n".join(lines)


def repeat_tags(src: Source, text: str) -> str:
    """A tag repeated 2 to 2000 times."""
    block = "\n".join([src.choice(TAGS[:-1])] * src.randint(2, 2000))
    at = src.choice((0, text.find("\ndeal") + 1, len(text)))
    return text[:at] + block + "\n" + text[at:]


Mutation = Callable[[Source, str], str]
CHEAP: tuple[Mutation, ...] = (
    _delete_line, _duplicate_line, _swap_lines, _delete_token, _duplicate_token, _swap_tokens,
    _replace_token, _replace_token, _truncate, _insert, _insert, _line_ends, _tabs, _case,
    _bom,
)
"""The mutations that keep a record about its size."""
MUTATIONS: tuple[Mutation, ...] = (*CHEAP, long_line, repeat_tags)
"""Every mutation."""


def mutate(src: Source, text: str, low: int = 1, high: int = 4,
           mutations: Sequence[Mutation] = CHEAP) -> str:
    """``low`` to ``high`` of ``mutations`` (by default the cheap ones), one after another."""
    for _ in range(src.randint(low, high)):
        text = src.choice(mutations)(src, text)
    return text


@st.composite
def mutated_records(draw: st.DrawFn, seeds: st.SearchStrategy[str] | None = None) -> str:
    """A real record (a sample or a generated game) with one to four random mutations."""
    if seeds is None:
        seeds = st.one_of(st.sampled_from(SAMPLES),
                          games(details=("full", "play-only", "score-sheet", "unknown-cards"))
                          .map(dumps_game))
    return mutate(Drawn(draw), draw(seeds), mutations=MUTATIONS)


def notation_texts() -> st.SearchStrategy[str]:
    """Every kind of notation input: raw text, tokens, lines, records that follow the
    grammar, and mutated records."""
    return st.one_of(raw_texts(), token_texts(), line_texts(), grammar_texts(),
                     grammar_texts(), mutated_records(), mutated_records())


# ---------------------------------------------------------------- JSON inputs

JSON_KEYS = (
    "format", "version", "games", "comments", "tags", "deals", "end", "after", "name", "value",
    "number", "dealer", "hands", "cards", "up", "card", "kitty", "bidding", "bids", "act",
    "seat", "suit", "tricks", "exchange", "takes", "upcard", "discard", "declarations", "keeps",
    "sheet", "thrown", "trump", "maker", "alone", "defend", "bid", "taken", "plays", "claims",
    "trick", "score", "points", "total", "scores", "winner", "before", "note", "extra", "kind",
)


def json_values() -> st.SearchStrategy[Any]:
    """Any JSON value, with the schema's keys and values among the random ones."""
    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(), st.integers(-2, 10), st.floats(),
        st.text(_mixed_chars(), max_size=12), st.sampled_from(CARDS), st.sampled_from(SEATS),
        st.sampled_from(("euchrelog", "pass", "order", "call", "bid", "swap", "merge", "alone",
                         "defend", "result", "unfinished", "takes", "declines", "dummy")))
    keys = st.one_of(st.sampled_from(JSON_KEYS), st.text(max_size=6))

    def nest(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.one_of(st.lists(children, max_size=5),
                         st.dictionaries(keys, children, max_size=6))

    return st.recursive(scalars, nest, max_leaves=30)


def _paths(data: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*at, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, (*at, i))


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


@st.composite
def mutated_game_json(draw: st.DrawFn) -> str:
    """The JSON form of a generated game with one to three values changed: a value of
    another type, a key deleted, an unknown key, a bad card, a number out of range."""
    game = draw(games(details=("full", "play-only", "score-sheet", "unknown-cards")))
    data: Any = json.loads(dumps_json(Log(games=(game,))))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(data))
        path = draw(st.sampled_from(paths[1:] or paths))
        op = draw(st.sampled_from(("type", "delete", "unknown", "card", "number", "dup")))
        if not path:
            data = draw(json_values())
            continue
        parent, key = _get(data, path[:-1]), path[-1]
        if op == "type":
            parent[key] = draw(json_values())
        elif op == "delete":
            del parent[key]
        elif op == "unknown":
            target = parent[key] if isinstance(parent[key], dict) else parent
            if isinstance(target, dict):
                target[draw(st.sampled_from(("zzz", "Card", "act", "", "games")))] = \
                    draw(json_values())
        elif op == "card":
            parent[key] = draw(st.sampled_from(BAD_CARDS))
        elif op == "number":
            parent[key] = draw(st.sampled_from((-1, 0, 7, 10**30, -(2**63), 2**64, 1.5,
                                                float("inf"), float("nan"))))
        elif isinstance(parent, list):
            parent.insert(int(key), parent[key])
    form = draw(st.sampled_from(("document", "compact", "lines", "ascii")))
    if form == "lines" and isinstance(data, dict) and isinstance(data.get("games"), list):
        return "".join(json.dumps(g) + "\n" for g in data["games"])
    text = json.dumps(data, indent=None if form == "compact" else 2,
                      ensure_ascii=form == "ascii")
    if draw(st.booleans()):
        text = text[: draw(st.integers(0, len(text)))]
    return text


DEPTHS = (10, 100, 250, 500)
"""Nesting depths that Python's json module reads (its limit is about 1000)."""

DEEP = (1_000, 5_000, 100_000)
"""Nesting depths beyond it (see ``test_deep_json_escapes``)."""


@st.composite
def json_texts(draw: st.DrawFn, deep: bool = False) -> str:
    """Random JSON documents and JSON Lines, mutated JSON forms of real games, and deep
    nesting (beyond Python's recursion limit too when ``deep``)."""
    kind = draw(st.sampled_from(("value", "lines", "game", "game", "nested")))
    if kind == "value":
        return json.dumps(draw(json_values()), ensure_ascii=draw(st.booleans()))
    if kind == "lines":
        return "\n".join(json.dumps(v) for v in draw(st.lists(json_values(), max_size=4)))
    if kind == "nested":
        depth = draw(st.sampled_from(DEPTHS + DEEP if deep else DEPTHS))
        opener: str = draw(st.sampled_from(('{"games":', '{"tags":', "", '{"a":')))
        inner: str = draw(st.sampled_from(("[" * depth + "]" * depth,
                                           '{"a":' * depth + "1" + "}" * depth)))
        return opener + inner + ("}" if opener else "")
    return draw(mutated_game_json())


# ---------------------------------------------------------------- the properties


def _line_count(text: str) -> int:
    """The lines of a text as euchrelog reads them: split at ``\\n`` only."""
    lines = text.lstrip("\ufeff").split("\n")
    return len(lines) - (lines[-1] == "")


def _checked(text: str) -> list[GameCheck]:
    return list(check_text(text, "fuzz.euchre"))


def check_findings(text: str) -> list[GameCheck]:
    """``check_text`` does not raise, and every S101 finding points into the text."""
    results = _checked(text)
    lines = _line_count(text)
    for result in results:
        for f in result.findings:
            if f.code == "S101":
                assert 1 <= f.line <= lines + 1, (f, lines)
                assert f.column >= 1, f
    return results


def both_paths_agree(text: str) -> None:
    """Each game of notation is checked by ``check`` (the bulk entry for every deal it
    takes, the models for the rest) as by the full path alone: findings, places, report."""
    for chunk in notation_chunks(io.StringIO(text), "fuzz.euchre"):
        assert check_chunk(chunk) == check_chunk(chunk, fast=False), chunk.text


def check_notation_text(text: str) -> None:
    """``loads`` raises only NotationError (or, for a text that is JSON, which it reads as
    JSON, RecordError); what it reads survives the canonical form (``fmt`` is idempotent)
    and the JSON round trip; ``check_text`` never raises, and reports a syntax error exactly
    where ``loads`` raises one."""
    error: NotationError | None = None
    try:
        log = loads(text)
    except NotationError as exc:
        assert exc.line >= 1 and exc.column >= 1, exc
        error = exc
    except RecordError:
        assert is_json(text), text[:200]
    else:
        canonical = dumps(log)
        assert dumps(loads(canonical)) == canonical
        assert loads_json(dumps_json(log)) == log
        assert loads_json(dumps_json(log, lines=True)).games == log.games
    results = check_findings(text)
    if not is_json(text):
        both_paths_agree(text)
        syntax = [f for r in results for f in r.findings if f.code == "S101"]
        if error is None:
            assert not syntax, syntax
        else:
            # Where loads stops, check reports it too, and reads on past it.
            first = next((f for f in syntax if (f.line, f.column) == (error.line, error.column)),
                         None)
            assert first is not None, (error, syntax)
            assert first.message.startswith(f"{error.message}; ")  # and what is skipped
            assert first.message.endswith(("is not checked", "the rest is checked"))


def check_json_text(text: str) -> None:
    """``loads_json`` raises only RecordError, and what it reads survives the JSON round
    trip and can be written as notation; ``check_text`` never raises."""
    try:
        log = loads_json(text)
    except RecordError:
        pass
    else:
        assert loads_json(dumps_json(log)) == log
        assert loads(dumps(log)) == log  # what JSON holds, the notation holds
    check_findings(text)


CLI_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("check", "-"), ("check", "--format", "json", "-"), ("check", "-q", "-"), ("fmt", "-"),
    ("fmt", "--check", "-"), ("convert", "-"), ("convert", "--to", "euchre", "-"),
    ("convert", "--to", "jsonl", "-"), ("score", "-"), ("score", "--format", "csv", "-"),
    ("score", "--format", "markdown", "-"), ("score", "--check", "--format", "json", "-"),
)


def check_cli_input(data: bytes, args: Sequence[str]) -> None:
    """The CLI (through Click's runner) exits 0, 1 or 2 and prints no traceback.

    An error of euchrelog's own that leaves ``main`` is allowed: the ``euchrelog`` entry
    point turns it into a message and exit status 2.
    """
    result = CliRunner().invoke(main, list(args), input=data)
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit | EuchrelogError):
        raise exc
    code = 2 if isinstance(exc, EuchrelogError) else result.exit_code
    assert code in (0, 1, 2), (code, result.output)
    shown = data.decode("utf-8", "replace")
    assert TRACEBACK not in result.output or TRACEBACK in shown, result.output


def check_module_input(data: bytes, args: Sequence[str] = ("check", "-"),
                       timeout: float = 600) -> None:
    """``python -m euchrelog`` exits 0, 1 or 2 and prints no traceback (a run longer than
    ``timeout`` seconds raises TimeoutExpired: a hang)."""
    proc = subprocess.run([sys.executable, "-m", "euchrelog", *args], input=data,
                          capture_output=True, timeout=timeout, check=False)
    out = proc.stdout.decode("utf-8", "replace") + proc.stderr.decode("utf-8", "replace")
    assert proc.returncode in (0, 1, 2), (proc.returncode, out[-2000:])
    assert TRACEBACK not in out or TRACEBACK in data.decode("utf-8", "replace"), out[-2000:]


OBEYED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""Characters a terminal obeys: none may reach a text output unescaped."""

EVENT_SEPARATOR = "\n\x1e\n"
"""Between the files of an event folder given as one text (fuzz/run.py's ``event``)."""


def _csv_safe(text: str) -> None:
    rows = list(csv.reader(io.StringIO(text, newline="")))
    for row in rows:
        for cell in row:
            number = cell.lstrip("-").isdigit()
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
            assert not cell.startswith("-") or cell == "-" or number, cell


def check_event_text(text: str) -> None:
    """An event folder (its files' texts, separated by :data:`EVENT_SEPARATOR`) is scored
    without an exception (an override that does not fit is a ``ValueError``, the usage
    error of ``score``) and every output is safe: the text shows no control character, no
    CSV cell starts a formula, the Markdown and the HTML page hold no tag of the names'."""
    files = text.split(EVENT_SEPARATOR)
    entries = [e for n, t in enumerate(files) for e in read_entries(t, f"r{n}.euchre", n)]
    events = score_events(entries)
    for name, render in RENDERERS.items():
        out = render(events)
        if name == "text":
            assert not OBEYED.search(out), out[:300]
        elif name == "csv":
            _csv_safe(out)
        elif name == "markdown":
            assert "<" not in out, out[:300]
        elif name == "html":
            assert "<script" not in out.lower()
        else:
            json.loads(out)


RENEGES = frozenset({"R801", "R802"})
"""The findings of a renege played (at the play, or proved by a later one)."""


def check_record_script(text: str) -> None:
    """``euchrelog record`` answering the lines of ``text`` (the first holds the command's
    options) never ends with a traceback, says no ``internal error``, ends with status 0,
    and leaves a file in canonical form that the next session resumes and that replays
    without an error, but for the reneges the session was told were played all the
    same."""
    options, *lines = text.split("\n")
    try:
        args = shlex.split(options)
    except ValueError:  # a quote left open: the words as they are
        args = options.split()
    with tempfile.TemporaryDirectory(dir=SCRATCH) as folder:
        path = Path(folder) / "g.euchre"
        script = iter(lines)
        said: list[str] = []

        def ask(self: Console, prompt: str, words: Sequence[str]) -> str | None:
            said.append(prompt)
            return next(script, None)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Console, "ask", ask)
            patch.setattr(Console, "say", lambda self, line="": said.append(line))
            result = CliRunner().invoke(main, ["record", str(path), *args])
            assert result.exception is None or isinstance(result.exception, SystemExit), (
                result.exception)
            assert result.exit_code in (0, 2), (result.exit_code, said[-5:])
            assert not [line for line in said if "internal error" in line]
            if result.exit_code == 2:  # a usage error: the options of the first line
                assert not path.exists()
                return
            if not path.exists() or not path.stat().st_size:
                return
            written = path.read_text(encoding="utf-8")
            assert dumps(loads(written)) == written
            faults = [f for f in replay(loads(written).games[0]).findings
                      if CODES[f.code].severity == "error"]
            # A renege the session said was played all the same stays in the record, as
            # it was played: check reports it, once for each the session confirmed.
            confirmed = sum(line.startswith("did the table claim the renege") for line in said)
            reneges = [f for f in faults if f.code in RENEGES]
            assert len(reneges) <= confirmed and len(reneges) == len(faults), faults
            script = iter(["?", "undo", "quit"])
            again = CliRunner().invoke(main, ["record", "--resume", str(path)])
            assert again.exit_code == 0, (again.exit_code, again.output, said[-5:])


def to_bytes(text: str) -> bytes:
    """A text as the bytes of a file; lone surrogates become the bytes they stand for, or
    invalid UTF-8."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


@st.composite
def cli_inputs(draw: st.DrawFn, deep: bool = False) -> bytes:
    """Bytes for standard input: notation, JSON, random bytes, or a record with bytes that
    are not UTF-8 (``deep`` as for :func:`json_texts`)."""
    kind = draw(st.sampled_from(("notation", "json", "binary", "spliced")))
    if kind == "notation":
        return to_bytes(draw(notation_texts()))
    if kind == "json":
        return to_bytes(draw(json_texts(deep)))
    if kind == "binary":
        return draw(st.binary(max_size=200))
    base = to_bytes(draw(st.sampled_from(SAMPLES)))
    at = draw(st.integers(0, len(base)))
    junk = draw(st.sampled_from((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\x80\n",
                                 b"\xe2\x82", b"\r", b"\x00")))
    return base[:at] + junk + base[at:]


def thrown_in_record(n: int) -> str:
    """A four-hand game of ``n`` deals that everyone passed."""
    seats = "NESW"
    deals = "".join(f"\ndeal {k} dealer {seats[(k - 1) % 4]}\n  thrown in\n"
                    for k in range(1, n + 1))
    return '[Variant "four-hand"]\n' + deals + "\nunfinished\n"


# ---------------------------------------------------------------- formats from elsewhere

DATA = ROOT / "tests" / "data"
EGN_TEXTS: tuple[str, ...] = tuple(p.read_text(encoding="utf-8")
                                   for p in sorted((DATA / "egn").rglob("*.egn")))
"""The EGN files of the test data: the seeds of the EGN mutations."""
EMN_TEXTS: tuple[str, ...] = tuple(p.read_text(encoding="utf-8")
                                   for p in sorted((DATA / "egn").rglob("*.emn")))
"""The EMN files of the test data."""
HISTORIES: tuple[str, ...] = tuple(
    json.dumps({k: v for k, v in json.loads(line).items() if k != "returns"})
    for line in (DATA / "openspiel" / "histories.jsonl").read_text(encoding="utf-8")
    .splitlines()[::8])
"""Every eighth OpenSpiel history of the test data, as ``convert --from openspiel`` takes
it (without the ``returns`` the tests compare)."""

FOREIGN_KEYS = (
    "fileType", "version", "metadata", "deals", "dealNumber", "initialState", "phases",
    "alternativeLines", "dealer", "upCard", "playerCards", "kitty", "phaseNumber", "type",
    "calls", "isAlone", "aloneDefender", "discard", "cardExchanges", "callAnnotations",
    "tricks", "playAnnotations", "initialLead", "players", "ruleset", "title", "gameId",
    "initialScore", "finalScore", "games", "gameIndex", "gameData", "matchFormat", "id",
    "name", "actions", "params", "stick_the_dealer", "allow_lone_defender", "player_cards",
    "timings", "num_deals", "points_to_win", "loner_lead",
)
"""The keys of EGN, EMN and OpenSpiel (and EGN's older snake_case ones) among the random
keys."""
FOREIGN_SCALARS: tuple[Any, ...] = (
    None, True, False, 0, 1, -1, 3, 4, 23, 24, 29, 31, 2**64, 1.5, "", "Nc", "Th", "R", "L",
    "B", "Xx", "Xh", "9x", "Ts", "Ah", "7d", "PASS", "ORDER_UP", "CALL_SUIT", "BIDDING",
    "TRICK_PLAY", "GO_ALONE", "Euchre Game Notation", "Euchre Match Notation",
    "LEFT_OF_DEALER", "PROGRESSIVE", "1.4", "\x1b[31m", "<b>", "\u202e",
)
"""EGN-like values: cards and card-like strings, call types, file types, numbers at the
edges of the action ranges."""
FOREIGN_EXTENSIONS = {"egn": ".egn", "emn": ".emn", "openspiel": ".jsonl"}
"""The file name ending each format is sniffed by."""


def foreign_value(src: Source, leaves: int = 12) -> Any:
    """A random JSON value, about ``leaves`` leaves at most, with the keys and values of
    the formats from elsewhere among random ones."""
    budget = [src.randint(1, leaves)]

    def value(depth: int) -> Any:
        if budget[0] <= 0 or depth > 6 or src.random() < 0.5:
            budget[0] -= 1
            return (src.choice(FOREIGN_SCALARS) if src.random() < 0.8
                    else mixed_text(src, 8))
        if src.random() < 0.5:
            return [value(depth + 1) for _ in range(size(src, 5))]
        return {(src.choice(FOREIGN_KEYS) if src.random() < 0.8 else mixed_text(src, 5)):
                value(depth + 1) for _ in range(size(src, 5))}

    return value(0)


def mutate_json(src: Source, data: Any) -> Any:
    """A JSON value with one to three values changed: of another type, deleted, doubled, an
    unknown key, a number at the edge of a range (the value is changed in place)."""
    for _ in range(src.randint(1, 3)):
        paths = list(_paths(data))
        path = src.choice(paths[1:] or paths)
        if not path:
            return foreign_value(src)
        parent, key = _get(data, path[:-1]), path[-1]
        op = src.choice(("type", "delete", "unknown", "scalar", "dup"))
        if op == "type":
            parent[key] = foreign_value(src)
        elif op == "delete":
            del parent[key]
        elif op == "unknown":
            target = parent[key] if isinstance(parent[key], dict) else parent
            if isinstance(target, dict):
                target[src.choice(FOREIGN_KEYS)] = foreign_value(src, 4)
        elif op == "scalar":
            parent[key] = src.choice(FOREIGN_SCALARS)
        elif isinstance(parent, list):
            parent.insert(int(key), parent[key])
    return data


def _nested_text(src: Source, deep: bool) -> str:
    depth = src.choice(DEPTHS + DEEP if deep else DEPTHS)
    opener = src.choice(('{"deals":', '{"games":', '{"actions":', '{"metadata":', ""))
    inner = src.choice(("[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth))
    return opener + inner + ("}" if opener else "")


def _json_form(src: Source, data: Any) -> str:
    text = json.dumps(data, indent=src.choice((None, 2)), ensure_ascii=src.random() < 0.3)
    return text[: src.randint(0, len(text))] if src.random() < 0.15 else text


def egn_text(src: Source, seeds: Sequence[str] = EGN_TEXTS, deep: bool = False) -> str:
    """An EGN file: one of ``seeds`` mutated (or as it is, now and then), a random value,
    or JSON nested deep (beyond Python's recursion limit too when ``deep``)."""
    kind = src.random()
    if kind < 0.05:
        return _nested_text(src, deep)
    if kind < 0.12:
        return json.dumps(foreign_value(src))
    data = json.loads(src.choice(seeds))
    return _json_form(src, data if kind < 0.2 else mutate_json(src, data))


def emn_of(egn: Sequence[str]) -> str:
    """An EMN match of EGN files, four players seated alike in every game."""
    players = [{"id": f"p{k}", "name": name} for k, name in enumerate(("Ann", "Bob", "Cy", "Di"))]
    games = [{"gameIndex": k, "players": [p["id"] for p in players],
              "gameData": json.loads(text)} for k, text in enumerate(egn)]
    return json.dumps({"fileType": "Euchre Match Notation", "version": "1.0",
                       "metadata": {"title": "Fuzz match", "players": players,
                                    "matchFormat": {"type": "FIXED_GAMES"}},
                       "games": games})


def emn_text(src: Source, seeds: Sequence[str] = EGN_TEXTS, deep: bool = False) -> str:
    """An EMN file: the test data's match or a match of one to three of ``seeds``,
    mutated (or not, now and then), a random value, or JSON nested deep."""
    kind = src.random()
    if kind < 0.05:
        return _nested_text(src, deep)
    if kind < 0.12:
        return json.dumps(foreign_value(src))
    if src.random() < 0.3:
        base = src.choice(EMN_TEXTS)
    else:
        base = emn_of([src.choice(seeds) for _ in range(src.randint(1, 3))])
    data = json.loads(base)
    return _json_form(src, data if kind < 0.2 else mutate_json(src, data))


def _history_line(src: Source) -> str:
    item: dict[str, Any] = json.loads(src.choice(HISTORIES))
    actions: list[Any] = item["actions"]
    kind = src.random()
    if kind < 0.15:
        return json.dumps(item)
    if kind < 0.25:
        return json.dumps(mutate_json(src, item))
    if kind < 0.3:
        return json.dumps(foreign_value(src))
    for _ in range(src.randint(1, 3)):
        at = src.randint(0, len(actions))
        op = src.choice(("cut", "delete", "insert", "replace", "params"))
        if op == "cut":
            del actions[at:]
        elif op == "delete" and at < len(actions):
            del actions[at]
        elif op == "insert":
            actions.insert(at, src.randint(-2, 40))
        elif op == "replace" and at < len(actions):
            actions[at] = src.choice((src.randint(-2, 40), 2**64, True, 1.5, "24", None))
        elif op == "params":
            item["params"] = src.choice(({}, {"allow_lone_defender": True},
                                         {"stick_the_dealer": False}, {"x": True},
                                         {"stick_the_dealer": 1}, [], None))
    return json.dumps(item)


def openspiel_text(src: Source, deep: bool = False) -> str:
    """A file of OpenSpiel histories: one to four lines, each a history of the test data
    with actions cut, deleted, inserted or replaced (or as it is, now and then), a random
    value, a blank line, or JSON nested deep."""
    lines = []
    for _ in range(src.randint(1, 4)):
        kind = src.random()
        if kind < 0.05:
            lines.append(_nested_text(src, deep))
        elif kind < 0.1:
            lines.append(src.choice(("", " ", "{", "[]", "null", '{"actions": []}')))
        else:
            lines.append(_history_line(src))
    return "\n".join(lines) + src.choice(("\n", "", "\r\n"))


def foreign_text(src: Source, kind: str, egn: Sequence[str] = EGN_TEXTS,
                 deep: bool = False) -> str:
    """An input of the format ``kind`` (``egn``, ``emn`` or ``openspiel``)."""
    if kind == "egn":
        return egn_text(src, egn, deep)
    if kind == "emn":
        return emn_text(src, egn, deep)
    return openspiel_text(src, deep)


_WHERE = {"egn": re.compile(r"\$\S*"), "emn": re.compile(r"\$\S*"),
          "openspiel": re.compile(r"[0-9]+:[0-9]+")}
"""The places of the formats from elsewhere: a JSON path, or ``line:action``."""


def check_foreign_text(kind: str, text: str) -> None:
    """The reader of a format from elsewhere gives each game, or its ConversionError at a
    place in the input, and raises nothing; the sniff raises nothing either, and takes
    OpenSpiel only for the structure of a history; every game read replays, each finding
    at a place in the input, and is written as notation and JSON that read back as the
    same game (what ``convert`` writes), and a four-hand game as EGN or a ConversionError.
    """
    head = head_of(io.StringIO(text.lstrip("\ufeff")))
    sniffed = kind_of("fuzz" + FOREIGN_EXTENSIONS[kind], head)
    if sniffed == "openspiel":
        first = head.partition("\n")[0]
        assert is_history(json.loads(first)), first
    for item in read_source(kind, text):
        if isinstance(item, ConversionError):
            assert _WHERE[kind].fullmatch(item.where), item.where
            continue
        _, placed = check_converted(item)
        assert all(_WHERE[kind].fullmatch(p.where) for p in placed), placed
        log = Log(games=(item.game,))
        assert loads(dumps(log)) == log, dumps(log)
        assert loads_json(dumps_json(log)) == log
        try:
            egn, _ = dumps_egn(item.game)
        except ConversionError:
            continue
        read_source("egn", egn)


def check_event_source(text: str) -> None:
    """``score``'s event reader takes any text, notation or JSON: ``read_entries`` raises
    nothing, ``iter_entries`` of some of the games reads those games alike, and the event
    is scored and written safely (:func:`check_event_text`)."""
    entries = read_entries(text, "fuzz.euchre")
    wanted = {e.index for e in entries[::2]}
    lines = given_lines(text)
    def read(some: Iterable[Entry]) -> list[tuple[Any, ...]]:
        return [(e.index, e.line, e.game, e.failed, e.event_hint) for e in some]

    assert read(iter_entries(lines, "fuzz.euchre", wanted=wanted)) == read(
        e for e in entries if e.index in wanted)
    check_event_text(text)


def check_cli_file(data: bytes, suffix: str, args: Sequence[str]) -> None:
    """A command on a file of this name ending (so sniffed as a file is: ``.egn``,
    ``.emn``, a first line of OpenSpiel) exits 0, 1 or 2 and prints no traceback; an
    output file goes next to it."""
    with tempfile.TemporaryDirectory(dir=SCRATCH) as folder:
        path = Path(folder) / f"in{suffix}"
        path.write_bytes(data)
        out = [str(Path(folder) / a) if a.startswith("out.") else a for a in args]
        result = CliRunner().invoke(main, [*out, str(path)])
        exc = result.exception
        if exc is not None and not isinstance(exc, SystemExit | EuchrelogError):
            raise exc
        code = 2 if isinstance(exc, EuchrelogError) else result.exit_code
        assert code in (0, 1, 2), (code, result.output)
        assert TRACEBACK not in result.output or TRACEBACK in data.decode("utf-8", "replace"), (
            result.output)


CLI_FILE_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("check",), ("check", "--format", "json"), ("check", "--format", "sarif"),
    ("convert", "-o", "out.euchre"), ("convert", "--to", "jsonl"), ("convert", "--to", "egn"),
    ("convert", "-o", "out.egn"),
)
"""The commands :func:`check_cli_file` runs on a file (``out.*``: an output next to it)."""
