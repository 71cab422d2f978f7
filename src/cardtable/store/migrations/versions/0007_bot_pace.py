"""Bots at a human pace, takeovers counted (issue 37): each table's bot pace (seconds a
bot waits after the move before its own), and per seat the moves a bot played for its
person (a timeout's or a takeover's), which decide whether the game is rated.

Revision ID: 0007
Revises: 0006
Create Date: 2027-01-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # null: a table stored before, whose bots played at once (it keeps that pace)
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("bot_pace", sa.Float, nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bot_moves", sa.Integer, nullable=False,
                                   server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bot_moves")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("bot_pace")
