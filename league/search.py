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
(or `start_index_stubs`, in the background) runs pagefind over a tree of those stubs: the index is
byte-identical to the one made from the full pages. `stubs_digest` hashes the stubs, so the index only
needs rebuilding when the digest changes.

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

Order: pagefind numbers the pages in the order it finds them, i.e. the order the file system lists a
directory (it does not sort). ext4 lists names in an order fixed by the names and the file system (hash
order), whatever the order they were written in; tmpfs lists them newest first. So the stub tree must be
on the site's file system, where it lists like the full site: that is what makes the index byte-identical
to pagefind over the full site. A tree on another file system gives the same pages, words, excerpts and
meta under other page numbers, hence other index file names and bytes (and so does the full site itself,
copied to another file system).

Writing and deleting 10,000 small files costs seconds on a slow disk, so the tree can be kept between
builds (`tree_dir=`, e.g. in the build cache, on the same file system as the site): only the stubs that
changed are rewritten.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
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


def _failure(returncode: int, message: str) -> RuntimeError:
    return RuntimeError(f"pagefind falhou ({returncode}): {message.strip()}")


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


# ------------------------------------------------------------------------------- indexing stubs

def _write_tree(site: Path, files: list[tuple[str, str]]) -> None:
    for parent in sorted({rel.rpartition("/")[0] for rel, _ in files}):
        os.makedirs(os.path.join(site, parent), exist_ok=True)
    for rel, text in sorted(files):
        with open(os.path.join(site, rel), "w", encoding="utf-8") as fh:
            fh.write(text)


def _sync_tree(tree: Path, files: list[tuple[str, str]]) -> Path:
    """Brings the stub tree kept in `tree` (`tree/site/…`, listed in `tree/stubs.json`) up to date,
    writing only the stubs that changed and removing the ones gone; returns `tree/site`. Without a
    readable list (first run, a run interrupted while syncing) the tree is rewritten from scratch."""
    site, manifest = tree / "site", tree / "stubs.json"
    new = {rel: hashlib.sha1(text.encode("utf-8")).hexdigest() for rel, text in files}
    try:
        old = json.loads(manifest.read_text(encoding="utf-8"))
        manifest.unlink()  # until the tree matches a list again
        if not isinstance(old, dict):
            raise ValueError(manifest)
    except (OSError, ValueError):
        old = None
        shutil.rmtree(site, ignore_errors=True)
    if old is None:
        _write_tree(site, files)
    else:
        for rel in sorted(old.keys() - new.keys()):
            path = site / rel
            path.unlink(missing_ok=True)
            parent = path.parent
            while parent != site:  # and the folders left empty
                try:
                    parent.rmdir()
                except OSError:
                    break
                parent = parent.parent
        _write_tree(site, [(rel, text) for rel, text in files if old.get(rel) != new[rel]])
    tmp = tree / "stubs.json.tmp"
    tmp.write_text(json.dumps(new, sort_keys=True), encoding="utf-8")
    os.replace(tmp, manifest)
    return site


def _lock(tree: Path):
    """An exclusive lock on the kept tree (an open file), or None when another build holds it."""
    tree.mkdir(parents=True, exist_ok=True)
    fh = open(tree / ".lock", "w")  # noqa: SIM115 — held until wait()/cancel()
    try:
        import fcntl
    except ImportError:  # not POSIX: no locking
        return fh
    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        fh.close()
        return None
    return fh


def prepare_tree(tree: Path, rels) -> None:
    """A stub tree to be filled while pages are rendered (`write_stub`, from any process): every folder
    created here first, in sorted order, so that the order in which the file system lists them — the
    order pagefind numbers pages in (see Order above) — does not depend on which worker wrote first."""
    for parent in sorted({_relpath(rel).rpartition("/")[0] for rel in rels}):
        os.makedirs(os.path.join(tree, parent), exist_ok=True)


def write_stub(tree: Path, rel: str, text: str) -> None:
    with open(os.path.join(tree, _relpath(rel)), "w", encoding="utf-8") as fh:
        fh.write(text)


def remove_tree(tree: Path, trash: Path | None = None, background_over: int = 2000) -> None:
    """Deletes a stub tree; with `trash` (a free path on the same file system), one of more than
    `background_over` files is renamed there and deleted by a detached `rm -rf` (thousands of small
    files take seconds to unlink; nobody needs to wait for it)."""
    tree = Path(tree)
    if not tree.exists():
        return
    count = 0
    for _dirpath, _dirs, names in os.walk(tree):
        count += len(names)
        if count > background_over:
            break
    rm = shutil.which("rm")
    if count > background_over and rm and trash is not None:
        try:
            os.rename(tree, trash)
            subprocess.Popen([rm, "-rf", str(trash)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
            return
        except OSError:
            pass
    shutil.rmtree(tree, ignore_errors=True)


class StubIndexing:
    """pagefind running over a stub tree (see `start_index_stubs`). `wait()` waits for it, moves the
    index into place and removes the temporary files; `cancel()` stops it and removes them."""

    def __init__(self, stubs: Mapping[str, str] | None, dest: Path, quiet: bool = True,
                 tree_dir: str | os.PathLike | None = None, tree: Path | None = None,
                 trash: Path | None = None):
        self.dest = Path(dest)
        self._proc: subprocess.Popen | None = None
        self._result: bool | None = None
        self._log = None
        self._lock = None
        self._tmps: list[Path] = []
        self._owned_tree = Path(tree) if tree is not None else None
        self._trash = trash
        try:
            # pagefind's output, beside dest so that moving it into dest is a rename
            out = Path(tempfile.mkdtemp(prefix=f".{self.dest.name}.pagefind-", dir=self.dest.parent))
            self._tmps.append(out)
            self._index = out / "pagefind"
            # the stub tree, on the site's file system (see Order above): already written (`tree`, removed
            # afterwards), kept in tree_dir between builds when given (and not in use by another build),
            # else written beside dest and removed
            if tree is not None:
                site = Path(tree)
            elif tree_dir is not None:
                self._lock = _lock(Path(tree_dir))
            if tree is not None:
                pass
            elif self._lock is not None:
                site = _sync_tree(Path(tree_dir), [(_relpath(rel), text) for rel, text in stubs.items()])
            else:
                site = out / "site"
                _write_tree(site, [(_relpath(rel), text) for rel, text in stubs.items()])
            self._log = open(out / "pagefind.log", "w+b")  # noqa: SIM115 — read in wait()
            self._proc = subprocess.Popen(_command(site, quiet, self._index), stdout=self._log,
                                          stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        except BaseException:
            self._cleanup()
            raise

    def wait(self) -> bool:
        """Waits for pagefind, moves its index to `dest/pagefind` (replacing one already there) and
        returns True; raises RuntimeError with pagefind's message when it failed."""
        if self._result is not None:
            return self._result
        if self._proc is None:
            raise RuntimeError("indexação cancelada")
        try:
            code = self._proc.wait()
            if code != 0 or not self._index.is_dir():
                self._log.seek(0)
                raise _failure(code, self._log.read().decode("utf-8", "replace"))
            _drop_unused(self._index)
            target = self.dest / "pagefind"
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            elif target.exists() or target.is_symlink():
                target.unlink()
            shutil.move(str(self._index), str(target))  # a rename when both are on one file system
            self._result = True
            return True
        finally:
            self.cancel()  # interrupted (Ctrl-C) while pagefind runs: stop it before removing its files

    def cancel(self) -> None:
        """Stops pagefind (if still running) and removes the temporary files; `dest` is left alone."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        self._proc = None
        self._cleanup()

    def _cleanup(self) -> None:
        if self._log is not None and not self._log.closed:
            self._log.close()
        if self._lock is not None:
            self._lock.close()  # releases the kept tree
            self._lock = None
        for tmp in self._tmps:
            site = tmp / "site"
            if site.is_dir():
                remove_tree(site, self._trash)
            shutil.rmtree(tmp, ignore_errors=True)
        self._tmps = []
        if self._owned_tree is not None:
            remove_tree(self._owned_tree, self._trash)
            self._owned_tree = None

    def __enter__(self) -> StubIndexing:
        return self

    def __exit__(self, *exc) -> None:
        if exc[0] is not None:
            self.cancel()


class _NoIndexing:
    """What `start_index_stubs` returns when pagefind is not installed."""

    def wait(self) -> bool:
        return False

    def cancel(self) -> None:
        pass

    def __enter__(self) -> _NoIndexing:
        return self

    def __exit__(self, *exc) -> None:
        pass


def start_index_stubs(stubs: Mapping[str, str], dest: Path, quiet: bool = True,
                      tree_dir: str | os.PathLike | None = None, trash: Path | None = None
                      ) -> StubIndexing | _NoIndexing:
    """Writes the stubs (`{relative path: stub}`, e.g. `jogadores/x/index.html`) into a stub tree and
    starts pagefind on it; returns at once. The caller does other work, then calls `handle.wait()` (True
    once `dest/pagefind` is in place; False when pagefind is not installed, nothing done; RuntimeError
    with pagefind's message on failure) or `handle.cancel()`. Temporary files are removed either way.

    The tree is a temporary directory beside `dest` (`dest`'s parent must be writable), or, with
    `tree_dir`, a directory kept between builds where only changed stubs are rewritten (on the site's
    file system, see Order in the module's docstring; a tree in use by another build is not shared: that
    build gets a temporary one)."""
    if not available():
        return _NoIndexing()
    return StubIndexing(stubs, dest, quiet, tree_dir, trash=trash)


def start_index_tree(tree: Path, dest: Path, quiet: bool = True, trash: Path | None = None
                     ) -> StubIndexing | _NoIndexing:
    """Like `start_index_stubs`, over a stub tree already written (`prepare_tree`/`write_stub`), which is
    removed once pagefind is done (big trees in the background, see `remove_tree`)."""
    if not available():
        remove_tree(tree, trash)
        return _NoIndexing()
    return StubIndexing(None, dest, quiet, tree=tree, trash=trash)


def index_stubs(stubs: Mapping[str, str], dest: Path, quiet: bool = True,
                tree_dir: str | os.PathLike | None = None) -> bool:
    """Indexes the stubs (see `stub`) and puts the index in `dest/pagefind`: the same files, byte for byte,
    as `run_pagefind` over the full pages. False, doing nothing, when pagefind is not installed;
    RuntimeError with pagefind's message on failure. `tree_dir`: see `start_index_stubs`."""
    return start_index_stubs(stubs, dest, quiet, tree_dir).wait()
