"""The FastAPI application: the HTTP API, the WebSocket and the web page (docs/server.md).

This module only assembles: the routers (``http_routes``, ``ws_routes`` and the web
page's own, ``cardtable.web.router``), the rate limits, the security headers, one answer
format for every refusal, and the OpenAPI document at ``/api/openapi.json``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

import cardtable
from cardtable import web
from cardtable.server import http_routes, limits, metrics, pairing, player_routes, ws_routes
from cardtable.server.bodies import error_body
from cardtable.server.guards import BodyTimeout
from cardtable.server.headers import SecurityHeaders
from cardtable.server.limits import RateLimits
from cardtable.server.refusals import Refusal
from cardtable.server.relay import Relay
from cardtable.server.service import TableService
from cardtable.server.settings import Settings
from cardtable.store import Store, ensure_schema

log = logging.getLogger("cardtable.server")
#: seconds a client is told to wait after server/unavailable (Retry-After)
RETRY_AFTER = 5

PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>cardtable</title>
<p>The cardtable server is running; its web page is not installed. The API is at
<a href="/api/tables">/api/tables</a>.</p>"""

DESCRIPTION = ("The table server's HTTP API (docs/server.md). The WebSocket "
               "`/ws/tables/{id}` and its messages are described by the JSON Schema at "
               "`/api/ws-schema.json`.")


def refused(refusal: Refusal, **headers: str) -> JSONResponse:
    return JSONResponse(error_body(refusal), status_code=refusal.status, headers=headers)


class App(FastAPI):
    def openapi(self) -> dict[str, Any]:
        """FastAPI's OpenAPI document of the routes under /api, with the request bodies
        the API reads itself."""
        if self.openapi_schema is None:
            schema = get_openapi(title=self.title, version=self.version,
                                 description=self.description, routes=self.routes)
            schema["paths"] = {path: route for path, route in schema["paths"].items()
                               if path.startswith("/api/")}
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for model in (*http_routes.BODIES, *player_routes.BODIES, *pairing.BODIES):
                found = model.model_json_schema(ref_template="#/components/schemas/{model}")
                components.update(found.pop("$defs", {}))
                components[model.__name__] = found
            self.openapi_schema = schema
        return self.openapi_schema


def create_app(settings: Settings) -> FastAPI:
    """The app for ``settings``; the database schema must be current (or the db empty)."""
    store = Store(settings.db_url, settings.lease if settings.cluster else None,
                  settings.owner)
    ensure_schema(store.engine, settings.db_url)
    service = TableService(settings, store)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            store.close()

    app = App(title="cardtable", version=cardtable.__version__, lifespan=lifespan,
                  description=DESCRIPTION, openapi_url="/api/openapi.json", docs_url=None,
                  redoc_url=None,
                  # a path with one slash too many is not found (a JSON refusal), not sent
                  # on with an empty 307: /api/players/%2F was such a path
                  redirect_slashes=False)
    app.state.service = service
    add_error_handlers(app)
    app.include_router(http_routes.router(service))
    app.include_router(player_routes.router(service))
    app.include_router(pairing.router(service))
    app.include_router(ws_routes.router(service))
    app.include_router(metrics.router(service))
    add_page(app, service)
    if service.relay is not None:      # innermost: inside the rate limits and headers
        app.add_middleware(Relay, router=service.relay)
    app.add_middleware(RateLimits, settings=settings)
    app.add_middleware(BodyTimeout, timeout=settings.body_timeout)
    app.add_middleware(SecurityHeaders)     # the outermost: on limit/rate's answers too
    return app


def add_error_handlers(app: FastAPI) -> None:
    """Every refusal, whatever the route, is ``{"error": {"code", "message"}}``."""

    @app.exception_handler(Refusal)
    async def _refusal(_request: Request, exc: Refusal) -> JSONResponse:
        if exc.code == "server/unavailable":
            return refused(exc, **{"Retry-After": str(RETRY_AFTER)})
        return refused(exc)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Any:
        if exc.status_code == 405:
            return refused(Refusal("http/method", "this address does not take that method"))
        if exc.status_code == 404:
            page = web.not_found_page(request.method, request.url.path,
                                      request.headers.get("accept", ""))
            if page is not None:   # a browser: the page says "no such page"
                return page
            return refused(Refusal("http/not-found", "there is nothing at this address"))
        return JSONResponse(error_body(Refusal("message/bad", str(exc.detail))),
                            status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return refused(Refusal("message/bad", "the request's parameters are not valid"))

    @app.exception_handler(Exception)
    async def _crash(_request: Request, exc: Exception) -> JSONResponse:
        log.error("request failed: %s", type(exc).__name__)
        return refused(Refusal("server/error", "the server failed; try again"))


def add_page(app: FastAPI, service: TableService) -> None:
    """The web page: ``index.html`` at ``/`` and ``/t/{id}``, its files at ``/static``,
    and its own routes (``cardtable.web.router``)."""

    def index() -> Any:
        page = web.STATIC_DIR / "index.html"
        if page.is_file():
            return FileResponse(page, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(PLACEHOLDER)

    @app.get("/", response_model=None, include_in_schema=False)
    async def home() -> Any:
        return index()

    @app.get("/t/{table_id}", response_model=None, include_in_schema=False)
    async def table_page(table_id: str) -> Any:
        return index()

    async def offload(request: Any, answer: Callable[[bytes], bytes], body: bytes) -> bytes:
        # a record file's replay or review, in the bot pool's fair share: one at a time
        # per client address, behind that address's others (docs/server.md: Limits)
        address = limits.client_address(request.scope)
        return await service.jobs.offload(f"file:{address}", answer, body, address)

    app.include_router(web.router(offload))
    if web.STATIC_DIR.is_dir():
        app.mount("/static", CompressedStatic(StaticFiles(directory=web.STATIC_DIR)),
                  name="static")


class CompressedStatic:
    """The page's files gzip-compressed for a browser that accepts gzip (scripts, the
    stylesheet, the catalog, SVG pictures: about a quarter of their size on the wire);
    files compressed already (WOFF2 fonts, PNG) are sent as they are."""

    PACKED = (".woff2", ".woff", ".png", ".jpg", ".gif", ".gz")

    def __init__(self, files: Any) -> None:
        self.plain = files
        self.gzip = GZipMiddleware(files, minimum_size=512)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        packed = str(scope.get("path", "")).endswith(self.PACKED)
        await (self.plain if packed else self.gzip)(scope, receive, send)
