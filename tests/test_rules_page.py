"""The rules page tells the truth (issue 36, item 9): a Markdown page's line holding only [[name]] is filled at
build time from league.yaml and the code's criteria (league/site/rules.py), so the points table and the
tiebreak orders follow the settings. Truco 10.1, 10.3, 12.1, 12.2; Quatrilho Art. 22."""
from __future__ import annotations

import re

import pytest

from league.content.diagnostics import LeagueError
from league.engine.build import build, check
from tests.util import LEAGUE, write_content

PAGE = """---
title: Regulamento
---
Texto dos editores antes da tabela.

[[pontos-de-ranking]]

Texto dos editores depois.

## Desempate

[[desempate-equipes]]

[[desempate-quatrilho]]
"""


def _site(tmp_path, league: str = LEAGUE, page: str = PAGE, season: str | None = None) -> str:
    content = write_content(tmp_path, {}, league=league, season=season)
    (content / "pages").mkdir()
    (content / "pages" / "regulamento.md").write_text(page, encoding="utf-8")
    build(content, tmp_path / "site", cache_dir=False, search=False)
    return (tmp_path / "site" / "regulamento" / "index.html").read_text(encoding="utf-8")


def _points_rows(html: str) -> list[tuple[str, str]]:
    table = re.search(r'<table class="points">.*?</table>', html, re.S).group(0)
    return re.findall(r'<tr><th scope="row">([^<]+)</th><td>([^<]+)</td></tr>', table)


def test_rules_page_shows_the_points_table_of_league_yaml(tmp_path):
    # Truco 12.1 with the default table of the regulation: 1º 20, 2º 16, 3º 12, 4º 8, 5º 6, 6º 4, 7º 3, 8º 2
    html = _site(tmp_path / "default")
    assert _points_rows(html) == [("1º", "20"), ("2º", "16"), ("3º", "12"), ("4º", "8"), ("5º", "6"), ("6º", "4"),
                                  ("7º", "3"), ("8º", "2")]
    assert "Lugares além do 8º valem 0." in html
    # the editors' prose is kept around the section
    assert html.index("Texto dos editores antes da tabela.") < html.index('<table class="points">') \
        < html.index("Texto dos editores depois.")
    # changed in league.yaml (a federation decision): the page shows the new numbers, 4 places scoring
    html = _site(tmp_path / "changed", LEAGUE + "truco:\n  ranking_points: [25, 21, 17, 15]\n")
    assert _points_rows(html) == [("1º", "25"), ("2º", "21"), ("3º", "17"), ("4º", "15")]
    assert "Lugares além do 4º valem 0." in html


def test_rules_page_names_a_season_with_its_own_table(tmp_path):
    # season.yaml overrides the table for 2026 only (rules.md 12.1): the page says so, with its numbers
    html = _site(tmp_path, season="title: Interclubes 2026\ntruco:\n  ranking_points: [10, 5]\n")
    assert "Interclubes 2026 usa outra tabela: 10, 5." in html


def _criteria(html: str) -> list[list[str]]:
    return [re.findall(r"<li><strong>([^<]+)</strong>", ol)
            for ol in re.findall(r'<ol class="criteria">(.*?)</ol>', html, re.S)]


def test_rules_page_lists_the_tiebreak_orders_as_configured(tmp_path):
    # default team order (Truco 10.1): vitórias, pontos, confronto direto, saldo de pontos das duplas, saldo de
    # pontinhos, sorteio; Quatrilho (Art. 21, 22, 3): pontos positivos, rodadas com pontos ganhos, soma dos
    # pontos ganhos, maior pontuação em uma rodada, sorteio
    html = _site(tmp_path / "default")
    assert _criteria(html) == [
        ["número de vitórias", "número de pontos", "confronto direto", "saldo de pontos das duplas",
         "saldo de pontinhos", "sorteio"],
        ["pontos positivos", "rodadas com pontos ganhos", "soma dos pontos ganhos", "maior pontuação em uma rodada",
         "sorteio"]]
    # league.yaml puts points first and drops the draw: the page follows
    html = _site(tmp_path / "changed", LEAGUE + "truco:\n  team_tiebreaks: [points, wins, head_to_head]\n")
    assert _criteria(html)[0] == ["número de pontos", "número de vitórias", "confronto direto"]


def test_unknown_section_is_an_error_at_its_line(tmp_path):
    # line 6 of the file (3 of front matter + blank + text + blank), column 3 after "[["; the closest name
    content = write_content(tmp_path, {})
    (content / "pages").mkdir()
    (content / "pages" / "regulamento.md").write_text(
        "---\ntitle: Regulamento\n---\nTexto.\n\n[[pontos-do-ranking]]\n", encoding="utf-8")
    with pytest.raises(LeagueError) as info:
        check(content, cache_dir=False)
    (d,) = [d for d in info.value.diagnostics if d.code == "unknown-block"]
    assert (d.mark.path, d.mark.line, d.mark.col) == ("content/pages/regulamento.md", 6, 3)
    assert "recebido [[pontos-do-ranking]]" in d.message and "pontos-de-ranking" in d.message
    assert d.hint == 'você quis dizer "pontos-de-ranking"?'
