"""Optional search index: runs pagefind (PyPI `pagefind[bin]`, offline) over a written site.

Pages that carry `data-pagefind-body` (player, pair, club, team, stage and championship pages, see
render.SEARCH_KINDS) are indexed; `data-pagefind-ignore` keeps long match details out. The index goes to
`<site>/pagefind/`; templates/static/site.js loads `pagefind.js` from there on the search page only
(`/busca/`), which without JavaScript lists the player, club and season pages instead.

pagefind's output is deterministic (same pages → byte-identical index). Its ready-made UI bundles are
removed: the site uses the small JS API through site.js, which keeps the search page light.
"""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

# pagefind's own UI bundles, unused by the site (site.js talks to pagefind.js directly)
UNUSED = ("pagefind-ui.js", "pagefind-ui.css", "pagefind-component-ui.js", "pagefind-component-ui.css",
          "pagefind-modular-ui.js", "pagefind-modular-ui.css", "pagefind-highlight.js")


def available() -> bool:
    """True when the pagefind Python package (with its binary) is installed."""
    return importlib.util.find_spec("pagefind") is not None


def run_pagefind(out_dir: Path, quiet: bool = True) -> bool:
    """Index the built site in `out_dir` (writes `out_dir/pagefind/`). Returns False, doing nothing,
    when pagefind is not installed; raises RuntimeError with pagefind's message when it fails."""
    if not available():
        return False
    out_dir = Path(out_dir)
    cmd = [sys.executable, "-m", "pagefind", "--site", str(out_dir)] + (["--silent"] if quiet else [])
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"pagefind falhou ({proc.returncode}): {(proc.stderr or proc.stdout).strip()}")
    for name in UNUSED:
        (out_dir / "pagefind" / name).unlink(missing_ok=True)
    return True
