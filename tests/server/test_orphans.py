"""kill -9 the server: the processes it started (bot workers, multiprocessing's resource
tracker) end within seconds, and a restart on the same port and database plays on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.server.conftest import ROOT, Server

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")]

#: seconds a child of a killed server may outlive it
GRACE = 5.0

Process = tuple[int, int]   # a pid and its start time (so a reused pid is not mistaken)


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()


def descendants(root: int) -> dict[Process, str]:
    """Every living process below ``root``, with its command line."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None:
            parents.setdefault(int(fields[1]), []).append(int(entry))
    found: dict[Process, str] = {}
    todo = list(parents.get(root, []))
    while todo:
        pid = todo.pop()
        todo.extend(parents.get(pid, []))
        fields = _stat(pid)
        if fields is not None and fields[0] != "Z":
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            found[(pid, int(fields[19]))] = command.decode(errors="replace")
    return found


def alive(process: Process) -> bool:
    fields = _stat(process[0])
    return fields is not None and fields[0] != "Z" and int(fields[19]) == process[1]


def outlived(processes: dict[Process, str], killed_at: float) -> float:
    """Seconds until the last of ``processes`` ended (polled; fails after GRACE)."""
    while time.monotonic() - killed_at < GRACE:
        left = [p for p in processes if alive(p)]
        if not left:
            return time.monotonic() - killed_at
        time.sleep(0.02)
    left_over = {p: c for p, c in processes.items() if alive(p)}
    for pid, _ in left_over:        # no orphans left behind by the test either
        os.kill(pid, signal.SIGKILL)
    raise AssertionError(f"alive {GRACE} s after the kill: {left_over}")


def test_a_killed_server_leaves_no_process_behind(sqlite_url: str, tmp_path: Path) -> None:
    server = Server(sqlite_url, tmp_path, "--bot-workers", "2").start()
    slow = {"kind": "bot", "bot": "ismcts", "settings": {"seconds": 1.0}}
    try:
        for _ in range(2):        # two tables of thinking bots: the workers killed mid-move
            server.create("sequence", [slow, slow])
        assert server.proc is not None
        deadline = time.monotonic() + 60
        while True:     # the two workers and the resource tracker at least
            children = descendants(server.proc.pid)
            if len(children) >= 3 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert len(children) >= 3, children
        assert any("resource_tracker" in c for c in children.values()), children
        server.kill()
        took = outlived(children, time.monotonic())
        print(f"{len(children)} children ended {took:.2f} s after the kill")
        # a restart on the same port and database: the tables play on
        restarted = Server(sqlite_url, tmp_path, "--bot-workers", "2")
        restarted.port = server.port
        restarted.start()
        try:
            table = restarted.get("/api/tables").json()["tables"][0]
            first = table["version"]
            deadline = time.monotonic() + 60
            while restarted.get(f"/api/tables/{table['id']}").json()["version"] == first:
                assert time.monotonic() < deadline, "the bots did not play on"
                time.sleep(0.2)
        finally:
            restarted.stop()
    finally:
        server.stop()


WORKER_OF_A_DOOMED_PARENT = """
import concurrent.futures, multiprocessing, os, sys, time
from cardtable.server.worker import die_with_parent
if __name__ == "__main__":
    pool = concurrent.futures.ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("spawn"), initializer=die_with_parent,
        initargs=(False,))
    print(pool.submit(os.getpid).result(), flush=True)
    time.sleep(600)
"""


def test_without_the_kernel_a_thread_ends_the_orphaned_worker(tmp_path: Path) -> None:
    """The portable way (where PR_SET_PDEATHSIG is missing): the worker's thread sees its
    parent's sentinel close."""
    script = tmp_path / "doomed.py"
    script.write_text(WORKER_OF_A_DOOMED_PARENT)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep
           + os.environ.get("PYTHONPATH", "")}
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, env=env)
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        children = descendants(parent.pid)
        assert worker in {pid for pid, _ in children}
        parent.kill()
        parent.wait()
        took = outlived(children, time.monotonic())
        print(f"{len(children)} children ended {took:.2f} s after the kill")
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
