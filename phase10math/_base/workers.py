"""Worker processes that never outlive their command, and keep quiet on Ctrl-C.

:class:`WorkerPool` is a :class:`concurrent.futures.ProcessPoolExecutor` whose workers

- end when the process that made them ends, however it ends (``kill -9`` included): on Linux
  the kernel kills them (``PR_SET_PDEATHSIG``), and everywhere each worker watches a pipe
  whose only writing end the parent holds, and exits when it closes;
- ignore Ctrl-C (SIGINT, which the terminal sends to every process of the command): the
  parent alone answers it, and leaving the ``with`` block by an exception ends the workers at
  once instead of waiting for their tasks;
- start with SIGINT blocked (until they ignore it), so that a Ctrl-C while one is still
  importing prints nothing; the parent answers that Ctrl-C as soon as the worker is started.

>>> with WorkerPool(2) as pool:
...     sorted(pool.map(abs, [-3, 1, -2]))
[1, 2, 3]
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager

from phase10math._base.startup import note_interrupt_taken

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
POLL = 0.25  # seconds: how long the main thread waits on a result between looks at Ctrl-C


def result_of(future: Future, timeout: float | None = None):
    """``future.result(timeout)``, waited for in slices of :data:`POLL` seconds, so that a
    Ctrl-C is answered at once: a wait without end is interrupted only by a signal that the
    kernel hands to the waiting thread itself, and a process's SIGINT may go to any of its
    threads (numpy's, a pool's), leaving the command deaf until the task ends.

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(1) as pool:
    ...     result_of(pool.submit(sum, [1, 2, 3]))
    6
    """
    end = None if timeout is None else time.monotonic() + timeout
    while True:
        step = POLL if end is None else max(0.0, min(POLL, end - time.monotonic()))
        try:
            return future.result(step)
        except TimeoutError:
            if future.done() or (end is not None and time.monotonic() >= end):
                raise  # the task's own TimeoutError, or the caller's timeout has passed


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def sigint_held() -> Iterator[None]:
    """A Ctrl-C while the block runs is answered after it: SIGINT is blocked in this thread
    (processes started inside inherit the block, so a worker never sees a Ctrl-C before it
    has chosen to ignore it) and, in the main thread, Python's handler deferred (another
    thread, numpy's for one, may take the signal and would interrupt the block half way, a
    worker started but not yet told what to run)."""
    held: list[int] = []
    main = _in_main_thread()
    if main:
        handler = signal.signal(signal.SIGINT, lambda signum, frame: _hold(held, signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        if main:
            signal.signal(signal.SIGINT, handler)
            if held and callable(handler):
                handler(signal.SIGINT, None)  # Python's default: KeyboardInterrupt, now


def _hold(held: list[int], signum: int) -> None:
    held.append(signum)
    note_interrupt_taken()  # the watch need not answer it: it is raised when the block ends


def die_with_parent() -> bool:
    """Ask the kernel to kill this process when its parent ends (Linux); whether it could."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent_end) -> None:
    """Block until the parent's end of the pipe closes (the parent ended), then exit."""
    try:
        while True:
            parent_end.recv_bytes()
    except (EOFError, OSError):
        pass
    os._exit(1)


def _start_worker(parent: int, watched, inherited_end: int | None, pdeathsig: bool) -> None:
    """The initializer of each worker (see the module docstring)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C held since the start is dropped
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if inherited_end is not None:  # forked: the parent's writing end came along; close it
        try:
            os.close(inherited_end)
        except OSError:
            pass
    if pdeathsig:
        die_with_parent()
    if os.getppid() != parent:  # the parent ended before the above took effect
        os._exit(1)
    threading.Thread(target=_watch, args=(watched,), daemon=True, name="parent-watch").start()


class WorkerPool(ProcessPoolExecutor):
    """A process pool whose workers end with the parent and ignore Ctrl-C (module docstring).
    ``method``: the multiprocessing start method (``"spawn"``, or ``"fork"`` for workers that
    read what the parent prepared in module globals)."""

    def __init__(self, workers: int, method: str = "spawn") -> None:
        ctx = multiprocessing.get_context(method)
        watched, self._parent_end = ctx.Pipe(duplex=False)
        self._watched = watched
        inherited = self._parent_end.fileno() if method == "fork" else None
        # the death signal follows the thread that starts a worker: only the main thread's
        # ends with the process
        args = (os.getpid(), watched, inherited, _in_main_thread())
        super().__init__(workers, mp_context=ctx, initializer=_start_worker, initargs=args)

    def submit(self, fn, /, *args, **kwargs):
        with sigint_held():  # workers are started here, as tasks arrive
            return super().submit(fn, *args, **kwargs)

    def map(self, fn, *iterables, timeout=None, chunksize=1):
        """The results of ``fn`` over the arguments, in order, one task each. Unlike the
        executor's own map, an interrupted iteration cancels nothing: :meth:`stop` ends the
        workers and every unfinished task ends as broken (cancelling them as well races with
        the pool's handling of dead workers, which then fails on a cancelled task)."""
        futures = [self.submit(fn, *args) for args in zip(*iterables)]

        def results():
            for f in futures:
                yield result_of(f, timeout)

        return results()

    def stop(self) -> None:
        """End the workers now: their tasks, and those not started, end as broken."""
        self.shutdown(wait=False)
        self._close_pipe()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        super().shutdown(wait=wait, cancel_futures=cancel_futures)
        if wait:
            self._close_pipe()

    def _close_pipe(self) -> None:
        for end in (self._parent_end, self._watched):
            try:
                end.close()
            except OSError:
                pass

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is None:
            self.shutdown(wait=True)
        else:  # Ctrl-C, an error: do not wait for the workers' tasks
            self.stop()
        return False
