"""The stage-day scoresheets printed (issue 35, item 3): `league sumulas 2026 etapa-5` on the demo content (six
group matches still to be played), and a stage of seven boards a match with long names (six matches), printed by
Chromium on A4 give six pages, one sheet each, nothing cut off or out of its box;
on a 360 px phone the file reads without sideways scrolling of the page, axe finds no WCAG 2.1 AA problem, and the
Nu HTML Checker no error."""
from __future__ import annotations

import json
import re
import subprocess

import pytest
from click.testing import CliRunner

from league.cli import main
from tests.browser.conftest import AXE, PHONE, ROOT, VNU, has_java, need
from tests.browser.test_axe import RUN, TAGS

PENDING = 6          # etapa-5's "A disputar": 1 in Grupo A, 2 in B, 1 in C, 2 in D; and 4 teams, none played
MM = 96 / 25.4       # CSS px per mm
# A4 (210 × 297 mm) less the 12 mm margins of the sheets' @page rule: the page box every sheet must fit in
PAGE_W, PAGE_H = (210 - 24) * MM, (297 - 24) * MM


SEVEN = """\
name: 2ª Etapa
date: 2026-04-18
host: aa
city: São José dos Pinhais
status: in_progress
teams: {{aa: {aa}, bb: {bb}, cc: {cc}, dd: {dd}}}
phases:
  - name: Fase de grupos
    groups:
      Grupo A:
        teams: [aa, bb, cc, dd]
"""


def _seven_boards(root):
    """Four teams, no match played yet (six sheets), seven boards a match, squads of nine pairs (two reserves),
    names as long as the demo's longest ("Associação Recreativa Oeste", "Claudinei Moraes Kowalski")."""
    from tests.util import LEAGUE, squad, write_content
    teams = ["aa", "bb", "cc", "dd"]
    content = write_content(root, {"etapa-2": SEVEN.format(**{t: squad(t, 9) for t in teams})}, clubs=teams,
                            pairs_per_team=9, league=LEAGUE + "truco: {boards: 7}\n")
    for name, old, new in (("clubs.yaml", "Clube AA", "Associação Recreativa Oeste"),
                           ("players.yaml", "Jogador ", "Claudinei Moraes ")):
        path = content / name
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return content, "etapa-2"


@pytest.fixture(scope="module", params=["demo", "seven-boards"])
def sumulas(request, tmp_path_factory):
    root = tmp_path_factory.mktemp("sumulas")
    content, stage = (ROOT / "content", "etapa-5") if request.param == "demo" else _seven_boards(root)
    out = root / f"{stage}.html"
    res = CliRunner().invoke(main, ["sumulas", "2026", stage, "--content", str(content), "--out", str(out)])
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
        // and every box to write in inside its table cell (not over the next one)
        const cell = (e, r) => { const c = e.closest('td, th').getBoundingClientRect();
          return r.left >= c.left - 0.5 && r.right <= c.right + 0.5 && r.top >= c.top - 0.5 && r.bottom <= c.bottom + 0.5; };
        Array.from(s.querySelectorAll('td .box, td .check, td .num')).filter(e => !cell(e, e.getBoundingClientRect()))
          .forEach(e => out.push(`${e.className} outside its cell in ${e.closest('tr').innerText.slice(0, 20)}`));
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


def test_the_sheets_are_valid_html(sumulas):
    need(has_java(), "java is missing (apt-get install -y default-jre-headless)")
    need(VNU.exists(), f"{VNU} is missing (cd tests/browser && npm ci)")
    proc = subprocess.run(["java", "-Xss4m", "-jar", str(VNU), "--errors-only", "--format", "json", str(sumulas)],
                          capture_output=True, text=True, timeout=300)
    out = proc.stdout.strip() or proc.stderr.strip()
    errors = [m for m in json.loads(out[out.index("{"):])["messages"] if m.get("type") in ("error", "non-document-error")]
    assert errors == [], "\n".join(f"{m.get('lastLine', '?')}: {m.get('message')}" for m in errors[:20])
