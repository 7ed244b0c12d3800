"""Where each page's content comes from: the date of the newest git commit that touched a content file
(falling back to the content's own dates without git), for "atualizado em"."""
from __future__ import annotations

import datetime as dt
import subprocess
from pathlib import Path


def git_dates(content: Path) -> dict[str, dt.date]:
    """content-relative path (as in diagnostics, `content/…`) → date of the newest commit touching it.
    One `git log` for the whole folder; empty when git or the repository is missing."""
    content = Path(content).resolve()
    found = _git_log(content)
    if found is None:
        return {}
    root, log = found
    return _newest_dates(log, content.relative_to(root).as_posix(), content.name)


def _git_log(content: Path) -> tuple[Path, str] | None:
    """(the repository's root, `git log` of the folder: each commit as a NUL and its date, then the files it
    touched); None without git, outside a repository or when git fails."""
    try:
        top = subprocess.run(["git", "-C", str(content), "rev-parse", "--show-toplevel"], capture_output=True,
                             text=True, timeout=10)
        if top.returncode != 0:
            return None
        root = Path(top.stdout.strip()).resolve()
        log = subprocess.run(["git", "-C", str(root), "log", "--format=%x00%cs", "--name-only", "--no-renames",
                              "--", str(content.relative_to(root))], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return (root, log.stdout) if log.returncode == 0 else None


def _newest_dates(log: str, prefix: str, name: str) -> dict[str, dt.date]:
    """The first date (the newest: git log lists newest first) of each file under `prefix` (the folder, relative
    to the repository's root), its path starting with `name` (the folder's name) instead."""
    out: dict[str, dt.date] = {}
    current = None
    for line in log.splitlines():
        if line.startswith("\x00"):
            current = _commit_date(line[1:])
            continue
        line = line.strip()
        if line and current is not None and (line == prefix or line.startswith(prefix + "/")):
            out.setdefault(name + line[len(prefix):], current)
    return out


def _commit_date(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        return None
