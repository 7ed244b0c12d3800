"""Printing and the dark scheme (issue 36, items 7 and 8).

Print: a stage page printed (print media emulated in Chromium) shows every match result — the <details>
that fold them on screen print open —, no sort arrows and no navigation, and heads its first sheet with the
federation, the page and its date; the stylesheet puts the federation's name and the sheet number in the
margin of every sheet (@page). Lazily loaded charts are loaded before printing (site.js, `beforeprint`).

Dark: with `prefers-color-scheme: dark`, every page kind at 360 px has no axe WCAG 2.1 AA violation (colour
contrast included) and a dark background; screenshots of each kind in the dark scheme, at 360 and 1280 px.
"""
from __future__ import annotations

import re

import pytest

from tests.browser.conftest import AXE, DESKTOP, PHONE, need, shot
from tests.browser.test_axe import RUN, TAGS

FEDERATION = "Federação Paranaense de Truco"   # content/league.yaml `name:`


@pytest.fixture
def stage_url(kinds, server) -> str:
    return server + kinds["stage"]


def test_a_printed_stage_shows_every_match_result_and_no_screen_furniture(stage_url, page):
    page.goto(stage_url, wait_until="load")
    matches = page.locator(".match")
    n = matches.count()
    assert n > 0
    assert not matches.first.is_visible()          # on screen, folded away in <details>
    page.emulate_media(media="print")
    assert all(matches.nth(i).is_visible() for i in range(n)), "a match result is hidden on paper"
    assert page.locator(".match td.games").first.is_visible()   # the game scores themselves
    assert not page.locator("header.top").is_visible()
    arrows = page.evaluate("""() => Array.from(document.querySelectorAll('button.sort'),
        b => getComputedStyle(b, '::after').display)""")
    assert arrows and set(arrows) == {"none"}, arrows
    head = page.locator(".print-head")
    assert head.is_visible()
    text = head.inner_text()
    assert text.startswith(FEDERATION + " · ") and "Etapa" in text and re.search(r"\d{4}", text)


def test_the_stylesheet_puts_the_federation_and_the_sheet_number_on_every_sheet(stage_url, page):
    page.goto(stage_url, wait_until="load")
    rules = page.evaluate("""() => Array.from(document.styleSheets).flatMap(s => Array.from(s.cssRules))
        .map(r => r.cssText).join('\\n')""")
    assert f'@bottom-left {{ content: "{FEDERATION}"' in rules, rules[-600:]
    assert 'counter(page) " / " counter(pages)' in rules


def test_lazy_charts_are_loaded_before_printing(kinds, server, page):
    page.goto(server + kinds["club"], wait_until="load")
    lazy = page.locator('img[loading="lazy"]')
    assert lazy.count() > 0
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
    assert page.locator('img[loading="lazy"]').count() == 0


def test_the_screen_stylesheet_hides_the_print_head(stage_url, page):
    page.goto(stage_url, wait_until="load")
    assert not page.locator(".print-head").is_visible()


def test_dark_scheme_has_no_axe_violation_and_is_photographed(kind, kind_url, page):
    need(AXE.exists(), f"{AXE} is missing (cd tests/browser && npm ci)")
    page.emulate_media(color_scheme="dark")
    page.set_viewport_size(PHONE)
    page.goto(kind_url, wait_until="load")
    bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert bg == "rgb(18, 22, 27)", bg
    shot(page, f"{kind}-360-dark")
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(RUN, TAGS)
    assert violations == [], "\n".join(f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"])
                                       for v in violations)
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(50)
    shot(page, f"{kind}-1280-dark")
