"""Alembic environment: the connection comes from ``cardtable.store`` (``cardtable db``)."""

from __future__ import annotations

from alembic import context

from cardtable.store import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations with `cardtable db upgrade --db URL`")
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
