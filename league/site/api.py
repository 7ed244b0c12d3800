"""The static JSON API of outputs.md (a public contract: exact paths and keys) and CSV copies of every table;
beside them the pt-BR spreadsheet CSVs (api_br), the index, the registries and api/latest/ (api_index)."""
from __future__ import annotations

from league.games.results import Results, SeasonResult, pairs_left_out
from league.games.quatrilho.championship import Cell, ChampionshipResult
from league.games.truco.race import Race
from league.games.truco.ranking import StageResult
from league.games.truco.standings import went_through
from league.site import api_br as br
from league.site.api_index import index_files, latest_files
from league.site.apiformat import (  # noqa: F401  (num, dumps, csv_text, to_csv: used through this module too)
    FORMULA_START, NAME_FIELDS, Names, csv_text, dumps, num, to_csv,
)


def ranking_json(sr: SeasonResult, names: Names | None = None) -> dict:
    """The season's annual rankings; `pairs_left_out` (only when some) lists the final stages the pair ranking
    leaves out: known only by their final places (history)."""
    names = names or Names()
    left_out = [r.stage.id for r in pairs_left_out(sr.stages)[0]]
    clubs, pairs = sr.club_race, sr.pair_race
    return {
        "season": sr.season.year,
        "clubs": [{"position": e.position, "tied": e.tied, "club": e.key, "club_name": names.club(e.key),
                   "points": num(e.points), "stages": {k: num(v) for k, v in e.stages.items()},
                   **_race_fields(clubs, e.key)} for e in sr.clubs],
        "pairs": [{"position": e.position, "tied": e.tied, "players": list(e.key), "player_names": names.pair(e.key),
                   "points": num(e.points), "stages": {k: num(v) for k, v in e.stages.items()},
                   **_race_fields(pairs, e.key)} for e in sr.pairs],
        **({"pairs_left_out": left_out} if left_out else {}),
        "stage_names": {r.stage.id: r.stage.name for r in sr.stages},
        "stages_left": clubs.count_left,
        "points_available": num(clubs.points_available),
    }


def _race_fields(race: Race, key) -> dict:
    """An entry's place in the title race (league.games.truco.race): added after the fields of outputs.md."""
    o = race.outlook[key]
    return {"movement": o.movement, "can_still_win": o.can_still_win, "clinched": o.clinched,
            "champion": key in race.champions}


def _qualified(through, team) -> bool | None:
    """Whether a group's team went through to the next phase (league.games.truco.standings.went_through);
    None while no later phase has teams."""
    return None if through is None else team in through


def stage_json(res: StageResult, names: Names | None = None) -> dict:
    """A stage's classification, group standings and pairs; `source` (only when the file gives one): where
    its results were published."""
    st, names = res.stage, names or Names()
    team_name = {tid: t.name for tid, t in st.teams.items()}
    through = went_through(st.phases)
    return {
        "season": st.season, "stage": st.id, "stage_name": st.name, "status": st.status,
        **({"source": st.source} if st.source else {}),
        "classification": [{"position": p.position, "tied": p.tied, "team": p.key, "team_name": team_name[p.key],
                            "club": st.teams[p.key].club, "club_name": names.club(st.teams[p.key].club),
                            "ranking_points": num(p.points)} for p in res.classification],
        "groups": [{"name": g.name, "standings": [
            {"position": r.position, "tied": r.tied, "team": r.key, "team_name": team_name[r.key],
             "played": r.row["played"],
             "wins": r.row["wins"], "losses": r.row["losses"], "points": r.row["points"],
             "pair_points_balance": r.row["pair_points_balance"], "pontinhos_balance": r.row["pontinhos_balance"],
             "decided_by": r.decided_by, "qualified": _qualified(through.get(g.phase), r.key)}
            for r in g.ranked]} for g in res.groups],
        "pairs": [{"position": p.position, "tied": p.tied, "players": list(p.key), "player_names": names.pair(p.key),
                   "team": res.pair_team.get(p.key), "team_name": team_name.get(res.pair_team.get(p.key)),
                   "played": p.row["played"], "wins": p.row["wins"], "points": p.row["points"],
                   "pair_points_balance": p.row["pair_points_balance"],
                   "pontinhos_balance": p.row["pontinhos_balance"], "ranking_points": num(p.points),
                   "decided_by": p.decided_by} for p in res.pairs],
    }


# the title race and the group qualification (issue 36): in the JSON only, the CSVs keep their columns
JSON_ONLY = frozenset({"movement", "can_still_win", "clinched", "champion", "qualified"})


def plain(rows: list[dict], json_only: frozenset = JSON_ONLY) -> list[dict]:
    """The rows of a first CSV: the JSON records without the names beside the ids (NAME_FIELDS) and the fields
    only the JSON has (`json_only`: the Truco race's; a Quatrilho line's `champion` is outputs.md's own), so
    that its columns stay those of outputs.md."""
    return [{k: v for k, v in r.items() if k not in NAME_FIELDS and k not in json_only} for r in rows]


def _csv_rows(rows: list[dict]) -> list[dict]:
    """The records without the fields only the JSON has (for the pt-BR CSVs, which keep the names)."""
    return [{k: v for k, v in r.items() if k not in JSON_ONLY} for r in rows]


def api_files(results: Results) -> dict[str, str]:
    """Path under site/ → text, for every JSON and CSV file: each season's, the index, the registries and
    api/latest/ (league.site.api_index)."""
    names = Names(results.league)
    out: dict[str, str] = {}
    for sr in results.seasons:
        out.update(season_api_files(sr, names))
    out.update(index_files(results))
    out.update(latest_files(results, out))
    return out


def season_api_files(sr: SeasonResult, names: Names | None = None) -> dict[str, str]:
    """One season's JSON and CSV files."""
    out = ranking_api_files(sr, names)
    for res in sr.stages:
        out.update(stage_api_files(sr, res, names))
    out.update(quatrilho_api_files(sr, names))
    return out


def ranking_api_files(sr: SeasonResult, names: Names | None = None) -> dict[str, str]:
    base = f"api/{sr.season.year}/truco"
    rk = ranking_json(sr, names)
    return {f"{base}/ranking.json": dumps(rk), f"{base}/ranking-clubes.csv": to_csv(plain(rk["clubs"])),
            f"{base}/ranking-duplas.csv": to_csv(plain(rk["pairs"])),
            **br.ranking_files(base, sr, {**rk, "clubs": _csv_rows(rk["clubs"]), "pairs": _csv_rows(rk["pairs"])})}


def stage_api_files(sr: SeasonResult, res: StageResult, names: Names | None = None) -> dict[str, str]:
    """A stage's files (a rebuild makes them again only when the stage's file changed)."""
    base = f"api/{sr.season.year}/truco"
    sj = stage_json(res, names)
    groups = _csv_rows([{"group": g["name"], **r} for g in sj["groups"] for r in g["standings"]])
    return {f"{base}/{res.stage.id}.json": dumps(sj),
            f"{base}/{res.stage.id}-classificacao.csv": to_csv(plain(sj["classification"])),
            f"{base}/{res.stage.id}-duplas.csv": to_csv(plain(sj["pairs"])),
            f"{base}/{res.stage.id}-grupos.csv": to_csv(plain(groups)),
            **br.stage_files(f"{base}/{res.stage.id}", sj, groups)}


def championship_json(res: ChampionshipResult, names: Names | None = None) -> dict:
    ch, names = res.championship, names or Names()
    return {
        "season": ch.season, "championship": ch.id, "championship_name": ch.name, "status": ch.status,
        "classification": [
            {"position": ln.position, "tied": ln.tied, "player": ln.player, "player_name": names.player(ln.player),
             "number": ln.number,
             "rounds": ln.rounds, "net": ln.values["net"], "positive_rounds": ln.values["positive_rounds"],
             "points_won": ln.values["points_won"], "best_round": ln.values["best_round"],
             "champion": ln.award.champion, "disqualified": ln.disqualified_in is not None,
             "prize": num(ln.award.prize), "decided_by": ln.ranked.decided_by}
            for ln in res.lines],
        "registration_money": num(res.registration_money),
    }


def qualifiers_json(season_result, names: Names | None = None) -> dict:
    names = names or Names()
    return {"season": season_result.season.year,
            "qualifiers": [{"championship": q.championship.championship.id,
                            "championship_name": q.championship.championship.name, "position": q.line.position,
                            "player": q.line.player, "player_name": names.player(q.line.player)}
                           for q in season_result.qualifiers]}


def _classification_csv_rows(data: dict) -> list[dict]:
    """The classification's rows, a column per round in place of `rounds` (round_1, round_2, …)."""
    first = ("position", "tied", "player", "player_name", "number")
    rows = []
    for entry in data["classification"]:
        rounds = {f"round_{i + 1}": v for i, v in enumerate(entry["rounds"])}
        rows.append({k: entry[k] for k in first} | rounds
                    | {k: entry[k] for k in entry if k not in first and k != "rounds"})
    return rows


def _tables_csv_rows(res: ChampionshipResult, names: Names) -> list[dict]:
    ch = res.championship
    rows = []
    for r in ch.rounds:
        for t in r.tables:
            for seat, (key, chips) in enumerate(t.seats, start=1):
                cell = res.cell(r.number, key) if isinstance(key, int) else Cell("joker", None)
                player = ch.players[key].player if isinstance(key, int) else key
                rows.append({"round": r.number, "table": t.number, "seat": seat,
                             "number": key if isinstance(key, int) else "", "player": player,
                             "player_name": names.player(player) if isinstance(key, int) else "",
                             "chips": chips, "rebuys": cell.rebuys, "penalty": cell.penalty, "result": cell.result})
    return rows


QUALIFIERS_HEADER = "championship,position,player\n"


def quatrilho_api_files(season_result: SeasonResult, names: Names | None = None) -> dict[str, str]:
    """api/<season>/quatrilho/<id>.json and qualifiers.json (outputs.md), with CSV copies of every table."""
    if not season_result.championships:
        return {}
    names = names or Names()
    base = f"api/{season_result.season.year}/quatrilho"
    out: dict[str, str] = {}
    for res in season_result.championships:
        cid = res.championship.id
        data = championship_json(res, names)
        classification, tables = _classification_csv_rows(data), _tables_csv_rows(res, names)
        out[f"{base}/{cid}.json"] = dumps(data)
        out[f"{base}/{cid}-classificacao.csv"] = to_csv(plain(classification, frozenset()))
        out[f"{base}/{cid}-mesas.csv"] = to_csv(plain(tables, frozenset()))
        out.update(br.championship_files(f"{base}/{cid}", classification, tables))
    q = qualifiers_json(season_result, names)
    out[f"{base}/qualifiers.json"] = dumps(q)
    out[f"{base}/qualifiers.csv"] = to_csv(plain(q["qualifiers"], frozenset())) or QUALIFIERS_HEADER
    out.update(br.qualifiers_files(base, q["qualifiers"]))
    return out
