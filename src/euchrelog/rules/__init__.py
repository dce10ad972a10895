"""Variants and house rules, as data.

A :class:`Variant` is a table of facts (seats, sides, deal sizes, scoring table,
penalties); :class:`Options` holds the house rules a record declares in its ``Rules``,
``Deck``, ``Target`` and ``Deals`` tags. A :class:`Ruleset` joins the two, and the
engine asks it, never the variant's name.

The package's modules, each a table or what is built from them:

- :mod:`.variants`: the variants table (:data:`VARIANTS`, :class:`Variant` and its
  scoring rows, :class:`ScoreRow`) and :func:`find_variant`.
- :mod:`.options`: the options table (:data:`OPTIONS`, a :class:`OptionRow` an option),
  the house rules of a game (:class:`Options`), the reading of a ``Rules`` tag
  (:func:`parse_rules`) and the table of docs/notation.md (:func:`options_table`).
- :mod:`.ruleset`: :class:`Ruleset`, what the engine asks (points, sides, dealers, lone
  hands, the game's end, :class:`Outcome`).
- :mod:`.tags`: the ruleset a game's header tags declare (:func:`ruleset_from_tags`) and
  the problems of those tags (:class:`TagProblem`).

>>> ruleset, problems = ruleset_from_tags({"Variant": "four-hand", "Rules": "stick-the-dealer"})
>>> ruleset.options.stick_the_dealer, problems
(True, [])
>>> ruleset.deal_points(5, maker_alone=True, defender_alone=False)
('makers', 4)
>>> cutthroat, _ = ruleset_from_tags({"Variant": "cutthroat", "Seats": "N E W"})
>>> cutthroat.side_names, cutthroat.kitty_size
(('N', 'E', 'W'), 3)
"""

from __future__ import annotations

from .options import OPTIONS, OptionRow, Options, options_table, parse_rules
from .ruleset import Outcome, Ruleset
from .tags import TagProblem, ruleset_from_tags
from .variants import (
    CUTTHROAT,
    FOUR_HAND,
    GHOST,
    MOON,
    THREE_HAND,
    TWO_HAND,
    VARIANTS,
    Lead,
    ScoreRow,
    Variant,
    Who,
    find_variant,
)

__all__ = [
    "CUTTHROAT", "FOUR_HAND", "GHOST", "MOON", "OPTIONS", "THREE_HAND", "TWO_HAND", "VARIANTS",
    "Lead", "OptionRow", "Options", "Outcome", "Ruleset", "ScoreRow", "TagProblem", "Variant",
    "Who", "find_variant", "options_table", "parse_rules", "ruleset_from_tags",
]
