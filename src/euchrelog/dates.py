"""The Date tag read as a date: ``YYYY-MM-DD``, written with ``-``, ``.`` or ``/``, and
perhaps a time after it.

``stats --date`` keeps games by it, and ``check`` notes a Date tag it cannot read (T206).
"""

from __future__ import annotations

import re

_DATE = re.compile(r"\s*(\d{4})[-./](\d{1,2})[-./](\d{1,2})(?:[T ][0-9:.]+(?:Z|[+-][0-9:]+)?)?\s*$")
"""A date, and perhaps a time after it (as EGN writes ``2026-06-02T19:02``)."""


def iso_date(text: str | None) -> str | None:
    """A Date tag's value as ``YYYY-MM-DD`` (written with ``-``, ``.`` or ``/``, perhaps
    with a time after it), or ``None`` when it is not a date.

    >>> iso_date("2025.5.17"), iso_date("2026-06-02T19:02"), iso_date("spring")
    ('2025-05-17', '2026-06-02', None)
    """
    match = _DATE.match(text or "")
    if match is None:
        return None
    year, month, day = (int(g) for g in match.groups())
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"
