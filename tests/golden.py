"""The golden copy of the demo's JSON API: `python -m tests.golden --update` refreshes tests/golden/api/."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "api"


def demo_api() -> dict[str, str]:
    from league.site.api import api_files
    from league.engine.build import check
    report = check(ROOT / "content")
    return {k: v for k, v in api_files(report.results).items() if k.endswith(".json")}


def update() -> None:
    files = demo_api()
    if GOLDEN.exists():
        for old in GOLDEN.rglob("*.json"):
            old.unlink()
    for rel, text in files.items():
        target = GOLDEN / rel[len("api/"):]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    print(f"{len(files)} arquivos em {GOLDEN.relative_to(ROOT)}")


if __name__ == "__main__":
    if "--update" in sys.argv:
        update()
    else:
        print(__doc__)
