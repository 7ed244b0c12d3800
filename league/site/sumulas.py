"""The stage-day kit (`league sumulas`): one print-ready scoresheet (súmula, Truco item 8) per match of a stage
still to be played, as a standalone HTML file, one A4 page each.

A sheet follows the stage file: the teams as `home:` and `away:`, the team walkover (`walkover:`), then
`boards:`, one row per board in board order, with the squad pair of each side on that board (as the build
reads the squads), a box for each game's pontinhos, home first, and the board's walkover; so the filled sheet
is typed back into the file line by line, under the group and after the line the sheet names."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import jinja2

from league import i18n
from league.games.truco.schedule import Pending
from league.models import League, Stage, Team
from league.site.paths import default_templates

TEMPLATE = "sumulas.html"
# names longer than these (characters: a pair's two names, a team's) get the sheet's smaller type, so that it
# stays on one page: at 8.5 pt a pair of 44 characters takes three lines of its column, a team of 36 two
DENSE = {"pair": 44, "team": 36}


def sheet_views(league: League, stage: Stage, pending: list[Pending]) -> list[dict]:
    """The view of every sheet, in the order of `pending`."""
    return [_sheet(league, stage, p, i, len(pending)) for i, p in enumerate(pending, start=1)]


def _sheet(league: League, stage: Stage, p: Pending, number: int, total: int) -> dict:
    home, away = stage.teams[p.home], stage.teams[p.away]
    boards = [{"number": b, "home": _pair(league, home, b), "away": _pair(league, away, b)}
              for b in range(1, stage.config.boards + 1)]
    pairs = [len(pair["names"]) for b in boards for pair in (b["home"], b["away"]) if pair]
    return {
        "number": number, "total": total, "phase": p.phase.name if p.phase else None,
        "group": p.group.name if p.group else None, "round": p.round,
        "home": _side(league, home, len(boards)), "away": _side(league, away, len(boards)), "boards": boards,
        "dense": max(pairs, default=0) > DENSE["pair"] or max(len(home.name), len(away.name)) > DENSE["team"],
        "where": _where(stage, p),
    }


def _where(stage: Stage, p: Pending) -> dict:
    """Where the match is typed: the file, the phase and group (with their lines) and, in a group, the line of
    its last match; `kind`: "group", "knockout" (a phase with knockout rounds) or "new" (no such phase yet)."""
    crumbs = [{"name": x.name, "line": x.mark.line} for x in (p.phase, p.group) if x is not None]
    kind = "group" if p.group else ("knockout" if p.phase else "new")
    after = p.after if kind == "group" else None
    return {"path": stage.path, "crumbs": crumbs, "kind": kind, "after_line": after.mark.line if after else None,
            "after": f"{after.home} × {after.away}" if after else None}


def _side(league: League, team: Team, boards: int) -> dict:
    """A team on the sheet: its id (what the file takes), its name, and the pairs of its squad beyond the
    boards (who may come in for a pair of the board order)."""
    return {"id": team.id, "name": team.name,
            "reserves": [_pair(league, team, n) for n in range(boards + 1, len(team.pairs) + 1)]}


def _pair(league: League, team: Team, number: int) -> Optional[dict]:
    """The squad's pair `number` (1-based), with its players' names; None past the end of the squad."""
    if number > len(team.pairs):
        return None
    names = [league.players[pid].name if pid in league.players else pid for pid in team.pairs[number - 1]]
    return {"number": number, "names": " / ".join(names)}


def _environment(templates: Path, locale: str) -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    i18n.install(env, locale)
    env.filters.update(date_br=i18n.date_long)
    return env


def render_sumulas(league: League, stage: Stage, pending: list[Pending], templates: Optional[Path] = None) -> str:
    """The HTML document with a sheet for each pending match (deterministic: the same files give the same bytes)."""
    cfg = stage.config
    host = league.clubs[stage.host].name if stage.host in league.clubs else None
    context = {
        "league": league, "stage": stage, "host": host, "sheets": sheet_views(league, stage, pending),
        "games": 2 * cfg.games_to_win - 1, "games_to_win": cfg.games_to_win, "game_points": cfg.game_points,
    }
    env = _environment(_templates(templates), league.locale)
    return env.get_template(TEMPLATE).render(context)


def _templates(templates: Optional[Path]) -> Path:
    """The folder with the sheets' template: the one given, else the site's (default_templates); a site's own
    copy of the templates made before `league sumulas` existed has none: then league's own."""
    folder = Path(templates) if templates else default_templates()
    if (folder / TEMPLATE).exists():
        return folder
    return Path(__file__).resolve().parents[2] / "templates"   # league's own (league.site.paths.default_templates)
