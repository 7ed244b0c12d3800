"""The static JSON API of outputs.md (a public contract: exact paths and keys) and CSV copies of every table."""
from __future__ import annotations

import csv
import io
import json
import math
from decimal import Decimal
from typing import Any

from league.games.results import Results, SeasonResult, pairs_left_out
from league.games.quatrilho.championship import Cell, ChampionshipResult
from league.games.truco.ranking import StageResult

try:   # 10× faster than json's pure-Python encoder, which `indent` selects: same bytes (tests/test_api_bytes.py)
    import orjson
except ImportError:  # pragma: no cover - a dependency; json gives the same text
    orjson = None


def num(value: Any) -> Any:
    """Decimal → int when whole, else float with 2 decimals (20, 8.67)."""
    if isinstance(value, Decimal):
        if value == value.to_integral_value():
            return int(value)
        return float(round(value, 2))
    return value


def dumps(data: Any) -> str:
    """Indented JSON (2 spaces, UTF-8 text, not \\u escapes), as `json.dumps(indent=2, ensure_ascii=False)`
    writes it. orjson writes the same bytes for what the API holds (text, whole numbers, floats with 2
    decimals, booleans, null); anything it refuses (an integer beyond 64 bits, a lone surrogate) goes
    through json."""
    if orjson is not None:
        try:
            return orjson.dumps(data, option=orjson.OPT_INDENT_2).decode("utf-8") + "\n"
        except TypeError:   # orjson.JSONEncodeError is one
            pass
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def ranking_json(sr: SeasonResult) -> dict:
    """The season's annual rankings; `pairs_left_out` (only when some) lists the final stages the pair ranking
    leaves out: known only by their final places (history)."""
    left_out = [r.stage.id for r in pairs_left_out(sr.stages)[0]]
    return {
        "season": sr.season.year,
        "clubs": [{"position": e.position, "tied": e.tied, "club": e.key, "points": num(e.points),
                   "stages": {k: num(v) for k, v in e.stages.items()}} for e in sr.clubs],
        "pairs": [{"position": e.position, "tied": e.tied, "players": list(e.key), "points": num(e.points),
                   "stages": {k: num(v) for k, v in e.stages.items()}} for e in sr.pairs],
        **({"pairs_left_out": left_out} if left_out else {}),
    }


def stage_json(res: StageResult) -> dict:
    """A stage's classification, group standings and pairs; `source` (only when the file gives one): where
    its results were published."""
    st = res.stage
    return {
        "season": st.season, "stage": st.id, "status": st.status,
        **({"source": st.source} if st.source else {}),
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


# First characters that make a spreadsheet (Excel, LibreOffice, Google Sheets) read a cell as a formula or
# a DDE call (OWASP "CSV Injection"; NUL from OWASP ASVS 1.2.10).
FORMULA_START = frozenset("=+-@\t\r\0")


def csv_text(value: str) -> str:
    """A text cell as a spreadsheet shows it, never as a formula: one starting with =, +, -, @, tab, CR or NUL
    gets a leading single quote (OWASP CSV injection), e.g. a group named "=HYPERLINK(…)". A CR inside becomes
    a LF: csv.writer quotes a cell only for the characters of its line terminator ("\n"), and an unquoted CR
    ends the row for a spreadsheet, the rest of the cell starting a row (and a formula) of its own."""
    if value and value[0] in FORMULA_START:
        value = "'" + value
    if "\r" in value:
        value = value.replace("\r\n", "\n").replace("\r", "\n")
    return value


def _csv_cell(v: Any) -> Any:
    """One cell. Only text is neutralised: whole numbers and finite floats/Decimals that league formats itself
    (a balance of -3, 8.67) stay as they are, so that they remain numbers in a spreadsheet (and the published
    CSV bytes do not change); a non-finite float ("-inf") is text to a spreadsheet and is treated as text."""
    if isinstance(v, str):
        return csv_text(v)
    if v is None:
        return ""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int) or (isinstance(v, float) and math.isfinite(v)) \
            or (isinstance(v, Decimal) and v.is_finite()):
        return v
    return csv_text(_as_text(v))


def _as_text(v: Any) -> str:
    """A cell that is neither text nor a number, as text: a list's items apart, a dict's a=b;c=d."""
    if isinstance(v, list):
        return " ".join(map(str, v))
    if isinstance(v, dict):
        return ";".join(f"{a}={b}" for a, b in v.items())
    return str(v)


def to_csv(rows: list[dict]) -> str:
    if not rows:
        return ""
    buf = io.StringIO()
    fields = list(rows[0].keys())
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(fields)
    for r in rows:
        if len(r) != len(fields):   # every row has the first one's columns (a missing one: KeyError)
            raise ValueError(f"CSV: linha com colunas diferentes das da primeira: {list(r)} ≠ {fields}")
        w.writerow([_csv_cell(v) for v in map(r.__getitem__, fields)])
    return buf.getvalue()


def api_files(results: Results) -> dict[str, str]:
    """Path under site/ → text, for every JSON and CSV file."""
    out: dict[str, str] = {}
    for sr in results.seasons:
        out.update(season_api_files(sr))
    return out


def season_api_files(sr: SeasonResult) -> dict[str, str]:
    """One season's JSON and CSV files."""
    out = ranking_api_files(sr)
    for res in sr.stages:
        out.update(stage_api_files(sr, res))
    out.update(quatrilho_api_files(sr))
    return out


def ranking_api_files(sr: SeasonResult) -> dict[str, str]:
    base = f"api/{sr.season.year}/truco"
    rk = ranking_json(sr)
    return {f"{base}/ranking.json": dumps(rk), f"{base}/ranking-clubes.csv": to_csv(rk["clubs"]),
            f"{base}/ranking-duplas.csv": to_csv(rk["pairs"])}


def stage_api_files(sr: SeasonResult, res: StageResult) -> dict[str, str]:
    """A stage's files (a rebuild makes them again only when the stage's file changed)."""
    base = f"api/{sr.season.year}/truco"
    sj = stage_json(res)
    return {f"{base}/{res.stage.id}.json": dumps(sj),
            f"{base}/{res.stage.id}-classificacao.csv": to_csv(sj["classification"]),
            f"{base}/{res.stage.id}-duplas.csv": to_csv(sj["pairs"]),
            f"{base}/{res.stage.id}-grupos.csv": to_csv(
                [{"group": g["name"], **r} for g in sj["groups"] for r in g["standings"]])}


def championship_json(res: ChampionshipResult) -> dict:
    ch = res.championship
    return {
        "season": ch.season, "championship": ch.id, "status": ch.status,
        "classification": [
            {"position": ln.position, "tied": ln.tied, "player": ln.player, "number": ln.number,
             "rounds": ln.rounds, "net": ln.values["net"], "positive_rounds": ln.values["positive_rounds"],
             "points_won": ln.values["points_won"], "best_round": ln.values["best_round"],
             "champion": ln.award.champion, "disqualified": ln.disqualified_in is not None,
             "prize": num(ln.award.prize), "decided_by": ln.ranked.decided_by}
            for ln in res.lines],
        "registration_money": num(res.registration_money),
    }


def qualifiers_json(season_result) -> dict:
    return {"season": season_result.season.year,
            "qualifiers": [{"championship": q.championship.championship.id, "position": q.line.position,
                            "player": q.line.player} for q in season_result.qualifiers]}


def _classification_csv_rows(data: dict) -> list[dict]:
    rows = []
    for entry in data["classification"]:
        row = {k: v for k, v in entry.items() if k != "rounds"}
        rounds = {f"round_{i + 1}": v for i, v in enumerate(entry["rounds"])}
        rows.append({k: row[k] for k in ("position", "tied", "player", "number")} | rounds
                    | {k: row[k] for k in row if k not in ("position", "tied", "player", "number")})
    return rows


def _tables_csv_rows(res: ChampionshipResult) -> list[dict]:
    ch = res.championship
    rows = []
    for r in ch.rounds:
        for t in r.tables:
            for seat, (key, chips) in enumerate(t.seats, start=1):
                cell = res.cell(r.number, key) if isinstance(key, int) else Cell("joker", None)
                rows.append({"round": r.number, "table": t.number, "seat": seat,
                             "number": key if isinstance(key, int) else "",
                             "player": ch.players[key].player if isinstance(key, int) else key,
                             "chips": chips, "rebuys": cell.rebuys, "penalty": cell.penalty, "result": cell.result})
    return rows


def quatrilho_api_files(season_result: SeasonResult) -> dict[str, str]:
    """api/<season>/quatrilho/<id>.json and qualifiers.json (outputs.md), with CSV copies of every table."""
    if not season_result.championships:
        return {}
    base = f"api/{season_result.season.year}/quatrilho"
    out: dict[str, str] = {}
    for res in season_result.championships:
        cid = res.championship.id
        data = championship_json(res)
        out[f"{base}/{cid}.json"] = dumps(data)
        out[f"{base}/{cid}-classificacao.csv"] = to_csv(_classification_csv_rows(data))
        out[f"{base}/{cid}-mesas.csv"] = to_csv(_tables_csv_rows(res))
    q = qualifiers_json(season_result)
    out[f"{base}/qualifiers.json"] = dumps(q)
    out[f"{base}/qualifiers.csv"] = to_csv(q["qualifiers"]) or "championship,position,player\n"
    return out
