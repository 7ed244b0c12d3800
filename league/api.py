"""The static JSON API of outputs.md (a public contract: exact paths and keys) and CSV copies of every table."""
from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from typing import Any

from league.compute import Results, SeasonResult
from league.ranking import StageResult


def num(value: Any) -> Any:
    """Decimal → int when whole, else float with 2 decimals (20, 8.67)."""
    if isinstance(value, Decimal):
        if value == value.to_integral_value():
            return int(value)
        return float(round(value, 2))
    return value


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def ranking_json(sr: SeasonResult) -> dict:
    return {
        "season": sr.season.year,
        "clubs": [{"position": e.position, "tied": e.tied, "club": e.key, "points": num(e.points),
                   "stages": {k: num(v) for k, v in e.stages.items()}} for e in sr.clubs],
        "pairs": [{"position": e.position, "tied": e.tied, "players": list(e.key), "points": num(e.points),
                   "stages": {k: num(v) for k, v in e.stages.items()}} for e in sr.pairs],
    }


def stage_json(res: StageResult) -> dict:
    st = res.stage
    return {
        "season": st.season, "stage": st.id, "status": st.status,
        "classification": [{"position": p.position, "tied": p.tied, "team": p.key, "club": st.teams[p.key].club,
                            "ranking_points": num(p.points)} for p in res.classification],
        "groups": [{"name": g.name, "standings": [
            {"position": r.position, "tied": r.tied, "team": r.key, "played": r.row["played"],
             "wins": r.row["wins"], "losses": r.row["losses"], "points": r.row["points"],
             "pair_points_balance": r.row["pair_points_balance"], "pontinhos_balance": r.row["pontinhos_balance"],
             "decided_by": r.decided_by} for r in g.ranked]} for g in res.groups],
        "pairs": [{"position": p.position, "tied": p.tied, "players": list(p.key), "team": res.pair_team.get(p.key),
                   "played": p.row["played"], "wins": p.row["wins"], "points": p.row["points"],
                   "pair_points_balance": p.row["pair_points_balance"],
                   "pontinhos_balance": p.row["pontinhos_balance"], "ranking_points": num(p.points),
                   "decided_by": p.decided_by} for p in res.pairs],
    }


def to_csv(rows: list[dict]) -> str:
    if not rows:
        return ""
    buf = io.StringIO()
    fields = list(rows[0].keys())
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: (" ".join(v) if isinstance(v, list) else
                        ";".join(f"{a}={b}" for a, b in v.items()) if isinstance(v, dict) else
                        "" if v is None else str(v).lower() if isinstance(v, bool) else v)
                    for k, v in r.items()})
    return buf.getvalue()


def api_files(results: Results) -> dict[str, str]:
    """Path under site/ → text, for every JSON and CSV file."""
    out: dict[str, str] = {}
    for sr in results.seasons:
        out.update(season_api_files(sr))
    return out


def season_api_files(sr: SeasonResult) -> dict[str, str]:
    """One season's JSON and CSV files (a rebuild regenerates only the seasons whose files changed)."""
    out: dict[str, str] = {}
    base = f"api/{sr.season.year}/truco"
    rk = ranking_json(sr)
    out[f"{base}/ranking.json"] = dumps(rk)
    out[f"{base}/ranking-clubes.csv"] = to_csv(rk["clubs"])
    out[f"{base}/ranking-duplas.csv"] = to_csv(rk["pairs"])
    for res in sr.stages:
        sj = stage_json(res)
        out[f"{base}/{res.stage.id}.json"] = dumps(sj)
        out[f"{base}/{res.stage.id}-classificacao.csv"] = to_csv(sj["classification"])
        out[f"{base}/{res.stage.id}-duplas.csv"] = to_csv(sj["pairs"])
        out[f"{base}/{res.stage.id}-grupos.csv"] = to_csv(
            [{"group": g["name"], **r} for g in sj["groups"] for r in g["standings"]])
    try:
        from league.quatrilho import api_files as q_api
    except ImportError:  # pragma: no cover
        q_api = None
    if q_api and sr.championships:
        out.update(q_api(sr))
    return out
