"""The line reader against Lark's LALR parser (issue 13): one syntax, two ways to read it.

:func:`euchrelog.notation.parse_game` matches each line of a game with its terminal of the
grammar and builds the models with the same line builders as the LALR parse; a game the
line reader does not take goes to Lark. Both ways must give the same game, the same source
positions, or the same syntax error, on every record: generated, hand-typed (messy case,
spacing, comments, shuffled lines), every sample, and records with one typo.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from euchrelog.errors import NotationError
from euchrelog.generate import Detail, random_game
from euchrelog.notation import GameForm, _read_game, split_games
from euchrelog.notation.writer import dumps_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strategies import VARIANT_NAMES
from support.records import messy, random_ruleset, respell

ROOT = Path(__file__).resolve().parent.parent
DETAILS: tuple[Detail, ...] = ("full", "play-only", "unknown-cards", "score-sheet")


def _records() -> Iterator[tuple[str, str]]:
    rng = random.Random(13)
    for variant in VARIANT_NAMES:
        for detail in DETAILS:
            ruleset = random_ruleset(rng, variant)
            game = random_game(random.Random(rng.randrange(2**32)), ruleset, detail=detail)
            text = dumps_game(game)
            yield f"{variant}-{detail}", text
            yield f"{variant}-{detail}-respelt", respell(text, random.Random(rng.random()))
            yield f"{variant}-{detail}-messy", messy(text, random.Random(rng.random()))
    for folder in ("valid", "invalid"):
        for path in sorted((ROOT / "samples" / folder).glob("*.euchre")):
            yield f"{folder}/{path.stem}", path.read_text(encoding="utf-8")


def _typos(text: str, rng: random.Random, count: int) -> Iterator[str]:
    lines = text.split("\n")
    for _ in range(count):
        i = rng.randrange(len(lines))
        line = lines[i]
        if not line:
            continue
        at = rng.randrange(len(line))
        yield "\n".join([*lines[:i], line[:at] + rng.choice("XZ@!Q%#[ \t1") + line[at + 1:],
                         *lines[i + 1:]])


def _outcome(text: str, first: int, line_reader: bool) -> object:
    try:
        result = _read_game(text, first, line_reader=line_reader)
    except NotationError as exc:
        return ("error", exc.message, exc.line, exc.column)
    if isinstance(result, GameForm):
        return ("game", result.form, result.source.places, result.source.cards,
                result.commented)
    return ("comments", result)


def _agree(text: str) -> None:
    for first, chunk in split_games(text.splitlines(keepends=True)):
        assert _outcome(chunk, first, True) == _outcome(chunk, first, False), chunk


@pytest.mark.parametrize(("name", "text"), list(_records()), ids=lambda v: str(v)[:40])
def test_the_line_reader_reads_as_the_lalr_parser(name: str, text: str) -> None:
    _agree(text)


@pytest.mark.parametrize(("name", "text"), list(_records())[::9], ids=lambda v: str(v)[:40])
def test_the_line_reader_reads_crlf_as_the_lalr_parser(name: str, text: str) -> None:
    """Lines ended by CR LF (a file saved on Windows) read the same both ways."""
    _agree(text.replace("\n", "\r\n"))


@pytest.mark.slow
def test_the_line_reader_agrees_on_typos() -> None:
    rng = random.Random(7)
    tried = 0
    for _, text in _records():
        for typed in _typos(text, rng, 12):
            _agree(typed)
            tried += 1
    assert tried > 1000


def test_the_line_reader_takes_hand_typed_records() -> None:
    """The reader itself reads comments, any case and spacing, not only canonical lines."""
    from euchrelog.notation import _line_terminals, _parser, _read_lines

    terminals = _line_terminals(_parser()[0])
    text = ('[Variant "four-hand"]  # club night\n\nDEAL 1 dealer n\n'
            '   hands N:9c tc qs ks ad   E: 9s ts as 9d td  S: jd ah kh qh 9h  W: ac kc qc jc kd\n'
            '\tup JH # turned\n  bid e PASS,s order\n# a comment line\nunfinished\n')
    assert _read_lines(text, terminals) is not None
