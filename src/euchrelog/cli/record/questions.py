"""The questions of ``euchrelog record``: :class:`Question` (one prompt), :class:`Draft`
(the answers that start a deal or set the game up), the questions Enter answers, the
questions of an event's tags and the help text of each question."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

OPTIONAL = ("seats", "player ", "dealer", "mode", "hand ", "extra", "kitty", "alone", "defend",
            "over", "Date", "Site")
"""The questions that Enter answers (the others ask again)."""

EVENT_TAGS = ("Event", "Site", "Date", "Round", "Table")
"""The tags that place a game in an event, in the order they are written."""
EVENT_QUESTIONS = {"Round": "round of the event > ", "Table": "table > ",
                   "Date": "date (YYYY-MM-DD, Enter for today) > ",
                   "Site": "site (Enter for none) > "}
"""What is asked, when an event is recorded, for a tag not given on the command line."""


@dataclass
class Question:
    """One prompt: its key, its text, the words that complete at it."""

    key: str
    prompt: str
    words: list[str] = field(default_factory=list)
    default: str = ""
    """What Enter answers, where it answers anything (a seat's only legal card)."""


@dataclass
class Draft:
    """The answers to the questions that start a deal (its cards or its score-sheet line),
    or that set the game up; nothing is recorded until the last one."""

    kind: Literal["setup", "deal"]
    answers: list[tuple[str, object]] = field(default_factory=list)
    open_deal: bool = False
    """A score-sheet line for the deal already open (started with its cards or bids)."""

    def get(self, key: str) -> object:
        """The answer to ``key`` (``None`` if not answered)."""
        return next((v for k, v in self.answers if k == key), None)

    def has(self, key: str) -> bool:
        """Whether ``key`` has been answered."""
        return any(k == key for k, _ in self.answers)


HELP = {
    "seats": "the seats the players sit in, e.g. N E S (Enter for the usual ones)",
    "dealer": "the seat that deals the first deal",
    "mode": "full: enter every card of the deal (or as much as is known: hands may "
            "be skipped); sheet: only the score-sheet line (trump, maker, tricks)",
    "upcard": "the card turned up, e.g. JH",
    "trump": "the trump suit (C, D, H or S; NT for no trump under no-trump), or "
             "thrown if everyone passed",
    "maker": "the seat that made trump",
    "alone": "y if the maker played alone, else n; under partner-alone the seat of "
             "the maker's partner if the partner went alone instead",
    "defend": "the seat of a defender who defended alone, or Enter",
    "bid": "the high bid: 3, 4, 5 or moon",
    "tricks": "how many tricks the maker's side took",
    "bid-act": "pass, order (order up, assist or take it), call H (or just H) in "
               "round 2 (call NT under no-trump); in ghost: swap, pass, 3 to 6, "
               "moon; a seat first bids for that seat (S order)",
    "act": "a card (AD, 10h); while the dealer's exchange is open a card is the "
           "discard: discard KD, discard ?? (not seen) or declines; before the lead "
           "also alone, defend E, merge or merge keeps 5 cards; a seat first acts "
           "for that seat (E: AD)",
    "over": "Enter to finish, or undo to take back the last card",
    "renege": "y if the card was played at the table although it breaks the rule "
              "(a renege: it is recorded as played), n to enter another card, or the card "
              "played instead (the refused one was a slip)",
    "claimed": "y if the table claimed the renege (the deal then scores the penalty "
               "instead of the tricks), n if the tricks stand as played",
    "Round": "the round of the event this game is played in, e.g. 1",
    "Table": "the table of the round, e.g. 2",
    "Date": "the date, as YYYY-MM-DD (Enter for today)",
    "Site": "where the event is played (Enter to leave it out)",
    "unknown": "undo back to the card not known (??) and enter it, or undo the plays "
               "of the deal and type sheet to score it from the score sheet",
}
"""What ``?`` says at each question, by its key."""
