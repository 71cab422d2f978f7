"""Clocks: a table's clock, and when each server process was last alive.

Revision ID: 0006
Revises: 0003 (on this branch; 0005 once merged after main's 0004 players and 0005 chat)
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("clock", sa.Text, nullable=True))
    op.create_table(
        "heartbeats",
        sa.Column("owner", sa.String(64), primary_key=True),
        sa.Column("alive", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("heartbeats")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("clock")
