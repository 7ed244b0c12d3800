"""The CSV files for a spreadsheet in Portuguese (`…-br.csv`, issue 37): beside each CSV of the API, the same
table as Excel and LibreOffice in pt-BR open it with two clicks — UTF-8 with a byte order mark (so the
accents are read as UTF-8), `;` between the cells, a decimal comma (`8,67`), `sim`/`não`, CRLF line ends, the
names beside the ids, and no packed column: a pair's two players are two columns each (`player_1`,
`player_1_name`, `player_2`, `player_2_name`) and the ranking's points per stage one column per stage
(named by the stage's id). docs/api.md describes every column."""
from __future__ import annotations

import csv
import io
import math
from decimal import Decimal
from typing import Any

from league.site.apiformat import as_text, csv_text

BOM = "\ufeff"
QUALIFIERS_COLUMNS = ("championship", "championship_name", "position", "player", "player_name")


def br_cell(v: Any) -> Any:
    """One cell in pt-BR: a decimal comma, sim/não, empty for null; text never read as a formula (csv_text)."""
    if isinstance(v, str):
        return csv_text(v)
    if v is None:
        return ""
    if isinstance(v, bool):
        return "sim" if v else "não"
    if isinstance(v, int):
        return v
    if (isinstance(v, float) and math.isfinite(v)) or (isinstance(v, Decimal) and v.is_finite()):
        return str(v).replace(".", ",")
    return csv_text(as_text(v))


def br_csv(rows: list[dict], header: tuple = ()) -> str:
    """The rows as a pt-BR CSV; a table without rows is an empty file, or its `header` alone when given."""
    if not rows and not header:
        return ""
    fields = list(rows[0]) if rows else list(header)
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=";", lineterminator="\r\n")
    w.writerow(fields)
    for r in rows:
        if list(r) != fields:
            raise ValueError(f"CSV: linha com colunas diferentes das da primeira: {list(r)} ≠ {fields}")
        w.writerow([br_cell(v) for v in r.values()])
    return BOM + buf.getvalue()


def unpacked(row: dict, stage_ids: tuple = ()) -> dict:
    """A JSON record with its packed fields apart: `players` (and `player_names`) → player_1, player_1_name,
    player_2, player_2_name; `stages` → a column per id of `stage_ids`, empty where it did not score."""
    out: dict = {}
    for k, v in row.items():
        if k == "players":
            for i, pid in enumerate(v, start=1):
                out[f"player_{i}"] = pid
                out[f"player_{i}_name"] = row["player_names"][i - 1]
        elif k == "stages":
            out.update({sid: v.get(sid) for sid in stage_ids})
        elif k != "player_names":
            out[k] = v
    return out


def ranking_files(base: str, sr, ranking: dict) -> dict[str, str]:
    """ranking-clubes-br.csv and ranking-duplas-br.csv: a column per final stage of the season, in order."""
    ids = tuple(r.stage.id for r in sr.stages if r.stage.status == "final")
    return {f"{base}/ranking-clubes-br.csv": br_csv([unpacked(r, ids) for r in ranking["clubs"]]),
            f"{base}/ranking-duplas-br.csv": br_csv([unpacked(r, ids) for r in ranking["pairs"]])}


def stage_files(prefix: str, stage: dict, groups: list[dict]) -> dict[str, str]:
    """<etapa>-classificacao-br.csv, <etapa>-duplas-br.csv, <etapa>-grupos-br.csv."""
    return {f"{prefix}-classificacao-br.csv": br_csv(stage["classification"]),
            f"{prefix}-duplas-br.csv": br_csv([unpacked(r) for r in stage["pairs"]]),
            f"{prefix}-grupos-br.csv": br_csv(groups)}


def championship_files(prefix: str, classification: list[dict], tables: list[dict]) -> dict[str, str]:
    """<campeonato>-classificacao-br.csv and <campeonato>-mesas-br.csv."""
    return {f"{prefix}-classificacao-br.csv": br_csv(classification), f"{prefix}-mesas-br.csv": br_csv(tables)}


def qualifiers_files(base: str, qualifiers: list[dict]) -> dict[str, str]:
    """qualifiers-br.csv, always with its header (as qualifiers.csv)."""
    return {f"{base}/qualifiers-br.csv": br_csv(qualifiers, QUALIFIERS_COLUMNS)}
