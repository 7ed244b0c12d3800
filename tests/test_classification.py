"""Stage classification (Truco items 3, 11, 12.1; rules.md "Stage classification") and the JSON keys of
outputs.md for <stage>.json and ranking.json."""
from __future__ import annotations

import json

import pytest

from league.site.api import api_files
from tests.truco_fixtures import (
    W20, by_team, groups_phase, knockout_phase, match, order, places, ranking_data, result, round_robin_group,
    run, stage, stage_data, stage_result, standings,
)

EIGHT = [f"t{i}" for i in range(1, 9)]


def eight_team_bracket() -> str:
    # QF: t1>t8, t4>t5, t2>t7, t3>t6; SF: t1>t4, t2>t3; 5–8 bracket: t8>t5, t7>t6;
    # 5th: t8>t7; 7th: t5>t6; 3rd: t4>t3; final: t2>t1 (the home team wins 3x2 or 4x1, except the final,
    # where home t1 takes only 2 boards)
    return stage(EIGHT, [knockout_phase([
        ("Quartas de final", {}, [match("t1", "t8", result(3)), match("t4", "t5", result(3)),
                                  match("t2", "t7", result(3)), match("t3", "t6", result(3))]),
        ("Semifinal", {}, [match("t1", "t4", result(4)), match("t2", "t3", result(3))]),
        ("Semifinal do 5º ao 8º", {"places": "[5, 8]"}, [match("t8", "t5", result(3)), match("t7", "t6", result(4))]),
        ("Disputa de 7º lugar", {"for_place": 7}, [match("t5", "t6", result(3))]),
        ("Disputa de 5º lugar", {"for_place": 5}, [match("t8", "t7", result(3))]),
        ("Disputa de 3º lugar", {"for_place": 3}, [match("t4", "t3", result(3))]),
        ("Final", {"for_place": 1}, [match("t1", "t2", result(2))]),
    ])])


def test_classification_knockout_with_third_place_and_5_8_bracket(tmp_path):
    rep = run(tmp_path, {"etapa-1": eight_team_bracket()}, EIGHT)
    # final t2 (3 boards of 5 as away) over t1 → 1 t2, 2 t1; 3rd-place match t4 over t3 → 3 t4, 4 t3;
    # 5th-place match t8 over t7 → 5 t8, 6 t7; 7th-place match t5 over t6 → 7 t5, 8 t6
    assert places(rep) == [(1, "t2", 20), (2, "t1", 16), (3, "t4", 12), (4, "t3", 8), (5, "t8", 6),
                           (6, "t7", 4), (7, "t5", 3), (8, "t6", 2)]
    assert not any(p["tied"] for p in stage_data(rep)["classification"])
    assert [p.how for p in stage_result(rep).classification] == ["placement"] * 8


# two groups of three, the top two to the semifinals (a1 × b2, b1 × a2), a final, no third-place match
#   Grupo A: a1 4x1 a2, a1 5x0 a3, a2 3x2 a3 → a1 2 wins; a2 1 win, 1+3 = 4 points; a3 0 wins, 0+2 = 2
#   Grupo B: b1 3x2 b2, b1 3x2 b3, b2 4x1 b3 → b1 2 wins; b2 1 win, 2+4 = 6 points; b3 0 wins, 2+1 = 3
#   SF: a1 3x2 b2, b1 3x2 a2; final a1 3x2 b1
TWO_GROUPS = ["a1", "a2", "a3", "b1", "b2", "b3"]


def two_groups_then_semis(third_place: bool = False) -> str:
    rounds = [("Semifinal", {}, [match("a1", "b2", result(3)), match("b1", "a2", result(3))])]
    if third_place:
        rounds.append(("Disputa de 3º lugar", {"for_place": 3}, [match("a2", "b2", result(3))]))
    rounds.append(("Final", {"for_place": 1}, [match("a1", "b1", result(3))]))
    return stage(TWO_GROUPS, [
        groups_phase({
            "Grupo A": (["a1", "a2", "a3"], [match("a1", "a2", result(4)), match("a1", "a3", result(5)),
                                             match("a2", "a3", result(3))]),
            "Grupo B": (["b1", "b2", "b3"], [match("b1", "b2", result(3)), match("b1", "b3", result(3)),
                                             match("b2", "b3", result(4))])}),
        knockout_phase(rounds)])


def test_classification_knockout_without_third_place_match(tmp_path):
    rep = run(tmp_path, {"etapa-1": two_groups_then_semis()}, TWO_GROUPS)
    # semifinal losers b2 and a2, ordered by the criteria over all their stage matches (not the semifinal
    # alone, where both took 2): b2 1 win, 6+2 = 8 points; a2 1 win, 4+2 = 6 → b2 3rd, a2 4th.
    # then the teams out of the knockout, group thirds: b3 (0 wins, 3) over a3 (0 wins, 2)
    assert places(rep) == [(1, "a1", 20), (2, "b1", 16), (3, "b2", 12), (4, "a2", 8), (5, "b3", 6), (6, "a3", 4)]


def test_classification_third_place_match_overrides_criteria(tmp_path):
    # the same stage with a third-place match a2 3x2 b2: a2 3rd though b2 has more points over the stage
    rep = run(tmp_path, {"etapa-1": two_groups_then_semis(third_place=True)}, TWO_GROUPS)
    assert places(rep)[:4] == [(1, "a1", 20), (2, "b1", 16), (3, "a2", 12), (4, "b2", 8)]


def test_classification_semifinal_losers_equal_share_places(tmp_path):
    # four-team knockout, both semifinals 3x2 with identical boards: the losers are equal on every criterion
    # and never met → shared 3rd: (12 + 8) / 2 = 10 each
    teams = ["aa", "bb", "cc", "dd"]
    st = stage(teams, [knockout_phase([
        ("Semifinal", {}, [match("aa", "bb", result(3)), match("cc", "dd", result(3))]),
        ("Final", {"for_place": 1}, [match("aa", "cc", result(3))])])])
    rep = run(tmp_path, {"etapa-1": st}, teams)
    assert places(rep) == [(1, "aa", 20), (2, "cc", 16), (3, "bb", 10), (3, "dd", 10)]
    assert [p["tied"] for p in stage_data(rep)["classification"]] == [False, False, True, True]


def test_classification_knockout_losers_by_round(tmp_path):
    # no placement matches at all: 8 teams, QF, SF and a final that is an elimination round (no for_place).
    # final winner t2, loser t1; SF losers t4, t3 before QF losers t8, t5, t7, t6 whatever their metrics.
    # SF losers: t4 lost 1x4 (QF 3 + 1 = 4 points), t3 lost 2x3 (3 + 2 = 5) → t3 3rd, t4 4th.
    # QF losers all lost 2x3 with 2x0 boards: equal on every criterion, never met → shared 5th–8th,
    # (6 + 4 + 3 + 2) / 4 = 3.75 each
    st = stage(EIGHT, [knockout_phase([
        ("Quartas de final", {}, [match("t1", "t8", result(3)), match("t4", "t5", result(3)),
                                  match("t2", "t7", result(3)), match("t3", "t6", result(3))]),
        ("Semifinal", {}, [match("t1", "t4", result(4)), match("t2", "t3", result(3))]),
        ("Final", {}, [match("t1", "t2", result(2))])])])
    rep = run(tmp_path, {"etapa-1": st}, EIGHT)
    assert places(rep) == [(1, "t2", 20), (2, "t1", 16), (3, "t3", 12), (4, "t4", 8), (5, "t5", 3.75),
                           (5, "t6", 3.75), (5, "t7", 3.75), (5, "t8", 3.75)]


# two groups of four; only the group winners play the final
#   Grupo A: a1 5x0 a2, a1 5x0 a4, a3 3x2 a1, a2 4x1 a3, a2 5x0 a4, a3 5x0 a4
#     → a1 2 wins 5+5+2 = 12; a2 2 wins 0+4+5 = 9; a3 2 wins 3+1+5 = 9; a4 0 wins 0
#     → a1 1st (points); a2, a3 restart: a2 beat a3 → a2 2nd, a3 3rd
#   Grupo B: b1 5x0 b2, b1 5x0 b3, b1 5x0 b4, b2 3x2 b3, b2 3x2 b4, b3 3x2 b4
#     → b1 3 wins 15; b2 2 wins 0+3+3 = 6; b3 1 win 0+2+3 = 5; b4 0 wins 0+2+2 = 4
#   Final: b1 4x1 a1
FOUR_FOUR = ["a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4"]


def test_classification_outside_knockout_group_position_first(tmp_path):
    st = stage(FOUR_FOUR, [
        groups_phase({
            "Grupo A": (["a1", "a2", "a3", "a4"], [
                match("a1", "a2", result(5)), match("a1", "a4", result(5)), match("a3", "a1", result(3)),
                match("a2", "a3", result(4)), match("a2", "a4", result(5)), match("a3", "a4", result(5))]),
            "Grupo B": (["b1", "b2", "b3", "b4"], [
                match("b1", "b2", result(5)), match("b1", "b3", result(5)), match("b1", "b4", result(5)),
                match("b2", "b3", result(3)), match("b2", "b4", result(3)), match("b3", "b4", result(3))])}),
        knockout_phase([("Final", {"for_place": 1}, [match("b1", "a1", result(4))])])])
    rep = run(tmp_path, {"etapa-1": st}, FOUR_FOUR)
    assert order(standings(rep, group=0)) == ["a1", "a2", "a3", "a4"]
    # final: b1 1st, a1 2nd. Then group seconds a2 (2 wins, 9) over b2 (2 wins, 6); group thirds
    # a3 (2 wins, 9) over b3 (1 win, 5) — a3 is after b2 though it has more points: group position first;
    # fourths b4 (0 wins, 4) over a4 (0 wins, 0)
    assert places(rep) == [(1, "b1", 20), (2, "a1", 16), (3, "a2", 12), (4, "b2", 8), (5, "a3", 6), (6, "b3", 4),
                           (7, "b4", 3), (8, "a4", 2)]


SMALL_GROUP = [
    # bb 7 points 1st; cc over aa by direct match (see test_truco_rules.test_truco_10_1_standings_metrics_small_group)
    match("aa", "bb", [W20, "12-5 5-12 12-5", "12-0 12-11", "5-12 5-12", "5-12 12-5 5-12"]),
    match("bb", "cc", [W20] * 5),
    match("cc", "aa", ["12-5 5-12 12-5"] * 4 + ["5-12 5-12"]),
]


def test_classification_single_group_no_knockout(tmp_path):
    rep = run(tmp_path, {"etapa-1": round_robin_group(["aa", "bb", "cc"], SMALL_GROUP)}, ["aa", "bb", "cc"])
    # the stage is ordered by its one group: bb, cc, aa
    assert places(rep) == [(1, "bb", 20), (2, "cc", 16), (3, "aa", 12)]
    assert order(standings(rep)) == ["bb", "cc", "aa"]


def test_classification_override_used_as_is(tmp_path):
    tail = "classification:\n  order: [aa, bb, cc]\n  reason: Decisão da comissão organizadora (ata nº 3)\n"
    rep = run(tmp_path, {"etapa-1": round_robin_group(["aa", "bb", "cc"], SMALL_GROUP, tail=tail)},
              ["aa", "bb", "cc"])
    # the override's order gets the points: aa 20, bb 16, cc 12
    assert places(rep) == [(1, "aa", 20), (2, "bb", 16), (3, "cc", 12)]
    res = stage_result(rep)
    assert [p.how for p in res.classification] == ["override"] * 3
    # the computed order is still there to show beside it: bb, cc, aa
    assert res.computed is not None
    assert [(p.position, p.key) for p in res.computed] == [(1, "bb"), (2, "cc"), (3, "aa")]
    assert res.stage.override.reason == "Decisão da comissão organizadora (ata nº 3)"
    # the group standings are the computed ones
    assert order(standings(rep)) == ["bb", "cc", "aa"]
    assert [(c["club"], c["points"]) for c in ranking_data(rep)["clubs"]] == [("aa", 20), ("bb", 16), ("cc", 12)]


def test_classification_disqualified_last_no_points_matches_count(tmp_path):
    # bb (1st on the field) disqualified: placed last with 0 ranking points; cc 1st, aa 2nd
    tail = "disqualified:\n  - team: bb\n    reason: Item 4.12\n"
    rep = run(tmp_path, {"etapa-1": round_robin_group(["aa", "bb", "cc"], SMALL_GROUP, tail=tail)},
              ["aa", "bb", "cc"])
    assert places(rep) == [(1, "cc", 20), (2, "aa", 16), (3, "bb", 0)]
    res = stage_result(rep)
    assert [p.disqualified for p in res.classification] == [False, False, True]
    # its matches still count for its opponents: aa keeps its 3x2 win over bb (4 points, 1 win),
    # cc keeps its 0x5 loss (4 points); in the group table too bb goes last (Truco 4.12, our decision:
    # a disqualified team leaves the competition), cc ahead of aa exactly as in the classification
    rows = by_team(standings(rep))
    assert (rows["aa"]["wins"], rows["aa"]["points"], rows["aa"]["pair_points_balance"]) == (1, 4, 2)
    assert (rows["cc"]["wins"], rows["cc"]["points"], rows["cc"]["pontinhos_balance"]) == (1, 4, -56)
    assert order(standings(rep)) == ["cc", "aa", "bb"]
    # bb is listed in the annual ranking with 0 points and no stages
    clubs = {c["club"]: (c["points"], c["stages"]) for c in ranking_data(rep)["clubs"]}
    assert clubs == {"cc": (20, {"etapa-1": 20}), "aa": (16, {"etapa-1": 16}), "bb": (0, {})}
    # its pairs earn nothing either
    assert all(p["ranking_points"] == 0 for p in stage_data(rep)["pairs"] if p["team"] == "bb")


# exact cycle aa 3x2 bb, bb 3x2 cc, cc 3x2 aa (2x0 boards), everyone 5x0 over dd:
# aa, bb, cc all 2 wins, 10 points, h2h 1 win / 5 points each, ppb 0+15, pontinhos 0+70 → tied 1st
CYCLE_DQ = [match("aa", "bb", result(3)), match("bb", "cc", result(3)), match("cc", "aa", result(3)),
            match("dd", "aa", result(0)), match("dd", "bb", result(0)), match("dd", "cc", result(0))]
DQ_CC = "disqualified:\n  - {team: cc, reason: Item 4.12}\n"


def test_classification_disqualified_alone_is_not_tied(tmp_path):
    rep = run(tmp_path, {"etapa-1": round_robin_group(["aa", "bb", "cc", "dd"], CYCLE_DQ, tail=DQ_CC)},
              ["aa", "bb", "cc", "dd"])
    cls = stage_data(rep)["classification"]
    # cc is alone in 4th place: position 4, tied false, 0 points
    assert (cls[-1]["team"], cls[-1]["position"], cls[-1]["ranking_points"]) == ("cc", 4, 0)
    assert cls[-1]["tied"] is False


def test_classification_disqualified_leaves_tie_then_direct_match(tmp_path):
    # cc (in the 3-way cycle) disqualified and placed last; of the rest, aa and bb are exactly equal in wins
    # (2) and points (10) — cc's matches still count — and aa beat bb 3x2 → 1 aa 20, 2 bb 16, 3 dd 12, 4 cc 0
    rep = run(tmp_path, {"etapa-1": round_robin_group(["aa", "bb", "cc", "dd"], CYCLE_DQ, tail=DQ_CC)},
              ["aa", "bb", "cc", "dd"])
    assert places(rep) == [(1, "aa", 20), (2, "bb", 16), (3, "dd", 12), (4, "cc", 0)]


# ----------------------------------------------------------------------------------- JSON keys (outputs.md)

STAGE_KEYS = ["season", "stage", "status", "classification", "groups", "pairs"]
CLASS_KEYS = ["position", "tied", "team", "club", "ranking_points"]
GROUP_KEYS = ["name", "standings"]
STANDING_KEYS = ["position", "tied", "team", "played", "wins", "losses", "points", "pair_points_balance",
                 "pontinhos_balance", "decided_by"]
PAIR_KEYS = ["position", "tied", "players", "team", "played", "wins", "points", "pair_points_balance",
             "pontinhos_balance", "ranking_points", "decided_by"]
RANKING_KEYS = ["season", "clubs", "pairs"]
CLUB_KEYS = ["position", "tied", "club", "points", "stages"]
RANK_PAIR_KEYS = ["position", "tied", "players", "points", "stages"]
# what was added beside the contract's fields (docs/api.md): names beside the ids (issue 37), the title race
# and qualification (issue 36: can_still_win, clinched, champion, movement, stages_left, points_available,
# qualified), history stages (issue 35: source, pairs_left_out). The contract's keys stay, in order
ADDED = {"stage_name", "team_name", "club_name", "player_names", "stage_names",
         "can_still_win", "clinched", "champion", "movement", "stages_left", "points_available", "qualified",
         "source", "pairs_left_out"}


def contract(record: dict) -> list:
    """The record's keys that outputs.md names, in their order (the names added beside them left out)."""
    return [k for k in record if k not in ADDED]


def test_classification_stage_json_keys(tmp_path):
    rep = run(tmp_path, {"etapa-1": two_groups_then_semis()}, TWO_GROUPS)
    files = api_files(rep.results)
    text = files["api/2026/truco/etapa-1.json"]
    data = json.loads(text)
    assert text == json.dumps(data, ensure_ascii=False, indent=2) + "\n"  # UTF-8, 2-space indent
    assert contract(data) == STAGE_KEYS
    assert (data["season"], data["stage"], data["status"]) == ("2026", "etapa-1", "final")
    assert data["classification"] and all(contract(c) == CLASS_KEYS for c in data["classification"])
    assert [g["name"] for g in data["groups"]] == ["Grupo A", "Grupo B"]
    assert all(contract(g) == GROUP_KEYS for g in data["groups"])
    assert all(contract(r) == STANDING_KEYS for g in data["groups"] for r in g["standings"])
    assert data["pairs"] and all(contract(p) == PAIR_KEYS for p in data["pairs"])
    assert all(p["players"] == sorted(p["players"]) for p in data["pairs"])
    # value types: positions and counts are ints, tied a bool, decided_by a criterion key or null
    row = {k: v for k, v in data["groups"][0]["standings"][0].items() if k in STANDING_KEYS}
    # the names beside the ids: a1's team has no name of its own, so its club's (write_content: "Clube A1")
    assert data["groups"][0]["standings"][0]["team_name"] == "Clube A1"
    assert {k: data["classification"][0][k] for k in ("team", "team_name", "club", "club_name")} == {
        "team": "a1", "team_name": "Clube A1", "club": "a1", "club_name": "Clube A1"}
    assert data["stage_name"] == "1ª Etapa"
    assert row == {"position": 1, "tied": False, "team": "a1", "played": 2, "wins": 2, "losses": 0, "points": 9,
                   "pair_points_balance": 9 + 15, "pontinhos_balance": 4 * 14 - 14 + 5 * 14,
                   "decided_by": "wins"}
    assert data["groups"][0]["standings"][-1]["decided_by"] is None


def test_classification_ranking_json_keys(tmp_path):
    rep = run(tmp_path, {"etapa-1": two_groups_then_semis()}, TWO_GROUPS)
    text = api_files(rep.results)["api/2026/truco/ranking.json"]
    data = json.loads(text)
    assert contract(data) == RANKING_KEYS and data["season"] == "2026"
    assert all(contract(c) == CLUB_KEYS for c in data["clubs"])
    assert all(contract(p) == RANK_PAIR_KEYS for p in data["pairs"])
    assert {k: v for k, v in data["clubs"][0].items() if k in CLUB_KEYS + ["club_name"]} == {
        "position": 1, "tied": False, "club": "a1", "club_name": "Clube A1", "points": 20, "stages": {"etapa-1": 20}}
    assert data["stage_names"] == {"etapa-1": "1ª Etapa"}
    # a pair's players' names, in the order of their ids (write_content names a player "Jogador <id>")
    assert all(p["player_names"] == [f"Jogador {x}" for x in p["players"]] for p in data["pairs"])
    # every club that played a final stage is listed; all six here
    assert sorted(c["club"] for c in data["clubs"]) == sorted(TWO_GROUPS)
    # every pair that played is listed, 0 points where it did not score, stages only where it scored
    assert len(data["pairs"]) == 6 * 5
    zero = [p for p in data["pairs"] if p["points"] == 0]
    assert zero and all(p["stages"] == {} for p in zero)
    assert all(p["players"] == sorted(p["players"]) for p in data["pairs"])


def test_classification_semifinal_losers_draw_recorded(tmp_path):
    # the shared 3rd place above, settled by a recorded draw naming exactly bb and dd: dd 3rd (12), bb 4th (8)
    teams = ["aa", "bb", "cc", "dd"]
    st = stage(teams, [knockout_phase([
        ("Semifinal", {}, [match("aa", "bb", result(3)), match("cc", "dd", result(3))]),
        ("Final", {"for_place": 1}, [match("aa", "cc", result(3))])])],
        tail="draws:\n  - {teams: [bb, dd], order: [dd, bb], note: Sorteio na mesa}\n")
    rep = run(tmp_path, {"etapa-1": st}, teams)
    assert places(rep) == [(1, "aa", 20), (2, "cc", 16), (3, "dd", 12), (4, "bb", 8)]
    assert [p.decided_by for p in stage_result(rep).classification][2] == "draw"
    assert not [d for d in rep.diagnostics if d.code in ("unused-draw",)]
