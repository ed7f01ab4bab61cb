"""Where a batch runs: this process, a pool of local processes, or a Ray cluster.

Each runner maps one function over items and yields its results, in the items' order
(``ordered``) or as they come; the work goes out in chunks, a bounded number at a time (so
memory stays flat however many items there are).  ``stop`` (a ``threading.Event``) ends the map
between results: what was yielded is done, what was under way is dropped.  A worker that dies
(killed, out of memory, a crash in C) loses nothing but its own item: the items of its chunk
are run again one at a time, and the one that kills a worker again gets ``died(item, why)`` as
its result.
"""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import logging
import multiprocessing
import os
import signal
from concurrent.futures.process import BrokenProcessPool

from .._errors import BoardstateError

POLL = 0.25  # seconds between looks at ``stop`` while waiting


class NoRay(BoardstateError):
    code = "no-ray"


def make_runner(jobs: int = 1, ray: str | None = None):
    """``ray``: a Ray cluster's address (``auto``, ``HOST:PORT``, ``ray://HOST:PORT``), or
    ``local`` to start one on this machine for the run (``jobs`` CPUs, default all); else
    ``jobs`` processes of this machine (1: this process)."""
    if ray is not None:
        return RayRunner(ray, jobs)
    if jobs <= 1:
        return Serial()
    return Processes(jobs)


class Serial:
    """This process, one item after the other."""

    workers = 1
    remote = False
    spread = 8  # chunks a worker, at least (the last chunks are the run's tail)

    def __str__(self) -> str:
        return "1 process"

    def chunk_size(self, items: int, most: int = 64) -> int:
        """Items per chunk: ``spread`` chunks a worker or more, at most ``most`` items."""
        return max(1, min(most, items // (self.workers * self.spread)))

    def map(self, fn, items, *, ordered=False, chunk=1, stop=None, died=None):
        for item in items:
            if stop is not None and stop.is_set():
                return
            yield fn(item)

    def close(self, *, now: bool = False) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, kind, *_):
        self.close(now=kind is not None)


class _Windowed(Serial):
    """Chunks out to workers, at most ``window`` under way (or done but waiting for an earlier
    one, when ``ordered``)."""

    window = 2

    def map(self, fn, items, *, ordered=False, chunk=1, stop=None, died=None):
        items = iter(items)
        pending: dict = {}  # handle -> (number, chunk)
        ready: dict = {}  # number -> results (ordered: waiting for an earlier chunk)
        try:
            yield from self._flow(fn, items, ordered, chunk, stop, died, pending, ready)
        finally:
            self._cancel(list(pending))  # (stopped early: what is under way is dropped)

    def _flow(self, fn, items, ordered, chunk, stop, died, pending, ready):
        numbers = itertools.count()
        following = 0  # the next chunk to yield, ordered
        more = True
        while True:
            if stop is not None and stop.is_set():
                return
            while more and len(pending) + len(ready) < self.window:
                part = list(itertools.islice(items, chunk))
                if not part:
                    more = False
                    break
                pending[self._submit(fn, part)] = (next(numbers), part)
            if not pending and not ready:
                return
            for handle in self._wait(list(pending)) if pending else ():
                number, part = pending.pop(handle)
                ready[number] = self._results(handle, fn, part, died)
            if ordered:
                while following in ready:
                    yield from ready.pop(following)
                    following += 1
            else:
                for number in sorted(ready):
                    yield from ready.pop(number)

    def _results(self, handle, fn, part, died) -> list:
        try:
            return self._get(handle)
        except self._broken:
            return [self._alone(fn, item, died) for item in part]

    def _alone(self, fn, item, died):
        """One item of a chunk whose worker died, run by itself."""
        try:
            return self._get(self._submit(fn, [item]))[0]
        except self._broken as exc:
            why = f"the worker died ({type(exc).__name__}: {' '.join(str(exc).split())[:200]})"
            if died is None:
                raise
            return died(item, why)


def _run_chunk(fn, part) -> list:
    return [fn(item) for item in part]


def _quiet_worker() -> None:
    """Ctrl-C is the parent's to handle (it stops the run and keeps what is done).  Each worker
    is a session of its own, as Ray's are: where the kernel shares the CPU out by session
    (Linux's autogroups), a pool in the terminal's session would get one session's share of a
    busy machine however many workers it has."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(os, "setsid"):
        try:
            os.setsid()
        except OSError:  # (already a session leader)
            pass


class Processes(_Windowed):
    """``jobs`` processes of this machine (forked where the system can: each starts with the
    engine and the game modules this process has loaded already)."""

    remote = False
    spread = 32  # (a chunk costs a process little: a short tail)
    _broken = BrokenProcessPool

    def __init__(self, jobs: int) -> None:
        methods = multiprocessing.get_all_start_methods()
        self._context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self.workers = jobs
        self.window = 3 * jobs
        self._pool = self._new_pool()

    def __str__(self) -> str:
        return f"{self.workers} processes"

    def _new_pool(self):
        return cf.ProcessPoolExecutor(
            self.workers, mp_context=self._context, initializer=_quiet_worker
        )

    def _submit(self, fn, part):
        try:
            return self._pool.submit(_run_chunk, fn, part)
        except BrokenProcessPool:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            return self._pool.submit(_run_chunk, fn, part)

    def _wait(self, handles) -> list:
        done, _ = cf.wait(handles, timeout=POLL, return_when=cf.FIRST_COMPLETED)
        return [h for h in handles if h in done]  # (in the order they were sent)

    def _get(self, handle):
        return handle.result()

    def _cancel(self, handles) -> None:
        for handle in handles:
            handle.cancel()

    def close(self, *, now: bool = False) -> None:
        if now:  # (what is under way is dropped: it is not written)
            terminate = getattr(self._pool, "terminate_workers", None)  # (Python 3.14)
            if terminate is not None:
                terminate()
            else:
                for process in list((self._pool._processes or {}).values()):
                    process.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)


class RayRunner(_Windowed):
    """A Ray cluster: the one at ``address``, or one started on this machine for the run
    (``local``; stopped after it).  Items go to the workers by value (a file's bytes, not its
    path): the cluster's machines need no shared disk, only boardstate installed."""

    remote = True

    def __init__(self, address: str, jobs: int = 0) -> None:
        try:
            import ray
        except ImportError:
            raise NoRay(
                "Ray is not installed: pip install 'boardstate[ray]'", code="no-ray"
            ) from None
        self._ray = ray
        self._broken = (ray.exceptions.RayError,)
        self._own = not ray.is_initialized()
        quiet = dict(log_to_driver=False, logging_level=logging.ERROR)
        local = address in ("", "local")
        if self._own and local:
            ray.init(num_cpus=jobs or os.cpu_count(), include_dashboard=False, **quiet)
        elif self._own:
            ray.init(address=address, **quiet)
        self.address = "local" if local else address
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.window = 2 * self.workers
        self._task = ray.remote(max_retries=0)(_run_chunk)

    def __str__(self) -> str:
        where = "on this machine" if self.address == "local" else f"at {self.address}"
        return f"Ray {where} ({self.workers} CPUs)"

    def _submit(self, fn, part):
        return self._task.remote(fn, part)

    def _wait(self, handles) -> list:
        done, _ = self._ray.wait(handles, num_returns=1, timeout=POLL)
        return done

    def _get(self, handle):
        return self._ray.get(handle)

    def _cancel(self, handles) -> None:
        for handle in handles:
            try:
                self._ray.cancel(handle, force=True)
            except Exception:  # (done meanwhile, or the cluster is going away)
                pass

    def close(self, *, now: bool = False) -> None:
        if self._own and self._ray.is_initialized():
            self._ray.shutdown()
