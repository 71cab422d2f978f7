"""Chat at the table (docs/server.md: Chat): two channels, who reads what, limits, mutes.

A seat's line goes to the seats' channel, which only the seats read; a spectator's line to
the spectators' channel, which everyone reads (the page lets a player hide it). A line is
free text or a preset (an id the page translates), cleaned as names are, at most
``CHAT_MAX`` characters, at ``chat_rate`` lines a second per seat. It is stored with the
table before anyone receives it; a new connection's welcome carries the last lines it may
read. A seat may mute another seat, or a spectator (by the id its lines carry), for
itself: the server stops sending it those lines (and leaves them out of its welcome).
Spectators' lines are limited per client address and per table, not per connection: a
hundred sockets say no more than one. Nothing here is logged but counts.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cardtable.local import now
from cardtable.server.connections import Connection
from cardtable.server.database import Database
from cardtable.server.limits import Bucket, Buckets
from cardtable.server.messages import ChatLine, ChatMessage, Muted, MuteMessage
from cardtable.server.reading import CHAT_MAX, CHAT_PRESETS, clean_chat
from cardtable.server.refusals import Refusal
from cardtable.server.settings import Settings
from cardtable.store import CHAT_KEPT, ChatRow, Store, TableRow

if TYPE_CHECKING:
    from cardtable.server.room import Room

#: the spectators' channel of a table takes this many times ``--chat-rate`` lines
SPECTATORS_RATE = 4


def _channels() -> dict[str, deque[ChatLine]]:
    return {channel: deque(maxlen=CHAT_KEPT) for channel in ("seats", "spectators")}


@dataclass
class TableChat:
    """A table's chat: on or off, the last lines of each channel, who muted whom, and the
    rate buckets (a seat's kept over its reconnects)."""

    on: bool = True
    #: the last lines of each channel, oldest first
    lines: dict[str, deque[ChatLine]] = field(default_factory=_channels)
    #: the number of the table's last line
    count: int = 0
    #: per seat, the seats whose lines it does not receive (stored)
    mutes: dict[int, set[int]] = field(default_factory=dict)
    #: per seat, the spectators (their ids) whose lines it does not receive (not stored)
    spectator_mutes: dict[int, set[str]] = field(default_factory=dict)
    #: per seat, its rate bucket
    buckets: dict[int, Bucket] = field(default_factory=dict)
    #: the spectators' channel's rate bucket
    spectators_bucket: Bucket | None = None

    @classmethod
    def from_row(cls, row: TableRow) -> TableChat:
        """A stored table's chat: its last lines and its mutes."""
        chat = cls(on=row.chat, count=row.chat_count)
        for line in row.chat_lines:
            chat.lines[line.channel].append(ChatLine(
                n=line.n, channel="seats" if line.channel == "seats" else "spectators",
                seat=line.seat, name=line.name, text=line.text, preset=line.preset,
                at=line.at))
        for seat, muted in row.mutes:
            chat.mutes.setdefault(seat, set()).add(muted)
        return chat

    def may_read(self, conn: Connection, line: ChatLine) -> bool:
        """Who reads what: the seats' lines go to the seats only, the spectators' lines to
        everyone; a seat's or a spectator's lines not to the seats that muted it."""
        if conn.seat is None:
            return line.channel == "spectators"
        if line.seat is not None:
            return line.seat not in self.mutes.get(conn.seat, ())
        return line.spectator is None or line.spectator not in self.spectator_mutes.get(
            conn.seat, ())

    def history(self, conn: Connection, limit: int) -> list[ChatLine]:
        """The last ``limit`` lines ``conn`` may read, oldest first."""
        lines = [line for channel in self.lines.values() for line in channel
                 if self.may_read(conn, line)]
        lines.sort(key=lambda line: line.n)
        return lines[-limit:] if limit > 0 else []

    def seat_left(self, seat: int) -> bool:
        """Forget the mutes and the rate of a seat its person left; True when stored mutes
        (its own, or others' of it) went with it."""
        stored = self.mutes.pop(seat, None) is not None
        for muted in self.mutes.values():
            stored = stored or seat in muted
            muted.discard(seat)
        self.buckets.pop(seat, None)
        self.spectator_mutes.pop(seat, None)
        return stored


class Chat:
    """Says and mutes at the rooms of this process."""

    def __init__(self, settings: Settings, store: Store, db: Database) -> None:
        self.settings = settings
        self.store = store
        self.db = db
        self.lines = 0
        #: the spectators' lines per client address, over every table
        self.addresses = Buckets(settings.chat_rate, settings.chat_burst)
        #: what a spectator's id is made from, with the table and the address: the id
        #: tells neither, and differs from one table (and server run) to the next
        self.secret = secrets.token_bytes(16)

    def spectator_id(self, room: Room, conn: Connection) -> str:
        digest = hmac.new(self.secret, f"{room.id} {conn.address}".encode(),
                          hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:8]).decode().rstrip("=")

    def may_say(self, room: Room, conn: Connection) -> bool:
        """A seat's lines take from its bucket (the room's: a reconnect does not refill
        it); a spectator's from its address's and from the table's spectators' channel's
        (``SPECTATORS_RATE`` times the rate, twice the burst)."""
        if conn.seat is None:
            if room.chat.spectators_bucket is None:
                room.chat.spectators_bucket = Bucket(self.settings.chat_rate * SPECTATORS_RATE,
                                                self.settings.chat_burst * 2)
            return self.addresses.take(conn.address) and room.chat.spectators_bucket.take()
        bucket = room.chat.buckets.get(conn.seat)
        if bucket is None:
            bucket = room.chat.buckets[conn.seat] = Bucket(self.settings.chat_rate,
                                                           self.settings.chat_burst)
        return bucket.take()

    async def say(self, room: Room, conn: Connection, message: ChatMessage) -> None:
        if not room.chat.on:
            raise Refusal("chat/off", "the chat is off at this table")
        text, preset = message.text, message.preset
        if (text is None) == (preset is None):
            raise Refusal("chat/bad", "a chat line has either 'text' or 'preset'")
        if preset is not None and preset not in CHAT_PRESETS:
            raise Refusal("chat/bad", f"'preset' is one of {', '.join(CHAT_PRESETS)}")
        if text is not None:
            text = clean_chat(text)
            if not text:
                raise Refusal("chat/bad", "a chat line is not blank")
            if len(text) > CHAT_MAX:
                raise Refusal("chat/too-long", f"a chat line has at most {CHAT_MAX} "
                                               f"characters; this one has {len(text)}")
        if not self.may_say(room, conn):
            raise Refusal("chat/rate", "too many chat lines; wait a moment")
        seat = conn.seat
        room.chat.count += 1
        line = ChatLine(n=room.chat.count, channel="spectators" if seat is None else "seats",
                        seat=seat, name="" if seat is None else room.table.seats[seat].name,
                        text=text, preset=preset, at=now())
        if seat is None:
            line.spectator = self.spectator_id(room, conn)
        row = ChatRow(line.n, line.channel, line.seat, line.name, line.words, line.preset,
                      line.at)
        # stored before anyone reads it; shielded, so a client going away cannot undo it
        await asyncio.shield(self.db.run(lambda c: self.store.add_chat(c, room.id, row)))
        self.lines += 1
        room.chat.lines[line.channel].append(line)
        text_out = line.text()
        for other in room.conns:
            if room.chat.may_read(other, line):
                other.push(text_out)

    async def mute(self, room: Room, conn: Connection, message: MuteMessage) -> None:
        seat = conn.seat
        if seat is None:
            raise Refusal("auth/bad-token", "spectators cannot mute; hide the spectators' "
                                            "chat on the page instead")
        other = message.seat
        if (other is None) == (message.spectator is None):
            raise Refusal("chat/bad", "a mute names a 'seat' or a 'spectator' (the id of "
                                      "a spectator's chat line), one of the two")
        if other is None:
            quiet = room.chat.spectator_mutes.setdefault(seat, set())
            if message.muted:
                quiet.add(message.spectator or "")
            else:
                quiet.discard(message.spectator or "")
        elif not 0 <= other < len(room.table.seats) or other == seat:
            raise Refusal("chat/bad", f"'seat' is another seat of this table, 0 to "
                                      f"{len(room.table.seats) - 1}")
        muted = room.chat.mutes.setdefault(seat, set())
        if other is not None and (other in muted) != message.muted:
            await asyncio.shield(self.db.run(
                lambda c: self.store.set_mute(c, room.id, seat, other, message.muted)))
            if message.muted:
                muted.add(other)
            else:
                muted.discard(other)
        answer = Muted(seats=sorted(muted),
                       spectators=sorted(room.chat.spectator_mutes.get(seat, ()))).text()
        for mine in room.conns:
            if mine.seat == seat:
                mine.push(answer)
