"""The players' routes under ``/api/players`` (docs/server.md: Players), served by the
service's :class:`~cardtable.server.players.Players`.
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from cardtable.server.bodies import (
    ClaimCode,
    NewPlayer,
    PlayerInfo,
    PlayerKey,
    PlayerPage,
    TransferCode,
)
from cardtable.server.messages import Out, TableSummary
from cardtable.server.players import KEY_HEADER, Players
from cardtable.server.reading import In, read, request_json
from cardtable.server.refusals import Refusal
from cardtable.server.relay import RELAYED
from cardtable.store import hash_token
from cardtable.store import players as stored
from cardtable.store.players import PlayerRow

# ---------------------------------------------------------------- the routes

#: the request bodies, for the OpenAPI document
BODIES: tuple[type[In], ...] = (NewPlayer, ClaimCode)


def answer(message: Out, status: int = 200) -> Response:
    return Response(message.text(), status_code=status, media_type="application/json",
                    headers={"Cache-Control": "no-store"})


def router(service: Any) -> APIRouter:
    """The players' routes under /api/players, served by ``service`` (a TableService)."""
    players: Players = service.players
    settings = service.settings
    routes = APIRouter(prefix="/api/players")

    async def body_of(request: Request) -> Any:
        return await request_json(request, settings.max_body)

    async def holder(request: Request) -> PlayerRow:
        row = await players.of_key(request.headers.get(KEY_HEADER))
        assert row is not None
        return row

    def key_answer(row: PlayerRow, key: str, status: int = 200) -> Response:
        return answer(PlayerKey(player=PlayerInfo(id=row.id, name=row.name), key=key),
                      status)

    async def summary_of(table_id: str) -> TableSummary | None:
        try:
            room = await service.rooms.find(table_id)
        except Refusal as refusal:
            if refusal.code == "table/elsewhere" and service.relay is not None:
                found: TableSummary | None = await service.relay.summary(table_id)
                return found                    # a cluster's: asked of its process
            return None
        summary: TableSummary = room.summary()
        return summary

    @routes.post("", status_code=201, response_model=PlayerKey)
    async def create(request: Request) -> Response:
        """A new player and its key (a browser's first visit)."""
        body = read(NewPlayer, await body_of(request), "message/bad", "a player request")
        row, key = await players.create(body.name)
        return key_answer(row, key, 201)

    @routes.get("/me", response_model=PlayerPage)
    async def me(request: Request) -> Response:
        """The key holder's own page: the public one plus its unfinished games."""
        row = await holder(request)
        if service.cluster is not None:
            await players.refresh()             # games other processes finished
        return answer(await players.page(row, True, summary_of))

    @routes.post("/me/transfer", response_model=TransferCode)
    async def transfer(request: Request) -> Response:
        """A one-time code for another browser (a new one voids the last)."""
        row = await holder(request)
        code, seconds = await players.transfer(row)
        base = str(request.base_url).rstrip("/")
        return answer(TransferCode(code=code, link=f"{base}/claim#{code}",
                                   expires_in=seconds))

    @routes.post("/me/revoke", response_model=PlayerKey)
    async def revoke(request: Request) -> Response:
        """Every key of the player (and its transfer code) void, and the seat tokens taken
        with them; its open connections are closed (4401); a new key for this browser."""
        row = await holder(request)
        void_hash = hash_token(secrets.token_urlsafe(24))
        key = await players.revoke(row, void_hash)
        service.rooms.void_player(row.id, void_hash)
        if service.relay is not None:       # a cluster: the other processes' seats too
            await service.relay.tell_others("/api/players/me/void", {KEY_HEADER: key})
        return key_answer(row, key)

    @routes.post("/me/void", status_code=204, include_in_schema=False)
    async def void(request: Request) -> Response:
        """In a cluster, from the process that revoked the player's keys (relayed, with the
        new key): the player's seats in this process's memory are voided too."""
        if service.relay is None or RELAYED not in request.headers:
            raise Refusal("http/not-found", "there is no such path")
        row = await holder(request)
        service.rooms.void_player(row.id, hash_token(secrets.token_urlsafe(24)))
        return Response(status_code=204)

    @routes.post("/claim", response_model=PlayerKey)
    async def claim(request: Request) -> Response:
        """A transfer code, once, for a key of its player."""
        body = read(ClaimCode, await body_of(request), "player/bad-code", "a claim")
        row, key = await players.claim(body.code)
        return key_answer(row, key)

    @routes.get("/{player_id}", response_model=PlayerPage)
    async def public(player_id: str) -> Response:
        """A player's public page: name, ratings, statistics and finished games."""
        if len(player_id) > 32:
            raise Refusal("player/not-found", "there is no such player")
        row = await service.db.run(lambda conn: stored.load_player(conn, player_id))
        if row is None:
            raise Refusal("player/not-found", "there is no such player")
        if service.cluster is not None:
            await players.refresh()             # games other processes finished
        return answer(await players.page(row, False))

    return routes

