"""Past one machine (issue 38): the leases of a cluster's server processes. A process
started with ``cardtable serve --cluster`` owns its tables while its lease is current;
when it lapses another process takes them (cardtable.store.leases).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("owner", sa.String(64), primary_key=True),
        sa.Column("holder", sa.String(32), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("address", sa.String(255), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("leases")
