"""league.workers.TaskFeed: the units of work in a pipe, each taken by exactly one of the processes that
read it (the loader's and the renderer's way of sharing work as the processes go), a worker's result or
its failure coming back to the parent (fork_result/join_result), and the environment pagefind's service
runs in (search._service_env)."""
from __future__ import annotations

import os
import pickle

import pytest

from league import search
from league.workers import TaskFeed, fork_result, fork_worker, join_result, join_worker

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
    assert search._service_env()["_RJEM_MALLOC_CONF"] == "thp:always"
    monkeypatch.setenv("_RJEM_MALLOC_CONF", "narenas:1")
    assert search._service_env()["_RJEM_MALLOC_CONF"] == "narenas:1"
    assert search._service_env()["PATH"] == os.environ["PATH"]


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


@pytest.fixture
def default_policy():
    # each test starts, and leaves this thread, in the default policy
    before = os.sched_getscheduler(0), os.sched_getparam(0)
    os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    yield
    os.sched_setscheduler(0, *before)


@linux_scheduler
def test_batch_scheduling_inside_for_this_thread_and_its_workers_and_restored_after(default_policy):
    from league.workers import batch_scheduling
    with batch_scheduling():
        assert os.sched_getscheduler(0) == os.SCHED_BATCH
        assert join_result(*fork_result(lambda: os.sched_getscheduler(0))) == os.SCHED_BATCH
    assert os.sched_getscheduler(0) == os.SCHED_OTHER
    with pytest.raises(ValueError):
        with batch_scheduling():
            raise ValueError("falha simulada")
    assert os.sched_getscheduler(0) == os.SCHED_OTHER


@linux_scheduler
def test_a_policy_the_user_chose_is_kept(default_policy):
    # `chrt --idle 0 league build`: the build stays idle work, and is idle work after it
    from league.workers import batch_scheduling
    os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    with batch_scheduling():
        assert os.sched_getscheduler(0) == os.SCHED_IDLE
    assert os.sched_getscheduler(0) == os.SCHED_IDLE


@linux_scheduler
def test_a_build_runs_as_batch_work_and_leaves_the_policy_as_it_was(tmp_path, monkeypatch, default_policy):
    from pathlib import Path
    import league.render as R
    from league.build import build
    seen = []
    plan_site = R.plan_site

    def spy(*args, **kwargs):
        seen.append(os.sched_getscheduler(0))
        return plan_site(*args, **kwargs)
    monkeypatch.setattr(R, "plan_site", spy)
    root = Path(__file__).resolve().parent.parent
    build(root / "content", tmp_path / "site", templates=root / "templates", cache_dir=False, search=False)
    assert seen == [os.SCHED_BATCH]
    assert os.sched_getscheduler(0) == os.SCHED_OTHER
