"""The watcher of `league serve`: a thread told of file events under content/ and templates/ by watchfiles
(the operating system's notifications: inotify, FSEvents, ReadDirectoryChangesW), which gathers the events of
one save — an editor's temporary file and rename, "save all" of several files — into one rebuild once the
files have been quiet for SETTLE seconds (with --polling, or where the system refuses to watch, watchfiles
looks at them every 0.3 s). Hidden files and folders, __pycache__, and editors' swap and backup files are left
out."""
from __future__ import annotations

import os
import threading
import traceback
from pathlib import Path
from typing import Callable, Iterable, Optional

SETTLE = 0.03                     # seconds without a file event that end a save (and start the rebuild)
GATHER = 1.6                      # seconds: the longest a stream of events is gathered into one rebuild
IDLE = 1.0                        # seconds: how often the watcher looks whether content/ itself came or went


def ignored(name: str) -> bool:
    """A file or folder name the watcher leaves out: hidden ones (.git, an editor's .swp or .#lock) and
    __pycache__ folders, and editors' backup and swap files."""
    return name.startswith(".") or name == "__pycache__" or name.endswith(("~", ".swp", ".swx"))


def _state(path: str) -> tuple[int, int] | None:
    """(mtime, size) of a file, (0, -1) for a broken link (still a file the build will report), None when
    there is nothing there."""
    try:
        st = os.stat(path)
        return (st.st_mtime_ns, st.st_size)
    except OSError:
        return (0, -1) if os.path.lexists(path) else None


def scan(roots: list[Path]) -> dict[str, tuple[int, int]]:
    """(mtime, size) of every file under roots; hidden files and folders (editor swap files, .git) left out."""
    out: dict[str, tuple[int, int]] = {}
    for root in roots:
        if not root.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if not ignored(d)]
            for name in filenames:
                if not ignored(name):
                    path = os.path.join(dirpath, name)
                    out[path] = _state(path) or (0, -1)
    return out


def changed(before: dict, after: dict) -> list[str]:
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


def existing(folders: Iterable[Path]) -> list[Path]:
    """The watched folders that exist, as the watcher sees them (links resolved)."""
    out = []
    for p in folders:
        try:
            if p.is_dir():
                out.append(p.resolve())
        except OSError:
            pass
    return out


def touched(paths: Iterable[str], snapshot: dict) -> list[str]:
    """Of the paths file events named, those that differ from what the last build read (`snapshot`, see
    scan): a file written (its time or size changed), added or deleted, and any folder added, moved or
    deleted. A file made and removed again within one save (vim's "4913" test file), or one written before
    the last build read it but told of after, rebuilds nothing."""
    out = []
    for p in sorted(paths):
        now = _state(p)
        if os.path.isdir(p) or now != snapshot.get(p):
            out.append(p)
        elif now is None and any(k.startswith(p + os.sep) for k in snapshot):
            out.append(p)   # a folder that held files the build read went away
    return out


def _identity(roots: list[Path]) -> list[tuple]:
    """The watched folders as the system knows them: a folder deleted and made again is another one."""
    out = []
    for root in roots:
        try:
            st = os.stat(root)
        except OSError:
            continue
        out.append((str(root), st.st_dev, st.st_ino))
    return out


def _why(paths: list[str]) -> str:
    names = [_shown(p) for p in paths[:3]]
    more = f" e mais {len(paths) - 3}" if len(paths) > 3 else ""
    return f"mudou: {', '.join(names)}{more}; reconstruindo…"


def _shown(path: str) -> str:
    """A changed file as the terminal shows it: relative to the current folder when inside it."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def _what(exc: BaseException) -> str:
    """A failure in one line: its type and message."""
    return " ".join(f"{type(exc).__name__}: {exc}".split())


class Watcher:
    """The watcher thread's loop: watches the folders of `builder` (league.cli.serve.rebuild.Rebuilder) and
    rebuilds after each save, until `stopping` is set; it outlives every failure, falling back to polling
    when the system refuses to watch."""

    def __init__(self, builder, stopping: threading.Event, settle: float = SETTLE, polling: bool = False,
                 echo: Callable[[str], None] = print, debug: bool = False) -> None:
        self.builder = builder
        self.stopping = stopping
        self.settle = settle        # seconds without a file event that end a save
        self.polling = polling      # True: look at the files every 0.3 s instead of waiting for the system's events
        self.echo = echo
        self.debug = debug

    def roots(self) -> list[Path]:
        return existing(self.builder.watched)

    def watch(self) -> None:
        """A rebuild after each save under content/ or templates/, until `stopping`."""
        polling = True if self.polling else None   # None: watchfiles' choice (the system's notifications)
        said = ""        # the last failure told: the same one is not told again every second
        while not self.stopping.is_set():
            roots = self.roots()
            if not roots:   # no content/ (yet): looked for again every IDLE seconds
                if self.stopping.wait(IDLE):
                    return
                self.catch_up(roots)
                continue
            try:
                polling = _Session(self, roots).run(polling)
            except FileNotFoundError:   # a watched folder went away as the watcher started: look again
                self.stopping.wait(self.settle)
            except Exception as exc:  # noqa: BLE001 - keep watching whatever happens
                if self.debug:
                    self.echo(traceback.format_exc().rstrip())
                if not polling:   # e.g. the system's limit of watched folders (inotify's max_user_watches)
                    self.echo(f"aviso: o sistema não avisa das mudanças nos arquivos ({_what(exc)}); o league "
                              "serve passa a verificá-los a cada 0,3 s")
                    polling = True
                    continue
                said = self.failed(_what(exc), said)

    def failed(self, what: str, said: str) -> str:
        """Tell a failure of the watcher once (not again every IDLE seconds), wait, and return what was told."""
        if what != said:
            self.echo(f"erro interno do league serve ao observar os arquivos: {what}; por favor, relate o "
                      "problema com a saída de --debug")
        self.stopping.wait(IDLE)
        return what

    def catch_up(self, roots: list[Path], paths: Iterable[str] = frozenset()) -> bool:
        """Rebuild when the watched files differ from what the last build read (a save while no watcher was
        running: before it started, while content/ was away); True if it did."""
        snapshot = self.builder.snapshot
        diff = sorted(set(changed(snapshot, scan(roots))) | set(touched(paths, snapshot)))
        if diff:
            self.builder.rebuild(_why(diff))
        return bool(diff)


class _Session:
    """One watch of folders that stay the same: it ends when they change (content/ deleted, made again or made
    at last) or the server stops."""

    def __init__(self, watcher: Watcher, roots: list[Path]) -> None:
        self.watcher = watcher
        self.roots = roots
        self.where = tuple(str(r) for r in roots)
        self.identity = _identity(roots)
        self.caught_up = False

    def wanted(self, _change, path: str) -> bool:
        for root in self.where:
            if path.startswith(root + os.sep):
                return not any(ignored(part) for part in path[len(root) + 1:].split(os.sep))
        return False

    def run(self, polling: Optional[bool]) -> Optional[bool]:
        import watchfiles
        w = self.watcher
        for batch in watchfiles.watch(*self.where, watch_filter=self.wanted, step=max(1, round(w.settle * 1000)),
                                      debounce=round(GATHER * 1000), rust_timeout=round(IDLE * 1000),
                                      yield_on_timeout=True, stop_event=w.stopping, raise_interrupt=False,
                                      force_polling=polling, poll_delay_ms=300,
                                      ignore_permission_denied=True):   # the build reports such a folder
            try:
                if self.handle(batch):
                    return polling
            except Exception as exc:  # noqa: BLE001 - keep watching whatever happens
                if w.debug:
                    w.echo(traceback.format_exc().rstrip())
                w.echo(f"erro interno do league serve ao observar os arquivos: {type(exc).__name__}: {exc}; "
                       "por favor, relate o problema com a saída de --debug")
        return polling

    def handle(self, batch: set) -> bool:
        """One batch of file events (empty after a quiet second): a rebuild when a watched file changed, the
        collector after a quiet second; True when the watched folders themselves changed."""
        w = self.watcher
        paths = {path for _change, path in batch}
        if not self.caught_up:   # watching for sure by now: a save between the last build and then?
            self.caught_up = True
            if w.catch_up(self.roots, paths):
                return False
        changes = touched(paths, w.builder.snapshot)
        if changes:
            w.builder.rebuild(_why(changes))
        elif not batch:
            w.builder.collect()   # a quiet second
        if _identity(w.roots()) != self.identity:   # content/ deleted, made again, or made at last
            w.catch_up(w.roots())
            return True
        return False
