"""SVG charts drawn at build time (issue 5, item 5): well-formed SVG images with no script, shown through
<img> with a text alternative, matching the rankings they picture, and the same bytes on every build."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from league.engine.build import build, check
from league.site.charts import Charts, Series, _spread, line_chart
from league.site.render import Site

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("charts") / "site"
    build(ROOT / "content", out, templates=ROOT / "league" / "templates")
    return out


@pytest.fixture(scope="module")
def results():
    return check(ROOT / "content").results


def imgs(html: str) -> list[dict]:
    return [dict(re.findall(r'(\w+)="([^"]*)"', m)) for m in re.findall(r"<img ([^>]*)>", html)]


def test_every_chart_is_an_image_with_a_text_alternative(site):
    charts = sorted(site.rglob("*.svg"))
    assert len(charts) > 20
    for f in charts:
        root = ET.fromstring(f.read_bytes())
        assert root.tag == SVG + "svg" and root.find(SVG + "title").text
        text = f.read_text(encoding="utf-8")
        assert "<script" not in text and not re.search(r"\son\w+=", text) and "href" not in text
    used = set()
    for page in site.rglob("index.html"):
        for img in imgs(page.read_text(encoding="utf-8")):
            if img.get("src", "").endswith(".svg"):
                assert len(img.get("alt", "")) > 40, (page, img)
                assert img["width"].isdigit() and img["height"].isdigit()
                used.add(img["src"])
        # a phone's drawing of the same chart (the season's): a <source> of the <picture> around its <img>
        used |= set(re.findall(r'<source media="[^"]*" srcset="([^"]*\.svg)"', page.read_text(encoding="utf-8")))
    assert {"/" + f.relative_to(site).as_posix() for f in charts} == used, "every chart is shown, none is missing"


def test_season_chart_ends_on_the_annual_ranking(site, results):
    sr = results.current
    root = ET.fromstring((site / sr.season.year / "ranking-clubes.svg").read_bytes())
    labels = [t.text for t in root.iter(SVG + "text") if t.text and re.match(r"\d+º ", t.text)]
    site_ = Site(results)
    expected = [f"{e.position}º {site_.club_name(e.key)}" for e in sr.clubs]
    assert [x.rstrip("…") for x in labels] == [e[: len(x.rstrip("…"))] for e, x in zip(expected, labels)]
    html = (site / sr.season.year / "index.html").read_text(encoding="utf-8")
    alt = next(i["alt"] for i in imgs(html) if i["src"].endswith("ranking-clubes.svg"))
    leader = site_.club_name(sr.clubs[0].key)
    assert alt.rstrip(".").endswith(leader) or leader in alt.split(";")[-1]


def test_pair_chart_lists_each_stage_position(site, results):
    site_ = Site(results)
    pair, hist = next((k, h) for k, h in sorted(site_.pair_hist.items())
                      if sum(res.stage.is_final for _, res, _ in h) >= 2)
    charts = Charts(results, site_)
    c = charts.pair(pair)
    for _, res, p in hist:
        if res.stage.is_final:
            assert f"{res.stage.name} {res.stage.season}: {p.position}º de {len(res.pairs)}" in c["alt"]
    assert list(charts.files) == [f"duplas/{pair[0]}--{pair[1]}/posicoes.svg"]


def test_charts_are_deterministic(results):
    a, b = Charts(results, Site(results)), Charts(results, Site(results))
    for sr in results.seasons:
        assert a.season(sr) == b.season(sr)
    for cid in results.league.clubs:
        a.club(cid), b.club(cid)
    assert a.files == b.files


def test_no_chart_with_fewer_than_two_points(results):
    charts = Charts(results, Site(results))
    assert charts.rounds("x.svg", "Fichas", ["R1"], [10], "um ponto só") is None
    assert charts.files == {}


def test_line_chart_labels_never_overlap_and_escape_text():
    ys = _spread([50, 50, 51, 200, 199], 14, 10, 205)
    ordered = sorted(ys)
    assert all(b - a >= 14 - 1e-9 for a, b in zip(ordered, ordered[1:]))
    assert max(ys) <= 205
    svg = line_chart(["a", "b"], [Series("<script>&", [1, 2])], "T <b>", label_width=100)
    assert "<script>" not in svg and "&lt;script&gt;&amp;" in svg
    ET.fromstring(svg.encode())


def test_bracket_orders_each_round_by_the_next(results):
    from league.site.charts import bracket
    from league.site.render import stage_view
    site_ = Site(results)
    found = 0
    for sr in results.seasons:
        for res in sr.stages:
            view = stage_view(site_, sr, res)
            if not view["rounds"]:
                continue
            tree = bracket(view["rounds"])
            if tree is None:
                continue
            found += 1
            cols = tree["columns"]
            assert len(cols[-1]["duos"]) == 1 and len(cols[-1]["duos"][0]) == 1
            for col, nxt in zip(cols, cols[1:]):
                feeders = [m for duo in col["duos"] for m in duo]
                finals = [m for duo in nxt["duos"] for m in duo]
                assert [m["winner"] for m in feeders] == [t for m in finals for t in (m["home"], m["away"])]
            placed = [r["name"] for r in tree["others"]]
            assert all(r["for_place"] != 1 for r in tree["others"])
            assert len(placed) + len(cols) == len(view["rounds"])
    assert found >= 3


def test_bracket_gives_up_on_rounds_that_are_not_a_bracket():
    from league.site.charts import bracket
    m = lambda i, h, a, w: {"id": i, "home": h, "away": a, "winner": w}  # noqa: E731
    semis = {"name": "Semifinal", "for_place": None, "places": None,
             "matches": [m("s1", "a", "b", "a"), m("s2", "c", "d", "d")]}
    final = {"name": "Final", "for_place": 1, "places": None, "matches": [m("f", "d", "a", "a")]}
    third = {"name": "3º", "for_place": 3, "places": None, "matches": [m("t", "b", "c", "c")]}
    tree = bracket([semis, third, final])
    assert [[x["id"] for x in duo] for duo in tree["columns"][0]["duos"]] == [["s2", "s1"]]
    assert tree["others"] == [third]
    odd = {"name": "Final", "for_place": 1, "places": None, "matches": [m("f", "x", "a", "a")]}
    assert bracket([semis, odd]) is None
    assert bracket([final]) is None


def test_quatrilho_player_chip_curve(site, results):
    """A Quatrilho player's points added up round by round (issue 5, item 5): one chart per championship on
    the player page, its alt text listing every round, ending on the net points of the classification."""
    html = (site / "jogadores" / "alceu-zanatta" / "index.html").read_text(encoding="utf-8")
    shown = {img["src"]: img for img in imgs(html) if "/quatrilho-" in img.get("src", "")}
    assert set(shown) == {"/jogadores/alceu-zanatta/quatrilho-2026-chapeco.svg",
                          "/jogadores/alceu-zanatta/quatrilho-2026-concordia.svg"}
    alt = shown["/jogadores/alceu-zanatta/quatrilho-2026-chapeco.svg"]["alt"]
    assert alt.startswith("Gráfico: pontos positivos de Alceu Zanatta no 1º Campeonato Aberto de Quatrilho de Chapecó")
    assert "1ª rodada: +60 (rodada +60); 2ª rodada: +110 (rodada +50)" in alt and "4ª rodada: +200 (rodada +50)" in alt
    checked = 0
    for sr in results.seasons:
        for res in sr.championships:
            for ln in res.lines:
                svg = site / "jogadores" / ln.player / f"quatrilho-{sr.season.year}-{res.championship.id}.svg"
                counted = [c for c in ln.cells if c.status != "pending"]
                if len(counted) < 2 or any(not r.counted for r in res.championship.rounds):
                    continue
                root = ET.fromstring(svg.read_bytes())
                points = [t.text for t in root.iter(SVG + "text") if t.get("font-weight") == "600"]
                assert points[-1].replace("−", "-") == str(ln.values["net"]), (ln.player, points)
                checked += 1
    assert checked > 30


# ----------------------------------------------------------------------------------- issue 36: room for the text

def test_margins_come_from_the_labels():
    from league.site.chart_text import text_width
    # estimated widths (chart_text.py, 12 px): "1ª Etapa" = 1 0.66 + ª 0.5 + space 0.42 + E 0.82 + t 0.42
    #   + a p a 3 × 0.66 = 4.8 em = 57.6 px
    assert text_width("1ª Etapa") == pytest.approx(57.6)
    # two stages from 1 to 2: y labels "1" and "2" (7.92 + 6 + 2 = 15.92); half of "1ª Etapa" + 2 = 30.8
    #   → left 31; right: half of "4ª Etapa" + 2 = 30.8 → 31 (more than the least 16); the two x labels
    #   apart: 1 × (57.6 + 8) = 65.6 → the chart is ceil(31 + 31 + 65.6) = 128 wide, not the 100 asked;
    #   the last label centred at 128 − 31 = 97, from 68.2 to 125.8: inside (before, "4ª Etap" was cut)
    svg = line_chart(["1ª Etapa", "4ª Etapa"], [Series("x", [1, 2])], "T", width=100, height=200)
    root = ET.fromstring(svg.encode())
    assert root.get("viewBox") == "0 0 128 200" and root.get("width") == "128"
    xs = {t.text: t.get("x") for t in root.iter(SVG + "text")}
    assert xs["1ª Etapa"] == "31" and xs["4ª Etapa"] == "97"


def test_every_text_of_every_chart_lies_inside_its_view_box(site):
    """The box each <text> takes, estimated from above (chart_text.extent), inside the viewBox: nothing of
    a label is cut off, whatever the size it is shown at (tests/browser/test_charts_phone.py measures it)."""
    from league.site.chart_text import extent
    checked = 0
    for f in sorted(site.rglob("*.svg")):
        root = ET.fromstring(f.read_bytes())
        _x, _y, width, height = (float(v) for v in root.get("viewBox").split())
        for t in root.iter(SVG + "text"):
            left, top, right, bottom = extent(float(t.get("x")), float(t.get("y")), t.text,
                                              t.get("text-anchor", "start"), bold=t.get("font-weight") == "600")
            assert 0 <= left and right <= width and 0 <= top and bottom <= height, (f, t.text, left, right, width)
            checked += 1
    assert checked > 1000


def test_each_chart_has_its_numbers_as_a_table(site, results):
    """'Ver como tabela' under each chart: the season chart's table has a row per club, its position after
    each final stage (the annual ranking's order after the last one)."""
    sr = results.current
    html = (site / sr.season.year / "index.html").read_text(encoding="utf-8")
    table = re.search(r'<details class="chart-table" data-pagefind-ignore="all">.*?</details>', html, re.S).group(0)
    assert "<summary>Ver como tabela</summary>" in table
    heads = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', table)
    finals = [res.stage.name for res in sr.stages if res.stage.is_final]
    assert heads == ["Clube"] + finals
    rows = re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', table)
    site_ = Site(results)
    assert [r[0] for r in rows] == [f"{e.position}º {site_.club_name(e.key)}".replace("&", "&amp;") for e in sr.clubs]
    last = [re.findall(r"<td>(.*?)</td>", cells)[-1] for _h, cells in rows]
    assert last == [f"{e.position}º" for e in sr.clubs]
    pages = [p for p in site.rglob("index.html") if 'class="chart"' in p.read_text(encoding="utf-8")]
    for p in pages:
        text = p.read_text(encoding="utf-8")
        details = '<details class="chart-table" data-pagefind-ignore="all">'
        assert text.count('<figure class="chart"') == text.count(details), p
