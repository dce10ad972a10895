"""Players for the arena's tests, named as ``support.bots:Class`` on its command line."""

from __future__ import annotations

import time

from euchrelog.players import Decision


class Last:
    """Answers the last act it is offered."""

    def choose(self, decision: Decision) -> int:
        return decision.actions[-1]


class Broken:
    """Raises at every question."""

    def choose(self, decision: Decision) -> int:
        raise RuntimeError("out of ideas")


class Slow:
    """Answers the first act, a tenth of a second late."""

    def choose(self, decision: Decision) -> int:
        time.sleep(0.1)
        return decision.actions[0]


class Wild:
    """Answers a number not offered."""

    def choose(self, decision: Decision) -> int:
        return 999


class NoChoose:
    """Has no ``choose``: not a player."""
