"""league.engine.workers.TaskFeed: the units of work in a pipe, each taken by exactly one of the processes that
read it (the loader's and the renderer's way of sharing work as the processes go), a worker's result or
its failure coming back to the parent (fork_result/join_result), a worker's results streamed as it goes
(StreamWorker), and the environment pagefind runs in (search._pagefind_env)."""
from __future__ import annotations

import os
import pickle
import time

import pytest

from league.site import search
from league.engine.workers import (StreamWorker, TaskFeed, fork_result, fork_worker, join_result, join_worker,
                                   kill_worker)

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="workers fork")


def test_every_unit_is_taken_once_by_one_of_the_processes():
    # 3 workers and this process read 5,000 numbers from one feed, slowly (1 ms every 50: one process
    # alone would need 0.1 s), so they interleave: together they took 0…4,999, each exactly once
    import time
    feed = TaskFeed(5_000)

    def take() -> bytes:
        got = []
        for u in feed.take():
            got.append(u)
            if len(got) % 50 == 0:
                time.sleep(0.001)
        return pickle.dumps(got)
    children = [fork_worker(take) for _ in range(3)]
    mine = pickle.loads(take())
    taken = [mine]
    for pid, fd in children:
        data, ok = join_worker(pid, fd)
        assert ok
        taken.append(pickle.loads(data))
    feed.close()
    everything = sorted(u for part in taken for u in part)
    assert everything == list(range(5_000))
    assert all(part == sorted(part) for part in taken)   # each process takes them in order
    assert sum(1 for part in taken if part) >= 2


def test_an_empty_feed_gives_nothing_and_a_feed_is_read_once():
    empty = TaskFeed(0)
    assert list(empty.take()) == []
    empty.close()
    feed = TaskFeed(3)
    assert list(feed.take()) == [0, 1, 2]
    assert list(feed.take()) == []   # taken already
    feed.close()
    with pytest.raises(ValueError):
        TaskFeed(TaskFeed.MAX + 1)   # more than the pipe holds before anyone reads


def test_pagefind_runs_with_jemalloc_zeroing_by_memset_unless_the_user_says_otherwise(monkeypatch):
    monkeypatch.delenv("_RJEM_MALLOC_CONF", raising=False)
    assert search._pagefind_env()["_RJEM_MALLOC_CONF"] == "thp:always,narenas:1"
    monkeypatch.setenv("_RJEM_MALLOC_CONF", "narenas:2")
    assert search._pagefind_env()["_RJEM_MALLOC_CONF"] == "narenas:2"
    assert search._pagefind_env()["PATH"] == os.environ["PATH"]


def test_a_workers_value_comes_back_and_its_failure_is_raised_here():
    # the value work() returns, unpickled; what it raised, as a RuntimeError naming it with the worker's
    # traceback; a worker that died without a word (os._exit), as "worker died"
    assert join_result(*fork_result(lambda: {"a": (1, 2), "b": os.getpid()}))["a"] == (1, 2)
    parent = os.getpid()
    assert join_result(*fork_result(lambda: os.getpid())) != parent

    def fails():
        raise ValueError("falha simulada")
    with pytest.raises(RuntimeError, match=r"worker failed: ValueError\('falha simulada'\)") as info:
        join_result(*fork_result(fails))
    assert "Traceback" in str(info.value) and "in fails" in str(info.value)
    with pytest.raises(RuntimeError, match="worker died"):
        join_result(*fork_result(lambda: os._exit(3)))


linux_scheduler = pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="Linux's scheduling policies")


def _frames_until(worker: StreamWorker, n: int, seconds: float = 10.0) -> list[bytes]:
    import time
    got: list[bytes] = []
    deadline = time.monotonic() + seconds
    while len(got) < n and time.monotonic() < deadline:
        got += worker.ready()
        time.sleep(0.005)
    return got


def test_a_streaming_workers_frames_arrive_while_it_runs_in_order():
    # the worker sends a frame, then waits for this process to answer through a pipe: the frame must be
    # readable (ready()) before the worker ends. Then a frame of 3 MB (far more than a pipe holds: the
    # parent's thread reads it while the worker writes) and an empty one; finish() gives those, in order
    go_r, go_w = os.pipe()
    big = bytes(range(256)) * 12_000

    def work(send):
        send(b"first")
        os.read(go_r, 1)
        send(big)
        send(b"")
    worker = StreamWorker(work)
    worker.start()
    assert _frames_until(worker, 1) == [b"first"]
    os.write(go_w, b"x")
    rest, ok = worker.finish()
    assert ok and rest == [big, b""]
    assert worker.ready() == []
    os.close(go_r)
    os.close(go_w)


def test_a_streaming_worker_never_waits_for_the_parent_to_read():
    # 8 frames of 1 MB, with nobody calling ready(): the worker still ends (it would block on a full pipe
    # if the frames were not read as they come), and it says so by writing a byte to a pipe of its own
    done_r, done_w = os.pipe()

    def work(send):
        for k in range(8):
            send(bytes([k]) * 1_000_000)
        os.write(done_w, b"d")
    worker = StreamWorker(work)
    worker.start()
    import select
    assert select.select([done_r], [], [], 10)[0] == [done_r]
    frames, ok = worker.finish()
    assert ok and [f[:1] for f in frames] == [bytes([k]) for k in range(8)] and {len(f) for f in frames} == {1_000_000}
    os.close(done_r)
    os.close(done_w)


def test_a_failing_streaming_worker_keeps_the_frames_it_sent_and_says_it_failed():
    def work(send):
        send(b"a")
        send(b"b")
        raise ValueError("falha simulada")
    worker = StreamWorker(work)
    worker.start()
    frames, ok = worker.finish()
    assert frames == [b"a", b"b"] and not ok

    # a frame cut short (its header says 100 bytes, 3 came before the pipe ended) is dropped, not half-used
    import collections
    import struct
    r, w = os.pipe()
    os.write(w, struct.pack("<Q", 5) + b"whole" + struct.pack("<Q", 100) + b"abc")
    os.close(w)
    cut = StreamWorker.__new__(StreamWorker)
    cut._file, cut._frames = os.fdopen(r, "rb"), collections.deque()
    cut._read()
    assert cut.ready() == [b"whole"]
    cut._file.close()
    # a worker killed while it waits (an error in the parent): its frames so far were read, it is reaped
    go_r, go_w = os.pipe()

    def slow(send):
        send(b"whole")
        os.read(go_r, 1)   # killed here, before the next frame
        send(b"never")
    worker = StreamWorker(slow)
    worker.start()
    assert _frames_until(worker, 1) == [b"whole"]
    worker.kill()
    with pytest.raises(ChildProcessError):
        os.waitpid(worker.pid, os.WNOHANG)   # reaped: no process left behind
    os.close(go_r)
    os.close(go_w)


@pytest.mark.skipif(not hasattr(__import__("fcntl"), "F_GETPIPE_SZ"), reason="pipe sizes are Linux's")
def test_the_pipes_that_carry_big_results_hold_a_mebibyte():
    # a worker's frames come through
    # pipes of PIPE_SIZE, not Linux's 64 KiB: the writer does not wait for each 64 KiB to be read by a
    # thread that first needs the GIL (0.4 s later on the archive with the main thread busy)
    import fcntl
    from league.engine.workers import PIPE_SIZE, widen_pipe
    assert PIPE_SIZE == 1 << 20
    r, w = os.pipe()
    widen_pipe(w)
    assert fcntl.fcntl(r, fcntl.F_GETPIPE_SZ) == PIPE_SIZE
    os.close(r)
    os.close(w)


def test_a_failed_render_worker_leaves_only_the_unjoined_ones_to_kill():
    # _joined takes each worker out of the list as it joins it: when the first raises, the list holds the
    # second alone, so the clean-up kills it and never closes the first's file again (its number may by then
    # belong to another file of this process)
    from league.engine.rendering import _joined

    def fails():
        raise ValueError("falha simulada")
    first = fork_result(fails)
    second = fork_result(lambda: ({}, {}, None))
    children = [first, second]
    with pytest.raises(RuntimeError, match="falha simulada"):
        _joined(children, {}, {})
    assert children == [second]
    with pytest.raises(OSError):
        os.fstat(first[1])   # closed once, by the join
    kill_worker(*second)


def test_a_result_bigger_than_a_pipe_does_not_keep_the_worker_waiting():
    # 4 MB, more than a pipe holds (64 KiB, 1 MiB at most): the worker writes it into its file in memory and
    # exits before anyone reads it, so waiting for its exit first cannot hang
    payload = b"x" * (4 << 20)
    pid, fd = fork_worker(lambda: payload)
    deadline = time.monotonic() + 20
    while (done := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    if done[0] == 0:   # still waiting for a reader: the old pipe's behaviour
        kill_worker(pid, fd)
        pytest.fail("the worker did not exit before its result was read")
    assert done[1] == 0
    os.lseek(fd, 0, os.SEEK_SET)
    with os.fdopen(fd, "rb") as fh:
        assert fh.read() == payload
