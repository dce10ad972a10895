"""The line reader: a game read line by line, each line matched with its terminal of the
grammar and fed to the assembler (:mod:`.assembly`).

It takes the games a scorer writes, in any case and spacing; a game it does not take (a
line no terminal matches, an order the grammar may refuse) is left to the LALR parser
(:mod:`.parser`), which also places every syntax error.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from ..errors import NotationError
from .assembly import GameAssembler, GameForm
from .kinds import FORM


def text_lines(text: str) -> list[str]:
    """The lines of a text, split at ``\n`` only (as a file is read), without the ends."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


class _Grammar(Protocol):
    """What the line reader takes of the LALR parser Lark built from euchre.lark (a
    :class:`lark.Lark`): its rules and terminals."""

    @property
    def rules(self) -> Sequence[Any]: ...

    @property
    def terminals(self) -> Collection[Any]: ...


_HEADS = ("opening", "deal", "end")
"""The rules of the grammar that start with a line of their own (a deal's lines are the
alternatives of ``body_line``, each named by its alias)."""


LineTable = tuple[dict[str, str], dict[str, str]]
"""The grammar's line terminals as the line reader needs them: what each starts (its rule in
``_HEADS``, or a deal's line alias), and the regular expression of each (``TAG`` too)."""


def line_table(lark: _Grammar) -> LineTable:
    """The :data:`LineTable` of the LALR parser Lark built from euchre.lark."""
    kinds: dict[str, str] = {}
    for rule in lark.rules:
        head = rule.expansion[0] if rule.expansion else None
        if head is None or not head.is_term:
            continue
        if rule.origin.name == "body_line" and rule.alias:
            kinds[head.name] = rule.alias
        elif rule.origin.name in _HEADS:
            kinds[head.name] = rule.origin.name
    wanted = {*kinds, "TAG"}
    patterns = {t.name: t.pattern.to_regexp() for t in lark.terminals if t.name in wanted}
    return kinds, patterns


class LineTerminals:
    """The grammar's line terminals (:func:`line_table`), compiled: the reader matches each
    line with all of them at once, so the syntax of a line, and the word that starts it,
    are written once, in the grammar."""

    def __init__(self, table: LineTable) -> None:
        kinds, patterns = table
        self.kinds = kinds
        """What each line terminal starts: its rule in ``_HEADS``, or a deal's line alias."""
        self.match = re.compile("|".join(f"(?P<{name}>{patterns[name]})"
                                         for name in self.kinds)).fullmatch
        """Matches a whole line with the one terminal that takes it (``lastgroup``)."""
        self.patterns = patterns
        self.terminal = {name: self.stand_in(name) for name in self.kinds}
        """Matches a whole line with one terminal: its own expression, compiled when first
        asked for from the second game read on (:meth:`stand_in`). A plain dict, so that a
        line costs the reader's loop one lookup, as when all were compiled at once."""
        self.games = 0
        """How many games this reader has begun to read."""
        self.recent: dict[str, str] = {}
        """The terminal that last took a line starting with each character: tried alone
        first, it spares trying the others in turn."""
        self.tag = re.compile(patterns["TAG"] + r"[ \t\f]*").match

    def stand_in(self, name: str) -> Callable[[str], re.Match[str] | None]:
        """What stands for terminal ``name``'s own expression until it is compiled: in the
        first game, never a match, so that the joint expression is asked (it takes a line
        with the same terminal, the terminals taking disjoint lines; a one-game file
        compiles none); from the second game on, the expression compiled, put in its place
        and tried."""

        def first_asked(line: str) -> re.Match[str] | None:
            return None if self.games < 2 else self.compile(name)(line)

        return first_asked

    def compile(self, name: str) -> Callable[[str], re.Match[str] | None]:
        """Compiles terminal ``name``'s own expression into :attr:`terminal`."""
        made = self.terminal[name] = re.compile(self.patterns[name]).fullmatch
        return made

    def compile_all(self) -> None:
        """Compiles every terminal's own expression now (before forking workers)."""
        for name in self.kinds:
            self.compile(name)


@dataclass(frozen=True)
class LeftToParser:
    """What the line reader says of a game it does not take, which the LALR parser then
    reads or places."""

    unmatched: int | None
    """The line (of the file) that no terminal takes, when that is why; ``None`` for an
    order of lines the grammar may refuse."""


_last = threading.local()
"""This thread's line reader's verdict on the last text it did not take (see
:func:`keep_verdict`)."""


def keep_verdict(text: str, first_line: int, verdict: LeftToParser) -> None:
    """Keeps the line reader's verdict on ``text``, a game it did not take, so that the
    next reader of the same text (the JSON form's, after the bulk entry's parts of a game
    with an unreadable line) need not read it line by line again."""
    _last.verdict = (text, first_line, verdict)


def kept_verdict(text: str, first_line: int) -> LeftToParser | None:
    """The verdict :func:`keep_verdict` kept on this very text (the same object), if any."""
    kept: tuple[str, int, LeftToParser] | None = getattr(_last, "verdict", None)
    if kept is not None and kept[0] is text and kept[1] == first_line:
        return kept[2]
    return None


def read_by_lines(text: str, lines: LineTerminals, first_line: int = 1,
                  fold: bool = False) -> GameForm | list[str] | LeftToParser:
    """Reads one game line by line, matching each line with its terminal, into its form as
    the LALR parse gives it; :class:`LeftToParser` for anything else (a line no terminal
    takes, an order the grammar may refuse). Returns the comment lines instead when the text
    holds comments only.

    :raises NotationError: for a game of good syntax that a line builder refuses, as the
        LALR parse would.
    """
    assembler = GameAssembler(FORM, fold=fold)
    read = read_lines_into(text, lines, assembler, first_line)
    if read is None:
        return LeftToParser(assembler.unmatched)
    return assembler.finish() if read is True else read


def read_lines_into(text: str, lines: LineTerminals, assembler: GameAssembler,
                    first_line: int = 1) -> Literal[True] | list[str] | None:
    """:func:`read_by_lines` into ``assembler``, which is given each line: ``True`` once the
    game is read (its form is the assembler's to make), the comment lines of a text of
    comments only, or ``None`` for a game the line reader does not take."""
    if not text.endswith("\n") or "\f" in text or (
            "\r" in text and "\r" in text.replace("\r\n", "\n")):
        return None
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    match, terminal, recent, kinds = lines.match, lines.terminal, lines.recent, lines.kinds
    lines.games += 1
    feed = assembler.line
    refused: NotationError | None = None
    """A builder's error: raised once every line is read, as the LALR parse would (a syntax
    error below it comes first)."""
    stage = 0
    """0: before the tags, 1: tags, 2: after the start line, 3: deals, 4: after the end."""
    rows = text.split("\n")
    rows.pop()  # the text ends with a line end
    for number, raw in enumerate(rows, first_line):
        content = raw.lstrip(" \t")
        if not content:
            continue
        first = content[0]
        if first == "#":
            assembler.pending.append(content[1:].strip())
            continue
        column = len(raw) - len(content) + 1
        if first == "[":
            if stage > 1:
                return None
            stage = 1
            tags: list[tuple[str, int, int]] = []
            at = 0
            while at < len(content) and content[at] == "[":
                m = lines.tag(content, at)
                if m is None:
                    return None
                tags.append((content[at:m.end()].rstrip(" \t\f"), number, column + at))
                at = m.end()
            rest = content[at:]
            if rest and rest[0] != "#":
                return None
            assembler.tag_line(tags, rest[1:].strip() if rest else None)
            continue
        # (tests on characters first, which are quicker than the calls they spare)
        if "#" not in content:
            note = None
            if content[-1] in " \t":
                content = content.rstrip(" \t")
        else:
            cut = content.find("#")
            note = content[cut + 1:].strip()
            content = content[:cut].rstrip(" \t")
        if stage == 0 or stage == 4:
            return None
        name = recent.get(first)
        if name is None or terminal[name](content) is None:
            m = match(content)
            if m is None:
                assembler.unmatched = number
                return None
            name = recent[first] = m.lastgroup or ""
        kind = kinds[name]
        if kind == "deal":
            stage = 3
        elif kind == "end":
            stage = 4
        elif kind == "opening":
            if stage != 1:
                return None
            stage = 2
        elif stage != 3:
            return None
        if refused is None:
            try:
                feed(kind, content, number, column, note)
            except NotationError as exc:
                refused = exc
    if stage == 0:
        return assembler.pending
    if stage < 3:
        return None
    if refused is not None:
        raise refused
    return True
