"""The HTTP API under ``/api`` (docs/server.md; FastAPI's OpenAPI document at
``/api/openapi.json``, the WebSocket messages' JSON Schema at ``/api/ws-schema.json``).

Request bodies are read here (JSON, at most ``max_body`` bytes) into their typed messages;
every answer is one of the typed messages, written as it is (a refusal is raised as a
:class:`Refusal` and answered by the app's handler).
"""

from __future__ import annotations

import asyncio
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

import cardtable
from cardtable import bots, records
from cardtable.server.bodies import (
    CreateTable,
    ErrorBody,
    GameInfo,
    Games,
    Health,
    Lobby,
    OptionInfo,
    SeatLeft,
    SeatTaken,
    TableAnswer,
    TakeSeat,
)
from cardtable.server.limits import client_address
from cardtable.server.messages import Out, ws_schema
from cardtable.server.reading import In, read, request_json
from cardtable.server.refusals import Refusal
from cardtable.server.relay import RELAYED
from cardtable.server.room import Room
from cardtable.server.rooms import option_maximum
from cardtable.server.service import TableService

#: the bytes of finished tables' replays and reviews kept (``Kept``): a 12-player Three
#: Thirteen game's replay is up to 16 MB
KEPT_BYTES = 64 * 2**20
#: the request bodies, for the OpenAPI document (they are read by hand, size first)
BODIES: tuple[type[In], ...] = (CreateTable, TakeSeat)


def answer(message: Out, status: int = 200) -> Response:
    """A typed answer, written once (FastAPI documents the route's model, and passes a
    Response through as it is)."""
    return Response(message.text(), status_code=status, media_type="application/json")


def body_schema(model: type[In]) -> dict[str, Any]:
    return {"requestBody": {"required": False, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{model.__name__}"}}}}}


class Kept:
    """Answers worked out once (by ``work``, in the bot pool) and kept: the newest, up to
    ``budget`` bytes in all (a finished table's replay and review never change). A request
    for an answer still being worked out waits for that one, ``seconds`` at most
    (TimeoutError); one that leaves or gives up does not stop it (the next request gets
    it), and a failure is not kept."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.size = 0
        self.answers: OrderedDict[Hashable, asyncio.Future[bytes]] = OrderedDict()

    async def get(self, key: Hashable, work: Callable[[], Awaitable[bytes]],
                  seconds: float | None = None) -> bytes:
        answer = self.answers.get(key)
        if answer is None:
            answer = self.answers[key] = asyncio.ensure_future(work())
            answer.add_done_callback(lambda done: self._done(key, done))
        else:
            self.answers.move_to_end(key)
        return await asyncio.wait_for(asyncio.shield(answer), seconds)

    def _done(self, key: Hashable, done: asyncio.Future[bytes]) -> None:
        if done.cancelled() or done.exception() is not None:
            self.answers.pop(key, None)
            return
        self.size += len(done.result())
        for old in [k for k, answer in self.answers.items() if answer.done()]:
            if self.size <= self.budget:
                break
            self.size -= len(self.answers.pop(old).result())


def games() -> Games:
    """The games as the server takes them: an option's ``maximum`` is the server's
    (``rooms.option_maximum``) where the game declares none."""
    return Games(bots=list(bots.KINDS), games=[
        GameInfo(name=d.name, title=d.title, players=list(d.players),
                 default_players=d.default_players, phases=list(d.phases),
                 board=None if d.board is None else [list(row) for row in d.board],
                 exports=list(d.exports), blurb=d.blurb, review=d.review,
                 house_rules=dict(d.house_rules),
                 options=[OptionInfo(name=o.name, default=o.default,
                                     kind=o.kind, choices=list(o.choices), minimum=o.minimum,
                                     maximum=option_maximum(o), none_ok=o.none_ok,
                                     help=o.help)
                          for o in d.options])
        for d in cardtable.declarations()])


def router(service: TableService) -> APIRouter:
    """The API's routes, served by ``service``."""
    settings = service.settings
    routes = APIRouter(prefix="/api", responses={"4XX": {
        "model": ErrorBody, "description": "a refusal (docs/server.md: Codes)"}})
    games_text = games().text()
    kept = Kept(KEPT_BYTES)

    async def body_of(request: Request) -> Any:
        return await request_json(request, settings.max_body)

    def with_invites(request: Request, room: Room) -> TableAnswer:
        base = str(request.base_url).rstrip("/")
        invites = [f"{base}/t/{room.id}?seat={n}" if s.kind == "person" else None
                   for n, s in enumerate(room.table.seats)]
        summary = room.summary()
        return TableAnswer(invites=invites, **{k: getattr(summary, k)
                                               for k in summary.model_fields_set})

    def seat_number(text: str) -> int:
        if not re.fullmatch(r"\d{1,3}", text):
            raise Refusal("seat/not-found", f"{text[:20]!r} is not a seat number")
        return int(text)

    def bearer(request: Request) -> str:
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Refusal("auth/bad-token", "send the seat token as 'Authorization: Bearer "
                                            "TOKEN'")
        return token.strip()

    @routes.get("/games", response_model=Games)
    async def list_games() -> Response:
        """The games with their options and export formats, and the bot kinds."""
        return Response(games_text, media_type="application/json")

    @routes.post("/tables", status_code=201, response_model=TableAnswer,
                 openapi_extra=body_schema(CreateTable))
    async def create(request: Request) -> Response:
        """A new table (every seat a bot's: it plays at once)."""
        body = read(CreateTable, await body_of(request), "options/bad", "a table request")
        room = await service.create(body, client_address(request.scope))
        created = answer(with_invites(request, room), 201)
        if service.relay is not None:   # a front proxy learns where it is played
            created.headers.update({k.decode(): v.decode()
                                    for k, v in service.relay.owns(room.id)})
        return created

    @routes.get("/tables", response_model=Lobby)
    async def lobby(request: Request, status: str | None = None) -> Response:
        """The lobby: unfinished tables, newest first (at most 200)."""
        if status not in (None, "waiting", "playing"):
            raise Refusal("message/bad", "status is 'waiting' or 'playing'")
        tables = service.rooms.lobby(status)
        if service.relay is not None and RELAYED not in request.headers:
            tables = await service.relay.lobby(request.scope, status, tables)   # a cluster's
        return answer(Lobby(tables=tables))

    @routes.get("/tables/{table_id}", response_model=TableAnswer)
    async def summary(request: Request, table_id: str) -> Response:
        room = await service.rooms.find(table_id)
        if service.cluster is not None:
            await service.players.refresh()     # ratings of games other processes finished
        return answer(with_invites(request, room))

    @routes.post("/tables/{table_id}/seats/{seat}", response_model=SeatTaken,
                 openapi_extra=body_schema(TakeSeat))
    async def take(request: Request, table_id: str, seat: str) -> Response:
        """Take a person's seat; the token is the only key to it. With the header
        ``X-Player-Key`` the seat is that player's too (docs/server.md: Players)."""
        room = await service.rooms.find(table_id)
        body = read(TakeSeat, await body_of(request), "name/bad", "a seat request")
        number = seat_number(seat)
        player = await service.players.of_key(request.headers.get("x-player-key"),
                                              required=False)
        token = await service.take_seat(room, number, body.name or f"seat {number}",
                                        None if player is None else player.id)
        if player is not None and body.name:
            await service.players.rename(player, body.name)
        return answer(SeatTaken(seat=number, token=token, table=room.summary()))

    @routes.delete("/tables/{table_id}/seats/{seat}", response_model=SeatLeft)
    async def leave(request: Request, table_id: str, seat: str) -> Response:
        """Leave a seat (``Authorization: Bearer TOKEN``); its token is void from then."""
        room = await service.rooms.find(table_id)
        number = seat_number(seat)
        await service.leave_seat(room, number, bearer(request))
        return answer(SeatLeft(left=number, table=room.summary()))

    async def record_as(table_id: str, fmt: str) -> Response:
        room = await service.rooms.find(table_id)
        if room.status != "over":
            raise Refusal("table/not-over", "the record is published when the game is over")
        record = room.table.record()
        filename = {"Content-Disposition": f'attachment; filename="{room.id}.{fmt}"'}
        if fmt == "json":
            return JSONResponse(record.to_json(), headers=filename)
        try:
            text = records.export(record, fmt)
        except records.RecordError as exc:
            raise Refusal("record/no-format", str(exc)) from None
        return PlainTextResponse(text, headers=filename)

    @routes.get("/tables/{table_id}/record.{fmt}", response_class=PlainTextResponse)
    async def record(table_id: str, fmt: str) -> Response:
        """The game's record once it is over: ``record.json`` (docs/records.md), or a
        format of the game's ``exports`` (Draw Bridge: ``record.pbn``)."""
        return await record_as(table_id, fmt)

    @routes.get("/tables/{table_id}/record", response_class=PlainTextResponse)
    async def record_format(table_id: str, format: str = "json") -> Response:  # noqa: A002
        """The same as ``record.{format}`` (the older address)."""
        return await record_as(table_id, format)

    async def once_over(table_id: str, what: str) -> Response:
        """A finished table's replay or review (``cardtable.web.replay.answer_bytes``),
        worked out once in the bot pool and kept (``kept``); record/too-long for a game
        longer than a replay or review takes; server/unavailable past
        ``Settings.work_seconds`` (the work goes on: asked again, it is there)."""
        from cardtable.web.replay import RecordTooLong, answer_bytes

        room = await service.rooms.find(table_id)
        if room.status != "over":
            raise Refusal("table/not-over", f"the {what} is published when the game is over")
        record = room.table.record()
        try:
            text = await kept.get((room.id, room.table.version, what),
                                  lambda: service.jobs.submit(f"table:{room.id}", answer_bytes,
                                                              (what, record), None),
                                  service.settings.work_seconds)
        except TimeoutError:
            raise service.jobs.unavailable() from None
        except RecordTooLong as exc:
            raise Refusal("record/too-long", str(exc)) from None
        return Response(text, media_type="application/json")

    @routes.get("/tables/{table_id}/replay", response_model=None)
    async def replay(table_id: str) -> Any:
        """Once the game is over, every position of it with every hand open and the move
        event that led there (``cardtable.web.replay.replay_json``: the page's replay)."""
        return await once_over(table_id, "replay")

    @routes.get("/tables/{table_id}/review", response_model=None)
    async def review(table_id: str) -> Any:
        """Once the game is over, its review against perfect play (Draw Bridge: each deal's
        par and each seat's losses, ``cardtable.web.replay.review_json``; other games: no
        deals)."""
        return await once_over(table_id, "review")

    @routes.get("/health", response_model=Health)
    async def health() -> Response:
        return answer(Health(ok=True, tables=len(service.rooms.live),
                             moves=service.pipeline.moves_accepted))

    @routes.get("/ws-schema.json")
    async def schema() -> dict[str, Any]:
        """The JSON Schema of the WebSocket's messages."""
        return ws_schema()

    return routes
