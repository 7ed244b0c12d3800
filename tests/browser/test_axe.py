"""axe-core in Chromium on every page kind, at phone and desktop width, with every <details> opened so
their contents are checked too: 0 violations of the WCAG 2.1 A and AA rules."""
from __future__ import annotations

import pytest

from tests.browser.conftest import AXE, DESKTOP, PHONE, need

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
RUN = """async tags => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\\n').slice(1, 3).join(' '))}));
}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360", "1280"])
def test_axe_finds_no_wcag21_aa_violation(kind, kind_url, page, viewport):
    need(AXE.exists(), f"{AXE} is missing (cd tests/browser && npm ci)")
    page.set_viewport_size(viewport)
    page.goto(kind_url, wait_until="load")
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(RUN, TAGS)
    assert violations == [], "\n".join(f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"])
                                       for v in violations)
