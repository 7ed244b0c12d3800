"""The one orchestrator: load → validate → compute → render → write. Nothing is written unless all succeeds."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from league.engine.codec import Keys, Opt, RelPath
from league.content.diagnostics import Diagnostic, LeagueError, SourceMark
from league.engine.incremental import KEY_STATE

if TYPE_CHECKING:   # imported where used: a no-op build stops before it needs the loader (~0.1 s of imports)
    from league.games.results import Results


LOADING = "lendo o conteúdo"   # the progress bar's phases (league/cli.py draws them on a terminal)


@dataclass
class BuildReport:
    results: Results
    diagnostics: list[Diagnostic]
    files: int = 0
    written: int = 0
    unchanged: int = 0
    seconds: float = 0.0
    rendered: int = 0      # pages rendered (a rebuild keeps the pages whose inputs did not change)
    pages: int = 0         # pages in the site
    stage_keys: dict = field(default_factory=dict)   # stage file -> its build cache entry's key (the loader's)


def check(content: Path, strict: bool = False, cache_dir: Path | None | bool = None, meanwhile=None,
          meanwhile_busy=None, meanwhile_share=None, progress=None, digests: dict | None = None) -> BuildReport:
    """Validate and compute everything; raise LeagueError listing every problem. Writes nothing but
    the cache (cache_dir None = the default next to content/, False = no cache). `meanwhile(league)`,
    `meanwhile_busy(league)`, `meanwhile_share(league)`: see Loader.meanwhile. `progress(phase, done,
    total)`: told how many of the files to load (those not in the cache) are taken (see Loader.progress).
    `digests`: the content files' sha256, as the build read them (see Loader.digests)."""
    from league.engine.cache import Cache, default_dir
    from league.engine.compute import compute
    from league.engine.loader import Loader
    from league import i18n
    cache = None if cache_dir is False else Cache(cache_dir or default_dir(content))
    i18n.use_cache(cache)   # the interface text's catalogs kept compiled there
    loader = Loader(Path(content), cache, digests)
    loader.meanwhile, loader.meanwhile_busy, loader.meanwhile_share = meanwhile, meanwhile_busy, meanwhile_share
    if progress is not None:
        loader.progress = lambda done, total: progress(LOADING, done, total)
    league = loader.load()
    if loader.diags.errors:
        raise LeagueError(loader.diags.sorted())
    if league.locale in i18n.LOCALES:
        i18n.translations(league.locale)   # (read now: a corrupted cache entry of it is reported with the others)
    results = compute(league, loader.diags, cache, loader.stage_keys)
    if cache is not None:
        for w in cache.warnings:
            loader.diags.warning(SourceMark(str(cache.dir or "cache")), w, code="cache")
    diags = loader.diags.sorted()
    if loader.diags.errors or (strict and any(d.code != "cache" for d in diags)):
        if strict:   # (a cache entry found corrupted and made again is not a problem of the content)
            diags = [Diagnostic(d.mark, d.message, d.hint, "error" if d.code != "cache" else d.level, d.code)
                     for d in diags]
        raise LeagueError(diags)
    return BuildReport(results, diags, stage_keys=loader.stage_keys)


def render_files(results: Results, templates: Path | None = None, draft: bool = False) -> dict[str, str | bytes]:
    """The whole site in memory, {path: text or bytes} (tests, `league diff`); `build` streams instead."""
    from league.site.api import api_files
    files: dict[str, str | bytes] = {}
    files.update(api_files(results))
    from league.i18n import using
    from league.engine.rendering import render_site
    with using(results.league.locale):  # interface text, dates and numbers in league.yaml's `locale:`
        files.update(render_site(results, templates, draft=draft))
    return files


SEARCH_DIGEST = ".pagefind-digest"


def _stub_hash(text: str | None) -> str | None:
    """The hash a build records of a page's stub (a league.search.StubHash is one already: returned as a str)."""
    import hashlib
    from league.site.search import StubHash
    if text is None:
        return None
    if type(text) is StubHash:
        return str(text)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=12).hexdigest()


def _is_hash(path: str, stub, kept) -> bool:
    """Whether meta's stub of `path` is a hash (a page kept unrendered, or rendered to the previous site's
    bytes: league.search.StubHash), not the text."""
    from league.site.search import StubHash
    return path in kept or type(stub) is StubHash


SEARCH_CACHE = "search-index"

# the last search index in the cache: (the stubs' digest, {path under out/: bytes}), league.codec.fits
SEARCH_ENTRY = (str, {RelPath: bytes})


def _stub_code() -> str:
    """What the stubs' hashes in a build's record were made by (league's code): a later build reuses them for
    pages rendered to the same bytes only when it is the same league (another could cut other stubs)."""
    from league.engine.cache import code_version
    return code_version()


def _search_cache_key() -> str:
    """Cache key of the last search index made: league's code and the pagefind binary (path, size, time)."""
    from league.site import search as S
    from league.engine.cache import code_version, digest
    return digest(SEARCH_CACHE, code_version(), S.identity())


def _search_index(writer, meta: dict, kept: set, search: bool, cache=None, streamed=None):
    """Start the search index of the new site (pagefind over the pages' searchable text, in the
    background); None when it can be reused as it is: the indexed text of every page (names, dates,
    places — not scores) is the same as in the previous site, or as in the last index kept in `cache`
    (a whole site built again from a warm cache: its files are written from there). `meta`: {page: (key,
    charts, stub)}, where the stub is the text for pages rendered now and its hash for pages kept from the
    previous site. `streamed`: pagefind already indexing the stubs, sent as the pages were rendered (see
    _StubOrder). Returns (a handle whose files() is the index, its digest, cache)."""
    import hashlib
    from league.site import search as S
    if not search or not S.available():
        return None
    h = hashlib.sha256()
    for path in sorted(meta):
        stub = meta[path][2]
        if stub is not None:
            h.update(f"{path}\0{stub if _is_hash(path, stub, kept) else _stub_hash(stub)}\0".encode("utf-8"))
    digest = h.hexdigest()
    if streamed is not None:
        return streamed, digest, cache
    prev = writer.previous
    old_digest = None
    if prev is not None:
        try:
            old_digest = (prev / SEARCH_DIGEST).read_text(encoding="utf-8")
        except OSError:
            old_digest = None
    if old_digest == digest and (prev / "pagefind").is_dir():
        kept_files = []
        for dirpath, _dirs, names in os.walk(prev / "pagefind"):
            rel_dir = os.path.relpath(dirpath, prev).replace(os.sep, "/")
            kept_files += [f"{rel_dir}/{n}" for n in names]
        writer.keep(sorted(kept_files))
        writer.put(SEARCH_DIGEST, digest)
        if cache is not None:   # the cached index is this one still: used (kept by Cache.prune)
            cache.touch(_search_cache_key())
        return None
    last = cache.get(_search_cache_key(), SEARCH_ENTRY) if cache is not None else None
    if last is not None and last[0] == digest:
        for rel, data in sorted(last[1].items()):
            writer.put(rel, data)
        writer.put(SEARCH_DIGEST, digest)
        return None
    # the index changes (or there is none): the stubs of the kept pages (and of those rendered to the same bytes)
    # are read back from their files in site/
    stubs = {}
    for path, m in meta.items():
        if m[2] is None:
            continue
        if _is_hash(path, m[2], kept):
            with open(os.path.join(writer.out, path), encoding="utf-8") as fh:
                text = S.stub(fh.read())
            if text is not None:
                stubs[path] = text
        else:
            stubs[path] = m[2]
    handle = S.start_index_stubs(stubs, writer.staging)
    return handle, digest, cache


def _finish_search_index(writer, started) -> None:
    """The index's files, through the writer: a rebuild rewrites only those whose bytes changed (pagefind
    names most of its files by their content). The cache keeps this last index only (one entry, replaced)."""
    if started is None:
        return
    handle, digest, cache = started
    files = handle.files()
    for rel, data in sorted(files.items()):
        writer.put(rel, data)
    writer.put(SEARCH_DIGEST, digest)
    if cache is not None:
        cache.put(_search_cache_key(), (digest, files))


def _index_reusable(writer, cache) -> bool:
    """Whether the search index might be reused rather than made again (see _search_index): the previous
    site has one, or the cache keeps one. If not, the pages' stubs go to pagefind as they are rendered."""
    prev = writer.previous
    if prev is not None and (prev / SEARCH_DIGEST).is_file():
        return True
    return cache is not None and cache.has(_search_cache_key())


_SEARCH_KINDS = None   # league.render.SEARCH_KINDS, imported at the first _job_order (not on the no-op path)


def _job_order(job) -> tuple:
    """The order of a build's jobs: the pages pagefind indexes (render.SEARCH_KINDS) by path, then the other
    pages by path, then the API files. pagefind is done with its pages once the last searchable one is
    rendered, and builds the index while the others (season pages, lists: ~0.25 s of work on the archive)
    are rendered beside it."""
    global _SEARCH_KINDS
    if _SEARCH_KINDS is None:
        from league.site.render import SEARCH_KINDS
        _SEARCH_KINDS = SEARCH_KINDS
    return job.template is None, job.template not in _SEARCH_KINDS, job.path


class _StubOrder:
    """Hands the rendered pages' search stubs to pagefind in the order of their paths, whichever process
    rendered them and whenever: page job i (the searchable pages come first, sorted by path, see
    _job_order) waits for the pages before it. pagefind is told there are no more pages as soon as the
    last searchable page is in, and builds the index while the other pages and the JSON and CSV files are
    made. A page of another kind that has a stub after all (templates of one's own can index any page)
    cannot be put in its place any more: the stream is `spoiled`, and the build indexes the stubs again,
    in path order, once every page is rendered (the same index, later)."""

    def __init__(self, handle, jobs: list):
        from league.site.render import SEARCH_KINDS
        self.handle = handle
        self.paths = [job.path for job in jobs if job.template is not None]
        self.searchable = sum(1 for job in jobs if job.template in SEARCH_KINDS)
        self.got: dict = {}
        self.next = 0
        self.spoiled = False
        if not self.searchable:
            handle.finish()

    def put(self, i: int, stub) -> None:
        if i >= self.searchable:   # after the searchable pages (pagefind has been told they are all in)
            if stub is not None:
                self.spoiled = True
            return
        self.got[i] = stub
        while self.next in self.got:
            text = self.got.pop(self.next)
            if text is not None:
                self.handle.add(self.paths[self.next], text)
            self.next += 1
            if self.next == self.searchable:
                self.handle.finish()


def build(content: Path, out: Path, strict: bool = False, templates: Path | None = None,
          draft: bool = False, cache_dir: Path | None | bool = None, search: bool = True,
          progress=None, skip_unchanged: bool = False, force: bool = False, say=None) -> BuildReport:
    """Check, then render and write: pages are rendered by forked workers that write their own share
    into a staging folder beside out/, which replaces out/ in one step only when complete
    (league/site/writer.py). out/ is checked first (league.writer.check_out: OutError when it holds what league
    did not make, unless `force`) and locked for the whole build (a second build waits; `say(text)` is told).
    `draft` marks every page as a preview (banner, noindex, robots Disallow) for pull-request deploy
    previews. `progress(phase, done, total)` is told how far the build got (the CLI draws a bar on a
    terminal)."""
    from league.site.writer import check_out, locked, recover
    from league.site.paths import default_templates
    protect = [templates or default_templates()]
    if cache_dir is not False:
        protect.append(_cache_dir(content, cache_dir))
    check_out(out, content, force, protect)
    with locked(out, say):
        check_out(out, content, force, protect)   # again: another build may have written it meanwhile
        left = recover(out)   # what an interrupted build left: finished or deleted
        report = _build(content, out, strict, templates, draft, cache_dir, search, progress, skip_unchanged)
        report.diagnostics += [Diagnostic(SourceMark(str(out)), w, level="warning", code="out") for w in left]
        return report


def _build(content: Path, out: Path, strict: bool, templates: Path | None, draft: bool,
           cache_dir: Path | None | bool, search: bool, progress, skip_unchanged: bool) -> BuildReport:
    import time
    started = time.perf_counter()
    del _CACHE_WARNINGS[:]
    inputs = _inputs(content, templates)   # (also without a cache: the site's manifest names them)
    if skip_unchanged and cache_dir is not False:
        noop = _unchanged_build(content, out, templates, cache_dir, (strict, draft, search), inputs)
        if noop is not None:
            noop.seconds = time.perf_counter() - started
            return noop
    from concurrent.futures import ThreadPoolExecutor
    from league.content.provenance import git_dates
    incremental = cache_dir is not False
    prepared: dict = {}

    def meanwhile(league) -> None:   # while the files load in other processes: the templates compiled
        from league.i18n import using
        from league.site.render import prepare_env
        try:
            with using(league.locale):
                prepared[league.locale] = prepare_env(templates, league.locale)
        except Exception:  # noqa: BLE001 - a broken template is reported where it always is, by plan_site
            prepared.clear()

    def busy(league) -> bool:   # meanwhile compiles the templates: every build does (none is kept in the cache)
        return True
    with ThreadPoolExecutor(1) as pool:   # the pages' dates from git, asked while the content loads
        dates = pool.submit(git_dates, Path(content))
        report = check(content, strict, cache_dir, meanwhile=meanwhile, meanwhile_busy=busy,
                       progress=progress, digests=inputs[0] if inputs else None)
        dates = dates.result()
    results = report.results
    flags = (strict, draft, search)
    from league.site.api import quatrilho_api_files, ranking_api_files, stage_api_files
    from league.i18n import using
    from league.site.render import PageJob, plan_site
    from league.engine.incremental import lazy_keys, resolve_keys
    from league.engine.rendering import run_plan
    from league.site.writer import SiteWriter
    import gc
    try:
        with using(results.league.locale):  # interface text, dates and numbers in league.yaml's `locale:`
            writer = SiteWriter(out, inputs_id(inputs, flags))
            index = helper = keys_helper = key_state = None
            try:
                previous = _previous_record(content, out, cache_dir, writer) if incremental else None
                # the stages' signatures are reused even when out/ is new (they depend on the content only)
                signatures = _cache(content, cache_dir) if incremental else None
                api = []   # the JSON and CSV files: (path, make, its key's kind and arguments)
                for sr in results.seasons:
                    y = sr.season.year
                    api.append((f"api/{y}/ranking/", lambda sr=sr: ranking_api_files(sr), ("season", sr)))
                    for res in sr.stages:
                        api.append((f"api/{y}/truco/{res.stage.id}/", lambda sr=sr, res=res: stage_api_files(sr, res),
                                    ("stage_api", res)))
                    api.append((f"api/{y}/quatrilho/", lambda sr=sr: quatrilho_api_files(sr), ("quatrilho_season", sr)))
                if not previous and _api_helper_wanted(results):   # nothing to keep: all made now, beside
                    helper = _start_api_helper(api, writer)        # the plan and the first pages
                from league.engine.cache import gc_paused
                with gc_paused():   # the plan makes ~10,000 jobs and the site's indexes: no collection walks them
                    plan = plan_site(results, templates, draft=draft,
                                     keys_for=lazy_keys(content, flags, signatures, inputs, previous) if incremental
                                     else None,
                                     dates=dates, env=prepared.get(results.league.locale))
                record: dict = {"pages": {}}
                K = plan.keys
                api_jobs = [PageJob(path, None, make, None, K.later(*key) if K else None) for path, make, key in api]
                if helper is None:   # the API files are jobs shared out like the pages
                    plan.jobs += api_jobs
                report.pages = sum(1 for job in plan.jobs if job.template is not None)
                plan.jobs.sort(key=_job_order)
                resolved = False
                if previous and (K is None or _keys_may_match(K, previous)):
                    resolve_keys(plan)   # the pages' keys tell which pages the previous site already has
                    resolved = True
                kept_meta = _keep_unchanged(plan, previous, writer, record)
                if previous and previous.get("stub_code") == _stub_code():
                    plan.previous_stubs = previous.get("pages")   # a page rendered to its old bytes: its old stub
                streamed = order = None
                from league.site import search as S
                if search and S.available() and not kept_meta and not _index_reusable(writer, signatures):
                    streamed = S.start_index_stubs(None, writer.staging)   # a new index: made while the pages render
                    index = (streamed, None, None)
                    order = _StubOrder(streamed, plan.jobs)
                from league.engine.rendering import workers_for
                if K is not None and not resolved and streamed is None and workers_for(len(plan.jobs)) > 1:
                    # nothing waits for the keys (no page can be kept, pagefind does not run): they are worked
                    # out in a process of their own while the pages render, not on one core afterwards
                    keys_helper = _start_keys_helper(plan.jobs + (api_jobs if helper is not None else []), K)
                total = len(plan.jobs)
                if progress:
                    progress("gerando páginas", 0, total)
                forked_at = writer.stats.mark()   # a worker sends back only what it wrote itself
                meta, chart_files, worker_stats = run_plan(plan, writer.put,
                                                           worker_done=lambda: writer.stats.since(forked_at),
                                                           on_stub=order.put if order is not None else None,
                                                           emit_charts=True, unfreeze=False,
                                                           progress=(lambda jobs: progress("gerando páginas", jobs,
                                                                                           total)) if progress else None)
                for st in worker_stats:
                    writer.stats.merge(st)
                if helper is not None:
                    from league.engine.workers import join_result
                    made, st = join_result(*helper)
                    helper = None
                    writer.stats.merge(st)
                    meta.update({path: (None, files, None) for path, files in made.items()})
                    plan.jobs += api_jobs   # for their keys, below
                if keys_helper is not None:
                    from league.engine.workers import join_result
                    keys, key_state = join_result(*keys_helper)
                    keys_helper = None
                    resolve_keys(plan, keys)
                elif K is not None:   # a first build's keys, worked out now, while pagefind builds the index
                    resolve_keys(plan)
                if K is not None:
                    for job in plan.jobs:
                        m = meta.get(job.path)
                        if m is not None and m[0] is None:
                            meta[job.path] = (job.key, *m[1:])
                plan.jobs.clear()
                if order is not None and order.spoiled:   # a page outside SEARCH_KINDS is indexed: start again
                    streamed.cancel()
                    streamed = index = None
                index = _search_index(writer, {**meta, **kept_meta}, kept_meta.keys(), search, signatures, streamed)
                record["pages"] = {**{p: (m[0], m[1], _stub_hash(m[2])) for p, m in meta.items()}, **kept_meta}
                record["stub_code"] = _stub_code()
                if K is not None:   # what the next build's keys can reuse (PageKeys.for_page)
                    record["key_state"] = key_state if key_state is not None else K.get().state()
                report.rendered = sum(1 for job_path in meta if job_path not in kept_meta and not job_path.endswith("/"))
                if progress:
                    progress("escrevendo", 0, 0)
                for rel, data in sorted(chart_files.items()):
                    writer.put(rel, data)
                for rel, data in sorted(plan.files.items()):
                    writer.put(rel, data)
                _finish_search_index(writer, index)
                for rel in writer.commit():
                    report.diagnostics.append(Diagnostic(SourceMark(f"{out}/{rel}"), "arquivo que o league não "
                                                         "gerou: mantido no site", level="warning", code="out"))
                for w in writer.warnings:
                    report.diagnostics.append(Diagnostic(SourceMark(str(out)), w, level="warning", code="out"))
            except BaseException:
                if index is not None:   # pagefind still running: stop it (league serve outlives the build)
                    index[0].cancel()
                from league.engine.workers import kill_worker
                for h in (helper, keys_helper):
                    if h is not None:
                        kill_worker(*h)
                writer.abort()
                raise
        stats = writer.stats
        report.files, report.written, report.unchanged = stats.total, stats.written, stats.unchanged
        report.seconds = time.perf_counter() - started
        if cache_dir is not False:
            _record_build(content, out, templates, cache_dir, flags, report, record, inputs)
            _prune_cache(content, cache_dir)
            report.diagnostics = report.diagnostics + _cache_warnings(content, cache_dir)
        return report
    finally:   # run_plan left the heap frozen: handed back now, not in the middle of the last steps
        gc.unfreeze()


# a first build with at least this many stages makes its JSON and CSV files in a process of their own, forked
# before the plan: on the archive (120 stages, 0.3 s of work) they are made while this process plans, where
# one core was idle, instead of at the end, beside pagefind building the index
API_HELPER_MIN_STAGES = 24


def _api_helper_wanted(results) -> bool:
    from league.engine.rendering import workers_for
    stages = sum(len(sr.stages) for sr in results.seasons)
    return stages >= API_HELPER_MIN_STAGES and workers_for(10 ** 9) > 1


def _start_api_helper(api: list, writer):
    """Fork the process that writes the API files `api` [(path, make, key)] through `writer` (into its
    staging folder) and sends back ({path: the files it wrote}, its own WriteStats); (pid, fd) for
    league.workers.join_result."""
    from league.engine.rendering import emit_files
    from league.engine.workers import fork_result
    forked_at = writer.stats.mark()

    def work():
        made = {path: emit_files(make(), writer.put) for path, make, _key in api}
        return made, writer.stats.since(forked_at)
    return fork_result(work)


def _keys_may_match(keys, previous) -> bool:
    """Whether any page's key can be the one the previous build recorded: every key starts with `base`
    (league.incremental.page_base), so not when the previous record's differs — a template, league.yaml or
    league itself changed — and then every page is rendered again."""
    state = previous.get("key_state")
    if not isinstance(state, dict) or "base" not in state:
        return True
    return state["base"] == keys.base()


def _start_keys_helper(jobs: list, keys):
    """Fork the process that works out the key of each of `jobs` (in their order) and what the next build can
    reuse of them (PageKeys.state); (pid, fd) for league.workers.join_result, which returns (keys, state)."""
    from league.engine.cache import gc_paused
    from league.engine.incremental import job_keys
    from league.engine.workers import fork_result

    def work():
        with gc_paused():
            return job_keys(jobs), keys.get().state()
    return fork_result(work)


def _keep_unchanged(plan, previous, writer, record) -> dict:
    """Drop from the plan every page whose key is the one the previous build recorded for the file still
    in out/ (with the chart files it showed): the writer keeps them as they are. Their recorded
    (key, charts, stub) is returned."""
    kept: dict = {}
    if not previous or plan.keys is None:
        return kept
    old_pages = previous.get("pages", {})
    todo = []
    for job in plan.jobs:
        path, key = job.path, job.key
        old = old_pages.get(path)
        if key is None or old is None or old[0] != key:
            todo.append(job)
            continue
        # trusted like the no-op check: site/'s manifest names this record's inputs and every file it
        # recorded is there with its size (_previous_record)
        kept[path] = old
        writer.keep((path, *old[1]) if job.template is not None else old[1])
    plan.jobs[:] = todo
    return kept


# ---------------------------------------------------------------- no-op detection

def _inputs(content: Path, templates: Path | None) -> tuple[dict, dict]:
    """Digests of every content file (`<content dir name>/relative/path` → sha256) and template file,
    read once per build, before anything is loaded: the no-op check, the pages' keys and the record
    all use these (a file edited while the build runs makes the next build run again)."""
    from league.engine.incremental import file_digests
    from league.site.paths import default_templates
    content = Path(content)
    return (file_digests(content, content.name or "content", links_out=False),
            file_digests(Path(templates) if templates else default_templates(), ""))


def inputs_id(inputs: tuple[dict, dict], flags) -> str:
    """The digest of a build's inputs that its site's manifest carries (league.writer.Manifest): content and
    template files by relative path and bytes, league's code, flags — no absolute path, so the same content
    builds the same site wherever it lies. A build's record is trusted only for the site whose manifest
    names the same inputs."""
    import hashlib
    from league.engine.cache import code_version
    h = hashlib.sha256(code_version().encode())
    h.update(repr(flags).encode())
    for files in inputs:
        for rel, d in sorted(files.items()):
            h.update(f"{rel}\0{d}\0".encode())
        h.update(b"\1")
    return h.hexdigest()


def _stamp(content: Path, templates: Path | None, flags, inputs: tuple[dict, dict] | None = None) -> str:
    """Hash of every input of a build: content and template files (path and bytes), league's code, flags."""
    import hashlib
    from league.engine.cache import code_version
    from league.site.paths import default_templates
    if inputs is None:
        inputs = _inputs(content, templates)
    h = hashlib.sha256(code_version().encode())
    h.update(repr(flags).encode())
    h.update(str(Path(content).resolve()).encode() + b"\0")
    h.update(str((Path(templates) if templates else default_templates()).resolve()).encode() + b"\0")
    for files in inputs:
        for rel, d in files.items():
            h.update(f"{rel}\0{d}\0".encode())
        h.update(b"\1")
    return h.hexdigest()


# what a build records in the cache (_record_build) and the next one reads back (league.codec.fits): the stamp
# (the no-op check), and the record, whose paths a rebuild keeps, deletes or writes under out/
STAMP = Keys({"stamp": str, "inputs": str, "diagnostics": [Diagnostic], "files": int, "pages": int})
RECORD = Keys({**STAMP.required, "pages": {str: (Opt(str), (RelPath,), Opt(str))}, "stub_code": str},
              {"key_state": Keys(KEY_STATE)})


def _record_key(out: Path) -> str:
    from league.engine.cache import digest
    return digest("last-build", str(Path(out).resolve()))


def _cache_dir(content, cache_dir) -> Path:
    from league.engine.cache import default_dir
    return Path(cache_dir) if cache_dir else default_dir(content)


def _cache(content, cache_dir):
    from league.engine.cache import Cache
    cache = Cache(_cache_dir(content, cache_dir))
    cache.warnings = _CACHE_WARNINGS
    return cache


# what the build's own entries (its record and stamp, the stages' signatures, the search index) were found
# to be — corrupted, or not written —: reported with the build's diagnostics (those of check() are already)
_CACHE_WARNINGS: list = []


def _cache_warnings(content, cache_dir) -> list[Diagnostic]:
    where = SourceMark(str(_cache_dir(content, cache_dir)))
    return [Diagnostic(where, w, None, "warning", "cache") for w in dict.fromkeys(_CACHE_WARNINGS)]


def _previous_record(content, out, cache_dir, writer) -> dict | None:
    """What the previous build into this same out/ folder recorded (page keys, API files), or None: also
    when a file it recorded is missing or changed size (deleted or edited by hand), so every page is made
    again and site/ repaired."""
    if writer.previous is None or writer.recorded is None or writer.damaged():
        return None
    rec = _cache(content, cache_dir).get(_record_key(out), RECORD)
    if not rec or "pages" not in rec or rec.get("inputs") != writer.recorded_inputs:
        return None   # the record is of another build than the one that wrote out/
    return rec


def _stamp_key(out: Path) -> str:
    from league.engine.cache import digest
    return digest("last-build-stamp", str(Path(out).resolve()))


def _unchanged_build(content, out, templates, cache_dir, flags, inputs) -> BuildReport | None:
    """The previous report when nothing the build reads has changed and out/ holds what it wrote, whole."""
    cache = _cache(content, cache_dir)
    rec = cache.get(_stamp_key(out), STAMP)
    if not rec or rec["stamp"] != _stamp(content, templates, flags, inputs):
        return None
    from league.site.writer import damaged, read_manifest
    manifest = read_manifest(out)
    if manifest is None or manifest.inputs != rec.get("inputs") or damaged(out, manifest.files):
        return None   # another build's site, or a file deleted or edited by hand: built again, repaired
    return BuildReport(results=None, diagnostics=rec["diagnostics"], files=rec["files"], written=0,
                       unchanged=rec["files"], pages=rec.get("pages", 0))


def _prune_cache(content, cache_dir) -> int:
    """After a build (which read or wrote every entry it needs): what no build has used for a day goes
    (league.cache.Cache.prune)."""
    try:   # housekeeping: never the reason a build that wrote its site fails
        return _cache(content, cache_dir).prune()
    except Exception:  # noqa: BLE001
        return 0


def _record_build(content, out, templates, cache_dir, flags, report: BuildReport, record: dict | None = None,
                  inputs: tuple[dict, dict] | None = None) -> None:
    cache = _cache(content, cache_dir)
    small = {"stamp": _stamp(content, templates, flags, inputs), "inputs": inputs_id(inputs, flags),
             "diagnostics": [d for d in report.diagnostics if d.code != "cache"],   # (a no-op build repeats
             "files": report.files, "pages": report.pages}                          # these: not the cache's)
    cache.put(_record_key(out), {**small, **(record or {})})
    cache.put(_stamp_key(out), small)
