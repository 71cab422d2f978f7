"""The WebSocket ``/ws/tables/{id}?token=TOKEN&since=V`` (docs/server.md).

A connection is checked once (the table, the token, ``since``); then each message in
turn: its rate, its size, JSON, its typed message (``messages.read_message``), and is
handed on: a move to the move pipeline, a hint to the jobs, a rematch to the service, a
chat line or a mute to the chat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from cardtable.server.connections import Connection
from cardtable.server.ending_messages import (
    AbortMessage,
    DrawMessage,
    ResignMessage,
    UndoAnswer,
    UndoAsk,
)
from cardtable.server.limits import client_address
from cardtable.server.messages import (
    INCOMING,
    BackMessage,
    ChatMessage,
    HintMessage,
    MoveMessage,
    MuteMessage,
    PingMessage,
    Pong,
    RematchMessage,
    error_message,
    read_message,
)
from cardtable.server.reading import check_size, parse_json
from cardtable.server.refusals import Refusal
from cardtable.server.room import Room
from cardtable.server.service import TableService

log = logging.getLogger("cardtable.server")

# refused messages in a row over the rate before the connection is dropped, and the
# close code it is dropped with (4000 + limit/rate's HTTP status)
MAX_STRIKES = 200
CLOSE_RATE = 4429

#: what handles one type of incoming message
Handler = Callable[[Room, Connection, Any], Awaitable[None]]


def router(service: TableService) -> APIRouter:
    """The WebSocket route, served by ``service``."""
    settings = service.settings
    routes = APIRouter()

    async def opening(websocket: WebSocket, table_id: str) -> tuple[
            Room, int | None, int | None, tuple[str, str] | None]:
        """The room, the seat of the token (None: a spectator), ``since`` and, for a
        spectator watching under its player's name (``watch``), the player's id and
        name."""
        params = websocket.query_params
        room = await service.rooms.find(table_id)
        token = params.get("token")
        seat = None
        watcher = None
        if token is None and params.get("watch") is not None:
            # a spectator under its player's name (docs/server.md: Who is watching); a
            # key of no player, or of a player without a name, watches as a guest
            try:
                found = await service.players.of_key(params.get("player"), required=False)
            except Refusal:
                found = None
            if found is not None and found.name:
                watcher = (found.id, found.name)
        elif token is not None:
            seat = room.seat_of(token)
            if seat is None:
                raise Refusal("auth/bad-token", "that seat token is not valid at this "
                                                "table (left, or never given)")
        elif params.get("player") is not None:
            # a player key instead of a seat token (docs/server.md: Players)
            player = await service.players.of_key(params.get("player"))
            assert player is not None
            seat = room.seat_of_player(player.id)
            if seat is None:
                raise Refusal("auth/bad-token", "that player holds no seat at this table")
        since_text = params.get("since")
        since = None
        if since_text is not None:
            if not re.fullmatch(r"\d{1,9}", since_text):
                raise Refusal("message/bad", "'since' is a table version (a whole number)")
            since = int(since_text)
            if since > room.table.version and room.table.undos:
                since = 0       # moves were taken back since: the whole log again
            elif since > room.table.version:
                raise Refusal("message/bad", f"'since' is {since}, beyond the table's version "
                                             f"{room.table.version}: no such version was seen")
        return room, seat, since, watcher

    @routes.websocket("/ws/tables/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        # in a cluster, a table this process plays says so to a front proxy (relay.OWNS)
        await websocket.accept(headers=service.relay.owns(table_id)
                               if service.relay is not None else None)
        # in a cluster, another live process's table: joined to a connection there (asked
        # before the table is read here: its log grows there meanwhile)
        if service.relay is not None and await service.relay.websocket(websocket, table_id):
            return
        try:
            room, seat, since, watcher = await opening(websocket, table_id)
        except Refusal as refusal:
            await websocket.send_text(error_message(refusal).text())
            await websocket.close(4000 + refusal.status)
            return

        conn = Connection(websocket.send_text, lambda code: websocket.close(code), seat,
                          settings, client_address(websocket.scope))
        conn.watcher = watcher
        strikes = 0
        try:
            await service.join(room, conn, since)
            if conn.closed:     # refused (limit/connections, table/closed): its error, 44xx
                await conn.task
                return
            while not conn.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    text = message.get("bytes") or b""
                try:
                    if not conn.bucket.take():
                        strikes += 1
                        if strikes > MAX_STRIKES:
                            conn.push(error_message(Refusal(
                                "limit/rate", f"{MAX_STRIKES} messages in a row over the "
                                              "rate; closing this connection")))
                            conn.end(CLOSE_RATE)
                            await drain(websocket)
                            break
                        raise Refusal("limit/rate", "too many messages; slow down")
                    strikes = 0
                    await handle(room, conn, text)
                except Refusal as refusal:
                    version = None
                    if refusal.code.startswith("move/") or refusal.code == "table/waiting":
                        version = room.table.version
                    conn.push(error_message(refusal, version))
        except WebSocketDisconnect:
            pass
        finally:
            service.leave(room, conn)

    async def drain(websocket: WebSocket) -> None:
        """Read what the client still sends until it closes (5 s at most): a socket closed
        with unread data is reset, and the client would never read the close frame."""
        with contextlib.suppress(Exception):
            async with asyncio.timeout(5):
                while (await websocket.receive())["type"] != "websocket.disconnect":
                    pass

    async def on_ping(room: Room, conn: Connection, message: PingMessage) -> None:
        conn.push(Pong())

    async def on_move(room: Room, conn: Connection, message: MoveMessage) -> None:
        if conn.seat is None:
            raise Refusal("auth/bad-token", "spectators cannot move; take a seat")
        await service.play(room, conn.seat, message.move, message.version)

    async def on_back(room: Room, conn: Connection, message: BackMessage) -> None:
        if conn.seat is None:
            raise Refusal("auth/bad-token", "spectators have no seat to take back")
        await service.back(room, conn.seat)
        service.jobs.kick(room)

    async def on_hint(room: Room, conn: Connection, message: HintMessage) -> None:
        if conn.seat is not None:
            await service.back(room, conn.seat)
        asyncio.get_running_loop().create_task(hint(room, conn))

    async def on_rematch(room: Room, conn: Connection, message: RematchMessage) -> None:
        await service.rematch(room, conn)

    async def on_chat(room: Room, conn: Connection, message: ChatMessage) -> None:
        await service.chat.say(room, conn, message)

    async def on_mute(room: Room, conn: Connection, message: MuteMessage) -> None:
        await service.chat.mute(room, conn, message)

    async def on_resign(room: Room, conn: Connection, message: ResignMessage) -> None:
        await service.endings.end(room, conn.seat, "resign")

    async def on_abort(room: Room, conn: Connection, message: AbortMessage) -> None:
        await service.endings.end(room, conn.seat, "abort")

    async def on_draw(room: Room, conn: Connection, message: DrawMessage) -> None:
        service.endings.draw(room, conn.seat)

    async def on_undo(room: Room, conn: Connection, message: UndoAsk) -> None:
        await service.endings.undo(room, conn.seat)

    async def on_undo_answer(room: Room, conn: Connection, message: UndoAnswer) -> None:
        await service.endings.answer(room, conn.seat, message.accept)

    # every incoming type (messages.INCOMING) and what handles it
    handlers: dict[str, Handler] = {
        "ping": on_ping, "move": on_move, "back": on_back, "hint": on_hint,
        "rematch": on_rematch, "chat": on_chat, "mute": on_mute, "resign": on_resign,
        "abort": on_abort, "draw": on_draw, "undo": on_undo, "undo_answer": on_undo_answer}
    assert handlers.keys() == INCOMING.keys(), "a message type without its handler"

    async def handle(room: Room, conn: Connection, text: str | bytes) -> None:
        if isinstance(text, bytes):
            check_size(text, settings.max_message)
            raise Refusal("message/bad", "send JSON text messages, not binary ones")
        message = read_message(parse_json(text, settings.max_message))
        await handlers[message.type](room, conn, message)

    async def hint(room: Room, conn: Connection) -> None:
        try:
            conn.push(await service.jobs.hint(room, conn))
        except Refusal as refusal:
            conn.push(error_message(refusal))
        except Exception as exc:
            log.error("table %s: a hint failed (%s)", room.id, type(exc).__name__)
            conn.push(error_message(Refusal("server/error", "the hint failed; try again")))

    return routes
