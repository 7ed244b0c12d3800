"""`league import stage`: a top-N list pasted from a federation's news post becomes a stage file known by its
final places (data-format.md, history), each club name matched to clubs.yaml; the file passes the build."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from league.cli import main
from league.content.diagnostics import Diagnostics
from league.content.toplist import ClubIndex, SecondTeam, group_places, normal, read_list, resolve
from league.engine.build import check
from tests.truco_fixtures import ranking_data, stage_data
from tests.util import LEAGUE

CLUBS_YAML = """\
aptru: {name: Associação Paranaense de Truco, short_name: APTRU, city: Curitiba}
trupuava: {name: Trupuava, city: Guarapuava}
los-maikas: {name: Los Maikas, city: Curitiba}
guara: {name: Guará Truco, city: Guarapuava}
imbitruco: {name: Imbitruco, city: Imbituva}
so-truco: {name: Só Truco, city: Ponta Grossa}
trukaria: {name: Trukaria, city: Curitiba}
trucastro: {name: Trucastro, city: Castro}
"""

# the FPRT 2025 1st stage's top 8 as the federation's news post lists it
FPRT_2025_1 = """\
Classificação final da 1ª Etapa 2025:

1º APTRU
2º Trupuava
3º Los Maikas
4º Guará Truco
5º Imbitruco
6º Só Truco
7º Trukaria
8º Trucastro
"""


@pytest.fixture
def content(tmp_path):
    root = tmp_path / "content"
    (root / "seasons" / "2025" / "truco").mkdir(parents=True)
    (root / "league.yaml").write_text(LEAGUE, encoding="utf-8")
    (root / "clubs.yaml").write_text(CLUBS_YAML, encoding="utf-8")
    (root / "players.yaml").write_text("{}\n", encoding="utf-8")
    return root


def run(content, text: str, *args: str):
    return CliRunner().invoke(main, ["import", "stage", "--content", str(content), *args], input=text)


def test_fprt_list_becomes_a_stage_file_the_build_ranks(content):
    res = run(content, FPRT_2025_1, "--date", "2025-03-15", "--city", "Curitiba",
              "--source", "https://fprt.com.br/noticias/1-etapa-2025", "2025", "etapa-1")
    assert res.exit_code == 0, res.output
    text = (content / "seasons" / "2025" / "truco" / "etapa-1.yaml").read_text(encoding="utf-8")
    assert text == (
        "# yaml-language-server: $schema=../../../../schemas/stage.schema.json\n"
        "name: 1ª Etapa\n"
        "date: 2025-03-15\n"
        "city: Curitiba\n"
        "status: final\n"
        "source: \"https://fprt.com.br/noticias/1-etapa-2025\"\n"
        "final_places:                       # classificação publicada; [a, b] = lugar dividido\n"
        "  - aptru                           # 1º APTRU\n"
        "  - trupuava                        # 2º Trupuava\n"
        "  - los-maikas                      # 3º Los Maikas\n"
        "  - guara                           # 4º Guará Truco\n"
        "  - imbitruco                       # 5º Imbitruco\n"
        "  - so-truco                        # 6º Só Truco\n"
        "  - trukaria                        # 7º Trukaria\n"
        "  - trucastro                       # 8º Trucastro\n")
    # Truco 12.1, default table: the places earn 20, 16, 12, 8, 6, 4, 3, 2
    report = check(content)
    assert [(p["team"], p["ranking_points"]) for p in stage_data(report)["classification"]] == [
        ("aptru", 20), ("trupuava", 16), ("los-maikas", 12), ("guara", 8), ("imbitruco", 6), ("so-truco", 4),
        ("trukaria", 3), ("trucastro", 2)]
    assert stage_data(report)["source"] == "https://fprt.com.br/noticias/1-etapa-2025"
    from league.site.api import ranking_json
    from league.site.apiformat import Names
    season = next(s for s in report.results.seasons if s.season.year == "2025")
    first = ranking_json(season, Names(report.results.league))["clubs"][0]
    # (the race fields beside them: one stage, final, so aptru is the season's champion)
    assert {k: first.pop(k) for k in ("movement", "can_still_win", "clinched", "champion")} == {
        "movement": None, "can_still_win": True, "clinched": True, "champion": True}
    assert first == {
        "position": 1, "tied": False, "club": "aptru", "club_name": "Associação Paranaense de Truco",
        "points": 20, "stages": {"etapa-1": 20}}


def test_every_written_form_shared_places_and_second_teams(content):
    # "3º=" twice: los-maikas and guara share the 3rd place (places 3-4, (12 + 8) / 2 = 10 each); the next is
    # the 5th. "Imbitruco B" is not a club: the club Imbitruco's second team (id imbitruco-b), 5th, 6 points.
    pasted = ("- 1. aptru\n2) TRUPUAVA\n3º= los maikas\n=3º Guara-Truco\n5 - Imbitruco B\n6ª So Truco\n"
              "7 – Trukária\n8° lugar: Trucastro\n")
    res = run(content, pasted, "--date", "2025-03-15", "2025", "etapa-2")
    assert res.exit_code == 0, res.output
    text = (content / "seasons" / "2025" / "truco" / "etapa-2.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[5:] == [
        "  - aptru                           # 1º aptru",
        "  - trupuava                        # 2º TRUPUAVA",
        "  - [los-maikas, guara]             # 3º= los maikas, Guara-Truco",
        "  - {club: imbitruco, name: Imbitruco B} # 5º Imbitruco B",
        "  - so-truco                        # 6º So Truco",
        "  - trukaria                        # 7º Trukária",
        "  - trucastro                       # 8º Trucastro"]
    report = check(content)
    assert [(p["position"], p["team"], p["ranking_points"]) for p in stage_data(report, "etapa-2")["classification"]] \
        == [(1, "aptru", 20), (2, "trupuava", 16), (3, "los-maikas", 10), (3, "guara", 10), (5, "imbitruco-b", 6),
            (6, "so-truco", 4), (7, "trukaria", 3), (8, "trucastro", 2)]


def test_unknown_names_and_bad_numbering_reported_together_nothing_written(content):
    # the 2nd place is shared by two teams, so the next is the 2 + 2 = 4th, not the 5th
    pasted = "1º APTRU\n2º Trupuava\n2º Los Maikas\n5º Guara Trucco\n6º Zeca\n"
    res = run(content, pasted, "--date", "2025-03-15", "2025", "etapa-1")
    assert res.exit_code == 1
    assert res.output.splitlines() == [
        "stdin:4:1: erro: clube \"Guara Trucco\" não encontrado em clubs.yaml",
        "    sugestão: você quis dizer Guará Truco (guara)? Corrija o nome na lista, ou acrescente o clube a "
        "clubs.yaml (ou o seu short_name)",
        "stdin:4:1: erro: colocação fora de ordem: 5º \"Guara Trucco\"; esperado o 4º lugar (depois de 2 equipe(s) "
        "no 2º lugar vem o 4º)",
        "    sugestão: confira a lista publicada; um lugar dividido repete o número: \"3º= A\", \"3º= B\", e o "
        "seguinte é o 5º",
        "stdin:5:1: erro: clube \"Zeca\" não encontrado em clubs.yaml",
        "    sugestão: Corrija o nome na lista, ou acrescente o clube a clubs.yaml (ou o seu short_name)",
        "3 erro(s)."]
    assert not (content / "seasons" / "2025" / "truco" / "etapa-1.yaml").exists()


def _read(text: str, clubs: dict):
    diags = Diagnostics()
    places = group_places(read_list(text, "lista", diags), "lista", diags)
    entries = resolve(places, ClubIndex(clubs), "lista", diags)
    return entries, [(d.mark.line, d.message) for d in diags.sorted()]


CLUB_NAMES = {"aptru": ("Associação Paranaense de Truco", "APTRU"), "guara": ("Guará Truco", None),
              "guarani": ("Guará Truco", None), "trupuava": ("Trupuava", None)}


def test_names_compare_without_case_accents_or_punctuation():
    assert normal("  GUARÁ-Truco!! ") == "guara truco"
    assert normal("Só  Truco") == "so truco"


def test_plain_ordered_names_short_name_and_id_all_match():
    # no line is numbered: the order is the place; "APTRU" is aptru's short_name, "trupuava" its id
    entries, problems = _read("Classificação:\nAPTRU\n\ntrupuava\n", CLUB_NAMES)
    assert (entries, problems) == ([["aptru"], ["trupuava"]], [])


def test_ambiguous_name_twice_listed_team_and_lonely_shared_mark():
    entries, problems = _read("1º Guará Truco\n2º= APTRU\n3º Associação Paranaense de Truco\n4º Trupuava B\n",
                              CLUB_NAMES)
    assert entries == [[], ["aptru"], [], [SecondTeam("trupuava", "Trupuava B")]]
    assert problems == [
        (1, "clube \"Guará Truco\" é o nome de mais de um clube: guara, guarani"),
        (2, "o 2º lugar está marcado como dividido (=), mas só \"APTRU\" está nele"),
        (3, "\"Associação Paranaense de Truco\" aparece duas vezes na lista (linha 2)")]


def test_mixed_numbered_and_unnumbered_lines_are_reported():
    _, problems = _read("1º APTRU\nTrupuava\n", CLUB_NAMES)
    assert problems == [(2, "\"Trupuava\" não começa com a colocação")]


def test_import_refuses_a_bad_date_a_bad_source_and_an_existing_file(content):
    bad_date = run(content, FPRT_2025_1, "--date", "15/03/2025", "2025", "etapa-1")
    assert (bad_date.exit_code, bad_date.output) == (
        2, "erro: --date \"15/03/2025\" não é uma data: use AAAA-MM-DD, ex.: 2025-03-15\n")
    bad_source = run(content, FPRT_2025_1, "--date", "2025-03-15", "--source", "fprt.com.br", "2025", "etapa-1")
    assert (bad_source.exit_code, bad_source.output) == (
        2, "erro: --source \"fprt.com.br\" não é um endereço da web: use o endereço completo (https://…)\n")
    (content / "seasons" / "2025" / "truco" / "etapa-1.yaml").write_text("x", encoding="utf-8")
    exists = run(content, FPRT_2025_1, "--date", "2025-03-15", "2025", "etapa-1")
    assert exists.exit_code == 2 and "já existe: nada foi escrito" in exists.output
    assert (content / "seasons" / "2025" / "truco" / "etapa-1.yaml").read_text(encoding="utf-8") == "x"
    shown = run(content, FPRT_2025_1, "--date", "2025-03-15", "--print", "2025", "etapa-1")
    assert shown.exit_code == 0 and shown.output.startswith("name: 1ª Etapa\ndate: 2025-03-15\nstatus: final\n")
