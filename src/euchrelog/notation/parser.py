"""Lark's LALR parser of the grammar, for the games the line reader does not take.

The only module of the reader that imports Lark, and only imported when a game needs it
(:func:`~.reader.read_game` reads by the line reader first): callers see forms and
:class:`~euchrelog.errors.NotationError`. :class:`_Builder` turns the parse into the
assembler's lines (:mod:`.assembly`), and Lark's syntax errors become placed, explained
errors (:mod:`.diagnosis`).
"""

from __future__ import annotations

import threading
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..errors import NotationError
from .assembly import GameAssembler, GameForm
from .diagnosis import caret_context, diagnose_line, expected_words
from .grammar import grammar_text
from .kinds import FORM
from .lines import LineTable, line_table, text_lines


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
        return GameAssembler(FORM, self.offset, self.fold).build(comments, games[0])


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


def parser_line_table() -> LineTable:
    """The line table (:func:`~.lines.line_table`) of this thread's parser."""
    return line_table(_parser()[0])


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
            message = f"unexpected {got!r} here: expected {expected_words(exc.expected)}"
            above = text_lines(chunk)[: line - 1]
            if "TAG" in exc.expected and not any(a.lstrip().startswith("[") for a in above):
                message = (f"unexpected {got!r}: a game starts with its tags, like "
                           '[Variant "four-hand"], above its first deal')
    elif isinstance(exc, UnexpectedEOF):
        message = "the record ends too early: expected " + expected_words(exc.expected)
    else:  # pragma: no cover - lark raises only the three above
        message = "syntax error"
    return NotationError(message, line + offset, column, caret_context(chunk, line, column))


def _parser_for(first_line: int, fold: bool) -> Lark:
    """This thread's parser, its builder set for a game whose first line is ``first_line``
    of its file (``fold``: it has letters to fold)."""
    lark, builder = _parser()
    builder.offset = first_line - 1
    builder.fold = fold
    return lark


def raise_first_error_by(text: str, first_line: int, fold: bool, line: int) -> None:
    """Raises the syntax error that :func:`parse_text` raises for ``text`` when the LALR
    parse of its lines up to ``line`` of the file (the first the line reader's terminals do
    not take) alone shows it, before its last token: the parse of the whole text reads the
    same tokens in the same states up to there, so the error is the same, and the lines
    after it are not parsed. Else returns, and the whole text is for :func:`parse_text`.

    :raises NotationError: the syntax error.
    """
    k = line - first_line + 1  # the line's number within the text
    cut = -1
    for _ in range(k):
        cut = text.find("\n", cut + 1)
        if cut < 0:
            return
    cut += 1  # (the prefix ends with the line's end)
    try:
        _parser_for(first_line, fold).parse(text[:cut])
    except UnexpectedCharacters as exc:
        # (read as Any: Lark declares the attribute None, and the compiled build would
        # check it so)
        at: Any = getattr(exc, "pos_in_stream", None)
        if isinstance(at, int) and at < cut - 1:
            raise _syntax_error(exc, text, first_line - 1) from None
    except UnexpectedToken as exc:
        end = exc.token.end_pos
        if exc.token.type != "$END" and end is not None and end < cut:
            raise _syntax_error(exc, text, first_line - 1) from None
    except (UnexpectedInput, NotationError):
        pass  # (a builder's error, which a syntax error further on would come before)


def parse_text(text: str, first_line: int, fold: bool) -> GameForm | list[str]:
    """Parses the text of one game whose first line is ``first_line`` of its file with the
    LALR parser, into its form and source map, or its comment lines when it holds only
    comments (see :func:`~.reader.read_game`, whose text this is: without a byte order mark,
    ``fold``: it has letters to fold).

    :raises NotationError: on a syntax error, placed in the file.
    """
    lark = _parser_for(first_line, fold)
    try:
        result: GameForm | list[str] = lark.parse(text)  # type: ignore[assignment]
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, first_line - 1) from None
    except NotationError as exc:  # from a line builder: add the caret display
        exc.context = exc.context or caret_context(text, exc.line - first_line + 1, exc.column)
        raise
    return result
