"""Finding things on a phone (issue 36, item 5): the search box in the header of every page, the filter
above long tables and lists (accents and case ignored, the count said in a live region), the pair ranking's
rows without points folded behind a button — and, without JavaScript, the link to the search page and every
row of every table."""
from __future__ import annotations

import json
import re

import pytest

from tests.browser.conftest import EXPECTED_KINDS, OPTIONAL_KINDS, PHONE

# the demo's 2026 pair ranking: 100 pairs played a final stage (etapas 1–4); places 1–8 of each earn points
# (item 12.1, 20 16 12 8 6 4 3 2): 4 × 8 = 32 places, taken by 25 pairs (7 of them scored twice, as Fábio
# Becker e Vilmar Trevisan, 1st in etapas 1 and 3) → 100 − 25 = 75 pairs without points, folded
PAIRS, SCORED, FOLDED = 100, 25, 75


def test_every_page_kind_has_the_search_box_in_its_header(page, kind, kind_url):
    if kind.startswith("embed"):
        pytest.skip("an embed page (framed by other sites) has no header: only its table and a link back")
    page.goto(kind_url)
    form = page.locator("header.top form.find[role=search]")
    assert form.count() == 1 and form.is_visible()
    assert form.get_attribute("action").endswith("busca/") and form.get_attribute("method") == "get"
    assert form.locator("input[type=search][name=q]").is_visible()
    assert page.errors == []


def test_the_header_search_box_opens_the_search_with_the_query(page, server, kinds):
    page.goto(server + kinds["club"])
    page.get_by_role("search", name="Buscar no site").get_by_role("searchbox").fill("clube")
    page.get_by_role("search", name="Buscar no site").get_by_role("searchbox").press("Enter")
    page.wait_for_url("**/busca/?q=clube")
    page.locator("#busca-resultados li").first.wait_for(timeout=10_000)
    assert page.locator("#busca-q").input_value() == "clube"
    assert page.errors == []


def test_without_javascript_the_header_links_to_the_search_page_and_tables_are_whole(browser, server, kinds):
    ctx = browser.new_context(java_script_enabled=False, viewport=PHONE)
    try:
        page = ctx.new_page()
        for kind in [k for k in EXPECTED_KINDS + OPTIONAL_KINDS if k in kinds and not k.startswith("embed")]:
            page.goto(server + kinds[kind])   # (an embed page has no header)
            assert not page.locator("header form.find").is_visible(), kind
            assert page.locator("header nav a[href='/busca/']").is_visible(), kind
        page.goto(server + kinds["season"])
        assert page.locator("#ranking-duplas tbody tr:visible").count() == PAIRS
        assert not page.locator("div.filter").first.is_visible() and not page.locator("button.unfold").is_visible()
        page.goto(server + "/jogadores/")
        assert not page.locator("div.filter").is_visible()
        assert page.locator("#lista-jogadores > li:visible").count() == page.locator("#lista-jogadores > li").count()
    finally:
        ctx.close()


def visible_names(page, selector: str) -> list[str]:
    return page.locator(selector).evaluate_all(
        "els => els.filter(e => e.checkVisibility()).map(e => e.querySelector('a').textContent.trim())")


def test_filtering_the_players_ignores_accents_and_case(page, server):
    page.goto(server + "/jogadores/")
    everyone = page.locator("#lista-jogadores > li").count()
    box = page.get_by_label("Filtrar jogadores pelo nome ou pelo clube")
    # players.yaml: "Fábio Schneider" and "Fábio Becker" hold "fabio" once the accent is gone; "Fabiana
    # Fagundes" does not (fabi-a), nor does any club's name
    box.fill("FABIO")
    assert visible_names(page, "#lista-jogadores > li") == ["Fábio Becker", "Fábio Schneider"]
    status = page.locator("[data-filter=lista-jogadores] [role=status]")
    assert status.get_attribute("aria-live") == "polite"
    page.wait_for_function("() => document.querySelector('[data-filter=lista-jogadores] [role=status]').textContent")
    assert status.inner_text() == f"Mostrando 2 de {everyone}."
    box.fill("fabio zzz")   # every word must match
    page.wait_for_function(
        "() => /Nada/.test(document.querySelector('[data-filter=lista-jogadores] [role=status]').textContent)")
    assert status.inner_text() == "Nada encontrado para “fabio zzz”."
    assert visible_names(page, "#lista-jogadores > li") == []
    box.fill("")
    assert page.locator("#lista-jogadores > li:visible").count() == everyone
    assert page.errors == []


def fold(s: str) -> str:
    import unicodedata
    return "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c)).lower()


def test_the_pairs_without_points_are_folded_and_a_filter_finds_them(page, server, kinds, site_dir):
    api = json.loads((site_dir / "api" / "2026" / "truco" / "ranking.json").read_text(encoding="utf-8"))
    assert len(api["pairs"]) == PAIRS and sum(p["points"] > 0 for p in api["pairs"]) == SCORED
    page.goto(server + kinds["season"])
    rows = "#ranking-duplas tbody tr"
    assert page.locator(f"{rows}:visible").count() == SCORED
    button = page.locator("button.unfold[aria-controls=ranking-duplas]")
    assert button.inner_text() == f"Mostrar todas (mais {FOLDED} duplas sem pontos)"
    assert button.get_attribute("aria-expanded") == "false"
    note = page.locator("p.note", has=button).inner_text()
    assert note.startswith(f"Duplas sem pontos no ano (26º a 100º): {FOLDED}.")

    # a filter looks in every row, folded or not: the pairs with a Hélio (Andrade or Botelho)
    names = re.findall(r'<th scope="row"><a href="[^"]*">([^<]*)</a></th>',
                       (site_dir / "2026" / "index.html").read_text(encoding="utf-8").split('id="ranking-duplas"')[1])
    helios = [n for n in names[:PAIRS] if "helio" in fold(n)]
    assert helios and any(p["points"] == 0 for p in api["pairs"] if "helio" in " ".join(p["players"]))
    page.get_by_label("Filtrar duplas pelo nome de um jogador").fill("hélio")
    assert visible_names(page, rows) == helios
    page.get_by_label("Filtrar duplas pelo nome de um jogador").fill("")
    assert page.locator(f"{rows}:visible").count() == SCORED

    button.click()
    assert button.get_attribute("aria-expanded") == "true"
    assert button.inner_text() == "Mostrar só as duplas com pontos"
    assert page.locator(f"{rows}:visible").count() == PAIRS
    button.click()
    assert page.locator(f"{rows}:visible").count() == SCORED
    assert page.errors == []


def test_the_zero_rows_say_no_countback_each(page, server, kinds):
    # 'mais vezes em 46º lugar' once per row without points was noise: those rows say nothing, the note
    # above says how they are ordered; the rows with points keep theirs
    page.goto(server + kinds["season"])
    whys = page.locator("#ranking-duplas tbody tr").evaluate_all(
        "rs => rs.map(r => [r.cells[2].textContent.trim(), r.querySelector('td.why').textContent.trim()])")
    assert len(whys) == PAIRS
    assert all(why == "" for total, why in whys if total == "0")
    assert all(why.startswith("mais vezes em ") or why in ("", "empate") for _t, why in whys)
