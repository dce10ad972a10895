"""Reading the notation: text in, the JSON form of the models and a source map out.

The reader follows its pipeline, one module a stage:

- :mod:`.split`: a file is split into games (:func:`split_games`) before parsing, so a
  syntax error costs only its own game and checking goes on with the next one
  (:func:`read_games`); :func:`iter_log`, :func:`loads` and :func:`load` read a whole log.
- :mod:`.reader`: the reading of one game (:func:`read_game`, :func:`parse_game`): the line
  reader first, Lark's parser for what it leaves.
- :mod:`.grammar`: the grammar's files (``grammar/euchre.lark``, and its line table,
  ``euchre.lines.json``), shipped in the package.
- :mod:`.lines`: the line reader, which matches each line of a game with its terminal of
  the grammar.
- :mod:`.parser`: Lark's LALR parser, one per thread, imported only for a game the line
  reader does not take. The only module that imports Lark: callers see models, forms and
  :class:`~euchrelog.errors.NotationError`.
- :mod:`.assembly`: the one assembler, which builds a game line by line from the line
  reader or the parse into its output: the JSON form (:class:`GameForm`), whose models
  :func:`validate_form` makes, or the fast parts form (:mod:`.parts`: what the engine's
  bulk entry replays).
- :mod:`.kinds`: one row a kind of line: its terminal, words, builders of either form,
  placer and writer.
- :mod:`.places`: where the parts of a line stand, placed in the source map when a finding
  first asks.
- :mod:`.patterns`: the regular expressions of a line's parts and the spellings of cards,
  which the stages above share.
- :mod:`.diagnosis`: the first wrong word of a line the grammar refused, and what was
  expected there (:func:`diagnose_line`).

Loci and source maps (:data:`Locus`, :class:`SourceMap`, :class:`ParsedGame`,
:class:`GameText`) live in :mod:`euchrelog.loci`, which the replay reads without the
reader. The recovery of a game with a syntax error (each unreadable line skipped, the rest
checked) is the checker's, in :mod:`euchrelog.check`. :mod:`.writer` and :mod:`.jsonio`
write the text and read and write the JSON forms.

>>> log = loads('[Variant "four-hand"]\\ndeal 1 dealer N\\n  thrown in\\nunfinished\\n')
>>> log.games[0].deals[0].sheet.thrown
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..loci import GameText, Locus, ParsedGame, SourceMap
from .assembly import Form, GameForm, validate_form
from .grammar import GRAMMAR_FILE, grammar_text, shipped_text
from .lines import text_lines
from .reader import parse_game, prepare, read_game
from .split import iter_log, load, loads, log_of, read_games, split_games

if TYPE_CHECKING:
    from .diagnosis import diagnose_line
    from .parser import build_parser


def __getattr__(name: str) -> object:
    if name == "build_parser":  # (Lark, imported when asked for)
        from .parser import build_parser

        return build_parser
    if name == "diagnose_line":  # (the words of a syntax error, asked for at one)
        from .diagnosis import diagnose_line

        return diagnose_line
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "GRAMMAR_FILE", "Form", "GameForm", "GameText", "Locus", "ParsedGame", "SourceMap",
    "build_parser", "diagnose_line", "grammar_text", "iter_log", "load", "loads", "log_of",
    "parse_game", "prepare", "read_game", "read_games", "shipped_text", "split_games",
    "text_lines", "validate_form",
]
