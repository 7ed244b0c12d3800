"""Publishes a build's files: all or nothing, one build at a time, and never a file league did not make.

Whose folder out/ is (`check_out`), the lock (`locked`), finishing what an interrupted build left
(`recover`) and the manifest (`read_manifest`, `damaged`) are league/site/outdir.py's; this module stages
the new site and publishes it (`SiteWriter`), under those guards.

- **All or nothing.** The new site is staged complete in `.<name>.new-<pid>` beside out/ (same file
  system): pages rendered now are written, unchanged ones hard-linked from the previous site (a copy where
  a link cannot be made). Publishing is then one step, `renameat2(RENAME_EXCHANGE)` of the staging folder
  and out/: a reader, or a build killed at any moment, sees the whole old site or the whole new one. Where
  the file system cannot exchange, two renames are used and `recover()` finishes an interrupted pair.
  The old site is not deleted: it is kept as `.<name>.spare` and the next build stages into it, replacing
  only the files that differ (a file is the same when it is the published site's own inode) and deleting
  those the new site no longer has — a rebuild then costs what changed, not one mkdir per folder and one
  link and one unlink per file of the whole site (10,000 folders cost 4 s on this machine's disk). With no
  spare, another process may link the previous site into the staging folder meanwhile (`prestaged`), joined
  only when the site is published: the build writes beside it (a file it finds linked is the published one).
- **Hand-put files.** A file in out/ that no build recorded (put there by hand) is carried over to the
  new site.
- **A mount point.** out/ that is a mount point cannot be renamed: the site is staged inside it
  (`.league-staging-<pid>`) and the files moved into place under a journal (a `.commit` record), which
  the next build finishes if the build dies meanwhile — atomic against failures while staging (a full
  disk leaves the old site), not against a kill while moving.
- **Damage is seen.** `SiteWriter.damaged()` tells whether any recorded file of the previous site is
  missing or has another size: the build then trusts nothing it recorded and renders every page again.
"""
from __future__ import annotations

import errno
import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from league.site.outdir import (  # noqa: F401 — check_out, locked, recover, OutError, Manifest: imported from here too
    COMMIT, MANIFEST, SPARE, STAGING_IN_MOUNT, Manifest, OutError, Survey, _apply, _crash_point, check_out, damaged,
    exchange, locked, read_manifest, recover, remove_empty_folders, spare_path, staging_path, survey,
)


@dataclass
class WriteStats:
    written: int = 0
    unchanged: int = 0
    pages_written: int = 0
    paths: list = field(default_factory=list)     # every file of the new site (relative, "/"-separated)
    sizes: list = field(default_factory=list)     # their sizes, in the same order
    fresh: list = field(default_factory=list)     # those staged as new files, not the previous site's own

    @property
    def total(self) -> int:
        return self.written + self.unchanged

    def mark(self) -> tuple:
        return self.written, self.unchanged, self.pages_written, len(self.paths), len(self.fresh)

    def since(self, mark: tuple) -> "WriteStats":
        """What was tallied after `mark()`: a forked worker's own share (its copy of the stats starts with
        what the parent had counted before the fork, which the parent still has)."""
        written, unchanged, pages, n, f = mark
        return WriteStats(self.written - written, self.unchanged - unchanged, self.pages_written - pages,
                          self.paths[n:], self.sizes[n:], self.fresh[f:])

    def merge(self, other: "WriteStats") -> None:
        self.written += other.written
        self.unchanged += other.unchanged
        self.pages_written += other.pages_written
        self.paths.extend(other.paths)
        self.sizes.extend(other.sizes)
        self.fresh.extend(other.fresh)


# ---------------------------------------------------------------- all or nothing

_READ = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def _identity(site: Path) -> Optional[list]:
    """Which build's site this is: its manifest file's inode and time (every build writes a new one)."""
    try:
        st = os.stat(os.path.join(site, MANIFEST))
    except OSError:
        return None
    return [st.st_ino, st.st_mtime_ns]


def _same(path: str, data: bytes) -> bool:
    """Whether the file at `path` holds exactly `data` (one open, its size from the descriptor, one read of a
    byte more than `data`)."""
    try:
        fd = os.open(path, _READ)
    except OSError:
        return False
    try:
        n = len(data)
        return os.fstat(fd).st_size == n and os.read(fd, n + 1) == data
    except OSError:
        return False
    finally:
        os.close(fd)


class SiteWriter:
    """Stages the files of one build and publishes them (see the module docstring). Call it with the lock
    of out/ held (`locked`), out/ checked (`check_out`) and what an interrupted build left cleaned up
    (`recover`)."""

    def __init__(self, out: Path, inputs: str = "", prestaged=None):
        self.out = Path(os.path.abspath(out))
        self.out.parent.mkdir(parents=True, exist_ok=True)
        self.inputs = inputs   # the new manifest's digest of the build's inputs
        self.warnings: list[str] = []
        self.previous: Optional[Path] = self.out if self.out.is_dir() else None
        self.mounted = self.previous is not None and os.path.ismount(self.out)
        manifest = read_manifest(self.out) if self.previous is not None else None
        self.recorded_inputs, self.recorded = (manifest.inputs, manifest.files) if manifest else (None, None)
        # a callable giving the files another process links from the previous site into the staging folder
        # meanwhile (outdir.link_site: a spare made now, when there is none), or None if it failed; see _ready
        self._prestaged = prestaged
        self.staging = self._new_staging()
        self.spare = spare_path(self.out)
        # what the staging folder holds already ({relative path}), and which of those are not the published
        # site's own files (made anew by the previous build): see _take_spare
        self._in_staging, self._stale = (set(), set()) if prestaged else self._take_spare()
        self._kept_later: list[str] = []   # files keep() left to _ready (linked there unless prestaged)
        if not self._in_staging:
            self.staging.mkdir(exist_ok=True)   # (a prestaged one may be there already)
        self._hand: list[str] = []      # files of the previous site no build recorded (see _carry_over)
        self._survey: Optional[Survey] = None   # the previous site against its manifest (see survey)
        # a callable giving (manifest's inputs, its number of files, Survey) of the previous site, surveyed by
        # another process meanwhile (league.engine.helpers.SurveyHelper), or None
        self.survey_source = None
        self._prev = str(self.previous) if self.previous else None
        self._stage = str(self.staging)
        self.stats = WriteStats()
        self._owner = os.getpid()
        self._made: set[str] = set()
        self.delay = float(os.environ.get("LEAGUE_WRITE_DELAY", "0") or 0)  # tests: a kill mid-write is reliable

    def _new_staging(self) -> Path:
        """The folder to stage into, empty: beside out/, or inside it when it is a mount point."""
        if self.mounted:
            staging = self.out / f"{STAGING_IN_MOUNT}{os.getpid()}"
        else:
            staging = staging_path(self.out, os.getpid())
        if staging.exists() and not self._prestaged:
            shutil.rmtree(staging)
        return staging

    def _ready(self) -> None:
        """Before this process publishes, or moves or deletes folders of the staging folder: the prestaging
        process joined, the files it linked there counting as a spare's (each the published file itself, but
        those staged anew meanwhile), and the files `keep` left for it linked if it did not. If it failed, the
        folder is looked at. Until then, this process and those forked from it write beside it: a file is
        created, never opened if there (`put`), and one it linked is the published file (`_link`)."""
        if not self._prestaging():
            return
        join, self._prestaged = self._prestaged, None
        linked = join()
        if linked is None:
            linked = [os.path.relpath(os.path.join(d, n), self._stage) for d, _, names in os.walk(self._stage)
                      for n in names]
        self._in_staging.update(set(linked).difference(self.stats.fresh))
        for rel in self._kept_later:
            self._link(rel)
        self._kept_later = []

    def _prestaging(self) -> bool:
        """Whether a prestaging process links meanwhile, not yet joined, and this process is the one to join it."""
        return self._prestaged is not None and os.getpid() == self._owner

    def _take_spare(self) -> tuple[set, set]:
        """The spare (the site before the previous one, see the module docstring) becomes the staging folder.
        Returns the files it holds, and those of them that differ from the previous site's (the files the
        previous build made anew): every other file of the spare is the published file itself (one inode),
        known without looking at it. No usable spare: (set(), set()), and it is deleted."""
        if not os.path.lexists(self.spare):
            return set(), set()
        manifest, notes = read_manifest(self.spare), None
        try:
            with open(self.spare / SPARE, "rb") as fh:
                notes = json.loads(fh.read())
            hand, fresh = set(notes["hand"]), set(notes["fresh"])
        except (OSError, ValueError, KeyError, TypeError):
            manifest = None
        if manifest is None or self.previous is None or self.mounted or notes.get("site") != _identity(self.out):
            shutil.rmtree(self.spare, ignore_errors=True)
            return set(), set()
        os.unlink(self.spare / SPARE)   # first: from here on it is no spare (a kill leaves it to recover())
        os.unlink(self.spare / MANIFEST)
        os.rename(self.spare, self.staging)
        return {*manifest.files, *hand}, fresh | hand

    def damaged(self) -> list[str]:
        """Recorded files of the previous site that are missing or changed size (see `damaged`)."""
        if self.previous is None or self.recorded is None or self.survey().whole:
            return []
        return damaged(self.previous, self.recorded)

    def survey(self) -> Survey:
        """The previous site against its manifest, looked at once per build (outdir.survey): whether it is
        whole, and its hand-put files. Only called when there is a previous site with a manifest."""
        if self._survey is None:
            self._survey = self._surveyed_elsewhere() or survey(
                self._prev, self.recorded, (STAGING_IN_MOUNT,) if self.mounted else ())
        return self._survey

    def _surveyed_elsewhere(self) -> Optional[Survey]:
        """The survey `survey_source` gives, if it is of the manifest this writer read (else None)."""
        source, self.survey_source = self.survey_source, None
        got = source() if source is not None else None
        if got is None or got[0] != self.recorded_inputs or got[1] != len(self.recorded):
            return None
        return got[2]

    def _folder(self, target: str) -> None:
        d = os.path.dirname(target)
        if d in self._made:
            return
        try:   # most folders are new, in a folder made already: one mkdir, not makedirs' stat then mkdir
            os.mkdir(d)
        except FileExistsError:
            if not os.path.isdir(d):   # a file of the spare where the new site has a folder
                os.unlink(d)
                os.mkdir(d)
        except (FileNotFoundError, NotADirectoryError):
            self._folders(d)
        self._made.add(d)

    def _folders(self, d: str) -> None:
        """Make folder d and those above it inside the staging folder, deleting files in their way."""
        rel = os.path.relpath(d, self._stage)
        path = self._stage
        for part in rel.split(os.sep):
            path = os.path.join(path, part)
            try:
                os.mkdir(path)
            except FileExistsError:   # there already, or made meanwhile by another worker writing this site
                if not os.path.isdir(path):   # a file of the spare where the new site has a folder
                    os.unlink(path)
                    os.makedirs(path, exist_ok=True)

    def _clear(self, target: str) -> None:
        """Make room for a new file at target in the staging folder (a stale file or folder of the spare).
        A file that cannot be deleted (a protected one) makes the spare unusable: staging starts over."""
        try:
            os.unlink(target)
        except FileNotFoundError:
            pass
        except IsADirectoryError:
            self._ready()   # (no prestaging process linking into it meanwhile)
            shutil.rmtree(target)
        except PermissionError:
            if os.path.isdir(target):
                shutil.rmtree(target)
            else:
                self._start_over()

    def check_room(self, rels: Iterable[str]) -> None:
        """Before forked workers write `rels` (the pages about to be rendered): when one of them is a file of
        the reused spare that cannot be replaced (immutable, or not writable: os.access, which writes
        nothing), staging starts over now, in this process — a worker cannot (see _start_over). Files a page
        makes besides itself (its charts) are not looked at: such a protected file still stops the build. No
        spare was reused when a prestaging process links: it cannot link a protected file (EPERM)."""
        stage, spare = self._stage, self._in_staging
        for rel in rels:
            if rel in spare and not os.access(os.path.join(stage, rel), os.W_OK) \
                    and os.path.lexists(os.path.join(stage, rel)):
                self._start_over()
                return

    def _start_over(self) -> None:
        """Give up the reused spare: it moves aside as an old site (deleted by the next build, a warning if it
        cannot be), and a new staging folder gets every file staged so far, linked from it."""
        if os.getpid() != self._owner:   # a worker process cannot move the folder the others write into
            raise OSError(errno.EPERM, "um arquivo protegido impede o build de usar a pasta", str(self.spare))
        self._ready()
        old = self.out.parent / f".{self.out.name}.old-{os.getpid()}"
        os.rename(self.staging, old)
        self.staging.mkdir()
        self._in_staging, self._stale, self._made = set(), set(), set()
        self.warnings.append(f"o site anterior ficou em {old} (um arquivo protegido?); o próximo build "
                             "tenta apagá-lo de novo")
        for rel in dict.fromkeys(self.stats.paths):
            source, target = os.path.join(old, rel), os.path.join(self._stage, rel)
            if os.path.isfile(source):
                self._folder(target)
                self.stats.fresh.append(rel)
                try:
                    os.link(source, target)
                except OSError:
                    shutil.copyfile(source, target)   # a protected file cannot be linked

    def _link(self, rel: str) -> bool:
        """The previous site's file `rel` into the new site as it is (a hard link, or a copy); False when the
        previous site has no such file."""
        if self.mounted:   # the file stays where it is: nothing to stage
            return os.path.isfile(os.path.join(self._prev, rel))
        if rel in self._in_staging:
            if rel not in self._stale:
                return True   # the spare has the published file itself
            self._clear(os.path.join(self._stage, rel))
            self._in_staging.discard(rel)
        source, target = os.path.join(self._prev, rel), os.path.join(self._stage, rel)
        self._folder(target)
        try:
            os.link(source, target)
        except FileExistsError:   # put twice, or a file in the spare that its manifest did not list
            if not os.path.samefile(source, target):
                self._clear(target)
                return self._link(rel)
            return True
        except OSError:
            try:
                shutil.copyfile(source, target)   # another file system, a protected file, no links here
            except FileNotFoundError:
                return False
            self.stats.fresh.append(rel)
        return True

    def put(self, rel: str, data: str | bytes) -> bool:
        """Stage one file (the previous site's own file when its bytes are the same); True when written."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.stats.paths.append(rel)
        self.stats.sizes.append(len(data))
        if self._prev is not None and _same(os.path.join(self._prev, rel), data) and self._link(rel):
            self.stats.unchanged += 1
            return False
        target = os.path.join(self._stage, rel)
        if rel in self._in_staging:   # never written into: the spare's files are the published site's too
            self._clear(target)
            self._in_staging.discard(rel)
        self.stats.fresh.append(rel)
        self._folder(target)
        try:
            fd = os.open(target, _CREATE, 0o644)
        except FileExistsError:   # a path put twice: the last one wins
            self._clear(target)
            fd = os.open(target, _CREATE, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        self.stats.written += 1
        if rel.endswith(".html"):
            self.stats.pages_written += 1
        if self.delay:
            time.sleep(self.delay)
        return True

    def keep(self, rels: Iterable[str]) -> None:
        """Files of the previous site that the new site keeps as they are (not rendered again): linked now, or
        by _ready when a prestaging process links them meanwhile (most, the first rebuild after a new site)."""
        later = self._prestaging()
        sizes = self.recorded or {}
        for rel in rels:
            size = sizes.get(rel)
            if size is None:
                size = os.stat(os.path.join(self._prev, rel)).st_size
            if later:
                self._kept_later.append(rel)
            else:
                self._link(rel)
            self.stats.paths.append(rel)
            self.stats.sizes.append(size)
            self.stats.unchanged += 1

    def _carry_over(self, new: set) -> list[str]:
        """Files in the previous site that no build of league recorded and the new site does not have (put
        there by hand): they stay. Returns their paths."""
        if self.previous is None or self.recorded is None:
            return []
        extra = []
        for rel in self._unrecorded():
            self._hand.append(rel)
            if rel not in new:
                extra.append(rel)
                self._link(rel)
        return sorted(extra)

    def _unrecorded(self) -> Iterable[str]:
        """The relative paths of the previous site's files that its build did not record (nor the manifest,
        nor, in a mount point, the staging folders), sorted."""
        return sorted(self.survey().unrecorded)

    def _drop_stale(self, keep: set) -> None:
        """Delete the spare's files that the new site does not have, and the folders left empty."""
        dirs: set[str] = set()
        for rel in self._in_staging - keep:
            path = os.path.join(self._stage, rel)
            try:
                os.unlink(path)
            except IsADirectoryError:
                continue
            except FileNotFoundError:
                pass
            except PermissionError:
                self._start_over()
                return
            d = os.path.dirname(rel)
            while d and d not in dirs:
                dirs.add(d)
                d = os.path.dirname(d)
        remove_empty_folders(self._stage, dirs)

    def _manifest(self) -> bytes:
        files = dict(sorted(zip(self.stats.paths, self.stats.sizes)))
        return json.dumps({"generator": "league", "inputs": self.inputs, "files": files}, ensure_ascii=False, indent=0,
                          separators=(",", ":")).encode("utf-8")

    def commit(self) -> list[str]:
        """Publish the staged site (see the module docstring). Returns the paths of the files kept from
        the previous site that no build recorded (put there by hand)."""
        self._ready()
        new = set(self.stats.paths)
        extra = self._carry_over(new)
        if self._in_staging:
            self._drop_stale(new | set(extra))
        manifest = self._manifest()
        _crash_point("staged")
        if self.mounted:
            self._commit_mounted(new, manifest)
            return extra
        with open(self.staging / MANIFEST, "wb") as fh:   # last: marks the staging folder complete
            fh.write(manifest)
        _crash_point("manifest")
        if self.previous is None or not self.out.is_dir():
            if self.out.exists() or self.out.is_symlink():   # an empty folder (check_out), or one made meanwhile
                os.rmdir(self.out)
            os.rename(self.staging, self.out)
            _crash_point("published")
            return extra
        if exchange(str(self.staging), str(self.out)):
            _crash_point("published")
            self._keep_spare(str(self.staging))   # `.new-*` is only ever an unpublished site (see recover)
        else:
            old = str(self.out.parent / f".{self.out.name}.old-{os.getpid()}")
            os.rename(self.out, old)
            _crash_point("between-renames")
            os.rename(self.staging, self.out)
            _crash_point("published")
            self._keep_spare(old)
        return extra

    def _keep_spare(self, old: str) -> None:
        """The old site becomes the spare the next build stages into, with a note of the files it holds that
        no build recorded (hand-put) and of those the new site made anew (its other files are the new site's
        own), for the site just published (`_identity`)."""
        if os.path.lexists(self.spare):
            shutil.rmtree(self.spare, ignore_errors=True)
        try:
            notes = {"site": _identity(self.out), "hand": sorted(self._hand),
                     "fresh": sorted(set(self.stats.fresh))}
            with open(os.path.join(old, SPARE), "w", encoding="utf-8") as fh:
                json.dump(notes, fh)
            os.rename(old, self.spare)
        except OSError:
            shutil.rmtree(old, ignore_errors=True)
            if os.path.exists(old):
                self.warnings.append(f"o site anterior ficou em {old} (um arquivo protegido?); o próximo build "
                                     "tenta apagá-lo de novo")

    def _commit_mounted(self, new: set, manifest: bytes) -> None:
        stale = sorted(set(self.recorded or ()) - new)
        with open(self.staging / MANIFEST, "wb") as fh:
            fh.write(manifest)
        tmp = self.staging / (COMMIT + ".tmp")
        tmp.write_text("\n".join(stale), encoding="utf-8")
        os.replace(tmp, self.staging / COMMIT)   # from here on, an interrupted build is finished by recover()
        _crash_point("committed")
        _apply(self.staging, self.out)

    def abort(self) -> None:
        shutil.rmtree(self.staging, ignore_errors=True)
