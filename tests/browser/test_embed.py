"""The "Incorporar no seu site" snippet (templates/macros.html embed_snippet, site.js copyButton): with
JavaScript a button copies the <iframe> code; without it the button stays hidden and the code is selectable
text. The embed pages themselves are in every per-kind test (conftest EXPECTED_KINDS: axe, 360 px, links)."""
from __future__ import annotations

from tests.browser.conftest import PHONE

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
