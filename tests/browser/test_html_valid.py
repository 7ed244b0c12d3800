"""The Nu HTML Checker (npm vnu-jar, run with Java) over every HTML file of the demo site in one run:
0 errors."""
from __future__ import annotations

import json
import subprocess

from tests.browser.conftest import VNU, has_java, need


def test_every_page_is_valid_html(site_dir):
    need(has_java(), "java is missing (apt-get install -y default-jre-headless)")
    need(VNU.exists(), f"{VNU} is missing (cd tests/browser && npm ci)")
    files = sorted(str(p) for p in site_dir.rglob("*.html"))
    assert len(files) > 50
    proc = subprocess.run(["java", "-Xss4m", "-jar", str(VNU), "--errors-only", "--format", "json", *files],
                          capture_output=True, text=True, timeout=600)
    out = proc.stdout.strip() or proc.stderr.strip()
    report = json.loads(out[out.index("{"):])
    errors = [m for m in report["messages"] if m.get("type") in ("error", "non-document-error")]
    assert errors == [], "\n".join(
        f"{m.get('url', '').replace('file:' + str(site_dir), '')}:{m.get('lastLine', '?')}: {m.get('message')}"
        f" [{m.get('extract', '').strip()[:80]}]" for m in errors[:30])
