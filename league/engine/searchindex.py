"""A build's search index (pagefind over the searchable pages' stubs, league.site.search): fed the stubs as
the pages are rendered, in path order (StubOrder), on a first build; reused as it is when no page's indexed
text changed (from the previous site, or from the last index kept in the cache); otherwise made again once
every page is rendered, the stubs of the pages kept as they were read back from their files."""
from __future__ import annotations

import os

from league.engine.shapes import RelPath

SEARCH_DIGEST = ".pagefind-digest"
SEARCH_CACHE = "search-index"

# the last search index in the cache: (the stubs' digest, {path under out/: bytes}), league.engine.shapes.fits
SEARCH_ENTRY = (str, {RelPath: bytes})


def stub_hash(text: str | None) -> str | None:
    """The hash a build records of a page's stub (a league.site.search.StubHash is one already: returned as a str)."""
    import hashlib
    from league.site.search import StubHash
    if text is None:
        return None
    if type(text) is StubHash:
        return str(text)
    return hashlib.blake2b(text.encode("utf-8"), digest_size=12).hexdigest()


def _is_hash(path: str, stub, kept) -> bool:
    """Whether meta's stub of `path` is a hash (a page kept unrendered, or rendered to the previous site's
    bytes: league.site.search.StubHash), not the text."""
    from league.site.search import StubHash
    return path in kept or type(stub) is StubHash


def stub_code() -> str:
    """What the stubs' hashes in a build's record were made by (league's code): a later build reuses them for
    pages rendered to the same bytes only when it is the same league (another could cut other stubs)."""
    from league.engine.cache import code_version
    return code_version()


def _search_cache_key() -> str:
    """Cache key of the last search index made: league's code and the pagefind binary (path, size, time)."""
    from league.site import search as S
    from league.engine.cache import code_version, digest
    return digest(SEARCH_CACHE, code_version(), S.identity())


def start_search_index(writer, meta: dict, kept: set, search: bool, cache=None, streamed=None):
    """Start the search index of the new site (pagefind over the pages' searchable text, in the
    background); None when it can be reused as it is: the indexed text of every page (names, dates,
    places — not scores) is the same as in the previous site, or as in the last index kept in `cache`
    (a whole site built again from a warm cache: its files are written from there). `meta`: {page: (key,
    charts, stub)}, where the stub is the text for pages rendered now and its hash for pages kept from the
    previous site. `streamed`: pagefind already indexing the stubs, sent as the pages were rendered (see
    StubOrder). Returns (a handle whose files() is the index, its digest, cache)."""
    from league.site import search as S
    if not search or not S.available():
        return None
    digest = _stubs_digest(meta, kept)
    if streamed is not None:
        return streamed, digest, cache
    if _reuse_previous_index(writer, digest, cache) or _reuse_cached_index(writer, digest, cache):
        return None
    # the index changes (or there is none): made again from every stub
    return S.start_index_stubs(_stubs(writer, meta, kept), writer.staging), digest, cache


def _stubs_digest(meta: dict, kept) -> str:
    """The digest of every page's indexed text (by its stub's hash), in path order."""
    import hashlib
    h = hashlib.sha256()
    for path in sorted(meta):
        stub = meta[path][2]
        if stub is not None:
            h.update(f"{path}\0{stub if _is_hash(path, stub, kept) else stub_hash(stub)}\0".encode("utf-8"))
    return h.hexdigest()


def _previous_digest(prev) -> str | None:
    try:
        return (prev / SEARCH_DIGEST).read_text(encoding="utf-8")
    except OSError:
        return None


def _reuse_previous_index(writer, digest: str, cache) -> bool:
    """Keep the previous site's index when it indexed the same text (whether it did: kept)."""
    prev = writer.previous
    if prev is None or _previous_digest(prev) != digest or not (prev / "pagefind").is_dir():
        return False
    kept_files = []
    for dirpath, _dirs, names in os.walk(prev / "pagefind"):
        rel_dir = os.path.relpath(dirpath, prev).replace(os.sep, "/")
        kept_files += [f"{rel_dir}/{n}" for n in names]
    writer.keep(sorted(kept_files))
    writer.put(SEARCH_DIGEST, digest)
    if cache is not None:   # the cached index is this one still: used (kept by Cache.prune)
        cache.touch(_search_cache_key())
    return True


def _reuse_cached_index(writer, digest: str, cache) -> bool:
    """Write the index kept in the cache when it indexed the same text (whether it did: written)."""
    last = cache.get(_search_cache_key(), SEARCH_ENTRY) if cache is not None else None
    if last is None or last[0] != digest:
        return False
    for rel, data in sorted(last[1].items()):
        writer.put(rel, data)
    writer.put(SEARCH_DIGEST, digest)
    return True


def _stubs(writer, meta: dict, kept) -> dict:
    """{page: its stub's text}: the stubs of the kept pages (and of those rendered to the same bytes) are read
    back from their files in site/."""
    from league.site import search as S
    stubs = {}
    for path, m in meta.items():
        if m[2] is None:
            continue
        if not _is_hash(path, m[2], kept):
            stubs[path] = m[2]
            continue
        with open(os.path.join(writer.out, path), encoding="utf-8") as fh:
            text = S.stub(fh.read())
        if text is not None:
            stubs[path] = text
    return stubs


def finish_search_index(writer, started) -> None:
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


def index_reusable(writer, cache) -> bool:
    """Whether the search index might be reused rather than made again (see start_search_index): the previous
    site has one, or the cache keeps one. If not, the pages' stubs go to pagefind as they are rendered."""
    prev = writer.previous
    if prev is not None and (prev / SEARCH_DIGEST).is_file():
        return True
    return cache is not None and cache.has(_search_cache_key())


_SEARCH_KINDS = None   # league.site.render.SEARCH_KINDS, imported at the first job_order (not on the no-op path)


def job_order(job) -> tuple:
    """The order of a build's jobs: the pages pagefind indexes (render.SEARCH_KINDS) by path, then the other
    pages by path, then the API files. pagefind is done with its pages once the last searchable one is
    rendered, and builds the index while the others (season pages, lists: ~0.25 s of work on the archive)
    are rendered beside it."""
    global _SEARCH_KINDS
    if _SEARCH_KINDS is None:
        from league.site.render import SEARCH_KINDS
        _SEARCH_KINDS = SEARCH_KINDS
    return job.template is None, job.template not in _SEARCH_KINDS, job.path


class StubOrder:
    """Hands the rendered pages' search stubs to pagefind in the order of their paths, whichever process
    rendered them and whenever: page job i (the searchable pages come first, sorted by path, see
    job_order) waits for the pages before it. pagefind is told there are no more pages as soon as the
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
