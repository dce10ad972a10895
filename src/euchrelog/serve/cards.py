"""The data of the printable table cards (issue 42 item 3; the page is the director's
``/director/events/ID/cards``, template ``serve/cards.html``): each table game's round,
table, players and link, and the link as a QR code (segno), an SVG element with no script
in it.

>>> card = TableCard(1, 2, {"N": "Ann", "E": "Bob", "S": "Cy", "W": "Dee"},
...                  "https://club.example.net/events/1/rounds/1/tables/2#token=0f3a")
>>> svg = card.qr_svg()
>>> svg.startswith("<svg") and "script" not in svg and "#token=" not in svg
True
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TableCard:
    """One table game's card: where it sits, who plays it, and its link (with the table's
    token in the fragment)."""

    round: int
    table: int
    seats: Mapping[str, str]
    link: str

    def qr_svg(self, scale: int = 4) -> str:
        """The link as a QR code (error correction M: a card may be creased), an SVG
        element to put in a page as it is."""
        import segno

        out = io.BytesIO()
        segno.make(self.link, error="m", micro=False).save(
            out, kind="svg", xmldecl=False, svgns=True, scale=scale, border=2,
            svgclass="qr", title=f"round {self.round} table {self.table}")
        return out.getvalue().decode("ascii")


def table_cards(base: str, event_id: int, games: Sequence[Mapping[str, Any]],
                tokens: Sequence[tuple[int, int, str | None]]) -> list[TableCard]:
    """The cards of an event's table games (``games`` as the store gives them, ``tokens``
    as :meth:`~euchrelog.serve.store.Store.tokens` gives them: a game made with another
    director's token has no card), their links under ``base`` (``https://host``)."""
    seats = {(g["round"], g["table_no"]): g["state"]["seats"] for g in games}
    return [TableCard(r, t, seats.get((r, t), {}),
                      f"{base.rstrip('/')}/events/{event_id}/rounds/{r}/tables/{t}"
                      f"#token={token}")
            for r, t, token in tokens if token is not None]
