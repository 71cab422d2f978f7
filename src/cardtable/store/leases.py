"""The leases of a cluster's server processes (``cardtable serve --cluster``; docs/server.md,
"Scaling past one machine").

A process owns the tables stored with its name (``tables.owner``) while its lease is
current: a row of ``leases`` (its name, the random id of its run, when the lease
expires), renewed by the process every third of the lease time. Every time is the
database's own clock, so the machines' clocks need not agree. When a lease has expired,
any live process may take it over: in one transaction it deletes the lapsed lease (only if
it is still lapsed) and writes its own name as the owner of the dead process's unfinished
tables. A process whose renewal finds its row gone or held by another run has lost its
tables and stands down; the append of a move is conditional on the owner
(``Store.append_move``), so a process that has not noticed yet cannot write to a table
taken from it.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cardtable.store import lease_rows as leases
from cardtable.store import tables

#: the statuses of the tables a lease covers (finished and closed ones are anyone's)
DONE = ("over", "closed")


def now_sql(conn: Connection) -> sa.ColumnElement[float]:
    """The database's clock, seconds since 1970, as an SQL expression."""
    if conn.dialect.name == "postgresql":
        return sa.cast(sa.func.extract("epoch", sa.func.clock_timestamp()), sa.Float)
    return (sa.func.julianday("now") - 2440587.5) * 86400.0


def db_now(conn: Connection) -> float:
    return float(conn.execute(sa.select(now_sql(conn))).scalar_one())


@dataclass
class Member:
    """A process of the cluster with a current lease."""

    owner: str
    address: str | None
    #: seconds until its lease expires (by the database's clock)
    left: float


def claim(conn: Connection, owner: str, holder: str, seconds: float,
          address: str | None = None) -> bool:
    """Take the lease of ``owner`` for run ``holder``: a new one, one that lapsed or was
    let go, or this run's own. False while another run holds it."""
    expires = now_sql(conn) + seconds
    done = conn.execute(leases.update().where(
        leases.c.owner == owner,
        sa.or_(leases.c.holder == holder, leases.c.expires < now_sql(conn)))
        .values(holder=holder, expires=expires, address=address))
    if done.rowcount == 1:
        return True
    found = conn.execute(sa.select(leases.c.owner).where(leases.c.owner == owner)).first()
    if found is not None:
        return False
    conn.execute(leases.insert().from_select(
        ["owner", "holder", "expires", "address"],
        sa.select(sa.literal(owner), sa.literal(holder), expires, sa.literal(address))))
    return True


def renew(conn: Connection, owner: str, holder: str, seconds: float) -> bool:
    """Push the lease of ``owner`` on; False when run ``holder`` no longer holds it (it was
    taken over: the process has lost its tables)."""
    done = conn.execute(leases.update().where(
        leases.c.owner == owner, leases.c.holder == holder)
        .values(expires=now_sql(conn) + seconds))
    return done.rowcount == 1


def release(conn: Connection, owner: str, holder: str) -> None:
    """A process stopping lets its lease go at once: another takes its tables."""
    conn.execute(leases.update().where(leases.c.owner == owner, leases.c.holder == holder)
                 .values(expires=0.0))


def lapsed(conn: Connection, me: str) -> list[str]:
    """The processes whose lease has expired, oldest first."""
    return list(conn.execute(sa.select(leases.c.owner).where(
        leases.c.expires < now_sql(conn), leases.c.owner != me)
        .order_by(leases.c.expires)).scalars())


def take_over(conn: Connection, dead: str, me: str) -> list[str] | None:
    """Make ``me`` the owner of the unfinished tables of ``dead``, whose lease lapsed; their
    ids. None when its lease is no longer lapsed (renewed, or taken by another)."""
    if conn.dialect.name == "postgresql":
        # a table row locked by a move of a paused process: try again later rather than
        # hold this process's lease work up (its session ends at idle_timeout)
        conn.execute(sa.text("SET LOCAL lock_timeout = '1s'"))
    done = conn.execute(leases.delete().where(leases.c.owner == dead,
                                              leases.c.expires < now_sql(conn)))
    if done.rowcount != 1:
        return None
    where = (tables.c.owner == dead, tables.c.status.not_in(DONE))
    ids = list(conn.execute(sa.select(tables.c.id).where(*where)).scalars())
    conn.execute(tables.update().where(*where).values(owner=me))
    return ids


def members(conn: Connection) -> list[Member]:
    """The processes with a current lease."""
    clock = db_now(conn)
    rows = conn.execute(sa.select(leases.c.owner, leases.c.address, leases.c.expires)
                        .where(leases.c.expires >= clock)).all()
    return [Member(r.owner, r.address, r.expires - clock) for r in rows]


def owner_of(conn: Connection, table_id: str) -> tuple[str | None, str] | None:
    """A table's owner and status (None: no such table)."""
    found = conn.execute(sa.select(tables.c.owner, tables.c.status)
                         .where(tables.c.id == table_id)).first()
    return None if found is None else (found.owner, found.status)


def route(conn: Connection, table_id: str, me: str) -> str | None:
    """The address of the live process that plays ``table_id``, when that is not ``me``
    and the table is unfinished; None otherwise (this process's own, finished, unknown,
    or its process's lease lapsed)."""
    found = conn.execute(
        sa.select(tables.c.owner, tables.c.status, leases.c.address)
        .select_from(tables.join(leases, leases.c.owner == tables.c.owner))
        .where(tables.c.id == table_id, leases.c.expires >= now_sql(conn))).first()
    if found is None or found.status in DONE or found.owner == me:
        return None
    address: str | None = found.address
    return address
