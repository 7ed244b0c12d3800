"""The one orchestrator: load → validate → compute → render → write. Nothing is written unless all succeeds."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from league.api import api_files
from league.compute import Results, compute
from league.errors import Diagnostic, LeagueError, SourceMark
from league.loader import Loader


@dataclass
class BuildReport:
    results: Results
    diagnostics: list[Diagnostic]
    files: int = 0
    written: int = 0
    unchanged: int = 0
    seconds: float = 0.0


def check(content: Path, strict: bool = False, cache_dir: Path | None | bool = None) -> BuildReport:
    """Validate and compute everything; raise LeagueError listing every problem. Writes nothing but
    the cache (cache_dir None = the default next to content/, False = no cache)."""
    from league.cache import Cache, default_dir
    cache = None if cache_dir is False else Cache(cache_dir or default_dir(content))
    loader = Loader(Path(content), cache)
    league = loader.load()
    if loader.diags.errors:
        raise LeagueError(loader.diags.sorted())
    results = compute(league, loader.diags, cache)
    if cache is not None:
        for w in cache.warnings:
            loader.diags.warning(SourceMark(str(cache.dir or "cache")), w, code="cache")
    diags = loader.diags.sorted()
    if loader.diags.errors or (strict and diags):
        if strict:
            diags = [Diagnostic(d.mark, d.message, d.hint, "error", d.code) for d in diags]
        raise LeagueError(diags)
    return BuildReport(results, diags)


def render_files(results: Results, templates: Path | None = None, draft: bool = False) -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {}
    files.update(api_files(results))
    from league.render import render_site
    files.update(render_site(results, templates, draft=draft))
    return files


def _search_index(new: Path, previous: Path | None, stats) -> None:
    """The pagefind index of the new site: reused (hard links) when no page changed, else rebuilt."""
    import os
    import shutil
    from league.search import run_pagefind
    old_index = previous / "pagefind" if previous is not None else None
    if stats.pages_written == 0 and old_index is not None and old_index.is_dir():
        shutil.copytree(old_index, new / "pagefind", copy_function=os.link)
        return
    run_pagefind(new)


def build(content: Path, out: Path, strict: bool = False, templates: Path | None = None,
          draft: bool = False, cache_dir: Path | None | bool = None, search: bool = True) -> BuildReport:
    """Check, render in memory, then write beside out/ and swap. `draft` marks every page as a preview
    (banner, noindex, robots Disallow) for pull-request deploy previews."""
    import time
    started = time.perf_counter()
    report = check(content, strict, cache_dir)
    files = render_files(report.results, templates, draft=draft)
    from league.writer import write_site
    stats = write_site(files, out, finish=_search_index if search else None)
    report.files, report.written, report.unchanged = stats.total, stats.written, stats.unchanged
    report.seconds = time.perf_counter() - started
    return report
