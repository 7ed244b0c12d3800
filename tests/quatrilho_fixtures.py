"""Small Quatrilho championship files written in the tests, and short ways to check them.

Players are q01, q02, …; registration number n is player q{n:02d} unless a test says otherwise.
"""
from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Mapping

import pytest

from league.engine.build import BuildReport, check
from league.content.diagnostics import Diagnostic, LeagueError
from tests.util import LEAGUE, write_content

PLAYERS = [f"q{i:02d}" for i in range(1, 31)]


def head(name: str = "Campeonato Teste", date: str = "2026-05-10", status: str = "final", fee: str = "10.00",
         prizes: str = "{1: 30, 2: 20, 3: 10}") -> str:
    return f"name: {name}\nmunicipality: Chapecó\ndate: {date}\nstatus: {status}\nfee: {fee}\nprizes: {prizes}\n"


def registrations(n: int, late: Mapping[int, int] | None = None) -> str:
    out = "players:\n"
    for i in range(1, n + 1):
        if late and i in late:
            out += f"  {i}: {{player: q{i:02d}, from_round: {late[i]}}}\n"
        else:
            out += f"  {i}: q{i:02d}\n"
    return out


# One round, 8 players at two tables of 4; hand-worked:
#   table 1: 150 150 50 50 → +50 +50 −50 −50 (sum 400 = 4 × 100)
#   table 2: 130 110 90 70 → +30 +10 −10 −30 (sum 400)
# order: 1 = 2 (+50), 5 (+30), 6 (+10), 7 (−10), 8 (−30), 3 = 4 (−50)
EIGHT = head() + registrations(8) + """\
rounds:
  - tables:
      1: {1: 150, 2: 150, 3: 50, 4: 50}
      2: {5: 130, 6: 110, 7: 90, 8: 70}
"""


def content(tmp_path: Path, championships: Mapping[str, str], season: str | None = None,
            league: str = LEAGUE) -> Path:
    root = write_content(tmp_path, {}, extra_players=PLAYERS, season=season, league=league)
    qdir = root / "seasons" / "2026" / "quatrilho"
    qdir.mkdir(parents=True, exist_ok=True)
    for cid, text in championships.items():
        (qdir / f"{cid}.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def run(tmp_path: Path, championships: Mapping[str, str], **kw) -> BuildReport:
    root = content(tmp_path, championships, **kw)
    try:
        return check(root)
    except LeagueError as exc:  # pragma: no cover - shows the diagnostics when a fixture is wrong
        pytest.fail("unexpected content errors:\n" + "\n".join(d.format_text() for d in exc.diagnostics))


def errors(tmp_path: Path, championships: Mapping[str, str], **kw) -> list[Diagnostic]:
    root = content(tmp_path, championships, **kw)
    with pytest.raises(LeagueError) as info:
        check(root)
    return [d for d in info.value.diagnostics if d.level == "error"]


def messages(diags) -> list[str]:
    return [d.message for d in diags]


def result(report: BuildReport, cid: str = "teste"):
    return next(r for s in report.results.seasons for r in s.championships if r.championship.id == cid)


def line(res, number: int):
    return next(ln for ln in res.lines if ln.number == number)
