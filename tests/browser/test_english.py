"""The demo built with `locale: en` (issue 5, item 8) in Chromium: axe finds no WCAG 2.1 A/AA violation on
the main page kinds, search speaks English and finds a pair, and tables sort numbers written the
English way (1st, 1,234.50)."""
from __future__ import annotations

import functools
import http.server
import re
import shutil
import threading
from pathlib import Path

import pytest

from tests.browser.conftest import AXE, DESKTOP, PHONE, ROOT, _Quiet, need, page_kinds
from tests.browser.test_axe import RUN, TAGS

KINDS = ["home", "season", "stage", "player", "search", "championship"]


@pytest.fixture(scope="module")
def en_site(tmp_path_factory) -> Path:
    from league.engine.build import build
    from league.site.search import run_pagefind
    root = tmp_path_factory.mktemp("browser-en")
    shutil.copytree(ROOT / "content", root / "content")
    league = root / "content" / "league.yaml"
    league.write_text(re.sub(r"^locale: pt_BR$", "locale: en", league.read_text(encoding="utf-8"), flags=re.M),
                      encoding="utf-8")
    build(root / "content", root / "site", templates=ROOT / "league" / "templates", cache_dir=False)
    if not (root / "site" / "pagefind").exists():
        run_pagefind(root / "site")
    return root / "site"


@pytest.fixture(scope="module")
def en_server(en_site):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(en_site)))
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def en_page(browser):
    from tests.browser.conftest import Page
    ctx = browser.new_context(viewport=PHONE, locale="en-US", service_workers="block")
    yield Page(ctx.new_page())
    ctx.close()


@pytest.mark.parametrize("en_kind", KINDS)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360", "1280"])
def test_axe_in_english(en_kind, viewport, en_page, en_site, en_server):
    need(AXE.exists(), f"{AXE} is missing (cd tests/browser && npm ci)")
    kinds = page_kinds(en_site)
    en_page.set_viewport_size(viewport)
    en_page.goto(en_server + kinds[en_kind], wait_until="load")
    assert en_page.locator("html").get_attribute("lang") == "en"
    en_page.add_script_tag(path=str(AXE))
    violations = en_page.evaluate(RUN, TAGS)
    assert violations == [], "\n".join(f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"])
                                       for v in violations)
    assert en_page.errors == []


def test_search_in_english(en_page, en_site, en_server):
    slug = sorted(p.name for p in (en_site / "duplas").iterdir())[0]
    name = re.search(r"<h1[^>]*>(.*?)</h1>", (en_site / "duplas" / slug / "index.html").read_text(encoding="utf-8")).group(1)
    en_page.goto(en_server + "/busca/")
    en_page.get_by_label("Player, pair, club, stage or championship").fill(name.split(" and ")[0])
    hit = en_page.locator(f"#busca-resultados a[href$='/duplas/{slug}/']")
    hit.wait_for(timeout=10_000)
    assert hit.inner_text() == name
    assert re.fullmatch(r"\d+ results?( \(showing 20\))?\.", en_page.locator("#busca-status").inner_text())
    en_page.get_by_label("Player, pair, club, stage or championship").fill("zzzqqq")
    en_page.wait_for_function("document.getElementById('busca-status').textContent.startsWith('Nothing found')")
    assert en_page.errors == []


def test_sorting_english_numbers(en_page, en_site, en_server):
    en_page.goto(en_server + page_kinds(en_site)["season"])
    table = en_page.locator("table.sortable").first
    pos = table.locator("thead th").nth(0).locator("button")
    total = table.locator("thead th").nth(2).locator("button")

    def col(i):
        return table.locator("tbody tr").evaluate_all("(rows, i) => rows.map(r => r.cells[i].textContent.trim())", i)

    def number(s):
        return float(re.sub(r"(st|nd|rd|th)?=?$", "", s).replace(",", ""))

    total.click()
    values = [number(v) for v in col(2)]
    assert values == sorted(values) and len(set(values)) > 1
    total.click()
    assert [number(v) for v in col(2)] == sorted(values, reverse=True)
    pos.click()
    places = col(0)
    assert re.fullmatch(r"1st=?", places[0]) and [number(p) for p in places] == sorted(number(p) for p in places)
    assert en_page.errors == []
