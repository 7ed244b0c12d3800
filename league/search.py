"""Optional search index: runs pagefind (PyPI `pagefind[bin]`, offline) over a written site.

Pages that carry `data-pagefind-body` (player, pair, club, team, stage and championship pages, see
render.SEARCH_KINDS) are indexed; `data-pagefind-ignore` keeps long match details out. The index goes to
`<site>/pagefind/`; templates/static/site.js loads `pagefind.js` from there on the search page only
(`/busca/`), which without JavaScript lists the player, club and season pages instead.

pagefind's output is deterministic: same pages, listed in the same order → byte-identical index. Its
ready-made UI bundles are removed: the site uses the small JS API through site.js, which keeps the search
page light.

Indexing the whole site (≈10,000 pages of ≈19 KB on a 20-season archive) mostly parses text pagefind then
throws away. `stub(html)` cuts a page down to what pagefind actually reads from it, and `index_stubs`
(or `start_index_stubs`, in the background) sends those stubs to pagefind's service (`pagefind
--service`, through its standard input) — as custom records when `record` can write what pagefind's
HTML parser would make of them (see "records" below), else as HTML: the index is byte-identical to the
one made from the full pages in the same order, and no stub is ever written to disk. `stubs_digest`
hashes the stubs, so the index only needs rebuilding when the digest changes.

What pagefind 1.x reads from one of our pages (pagefind/src/fossick/parser.rs, checked by experiment):
  - `<html lang>`, lower-cased: the index language (stemming, the `pt-br` file names);
  - the text of the `data-pagefind-body` elements and of the text nodes between them (whitespace
    normalised; `h1` gets an automatic weight), in order: the content, words and word positions;
  - `data-pagefind-meta` / `-filter` / `-sort` / `-default-meta` attributes (here `tipo:…` on `<main>`);
  - the text of the first non-empty `<h1>` as the `title` meta, `<title>` only when there is no `h1`;
  - the first `<img src>` after that `h1` (outside `data-pagefind-ignore="all"`) as the `image` and
    `image_alt` meta — on our pages that is a chart, whose alt text carries positions and points;
  - elements with an `id` inside a body (anchors), `<html>`'s presence, the file's path (the URL).
A page whose shape differs from the one the templates produce (a meta attribute elsewhere, an `h1`
before the body, an `id` inside the body…) gets itself as its stub: still identical, just not smaller.

Order: pagefind numbers the pages in the order it is given them. Its command line (`run_pagefind`) takes
them in the order the file system lists a directory (ext4: hash order, fixed per file system; tmpfs:
newest first), so the same site copied to another file system gets other page numbers, hence other index
file names and bytes. The build sends the stubs in the order of their paths instead: the same content
gives the same index on any file system, and no tree of 10,000 small files is written and deleted (on
this kind of machine, creating a file costs far more than writing its bytes, and creating files soon
after deleting thousands costs more again).
"""
from __future__ import annotations

import base64
import hashlib
import importlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from collections.abc import Mapping
from pathlib import Path

# pagefind's own UI bundles, unused by the site (site.js talks to pagefind.js directly)
UNUSED = ("pagefind-ui.js", "pagefind-ui.css", "pagefind-component-ui.js", "pagefind-component-ui.css",
          "pagefind-modular-ui.js", "pagefind-modular-ui.css", "pagefind-highlight.js")


def available() -> bool:
    """True when the pagefind Python package (with its binary) is installed."""
    return importlib.util.find_spec("pagefind") is not None


def _command(site: Path, quiet: bool, output: Path | None = None) -> list[str]:
    return ([sys.executable, "-m", "pagefind", "--site", str(site)] + (["--silent"] if quiet else [])
            + (["--output-path", str(output)] if output is not None else []))


class SearchError(RuntimeError):
    """pagefind failed: the site is not written (the CLI says so, exit status 1)."""


def _failure(returncode: int, message: str) -> SearchError:
    return SearchError(f"pagefind falhou ({returncode}): {message.strip()}")


def _drop_unused(index_dir: Path) -> None:
    for name in UNUSED:
        (index_dir / name).unlink(missing_ok=True)


def run_pagefind(out_dir: Path, quiet: bool = True) -> bool:
    """Index the built site in `out_dir` (writes `out_dir/pagefind/`). Returns False, doing nothing,
    when pagefind is not installed; raises RuntimeError with pagefind's message when it fails."""
    if not available():
        return False
    out_dir = Path(out_dir)
    proc = subprocess.run(_command(out_dir, quiet), capture_output=True, text=True)
    if proc.returncode != 0:
        raise _failure(proc.returncode, proc.stderr or proc.stdout)
    _drop_unused(out_dir / "pagefind")
    return True


# ------------------------------------------------------------------------------------------ stubs

_SPACE = " \t\n\r\f"
_BODY = "data-pagefind-body"
_TAG_NAME = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)")
_HTML_TAG = re.compile(r"<html(?=[\s>])[^>]*>", re.I)
_TITLE = re.compile(r"<title(?=[\s>])[^>]*>.*?</title\s*>", re.I | re.S)
_TAGS = re.compile(r"<[^>]*>")
_ID_ATTR = re.compile(r"<[A-Za-z][^>]*?\sid=", re.I)
_IGNORE_VALUE = re.compile(r"""\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*))""")
# the attributes whose values pagefind keeps wherever they are on the page
_DATA_ATTRS = ("data-pagefind-meta=", "data-pagefind-filter=", "data-pagefind-sort=",
               "data-pagefind-default-meta=")


def _in_tag(html: str, pos: int) -> bool:
    """Whether `pos` lies inside a start tag (the last `<` before it comes after the last `>`)."""
    return html.rfind("<", 0, pos) > html.rfind(">", 0, pos)


def _is_attr(html: str, pos: int, name: str) -> bool:
    """Whether the text `name` found at `pos` is that attribute of a tag (not words in the text)."""
    after = html[pos + len(name):pos + len(name) + 1]
    return html[pos - 1:pos] in _SPACE and (after == "" or after in _SPACE + "=/>") and _in_tag(html, pos)


def _element_end(html: str, start: int, name: str) -> int:
    """End (after `</name>`) of the element whose start tag begins at `start`; -1 when unclosed.
    Counts nested elements of the same name."""
    close = html.find(f"</{name}>", start)
    if close >= 0 and html.find(f"<{name}", start + 1, close) < 0:
        return close + len(name) + 3  # the usual case: nothing of the same name inside
    opener = re.compile(rf"<(/?){re.escape(name)}(?=[\s>/])[^>]*>", re.I)
    depth = 0
    for m in opener.finditer(html, start):
        if m.group(1):
            depth -= 1
            if depth == 0:
                return m.end()
        elif not m.group(0).endswith("/>"):
            depth += 1
    return -1


def _excluded(html: str, lo: int, pos: int) -> bool:
    """Whether `pos` lies in an element starting after `lo` that pagefind excludes entirely
    (`data-pagefind-ignore="all"`, or a value it does not know): an image there is not the page's."""
    i = html.find("data-pagefind-ignore", lo, pos)
    while i >= 0:
        if _is_attr(html, i, "data-pagefind-ignore"):
            v = _IGNORE_VALUE.match(html, i + 20)
            value = next((g for g in v.groups() if g is not None), "") if v else ""
            if value.lower() not in ("", "index", "true"):
                tag = html.rfind("<", 0, i)
                name = _TAG_NAME.match(html, tag)
                end = _element_end(html, tag, name.group(1)) if name else -1
                if end < 0 or end > pos:
                    return True
        i = html.find("data-pagefind-ignore", i + 20, pos)
    return False


def _first_image(html: str, after: int) -> tuple[int, int] | None:
    """Start and end of the first `<img src>` from `after` on that pagefind takes as the page's image.
    (Looks for `src=`, far rarer than `<`, then checks that it is an attribute of an `<img>`.)"""
    k = html.find("src=", after)
    while k >= 0:
        tag = html.rfind("<", after, k)
        if (tag >= 0 and html.startswith("<img", tag) and html[tag + 4:tag + 5] in _SPACE
                and html[k - 1:k] in _SPACE and html.find(">", tag, k) < 0
                and not _excluded(html, after, tag)):
            return tag, html.find(">", k) + 1
        k = html.find("src=", k + 4)
    return None


def stub(html: str) -> str | None:
    """The smallest page pagefind indexes exactly like `html` (same content and word positions, title,
    meta, image, language — hence a byte-identical index when written at the same path), or None when
    the page has no `data-pagefind-body` (pagefind skips it, since other pages have one)."""
    bodies: list[int] = []  # data-pagefind-body attributes
    attrs: list[int] = []  # data-pagefind-meta, -filter, -sort, -default-meta
    k = html.find("data-pagefind-")
    while k >= 0:
        if html.startswith(_BODY, k):
            if _is_attr(html, k, _BODY):
                bodies.append(k)
        elif html.startswith(_DATA_ATTRS, k):
            attrs.append(k)
        k = html.find("data-pagefind-", k + 14)
    if not bodies:
        return None
    first = html.rfind("<", 0, bodies[0])
    last = html.rfind("<", 0, bodies[-1])
    name = _TAG_NAME.match(html, last)
    end = _element_end(html, last, name.group(1)) if name else -1
    if (end < 0 or not html.startswith("<h1", first) or html.find("<h1", 0, first) >= 0
            or html.find("<H1", 0, first) >= 0):
        return html  # the title from an h1 outside the body, an unclosed body…: keep the whole page
    span = html[first:end]
    if _ID_ATTR.search(span):
        return html  # anchors: their numbering counts the ids before the body
    main = html.rfind("<main", 0, first)  # the body's <main>, with its data-pagefind-meta
    main_end = html.find(">", main) + 1
    if main < 0 or html[main + 5] not in _SPACE + ">" or html.find("</main", main, first) >= 0:
        main = main_end = -1
    h1_end = _element_end(html, first, "h1")
    if not _TAGS.sub("", html[first:h1_end]).strip():
        return html  # an empty h1 is no title: pagefind looks further (next h1, <title>)
    image = _first_image(html, h1_end)
    # every meta, filter and sort attribute must be in the stub, else keep the page
    kept = [(first, end), (main, main_end)] + ([image] if image else [])
    if not all(any(a <= k < b for a, b in kept) for k in attrs):
        return html
    html_tag = _HTML_TAG.search(html, 0, first)
    title = _TITLE.search(html, 0, first)
    return "".join((
        "<!doctype html>\n", html_tag.group(0) if html_tag else "<html>", "\n<head>\n",
        title.group(0) if title else "", "\n</head>\n<body>\n", html[main:main_end] if main >= 0 else "", span,
        html[image[0]:image[1]] if image and image[0] >= end else "",  # one in the body is already there
        "</main>" if main >= 0 else "", "\n</body>\n</html>\n"))


class StubHash(str):
    """The hash a previous build recorded of a page's stub (league.build._stub_hash), standing for the stub of
    a page rendered again with the very bytes of the file the previous site has: the same bytes have the same
    stub, so the build does not cut it out again (league.render._share). Where the text is needed (the index
    made again), it is read back from that file, as for a page kept unrendered."""

    __slots__ = ()


def stubs_digest(stubs: Mapping[str, str]) -> str:
    """sha256 of the (relative path, stub) pairs sorted by path: the index needs rebuilding only when it
    changes (a changed score outside the indexed text leaves it as it was)."""
    h = hashlib.sha256()
    for path in sorted(stubs, key=_relpath):
        rel = _relpath(path).encode("utf-8")
        text = stubs[path].encode("utf-8")
        h.update(len(rel).to_bytes(8, "big") + rel + len(text).to_bytes(8, "big") + text)
    return h.hexdigest()


def _relpath(path: str | os.PathLike) -> str:
    """`path` as a clean relative POSIX path ("jogadores/x/index.html"); ValueError for anything that
    could leave the tree (absolute, `..`) or has two spellings (`a//b`, `./a`)."""
    rel = os.fspath(path)
    if os.sep != "/":
        rel = rel.replace(os.sep, "/")
    parts = rel.split("/")
    if not rel or rel.startswith("/") or "" in parts or "." in parts or ".." in parts or ":" in parts[0]:
        raise ValueError(f"caminho de página inválido: {path!r}")
    return rel


def stubs_of_site(site: Path) -> dict[str, str]:
    """The stub of every indexed `.html` page of a written site, keyed by its path relative to `site`
    (a helper for tests and benchmarks; the build computes stubs from the pages it renders)."""
    site = Path(site)
    out: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(site):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".html"):
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8") as fh:
                    s = stub(fh.read())
                if s is not None:
                    out[Path(os.path.relpath(path, site)).as_posix()] = s
    return out


# ------------------------------------------------------------------------------------ records

# pagefind indexes a page sent as HTML (AddFile) by running its HTML parser over it (lol_html, with some forty
# element handlers set up for each page): ~130 µs of one core per page, whatever its size. A page sent as a
# custom record (AddRecord: url, language, meta, and the text pagefind's parser would have made of it, its
# "digest") skips the parser: ~70 µs. The stubs of our templates have one shape (`_RECORD_STUB`); for it,
# `record` writes the digest as pagefind's parser does (pagefind/src/fossick/parser.rs):
#   - only the data-pagefind-body elements count (their text replaces whatever came before them), with the
#     whitespace between them; the text is taken as written (entities as they are) and decoded at the end;
#   - an h1 or a p ("sentence" elements) gets a space before, a full stop after when its text ends with a
#     word character or one of ' " ) $ *, and a space; an h1 is then wrapped in the automatic weight
#     markers (" ___PAGEFIND_AUTO_WEIGHT___7 " … " ___END_PAGEFIND_WEIGHT___ ");
#   - meta: the data-pagefind-meta pair of <main>, and `title`, the first non-empty h1's text, decoded,
#     trimmed, with its runs of spaces and newlines made one space; the language is <html lang>, lower-cased.
# pagefind then treats the digest exactly as the one its parser made (word positions, weights, the excerpt
# text): the same index, byte for byte (tests/test_search_records.py, and the archive's 10,282 pages with
# pagefind 1.3.0, 1.4.0, 1.5.0 and 1.5.2 — 1.2.0 indexes a record otherwise). Anything the emulation is
# not sure of — another element or attribute, an image, an entity other than the five Jinja2 writes,
# whitespace other than spaces and newlines, a control character, a text ending in a character whose
# class Rust's regex and Python's might not agree on, another pagefind — goes as HTML, as before.

# the pagefind versions the records were checked against (the archive's index, byte for byte); another
# version, even a patch release, gets HTML until it is checked (the tests, and the archive's comparison)
RECORD_VERSIONS = frozenset({"1.3.0", "1.4.0", "1.5.0", "1.5.2"})

_RECORD_STUB = re.compile(
    r'<!doctype html>\n<html lang="([A-Za-z0-9-]+)">\n<head>\n(?:<title>[^<]*</title>)?\n</head>\n<body>\n'
    r'<main id="[A-Za-z0-9_-]*" data-pagefind-meta="([A-Za-z0-9_-]+):([^"&<>]*)">(.*)</main>\n</body>\n</html>\n\Z',
    re.S)
_RECORD_BODY = re.compile(
    r'<(h1|p)(?: class="[A-Za-z0-9 _-]*")? data-pagefind-body>'
    r'((?:[^<]|<(?:a|span)(?: (?:href|class)="[^"<>&]*")*>|</(?:a|span)>)*)</\1>')
_RECORD_UNSURE = re.compile(r"[^\S \n]|[\x00-\x09\x0b-\x1f\x7f-\x9f]|___|&(?!(?:amp|lt|gt|#34|#39);)")
_RECORD_ENTITY = re.compile(r"&(?:amp|lt|gt|#34|#39);")
_ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&#34;": '"', "&#39;": "'"}
_ASCII_SENTENCE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'\")$*")


def _decode(text: str) -> str:
    return _RECORD_ENTITY.sub(lambda m: _ENTITIES[m.group(0)], text) if "&" in text else text


def _ends_sentence(text: str) -> bool | None:
    """Whether pagefind adds a full stop after an element with this (raw) text: its last character matches
    its SENTENCE_CHARS, `[\\w'"\\)\\$\\*]` (Rust's \\w: letters, marks, digits, connectors); None when unsure."""
    if not text:
        return False
    c = text[-1]
    if c.isascii():
        return c in _ASCII_SENTENCE
    cat = unicodedata.category(c)
    if cat[0] == "L" or cat == "Nd":
        return True
    if cat in ("Pd", "Ps", "Pe", "Pi", "Pf", "Po"):
        return False
    return None


def record(rel: str, text: str) -> dict | None:
    """pagefind's AddRecord request indexing the stub `text` (at `rel`) exactly as its AddFile would, or
    None when the stub is not of the one shape whose digest this writes (see above)."""
    m = _RECORD_STUB.match(text)
    if m is None:
        return None
    lang, meta_key, meta_value, inner = m.groups()
    parts = []
    title = None
    pos = 0
    for el in _RECORD_BODY.finditer(inner):
        between = inner[pos:el.start()]
        if between.strip(" \n"):
            return None
        raw = el.group(2)
        if "<" in raw:
            raw = _TAGS.sub("", raw)
        if _RECORD_UNSURE.search(raw):
            return None
        stop = _ends_sentence(raw)
        if stop is None:
            return None
        value = f" {raw}{'.' if stop else ''} "
        if el.group(1) == "h1":
            if title is None and raw.strip(" \n"):
                title = " ".join(_decode(raw).split())
            value = f" ___PAGEFIND_AUTO_WEIGHT___7 {value} ___END_PAGEFIND_WEIGHT___ "
        parts.append(between)
        parts.append(value)
        pos = el.end()
    if title is None or inner[pos:].strip(" \n"):
        return None
    url = rel[:-10] if rel.endswith("/index.html") else "" if rel == "index.html" else rel
    meta = {"title": title}
    meta[meta_key] = meta_value   # a `title:` of its own wins over the h1's, as in pagefind
    return {"type": "AddRecord", "index_id": 0, "url": "/" + url, "content": _decode("".join(parts)),
            "language": lang.lower(), "meta": meta}


_VERSION = re.compile(r"pagefind(?:_extended)? (\d+\.\d+\.\d+)")
_takes_records: dict = {}


def takes_records(exe: Path) -> bool:
    """Whether the pagefind binary `exe` is one whose parser `record` writes like (RECORD_VERSIONS; its
    `--version`, asked once per binary: ~2 ms)."""
    key = identity_of(exe)
    if key not in _takes_records:
        try:
            out = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=10).stdout
        except (OSError, subprocess.SubprocessError):
            out = ""
        _takes_records[key] = version_takes_records(out)
    return _takes_records[key]


def version_takes_records(version_text: str) -> bool:
    """Whether `pagefind --version`'s answer names a version in RECORD_VERSIONS."""
    m = _VERSION.fullmatch(version_text.strip())
    return m is not None and m.group(1) in RECORD_VERSIONS


# ------------------------------------------------------------------------------- indexing stubs

def _executable() -> Path | None:
    """The pagefind binary of the `pagefind[bin]` package (or $PAGEFIND_BINARY_PATH, or one on PATH), found
    as pagefind.service.get_executable finds it — without importing that module, which imports asyncio
    (~10 ms of every build; tests/test_search_index.py checks both find the same binary)."""
    if not available():
        return None
    env = os.environ.get("PAGEFIND_BINARY_PATH")
    if env is not None:
        return Path(env)
    for package in ("pagefind_bin_extended", "pagefind_bin"):
        try:
            return importlib.import_module(package).get_executable()
        except ImportError:
            continue
    found = shutil.which("pagefind_extended") or shutil.which("pagefind")
    return Path(found) if found else None


def identity() -> tuple:
    """What identifies the pagefind that would index: its binary's path, size and modification time (an
    upgrade, or another $PAGEFIND_BINARY_PATH, may index differently)."""
    exe = _executable()
    return (None,) if exe is None else identity_of(exe)


def identity_of(exe: Path) -> tuple:
    """The binary `exe`'s path, size and modification time."""
    try:
        st = os.stat(exe)
    except OSError:
        return (str(exe),)
    return (str(exe), st.st_size, st.st_mtime_ns)


def _message(message_id: int, payload: dict) -> bytes:
    """One request of pagefind's service protocol: base64 of its JSON, ended by a comma."""
    return base64.b64encode(json.dumps({"message_id": message_id, "payload": payload},
                                       ensure_ascii=False).encode("utf-8")) + b","


# pagefind's binary allocates with jemalloc, which zeroes a reused block of memory by handing its pages
# back to the kernel (madvise) and taking fresh ones: ~185 KB per indexed page (its gzip state), ~415,000
# page faults on the 20-season archive. With `thp:always` it zeroes them with memset instead (45,000
# faults; the index is built ~0.4 s sooner, about +30 MB of memory). `narenas:1`: one arena instead of
# one per core's worth (pagefind indexes on one thread at a time), so freed memory is reused rather than
# spread over arenas: its peak ~105 MB instead of ~150 on the archive, as fast (9 alternating builds
# each: the process tree's peak PSS 305–373 MB against 338–400, wall and CPU the same). A value set by
# the user is kept.
JEMALLOC_CONF = "thp:always,narenas:1"


def _service_env() -> dict:
    env = dict(os.environ)
    env.setdefault("_RJEM_MALLOC_CONF", JEMALLOC_CONF)
    return env


class StubIndexing:
    """pagefind (`pagefind --service`) indexing the stubs sent to it through its standard input, in the
    order of their paths (see `start_index_stubs`), or in the order they are `add`ed (`stubs=None`: a
    stream, which the build feeds while it renders, then `finish()`es). `files()` waits for it and returns
    the index's files; `wait()` writes them into `dest/pagefind`; `cancel()` stops it.

    pagefind's service handles one message at a time, in the order received, and numbers the pages in
    that order; over the same pages in the same order it makes the same bytes as its command line
    (tests/test_search_stubs.py). The index is asked for in memory (GetFiles), not written by pagefind
    (its WriteFiles answers before its last writes have reached the files, and the service exits, losing
    them, as soon as its input ends): the caller writes the files, and a rebuild rewrites only the ones
    that changed."""

    def __init__(self, stubs: Mapping[str, str] | None, dest: Path, in_order: bool = False,
                 records: bool | None = None):
        import queue
        import threading
        self.dest = Path(dest)
        pages = None
        if stubs is not None:
            pages = [(_relpath(rel), text) for rel, text in stubs.items()]   # ValueError before anything
            if not in_order:
                pages.sort()
            if not pages:
                raise _failure(1, "nenhuma página a indexar (nenhuma tem data-pagefind-body)")
        self._proc: subprocess.Popen | None = None
        self._files: dict[str, bytes] | None = None
        self._result: bool | None = None
        self._failed: str | None = None
        self._log = None
        self._added = 0
        self._batch: list[bytes] = []
        self._last: int | None = None   # the GetFiles request (finish()): its reply is the index
        exe = _executable()
        if exe is None:
            raise _failure(127, "o executável do pagefind não foi encontrado (pip install 'pagefind[bin]')")
        # the stubs as records (see `record`) when this pagefind parses pages as `record` writes them
        self._records = takes_records(exe) if records is None else records
        try:
            self._log = tempfile.TemporaryFile()  # noqa: SIM115 — pagefind's messages, read on failure
            # unbuffered: the writer thread blocked on a full pipe holds no lock that closing it would wait for
            self._proc = subprocess.Popen([str(exe), "--service"], cwd=self.dest, stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=self._log, bufsize=0, env=_service_env())
            from league.workers import widen_pipe
            widen_pipe(self._proc.stdout.fileno())   # see _read
            self._queue: queue.SimpleQueue = queue.SimpleQueue()
            self._reader = threading.Thread(target=self._read, daemon=True)
            self._reader.start()
            self._writer = threading.Thread(target=self._write, daemon=True)
            self._writer.start()
            self._queue.put(_message(0, {"type": "NewIndex", "config": None}))
            if pages is not None:
                self._queue.put(b"".join(self._request(rel, text) for rel, text in pages))
                self.finish()
        except BaseException:
            self.cancel()
            raise

    def _request(self, rel: str, text: str) -> bytes:
        self._added += 1
        payload = record(rel, text) if self._records else None
        if payload is None:
            payload = {"type": "AddFile", "index_id": 0, "file_path": rel, "file_contents": text}
        return _message(self._added, payload)

    BATCH = 64   # pages sent together: fewer wake-ups of the writer thread, which competes for the GIL

    def add(self, rel: str, text: str) -> None:
        """Send one more page (its stub) to pagefind; it indexes it while the caller goes on."""
        if self._last is not None:
            raise RuntimeError("add() depois de finish()")
        self._batch.append(self._request(_relpath(rel), text))
        if len(self._batch) >= self.BATCH:
            self._queue.put(b"".join(self._batch))
            self._batch.clear()

    def finish(self) -> None:
        """No more pages: pagefind builds the index (`files()` waits for it)."""
        if self._last is not None:
            return
        if self._added == 0:
            self._failed = "nenhuma página a indexar (nenhuma tem data-pagefind-body)"
        self._last = self._added + 1
        self._batch.append(_message(self._last, {"type": "GetFiles", "index_id": 0}))
        self._queue.put(b"".join(self._batch))
        self._batch.clear()
        self._queue.put(None)

    def _write(self) -> None:
        """Writes the queued requests to pagefind's input, as they come, until finish()'s end mark."""
        stdin = self._proc.stdin
        try:
            while True:
                data = self._queue.get()
                if data is None:
                    return
                view = memoryview(data)
                while view:
                    view = view[stdin.write(view):]
        except (OSError, ValueError, AttributeError):   # pagefind died (its reason is in the log), or cancelled
            pass

    def _read(self) -> None:
        """Collects the replies until the last request's (the index), or the first error."""
        import time
        stdout = self._proc.stdout
        parts: list[bytes] = []   # the reply being read (the index is one big reply: no quadratic joins)
        # the index comes in one reply of ~5 MB: read it in big pieces, as fast as they come — pagefind
        # waits while the pipe is full, and this thread needs the GIL after each read while the build's
        # main thread is busy (with 64 KiB reads from a 64 KiB pipe, ~0.4 s later on the archive)
        from league.workers import PIPE_SIZE
        buf = bytearray(PIPE_SIZE)
        view = memoryview(buf)
        while True:
            if self._last is None:   # pagefind answers every page: read its answers in bunches (fewer wake-ups)
                time.sleep(0.02)
            try:   # into one buffer: a read of up to 1 MiB (what the pipe holds) allocates only what came
                n = stdout.readinto(buf)
                chunk = bytes(view[:n]) if n else b""
            except (OSError, ValueError):   # cancelled
                chunk = b""
            if not chunk:
                self._failed = self._failed or "pagefind terminou antes de entregar o índice"
                return
            start = 0
            while (comma := chunk.find(b",", start)) >= 0:
                parts.append(chunk[start:comma])
                raw = base64.b64decode(b"".join(parts))
                parts = []
                start = comma + 1
                if b'"type":"IndexedFile"' in raw:   # a page indexed (nothing to read: not decoded, 3 µs each)
                    continue
                reply = json.loads(raw)
                payload = reply.get("payload") or {}
                if payload.get("type") == "Error":
                    self._failed = f"{payload.get('message')} ({payload.get('original_message') or ''})"[:500]
                    return
                if self._last is not None and reply.get("message_id") == self._last:
                    self._files = {f"pagefind/{_relpath(f['path'])}": base64.b64decode(f["content"])
                                   for f in payload.get("files", [])
                                   if f["path"] not in UNUSED and not f["path"].startswith("playground/")}
                    return
            parts.append(chunk[start:])

    def files(self) -> dict[str, bytes]:
        """Waits for pagefind and returns the index's files ({"pagefind/…": bytes}, without its UI
        bundles); raises RuntimeError with pagefind's message when it failed."""
        if self._files is not None and self._proc is None:
            return self._files
        if self._proc is None:
            raise RuntimeError("indexação cancelada")
        self.finish()
        try:
            self._reader.join()
            if self._failed or not self._files:
                code = self._stop(graceful=False)
                self._log.seek(0)
                raise _failure(code or 1, f"{self._failed or 'índice vazio'} {self._log.read().decode('utf-8', 'replace')}")
            return self._files
        finally:
            self.cancel()  # the service ends at the end of its input; interrupted (Ctrl-C): stopped

    def wait(self) -> bool:
        """Waits for pagefind and writes the index into `dest/pagefind` (replacing one already there,
        through a folder beside it and a rename); True, or RuntimeError with pagefind's message."""
        if self._result is not None:
            return self._result
        files = self.files()
        tmp = Path(tempfile.mkdtemp(prefix=f".{self.dest.name}.pagefind-", dir=self.dest.parent))
        try:
            for rel, data in sorted(files.items()):
                path = tmp / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            target = self.dest / "pagefind"
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            elif target.exists() or target.is_symlink():
                target.unlink()
            os.replace(tmp / "pagefind", target)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        self._result = True
        return True

    def _stop(self, graceful: bool = True) -> int | None:
        """Ends pagefind and returns its exit status (None when it had ended already by our doing): its
        service stops at the end of its input, closed here once it has answered everything (`graceful`);
        otherwise (a failure, a cancelled build), or when it does not stop, it is killed."""
        proc, self._proc = self._proc, None
        if proc is None:
            return None
        killed = False
        if not graceful and proc.poll() is None:
            try:   # it may be ending by itself (its output has just closed): its status says why
                proc.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                proc.kill()
                killed = True
        try:
            proc.stdin.close()
        except OSError:   # it died with our requests unread
            pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        return None if killed else proc.returncode

    def cancel(self) -> None:
        """Stops pagefind (if still running); nothing is left behind."""
        self._stop(graceful=self._files is not None)
        if self._log is not None and not self._log.closed:
            self._log.close()

    def __enter__(self) -> StubIndexing:
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is not None:
            self.cancel()


class _NoIndexing:
    """What `start_index_stubs` returns when pagefind is not installed."""

    def files(self) -> dict[str, bytes]:
        return {}

    def wait(self) -> bool:
        return False

    def add(self, rel: str, text: str) -> None:
        pass

    def finish(self) -> None:
        pass

    def cancel(self) -> None:
        pass

    def __enter__(self) -> _NoIndexing:
        return self

    def __exit__(self, *exc) -> None:
        pass


def start_index_stubs(stubs: Mapping[str, str] | None, dest: Path, in_order: bool = False,
                      records: bool | None = None) -> StubIndexing | _NoIndexing:
    """Starts pagefind on the stubs (`{relative path: stub}`, e.g. `jogadores/x/index.html`), sent in the
    order of their paths (`in_order`: in the mapping's own order), and returns at once. `stubs=None`: a
    stream — the caller sends each page with `handle.add(path, stub)`, in the order it wants, then
    `handle.finish()`. The caller does
    other work, then calls `handle.files()` (the index's files; {} when pagefind is not installed),
    `handle.wait()` (True once `dest/pagefind` is written; False when pagefind is not installed, nothing
    done) or `handle.cancel()`; RuntimeError with pagefind's message on failure. `records`: send the stubs
    that allow it as records (see `record`; None: when this pagefind's version allows it), or all as HTML."""
    if not available():
        return _NoIndexing()
    return StubIndexing(stubs, dest, in_order, records)


def index_stubs(stubs: Mapping[str, str], dest: Path, in_order: bool = False, records: bool | None = None) -> bool:
    """Indexes the stubs (see `stub`) and puts the index in `dest/pagefind`: the same files, byte for byte,
    as pagefind over the full pages in the same order. False, doing nothing, when pagefind is not
    installed; RuntimeError with pagefind's message on failure."""
    return start_index_stubs(stubs, dest, in_order, records).wait()
