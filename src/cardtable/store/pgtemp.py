"""A throwaway PostgreSQL cluster for tests and benchmarks (``initdb`` in a temp folder).

>>> with TempPostgres() as pg:            # doctest: +SKIP
...     url = pg.new_database("t1")       # postgresql+psycopg://postgres@127.0.0.1:PORT/t1

Runs the server binaries of Debian's ``postgresql`` package (/usr/lib/postgresql/*/bin)
as the ``postgres`` user when started by root (PostgreSQL refuses to run as root).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType


def find_bin() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``, newest version first; None if absent."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").exists():
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class TempPostgres:
    """A cluster on 127.0.0.1 and a free port, removed with its folder on ``stop()``."""

    def __init__(self, fsync: bool = True) -> None:
        bin_dir = find_bin()
        if bin_dir is None:
            raise RuntimeError("PostgreSQL's server programs (initdb) are not installed")
        self.bin = bin_dir
        self.fsync = fsync
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
        self.data = self.folder / "data"
        self.started = False

    def _run(self, *args: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *args], check=True, capture_output=True, timeout=120)

    def start(self) -> TempPostgres:
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "--auth=trust", "-E", "UTF8", "--no-sync")
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   f"-c max_connections=200" + ("" if self.fsync else " -c fsync=off"))
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l",
                  str(self.folder / "log"), "-o", options, "-w", "-t", "60", "start")
        self.started = True
        return self

    def stop(self) -> None:
        if self.started:
            with contextlib.suppress(subprocess.CalledProcessError):
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                          "-w", "stop")
            self.started = False
        shutil.rmtree(self.folder, ignore_errors=True)

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def new_database(self, name: str) -> str:
        """A new, empty database ``name`` and its URL."""
        return create_database(self.url, name)

    def __enter__(self) -> TempPostgres:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def create_database(admin_url: str, name: str) -> str:
    """``CREATE DATABASE name`` on the server of ``admin_url``; the new database's URL."""
    import sqlalchemy as sa

    if not name.replace("_", "").isalnum():
        raise ValueError(f"bad database name {name!r}")
    engine = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}"'))
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return sa.engine.make_url(admin_url).set(database=name).render_as_string(
        hide_password=False)
