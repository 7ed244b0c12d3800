"""Rendering a site's plan (league.site.render.SitePlan) across processes: the pages in units that forked
workers take in turn (league.engine.workers.TaskFeed), their files emitted as they come, the search stubs
relayed to pagefind in path order, the collector paused while rendering (league.engine.cache.gc_paused)."""
from __future__ import annotations

import os
import struct
from pathlib import Path

from league.engine.incremental import _Key
from league.games.results import Results
from league.site.render import SitePlan, plan_site, render_page


PARALLEL_MIN = 100    # below this many pages, forking costs more than it saves
CHUNK = 16            # pages a process takes at a time (a few milliseconds of work)


def _units(jobs: list, pages_only: bool = False) -> list[list[int]]:
    """The jobs' numbers in units for the processes to take (league.engine.workers.TaskFeed): the pages in runs
    of CHUNK, in order (so pagefind, which must get them in path order, rarely waits for one), then the
    groups of files that are not pages (the API), one per unit, unless `pages_only`."""
    pages = [i for i, job in enumerate(jobs) if job.template is not None]
    chunk = max(CHUNK, -(-len(pages) // 8_000))
    units = [pages[k:k + chunk] for k in range(0, len(pages), chunk)]
    if not pages_only:
        units += [[i] for i, job in enumerate(jobs) if job.template is None]
    return units


def _taken(feed, units, on_unit=None):
    for u in feed.take():
        if on_unit is not None:
            on_unit()
        yield from units[u]


def _counted(indices, progress, every: int = CHUNK):
    """`indices`, telling `progress` how many were taken, every `every` (one process: the count is exact)."""
    for k, i in enumerate(indices):
        if k % every == 0:
            progress(k)
        yield i


def _share(plan: SitePlan, indices, emit, on_stub=None, emit_charts: bool = False) -> dict:
    """Render the jobs numbered `indices` (any iterable), handing each (path, html) to `emit` (and, when given,
    (job index, search stub) to `on_stub`); returns, per page, (key, the chart files it asked for, its
    search stub — or, for a page rendered to the bytes the previous site has, the league.site.search.StubHash the
    previous build recorded, see SitePlan.previous_stubs). `emit_charts`: the chart files a page asked for are emitted right after it (each
    chart is on one page: club, pair, season, a player's Quatrilho curve) instead of being kept in
    plan.charts.files.

    No cyclic garbage collection meanwhile (league.engine.cache.gc_paused): rendering makes no reference cycles (a
    full collection after rendering the 20-season archive with the collector off finds nothing to free), but
    it reads back each stage's matches (LazyPhases: ~6,000 objects a stage, kept) and keeps what it has
    formatted, and the collector walked that growing heap again and again — ~0.26 CPU-s in each rendering
    process of a whole-site build of the archive from a warm cache, 7 % of the build."""
    from league.engine.cache import gc_paused
    from league.site.search import StubHash, stub
    meta = {}
    charts = plan.charts.files
    emitted: set = set()
    jobs = plan.jobs
    touched = plan.touched
    # a page whose bytes are those of the previous site's file (emit said False: not written) has that file's
    # stub, whose hash the previous build recorded: not cut out again (a template edit renders every page, and
    # most come out the same). Not while pagefind is fed the stubs' text (on_stub: a first build, nothing to reuse)
    previous = plan.previous_stubs if on_stub is None else None
    with gc_paused():
        for i in indices:
            job = jobs[i]
            if job.template is None:   # not a page: a group of files (a season's JSON and CSV), made by make()
                meta[job.path] = (_known(job.key), emit_files(job.make(), emit), None)
                continue
            del touched[:]
            html = render_page(plan, job)
            written = emit(job.path, html)
            if emit_charts:
                _emit_charts(touched, charts, emitted, emit)
            old = previous.get(job.path) if written is False and previous is not None else None
            text = stub(html) if old is None else (None if old[2] is None else StubHash(old[2]))
            meta[job.path] = (_known(job.key), tuple(touched), text)
            if on_stub is not None:
                on_stub(i, text)
    return meta


def _emit_charts(touched: list, charts: dict, emitted: set, emit) -> None:
    """The chart files the page just rendered asked for, emitted right after it (once each)."""
    for path in touched:
        svg = charts.pop(path, None)
        if svg is not None and path not in emitted:
            emitted.add(path)
            emit(path, svg)


def emit_files(files: dict, emit) -> tuple[str, ...]:
    """A group of files that are not pages ({path: text or bytes}) handed to `emit` in path order; their paths."""
    names = tuple(sorted(files))
    for rel in names:
        emit(rel, files[rel])
    return names


def _known(key):
    """A key already worked out, or None (a LazyKeys thunk: build fills it in; it cannot go through a pipe)."""
    return None if isinstance(key, _Key) else key


_NO_STUB = 0xFFFFFFFF   # a page without a search stub, in a worker's stub pipe


def _stub_sender(fd: int):
    """In a worker: on_stub writing (job index, stub) records into the pipe `fd` (to _StubRelay)."""
    def send(i: int, text: str | None) -> None:
        data = b"" if text is None else text.encode("utf-8")
        view = memoryview(struct.pack("<II", i, _NO_STUB if text is None else len(data)) + data)
        while view:
            view = view[os.write(fd, view):]
    return send


class _StubRelay:
    """In the parent: the stubs the workers send through their pipes as they render, handed to `on_stub`
    as they come (poll(), between the parent's own pages) and until every worker has closed its pipe
    (drain())."""

    def __init__(self, on_stub):
        self.on_stub = on_stub
        self.fds: dict[int, bytearray] = {}

    def watch(self, fd: int) -> None:
        os.set_blocking(fd, False)
        self.fds[fd] = bytearray()

    def poll(self) -> None:
        for fd in list(self.fds):
            self._read(fd)

    def drain(self) -> None:
        for fd in list(self.fds):
            os.set_blocking(fd, True)
            while fd in self.fds:
                self._read(fd)

    def close(self) -> None:
        for fd in list(self.fds):
            os.close(fd)
        self.fds.clear()

    def _read(self, fd: int) -> None:
        try:
            data = os.read(fd, 1 << 16)   # not more: a read allocates what it may get
        except BlockingIOError:
            return
        buf = self.fds[fd]
        if not data:   # the worker is done (or died: join_worker says so)
            os.close(fd)
            del self.fds[fd]
            return
        buf += data
        at = 0
        while len(buf) - at >= 8:
            i, size = struct.unpack_from("<II", buf, at)
            end = at + 8 + (0 if size == _NO_STUB else size)
            if len(buf) < end:
                break
            self.on_stub(i, None if size == _NO_STUB else buf[at + 8:end].decode("utf-8"))
            at = end
        del buf[:at]


def workers_for(n_jobs: int) -> int:
    import multiprocessing
    workers = min(os.cpu_count() or 1, 4)
    if n_jobs < PARALLEL_MIN or workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return workers


def run_plan(plan: SitePlan, emit, worker_emit=None, worker_done=None, on_stub=None,
             emit_charts: bool = False, unfreeze: bool = True, progress=None) -> tuple[dict, dict, list]:
    """Render every page of `plan`: in this process, or, when the site is large, in it and forked workers,
    each taking the next run of pages from a TaskFeed when it is free and emitting what it renders (no
    process ever holds the whole site's HTML). `emit`
    runs in this process; `worker_emit` in a worker (default: emit); `worker_done()` returns, from a worker,
    what it must send back. `on_stub(job index, search stub)` is called in this process for every page
    as soon as it is rendered, in whichever process (the build feeds pagefind with them meanwhile).
    `emit_charts`: chart files are emitted with their page, by the process that rendered it (see _share).
    `unfreeze=False` leaves the heap frozen (gc.freeze, before the fork) for the caller to unfreeze when it
    is done: handed back at once, the loaded content is walked by the next full collection (0.4 s on the
    archive, in the middle of a build's last steps).
    `progress(jobs)`, in this process only (a worker draws nothing: it would draw a bar of its own over
    this one's), is told how many of the jobs every process has taken so far, and len(plan.jobs) at the end.
    Returns ({page: (key, charts, search stub)}, chart files, worker results)."""
    n = workers_for(len(plan.jobs))
    # while pagefind is fed, the files that are not pages (the API) are made here once the workers are
    # done: pagefind builds the index meanwhile on the other core, and the workers' memory is freed before
    # pagefind takes the index's (the process tree's peak stays under 400 MB on the archive)
    after = [i for i, job in enumerate(plan.jobs) if job.template is None] if on_stub is not None else []
    units = _units(plan.jobs, pages_only=bool(after))
    if n == 1 or len(units) < 2:
        return _run_here(plan, emit, on_stub, emit_charts, progress)
    return _run_forked(plan, n, units, after, emit, worker_emit or emit, worker_done, on_stub, emit_charts,
                       unfreeze, progress)


def _run_forked(plan: SitePlan, n: int, units: list, after: list, emit, worker_emit, worker_done, on_stub,
                emit_charts: bool, unfreeze: bool, progress) -> tuple[dict, dict, list]:
    """run_plan in this process and n - 1 forked workers (see run_plan)."""
    import gc
    relay, feed, on_unit = _prepare(plan, units, on_stub, progress)
    # the workers' garbage collector leaves the inherited objects alone: copy-on-write stays shared. No
    # gc.collect() first: it walked everything made since the load was frozen (the plan, the results:
    # 0.07 s on the archive, with the other core idle) and found nothing to free (the content makes no
    # reference cycles); a cycle frozen here would be freed when the build unfreezes the heap
    gc.freeze()
    children: list = []
    try:
        for _ in range(1, n):
            children.append(_fork_renderer(plan, feed, units, relay, worker_emit, worker_done, emit_charts))
        stubs = _share_here(plan, feed, units, on_unit, relay, emit, on_stub, emit_charts)
        stubs, chart_files, extra = _joined(children, stubs, dict(plan.charts.files))
        children = []
        if after:
            stubs.update(_share(plan, after, emit, None, emit_charts))   # files, no charts
        if progress is not None:
            progress(len(plan.jobs))
    finally:
        _cleanup(unfreeze, feed, relay, children)
    return stubs, chart_files, extra


def _prepare(plan: SitePlan, units: list, on_stub, progress):
    """Before forking: every template compiled once, here (not by every worker), and what the pages share made
    (SitePlan.make_shared: the processes take the pages in turns, and each would make most of it again); the
    relay of the workers' stubs (when pagefind is fed); the feed of units; the progress callback of this
    process. Returns (relay, feed, on_unit)."""
    from league.engine.cache import gc_paused
    from league.engine.workers import TaskFeed
    for name in sorted({job.template for job in plan.jobs if job.template}):
        plan.env.get_template(name)
    with gc_paused():
        plan.make_shared([job.path for job in plan.jobs if job.template is not None])
    relay = _StubRelay(on_stub) if on_stub is not None else None
    feed = TaskFeed(len(units))   # every process takes the next unit when it is free: all finish together
    on_unit = None
    if progress is not None:
        taken = feed.counter(units)

        def on_unit():
            progress(taken())
    return relay, feed, on_unit


def _cleanup(unfreeze: bool, feed, relay, children: list) -> None:
    """After rendering, or on an error in this process: the heap unfrozen (unless the caller will), the pipes
    closed, no worker left behind."""
    import gc
    from league.engine.workers import kill_worker
    if unfreeze:
        gc.unfreeze()
    feed.close()
    if relay is not None:
        relay.close()
    for pid, r in children:
        kill_worker(pid, r)


def _run_here(plan: SitePlan, emit, on_stub, emit_charts: bool, progress) -> tuple[dict, dict, list]:
    """run_plan in this process alone (a small site, or one core)."""
    indices = range(len(plan.jobs))
    meta = _share(plan, _counted(indices, progress) if progress else indices, emit, on_stub, emit_charts)
    if progress:
        progress(len(plan.jobs))
    return meta, dict(plan.charts.files), []


def _fork_renderer(plan: SitePlan, feed, units, relay, emit, worker_done, emit_charts: bool) -> tuple[int, int]:
    """Fork one rendering worker: it takes units from `feed` until none is left, emits what it renders, sends
    its search stubs through a pipe of its own to `relay` as it goes, and its result at the end."""
    from league.engine.workers import fork_result, widen_pipe
    stub_r = stub_w = None
    if relay is not None:
        stub_r, stub_w = os.pipe()
        widen_pipe(stub_w)   # room for a few hundred stubs: the worker rarely waits for this process to read them

    def work():   # in the worker
        send = None
        if stub_w is not None:
            os.close(stub_r)
            send = _stub_sender(stub_w)
        try:
            stubs = _share(plan, _taken(feed, units), emit, send, emit_charts)
        finally:   # closed before the result is sent: the parent reads the stubs to their end first
            if stub_w is not None:
                os.close(stub_w)
        return stubs, dict(plan.charts.files), worker_done() if worker_done else None
    child = fork_result(work)
    if relay is not None:
        os.close(stub_w)
        relay.watch(stub_r)
    return child


def _share_here(plan: SitePlan, feed, units, on_unit, relay, emit, on_stub, emit_charts: bool) -> dict:
    """This process's share of the pages, beside the workers; the workers' stubs are passed on between its
    own jobs."""
    if relay is None:
        return _share(plan, _taken(feed, units, on_unit), emit, emit_charts=emit_charts)

    def polled(indices):
        for i in indices:
            relay.poll()
            yield i
    stubs = _share(plan, polled(_taken(feed, units, on_unit)), emit, on_stub, emit_charts)
    relay.drain()
    return stubs


def _joined(children: list, stubs: dict, chart_files: dict) -> tuple[dict, dict, list]:
    """Every worker's result added to this process's: (stubs, chart files, what each worker sent back). Each is
    taken out of `children` as it is joined: on an error, _cleanup kills the others, and never closes a joined
    worker's file (its number may by then be another file's)."""
    from league.engine.workers import join_result
    extra = []
    while children:
        pid, r = children.pop(0)
        s, cf, done = join_result(pid, r)
        stubs.update(s)
        chart_files.update(cf)
        extra.append(done)
    return stubs, chart_files, extra


def render_all(plan: SitePlan) -> tuple[dict, dict, dict]:
    """Every page's HTML in memory (tests and small sites)."""
    pages: dict = {}

    def emit(path, html):
        pages[path] = html
    if workers_for(len(plan.jobs)) > 1:
        # workers send their pages back
        mine: dict = {}

        def worker_emit(path, html):
            mine[path] = html
        stubs, charts, extra = run_plan(plan, emit, worker_emit, lambda: mine)
        for part in extra:
            pages.update(part)
    else:
        stubs, charts, _extra = run_plan(plan, emit)
    return dict(sorted(pages.items())), charts, stubs


def render_site(results: Results, templates: Path | None = None, draft: bool = False) -> dict[str, str | bytes]:
    """The whole site in memory, {path: text or bytes} (small sites and tests; builds stream, see run_plan)."""
    plan = plan_site(results, templates, draft)
    files = dict(plan.files)
    pages, chart_files, _stubs = render_all(plan)
    files.update(pages)
    files.update(chart_files)
    return files
