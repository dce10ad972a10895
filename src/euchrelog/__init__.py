"""euchrelog: record Euchre games as plain text and prove them right or wrong.

The library mirrors the json module for the notation (:func:`loads`, :func:`load`,
:func:`dumps`, :func:`dump`) and offers :func:`replay` to check a game.

The modules follow the pipeline: sources (``files``, ``interop``) -> ``notation`` (the
reader, a module a stage: ``split``, ``parser``, ``lines``, ``assembly``, ``places``,
``patterns``, ``diagnosis``; ``notation.writer`` and ``notation.jsonio`` write and read the
text and JSON forms) -> ``models`` -> ``engine`` (the one statement of the acts' rules, on
masks of cards) and ``replay`` (a package: the game loop, one deal, the card census, the
readings of P4, the results; ``fast`` runs its loop on the JSON form, deals through the
engine's bulk entry) -> ``findings`` (each code with its policy) and ``report`` ->
``check``; ``cards``, ``seats``, ``rules`` and ``loci`` (places in the source) are the
data they share. The applications sit on top: the
``recorder``, ``events`` (an event's standings) and ``cli`` (the commands).

>>> import euchrelog
>>> log = euchrelog.loads('[Variant "four-hand"]\\ndeal 1 dealer N\\n  thrown in\\nunfinished\\n')
>>> euchrelog.replay(log.games[0]).findings
[]
>>> print(euchrelog.dumps(log), end="")
[Variant "four-hand"]
<BLANKLINE>
deal 1 dealer N
  thrown in
<BLANKLINE>
unfinished
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING

__version__ = "0.2.0"

from . import engine as _engine
from .cards import Card, Rank, Suit, card_power, effective_suit, parse_card, trick_winner
from .engine import DealState, Phase
from .errors import EuchrelogError, IllegalActionError, NotationError, RecordError, RenegeError
from .findings import CODES, Finding
from .loci import GameText, ParsedGame, SourceMap
from .models import (
    Bidding,
    Call,
    Claim,
    Deal,
    Declaration,
    End,
    Exchange,
    Game,
    Hands,
    Log,
    Order,
    Pass,
    Play,
    Score,
    Sheet,
    Tag,
    Trick,
    Upcard,
)
from .replay import DealResult, GameReport
from .replay import replay as _replay
from .rules import FOUR_HAND, VARIANTS, Options, Ruleset, Variant, find_variant
from .seats import Seat

COMPILED = not (_engine.__file__ or "").endswith(".py")
"""Whether this is the compiled build (the engine and the reader compiled by mypyc, see
docs/performance.md), not the pure one."""

if TYPE_CHECKING:
    from .notation import load, loads, read_games
    from .notation.jsonio import dumps_json, loads_json
    from .notation.writer import dump, dumps
    from .recorder import IllegalEntryError, Recorder, RecorderError
    from .replay import replay

_LATER = {"IllegalEntryError": "recorder", "Recorder": "recorder", "RecorderError": "recorder",
          "load": "notation", "loads": "notation", "read_games": "notation",
          "dumps_json": "notation.jsonio", "loads_json": "notation.jsonio",
          "dump": "notation.writer", "dumps": "notation.writer"}
"""Names imported when first asked for: ``check`` does not need the recorder, nor a
replay of models the reader."""


class _ReplayPackage(ModuleType):
    """The package :mod:`euchrelog.replay`, called as its function: ``euchrelog.replay(game)``
    is :func:`euchrelog.replay.replay`, and ``import euchrelog.replay.results`` still finds
    the package's module (the function in the package's place would hide the package)."""

    def __call__(self, game: Game | ParsedGame | GameText, source: SourceMap | None = None, *,
                 strict: bool = False, on_finding: Callable[[Finding], None] | None = None
                 ) -> GameReport:
        """Replays ``game`` and returns its report (:func:`euchrelog.replay.replay`)."""
        return _replay(game, source, strict=strict, on_finding=on_finding)


sys.modules[f"{__name__}.replay"].__class__ = _ReplayPackage


def __getattr__(name: str) -> object:
    if name in _LATER:
        return getattr(importlib.import_module(f".{_LATER[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CODES", "COMPILED", "FOUR_HAND", "VARIANTS", "Bidding", "Call", "Card", "Claim", "Deal",
    "DealResult", "DealState", "Declaration", "End", "EuchrelogError", "Exchange", "Finding",
    "Game", "GameReport", "Hands", "IllegalActionError", "IllegalEntryError", "Log",
    "NotationError", "Options", "Order", "Pass", "Phase", "Play", "Rank", "RecordError",
    "Recorder", "RecorderError", "RenegeError", "Ruleset", "Score", "Seat", "Sheet", "Suit",
    "Tag", "Trick", "Upcard", "Variant", "__version__", "card_power", "dump", "dumps",
    "dumps_json", "effective_suit", "find_variant", "load", "loads", "loads_json",
    "parse_card", "read_games", "replay", "trick_winner",
]
