"""Charts on a phone (issue 36, item 6): no label of a chart is cut off — each <text>'s box, as Chromium
draws it with the fonts it has, lies inside the SVG's box at 360 and at 1280 px —, every chart of the demo
is whole on a 360 px phone (the season's in its own phone drawing), and its numbers are a table under it
("Ver como tabela", a <details>)."""
from __future__ import annotations

import pytest

from tests.browser.conftest import DESKTOP, PHONE

# every <text> box against the <svg> box, in CSS px (the SVG is shown at its own size: 1 unit = 1 px)
OUTSIDE = """() => {
  const svg = document.documentElement.getBoundingClientRect();
  return Array.from(document.querySelectorAll('text')).map(t => {
    const b = t.getBoundingClientRect();
    return {text: t.textContent, left: b.left - svg.left, right: b.right - svg.left, top: b.top - svg.top,
            bottom: b.bottom - svg.top, width: svg.width, height: svg.height};
  });
}"""


def charts(site_dir) -> list[str]:
    """The season's chart (both drawings), and the first club, pair and Quatrilho player chart (by path)."""
    found = sorted(p.relative_to(site_dir).as_posix() for p in site_dir.rglob("*.svg"))
    picks = [next(p for p in found if p.endswith(name))
             for name in ("ranking-clubes.svg", "ranking-clubes-celular.svg")]
    for part in ("clubes/", "duplas/", "/quatrilho-"):
        picks += [p for p in found if part in p][:1]
    return picks


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360", "1280"])
def test_no_chart_label_is_cut_off(page, server, site_dir, viewport):
    page.set_viewport_size(viewport)
    paths = charts(site_dir)
    assert len(paths) == 5, paths
    for path in paths:
        page.goto(f"{server}/{path}")
        boxes = page.evaluate(OUTSIDE)
        assert len(boxes) >= 6, path
        for b in boxes:
            assert b["left"] >= -0.5 and b["right"] <= b["width"] + 0.5, (path, b)
            assert b["top"] >= -0.5 and b["bottom"] <= b["height"] + 0.5, (path, b)
    # an SVG opened on its own makes the browser ask for /favicon.ico (the pages say data:), which the site
    # has not: its 404 in the console is the one error allowed (a missing chart has no text above)
    assert all(e.startswith("console.error: Failed to load resource") and "404" in e for e in page.errors), page.errors


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360", "1280"])
def test_the_season_chart_is_whole_on_a_phone_and_has_a_table(page, server, kinds, viewport):
    # the season chart, 720 px wide with the 14 clubs named at its right, has a drawing for a phone: 320 px,
    # the stages as 1ª…4ª, whole inside the 328 px of a 360 px page; the table under it opens with a row per
    # club of the annual ranking (14 in the demo)
    page.set_viewport_size(viewport)
    page.goto(server + kinds["season"])
    box = page.locator("figure.chart .scroll").first
    box.scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelector('figure.chart img').complete")
    shown = box.evaluate("b => ({client: b.clientWidth, scroll: b.scrollWidth, img: b.querySelector('img').width, "
                         "src: b.querySelector('img').currentSrc})")
    if viewport == PHONE:
        assert shown["src"].endswith("/ranking-clubes-celular.svg") and shown["img"] == 320, shown
        assert shown["scroll"] <= shown["client"], shown
    else:
        assert shown["src"].endswith("/ranking-clubes.svg") and shown["img"] == 720, shown
    details = page.locator("figure.chart + details.chart-table").first
    table = details.locator("table")
    assert not table.is_visible()
    details.locator("summary", has_text="Ver como tabela").click()
    assert table.is_visible()
    assert table.locator("tbody tr").count() == 14
    assert page.errors == []


@pytest.mark.parametrize("which", ["club", "pair"])
def test_a_one_line_chart_is_whole_on_a_phone(page, server, kinds, which):
    # 4 final stages in the demo: 320 px wide (charts.PHONE), inside the 328 px between the page's margins
    page.goto(server + kinds[which])
    box = page.locator("figure.chart .scroll").first
    sizes = box.evaluate("b => ({client: b.clientWidth, scroll: b.scrollWidth, img: b.querySelector('img').width})")
    assert sizes["img"] == 320 and sizes["scroll"] <= sizes["client"], sizes
    assert page.errors == []
