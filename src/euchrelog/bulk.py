"""What the engine's bulk entry replays of a deal (:class:`Parts`: its cards, acts and
tricks as the engine holds them), from the JSON form of the deal or read straight from the
text of a game of notation.

:func:`form_parts` makes them of a deal of the JSON form (as ``json.loads`` gives it, or as
:func:`~euchrelog.notation.read_game` builds it). :func:`read_parts` reads a game of notation
into them: the one assembler of the reader with its parts output
(:data:`euchrelog.notation.kinds.PARTS`), with the game's source map but without the JSON
form of its deals: :func:`euchrelog.fast.check_notation` replays the game from that alone,
and the form of a deal is made only for a deal the bulk entry does not take (a slip; a
score-sheet deal, whose model is that of the keys the game loop reads). The lines it leaves
to the form (a merge, a renege claim) decline the game, which is then read into its form.
The tests hold the two ways to the same parts on every record.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .acts import act_kind
from .cards import Card
from .engine import Played
from .frozen import Frozen
from .notation.assembly import Form, GameAssembler, GameForm
from .notation.kinds import FORM, PARTS
from .notation.lines import LeftToParser, keep_verdict, read_lines_into
from .notation.parts import (
    CARDS,
    NOTES,
    PLAYS,
    SEAT_OF_LETTER,
    DeclineError,
    Parts,
    act_of,
    bid_act,
    sheet_key,
)
from .notation.reader import line_terminals, prepared
from .seats import Seat

__all__ = ["DEAL_KEYS", "LOOP_KEYS", "DeclineError", "Parts", "PartsRead", "form_parts",
           "read_parts"]


def _played(value: Any) -> Played:
    play = act_of("play", value)
    return play.seat, play.card


def _plays(plays: list[dict[str, Any]]) -> list[Played]:
    """The plays of a trick of the JSON form: looked up when written as
    :func:`~euchrelog.notation.read_game` writes them, else through the model of a play."""
    try:
        return [PLAYS[play["seat"]][play["card"]] if len(play) == 2 else _played(play)
                for play in plays]
    except KeyError:
        return [_played(play) for play in plays]


DEAL_KEYS = NOTES | {"number", "dealer", "hands", "extra", "up", "bidding", "exchange",
                     "declarations", "tricks", "score", "penalties"}
"""What a deal the bulk entry takes may have (not a claim, nor a score-sheet line)."""
LOOP_KEYS = ("number", "dealer", "sheet", "score", "penalties")
"""What the game loop reads of a deal, and the full replay of a score-sheet deal; the rest
is the bulk entry's."""
_HANDS_KEYS = NOTES | {"cards"}
_EXTRA_KEYS = NOTES | {"kind", "cards"}
_UP_KEYS = NOTES | {"card", "kitty"}
_BIDDING_KEYS = NOTES | {"bids"}
_TRICK_KEYS = NOTES | {"number", "plays"}


def _comment(text: Any) -> bool:
    """Whether a comment of the JSON form is one the models take (a lone surrogate is
    declined before, with the text: :func:`~euchrelog.fast.verify_json`)."""
    return type(text) is str and "\n" not in text


def _line(line: Any, keys: frozenset[str], size: int) -> Any:
    """``line``, a line of a deal of the JSON form that the bulk entry reads, when it has
    the keys it may have (``keys``) and comments the models take; ``size``: how many keys it
    has without comments. Else raises :class:`DeclineError`: the models, whose findings
    the bulk entry would otherwise miss, tell what is wrong."""
    if type(line) is not dict or not keys.issuperset(line):
        raise DeclineError
    if len(line) > size:  # comments: what the bulk entry does not read, it checks here
        _comments(line)
    return line


def _comments(line: dict[str, Any]) -> None:
    """Raises :class:`DeclineError` unless the comments of ``line`` are as the models take
    them: a ``note`` of one line, ``before`` a list of such."""
    note = line.get("note")
    before = line.get("before", ())
    if ((note is not None and not _comment(note))
            or ("before" in line and type(before) is not list)
            or not all(map(_comment, before))):
        raise DeclineError


def _list(deal: dict[str, Any], key: str) -> list[Any]:
    """The list a deal of the JSON form holds at ``key`` (none: an empty one); raises
    :class:`DeclineError` for anything else there, which the models refuse."""
    value = deal.get(key, _NONE)
    if type(value) is not list:
        raise DeclineError
    return value


_NONE: list[Any] = []
"""What :func:`_list` reads of a key a deal does not have (never changed)."""


def _cards(value: Any) -> list[Card | None]:
    """The cards of a hand, dummy, ghost hand or kitty of the JSON form."""
    if type(value) is not list or not value:
        raise DeclineError  # D303, D306; none: the models refuse it
    return [CARDS[text] for text in value]  # a KeyError: D305


def form_parts(deal: dict[str, Any]) -> Parts:
    """The parts of a deal of the JSON form; raises :class:`DeclineError` (or a lookup
    error) at anything the bulk entry does not take, and at anything the models refuse
    that the bulk entry does not read (a comment that is not text, an empty list), so
    that a deal it takes is one the models take."""
    if "before" in deal or "note" in deal:
        _comments(deal)
    lines = _list(deal, "hands")
    hands: dict[Seat, list[Card | None]] = {}
    if lines:  # else a play-only record
        if len(lines) != 1:
            raise DeclineError
        written = _line(lines[0], _HANDS_KEYS, 1)["cards"]
        if type(written) is not dict or not written:
            raise DeclineError
        hands = {SEAT_OF_LETTER[seat]: _cards(cards) for seat, cards in written.items()}
    extra: Any = deal.get("extra")
    if extra is not None:
        _line(extra, _EXTRA_KEYS, 2)
        extra = (extra["kind"], _cards(extra["cards"]))
    up: Any = deal.get("up")
    if up is not None:
        _line(up, _UP_KEYS, 1 + ("kitty" in up))
        kitty = up.get("kitty")
        up = (CARDS[up["card"]], None if kitty is None else _cards(kitty))
    acts: list[Any] = []
    for line in _list(deal, "bidding"):
        bids = _line(line, _BIDDING_KEYS, 1)["bids"]
        if type(bids) is not list or not bids:
            raise DeclineError
        acts += [bid_act(bid) for bid in bids]
    bids = len(acts)
    exchange = deal.get("exchange")
    if exchange is not None:
        acts.append(act_of("exchange", exchange))
    acts += [act_of(act_kind(decl), decl) for decl in _list(deal, "declarations")]
    tricks = []
    for t, trick in enumerate(_list(deal, "tricks")):
        _line(trick, _TRICK_KEYS, 2)
        plays = trick["plays"]
        if (trick["number"] != t + 1 or type(trick["number"]) is not int
                or type(plays) is not list or not plays):
            raise DeclineError  # P707; the models refuse the rest
        tricks.append(_plays(plays))
    sheet = deal.get("sheet")
    return Parts(hands, extra, up, acts, bids, tricks,
                 None if sheet is None else sheet_key(sheet))


@dataclass(frozen=True)
class PartsRead(Frozen):
    """A game of notation read into :class:`Parts` (:func:`read_parts`)."""

    game: GameForm
    """What the game loop reads of the game, in its JSON form (each deal with the keys the
    loop reads; a points line as its model, validated once by the line's text, as bid lines
    are), and the game's source map."""
    parts: list[Parts]
    form_of: Callable[[int], Form]
    """The whole JSON form of a deal, made when asked for."""
    plain: bool = True
    """Whether the game loop may read the game plainly (:func:`~euchrelog.head.read_head`):
    no line of it makes the loop read its models (a score-sheet, thrown-in or penalty
    line)."""


def read_parts(text: str, first_line: int = 1) -> PartsRead | None:
    """Reads a game of notation into each deal's :class:`Parts`; ``None`` for a game left
    to :func:`~euchrelog.notation.read_game` (one the line reader does not take).

    :raises DeclineError: (or a lookup error, or :class:`~euchrelog.errors.NotationError`)
        for a line the parts do not hold, or that the form's builder would refuse.
    """
    text, fold = prepared(text, first_line)
    assembler = GameAssembler(PARTS, fold=fold)
    read = read_lines_into(text, line_terminals(), assembler, first_line)
    if read is None:  # (the same for the JSON form's reader, which need not read it again)
        keep_verdict(text, first_line, LeftToParser(assembler.unmatched))
    if read is not True:
        return None

    def form_of(d: int) -> Form:
        """The JSON form of deal ``d``, as :func:`~euchrelog.notation.read_game` makes it
        (its comments aside, which change nothing), from the lines kept for its places."""
        # (one pass over the game's lines for the deal asked for: a game with a finding
        # asks for one or two)
        lines = [(kept[3], kept[0], kept[2], kept[4]) for kept in assembler.later
                 if kept[1] == d]
        lines += [row for d_at, row in assembler.rare if d_at == d]
        form = GameAssembler(FORM, fold=fold)
        for number, kind, written, column in sorted(lines):
            form.line(kind, written, number, column, None)
        form.close_deal()
        return form.deals[0]

    return PartsRead(assembler.finish(), assembler.parts, form_of, not assembler.modelled)
