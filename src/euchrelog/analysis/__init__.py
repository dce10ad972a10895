"""Double-dummy analysis of recorded deals (``euchrelog analyze``).

:mod:`.solver` holds the solver, :mod:`.review` the review of a record's deals built on
it; the names below are the API that other commands use (see docs/analysis.md).
"""

from __future__ import annotations

from .review import (
    DealReview,
    ParEntry,
    PlayReview,
    Review,
    Skipped,
    principal_line,
    review_game,
    review_json,
)
from .solver import Solver

__all__ = ["DealReview", "ParEntry", "PlayReview", "Review", "Skipped", "Solver",
           "principal_line", "review_game", "review_json"]
