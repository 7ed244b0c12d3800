"""The stage and championship files of every season (run_tasks): each read back from the cache when it and
everything it depends on are unchanged, the others parsed, validated and classified — by forked workers
beside this process when there are many (load_plan.py decides) — and cached, with the warnings they
produced. The result is the one of a one-by-one load, diagnostics included."""
from __future__ import annotations

import pickle
from typing import TYPE_CHECKING, Any, Optional

from league.engine.codec import LazyPhases
from league.engine.load_plan import Plan, plan_load
from league.engine.load_tasks import TASK_ENTRY, Task, task_key, task_use
from league.engine.workers import StreamWorker, TaskFeed
from league.models import League

if TYPE_CHECKING:
    from league.engine.loader import Loader


def run_tasks(loader: Loader, league: League, tasks: list[Task]) -> list[tuple[Any, list]]:
    """(stage or championship or None, its diagnostics) for every task, in order. A file whose bytes and
    everything it depends on are unchanged comes from the cache; the others are parsed, validated and
    classified (then cached, with the warnings they produced), by forked workers when there are many."""
    run = _Run(loader, league, tasks)
    # the files whose entry is in the cache are read back below; the others (todo) are loaded, in workers
    # forked first when there are many, or when there is a lot to read back meanwhile (a rebuild after an
    # edit: the edited file is loaded and its season ranked beside this process reading the rest back)
    plan = plan_load(loader, league, tasks, run.keys)
    loader.workers = plan.workers
    feed = TaskFeed(len(plan.units)) if plan.workers > 1 else None
    children = start_workers(loader, league, tasks, run.keys, plan, feed) if feed is not None else []
    run.read_back(plan)   # here (meanwhile, the workers load the rest)
    run.load(plan, feed, children)
    for i in plan.todo:   # what a failed worker had taken: loaded here
        if run.done[i] is None:
            run.load_here(i)
    return run.done


class _Run:
    """One run_tasks in this process: what is done (task index → (object, diagnostics)) and the entries it
    loaded itself (which cache_rankings ranks)."""

    def __init__(self, loader: Loader, league: League, tasks: list[Task]):
        self.loader = loader
        self.league = league
        self.tasks = tasks
        self.keys = [task_key(loader, t) for t in tasks]
        self.done: list = [None] * len(tasks)
        self.entries: dict = {}

    def read_back(self, plan: Plan) -> None:
        """The entries in the cache; a corrupted one (a warning) is loaded here, after the rest (plan.todo)."""
        for i in plan.hits:
            value = self.loader.cache.get(self.keys[i], TASK_ENTRY[self.tasks[i].kind], kept=True)
            if value is not None:
                self.done[i] = task_use(self.loader, self.league, self.tasks[i], self.keys[i], value)
            else:
                plan.todo.append(i)

    def load_here(self, i: int) -> None:
        key, value = self.loader.task_fresh(self.league, self.tasks[i], self.keys[i])
        if key is not None:
            self.loader.cache.put(key, value, kept=True)
        self.entries[i] = (key, value)
        self.done[i] = task_use(self.loader, self.league, self.tasks[i], key, value)

    def load(self, plan: Plan, feed: Optional[TaskFeed], children: list) -> None:
        """This process's share of the files to load: the units no worker took yet, one by one; then what
        the workers sent. No worker is left behind, whatever happens."""
        progress = _Progress(self.loader.progress, plan.todo, feed, plan.units)
        try:
            if children and plan.busy:
                self.loader.meanwhile(self.league)
            for u in (feed.take() if feed is not None else range(1)):   # the units no worker took yet
                progress.unit_taken()
                self.load_unit(plan.units[u], children, progress)
            while children:
                finish_worker(self.loader, self.league, self.tasks, self.done, children[0])
                children = children[1:]
            progress.finished()
        finally:
            for child in children:   # an error here: leave no worker behind
                child.kill()
            if feed is not None:
                feed.close()

    def load_unit(self, unit: list[int], children: list, progress: _Progress) -> None:
        for k, i in enumerate(unit):
            progress.file_taken(k)
            self.load_here(i)
        if children:   # its seasons ranked now, as the workers do, not after them with a core idle
            cache_rankings(self.loader, self.tasks, unit, self.entries)
        for child in children:   # what the workers sent meanwhile, read now rather than at the end
            use_frames(self.loader, self.league, self.tasks, self.done, child.ready())


class _Progress:
    """loader.progress(files, total): how many of the files to load every process has taken so far — with
    workers, unit by unit (the feed's count); in one process, file by file. Nothing without a callback or
    without files to load."""

    def __init__(self, callback, todo: list[int], feed: Optional[TaskFeed], units: list):
        self.callback = callback if todo else None
        self.todo = todo
        self.taken = None
        if self.callback is not None:
            self.taken = feed.counter(units) if feed is not None else None
            self.callback(0, len(todo))

    def unit_taken(self) -> None:
        if self.taken is not None:
            self.callback(self.taken(), len(self.todo))

    def file_taken(self, k: int) -> None:
        if self.callback is not None and self.taken is None:
            self.callback(k, len(self.todo))

    def finished(self) -> None:
        if self.callback is not None:
            self.callback(len(self.todo), len(self.todo))


# ------------------------------------------------------------------ the workers
def start_workers(loader: Loader, league: League, tasks: list[Task], keys: list, plan: Plan, feed: TaskFeed) -> list:
    """Fork the plan's workers but this process. Each takes units from `feed` until none is left (so does
    this process meanwhile: whoever is free takes the next, the biggest first), loads their files
    (task_fresh), writes their cache entries and sends back, unit by unit as it goes (StreamWorker), a pickle
    of ([(task index, pickle of (key, entry))], the cache's state) — pickles through a pipe from a process of
    this build, never read from the cache —; then runs loader.meanwhile_share(league) when this process is
    busy (a share of meanwhile's work; a failure there is its own: the files are sent). A worker ranks a
    season whose other stages are read back here too, reading those back itself (see cache_rankings)."""
    _import_before_forking(plan.readback)
    loader.registry.deps_digest()
    then = loader.meanwhile_share if plan.busy else None
    cached = set(plan.hits)
    children = []
    try:
        for _ in range(plan.workers - 1):
            def work(send) -> None:   # in the worker; if it fails, the parent loads what it had not sent
                entries: dict = {}
                for u in feed.take():
                    out = [_load_in_worker(loader, league, tasks, keys, i, entries) for i in plan.units[u]]
                    cache_rankings(loader, tasks, plan.units[u], entries, cached, keys)
                    state = (loader.cache.warnings, loader.cache.dir is None) if loader.cache is not None else None
                    send(pickle.dumps((out, state), protocol=pickle.HIGHEST_PROTOCOL))
                if then is not None:
                    try:
                        then(league)
                    except Exception:  # noqa: BLE001 - only speed is lost: this process does it all
                        pass
            children.append(StreamWorker(work))
        for child in children:   # their readers, once none is left to fork
            child.start()
    except BaseException:
        for child in children:
            child.kill()
        raise
    return children


def _import_before_forking(readback: bool) -> None:
    """Everything a worker runs is imported before forking — but what only loads files (pydantic's models),
    when this process has the cache to read back (`readback`) and no file to load."""
    from importlib import import_module
    loading = () if readback else ("league.games.truco.reading", "league.games.quatrilho.reading",
                                   "league.content.schema", "league.content.validate")
    for module in ("league.games.results", "league.games.quatrilho.championship", "league.games.truco.ranking",
                   *loading):
        import_module(module)


def _load_in_worker(loader: Loader, league: League, tasks: list[Task], keys: list, i: int, entries: dict) -> tuple:
    """(i, pickle of (key, entry)) of task i, loaded and cached in a worker."""
    key, value = loader.task_fresh(league, tasks[i], keys[i])
    if key is not None:
        loader.cache.put(key, value)
    entries[i] = (key, value)
    return i, pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)


def use_frames(loader: Loader, league: League, tasks: list[Task], done: list, frames: list[bytes]) -> None:
    """Record the entries a worker sent (see start_workers) in `done`, as task_use."""
    for frame in frames:
        out, state = pickle.loads(frame)
        if state is not None and loader.cache is not None:
            _merge_cache_state(loader.cache, state)
        for i, item in out:
            key, value = pickle.loads(item)
            if tasks[i].kind == "stage" and value[0] is not None and isinstance(value[0].phases, LazyPhases):
                value[0].phases.get()   # a first build renders every stage's pages: read now, beside the worker
            done[i] = task_use(loader, league, tasks[i], key, value)


def _merge_cache_state(cache, state: tuple) -> None:
    """A worker's cache warnings (each told once), and whether it found the cache unwritable."""
    warnings, gone = state
    cache.warnings += [w for w in warnings if w not in cache.warnings]
    if gone:
        cache.dir = None


def finish_worker(loader: Loader, league: League, tasks: list[Task], done: list, child: StreamWorker) -> None:
    """Waits for a worker and records the rest of what it sent. If it failed, what it sent before is
    kept, and run_tasks loads the files it had not sent."""
    frames, ok = child.finish()
    use_frames(loader, league, tasks, done, frames)
    if not ok:
        loader.fallbacks += 1


# ------------------------------------------------------------------ the seasons' rankings
def cache_rankings(loader: Loader, tasks: list[Task], share: list[int], entries: dict, cached=frozenset(),
                   keys: Optional[list] = None) -> None:
    """In a worker, and in the parent while workers load: the annual rankings of every season whose
    stages it all loaded (in `share`) and could cache, computed and cached as compute() would (it then
    reads them instead of ranking the season itself, after the load, when the other cores are idle).
    With `cached` (task indices whose entries are in the cache, under `keys`), also a season of which
    it loaded some stages and the others are cached: those are read back here (a worker, beside the
    parent reading them back too: a rebuild after one file was edited ranks its season in the worker)."""
    if loader.cache is None:
        return
    from league.engine.compute import rankings_key
    from league.games.results import season_rankings
    mine = set(share)
    for season, stage_tasks in _stages_by_season(tasks).values():
        if not _ranked_here(stage_tasks, mine, cached):
            continue
        done = _season_entries(loader, stage_tasks, entries, cached, keys)
        if done is None:
            continue
        done.sort(key=lambda e: (e[1][0].date, e[1][0].id))   # the season's order (load_seasons)
        loader.cache.put(rankings_key(season.year, [key for key, _ in done]),
                         season_rankings([value[2] for _, value in done]), kept=True)


def _ranked_here(stage_tasks: list[int], mine: set, cached) -> bool:
    """Whether this process ranks a season: it loaded some of its stages, and the others are cached."""
    return all(i in mine or i in cached for i in stage_tasks) and any(i in mine for i in stage_tasks)


def _stages_by_season(tasks: list[Task]) -> dict:
    """id(season) → (season, the indices of its stage tasks)."""
    seasons: dict = {}
    for i, task in enumerate(tasks):
        if task.kind == "stage":
            seasons.setdefault(id(task.season), (task.season, []))[1].append(i)
    return seasons


def _season_entries(loader: Loader, stage_tasks: list[int], entries: dict, cached, keys) -> Optional[list]:
    """The (key, entry) of every stage of a season — the cached ones read back into `entries` — or None when
    one cannot be read back or was not cached (no key, errors)."""
    for i in stage_tasks:
        if i not in entries and i in cached:
            value = loader.cache.get(keys[i], TASK_ENTRY["stage"], kept=True)
            if value is None:
                return None
            entries[i] = (keys[i], value)
    done = [entries[i] for i in stage_tasks]
    if any(key is None or value[0] is None for key, value in done):
        return None
    return done
