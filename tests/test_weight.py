"""Weight budget of the demo site (issue 5, item 9), measured without a browser: the median HTML page
≤ 15 KB gzipped, all CSS + JS the pages load ≤ 20 KB gzipped, and no request to another origin (fonts come
from the system). pagefind's index and script are fetched by the search page only, on demand, and are not
part of any page's load."""
from __future__ import annotations

import gzip
import re
import statistics
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlparse

import pytest

from league.engine.build import build

ROOT = Path(__file__).resolve().parent.parent
KB = 1024
# elements whose src/href the browser fetches by itself while loading a page
ASSET_ATTRS = {("link", "href"), ("script", "src"), ("img", "src"), ("img", "srcset"), ("iframe", "src"),
               ("source", "src"), ("source", "srcset"), ("video", "src"), ("audio", "src"), ("embed", "src"),
               ("object", "data"), ("video", "poster"), ("input", "src")}
# <link rel> values that are only pointers, never fetched when the page loads
NOT_FETCHED = {"canonical", "alternate"}


def gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=9, mtime=0))


class Assets(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls: list[str] = []
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and set((a.get("rel") or "").split()) & NOT_FETCHED:
            return
        for name, value in attrs:
            if (tag, name) in ASSET_ATTRS and value:
                self.urls += [u.split()[0] for u in value.split(",")] if name == "srcset" else [value]
            if name == "style" and value:
                self.styles.append(value)
        self._in_style = tag == "style"

    def handle_data(self, data):
        if self._in_style:
            self.styles.append(data)

    def handle_endtag(self, tag):
        self._in_style = False


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("weight") / "site"
    build(ROOT / "content", out, templates=ROOT / "league" / "templates")
    return out


def pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "pagefind" not in p.relative_to(site).parts)


def test_median_html_page_is_at_most_15_kb_gzipped(site):
    sizes = {p.relative_to(site).as_posix(): gz(p.read_bytes()) for p in pages(site)}
    median = statistics.median(sizes.values())
    biggest = sorted(sizes.items(), key=lambda kv: -kv[1])[:3]
    assert median <= 15 * KB, f"median {median / KB:.1f} KB gzip; biggest {biggest}"


def test_css_and_js_are_at_most_20_kb_gzipped(site):
    loaded: set[str] = set()
    for p in pages(site):
        parser = Assets()
        parser.feed(p.read_text(encoding="utf-8"))
        loaded |= {u for u in parser.urls if re.search(r"\.(css|js)$", urlparse(u).path)}
    assert any(u.endswith(".css") for u in loaded) and any(u.endswith(".js") for u in loaded)
    files = [site / urlparse(u).path.lstrip("/") for u in sorted(loaded)]
    missing = [f for f in files if not f.is_file()]
    assert not missing, missing
    static = sorted((site / "static").glob("*.css")) + sorted((site / "static").glob("*.js"))
    assert set(files) <= set(static), "every stylesheet and script lives in static/"
    total = gz(b"".join(f.read_bytes() for f in static))
    assert total <= 20 * KB, f"CSS+JS {total / KB:.1f} KB gzip: " + ", ".join(
        f"{f.name} {gz(f.read_bytes()) / KB:.1f} KB" for f in static)
    js = [f for f in static if f.suffix == ".js"]
    assert all(f.stat().st_size <= 10 * KB for f in js), "the script stays small (≤ 10 KB)"


def test_no_page_requests_another_origin(site):
    bad = []
    for p in pages(site):
        parser = Assets()
        parser.feed(p.read_text(encoding="utf-8"))
        for u in parser.urls:
            parsed = urlparse(u)
            if parsed.scheme in ("http", "https") or u.startswith("//"):
                bad.append(f"{p.relative_to(site)}: {u}")
        for css in parser.styles:
            if re.search(r"url\(\s*['\"]?(https?:)?//", css) or "@import" in css:
                bad.append(f"{p.relative_to(site)}: inline style {css[:60]}")
    for f in sorted((site / "static").iterdir()):
        text = f.read_text(encoding="utf-8")
        if f.suffix == ".css" and (re.search(r"url\(\s*['\"]?(https?:)?//", text) or "@import" in text
                                   or "@font-face" in text):
            bad.append(f"{f.name}: loads a remote resource or a web font")
        if f.suffix == ".js" and re.search(r"https?://", text):
            bad.append(f"{f.name}: mentions a remote URL")
    assert bad == [], bad[:20]
