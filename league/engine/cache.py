"""A build cache outside site/: parsed, validated and computed stages keyed by the hash of everything
they depend on (file bytes, the files they reference, the settings, league's own code), so an
unchanged stage is never parsed or ranked twice. Safe to delete; a corrupted entry is ignored with a
warning, never trusted.

The folder is restored between builds on CI and Netlify, so its bytes are input like any other: an entry is
plain data (league/engine/codec.py: no pickle, nothing that runs), stored with the sha256 of its key and bytes; one
whose digest, decoding or shape (what its reader expects) is wrong is deleted and made again."""
from __future__ import annotations

import errno
import gc
import hashlib
import os
import stat
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Optional

from league import __version__

_CODE: Optional[str] = None
FORMAT = 2   # 1: pickles (*.pkl, never read now: deleted by the next build's prune)
MAGIC = b"league-cache 2\n"
SUFFIX = ".entry"
# an entry that no build has read or written for this long is deleted by the next build (Cache.prune)
UNUSED_FOR = 24 * 3600


def code_version() -> str:
    """Hash of league's version and source (with the translation catalogs, league/locale/*/LC_MESSAGES/*.po,
    which change the pages), so a new league (or a local edit) invalidates every entry."""
    global _CODE
    if _CODE is None:
        h = hashlib.sha256(f"{__version__}:{FORMAT}".encode())
        root = Path(__file__).resolve().parent.parent   # league/
        for p in sorted([*root.rglob("*.py"), *root.rglob("*.po")]):
            h.update(p.relative_to(root).as_posix().encode())
            h.update(p.read_bytes())
        _CODE = h.hexdigest()
    return _CODE


@contextmanager
def gc_paused():
    """No cyclic garbage collection inside: loading allocates millions of long-lived objects (parsed YAML,
    unpickled stages) and the collector would otherwise walk the growing heap again and again (on the
    20-season archive, more than half of the load time). The loaded content holds no reference cycles, so
    plain reference counting frees it. At the end what was allocated is frozen (gc.freeze: the collector
    leaves it alone; a later gc.unfreeze, as the parallel renderer does, hands it back), so the collector
    does not pay the skipped scans at once either; then it is switched back on, if it was on."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
            gc.enable()


def digest(*parts: Any) -> str:
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, bytes):
            h.update(part)
        else:
            h.update(repr(part).encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()


def default_dir(content: Path) -> Path:
    env = os.environ.get("LEAGUE_CACHE_DIR")
    if env:
        return Path(env)
    return Path(content).resolve().parent / ".league-cache"


class Cache:
    """Entries under dir/<aa>/<key>.entry: MAGIC, the sha256 of the key and the payload, the payload (the value's
    bytes, league.engine.codec). Writes are atomic (temp file + rename)."""

    def __init__(self, directory: Optional[Path]):
        self.dir = Path(directory) if directory else None
        self.warnings: list[str] = []
        self.hits = 0
        self.misses = 0

    def _path(self, key: str) -> Path:
        assert self.dir is not None
        return self.dir / key[:2] / f"{key}{SUFFIX}"

    def has(self, key: str) -> bool:
        """Whether an entry is stored under `key` (not read: get() may still find it corrupted)."""
        return self.dir is not None and self._path(key).is_file()

    def get(self, key: str, shape: Any = object, kept: bool = False) -> Any:
        """The value stored under `key`, or None: none stored, or one corrupted — its digest does not match, it
        does not decode, or it does not fit `shape` (league.engine.shapes.fits: what the caller goes on to use) —,
        which is deleted, with a warning. `kept`: a content-addressed entry (its key is a digest of everything
        its value is computed from), taken from this process's memory when it read or wrote the same file
        lately (KEPT)."""
        if self.dir is None:
            return None
        path = self._path(key)
        value = KEPT.recall(path) if kept else None
        if value is None:
            value, size = self._read_entry(key, path, shape)
            if value is None:
                self.misses += 1
                return None
            if kept:
                KEPT.remember(path, value, size)
            else:
                self.touch(key)
        self.hits += 1
        return value

    def _read_entry(self, key: str, path: Path, shape: Any) -> tuple[Any, int]:
        """(the value of the entry at `path`, its file's size), or (None, 0): none, or corrupted (deleted)."""
        from league.engine import codec
        from league.engine.shapes import fits
        try:
            data = _read(path)
        except OSError as exc:
            if exc.errno != errno.ELOOP:   # (a symbolic link: not followed, and not an entry)
                return None, 0
            data = None
        try:
            if data is None:
                raise codec.CodecError("não é um arquivo comum")
            value = _open(key, data)
            if value is not None and not fits(value, shape):
                raise codec.CodecError("valor de outra forma")
        except codec.CodecError as exc:
            self.corrupted(path, str(exc))
            return None, 0
        return value, len(data)

    def corrupted(self, path: Path, why: str = "") -> None:
        """Report the entry at `path` corrupted, and delete it (the build makes it again)."""
        self.warnings.append(f"entrada corrompida ignorada no cache: {path}" + (f" ({why})" if why else ""))
        try:
            path.unlink()
        except OSError:
            pass

    def reject(self, key: str, why: str) -> None:
        """Report the entry under `key` corrupted, as its reader found it (`why`), and delete it."""
        if self.dir is not None:
            self.corrupted(self._path(key), why)

    def touch(self, key: str) -> None:
        """Mark the entry under `key` used now (prune() keeps what a build has read or written lately)."""
        if self.dir is None:
            return
        try:
            os.utime(self._path(key))
        except OSError:
            pass

    def prune(self, now: Optional[float] = None) -> int:
        """Delete what no build has read or written for UNUSED_FOR seconds (an edited file's old entries,
        a previous league's, a record of an out/ folder not built since, a write cut short), so that the
        cache stays the size of what is built from it: `league serve` makes new entries at every save.
        What earlier leagues kept there and no league reads now goes at once, whatever its age: pickled
        entries (*.pkl) and Jinja2's compiled templates (jinja-* folders). Returns how many entries and
        folders were deleted; a file another build deletes or writes meanwhile is left to it."""
        if self.dir is None:
            return 0
        import time
        cutoff = (time.time() if now is None else now) - UNUSED_FOR
        try:
            top = list(os.scandir(self.dir))
        except OSError:
            return 0
        removed = 0
        for d in top:
            try:
                if d.is_dir(follow_symlinks=False):
                    removed += _prune_folder(d, cutoff)
            except OSError:
                continue
        return removed

    def put(self, key: str, value: Any, kept: bool = False) -> None:
        """Store `value` under `key` (TypeError for a value league.engine.codec does not store); `kept`: a
        content-addressed entry, remembered in this process (KEPT)."""
        if self.dir is None:
            return
        from league.engine import codec
        payload = codec.dumps(value)
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".tmp{os.getpid()}")
            with open(tmp, "wb") as fh:
                fh.write(MAGIC + _digest(key, payload) + payload)
            os.replace(tmp, path)
            if kept:
                KEPT.remember(path, value, len(MAGIC) + 32 + len(payload))
        except OSError as exc:
            self.warnings.append(f"não foi possível gravar o cache ({exc.strerror}); seguindo sem ele")
            self.dir = None


class Kept:
    """The content-addressed entries this process read or wrote in its last two loads, by file: `league serve`
    builds again and again in one process, and reading the unchanged stages back from the cache (decoding
    them) was ~0.4 s of a ~1.2 s one-score rebuild of the 20-season archive. An entry comes from memory only
    while its file is still the one read or written here: the same size, and the modification time this
    process gave it (os.utime, which also marks it used for Cache.prune); a file changed, replaced or deleted
    since is read (and checked) again as usual. Only content-addressed entries are kept (a key digested
    from everything the value is computed from), so a key always stands for the same value; the values are
    not changed once made (nothing in a build writes to a loaded stage or its classification)."""

    def __init__(self):
        self.now: dict = {}    # path → (value, size, mtime in ns): used by the load under way
        self.last: dict = {}   # the same, by the load before

    def forget(self) -> None:
        """Nothing kept (as in a new process)."""
        self.now, self.last = {}, {}

    def new_load(self) -> None:
        """A load begins: what the one before used is kept, the rest let go (memory: one load's entries)."""
        if self.now:
            self.last, self.now = self.now, {}

    def remember(self, path: Path, value: Any, size: int) -> None:
        stamp = time.time_ns()
        try:
            os.utime(path, ns=(stamp, stamp))
            stamp = os.stat(path, follow_symlinks=False).st_mtime_ns   # (as the file system keeps it)
        except OSError:
            return
        self.now[path] = (value, size, stamp)

    def recall(self, path: Path) -> Any:
        """The value of the entry at `path`, or None: not kept, or its file changed since."""
        got = self.now.get(path) or self.last.get(path)
        if got is None:
            return None
        value, size, stamp = got
        try:
            st = os.stat(path, follow_symlinks=False)
        except OSError:
            return None
        if st.st_size != size or st.st_mtime_ns != stamp or not stat.S_ISREG(st.st_mode):
            return None
        self.remember(path, value, size)
        return value


KEPT = Kept()


def _prune_folder(d: os.DirEntry, cutoff: float) -> int:
    """Cache.prune in one folder of the cache: an entries' folder (<aa>/, by a key's first two hex digits), or a
    folder of Jinja2's compiled templates (jinja-*, deleted whole). How many were deleted."""
    if len(d.name) == 2 and all(c in "0123456789abcdef" for c in d.name):
        return _prune_entries(d.path, cutoff)
    if d.name.startswith("jinja-"):
        import shutil
        shutil.rmtree(d.path, ignore_errors=True)
        return 1
    return 0


def _prune_entries(folder: str, cutoff: float) -> int:
    removed = 0
    try:
        for e in os.scandir(folder):
            if _stale(e, cutoff):
                removed += _unlinked(e.path)
    except OSError:   # (the folder, or a file in it, gone meanwhile: the rest is left to the next build)
        pass
    return removed


def _stale(e: os.DirEntry, cutoff: float) -> bool:
    """Whether a file of an entries' folder goes: a pickled entry (*.pkl) at once, an entry or an unfinished
    write (*.tmp<pid>) not used since `cutoff`."""
    if e.name.endswith(".pkl"):
        return True
    return (e.name.endswith(SUFFIX) or ".tmp" in e.name) and e.stat(follow_symlinks=False).st_mtime < cutoff


def _unlinked(path: str) -> bool:
    """Whether the file at `path` was deleted (not when another build deleted it meanwhile)."""
    try:
        os.unlink(path)
        return True
    except OSError:
        return False


def _digest(key: str, payload: bytes) -> bytes:
    h = hashlib.sha256(MAGIC)
    h.update(key.encode("ascii", "replace"))
    h.update(b"\0")
    h.update(payload)
    return h.digest()


def _read(path: Path) -> Optional[bytes]:
    """The bytes of the file at `path`; None when it is not a regular file (a link is not followed, a FIFO
    does not block). OSError when there is none, or it cannot be read."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read()
    finally:
        os.close(fd)


def _open(key: str, data: bytes) -> Any:
    """The value of an entry's bytes stored under `key`; league.engine.codec.CodecError when they are not an entry
    of this format, of this key, with its digest, that decodes."""
    from league.engine import codec
    head = len(MAGIC)
    if not data.startswith(MAGIC):
        raise codec.CodecError("não é uma entrada deste formato")
    if len(data) < head + 32:
        raise codec.CodecError("truncada")
    payload = memoryview(data)[head + 32:]
    if _digest(key, payload) != data[head:head + 32]:
        raise codec.CodecError("o resumo sha256 não confere")
    return codec.loads(payload)
