"""Finding codes and the :class:`Finding` record.

Every fault the engine can find has a stable code listed in :data:`CODES`, with a short
name, the rule of RULES.md it enforces, and a severity. docs/findings.md explains each one.

>>> CODES["R801"].name
'renege'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

Severity = Literal["error", "warning", "note"]
"""How much a finding weighs: an ``error`` (the record is wrong), a ``warning`` (the
record is incomplete or assumes something; counted like an error) or a ``note`` (a fact
worth telling that is no fault of the record, such as a renege the table claimed, P2)."""


@dataclass(frozen=True)
class Code:
    """One kind of finding."""

    code: str
    """The stable code, e.g. ``R801``."""
    name: str
    """A short name in kebab case, e.g. ``renege``."""
    rule: str
    """The rule ids of RULES.md it enforces (empty for notation and record faults)."""
    summary: str
    """One line on what it means."""
    severity: Severity = "error"
    reseat: bool = False
    """An act written under a seat that may not make it, which the replay reads as the
    due seat's when that fits the rest of the deal (P4)."""
    slip: Literal["", "play", "deck", "twice"] = ""
    """What the code says of a card written where it stands, which the replay may read as
    a slip of the pen there: ``play``, its seat cannot have played it; ``deck``, it is no
    card of the deck; ``twice``, it is recorded in two places."""
    renege: bool = False
    """A renege (P1): once a deal for a seat, and a note when the table claimed it (P2)."""
    gap: bool = False
    """A finding that a line missing from a deal makes anywhere in the deal."""
    tally: Literal["", "total", "end"] = ""
    """A finding on the running totals (``total``) or the game's end (``end``), which a
    deal left unchecked upsets."""
    sequence: Literal["", "number", "dealer"] = ""
    """A finding on a deal's place in the sequence of deals (its number, its dealer), which
    rests on the deal before."""
    open: Literal["", "game", "deal", "trick"] = ""
    """A mark of a record still being written, which ``record`` accepts while it is: the
    game not at its end (``game``), the last deal short of tricks or points (``deal``), its
    last trick short of cards (``trick``)."""
    syntax: bool = False
    """The input, or a game of it, cannot be read: always reported (never selected away,
    ignored or suppressed), and a syntax error of the run (exit status 2)."""
    stops: Literal["", "game", "deal"] = ""
    """What cannot be replayed past it: the ``game`` (its variant is unknown; ``stats``,
    ``score`` and ``review`` leave it out), or the ``deal``'s play (no trump is fixed:
    reported at the first act it stops, and not after another fault of the deal, which it
    then follows from)."""
    suspect: Literal["", "hand", "lead"] = ""
    """Where else the slip of the pen behind it may be, which the replay tries (P4):
    ``hand``, a card one letter away in the hand of the seat that plays a card it does not
    hold (that hand's record is wrong: one finding a deal for the seat); ``lead``, for a
    lead out of turn, a card of the trick before, which decided who leads."""
    unfounded: bool = False
    """A renege claim the replay finds no renege behind: the deal is scored by its tricks,
    not by the claim's penalty."""
    sheet: Literal["", "slip", "unknown", "line"] = ""
    """A finding on a deal's score-sheet line, shown at the deal's score: ``slip``, a number
    the scorer wrote is not the replay's (the totals the scorer carried then follow it);
    ``unknown``, the deal's points are unknown (and so the totals after it); ``line``,
    another fault of the line."""
    unended: bool = False
    """Says that the game did not reach its end (an event's E966 would only repeat it)."""
    event: bool = False
    """An event check of ``euchrelog score`` (docs/tournaments.md), which ``check`` never
    reports: it needs every game of an event."""
    fix: Literal["", "safe", "unsafe"] = ""
    """What ``check --fix`` can do for it (docs/findings.md, "Fixes"): ``safe``, a
    correction the replay proves, at least where the finding says what it took the record as;
    ``unsafe``, a guess, applied only with ``--unsafe-fixes``."""
    opt_in: bool = False
    """Reported only when asked for (``--unused-noqa``, or ``--select`` naming it)."""


_TABLE = [
    Code("S101", "syntax-error", "", "the text does not follow the notation", syntax=True),
    Code("S102", "invalid-json", "", "a JSON record does not match the schema", syntax=True),
    Code("S103", "file-too-large", "", "the input is larger than --max-file-size; the rest is "
                                       "not read", syntax=True),
    Code("S104", "line-too-long", "", "a line is longer than --max-line-length; the rest of the "
                                      "input is not read", syntax=True),
    Code("N101", "unknown-noqa-code", "", "a '# noqa:' comment names a code that does not exist, "
         "so it leaves out nothing", "warning", fix="unsafe"),
    Code("N102", "unused-noqa", "", "a '# noqa' comment leaves out no finding (reported on "
         "request: --unused-noqa)", "warning", fix="safe", opt_in=True),
    Code("T201", "missing-variant", "", "the game has no Variant tag; four-hand is assumed",
         "warning", fix="safe"),
    Code("T202", "unknown-variant", "", "the Variant tag names a variant euchrelog does not know",
         stops="game"),
    Code("T203", "bad-option", "",
         "an option (in the Rules or Deck tag) is unknown, has a bad value or is not played "
         "in this variant"),
    Code("T204", "bad-tag-value", "",
         "a Deck, Target, Deals or Seats tag, or the player-name tags, do not fit the game"),
    Code("T205", "conflicting-options", "", "two tags or options say different things"),
    Code("T206", "date-not-read", "", "the Date tag is not a date like 2025-05-17, so "
         "stats --date leaves the game out", "note"),
    Code("D301", "deal-number", "", "a deal number is not one more than the previous one",
         sequence="number", fix="unsafe"),
    Code("D302", "wrong-dealer", "C7 H4", "the deal did not pass to the left (or, under "
         "pass-out=same-dealer, stay after a throw-in)", sequence="dealer", fix="unsafe"),
    Code("D303", "hand-size", "F2", "a hand does not have the right number of cards"),
    Code("D304", "duplicate-card", "C8", "a card is recorded in two places of the deal",
         slip="twice", fix="safe"),
    Code("D305", "card-not-in-deck", "C1", "a card is not in the deck the game uses",
         slip="deck", fix="safe"),
    Code("D306", "kitty-size", "F2", "the kitty does not have the right number of cards"),
    Code("D307", "deal-after-end", "C9", "a deal is recorded after the game ended",
         tally="total"),
    Code("B401", "bid-out-of-turn", "F3 F5 P4", "a bid by a seat whose turn it was not",
         reseat=True, fix="unsafe"),
    Code("B402", "bid-wrong-round", "F3 F5", "an order in round 2, or a suit named in round 1"),
    Code("B403", "turned-down-suit", "F5", "the suit of the turned-down upcard was named"),
    Code("B404", "stick-the-dealer", "F6", "the dealer passed in round 2 under stick-the-dealer"),
    Code("B405", "bid-after-close", "F3 F5", "a bid after the bidding had ended"),
    Code("B406", "no-trump", "F3 F5 F8", "play or declarations recorded but no trump was fixed",
         gap=True, stops="deal"),
    Code("B407", "benny-bid", "F7", "after a Benny turn-up only the dealer names trump",
         reseat=True, fix="unsafe"),
    Code("B408", "bid-too-low", "G3", "a trick bid that does not outbid, or is not 3 to 6"),
    Code("B409", "swap-not-allowed", "G2",
         "a second swap with the ghost hand, or one after bidding", reseat=True,
         fix="unsafe"),
    Code("B410", "no-trump-call", "F5 H5",
         "no trump was called where the game does not allow it"),
    Code("K501", "exchange-not-allowed", "F4 F5",
         "an exchange by a seat or at a time that allows none", reseat=True,
         fix="unsafe"),
    Code("K502", "discard-not-held", "F4", "the dealer discarded a card not among the six"),
    Code("K503", "takes-wrong-card", "F4", "the dealer took a card that is not the upcard"),
    Code("K504", "pickup-required", "F4 F7", "the dealer declined a pickup the rules require"),
    Code("K505", "merge-not-allowed", "X5 X6",
         "a dummy merge by a lone maker, by a seat not the maker, or with no dummy",
         reseat=True, fix="unsafe"),
    Code("K506", "merge-keeps-wrong-card", "X5",
         "a merge keeps a card not among the ten, or not five cards"),
    Code("K507", "merge-required", "X5",
         "under dummy=required the maker neither merged nor went alone"),
    Code("K508", "pickup-not-natural", "F4",
         "under natural-pickup the dealer took the upcard holding no natural trump"),
    Code("A601", "alone-not-allowed", "F9",
         "a seat other than the maker (or, under partner-alone, its partner) went alone",
         reseat=True, fix="unsafe"),
    Code("A602", "defend-not-allowed", "F9", "a seat that may not defend alone declared it",
         reseat=True, fix="unsafe"),
    Code("A603", "declared-twice", "F9",
         "a second lone declaration of the same kind (or by the other maker)"),
    Code("A604", "canadian-loner", "H3",
         "under canadian-loner the dealer's partner ordered up and did not go alone",
         gap=True),
    Code("P701", "play-out-of-turn", "C6 F10 P4", "a card played by a seat whose turn it was not",
         reseat=True, suspect="lead", fix="unsafe"),
    Code("P702", "card-not-held", "P4", "a card played by a seat that does not hold it",
         slip="play", suspect="hand", fix="safe"),
    Code("P703", "card-played-twice", "C8", "a card played a second time", slip="play",
         fix="safe"),
    Code("P704", "sitting-out-plays", "F9 P4", "a seat that sits out played a card",
         reseat=True, fix="unsafe"),
    Code("P705", "trick-size", "C6", "a trick does not have one card from each playing seat",
         gap=True, open="trick"),
    Code("P706", "trick-count", "F11", "a deal does not have all its tricks", gap=True,
         open="deal"),
    Code("P707", "trick-number", "", "a trick number is out of sequence", gap=True,
         fix="safe"),
    Code("P708", "dead-card", "C8",
         "a card from the kitty, the discard or the turned-down upcard was played",
         slip="play", fix="safe"),
    Code("P709", "card-misread", "P4",
         "a card the rest of the deal contradicts, read as the card one letter away that fits",
         fix="safe"),
    Code("R801", "renege", "C5 P1", "a player did not follow suit while holding the led suit",
         renege=True),
    Code("R802", "renege-by-evidence", "C5 P1",
         "a later play proves an earlier failure to follow suit", renege=True),
    Code("R803", "false-claim", "P2", "a renege claim with no renege behind it",
         unfounded=True),
    Code("C901", "points-differ", "F11 P2 P3",
         "the points written for a deal are not the points it scored", sheet="slip",
         fix="safe"),
    Code("C902", "total-differs", "F11 H6", "a running total does not add up", tally="total",
         sheet="slip", fix="safe"),
    Code("C903", "sheet-impossible", "F11", "a score-sheet line that cannot be right",
         sheet="line"),
    Code("C904", "unknown-side", "F1 H6", "points or a penalty written for a side this "
         "variant does not have", sheet="line"),
    Code("C905", "points-unknown", "F11", "the deal's points can be neither recomputed nor read",
         "warning", gap=True, open="deal", sheet="unknown"),
    Code("G951", "game-unfinished", "C9", "the record stops before the game ended",
         tally="end", open="game", unended=True),
    Code("G952", "result-differs", "C9", "the recorded final score is not the score",
         tally="end", fix="safe"),
    Code("G953", "winner-differs", "C9 F12", "the recorded winner is not the winner",
         tally="end", fix="safe"),
    Code("G954", "not-unfinished", "C9", "the record is marked unfinished but the game ended",
         tally="end", open="game", fix="safe"),
    Code("G955", "result-too-early", "C9", "a result is recorded but the game had not ended",
         tally="end", unended=True, fix="unsafe"),
    Code("E961", "bad-format", "",
         "the Format tag cannot be read, or the games of one event disagree on it", event=True),
    Code("E962", "game-unplaced", "",
         "a game of an event has no Round or Table tag, or a seat has no player's name",
         event=True),
    Code("E963", "seated-twice", "", "a player is seated twice in one round", event=True),
    Code("E964", "table-missing", "",
         "a round has no game for a table, or a round is missing", event=True),
    Code("E965", "length-differs", "C9",
         "a game is not played to the event's length: its deals or its target", event=True),
    Code("E966", "game-short", "C9", "a game of an event was not played to its end",
         unended=True, event=True),
    Code("E967", "duplicate-game", "", "the same game is entered twice", event=True),
    Code("E968", "table-twice", "",
         "two different games are entered for one table of a round", event=True),
    Code("E969", "partners-changed", "",
         "in a partners event, a player changes partners", event=True),
]

EVENT_CODES = frozenset(c.code for c in _TABLE if c.event)
"""The codes of the event checks, reported by ``euchrelog score`` and never by ``check``."""

CODES: dict[str, Code] = {c.code: c for c in _TABLE}
"""Every finding code, by code."""


@dataclass(frozen=True)
class Edit:
    """One change of a record's text that a fix makes: the text from ``column`` to ``end``
    (1-based, ``end`` excluded) of ``line`` replaced by ``text``; ``end`` 0 with ``text``
    ``None`` deletes the whole line.

    The replay names the part to change by its locus and ``kind`` (what stands there: a
    ``card``, a ``seat``, a ``number``, the ``points`` or ``total`` of a score line, the
    ``end`` line, a tag's ``name``, a whole ``line``), with the text written there (``old``);
    the source map places it (``line``, ``column``), and the text of the record gives its
    ``end`` (:func:`euchrelog.fixes.resolve`). An edit whose part is not found where it is
    placed is dropped with its fix."""

    text: str | None
    kind: str = ""
    old: str = ""
    """What the record writes there, as the replay read it."""
    locus: tuple[Any, ...] = ()
    line: int = 0
    column: int = 0
    end: int = 0


@dataclass(frozen=True)
class Fix:
    """How ``check --fix`` corrects a finding: edits of the record's text, all or none."""

    edits: tuple[Edit, ...]
    title: str
    """What it does, in a few words: ``write 9D for 9H``."""
    safe: bool = True
    """Whether the replay proves it; else it is a guess (``--unsafe-fixes``)."""

    def to_dict(self) -> dict[str, Any]:
        """The fix as a JSON-ready dict (in a finding's ``fix``)."""
        return {"applicability": "safe" if self.safe else "unsafe", "message": self.title,
                "edits": [{"line": e.line, "column": e.column, "end_column": e.end,
                           "content": e.text} for e in self.edits]}


@dataclass(frozen=True)
class Finding:
    """One fault found in a record, with where it is."""

    code: str
    """The stable code, a key of :data:`CODES`."""
    message: str
    """One lowercase line naming the cards, seats and trick involved."""
    line: int = 0
    """1-based line in the source (0 when unknown)."""
    column: int = 0
    """1-based column in the source (0 when unknown)."""
    deal: int | None = None
    """The deal number, where the finding belongs to a deal."""
    trick: int | None = None
    """The trick number, where the finding belongs to a trick."""
    seat: str | None = None
    """The seat at fault, where there is one."""
    path: str | None = None
    """The file, when known."""
    game: int | None = None
    """The 1-based game number in the file."""
    level: Severity | None = None
    """The severity of this finding, where it is not its code's (a claimed renege is a
    note)."""
    card: str | None = None
    """The card the finding is about, where there is one (``??`` for a card not known)."""
    part: str | None = None
    """The part of the act at fault, where it is one: ``discard`` or ``takes`` of an
    exchange, ``keeps`` of a merge."""
    where: str | None = None
    """The place in a record from elsewhere, where a line and column do not apply: a JSON
    path in EGN (``$.deals[2].phases[0].calls[4]``) or ``line:action`` in OpenSpiel."""
    fix: Fix | None = None
    """How ``check --fix`` corrects it, where it can (:class:`Fix`)."""

    @property
    def severity(self) -> Severity:
        """``error``, ``warning`` or ``note``: the finding's own level, else its code's."""
        return self.level or CODES[self.code].severity

    @property
    def is_fault(self) -> bool:
        """Whether the finding is a fault of the record (an error or a warning), which
        sets the exit status; a note does not."""
        return self.severity != "note"

    @property
    def name(self) -> str:
        """The code's short name."""
        return CODES[self.code].name

    @property
    def kind(self) -> Code:
        """The code's row of the table: its name, severity and policy."""
        return CODES[self.code]

    def to_dict(self) -> dict[str, Any]:
        """The finding as a JSON-ready dict."""
        place = {"where": self.where} if self.where is not None else {}
        return {"path": self.path, "line": self.line, "column": self.column,
                "code": self.code, "name": self.name, "severity": self.severity,
                "message": self.message, "game": self.game, "deal": self.deal,
                "trick": self.trick, "seat": self.seat, "card": self.card, "part": self.part,
                "fix": self.fix.to_dict() if self.fix is not None else None, **place}

    def __str__(self) -> str:
        path = f"{self.path}:" if self.path else ""
        level = "" if self.severity == "error" else f"{self.severity}: "
        where = self.where if self.where is not None else f"{self.line}:{self.column}"
        return f"{path}{where}: {self.code} {level}{self.message}"


def policy_text(c: Code) -> str:
    """The policy columns of a code, as the "policy" column of docs/findings.md writes them."""
    flags = [name for name, on in (
        ("reseat", c.reseat), ("renege", c.renege), ("unfounded", c.unfounded), ("gap", c.gap),
        ("unended", c.unended), ("syntax", c.syntax), ("event", c.event)) if on]
    flags += [f"{name}={value}" for name, value in (
        ("slip", c.slip), ("suspect", c.suspect), ("stops", c.stops), ("sheet", c.sheet),
        ("tally", c.tally), ("sequence", c.sequence), ("open", c.open), ("fix", c.fix))
        if value]
    flags += ["opt-in"] if c.opt_in else []
    return " ".join(flags) or "-"


def codes_table() -> str:
    """The "All codes" table of docs/findings.md, from :data:`CODES`."""
    rows = ["| code | name | severity | rules | policy | what it means |",
            "|---|---|---|---|---|---|"]
    for c in _TABLE:
        severity = c.severity + (" (note when claimed)" if c.renege else "")
        rows.append(f"| [{c.code}](#{c.code.lower()}-{c.name}) | {c.name} | {severity} | "
                    f"{c.rule or '-'} | {policy_text(c)} | {c.summary} |")
    return "\n".join(rows)


_NOQA = re.compile(r"#\s*noqa\b(?:\s*:(?P<codes>[^#]*))?", re.IGNORECASE)
_WORD = re.compile(r"[^\s,]+")
_CODE_LIKE = re.compile(r"[A-Za-z][A-Za-z0-9]{2,4}")
"""A word a ``# noqa:`` comment may mean as a code: a letter and two to four letters or
digits, one of them a digit at least (``C901``, and ``C9O1`` with a letter O)."""
_CONFUSED = str.maketrans("OoIlSsZzBb", "0011552288")
"""Letters typed for the digits they look like, in the number of a code."""


@dataclass(frozen=True)
class Noqa:
    """A ``# noqa`` comment at the end of a line: the codes it names, each with its place
    (``codes`` is ``None`` for a bare ``# noqa``, which leaves out every code)."""

    column: int
    """Where the comment starts (its ``#``), 1-based."""
    end: int
    """Where its last code ends (1-based, excluded), or the word ``noqa``."""
    codes: tuple[tuple[str, int, int], ...] | None
    """Each code named, as written but in upper case, with its columns (start, end)."""

    def names(self, code: str) -> bool:
        """Whether the comment leaves out findings of ``code``."""
        return self.codes is None or any(c == code for c, _, _ in self.codes)


def noqa_of(line: str) -> Noqa | None:
    """The ``# noqa`` comment at the end of a line of notation, if it has one.

    >>> noqa_of("  points NS 2  # noqa: C901, R8O1 (agreed)").codes
    (('C901', 24, 28), ('R8O1', 30, 34))
    >>> noqa_of("  points NS 2  # noqa").codes is None, noqa_of("  points NS 2") is None
    (True, True)
    """
    if "#" not in line or line.lstrip().startswith("#"):
        return None  # (a comment line is no line a finding points at)
    match = _NOQA.search(line)
    if match is None:
        return None
    if match.group("codes") is None:
        return Noqa(match.start() + 1, match.end() + 1, None)
    codes: list[tuple[str, int, int]] = []
    start = match.start("codes")
    for word in _WORD.finditer(match.group("codes")):
        text = word.group()
        if not (_CODE_LIKE.fullmatch(text) and any(ch.isdigit() for ch in text)):
            break  # (the words after the codes are the comment's own)
        codes.append((text.upper(), start + word.start() + 1, start + word.end() + 1))
    end = codes[-1][2] if codes else match.end("codes") + 1
    return Noqa(match.start() + 1, end, tuple(codes))


def nearest_code(text: str) -> str | None:
    """The finding code ``text`` was most likely meant as (a letter O for a zero, a code one
    character away), if any.

    >>> nearest_code("C9O1"), nearest_code("r8o1"), nearest_code("X123")
    ('C901', 'R801', None)
    """
    from .spelling import nearest

    word = text.strip().upper()
    fixed = word[:1] + word[1:].translate(_CONFUSED)
    if fixed in CODES:
        return fixed
    return nearest(word, list(CODES), cutoff=0.7)


def is_suppressed(code: str, line: str) -> bool:
    """Whether a ``# noqa`` comment on ``line`` suppresses a finding of ``code`` there:
    ``# noqa`` alone suppresses every code, ``# noqa: R801, C901`` those codes. Syntax
    errors (the ``syntax`` column: S1xx) are never suppressed.

    >>> is_suppressed("C901", "  points NS 1  # noqa"), is_suppressed("C901", "  points NS 1")
    (True, False)
    >>> is_suppressed("R801", "  1. E: AD  S: 9S  W: 9H  N: AC  # noqa: R801, C901")
    True
    >>> is_suppressed("R801", "  points NS 1  # noqa: C901"), is_suppressed("R801", "# noqa:")
    (False, False)
    """
    if CODES[code].syntax:
        return False
    noqa = noqa_of(line)
    return noqa is not None and noqa.names(code)
