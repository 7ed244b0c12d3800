"""Browser tests: the demo site is built once per session into a temporary folder, indexed with pagefind,
served on 127.0.0.1 by a threaded http.server, and opened in Debian's Chromium through Playwright
(never `playwright install`). Without /usr/bin/chromium, the playwright package, Java or the npm
packages of this folder (`npm ci` here), the tests that need them are skipped with the reason — or fail,
when LEAGUE_REQUIRE_BROWSER=1 (set by .ci/run, which installs them all)."""
from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
SHOTS = ROOT / "test-artifacts" / "screenshots"
AXE = HERE / "node_modules" / "axe-core" / "axe.min.js"
VNU = HERE / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
REQUIRE = os.environ.get("LEAGUE_REQUIRE_BROWSER") == "1"


def need(ok: bool, reason: str) -> None:
    """Skip (or, under LEAGUE_REQUIRE_BROWSER=1, fail) when a tool is missing."""
    if not ok:
        if REQUIRE:
            pytest.fail(f"{reason} (LEAGUE_REQUIRE_BROWSER=1: .ci/run should have installed it)")
        pytest.skip(reason)


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: needs Chromium/Java/npm tools; runs against the built demo site")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)


# ---------------------------------------------------------------- the site

@pytest.fixture(scope="session")
def site_dir(tmp_path_factory) -> Path:
    from league.engine.build import build
    from league.site.search import run_pagefind
    out = tmp_path_factory.mktemp("browser") / "site"
    build(ROOT / "content", out, templates=ROOT / "league" / "templates")
    if not (out / "pagefind").exists():  # until build.py runs it itself
        run_pagefind(out)
    return out


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript",
                      ".pagefind": "application/octet-stream", ".pf_meta": "application/octet-stream",
                      ".pf_fragment": "application/octet-stream", ".pf_index": "application/octet-stream",
                      ".ics": "text/calendar", ".xml": "application/xml"}

    def log_message(self, *args):  # keep test output clean
        pass


@pytest.fixture(scope="session")
def server(site_dir):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site_dir)))
    httpd.daemon_threads = True
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _first(paths) -> str | None:
    paths = sorted(paths)
    return paths[0] if paths else None


def page_kinds(site: Path) -> dict[str, str]:
    """One URL path for every page kind the site has (Quatrilho pages only where the content has them)."""
    def rel(p: Path) -> str:
        r = p.relative_to(site).as_posix()
        return "/" + (r[: -len("index.html")] if r.endswith("index.html") else r)

    years = sorted(p for p in site.iterdir() if p.is_dir() and re.fullmatch(r"\d{4}", p.name))
    kinds = {"home": "/"}
    if years:
        kinds["season"] = rel(years[-1] / "index.html")
    stages = [p for y in years for p in (y / "truco").glob("*/index.html")] if years else []
    finals = [p for p in stages if 'class="badge final"' in p.read_text(encoding="utf-8")]
    stage = _first(finals) or _first(stages)
    if stage:
        kinds["stage"] = rel(stage)
    for kind, folder in (("club", "clubes"), ("team", "equipes"), ("pair", "duplas")):
        p = _first((site / folder).glob("*/index.html"))
        if p:
            kinds[kind] = rel(p)
    if "pair" in kinds:  # a player who has Truco results
        player = kinds["pair"].split("/")[2].split("--")[0]
        kinds["player"] = f"/jogadores/{player}/"
    skip = {"clubes", "equipes", "duplas", "jogadores", "noticias", "api", "static", "busca", "pagefind", "embed"}
    page = _first(p / "index.html" for p in site.iterdir()
                  if p.is_dir() and p.name not in skip and p not in years and (p / "index.html").exists())
    if page:
        kinds["page"] = rel(page)
    kinds["news_list"] = "/noticias/"
    news = _first((site / "noticias").glob("*/index.html"))
    if news:
        kinds["news"] = rel(news)
    kinds["clubs"] = "/clubes/"
    kinds["players"] = "/jogadores/"
    kinds["search"] = "/busca/"
    kinds["404"] = "/404.html"
    # the embed pages (league/site/embed.py): a season's ranking, a club, a pair
    for kind, pattern in (("embed_ranking", "embed/*/ranking/index.html"), ("embed_club", "embed/clubes/*/index.html"),
                          ("embed_pair", "embed/duplas/*/index.html")):
        p = _first(site.glob(pattern))
        if p:
            kinds[kind] = rel(p)
    champs = [p for y in years for p in (y / "quatrilho").glob("*/index.html")] if years else []
    champ = _first(champs)
    if champ:
        kinds["championship"] = rel(champ)
        kinds["quatrilho_season"] = rel(champ.parent.parent / "index.html")
    return kinds


def pytest_generate_tests(metafunc):
    if "kind" in metafunc.fixturenames:
        metafunc.parametrize("kind", list(EXPECTED_KINDS) + OPTIONAL_KINDS)


# every kind the demo must have; the optional ones are tested when the demo content has them
EXPECTED_KINDS = ["home", "season", "stage", "club", "team", "pair", "player", "page", "news_list", "news",
                  "clubs", "players", "search", "404", "embed_ranking", "embed_club", "embed_pair"]
OPTIONAL_KINDS = ["championship", "quatrilho_season"]


@pytest.fixture(scope="session")
def kinds(site_dir) -> dict[str, str]:
    return page_kinds(site_dir)


@pytest.fixture
def kind_url(kind, kinds, server) -> str:
    if kind not in kinds:
        if kind in OPTIONAL_KINDS:
            pytest.skip(f"the demo content has no {kind} page")
        pytest.fail(f"the demo site has no {kind} page")
    return server + kinds[kind]


# ---------------------------------------------------------------- the browser

@pytest.fixture(scope="session")
def browser():
    need(os.path.exists(CHROMIUM), f"{CHROMIUM} is missing (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need(False, "the playwright Python package is missing (pip install -e '.[test]')")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Page:
    """A Playwright page that records console errors, uncaught exceptions and failed requests."""

    def __init__(self, page):
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        page.on("requestfailed", self._failed)
        page.on("response", lambda r: self.errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)

    def _failed(self, request):
        # A request the browser cancels because the test navigated away (an image still loading
        # when the next page.goto() or click starts) fails with net::ERR_ABORTED: that is the
        # test's doing, not the site's. A missing file still shows as its HTTP status (below), and
        # any other failure (refused, reset, blocked) is recorded.
        if request.failure != "net::ERR_ABORTED":
            self.errors.append(f"request failed: {request.url} {request.failure}")

    def __getattr__(self, name):
        return getattr(self.page, name)


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport=PHONE, locale="pt-BR", service_workers="block")
    yield ctx
    ctx.close()


@pytest.fixture
def page(context) -> Page:
    return Page(context.new_page())


def shot(page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


# ---------------------------------------------------------------- plain HTTP

_status_cache: dict[str, int] = {}


def http_status(url: str) -> int:
    if url not in _status_cache:
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                _status_cache[url] = r.status
        except urllib.error.HTTPError as e:
            _status_cache[url] = e.code
    return _status_cache[url]


def has_java() -> bool:
    return shutil.which("java") is not None
