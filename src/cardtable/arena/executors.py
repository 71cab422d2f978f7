"""Where the arena's games run: a concurrent.futures.Executor from an existing engine.

``open_executor(spec, workers)`` understands:

- ``local``: this machine's processes (``ProcessPoolExecutor``; one worker plays in
  this very process);
- ``dask``: a Dask ``LocalCluster`` of ``workers`` processes on this machine;
  ``dask://HOST:PORT``: the Dask scheduler at HOST:PORT. Either way the executor is
  ``distributed.Client.get_executor()``;
- ``ray``: the Ray cluster named by ``RAY_ADDRESS`` (as under ``ray job submit``),
  else a Ray started here with ``workers`` CPUs; ``ray://HOST:PORT``: a Ray cluster
  through Ray Client. Ray has no Executor class of its own: ``RayExecutor`` turns
  each ``submit`` into a remote task and hands back ``ObjectRef.future()``, Ray's
  concurrent.futures.Future.

Dask and Ray are optional extras (``pip install 'cardtable[dask]'`` or ``[ray]``); a
missing one is a one-line OptionsError. Every worker must be able to import
cardtable (and any outside bot's module).
"""

from __future__ import annotations

import os
import signal
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

from cardtable.core import OptionsError

EXECUTORS = ("local", "dask", "dask://HOST:PORT", "ray", "ray://HOST:PORT")


@dataclass
class Running:
    """An open executor: ``executor`` (None: play in this process), how many games it
    plays at once (``parallelism``), and ``stop()`` to drop unfinished work fast."""

    name: str
    executor: Executor | None
    parallelism: int
    stop: Callable[[], None]


def _ignore_sigint() -> None:
    # Ctrl-C reaches the whole process group; the parent alone decides what stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _missing(extra: str, module: str) -> OptionsError:
    return OptionsError(f"--executor {extra} needs {module}: pip install 'cardtable[{extra}]'")


@contextmanager
def open_executor(spec: str = "local", workers: int = 1) -> Iterator[Running]:
    """The executor named by ``spec`` (see the module docstring), closed on exit."""
    if spec == "local":
        with _local(workers) as running:
            yield running
    elif spec == "dask" or spec.startswith("dask://"):
        with _dask(spec, workers) as running:
            yield running
    elif spec == "ray" or spec.startswith("ray://"):
        with _ray(spec, workers) as running:
            yield running
    else:
        raise OptionsError(f"unknown executor {spec!r}; use {', '.join(EXECUTORS)}")


def _address(spec: str) -> str:
    address = spec.split("://", 1)[1]
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise OptionsError(f"executor {spec!r}: write the address as HOST:PORT, "
                           f"e.g. {spec.split('://')[0]}://10.0.0.5:8786")
    return address


@contextmanager
def _local(workers: int) -> Iterator[Running]:
    if workers <= 1:
        yield Running("local", None, 1, lambda: None)
        return
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint)

    def stop() -> None:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # a search may run for minutes: do not wait for it
            process.terminate()
        for process in processes:
            process.join(1)

    try:
        yield Running("local", pool, workers, stop)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@contextmanager
def _dask(spec: str, workers: int) -> Iterator[Running]:
    try:
        import dask
        import distributed
    except ImportError:
        raise _missing("dask", "dask[distributed]") from None
    cluster = None
    if spec == "dask":
        # The workers' statistical profiler samples the running game every 10 ms: on two
        # cores it cost a tenth of the speed-up from one worker to two (1.77x, 1.99x
        # without; bench/arena.py). A cluster of your own: see docs/arena.md.
        with warnings.catch_warnings(), dask.config.set(
                {"distributed.worker.profile.enabled": False}):
            warnings.simplefilter("ignore", UserWarning)  # "port 8787 is in use": no matter
            cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                               processes=True, dashboard_address=None)
        client = distributed.Client(cluster)
    else:
        address = _address(spec)
        try:
            client = distributed.Client(f"tcp://{address}", timeout="10s")
        except OSError as exc:
            raise OptionsError(f"no Dask scheduler answers at {address} ({exc})") from None
    executor = client.get_executor(pure=False)
    parallelism = max(1, sum(client.nthreads().values()))
    # our own cluster's workers may be deep in a search: end them rather than wait
    pids = list(client.run(os.getpid).values()) if cluster is not None else []

    def stop() -> None:
        executor.shutdown(wait=False)
        for pid in pids:
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)

    try:
        yield Running(spec, executor, parallelism, stop)
    finally:
        executor.shutdown(wait=False)
        client.close()
        if cluster is not None:
            cluster.close()


class RayExecutor(Executor):
    """Ray tasks behind the concurrent.futures API: ``submit`` runs ``fn`` as a Ray remote
    function and returns a Future fed by ``ObjectRef.future()``; ``shutdown(cancel_futures=True)``
    cancels (and force-stops) the tasks still pending or running."""

    def __init__(self) -> None:
        import ray

        self._ray = ray
        self._remote: dict[Callable[..., Any], Any] = {}
        self._refs: list[Any] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(num_cpus=1, max_retries=0)(fn)
        ref = remote.remote(*args, **kwargs)
        self._refs.append(ref)
        future: Future[Any] = Future()
        ref.future().add_done_callback(lambda done: _relay(done, future))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        refs, self._refs = self._refs, []
        if refs and (cancel_futures or not wait):
            _, pending = self._ray.wait(refs, num_returns=len(refs), timeout=0)
            for ref in pending:
                with suppress(Exception):  # already finished or gone: nothing to stop
                    self._ray.cancel(ref, force=True)
        elif refs:
            self._ray.wait(refs, num_returns=len(refs))


def _relay(done: Future[Any], future: Future[Any]) -> None:
    """Pass a Ray task's outcome on; an exception as raised in the task (RayTaskError
    carries it as ``cause``, its message padded with the remote traceback)."""
    exc = done.exception()
    if exc is None:
        future.set_result(done.result())
    else:
        cause = getattr(exc, "cause", None)
        future.set_exception(cause if isinstance(cause, BaseException) else exc)


@contextmanager
def _ray(spec: str, workers: int) -> Iterator[Running]:
    try:
        import ray
    except ImportError:
        raise _missing("ray", "ray") from None
    if spec == "ray" and not os.environ.get("RAY_ADDRESS"):
        ray.init(address="local", num_cpus=workers, include_dashboard=False,
                 log_to_driver=False, configure_logging=False)
    else:
        address = spec if spec != "ray" else os.environ["RAY_ADDRESS"]
        if address.startswith("ray://"):
            _address(address)
        try:
            ray.init(address=address, log_to_driver=False)
        except ImportError:  # Ray Client needs grpcio
            raise _missing("ray", "ray[client]") from None
        except (ConnectionError, OSError) as exc:
            hint = ("; a cluster with token authentication needs RAY_AUTH_MODE=token here "
                    "and its token" if address.startswith("ray://") else "")
            raise OptionsError(f"no Ray cluster answers at {address} ({exc}){hint}") from None
    try:
        executor = RayExecutor()
        parallelism = max(1, int(ray.cluster_resources().get("CPU", workers)))
        try:
            yield Running(spec, executor, parallelism,
                          lambda: executor.shutdown(wait=False, cancel_futures=True))
        finally:
            executor.shutdown(wait=False, cancel_futures=True)
    finally:
        ray.shutdown()
