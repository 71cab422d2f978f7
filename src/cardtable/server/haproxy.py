"""HAProxy on loopback in front of a cluster's processes, for tests and benchmarks: the
configuration of docs/server.md ("Routing: one address"): a table's requests to the
process that plays it, as that process's answers said (a stick table on the table id),
the rest round robin over the processes, health checked on ``/readyz``.

>>> front = TempHAProxy([8001, 8002]).start()      # doctest: +SKIP
>>> front.port                                     # doctest: +SKIP

Runs Debian's ``haproxy`` (``/usr/sbin/haproxy``).
"""

from __future__ import annotations

import shutil
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from cardtable.store import pgtemp


def find_binary() -> str | None:
    """The ``haproxy`` program, or None if it is not installed."""
    return shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None)


def config(bind: str, servers: list[str]) -> str:
    """The documented configuration: listening at ``bind``, in front of ``servers``
    (HOST:PORT each, named a, b, c, ...)."""
    lines = [
        "global", "    maxconn 4096",
        "defaults", "    mode http", "    timeout connect 2s",
        "    timeout client 1h", "    timeout server 1h", "    timeout tunnel 1h",
        "    option redispatch", "    retries 3",
        "frontend cards", f"    bind {bind}",
        "    default_backend cardtable",
        # a table's requests go to the process that said it plays the table (relay.OWNS),
        # the rest round robin
        "backend cardtable", "    balance roundrobin",
        "    stick-table type string len 32 size 1m expire 1d",
        "    stick match path,field(4,/) if { path_beg /ws/tables/ /api/tables/ }",
        "    stick store-response res.hdr(x-cardtable-table)",
        "    option httpchk GET /readyz", "    http-check expect status 200",
        "    default-server inter 500ms fall 2 rise 1",
        *(f"    server {chr(ord('a') + n)} {address} check"
          for n, address in enumerate(servers)),
    ]
    return "\n".join(lines) + "\n"


class TempHAProxy:
    """HAProxy on 127.0.0.1 and a free port in front of the processes at ``ports`` on
    127.0.0.1; its configuration in ``folder``. Started again after ``kill``, it listens
    at the same port."""

    def __init__(self, ports: list[int], folder: Path) -> None:
        binary = find_binary()
        if binary is None:
            raise FileNotFoundError("haproxy is not installed (Debian: apt install haproxy)")
        self.binary = binary
        self.port = pgtemp.free_port()
        self.config = folder / f"haproxy-{self.port}.cfg"
        self.config.write_text(config(f"127.0.0.1:{self.port}",
                                      [f"127.0.0.1:{port}" for port in ports]))
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 20) -> TempHAProxy:
        """Start it and wait until a process answers ready through it."""
        self.proc = subprocess.Popen([self.binary, "-f", str(self.config), "-db"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/readyz",
                                            timeout=1) as answer:
                    if answer.status == 200:
                        return self
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("HAProxy did not answer")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)

    def kill(self) -> None:
        """kill -9: every connection through it cut at once."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait()
