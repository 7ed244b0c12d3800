"""What a club's webmaster meets in the API (issue 37, item 5): names beside the ids, the index of seasons and
files, the registries, api/latest/ and the CSVs for a spreadsheet in pt-BR (`-br.csv`), checked on the demo
content; the first CSVs keep the columns of outputs.md, byte for byte."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not (ROOT / "content" / "league.yaml").exists(), reason="no demo content")


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    from league.engine.build import check
    from league.site.api import api_files
    return api_files(check(ROOT / "content", cache_dir=False).results)


def _json(files, path):
    return json.loads(files[path])


def _br_rows(text: str) -> list[list[str]]:
    assert text.startswith("\ufeff"), "UTF-8 com BOM: o Excel lê os acentos"
    assert "\r\n" in text
    return list(csv.reader(io.StringIO(text[1:], newline=""), delimiter=";"))


def test_ranking_names_every_club_and_pair(files):
    rk = _json(files, "api/2026/truco/ranking.json")
    # oeste: 1st in etapa-1 (20), 4th in etapa-2 (8), 2nd in etapa-3 (16), 3rd in etapa-4 (12), Truco 12.1:
    # 20 + 8 + 16 + 12 = 56; its name from clubs.yaml
    # and the title race (issue 36): 1st after etapa-3 too (movement 0); etapa-5 and etapa-6 left (40 points),
    # princesa on 54 can pass it → it leads, can still win, has not clinched, no champion yet
    assert rk["clubs"][0] == {"position": 1, "tied": False, "club": "oeste", "club_name": "Associação Oeste de Truco",
                              "points": 56, "stages": {"etapa-1": 20, "etapa-2": 8, "etapa-3": 16, "etapa-4": 12},
                              "movement": 0, "can_still_win": True, "clinched": False, "champion": False}
    # fabio-becker + vilmar-trevisan won etapa-1 and etapa-3 as a pair: 20 + 20 = 40 (Truco 12.1)
    assert rk["pairs"][0]["players"] == ["fabio-becker", "vilmar-trevisan"]
    assert rk["pairs"][0]["player_names"] == ["Fábio Becker", "Vilmar Trevisan"]
    assert rk["stage_names"] == {f"etapa-{i}": f"{i}ª Etapa" for i in range(1, 7)}


def test_stage_and_championship_name_teams_clubs_players(files):
    st = _json(files, "api/2026/truco/etapa-1.json")
    assert st["stage_name"] == "1ª Etapa"
    first = st["classification"][0]
    assert (first["team"], first["team_name"], first["club"], first["club_name"], first["ranking_points"]) == \
        ("oeste", "Associação Oeste de Truco", "oeste", "Associação Oeste de Truco", 20)
    assert all("team_name" in r for g in st["groups"] for r in g["standings"])
    assert st["pairs"][0]["player_names"] == ["Fábio Becker", "Vilmar Trevisan"]
    ch = _json(files, "api/2026/quatrilho/chapeco.json")
    assert ch["championship_name"] == "1º Campeonato Aberto de Quatrilho de Chapecó"
    assert (ch["classification"][0]["player"], ch["classification"][0]["player_name"]) == \
        ("flavio-pasqualotto", "Flávio Pasqualotto")
    q = _json(files, "api/2026/quatrilho/qualifiers.json")["qualifiers"][0]
    assert q == {"championship": "chapeco", "championship_name": "1º Campeonato Aberto de Quatrilho de Chapecó",
                 "position": 1, "player": "flavio-pasqualotto", "player_name": "Flávio Pasqualotto"}


def test_first_csvs_keep_the_columns_of_outputs_md(files):
    assert files["api/2026/truco/ranking-clubes.csv"].splitlines()[:2] == [
        "position,tied,club,points,stages", "1,false,oeste,56,etapa-1=20;etapa-2=8;etapa-3=16;etapa-4=12"]
    assert files["api/2026/truco/etapa-1-classificacao.csv"].splitlines()[0] == \
        "position,tied,team,club,ranking_points"
    assert files["api/2026/truco/etapa-1-duplas.csv"].splitlines()[0] == (
        "position,tied,players,team,played,wins,points,pair_points_balance,pontinhos_balance,ranking_points,"
        "decided_by")
    assert files["api/2026/quatrilho/chapeco-mesas.csv"].splitlines()[0] == \
        "round,table,seat,number,player,chips,rebuys,penalty,result"
    assert files["api/2026/quatrilho/qualifiers.csv"].splitlines()[0] == "championship,position,player"


def test_br_csv_ranking_has_a_column_per_final_stage(files):
    rows = _br_rows(files["api/2026/truco/ranking-clubes-br.csv"])
    # etapa-1 … etapa-4 are final (etapa-5 in progress, etapa-6 scheduled: no ranking points yet)
    assert rows[0] == ["position", "tied", "club", "club_name", "points", "etapa-1", "etapa-2", "etapa-3", "etapa-4"]
    assert rows[1] == ["1", "não", "oeste", "Associação Oeste de Truco", "56", "20", "8", "16", "12"]
    pairs = _br_rows(files["api/2026/truco/ranking-duplas-br.csv"])
    assert pairs[0][:7] == ["position", "tied", "player_1", "player_1_name", "player_2", "player_2_name", "points"]
    # 40 = etapa-1 20 + etapa-3 20; no points in etapa-2 nor etapa-4: empty cells
    assert pairs[1] == ["1", "não", "fabio-becker", "Fábio Becker", "vilmar-trevisan", "Vilmar Trevisan", "40",
                        "20", "", "20", ""]


def test_br_csv_writes_a_decimal_comma(files):
    rows = _br_rows(files["api/2026/quatrilho/chapeco-classificacao-br.csv"])
    line = dict(zip(rows[0], rows[1]))
    # Chapecó: 26 registrations and re-registrations × R$ 55 = R$ 1430; 1st place 25 % (Art. 23) = 357.5
    assert (line["player_name"], line["prize"], line["champion"], line["net"]) == \
        ("Flávio Pasqualotto", "357,5", "sim", "320")
    assert _json(files, "api/2026/quatrilho/chapeco.json")["registration_money"] == 1430


def test_br_csv_keeps_formulas_out(files):
    from league.site.api_br import br_csv
    text = br_csv([{"name": "=HYPERLINK(1)", "v": 8.67, "n": -3, "b": None}])
    assert text == "\ufeffname;v;n;b\r\n'=HYPERLINK(1);8,67;-3;\r\n"


def test_index_lists_every_season_file_and_nothing_else(files):
    index = _json(files, "api/index.json")
    assert (index["current"], index["latest"], index["clubs"], index["players"]) == \
        ("2026", "latest/", "clubs.json", "players.json")
    [season] = index["seasons"]
    listed = set(season["files"]) | set(season["qualifiers"])
    listed |= {f for st in season["stages"] for f in st["files"]}
    listed |= {f for ch in season["championships"] for f in ch["files"]}
    written = {p[len("api/"):] for p in files if p.startswith("api/2026/")}
    assert listed == written
    assert [(s["stage"], s["stage_name"], s["date"], s["status"]) for s in season["stages"]][4] == \
        ("etapa-5", "5ª Etapa", "2026-10-03", "in_progress")   # etapa-5.yaml: date, status
    assert season["embed_url"] == "https://example.org/embed/2026/ranking/"


def test_latest_mirrors_the_current_season(files):
    current = {p[len("api/2026/"):]: t for p, t in files.items() if p.startswith("api/2026/")}
    latest = {p[len("api/latest/"):]: t for p, t in files.items() if p.startswith("api/latest/")}
    assert latest == current


def test_registries(files):
    clubs = _json(files, "api/clubs.json")["clubs"]
    assert [c["club"] for c in clubs] == sorted(c["club"] for c in clubs)
    oeste = next(c for c in clubs if c["club"] == "oeste")
    assert oeste == {"club": "oeste", "club_name": "Associação Oeste de Truco", "city": "Cascavel",
                     "url": "https://example.org/clubes/oeste/", "embed_url": "https://example.org/embed/clubes/oeste/"}
    players = _json(files, "api/players.json")["players"]
    fabio = next(p for p in players if p["player"] == "fabio-becker")
    assert fabio == {"player": "fabio-becker", "player_name": "Fábio Becker", "club": "oeste",
                     "club_name": "Associação Oeste de Truco", "url": "https://example.org/jogadores/fabio-becker/"}


def test_latest_is_the_latest_season_by_year(tmp_path):
    from league.engine.build import check
    from league.site.api import api_files
    from tests.util import two_team_stage, write_content
    # 2025: bb wins 3 of the 5 boards (aa only 2); 2026: aa wins 3; folders written newest first on purpose
    write_content(tmp_path, {"etapa-1": two_team_stage(home_boards=3)}, clubs=["aa", "bb"], year="2026")
    write_content(tmp_path, {"etapa-1": two_team_stage(home_boards=2).replace("2026-03-14", "2025-03-14")},
                  clubs=["aa", "bb"], year="2025")
    files = api_files(check(tmp_path / "content", cache_dir=False).results)
    index = json.loads(files["api/index.json"])
    assert index["current"] == "2026"
    assert [(s["season"], s["current"]) for s in index["seasons"]] == [("2025", False), ("2026", True)]
    latest = json.loads(files["api/latest/truco/ranking.json"])
    assert latest == json.loads(files["api/2026/truco/ranking.json"])
    # Truco 12.1: the winner of the only match of the stage 1st (20), the other 2nd (16)
    assert [(c["club"], c["points"]) for c in latest["clubs"]] == [("aa", 20), ("bb", 16)]
    assert [(c["club"], c["points"]) for c in json.loads(files["api/2025/truco/ranking.json"])["clubs"]] == \
        [("bb", 20), ("aa", 16)]
