"""What reading and writing EGN share: the file type and version, the metadata kept as
tags, the tags that keep EGN as written, and the comments that keep EGN annotations and
analysis lines."""

from __future__ import annotations

import re

FILE_TYPE = "Euchre Game Notation"
"""The ``fileType`` of an EGN file."""
VERSION = "1.4"
"""The EGN version written."""

META_TAGS = {"title": "Event", "date": "Date", "gameId": "GameId",
             "description": "Description"}
"""Metadata that becomes a tag of the same meaning."""
RULESET_TAG = "EgnRuleset"
"""The tag that keeps an EGN ruleset exactly as written, so that it is written back so."""
PLAYERS_TAG = "EgnPlayers"
"""The tag that keeps EGN player objects (names with external ids) as written."""

CALL_NOTE = re.compile(r"call (\d+): (.*)")
"""A comment above a bid line that keeps an EGN call annotation (``call 5: text``)."""
PLAY_NOTE = re.compile(r"play (\d+): (.*)")
"""A comment above a trick that keeps an EGN play annotation (``play 7: text``)."""
ALTERNATIVE = "alternative: "
"""The start of a comment above a deal that keeps an EGN analysis line."""
