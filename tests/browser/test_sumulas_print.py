"""The stage-day scoresheets printed (issue 35, item 3): `league sumulas 2026 etapa-5` on the demo content (six
group matches still to be played) printed by Chromium on A4 gives six pages, one sheet each, nothing cut off;
on a 360 px phone the file reads without sideways scrolling of the page, and axe finds no WCAG 2.1 AA problem."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from league.cli import main
from tests.browser.conftest import AXE, PHONE, ROOT, need
from tests.browser.test_axe import RUN, TAGS

PENDING = 6          # etapa-5's "A disputar": 1 in Grupo A, 2 in B, 1 in C, 2 in D
MM = 96 / 25.4       # CSS px per mm
# A4 (210 × 297 mm) less the 12 mm margins of the sheets' @page rule: the page box every sheet must fit in
PAGE_W, PAGE_H = (210 - 24) * MM, (297 - 24) * MM


@pytest.fixture(scope="module")
def sumulas(tmp_path_factory):
    out = tmp_path_factory.mktemp("sumulas") / "etapa-5.html"
    res = CliRunner().invoke(main, ["sumulas", "2026", "etapa-5", "--content", str(ROOT / "content"),
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    return out


def _boxes(page) -> list[dict]:
    """Every sheet's box, and the elements inside it that fall outside its page box or whose content is cut
    (an overflow that hides or scrolls); text for screen readers only (.sr-only) is clipped on purpose."""
    return page.evaluate("""([w, h]) => Array.from(document.querySelectorAll('.sheet'), s => {
        const top = s.getBoundingClientRect().top + window.scrollY;
        const out = Array.from(s.querySelectorAll('*')).map(e => [e, e.getBoundingClientRect()])
          .filter(([e, r]) => r.width > 0 && !e.closest('.sr-only') && (r.left < -0.5 || r.right > w + 0.5 || r.top + window.scrollY < top - 0.5
                  || r.bottom + window.scrollY > top + h + 0.5 || e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0
                     && getComputedStyle(e).overflowX !== 'visible'))
          .map(([e, r]) => `${e.tagName}.${e.className} ${Math.round(r.left)},${Math.round(r.top)} `
                           + `${Math.round(r.width)}x${Math.round(r.height)}`);
        return {height: s.getBoundingClientRect().height, width: s.scrollWidth, out: out,
                breakAfter: getComputedStyle(s).breakAfter};
    })""", [PAGE_W, PAGE_H])


def test_each_pending_match_prints_on_its_own_a4_page_with_nothing_cut_off(sumulas, page):
    # the viewport is the page box: in print emulation the sheets are laid out as on paper
    page.set_viewport_size({"width": round(PAGE_W), "height": round(PAGE_H)})
    page.goto(sumulas.as_uri(), wait_until="load")
    page.emulate_media(media="print")
    assert not page.locator(".intro").is_visible()          # the on-screen instructions stay off paper
    sheets = _boxes(page)
    assert len(sheets) == PENDING
    for i, s in enumerate(sheets, start=1):
        assert s["height"] <= PAGE_H, f"sheet {i} is {s['height']:.0f} px tall, the page {PAGE_H:.0f}"
        assert s["width"] <= PAGE_W + 0.5, f"sheet {i} is {s['width']} px wide"
        assert s["out"] == [], f"sheet {i}: outside its page: {s['out'][:5]}"
        # a page break after every sheet but the last: one sheet a page
        assert s["breakAfter"] == ("page" if i < PENDING else "auto"), (i, s["breakAfter"])
    pdf = page.pdf(format="A4", print_background=True)
    pages = len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))
    assert pages == PENDING, f"{pages} PDF pages for {PENDING} sheets"
    assert page.errors == []


def test_sheets_read_on_a_phone_and_pass_axe(sumulas, page):
    need(AXE.exists(), f"{AXE} is missing (cd tests/browser && npm ci)")
    page.set_viewport_size(PHONE)
    page.goto(sumulas.as_uri(), wait_until="load")
    # the page itself never scrolls sideways; a board table wider than the phone scrolls in its own box
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(RUN, TAGS)
    assert violations == [], "\n".join(f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"])
                                       for v in violations)
