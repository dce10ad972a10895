"""euchrelog: record Euchre games as plain text and prove them right or wrong.

The library mirrors the json module for the notation (:func:`loads`, :func:`load`,
:func:`dumps`, :func:`dump`) and offers :func:`replay` to check a game.

The modules follow the pipeline: sources (``files``, ``kinds``, ``interop``) -> ``notation`` (the
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
import importlib.util
from typing import TYPE_CHECKING

__version__ = "0.2.0"

_CARDS = importlib.util.find_spec(f"{__name__}.cards")
COMPILED = not (_CARDS is not None and (_CARDS.origin or "").endswith(".py"))
"""Whether this is the compiled build (the engine and the reader compiled by mypyc, see
docs/performance.md), not the pure one: told by the file of a module the build compiles
(``cards``; the engine is a package, whose ``__init__`` is not compiled), without
importing it."""

if TYPE_CHECKING:
    from .acts import Call, Declaration, Exchange, Order, Pass, Play
    from .cards import Card, Rank, Suit, card_power, effective_suit, parse_card, trick_winner
    from .engine import DealState, Phase
    from .errors import (
        EuchrelogError,
        IllegalActionError,
        NotationError,
        RecordError,
        RenegeError,
    )
    from .findings import CODES, Finding
    from .models import (
        Bidding,
        Claim,
        Deal,
        End,
        Game,
        Hands,
        Log,
        Score,
        Sheet,
        Tag,
        Trick,
        Upcard,
    )
    from .notation import load, loads, read_games
    from .notation.jsonio import dumps_json, loads_json
    from .notation.writer import dump, dumps
    from .recorder import IllegalEntryError, Recorder, RecorderError
    from .replay import DealResult, GameReport, replay
    from .rules import FOUR_HAND, VARIANTS, Options, Ruleset, Variant, find_variant
    from .seats import Seat

_HOMES = {
    "cards": "Card Rank Suit card_power effective_suit parse_card trick_winner",
    "engine": "DealState Phase",
    "errors": "EuchrelogError IllegalActionError NotationError RecordError RenegeError",
    "findings": "CODES Finding",
    "acts": "Call Declaration Exchange Order Pass Play",
    "models": "Bidding Claim Deal End Game Hands Log Score Sheet Tag Trick Upcard",
    "notation": "load loads read_games",
    "notation.jsonio": "dumps_json loads_json",
    "notation.writer": "dump dumps",
    "recorder": "IllegalEntryError Recorder RecorderError",
    "replay": "DealResult GameReport replay",
    "rules": "FOUR_HAND VARIANTS Options Ruleset Variant find_variant",
    "seats": "Seat",
}
_HOME = {name: module for module, names in _HOMES.items() for name in names.split()}
"""The module of each name exported, imported when the name is first asked for: a command
imports only what it uses (``check`` of an empty file neither the models nor the engine)."""


def __getattr__(name: str) -> object:
    if name in _HOME:
        module = importlib.import_module(f".{_HOME[name]}", __name__)
        # (``replay`` is the package, called as its function: see euchrelog.imports)
        value = module if _HOME[name] == name else getattr(module, name)
        globals()[name] = value  # (asked for once)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME})


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
