"""The server process that owns a table (several processes sharing one database).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(64), nullable=True))
    op.create_index("ix_tables_owner_status", "tables", ["owner", "status"])


def downgrade() -> None:
    op.drop_index("ix_tables_owner_status", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("owner")
