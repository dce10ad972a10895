"""A match's report as text, JSON or an HTML page (the template ``arena.html`` of
:mod:`euchrelog.present`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..events.output import StandingsRow, StandingsTable
from ..present.render import render
from .match import Fault, Setup
from .results import Standing

NOTE = ("net: the side's points per deal less the other sides' (the mean over boards, with "
        "its 95% interval); points: the side's own points per deal; won: the share of "
        "boards done better on than the others (ties a half); rating: Elo from those "
        "boards, 1500 the mean.")


@dataclass(frozen=True)
class Match:
    """A match as played, for its report."""

    setup: Setup
    boards: int
    games: int
    standings: list[Standing]
    faults: list[Fault]
    interrupted: bool = False


def meta(match: Match) -> str:
    """The line that says what was played."""
    setup = match.setup
    rules = f" ({setup.rules})" if setup.rules else ""
    how = (f"duplicate, {len(setup.players)} games a board" if setup.duplicate
           else "one game a board")
    stopped = ", interrupted" if match.interrupted else ""
    return (f"{setup.variant}{rules}, {match.boards} board{'s' if match.boards != 1 else ''}"
            f" ({how}, {match.games} games), seed {setup.seed}{stopped}")


def fault_line(fault: Fault, players: Sequence[str]) -> str:
    """One fault, in words."""
    return (f"board {fault.board} game {fault.game}, {fault.seat} ({players[fault.player]}): "
            f"{fault.kind}: {fault.detail}; asked {fault.asked}; played {fault.instead} "
            "instead")


def _cells(row: Standing) -> list[str]:
    return [f"{row.net:+.3f}", f"±{row.net_ci:.3f}", f"{row.points:.3f}",
            f"±{row.points_ci:.3f}", f"{row.won:.1%}", f"{row.rating:.0f}"]


TITLES = ["net/deal", "95% CI", "points/deal", "95% CI", "won", "rating"]


def text(match: Match) -> str:
    """The report as a table of text."""
    names = [row.name for row in match.standings]
    width = max([len("player"), *map(len, names)])
    cells = [_cells(row) for row in match.standings]
    widths = [max(len(t), *(len(c[i]) for c in cells)) for i, t in enumerate(TITLES)]
    out = [f"arena: {meta(match)}",
           f"rank  {'player'.ljust(width)}  "
           + "  ".join(t.rjust(w) for t, w in zip(TITLES, widths, strict=True))]
    for rank, (row, cell) in enumerate(zip(match.standings, cells, strict=True), 1):
        out.append(f"{rank:>4}  {row.name.ljust(width)}  "
                   + "  ".join(c.rjust(w) for c, w in zip(cell, widths, strict=True)))
    players = match.setup.names
    out.append(f"faults: {len(match.faults)}" if match.faults else "faults: none")
    out += [f"  {fault_line(f, players)}" for f in match.faults]
    return "\n".join(out) + "\n"


def as_json(match: Match) -> dict[str, Any]:
    """The report as JSON data (docs/players.md, "The report")."""
    setup = match.setup
    return {
        "variant": setup.variant, "rules": setup.rules, "seed": setup.seed,
        "duplicate": setup.duplicate, "boards": match.boards, "games": match.games,
        "interrupted": match.interrupted,
        "players": [{"name": row.name, "net": row.net, "net_ci": row.net_ci,
                     "points": row.points, "points_ci": row.points_ci, "won": row.won,
                     "rating": row.rating} for row in match.standings],
        "faults": [{"player": setup.names[f.player], "board": f.board, "game": f.game,
                    "seat": f.seat.value, "kind": f.kind, "detail": f.detail,
                    "asked": f.asked, "instead": f.instead} for f in match.faults],
    }


def json_text(match: Match) -> str:
    """:func:`as_json` as one JSON document."""
    return json.dumps(as_json(match), indent=2) + "\n"


def html(match: Match) -> str:
    """The report as a self-contained HTML page."""
    table = StandingsTable("player", TITLES, [
        StandingsRow(str(rank), row.name, _cells(row), rank == 1)
        for rank, row in enumerate(match.standings, 1)])
    parts = {"meta": meta(match), "table": table, "note": NOTE,
             "faults": [fault_line(f, match.setup.names) for f in match.faults]}
    return render("arena.html", title="Arena", match=parts)
