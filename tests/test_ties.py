"""The Truco tiebreak chain (items 10.1, 10.2, 10.2.1; rules.md "Standings"): head-to-head per FIDE C.07
6.2 (all met) and 6.3 (not all met), the restart rule, recorded draws, ties left shared, unknown pontinhos.

Pure 6.2/6.3 cases use league.standings.core directly; the integrated ones go through a stage file.
"""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from league.engine.build import check
from league.standings.core import Encounter, HeadToHead, Metric, RankContext, RecordedDraw, Row, rank
from league.games.truco.standings import criteria
from tests.truco_fixtures import (
    W20, by_team, content, groups_phase, knockout_phase, line_of, match, places, result,
    round_robin_group, run, stage, stage_data, standings, warnings,
)

TEAM_ORDER = ["wins", "points", "head_to_head", "pair_points_balance", "pontinhos_balance", "draw"]


@dataclass(frozen=True)
class Draw:
    members: frozenset
    order: tuple


def rows(**values) -> dict:
    """rows(aa=dict(wins=…, …), …) with missing metrics 0."""
    base = {"wins": 0, "points": 0, "pair_points_balance": 0, "pontinhos_balance": 0}
    return {k: Row(k, {**base, **v}) for k, v in values.items()}


def ranked(ctx: RankContext, keys=None):
    out = rank(keys or sorted(ctx.rows), criteria(TEAM_ORDER), ctx)
    return [(r.position, r.key, r.tied, r.decided_by) for r in out], out


def same(*keys, **metrics) -> dict:
    return rows(**{k: dict(metrics) for k in keys})


# ----------------------------------------------------------------------------------- two teams

def test_ties_two_teams_decided_by_head_to_head(tmp_path):
    # aa 3x2 bb (aa's boards 2x1, bb's 2x0: ppb aa -3), aa 3x2 cc, dd 3x2 aa → aa 2 wins, 3+3+2 = 8
    # bb 3x2 cc, bb 3x2 dd → bb 2 wins, 2+3+3 = 8; cc 4x1 dd → cc 1 win, 2+2+4 = 8; dd 1 win, 3+2+1 = 6
    # ppb (2x0 boards ±3 unless said): aa -3+3-3 = -3, bb +3+3+3 = +9, cc -3-3+9 = +3, dd +3-3-9 = -9
    # aa and bb equal on wins and points; aa won the direct match, though bb's ppb is better (-3 vs +9)
    teams = ["aa", "bb", "cc", "dd"]
    ms = [match("aa", "bb", ["12-5 5-12 12-5"] * 3 + ["5-12 5-12"] * 2),
          match("aa", "cc", result(3)), match("dd", "aa", result(3)),
          match("bb", "cc", result(3)), match("bb", "dd", result(3)), match("cc", "dd", result(4))]
    rep = run(tmp_path, {"etapa-1": round_robin_group(teams, ms)}, teams)
    st = standings(rep)
    assert [(r["position"], r["team"], r["wins"], r["points"], r["pair_points_balance"], r["decided_by"])
            for r in st] == [
        (1, "aa", 2, 8, -3, "head_to_head"), (2, "bb", 2, 8, 9, "wins"), (3, "cc", 1, 8, 3, "points"),
        (4, "dd", 1, 6, -9, None)]


def test_ties_two_teams_core_head_to_head_beats_balances():
    ctx = RankContext(rows=rows(aa=dict(wins=2, points=8, pair_points_balance=-3),
                                bb=dict(wins=2, points=8, pair_points_balance=9)),
                      encounters=[Encounter("aa", "bb", 3, 2)])
    got, out = ranked(ctx)
    assert got == [(1, "aa", False, "head_to_head"), (2, "bb", False, None)]
    assert out[0].boundary.group_size == 2


# ----------------------------------------------------------------------------------- three-way cycle

CYCLE = [
    # A beat B 4x1, B beat C 3x2, C beat A 3x2; each beats D (A 3x2, B 5x0, C 4x1)
    # → A 4+2+3 = 9, B 1+3+5 = 9, C 2+3+4 = 9 points, 2 wins each; D 0 wins, 2+0+1 = 3
    match("aa", "bb", result(4)), match("bb", "cc", result(3)), match("cc", "aa", result(3)),
    match("aa", "dd", result(3)), match("bb", "dd", result(5)), match("cc", "dd", result(4)),
]


def test_ties_three_way_cycle_h2h_points(tmp_path):
    # h2h: all met, 1 win each; h2h points A 4+2 = 6, C 2+3 = 5, B 1+3 = 4 → A, C, B (FIDE C.07 6.2)
    teams = ["aa", "bb", "cc", "dd"]
    rep = run(tmp_path, {"etapa-1": round_robin_group(teams, CYCLE)}, teams)
    st = standings(rep)
    assert [(r["position"], r["team"], r["wins"], r["points"], r["decided_by"]) for r in st] == [
        (1, "aa", 2, 9, "head_to_head"), (2, "cc", 2, 9, "head_to_head"), (3, "bb", 2, 9, "wins"),
        (4, "dd", 0, 3, None)]


def test_ties_three_way_cycle_core():
    ctx = RankContext(rows=same("A", "B", "C", wins=2, points=9),
                      encounters=[Encounter("A", "B", 4, 1), Encounter("B", "C", 3, 2), Encounter("C", "A", 3, 2)])
    got, out = ranked(ctx)
    assert got == [(1, "A", False, "head_to_head"), (2, "C", False, "head_to_head"), (3, "B", False, None)]
    # the boundary carries the compared h2h values: (wins, points) 1/6 over 1/5, then 1/5 over 1/4
    assert out[0].boundary.above[0] == (1, 6) and out[0].boundary.below[0] == (1, 5)
    assert out[1].boundary.below[0] == (1, 4)


def test_ties_perfect_cycle_not_split_by_h2h_core():
    # 3x2 each way round: h2h 1 win and 5 points each → head-to-head cannot split; next criterion (ppb) does
    ctx = RankContext(rows=rows(A=dict(wins=1, points=5, pair_points_balance=1),
                                B=dict(wins=1, points=5, pair_points_balance=3),
                                C=dict(wins=1, points=5, pair_points_balance=2)),
                      encounters=[Encounter("A", "B", 3, 2), Encounter("B", "C", 3, 2), Encounter("C", "A", 3, 2)])
    got, _ = ranked(ctx)
    assert got == [(1, "B", False, "pair_points_balance"), (2, "C", False, "pair_points_balance"),
                   (3, "A", False, None)]


# ----------------------------------------------------------------------------------- restart rule (10.2.1)

RESTART = [
    # aa 3x2 bb, every board 2x1: aa's 3 boards "12-10 10-12 12-10" (+1 ppb, +2 each), bb's 2 boards (-1, -2 each)
    #   → aa ppb +3-2 = +1, pontinhos +6-4 = +2
    match("aa", "bb", ["12-10 10-12 12-10"] * 3 + ["10-12 12-10 10-12"] * 2),
    # bb 3x2 cc: bb board 1 2x0 "12-10 12-10" (+3, +4), boards 2–3 2x1 (+1, +2 each), cc's boards 4–5 2x1
    #   → bb ppb +3+2-2 = +3, pontinhos +4+4-4 = +4
    match("bb", "cc", ["12-10 12-10"] + ["12-10 10-12 12-10"] * 2 + ["10-12 12-10 10-12"] * 2),
    # cc 3x2 aa: cc boards 1–2 2x0 "12-0 12-0" (+3, +24 each), board 3 2x1 "12-0 0-12 12-0" (+1, +12),
    #   aa boards 4–5 2x1 (-1, -2 each for cc) → cc ppb +6+1-2 = +5, pontinhos +48+12-4 = +56
    match("cc", "aa", ["12-0 12-0"] * 2 + ["12-0 0-12 12-0"] + ["10-12 12-10 10-12"] * 2),
]


def test_ties_restart_rule_10_2_1(tmp_path):
    # wins 1 and points 5 each; h2h: 1 win and 5 points each → no split
    # ppb: aa +1-5 = -4, bb -1+3 = +2, cc -3+5 = +2 → aa separated (3rd); bb and cc "exactly equal in wins and
    # points" again → restart from wins: head-to-head bb beat cc → bb 1st, although cc's pontinhos
    # (-4+56 = +52) beat bb's (-2+4 = +2): the direct match decides, not the next criterion
    teams = ["aa", "bb", "cc"]
    rep = run(tmp_path, {"etapa-1": round_robin_group(teams, RESTART)}, teams)
    st = standings(rep)
    assert [(r["team"], r["wins"], r["points"], r["pair_points_balance"], r["pontinhos_balance"]) for r in st] == [
        ("bb", 1, 5, 2, 2), ("cc", 1, 5, 2, 52), ("aa", 1, 5, -4, -54)]
    assert [(r["position"], r["tied"], r["decided_by"]) for r in st] == [
        (1, False, "head_to_head"), (2, False, "pair_points_balance"), (3, False, None)]


def test_ties_restart_rule_core():
    # same numbers through the engine alone; boundary group sizes show the restart: bb/cc split inside a
    # group of 2, cc/aa inside the group of 3
    ctx = RankContext(rows=rows(aa=dict(wins=1, points=5, pair_points_balance=-4, pontinhos_balance=-54),
                                bb=dict(wins=1, points=5, pair_points_balance=2, pontinhos_balance=2),
                                cc=dict(wins=1, points=5, pair_points_balance=2, pontinhos_balance=52)),
                      encounters=[Encounter("aa", "bb", 3, 2), Encounter("bb", "cc", 3, 2),
                                  Encounter("cc", "aa", 3, 2)])
    got, out = ranked(ctx)
    assert got == [(1, "bb", False, "head_to_head"), (2, "cc", False, "pair_points_balance"), (3, "aa", False, None)]
    assert [r.boundary.group_size for r in out[:2]] == [2, 3]


def test_ties_without_restart_pontinhos_would_decide_core():
    # control: with head_to_head removed from the order, bb/cc fall to pontinhos → cc first
    ctx = RankContext(rows=rows(aa=dict(wins=1, points=5, pair_points_balance=-4, pontinhos_balance=-54),
                                bb=dict(wins=1, points=5, pair_points_balance=2, pontinhos_balance=2),
                                cc=dict(wins=1, points=5, pair_points_balance=2, pontinhos_balance=52)),
                      encounters=[Encounter("aa", "bb", 3, 2), Encounter("bb", "cc", 3, 2),
                                  Encounter("cc", "aa", 3, 2)])
    out = rank(sorted(ctx.rows), criteria(["wins", "points", "pair_points_balance", "pontinhos_balance"]), ctx)
    assert [r.key for r in out] == ["cc", "bb", "aa"]


# ----------------------------------------------------------------------------------- four-way tie

# mini-league W, X, Y, Z: W 3x2 X, W 3x2 Y, Z 3x2 W, X 3x2 Y, X 3x2 Z, Y 4x1 Z
#   h2h wins/points: W 2/8, X 2/8, Y 1/8, Z 1/6
FOUR_H2H = [Encounter("W", "X", 3, 2), Encounter("W", "Y", 3, 2), Encounter("Z", "W", 3, 2),
            Encounter("X", "Y", 3, 2), Encounter("X", "Z", 3, 2), Encounter("Y", "Z", 4, 1)]


def test_ties_four_way_core():
    # h2h splits {W, X} (2/8), Y (1/8), Z (1/6); {W, X} restarts and W beat X directly
    ctx = RankContext(rows=same("W", "X", "Y", "Z", wins=3, points=14), encounters=FOUR_H2H)
    got, out = ranked(ctx)
    assert got == [(1, "W", False, "head_to_head"), (2, "X", False, "head_to_head"),
                   (3, "Y", False, "head_to_head"), (4, "Z", False, None)]
    assert [r.boundary.group_size for r in out[:3]] == [2, 4, 4]


def test_ties_four_way_group(tmp_path):
    # six teams ww, xx, yy, zz, ee, ff, full round robin. The mini-league above, plus:
    #   ww 5x0 ee, ff 4x1 ww → ww 3 wins, 8+5+1 = 14;  xx 5x0 ee, ff 4x1 xx → xx 3 wins, 14
    #   yy 3x2 ee, yy 3x2 ff → yy 3 wins, 8+3+3 = 14;   zz 4x1 ee, zz 4x1 ff → zz 3 wins, 6+4+4 = 14
    #   ee 3x2 ff → ee 1 win, 0+0+2+1+3 = 6;          ff 2 wins, 4+4+2+1+2 = 13
    # four teams on 3 wins and 14 points → h2h as in the core test: ww, xx, yy, zz; then ff (2 wins), ee
    teams = ["ww", "xx", "yy", "zz", "ee", "ff"]
    ms = [match("ww", "xx", result(3)), match("ww", "yy", result(3)), match("zz", "ww", result(3)),
          match("xx", "yy", result(3)), match("xx", "zz", result(3)), match("yy", "zz", result(4)),
          match("ww", "ee", result(5)), match("ff", "ww", result(4)), match("xx", "ee", result(5)),
          match("ff", "xx", result(4)), match("yy", "ee", result(3)), match("yy", "ff", result(3)),
          match("zz", "ee", result(4)), match("zz", "ff", result(4)), match("ee", "ff", result(3))]
    rep = run(tmp_path, {"etapa-1": round_robin_group(teams, ms)}, teams)
    st = standings(rep)
    assert [(r["position"], r["team"], r["wins"], r["points"], r["decided_by"]) for r in st] == [
        (1, "ww", 3, 14, "head_to_head"), (2, "xx", 3, 14, "head_to_head"), (3, "yy", 3, 14, "head_to_head"),
        (4, "zz", 3, 14, "wins"), (5, "ff", 2, 13, "wins"), (6, "ee", 1, 6, None)]


# ----------------------------------------------------------------------------------- not all met (FIDE C.07 6.3)

def test_ties_6_3_first_placed_rest_stay_tied_core():
    # P beat Q and R; Q and R never met. P: 2 h2h wins > Q 0 + 1 unplayed and R 0 + 1 → P placed 1st by h2h.
    # Q and R cannot be separated by h2h; restart → next criterion ppb: R (+4) over Q (+1)
    ctx = RankContext(rows=rows(P=dict(wins=2, points=8, pair_points_balance=0),
                                Q=dict(wins=2, points=8, pair_points_balance=1),
                                R=dict(wins=2, points=8, pair_points_balance=4)),
                      encounters=[Encounter("P", "Q", 3, 2), Encounter("P", "R", 4, 1)])
    got, _ = ranked(ctx)
    assert got == [(1, "P", False, "head_to_head"), (2, "R", False, "pair_points_balance"), (3, "Q", False, None)]


def test_ties_6_3_nobody_placed_when_an_absent_team_could_catch_up_core():
    # P beat Q and R, Q beat R, S met nobody: P 2 h2h wins, but S has 3 unplayed: 2 > 0 + 3 fails →
    # h2h cannot place anyone; the whole group goes to ppb (S +9, R +5, Q +3, P +1)
    ctx = RankContext(rows=rows(P=dict(wins=3, points=10, pair_points_balance=1),
                                Q=dict(wins=3, points=10, pair_points_balance=3),
                                R=dict(wins=3, points=10, pair_points_balance=5),
                                S=dict(wins=3, points=10, pair_points_balance=9)),
                      encounters=[Encounter("P", "Q", 3, 2), Encounter("P", "R", 3, 2), Encounter("Q", "R", 3, 2)])
    got, _ = ranked(ctx)
    assert got == [(1, "S", False, "pair_points_balance"), (2, "R", False, "pair_points_balance"),
                   (3, "Q", False, "pair_points_balance"), (4, "P", False, None)]
    # the same group without S all met: P, Q, R by h2h wins (6.2), whatever ppb says
    ctx2 = RankContext(rows={k: v for k, v in ctx.rows.items() if k != "S"}, encounters=ctx.encounters)
    got2, _ = ranked(ctx2)
    assert [g[1] for g in got2] == ["P", "Q", "R"]


def test_ties_6_3_two_places_then_pair_left_core():
    # P beat Q, R, S; Q beat R and S; R and S never met.
    # h2h wins P 3, Q 2, R 0, S 0; unplayed R 1, S 1. P: 3 > 2, 1, 1 → 1st; Q: 2 > 0+1, 0+1 → 2nd;
    # R vs S: 0 > 0 + 1 fails → tied for the next criterion: pontinhos (ppb equal) S +30 over R +10
    ctx = RankContext(rows=rows(P=dict(wins=3, points=12), Q=dict(wins=3, points=12),
                                R=dict(wins=3, points=12, pontinhos_balance=10),
                                S=dict(wins=3, points=12, pontinhos_balance=30)),
                      encounters=[Encounter("P", "Q", 3, 2), Encounter("P", "R", 3, 2), Encounter("P", "S", 3, 2),
                                  Encounter("Q", "R", 3, 2), Encounter("Q", "S", 3, 2)])
    got, _ = ranked(ctx)
    assert got == [(1, "P", False, "head_to_head"), (2, "Q", False, "head_to_head"),
                   (3, "S", False, "pontinhos_balance"), (4, "R", False, None)]


def test_ties_6_3_never_met_h2h_skipped_core():
    # two teams that never met: head-to-head is skipped, ppb decides
    ctx = RankContext(rows=rows(A=dict(wins=1, points=5, pair_points_balance=1),
                                B=dict(wins=1, points=5, pair_points_balance=2)),
                      encounters=[Encounter("A", "C", 3, 2), Encounter("B", "C", 3, 2)])
    assert HeadToHead().split(["A", "B"], ctx) is None
    got, _ = ranked(ctx, ["A", "B"])
    assert got == [(1, "B", False, "pair_points_balance"), (2, "A", False, None)]


def test_ties_6_3_partial_group(tmp_path):
    # a group still in progress; yy × zz not played yet:
    #   xx 5x0 yy, xx 5x0 zz → xx 2 wins, 10;  yy 5x0 vv, yy 5x0 ww → yy 2 wins, 10;
    #   zz 5x0 vv (every board 2x1), zz 5x0 ww → zz 2 wins, 10;  vv 3x2 ww → vv 1 win, 3; ww 0 wins, 2
    # h2h among xx, yy, zz: xx beat both; yy, zz never met → xx 2 > 0 + 1 → xx 1st (6.3);
    # yy, zz restart: no meeting → ppb yy -15+15+15 = +15, zz -15+5+15 = +5 → yy 2nd
    # (vv -15-5+3 = -17, ww -15-15-3 = -33)
    teams = ["xx", "yy", "zz", "vv", "ww"]
    ms = [match("xx", "yy", result(5)), match("xx", "zz", result(5)), match("yy", "vv", result(5)),
          match("yy", "ww", result(5)), match("zz", "vv", result(5, two_zero=False)), match("zz", "ww", result(5)),
          match("vv", "ww", result(3))]
    rep = run(tmp_path, {"etapa-1": round_robin_group(teams, ms, status="in_progress")}, teams)
    st = standings(rep)
    assert [(r["position"], r["team"], r["wins"], r["points"], r["pair_points_balance"], r["decided_by"])
            for r in st] == [
        (1, "xx", 2, 10, 30, "head_to_head"), (2, "yy", 2, 10, 15, "pair_points_balance"),
        (3, "zz", 2, 10, 5, "wins"), (4, "vv", 1, 3, -17, "wins"), (5, "ww", 0, 2, -33, None)]


def test_ties_stage_level_teams_of_different_groups_never_met(tmp_path):
    # two groups of two; the winners play the final (for_place 1), no third-place match.
    # The group runners-up bb (Grupo A) and dd (Grupo B) never met: both lost 2x3 in their group,
    # bb's two boards 2x0 and loser's boards 2x0 (ppb -3) vs dd's winning boards 2x1 (ppb 2*1 - 3*3 = -7)
    # → stage classification: 3rd bb by ppb (h2h finds no meeting and is skipped), 4th dd
    teams = ["aa", "bb", "cc", "dd"]
    st = stage(teams, [
        groups_phase({"Grupo A": (["aa", "bb"], [match("aa", "bb", result(3))]),
                      "Grupo B": (["cc", "dd"], [match("cc", "dd", [W20] * 3 + ["5-12 12-5 5-12"] * 2)])}),
        knockout_phase([("Final", {"for_place": 1}, [match("aa", "cc", result(3))])])])
    rep = run(tmp_path, {"etapa-1": st}, teams)
    assert places(rep) == [(1, "aa", 20), (2, "cc", 16), (3, "bb", 12), (4, "dd", 8)]
    assert not warnings(rep, "draw-needed", pairs=False)


def test_ties_stage_level_some_met_in_placement_bracket(tmp_path):
    # eight-team knockout; the quarter-final losers play a places [5, 8] round and no 5th/7th-place match,
    # so they are ordered by the criteria over all their stage matches. Quarter-finals all 3x2 with 2x0
    # boards (loser: 2 points, ppb -3, pontinhos -14), except t3 × t6: t3's boards "12-0 12-0" (+24 each),
    # t6's "7-12 8-12" (+9 each for t6) → t6 pontinhos 2*9 - 3*24 = -54.
    # Places round: t5 4x1 t8 with boards "12-0 12-0" (t5 ppb +9, pontinhos 4*24 - 14 = +82);
    #               t7 4x1 t6 with "12-5 12-5" (t7 ppb +9, pontinhos 4*14 - 14 = +42).
    # t5, t7: 1 win, 2+4 = 6 points, never met (h2h skipped), ppb -3+9 = 6 each; pontinhos t5 -14+82 = 68,
    #   t7 -14+42 = 28 → t5 5th, t7 6th.
    # t6, t8: 0 wins, 2+1 = 3 points, never met, ppb -3-9 = -12 each, pontinhos t6 -54-42 = -96,
    #   t8 -14-82 = -96 → shared 7th, (3+2)/2 = 2.5 ranking points each, and a draw is needed
    names = [f"t{i}" for i in range(1, 9)]
    st = stage(names, [knockout_phase([
        ("Quartas", {}, [match("t1", "t8", result(3)), match("t4", "t5", result(3)),
                         match("t2", "t7", result(3)),
                         match("t3", "t6", ["12-0 12-0"] * 3 + ["7-12 8-12"] * 2)]),
        ("Semifinal", {}, [match("t1", "t4", result(3)), match("t2", "t3", result(3))]),
        ("Classificação 5º–8º", {"places": "[5, 8]"},
         [match("t5", "t8", ["12-0 12-0"] * 4 + ["5-12 5-12"]), match("t7", "t6", result(4))]),
        ("Terceiro lugar", {"for_place": 3}, [match("t4", "t3", result(3))]),
        ("Final", {"for_place": 1}, [match("t1", "t2", result(3))])])])
    rep = run(tmp_path, {"etapa-1": st}, names)
    assert places(rep) == [(1, "t1", 20), (2, "t2", 16), (3, "t4", 12), (4, "t3", 8), (5, "t5", 6),
                           (6, "t7", 4), (7, "t6", 2.5), (7, "t8", 2.5)]
    w = warnings(rep, "draw-needed")
    assert any("do 7º ao 8º lugar entre t6, t8" in d.message for d in w)


# ----------------------------------------------------------------------------------- unresolved, draws

# six teams: aa 2 wins; bb 1 win 7 points; cc, dd, ee in an exact cycle of 3x2 with 2x0 boards (1 win,
# 5 points, h2h 1 win / 5 points each, ppb +3-3 = 0, pontinhos +14-14 = 0); ff 0 wins
SIX = ["aa", "bb", "cc", "dd", "ee", "ff"]
SIX_MATCHES = [
    match("aa", "bb", result(3)), match("aa", "ff", result(3)), match("bb", "ff", result(5)),
    match("cc", "dd", result(3)), match("dd", "ee", result(3)), match("ee", "cc", result(3)),
]


def test_ties_unresolved_shared_positions_and_draw_needed(tmp_path):
    text = round_robin_group(SIX, SIX_MATCHES)
    rep = run(tmp_path, {"etapa-1": text}, SIX)
    st = standings(rep)
    assert [(r["position"], r["tied"], r["team"], r["decided_by"]) for r in st] == [
        (1, False, "aa", "wins"), (2, False, "bb", "points"), (3, True, "cc", None), (3, True, "dd", None),
        (3, True, "ee", "wins"), (6, False, "ff", None)]
    assert [(p["position"], p["tied"]) for p in stage_data(rep)["classification"]] == [
        (1, False), (2, False), (3, True), (3, True), (3, True), (6, False)]
    w = warnings(rep, "draw-needed")
    group_w = [d for d in w if "Grupo A" in d.message]
    assert len(group_w) == 1
    assert group_w[0].message == "Fase de grupos — Grupo A: empate não resolvido no 3º lugar entre cc, dd, ee"
    assert group_w[0].hint == "registre o sorteio: draws: [{teams: [cc, dd, ee], order: [...]}]"
    assert group_w[0].mark.path == "content/seasons/2026/truco/etapa-1.yaml"
    assert group_w[0].mark.line == line_of(text, "Grupo A:")
    stage_w = [d for d in w if d.message.startswith("classificação da etapa")]
    assert [d.message for d in stage_w] == [
        "classificação da etapa: empate não resolvido do 3º ao 5º lugar entre cc, dd, ee; "
        "os pontos de ranking são divididos"]


def test_ties_unresolved_is_error_under_strict(tmp_path):
    import pytest
    from league.content.diagnostics import LeagueError
    root = content(tmp_path, {"etapa-1": round_robin_group(SIX, SIX_MATCHES)}, SIX)
    with pytest.raises(LeagueError) as info:
        check(root, strict=True)
    assert any(d.code == "draw-needed" and d.level == "error" for d in info.value.diagnostics)


def test_ties_shared_positions_core():
    # 1, 2, 3, 3, 3, 6 numbering from the engine alone
    ctx = RankContext(rows=rows(a=dict(wins=5), b=dict(wins=4), c=dict(wins=3), d=dict(wins=3), e=dict(wins=3),
                                f=dict(wins=1)))
    got, _ = ranked(ctx)
    assert [(g[0], g[2]) for g in got] == [(1, False), (2, False), (3, True), (3, True), (3, True), (6, False)]
    assert ("draw-needed", "draw", ("c", "d", "e")) in ctx.notes


def test_ties_recorded_draw_resolves(tmp_path):
    tail = "draws:\n  - teams: [cc, dd, ee]\n    order: [ee, cc, dd]\n    note: Sorteio na mesa, 14/03\n"
    rep = run(tmp_path, {"etapa-1": round_robin_group(SIX, SIX_MATCHES, tail=tail)}, SIX)
    st = standings(rep)
    # the draw orders the tied group: ee 3rd, cc 4th, dd 5th, each decided by "draw"
    assert [(r["position"], r["tied"], r["team"], r["decided_by"]) for r in st] == [
        (1, False, "aa", "wins"), (2, False, "bb", "points"), (3, False, "ee", "draw"), (4, False, "cc", "draw"),
        (5, False, "dd", "wins"), (6, False, "ff", None)]
    assert places(rep) == [(1, "aa", 20), (2, "bb", 16), (3, "ee", 12), (4, "cc", 8), (5, "dd", 6), (6, "ff", 4)]
    assert not warnings(rep, "draw-needed", pairs=False) and not warnings(rep, "unused-draw")


def test_ties_draw_for_other_teams_is_not_used(tmp_path):
    # a draw must name exactly the tied group: one naming only cc and dd leaves the 3-way tie and warns
    tail = "draws:\n  - teams: [cc, dd]\n    order: [dd, cc]\n"
    rep = run(tmp_path, {"etapa-1": round_robin_group(SIX, SIX_MATCHES, tail=tail)}, SIX)
    assert [r["tied"] for r in standings(rep)][2:5] == [True, True, True]
    assert warnings(rep, "unused-draw") and warnings(rep, "draw-needed")


def test_ties_recorded_draw_core():
    ctx = RankContext(rows=same("x", "y", "z", wins=1), draws=[Draw(frozenset({"x", "y", "z"}), ("z", "x", "y"))])
    got, _ = ranked(ctx)
    assert got == [(1, "z", False, "draw"), (2, "x", False, "draw"), (3, "y", False, None)]
    assert RecordedDraw().split(["x", "y"], ctx) is None  # names a different group


# ----------------------------------------------------------------------------------- unknown pontinhos

def test_ties_unknown_pontinhos_reported_not_guessed(tmp_path):
    # as SIX, but cc × dd's first board written as the result only ("2-0": same 3/0 pair points), and ee's
    # wins over cc "12-0 12-0" (+24 instead of +14). ppb still 0 each; the pontinhos of cc and dd are
    # unknown, so the tie cannot be broken on them: cc, dd, ee stay shared 3rd and the check says why
    ms = list(SIX_MATCHES)
    ms[3] = match("cc", "dd", ["2-0"] + [W20] * 2 + ["5-12 5-12"] * 2)
    ms[5] = match("ee", "cc", ["12-0 12-0"] * 3 + ["5-12 5-12"] * 2)
    rep = run(tmp_path, {"etapa-1": round_robin_group(SIX, ms)}, SIX)
    rows_ = by_team(standings(rep))
    assert rows_["cc"]["pontinhos_balance"] is None and rows_["dd"]["pontinhos_balance"] is None
    # ee: lost 2x3 to dd (3*-14 + 2*14 = -14), beat cc (3*24 - 2*14 = +44) → +30, known
    assert rows_["ee"]["pontinhos_balance"] == 30
    assert [(rows_[t]["position"], rows_[t]["tied"]) for t in ("cc", "dd", "ee")] == [(3, True)] * 3
    unk = warnings(rep, "unknown-pontinhos")
    assert unk, "a tie needing unknown pontinhos must be reported"
    assert any("pontinhos_balance" in d.message and "cc, dd, ee" in d.message for d in unk)


def test_ties_unknown_pontinhos_metric_core():
    ctx = RankContext(rows=rows(a=dict(pontinhos_balance=None), b=dict(pontinhos_balance=7)))
    assert Metric("pontinhos_balance").split(["a", "b"], ctx) is None
    assert ("unknown", "pontinhos_balance", ("a", "b")) in ctx.notes


def test_ties_pair_draw_resolves_pair_tie(tmp_path):
    # aa 3x2 bb: aa's pairs 1–3 win 2x0 (3 points, 1 win, ppb +3, pontinhos +14 each, never met each other)
    # and share 1st–3rd: (20+16+12)/3 = 16 each; bb's pairs 4–5 win 2x1 (2 points) behind them.
    # A recorded draw of pairs orders the three: 3, 1, 2 → 20, 16, 12
    def pairs_of(order_):
        return [p for p in stage_data(rep)["pairs"]][: len(order_)]

    text = round_robin_group(["aa", "bb"], [match("aa", "bb", [W20] * 3 + ["5-12 12-5 5-12"] * 2)])
    rep = run(tmp_path, {"etapa-1": text}, ["aa", "bb"])
    assert [(p["position"], p["tied"], p["ranking_points"]) for p in pairs_of([1, 2, 3])] == [(1, True, 16)] * 3
    tail = ("draws:\n  - pairs: [[aa-1a, aa-1b], [aa-2a, aa-2b], [aa-3a, aa-3b]]\n"
            "    order: [[aa-3a, aa-3b], [aa-1a, aa-1b], [aa-2a, aa-2b]]\n")
    rep = run(tmp_path / "draw", {"etapa-1": text + tail}, ["aa", "bb"])
    got = [(p["position"], p["tied"], p["players"], p["ranking_points"], p["decided_by"]) for p in pairs_of([1, 2, 3])]
    assert got == [
        (1, False, ["aa-3a", "aa-3b"], 20, "draw"), (2, False, ["aa-1a", "aa-1b"], 16, "draw"),
        (3, False, ["aa-2a", "aa-2b"], 12, "points")]  # above bb's pair 4 (2 points) by points


# ----------------------------------------------------------------------------------- the restart rule, literally

def _literal_order(group, crits, ctx, tie_order=str):
    """Truco 10.2.1 word for word: every tied subgroup is ranked again from the first criterion, every
    criterion asked again. core._order skips the plain metrics that cannot split a subgroup; this is what
    it must agree with."""
    from league.standings.core import Boundary
    if len(group) <= 1:
        return [group], []
    for crit in crits:
        parts = crit.split(group, ctx)
        if parts and len(parts) > 1:
            blocks, bounds = [], []
            for i, (members, value) in enumerate(parts):
                if i > 0:
                    bounds.append(Boundary(crit.key, parts[i - 1][1], value, len(group)))
                b, bd = _literal_order(members, crits, ctx, tie_order)
                blocks += b
                bounds += bd
            return blocks, bounds
    return [sorted(group, key=tie_order)], []


@pytest.mark.parametrize("unknown", [False, True])
def test_ties_skipping_settled_metrics_changes_nothing(unknown):
    # Random groups with few distinct values (ties everywhere), random meetings and recorded draws, under
    # the team and the pair chains, with no unknown value or with one in four unknown (None, as unknown
    # pontinhos): core.rank gives the same blocks, boundaries, notes and used draws as the literal restart
    # rule above.
    from hypothesis import given, settings, strategies as s
    from league.standings.core import _order

    keys = [f"t{i}" for i in range(9)]
    value = s.one_of(s.integers(0, 2), s.integers(0, 2), s.integers(0, 2), s.none()) if unknown else s.integers(0, 2)
    row = s.fixed_dictionaries({"wins": value, "points": value, "pair_points_balance": value,
                                "pontinhos_balance": value})
    meeting = s.tuples(s.sampled_from(keys), s.sampled_from(keys), s.integers(0, 5), s.integers(0, 5))

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(s.lists(row, min_size=2, max_size=9), s.lists(meeting, max_size=14),
           s.lists(s.permutations(keys[:4]), max_size=2), s.booleans())
    def check(values, meetings, draws, pairs_chain):
        ks = keys[:len(values)]
        order = (["points", "wins", "head_to_head", "pair_points_balance", "pontinhos_balance", "draw"]
                 if pairs_chain else TEAM_ORDER)
        encounters = [Encounter(a, b, pa, pb) for a, b, pa, pb in meetings if a != b and a in ks and b in ks]
        recorded = [Draw(frozenset(d), tuple(d)) for d in draws]
        results = []
        for how in (_order, _literal_order):
            ctx = RankContext(rows={k: Row(k, dict(v)) for k, v in zip(ks, values)}, encounters=encounters,
                              draws=recorded)
            results.append((how(list(ks), criteria(order), ctx, str), ctx.notes, ctx.used_draws))
        assert results[0] == results[1]

    check()
