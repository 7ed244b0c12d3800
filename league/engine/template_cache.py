"""Compiled templates kept between builds, in the user's own cache folder: Jinja2's documented bytecode cache
(`jinja2.FileSystemBytecodeCache`), so that a rebuild does not compile again the templates its pages use
(~0.1-0.2 s of a one-score rebuild of the archive).

Where: `$LEAGUE_TEMPLATE_CACHE` (a folder, or `off`), else `$XDG_CACHE_HOME/league`, else `~/.cache/league`.
Never in the build cache (`.league-cache/`): CI and Netlify restore that folder between builds, so its bytes
are input, and Jinja2 runs what its bytecode cache holds (it is Python code, and Jinja2 reads each file's
header with pickle). The user's cache folder is theirs, as Python's own `__pycache__` is.

What the compiled code depends on besides a template's source (which Jinja2 checks itself, by a checksum of it,
and its file's path): league's code and catalogs (a template's texts are translated when it is compiled,
league/i18n.py, with Babel's catalogs), the locale, and Jinja2's, Babel's and Python's versions. All of them
name the folder, `jinja-<locale>-<digest>`; making one deletes the other folders of the same locale (an older
league's).
A folder that cannot be made or written leaves the build as it was without it: templates compiled in memory."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Optional

import jinja2


class _SafeBytecodeCache(jinja2.FileSystemBytecodeCache):
    """FileSystemBytecodeCache through its documented hooks (load_bytecode, dump_bytecode), with what a build
    cannot stop for left out: a file that cannot be read back is compiled again, one that cannot be written is
    not kept."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # noqa: BLE001 - a damaged file (its header or code unreadable): compiled again
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:   # (a full disk, a read-only home): the build goes on, compiling next time too
            pass


def template_cache(locale: Optional[str]) -> Optional[jinja2.BytecodeCache]:
    """The bytecode cache of this league's templates in `locale`, or None (switched off, or no usable folder)."""
    root = _root()
    if root is None:
        return None
    import babel
    from league.engine.cache import code_version, digest
    tag = (locale or "none").replace(os.sep, "_")
    key = digest(code_version(), locale, jinja2.__version__, babel.__version__, sys.version,
                 sys.implementation.cache_tag)[:16]
    folder = root / f"jinja-{tag}-{key}"
    try:
        if not folder.is_dir():
            folder.mkdir(parents=True, exist_ok=True)
            _forget_others(root, tag, folder.name)
    except OSError:
        return None
    return _SafeBytecodeCache(str(folder))


def _root() -> Optional[Path]:
    """$LEAGUE_TEMPLATE_CACHE (None when `off`), $XDG_CACHE_HOME/league, or ~/.cache/league (None without a home)."""
    chosen = os.environ.get("LEAGUE_TEMPLATE_CACHE")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "0", "no") else Path(chosen)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "league"
    try:
        return Path.home() / ".cache" / "league"
    except RuntimeError:   # (no home to be found)
        return None


def _forget_others(root: Path, tag: str, keep: str) -> None:
    """The folders of the same locale that an earlier league (or Jinja2, or Python) made: deleted."""
    for d in root.glob(f"jinja-{tag}-*"):
        if d.name != keep and d.is_dir() and not d.is_symlink():
            shutil.rmtree(d, ignore_errors=True)
