"""The first schema: events, their table games, the deals entered and the corrections.

Revision ID: v1
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v1"
down_revision: str | None = None


def upgrade() -> None:
    """Creates the four tables."""
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("format", sa.String(200), nullable=False),
        sa.Column("target", sa.Integer, nullable=True),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("salt", sa.String(32), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("header", sa.Text, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.UniqueConstraint("event_id", "round", "table_no", name="uq_games_place"),
    )
    op.create_table(
        "deals",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("key", sa.String(100), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("response", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "number", name="uq_deals_number"),
        sa.UniqueConstraint("game_id", "key", name="uq_deals_key"),
    )
    op.create_table(
        "corrections",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("old_text", sa.Text, nullable=False),
        sa.Column("new_text", sa.Text, nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drops the four tables."""
    for name in ("corrections", "deals", "games", "events"):
        op.drop_table(name)
