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
    try:
        top = subprocess.run(["git", "-C", str(content), "rev-parse", "--show-toplevel"], capture_output=True,
                             text=True, timeout=10)
        if top.returncode != 0:
            return {}
        root = Path(top.stdout.strip()).resolve()
        log = subprocess.run(["git", "-C", str(root), "log", "--format=%x00%cs", "--name-only", "--no-renames",
                              "--", str(content.relative_to(root))], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError, ValueError):
        return {}
    if log.returncode != 0:
        return {}
    out: dict[str, dt.date] = {}
    prefix = content.relative_to(root).as_posix()
    current = None
    for line in log.stdout.splitlines():
        if line.startswith("\x00"):
            try:
                current = dt.date.fromisoformat(line[1:].strip())
            except ValueError:
                current = None
            continue
        line = line.strip()
        if not line or current is None:
            continue
        if line == prefix or line.startswith(prefix + "/"):
            rel = content.name + line[len(prefix):]
            out.setdefault(rel, current)  # newest first: keep the first date seen
    return out
