#!/usr/bin/env python3
"""bench/rebuilds.py — what `league serve` does to an editor's machine: one process that rebuilds the site
again and again (league.cli.serve.DevServer.rebuild, without the HTTP server), each time after a one-board
edit, as it does at every save. Used by bench/run (at the
largest size); runs with bench/.venv's Python, where league is installed.

    python bench/rebuilds.py --content DIR --out SITE [--rebuilds 10]

Prints one JSON object: each rebuild's seconds and the process's resident memory (VmRSS) after it, and
before the first one. The edited board goes back and forth between two valid scores (the winner of every
game stays the same), and the file is put back as it was at the end: the content is unchanged afterwards
(the site then shows the last edit's neighbour: bench/run builds it cold again before comparing anything).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

# the first game of a board line won 12 to 0–9: "12-4" ↔ "12-5" keeps every winner (a valid edit both ways)
_GAME = re.compile(r'(?<![\d-])12-([0-9])(?![\d])')


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def board_line(stage: Path) -> tuple[list[str], int, re.Match]:
    lines = stage.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        m = re.search(r'"([0-9 -]+)"', line)
        if m and (line.lstrip().startswith('- "') or "score:" in line):
            g = _GAME.search(line, m.start(1), m.end(1))
            if g:
                return lines, i, g
    raise SystemExit(f"no board won 12 to 0-9 in {stage}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--content", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--rebuilds", type=int, default=10)
    args = ap.parse_args()
    from league.cli.serve import DevServer   # league serve's own rebuild (its build, then its housekeeping)
    server = DevServer(args.content, args.out, port=0, echo=lambda _s: None)
    years = sorted(p.name for p in (args.content / "seasons").iterdir() if p.is_dir())
    stage = args.content / "seasons" / years[-1] / "truco" / "etapa-1.yaml"
    original = stage.read_text(encoding="utf-8")
    out = {"edited": str(stage.relative_to(args.content)), "rss_before_mb": round(rss_mb(), 1),
           "seconds": [], "rss_mb": []}
    try:
        for k in range(args.rebuilds):
            lines, i, g = board_line(stage)
            loser = int(g.group(1))
            new = loser + 1 if loser % 2 == 0 else loser - 1   # 4 ↔ 5, 0 ↔ 1, 8 ↔ 9
            line = lines[i]
            lines[i] = line[:g.start(1)] + str(new) + line[g.end(1):]
            stage.write_text("\n".join(lines), encoding="utf-8")
            t0 = time.perf_counter()
            if not server.rebuild():
                raise SystemExit(f"rebuild {k + 1} failed")
            server.collect()   # its housekeeping, which the server does in the next quiet second
            out["seconds"].append(round(time.perf_counter() - t0, 3))
            out["rss_mb"].append(round(rss_mb(), 1))
    finally:
        stage.write_text(original, encoding="utf-8")
    sys.stdout.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
