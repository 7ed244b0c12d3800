"""The demo's three Quatrilho championships: every Art. 22 criterion settles a tie where its comments say, the
prizes and qualifiers are the hand-worked ones, and the pages show them."""
from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not (ROOT / "content" / "seasons" / "2026" / "quatrilho").is_dir(),
                                reason="no demo content")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from league.engine.build import build
    out = tmp_path_factory.mktemp("site")
    report = build(ROOT / "content", out, templates=ROOT / "league" / "templates")
    return out, report


def champ(site, cid):
    _, report = site
    return next(r for s in report.results.seasons for r in s.championships if r.championship.id == cid)


def data(site, cid):
    out, _ = site
    return json.loads((out / "api" / "2026" / "quatrilho" / f"{cid}.json").read_text(encoding="utf-8"))


def text(site, path):
    out, _ = site
    html = (out / path).read_text(encoding="utf-8")
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_chapeco_ties_by_positive_rounds_and_best_round(site):
    rows = data(site, "chapeco")["classification"]
    by_pos = {r["position"]: r for r in rows}
    # 2º/3º: +260 each; nº 5 has 3 rounds with points won, nº 11 has 2 (Art. 22, 1st criterion)
    assert (by_pos[2]["number"], by_pos[2]["decided_by"], by_pos[3]["number"]) == (5, "positive_rounds", 11)
    assert (by_pos[2]["net"], by_pos[3]["net"], by_pos[2]["positive_rounds"], by_pos[3]["positive_rounds"]) == \
        (260, 260, 3, 2)
    # 6º/7º: +140, 2 rounds, 170 won each; best round 120 against 90 (Art. 22, 3rd criterion)
    assert (by_pos[6]["number"], by_pos[6]["decided_by"], by_pos[7]["number"]) == (15, "best_round", 18)
    assert (by_pos[6]["best_round"], by_pos[7]["best_round"]) == (120, 90)


def test_chapeco_money_prizes_and_disqualification(site):
    d = data(site, "chapeco")
    # (20 + 6) × 55,00 = 1.430,00; 25% 357,50 · 15% 214,50 · 10% 143,00 · 6% 85,80 · 5% 71,50 · 4% 57,20 · 3% 42,90 · 2% 28,60
    assert d["registration_money"] == 1430
    assert [r["prize"] for r in d["classification"][:9]] == [357.5, 214.5, 143, 85.8, 71.5, 57.2, 42.9, 28.6, 0]
    assert [r["number"] for r in d["classification"] if r["champion"]] == [3, 5, 11, 8, 13]
    dq = next(r for r in d["classification"] if r["number"] == 14)
    assert dq["disqualified"] and dq["rounds"] == [130, -100, 0, 0] and not dq["champion"]
    pen = next(r for r in d["classification"] if r["number"] == 9)
    assert pen["rounds"][2] == -188                  # 112 chips − 100 − 200 (Art. 12)


def test_concordia_ties_by_points_won_and_recorded_draw(site):
    rows = {r["position"]: r for r in data(site, "concordia")["classification"]}
    # 4º/5º: +120 each, 2 rounds each; points won 160 against 140 (Art. 22, 2nd criterion)
    assert (rows[4]["number"], rows[4]["decided_by"], rows[5]["number"]) == (9, "points_won", 10)
    assert (rows[4]["points_won"], rows[5]["points_won"]) == (160, 140)
    # 8º/9º: equal in every criterion; the commission's recorded draw puts nº 15 ahead (Art. 3)
    assert (rows[8]["number"], rows[8]["decided_by"], rows[9]["number"]) == (15, "draw", 14)
    assert rows[8]["prize"] == 17.6 and rows[9]["prize"] == 0
    late = next(r for r in rows.values() if r["number"] == 17)
    assert late["rounds"][0] == 0                    # late registration: round 1 counts 0 (Art. 5)


def test_state_qualifiers_of_the_season(site):
    out, _ = site
    q = json.loads((out / "api" / "2026" / "quatrilho" / "qualifiers.json").read_text(encoding="utf-8"))
    # Alceu Zanatta is 4th in Chapecó and 1st in Concórdia: listed once, under Chapecó; Xanxerê is in progress
    assert [(e["championship"], e["position"], e["player"]) for e in q["qualifiers"]] == [
        ("chapeco", 1, "flavio-pasqualotto"), ("chapeco", 2, "olimpio-dalla-costa"), ("chapeco", 3, "zelia-brun"),
        ("chapeco", 4, "alceu-zanatta"), ("concordia", 2, "orestes-bettoni"), ("concordia", 3, "dirceu-spanholi"),
        ("concordia", 4, "vitalino-zanin")]


def test_xanxere_is_in_progress_with_a_shared_place_and_a_drawn_round(site):
    res = champ(site, "xanxere")
    assert res.championship.status == "in_progress" and len(res.championship.rounds) == 3
    assert not res.championship.rounds[2].counted
    tied = [ln.number for ln in res.lines if ln.tied]
    assert tied == [2, 9]                            # +50 +20 and +20 +50: equal in every criterion
    assert not any(ln.award.champion or ln.award.prize for ln in res.lines)
    assert res.registration_money == Decimal("800.00")   # (14 + 2) × 50,00


def test_championship_page(site):
    page = text(site, "2026/quatrilho/chapeco/index.html")
    assert "R$ 1.430,00" in page and "R$ 357,50" in page
    assert ("Empatado com Zélia Brun em pontos positivos (+260); à frente por ter mais rodadas com pontos ganhos "
            "(3 contra 2) — Art. 22.") in page
    assert ("Empatado com Olímpio Dalla Costa em pontos positivos (+260); atrás por ter menos rodadas com pontos "
            "ganhos (2 contra 3) — Art. 22.") in page
    assert "à frente pela maior pontuação numa só rodada (120 contra 90)" in page
    assert "Mesa 3, 2ª rodada: soma 600, esperado 600 (5 jogadores, 1 coringa)" in page   # no re-entry: unsaid
    assert "Coringa C1" in page and "desclassificado na rodada 2" in page
    assert "Chegou atrasado ao reinício da rodada (Art. 12)" in page
    out, _ = site
    html = (out / "2026/quatrilho/chapeco/index.html").read_text(encoding="utf-8")
    assert html.count("<table") == html.count("<caption") and '<th scope="row">' in html
    concordia = text(site, "2026/quatrilho/concordia/index.html")
    assert "à frente por decisão da comissão registrada (Art. 3)" in concordia
    assert "Já classificado ao estadual por 1º Campeonato Aberto de Quatrilho de Chapecó" in concordia


def test_season_overview_and_player_pages(site):
    season = text(site, "2026/index.html")
    assert "Quatrilho" in season and "2º Campeonato Aberto de Quatrilho de Concórdia" in season
    overview = text(site, "2026/quatrilho/index.html")
    assert "Classificados ao Campeonato Estadual" in overview and "Vitalino Zanin" in overview
    assert "A definir (campeonato em andamento): 1º Campeonato Aberto de Quatrilho de Xanxerê" in overview
    player = text(site, "jogadores/alceu-zanatta/index.html")     # plays Truco and Quatrilho: one page
    assert "Etapas de Truco" in player and "Campeonatos de Quatrilho de Alceu Zanatta" in player
    # one row of the player's Quatrilho table: the prize (6 % of R$ 1.430,00, above), the registration number,
    # the notes
    assert "R$ 85,80 8 campeão (4º), classificado ao estadual" in player
