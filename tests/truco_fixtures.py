"""Small Truco stage files written in the tests, and short ways to run the build on them.

Every team is a club of the same id unless `clubs_of` says otherwise; squads come from tests.util.squad
(pair i of team t is [t-ia, t-ib]), so boards named by position need no player lists.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Mapping, Sequence

import pytest

from league.site.api import ranking_json, stage_json
from league.engine.build import BuildReport, check
from league.content.diagnostics import Diagnostic, LeagueError
from tests.util import LEAGUE, squad, team_players, write_content

# Board lines, home pontinhos first, with their hand-worked value for the home pair:
W20 = "12-5 12-5"          # home wins 2x0: pair points 3/0, pontinhos +14
L20 = "5-12 5-12"          # home loses 0x2: pair points 0/3, pontinhos -14
W21 = "12-5 5-12 12-5"     # home wins 2x1: pair points 2/1, pontinhos +7
L21 = "5-12 12-5 5-12"     # home loses 1x2: pair points 1/2, pontinhos -7


def boards(*lines: str) -> str:
    """A flow list of board lines: boards("12-5 12-5", "2-1", …)."""
    return "[" + ", ".join(f'"{b}"' for b in lines) + "]"


def result(home_boards: int, two_zero: bool = True, n: int = 5) -> list[str]:
    """Board lines giving the home team `home_boards` of n boards, every board 2x0 (or every board 2x1)."""
    win, lose = (W20, L20) if two_zero else (W21, L21)
    return [win] * home_boards + [lose] * (n - home_boards)


def match(home: str, away: str, lines: Sequence[str] | None = None, walkover: str | None = None,
          indent: int = 10) -> str:
    """One `- {home, away, boards}` line of a matches: list."""
    pad = " " * indent
    if walkover:
        return f"{pad}- {{home: {home}, away: {away}, walkover: {walkover}}}\n"
    return f"{pad}- {{home: {home}, away: {away}, boards: {boards(*lines)}}}\n"


def team_block(teams: Iterable[str], clubs_of: Mapping[str, str] | None = None, n_pairs: int = 5) -> str:
    out = "teams:\n"
    for t in teams:
        sq = squad(t, n_pairs)
        club = (clubs_of or {}).get(t)
        if club:
            sq = "{club: " + club + ", " + sq[1:]
        out += f"  {t}: {sq}\n"
    return out


def header(name: str = "1ª Etapa", date: str = "2026-03-14", status: str = "final") -> str:
    return f"name: {name}\ndate: {date}\nstatus: {status}\n"


def groups_phase(groups: Mapping[str, tuple[Sequence[str], Sequence[str]]], name: str = "Fase de grupos") -> str:
    """groups: name -> (teams, match lines made by match())."""
    out = f"  - name: {name}\n    groups:\n"
    for g, (teams, matches) in groups.items():
        out += f"      {g}:\n        teams: [{', '.join(teams)}]\n"
        out += "        matches:\n" + "".join(matches) if matches else "        matches: []\n"
    return out


def knockout_phase(rounds: Sequence[tuple], name: str = "Mata-mata") -> str:
    """rounds: (round name, {"for_place": 3} or {"places": [5, 8]} or {}, match lines made by match(indent=10))."""
    out = f"  - name: {name}\n    knockout:\n"
    for rname, opts, matches in rounds:
        out += f"      - round: {rname}\n"
        for k, v in opts.items():
            out += f"        {k}: {v}\n"
        out += "        matches:\n" + "".join(matches)
    return out


def stage(teams: Iterable[str], phases: Sequence[str], status: str = "final", clubs_of=None, tail: str = "",
          name: str = "1ª Etapa", date: str = "2026-03-14", n_pairs: int = 5) -> str:
    return header(name, date, status) + team_block(teams, clubs_of, n_pairs) + "phases:\n" + "".join(phases) + tail


def round_robin_group(teams: Sequence[str], matches: Sequence[str], group: str = "Grupo A",
                      status: str = "final", tail: str = "", **kw) -> str:
    """A stage with a single group and no knockout."""
    return stage(teams, [groups_phase({group: (teams, matches)})], status=status, tail=tail, **kw)


def players_for(teams: Iterable[str], n_pairs: int = 5) -> list[str]:
    return [p for t in teams for pair in team_players(t, n_pairs) for p in pair]


def content(tmp_path: Path, stages: Mapping[str, str], clubs: Sequence[str], teams_not_clubs: Sequence[str] = (),
            season: str | None = None, league: str = LEAGUE, extra_players: Sequence[str] = ()) -> Path:
    """A content tree; `teams_not_clubs` are team ids (like aptru-b) whose squad players must exist too."""
    return write_content(tmp_path, dict(stages), clubs=list(clubs), season=season, league=league,
                         extra_players=list(extra_players) + players_for(teams_not_clubs))


def run(tmp_path: Path, stages: Mapping[str, str], clubs: Sequence[str], **kw) -> BuildReport:
    """Writes the tree and runs `league check`'s engine; fails the test on content errors."""
    root = content(tmp_path, stages, clubs, **kw)
    try:
        return check(root)
    except LeagueError as exc:  # pragma: no cover - shows the diagnostics when a fixture is wrong
        pytest.fail("unexpected content errors:\n" + "\n".join(d.format_text() for d in exc.diagnostics))


def errors(tmp_path: Path, stages: Mapping[str, str], clubs: Sequence[str], **kw) -> list[Diagnostic]:
    """The diagnostics of a tree that must fail."""
    root = content(tmp_path, stages, clubs, **kw)
    with pytest.raises(LeagueError) as info:
        check(root)
    return info.value.diagnostics


def stage_result(report: BuildReport, sid: str = "etapa-1"):
    return next(r for s in report.results.seasons for r in s.stages if r.stage.id == sid)


def stage_data(report: BuildReport, sid: str = "etapa-1") -> dict:
    return stage_json(stage_result(report, sid))


def ranking_data(report: BuildReport, year: str = "2026") -> dict:
    return ranking_json(next(s for s in report.results.seasons if s.season.year == year))


def standings(report: BuildReport, sid: str = "etapa-1", group: int = 0) -> list[dict]:
    return stage_data(report, sid)["groups"][group]["standings"]


def by_team(rows: Sequence[dict]) -> dict:
    return {r["team"]: r for r in rows}


def order(rows: Sequence[dict], key: str = "team") -> list:
    return [r[key] for r in rows]


def places(report: BuildReport, sid: str = "etapa-1") -> list[tuple]:
    """(position, team, ranking points) of the stage classification."""
    return [(p["position"], p["team"], p["ranking_points"]) for p in stage_data(report, sid)["classification"]]


def pair(team: str, i: int) -> list[str]:
    """The sorted players of squad pair i of a team, as in the JSON."""
    return sorted([f"{team}-{i}a", f"{team}-{i}b"])


def warnings(report: BuildReport, code: str, pairs: bool = True) -> list[Diagnostic]:
    """Warnings with that code; pairs=False leaves out those about the pair classification."""
    return [d for d in report.diagnostics if d.level == "warning" and d.code == code
            and (pairs or not d.message.startswith("classificação das duplas"))]


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """1-based line of the nth line of text containing needle (to assert diagnostic lines)."""
    seen = 0
    for i, line in enumerate(text.splitlines(), 1):
        if needle in line:
            seen += 1
            if seen == nth:
                return i
    raise AssertionError(f"{needle!r} not in text")


STAGE_PATH = "content/seasons/2026/truco/{sid}.yaml"
