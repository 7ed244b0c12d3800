"""History (data-format.md "History: stages known only by their results"): a stage known only by its published
final places, a match known only by its team result ("4x1", Truco 9.1); both rebuild a past season's annual
club ranking, ranked by hand below."""
from __future__ import annotations

import re

from click.testing import CliRunner

from league.cli import main
from league.engine.build import check
from tests.truco_fixtures import (
    content, errors, line_of, places, ranking_data, run, stage_data, standings, warnings,
)

# the real FPRT 2025 1st stage's clubs
CLUBS = ["aptru", "trupuava", "los-maikas", "guara", "imbitruco", "so-truco", "trukaria", "trucastro"]

PLACES_STAGE = """\
name: 1ª Etapa
date: 2025-03-15
city: Curitiba
status: final
source: https://fprt.com.br/noticias/1-etapa-2025
final_places: [aptru, trupuava, [los-maikas, guara], imbitruco, so-truco, trukaria, trucastro]
"""

# aptru, trupuava and los-maikas beat each other in a circle, each 3x2, and each beat guara 5x0; no boards known
RESULTS_STAGE = """\
name: 2ª Etapa
date: 2025-05-10
status: final
teams: {aptru: {}, trupuava: {}, los-maikas: {}, guara: {}}
phases:
  - name: Fase de grupos
    groups:
      Grupo A:
        teams: [aptru, trupuava, los-maikas, guara]
        matches:
          - {home: aptru, away: trupuava, result: "3x2"}
          - {home: trupuava, away: los-maikas, result: "3-2"}
          - {home: los-maikas, away: aptru, result: "3×2"}
          - {home: aptru, away: guara, result: "5x0"}
          - {home: trupuava, away: guara, result: "5 x 0"}
          - {home: guara, away: los-maikas, result: "0x5"}
"""


def _run(tmp_path):
    """The 2025 season: etapa-1 known by its places, etapa-2 by its match results."""
    root = content(tmp_path, {}, CLUBS)
    folder = root / "seasons" / "2025" / "truco"
    folder.mkdir(parents=True)
    (folder / "etapa-1.yaml").write_text(PLACES_STAGE, encoding="utf-8")
    (folder / "etapa-2.yaml").write_text(RESULTS_STAGE, encoding="utf-8")
    return check(root)


def test_final_places_stage_awards_points_by_place_a_shared_place_sharing_them(tmp_path):
    # Truco 12.1 with the default table 20/16/12/8/6/4/3/2: aptru 1st 20, trupuava 2nd 16; los-maikas and guara
    # share the 3rd place, i.e. places 3 and 4: (12 + 8) / 2 = 10 each; imbitruco is 5th (after two teams at 3),
    # 6; so-truco 6th 4, trukaria 7th 3, trucastro 8th 2
    report = _run(tmp_path)
    assert places(report, "etapa-1") == [
        (1, "aptru", 20), (2, "trupuava", 16), (3, "los-maikas", 10), (3, "guara", 10), (5, "imbitruco", 6),
        (6, "so-truco", 4), (7, "trukaria", 3), (8, "trucastro", 2)]
    data = stage_data(report, "etapa-1")
    assert data["source"] == "https://fprt.com.br/noticias/1-etapa-2025"
    assert [p["tied"] for p in data["classification"]] == [False, False, True, True, False, False, False, False]
    assert data["groups"] == [] and data["pairs"] == []


def test_result_only_matches_count_wins_and_points_and_an_unbreakable_tie_is_reported(tmp_path):
    # Truco 9.1: team points = the result. aptru 3 (beat trupuava 3x2) + 2 (lost to los-maikas 2x3) + 5 (beat
    # guara 5x0) = 10 points, 2 wins; trupuava 2 + 3 + 5 = 10, 2 wins; los-maikas 2 + 3 + 5 = 10, 2 wins;
    # guara 0. Head-to-head among the three: each 1 win and 3 + 2 = 5 points; the pair-point and pontinhos
    # balances are unknown (no boards): the tie is reported, never guessed, and the three share places 1-3,
    # (20 + 16 + 12) / 3 = 16 points each; guara 4th, 8.
    report = _run(tmp_path)
    rows = {r["team"]: r for r in standings(report, "etapa-2")}
    assert [(t, rows[t]["wins"], rows[t]["points"], rows[t]["position"], rows[t]["tied"]) for t in
            ("aptru", "trupuava", "los-maikas", "guara")] == [
        ("aptru", 2, 10, 1, True), ("trupuava", 2, 10, 1, True), ("los-maikas", 2, 10, 1, True),
        ("guara", 0, 0, 4, False)]
    assert rows["aptru"]["pair_points_balance"] is None and rows["guara"]["pontinhos_balance"] is None
    assert sorted(places(report, "etapa-2")) == [
        (1, "aptru", 16), (1, "los-maikas", 16), (1, "trupuava", 16), (4, "guara", 8)]
    unknown = warnings(report, "unknown-pontinhos")
    assert [w.message for w in unknown] == [
        "Fase de grupos — Grupo A: o critério pair_points_balance não pôde ser aplicado entre aptru, los-maikas, "
        "trupuava: há confrontos registrados só pelo resultado (\"4x1\"), sem os jogos: o empate não pode ser "
        "desfeito pelos dados"]
    # the published shared place of etapa-1 is no tie waiting for a draw; etapa-2's group and stage tie are
    assert {w.mark.path.rsplit("/", 1)[-1] for w in warnings(report, "draw-needed")} == {"etapa-2.yaml"}


def test_history_season_annual_club_ranking_by_hand(tmp_path):
    # Truco 12.1, sum over the final stages: aptru 20 + 16 = 36; trupuava 16 + 16 = 32; los-maikas 10 + 16 = 26;
    # guara 10 + 8 = 18; imbitruco 6; so-truco 4; trukaria 3; trucastro 2 — no two totals equal
    data = ranking_data(_run(tmp_path), "2025")
    assert [(c["position"], c["club"], c["points"], c["stages"]) for c in data["clubs"]] == [
        (1, "aptru", 36, {"etapa-1": 20, "etapa-2": 16}), (2, "trupuava", 32, {"etapa-1": 16, "etapa-2": 16}),
        (3, "los-maikas", 26, {"etapa-1": 10, "etapa-2": 16}), (4, "guara", 18, {"etapa-1": 10, "etapa-2": 8}),
        (5, "imbitruco", 6, {"etapa-1": 6}), (6, "so-truco", 4, {"etapa-1": 4}),
        (7, "trukaria", 3, {"etapa-1": 3}), (8, "trucastro", 2, {"etapa-1": 2})]
    # no stage has boards: no pair scored; the ranking says which stage it leaves out (known by places only)
    assert data["pairs"] == [] and data["pairs_left_out"] == ["etapa-1"]


def test_second_team_in_final_places_and_club_scores_its_best_team(tmp_path):
    # {club: aptru, name: APTRU B} is the team aptru-b; places: aptru 1st 20, trupuava 2nd 16, aptru-b 3rd 12.
    # Club score = best-placed team (decision, Truco 12.1): aptru 20, not 20 + 12.
    text = PLACES_STAGE.replace("final_places: [aptru, trupuava, [los-maikas, guara], imbitruco, so-truco, "
                                "trukaria, trucastro]", "final_places: [aptru, trupuava, {club: aptru, name: APTRU B}]")
    report = run(tmp_path, {"etapa-1": text.replace("2025-03-15", "2026-03-15")}, CLUBS)
    assert places(report) == [(1, "aptru", 20), (2, "trupuava", 16), (3, "aptru-b", 12)]
    assert stage_data(report)["classification"][2]["club"] == "aptru"
    assert [(c["club"], c["points"]) for c in ranking_data(report)["clubs"][:2]] == [("aptru", 20), ("trupuava", 16)]


BAD_PLACES = """\
name: 1ª Etapa
date: 2026-03-15
status: in_progress
source: javascript:alert(1)
teams: {aptru: {}}
final_places: [aptru, trupuav, [guara, aptru]]
"""

BAD_RESULTS = """\
name: 2ª Etapa
date: 2026-05-10
status: final
teams: {aptru: {}, guara: {}}
phases:
  - name: Fase de grupos
    groups:
      Grupo A:
        teams: [aptru, guara]
        matches:
          - {home: aptru, away: guara, result: "4x2"}
          - {home: guara, away: aptru, result: "3x2", boards: ["2-0", "2-0", "2-0", "0-2", "0-2"]}
"""


def test_history_errors_all_at_once_with_line_value_and_suggestion(tmp_path):
    got = errors(tmp_path, {"etapa-1": BAD_PLACES, "etapa-2": BAD_RESULTS}, CLUBS)
    shown = {(d.mark.path.rsplit("/", 1)[-1], d.mark.line, d.message, d.hint) for d in got}
    assert shown == {
        ("etapa-1.yaml", line_of(BAD_PLACES, "source:"), "source: \"javascript:alert(1)\" não é um endereço da web",
         "escreva o endereço completo onde os resultados foram publicados, ex.: "
         "https://fprt.com.br/noticias/1-etapa-2025"),
        ("etapa-1.yaml", line_of(BAD_PLACES, "teams:"), "uma etapa com \"final_places\" não tem \"teams\"",
         "a etapa conhecida só pela classificação final não tem equipes nem jogos: apague \"teams\", ou "
         "\"final_places\" se os jogos são conhecidos"),
        ("etapa-1.yaml", line_of(BAD_PLACES, "status:"), "uma etapa com \"final_places\" está encerrada; recebido "
         "status: in_progress", "use status: final (a classificação publicada é a final)"),
        ("etapa-1.yaml", line_of(BAD_PLACES, "final_places:"), "clube desconhecido \"trupuav\"",
         "você quis dizer \"trupuava\"?"),
        ("etapa-1.yaml", line_of(BAD_PLACES, "final_places:"), "a equipe \"aptru\" aparece duas vezes em "
         "final_places (linha 6)", "cada equipe tem um só lugar; um lugar dividido é uma lista: [clube-a, clube-b]"),
        ("etapa-2.yaml", line_of(BAD_RESULTS, "4x2"), "confronto aptru × guara: resultado \"4x2\" impossível: os 5 "
         "jogos do confronto somam 5 pontos e uma equipe vence (item 9.1)",
         "os resultados possíveis são 5x0, 4x1, 3x2 (ou o inverso)"),
        ("etapa-2.yaml", line_of(BAD_RESULTS, "boards:"), "o confronto guara × aptru tem \"result\" e \"boards\"",
         "escreva os jogos em \"boards\" quando são conhecidos, ou só o resultado em \"result\""),
    }


def test_stage_and_season_pages_show_the_published_places_and_what_the_pair_ranking_leaves_out(tmp_path):
    root = content(tmp_path, {}, CLUBS)
    folder = root / "seasons" / "2025" / "truco"
    folder.mkdir(parents=True)
    (folder / "etapa-1.yaml").write_text(PLACES_STAGE, encoding="utf-8")
    (folder / "etapa-2.yaml").write_text(RESULTS_STAGE, encoding="utf-8")
    out = tmp_path / "site"
    res = CliRunner().invoke(main, ["build", "--content", str(root), "--out", str(out)])
    assert res.exit_code == 0, res.output
    page = (out / "2025" / "truco" / "etapa-1" / "index.html").read_text(encoding="utf-8")
    assert '<p class="note source">Resultados publicados em: <a href="https://fprt.com.br/noticias/1-etapa-2025">' \
           'fprt.com.br</a></p>' in page
    rows = re.findall(r'<tr>\s*<td>([^<]+)</td>.*?<td class="total">([^<]+)</td>\s*<td>([^<]*)</td>\s*'
                      r'<td class="why">([^<]*)</td>', page, re.S)
    assert [(pos, pts, why) for pos, pts, _how, why in rows] == [
        ("1º", "20", ""), ("2º", "16", ""), ("3º=", "10", "lugar dividido"), ("3º=", "10", "lugar dividido"),
        ("5º", "6", ""), ("6º", "4", ""), ("7º", "3", ""), ("8º", "2", "")]
    assert {how for _p, _pts, how, _w in rows} == {"classificação publicada"}
    assert 'id="duplas"' not in page
    results_page = (out / "2025" / "truco" / "etapa-2" / "index.html").read_text(encoding="utf-8")
    assert results_page.count("Só o resultado do confronto é conhecido: os jogos não foram registrados.") == 6
    assert "empate que os dados registrados não desfazem — aguardando sorteio" in results_page
    season = (out / "2025" / "index.html").read_text(encoding="utf-8")
    assert 'O ranking de duplas não inclui a etapa <a href="/2025/truco/etapa-1/">1ª Etapa</a>: ela é conhecida ' \
           'só pela classificação final.' in season
    assert 'Na etapa <a href="/2025/truco/etapa-2/">2ª Etapa</a>, os confrontos registrados só pelo resultado ' \
           'não contam para as duplas.' in season


def test_final_places_errors_point_at_the_entry(tmp_path):
    # "final_places: [aptru, trupuav, [guara, aptru]]": trupuav starts at column 23 (15 + len("aptru, ") + 1),
    # the second aptru at column 40 (after "trupuav, " and "[guara, ")
    got = errors(tmp_path, {"etapa-1": BAD_PLACES}, CLUBS)
    cols = {d.message.split('"')[1]: (d.mark.line, d.mark.col) for d in got if "trupuav" in d.message
            or "duas vezes" in d.message}
    assert cols == {"trupuav": (6, 23), "aptru": (6, 40)}


KNOCKOUT_RESULTS = """\
name: 3ª Etapa
date: 2026-08-02
status: final
teams: {aptru: {}, trupuava: {}, los-maikas: {}, guara: {}}
phases:
  - name: Fase de grupos
    groups:
      Grupo A:
        teams: [aptru, trupuava, los-maikas, guara]
        matches:
          - {home: aptru, away: trupuava, result: "3x2"}
          - {home: aptru, away: los-maikas, result: "1x4"}
          - {home: aptru, away: guara, result: "4x1"}
          - {home: trupuava, away: los-maikas, result: "3x2"}
          - {home: trupuava, away: guara, result: "3x2"}
          - {home: los-maikas, away: guara, result: "2x3"}
  - name: Finais
    knockout:
      - round: Final
        for_place: 1
        matches: [{home: trupuava, away: aptru, result: "3x2"}]
      - round: Disputa de 3º lugar
        for_place: 3
        matches: [{home: los-maikas, away: guara, result: "1x4"}]
"""


def test_result_only_matches_decide_head_to_head_and_knockout_places(tmp_path):
    # Group (Truco 9.1, 10.1, 10.2.1): aptru 3 + 1 + 4 = 8 points, 2 wins; trupuava 2 + 3 + 3 = 8, 2 wins — tied
    # in wins and points, aptru beat trupuava 3x2: aptru 1st by head-to-head; los-maikas 4 + 2 + 2 = 8, 1 win;
    # guara 1 + 2 + 3 = 6, 1 win: los-maikas 3rd on points. Final (for_place 1): trupuava 3x2 aptru → trupuava
    # 1st (20), aptru 2nd (16); 3rd-place match: guara 4x1 los-maikas → guara 3rd (12), los-maikas 4th (8).
    report = run(tmp_path, {"etapa-3": KNOCKOUT_RESULTS}, CLUBS)
    rows = standings(report, "etapa-3")
    assert [(r["team"], r["wins"], r["points"], r["decided_by"]) for r in rows] == [
        ("aptru", 2, 8, "head_to_head"), ("trupuava", 2, 8, "wins"), ("los-maikas", 1, 8, "points"),
        ("guara", 1, 6, None)]
    assert places(report, "etapa-3") == [(1, "trupuava", 20), (2, "aptru", 16), (3, "guara", 12), (4, "los-maikas", 8)]
    assert warnings(report, "unknown-pontinhos") == [] and warnings(report, "draw-needed") == []


def test_mixed_stage_pairs_count_only_the_boards_written(tmp_path):
    # aa 3x2 bb with its boards (aa's pairs 1-3 win 2x0: 3 pair points each; bb's pairs 4-5 win 2x0); bb 4x1 cc
    # and cc 3x2 aa by result only. Pairs: the 10 pairs of aa and bb, one board each; cc's squad played no board
    # written. Teams: aa, bb and cc each 1 win; aa 3 + 2 = 5 points, bb 2 + 4 = 6, cc 1 + 3 = 4; each team has a
    # result-only match, so every pair-point balance is unknown (None).
    from tests.truco_fixtures import match, result, round_robin_group
    text = round_robin_group(["aa", "bb", "cc"], [
        match("aa", "bb", result(3)), "          - {home: bb, away: cc, result: \"4x1\"}\n",
        "          - {home: cc, away: aa, result: \"3x2\"}\n"])
    report = run(tmp_path, {"etapa-1": text}, ["aa", "bb", "cc"])
    rows = standings(report)
    assert [(r["team"], r["wins"], r["points"], r["pair_points_balance"]) for r in rows] == [
        ("bb", 1, 6, None), ("aa", 1, 5, None), ("cc", 1, 4, None)]
    pairs = stage_data(report)["pairs"]
    assert len(pairs) == 10 and {p["played"] for p in pairs} == {1}
    assert {p["team"] for p in pairs} == {"aa", "bb"}
    assert "pairs_left_out" not in ranking_data(report)
