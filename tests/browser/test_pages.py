"""Every page kind in Chromium: loads without console errors, nothing overflows a 360 px phone
(wide tables scroll inside their own .scroll box), links resolve; screenshots at phone and desktop width."""
from __future__ import annotations

from urllib.parse import urljoin, urlparse

from tests.browser.conftest import DESKTOP, PHONE, http_status, shot

LINKS = "Array.from(document.querySelectorAll('a[href]'), a => a.href)"


def test_page_kind_loads_fits_a_phone_and_is_photographed(kind, kind_url, page):
    page.goto(kind_url, wait_until="load")
    page.wait_for_load_state("networkidle")
    assert page.title(), "page has no title"
    assert page.locator("h1").count() == 1, "a page has exactly one h1"
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"]:
        wide = page.evaluate("""w => Array.from(document.querySelectorAll('body *'))
            .filter(e => e.getBoundingClientRect().right > w + 0.5 && !e.closest('.scroll'))
            .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').trim().slice(0, 40))""",
                             PHONE["width"])
        raise AssertionError(f"{kind}: page is {width}px wide at 360px; overflowing: {wide}")
    shot(page, f"{kind}-360")
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(50)
    shot(page, f"{kind}-1280")
    assert page.errors == [], f"{kind}: {page.errors}"


def test_links_on_page_kind_resolve(kind, kind_url, page, server):
    page.goto(kind_url, wait_until="load")
    origin = urlparse(server).netloc
    bad = []
    for href in sorted(set(page.evaluate(LINKS))):
        u = urlparse(href)
        if u.scheme not in ("http", "https") or u.netloc != origin:
            continue
        target = urljoin(href, u.path)  # fragments are in-page anchors, checked below
        status = http_status(target)
        if status != 200:
            bad.append(f"{href} → {status}")
        if u.fragment and u.path == urlparse(kind_url).path:
            if not page.locator(f"[id='{u.fragment}']").count():
                bad.append(f"{href} → no element #{u.fragment}")
    assert bad == [], f"{kind}: broken links {bad}"


def test_stage_club_pair_and_player_pages_are_reached_by_clicking(page, server, kinds):
    """Follow the links a visitor would: season → stage → club; stage → pair → player."""
    page.goto(server + kinds["season"])
    for selector, folder in (("main a[href*='/truco/']", "/truco/"),):
        page.locator(selector).first.click()
        page.wait_for_url(f"**{folder}**")
    stage = page.url
    page.locator("table.classification a[href*='/clubes/']").first.click()
    page.wait_for_url("**/clubes/*/")
    assert page.locator("h1").inner_text()
    page.goto(stage)
    link = page.locator("table.pairs a[href*='/duplas/']").first
    name = link.inner_text()
    link.click()
    page.wait_for_url("**/duplas/*/")
    assert page.locator("h1").inner_text() == name
    player = page.locator("main .meta a[href*='/jogadores/']").first
    pname = player.inner_text()
    player.click()
    page.wait_for_url("**/jogadores/*/")
    assert page.locator("h1").inner_text() == pname
    assert page.errors == []


def test_every_internal_link_of_the_site_resolves(site_dir, server):
    """All pages, not only one per kind: every href to this site leads to a file that exists."""
    import re
    bad = set()
    for f in sorted(site_dir.rglob("*.html")):
        if "pagefind" in f.parts:
            continue
        for href in re.findall(r'href="(/[^"#]*)', f.read_text(encoding="utf-8")):
            target = site_dir / href.lstrip("/")
            if not (target.is_file() or (target / "index.html").is_file()):
                bad.add(f"{f.relative_to(site_dir)} → {href}")
    assert not bad, sorted(bad)[:20]


def test_stage_classification_prints_on_one_a4_page_without_navigation(page, server, kinds):
    """Print media at A4 width (210 mm less 10 mm margins, 96 px/in): no header, nav, footer or source
    links; the classification section is shorter than one page (297 mm less margins)."""
    mm = 96 / 25.4
    page.set_viewport_size({"width": round((210 - 20) * mm), "height": round((297 - 20) * mm)})
    page.emulate_media(media="print")
    page.goto(server + kinds["stage"])
    for sel in ("header.top", "footer", "nav.toc", ".skip", "p.api"):
        assert not page.locator(sel).first.is_visible(), f"{sel} is printed"
    box = page.locator("#classificacao").bounding_box()
    assert box["height"] <= (297 - 20) * mm, f"classification is {box['height']:.0f}px tall"
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= round((210 - 20) * mm), "nothing is cut off at the right edge"
    pdf = page.pdf(format="A4", margin={"top": "10mm", "bottom": "10mm", "left": "10mm", "right": "10mm"})
    assert pdf.startswith(b"%PDF")
