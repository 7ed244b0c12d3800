"""The build's helper processes, forked to use the core that would otherwise be idle: one that surveys the
previous site while the content loads (SurveyHelper), one that links it into the staging folder meanwhile
when there is no spare (StagingHelper), one that writes the JSON and CSV files of a first
build while the site is planned (start_api_helper), one that works out the pages' keys while they render
(start_keys_helper). Each is joined with league.engine.workers.join_result,
or killed (kill_worker) when the build fails."""
from __future__ import annotations

# a first build with at least this many stages makes its JSON and CSV files in a process of their own, forked
# before the plan: on the archive (120 stages, 0.3 s of work) they are made while this process plans, where
# one core was idle, instead of at the end, beside pagefind building the index
API_HELPER_MIN_STAGES = 24


def api_helper_wanted(results) -> bool:
    from league.engine.rendering import workers_for
    stages = sum(len(sr.stages) for sr in results.seasons)
    return stages >= API_HELPER_MIN_STAGES and workers_for(10 ** 9) > 1


def start_api_helper(api: list, writer):
    """Fork the process that writes the API files `api` [(path, make, key)] through `writer` (into its
    staging folder) and sends back ({path: the files it wrote}, its own WriteStats); (pid, fd) for
    league.engine.workers.join_result."""
    from league.engine.rendering import emit_files
    from league.engine.workers import fork_result
    forked_at = writer.stats.mark()

    def work():
        made = {path: emit_files(make(), writer.put) for path, make, _key in api}
        return made, writer.stats.since(forked_at)
    return fork_result(work)


def start_keys_helper(jobs: list, keys):
    """Fork the process that works out the key of each of `jobs` (in their order) and what the next build can
    reuse of them (PageKeys.state); (pid, fd) for league.engine.workers.join_result, which returns (keys, state)."""
    from league.engine.cache import gc_paused
    from league.engine.incremental import job_keys
    from league.engine.workers import fork_result

    def work():
        with gc_paused():
            return job_keys(jobs), keys.get().state()
    return fork_result(work)



class _OutHelper:
    """A process forked to look at (or copy) the previous site in out/ while this one loads the content: started
    only when out/ has a manifest and there are two cores and fork; joined for its result or dropped."""

    def __init__(self, out):
        self.out = out
        self.process = None   # (pid, fd) until joined or dropped

    def _fork(self, work, when: bool = True) -> None:
        """Fork `work` (league.engine.workers.fork_result) if `when` and out/ has a manifest, two cores, fork."""
        import multiprocessing
        import os
        from league.engine.workers import fork_result
        from league.site.outdir import MANIFEST
        if when and (os.cpu_count() or 1) >= 2 and "fork" in multiprocessing.get_all_start_methods() \
                and os.path.isfile(os.path.join(self.out, MANIFEST)):
            self.process = fork_result(work)

    def join(self):
        """What `work` returned, or None: not started, or it failed."""
        from league.engine.workers import join_result
        process, self.process = self.process, None
        try:
            return join_result(*process) if process is not None else None
        except RuntimeError:
            return None

    def drop(self) -> None:
        """Stop it if it still runs."""
        from league.engine.workers import kill_worker
        process, self.process = self.process, None
        if process is not None:
            kill_worker(*process)


class SurveyHelper(_OutHelper):
    """The process that surveys the previous site in out/ (league.site.outdir.survey: is it whole, which files
    were put there by hand) while this one loads the content. On the 20-season archive the survey lists
    10,400 folders and 28,000 files (~0.27 s), which a one-score rebuild otherwise spends on its one busy core.
    `join()` is what SiteWriter.survey_source calls: (its manifest's inputs, its number of files, the Survey),
    or None (the writer then surveys out/ itself, and says what it could not read); `drop()` stops it if
    nobody asked."""

    def start(self) -> "SurveyHelper":
        import os
        from league.site.outdir import STAGING_IN_MOUNT, read_manifest, survey
        out = self.out

        def work():
            manifest = read_manifest(out)
            if manifest is None:
                return None
            skip = (STAGING_IN_MOUNT,) if os.path.ismount(out) else ()
            return manifest.inputs, len(manifest.files), survey(out, manifest.files, skip)
        self._fork(work)
        return self


class StagingHelper(_OutHelper):
    """The process that links the previous site's files into the new staging folder while the content loads,
    when there is no spare to stage into (league/site/writer.py): the first rebuild after a new site/ (a
    cold build, `make site`). On this machine's disk, the archive's 10,400 folders and 29,000 links cost such a
    rebuild ~1 s of kernel time on its one busy core; here they are made on the other, while the content loads
    and the pages are planned and rendered. `join()` is what the writer calls (SiteWriter's `prestaged`) when
    it publishes the site: the files linked (league.site.outdir.link_site), or None (the writer then looks);
    until then the build stages its files beside it. `drop(delete=True)` also deletes the
    folder when the build failed before a writer took it."""

    def __init__(self, out):
        super().__init__(out)
        self.staging = None

    def start(self) -> "StagingHelper":
        """Forked when out/ is not a mount point and has no spare beside it (and as _fork says)."""
        import os
        from pathlib import Path
        from league.site.outdir import link_site, read_manifest, spare_path, staging_path
        out = Path(os.path.abspath(self.out))
        staging = staging_path(out, os.getpid())

        def work():
            manifest = read_manifest(out)
            return link_site(str(out), str(staging), manifest.files if manifest else ())
        self._fork(work, when=not os.path.ismount(out) and not os.path.lexists(spare_path(out)))
        if self.process is not None:
            self.staging = staging
        return self

    def prestaged(self):
        """The writer's `prestaged` argument: join, when the process was started; else None."""
        return self.join if self.process is not None else None

    def drop(self, delete: bool = False) -> None:
        """Stop it if it still runs; with `delete`, delete the folder it linked into (no writer took it)."""
        import shutil
        super().drop()
        if delete and self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
