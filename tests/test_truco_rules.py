"""Truco interclub rules, one test per regulation item (truco-interclubes.txt, spec/rules.md).

Every expected value is worked by hand in the comment beside it.
"""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.content.diagnostics import SourceMark
from league.models import Board, TrucoConfig
from league.games.truco.ranking import shared_points
from league.games.truco.rules import game_error, pair_points, parse_board_score, pontinhos, team_points
from tests.truco_fixtures import (
    L20, L21, LEAGUE, W20, W21, by_team, groups_phase, header, match, pair, places, ranking_data, result,
    round_robin_group, run, stage, stage_data, stage_result, standings, team_block,
)

CFG = TrucoConfig()
TABLE_15 = [25, 21, 17, 15, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]


def board_of(text: str) -> Board:
    score, err, _ = parse_board_score(text, CFG)
    assert err is None, err
    return Board(1, ("h-a", "h-b"), ("a-a", "a-b"), score.games, score.home_games, score.away_games, None,
                 SourceMark("x", 1, 1))


def override_stage(order: list[str], status: str = "final", name: str = "Etapa", date: str = "2026-03-14") -> str:
    """A stage whose places are fixed by a `classification:` override (no matches): for ranking-table tests."""
    return (header(name, date, status) + team_block(order)
            + "classification:\n  order: [" + ", ".join(order) + "]\n  reason: Ata da comissão\n")


# ----------------------------------------------------------------------------------- 10.3 pair points

def test_truco_10_3_pair_points_2x0():
    # 2x0: winner 3, loser 0 — whichever side wins
    assert pair_points(board_of("12-5 12-7")) == (3, 0)
    assert pair_points(board_of("3-12 11-12")) == (0, 3)


def test_truco_10_3_pair_points_2x1():
    # 2x1: winner 2, loser 1
    assert pair_points(board_of("12-7 9-12 12-10")) == (2, 1)
    assert pair_points(board_of("12-7 9-12 10-12")) == (1, 2)


def test_truco_10_3_pair_points_result_only_board():
    # "2-1" (pontinhos not written): still 2 and 1; "0-2": 0 and 3; pontinhos unknown
    assert pair_points(board_of("2-1")) == (2, 1)
    assert pair_points(board_of("0-2")) == (0, 3)
    assert pontinhos(board_of("2-1")) is None


def test_truco_10_1_10_3_match_balances_of_the_home_team():
    # match_balances: the home team's pair points and pontinhos minus the away team's, over the boards
    # (Truco 10.3, 10.1), which every standings table of the match's scopes adds up
    from league.games.truco.standings import match_balances
    from league.models import Match

    def match(*lines):
        return Match("m", "aa", "bb", tuple(board_of(x) for x in lines), None, 0, None, None, SourceMark("x", 1, 1))
    # 12-0 12-0: 3-0 pair points, 24-0 pontinhos; 10-12 12-8 10-12: 1-2, 32-32; 11-12 11-12: 0-3, 22-24
    # pair points 3 - 0 + 1 - 2 + 0 - 3 = -1; pontinhos 24 + 0 - 2 = +22
    assert match_balances(match("12-0 12-0", "10-12 12-8 10-12", "11-12 11-12")) == (-1, 22)
    # a board written as its result only ("2-1": 2-1 pair points, pontinhos unknown): the pontinhos unknown
    assert match_balances(match("12-0 12-0", "2-1")) == (3 - 0 + 2 - 1, None)


# One match aa 3x2 bb, every board different, to read the pair points back from the stage JSON.
PAIR_BOARDS = [
    "12-0 12-0",          # aa-1 2x0: 3/0, ppb +3, pontinhos 24-0 = +24
    "12-5 12-5",          # aa-2 2x0: 3/0, +3, 24-10 = +14
    "12-10 10-12 12-10",  # aa-3 2x1: 2/1, +1, 34-32 = +2
    "10-12 12-8 10-12",   # bb-4 2x1: 2/1 for bb, aa 32 - bb 32 = 0
    "11-12 11-12",        # bb-5 2x0: 3/0 for bb, aa 22 - bb 24 = -2 for aa
]


def pair_stage(status: str = "final") -> str:
    return round_robin_group(["aa", "bb"], [match("aa", "bb", PAIR_BOARDS)], status=status)


def test_truco_10_3_pair_points_in_stage_pairs_json(tmp_path):
    rep = run(tmp_path, {"etapa-1": pair_stage()}, ["aa", "bb"])
    got = {tuple(p["players"]): (p["played"], p["wins"], p["points"], p["pair_points_balance"],
                                 p["pontinhos_balance"]) for p in stage_data(rep)["pairs"]}
    # (played, wins, pair points, pair-point balance, pontinhos balance), worked per board above
    assert got == {
        tuple(pair("aa", 1)): (1, 1, 3, 3, 24), tuple(pair("bb", 1)): (1, 0, 0, -3, -24),
        tuple(pair("aa", 2)): (1, 1, 3, 3, 14), tuple(pair("bb", 2)): (1, 0, 0, -3, -14),
        tuple(pair("aa", 3)): (1, 1, 2, 1, 2), tuple(pair("bb", 3)): (1, 0, 1, -1, -2),
        tuple(pair("aa", 4)): (1, 0, 1, -1, 0), tuple(pair("bb", 4)): (1, 1, 2, 1, 0),
        tuple(pair("aa", 5)): (1, 0, 0, -3, -2), tuple(pair("bb", 5)): (1, 1, 3, 3, 2),
    }


# ----------------------------------------------------------------------------------- 9.1 team points

@pytest.mark.parametrize("home_boards, expected", [(5, (5, 0)), (4, (4, 1)), (3, (3, 2))])
def test_truco_9_1_team_points(tmp_path, home_boards, expected):
    # 9.1: team points = boards won; 5x0 → 5/0, 4x1 → 4/1, 3x2 → 3/2, and the team with more boards wins
    rep = run(tmp_path, {"etapa-1": round_robin_group(["aa", "bb"], [match("aa", "bb", result(home_boards))])},
              ["aa", "bb"])
    m = stage_result(rep).stage.matches[0]
    assert team_points(m) == expected
    rows = by_team(standings(rep))
    assert (rows["aa"]["points"], rows["bb"]["points"]) == expected
    assert (rows["aa"]["wins"], rows["bb"]["wins"]) == (1, 0)
    assert (rows["aa"]["losses"], rows["bb"]["losses"]) == (0, 1)


def test_truco_9_1_team_points_away_win_4x1(tmp_path):
    # home takes 1 board, away 4 → 1/4, the away team wins the match
    rep = run(tmp_path, {"etapa-1": round_robin_group(["aa", "bb"], [match("aa", "bb", result(1))])}, ["aa", "bb"])
    m = stage_result(rep).stage.matches[0]
    assert team_points(m) == (1, 4)
    assert m.winner == "bb"


# ----------------------------------------------------------------------------------- game scores

def test_truco_game_score_12_7_valid():
    score, err, _ = parse_board_score("12-7 9-12 12-10", CFG)
    assert err is None
    assert score.games == ((12, 7), (9, 12), (12, 10))
    assert (score.home_games, score.away_games) == (2, 1)
    assert game_error(12, 7, CFG) is None and game_error(0, 12, CFG) is None and game_error(12, 11, CFG) is None


@pytest.mark.parametrize("h, a", [(12, 12), (13, 5), (11, 10), (12, 13), (5, 13), (0, 0)])
def test_truco_game_score_impossible(h, a):
    # the winner has exactly 12 and the loser 0–11: 12-12, 13-5, 11-10 are impossible
    assert game_error(h, a, CFG) is not None
    _, err, _ = parse_board_score(f"{h}-{a} 12-0 12-0", CFG)
    assert err is not None and f'"{h}-{a}"' in err


@pytest.mark.parametrize("text, games", [("12-3 12-5", (2, 0)), ("3-12 12-5 12-11", (2, 1)),
                                         ("3-12 5-12", (0, 2)), ("12-3 5-12 0-12", (1, 2))])
def test_truco_board_two_or_three_games(text, games):
    score, err, _ = parse_board_score(text, CFG)
    assert err is None
    assert (score.home_games, score.away_games) == games


@pytest.mark.parametrize("text", ["12-3", "12-3 5-12", "12-3 5-12 12-4 12-1", ""])
def test_truco_board_wrong_number_of_games(text):
    # one game, 1x1, four games, nothing: no side has won exactly 2 in 2–3 games
    score, err, _ = parse_board_score(text, CFG)
    assert score is None and err


def test_truco_board_third_game_after_2x0_invalid():
    # 2x0 ends the board; a third game cannot have been played
    score, err, _ = parse_board_score("12-3 12-5 12-4", CFG)
    assert score is None
    assert err == "o jogo tem partidas demais: 3 (uma dupla já tinha vencido 2 antes da 3ª)"


def test_truco_board_result_only_2_1():
    # "2-1": result written, pontinhos not: games unknown, board still 2x1
    score, err, _ = parse_board_score("2-1", CFG)
    assert err is None
    assert score.games is None
    assert (score.home_games, score.away_games) == (2, 1)


# ----------------------------------------------------------------------------------- walkovers

def test_truco_walkover_match_5x0(tmp_path):
    # bb does not show: aa wins 5x0; each board 2x0 (3/0 pair points → ppb +15 over 5 boards);
    # each game 12-0 → 24 per board → pontinhos +120
    rep = run(tmp_path, {"etapa-1": round_robin_group(["aa", "bb"], [match("aa", "bb", walkover="bb")])},
              ["aa", "bb"])
    m = stage_result(rep).stage.matches[0]
    assert team_points(m) == (5, 0)
    assert all(b.games == ((12, 0), (12, 0)) and pair_points(b) == (3, 0) for b in m.boards)
    rows = by_team(standings(rep))
    assert {k: rows["aa"][k] for k in ("played", "wins", "losses", "points", "pair_points_balance",
                                       "pontinhos_balance")} == {
        "played": 1, "wins": 1, "losses": 0, "points": 5, "pair_points_balance": 15, "pontinhos_balance": 120}
    assert {k: rows["bb"][k] for k in ("played", "wins", "losses", "points", "pair_points_balance",
                                       "pontinhos_balance")} == {
        "played": 1, "wins": 0, "losses": 1, "points": 0, "pair_points_balance": -15, "pontinhos_balance": -120}


def test_truco_walkover_match_home_absent(tmp_path):
    # the home team is the one absent: the away team wins 5x0, pontinhos +120 for it
    rep = run(tmp_path, {"etapa-1": round_robin_group(["aa", "bb"], [match("aa", "bb", walkover="aa")])},
              ["aa", "bb"])
    rows = by_team(standings(rep))
    assert (rows["bb"]["points"], rows["bb"]["pontinhos_balance"]) == (5, 120)
    assert (rows["aa"]["points"], rows["aa"]["pontinhos_balance"]) == (0, -120)


def test_truco_walkover_single_board(tmp_path):
    # board 5 {walkover: home}: aa's pair 5 did not play, bb's pair 5 wins 2x0 with 12-0 12-0
    # boards 1–4 aa 2x0 "12-5 12-5": aa 4x1; ppb aa = 4*3 - 3 = +9; pontinhos aa = 4*14 - 24 = +32
    st = round_robin_group(["aa", "bb"], [
        "          - home: aa\n            away: bb\n            boards:\n"
        + "".join(f'              - "{W20}"\n' for _ in range(4))
        + "              - {home: 5, away: 5, walkover: home}\n"])
    rep = run(tmp_path, {"etapa-1": st}, ["aa", "bb"])
    b5 = stage_result(rep).stage.matches[0].boards[4]
    assert b5.walkover == "home"
    assert b5.games == ((0, 12), (0, 12))
    assert pair_points(b5) == (0, 3)
    assert pontinhos(b5) == (0, 24)
    rows = by_team(standings(rep))
    assert (rows["aa"]["points"], rows["aa"]["pair_points_balance"], rows["aa"]["pontinhos_balance"]) == (4, 9, 32)
    assert (rows["bb"]["points"], rows["bb"]["pair_points_balance"], rows["bb"]["pontinhos_balance"]) == (1, -9, -32)
    pairs = {tuple(p["players"]): p for p in stage_data(rep)["pairs"]}
    assert (pairs[tuple(pair("bb", 5))]["points"], pairs[tuple(pair("bb", 5))]["pontinhos_balance"]) == (3, 24)
    assert (pairs[tuple(pair("aa", 5))]["points"], pairs[tuple(pair("aa", 5))]["wins"]) == (0, 0)


# ----------------------------------------------------------------------------------- 10.1 standings metrics

SMALL_GROUP = [
    # aa 3x2 bb: boards +14 (3/0), +7 (2/1), "12-0 12-11" +13 (3/0), -14 (0/3), -7 (1/2)
    #   aa pair points 3+2+3+0+1 = 9, bb 0+1+0+3+2 = 6 → aa ppb +3; pontinhos aa 14+7+13-14-7 = +13
    match("aa", "bb", [W20, W21, "12-0 12-11", L20, L21]),
    # bb 5x0 cc, every board 12-5 12-5 → bb ppb +15, pontinhos +70
    match("bb", "cc", [W20] * 5),
    # cc 4x1 aa: four boards 2x1 (+1 ppb, +7 each), one 0x2 (-3, -14) → cc ppb +1, pontinhos +14
    match("cc", "aa", [W21] * 4 + [L20]),
]


def test_truco_10_1_standings_metrics_small_group(tmp_path):
    rep = run(tmp_path, {"etapa-1": round_robin_group(["aa", "bb", "cc"], SMALL_GROUP)}, ["aa", "bb", "cc"])
    rows = standings(rep)
    got = {r["team"]: (r["played"], r["wins"], r["losses"], r["points"], r["pair_points_balance"],
                       r["pontinhos_balance"]) for r in rows}
    assert got == {
        "aa": (2, 1, 1, 3 + 1, 3 - 1, 13 - 14),      # 4 points, ppb +2, pontinhos -1
        "bb": (2, 1, 1, 2 + 5, -3 + 15, -13 + 70),   # 7 points, ppb +12, pontinhos +57
        "cc": (2, 1, 1, 0 + 4, -15 + 1, -70 + 14),   # 4 points, ppb -14, pontinhos -56
    }
    # all on 1 win; bb first on points (7); aa and cc equal on wins and points → restart: cc beat aa
    # directly (10.2.1), although aa has the better pair-point balance
    assert [(r["position"], r["team"], r["decided_by"]) for r in rows] == [
        (1, "bb", "points"), (2, "cc", "head_to_head"), (3, "aa", None)]
    assert not any(r["tied"] for r in rows)


# ----------------------------------------------------------------------------------- 12.1 ranking points

def test_truco_12_1_ranking_points_default_table(tmp_path):
    teams = [f"c{i}" for i in range(1, 11)]
    rep = run(tmp_path, {"etapa-1": override_stage(teams)}, teams)
    # 20/16/12/8/6/4/3/2, places beyond the table 0
    assert [p[2] for p in places(rep)] == [20, 16, 12, 8, 6, 4, 3, 2, 0, 0]
    assert [p[0] for p in places(rep)] == list(range(1, 11))


def test_truco_12_1_ranking_points_season_override_one_line(tmp_path):
    teams = [f"c{i}" for i in range(1, 17)]
    rep = run(tmp_path, {"etapa-1": override_stage(teams)}, teams,
              season="truco: {ranking_points: [25, 21, 17, 15, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]}\n")
    # the federation's 15-place table, every team scoring; a 16th place earns 0
    assert [p[2] for p in places(rep)] == TABLE_15 + [0]
    assert ranking_data(rep)["clubs"][0]["points"] == 25


def test_truco_12_1_ranking_points_league_yaml_one_line(tmp_path):
    teams = [f"c{i}" for i in range(1, 16)]
    rep = run(tmp_path, {"etapa-1": override_stage(teams)}, teams,
              league=LEAGUE + "truco: {ranking_points: [25, 21, 17, 15, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]}\n")
    assert [p[2] for p in places(rep)] == TABLE_15


def test_truco_12_1_season_override_only_for_that_season(tmp_path):
    # 2025 overrides the table; 2026 keeps the default
    from tests.util import write_content
    teams = ["c1", "c2"]
    root = write_content(tmp_path, {"etapa-1": override_stage(teams)}, clubs=teams, year="2026")
    write_content(tmp_path, {"etapa-1": override_stage(teams, date="2025-03-14")}, clubs=teams, year="2025",
                  season="truco: {ranking_points: [25, 21]}\n")
    from league.engine.build import check
    rep = check(root)
    got = {s.season.year: [int(p.points) for p in s.stages[0].classification] for s in rep.results.seasons}
    assert got == {"2025": [25, 21], "2026": [20, 16]}


def test_truco_12_1_shared_points_mean():
    # places 3–5 shared: (12 + 8 + 6) / 3 = 8.666… → 8.67; places 7–9: (3 + 2 + 0) / 3 = 1.67
    table = [20, 16, 12, 8, 6, 4, 3, 2]
    assert shared_points(table, 3, 3) == Decimal("8.67")
    assert shared_points(table, 1, 2) == Decimal("18")
    assert shared_points(table, 7, 3) == Decimal("1.67")
    assert shared_points(table, 9, 2) == Decimal("0")


# a single group of six: aa 2 wins; bb 1 win 7 points; cc, dd, ee 1 win 5 points each in an exact cycle
# (each 3x2 with 2x0 boards: h2h 1 win and 5 points each, ppb +3-3 = 0, pontinhos +14-14 = 0); ff 0 wins
SIX = ["aa", "bb", "cc", "dd", "ee", "ff"]
SIX_MATCHES = [
    match("aa", "bb", result(3)), match("aa", "ff", result(3)), match("bb", "ff", result(5)),
    match("cc", "dd", result(3)), match("dd", "ee", result(3)), match("ee", "cc", result(3)),
]


def test_truco_12_1_shared_places_averaged(tmp_path):
    rep = run(tmp_path, {"etapa-1": round_robin_group(SIX, SIX_MATCHES)}, SIX)
    # positions 1, 2, 3=, 3=, 3=, 6; cc, dd, ee share places 3–5: (12 + 8 + 6) / 3 = 8.67 each
    assert places(rep) == [(1, "aa", 20), (2, "bb", 16), (3, "cc", 8.67), (3, "dd", 8.67), (3, "ee", 8.67),
                           (6, "ff", 4)]
    clubs = {c["club"]: c["points"] for c in ranking_data(rep)["clubs"]}
    assert clubs["cc"] == clubs["dd"] == clubs["ee"] == 8.67


def test_truco_12_1_only_final_stages_award_points(tmp_path):
    st = round_robin_group(["aa", "bb"], [match("aa", "bb", result(3))], status="in_progress")
    rep = run(tmp_path, {"etapa-1": st}, ["aa", "bb"])
    # in progress: places shown, no ranking points; nobody in the annual ranking
    assert places(rep) == [(1, "aa", 0), (2, "bb", 0)]
    assert all(p["ranking_points"] == 0 for p in stage_data(rep)["pairs"])
    rk = ranking_data(rep)
    assert rk["clubs"] == [] and rk["pairs"] == []


def test_truco_12_1_scheduled_and_in_progress_stages_not_in_annual(tmp_path):
    final = round_robin_group(["aa", "bb"], [match("aa", "bb", result(3))])
    running = round_robin_group(["aa", "bb"], [match("aa", "bb", result(0))], status="in_progress",
                                date="2026-04-14", name="2ª Etapa")
    rep = run(tmp_path, {"etapa-1": final, "etapa-2": running}, ["aa", "bb"])
    # only etapa-1 counts: aa 20, bb 16; etapa-2 (bb first there) gives nothing
    clubs = ranking_data(rep)["clubs"]
    assert [(c["club"], c["points"], c["stages"]) for c in clubs] == [
        ("aa", 20, {"etapa-1": 20}), ("bb", 16, {"etapa-1": 16})]


def test_truco_12_1_club_score_is_best_placed_team(tmp_path):
    # aptru-b (club aptru) beats serapio and aptru; serapio beats aptru → aptru-b 1st, serapio 2nd, aptru 3rd
    teams = ["aptru-b", "serapio", "aptru"]
    st = stage(teams, [groups_phase({"Grupo A": (teams, [
        match("aptru-b", "serapio", result(3)), match("aptru-b", "aptru", result(4)),
        match("serapio", "aptru", result(5))])})], clubs_of={"aptru-b": "aptru"})
    rep = run(tmp_path, {"etapa-1": st}, ["aptru", "serapio"], teams_not_clubs=["aptru-b"])
    data = stage_data(rep)
    assert [(p["position"], p["team"], p["club"], p["ranking_points"]) for p in data["classification"]] == [
        (1, "aptru-b", "aptru", 20), (2, "serapio", "serapio", 16), (3, "aptru", "aptru", 12)]
    # club score = its best-placed team: aptru 20 (not 20 + 12), serapio 16
    assert [(c["club"], c["points"], c["stages"]) for c in ranking_data(rep)["clubs"]] == [
        ("aptru", 20, {"etapa-1": 20}), ("serapio", 16, {"etapa-1": 16})]


# ----------------------------------------------------------------------------------- 12.2 pair ranking

def test_truco_12_2_pair_points_are_the_pairs_own(tmp_path):
    rep = run(tmp_path, {"etapa-1": pair_stage()}, ["aa", "bb"])
    # pair order (points, wins, h2h, ppb, pontinhos), from the boards of PAIR_BOARDS:
    #   3 pts: aa-1 (+24), aa-2 (+14), bb-5 (+2) by pontinhos; 2 pts: aa-3 (+2), bb-4 (0);
    #   1 pt: aa-4 (0), bb-3 (-2); 0 pts: aa-5 (ppb -3, -2), bb-2 (-3, -14), bb-1 (-3, -24)
    got = [(p["position"], p["players"], p["team"], p["ranking_points"]) for p in stage_data(rep)["pairs"]]
    assert got == [
        (1, pair("aa", 1), "aa", 20), (2, pair("aa", 2), "aa", 16), (3, pair("bb", 5), "bb", 12),
        (4, pair("aa", 3), "aa", 8), (5, pair("bb", 4), "bb", 6), (6, pair("aa", 4), "aa", 4),
        (7, pair("bb", 3), "bb", 3), (8, pair("aa", 5), "aa", 2), (9, pair("bb", 2), "bb", 0),
        (10, pair("bb", 1), "bb", 0)]
    # not the team's points: aa won the stage (20) but its pair 5 earns 2; bb's pair 5 earns 12, not 16
    assert places(rep) == [(1, "aa", 20), (2, "bb", 16)]


def test_truco_12_2_pair_keeps_points_after_changing_team(tmp_path):
    # etapa-1: the pair [aa-1a, aa-1b] plays for aa, wins its board 12-0 12-0 → 1st of the pairs, 20
    # etapa-2: the same two players are squad pair 1 of bb; bb's pair 1 loses 0x2 to cc-1 "5-12 5-12"
    #   (0 points; other boards of that match are 2x1: 2 or 1 point) → last pair, 10th, 0
    e1 = pair_stage()
    bb_squad = "{pairs: [[aa-1a, aa-1b], [bb-2a, bb-2b], [bb-3a, bb-3b], [bb-4a, bb-4b], [bb-5a, bb-5b]]}"
    e2 = (header("2ª Etapa", "2026-04-11") + "teams:\n  bb: " + bb_squad + "\n"
          + team_block(["cc"])[len("teams:\n"):] + "phases:\n"
          + groups_phase({"Grupo A": (["bb", "cc"], [match("bb", "cc", [L20, W21, W21, L21, L21])])}))
    rep = run(tmp_path, {"etapa-1": e1, "etapa-2": e2}, ["aa", "bb", "cc"])
    e2_pairs = {tuple(p["players"]): p for p in stage_data(rep, "etapa-2")["pairs"]}
    assert e2_pairs[("aa-1a", "aa-1b")]["team"] == "bb"
    assert (e2_pairs[("aa-1a", "aa-1b")]["points"], e2_pairs[("aa-1a", "aa-1b")]["position"]) == (0, 10)
    annual = {tuple(p["players"]): (p["points"], p["stages"]) for p in ranking_data(rep)["pairs"]}
    # the pair's own 20 from etapa-1 stays with it: 20 + 0 = 20, though it now plays for bb
    assert annual[("aa-1a", "aa-1b")] == (20, {"etapa-1": 20})
    # and bb's other pairs do not inherit it
    assert annual[tuple(pair("bb", 5))][1].get("etapa-1") == 12


# ----------------------------------------------------------------------------------- annual ranking ties

def test_truco_annual_ranking_countback(tmp_path):
    # etapa-1 order x, y, a, b, c, d; etapa-2 order a, c, d, y, b, x
    #   x: 20 + 4 = 24 (one 1st), y: 16 + 8 = 24 (a 2nd, a 4th), a: 12 + 20 = 32, c: 6 + 16 = 22,
    #   d: 4 + 12 = 16, b: 8 + 6 = 14 → a 32; x, y on 24: x has more 1st places → x 2nd, y 3rd
    clubs = ["x", "y", "a", "b", "c", "d"]
    rep = run(tmp_path, {"etapa-1": override_stage(["x", "y", "a", "b", "c", "d"]),
                         "etapa-2": override_stage(["a", "c", "d", "y", "b", "x"], date="2026-04-11")}, clubs)
    rk = ranking_data(rep)["clubs"]
    assert [(c["position"], c["tied"], c["club"], c["points"]) for c in rk] == [
        (1, False, "a", 32), (2, False, "x", 24), (3, False, "y", 24), (4, False, "c", 22),
        (5, False, "d", 16), (6, False, "b", 14)]
    assert rk[1]["stages"] == {"etapa-1": 20, "etapa-2": 4}
    sr = rep.results.seasons[0]
    assert sr.clubs[1].decided_by == "countback"
    # x placed 1st and 6th, y 2nd and 4th: the first place whose counts differ is the 1st (x one, y none)
    from league.standings.explain import explain
    assert explain(sr.clubs[1].boundary) == "mais vezes em 1º lugar (1 contra 0)"


def test_truco_annual_ranking_countback_explains_the_first_place_whose_counts_differ():
    from league.standings.explain import explain
    from league.games.truco.ranking import annual_ranking
    # 20 points each, so the countback decides. p: 1st, 3rd, 3rd; q: 1st, 2nd, 7th; r: 1st, 3rd.
    # 1st places: one each. 2nd places: q one, p and r none → q first. p vs r: no 2nd; 3rd places p two,
    # r one → p second, r third
    pts = Decimal(20)
    z = Decimal(0)
    entries = {"p": {"e1": (1, pts), "e2": (3, z), "e3": (3, z)}, "q": {"e1": (1, pts), "e2": (2, z), "e3": (7, z)},
               "r": {"e1": (1, pts), "e2": (3, z)}}
    got = annual_ranking(entries, ["e1", "e2", "e3"])
    assert [(e.key, e.position, e.tied, e.decided_by) for e in got] == [
        ("q", 1, False, "countback"), ("p", 2, False, "countback"), ("r", 3, False, None)]
    assert explain(got[0].boundary) == "mais vezes em 2º lugar (1 contra 0)"
    assert explain(got[1].boundary) == "mais vezes em 3º lugar (2 contra 1)"


def test_annual_rows_without_points_say_no_countback_on_the_page():
    """Issue 36: the season page wrote "à frente pelo número de 56º lugares (1 contra 0)" on each of 70 rows
    without points. Those rows keep their order and the API its decided_by, but the page says nothing."""
    from league.standings.explain import explain
    from league.games.truco.ranking import annual_ranking
    from league.site.views import _annual_row
    z = Decimal(0)
    # p: 1st in e1 (20). t: 2nd in e1 (16) and 6th in e2 (4) = 20. q: 9th in e1, 10th in e2; r: 11th in
    # e1, 9th in e2 — no points. p and t on 20: 1st places p one, t none → p ahead. q and r on 0: 9th
    # places one each, 10th places q one, r none → q ahead of r, by the countback all the same
    entries = {"p": {"e1": (1, Decimal(20))}, "t": {"e1": (2, Decimal(16)), "e2": (6, Decimal(4))},
               "q": {"e1": (9, z), "e2": (10, z)}, "r": {"e1": (11, z), "e2": (9, z)}}
    got = annual_ranking(entries, ["e1", "e2"])
    assert [(e.key, e.position, e.decided_by) for e in got] == [
        ("p", 1, "countback"), ("t", 2, "points"), ("q", 3, "countback"), ("r", 4, None)]
    assert explain(got[2].boundary) == "mais vezes em 10º lugar (1 contra 0)"
    rows = [_annual_row(e) for e in got]
    assert [(r["pos"], r["why"], r["zero"]) for r in rows] == [
        ("1º", "mais vezes em 1º lugar (1 contra 0)", False), ("2º", None, False), ("3º", None, True),
        ("4º", None, True)]


@given(st.lists(st.lists(st.integers(1, 12), max_size=6), min_size=2, max_size=6))
@settings(max_examples=300, deadline=None)
def test_truco_countback_orders_as_the_counts_of_each_place(places_lists):
    # decision (spec/rules.md, annual ranking ties): more 1st places, then more 2nd places, and so on —
    # the tuples (number of 1st places, number of 2nd places, …) compared, higher first
    from league.standings.core import countback, countback_counts

    def counts(places):
        return tuple(places.count(p) for p in range(1, 13))
    for a in places_lists:
        for b in places_lists:
            assert (countback(a) > countback(b)) == (counts(a) > counts(b))
            assert (countback(a) == countback(b)) == (counts(a) == counts(b))
        assert countback_counts(countback(a)) == {p: a.count(p) for p in set(a)}


def test_truco_annual_ranking_still_shared(tmp_path):
    # x 1st then 2nd, y 2nd then 1st: 36 each, one 1st and one 2nd each → still shared 1st; a 12 + 12 = 24, 3rd
    rep = run(tmp_path, {"etapa-1": override_stage(["x", "y", "a"]),
                         "etapa-2": override_stage(["y", "x", "a"], date="2026-04-11")}, ["x", "y", "a"])
    rk = ranking_data(rep)["clubs"]
    assert [(c["position"], c["tied"], c["club"], c["points"]) for c in rk] == [
        (1, True, "x", 36), (1, True, "y", 36), (3, False, "a", 24)]


def test_board_score_text_as_written_and_remembered():
    # The games as the stage page writes them: "12-5 7-12 12-9" (home first), the same text again for an
    # equal line (remembered), for a list of games (not remembered), and the result alone when only
    # "2-1" was written.
    mark = SourceMark("x.yaml", 1, 1)
    line = ((12, 5), (7, 12), (12, 9))
    a = Board(1, ("a", "b"), ("c", "d"), line, 2, 1, None, mark)
    b = Board(2, ("a", "b"), ("c", "d"), tuple(tuple(g) for g in line), 2, 1, None, mark)
    assert a.score_text == "12-5 7-12 12-9"
    assert b.score_text == "12-5 7-12 12-9"
    assert Board(3, None, None, [(12, 0), (12, 0)], 2, 0, None, mark).score_text == "12-0 12-0"
    assert Board(4, None, None, None, 2, 1, None, mark).score_text == "2-1"
