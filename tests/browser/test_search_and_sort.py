"""Progressive enhancement: pagefind search (finds a pair by one player's name), the search page without
JavaScript (links to the lists), and table sorting with aria-sort."""
from __future__ import annotations

import re

import pytest


def test_search_finds_a_pair_by_one_players_name(page, server, site_dir):
    slug = sorted(p.name for p in (site_dir / "duplas").iterdir())[0]
    html = (site_dir / "duplas" / slug / "index.html").read_text(encoding="utf-8")
    pair_name = re.search(r"<h1[^>]*>(.*?)</h1>", html).group(1)
    player = pair_name.split(" e ")[0]
    assert (site_dir / "pagefind" / "pagefind.js").exists(), "the site has no search index"
    page.goto(server + "/busca/")
    box = page.get_by_label("Jogador, dupla, clube, etapa ou campeonato")
    box.fill(player)
    hit = page.locator(f"#busca-resultados a[href$='/duplas/{slug}/']")
    hit.wait_for(timeout=10_000)
    assert hit.inner_text() == pair_name
    assert "resultado" in page.locator("#busca-status").inner_text()
    hit.click()
    page.wait_for_url(f"**/duplas/{slug}/")
    assert page.errors == []


def test_search_query_from_the_address(page, server):
    page.goto(server + "/busca/?q=clube")
    page.locator("#busca-resultados li").first.wait_for(timeout=10_000)
    assert page.locator("#busca-q").input_value() == "clube"
    assert page.errors == []


def test_search_page_without_javascript_shows_the_lists(browser, server):
    ctx = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 740})
    try:
        page = ctx.new_page()
        page.goto(server + "/busca/")
        assert not page.locator("#busca").is_visible(), "the search form needs JavaScript and stays hidden"
        assert page.locator("noscript").count() == 1
        for href in ("/jogadores/", "/clubes/"):
            assert page.locator(f"main a[href='{href}']").is_visible()
    finally:
        ctx.close()


def column(page, table, index: int) -> list[str]:
    return table.locator("tbody tr").evaluate_all(
        "(rows, i) => rows.map(r => r.cells[i].textContent.trim())", index)


def as_number(s: str) -> float:
    return float(s.replace("º", "").replace("=", "").replace(",", "."))


@pytest.mark.parametrize("where", ["season", "stage"])
def test_sorting_a_table(page, server, kinds, where):
    page.goto(server + kinds[where])
    table = page.locator("table.sortable").first
    heads = table.locator("thead th")
    names = heads.evaluate_all("hs => hs.map(h => h.textContent.trim())")
    total = names.index("Total") if "Total" in names else names.index("Ranking")
    button = heads.nth(total).locator("button.sort")
    assert button.count() == 1, "sortable headers become buttons"
    original = column(page, table, 1)

    button.click()
    assert heads.nth(total).get_attribute("aria-sort") == "ascending"
    values = [as_number(v) for v in column(page, table, total)]
    assert values == sorted(values)
    button.click()
    assert heads.nth(total).get_attribute("aria-sort") == "descending"
    values = [as_number(v) for v in column(page, table, total)]
    assert values == sorted(values, reverse=True)

    heads.nth(1).locator("button.sort").click()  # by name: alphabetical, the other header forgets its order
    assert heads.nth(total).get_attribute("aria-sort") is None
    assert heads.nth(1).get_attribute("aria-sort") == "ascending"
    names_now = column(page, table, 1)
    assert sorted(names_now) == sorted(original) and len(names_now) == len(original)
    folded = page.evaluate("xs => xs.slice().sort((a, b) => a.localeCompare(b, 'pt-BR', {sensitivity: 'base'}))",
                           names_now)
    assert names_now == folded

    heads.nth(0).locator("button.sort").click()  # back to positions 1º, 2º, …
    positions = [as_number(v) for v in column(page, table, 0)]
    assert positions == sorted(positions)
    assert page.errors == []
