"""The engine: the state of one deal, the one place that knows what is legal.

Three rooms: :mod:`.state` holds the rules of a deal (:class:`~.state.DealRules`, the
check and the lenient application of each kind of act, by which the replay reads a
record), :mod:`.acts` the act table and the one dialect of a player
(:meth:`~DealState.verify`, :meth:`~DealState.can`, :meth:`~DealState.do`), and
:mod:`.bots` what bots ask (:meth:`~DealState.legal_actions`, the acts as numbers,
``copy``, ``undo``, the state as text). :class:`DealState` is the state they make up.
"""

from ..acts import Action
from .bots import DealState
from .state import (
    Evidence,
    HandInfo,
    Phase,
    Played,
    dealt_cleanly,
    following,
    follows_suit,
    lineup,
    playable,
    proved_renege,
    sitting_out,
)

__all__ = ["Action", "DealState", "Evidence", "HandInfo", "Phase", "Played", "dealt_cleanly",
           "following", "follows_suit", "lineup", "playable", "proved_renege", "sitting_out"]
