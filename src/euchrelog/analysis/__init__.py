"""Double-dummy analysis of recorded deals (``euchrelog analyze``).

:mod:`.solver` holds the solver, :mod:`.review` the review of a record's deals built on
it, :mod:`.sampler` the layouts of the cards a seat cannot see and :mod:`.single` the
single-dummy values over them; the names below are the API that other commands use (see
docs/analysis.md).
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
from .sampler import Layouts, UnsupportedError
from .single import Settings, SingleDummy, single_dummy
from .solver import Solver

__all__ = ["DealReview", "Layouts", "ParEntry", "PlayReview", "Review", "Settings",
           "SingleDummy", "Skipped", "Solver", "UnsupportedError", "principal_line",
           "review_game", "review_json", "single_dummy"]
