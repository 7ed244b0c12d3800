"""The stage page's anchors (a match: `jogo-<home>-<away>`, a group: `grupo-a`) and each pair's own boards in a
stage, from the pair's side: what the pair and player pages list, each board linking to its match on the
stage page. Plain data (ids, numbers): league.site.views puts the names on them, and the pair pages' keys
(league.engine.incremental.stage_signatures) are made of the same data."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from typing import NamedTuple, Optional

from markupsafe import Markup, escape

from league.games.truco.rules import pair_points
from league.models import PairId, Stage


def _slug(text: str) -> str:
    """"Grupo Ásia 2" → grupo-asia-2 (as content.validate.slugify, which would import pydantic here)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-") or "g"


def _unique(base: str, used: set) -> str:
    """base, or base-2, base-3… when an earlier match or group of the page took it."""
    got, n = base, 1
    while got in used:
        n += 1
        got = f"{base}-{n}"
    used.add(got)
    return got


def stage_anchors(stage: Stage) -> tuple[dict, dict]:
    """({match id: anchor}, {(phase index, group name): anchor}) of a stage page. A match is
    `jogo-<home>-<away>` (team ids), a group `grupo-<its name>` ("Grupo A" → grupo-a), each unique on the
    page: a second match between the same home and away teams (a knockout rematch) is `jogo-<home>-<away>-2`,
    in the order of the file. Only the stage's own teams and group names make them: editing a score never
    moves an anchor."""
    used: set = set()
    groups: dict = {}
    matches: dict = {}
    for pi, ph in enumerate(stage.phases):
        for g in ph.groups:
            slug = _slug(g.name)
            groups[(pi, g.name)] = _unique(slug if slug.startswith("grupo") else f"grupo-{slug}", used)
    for m in stage.matches:
        matches[m.id] = _unique(f"jogo-{m.home}-{m.away}", used)
    return matches, groups


class PairBoard(NamedTuple):
    """One board a pair played, from its side."""
    anchor: str                      # its match on the stage page (stage_anchors)
    where: str                       # the group or knockout round
    team: str                        # the pair's team
    opponent_team: str
    opponent: Optional[PairId]       # None: no pair named on the other side
    games: str                       # the game scores, the pair's pontinhos first ("12-7 9-12 12-10"); "W.O."
    points: tuple[int, int]          # pair points (the pair's, the opponent's): Truco 10.3
    won: bool
    match_points: tuple[int, int]    # the team match's result (the pair's team first): Truco 9.1


def _games_from(board, home: bool) -> str:
    """The board's game scores, the given side's pontinhos first."""
    if board.walkover:
        return "W.O."
    if home:
        return board.score_text
    if board.games is None:
        return f"{board.away_games}-{board.home_games}"
    return " ".join(f"{a}-{h}" for h, a in board.games)


def _round_names(stage: Stage) -> dict:
    return {r.index: r.name for ph in stage.phases for r in ph.rounds}


def stage_boards(stage: Stage) -> StageBoards:
    """{pair: its boards in the stage, in the order of the file}. # Truco 10.3 (pair points), 9.1 (team result)"""
    return StageBoards(stage)


class StageBoards(Mapping):
    """{pair: its boards in the stage (PairBoard), in the order of the file}, each pair's made when first asked
    for: a rebuild after a score change renders a few player pages, each listing the player's boards across
    every season, and needs a few pairs of each of ~100 stages, not the ~1,000 boards of each made. Which
    pairs played which boards is found at once (one pass over the stage's matches)."""

    def __init__(self, stage: Stage):
        self._stage = stage
        self._played: dict = {}   # pair → [(match, board, whether it sat at home)]
        for m in stage.matches:
            for b in m.boards:
                if b.home_pair is not None:
                    self._played.setdefault(b.home_pair, []).append((m, b, True))
                if b.away_pair is not None:
                    self._played.setdefault(b.away_pair, []).append((m, b, False))
        self._made: dict = {}
        self._names = None        # (match anchors, round names), once the first pair is made

    def __getitem__(self, pair: PairId) -> list[PairBoard]:
        got = self._made.get(pair)
        if got is None:
            played = self._played[pair]   # (KeyError: a pair that played no board here)
            if self._names is None:
                self._names = stage_anchors(self._stage)[0], _round_names(self._stage)
            got = self._made[pair] = [self._board(m, b, home) for m, b, home in played]
        return got

    def _board(self, m, b, home: bool) -> PairBoard:
        anchors, rounds = self._names
        hp, ap = pair_points(b)
        return PairBoard(anchors[m.id], m.group if m.group is not None else rounds.get(m.round, ""),
                         m.home if home else m.away, m.away if home else m.home,
                         b.away_pair if home else b.home_pair, _games_from(b, home),
                         (hp, ap) if home else (ap, hp), b.home_won == home,
                         (m.home_points, m.away_points) if home else (m.away_points, m.home_points))

    def __iter__(self) -> Iterator[PairId]:
        return iter(self._played)

    def __len__(self) -> int:
        return len(self._played)


# ---------------------------------------------------------------- the pair and player pages' lists

def _board_rows(site, st, pair) -> list[tuple]:
    """The pair's boards in a stage as its page lists them, each row's cells escaped (as the templates
    escape, with markupsafe), for _row_html. The board rows are the site's most numerous HTML — a pair's page
    and its two players' pages list each of them, ~600,000 rows on the 20-season archive — so they are
    written by league's code, not by a Jinja2 loop of ten escaped values a row: the pair and player pages
    render in less than half the time. The cells: the opposing pair's name (linked, when a pair is named)
    and its team, the class of the pair points' cell (a board won stands out), the pair points, the game
    scores (the pair's first), the link to the match and its text ("Grupo D: 2x3"). Kept for the build (the
    pair's page and its players' pages list the same rows), as tuples of texts most rows share: a row's
    HTML is made by the page that shows it."""
    memo = site.__dict__.setdefault("_board_rows", {})
    key = (st.path, pair)
    got = memo.get(key)
    if got is None:
        url = site.stage_url(st)
        esc = site.__dict__.get("_escaped")   # a text escaped once for the build: names, teams, scores…
        if esc is None:
            esc = site.__dict__["_escaped"] = _Escaped()
        opponents = site.__dict__.setdefault("_opponent_cells", {})   # pair → its linked name, once
        teams = st.teams
        got = memo[key] = [
            (_opponent(site, b.opponent, opponents) if b.opponent else "—", esc[teams[b.opponent_team].name],
             "total win" if b.won else "total", esc[f"{b.points[0]}–{b.points[1]}"], esc[b.games],
             esc[f"{url}#{b.anchor}"], esc[f"{b.where}: {b.match_points[0]}x{b.match_points[1]}"])
            for b in site.boards(st).get(pair, ())]
    return got


def make_board_rows(site, pairs) -> None:
    """The board rows (_board_rows) of these pairs, in every stage each played, made now. A build that renders
    in several processes makes them before it forks (SitePlan.make_shared): a pair's rows are listed by its
    page and by its two players' pages, which the processes take in turns, so each process made most of them
    again on its own."""
    for pair in pairs:
        for _sr, res, _p in site.pair_hist.get(pair, ()):
            _board_rows(site, res.stage, pair)


class _Escaped(dict):
    """{text: the text escaped as the templates escape it (markupsafe)}, each escaped when first asked for."""

    def __missing__(self, text: str) -> str:
        got = self[text] = str(escape(text))
        return got


def _opponent(site, pair: PairId, cells: dict) -> str:
    """The opposing pair's cell: its name, linked to its page (kept in `cells`)."""
    got = cells.get(pair)
    if got is None:
        got = cells[pair] = f'<a href="{escape(site.pair_url(pair))}">{escape(site.pair_name(pair))}</a>'
    return got


def _row_html(cells: tuple, mate: str = "") -> str:
    """A row of macros.html board_list; `mate`: the partner's cell (a player's page with more than one pair)."""
    opponent, team, cls, points, games, href, match = cells
    return (f'<tr><th scope="row">{opponent} <small class="club">{team}</small></th><td class="{cls}">{points}</td>'
            f'<td class="games">{games}</td>{mate}<td><a href="{href}">{match}</a></td></tr>')


def _by_season(stages: list) -> list[dict]:
    """[(season result, stage result, rows)] → [{season, stages: [{stage, url, team, final, boards}]}], the
    newest season and stage first; `boards`: the table's rows, one a line (as a loop in the template would
    write them)."""
    stages = sorted(stages, key=lambda e: (e[1].stage.date, e[1].stage.id), reverse=True)
    out: list = []
    for sr, res, rows in stages:
        if not out or out[-1]["season"] is not sr.season:
            out.append({"season": sr.season, "stages": []})
        st = res.stage
        out[-1]["stages"].append({"stage": st, "url": rows[1], "team": st.teams[rows[2]].name,
                                  "final": st.is_final, "status": st.status,
                                  "boards": Markup("".join([f"      {row}\n" for row in rows[0]]))})
    return out


def pair_games(site, pair) -> list[dict]:
    """Every board a pair played, stage by stage (the newest first), each linking to its match: the rows'
    HTML (_board_rows), with no partner's cell."""
    stages = []
    for sr, res, _p in site.pair_hist.get(pair, ()):
        rows = _board_rows(site, res.stage, pair)
        if rows:
            team = site.boards(res.stage)[pair][0].team
            stages.append((sr, res, ([_row_html(r) for r in rows], site.stage_url(res.stage), team)))
    return _by_season(stages)


def player_games(site, pid: str) -> list[dict]:
    """Every board a player played, stage by stage (the newest first): the rows' HTML (_board_rows), with the
    partner's cell when the player has had more than one partner (the page's `partner` column)."""
    by_stage: dict = {}
    pairs = site.player_pairs.get(pid, ())
    for pair in sorted(pairs):
        partner = pair[0] if pair[1] == pid else pair[1]
        mate = (f'<td><a href="{escape(site.player_url(partner))}">{escape(site.player_name(partner))}</a></td>'
                if len(pairs) > 1 else "")
        for sr, res, _p in site.pair_hist[pair]:
            rows = _board_rows(site, res.stage, pair)
            if not rows:
                continue
            team = site.boards(res.stage)[pair][0].team
            got = by_stage.setdefault(res.stage.path, (sr, res, ([], site.stage_url(res.stage), team)))
            got[2][0].extend([_row_html(r, mate) for r in rows])
    return _by_season(list(by_stage.values()))
