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
    from league.i18n import using
    from league.render import render_site
    with using(results.league.locale):  # interface text, dates and numbers in league.yaml's `locale:`
        files.update(render_site(results, templates, draft=draft))
    return files


SEARCH_DIGEST = ".pagefind-digest"


def _searchable_digest(site: Path) -> str:
    """Hash of everything pagefind indexes: the text of every data-pagefind-body element and every
    data-pagefind-meta, page by page (names, dates, places — not scores)."""
    import hashlib
    import os
    import re
    body = re.compile(r"<(\w+)[^>]*\sdata-pagefind-body[^>]*>(.*?)</\1>", re.S)
    meta = re.compile(r'data-pagefind-meta="([^"]*)"')
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(site):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith(".html"):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            if "data-pagefind-body" not in text:
                continue
            h.update(os.path.relpath(path, site).encode() + b"\0")
            for _, inner in body.findall(text):
                h.update(inner.encode() + b"\0")
            for m in meta.findall(text):
                h.update(m.encode() + b"\0")
    return h.hexdigest()


def _search_index(new: Path, previous: Path | None, stats) -> None:
    """The pagefind index of the new site: reused (hard links) when the indexed text of every page is the
    same as in the previous site (a changed score does not change it), else rebuilt."""
    import os
    import shutil
    from league.search import run_pagefind
    digest = _searchable_digest(new)
    old_index = previous / "pagefind" if previous is not None else None
    try:
        old_digest = (previous / SEARCH_DIGEST).read_text(encoding="utf-8") if previous is not None else None
    except OSError:
        old_digest = None
    if old_digest == digest and old_index is not None and old_index.is_dir():
        shutil.copytree(old_index, new / "pagefind", copy_function=os.link)
    elif not run_pagefind(new):
        return
    (new / SEARCH_DIGEST).write_text(digest, encoding="utf-8")


def build(content: Path, out: Path, strict: bool = False, templates: Path | None = None,
          draft: bool = False, cache_dir: Path | None | bool = None, search: bool = True,
          progress=None, skip_unchanged: bool = False) -> BuildReport:
    """Check, render in memory, then write beside out/ and swap. `draft` marks every page as a preview
    (banner, noindex, robots Disallow) for pull-request deploy previews. `progress(phase, done, total)`
    is told how far the build got (the CLI draws a bar on a terminal)."""
    """Check, render in memory, then write beside out/ and swap. `draft` marks every page as a preview
    (banner, noindex, robots Disallow) for pull-request deploy previews."""
    import time
    started = time.perf_counter()
    if skip_unchanged and cache_dir is not False:
        noop = _unchanged_build(content, out, templates, cache_dir, (strict, draft, search))
        if noop is not None:
            noop.seconds = time.perf_counter() - started
            return noop
    report = check(content, strict, cache_dir)
    if progress:
        progress("gerando páginas", 0, 0)
    files = render_files(report.results, templates, draft=draft)
    from league.writer import write_site
    if progress:
        progress("escrevendo", 0, len(files))
    stats = write_site(files, out, finish=_search_index if search else None,
                       progress=(lambda i: progress("escrevendo", i, len(files))) if progress else None)
    report.files, report.written, report.unchanged = stats.total, stats.written, stats.unchanged
    report.seconds = time.perf_counter() - started
    if cache_dir is not False:
        _record_build(content, out, templates, cache_dir, (strict, draft, search), report)
    return report


# ---------------------------------------------------------------- no-op detection

def _stamp(content: Path, templates: Path | None, flags) -> str:
    """Hash of every input of a build: content and template files (path and bytes), league's code, flags."""
    import hashlib
    import os
    from league.cache import code_version
    from league.render import default_templates
    h = hashlib.sha256(code_version().encode())
    h.update(repr(flags).encode())
    for root in (Path(content), Path(templates) if templates else default_templates()):
        root = root.resolve()
        h.update(str(root).encode())
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for name in sorted(filenames):
                p = os.path.join(dirpath, name)
                h.update(os.path.relpath(p, root).encode() + b"\0")
                try:
                    with open(p, "rb") as fh:
                        h.update(fh.read())
                except OSError:
                    h.update(b"?")
    return h.hexdigest()


def _record_key(out: Path) -> str:
    from league.cache import digest
    return digest("last-build", str(Path(out).resolve()))


def _unchanged_build(content, out, templates, cache_dir, flags) -> BuildReport | None:
    """The previous report when nothing the build reads has changed and out/ is the folder it wrote."""
    from league.cache import Cache, default_dir
    cache = Cache(cache_dir or default_dir(content))
    rec = cache.get(_record_key(out))
    if not rec:
        return None
    try:
        st = Path(out).resolve().stat()
    except OSError:
        return None
    if (st.st_ino, st.st_dev) != rec["folder"] or rec["stamp"] != _stamp(content, templates, flags):
        return None
    return BuildReport(results=None, diagnostics=rec["diagnostics"], files=rec["files"], written=0,
                       unchanged=rec["files"])


def _record_build(content, out, templates, cache_dir, flags, report: BuildReport) -> None:
    from league.cache import Cache, default_dir
    cache = Cache(cache_dir or default_dir(content))
    st = Path(out).resolve().stat()
    cache.put(_record_key(out), {"stamp": _stamp(content, templates, flags), "folder": (st.st_ino, st.st_dev),
                                 "diagnostics": report.diagnostics, "files": report.files})
