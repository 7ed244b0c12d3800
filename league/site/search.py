"""Optional search index: pagefind (PyPI `pagefind[bin]`, offline) over the site's searchable pages.

Pages that carry `data-pagefind-body` (player, pair, club, team, stage and championship pages, see
render.SEARCH_KINDS) are indexed; `data-pagefind-ignore` keeps long match details out. The index goes to
`<site>/pagefind/`; league/templates/static/site.js loads `pagefind.js` from there on the search page only
(`/busca/`), which without JavaScript lists the player, club and season pages instead. pagefind's ready-made
UI bundles are left out: the site uses the small JS API through site.js, which keeps the search page light.

pagefind runs through its documented command line only (`pagefind --site … --output-path …`, the binary
`python -m pagefind` runs; https://pagefind.app/docs/config-options/), never its internal `--service`
protocol:

  - `run_pagefind(site)` indexes a written site in place (tests, the browser tests' sites);
  - the build indexes small stubs of its pages instead of the pages: `stub(html)` (league/site/stubs.py)
    cuts a page down to what pagefind reads from it (~1/20 of the bytes), and `start_index_stubs` writes
    the stubs, at the pages' paths, into a scratch folder that pagefind indexes in the background; its
    files come back in memory (the build writes them through its SiteWriter, so a rebuild rewrites only
    the files whose bytes changed), and the scratch folder is removed, whatever happens. `stubs_digest` hashes the stubs: the index needs making again only when it
    changes (a score is not in any stub).

Why not pagefind's Python API (`pagefind.index.PagefindIndex`, pagefind 1.5.2): its reader takes one reply
per 0.1 s (`asyncio.sleep(0.1)` before each: 100 `add_html_file` calls took 10.1 s), so adding the ~3,400
stubs of a 5-season archive one by one would take over 5 minutes; `get_files()` never returns when the
reply is over 2 MiB (its stream limit: the 5-season index's 1.3 MB come base64 in base64, 2.2 MB); a binary
that fails after reading a request leaves the call waiting forever, its message lost (its stderr is read
as replies). `add_directory` + `write_files` would need the same scratch folder as the command line, with
those risks on top.

Determinism: pagefind numbers the pages in the order it finds them in the folder, which is the order the
file system lists a directory (tmpfs: by creation; ext4: by a hash of the name, seeded per file system).
The stubs are written in the order of their paths into a new folder each time, always on the same kind of
file system (`_scratch_root`): the same content gives the same index, byte for byte, on the same machine.
Another file system may number the pages otherwise (other file names and bytes, the same search).
"""
from __future__ import annotations

import atexit
import importlib
import importlib.util
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import weakref
from collections.abc import Mapping
from pathlib import Path

from league.site.stubs import StubHash, _relpath, stub, stubs_digest, stubs_of_site  # noqa: F401 — also from here

# pagefind's own UI bundles, unused by the site (site.js talks to pagefind.js directly)
UNUSED = ("pagefind-ui.js", "pagefind-ui.css", "pagefind-component-ui.js", "pagefind-component-ui.css",
          "pagefind-modular-ui.js", "pagefind-modular-ui.css", "pagefind-highlight.js")


def available() -> bool:
    """True when the pagefind Python package (with its binary) is installed."""
    return importlib.util.find_spec("pagefind") is not None


def _command(site: Path, output: Path | None = None) -> list[str]:
    """pagefind's command line, with the binary `python -m pagefind` would run (no Python started to find
    it); what it prints is captured (no `--silent`: not every 1.x has it, 1.2 has not)."""
    exe = _executable()
    if exe is None:
        raise _failure(127, "o executável do pagefind não foi encontrado (pip install 'pagefind[bin]')")
    return [str(exe), "--site", str(site)] + (["--output-path", str(output)] if output is not None else [])


# pagefind's binary allocates with jemalloc (tikv-jemallocator: its settings are read from _RJEM_MALLOC_CONF),
# which by default zeroes a reused block of memory by handing its pages back to the kernel and taking fresh
# ones. `thp:always` makes it zero them with memset instead, `narenas:1` keeps one arena (pagefind indexes on
# one thread at a time) so freed memory is reused. It changes no output, only speed: over the stubs of the
# 5-season archive, pagefind --site took 0.97–1.20 s (sys 0.33–0.46) against 1.31–1.61 s (sys 0.65–0.81)
# without it, 4 alternating runs each. A value set by the user is kept; a pagefind without jemalloc ignores it.
JEMALLOC_CONF = "thp:always,narenas:1"


def _pagefind_env() -> dict:
    env = dict(os.environ)
    env.setdefault("_RJEM_MALLOC_CONF", JEMALLOC_CONF)
    return env


class SearchError(RuntimeError):
    """pagefind failed: the site is not written (the CLI says so, exit status 1)."""


def _failure(returncode: int, message: str) -> SearchError:
    lines = list(dict.fromkeys(line.rstrip() for line in message.strip().splitlines()))  # it says some twice
    return SearchError(f"pagefind falhou ({returncode}): {chr(10).join(lines).strip()[:2000] or 'sem mensagem'}")


def _drop_unused(index_dir: Path) -> None:
    for name in UNUSED:
        (index_dir / name).unlink(missing_ok=True)


def run_pagefind(out_dir: Path, quiet: bool = True) -> bool:
    """Index the built site in `out_dir` (writes `out_dir/pagefind/`). Returns False, doing nothing,
    when pagefind is not installed; raises SearchError with pagefind's message when it fails."""
    if not available():
        return False
    out_dir = Path(out_dir)
    proc = subprocess.run(_command(out_dir), stdout=subprocess.PIPE if quiet else None, stderr=subprocess.PIPE,
                          text=True, env=_pagefind_env())
    if proc.returncode != 0:
        raise _failure(proc.returncode, proc.stderr or proc.stdout)
    _drop_unused(out_dir / "pagefind")
    return True


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


SCRATCH_PREFIX = "league-search-"
_SHM = "/dev/shm"


def _scratch_root() -> str:
    """Where the stubs and pagefind's output live while it indexes: $TMPDIR when set, else /dev/shm (memory)
    when it is a writable folder of at least 1 GiB (not a container's 64 MiB), else the system's temporary
    folder. On a disk, creating and deleting the ~2 files a page costs: 5 seasons (3,347 stubs, 3,365 index
    files) took 3–5 s to write and 9–10 s to delete on this machine's ext4, 0.2–0.3 s each on tmpfs.
    The choice depends on the machine only, not on the build: see "Determinism" above."""
    if os.environ.get("TMPDIR"):
        return tempfile.gettempdir()
    try:
        if os.path.isdir(_SHM) and os.access(_SHM, os.W_OK | os.X_OK):
            st = os.statvfs(_SHM)
            if st.f_blocks * st.f_frsize >= 1 << 30:
                return _SHM
    except OSError:
        pass
    return tempfile.gettempdir()


def _write_stub(site: str, item: tuple[str, str], made: set) -> None:
    """Writes the stub `item` (path, text) under `site`, making its folder unless it is in `made`."""
    path = os.path.join(site, item[0])
    folder = os.path.dirname(path)
    if folder not in made:
        os.makedirs(folder, exist_ok=True)
        made.add(folder)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(item[1])


def _read_index(out: str) -> dict[str, bytes]:
    """The files pagefind wrote into `out`, {"pagefind/…": bytes}, without its UI bundles and playground."""
    files: dict[str, bytes] = {}
    for dirpath, dirnames, names in os.walk(out):
        dirnames[:] = sorted(d for d in dirnames if not (dirpath == out and d == "playground"))
        for name in sorted(names):
            if dirpath == out and name in UNUSED:
                continue
            path = os.path.join(dirpath, name)
            with open(path, "rb") as fh:
                files["pagefind/" + os.path.relpath(path, out).replace(os.sep, "/")] = fh.read()
    return files


def _remove(folder: str) -> None:
    """Deletes `folder` and all in it, by `rm -rf` where there is one, then shutil.rmtree for what is left (or
    when there is no `rm`). The scratch folder goes while the build writes the index into staging: in a
    thread of the build, shutil.rmtree needs the interpreter's lock between any two of its ~31,000 system
    calls, and so does the build's own loop, and each waits for the other. `rm` runs beside them. On the
    archive (/dev/shm): the deletion 0.33 s instead of 0.71, the index written into staging 0.18 s instead
    of 0.35–0.52, the build's end 0.36–0.79 s sooner (a /tmp script, two runs each)."""
    rm = shutil.which("rm") if os.name == "posix" else None
    if rm is not None:
        try:
            subprocess.run([rm, "-rf", "--", folder], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=False)
        except OSError:
            pass
    shutil.rmtree(folder, ignore_errors=True)


_live: weakref.WeakSet = weakref.WeakSet()   # the StubIndexing handles whose thread may still run


@atexit.register
def _clean_up() -> None:
    """At exit, every indexing still going is stopped and its scratch folder deleted (files() returns before
    that deletion ends: it goes on beside what the build does next)."""
    for handle in list(_live):
        handle.cancel()


class StubIndexing:
    """pagefind indexing stubs (see `start_index_stubs`), in a thread of its own: the stubs are written, in
    the order of their paths, into a new scratch folder as they come, pagefind's command line indexes them
    into a folder beside them once they are all in (`finish()`), and the index's files are read back into
    memory; the scratch folder is removed, whatever happens (after `files()` has returned, before `cancel()`
    or the end of the process returns). A stream (`stubs=None`) whose pages come out of path order is
    written again, sorted, at `finish()`: the same index, later. `files()` waits for it and returns the
    index's files; `wait()` writes them into `dest/pagefind`; `cancel()` stops pagefind and returns once
    the scratch folder is gone."""

    def __init__(self, stubs: Mapping[str, str] | None, dest: Path):
        self.dest = Path(dest)
        pages = None
        if stubs is not None:
            pages = sorted((_relpath(rel), text) for rel, text in stubs.items())   # ValueError before anything
            if not pages:
                raise _failure(1, "nenhuma página a indexar (nenhuma tem data-pagefind-body)")
        self._command = _command(Path("site"), Path("pagefind"))   # run in the scratch folder; no binary: said now
        self._queue: queue.SimpleQueue = queue.SimpleQueue()   # (path, stub)…, then None: finish()
        self._last: str | None = None   # the last path added
        self._ordered = True            # every path added after the one before it
        self._finished = False
        self._cancelled = False
        self._lock = threading.Lock()   # _cancelled and _proc, shared with the thread
        self._proc: subprocess.Popen | None = None
        self._files: dict[str, bytes] | None = None
        self._error: BaseException | None = None
        self._result: bool | None = None
        self._scratch: str | None = None   # the scratch folder, made by the thread with the first stub
        self._ready = threading.Event()   # the index's files read (or a failure): the scratch folder goes next
        self._thread = threading.Thread(target=self._run, name="pagefind", daemon=True)
        _live.add(self)
        self._thread.start()
        if pages is not None:
            for rel, text in pages:
                self._queue.put((rel, text))
            self._last = pages[-1][0]
            self.finish()

    def add(self, rel: str, text: str) -> None:
        """One more page (its stub) to index: written into the scratch folder in the background."""
        if self._finished:
            raise RuntimeError("add() depois de finish()")
        rel = _relpath(rel)
        if self._last is not None and rel <= self._last:
            self._ordered = False
        self._last = rel
        self._queue.put((rel, text))

    def finish(self) -> None:
        """No more pages: pagefind indexes them, in the background (`files()` waits for it)."""
        if not self._finished:
            self._finished = True
            self._queue.put(None)

    def _run(self) -> None:
        try:
            if self._receive():
                self._files = self._index()
        except SearchError as e:
            self._error = e
        except OSError as e:   # the scratch folder (a full /dev/shm…): TMPDIR names another
            self._error = _failure(1, f"{e} (pasta temporária: defina TMPDIR para usar outra)")
        except ValueError as e:
            self._error = _failure(1, str(e))
        except BaseException as e:  # noqa: BLE001 — handed to the caller of files()
            self._error = e
        finally:
            self._ready.set()   # files() returns while the scratch folder is deleted (~0.3 s for 5 seasons)
            if self._scratch is not None:
                _remove(self._scratch)

    def _receive(self) -> bool:
        """Writes the stubs into the scratch folder (made with the first) as they come, until `finish()`;
        written again in path order when they came out of it. False when cancelled meanwhile."""
        pages: list[tuple[str, str]] = []   # kept until pagefind starts: written again if out of order
        made: set[str] = set()
        while (item := self._queue.get()) is not None:
            if self._cancelled:
                return False
            if self._scratch is None:
                self._scratch = tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=_scratch_root())
            pages.append(item)
            _write_stub(os.path.join(self._scratch, "site"), item, made)
        if self._cancelled:
            return False
        if not pages:
            raise _failure(1, "nenhuma página a indexar (nenhuma tem data-pagefind-body)")
        if not self._ordered:   # pagefind numbers the pages in the order the folder lists them
            self._write_sorted(pages)
        return True

    def _write_sorted(self, pages: list[tuple[str, str]]) -> None:
        """The stubs written again, into a new site folder, in the order of their paths."""
        pages.sort()
        for (a, _), (b, _) in zip(pages, pages[1:]):
            if a == b:
                raise ValueError(f"página repetida: {a!r}")
        site = os.path.join(self._scratch, "site")
        shutil.rmtree(site)
        made: set[str] = set()
        for item in pages:
            _write_stub(site, item, made)

    def _index(self) -> dict[str, bytes] | None:
        """pagefind over the stubs of the scratch folder: the index's files; None when cancelled meanwhile."""
        with self._lock:
            if self._cancelled:
                return None
            # in the scratch folder: no pagefind.yml of the current folder applies
            self._proc = subprocess.Popen(self._command, cwd=self._scratch,
                                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, env=_pagefind_env())
        stdout, stderr = self._proc.communicate()
        if self._cancelled:
            return None
        if self._proc.returncode != 0:
            raise _failure(self._proc.returncode, (stderr or stdout).decode("utf-8", "replace"))
        files = _read_index(os.path.join(self._scratch, "pagefind"))
        if not files:
            raise _failure(1, "pagefind não escreveu o índice")
        return files

    def files(self) -> dict[str, bytes]:
        """Waits for pagefind and returns the index's files ({"pagefind/…": bytes}, without its UI
        bundles); raises SearchError with pagefind's message when it failed."""
        if self._files is not None:
            return self._files
        if self._cancelled:
            raise RuntimeError("indexação cancelada")
        self.finish()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        if self._cancelled or self._files is None:
            raise RuntimeError("indexação cancelada")
        return self._files

    def wait(self) -> bool:
        """Waits for pagefind and writes the index into `dest/pagefind` (replacing one already there,
        through a folder beside it and a rename); True, or SearchError with pagefind's message."""
        if self._result is not None:
            return self._result
        try:
            files = self.files()
        finally:
            self._thread.join()   # and the scratch folder deleted
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

    def cancel(self) -> None:
        """Stops pagefind (if still running) and returns once its scratch folder is gone: nothing is left
        (an index already made stays: `files()`)."""
        with self._lock:
            self._cancelled = True
            proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()
        self._finished = True
        self._queue.put(None)   # wakes the thread if it waits for more pages
        self._thread.join()

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


def start_index_stubs(stubs: Mapping[str, str] | None, dest: Path) -> StubIndexing | _NoIndexing:
    """Starts pagefind on the stubs (`{relative path: stub}`, e.g. `jogadores/x/index.html`; the index is
    the same whatever the mapping's order) and returns at once. `stubs=None`: a stream — the caller gives
    each page with `handle.add(path, stub)`, then `handle.finish()`. The caller does other work, then calls
    `handle.files()` (the index's files; {} when pagefind is not installed), `handle.wait()` (True once
    `dest/pagefind` is written; False when pagefind is not installed, nothing done) or `handle.cancel()`;
    SearchError with pagefind's message on failure."""
    if not available():
        return _NoIndexing()
    return StubIndexing(stubs, dest)


def index_stubs(stubs: Mapping[str, str], dest: Path) -> bool:
    """Indexes the stubs (see `stub`) and puts the index in `dest/pagefind`. False, doing nothing, when
    pagefind is not installed; SearchError with pagefind's message on failure."""
    return start_index_stubs(stubs, dest).wait()
