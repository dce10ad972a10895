"""Fuzz inputs from a plain ``random.Random``: the strategies of ``tests/support/fuzzing.py``
without Hypothesis, for long runs (``fuzz/run.py``).

Each generator takes the generator of one input and the :class:`Corpus` of records that
mutations start from, and returns the input: a ``str`` for the notation and JSON
properties, ``(bytes, args)`` for the CLI, ``bytes`` for ``python -m euchrelog``. The
alphabets, tokens, tags and keys are those of the test module, so the long run and the
suite try the same kinds of trouble; the input of a seed and an index is always the same.

The corpus holds every sample and, per epoch of inputs, games generated for every variant
(every level of detail): whole games, and short ones (one to three deals, the last cut
anywhere and marked unfinished, with comments, unknown tags and ``??`` cards now and then,
from ``tests/support/records.py``). Mutating a short record exercises the parser and the replay as
well as mutating a whole game, at a fraction of the cost; whole games keep a share of
their own.
"""

from __future__ import annotations

import contextlib
import json
import random
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from euchrelog.errors import NotationError  # noqa: E402
from euchrelog.generate import Detail, random_game, score_sheet  # noqa: E402
from euchrelog.models import End, Game, Log  # noqa: E402
from euchrelog.notation import loads  # noqa: E402
from euchrelog.notation.jsonio import dumps_json  # noqa: E402
from euchrelog.notation.writer import dumps_game  # noqa: E402
from support import fuzzing as props  # noqa: E402
from support.record_scripts import answers, record_options, ruleset_of  # noqa: E402
from support.records import (  # noqa: E402
    VARIANT_NAMES,
    cut_deal,
    decorate,
    hide_more,
    random_ruleset,
)

DETAILS: tuple[Detail, ...] = ("full", "play-only", "score-sheet", "unknown-cards")


# ---------------------------------------------------------------- the corpus


@dataclass
class Corpus:
    """The records mutations start from (see the module doc)."""

    whole: list[Game] = field(default_factory=list)
    short: list[Game] = field(default_factory=list)
    whole_texts: list[str] = field(default_factory=list)
    short_texts: list[str] = field(default_factory=list)
    """The samples, and the short games as text."""
    whole_json: list[str] = field(default_factory=list)
    short_json: list[str] = field(default_factory=list)

    @classmethod
    def build(cls, rng: random.Random, games_per_variant: int = 6) -> Corpus:
        """Samples, and ``games_per_variant`` games of each variant with their short
        forms."""
        corpus = cls(short_texts=list(props.SAMPLES))
        for variant in VARIANT_NAMES:
            for _ in range(games_per_variant):
                detail = rng.choice(DETAILS)
                game = random_game(rng, random_ruleset(rng, variant), detail=detail)
                corpus.whole.append(game)
                corpus.whole_texts.append(dumps_game(game))
                corpus.whole_json.append(dumps_json(Log(games=(game,))))
                for _ in range(3):
                    small = short_game(game, rng)
                    corpus.short.append(small)
                    corpus.short_texts.append(dumps_game(small))
                    corpus.short_json.append(dumps_json(Log(games=(small,))))
        return corpus


def short_game(game: Game, rng: random.Random) -> Game:
    """The first one to three deals of a game, the last cut anywhere (or kept whole),
    marked unfinished; with comments and unknown tags, and ``??`` cards, now and then."""
    k = rng.randint(1, max(1, min(3, len(game.deals))))
    deals = list(game.deals[:k])
    if deals and rng.random() < 0.7:
        deals[-1] = cut_deal(deals[-1], rng)
    short = game.model_copy(update={"deals": tuple(deals), "end": End(act="unfinished")})
    if rng.random() < 0.3:
        short = hide_more(short, rng)
    if rng.random() < 0.4:
        short = decorate(short, rng)
    return short


# ---------------------------------------------------------------- small pieces


def _size(rng: random.Random, high: int) -> int:
    """A size from 0 to ``high``, small ones more often (as Hypothesis draws them)."""
    return int(high * rng.random() ** 2 + 0.5)


_RANGES = ((0x20, 0x7E), (0x00, 0x1F), (0x80, 0x24F), (0x300, 0x36F), (0x2000, 0x206F),
           (0x2660, 0x2667), (0xD800, 0xDFFF), (0xE000, 0xFFFF), (0x10000, 0x10FFFF))


def _char(rng: random.Random) -> str:
    """One character of the mixed alphabet: the notation's characters, any code point
    (surrogates included), ASCII, and the odd characters of the test module."""
    kind = rng.randrange(4)
    if kind == 0:
        return rng.choice(props.CHARS)
    if kind == 1:
        low, high = rng.choice(_RANGES)
        return chr(rng.randint(low, high))
    if kind == 2:
        return chr(rng.randint(0, 127))
    return rng.choice(props.ODD_CHARS)


def mixed_text(rng: random.Random, high: int) -> str:
    """Text over the mixed alphabet, up to ``high`` characters."""
    return "".join(_char(rng) for _ in range(_size(rng, high)))


def _bytes(rng: random.Random, high: int) -> bytes:
    return rng.randbytes(_size(rng, high))


def _bytes_text(rng: random.Random) -> str:
    return _bytes(rng, 24).decode("utf-8", rng.choice(("surrogateescape", "replace")))


# ---------------------------------------------------------------- notation


def raw_text(rng: random.Random, corpus: Corpus) -> str:
    """Random text over a mixed alphabet."""
    return mixed_text(rng, 300)


def token_text(rng: random.Random, corpus: Corpus) -> str:
    """Notation tokens glued in random order."""
    return "".join(rng.choices(props.TOKENS, k=_size(rng, 80)))


def line_text(rng: random.Random, corpus: Corpus) -> str:
    """Lines that start with a keyword (``support.fuzzing.line_texts``)."""
    lines = rng.choices(props.TAGS, k=rng.randint(0, 4))
    starts = (*props.KEYWORDS, *(f"{n}." for n in range(8)), *props.SEATS, "#")
    pools: tuple[Sequence[str], ...] = (props.CARDS, props.SEATS, props.KEYWORDS,
                                        props.PUNCTUATION)
    for _ in range(rng.randint(0, 24)):
        indent = rng.choice(("", "  ", "\t", " "))
        rest = []
        for _ in range(_size(rng, 12)):
            pool = rng.randrange(5)
            rest.append(str(rng.randint(-3, 12)) if pool == 4 else rng.choice(pools[pool]))
        sep = rng.choice((" ", "  ", ", ", "\t", ": "))
        lines.append(indent + sep.join([rng.choice(starts), *rest]))
    end = rng.choice(("\n", "\r\n", "\n\n"))
    return end.join(lines) + rng.choice(("", end))


_SEATS = "NESW"
_SIDES = ("NS", "EW", "N", "E", "S", "W")
_SUITS = "CDHS"


def _cards(rng: random.Random, low: int = 1, high: int = 7) -> str:
    return " ".join(rng.choices(props.ALL_CARDS, k=rng.randint(low, high)))


def _sides(rng: random.Random) -> str:
    return " ".join(f"{rng.choice(_SIDES)} {rng.randint(-30, 40)}"
                    for _ in range(rng.randint(1, 4)))


def _bid(rng: random.Random) -> str:
    act = rng.choice(("pass", "pass", "order", "call", "moon", "number", "swap",
                      "swap number"))
    if act == "call":
        act = f"call {rng.choice(_SUITS)}"
    elif act == "number":
        act = str(rng.randint(0, 8))
    elif act == "swap number":
        act = f"swap {rng.randint(2, 7)}"
    return f"{rng.choice(_SEATS)} {act}"


def _sheet(rng: random.Random) -> str:
    if rng.randint(0, 4) == 0:
        return "thrown in"
    text = f"trump {rng.choice(_SUITS)} maker {rng.choice(_SEATS)}"
    if rng.random() < 0.5:
        text += " alone"
    if rng.randint(0, 3) == 0:
        text += f" defend {rng.choice(_SEATS)}"
    if rng.randint(0, 3) == 0:
        text += f" bid {rng.choice(('3', '4', '5', '6', 'moon', '0', '9'))}"
    if rng.random() < 0.5:
        if rng.random() < 0.5:
            text += f" tricks {rng.randint(0, 7)}"
        else:
            text += " tricks " + " ".join(f"{rng.choice(_SEATS)} {rng.randint(0, 7)}"
                                          for _ in range(rng.randint(1, 4)))
    return text


def _body_line(rng: random.Random, kind: str, trick: int) -> str:
    seat = rng.choice(_SEATS)
    if kind == "hands":
        return "hands " + "  ".join(f"{rng.choice(_SEATS)}: {_cards(rng)}"
                                    for _ in range(rng.randint(1, 4)))
    if kind == "extra":
        return f"{rng.choice(('ghost', 'dummy', 'dummy:'))} {_cards(rng)}"
    if kind == "up":
        kitty = f"  kitty {_cards(rng, 1, 16)}" if rng.random() < 0.5 else ""
        return f"up {rng.choice(props.ALL_CARDS)}{kitty}"
    if kind == "bid":
        return "bid " + ", ".join(_bid(rng) for _ in range(rng.randint(1, 6)))
    if kind == "exchange":
        card = rng.choice(props.ALL_CARDS)
        return rng.choice((f"{seat} takes {card} discards {_cards(rng, 1, 1)}",
                           f"{seat} discards {card}", f"{seat} declines"))
    if kind == "merge":
        keeps = f" keeps {_cards(rng, 1, 6)}" if rng.random() < 0.5 else ""
        return f"{seat} merges{keeps}"
    if kind == "declare":
        return f"{rng.choice(('alone', 'defend'))} {seat}"
    if kind == "trick":
        plays = "  ".join(f"{rng.choice(_SEATS)}: {rng.choice(props.ALL_CARDS)}"
                          for _ in range(rng.randint(1, 5)))
        number = trick if rng.randint(0, 5) else rng.randint(1, 9)
        return f"{number}. {plays}"
    if kind == "claim":
        at = f" trick {rng.randint(1, 7)}" if rng.random() < 0.5 else ""
        return f"renege {seat}{at}"
    if kind == "sheet":
        return _sheet(rng)
    total = f"  total {_sides(rng)}" if rng.random() < 0.5 else ""
    return rng.choice((f"points {_sides(rng)}{total}", f"total {_sides(rng)}"))


def grammar_text(rng: random.Random, corpus: Corpus) -> str:
    """Records that follow the grammar with random content (``support.fuzzing.grammar_texts``):
    they get past the parser, so the replay sees every odd combination."""
    lines = rng.choices(props.TAGS[:-1], k=rng.randint(0, 5))
    if not lines or rng.randint(0, 3) == 0:
        lines.insert(0, f'[Variant "{rng.choice(VARIANT_NAMES)}"]')
    for d in range(1, rng.randint(1, 4) + 1):
        number = d if rng.randint(0, 5) else rng.randint(1, 9)
        lines += ["", f"deal {number} dealer {rng.choice(_SEATS)}"]
        kinds = sorted(rng.choices(props.BODY_KINDS, k=_size(rng, 14)),
                       key=props.BODY_KINDS.index)
        trick = 0
        for kind in kinds:
            trick += kind == "trick"
            lines.append("  " + _body_line(rng, kind, trick))
    end = rng.choice(("", "unfinished", "result", "result NS 10 EW 3 winner NS"))
    if end == "result" and rng.random() < 0.5:
        end = f"result {_sides(rng)} winner {rng.choice(_SIDES)}"
    lines += ["", end] if end else []
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- mutations

Mutation = Callable[[random.Random, str], str]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _tokens(text: str) -> list[str]:
    return props._SPLIT_RE.split(text)


def _at(rng: random.Random, items: Sequence[Any]) -> int:
    return rng.randrange(len(items)) if items else 0


def _delete_line(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    del lines[_at(rng, lines)]
    return "\n".join(lines)


def _duplicate_line(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    lines.insert(_at(rng, lines), lines[_at(rng, lines)])
    return "\n".join(lines)


def _swap_lines(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    i, j = _at(rng, lines), _at(rng, lines)
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _delete_token(rng: random.Random, text: str) -> str:
    tokens = _tokens(text)
    del tokens[_at(rng, tokens)]
    return "".join(tokens)


def _duplicate_token(rng: random.Random, text: str) -> str:
    tokens = _tokens(text)
    tokens.insert(_at(rng, tokens), tokens[_at(rng, tokens)] + " ")
    return "".join(tokens)


def _swap_tokens(rng: random.Random, text: str) -> str:
    tokens = _tokens(text)
    i, j = _at(rng, tokens), _at(rng, tokens)
    tokens[i], tokens[j] = tokens[j], tokens[i]
    return "".join(tokens)


def _replace_token(rng: random.Random, text: str) -> str:
    tokens = _tokens(text)
    tokens[_at(rng, tokens)] = rng.choice(props.TOKENS)
    return "".join(tokens)


def _truncate(rng: random.Random, text: str) -> str:
    return text[: rng.randint(0, len(text))]


def _insert(rng: random.Random, text: str) -> str:
    at = rng.randint(0, len(text))
    kind = rng.randrange(3)
    junk = (_bytes_text(rng) if kind == 0 else mixed_text(rng, 8) if kind == 1
            else rng.choice(props.TOKENS))
    return text[:at] + junk + text[at:]


def _line_ends(rng: random.Random, text: str) -> str:
    return text.replace("\n", rng.choice(("\r\n", "\r", "\n\r", "\r\r\n", "\x85", "\u2028",
                                          "\x0b")))


def _tabs(rng: random.Random, text: str) -> str:
    return text.replace(rng.choice(("  ", " ")), rng.choice(("\t", " \t", "\x0c", "\u00a0")))


def _case(rng: random.Random, text: str) -> str:
    return rng.choice((str.upper, str.lower, str.swapcase))(text)


def _bom(rng: random.Random, text: str) -> str:
    at = rng.choice((0, 0, len(text) // 2))
    return text[:at] + "\ufeff" + text[at:]


def _long_line(rng: random.Random) -> str:
    unit = rng.choice(("9H ", "TS  ", "10C ", "?? ", "N: 9H ", "NS 1 ", "N pass, ", "a", "#",
                       "9", " ", "\t", "JK", "\\\""))
    head = rng.choice(("", "  hands N: ", "  1. ", "  bid ", "  points ", "# ", '[Event "',
                       "  up 9H  kitty ", "result ", "  ghost "))
    return head + unit * (props.LONG // len(unit)) + rng.choice(("", "XX", "9", '"]', " N:"))


def long_line(rng: random.Random, text: str) -> str:
    """A line of 100000 characters of card-like junk inserted."""
    lines = _lines(text)
    lines.insert(_at(rng, lines), _long_line(rng))
    return "\n".join(lines)


def repeat_tags(rng: random.Random, text: str) -> str:
    """A tag repeated 2 to 2000 times."""
    block = "\n".join([rng.choice(props.TAGS[:-1])] * rng.randint(2, 2000))
    at = rng.choice((0, text.find("\ndeal") + 1, len(text)))
    return text[:at] + block + "\n" + text[at:]


CHEAP: tuple[Mutation, ...] = (
    _delete_line, _duplicate_line, _swap_lines, _delete_token, _duplicate_token, _swap_tokens,
    _replace_token, _replace_token, _truncate, _insert, _insert, _line_ends, _tabs, _case,
    _bom,
)
"""The mutations of ``support.fuzzing.MUTATIONS`` that keep a record about its size."""


def mutate(rng: random.Random, text: str, low: int = 1, high: int = 4) -> str:
    """``low`` to ``high`` cheap mutations."""
    for _ in range(rng.randint(low, high)):
        text = rng.choice(CHEAP)(rng, text)
    return text


def mutated(rng: random.Random, corpus: Corpus) -> str:
    """A sample or a short generated record with one to four mutations."""
    return mutate(rng, rng.choice(corpus.short_texts))


def mutated_whole(rng: random.Random, corpus: Corpus) -> str:
    """A whole generated game with zero to four mutations."""
    return mutate(rng, rng.choice(corpus.whole_texts), 0)


def with_long_line(rng: random.Random, corpus: Corpus) -> str:
    """A short record with a line of 100000 characters, and up to two more mutations."""
    return mutate(rng, long_line(rng, rng.choice(corpus.short_texts)), 0, 2)


def with_repeated_tags(rng: random.Random, corpus: Corpus) -> str:
    """A short record with a tag repeated up to 2000 times, and up to two more
    mutations."""
    return mutate(rng, repeat_tags(rng, rng.choice(corpus.short_texts)), 0, 2)


MANY = 10_000
"""The deals of the largest games."""


def many_deals(rng: random.Random, corpus: Corpus) -> str:
    """A game of 1000 or 10000 deals (thrown in, or score-sheet deals of a generated game
    over and over), perhaps mutated."""
    n = rng.choice((1_000, MANY))
    game = score_sheet(rng.choice(corpus.whole))
    if rng.random() < 0.5 or not game.deals:
        return mutate(rng, props.thrown_in_record(n), 0, 2)
    base = game.deals
    deals = tuple(base[k % len(base)].model_copy(update={"number": k + 1}) for k in range(n))
    game = game.model_copy(update={"deals": deals, "end": End(act="unfinished")})
    return mutate(rng, dumps_game(game), 0, 2)


# ---------------------------------------------------------------- JSON

_WORDS = ("euchrelog", "pass", "order", "call", "bid", "swap", "merge", "alone", "defend",
          "result", "unfinished", "takes", "declines", "dummy")


def _scalar(rng: random.Random) -> Any:
    kind = rng.randrange(10)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.randint(-(2**70), 2**70) if rng.random() < 0.3 else rng.randint(-1000, 1000)
    if kind == 3:
        return rng.randint(-2, 10)
    if kind == 4:
        return rng.choice((rng.uniform(-1e6, 1e6), float("inf"), float("-inf"), float("nan"),
                           -0.0, 1e308, 5e-324, 1.5))
    if kind == 5:
        return mixed_text(rng, 12)
    if kind == 6:
        return rng.choice(props.CARDS)
    if kind == 7:
        return rng.choice(props.SEATS)
    return rng.choice(_WORDS)


def _key(rng: random.Random) -> str:
    return rng.choice(props.JSON_KEYS) if rng.random() < 0.7 else mixed_text(rng, 6)


def json_value(rng: random.Random) -> Any:
    """Any JSON value, up to about 30 leaves, with the schema's keys and values among the
    random ones (``support.fuzzing.json_values``)."""
    budget = [rng.randint(1, 30)]

    def value(depth: int) -> Any:
        if budget[0] <= 0 or depth > 8 or rng.random() < 0.5:
            budget[0] -= 1
            return _scalar(rng)
        if rng.random() < 0.5:
            return [value(depth + 1) for _ in range(_size(rng, 5))]
        return {_key(rng): value(depth + 1) for _ in range(_size(rng, 6))}

    return value(0)


def json_value_text(rng: random.Random, corpus: Corpus) -> str:
    """A random JSON value."""
    return json.dumps(json_value(rng), ensure_ascii=rng.random() < 0.5)


def json_lines_text(rng: random.Random, corpus: Corpus) -> str:
    """JSON Lines of random values."""
    return "\n".join(json.dumps(json_value(rng)) for _ in range(_size(rng, 4)))


def _paths(data: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    return list(props._paths(data, at))


def mutated_game_json(rng: random.Random, corpus: Corpus) -> str:
    """The JSON form of a generated game (a short one mostly) with one to three values
    changed (``support.fuzzing.mutated_game_json``)."""
    data: Any = json.loads(rng.choice(corpus.whole_json if rng.random() < 0.1
                                      else corpus.short_json))
    for _ in range(rng.randint(1, 3)):
        paths = _paths(data)
        path = rng.choice(paths[1:] or paths)
        op = rng.choice(("type", "delete", "unknown", "card", "number", "dup"))
        if not path:
            data = json_value(rng)
            continue
        parent, key = props._get(data, path[:-1]), path[-1]
        if op == "type":
            parent[key] = json_value(rng)
        elif op == "delete":
            del parent[key]
        elif op == "unknown":
            target = parent[key] if isinstance(parent[key], dict) else parent
            if isinstance(target, dict):
                target[rng.choice(("zzz", "Card", "act", "", "games"))] = json_value(rng)
        elif op == "card":
            parent[key] = rng.choice(props.BAD_CARDS)
        elif op == "number":
            parent[key] = rng.choice((-1, 0, 7, 10**30, -(2**63), 2**64, 1.5, float("inf"),
                                      float("nan")))
        elif isinstance(parent, list):
            parent.insert(int(key), parent[key])
    form = rng.choice(("document", "compact", "lines", "ascii"))
    if form == "lines" and isinstance(data, dict) and isinstance(data.get("games"), list):
        return "".join(json.dumps(g) + "\n" for g in data["games"])
    text = json.dumps(data, indent=None if form == "compact" else 2,
                      ensure_ascii=form == "ascii")
    if rng.random() < 0.5:
        text = text[: rng.randint(0, len(text))]
    return text


def _nested(rng: random.Random, depths: Sequence[int]) -> str:
    depth = rng.choice(depths)
    opener = rng.choice(('{"games":', '{"tags":', "", '{"a":'))
    inner = rng.choice(("[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth))
    return opener + inner + ("}" if opener else "")


def nested_json(rng: random.Random, corpus: Corpus) -> str:
    """JSON nested 10 to 500 deep."""
    return _nested(rng, props.DEPTHS)


def deep_json(rng: random.Random, corpus: Corpus) -> str:
    """JSON nested beyond Python's recursion limit (1000 to 100000 deep)."""
    return _nested(rng, props.DEEP)


def json_text(rng: random.Random, corpus: Corpus, deep: bool = False) -> str:
    """Any of the JSON inputs (``support.fuzzing.json_texts``)."""
    kind = rng.choice(("value", "lines", "game", "game", "nested"))
    if kind == "value":
        return json_value_text(rng, corpus)
    if kind == "lines":
        return json_lines_text(rng, corpus)
    if kind == "nested":
        return _nested(rng, props.DEPTHS + props.DEEP if deep else props.DEPTHS)
    return mutated_game_json(rng, corpus)


def notation_text(rng: random.Random, corpus: Corpus) -> str:
    """Any of the cheap notation inputs (``support.fuzzing.notation_texts``)."""
    make = rng.choice((raw_text, token_text, line_text, grammar_text, grammar_text, mutated,
                       mutated))
    return make(rng, corpus)


_HUGE = "HUGE-NUMBER"


def huge_json(rng: random.Random, corpus: Corpus) -> str:
    """The JSON of a generated game with a number of 4300 digits and more (more than
    Python reads by default) in place of a value, or JSON Lines with a later line nested
    1000 deep or more, or with such a number."""
    games = [json.loads(rng.choice(corpus.short_json))["games"][0] for _ in range(3)]
    digits = "9" * rng.choice((4_301, 5_000, 20_000)) if rng.random() < 0.8 else (
        "1" + "0" * 4_300 + ".5e10")
    if rng.random() < 0.4:
        lines = [json.dumps(g) for g in games]
        bad = _nested(rng, props.DEEP) if rng.random() < 0.5 else json.dumps(
            {"tags": [{"name": "Target", "value": 1}], "deals": [{"number": _HUGE}]})
        lines.insert(rng.randint(1, len(lines)), bad)
        return "\n".join(lines).replace(f'"{_HUGE}"', digits) + "\n"
    data: Any = {"games": games} if rng.random() < 0.5 else games[0]
    paths = _paths(data)
    path = rng.choice(paths[1:] or paths)
    parent, key = props._get(data, path[:-1]), path[-1]
    parent[key] = _HUGE
    text = json.dumps(data, indent=rng.choice((None, 2)))
    return text.replace(f'"{_HUGE}"', ("-" if rng.random() < 0.2 else "") + digits, 1)


# ---------------------------------------------------------------- event folders

EVENTS = sorted((HERE.parent / "samples").rglob("events/*/"))
"""The sample event folders (valid and invalid) that the event inputs start from."""

HOSTILE_NAMES = (
    "=HYPERLINK(\"http://evil.example\",\"x\")", "+1", "-2+3", "@SUM(1)", "\tTab", "\rCR",
    "a\rb", "<script>alert(1)</script>", "[x](javascript:alert(1))", "*b* _i_ `c` ~~s~~",
    "| pipe |", "\x1b[2J\x1b]0;title\x07", "\u202eevil", "back\\slash", "&lt;b&gt;", "",
    "x" * 300, "Ann", "ann", " Ann ", "\u0661", "²", "\\\"",
)
PLACES = ("1", "2", "03", "3", "²", "\u0663", "0", "-1", "99999999999", "x", "", " ", "1.5",
          "I", "10")
FORMATS = ("partners", "progressive", "progressive deals=2", "partners target=5",
           "progressive deals=0", "progressive deals=²", "partners target=٣", "nonsense",
           "progressive partners", "")


def _event_files(folder: Path) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.euchre"))]


_EVENT_TEXTS: dict[Path, list[str]] = {}


def _retag(rng: random.Random, text: str) -> str:
    """Values of the tags that place a game and name its players, changed."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if not line.startswith("[") or rng.random() < 0.6:
            continue
        name = line[1:].split(" ", 1)[0]
        if name in ("N", "E", "S", "W", "North", "East", "South", "West"):
            value = rng.choice(HOSTILE_NAMES)
        elif name in ("Round", "Table"):
            value = rng.choice(PLACES)
        elif name == "Format":
            value = rng.choice(FORMATS)
        elif name == "Event":
            value = rng.choice(("Cup", "cup", "", "<b>Cup</b>", "=Cup", "\x1bCup"))
        else:
            continue
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        lines[i] = f'[{name} "{escaped}"]'
    return "\n".join(lines)


def event_text(rng: random.Random, corpus: Corpus) -> str:
    """The files of a sample event, one to all of them, with the names of players, rounds,
    tables, events and formats changed (formula, markup, control characters, other
    digits), files repeated or mutated, one as JSON now and then; joined by
    ``support.fuzzing.EVENT_SEPARATOR``."""
    folder = rng.choice(EVENTS)
    if folder not in _EVENT_TEXTS:
        _EVENT_TEXTS[folder] = _event_files(folder)
    files = list(_EVENT_TEXTS[folder])
    files = rng.sample(files, rng.randint(1, len(files)))
    if rng.random() < 0.2:
        files.append(rng.choice(files))
    out = []
    for text in files:
        text = _retag(rng, text)
        if rng.random() < 0.3:
            text = mutate(rng, text, 1, 2)
        if rng.random() < 0.1:
            with contextlib.suppress(NotationError):
                text = dumps_json(loads(text))
        out.append(text)
    return props.EVENT_SEPARATOR.join(out)


# ---------------------------------------------------------------- recorder scripts

_ANSWERS = ("undo", "undo", "?", "help", "", "sheet", "quit", "zz", "E: ??", "??", "²", "3²",
            "\u0663", "9 9", "alone", "defend E", "merge", "swap 4", "call X", "5", "y", "N",
            "thrown", "declines", "discard ??", "x" * 200, "\x1b[2J", "AD AD", "-1", "99999")


def record_script(rng: random.Random, corpus: Corpus) -> str:
    """What a scorer types into ``euchrelog record``: the options of a generated game on
    the first line, then the answers that record it (full play or score sheet, deal by
    deal), cut short, with answers deleted, repeated, swapped or replaced by commands
    (undo, sheet, quit, ?) and nonsense (``support.fuzzing.check_record_script``)."""
    game = rng.choice(corpus.whole)
    rules = ruleset_of(game)
    mode = rng.choice(("full", "sheet", "mixed"))
    try:
        lines = answers(game, lambda d: "sheet" if mode == "sheet" or (
            mode == "mixed" and d % 2) else "full")
    except AssertionError:  # a game with cards not known: from the score sheet only
        lines = answers(game, lambda d: "sheet")
    lines = lines[:rng.randint(1, min(len(lines), 120))]
    for _ in range(rng.randint(0, 4)):
        at = rng.randrange(len(lines) + 1)
        op = rng.randrange(4)
        if op == 0 and lines:
            del lines[min(at, len(lines) - 1)]
        elif op == 1 and lines:
            lines.insert(at, lines[min(at, len(lines) - 1)])
        elif op == 2 and len(lines) > 1:
            j = rng.randrange(len(lines))
            k = min(at, len(lines) - 1)
            lines[j], lines[k] = lines[k], lines[j]
        else:
            lines.insert(at, rng.choice(_ANSWERS))
    options = record_options(rules)
    if rng.random() < 0.05:
        options = rng.choice((["--target", "0"], ["--variant", "five"], ["--rules", "deck=7"],
                              ["--target", "²"], []))
    return "\n".join([shlex.join(options), *lines])


# ---------------------------------------------------------------- the command line

_SPLICES = (b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\x80\n", b"\xe2\x82", b"\r",
            b"\x00")


def cli_bytes(rng: random.Random, corpus: Corpus) -> bytes:
    """Bytes for standard input: notation, JSON (deep too), random bytes, or a record with
    bytes that are not UTF-8 (``support.fuzzing.cli_inputs``)."""
    kind = rng.choice(("notation", "json", "binary", "spliced"))
    if kind == "notation":
        return props.to_bytes(notation_text(rng, corpus))
    if kind == "json":
        return props.to_bytes(json_text(rng, corpus, deep=True))
    if kind == "binary":
        return _bytes(rng, 200)
    base = props.to_bytes(rng.choice(corpus.short_texts))
    at = rng.randint(0, len(base))
    return base[:at] + rng.choice(_SPLICES) + base[at:]


def cli_input(rng: random.Random, corpus: Corpus) -> tuple[bytes, tuple[str, ...]]:
    """Standard input and a command."""
    return cli_bytes(rng, corpus), rng.choice(props.CLI_COMMANDS)


def module_input(rng: random.Random, corpus: Corpus) -> bytes:
    """Standard input for ``python -m euchrelog check -``."""
    return _bytes(rng, 400) if rng.random() < 0.5 else cli_bytes(rng, corpus)
