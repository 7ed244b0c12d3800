"""Who loads which stage and championship files (parallel_load.run_tasks): the ones whose entry is in the
cache are read back in this process; the others are loaded, in forked workers when there is enough to load
(or to read back meanwhile), shared out in units of work, the biggest first."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from league.engine.load_tasks import Task
from league.engine.workers import TaskFeed
from league.models import League

if TYPE_CHECKING:
    from league.engine.loader import Loader

# a parallel load pays for itself from about this much to parse (a fork and reading the results back cost
# some tens of milliseconds); tests lower them to run the parallel path on small content
PARALLEL_MIN_FILES = 4
PARALLEL_MIN_BYTES = 400_000
# ... and a worker loads even one file when this process has at least this many cache entries to read back
# meanwhile (~1 ms each on the archive): a rebuild after an edit there reads 239 back (~0.17 s) while the
# worker loads and ranks the edited stage (~0.03 s, with the stage validator's first build and the season's
# rankings ~0.08 s), for a fork of ~5 ms
READBACK_MIN_ENTRIES = 40


@dataclass
class Plan:
    """hits: the tasks read back from the cache (here); todo: the others, to load, in `units` of work for
    `workers` processes (this one included); busy: this process does the caller's work meanwhile
    (Loader.meanwhile); readback: it has at least READBACK_MIN_ENTRIES entries to read back."""

    hits: list[int]
    todo: list[int]
    units: list[list[int]]
    workers: int
    busy: bool
    readback: bool


def plan_load(loader: Loader, league: League, tasks: list[Task], keys: list) -> Plan:
    hits = [i for i, key in enumerate(keys) if key is not None and loader.cache.has(key)]
    hit = set(hits)
    todo = [i for i in range(len(tasks)) if i not in hit]
    readback = len(hits) >= READBACK_MIN_ENTRIES
    # after an edit (little to load, much to read back) reading back is this process's work while a worker
    # loads: compiling every template as well only made it longer (a new score in the archive: 0.09 s of
    # ~1.6 s, 8 of 8 pairs faster without), the pages then compile the templates they use
    busy = _busy(loader, league) and not (readback and _small(tasks, todo))
    workers = _load_workers(tasks, todo, busy, hits=len(hits))
    units = _units(tasks, todo, workers) if workers > 1 else [todo]
    if not _worth_forking(units, readback):
        # one process: its one unit is `todo` itself (a corrupted entry found reading back is loaded in it)
        workers, units = 1, [todo]
    return Plan(hits, todo, units, workers, busy, readback)


def _worth_forking(units: list[list[int]], readback: bool) -> bool:
    """Units for workers: not more than a feed holds, and at least two — or one, with entries to read back."""
    return len(units) <= TaskFeed.MAX and (len(units) >= 2 or bool(units and readback))


def _busy(loader: Loader, league: League) -> bool:
    """Whether the caller's work meanwhile (the build compiling its templates) has real work this time."""
    return loader.meanwhile is not None and loader.meanwhile_busy is not None and loader.meanwhile_busy(league)


def _load_workers(tasks: list[Task], todo: list[int], busy: bool = False, hits: int = 0) -> int:
    """How many processes load the files not in the cache: 1, or one per available core (at most 4). Below
    PARALLEL_MIN_BYTES a fork costs more than it saves (the demo: 37 ms one by one, 42 ms with a worker),
    unless this process is `busy` meanwhile (compiling the templates), or has at least READBACK_MIN_ENTRIES
    cache entries (`hits`) to read back meanwhile: then one worker loads them."""
    if not todo or not hasattr(os, "fork"):
        return 1
    cores = _cores()
    if cores < 2:
        return 1
    small = _small(tasks, todo)
    if hits >= READBACK_MIN_ENTRIES and small:
        return 2
    if len(todo) < PARALLEL_MIN_FILES:
        return 1
    if small:
        return 2 if busy else 1
    return min(cores, 4, len(todo))


def _small(tasks: list[Task], todo: list[int]) -> bool:
    """Whether the files to load are below PARALLEL_MIN_BYTES together."""
    return sum(_size(tasks[i].path) for i in todo) < PARALLEL_MIN_BYTES


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _units(tasks: list[Task], todo: list[int], n: int) -> list[list[int]]:
    """todo in units of work for n processes, the biggest (in bytes) first: a season's files together (a
    worker that loads a whole season also ranks it), or file by file when there are too few seasons to
    share out evenly. Each unit in task order."""
    seasons: dict = {}
    for i in todo:
        seasons.setdefault(id(tasks[i].season), []).append(i)
    groups = list(seasons.values())
    if len(groups) < 2 * n:
        groups = [[i] for i in todo]
    groups.sort(key=lambda g: (-sum(_size(tasks[i].path) for i in g), g[0]))
    return groups


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
