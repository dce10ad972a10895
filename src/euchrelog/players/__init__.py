"""Players: anything that answers a :class:`Decision` with one of the numbers of the acts
it is offered (docs/players.md).

- :class:`RandomPlayer` chooses at random (seeded);
- :class:`RuleBasedPlayer` plays by common euchre advice, rule by rule;
- :class:`SingleDummyPlayer` plays the card of best mean over the layouts it cannot see
  (the single-dummy review's sampler and solver), bidding as the rule-based player;
- :class:`ProgramPlayer` asks a program in any language, in JSON lines;
- :func:`load_player` makes one from its name on the command line (``random``,
  ``rule-based``, ``single-dummy``, ``module:Class`` or ``exec:COMMAND``).

:func:`~.turns.next_turn` says whose decision comes next in a deal (:mod:`.turns`),
:func:`~.view.seat_view` what that seat may know (:mod:`.view`), and :class:`Table` plays
a deal decision by decision (:mod:`.table`).

>>> import random
>>> from euchrelog.engine import Phase
>>> from euchrelog.generate import new_deal, ruleset_for
>>> from euchrelog.seats import Seat
>>> state = new_deal(random.Random(5), ruleset_for("four-hand"), Seat.N)
>>> player, stood = RuleBasedPlayer(), set()
>>> while (turn := next_turn(state, stood)) is not None:
...     number = player.choose(Decision(state, turn.seat, turn.actions))
...     if number == STAND and state.phase is Phase.DECLARING:
...         stood.add(turn.seat)
...     else:
...         state.do_id(number)
>>> state.phase.value, state.points()
('done', {'EW': 1})
"""

from __future__ import annotations

import importlib
import shutil

from .base import Player, PlayerError, RandomPlayer
from .program import ProgramPlayer
from .rules import RuleBasedPlayer
from .single_dummy import SingleDummyPlayer
from .table import Table
from .turns import STAND, Turn, next_turn
from .view import Decision, Made, act_words, seat_view

BUILT_IN = ("random", "rule-based", "single-dummy")
"""The players named by a word."""


def load_player(spec: str, *, seed: int = 0, timeout: float | None = None) -> Player:
    """The player that ``spec`` names: ``random`` (seeded with ``seed``), ``rule-based``,
    ``single-dummy`` (seeded with ``seed``), ``module:Class`` (a class importable from
    Python, made with no argument) or
    ``exec:COMMAND`` (a program speaking JSON lines, with ``timeout`` seconds an answer).

    :raises ValueError: for a spec that names no player.
    """
    if spec == "random":
        return RandomPlayer(seed)
    if spec == "rule-based":
        return RuleBasedPlayer()
    if spec == "single-dummy":
        return SingleDummyPlayer(seed=seed)
    if spec.startswith("exec:"):
        try:
            player = ProgramPlayer(spec[len("exec:"):], timeout)
        except ValueError as exc:
            raise ValueError(f"no player {spec!r}: {exc}") from None
        program = player.argv[0]
        if shutil.which(program) is None:
            raise ValueError(f"no player {spec!r}: no program {program} to run")
        return player
    module, colon, name = spec.partition(":")
    if not colon or not module or not name:
        raise ValueError(f"no player {spec!r}: name random, rule-based, single-dummy, "
                         "module:Class or exec:COMMAND")
    try:
        found = getattr(importlib.import_module(module), name)
    except ImportError as exc:
        raise ValueError(f"no player {spec!r}: cannot import {module} ({exc})") from None
    except AttributeError:
        raise ValueError(f"no player {spec!r}: {module} has no {name}") from None
    try:
        player = found()
    except Exception as exc:  # (a third party's class: any error it raises)
        raise ValueError(f"no player {spec!r}: {name}() failed: {exc}") from None
    if not isinstance(player, Player):
        raise ValueError(f"no player {spec!r}: {name} has no choose(decision) method")
    return player


__all__ = [
    "BUILT_IN", "STAND", "Decision", "Made", "Player", "PlayerError", "ProgramPlayer",
    "RandomPlayer", "RuleBasedPlayer", "SingleDummyPlayer", "Table", "Turn", "act_words",
    "load_player", "next_turn", "seat_view",
]
