"""The season's story (issue 36): champion, who can still be champion, points still to play, movement since
the previous final stage — league/games/truco/race.py, Truco 12.1 / 12.2 and the countback decision
(spec/rules.md, annual ranking ties). Every expected value is worked out by hand in the comments.

Points table: the default [20, 16, 12, 8, 6, 4, 3, 2] (Truco 12.1). Stages known by their places only
(a `classification:` override), so each club's place is written out; a stage not yet final has only its teams."""
from __future__ import annotations

from decimal import Decimal

from league.games.truco.race import title_race
from league.games.truco.ranking import annual_ranking
from tests.truco_fixtures import header, ranking_data, run, team_block


def places(order: list[str], date: str, name: str = "Etapa") -> str:
    """A final stage whose places are fixed by a `classification:` override (no matches)."""
    return (header(name, date) + team_block(order)
            + "classification:\n  order: [" + ", ".join(order) + "]\n  reason: Ata da comissão\n")


def scheduled(teams: list[str], date: str) -> str:
    return header("Etapa", date, "scheduled") + team_block(teams)


CLUBS = ["a", "w", "t", "m", "n"]


def one_stage_left(tmp_path):
    # etapa-1 a w t n m: a 20, w 16, t 12, n 8, m 6
    # etapa-2 w a t n m: w 20, a 16, t 12, n 8, m 6
    # etapa-3 a m t n (w absent): a 20, m 16, t 12, n 8
    # totals: a 56 (places 1, 2, 1), w 36 (2, 1), t 36 (3, 3, 3), m 28 (5, 5, 2), n 24 (4, 4, 4)
    # w and t on 36: countback, w has a 1st place and t none → w 2nd, t 3rd
    return run(tmp_path, {
        "etapa-1": places(["a", "w", "t", "n", "m"], "2026-03-14"),
        "etapa-2": places(["w", "a", "t", "n", "m"], "2026-04-11"),
        "etapa-3": places(["a", "m", "t", "n"], "2026-05-16"),
        "etapa-4": scheduled(CLUBS, "2026-06-13"),
    }, CLUBS)


def test_points_still_available_and_stages_left(tmp_path):
    # one stage left (etapa-4, scheduled): at most 20 points (1st place, Truco 12.1)
    rk = ranking_data(one_stage_left(tmp_path))
    assert rk["stages_left"] == 1
    assert rk["points_available"] == 20
    assert [(c["position"], c["club"], c["points"]) for c in rk["clubs"]] == [
        (1, "a", 56), (2, "w", 36), (3, "t", 36), (4, "m", 28), (5, "n", 24)]


def test_who_can_still_be_champion(tmp_path):
    # The leader a has at least 56 points and the places 1st, 1st, 2nd (it may score nothing more).
    # a: it leads → can still win; not clinched, since w can still share first place (below).
    # w: 36 + 20 = 56 with places 1st, 1st, 2nd if it wins etapa-4: the same points and the same places as
    #    a → still shared (countback decides nothing) → w can still be (joint) champion.
    # t: 36 + 20 = 56 with places 1st, 3rd, 3rd, 3rd: one 1st place against a's two → t loses the countback →
    #    cannot be champion although it can reach 56.
    # m: 28 + 20 = 48 < 56 → cannot. n: 24 + 20 = 44 < 56 → cannot.
    rk = ranking_data(one_stage_left(tmp_path))
    assert [(c["club"], c["can_still_win"], c["clinched"], c["champion"]) for c in rk["clubs"]] == [
        ("a", True, False, False), ("w", True, False, False), ("t", False, False, False),
        ("m", False, False, False), ("n", False, False, False)]


def test_movement_since_the_previous_final_stage(tmp_path):
    # After etapa-2: a 36 (1st, 2nd), w 36 (2nd, 1st) → same points and places, shared 1st; t 24 3rd,
    # n 16 4th, m 12 5th. After etapa-3: a 1st, w 2nd, t 3rd, m 4th, n 5th.
    # movement = place before − place now: a 1 − 1 = 0, w 1 − 2 = −1, t 0, m 5 − 4 = +1, n 4 − 5 = −1
    rk = ranking_data(one_stage_left(tmp_path))
    assert [(c["club"], c["movement"]) for c in rk["clubs"]] == [("a", 0), ("w", -1), ("t", 0), ("m", 1),
                                                                  ("n", -1)]


def test_no_movement_after_the_first_final_stage(tmp_path):
    # one final stage: there is no previous ranking to move from → null; two stages left → 40 points
    rep = run(tmp_path, {"etapa-1": places(["a", "w"], "2026-03-14"),
                         "etapa-2": scheduled(["a", "w"], "2026-04-11"),
                         "etapa-3": scheduled(["a", "w"], "2026-05-16")}, ["a", "w"])
    rk = ranking_data(rep)
    assert [(c["club"], c["points"], c["movement"], c["can_still_win"]) for c in rk["clubs"]] == [
        ("a", 20, None, True), ("w", 16, None, True)]
    assert rk["points_available"] == 40
    assert rk["stages_left"] == 2


def test_a_club_new_in_the_ranking_has_no_movement(tmp_path):
    # etapa-1 a w; etapa-2 t a w: t was not in the ranking after etapa-1 → movement null;
    # a: 20 + 16 = 36, 1st before and now → 0; t 20, w 16 + 12 = 28: w 2nd before and now → 0
    rep = run(tmp_path, {"etapa-1": places(["a", "w"], "2026-03-14"),
                         "etapa-2": places(["t", "a", "w"], "2026-04-11")}, ["a", "w", "t"])
    rk = ranking_data(rep)
    assert [(c["club"], c["movement"]) for c in rk["clubs"]] == [("a", 0), ("w", 0), ("t", None)]


def test_title_clinched_with_a_stage_left(tmp_path):
    # etapa-1 a b c d: a 20, b 16, c 12, d 8; etapa-2 a c b d: a 20, c 16, b 12, d 8;
    # etapa-3 a d b c: a 20, d 16, b 12, c 8 → a 60 (1st, 1st, 1st), b 40, c 36, d 32; etapa-4 left (20).
    # b at best 40 + 20 = 60 with places 1st, 2nd, 3rd, 3rd: one 1st place against a's three → a stays
    # ahead; c at best 56 and d 52 < 60; a club not yet scoring at best 20 < 60 → a has clinched the title
    rep = run(tmp_path, {"etapa-1": places(["a", "b", "c", "d"], "2026-03-14"),
                         "etapa-2": places(["a", "c", "b", "d"], "2026-04-11"),
                         "etapa-3": places(["a", "d", "b", "c"], "2026-05-16"),
                         "etapa-4": scheduled(["a", "b", "c", "d"], "2026-06-13")}, ["a", "b", "c", "d"])
    rk = ranking_data(rep)
    assert [(c["club"], c["points"], c["can_still_win"], c["clinched"], c["champion"]) for c in rk["clubs"]] == [
        ("a", 60, True, True, True), ("b", 40, False, False, False), ("c", 36, False, False, False),
        ("d", 32, False, False, False)]
    race = rep.results.seasons[0].club_race
    assert race.decided and race.champions == ("a",)


def test_season_over_with_a_shared_first_place(tmp_path):
    # x 1st then 2nd, y 2nd then 1st: 36 each with one 1st and one 2nd → still shared (countback equal);
    # a 12 + 12 = 24. No stage left: the title is decided, x and y are both champions; neither clinched it
    # alone (the other shares it), both were able to win; 0 points available
    rep = run(tmp_path, {"etapa-1": places(["x", "y", "a"], "2026-03-14"),
                         "etapa-2": places(["y", "x", "a"], "2026-04-11")}, ["x", "y", "a"])
    rk = ranking_data(rep)
    assert rk["stages_left"] == 0 and rk["points_available"] == 0
    assert [(c["club"], c["position"], c["can_still_win"], c["clinched"], c["champion"]) for c in rk["clubs"]] == [
        ("x", 1, True, False, True), ("y", 1, True, False, True), ("a", 3, False, False, False)]


def test_a_stage_in_progress_still_counts_as_left(tmp_path):
    # etapa-2 is in progress (provisional): it awards no points yet, so its 20 points are still to play
    # (conservative: its provisional table promises nothing). a 20, w 16: w can still win (16 + 20 > 20)
    rep = run(tmp_path, {"etapa-1": places(["a", "w"], "2026-03-14"),
                         "etapa-2": header("Etapa", "2026-04-11", "in_progress") + team_block(["a", "w"])},
              ["a", "w"])
    rk = ranking_data(rep)
    assert rk["stages_left"] == 1 and rk["points_available"] == 20
    assert [(c["club"], c["can_still_win"], c["clinched"]) for c in rk["clubs"]] == [
        ("a", True, False), ("w", True, False)]


def test_a_newcomer_keeps_a_lone_leader_from_clinching():
    # Only a has scored: 20 points, one 1st place. Two stages left → a club that has not scored yet could win
    # both: 40 points > 20 → a has not clinched. One stage left: the newcomer reaches 20 with one 1st
    # place, equal to a → it could share first place → not clinched either. No stage left: a is champion.
    ranking = annual_ranking({"a": {"e1": (1, Decimal(20))}}, ["e1"])
    two = title_race(ranking, [[20, 16], [20, 16]])
    assert (two.points_available, two.outlook["a"].clinched, two.champions) == (40, False, ())
    one = title_race(ranking, [[20, 16]])
    assert (one.points_available, one.outlook["a"].clinched) == (20, False)
    done = title_race(ranking, [])
    assert (done.points_available, done.outlook["a"].clinched, done.champions) == (0, True, ("a",))


def test_points_available_follow_each_stage_table():
    # a season table override (rules.md 12.1: a season may override the table): 25 for 1st in one stage
    # left, 20 in the other → 45 points still to play; a club on 0 with 45 available can pass a leader on 40
    ranking = annual_ranking({"a": {"e1": (1, Decimal(40))}, "b": {"e1": (2, Decimal(0))}}, ["e1"])
    race = title_race(ranking, [[25, 21, 17], [20, 16]])
    assert race.points_available == 45
    assert race.outlook["b"].best == 45 and race.outlook["b"].can_still_win


# ----------------------------------------------------------------------------------- the season page

def _season_page(tmp_path, stages: dict, clubs: list[str]) -> str:
    from league.engine.build import build
    from tests.truco_fixtures import content
    root = content(tmp_path, stages, clubs)
    build(root, tmp_path / "site", cache_dir=False, search=False)
    return (tmp_path / "site" / "2026" / "index.html").read_text(encoding="utf-8")


def _text(html: str) -> str:
    import re
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_season_page_tells_the_race(tmp_path):
    # the one-stage-left season above: 1 stage left with 20 points; leader a on 56; w can still be champion
    # (t, m, n cannot: 3 clubs); movement: m up 1 (▲1, "subiu 1 posição"), w and n down 1, a and t the same
    html = _season_page(tmp_path, {
        "etapa-1": places(["a", "w", "t", "n", "m"], "2026-03-14"),
        "etapa-2": places(["w", "a", "t", "n", "m"], "2026-04-11"),
        "etapa-3": places(["a", "m", "t", "n"], "2026-05-16"),
        "etapa-4": scheduled(CLUBS, "2026-06-13"),
    }, CLUBS)
    text = _text(html)
    assert "Falta 1 etapa (Etapa), com até 20 pontos em disputa." in text
    assert "Líder: Clube A, com 56 pontos." in text
    assert "Ainda podem ser campeões: Clube W." in text
    assert "3 clubes já não podem ser campeões." in text
    assert '<span aria-hidden="true">▲1</span><span class="sr-only">subiu 1 posição</span>' in html
    assert '<span aria-hidden="true">▼1</span><span class="sr-only">caiu 1 posição</span>' in html


def test_season_page_names_the_champion(tmp_path):
    # the clinched season above: a 60, no one can reach it with etapa-4 left → "Clube A já é o campeão"
    html = _season_page(tmp_path, {"etapa-1": places(["a", "b", "c", "d"], "2026-03-14"),
                                   "etapa-2": places(["a", "c", "b", "d"], "2026-04-11"),
                                   "etapa-3": places(["a", "d", "b", "c"], "2026-05-16"),
                                   "etapa-4": scheduled(["a", "b", "c", "d"], "2026-06-13")}, ["a", "b", "c", "d"])
    text = _text(html)
    assert "Clube A já é o campeão: com 60 pontos, ninguém mais pode alcançá-lo." in text
    assert '<tr class="champion">' in html


# ----------------------------------------------------------------------------------- group tables: who went through

def _groups_and_final(status: str = "final", with_final: bool = True) -> str:
    from tests.truco_fixtures import groups_phase, knockout_phase, match, result, stage
    phases = [groups_phase({"Grupo A": (["a", "b"], [match("a", "b", result(4))]),
                            "Grupo B": (["c", "d"], [match("c", "d", result(3))])})]
    if with_final:
        phases.append(knockout_phase([("Final", {"for_place": 1}, [match("a", "c", result(3))])]))
    return stage(["a", "b", "c", "d"], phases, status=status)


def test_group_tables_mark_who_went_through(tmp_path):
    # Truco 11: a 4x1 b in Grupo A, c 3x2 d in Grupo B; the final is a x c → a and c went through to the
    # knockout (qualified true), b and d did not (false)
    from tests.truco_fixtures import stage_data
    rep = run(tmp_path, {"etapa-1": _groups_and_final()}, ["a", "b", "c", "d"])
    assert [[(r["team"], r["qualified"]) for r in g["standings"]] for g in stage_data(rep)["groups"]] == [
        [("a", True), ("b", False)], [("c", True), ("d", False)]]


def test_nobody_marked_before_the_knockout_is_written(tmp_path):
    # the same groups, stage in progress and no knockout in the file yet: no later phase has teams → null
    from tests.truco_fixtures import stage_data
    rep = run(tmp_path, {"etapa-1": _groups_and_final("in_progress", with_final=False)}, ["a", "b", "c", "d"])
    assert [[(r["team"], r["qualified"]) for r in g["standings"]] for g in stage_data(rep)["groups"]] == [
        [("a", None), ("b", None)], [("c", None), ("d", None)]]


def test_stage_page_marks_who_went_through_with_a_legend(tmp_path):
    # a and c carry the mark Q with its words for screen readers; the legend explains Q
    from league.engine.build import build
    from tests.truco_fixtures import content
    root = content(tmp_path, {"etapa-1": _groups_and_final()}, ["a", "b", "c", "d"])
    build(root, tmp_path / "site", cache_dir=False, search=False)
    html = (tmp_path / "site" / "2026" / "truco" / "etapa-1" / "index.html").read_text(encoding="utf-8")
    mark = ('<span class="qualified"><span aria-hidden="true">Q</span>'
            '<span class="sr-only">classificada para a fase seguinte</span></span>')
    assert html.count(mark) == 2
    assert "<dt>Q</dt> <dd>classificada para a fase seguinte (o mata-mata), item 11</dd>" in html


# ----------------------------------------------------------------------------------- stages planned in season.yaml

TWO_DONE = {"etapa-1": places(["a", "w"], "2026-03-14"), "etapa-2": places(["a", "w"], "2026-04-11")}


def test_stages_planned_without_a_file_are_still_to_play(tmp_path):
    # a 20 + 20 = 40, w 16 + 16 = 32. season.yaml plans 4 stages (Truco 1 plans six) and only 2 files exist:
    # 2 stages left with the season's table → 40 points; w at best 32 + 40 = 72 ≥ 40 → can still win; open
    rep = run(tmp_path, TWO_DONE, ["a", "w"], season="title: Interclubes 2026\nstages: 4\n")
    rk = ranking_data(rep)
    assert (rk["stages_left"], rk["points_available"]) == (2, 40)
    assert [(c["club"], c["can_still_win"], c["clinched"], c["champion"]) for c in rk["clubs"]] == [
        ("a", True, False, False), ("w", True, False, False)]
    race = rep.results.seasons[0].club_race
    assert (race.stages_left, race.unscheduled) == ((), 2)


def test_without_stages_planned_the_files_are_the_season(tmp_path):
    # the same two final stages and no `stages:`: no stage left → a is champion with 40
    rk = ranking_data(run(tmp_path, TWO_DONE, ["a", "w"]))
    assert (rk["stages_left"], rk["points_available"]) == (0, 0)
    assert [(c["club"], c["champion"]) for c in rk["clubs"]] == [("a", True), ("w", False)]


def test_more_stage_files_than_planned_is_a_warning_at_the_setting(tmp_path):
    # stages: 1 on line 2 of season.yaml (value at column 9), 2 stage files
    from tests.truco_fixtures import warnings
    rep = run(tmp_path, TWO_DONE, ["a", "w"], season="title: Interclubes 2026\nstages: 1\n")
    (w,) = warnings(rep, "stage-count")
    assert (w.mark.path, w.mark.line, w.mark.col) == ("content/seasons/2026/season.yaml", 2, 9)
    assert w.message == "season.yaml prevê 1 etapa(s), mas a temporada 2026 tem 2 arquivo(s) de etapa em truco/"
    assert w.hint == "corrija para stages: 2, ou remova o arquivo de etapa que sobra"


def test_season_page_counts_the_stages_without_a_file(tmp_path):
    # one scheduled file (etapa-3) and season.yaml planning 4: 2 stages left, 40 points
    from league.engine.build import build
    from tests.truco_fixtures import content
    root = content(tmp_path, {**TWO_DONE, "etapa-3": scheduled(["a", "w"], "2026-05-16")}, ["a", "w"],
                   season="title: Interclubes 2026\nstages: 4\n")
    build(root, tmp_path / "site", cache_dir=False, search=False)
    text = _text((tmp_path / "site" / "2026" / "index.html").read_text(encoding="utf-8"))
    assert "Faltam 2 etapas (Etapa, 1 etapa ainda sem arquivo), com até 40 pontos em disputa." in text


# ----------------------------------------------------------------------------------- exact: against every outcome

def _outcomes(keys: list, places: int, stages: int):
    """Every way the stages left can end: in each, some of `keys` take distinct places 1..places, the others do
    not play (or finish outside the points table, which changes no one's points)."""
    from itertools import permutations, product
    one = [dict(zip(who, range(1, len(who) + 1))) for n in range(places + 1) for who in permutations(keys, n)]
    return product(one, repeat=stages)


def _final(entries: dict, outcome, table) -> list:
    from league.games.truco.ranking import annual_ranking
    full = {k: dict(v) for k, v in entries.items()}
    for i, stage in enumerate(outcome):
        for k, place in stage.items():
            full.setdefault(k, {})[f"x{i}"] = (place, Decimal(table[place - 1]))
    return annual_ranking(full, sorted({s for v in full.values() for s in v}))


def test_can_still_win_and_clinched_match_every_possible_outcome():
    # Brute force over 40 small seasons (two final stages, places drawn from a 5/3/1 table (Truco 12.1 shape),
    # shared places not modelled), 1 or 2 stages left, 3 ranked entries and a newcomer "z":
    # can_still_win ⇔ first place (maybe shared) in at least one outcome; clinched ⇔ alone in first place in
    # every outcome (the newcomer included: it has not played yet and could win every stage left).
    from itertools import product
    from league.games.truco.ranking import annual_ranking
    table = [5, 3, 1]
    histories = list(product([(1, 5), (2, 3), (3, 1), None], repeat=3))
    seasons = []
    for h1, h2 in product(histories[::7], histories[::5]):
        entries: dict = {}
        for key, (a, b) in zip("abc", zip(h1, h2)):
            for sid, got in (("e1", a), ("e2", b)):
                if got:
                    entries.setdefault(key, {})[sid] = (got[0], Decimal(got[1]))
        if len(entries) >= 2:
            seasons.append(entries)
    checked = 0
    for entries in seasons[:40]:
        ranking = annual_ranking(entries, ["e1", "e2"])
        for left in (1, 2):
            race = title_race(ranking, [table] * left)
            finals = [_final(entries, o, table) for o in _outcomes(list(entries) + ["z"], 3, left)]
            for e in ranking:
                first = [any(r.key == e.key and r.position == 1 for r in f) for f in finals]
                alone = [f[0].key == e.key and not f[0].tied for f in finals]
                assert race.outlook[e.key].can_still_win == any(first), (entries, left, e.key)
                assert race.outlook[e.key].clinched == all(alone), (entries, left, e.key)
                checked += 1
    assert checked > 100
