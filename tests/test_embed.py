"""The embed pages (issue 37, item 6; league/site/embed.py): what each shows of the demo content, worked out by
hand from its stage files; their minimal layout; the "Incorporar no seu site" snippet of the season and club
pages; and the headers that let other sites frame /embed/ and nothing else (netlify.toml)."""
from __future__ import annotations

import html
import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not (ROOT / "content" / "league.yaml").exists(), reason="no demo content")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    from league.engine.build import build
    out = tmp_path_factory.mktemp("embed") / "site"
    build(ROOT / "content", out, templates=ROOT / "league" / "templates", cache_dir=False, search=False)
    return out


def _page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", fragment))).strip()


def _rows(page: str) -> list[list[str]]:
    """The text of each body row's cells."""
    body = re.findall(r"<tbody>(.*?)</tbody>", page, re.S)
    return [[_text(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", tr, re.S)]
            for b in body for tr in re.findall(r"<tr>(.*?)</tr>", b, re.S)]


def test_ranking_embed_lists_the_annual_club_ranking(site):
    page = _page(site, "embed/2026/ranking")
    rows = _rows(page)
    # Truco 12.1 (20, 16, 12, 8, 6…) over the four final stages:
    # oeste 1st, 4th, 2nd, 3rd = 20 + 8 + 16 + 12 = 56; princesa 2nd, 3rd, 5th, 1st = 16 + 12 + 6 + 20 = 54;
    # tropeiros 5th, 2nd, 3rd, 2nd = 6 + 16 + 12 + 16 = 50
    assert rows[:3] == [["1º", "Associação Oeste de Truco", "56"], ["2º", "Clube Princesa dos Campos", "54"],
                        ["3º", "CTG Tropeiros do Guairacá", "50"]]
    assert len(rows) == 14   # every club of clubs.yaml played a final stage
    assert "4 de 6 etapas encerradas" in _text(page)   # etapa-5 in progress, etapa-6 scheduled


def test_club_embed_shows_its_line_and_its_teams_in_the_current_stage(site):
    page = _page(site, "embed/clubes/oeste")
    assert "1º no ranking de clubes de 2026, 56 pts" in _text(page)
    # the current stage: etapa-5, the latest started (in progress); oeste in Grupo A, three matches played:
    # x Barigui B 4 games to 1 (boards 1-4 won, 5 lost), x ASTRA 3-2 (1, 3, 4 won), x Querência 3-2 (3, 4, 5
    # won): 3 wins, 4 + 3 + 3 = 10 points (games won, Truco 9.1), first of the group
    assert re.search(r"<h2><a href=\"/2026/truco/etapa-5/\"[^>]*>5ª Etapa</a> <span class=\"meta\">\(em andamento\)",
                     page)
    assert _rows(page) == [["Associação Oeste de Truco", "Grupo A", "1º", "3", "3", "10"]]
    # barigui has two teams in etapa-5, both lines, in the order of the groups: Barigui B in Grupo A (4th of 4,
    # two played, none won), Truco Clube Barigui in Grupo D
    assert [r[:3] for r in _rows(_page(site, "embed/clubes/barigui"))] == [
        ["Barigui B", "Grupo A", "4º"], ["Truco Clube Barigui", "Grupo D", "2º"]]


def test_club_embed_of_a_final_stage_shows_places_and_ranking_points(tmp_path):
    from league.engine.build import build
    from tests.util import two_team_stage, write_content
    content = write_content(tmp_path, {"etapa-1": two_team_stage()}, clubs=["aa", "bb"])
    build(content, tmp_path / "site", cache_dir=False, search=False)
    # aa wins 3 of the 5 boards against bb, the only match: aa 1st (20 points), bb 2nd (16), Truco 12.1
    page = _page(tmp_path / "site", "embed/clubes/bb")
    assert "2º no ranking de clubes de 2026, 16 pts" in _text(page)
    assert "(encerrada)" in _text(page)
    assert _rows(page) == [["Clube BB", "2º", "16"]]
    assert _rows(_page(tmp_path / "site", "embed/2026/ranking")) == [["1º", "Clube AA", "20"], ["2º", "Clube BB", "16"]]


def test_pair_embed_shows_its_annual_line_and_its_stages(site):
    page = _page(site, "embed/duplas/fabio-becker--vilmar-trevisan")
    # 1st pair of etapa-1 and etapa-3 (20 each, Truco 12.2), none of the places that score in etapa-2 and etapa-4
    assert "1º no ranking de duplas de 2026, 40 pts" in _text(page)
    rows = _rows(page)
    assert [(r[0], r[1], r[-1]) for r in rows[:4]] == [
        ("1ª Etapa (encerrada)", "1º", "20"), ("2ª Etapa (encerrada)", "45º", "0"),
        ("3ª Etapa (encerrada)", "1º", "20"), ("4ª Etapa (encerrada)", "25º", "0")]


def test_embed_pages_have_a_minimal_layout_and_link_to_the_full_page(site):
    for path, full in (("embed/2026/ranking", "/2026/"), ("embed/clubes/oeste", "/clubes/oeste/"),
                       ("embed/duplas/fabio-becker--vilmar-trevisan", "/duplas/fabio-becker--vilmar-trevisan/")):
        page = _page(site, path)
        assert "<header" not in page and "<nav" not in page and "<script" not in page
        assert '<meta name="robots" content="noindex">' in page
        assert re.search(r'<link rel="stylesheet" href="/static/embed\.[0-9a-f]{10}\.css">', page)
        assert f'<a href="{full}" target="_blank" rel="noopener">Ver a página completa no site da FPRT</a>' in page
    assert "/embed/" not in (site / "sitemap.xml").read_text(encoding="utf-8")
    # a page for every club, one for every pair of the current season, a ranking per season
    assert len(list((site / "embed" / "clubes").iterdir())) == 14
    assert (site / "embed" / "duplas" / "fabio-becker--vilmar-trevisan" / "index.html").exists()


def _snippet(page: str) -> str:
    got = re.search(r'<details class="embed">.*?</details>', page, re.S)
    assert got, "sem o bloco Incorporar no seu site"
    return got.group(0)


def test_club_and_season_pages_offer_the_iframe_code(site):
    club = _snippet(_page(site, "clubes/oeste"))
    assert "<summary>Incorporar no seu site</summary>" in club
    code = html.unescape(re.search(r"<textarea[^>]*readonly[^>]*>(.*?)</textarea>", club, re.S).group(1))
    assert code == ('<iframe src="https://example.org/embed/clubes/oeste/" title="Associação Oeste de Truco: '
                    'classificação" width="100%" height="300" loading="lazy"></iframe>')
    # the copy button waits for the script (hidden without it: the code stays selectable text)
    assert re.search(r'<button type="button" class="copy" data-copy="codigo-incorporar" [^>]*hidden>Copiar código',
                     club)
    season = _snippet(_page(site, "2026"))
    assert 'src="https://example.org/embed/2026/ranking/"' in html.unescape(season)
    pair = _snippet(_page(site, "duplas/fabio-becker--vilmar-trevisan"))
    assert ('<iframe src="https://example.org/embed/duplas/fabio-becker--vilmar-trevisan/" '
            'title="Fábio Becker e Vilmar Trevisan: classificação"') in html.unescape(pair)
    # the season page links the spreadsheet CSVs and the API's index too
    links = re.findall(r'href="([^"]+)"', re.search(r'<p class="api">.*?</p>', _page(site, "2026"), re.S).group(0))
    assert {"/api/2026/truco/ranking-clubes-br.csv", "/api/2026/truco/ranking-duplas-br.csv",
            "/api/index.json"} <= set(links)


def test_snippet_escapes_what_it_quotes():
    from league.site.embed import snippet

    class League:
        base_url = "https://example.org/"
    got = snippet(League(), "embed/clubes/x/", 'Clube "A" <b>', 300)
    assert got["code"] == ('<iframe src="https://example.org/embed/clubes/x/" title="Clube &#34;A&#34; &lt;b&gt;" '
                           'width="100%" height="300" loading="lazy"></iframe>')


# ---------------------------------------------------------------- who may frame what (netlify.toml)

def _headers(path: str) -> dict:
    """The headers Netlify sends for `path`: every rule that matches, in order, a later value replacing an
    earlier one (netlify/build headers-parser, "the later one overrides")."""
    with open(ROOT / "netlify.toml", "rb") as fh:
        rules = tomllib.load(fh)["headers"]
    out: dict = {}
    for rule in rules:
        if fnmatch(path, rule["for"]):
            out.update(rule["values"])
    return out


def _frame_ancestors(headers: dict) -> list[str]:
    policy = dict((p.split()[0], p.split()[1:]) for p in headers["Content-Security-Policy"].split(";") if p.strip())
    return policy["frame-ancestors"]


def test_only_embed_pages_may_be_framed(site):
    for page in sorted(site.rglob("*.html")):
        path = "/" + page.relative_to(site).as_posix().removesuffix("index.html")
        h = _headers(path)
        if path.startswith("/embed/"):
            assert _frame_ancestors(h) == ["*"] and h["X-Frame-Options"] != "DENY", path
            assert "<header" not in page.read_text(encoding="utf-8"), path
        else:
            assert _frame_ancestors(h) == ["'none'"] and h["X-Frame-Options"] == "DENY", path
    # the embed pages keep the rest of the policy: nothing from another origin, no script at all
    embed = _headers("/embed/clubes/oeste/")
    assert "script-src 'none'" in embed["Content-Security-Policy"]
    assert "default-src 'self'" in embed["Content-Security-Policy"]
    assert embed["X-Content-Type-Options"] == "nosniff"
