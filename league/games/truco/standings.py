"""Truco standings: team and pair metrics over a scope of matches (Truco 10.1, 10.3) and their precedence."""
from __future__ import annotations

from typing import Iterable, Optional, Sequence

from league.models import Match, PairId
from league.games.truco.rules import pair_points, pontinhos
from league.standings.core import Criterion, Encounter, RankContext, Ranked, Row, rank
from league.standings.criteria import make

METRIC_KEYS = ("played", "wins", "losses", "points", "pair_points_balance", "pontinhos_balance")


def criteria(keys: Sequence[str]) -> list[Criterion]:
    """The precedence named in league.yaml as criterion objects (league.standings.criteria). # Truco 10.1"""
    return make(keys)


def _blank(key) -> Row:
    return Row(key, {"played": 0, "wins": 0, "losses": 0, "points": 0, "pair_points_balance": 0,
                     "pontinhos_balance": 0})


def match_balances(m: Match) -> tuple[Optional[int], Optional[int]]:
    """(pair points, pontinhos) of the home team minus the away team's, summed over the boards; the
    pontinhos None when a board's are unknown (only its result written), both None for a match known by its
    team result alone (history: its boards are unknown).
    # Truco 10.3 (pair points), 10.1 (saldo dos pontinhos)"""
    if m.result is not None:
        return None, None
    pp = 0
    pt: Optional[int] = 0
    for b in m.boards:
        hp, ap = pair_points(b)
        pp += hp - ap
        if pt is not None:
            got = pontinhos(b)
            pt = None if got is None else pt + got[0] - got[1]
    return pp, pt


def team_rows(teams: Iterable[str], matches: Iterable[Match]) -> dict[str, Row]:
    """Per team: matches played and won, team points (boards won, Truco 9.1), pair-point balance (10.3)
    and pontinhos balance (10.1); the pontinhos balance is None when a board's pontinhos are unknown."""
    rows = {t: _blank(t) for t in teams}
    for m in matches:
        pp, pt = match_balances(m)
        winner = m.winner
        for team, sign in ((m.home, 1), (m.away, -1)):
            row = rows.get(team)
            if row is None:
                continue
            r = row.values
            r["played"] += 1
            if winner == team:
                r["wins"] += 1
            else:
                r["losses"] += 1
            r["points"] += m.points_of(team)
            _add_balance(r, "pair_points_balance", pp, sign)
            _add_balance(r, "pontinhos_balance", pt, sign)
    return rows


def _add_balance(r: dict, key: str, value: Optional[int], sign: int) -> None:
    """A match's balance added to a team's, which stays None (unknown) once one match's is unknown: a tie
    that needs it is reported, never guessed (data-format.md, history). # Truco 10.1"""
    if value is None or r[key] is None:
        r[key] = None
    else:
        r[key] += sign * value


def team_encounters(matches: Iterable[Match]) -> list[Encounter]:
    return [Encounter(m.home, m.away, m.home_points, m.away_points) for m in matches]


def rank_teams(teams: Sequence[str], matches: Sequence[Match], tiebreaks: Sequence[str], draws=(),
               first: Sequence[Criterion] = (), extra: dict | None = None) -> tuple[list[Ranked], RankContext]:
    """Standings of teams over a scope. `first` criteria (group position, elimination round) come before
    the configured tiebreaks; `extra` adds per-team values they read."""
    rows = team_rows(teams, matches)
    if extra:
        for t, vals in extra.items():
            if t in rows:
                rows[t].values.update(vals)
    ctx = RankContext(rows=rows, encounters=team_encounters(matches),
                      draws=[d for d in draws if all(isinstance(x, str) for x in d.members)])
    return rank(list(teams), list(first) + criteria(tiebreaks), ctx), ctx


def pair_rows(matches: Iterable[Match], pair_team: dict) -> tuple[dict[PairId, Row], list[Encounter]]:
    """Per pair over its boards: played (boards), wins, points (pair points, Truco 10.3), balances."""
    rows: dict[PairId, Row] = {}
    enc: list[Encounter] = []
    for m in matches:
        for b in m.boards:
            hp, ap = pair_points(b)
            pt = pontinhos(b)
            home, away = b.home_pair, b.away_pair
            if home is not None:
                _count_board(rows, pair_team, home, m.home, hp, ap, b.home_won,
                             None if pt is None else pt[0] - pt[1])
            if away is not None:
                _count_board(rows, pair_team, away, m.away, ap, hp, not b.home_won,
                             None if pt is None else pt[1] - pt[0])
                if home is not None:
                    enc.append(Encounter(home, away, hp, ap))
    return rows, enc


def _count_board(rows: dict, pair_team: dict, pair: PairId, team: str, mine: int, theirs: int, won: bool,
                 pontinhos_balance: Optional[int]) -> None:
    """One board in its pair's row (the pair's first team noted in pair_team); the pontinhos balance stays
    None once a board's pontinhos are unknown. # Truco 10.3 (pair points), 10.1 (saldo dos pontinhos)"""
    pair_team.setdefault(pair, team)
    row = rows.get(pair)
    if row is None:   # (not setdefault: a blank row made for every board, kept for the first)
        row = rows[pair] = _blank(pair)
    r = row.values
    r["played"] += 1
    r["wins"] += 1 if won else 0
    r["losses"] += 0 if won else 1
    r["points"] += mine
    r["pair_points_balance"] += mine - theirs
    if pontinhos_balance is None or r["pontinhos_balance"] is None:
        r["pontinhos_balance"] = None
    else:
        r["pontinhos_balance"] += pontinhos_balance


def rank_pairs(matches: Sequence[Match], tiebreaks: Sequence[str], draws=()) -> tuple[list[Ranked], RankContext, dict]:
    """Pair standings of a stage over all boards (Truco 12.2, decision truco.pair_tiebreaks)."""
    pair_team: dict = {}
    rows, enc = pair_rows(matches, pair_team)
    ctx = RankContext(rows=rows, encounters=enc,
                      draws=[d for d in draws if all(isinstance(x, tuple) for x in d.members)])
    order = sorted(rows)
    return rank(order, criteria(tiebreaks), ctx, tie_order=lambda p: p), ctx, pair_team
