"""Opponent acceptance (each deal's status, who entered and who accepted it; the event's
kind and setting), the audit trail, the director's server-side sessions and the club's
player registry.

Revision ID: v2
Revises: v1
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "v2"
down_revision: str | None = "v1"


def upgrade() -> None:
    """Adds the columns of acceptance and the three tables."""
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("kind", sa.String(20), nullable=False,
                                   server_default="tournament"))
        batch.add_column(sa.Column("acceptance", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("deals") as batch:
        batch.add_column(sa.Column("status", sa.String(10), nullable=False,
                                   server_default="accepted"))
        batch.add_column(sa.Column("entered_by", sa.String(10), nullable=True))
        batch.add_column(sa.Column("accepted_by", sa.String(10), nullable=True))
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey("events.id"), nullable=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=True),
        sa.Column("number", sa.Integer, nullable=True),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("actor", sa.String(60), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("number", name="uq_players_number"),
    )


def downgrade() -> None:
    """Drops the three tables and the columns of acceptance."""
    for name in ("players", "sessions", "audit"):
        op.drop_table(name)
    with op.batch_alter_table("deals") as batch:
        for column in ("accepted_by", "entered_by", "status"):
            batch.drop_column(column)
    with op.batch_alter_table("events") as batch:
        for column in ("acceptance", "kind"):
            batch.drop_column(column)
