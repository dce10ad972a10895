"""Writes grammar/euchre.lines.json, the grammar's line table (see
:mod:`euchrelog.notation.grammar`), from the grammar as Lark reads it.

    python tests/make_line_table.py           # after changing grammar/euchre.lark
"""

from __future__ import annotations

from pathlib import Path

from euchrelog.notation.grammar import LINE_TABLE_FILE, line_table_text
from euchrelog.notation.parser import parser_line_table

TABLE = Path(__file__).resolve().parents[1] / "grammar" / LINE_TABLE_FILE


def expected() -> str:
    """The table file's text for the grammar as it is."""
    return line_table_text(parser_line_table())


if __name__ == "__main__":
    TABLE.write_text(expected(), encoding="utf-8")
    print(f"wrote {TABLE}")
