"""Operations: ``/healthz``, ``/readyz`` and the Prometheus metrics at ``/metrics``
(docs/server.md, "Operations").

The metrics are written in Prometheus's text exposition format (version 0.0.4) by this
module: a few counters, gauges and two histograms need no library. Nothing in them names
a move, a card, a seat's token or a player.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from fastapi import APIRouter
from fastapi.responses import JSONResponse, PlainTextResponse

if TYPE_CHECKING:
    from cardtable.server.service import TableService

#: the histograms' upper bounds, seconds
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
           5.0, 10.0)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class Histogram:
    """Observations counted in ``BUCKETS`` (Prometheus's cumulative buckets when written)."""

    def __init__(self) -> None:
        self.counts = [0] * (len(BUCKETS) + 1)
        self.sum = 0.0
        self.count = 0

    def observe(self, seconds: float) -> None:
        self.counts[bisect.bisect_left(BUCKETS, seconds)] += 1
        self.sum += seconds
        self.count += 1

    def lines(self, name: str) -> list[str]:
        out, total = [], 0
        for bound, n in zip((*BUCKETS, float("inf")), self.counts, strict=True):
            total += n
            label = "+Inf" if bound == float("inf") else repr(bound)
            out.append(f'{name}_bucket{{le="{label}"}} {total}')
        out += [f"{name}_sum {self.sum!r}", f"{name}_count {self.count}"]
        return out


class Metrics:
    """What ``/metrics`` says about one server process."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.move_seconds = Histogram()
        self.commit_seconds = Histogram()
        service.pipeline.observe_move = self.move_seconds.observe
        service.db.observe_commit = self.commit_seconds.observe

    def text(self) -> str:
        service = self.service
        rooms = service.rooms
        statuses = {"waiting": 0, "playing": 0}
        for room in list(rooms.live.values()):
            if room.status in statuses:
                statuses[room.status] += 1
        lines = [
            "# HELP cardtable_moves_total Moves accepted and stored by this process.",
            "# TYPE cardtable_moves_total counter",
            f"cardtable_moves_total {service.pipeline.moves_accepted}",
            "# HELP cardtable_move_seconds From a move's arrival to its broadcast (its "
            "checks, the table's lock, its commit).",
            "# TYPE cardtable_move_seconds histogram",
            *self.move_seconds.lines("cardtable_move_seconds"),
            "# HELP cardtable_commit_seconds The database's group commits.",
            "# TYPE cardtable_commit_seconds histogram",
            *self.commit_seconds.lines("cardtable_commit_seconds"),
            "# HELP cardtable_tables Unfinished tables this process plays.",
            "# TYPE cardtable_tables gauge",
            *(f'cardtable_tables{{status="{status}"}} {n}'
              for status, n in statuses.items()),
            "# HELP cardtable_connections WebSocket connections open to this process.",
            "# TYPE cardtable_connections gauge",
            f"cardtable_connections {sum(rooms.sockets.values())}",
            "# HELP cardtable_ready This process takes tables (see /readyz).",
            "# TYPE cardtable_ready gauge",
            f"cardtable_ready {int(service.ready())}",
        ]
        cluster = service.cluster
        if cluster is not None:
            lines += [
                "# HELP cardtable_lease_changes_total Leases this process claimed, took "
                "from a lapsed process (with its tables) or lost.",
                "# TYPE cardtable_lease_changes_total counter",
                *(f'cardtable_lease_changes_total{{change="{change}"}} '
                  f'{cluster.changes[change]}' for change in ("claimed", "took", "lost")),
                "# HELP cardtable_tables_taken_over_total Tables this process took from "
                "lapsed processes.",
                "# TYPE cardtable_tables_taken_over_total counter",
                f"cardtable_tables_taken_over_total {cluster.tables_taken}",
                "# HELP cardtable_lease_held This process's lease is known to be current.",
                "# TYPE cardtable_lease_held gauge",
                f"cardtable_lease_held {int(cluster.held())}",
            ]
        if service.relay is not None:
            lines += [
                "# HELP cardtable_relayed_total Requests and WebSocket connections this "
                "process relayed to the process of their table.",
                "# TYPE cardtable_relayed_total counter",
                f"cardtable_relayed_total {service.relay.relayed}",
            ]
        return "\n".join(lines) + "\n"


def router(service: TableService) -> APIRouter:
    """``/healthz``, ``/readyz`` and ``/metrics`` (outside ``/api``: no rate limit)."""
    metrics = Metrics(service)
    routes = APIRouter(include_in_schema=False)

    @routes.get("/healthz")
    async def healthz() -> JSONResponse:
        """The process answers (its event loop runs)."""
        return JSONResponse({"ok": True})

    @routes.get("/readyz")
    async def readyz() -> JSONResponse:
        """The process takes tables: started, not stopping, its lease current."""
        ready = service.ready()
        body = {"ready": ready, "process": service.settings.owner,
                "tables": len(service.rooms.live)}
        return JSONResponse(body, status_code=200 if ready else 503)

    @routes.get("/metrics")
    async def prometheus() -> PlainTextResponse:
        return PlainTextResponse(metrics.text(), media_type=CONTENT_TYPE)

    return routes
