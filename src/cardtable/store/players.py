"""Players without accounts (docs/server.md: Players): a player is a public id and a
display name; its keys, the secrets its browsers keep, are stored as SHA-256 hashes only,
like seat tokens. A one-time transfer code (hashed too, with its expiry) lets another
browser get a key of the same player; revoking replaces every key by one new key.

The seats a player's key took carry its id (``seats.player_id``); what a player played
and its ratings are derived from the stored tables (:func:`finished_games`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from cardtable.local import now
from cardtable.store import metadata, moves, seats, tables

players = sa.Table(
    "players", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("created", sa.String(32), nullable=False),
    sa.Column("transfer_hash", sa.String(64), nullable=True),   # sha256 of the code
    sa.Column("transfer_expires", sa.Float, nullable=True),     # Unix time
)

player_keys = sa.Table(
    "player_keys", metadata,
    sa.Column("key_hash", sa.String(64), primary_key=True),     # sha256 of the key
    sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("created", sa.String(32), nullable=False),
)
sa.Index("ix_player_keys_player", player_keys.c.player_id)
sa.Index("ix_seats_player", seats.c.player_id)


@dataclass
class PlayerRow:
    id: str
    name: str
    created: str


def create_player(conn: Connection, player_id: str, name: str, key_hash: str) -> PlayerRow:
    stamp = now()
    conn.execute(players.insert().values(id=player_id, name=name, created=stamp))
    conn.execute(player_keys.insert().values(key_hash=key_hash, player_id=player_id,
                                             created=stamp))
    return PlayerRow(player_id, name, stamp)


def player_of_key(conn: Connection, key_hash: str) -> PlayerRow | None:
    found = conn.execute(sa.select(players.c.id, players.c.name, players.c.created)
                         .join(player_keys, player_keys.c.player_id == players.c.id)
                         .where(player_keys.c.key_hash == key_hash)).first()
    return None if found is None else PlayerRow(found.id, found.name, found.created)


def load_player(conn: Connection, player_id: str) -> PlayerRow | None:
    found = conn.execute(sa.select(players.c.id, players.c.name, players.c.created)
                         .where(players.c.id == player_id)).first()
    return None if found is None else PlayerRow(found.id, found.name, found.created)


def all_names(conn: Connection) -> dict[str, str]:
    return {r.id: r.name for r in conn.execute(sa.select(players.c.id, players.c.name))}


def rename(conn: Connection, player_id: str, name: str) -> None:
    conn.execute(players.update().where(players.c.id == player_id).values(name=name))


def set_transfer(conn: Connection, player_id: str, code_hash: str, expires: float) -> None:
    """The player's one transfer code (a new one replaces the last)."""
    conn.execute(players.update().where(players.c.id == player_id).values(
        transfer_hash=code_hash, transfer_expires=expires))


def claim_transfer(conn: Connection, code_hash: str, at: float, key_hash: str
                   ) -> PlayerRow | None:
    """Use a transfer code once: a new key for its player, the code gone; None when no
    unexpired code matches."""
    found = conn.execute(sa.select(players.c.id, players.c.name, players.c.created,
                                   players.c.transfer_expires)
                         .where(players.c.transfer_hash == code_hash)).first()
    if found is None:
        return None
    done = conn.execute(players.update().where(
        players.c.id == found.id, players.c.transfer_hash == code_hash).values(
        transfer_hash=None, transfer_expires=None))
    if done.rowcount != 1 or found.transfer_expires is None or found.transfer_expires < at:
        return None
    conn.execute(player_keys.insert().values(key_hash=key_hash, player_id=found.id,
                                             created=now()))
    return PlayerRow(found.id, found.name, found.created)


def revoke(conn: Connection, player_id: str, key_hash: str, void_hash: str) -> None:
    """Every key of the player and its transfer code void, ``key_hash`` its one key; the
    seat tokens its seats were taken with replaced by ``void_hash``, a hash nobody holds
    the token of (the seats stay the player's: its new key reaches them)."""
    conn.execute(seats.update().where(seats.c.player_id == player_id,
                                      seats.c.token_hash.is_not(None)).values(
        token_hash=void_hash))
    conn.execute(player_keys.delete().where(player_keys.c.player_id == player_id))
    conn.execute(players.update().where(players.c.id == player_id).values(
        transfer_hash=None, transfer_expires=None))
    conn.execute(player_keys.insert().values(key_hash=key_hash, player_id=player_id,
                                             created=now()))


@dataclass
class GameRow:
    """One table a player sat at, as its page lists it."""

    table_id: str
    game: str
    status: str
    seat: int
    created: str
    updated: str
    result: dict[str, Any] | None
    #: per seat: (kind, name, player id or None)
    seats: list[tuple[str, str, str | None]]
    options: dict[str, Any]
    #: per seat, the moves a bot played for its person (a timeout's or a takeover's)
    bot_moves: list[int] = field(default_factory=list)
    #: per seat, the moves it made (counted only at a table where bot_moves has any)
    moves: list[int] = field(default_factory=list)


def games_of(conn: Connection, player_id: str, finished: bool | None = None,
             limit: int = 200) -> list[GameRow]:
    """The tables where the player holds (held, once over) a seat, the newest first."""
    query = (sa.select(tables.c.id, tables.c.game, tables.c.status, tables.c.created,
                       tables.c.updated, tables.c.result, tables.c.options, seats.c.seat)
             .join(seats, seats.c.table_id == tables.c.id)
             .where(seats.c.player_id == player_id))
    if finished is True:
        query = query.where(tables.c.status == "over")
    elif finished is False:
        query = query.where(tables.c.status != "over")
    found = conn.execute(query.order_by(tables.c.updated.desc()).limit(limit)).all()
    return _games(conn, found)


def finished_games(conn: Connection) -> list[GameRow]:
    """Every finished table with at least one player's seat, in the order they finished
    (``updated``, then id): what the ratings are derived from."""
    ids = sa.select(seats.c.table_id).where(seats.c.player_id.is_not(None))
    found = conn.execute(
        sa.select(tables.c.id, tables.c.game, tables.c.status, tables.c.created,
                  tables.c.updated, tables.c.result, tables.c.options,
                  sa.literal(-1).label("seat"))
        .where(tables.c.status == "over", tables.c.id.in_(ids))
        .order_by(tables.c.updated, tables.c.id)).all()
    return _games(conn, found)


def count_finished_games(conn: Connection) -> int:
    """How many finished tables have at least one player's seat (``finished_games``'s)."""
    ids = sa.select(seats.c.table_id).where(seats.c.player_id.is_not(None))
    return int(conn.execute(sa.select(sa.func.count()).select_from(tables).where(
        tables.c.status == "over", tables.c.id.in_(ids))).scalar_one())


def _games(conn: Connection, found: Sequence[Any]) -> list[GameRow]:
    if not found:
        return []
    by_table: dict[str, list[tuple[str, str, str | None]]] = {}
    by_bots: dict[str, list[int]] = {}
    wanted = list({r.id for r in found})
    for start in range(0, len(wanted), 500):
        for s in conn.execute(sa.select(seats.c.table_id, seats.c.seat, seats.c.kind,
                                        seats.c.name, seats.c.player_id, seats.c.bot_moves)
                              .where(seats.c.table_id.in_(wanted[start:start + 500]))
                              .order_by(seats.c.table_id, seats.c.seat)):
            by_table.setdefault(s.table_id, []).append((s.kind, s.name, s.player_id))
            by_bots.setdefault(s.table_id, []).append(s.bot_moves)
    made = _moves_per_seat(conn, [t for t, n in by_bots.items() if any(n)])
    return [GameRow(r.id, r.game, r.status, r.seat, r.created, r.updated,
                    json.loads(r.result) if r.result else None, by_table.get(r.id, []),
                    json.loads(r.options), by_bots.get(r.id, []), made.get(r.id, []))
            for r in found]


def _moves_per_seat(conn: Connection, wanted: list[str]) -> dict[str, list[int]]:
    """Per table, the moves each seat made (the tables where bots played for people)."""
    counts: dict[str, dict[int, int]] = {}
    for start in range(0, len(wanted), 500):
        for m in conn.execute(sa.select(moves.c.table_id, moves.c.seat, sa.func.count())
                              .where(moves.c.table_id.in_(wanted[start:start + 500]),
                                     moves.c.notation.not_like("!%"))   # the table's rows
                              .group_by(moves.c.table_id, moves.c.seat)):
            counts.setdefault(m[0], {})[m[1]] = m[2]
    return {t: [c.get(n, 0) for n in range(max(c) + 1)] for t, c in counts.items()}
