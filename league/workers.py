"""Forked worker processes that send one result back through a pipe (the loader's parallel cold load and
the renderer's page shares use them). Fork, not spawn: a worker inherits everything loaded so far."""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Callable


def fork_worker(work: Callable[[], bytes]) -> tuple[int, int]:
    """Fork a process that runs `work()` and writes the bytes it returns to a pipe, then exits (status 1 and
    nothing written if `work` raised). Returns (pid, the pipe's read end) for `join_worker`/`kill_worker`."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:   # the worker: never returns
        code = 0
        try:
            os.close(r)
            payload = work()
        except BaseException:  # noqa: BLE001 - the parent sees status 1 and no data
            payload, code = b"", 1
        try:
            with os.fdopen(w, "wb") as fh:
                fh.write(payload)
        finally:
            os._exit(code)
    os.close(w)
    return pid, r


def join_worker(pid: int, fd: int) -> tuple[bytes, bool]:
    """What the worker sent, and whether it exited cleanly."""
    with os.fdopen(fd, "rb") as fh:
        data = fh.read()
    _, status = os.waitpid(pid, 0)
    return data, status == 0


@contextmanager
def batch_scheduling():
    """Inside, this thread — and the processes it starts: forked workers, pagefind — is batch work for
    Linux's scheduler (SCHED_BATCH, which needs no privilege): a process that wakes up (pagefind, given
    the next pages) does not preempt one that is rendering, but waits for its turn. A build runs more
    processes than there are cores; in their default policy they preempted each other some 12,000 times
    in the 2.5 s the archive's pages take, each switch a cost (an interrupt between cores, the caches
    refilled). Kept as it is where the scheduler's policy is not the default one (the user chose one:
    `chrt`), and where there is none to set (not Linux). Restored on the way out."""
    old = _enter_batch()
    try:
        yield
    finally:
        if old is not None:
            try:
                os.sched_setscheduler(0, *old)
            except OSError:
                pass


def _enter_batch() -> tuple | None:
    """This thread made batch work: the (policy, parameters) to restore, or None when nothing changed."""
    if not hasattr(os, "SCHED_BATCH") or not hasattr(os, "sched_setscheduler"):
        return None
    try:
        old = os.sched_getscheduler(0), os.sched_getparam(0)
        if old[0] != os.SCHED_OTHER:
            return None
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    except OSError:
        return None
    return old


def fork_result(work: Callable[[], object]) -> tuple[int, int]:
    """fork_worker for a `work()` returning a value: the parent gets it (pickled) from `join_result`, or the
    exception `work` raised, as a RuntimeError with the worker's traceback, raised there."""
    import pickle

    def run() -> bytes:
        try:
            return pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises it
            import traceback
            return pickle.dumps(RuntimeError(f"worker failed: {exc!r}\n{traceback.format_exc()}"))
    return fork_worker(run)


def join_result(pid: int, fd: int):
    """What `work()` of fork_result returned; raises what it raised (RuntimeError), or if the worker died."""
    import pickle
    data, _ok = join_worker(pid, fd)
    got = pickle.loads(data) if data else RuntimeError("worker died")
    if isinstance(got, BaseException):
        raise got
    return got


def kill_worker(pid: int, fd: int | None = None) -> None:
    """Stop a worker that is no longer wanted (an error in the parent): leave no process behind."""
    if fd is not None:
        try:
            os.close(fd)
        except OSError:
            pass
    try:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    except OSError:
        pass


class TaskFeed:
    """The numbers 0…n-1 of n units of work, in a pipe written before the workers are forked: each read
    takes the next one (a pipe hands each byte to one reader, and a 4-byte read is never split), so a
    process that is free takes more and none waits for another's fixed share. Order the units biggest
    first. The pipe holds them all (64 KiB: up to MAX numbers); close() when every process is done."""

    MAX = 16_000

    def __init__(self, n: int):
        import struct
        if n > self.MAX:
            raise ValueError(f"{n} > {self.MAX} units")
        self.r, w = os.pipe()
        try:
            data = memoryview(struct.pack(f"<{n}I", *range(n)))
            while data:
                data = data[os.write(w, data):]
        finally:
            os.close(w)   # once read to its end, the pipe says so (an empty read)

    def take(self):
        """The units this process takes, one at a time, until none is left."""
        import struct
        while True:
            b = os.read(self.r, 4)
            while b and len(b) < 4:   # never on Linux; cheap to allow for
                b += os.read(self.r, 4 - len(b))
            if len(b) < 4:
                return
            yield struct.unpack("<I", b)[0]

    def close(self) -> None:
        os.close(self.r)
