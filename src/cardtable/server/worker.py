"""What runs in the bot pool's worker processes, kept apart from the server so that a
worker imports only the engine and ``cardtable.table`` (not FastAPI or SQLAlchemy): each
of the server's workers starts in a fraction of a second.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from typing import Any

from cardtable.table import HintJob, run_hint_job


def hint_in_worker(job: HintJob) -> tuple[str, float, str, dict[str, Any] | None,
                                           list[dict[str, Any]] | None]:
    """In a worker process: the job's hint as plain data: the move, the chance of winning,
    what that chance is of ("game", or "match" in Draw Bridge), and where the hint is
    exact (Draw Bridge from the auction on) what the move leads to and, in the auction,
    what every call leads to (``cardtable.bots.Hint``)."""
    found = run_hint_job(job)
    return (found.action.notation, found.win_probability, found.estimate_of,
            found.outcome, None if found.calls is None else list(found.calls))


def warm() -> int:
    """A job that does nothing: the pool starts every worker with one."""
    return 0


PR_SET_PDEATHSIG = 1   # <linux/prctl.h>


def _kernel_kills_orphan() -> bool:
    """On Linux, ask the kernel for SIGKILL when this process's parent ends; False where
    that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)
        return bool(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _exit_when_ready(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(1)


def die_with_parent(use_kernel: bool = True) -> None:
    """A worker's initializer: the worker ends when the process that started it does.
    With ``use_kernel`` (and on Linux) the kernel kills it; otherwise, or where that fails,
    a daemon thread waits on the parent's sentinel (``parent_process().sentinel``, ready
    once the parent is gone) and exits the process.

    A worker ignores SIGINT: Ctrl+C in a terminal reaches the server's whole process
    group, and a worker stopped by it printed a KeyboardInterrupt traceback each and left
    the pool broken, its queues' semaphores unreleased ("resource_tracker: There appear
    to be 5 leaked semaphore objects"). The server stops its workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    if use_kernel and _kernel_kills_orphan():
        if os.getppid() != parent.pid:   # the parent died before the prctl
            os._exit(1)
        return
    threading.Thread(target=_exit_when_ready, args=(parent.sentinel,), daemon=True,
                     name="die-with-parent").start()
