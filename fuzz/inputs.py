"""Fuzz inputs from a plain ``random.Random``, for long runs (``fuzz/run.py``): the
generators of ``tests/support/fuzzing.py`` (records by lines and by the grammar, the
mutations of records), which the suite runs with Hypothesis as their source of choices,
run here with the seeded generator.

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
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from euchrelog.errors import NotationError  # noqa: E402
from euchrelog.generate import Detail, random_game, score_sheet  # noqa: E402
from euchrelog.interop import ConversionError  # noqa: E402
from euchrelog.interop.egn import dumps_egn  # noqa: E402
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
    egn: list[str] = field(default_factory=lambda: list(props.EGN_TEXTS))
    """The EGN files of the test data, and the four-hand games above as EGN."""

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
        for game in corpus.whole + corpus.short:
            with contextlib.suppress(ConversionError):  # not four-hand, or not in EGN's terms
                corpus.egn.append(dumps_egn(game)[0])
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


# ---------------------------------------------------------------- notation


def raw_text(rng: random.Random, corpus: Corpus) -> str:
    """Random text over a mixed alphabet."""
    return props.mixed_text(rng, 300)


def token_text(rng: random.Random, corpus: Corpus) -> str:
    """Notation tokens glued in random order."""
    return "".join(rng.choices(props.TOKENS, k=props.size(rng, 80)))


def line_text(rng: random.Random, corpus: Corpus) -> str:
    """Lines that start with a keyword (``support.fuzzing.line_text``)."""
    return props.line_text(rng)


def grammar_text(rng: random.Random, corpus: Corpus) -> str:
    """Records that follow the grammar with random content (``support.fuzzing.grammar_text``):
    they get past the parser, so the replay sees every odd combination."""
    return props.grammar_text(rng)


# ---------------------------------------------------------------- mutations


def mutated(rng: random.Random, corpus: Corpus) -> str:
    """A sample or a short generated record with one to four mutations."""
    return props.mutate(rng, rng.choice(corpus.short_texts))


def mutated_whole(rng: random.Random, corpus: Corpus) -> str:
    """A whole generated game with zero to four mutations."""
    return props.mutate(rng, rng.choice(corpus.whole_texts), 0)


def with_long_line(rng: random.Random, corpus: Corpus) -> str:
    """A short record with a line of 100000 characters, and up to two more mutations."""
    return props.mutate(rng, props.long_line(rng, rng.choice(corpus.short_texts)), 0, 2)


def with_repeated_tags(rng: random.Random, corpus: Corpus) -> str:
    """A short record with a tag repeated up to 2000 times, and up to two more
    mutations."""
    return props.mutate(rng, props.repeat_tags(rng, rng.choice(corpus.short_texts)), 0, 2)


MANY = 10_000
"""The deals of the largest games."""


def many_deals(rng: random.Random, corpus: Corpus) -> str:
    """A game of 1000 or 10000 deals (thrown in, or score-sheet deals of a generated game
    over and over), perhaps mutated."""
    n = rng.choice((1_000, MANY))
    game = score_sheet(rng.choice(corpus.whole))
    if rng.random() < 0.5 or not game.deals:
        return props.mutate(rng, props.thrown_in_record(n), 0, 2)
    base = game.deals
    deals = tuple(base[k % len(base)].model_copy(update={"number": k + 1}) for k in range(n))
    game = game.model_copy(update={"deals": deals, "end": End(act="unfinished")})
    return props.mutate(rng, dumps_game(game), 0, 2)


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
        return props.mixed_text(rng, 12)
    if kind == 6:
        return rng.choice(props.CARDS)
    if kind == 7:
        return rng.choice(props.SEATS)
    return rng.choice(_WORDS)


def _key(rng: random.Random) -> str:
    return rng.choice(props.JSON_KEYS) if rng.random() < 0.7 else props.mixed_text(rng, 6)


def json_value(rng: random.Random) -> Any:
    """Any JSON value, up to about 30 leaves, with the schema's keys and values among the
    random ones (``support.fuzzing.json_values``)."""
    budget = [rng.randint(1, 30)]

    def value(depth: int) -> Any:
        if budget[0] <= 0 or depth > 8 or rng.random() < 0.5:
            budget[0] -= 1
            return _scalar(rng)
        if rng.random() < 0.5:
            return [value(depth + 1) for _ in range(props.size(rng, 5))]
        return {_key(rng): value(depth + 1) for _ in range(props.size(rng, 6))}

    return value(0)


def json_value_text(rng: random.Random, corpus: Corpus) -> str:
    """A random JSON value."""
    return json.dumps(json_value(rng), ensure_ascii=rng.random() < 0.5)


def json_lines_text(rng: random.Random, corpus: Corpus) -> str:
    """JSON Lines of random values."""
    return "\n".join(json.dumps(json_value(rng)) for _ in range(props.size(rng, 4)))


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
            text = props.mutate(rng, text, 1, 2)
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


# ---------------------------------------------------------------- formats from elsewhere


def egn_input(rng: random.Random, corpus: Corpus) -> str:
    """An EGN file: the test data's and the corpus's games as EGN, mutated; random values;
    JSON nested deep (``support.fuzzing.egn_text``)."""
    return props.egn_text(rng, corpus.egn, deep=True)


def emn_input(rng: random.Random, corpus: Corpus) -> str:
    """An EMN match of those EGN games, or the test data's, mutated
    (``support.fuzzing.emn_text``)."""
    return props.emn_text(rng, corpus.egn, deep=True)


def openspiel_input(rng: random.Random, corpus: Corpus) -> str:
    """A file of OpenSpiel histories, their actions changed
    (``support.fuzzing.openspiel_text``)."""
    return props.openspiel_text(rng, deep=True)


def event_source(rng: random.Random, corpus: Corpus) -> str:
    """A source for ``score``'s event reader: several short games of notation or their
    JSON Lines, mutated now and then, any notation or JSON input (deep too), or an input
    of a format from elsewhere."""
    kind = rng.random()
    if kind < 0.3:
        texts = rng.sample(corpus.short_texts, rng.randint(1, 4))
        text = "\n".join(texts)
        return props.mutate(rng, text) if rng.random() < 0.5 else text
    if kind < 0.45:
        lines = [json.dumps(json.loads(t)["games"][0]) for t in
                 rng.sample(corpus.short_json, rng.randint(1, 4))]
        return "\n".join(lines) if rng.random() < 0.5 else props.mutate(rng, "\n".join(lines))
    if kind < 0.65:
        return json_text(rng, corpus, deep=True)
    if kind < 0.85:
        return notation_text(rng, corpus)
    return props.foreign_text(rng, rng.choice(FOREIGN), corpus.egn, deep=True)


FOREIGN = tuple(props.FOREIGN_EXTENSIONS)
"""The formats from elsewhere."""


def cli_file(rng: random.Random, corpus: Corpus) -> tuple[bytes, str, tuple[str, ...]]:
    """A file of a format from elsewhere, named so that it is sniffed as one, and a
    command on it."""
    kind = rng.choice(FOREIGN)
    data = props.to_bytes(props.foreign_text(rng, kind, corpus.egn, deep=True))
    if rng.random() < 0.1:
        at = rng.randint(0, len(data))
        data = data[:at] + rng.choice(_SPLICES) + data[at:]
    return data, props.FOREIGN_EXTENSIONS[kind], rng.choice(props.CLI_FILE_COMMANDS)


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
        return rng.randbytes(props.size(rng, 200))
    base = props.to_bytes(rng.choice(corpus.short_texts))
    at = rng.randint(0, len(base))
    return base[:at] + rng.choice(_SPLICES) + base[at:]


def cli_input(rng: random.Random, corpus: Corpus) -> tuple[bytes, tuple[str, ...]]:
    """Standard input and a command."""
    return cli_bytes(rng, corpus), rng.choice(props.CLI_COMMANDS)


def module_input(rng: random.Random, corpus: Corpus) -> bytes:
    """Standard input for ``python -m euchrelog check -``."""
    return rng.randbytes(props.size(rng, 400)) if rng.random() < 0.5 else cli_bytes(rng, corpus)
