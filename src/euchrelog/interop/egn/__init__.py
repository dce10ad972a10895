"""EGN, the Euchre Game Notation of NextSuit Labs (a JSON format, ``.egn``), read into a
game and written back.

An EGN file holds one four-hand game: metadata (title, date, players, the score before the
first deal, house rules) and its deals, each the dealer, the upcard, the calls from the
dealer's left, the lone flags, the dealer's discard and the cards of each trick in the
order played (who played them follows from the rules). :func:`from_egn` reads one into a
:class:`~euchrelog.models.Game`, refusing what the rules reference has no equivalent for
and naming the field; :func:`to_egn` writes a game back and lists what EGN cannot hold.
docs/interop.md gives the whole mapping.

The package's modules: :mod:`.read` (EGN to a game, and :func:`upgrade` of an earlier
version's fields), :mod:`.write` (a game to EGN), and what both ways share:
:mod:`.tables` (the file type and version, the tags and comments that keep EGN as
written), :mod:`.cards` (EGN's cards), :mod:`.ruleset` (an EGN ruleset and the options,
each way) and :mod:`.values` (the checks of the JSON values read, JSON kept in tags and
comments).

>>> text = ('{"fileType": "Euchre Game Notation", "version": "1.4", "metadata": '
...         '{"players": ["Ann", "Bob", "Cy", "Dee"], "initialScore": [4, 9]}, "deals": []}')
>>> game = loads_egn(text).game
>>> game.start.total
{'NS': 4, 'EW': 9}
>>> to_egn(game)[0]["metadata"]["initialScore"]
[4, 9]
"""

from __future__ import annotations

from .cards import card_text
from .read import from_egn, loads_egn, upgrade
from .ruleset import rules_words
from .tables import FILE_TYPE, PLAYERS_TAG, RULESET_TAG, VERSION
from .write import dumps_egn, to_egn

__all__ = ["FILE_TYPE", "PLAYERS_TAG", "RULESET_TAG", "VERSION", "card_text", "dumps_egn",
           "from_egn", "loads_egn", "rules_words", "to_egn", "upgrade"]
