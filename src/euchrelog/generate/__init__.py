"""Random legal games of every variant, for samples and property tests.

:func:`random_game` deals, bids, exchanges, merges, declares and plays whole games through
:class:`~euchrelog.engine.DealState`, choosing every act among the legal ones with a
simple card sense, so a generated record is legal by construction. :func:`play_only`,
:func:`score_sheet` and :func:`hide_cards` reduce a full record to the partial forms a
record may take (RULES.md, "What a record may leave out").

The package's modules, from the cards up:

- :mod:`.sense`: the card sense, rough worths of hands and cards
  (:func:`expected_tricks`, :func:`hand_value`, the weights of a card to lead or give).
- :mod:`.deal`: one deal, shuffled, dealt and played (:func:`new_deal`,
  :func:`play_deal`, :class:`DealOutcome`).
- :mod:`.game`: a whole game, its header and its deals to the game's end
  (:func:`random_game`, :func:`finish_game`, :func:`game_tags`), and
  :func:`ruleset_for`.
- :mod:`.partial`: the partial forms of a record and what a full deal says
  (:func:`play_only`, :func:`score_sheet`, :func:`hide_cards`, :func:`contract`,
  :func:`trick_bid`, :func:`tricks_taken`).

>>> import random
>>> from euchrelog.replay import replay
>>> game = random_game(random.Random(7))
>>> game.tag("Variant"), replay(game).findings
('four-hand', [])
>>> replay(score_sheet(game)).winner == game.end.winner
True
>>> ghost = random_game(random.Random(7), ruleset_for(variant="ghost"))
>>> replay(ghost).findings, replay(score_sheet(ghost)).winner == ghost.end.winner
([], True)
"""

from __future__ import annotations

from .deal import DealOutcome, new_deal, play_deal
from .game import (
    DEFAULT_PLAYERS,
    SEAT_TAGS,
    Detail,
    finish_game,
    game_tags,
    random_game,
    ruleset_for,
)
from .partial import contract, hide_cards, play_only, score_sheet, trick_bid, tricks_taken
from .sense import expected_tricks, hand_value

__all__ = [
    "DEFAULT_PLAYERS", "SEAT_TAGS", "DealOutcome", "Detail", "contract", "expected_tricks",
    "finish_game", "game_tags", "hand_value", "hide_cards", "new_deal", "play_deal",
    "play_only", "random_game", "ruleset_for", "score_sheet", "trick_bid",
    "tricks_taken",
]
