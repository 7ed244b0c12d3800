"""Issue 36, item 4: honest provisional pages. A stage in progress says "Classificação parcial", lists the
matches still to play and shows no ranking points; a scheduled stage shows its teams and date and never a
position — on its page, and on its clubs' and teams' pages ("agendada, <date>", no "1º=", no "0V 0D")."""
from __future__ import annotations

from pathlib import Path

import pytest

from league.engine.build import build
from tests.pages import page, text
from tests.truco_fixtures import W20, W21, content, groups_phase, header, match, stage, team_block

TEAMS = ["aa", "bb", "cc", "dd"]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("provisional")
    # in progress: Grupo A (aa, bb, cc) has played aa × bb only; Grupo B holds dd alone: nothing to play
    played = match("aa", "bb", [W20, W20, W21, "5-12 5-12", "5-12 12-5 5-12"])
    in_progress = stage(TEAMS, [groups_phase({"Grupo A": (["aa", "bb", "cc"], [played]),
                                              "Grupo B": (["dd"], [])})],
                        status="in_progress", name="2ª Etapa", date="2026-05-09")
    scheduled = header("3ª Etapa", "2026-08-22", "scheduled") + team_block(TEAMS)   # teams, no phases yet
    tree = content(root, {"etapa-2": in_progress, "etapa-3": scheduled}, clubs=TEAMS)
    out = root / "site"
    build(tree, out, search=False, cache_dir=False)
    return out


def test_a_stage_in_progress_is_partial_and_lists_what_is_left_to_play(site):
    t = text(site, "2026/truco/etapa-2/")
    assert "Classificação parcial" in t and "Classificação final" not in t
    # Grupo A is a single round robin of 3 teams (games/truco/schedule.round_robin, the circle method): round 1
    # bb × cc, round 2 cc × aa, round 3 aa × bb; aa × bb is played, so bb × cc and cc × aa are left, in the
    # order of the rounds; Grupo B (one team) has none
    assert "Confrontos a disputar Grupo A Clube BB × Clube CC Clube CC × Clube AA Grupos" in t
    p = page(site, "2026/truco/etapa-2/")
    classification = next(tb for tb in p.tables if tb["section"] == "classificacao")
    # no ranking-point column: only final stages award them (Truco 12.1)
    assert classification["caption"] == ("Classificação parcial da etapa, pelos jogos já disputados; pontos de "
                                         "ranking só quando a etapa for encerrada (item 12.1)")
    # aa won 3 boards of 5 (W20, W20, W21 against two losses): 1st in Grupo A; dd, alone in Grupo B, is 1st
    # there; group winners come first, then by the criteria over their matches (1 win against 0)
    assert classification["rows"] == [["1º", "Clube AA", "1º no Grupo A", ""], ["2º", "Clube DD", "1º no Grupo B", ""],
                                      ["3º", "Clube BB", "2º no Grupo A", ""], ["4º", "Clube CC", "3º no Grupo A", ""]]
    assert classification["headers"] == ["Pos.", "Equipe", "Como", "Desempate"]
    pairs = next(tb for tb in p.tables if tb["section"] == "duplas")
    assert "Classificação parcial das duplas" in t
    assert pairs["headers"] == ["Pos.", "Dupla", "P", "V", "J", "SPD", "SPt", "Equipe", "Desempate"]
    # aa-1 won its board 12-5 12-5: 3 pair points (item 10.3), 1 win of 1, +3 pair points, +14 pontinhos; tied
    # with aa-2 (the same) and bb-4 (won 2x0 as away, 5-12 5-12)
    assert pairs["rows"][0][:8] == ["1º=", "Jogador aa-1a e Jogador aa-1b", "3", "1", "1", "+3", "+14", "Clube AA"]
    assert 'href="#grupo-a"' in (site / "2026/truco/etapa-2/index.html").read_text(encoding="utf-8")
    assert "grupo-a" in p.ids and "jogo-aa-bb" in p.ids


def test_a_scheduled_stage_shows_its_teams_and_date_and_no_position(site):
    t = text(site, "2026/truco/etapa-3/")
    assert "22 de agosto de 2026" in t
    assert "Equipes inscritas Clube AA Clube BB Clube CC Clube DD" in t
    assert "1º" not in t and "Classificação" not in t


def test_club_and_team_pages_say_scheduled_with_the_date_and_partial_without_points(site):
    team = page(site, "equipes/aa/").tables[0]["rows"]
    # [stage, position, ranking points, record, how]: in progress, a provisional position and no points yet;
    # scheduled, no position, no record
    assert team == [["2ª Etapa 2026", "1º", "—", "1V 0D", "parcial: 1º no Grupo A"],
                    ["3ª Etapa 2026", "—", "—", "—", "agendada, 22 de agosto de 2026"]]
    club = page(site, "clubes/cc/").tables[0]["rows"]
    assert club == [["2ª Etapa", "4º", "—", "Clube CC", "parcial: 3º no Grupo A"],
                    ["3ª Etapa", "—", "—", "Clube CC", "agendada, 22 de agosto de 2026"]]
    # dd, alone in its group, has played nothing yet: no record either
    assert page(site, "equipes/dd/").tables[0]["rows"][0] == ["2ª Etapa 2026", "2º", "—", "—",
                                                                "parcial: 1º no Grupo B"]
    for path in ("equipes/aa/", "equipes/dd/", "clubes/aa/", "clubes/dd/"):
        t = text(site, path)
        assert "1º=" not in t and "0V 0D" not in t, path
