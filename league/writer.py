"""Writes the finished site beside the old one and swaps it in only when complete, so a failed or
interrupted build leaves the previous site/ exactly as it was."""
from __future__ import annotations

import os
import shutil
from pathlib import Path


def write_site(files: dict[str, str | bytes], out: Path) -> int:
    out = Path(out).resolve()
    parent = out.parent
    parent.mkdir(parents=True, exist_ok=True)
    tmp = parent / f".{out.name}.new-{os.getpid()}"
    old = parent / f".{out.name}.old-{os.getpid()}"
    for stale in parent.glob(f".{out.name}.new-*"):
        shutil.rmtree(stale, ignore_errors=True)
    tmp.mkdir()
    made: set[str] = set()
    for rel in sorted(files):
        data = files[rel]
        target = tmp / rel
        d = str(target.parent)
        if d not in made:
            os.makedirs(d, exist_ok=True)
            made.add(d)
        if isinstance(data, str):
            data = data.encode("utf-8")
        with open(target, "wb") as fh:
            fh.write(data)
    if out.exists():
        os.rename(out, old)
        os.rename(tmp, out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.rename(tmp, out)
    return len(files)
