"""Suggestions for a word typed wrongly: the nearest of the words that would have been
right, for a "did you mean" in a message (a command, a finding code, a variant, a house
rule, a key of the configuration).

>>> did_you_mean("fourhand", ["four-hand", "cutthroat", "three-hand"])
'; did you mean four-hand?'
>>> did_you_mean("xyz", ["four-hand", "cutthroat"])
''
"""

from __future__ import annotations

from collections.abc import Iterable


def nearest(word: str, choices: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """The choice closest to ``word`` (case aside), if one is close enough."""
    options = list(choices)
    lowered = {choice.lower(): choice for choice in options}
    from difflib import get_close_matches  # (asked for a word not known)

    found = get_close_matches(word.lower(), list(lowered), n=1, cutoff=cutoff)
    return lowered[found[0]] if found else None


def did_you_mean(word: str, choices: Iterable[str], *, cutoff: float = 0.6) -> str:
    """``; did you mean X?`` for the nearest choice, or nothing when none is near."""
    found = nearest(word, choices, cutoff=cutoff)
    return f"; did you mean {found}?" if found is not None else ""
