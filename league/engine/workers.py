"""Forked worker processes that leave one result behind them in a file in memory (the renderer's page shares,
the API files' and the keys' helper processes), or send their results as they go through a pipe (StreamWorker:
the loader's parallel cold load). Fork, not spawn: a worker inherits everything loaded so far."""
from __future__ import annotations

import os
from typing import Callable


def _result_file() -> int:
    """A new file for a worker's result, in memory (memfd on Linux; elsewhere an unnamed temporary file), its
    descriptor shared by the parent and the forked worker."""
    if hasattr(os, "memfd_create"):
        return os.memfd_create("league-result", os.MFD_CLOEXEC)
    import tempfile
    with tempfile.TemporaryFile() as fh:   # pragma: no cover - not Linux
        return os.dup(fh.fileno())


def fork_worker(work: Callable[[], bytes]) -> tuple[int, int]:
    """Fork a process that runs `work()`, writes the bytes it returns into a file in memory and exits (status 1
    and nothing written if `work` raised). Returns (pid, the file's descriptor) for `join_worker`/`kill_worker`.
    Not a pipe: a worker whose result is bigger than a pipe's buffer (the keys helper's, ~2.8 MB on the
    archive) would wait, holding its memory (~80 MB), until the parent reads it at the end of the build."""
    fd = _result_file()
    pid = os.fork()
    if pid == 0:   # the worker: never returns
        code = 0
        try:
            payload = work()
        except BaseException:  # noqa: BLE001 - the parent sees status 1 and no data
            payload, code = b"", 1
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os._exit(code)
    return pid, fd


def join_worker(pid: int, fd: int) -> tuple[bytes, bool]:
    """What the worker left (once it has exited), and whether it exited cleanly."""
    _, status = os.waitpid(pid, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    with os.fdopen(fd, "rb") as fh:
        data = fh.read()
    return data, status == 0


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
    data, ok = join_worker(pid, fd)
    try:
        got = pickle.loads(data) if data else RuntimeError("worker died")
    except Exception:  # noqa: BLE001 - cut short by its death
        if ok:
            raise
        got = RuntimeError("worker died")
    if isinstance(got, BaseException):
        raise got
    return got


# a pipe's buffer for a worker's frames: Linux gives 64 KiB, and lets any process ask for up to 1 MiB
# (/proc/sys/fs/pipe-max-size). With 64 KiB, a frame of ~650 KB (a season's stages) was written in ten
# pieces, the worker waiting each time for the parent's reader thread, which waits for the GIL (up to
# sys.getswitchinterval(), 5 ms) before it reads again
PIPE_SIZE = 1 << 20


def widen_pipe(fd: int) -> None:
    """Ask for PIPE_SIZE of buffer on the pipe `fd` is an end of (nothing changes where that cannot be had)."""
    import fcntl
    setsize = getattr(fcntl, "F_SETPIPE_SZ", None)
    if setsize is None:   # pragma: no cover - not Linux
        return
    try:
        fcntl.fcntl(fd, setsize, PIPE_SIZE)
    except OSError:   # a lower limit set by the system: the default size works, a little slower
        pass


class StreamWorker:
    """A forked worker that sends its results as it goes, frame by frame (`send(bytes)` in `work(send)`), and
    never waits for the parent to read them: once `start()`ed, a thread here collects the frames as they
    arrive (reading a pipe releases the GIL). `ready()` takes the frames come so far, between the parent's
    own work; `finish()` waits for the worker to end and returns the rest and whether it ended cleanly (a
    frame cut short by its death is dropped; those before it are whole); `kill()` stops it. Start the
    threads once every worker is forked: a process forked while a thread runs gets a copy of a heap that
    thread may be halfway through changing."""

    def __init__(self, work: Callable[[Callable[[bytes], None]], None]):
        import collections
        import struct
        r, w = os.pipe()
        widen_pipe(w)
        pid = os.fork()
        if pid == 0:   # the worker: never returns
            code = 0
            try:
                os.close(r)

                def send(data: bytes) -> None:
                    for part in (struct.pack("<Q", len(data)), data):
                        view = memoryview(part)
                        while view:
                            view = view[os.write(w, view):]
                work(send)
            except BaseException:  # noqa: BLE001 - the parent sees status 1 after the frames sent so far
                code = 1
            finally:
                os._exit(code)
        os.close(w)
        self.pid = pid
        self._file = os.fdopen(r, "rb")
        self._frames: collections.deque = collections.deque()   # appended by the thread, taken here
        self._thread = None
        self._status: int | None = None

    def start(self) -> None:
        import threading
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        import struct
        f = self._file
        try:
            while True:
                head = f.read(8)
                if len(head) < 8:
                    return
                (size,) = struct.unpack("<Q", head)
                data = f.read(size)
                if len(data) < size:
                    return
                self._frames.append(data)
        except (OSError, ValueError):
            return

    def ready(self) -> list[bytes]:
        """The frames that have arrived (each once)."""
        out = []
        while self._frames:
            out.append(self._frames.popleft())
        return out

    def finish(self) -> tuple[list[bytes], bool]:
        """Waits for the worker: the frames not taken yet, and whether it exited cleanly."""
        if self._thread is None:
            self.start()
        self._thread.join()
        self._file.close()
        self._wait()
        return self.ready(), self._status == 0

    def kill(self) -> None:
        """Stop a worker that is no longer wanted (an error in the parent): leave no process behind."""
        if self._status is None:
            kill_worker(self.pid)
            self._status = -9
        if self._thread is not None:
            self._thread.join()   # its pipe is at its end: the worker is gone
        self._file.close()

    def _wait(self) -> None:
        if self._status is None:
            try:
                self._status = os.waitpid(self.pid, 0)[1]
            except ChildProcessError:   # pragma: no cover - reaped elsewhere
                self._status = -1


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

    def counter(self, units: list) -> Callable[[], int]:
        """For a progress bar drawn by one process while the others take units too: a function returning
        how many items (len of each of `units`, the units of this feed) are in the units some process has
        taken so far. They are taken in order, so the ones left are the last ones: as many as there are
        4-byte numbers still in the pipe (FIONREAD)."""
        import fcntl
        import itertools
        import struct
        import termios
        upto = list(itertools.accumulate((len(u) for u in units), initial=0))   # items in the first k units

        def taken() -> int:
            try:
                left = struct.unpack("i", fcntl.ioctl(self.r, termios.FIONREAD, b"\0\0\0\0"))[0] // 4
            except OSError:   # not a pipe that says (never on Linux): progress is only an estimate
                left = 0
            return upto[len(units) - left]
        return taken

    def close(self) -> None:
        os.close(self.r)
