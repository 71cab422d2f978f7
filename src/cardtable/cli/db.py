"""``cardtable db``: the server database's schema (Alembic migrations shipped inside)."""

from __future__ import annotations

import click

from cardtable.cli.serve import DB_HELP, database_url


@click.group()
def db() -> None:
    """Manage the server's database schema."""


@db.command()
@click.option("--db", "db_url", metavar="URL", help=DB_HELP, callback=database_url)
def upgrade(db_url: str | None) -> None:
    """Create or migrate the schema to the one this cardtable needs."""
    from cardtable import store

    url = db_url or store.default_url()
    engine = store.make_engine(url)
    try:
        before = store.current_revision(engine)
        store.upgrade(engine)
        after = store.current_revision(engine)
    finally:
        engine.dispose()
    if before == after:
        click.echo(f"{store.safe_url(url)}: schema already at revision {after}")
    else:
        click.echo(f"{store.safe_url(url)}: schema upgraded from {before or 'nothing'} "
                   f"to revision {after}")


@db.command()
@click.option("--db", "db_url", metavar="URL", help=DB_HELP, callback=database_url)
def status(db_url: str | None) -> None:
    """Say whether the schema is current, outdated or absent."""
    from cardtable import store

    url = db_url or store.default_url()
    engine = store.make_engine(url)
    try:
        state = store.schema_status(engine)
        current = store.current_revision(engine)
    finally:
        engine.dispose()
    click.echo(f"{store.safe_url(url)}: {state} (revision {current or 'none'}, this "
               f"cardtable needs {store.head_revision()})")
