"""Tally sheets as clubs keep them (docs/sheets.md): CSV and XLSX files read into games of
the notation that ``check``, ``score`` and ``stats`` take, and written from games.

Two layouts are known, found by their headers (any case):

- **one row a player a round**: ``Round``, ``Table``, ``Player``, ``Partner`` and a column
  a hand, ``Hand 1``, ``Hand 2``, ... (the points the player's side scored in the hand: a
  number, a mark ``x`` for one point, or blank for none), and perhaps ``Total``;
- **one row a table a round**: ``Round``, ``Table``, the players ``N``, ``E``, ``S``,
  ``W``, and two columns a hand, ``NS 1``, ``EW 1``, ``NS 2``, ``EW 2``, ...

Other headers are given by a column mapping (``round=Rnd``, ``hand=H`` for the hands'
prefix, ...). Every cell that cannot be read, and every table that does not add up, is an
error at ``file:sheet:row:column`` (the column as the spreadsheet letters it); a sheet with
an error gives no game. A table's game has the sheet's hands as deals known by their points
(dealt from North on), the tags ``score`` groups events by (``Event``, ``Format
"progressive deals=N"``, ``Round``, ``Table``) and the players.

>>> rows = [["Round", "Table", "Player", "Partner", "Hand 1", "Hand 2"],
...         ["1", "1", "Ann", "Cy", "1", ""], ["1", "1", "Bob", "Dee", "", "2"],
...         ["1", "1", "Cy", "Ann", "x", ""], ["1", "1", "Dee", "Bob", "", "2"]]
>>> games, errors = read_rows(rows, Place("club.csv", "club"), "Club")
>>> errors, [d.score.points for d in games[0].deals]
([], [{'NS': 1}, {'EW': 2}])
>>> _, errors = read_rows([*rows[:4], ["1", "1", "Dee", "Bob", "", "3"]],
...                       Place("club.csv", "club"), "Club")
>>> print(errors[0])
club.csv:club:5:F: Dee's hand 2 says 3, but the partner Bob's says 2
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .models import Deal, End, Game, Log, Score, Tag
from .notation.writer import dumps
from .seats import Seat

FIELDS = ("round", "table", "player", "partner", "total", "hand", "ns", "ew", "n", "e", "s",
          "w")
"""The fields of a column mapping: a column's header for each, ``hand``, ``ns`` and ``ew``
the prefix of the hands' columns (followed by the hand's number)."""

DEFAULTS = {"round": "round", "table": "table", "player": "player", "partner": "partner",
            "total": "total", "hand": "hand", "ns": "ns", "ew": "ew", "n": "n", "e": "e",
            "s": "s", "w": "w"}
"""The headers of the common layouts (compared without case or spaces)."""

MARKS = frozenset({"x", "✓", "✔", "/", "•", "*"})
"""What a hand's cell may hold for one point."""

_HAND_RE = re.compile(r"(\D*?)\s*#?\s*(\d{1,3})")


@dataclass(frozen=True)
class Place:
    """A sheet: its file and its name (a CSV file's is its name without the suffix)."""

    path: str
    sheet: str

    def at(self, row: int, column: int) -> str:
        """``file:sheet:row:column`` of a cell (1-based; the column lettered)."""
        return f"{self.path}:{self.sheet}:{row}:{letters(column)}"


@dataclass(frozen=True)
class SheetError:
    """A cell that cannot be read, or a table that does not add up."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def letters(column: int) -> str:
    """A spreadsheet's letters for a column (1: A, 27: AA)."""
    out = ""
    while column:
        column, rest = divmod(column - 1, 26)
        out = chr(65 + rest) + out
    return out


def mapping_of(pairs: Iterable[str]) -> dict[str, str]:
    """A column mapping from ``field=header`` words (``round=Rnd``).

    :raises ValueError: for a word that is not one, or an unknown field.
    """
    out = dict(DEFAULTS)
    for pair in pairs:
        name, sep, header = pair.partition("=")
        name = name.strip().lower()
        if not sep or name not in FIELDS or not header.strip():
            raise ValueError(f"a column mapping is field=header with a field among "
                             f"{', '.join(FIELDS)}, not {pair!r}")
        out[name] = header.strip()
    return out


def _key(text: str) -> str:
    return re.sub(r"\s+", "", text).casefold()


def read_sheet(path: Path, event: str | None = None,
               mapping: Mapping[str, str] | None = None) -> tuple[list[Game], list[SheetError]]:
    """The games of a tally sheet file (``.csv``, or ``.xlsx`` with a sheet each), and its
    errors; ``event`` names the event (by default the file's name without suffix)."""
    name = event or path.stem
    if path.suffix.lower() in (".xlsx", ".xlsm"):
        from openpyxl import load_workbook

        book = load_workbook(path, read_only=True, data_only=True)
        games: list[Game] = []
        errors: list[SheetError] = []
        for sheet in book.worksheets:
            rows = [["" if v is None else _cell_text(v) for v in row]
                    for row in sheet.iter_rows(values_only=True)]
            found, wrong = read_rows(rows, Place(path.name, sheet.title), name, mapping)
            games.extend(found)
            errors.extend(wrong)
        book.close()
        return games, errors
    text = path.read_text(encoding="utf-8-sig")
    return read_rows(list(csv.reader(io.StringIO(text))), Place(path.name, path.stem), name,
                     mapping)


def _cell_text(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def read_rows(rows: Sequence[Sequence[str]], place: Place, event: str,
              mapping: Mapping[str, str] | None = None) -> tuple[list[Game], list[SheetError]]:
    """The games of one sheet's rows (the first row its headers) and its errors."""
    headers = [_key(h) for h in (rows[0] if rows else [])]
    given = {k: _key(v) for k, v in (mapping or DEFAULTS).items()}
    columns = {f: headers.index(given[f]) for f in FIELDS if f in given
               and given[f] in headers}
    reader = _Rows(rows, place, columns)
    if "player" in columns:
        reader.players(_hands(headers, given["hand"]))
    elif all(s in columns for s in "nesw"):
        reader.tables(_hands(headers, given["ns"]), _hands(headers, given["ew"]))
    else:
        reader.error(1, 1, "the headers name neither a player a row (Round, Table, Player, "
                           "Partner, Hand 1, ...) nor a table a row (Round, Table, N, E, S, "
                           "W, NS 1, EW 1, ...): give a column mapping")
    for need in ("round", "table"):
        if need not in columns and not reader.errors:
            reader.error(1, 1, f"no {given[need]!r} column")
    if reader.errors:
        return [], reader.errors
    return [reader.game(event, key, hands) for key, hands in sorted(reader.found.items())], []


def _hands(headers: list[str], prefix: str) -> dict[int, int]:
    """The column of each hand, by its number: the headers ``prefix`` and a number."""
    out = {}
    for k, header in enumerate(headers):
        found = _HAND_RE.fullmatch(header)
        if found and found.group(1) == prefix:
            out[int(found.group(2))] = k
    return dict(sorted(out.items()))


@dataclass
class _Table:
    """What the rows say of one table in one round."""

    row: int
    seats: dict[Seat, str] = field(default_factory=dict)
    points: list[dict[str, int]] = field(default_factory=list)


@dataclass
class _Rows:
    rows: Sequence[Sequence[str]]
    place: Place
    columns: dict[str, int]
    errors: list[SheetError] = field(default_factory=list)
    found: dict[tuple[int, int], _Table] = field(default_factory=dict)

    def error(self, row: int, column: int, message: str) -> None:
        self.errors.append(SheetError(self.place.at(row, column), message))

    def cell(self, row: int, name: str) -> str:
        k = self.columns.get(name)
        values = self.rows[row - 1]
        return values[k].strip() if k is not None and k < len(values) else ""

    def number(self, row: int, name: str) -> int | None:
        text = self.cell(row, name)
        if text.isascii() and text.isdigit() and 1 <= int(text[:4]) <= 999 and len(text) <= 3:
            return int(text)
        self.error(row, self.columns[name] + 1, f"{name} {text!r} is not a whole number "
                                                "1 to 999")
        return None

    def points(self, row: int, column: int, what: str) -> int | None:
        values = self.rows[row - 1]
        text = values[column].strip() if column < len(values) else ""
        if not text or text in ("-", "0"):
            return 0
        if text.casefold() in MARKS:
            return 1
        if text.isascii() and text.isdigit() and int(text) <= 24:
            return int(text)
        self.error(row, column + 1, f"{what} {text!r} is not points (a number, a mark x, or "
                                    "blank)")
        return None

    def _blank(self, row: int) -> bool:
        return not any(str(v).strip() for v in self.rows[row - 1])

    def players(self, hands: dict[int, int]) -> None:
        """One row a player a round: the players of a table paired by their partners."""
        if not hands:
            self.error(1, 1, "no hand columns (Hand 1, Hand 2, ...)")
            return
        seen: dict[tuple[int, int], list[tuple[int, str, str, list[int]]]] = {}
        for row in range(2, len(self.rows) + 1):
            if self._blank(row):
                continue
            round_, table = self.number(row, "round"), self.number(row, "table")
            name, partner = self.cell(row, "player"), self.cell(row, "partner")
            if not name:
                self.error(row, self.columns["player"] + 1, "no player's name")
            got = [self.points(row, k, f"{name}'s hand {n}") for n, k in hands.items()]
            if "total" in self.columns and self.cell(row, "total"):
                total = self.points(row, self.columns["total"], f"{name}'s total")
                if total is not None and None not in got and total != sum(
                        g for g in got if g is not None):
                    self.error(row, self.columns["total"] + 1,
                               f"{name}'s total {total} is not the sum of the hands, "
                               f"{sum(g for g in got if g is not None)}")
            if round_ is None or table is None or not name or None in got:
                continue
            seen.setdefault((round_, table), []).append(
                (row, name, partner, [g for g in got if g is not None]))
        for key, players in seen.items():
            self._pair(key, players, hands)

    def _pair(self, key: tuple[int, int], players: list[tuple[int, str, str, list[int]]],
              hands: dict[int, int]) -> None:
        first = players[0][0]
        if len(players) != 4:
            self.error(first, self.columns["table"] + 1,
                       f"round {key[0]} table {key[1]} has {len(players)} players, not 4")
            return
        by_name = {p[1].casefold(): p for p in players}
        a = players[0]
        mate = by_name.get(a[2].casefold()) if a[2] else None
        if mate is None or mate is a:
            where = self.columns.get("partner", self.columns["player"]) + 1
            self.error(a[0], where, f"{a[1]}'s partner {a[2]!r} is not at the table")
            return
        others = [p for p in players if p is not a and p is not mate]
        sides = ((a, mate), (others[0], others[1]))
        for one, two in sides:
            for n, (mine, theirs) in enumerate(zip(one[3], two[3], strict=True)):
                if mine != theirs:
                    self.error(two[0], list(hands.values())[n] + 1,
                               f"{two[1]}'s hand {list(hands)[n]} says {theirs}, but the "
                               f"partner {one[1]}'s says {mine}")
                    return
        points = []
        for n, (ns, ew) in enumerate(zip(a[3], others[0][3], strict=True)):
            if ns and ew:
                self.error(others[0][0], list(hands.values())[n] + 1,
                           f"hand {list(hands)[n]}: both sides scored ({ns} and {ew})")
                return
            points.append({"NS": ns} if ns else {"EW": ew} if ew else {})
        self.found[key] = _Table(first, {Seat.N: a[1], Seat.S: mate[1], Seat.E: others[0][1],
                                         Seat.W: others[1][1]}, points)

    def tables(self, ns: dict[int, int], ew: dict[int, int]) -> None:
        """One row a table a round: the players by seat, the points of each side a hand."""
        if not ns or set(ns) != set(ew):
            self.error(1, 1, "the hand columns must come in pairs, NS 1 and EW 1, NS 2 ...")
            return
        for row in range(2, len(self.rows) + 1):
            if self._blank(row):
                continue
            round_, table = self.number(row, "round"), self.number(row, "table")
            seats = {Seat(s.upper()): self.cell(row, s) for s in "nesw"}
            for s, name in seats.items():
                if not name:
                    self.error(row, self.columns[s.value.lower()] + 1, f"no player at {s}")
            points = []
            for n in ns:
                a = self.points(row, ns[n], f"NS's hand {n}")
                b = self.points(row, ew[n], f"EW's hand {n}")
                if a and b:
                    self.error(row, ew[n] + 1, f"hand {n}: both sides scored ({a} and {b})")
                points.append({"NS": a} if a else {"EW": b} if b else {})
            if round_ is None or table is None:
                continue
            if (round_, table) in self.found:
                self.error(row, self.columns["table"] + 1,
                           f"round {round_} table {table} is on two rows")
                continue
            self.found[round_, table] = _Table(row, seats, points)

    def game(self, event: str, key: tuple[int, int], table: _Table) -> Game:
        """A table's game: its hands as deals known by their points, dealt from North."""
        hands = [p for p in table.points]
        while hands and not hands[-1]:
            hands.pop()  # (hands not played: blank to the end)
        tags = [Tag(name="Event", value=event),
                Tag(name="Format", value=f"progressive deals={len(hands)}"),
                Tag(name="Round", value=str(key[0])), Tag(name="Table", value=str(key[1])),
                Tag(name="Variant", value="four-hand"),
                Tag(name="Rules", value=f"deals={len(hands)}")]
        tags += [Tag(name=s.value, value=table.seats[s]) for s in (Seat.N, Seat.E, Seat.S,
                                                                   Seat.W)]
        totals = {"NS": 0, "EW": 0}
        deals = []
        order = (Seat.N, Seat.E, Seat.S, Seat.W)
        for n, points in enumerate(hands, 1):
            for side, got in points.items():
                totals[side] += got
            deals.append(Deal(number=n, dealer=order[(n - 1) % 4],
                              score=Score(points=points or {"NS": 0}, total=dict(totals))))
        top = max(totals.values())
        leaders = [s for s, v in totals.items() if v == top]
        end = End(act="result", scores=dict(totals),
                  winner=leaders[0] if len(leaders) == 1 else None) if deals else \
            End(act="unfinished")
        return Game(tags=tuple(tags), deals=tuple(deals), end=end)


def notation(games: Sequence[Game]) -> str:
    """Games in the notation (what ``euchrelog sheet read`` writes)."""
    return dumps(Log(games=tuple(games)))


def tally_rows(games: Sequence[Game], layout: str = "players") -> list[list[str]]:
    """A tally sheet's rows of a progressive event's games, in ``layout`` (``players``: one
    row a player a round; ``tables``: one row a table a round)."""
    from .events import seat_players
    from .replay import replay

    tables = []
    for game in games:
        report = replay(game)
        points, before = [], dict.fromkeys(report.ruleset.side_names, 0)
        for deal in report.deals:  # (what each side scored: its running total's change)
            points.append({s: v - before.get(s, 0) for s, v in deal.totals.items()
                           if v != before.get(s, 0)})
            before = deal.totals
        names = seat_players(game, report.ruleset)
        tables.append((game.tag("Round") or "1", game.tag("Table") or "1", names, points))
    hands = max((len(t[3]) for t in tables), default=0)
    if layout == "tables":
        rows = [["Round", "Table", "N", "E", "S", "W",
                 *[f"{side} {n}" for n in range(1, hands + 1) for side in ("NS", "EW")]]]
        for round_, table, names, points in tables:
            cells = []
            for k in range(hands):
                hand = points[k] if k < len(points) else {}
                cells += [str(hand.get("NS", "")), str(hand.get("EW", ""))]
            rows.append([round_, table, *(names.get(s, s.value) for s in
                                          (Seat.N, Seat.E, Seat.S, Seat.W)), *cells])
        return rows
    rows = [["Round", "Table", "Player", "Partner", *[f"Hand {n}" for n in
                                                      range(1, hands + 1)], "Total"]]
    for round_, table, names, points in tables:
        for seat in (Seat.N, Seat.E, Seat.S, Seat.W):
            side = "NS" if seat in (Seat.N, Seat.S) else "EW"
            mine = [p.get(side, 0) for p in points]
            rows.append([round_, table, names.get(seat, seat.value),
                         names.get(seat.partner, seat.partner.value),
                         *[str(v) if v else "" for v in mine],
                         *[""] * (hands - len(mine)), str(sum(mine))])
    return rows


def write_sheet(rows: Sequence[Sequence[str]], path: Path) -> None:
    """Writes rows as a CSV file, or (``.xlsx``) a workbook of one sheet, numbers as
    numbers."""
    if path.suffix.lower() == ".xlsx":
        from openpyxl import Workbook

        book = Workbook()
        sheet = book.active
        assert sheet is not None
        sheet.title = path.stem[:31] or "tally"
        for row in rows:
            sheet.append([int(v) if v.isdigit() else v for v in row])
        book.save(path)
        return
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
