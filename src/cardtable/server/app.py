"""The FastAPI application: the HTTP API, the WebSocket and the web page (docs/server.md)."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

import cardtable
from cardtable import bots
from cardtable.server.hub import Conn, Hub, Room, Settings
from cardtable.server.protocol import Buckets, Refusal, clean_name, need_dict, parse_json
from cardtable.store import Store, ensure_schema
from cardtable.web import not_found_page

log = logging.getLogger("cardtable.server")

STATIC = Path(str(resources.files("cardtable"))) / "web" / "static"

PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>cardtable</title>
<p>The cardtable server is running; its web page is not installed. The API is at
<a href="/api/tables">/api/tables</a>.</p>"""


def declarations_json() -> list[dict[str, Any]]:
    out = []
    for d in cardtable.declarations():
        out.append({
            "name": d.name, "title": d.title, "players": list(d.players),
            "default_players": d.default_players,
            "options": [{"name": o.name, "default": o.default, "kind": o.kind,
                         "choices": list(o.choices), "minimum": o.minimum,
                         "maximum": o.maximum, "none_ok": o.none_ok, "help": o.help}
                        for o in d.options],
            "phases": list(d.phases),
            "board": None if d.board is None else [list(row) for row in d.board],
        })
    return out


def create_app(settings: Settings) -> FastAPI:
    """The app for ``settings``; the database schema must be current (or the db empty)."""
    store = Store(settings.db_url)
    ensure_schema(store.engine, settings.db_url)
    hub = Hub(settings, store)
    writes = Buckets(settings.http_rate, settings.http_burst)
    reads = Buckets(settings.http_rate * 5, settings.http_burst * 5)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            store.close()

    app = FastAPI(title="cardtable", version=cardtable.__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None, openapi_url=None)
    app.state.hub = hub

    # -- errors: always {"error": {"code", "message"}}

    @app.exception_handler(Refusal)
    async def _refusal(_request: Request, exc: Refusal) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Any:
        if exc.status_code == 405:
            refusal = Refusal("http/method", "this address does not take that method")
        elif exc.status_code == 404:
            page = not_found_page(request.method, request.url.path,
                                  request.headers.get("accept", ""))
            if page is not None:   # a browser: the page says "no such page"
                return page
            refusal = Refusal("http/not-found", "there is nothing at this address")
        else:
            refusal = Refusal("message/bad", str(exc.detail))
        return JSONResponse(refusal.body(), status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _crash(_request: Request, exc: Exception) -> JSONResponse:
        log.error("request failed: %s", type(exc).__name__)
        return JSONResponse(Refusal("server/error", "the server failed; try again").body(),
                            status_code=500)

    async def rate_limited(scope: Any, receive: Any, send: Any) -> None:
        refusal = Refusal("limit/rate", "too many requests; slow down")
        response = JSONResponse(refusal.body(), status_code=refusal.status,
                                headers={"Retry-After": "1"})
        await response(scope, receive, send)

    def limits(inner: Any) -> Any:
        """Rate limits per client address on the API (a plain ASGI middleware)."""

        async def middleware(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http" and scope["path"].startswith("/api/"):
                client = scope.get("client")
                key = client[0] if client else "?"
                bucket = writes if scope["method"] in ("POST", "DELETE", "PUT") else reads
                if not bucket.take(key):
                    await rate_limited(scope, receive, send)
                    return
            await inner(scope, receive, send)

        return middleware

    async def body_of(request: Request) -> dict[str, Any]:
        limit = settings.max_body
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            raise Refusal("message/too-large", f"a request body may hold at most {limit} "
                                               "bytes")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > limit:
                raise Refusal("message/too-large", f"a request body may hold at most "
                                                   f"{limit} bytes")
        if not raw:
            return {}
        return need_dict(parse_json(raw, limit), "the request body")

    def invites(request: Request, room: Room) -> list[str | None]:
        base = str(request.base_url).rstrip("/")
        return [f"{base}/t/{room.id}?seat={n}" if s.kind == "person" else None
                for n, s in enumerate(room.seats)]

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

    # -- the API

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        return {"games": declarations_json(), "bots": list(bots.KINDS)}

    @app.post("/api/tables", status_code=201)
    async def create(request: Request) -> dict[str, Any]:
        room = await hub.create(await body_of(request))
        return {**room.summary(), "invites": invites(request, room)}

    @app.get("/api/tables")
    async def lobby(status: str | None = None) -> dict[str, Any]:
        if status not in (None, "waiting", "playing"):
            raise Refusal("message/bad", "status is 'waiting' or 'playing'")
        return {"tables": hub.lobby(status)}

    @app.get("/api/tables/{table_id}")
    async def summary(request: Request, table_id: str) -> dict[str, Any]:
        room = await hub.room(table_id)
        return {**room.summary(), "invites": invites(request, room)}

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def take(request: Request, table_id: str, seat: str) -> dict[str, Any]:
        room = await hub.room(table_id)
        body = await body_of(request)
        name = clean_name(body.get("name", f"seat {seat}"[:32]))
        token = await hub.take_seat(room, seat_number(seat), name)
        return {"seat": int(seat), "token": token, "table": room.summary()}

    @app.delete("/api/tables/{table_id}/seats/{seat}")
    async def leave(request: Request, table_id: str, seat: str) -> dict[str, Any]:
        room = await hub.room(table_id)
        await hub.leave_seat(room, seat_number(seat), bearer(request))
        return {"left": int(seat), "table": room.summary()}

    @app.get("/api/tables/{table_id}/record", response_model=None)
    async def record(table_id: str, format: str = "json") -> Any:  # noqa: A002
        room = await hub.room(table_id)
        if format not in ("json", "pbn"):
            raise Refusal("message/bad", "format is 'json' or 'pbn'")
        if room.status != "over":
            raise Refusal("table/not-over", "the record is published when the game is over")
        if format == "pbn":
            if room.game.name != "drawbridge":
                raise Refusal("record/no-pbn", "PBN records are for Draw Bridge only")
            from cardtable.drawbridge.game import DrawBridgeState
            from cardtable.drawbridge.pbn import to_pbn

            state = room.table.state
            assert isinstance(state, DrawBridgeState)
            return PlainTextResponse(
                to_pbn(state),
                headers={"Content-Disposition": f'attachment; filename="{room.id}.pbn"'})
        return JSONResponse(
            room.table.record().to_json(),
            headers={"Content-Disposition": f'attachment; filename="{room.id}.json"'})

    @app.get("/api/tables/{table_id}/replay", response_model=None)
    async def replay(table_id: str) -> Any:
        # every position with every hand open (cardtable.web.replay): once the game is over
        room = await hub.room(table_id)
        if room.status != "over":
            raise Refusal("table/not-over", "the replay is published when the game is over")
        from cardtable.web.replay import replay_json

        return await asyncio.to_thread(replay_json, room.table.record())

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "tables": len(hub.rooms), "moves": hub.moves_accepted}

    # -- the WebSocket

    @app.websocket("/ws/tables/{table_id}")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        params = websocket.query_params
        try:
            room = await hub.room(table_id)
            token = params.get("token")
            seat = None
            if token is not None:
                seat = room.seat_of(token)
                if seat is None:
                    raise Refusal("auth/bad-token", "that seat token is not valid at this "
                                                    "table (left, or never given)")
            since_text = params.get("since")
            since = None
            if since_text is not None:
                if not re.fullmatch(r"\d{1,9}", since_text):
                    raise Refusal("message/bad", "'since' is a table version (a whole number)")
                since = int(since_text)
        except Refusal as refusal:
            await websocket.send_json(refusal.message_json())
            await websocket.close(4000 + refusal.status)
            return

        conn = Conn(websocket.send_text, lambda code: websocket.close(code), seat, settings)
        await hub.join(room, conn, since)
        strikes = 0
        try:
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
                        if strikes > 200:
                            break
                        raise Refusal("limit/rate", "too many messages; slow down")
                    await handle(room, conn, text)
                except Refusal as refusal:
                    body = refusal.message_json()
                    if refusal.code.startswith("move/") or refusal.code == "table/waiting":
                        body["version"] = room.table.version
                    conn.push(body)
        except WebSocketDisconnect:
            pass
        finally:
            hub.leave(room, conn)

    async def handle(room: Room, conn: Conn, text: str | bytes) -> None:
        if isinstance(text, bytes):
            if len(text) > settings.max_message:
                parse_json(text, settings.max_message)
            raise Refusal("message/bad", "send JSON text messages, not binary ones")
        data = need_dict(parse_json(text, settings.max_message), "a message")
        kind = data.get("type")
        if kind == "ping":
            conn.push({"type": "pong"})
        elif kind == "move":
            if conn.seat is None:
                raise Refusal("auth/bad-token", "spectators cannot move; take a seat")
            move = data.get("move")
            version = data.get("version")
            if not isinstance(move, str) or not move.strip() or len(move) > 64:
                raise Refusal("message/bad", "a move message needs 'move', the move in "
                                             "notation, e.g. {\"type\": \"move\", \"move\": "
                                             "\"7H c4\", \"version\": 12}")
            if isinstance(version, bool) or not isinstance(version, int):
                raise Refusal("message/bad", "a move message needs 'version', the last "
                                             "table version you saw")
            await hub.play(room, conn.seat, move, version)
        elif kind == "hint":
            asyncio.get_running_loop().create_task(_hint(room, conn))
        elif kind == "rematch":
            await hub.rematch(room, conn)
        else:
            raise Refusal("message/bad", "'type' is one of move, hint, rematch, ping")

    async def _hint(room: Room, conn: Conn) -> None:
        try:
            await hub.hint(room, conn)
        except Refusal as refusal:
            conn.push(refusal.message_json())
        except Exception as exc:
            log.error("table %s: a hint failed (%s)", room.id, type(exc).__name__)
            conn.push(Refusal("server/error", "the hint failed; try again").message_json())

    # -- the web page

    def index() -> Any:
        page = STATIC / "index.html"
        if page.is_file():
            return FileResponse(page, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(PLACEHOLDER)

    @app.get("/", response_model=None)
    async def home() -> Any:
        return index()

    @app.get("/t/{table_id}", response_model=None)
    async def table_page(table_id: str) -> Any:
        return index()

    # the page's own routes (/rules, /api/rules, /api/arrange): cardtable.web
    from cardtable.web import router as web_routes

    app.include_router(web_routes())

    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    try:  # the page's own routes (rules, Three Thirteen's arrange), owned by cardtable.web
        from cardtable.web import router
    except ImportError:
        pass
    else:
        app.include_router(router())

    app.add_middleware(_Wrap, wrap=limits)
    return app


class _Wrap:
    """Adapts a function ``wrap(app) -> app`` to Starlette's middleware signature."""

    def __init__(self, app: Any, wrap: Any) -> None:
        self.app = wrap(app)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.app(scope, receive, send)
