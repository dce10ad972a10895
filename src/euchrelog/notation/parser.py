"""The grammar and its parser, and reading one game with them.

The only module of the reader that imports Lark: callers see models, forms and
:class:`~euchrelog.errors.NotationError`. :func:`read_game` reads a game by the line reader
(:mod:`.lines`) first and by Lark's LALR parser for what it leaves; :class:`_Builder` turns
the parse into the assembler's lines (:mod:`.assembly`), and Lark's syntax errors become
placed, explained errors (:mod:`.diagnosis`).
"""

from __future__ import annotations

import threading
from importlib import resources
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..errors import NotationError
from ..loci import ParsedGame
from .assembly import GameForm, _GameAssembler, validate_form
from .diagnosis import _context, _expected_words, diagnose_line
from .lines import _Lines, _read_lines, text_lines
from .patterns import _FOLDING

GRAMMAR_FILE = "euchre.lark"


def shipped_text(folder: str, name: str) -> str:
    """The text of a file that the wheel ships in the package under ``folder`` and a
    checkout keeps in the top-level folder of that name (``grammar/``, ``docs/``)."""
    packaged = resources.files("euchrelog") / folder / name
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    # An editable install of a checkout: the folder sits at the top of the tree.
    return (Path(__file__).resolve().parents[3] / folder / name).read_text("utf-8")


def grammar_text(name: str = GRAMMAR_FILE) -> str:
    """The text of a grammar file shipped with the package (``grammar/`` in a checkout)."""
    return shipped_text("grammar", name)


def _comment_text(token: Token | str) -> str:
    return str(token)[1:].strip()


class _Builder(Transformer[Token, Any]):
    """Turns the parse of one game into models and a source map (runs inside the parser)."""

    def __init__(self) -> None:
        super().__init__()
        self.offset = 0
        self.fold = False

    # Each line callback returns (kind, token, note); the game callback assembles.
    def tag_line(self, children: list[Any]) -> tuple[str, list[Token], str | None]:
        tokens = [c for c in children if c.type == "TAG"]
        notes = [c for c in children if c.type == "COMMENT"]
        return ("tags", tokens, _comment_text(notes[0]) if notes else None)

    def comment_line(self, children: list[Token]) -> tuple[str, str]:
        return ("comment", _comment_text(children[0]))

    def _line(self, kind: str, children: list[Token]) -> tuple[str, Token, str | None]:
        return (kind, children[0], _comment_text(children[1]) if len(children) > 1 else None)

    def hands(self, c: list[Token]) -> Any:
        return self._line("hands", c)

    def up(self, c: list[Token]) -> Any:
        return self._line("up", c)

    def extra(self, c: list[Token]) -> Any:
        return self._line("extra", c)

    def merge(self, c: list[Token]) -> Any:
        return self._line("merge", c)

    def bid(self, c: list[Token]) -> Any:
        return self._line("bid", c)

    def exchange(self, c: list[Token]) -> Any:
        return self._line("exchange", c)

    def declare(self, c: list[Token]) -> Any:
        return self._line("declare", c)

    def trick(self, c: list[Token]) -> Any:
        return self._line("trick", c)

    def claim(self, c: list[Token]) -> Any:
        return self._line("claim", c)

    def penalty(self, c: list[Token]) -> Any:
        return self._line("penalty", c)

    def sheet(self, c: list[Token]) -> Any:
        return self._line("sheet", c)

    def thrown(self, c: list[Token]) -> Any:
        return self._line("thrown", c)

    def score(self, c: list[Token]) -> Any:
        return self._line("score", c)

    @staticmethod
    def _headed(kind: str, c: list[Any]) -> tuple[str, Token, str | None, list[Any]]:
        """A line with the lines under it: (kind, head token, its note, the lines)."""
        head: Token = c[0]
        rest = c[1:]
        note = None
        if rest and isinstance(rest[0], Token):
            note = _comment_text(rest[0])
            rest = rest[1:]
        return (kind, head, note, rest)

    def deal(self, c: list[Any]) -> tuple[str, Token, str | None, list[Any]]:
        return self._headed("deal", c)

    def end(self, c: list[Any]) -> tuple[str, Token, str | None, list[Any]]:
        return self._headed("end", c)

    def opening(self, c: list[Any]) -> tuple[str, Token, str | None, list[Any]]:
        return self._headed("opening", c)

    def game(self, c: list[Any]) -> list[Any]:
        return c

    def start(self, c: list[Any]) -> GameForm | list[str]:
        comments = [item[1] for item in c if item[0] == "comment"]
        games = [item for item in c if item[0] != "comment"]
        if not games:
            return comments
        return _GameAssembler(self.offset, self.fold).build(comments, games[0])


def build_parser(*, strict: bool = False, transformer: Transformer[Token, Any] | None = None,
                 cache: bool = False) -> Lark:
    """Builds the LALR parser of the notation.

    ``strict=True`` makes Lark refuse any shift/reduce conflict or colliding terminals (the
    test suite builds it so); ``cache=True`` keeps the analysed grammar in Lark's cache file
    so that later runs start in milliseconds.
    """
    return Lark(grammar_text(), parser="lalr", lexer="contextual", strict=strict,
                transformer=transformer, maybe_placeholders=False, cache=cache)


_local = threading.local()


def _parser() -> tuple[Lark, _Builder]:
    """This thread's parser and builder: the builder keeps the line offset of the game
    being parsed, so threads must not share one."""
    made: tuple[Lark, _Builder] | None = getattr(_local, "parser", None)
    if made is None:
        builder = _Builder()
        made = _local.parser = (build_parser(transformer=builder, cache=True), builder)
    return made


def _line_terminals(lark: Lark) -> _Lines:
    """This thread's compiled line terminals of ``lark``."""
    made: _Lines | None = getattr(_local, "lines", None)
    if made is None:
        made = _local.lines = _Lines(lark)
    return made


def prepare() -> None:
    """Builds the parser now (from Lark's cache when it can) and compiles its line
    terminals, so that processes forked afterwards share them instead of each building and
    caching them at once."""
    _line_terminals(_parser()[0])


def _syntax_error(exc: UnexpectedInput, chunk: str, offset: int) -> NotationError:
    line = exc.line if isinstance(exc.line, int) and exc.line > 0 else 1
    column = exc.column if isinstance(exc.column, int) and exc.column > 0 else 1
    if isinstance(exc, UnexpectedCharacters):
        lines = text_lines(chunk)
        src = lines[line - 1] if line <= len(lines) else ""
        col, message = diagnose_line(src)
        column = col + 1
    elif isinstance(exc, UnexpectedToken):
        if exc.token.type == "$END":
            lines = text_lines(chunk.rstrip())
            line = max(len(lines), 1)
            column = 1
            message = ("the game has tags but no deal: add a deal line like 'deal 1 dealer N', "
                       "or 'unfinished'")
        else:
            got = str(exc.token).split()[0] if str(exc.token).strip() else exc.token.type
            message = f"unexpected {got!r} here: expected {_expected_words(exc.expected)}"
            above = text_lines(chunk)[: line - 1]
            if "TAG" in exc.expected and not any(a.lstrip().startswith("[") for a in above):
                message = (f"unexpected {got!r}: a game starts with its tags, like "
                           '[Variant "four-hand"], above its first deal')
    elif isinstance(exc, UnexpectedEOF):
        message = "the record ends too early: expected " + _expected_words(exc.expected)
    else:  # pragma: no cover - lark raises only the three above
        message = "syntax error"
    return NotationError(message, line + offset, column, _context(chunk, line, column))


def parse_game(text: str, first_line: int = 1) -> ParsedGame | list[str]:
    """Parses the text of one game whose first line is ``first_line`` of its file into its
    models (see :func:`read_game`).

    Returns the comment lines instead when the text holds only comments.

    :raises NotationError: on a syntax error, placed in the file.
    """
    read = read_game(text, first_line)
    if isinstance(read, list):
        return read
    return ParsedGame(validate_form(read.form, first_line), read.source)


def read_game(text: str, first_line: int = 1) -> GameForm | list[str]:
    """Reads the text of one game whose first line is ``first_line`` of its file into its
    JSON form and source map, without building models.

    Each line is matched with its terminal of the grammar; a game the line reader does not
    take is parsed by Lark's LALR parser, which also places every syntax error. Returns the
    comment lines instead when the text holds only comments.

    :raises NotationError: on a syntax error, placed in the file.
    """
    return _read_game(text, first_line, line_reader=True)


def _read_game(text: str, first_line: int, *, line_reader: bool) -> GameForm | list[str]:
    """:func:`read_game`, by the line reader first or by the LALR parser alone (the tests
    hold the two to the same results)."""
    lark, builder = _parser()
    builder.offset = first_line - 1
    text = text.lstrip("\ufeff")
    builder.fold = False
    if not text.isascii():
        _refuse_surrogates(text, first_line)
        builder.fold = any(letter in text for letter in _FOLDING)  # faster than a regex
    try:
        if line_reader:
            read = _read_lines(text, _line_terminals(lark), first_line, builder.fold)
            if read is not None:
                return read
        result: GameForm | list[str] = lark.parse(text)  # type: ignore[assignment]
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, first_line - 1) from None
    except NotationError as exc:  # from a line builder: add the caret display
        exc.context = exc.context or _context(text, exc.line - first_line + 1, exc.column)
        raise
    return result


def _refuse_surrogates(text: str, first_line: int) -> None:
    """Text that cannot be written as UTF-8 (lone surrogates) is refused where it stands."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        head = text[: exc.start]
        line = head.count("\n")
        column = exc.start - (head.rfind("\n") + 1) + 1
        raise NotationError("a character that is not text (a lone surrogate)",
                            first_line + line, column, _context(text, line + 1, column)) from None
