"""What the game loop reads of a game (its tags, each deal's number, dealer and points line,
its end line), read from the game's JSON form without the models, for the fast path of
``check``: a game whose loop reads plainly is replayed without importing pydantic.

:func:`read_head` reads only what is plainly valid, and declines anything else
(:class:`~euchrelog.notation.parts.DeclineError`): a start line, a score-sheet line, a
penalty, a deal the bulk entry does not take, a value of another type or spelling than the
reader writes. The full path then validates the game's models, which tell what is wrong:
this module states no rule of the models, it only recognises what they take without a
doubt.
"""

from __future__ import annotations

import re
from typing import Any

from .rules.tags import TAG_NAME
from .seats import SIDE_NAMES, Seat, parse_seat

__all__ = ["DealHead", "EndHead", "GameHead", "ScoreHead", "TagHead", "one_line",
           "plain_comments", "read_head", "read_score"]

_LIMIT = 999_999
"""The largest number the notation writes (six digits)."""
_TAG_NAME_RE = re.compile(TAG_NAME)
_NOTES = frozenset({"before", "note"})
_GAME_KEYS = frozenset({"tags", "deals", "end", "after", "start"})
_TAG_KEYS = _NOTES | {"name", "value"}
_SCORE_KEYS = _NOTES | {"points", "total"}
_END_KEYS = _NOTES | {"act", "scores", "winner"}


class Decline(Exception):  # noqa: N818 (a signal, not an error)
    """A game whose loop does not read plainly: the full path validates its models."""


class TagHead:
    """A header tag: its name and value."""

    __slots__ = ("name", "value")

    def __init__(self, name: str, value: str) -> None:
        self.name = name
        self.value = value


class ScoreHead:
    """A points line: the points and the running totals written (either may be ``None``)."""

    __slots__ = ("points", "total")

    def __init__(self, points: dict[str, int] | None, total: dict[str, int] | None) -> None:
        self.points = points
        self.total = total


class DealHead:
    """What the game loop reads of a deal: its number, dealer and points line (a deal read
    so has no score-sheet line and no penalty)."""

    __slots__ = ("dealer", "number", "score")

    sheet = None
    penalties: tuple[Any, ...] = ()

    def __init__(self, number: int, dealer: Seat, score: ScoreHead | None) -> None:
        self.number = number
        self.dealer = dealer
        self.score = score


class EndHead:
    """The game's last line: ``result`` with its scores and winner, or ``unfinished``."""

    __slots__ = ("act", "scores", "winner")

    def __init__(self, act: str, scores: dict[str, int] | None, winner: str | None) -> None:
        self.act = act
        self.scores = scores
        self.winner = winner


class GameHead:
    """What the game loop reads of a game (a game read so has no start line)."""

    __slots__ = ("deals", "end", "tags")

    start = None

    def __init__(self, tags: tuple[TagHead, ...], deals: tuple[DealHead, ...],
                 end: EndHead | None) -> None:
        self.tags = tags
        self.deals = deals
        self.end = end

    def tag(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag called ``name`` (case-insensitive)."""
        key = name.lower()
        return next((t.value for t in self.tags if t.name.lower() == key), default)


def one_line(value: Any) -> bool:
    """Whether ``value`` is one line of text, as the models take a comment or tag value."""
    if type(value) is not str or "\n" in value:
        return False
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False  # a lone surrogate
    return True


def plain_comments(line: dict[str, Any]) -> bool:
    """Whether the comments of a line of the JSON form (``note``, ``before``) are plainly
    as the models take them."""
    note = line.get("note")
    if note is not None and not one_line(note):
        return False
    if "before" not in line:
        return True
    before = line["before"]
    return type(before) is list and all(map(one_line, before))


def _number(value: Any, low: int) -> int:
    if type(value) is not int or not low <= value <= _LIMIT:
        raise Decline
    return value


def _sides(value: Any) -> dict[str, int] | None:
    """Points by side, as written (sides in capitals); ``None`` for none."""
    if value is None:
        return None
    if type(value) is not dict or not value:
        raise Decline
    for side, points in value.items():
        if side not in SIDE_NAMES or type(side) is not str:
            raise Decline
        _number(points, -_LIMIT)
    return value


def _line(value: Any, keys: frozenset[str]) -> dict[str, Any]:
    if type(value) is not dict or not keys.issuperset(value) or not plain_comments(value):
        raise Decline
    return value


def read_score(form: Any) -> ScoreHead:
    """A points line of the JSON form, read plainly; raises :class:`Decline` otherwise."""
    line = _line(form, _SCORE_KEYS)
    points, total = _sides(line.get("points")), _sides(line.get("total"))
    if points is None and total is None:
        raise Decline
    return ScoreHead(points, total)


def _seat(value: Any) -> Seat:
    if type(value) is not str:
        raise Decline
    return parse_seat(value)  # (a ValueError for no seat: the full path tells it)


def _deal(form: Any, keys: frozenset[str]) -> DealHead:
    deal = _line(form, keys)
    score = deal.get("score")
    if score is not None and type(score) is not ScoreHead:
        score = read_score(score)
    return DealHead(_number(deal.get("number"), 1), _seat(deal.get("dealer")), score)


def _end(form: Any) -> EndHead | None:
    if form is None:
        return None
    end = _line(form, _END_KEYS)
    act = end.get("act", "result")
    scores = end.get("scores")
    if scores == {}:
        scores = None  # ("result" alone)
    winner = end.get("winner")
    if act == "unfinished":
        if scores is not None or winner is not None:
            raise Decline
    elif act != "result" or (winner is not None and (
            type(winner) is not str or winner not in SIDE_NAMES)):
        raise Decline
    return EndHead(act, _sides(scores), winner)


def read_head(game: Any, deal_keys: frozenset[str]) -> GameHead:
    """What the game loop reads of ``game`` (its JSON form), each deal of which has only
    ``deal_keys`` (the bulk entry's, less a score-sheet line and penalties); raises
    :class:`Decline` (or a ``ValueError``) for anything not plainly valid."""
    if (type(game) is not dict or not _GAME_KEYS.issuperset(game)
            or game.get("start") is not None):
        raise Decline
    tags = game.get("tags")
    deals = game.get("deals", ())
    after = game.get("after", ())
    if (type(tags) is not list or not tags or type(deals) not in (list, tuple)
            or type(after) not in (list, tuple) or not all(map(one_line, after))):
        raise Decline
    # (the deals first: a game of score-sheet lines is declined at its first deal)
    deal_heads = tuple(_deal(deal, deal_keys) for deal in deals)
    heads = []
    for tag in tags:
        line = _line(tag, _TAG_KEYS)
        name, value = line.get("name"), line.get("value")
        if (type(name) is not str or not _TAG_NAME_RE.fullmatch(name) or type(value) is not str
                or not one_line(value)):
            raise Decline
        heads.append(TagHead(name, value))
    end = _end(game.get("end"))
    if not deals and end is None:
        raise Decline
    return GameHead(tuple(heads), deal_heads, end)
