"""Writes the finished site beside the old one and swaps it in only when complete, so a failed or
interrupted build leaves the previous site/ exactly as it was. Files whose bytes did not change are
hard-linked from the previous site instead of written again."""
from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional


@dataclass
class WriteStats:
    written: int = 0
    unchanged: int = 0
    pages_written: int = 0

    @property
    def total(self) -> int:
        return self.written + self.unchanged


def _same(path: Path, data: bytes) -> bool:
    try:
        if os.stat(path).st_size != len(data):
            return False
        with open(path, "rb") as fh:
            return fh.read() == data
    except OSError:
        return False


def recover(out: Path) -> None:
    """A build killed between its two renames leaves out/ missing and the old site aside: put it back."""
    out = Path(out).resolve()
    if out.exists():
        return
    olds = sorted(out.parent.glob(f".{out.name}.old-*"), key=lambda p: p.stat().st_mtime)
    if olds:
        os.rename(olds[-1], out)


def write_site(files: dict[str, str | bytes], out: Path,
               progress: Optional[Callable[[int], None]] = None,
               finish: Optional[Callable[[Path, Optional[Path], "WriteStats"], None]] = None) -> WriteStats:
    """Write `files` into a new folder beside `out`, hard-linking unchanged ones from the previous site;
    `finish(new, previous, stats)` runs on the complete new folder (e.g. the search index) before the swap."""
    out = Path(out).resolve()
    parent = out.parent
    parent.mkdir(parents=True, exist_ok=True)
    recover(out)
    tmp = parent / f".{out.name}.new-{os.getpid()}"
    old = parent / f".{out.name}.old-{os.getpid()}"
    for stale in list(parent.glob(f".{out.name}.new-*")) + list(parent.glob(f".{out.name}.old-*")):
        shutil.rmtree(stale, ignore_errors=True)
    tmp.mkdir()
    delay = float(os.environ.get("LEAGUE_WRITE_DELAY", "0") or 0)  # tests: make a kill mid-write reliable
    previous = out if out.is_dir() else None
    stats = WriteStats()
    made: set[str] = set()
    for i, rel in enumerate(sorted(files)):
        data = files[rel]
        if isinstance(data, str):
            data = data.encode("utf-8")
        target = tmp / rel
        d = os.path.dirname(target)
        if d not in made:
            os.makedirs(d, exist_ok=True)
            made.add(d)
        if previous is not None and _same(previous / rel, data):
            try:
                os.link(previous / rel, target)
                stats.unchanged += 1
                continue
            except OSError:
                pass
        with open(target, "wb") as fh:
            fh.write(data)
        stats.written += 1
        if rel.endswith(".html"):
            stats.pages_written += 1
        if delay:
            time.sleep(delay)
        if progress and i % 200 == 0:
            progress(i)
    if finish is not None:
        finish(tmp, previous, stats)
    if out.exists():
        os.rename(out, old)
        os.rename(tmp, out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.rename(tmp, out)
    return stats
