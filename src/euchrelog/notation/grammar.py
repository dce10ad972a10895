"""The grammar's files, which the wheel ships in the package (``grammar/`` in a checkout):
the grammar itself (``euchre.lark``) and its line table (``euchre.lines.json``), the
line terminals the line reader (:mod:`.lines`) matches, worked out from the grammar by
Lark and kept with the grammar's hash, so that reading a game needs no Lark until a line
the line reader does not take. ``python tests/make_line_table.py`` writes the table again
after the grammar changes; a test holds it to the grammar, and a table of another grammar
is not used (the line reader then asks Lark for it).
"""

from __future__ import annotations

import json
from pathlib import Path

from .lines import LineTable

GRAMMAR_FILE = "euchre.lark"
LINE_TABLE_FILE = "euchre.lines.json"


def shipped_text(folder: str, name: str) -> str:
    """The text of a file that the wheel ships in the package under ``folder`` and a
    checkout keeps in the top-level folder of that name (``grammar/``, ``docs/``)."""
    above = Path(__file__).resolve().parents
    # (an installed package; an editable install of a checkout)
    for beside in (above[i] / folder / name for i in (1, 3) if i < len(above)):
        if beside.is_file():  # (what importlib.resources finds, without importing it)
            return beside.read_text(encoding="utf-8")
    from importlib import resources  # (a package in a zip file)

    return (resources.files("euchrelog") / folder / name).read_text(encoding="utf-8")


def grammar_text(name: str = GRAMMAR_FILE) -> str:
    """The text of a grammar file shipped with the package (``grammar/`` in a checkout)."""
    return shipped_text("grammar", name)


def grammar_hash() -> str:
    """The SHA-256 of the grammar's text, which names the grammar a line table is of."""
    try:  # (the interpreter's own SHA-256, without OpenSSL's module: a quicker import)
        from _sha256 import sha256  # type: ignore[import-not-found]
    except ImportError:
        from hashlib import sha256
    return str(sha256(grammar_text().encode("utf-8")).hexdigest())


def line_table_text(table: LineTable) -> str:
    """The line table file's text for ``table`` of the grammar shipped."""
    kinds, patterns = table
    return json.dumps({"grammar": grammar_hash(), "kinds": kinds, "patterns": patterns},
                      indent=1, ensure_ascii=False) + "\n"


def shipped_line_table() -> LineTable | None:
    """The line table shipped with the grammar, or ``None`` when there is none or it is of
    another grammar."""
    try:
        data = json.loads(shipped_text("grammar", LINE_TABLE_FILE))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("grammar") != grammar_hash():
        return None
    kinds, patterns = data.get("kinds"), data.get("patterns")
    if not isinstance(kinds, dict) or not isinstance(patterns, dict):
        return None
    return kinds, patterns
