"""The line reader against Lark's LALR parser (issue 13): one syntax, two ways to read it.

:func:`euchrelog.notation.parse_game` matches each line of a game with its terminal of the
grammar and builds the models with the same line builders as the LALR parse; a game the
line reader does not take goes to Lark. Both ways must give the same game, the same source
positions, or the same syntax error, on every record: generated, hand-typed (messy case,
spacing, comments, shuffled lines), every sample, and records with one typo. The parts of
the frequent lines, placed only when a finding asks, are held to the text they name.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from euchrelog.cards import normalize_card
from euchrelog.errors import NotationError
from euchrelog.generate import Detail, random_game
from euchrelog.loci import CARD_RE, PLAY_RE
from euchrelog.notation import (
    GameForm,
    Locus,
    SourceMap,
    read_game,
    split_games,
    text_lines,
)
from euchrelog.notation.reader import _read_game
from euchrelog.notation.writer import dumps_game
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
        return ("game", result.form, result.source.places, result.source.cards)
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
    from euchrelog.notation.lines import LeftToParser, read_by_lines
    from euchrelog.notation.reader import line_terminals

    terminals = line_terminals()
    text = ('[Variant "four-hand"]  # club night\n\nDEAL 1 dealer n\n'
            '   hands N:9c tc qs ks ad   E: 9s ts as 9d td  S: jd ah kh qh 9h  W: ac kc qc jc kd\n'
            '\tup JH # turned\n  bid e PASS,s order\n# a comment line\nunfinished\n')
    assert not isinstance(read_by_lines(text, terminals), LeftToParser)


def _spelt(text: str) -> str:
    """The canonical spelling of the card that starts ``text``."""
    m = CARD_RE.match(text)
    assert m is not None, text
    return normalize_card(m.group())


def _word(text: str) -> str:
    """The first word of ``text`` as the form writes it: a seat or side in capitals, a
    number or ``moon`` as the act ``bid``, any other word in small letters."""
    word = text.split()[0].split(":")[0].rstrip(",")
    if word.upper() in ("N", "E", "S", "W", "NS", "EW"):
        return word.upper()
    return "bid" if word.isdigit() or word.lower() == "moon" else word.lower()


def _placed_parts(form: dict[str, Any], source: SourceMap, rows: list[str]
                  ) -> Iterator[tuple[Locus, str, object]]:
    """Each place in a deal: its locus, what the text there starts with, and what the form
    holds for it."""
    for locus, (line, column) in source.places.items():
        if locus[0] != "deal":
            continue
        at = rows[line - 1][column - 1:]
        deal = form["deals"][locus[1]]
        part, rest = (locus[2], locus[3:]) if len(locus) > 2 else ("deal", ())
        if part == "dealer":
            yield locus, _word(at), deal["dealer"]
        elif part == "number":
            yield locus, at.split()[0], str(int(deal["number"]))
        elif part == "hands":
            yield locus, _word(at), rest[0]
            cards, cline, ccolumn = source.cards[locus]
            assert rows[cline - 1][ccolumn - 1:].startswith(cards)
            hand = next(h["cards"][rest[0]] for h in deal["hands"] if rest[0] in h["cards"])
            assert [normalize_card(c) for c in CARD_RE.findall(cards)] == hand
        elif part == "up":
            yield locus, _spelt(at), (deal["up"]["kitty"][rest[1]] if rest
                                      else deal["up"]["card"])
        elif part == "bid":
            bid = [b for line in deal["bidding"] for b in line["bids"]][rest[0]]
            yield locus, _word(at), bid["seat"] if _word(at) in "NESW" else bid["act"]
        elif part in ("points", "total"):
            if rest:
                yield locus, f"{_word(at)} {int(at.split()[1])}", \
                    f"{rest[0]} {deal['score'][part][rest[0]]}"
            else:
                yield locus, _word(at), part
        elif part == "trick":
            trick = deal["tricks"][rest[0]]
            yield locus, at.split(".")[0], str(trick["number"])
            plays, pline, pcolumn = source.cards[locus]
            assert rows[pline - 1][pcolumn - 1:].startswith(plays)
            assert [{"seat": s.upper(), "card": normalize_card(c)}
                    for s, c in PLAY_RE.findall(plays)] == trick["plays"]
        elif part in ("takes", "discard"):
            yield locus, _spelt(at), deal["exchange"]["upcard" if part == "takes" else part]
        elif part == "decl" and rest[-1] in ("takes", "discard"):
            exchange = deal["declarations"][rest[0]]
            yield locus, _spelt(at), exchange["upcard" if rest[-1] == "takes" else "discard"]


@pytest.mark.parametrize(("name", "text"), list(_records())[::3], ids=lambda v: str(v)[:40])
def test_every_place_points_at_the_text_it_names(name: str, text: str) -> None:
    """The parts of the frequent lines are placed when a finding asks, by a placer apart
    from the split that reads their values: every place in a deal points at what the form
    holds there."""
    text = text.lstrip("\ufeff")
    rows = text_lines(text)
    for first, chunk in split_games(text.splitlines(keepends=True)):
        try:
            read = read_game(chunk, first)
        except NotationError:
            continue
        if not isinstance(read, GameForm):
            continue
        for locus, found, wanted in _placed_parts(read.form, read.source, rows):
            assert found.lower() == str(wanted).lower(), (locus, found, wanted)


def test_threads_that_share_a_source_map_find_the_same_places() -> None:
    """A map placed when a finding first asks is placed once, in full, whichever thread
    asks first."""
    _, text = next(_records())
    first, chunk = next(split_games(text.splitlines(keepends=True)))
    read = read_game(chunk, first)
    assert isinstance(read, GameForm)
    loci = list(read.source.places)
    want = [read.source.find(locus) for locus in loci]
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _ in range(20):
            read = read_game(chunk, first)
            assert isinstance(read, GameForm)
            source = read.source
            with ThreadPoolExecutor(4) as pool:
                got = list(pool.map(lambda _, s=source: [s.find(lc) for lc in loci], range(4)))
            assert all(g == want for g in got)
    finally:
        sys.setswitchinterval(switch)


def test_the_line_reader_learns_its_kinds_of_line_from_the_grammar() -> None:
    """Which terminal a line is and what it starts (a deal, the end, a line of a deal under
    its alias) come from euchre.lark alone: a new kind of line needs no table of words."""
    from lark import Lark

    from euchrelog.notation import grammar_text
    from euchrelog.notation.lines import LineTerminals, line_table

    grammar = grammar_text().replace(
        "          | SCORE _eol       -> score\n",
        "          | SCORE _eol       -> score\n          | MEMO _eol        -> memo\n",
    ) + '\nMEMO: "memo"i _WS _INT\n'
    lines = LineTerminals(line_table(Lark(grammar, parser="lalr", lexer="contextual",
                                          maybe_placeholders=False)))
    for text, terminal, kind in (("MEMO 12", "MEMO", "memo"), ("deal 1 dealer N", "DEAL", "deal"),
                                 ("unfinished", "UNFINISHED", "end"),
                                 ("start deal 3", "START", "opening"),
                                 ("N discards 9C", "EXCHANGE", "exchange"),
                                 ("2. N: 9C", "TRICK", "trick")):
        m = lines.match(text)
        assert m is not None and m.lastgroup == terminal, text
        assert lines.kinds[terminal] == kind
    assert lines.match("memo twelve") is None


def test_the_line_table_shipped_is_the_grammars() -> None:
    """grammar/euchre.lines.json is the line table Lark works out from euchre.lark (after a
    change to the grammar, ``python tests/make_line_table.py`` writes it again), and a table
    of another grammar is not used: the reader then asks Lark for the table."""
    import make_line_table
    from euchrelog.notation import grammar

    assert make_line_table.TABLE.read_text(encoding="utf-8") == make_line_table.expected()
    assert grammar.shipped_line_table() is not None


def test_a_clean_game_is_read_without_lark() -> None:
    """Reading and checking a clean game of notation imports no Lark; a game the line
    reader does not take imports it then (issue 24: check imports only what it needs)."""
    code = ("import sys\nfrom euchrelog.check import check_text\n"
            "clean = '[Variant \"four-hand\"]\\ndeal 1 dealer N\\n  thrown in\\nunfinished\\n'\n"
            "list(check_text(clean))\nprint('lark' in sys.modules)\n"
            "list(check_text(clean.replace('thrown in', 'thrown  in  in')))\n"
            "print('lark' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False", "True"]
