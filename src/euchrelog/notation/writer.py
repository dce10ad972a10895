"""Writing the canonical notation.

The canonical form: one tag per line; a blank line before each deal and before the end
line; two-space indent inside a deal; the parts of a deal in a fixed order (hands, up,
bid, exchange, declarations and merge in the order made, score-sheet line, tricks,
claims, penalties, points); cards and seats
in upper case with ``T`` for ten; keywords in lower case; comments as ``# text``.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, TextIO

from ..acts import Bid, Call, Declaration, Exchange, Merge, Number, Swap
from ..cards import UNKNOWN, Card
from ..rules import MOON
from ..seats import Seat

if TYPE_CHECKING:
    from ..models import (
        Bidding,
        Claim,
        Deal,
        End,
        Extra,
        Game,
        Hands,
        Line,
        Log,
        LogItem,
        Penalty,
        Score,
        Sheet,
        Start,
        Tag,
        Trick,
        Upcard,
    )

INDENT = "  "


def _card(card: Card | None) -> str:
    return UNKNOWN if card is None else str(card)


def _cards(cards: Iterable[Card | None]) -> str:
    return " ".join(_card(c) for c in cards)


def _sides(sides: dict[str, int]) -> str:
    return " ".join(f"{side} {points}" for side, points in sides.items())


def _tricks_bid(tricks: int) -> str:
    return "moon" if tricks == MOON else str(tricks)


def _bids(bids: Iterable[Bid]) -> str:
    items: list[str] = []
    swapped: Seat | None = None
    for bid in bids:
        if swapped is not None and (swapped != bid.seat or isinstance(bid, Swap)):
            items.append(f"{swapped} swap")
        prefix = "swap " if swapped == bid.seat else ""
        swapped = None
        if isinstance(bid, Swap):
            swapped = bid.seat
            continue
        if isinstance(bid, Call):
            act = f"call {bid.suit}"
        elif isinstance(bid, Number):
            act = _tricks_bid(bid.tricks)
        else:
            act = bid.act
        items.append(f"{bid.seat} {prefix}{act}")
    if swapped is not None:
        items.append(f"{swapped} swap")
    return ", ".join(items)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _emit(out: list[str], indent: str, line: Line, text: str) -> None:
    out.extend(f"{indent}# {c}" if c else f"{indent}#" for c in line.before)
    note = "" if line.note is None else f"  # {line.note}" if line.note else "  #"
    out.append(f"{indent}{text}{note}")


def deal_text(deal: Deal) -> str:
    """The head line of a deal."""
    return f"deal {deal.number} dealer {deal.dealer}"


def hands_text(hands: Hands) -> str:
    """A hands line, as it reads."""
    return "hands " + "  ".join(f"{seat}: {_cards(cards)}" for seat, cards in hands.cards.items())


def extra_text(extra: Extra) -> str:
    """A dummy or ghost line, as it reads."""
    return f"{extra.kind} {_cards(extra.cards)}"


def up_text(up: Upcard) -> str:
    """An up line, as it reads."""
    text = "up " + _card(up.card)
    if up.kitty is not None:
        text += "  kitty " + _cards(up.kitty)
    return text


def bid_text(bidding: Bidding) -> str:
    """A bid line, as it reads."""
    return "bid " + _bids(bidding.bids)


def score_text(score: Score) -> str:
    """A points line, as it reads."""
    parts = []
    if score.points is not None:
        parts.append("points " + _sides(score.points))
    if score.total is not None:
        parts.append("total " + _sides(score.total))
    return "  ".join(parts)


def exchange_text(ex: Exchange) -> str:
    """The exchange line of a deal, without its indent and comments."""
    if ex.act == "declines":
        return f"{ex.seat} declines"
    takes = f"takes {_card(ex.upcard)} " if ex.takes else ""
    return f"{ex.seat} {takes}discards {_card(ex.discard)}"


def merge_text(merge: Merge) -> str:
    """A dummy merge, as its line reads."""
    keeps = f" keeps {_cards(merge.keeps)}" if merge.keeps is not None else ""
    return f"{merge.seat} merges{keeps}"


def declare_text(decl: Declaration) -> str:
    """A lone declaration, as its line reads."""
    return f"{decl.act} {decl.seat}"


def act_text(act: Declaration | Merge | Exchange) -> str:
    """A lone declaration, a dummy merge or an exchange, as its line reads."""
    if isinstance(act, Exchange):
        return exchange_text(act)
    if isinstance(act, Merge):
        return merge_text(act)
    return declare_text(act)


def trick_text(trick: Trick) -> str:
    """A trick line, as it reads."""
    plays = "  ".join(f"{p.seat}: {_card(p.card)}" for p in trick.plays)
    return f"{trick.number}. {plays}"


def claim_text(claim: Claim) -> str:
    """A renege claim, as its line reads."""
    return f"renege {claim.seat}" + (f" trick {claim.trick}" if claim.trick else "")


def sheet_text(sheet: Sheet) -> str:
    """A score-sheet line, as it reads."""
    if sheet.thrown:
        return "thrown in"
    text = f"trump {sheet.trump} maker {sheet.maker}"
    if sheet.alone:
        text += " alone"
    if sheet.defend is not None:
        text += f" defend {sheet.defend}"
    if sheet.bid is not None:
        text += f" bid {_tricks_bid(sheet.bid)}"
    if sheet.tricks is not None:
        text += f" tricks {sheet.tricks}"
    elif sheet.taken is not None:
        text += " tricks " + " ".join(f"{s} {n}" for s, n in sheet.taken.items())
    return text


_BARE_REASON = re.compile(r'[^\s#"][^#\r\n]*')


def penalty_text(penalty: Penalty) -> str:
    """A penalty line, as it reads: the reason bare, or in quotes when it needs them."""
    reason = penalty.reason
    if not _BARE_REASON.fullmatch(reason) or reason != reason.strip():
        reason = f'"{_escape(reason)}"'
    return f"penalty {penalty.who} {penalty.points} {reason}"


def deal_lines(deal: Deal) -> list[str]:
    """The canonical lines of one deal."""
    out: list[str] = []
    _emit(out, "", deal, deal_text(deal))
    for hands in deal.hands:
        _emit(out, INDENT, hands, hands_text(hands))
    if deal.extra is not None:
        _emit(out, INDENT, deal.extra, extra_text(deal.extra))
    if deal.up is not None:
        _emit(out, INDENT, deal.up, up_text(deal.up))
    for bidding in deal.bidding:
        _emit(out, INDENT, bidding, bid_text(bidding))
    for act in deal.acts:
        _emit(out, INDENT, act, act_text(act))
    if deal.sheet is not None:
        _emit(out, INDENT, deal.sheet, sheet_text(deal.sheet))
    for trick in deal.tricks:
        _emit(out, INDENT, trick, trick_text(trick))
    for claim in deal.claims:
        _emit(out, INDENT, claim, claim_text(claim))
    for penalty in deal.penalties:
        _emit(out, INDENT, penalty, penalty_text(penalty))
    if deal.score is not None:
        _emit(out, INDENT, deal.score, score_text(deal.score))
    return out


def start_text(start: Start) -> str:
    """The canonical text of a start line."""
    parts = ["start"]
    if start.deal is not None:
        parts.append(f"deal {start.deal}")
    if start.total is not None:
        parts.append("total " + _sides(start.total))
    return parts[0] + " " + "  ".join(parts[1:])


def tag_line(tag: Tag) -> str:
    """The canonical text of one tag."""
    return f'[{tag.name} "{_escape(tag.value)}"]'


def end_text(end: End) -> str:
    """The canonical text of an end line."""
    if end.act == "unfinished":
        return "unfinished"
    text = "result"
    if end.scores:
        text += " " + _sides(end.scores)
    if end.winner:
        text += f" winner {end.winner}"
    return text


def game_lines(game: Game) -> list[str]:
    """The canonical lines of one game."""
    out: list[str] = []
    for tag in game.tags:
        _emit(out, "", tag, tag_line(tag))
    if game.start is not None:
        out.append("")
        _emit(out, "", game.start, start_text(game.start))
    for deal in game.deals:
        out.append("")
        out.extend(deal_lines(deal))
    if game.end is not None:
        out.append("")
        _emit(out, "", game.end, end_text(game.end))
    out.extend(f"# {c}" if c else "#" for c in game.after)
    return out


def dumps_game(game: Game) -> str:
    """The canonical notation of one game, ending with a newline."""
    return "\n".join(game_lines(game)) + "\n"


def dumps(log: Log) -> str:
    """The canonical notation of a whole log; games are separated by a blank line."""
    from ..models import log_items  # (the writer of a line needs no model module)

    out = io.StringIO()
    write_log(log_items(log), out)
    return out.getvalue()


def dump(log: Log, fp: TextIO) -> None:
    """Writes the canonical notation of ``log`` to a text file object."""
    fp.write(dumps(log))


def write_log(items: Iterable[LogItem], fp: TextIO) -> None:
    """Writes games as they come (from :func:`~euchrelog.notation.iter_log`) in canonical
    notation: the same text as :func:`dumps` of the whole log, without holding it."""
    first = True
    for item in items:
        if not first:
            fp.write("\n")
        first = False
        if isinstance(item, tuple):
            fp.write("\n".join(f"# {c}" if c else "#" for c in item) + "\n")
        else:
            fp.write(dumps_game(item))
