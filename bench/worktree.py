"""The code of an earlier commit, beside this checkout's, for the bench scripts that
compare the two (``--base``: bench/same_findings.py, bench/instructions.py)."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def source_of(commit: str, folder: Path) -> Iterator[Path]:
    """The ``src`` folder of ``commit``, checked out in a git worktree in ``folder`` while
    the block runs, and removed after it."""
    base = folder / "base"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), commit],
                   check=True, capture_output=True)
    try:
        yield base / "src"
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                       check=False, capture_output=True)
