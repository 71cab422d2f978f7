"""The table server: play together over the network, with every move kept.

``cardtable serve`` runs :func:`serve`; the protocol is in docs/server.md. FastAPI,
uvicorn, SQLAlchemy and Alembic are imported here and below, never by the engine.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from cardtable.server.settings import Settings

__all__ = ["JsonFormatter", "Settings", "TokenFilter", "serve"]

_SECRET = re.compile(r"((?:token|player)=)[^&\s\"']+", re.IGNORECASE)


class TokenFilter(logging.Filter):
    """Hides ``token=...`` and ``player=...`` (seat tokens, player keys) in log lines
    (uvicorn logs WebSocket paths with their query)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and _SECRET.search(record.msg):
            record.msg = _SECRET.sub(r"\1***", record.msg)
        if record.args:
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            record.args = tuple(_SECRET.sub(r"\1***", a) if isinstance(a, str) else a
                                for a in args)
        return True


_TABLE = re.compile(r"^table ([A-Za-z0-9_-]{1,32})\b")


class JsonFormatter(logging.Formatter):
    """One JSON object a line (``--log-format json``): ``time``, ``level``, ``logger``,
    ``message``, ``process`` (the ``--owner`` name, if any) and ``table``, the table's id
    when the line is about one (a ``table`` given in ``extra``, or the id of a message
    that starts ``table ID``)."""

    owner: str | None = None

    def format(self, record: logging.LogRecord) -> str:
        import json

        message = record.getMessage()
        line: dict[str, Any] = {"time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S"),
                                "level": record.levelname.lower(), "logger": record.name,
                                "message": message}
        if self.owner is not None:
            line["process"] = self.owner
        table = getattr(record, "table", None)
        if table is None and (found := _TABLE.match(message)):
            table = found.group(1)
        if table is not None:
            line["table"] = table
        return json.dumps(line, ensure_ascii=False)


def log_config(log_format: str = "text", owner: str | None = None) -> dict[str, Any]:
    """uvicorn's logging, with seat tokens hidden from every line; ``json``: one JSON
    object a line (``JsonFormatter``)."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = {**LOGGING_CONFIG}
    if log_format == "json":
        JsonFormatter.owner = owner
        config["formatters"] = {name: {"()": JsonFormatter}
                                for name in LOGGING_CONFIG["formatters"]}
    config["filters"] = {"tokens": {"()": TokenFilter}}
    config["handlers"] = {name: {**handler, "filters": ["tokens"]}
                          for name, handler in LOGGING_CONFIG["handlers"].items()}
    config["loggers"] = {**LOGGING_CONFIG["loggers"],
                         "cardtable": {"handlers": ["default"], "level": "INFO",
                                       "propagate": False}}
    return config


def steady_gc() -> None:
    """Keep the garbage collector's pauses short. What exists now (the code of every module
    the server imported, most of the objects of a running server) moves to the permanent
    generation, which collections skip; and full collections wait for 100 middle ones
    rather than 10 (a few minutes under load: cyclic garbage mostly dies young, and the
    young collections still free it). Measured with bench/server.py, 200 clients: full
    collections stopped the server for 110-135 ms every few seconds, 30-85 ms after the
    freeze; the young ones take 1-10 ms.
    """
    import gc

    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 100)


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000,
          access_log: bool = True, log_format: str = "text") -> None:
    """Run the server until interrupted (SchemaError when the database is outdated)."""
    import uvicorn

    from cardtable.server.app import create_app
    from cardtable.server.guards import guarded_protocol

    app = create_app(settings)
    steady_gc()
    # uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise: here only
    # from the proxies named (the rate limits go by the address it gives)
    proxies = list(settings.trusted_proxies)
    uvicorn.run(app, host=host, port=port, log_config=log_config(log_format, settings.owner),
                access_log=access_log,
                ws_max_size=64 * 1024, ws="websockets-sansio", proxy_headers=bool(proxies),
                forwarded_allow_ips=proxies or None,
                # views are small; compressing each costs more CPU than it saves on a LAN
                ws_per_message_deflate=False,
                timeout_graceful_shutdown=3, timeout_keep_alive=settings.keep_alive_timeout,
                http=guarded_protocol(settings.header_timeout,
                                      settings.connections_per_address))
