"""The "Incorporar no seu site" snippet (templates/macros.html embed_snippet, site.js copyButton): with
JavaScript a button copies the <iframe> code; without it the button stays hidden and the code is selectable
text. Another origin may frame the embed pages, and only them, with the headers of netlify.toml. The embed pages
themselves are in every per-kind test (conftest EXPECTED_KINDS: axe, 360 px, links)."""
from __future__ import annotations

import functools
import http.server
import threading
import tomllib
from fnmatch import fnmatch

import pytest

from tests.browser.conftest import PHONE, ROOT, _Quiet

CODE = ('<iframe src="https://example.org/embed/clubes/oeste/" title="Associação Oeste de Truco: classificação" '
        'width="100%" height="300" loading="lazy"></iframe>')


def test_copy_button_copies_the_iframe_code(browser, server):
    ctx = browser.new_context(viewport=PHONE, locale="pt-BR", permissions=["clipboard-read", "clipboard-write"])
    try:
        page = ctx.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server + "/clubes/oeste/")
        page.get_by_text("Incorporar no seu site").click()
        button = page.get_by_role("button", name="Copiar código")
        assert button.is_visible()
        assert page.get_by_label("Código para incorporar").input_value() == CODE
        button.click()
        page.locator(".copy-status").filter(has_text="Código copiado.").wait_for(timeout=5_000)
        assert page.evaluate("navigator.clipboard.readText()") == CODE
        assert errors == []
    finally:
        ctx.close()


def test_without_javascript_the_code_is_selectable_text(browser, server):
    ctx = browser.new_context(java_script_enabled=False, viewport=PHONE, locale="pt-BR")
    try:
        page = ctx.new_page()
        page.goto(server + "/2026/")
        page.get_by_text("Incorporar no seu site").click()
        area = page.get_by_label("Código para incorporar")
        assert area.is_visible()
        assert area.input_value().startswith('<iframe src="https://example.org/embed/2026/ranking/"')
        assert not page.locator("button.copy").is_visible()
    finally:
        ctx.close()


# ---------------------------------------------------------------- framed by another site, with netlify.toml's headers

class _Netlify(_Quiet):
    """The demo site served with the headers netlify.toml gives each path (every rule that matches, in order, a
    later value replacing an earlier one, as Netlify merges them)."""

    def do_GET(self):
        if self.path.startswith("/__clube__?src="):   # the club's page (asked for on another host name)
            body = f'<!doctype html><title>Clube</title><iframe src="{self.path.split("=", 1)[1]}"></iframe>'.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def end_headers(self):
        path, merged = self.path.split("?")[0], {}
        for rule in RULES if path != "/__clube__" else ():   # (the club's page: its own site, not ours)
            if fnmatch(path, rule["for"]):
                merged.update(rule["values"])
        merged.pop("Strict-Transport-Security", None)   # (plain HTTP here)
        for name, value in merged.items():
            self.send_header(name, value)
        super().end_headers()


with open(ROOT / "netlify.toml", "rb") as _fh:
    RULES = tomllib.load(_fh)["headers"]


@pytest.fixture(scope="module")
def netlify_server(site_dir):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Netlify, directory=str(site_dir)))
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _framed_text(page, server: str, path: str) -> str:
    """The text of the page at `path` framed by a page of another origin, a club's (the same server reached as
    localhost, the site as 127.0.0.1: two origins, both on this machine); "" when the browser refuses."""
    club = server.replace("127.0.0.1", "localhost")
    page.goto(f"{club}/__clube__?src={server}{path}", wait_until="load")
    try:
        return page.frame_locator("iframe").locator("body").inner_text(timeout=3_000)
    except Exception:   # a frame the browser blocked holds an error page the test cannot read
        return ""


def test_another_site_may_frame_the_embed_pages_and_nothing_else(browser, netlify_server):
    ctx = browser.new_context(viewport=PHONE, locale="pt-BR")
    try:
        page = ctx.new_page()
        blocked = []
        page.on("console", lambda m: blocked.append(m.text) if "frame" in m.text.lower() else None)
        text = _framed_text(page, netlify_server, "/embed/clubes/oeste/")
        assert "1º no ranking de clubes de 2026, 56 pts" in text
        assert not blocked, blocked
        page = ctx.new_page()
        page.on("console", lambda m: blocked.append(m.text))
        text = _framed_text(page, netlify_server, "/clubes/oeste/")
        assert "Associação Oeste de Truco" not in text
        assert any("frame-ancestors 'none'" in m for m in blocked), blocked   # "Refused to frame … because an
        # ancestor violates … frame-ancestors 'none'"
    finally:
        ctx.close()
