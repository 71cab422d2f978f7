"""Chat at the table: its lines, each seat's mutes, and the table's chat switch.

Revision ID: 0005
Revises: 0003 (0004 on main is the players' migration: chain this one after it on merge)
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("chat", sa.Boolean, nullable=False,
                                   server_default=sa.true()))
    op.create_table(
        "chat",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("preset", sa.String(32), nullable=True),
        sa.Column("at", sa.String(32), nullable=False),
    )
    op.create_table(
        "chat_mutes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("muted", sa.Integer, primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    op.drop_table("chat")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("chat")
