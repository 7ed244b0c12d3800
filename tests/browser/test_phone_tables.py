"""Standings tables on a 360 px phone (issue 36, item 1).

For every kind of standings table — stage classification, group, board table, stage pairs, annual clubs,
annual pairs, Quatrilho classification, the club, team, pair and player histories, the boards a pair or
player played and a Quatrilho player's rounds (item 2) — at 360×800:

- the position, the name and the deciding numbers of every row (points; for groups wins and points; for
  Quatrilho total and prize) lie inside the viewport without a swipe, and the page itself does not scroll
  sideways;
- after the table is scrolled sideways to its end, the name column is still in view (a sticky row header);
- every abbreviation of its header is explained by a visible legend (a title tooltip is no help on touch);
- no column of names repeats another (the same text in most rows, as the team and club columns of a stage
  did).

Screenshots of each kind, scrolled sideways, in test-artifacts/screenshots/phone-table-*.png.
"""
from __future__ import annotations

import re

import pytest

from tests.browser.conftest import shot

VIEWPORT = {"width": 360, "height": 800}
ROW_HEAD = ":scope > th[scope=row]"


# id: (page kind, table selector, the row's name cells, the headers of the columns that must be in view)
TABLES = {
    "stage-classification": ("stage", "#classificacao table.classification", ROW_HEAD, ["Pos.", "Pontos"]),
    "group": ("stage", "#grupos table.standings", ROW_HEAD, ["Pos.", "V", "P"]),
    "board": ("stage", "table.boards", "a[href*='/duplas/']", ["Pts. duplas"]),
    "stage-pairs": ("stage", "#duplas table.pairs", ROW_HEAD, ["Pos.", "P", "Ranking"]),
    "annual-clubs": ("season", "table.ranking >> nth=0", ROW_HEAD, ["Pos.", "Total"]),
    "annual-pairs": ("season", "table.ranking >> nth=1", ROW_HEAD, ["Pos.", "Total"]),
    "quatrilho": ("championship", "#classificacao table.classification", ROW_HEAD, ["Pos.", "Total", "Prêmio"]),
    "club-history": ("club", "main table:not(.chart-data)", ROW_HEAD, ["Pos.", "Pontos"]),
    "team-history": ("team", "main table:not(.chart-data)", ROW_HEAD, ["Pos.", "Pontos"]),
    "pair-history": ("pair", "main table:not(.chart-data) >> nth=0", ROW_HEAD, ["Pos.", "Ranking"]),
    "player-pairs": ("player", "main table:not(.chart-data) >> nth=0", ROW_HEAD, ["Pontos de ranking"]),
    "player-stages": ("player", "main table:not(.chart-data) >> nth=1", ROW_HEAD, ["Pos.", "Pontos"]),
    "player-quatrilho": ("player_quatrilho", "#quatrilho table:not(.chart-data) >> nth=0", ROW_HEAD, ["Pos.", "Pontos", "Prêmio"]),
    "player-quatrilho-rounds": ("player_quatrilho", "#quatrilho table.rounds-q", ROW_HEAD, ["Total", "Pos."]),
    "pair-games": ("pair", "#jogos table.games", ROW_HEAD, ["Pontos"]),
    "player-games": ("player", "#jogos table.games", ROW_HEAD, ["Pontos"]),
}

# every table the locator finds, with its shown rows' name cells and the cells of the named columns (the rows
# site.js folds away, the pairs without points, are not on screen to measure):
# [{where, headers, missing (headers not found), box (its scroll box), rows: [{name, cells, texts}]}]
MEASURE = """(tables, [nameSel, heads]) => tables.map((t, n) => {
  const rect = e => { const b = e.getBoundingClientRect(); return {left: b.left, right: b.right, text: e.textContent.trim()}; };
  const headers = Array.from(t.tHead.rows[0].cells, c => c.textContent.trim());
  const index = Object.fromEntries(heads.map(h => [h, headers.indexOf(h)]));
  return {
    where: (t.caption ? t.caption.textContent.trim().slice(0, 60) : '') + ' #' + n,
    headers, missing: heads.filter(h => index[h] < 0),
    box: rect(t.closest('.scroll') || t.parentElement),
    rows: Array.from(t.tBodies[0].rows).filter(r => r.checkVisibility()).map(r => ({
      name: Array.from(r.querySelectorAll(nameSel), rect),
      cells: Object.fromEntries(heads.filter(h => index[h] >= 0).map(h => [h, rect(r.cells[index[h]])])),
      texts: Array.from(r.cells, c => c.textContent.replace(/\\s+/g, ' ').trim()),
    })),
  };
})"""


def _measure(page, selector: str, name_sel: str, heads: list[str]) -> list[dict]:
    tables = page.locator(selector)
    assert tables.count() > 0, f"no table {selector}"
    return tables.evaluate_all(MEASURE, [name_sel, heads])


def _open(page, url: str) -> None:
    page.set_viewport_size(VIEWPORT)
    page.goto(url, wait_until="load")
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")


@pytest.fixture
def urls(kinds, server, page) -> dict[str, str]:
    """The page of each kind, and a player's page with Quatrilho results (from the championship)."""
    out = {k: server + v for k, v in kinds.items()}
    if "championship" in kinds:
        page.goto(out["championship"])
        href = page.locator("#classificacao tbody th[scope=row] a").first.get_attribute("href")
        out["player_quatrilho"] = server + href
    return out


def _page_url(urls: dict[str, str], kind: str) -> str:
    if kind not in urls:
        if kind in ("championship", "player_quatrilho"):
            pytest.skip(f"the demo content has no {kind} page")
        pytest.fail(f"the demo site has no {kind} page")
    return urls[kind]


def _outside(r: dict, left: float, right: float) -> bool:
    return r["left"] < left - 0.5 or r["right"] > right + 0.5


@pytest.mark.parametrize("table", list(TABLES))
def test_name_and_deciding_numbers_are_in_view_without_a_swipe(table, urls, page):
    kind, selector, name_sel, heads = TABLES[table]
    _open(page, _page_url(urls, kind))
    width = page.evaluate("() => document.documentElement.clientWidth")
    assert width == VIEWPORT["width"]
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page itself scrolls sideways by {overflow}px at 360 px"
    problems = []
    for t in _measure(page, selector, name_sel, heads):
        assert not t["missing"], f"{t['where']}: no column {t['missing']} in {t['headers']}"
        for row in t["rows"]:
            assert row["name"], f"{t['where']}: a row without a name: {row['texts']}"
            for r in row["name"] + list(row["cells"].values()):
                if _outside(r, 0, width):
                    problems.append(f"{t['where']}: “{r['text'][:40]}” at {r['left']:.0f}–{r['right']:.0f}px")
    assert not problems, f"{len(problems)} cells off-screen at 360 px, e.g.:\n  " + "\n  ".join(problems[:8])
    assert page.errors == []


@pytest.mark.parametrize("table", list(TABLES))
def test_the_name_column_stays_when_the_table_scrolls_sideways(table, urls, page):
    kind, selector, name_sel, heads = TABLES[table]
    _open(page, _page_url(urls, kind))
    tables = page.locator(selector)
    scrolled = tables.evaluate_all("""els => els.map(t => {
        const s = t.closest('.scroll'); if (!s) return 0;
        s.scrollLeft = s.scrollWidth; return s.scrollLeft; })""")
    problems = []
    for t in _measure(page, selector, name_sel, heads):
        box = t["box"]
        for row in t["rows"]:
            for r in row["name"]:
                if _outside(r, box["left"], box["right"]):
                    problems.append(f"{t['where']}: “{r['text'][:40]}” at {r['left']:.0f}–{r['right']:.0f}px "
                                    f"(the table shows {box['left']:.0f}–{box['right']:.0f}px)")
    tables.first.scroll_into_view_if_needed()
    shot(page, f"phone-table-{table}")
    assert not problems, (f"names scrolled away (scrolled by {scrolled}px), e.g.:\n  " + "\n  ".join(problems[:8]))


LEGEND = """els => els.map(t => {
  const abbrs = Array.from(t.tHead.querySelectorAll('abbr'), a => a.textContent.trim());
  const legends = Array.from(document.querySelectorAll('.legend')).filter(l => l.checkVisibility());
  return {abbrs, legend: legends.map(l => l.textContent.replace(/\\s+/g, ' ')).join(' | ')};
})"""


@pytest.mark.parametrize("table", list(TABLES))
def test_abbreviations_have_a_visible_legend(table, urls, page):
    kind, selector, _, _ = TABLES[table]
    _open(page, _page_url(urls, kind))
    for t in page.locator(selector).evaluate_all(LEGEND):
        for abbr in t["abbrs"]:
            key = "R1" if re.fullmatch(r"R\d+", abbr) else abbr   # the rounds R1…Rn: one entry
            assert re.search(rf"(?<!\w){re.escape(key)}(?!\w)", t["legend"]), \
                f"“{abbr}” is explained only in a tooltip; visible legends: {t['legend'] or 'none'}"


@pytest.mark.parametrize("table", list(TABLES))
def test_no_column_repeats_another(table, urls, page):
    kind, selector, name_sel, heads = TABLES[table]
    _open(page, _page_url(urls, kind))
    for t in _measure(page, selector, name_sel, heads):
        rows = [r["texts"] for r in t["rows"]]
        if len(rows) < 2:
            continue
        n = len(t["headers"])
        for i in range(n):
            for j in range(i + 1, n):
                same = sum(1 for r in rows if len(r) == n and re.search(r"[^\W\d_]", r[i]) and r[i] == r[j])
                assert same * 2 <= len(rows), \
                    f"{t['where']}: “{t['headers'][j]}” repeats “{t['headers'][i]}” in {same} of {len(rows)} rows"


def test_a_board_links_to_its_match_opened_and_in_view(urls, page):
    """From a pair's list of boards, the match link lands on the match on the stage page at 360 px: its
    folded list of matches opened (site.js; Chromium also unfolds it itself), the match in view and marked."""
    _open(page, _page_url(urls, "pair"))
    link = page.locator("#jogos table.games tbody a[href*='#jogo-']").first
    anchor = link.get_attribute("href").split("#")[1]
    link.click()
    page.wait_for_url(f"**#{anchor}")
    match = page.locator(f"article.match#{anchor}")
    match.wait_for(state="visible")
    box = match.bounding_box()
    assert box and 0 <= box["y"] < VIEWPORT["height"], f"#{anchor} at {box}"
    assert match.evaluate("e => e.matches(':target') && getComputedStyle(e).outlineStyle === 'solid'")
    shot(page, "phone-deep-link-match")
    assert page.errors == []
