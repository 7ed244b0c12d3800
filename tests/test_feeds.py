"""Feeds and discovery on the demo site (issue 5, item 7): Atom feed of news and published results,
iCalendar of stage and championship dates (both dated from the content, never the clock), Open Graph
tags, sitemap.xml, robots.txt and the 404 page."""
from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from league.engine.build import build, check
from league.site.feeds import _fold, feed_files

ROOT = Path(__file__).resolve().parent.parent
A = "{http://www.w3.org/2005/Atom}"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("feeds") / "site"
    build(ROOT / "content", out, templates=ROOT / "league" / "templates")
    return out


@pytest.fixture(scope="module")
def results():
    return check(ROOT / "content").results


def content_dates(results) -> set[dt.date]:
    dates = {n.date for n in results.league.news if n.date}
    for sr in results.seasons:
        dates |= {st.date for st in sr.season.stages}
        dates |= {res.championship.date for res in sr.championships}
    return dates


def test_atom_feed_lists_news_and_published_results_newest_first(site, results):
    root = ET.parse(site / "feed.xml").getroot()
    assert root.tag == A + "feed"
    assert root.find(A + "id").text == "https://example.org/"
    assert root.find(f"{A}link[@rel='self']").get("href") == "https://example.org/feed.xml"
    assert root.find(A + "author/" + A + "name").text
    entries = root.findall(A + "entry")
    ids = [e.find(A + "id").text for e in entries]
    assert len(ids) == len(set(ids))
    news = {f"https://example.org/noticias/{n.slug}/" for n in results.league.news}
    finals = {f"https://example.org/{st.season}/truco/{st.id}/" for sr in results.seasons for st in sr.season.stages
              if st.status == "final"}
    open_ = {f"https://example.org/{st.season}/truco/{st.id}/" for sr in results.seasons
             for st in sr.season.stages if st.status != "final"}
    champs = {f"https://example.org/{r.championship.season}/quatrilho/{r.championship.id}/"
              for sr in results.seasons for r in sr.championships if r.championship.is_final}
    assert news | finals | champs == set(ids)
    assert not open_ & set(ids), "a stage still in progress is not a published result"
    for e in entries:
        assert e.find(A + "title").text and e.find(f"{A}link[@rel='alternate']").get("href") == e.find(A + "id").text
        assert e.find(A + "summary") is not None or e.find(A + "content") is not None
    stamps = [e.find(A + "updated").text for e in entries]
    assert stamps == sorted(stamps, reverse=True)
    assert root.find(A + "updated").text == stamps[0]
    dates = content_dates(results)
    for s in stamps + [root.find(A + "updated").text]:
        assert dt.date.fromisoformat(s[:10]) in dates, f"{s} is not a date from the content"
    stage = next(e for e in entries if "/truco/" in e.find(A + "id").text)
    assert "Classificação final" in stage.find(A + "summary").text


def unfold(text: str) -> list[str]:
    return text.replace("\r\n ", "").split("\r\n")


def test_icalendar_has_every_stage_and_championship_dated_from_the_content(site, results):
    raw = (site / "calendario.ics").read_bytes()
    text = raw.decode("utf-8")
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    assert all(len(line.encode("utf-8")) <= 75 for line in text.split("\r\n"))
    lines = unfold(text)
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-2] == "END:VCALENDAR" and lines[-1] == ""
    assert "VERSION:2.0" in lines and any(x.startswith("PRODID:") for x in lines)
    events = re.findall(r"BEGIN:VEVENT\r\n(.*?)END:VEVENT", text.replace("\r\n ", ""), re.S)
    stages = [st for sr in results.seasons for st in sr.season.stages]
    champs = [r.championship for sr in results.seasons for r in sr.championships]
    assert len(events) == len(stages) + len(champs)
    fields = [dict(line.split(":", 1) for line in ev.strip().split("\r\n")) for ev in events]
    assert len({f["UID"] for f in fields}) == len(fields)
    dates = content_dates(results)
    for f in fields:
        assert f["DTSTAMP"].endswith("T000000Z")
        assert dt.datetime.strptime(f["DTSTAMP"][:8], "%Y%m%d").date() in dates
        start = dt.datetime.strptime(f["DTSTART;VALUE=DATE"], "%Y%m%d").date()
        assert start in dates
        assert dt.datetime.strptime(f["DTEND;VALUE=DATE"], "%Y%m%d").date() == start + dt.timedelta(days=1)
        assert f["URL"].startswith("https://example.org/")
    st = stages[0]
    ev = next(f for f in fields if f["UID"].startswith(f"{st.season}-truco-{st.id}@"))
    assert ev["SUMMARY"] == f"Truco: {st.name} ({results.seasons[0].season.title})".replace(",", "\\,")
    assert ev["DTSTART;VALUE=DATE"] == st.date.strftime("%Y%m%d")


def test_fold_splits_on_characters_not_bytes():
    line = "DESCRIPTION:" + "ç" * 100
    parts = _fold(line)
    assert "".join(p[1:] if i else p for i, p in enumerate(parts)) == line
    assert all(len(p.encode("utf-8")) <= 75 for p in parts)


def test_feeds_do_not_depend_on_the_clock(results, monkeypatch):
    from league.site.render import Site
    first = feed_files(results, Site(results))

    class Later(dt.date):
        @classmethod
        def today(cls):
            return dt.date(2099, 1, 1)

    monkeypatch.setattr(dt, "date", Later)
    assert feed_files(results, Site(results)) == first


def test_open_graph_tags_show_the_standings_title(site):
    html = (site / "2026" / "truco" / "etapa-1" / "index.html").read_text(encoding="utf-8")
    meta = dict(re.findall(r'<meta property="(og:[a-z_]+)" content="([^"]*)"', html))
    title = re.search(r"<h1[^>]*>(.*?)</h1>", html).group(1)
    assert title in meta["og:title"]
    assert meta["og:type"] == "website"
    assert meta["og:url"] == "https://example.org/2026/truco/etapa-1/"
    assert "classificação final: 1º" in meta["og:description"]
    assert '<link rel="canonical" href="https://example.org/2026/truco/etapa-1/">' in html
    news = next((site / "noticias").glob("*/index.html")).read_text(encoding="utf-8")
    assert '<meta property="og:type" content="article">' in news
    assert '<link rel="alternate" type="application/atom+xml"' in news


def test_sitemap_robots_and_404(site):
    root = ET.parse(site / "sitemap.xml").getroot()
    locs = {e.text for e in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")}
    pages = {"https://example.org/" + p.relative_to(site).as_posix()[: -len("index.html")]
             for p in site.rglob("index.html") if not p.relative_to(site).as_posix().startswith("embed/")}
    assert locs == pages   # every page but the embeds (noindex: other sites frame them)
    assert (site / "robots.txt").read_text() == "User-agent: *\nAllow: /\nSitemap: https://example.org/sitemap.xml\n"
    assert "Página não encontrada" in (site / "404.html").read_text(encoding="utf-8")


def test_feed_escaping_writes_what_xml_sax_saxutils_writes():
    """league.site.feeds writes xml.sax.saxutils's escape and quoteattr out (importing it costs every build
    ~9 ms): the same text for every mix of the characters they treat, quotes of both kinds included."""
    import itertools
    from xml.sax import saxutils
    from league.site.feeds import quoteattr, xml_escape
    parts = ["a", "&", "<", ">", '"', "'", "\n", "\r", "\t", "é", "&amp;"]
    for n in range(4):
        for combo in itertools.product(parts, repeat=n):
            text = "".join(combo)
            assert xml_escape(text) == saxutils.escape(text)
            assert quoteattr(text) == saxutils.quoteattr(text)
    assert quoteattr('a "b" c') == "'a \"b\" c'" and quoteattr("""'"&""") == '"\'&quot;&amp;"'
