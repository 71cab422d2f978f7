"""The headers every HTTP answer carries: the web page's Content-Security-Policy, and
no framing or content sniffing (docs/server.md: Headers)."""

from __future__ import annotations

from typing import Any

#: what the page (``cardtable/web/static``) loads: its own scripts, styles, fonts, card
#: pictures, sound and API, its WebSocket (``'self'`` covers ``ws:``/``wss:`` to the same
#: host), and the tab's icon, a ``data:`` SVG; no inline script or style, and no page may
#: frame it (a click on Leave or Rematch under someone else's page)
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
    "font-src 'self'", "media-src 'self'", "connect-src 'self'", "object-src 'none'",
    "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
])

HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),          # frame-ancestors for older browsers
    (b"referrer-policy", b"same-origin"),
]


class SecurityHeaders:
    """ASGI middleware: ``HEADERS`` added to every HTTP answer (the page, its files, the
    API and its refusals); WebSocket connections pass as they are."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)
