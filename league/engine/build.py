"""The one orchestrator: load → compute → plan → render → index → write → record (Build). Nothing is written
unless all succeeds. The steps' helpers are the engine's other modules: the build's record and the no-op
check (record.py), the search index (searchindex.py), the helper processes (helpers.py), rendering across
processes (rendering.py)."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from league.content.diagnostics import Diagnostic, LeagueError, SourceMark
from league.engine import helpers, record, searchindex

if TYPE_CHECKING:   # imported where used: a no-op build stops before it needs the loader (~0.1 s of imports)
    from league.games.results import Results


LOADING = "lendo o conteúdo"   # the progress bar's phases (league/cli.py draws them on a terminal)
RENDERING = "gerando páginas"
WRITING = "escrevendo"


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
    from league import i18n
    cache = None if cache_dir is False else Cache(cache_dir or default_dir(content))
    i18n.use_cache(cache)   # the interface text's catalogs kept compiled there
    loader = _loader(content, cache, digests, (meanwhile, meanwhile_busy, meanwhile_share), progress)
    league = loader.load()
    if loader.diags.errors:
        raise LeagueError(loader.diags.sorted())
    if league.locale in i18n.LOCALES:
        i18n.translations(league.locale)   # (read now: a corrupted cache entry of it is reported with the others)
    results = compute(league, loader.diags, cache, loader.stage_keys)
    if cache is not None:
        for w in cache.warnings:
            loader.diags.warning(SourceMark(str(cache.dir or "cache")), w, code="cache")
    return BuildReport(results, _passed(loader.diags, strict), stage_keys=loader.stage_keys)


def _loader(content: Path, cache, digests, meanwhile: tuple, progress):
    """The Loader of `content`, with its `meanwhile` callbacks (meanwhile, busy, share) and its progress."""
    from league.engine.loader import Loader
    loader = Loader(Path(content), cache, digests)
    loader.meanwhile, loader.meanwhile_busy, loader.meanwhile_share = meanwhile
    if progress is not None:
        loader.progress = lambda done, total: progress(LOADING, done, total)
    return loader


def _passed(found, strict: bool) -> list[Diagnostic]:
    """The diagnostics `found` (league.content.diagnostics.Diagnostics), sorted; LeagueError listing them when
    one is an error or, with `strict`, when any is a problem of the content (each then an error)."""
    diags = found.sorted()
    if found.errors or (strict and any(d.code != "cache" for d in diags)):
        if strict:   # (a cache entry found corrupted and made again is not a problem of the content)
            diags = [Diagnostic(d.mark, d.message, d.hint, "error" if d.code != "cache" else d.level, d.code)
                     for d in diags]
        raise LeagueError(diags)
    return diags


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


def build(content: Path, out: Path, strict: bool = False, templates: Path | None = None,
          draft: bool = False, cache_dir: Path | None | bool = None, search: bool = True,
          progress=None, skip_unchanged: bool = False, force: bool = False, say=None) -> BuildReport:
    """Check, then render and write: pages are rendered by forked workers that write their own share
    into a staging folder beside out/, which replaces out/ in one step only when complete
    (league/site/writer.py). out/ is checked first (league.site.writer.check_out: OutError when it holds what league
    did not make, unless `force`) and locked for the whole build (a second build waits; `say(text)` is told).
    `draft` marks every page as a preview (banner, noindex, robots Disallow) for pull-request deploy
    previews. `progress(phase, done, total)` is told how far the build got (the CLI draws a bar on a
    terminal)."""
    from league.site.writer import check_out, locked, recover
    from league.site.paths import default_templates
    protect = [templates or default_templates()]
    if cache_dir is not False:
        protect.append(record.cache_dir_of(content, cache_dir))
    check_out(out, content, force, protect)
    with locked(out, say):
        check_out(out, content, force, protect)   # again: another build may have written it meanwhile
        left = recover(out)   # what an interrupted build left: finished or deleted
        report = Build(content, out, strict, templates, draft, cache_dir, search, progress).run(skip_unchanged)
        report.diagnostics += [Diagnostic(SourceMark(str(out)), w, level="warning", code="out") for w in left]
        return report


class Build:
    """One build of `content` into `out` (see build()), step by step: run() calls the steps in order, each
    leaving in the build's state what the next one needs."""

    def __init__(self, content: Path, out: Path, strict: bool, templates: Path | None, draft: bool,
                 cache_dir: Path | None | bool, search: bool, progress):
        self.content, self.out, self.templates = content, out, templates
        self.strict, self.draft, self.search = strict, draft, search
        self.cache_dir, self.progress = cache_dir, progress
        self.incremental = cache_dir is not False   # a cache: the previous build's record, the pages' keys
        self.flags = (strict, draft, search)
        self.started = time.perf_counter()
        self.inputs: tuple[dict, dict] = ({}, {})   # the content and template files' digests (record.read_inputs)
        self.report: BuildReport | None = None      # check()'s, then the build's
        self.results = None
        self.dates: dict = {}        # the pages' dates, from git
        self.envs: dict = {}         # locale → the templates, compiled while the content loads
        self.writer = None           # league.site.writer.SiteWriter
        self.previous: dict | None = None   # the previous build's record (record.previous_record)
        self.cache = None            # the build's own cache entries: the stages' signatures, the search index
        self.plan = None             # league.site.render.SitePlan
        self.api_jobs: list = []     # the JSON and CSV files' jobs
        self.kept: dict = {}         # the pages kept from the previous site: {path: (key, charts, stub hash)}
        self.resolved = False        # every page's key worked out before rendering
        self.api_helper = self.keys_helper = None   # helper processes (pid, fd), until joined
        self.survey = helpers.SurveyHelper(out)   # the process surveying out/ while the content loads
        self.prestage = helpers.StagingHelper(out)   # the one linking out/ into a staging folder meanwhile
        self.streamed = self.order = None           # pagefind, fed the stubs while the pages render
        self.meta: dict = {}         # the pages rendered now: {path: (key, charts, stub)}
        self.chart_files: dict = {}
        self.key_state = None        # what the next build can reuse of the keys, from the keys helper
        self.index = None            # the search index started: (handle, digest, cache), see searchindex
        self.pages_record: dict = {}   # what the record keeps of the pages (record.RECORD)

    def run(self, skip_unchanged: bool) -> BuildReport:
        """The build's steps: load → compute → plan → render → index → write → record. With `skip_unchanged`,
        nothing is done when nothing changed (the previous build's report)."""
        record.forget_cache_warnings()
        self.inputs = record.read_inputs(self.content, self.templates)   # (also without a cache: the manifest)
        if skip_unchanged and self.incremental:
            unchanged = self.unchanged()
            if unchanged is not None:
                return unchanged
        self.survey = helpers.SurveyHelper(self.out).start()   # out/ surveyed while the content loads
        self.prestage = helpers.StagingHelper(self.out).start()   # and linked into a staging folder
        try:
            self.load_and_compute()
        except BaseException:
            self.survey.drop()
            self.prestage.drop(delete=True)
            raise
        import gc
        from league.i18n import using
        from league.site.writer import SiteWriter
        try:
            with using(self.results.league.locale):  # interface text, dates and numbers in league.yaml's `locale:`
                self.writer = SiteWriter(self.out, record.inputs_id(self.inputs, self.flags),
                                         prestaged=self.prestage.prestaged())
                self.writer.survey_source = self.survey.join
                try:
                    self.plan_pages()
                    self.render()
                    self.index_search()
                    self.record_pages()
                    self.write()
                except BaseException:
                    self.stop()
                    raise
            self.record_build()
            return self.report
        finally:   # run_plan left the heap frozen: handed back now, not in the middle of the last steps
            gc.unfreeze()
            self.survey.drop()   # (not asked for: no previous site to look at)
            self.prestage.drop(delete=self.writer is None)

    def unchanged(self) -> BuildReport | None:
        """The no-op path: the previous build's report when nothing it read has changed and out/ holds what it
        wrote, whole (record.unchanged_stamp); else None."""
        rec = record.unchanged_stamp(self.content, self.out, self.templates, self.cache_dir, self.flags, self.inputs)
        if rec is None:
            return None
        return BuildReport(results=None, diagnostics=rec["diagnostics"], files=rec["files"], written=0,
                           unchanged=rec["files"], pages=rec.get("pages", 0),
                           seconds=time.perf_counter() - self.started)

    # ---------------------------------------------------------------- load, compute
    def load_and_compute(self) -> None:
        """check(): the content loaded, validated and computed (LeagueError else); meanwhile the templates are
        compiled and git is asked the pages' dates."""
        from concurrent.futures import ThreadPoolExecutor
        from league.content.provenance import git_dates
        with ThreadPoolExecutor(1) as pool:   # the pages' dates from git, asked while the content loads
            dates = pool.submit(git_dates, Path(self.content))
            self.report = check(self.content, self.strict, self.cache_dir, meanwhile=self._compile_templates,
                                meanwhile_busy=self._compiles_templates, progress=self.progress,
                                digests=self.inputs[0])
            self.dates = dates.result()
        self.results = self.report.results

    def _compile_templates(self, league) -> None:
        """While the files load in other processes: the templates compiled (Loader.meanwhile)."""
        from league.engine.template_cache import template_cache
        from league.i18n import using
        from league.site.render import prepare_env
        try:
            with using(league.locale):
                self.envs[league.locale] = prepare_env(self.templates, league.locale, template_cache(league.locale))
        except Exception:  # noqa: BLE001 - a broken template is reported where it always is, by plan_site
            self.envs.clear()

    def _compiles_templates(self, league) -> bool:
        """Loader.meanwhile_busy: every build has the templates to compile (none is kept in the build cache; the
        user's template cache, when it has them, makes it quick); the load plan does it meanwhile unless this
        process has entries to read back instead (load_plan.plan_load)."""
        return True

    # ---------------------------------------------------------------- plan
    def plan_pages(self) -> None:
        """The site's plan (league.site.render.plan_site): every page a job, and the JSON and CSV files' jobs
        (made by a helper process on a large first build); on a rebuild, the pages whose key did not change
        are kept as they are, out of the plan."""
        from league.engine.board_index import CachedBoards
        from league.engine.cache import gc_paused
        from league.engine.incremental import lazy_keys
        from league.site.render import plan_site
        keys_for = None
        if self.incremental:
            self.previous = record.previous_record(self.content, self.out, self.cache_dir, self.writer)
            # the stages' signatures are reused even when out/ is new (they depend on the content only)
            self.cache = record.build_cache(self.content, self.cache_dir)
            keys_for = lazy_keys(self.content, self.flags, self.cache, self.inputs, self.previous)
        api = _api_files(self.results)
        if not self.previous and helpers.api_helper_wanted(self.results):   # nothing to keep: all made now,
            self.api_helper = helpers.start_api_helper(api, self.writer)     # beside the plan and the first pages
        locale = self.results.league.locale
        env = self.envs.get(locale) or _compiled_env(self._env_key()) or self._new_env(locale)
        boards = CachedBoards(self.cache, self.report.stage_keys) if self.cache is not None else None
        with gc_paused():   # the plan makes ~10,000 jobs and the site's indexes: no collection walks them
            self.plan = plan_site(self.results, self.templates, draft=self.draft, keys_for=keys_for,
                                  dates=self.dates, env=env, boards=boards)
        _keep_env(self._env_key(), self.plan.env)
        self._add_api_jobs(api)
        self.report.pages = sum(1 for job in self.plan.jobs if job.template is not None)
        self.plan.jobs.sort(key=searchindex.job_order)
        self._keep_unchanged()

    def _new_env(self, locale: str):
        """The templates' environment, compiling each template when a page first uses it (a rebuild that read the
        cache back instead of compiling them all, league/engine/load_plan.py), from the user's template cache
        when it holds it (league/engine/template_cache.py)."""
        from league.engine.template_cache import template_cache
        from league.site.paths import default_templates
        from league.site.render import site_env
        return site_env(Path(self.templates or default_templates()), locale, template_cache(locale))

    def _env_key(self) -> tuple:
        """What the compiled templates depend on: the templates folder and its files' bytes, the locale, and
        league's code with its catalogs (the texts of a template are translated when it is compiled)."""
        from league.engine.cache import code_version
        from league.site.paths import default_templates
        folder = str(Path(self.templates or default_templates()).resolve())
        return folder, self.results.league.locale, tuple(sorted(self.inputs[1].items())), code_version()

    def _add_api_jobs(self, api: list) -> None:
        """The JSON and CSV files as jobs, with their keys; shared out like the pages unless the API helper
        makes them."""
        from league.site.render import PageJob
        keys = self.plan.keys
        self.api_jobs = [PageJob(path, None, make, None, keys.later(*key) if keys and key else None)
                         for path, make, key in api]
        if self.api_helper is None:
            self.plan.jobs += self.api_jobs

    def _keep_unchanged(self) -> None:
        """On a rebuild: the pages whose key is the previous build's are kept, out of the plan; a page
        rendered to its old bytes will take its old stub."""
        from league.engine.incremental import resolve_keys
        previous, keys = self.previous, self.plan.keys
        if previous and (keys is None or record.keys_may_match(keys, previous)):
            resolve_keys(self.plan)   # the pages' keys tell which pages the previous site already has
            self.resolved = True
        self.kept = record.keep_unchanged(self.plan, previous, self.writer)
        if previous and previous.get("stub_code") == searchindex.stub_code():
            self.plan.previous_stubs = previous.get("pages")

    # ---------------------------------------------------------------- render
    def render(self) -> None:
        """Every job of the plan rendered and written (league.engine.rendering.run_plan), in this process and
        forked workers; then the helper processes joined and every page's key worked out."""
        from league.engine.rendering import run_plan
        self._start_streamed_index()
        self._start_keys_helper()
        writer, progress, total = self.writer, self.progress, len(self.plan.jobs)
        if progress:
            progress(RENDERING, 0, total)
        from league.engine.rendering import workers_for
        if workers_for(total) > 1:   # a protected file of the spare: found here, where staging can start over
            writer.check_room(job.path for job in self.plan.jobs if job.template is not None)
        forked_at = writer.stats.mark()   # a worker sends back only what it wrote itself
        self.meta, self.chart_files, worker_stats = run_plan(
            self.plan, writer.put, worker_done=lambda: writer.stats.since(forked_at),
            on_stub=self.order.put if self.order is not None else None, emit_charts=True, unfreeze=False,
            progress=(lambda jobs: progress(RENDERING, jobs, total)) if progress else None)
        for st in worker_stats:
            writer.stats.merge(st)
        self._join_api_helper()
        self._resolve_keys()

    def _start_streamed_index(self) -> None:
        """A new search index (nothing kept, nothing to reuse): pagefind started now, fed the stubs in path order
        as the pages are rendered (searchindex.StubOrder)."""
        from league.site import search as S
        if self.search and S.available() and not self.kept and not searchindex.index_reusable(self.writer, self.cache):
            self.streamed = S.start_index_stubs(None, self.writer.staging)
            self.index = (self.streamed, None, None)
            self.order = searchindex.StubOrder(self.streamed, self.plan.jobs)

    def _start_keys_helper(self) -> None:
        """When nothing waits for the keys (no page can be kept, pagefind does not run): they are worked out
        in a process of their own while the pages render, not on one core afterwards."""
        from league.engine.rendering import workers_for
        keys = self.plan.keys
        if keys is not None and not self.resolved and self.streamed is None and workers_for(len(self.plan.jobs)) > 1:
            jobs = self.plan.jobs + (self.api_jobs if self.api_helper is not None else [])
            self.keys_helper = helpers.start_keys_helper(jobs, keys)

    def _join_api_helper(self) -> None:
        """The JSON and CSV files the API helper wrote: in the pages' meta, and their jobs in the plan (for their
        keys)."""
        if self.api_helper is None:
            return
        from league.engine.workers import join_result
        helper, self.api_helper = self.api_helper, None   # joined once: stop() must not close its file again
        made, st = join_result(*helper)
        self.writer.stats.merge(st)
        self.meta.update({path: (None, files, None) for path, files in made.items()})
        self.plan.jobs += self.api_jobs

    def _resolve_keys(self) -> None:
        """Every job's key, from the keys helper or worked out now (a first build's: while pagefind builds the
        index), put in the pages' meta."""
        from league.engine.incremental import resolve_keys
        keys = self.plan.keys
        if self.keys_helper is not None:
            from league.engine.workers import join_result
            helper, self.keys_helper = self.keys_helper, None
            job_keys, self.key_state = join_result(*helper)
            resolve_keys(self.plan, job_keys)
        elif keys is not None:
            resolve_keys(self.plan)
        if keys is not None:
            for job in self.plan.jobs:
                m = self.meta.get(job.path)
                if m is not None and m[0] is None:
                    self.meta[job.path] = (job.key, *m[1:])
        self.plan.jobs.clear()

    # ---------------------------------------------------------------- index, write, record
    def index_search(self) -> None:
        """The search index started (searchindex.start_search_index), or reused; a stream spoiled by a page outside
        SEARCH_KINDS is given up and every stub indexed again."""
        if self.order is not None and self.order.spoiled:
            self.streamed.cancel()
            self.streamed = self.index = None
        self.index = searchindex.start_search_index(self.writer, {**self.meta, **self.kept}, self.kept.keys(),
                                                    self.search, self.cache, self.streamed)

    def record_pages(self) -> None:
        """What the build's record keeps of its pages: (key, charts, stub hash) each, and what the next build's
        keys can reuse (PageKeys.for_page); how many pages were rendered."""
        self.pages_record = {"pages": {**{p: (m[0], m[1], searchindex.stub_hash(m[2])) for p, m in self.meta.items()},
                                       **self.kept},
                             "stub_code": searchindex.stub_code()}
        keys = self.plan.keys
        if keys is not None:
            self.pages_record["key_state"] = self.key_state if self.key_state is not None else keys.get().state()
        self.report.rendered = sum(1 for path in self.meta if path not in self.kept and not path.endswith("/"))

    def write(self) -> None:
        """The charts, the plan's small files and the search index through the writer, which then puts the new
        site in place of out/ (SiteWriter.commit); what it found to say is in the report."""
        writer, report = self.writer, self.report
        if self.progress:
            self.progress(WRITING, 0, 0)
        for rel, data in sorted(self.chart_files.items()):
            writer.put(rel, data)
        for rel, data in sorted(self.plan.files.items()):
            writer.put(rel, data)
        searchindex.finish_search_index(writer, self.index)
        for rel in writer.commit():
            report.diagnostics.append(Diagnostic(SourceMark(f"{self.out}/{rel}"), "arquivo que o league não "
                                                 "gerou: mantido no site", level="warning", code="out"))
        for w in writer.warnings:
            report.diagnostics.append(Diagnostic(SourceMark(str(self.out)), w, level="warning", code="out"))

    def stop(self) -> None:
        """The build failed: pagefind stopped if it runs (league serve outlives the build), the helper processes
        killed, the staging folder dropped."""
        from league.engine.workers import kill_worker
        if self.index is not None:
            self.index[0].cancel()
        for h in (self.api_helper, self.keys_helper):
            if h is not None:
                kill_worker(*h)
        self.survey.drop()
        self.prestage.drop()   # before the staging folder it links into is deleted
        self.writer.abort()

    def record_build(self) -> None:
        """The report's counts; with a cache, the build's stamp and record for the next build, the cache
        pruned, and its warnings reported."""
        stats, report = self.writer.stats, self.report
        report.files, report.written, report.unchanged = stats.total, stats.written, stats.unchanged
        report.seconds = time.perf_counter() - self.started
        if self.incremental:
            record.write_record(self.content, self.out, self.templates, self.cache_dir, self.flags, report,
                                self.pages_record, self.inputs)
            record.prune_cache(self.content, self.cache_dir)
            report.diagnostics = report.diagnostics + record.cache_warnings(self.content, self.cache_dir)


# the Jinja2 environment of the last build in this process, with its compiled templates, under _env_key: `league
# serve` builds again and again in one process, and compiling the ~15 templates a rebuild renders was half of a
# one-score rebuild of the demo (~0.25 s of ~0.5). Kept only while nothing it was compiled from changed.
_ENV: dict = {}


def _compiled_env(key: tuple):
    return _ENV.get(key)


def _keep_env(key: tuple, env) -> None:
    _ENV.clear()
    _ENV[key] = env


def _api_files(results) -> list:
    """The JSON and CSV files, season by season, the current season's again under api/latest/, then the index
    and the registries: (path, make, its key's kind and arguments; None: made by every build)."""
    from league.site.api import Names, index_files
    names = Names(results.league)
    api = []
    for sr in results.seasons:
        api += _season_api_jobs(sr, names, sr.season.year)
        if sr is results.current:
            api += _season_api_jobs(sr, names, "latest")
    api.append(("api/index/", lambda: index_files(results), None))
    return api


def _season_api_jobs(sr, names, folder: str) -> list:
    """One season's API jobs, its files under api/<folder>/ (its year, or `latest`)."""
    from league.site.api import quatrilho_api_files, ranking_api_files, stage_api_files
    from league.site.api_index import latest
    y = sr.season.year
    moved = (lambda files: files) if folder == y else (lambda files: latest(files, y))
    api = [(f"api/{folder}/ranking/", lambda: moved(ranking_api_files(sr, names)), ("season", sr))]
    for res in sr.stages:
        api.append((f"api/{folder}/truco/{res.stage.id}/", lambda res=res: moved(stage_api_files(sr, res, names)),
                    ("stage_api", res)))
    api.append((f"api/{folder}/quatrilho/", lambda: moved(quatrilho_api_files(sr, names)), ("quatrilho_season", sr)))
    return api
