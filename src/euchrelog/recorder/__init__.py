"""Recording a game while it is played: :class:`Recorder`.

A recorder holds one game. It is fed the deals (with whatever cards are known), the bids,
the dealer's exchange, the merge and lone declarations and every card played, or, for a
deal known only from the score sheet, its score-sheet line. Each entry is verified against
:class:`~euchrelog.engine.DealState` (and, for the cards of a deal, a score-sheet line and
a finished deal, against the replay that ``euchrelog check`` runs) before it is taken, so
the record is right by construction: an illegal entry raises
:class:`~euchrelog.errors.IllegalActionError` with the finding code ``check`` would give,
and changes nothing. :meth:`Recorder.undo` takes back the last entry;
:meth:`Recorder.from_game` rebuilds a recorder from a record, to go on with it.

>>> from euchrelog.errors import IllegalActionError
>>> from euchrelog.models import Order, Pass
>>> from euchrelog.seats import Seat
>>> rec = Recorder("four-hand", target=1, players={"N": "Ann", "E": "Ben", "S": "Cy", "W": "Dee"})
>>> rec.deal({"E": "9C TC QS KS AD", "S": "9S TS AS 9D TD", "W": "JD AH KH QH 9H",
...           "N": "AC KC QC JC KD"}, upcard="JH", dealer="N")
>>> rec.bid(Pass(act="pass", seat=Seat.E))
>>> try:
...     rec.bid(Order(act="order", seat=Seat.W))
... except IllegalActionError as exc:
...     print(exc)
B401 W bids out of turn in round 1: it is S's turn
>>> rec.bid(Order(act="order", seat=Seat.S))
>>> rec.sheet(tricks=3)
>>> rec.over, rec.winner, rec.totals
(True, 'NS', {'NS': 1, 'EW': 0})
>>> print(rec.dumps().split("\\n\\n")[1])
deal 1 dealer N
  hands E: 9C TC QS KS AD  S: 9S TS AS 9D TD  W: JD AH KH QH 9H  N: AC KC QC JC KD
  up JH
  bid E pass, S order
  trump H maker S tricks 3
  points NS 1  total NS 1 EW 0

The package's modules: :mod:`.entries` (what the recorder takes: the forms of cards, seats
and hands it accepts, :class:`DealCards`, :data:`Entry`, its errors), :mod:`.deal` (one
deal as recorded, :class:`~euchrelog.recorder.deal.DealRecord`), :mod:`.sheet` (a
score-sheet line and a penalty line), :mod:`.checks` (the checks by replay),
:mod:`.standing` (:class:`RecordedGame`: where a recorded game stands, and its record)
:mod:`.game` (:class:`Recorder`, which takes the entries) and :mod:`.again`
(:class:`Reentry`: a record entered again on one replay of its game, and taken up again
after its last deal).
"""

from __future__ import annotations

from ..engine import Action
from ..files import write_atomic
from .again import Reentry
from .entries import (
    CardLike,
    CardsLike,
    DealCards,
    Entry,
    HandsLike,
    IllegalEntryError,
    PlayersLike,
    RecorderError,
    SeatLike,
    SideLike,
    TakenLike,
)
from .game import Recorder
from .standing import RecordedGame

__all__ = [
    "Action", "CardLike", "CardsLike", "DealCards", "Entry", "HandsLike", "IllegalEntryError",
    "PlayersLike", "RecordedGame", "Recorder", "RecorderError", "Reentry", "SeatLike", "SideLike",
    "TakenLike", "write_atomic",
]
