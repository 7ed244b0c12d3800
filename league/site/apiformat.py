"""What the JSON and CSV files of the API are written with (league.site.api, api_br, api_index): numbers and
JSON text, the names beside the ids, and CSV cells that a spreadsheet never reads as a formula."""
from __future__ import annotations

import csv
import io
import json
import math
from decimal import Decimal
from typing import Any

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


class Names:
    """The names the API writes beside the ids (issue 37): a club's and a player's from the registries
    (clubs.yaml, players.yaml), the id itself for one not registered. Without a league: every name is the id."""

    def __init__(self, league=None):
        self.clubs = {k: c.name for k, c in league.clubs.items()} if league is not None else {}
        self.players = {k: p.name for k, p in league.players.items()} if league is not None else {}

    def club(self, cid: str | None) -> str | None:
        return None if cid is None else self.clubs.get(cid, cid)

    def player(self, pid: str) -> str:
        return self.players.get(pid, pid)

    def pair(self, pair) -> list[str]:
        return [self.player(x) for x in pair]


# the fields that carry a name beside an id: not in the first CSVs, whose columns are a public contract
NAME_FIELDS = frozenset({"club_name", "team_name", "player_name", "player_names", "stage_name",
                         "championship_name"})


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
    return csv_text(as_text(v))


def as_text(v: Any) -> str:
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


