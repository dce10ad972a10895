"""Reading one game: by the line reader (:mod:`.lines`) first, with the grammar's line
table shipped beside it (:mod:`.grammar`), and by Lark's LALR parser (:mod:`.parser`,
imported only then) for a game the line reader does not take, which also places every
syntax error. A clean game is read without importing Lark.
"""

from __future__ import annotations

import threading

from ..errors import NotationError
from ..loci import ParsedGame
from .assembly import GameForm, validate_form
from .grammar import shipped_line_table
from .lines import LeftToParser, LineTerminals, kept_verdict, read_by_lines
from .patterns import FOLDING


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
    text, fold = prepared(text, first_line)
    if line_reader:
        read: GameForm | list[str] | LeftToParser | None = kept_verdict(text, first_line)
        if read is None:  # (else the parts' reading of it, which the line reader declined)
            try:
                read = read_by_lines(text, line_terminals(), first_line, fold)
            except NotationError as exc:  # from a line builder: add the caret display
                from .diagnosis import caret_context  # (the words of an error)

                exc.context = exc.context or caret_context(text, exc.line - first_line + 1,
                                                           exc.column)
                raise
        if not isinstance(read, LeftToParser):
            return read
        if read.unmatched is not None:  # (Lark, for a game the line reader leaves)
            from .parser import raise_first_error_by

            raise_first_error_by(text, first_line, fold, read.unmatched)
    from .parser import parse_text

    return parse_text(text, first_line, fold)


def prepared(text: str, first_line: int = 1) -> tuple[str, bool]:
    """The text of a game as the line reader reads it (without a byte-order mark), and
    whether it holds a letter that only case-insensitive matching takes for an ASCII one.

    :raises NotationError: for text that cannot be written as UTF-8 (a lone surrogate).
    """
    text = text.lstrip("\ufeff")
    fold = False
    if not text.isascii():
        _refuse_surrogates(text, first_line)
        fold = any(letter in text for letter in FOLDING)  # faster than a regex
    return text, fold


_local = threading.local()


def line_terminals() -> LineTerminals:
    """This thread's compiled line terminals: of the line table shipped, or of Lark's
    parser when the table shipped is not of this grammar."""
    made: LineTerminals | None = getattr(_local, "lines", None)
    if made is None:
        table = shipped_line_table()
        if table is None:
            from .parser import parser_line_table

            table = parser_line_table()
        made = _local.lines = LineTerminals(table)
    return made


def prepare() -> None:
    """Compiles the line terminals now, so that processes forked afterwards share them
    instead of each compiling them at once."""
    line_terminals().compile_all()


def _refuse_surrogates(text: str, first_line: int) -> None:
    """Text that cannot be written as UTF-8 (lone surrogates) is refused where it stands."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        from .diagnosis import caret_context

        head = text[: exc.start]
        line = head.count("\n")
        column = exc.start - (head.rfind("\n") + 1) + 1
        raise NotationError("a character that is not text (a lone surrogate)",
                            first_line + line, column,
                            caret_context(text, line + 1, column)) from None
