"""From results to places and points: stage classification (Truco 3, 11), ranking points with shared
places averaged (12.1), club score = best-placed team, pair points (12.2), annual rankings with countback."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Optional, Sequence

from league.models import Stage
from league.standings.core import Metric, RankContext, Ranked, Row, countback, rank
from league.games.truco.standings import rank_pairs, rank_teams


@dataclass
class Place:
    """One line of a classification: who, where, tied or not, points earned, and why it is there."""

    key: Any
    position: int
    tied: bool
    points: Decimal = Decimal(0)
    decided_by: Optional[str] = None
    boundary: Any = None
    how: str = ""                 # final | placement | knockout | group | override | disqualified | standings
    disqualified: bool = False
    row: Optional[Row] = None
    extra: dict = field(default_factory=dict)


@dataclass
class GroupTable:
    phase: str
    name: str
    ranked: list[Ranked]
    mark: Any


@dataclass
class StageResult:
    stage: Stage
    groups: list[GroupTable]
    classification: list[Place]
    computed: Optional[list[Place]]     # the computed order, when an override is in force
    pairs: list[Place]
    pair_team: dict
    notes: list                         # (kind, detail, members, scope) problems met while ranking
    unused_draws: list


def shared_points(table: Sequence, first: int, count: int) -> Decimal:
    """Mean of the points of places first..first+count-1, 2 decimals; places beyond the table earn 0.
    # Truco 12.1 (decision: a tie left unresolved shares the places)"""
    pts = [Decimal(str(table[p - 1])) if p - 1 < len(table) else Decimal(0) for p in range(first, first + count)]
    return (sum(pts) / count).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP).normalize() if count else Decimal(0)


_ZERO = Decimal(0)
_POINTS: dict = {}   # one Decimal per distinct value and form (str: 2E+1 and 20 are equal but print apart)


def _award(places: list[Place], table: Sequence, final: bool) -> None:
    """Ranking points by place, shared places averaged; nothing for a stage not final or a disqualified entry."""
    i = 0
    while i < len(places):
        j = i
        while j + 1 < len(places) and places[j + 1].position == places[i].position and places[i].tied:
            j += 1
        count = j - i + 1
        pts = shared_points(table, places[i].position, count) if final else _ZERO
        pts = _POINTS.setdefault(str(pts), pts)
        for p in places[i:j + 1]:
            p.points = _ZERO if p.disqualified else pts
        i = j + 1


def _places_from_ranked(ranked: Sequence[Ranked], how: str, start: int = 1) -> list[Place]:
    return [Place(r.key, r.position + start - 1, r.tied, decided_by=r.decided_by, boundary=r.boundary,
                  how=how, row=r.row) for r in ranked]


def rank_without(keys, dq: set, do_rank) -> tuple[list[Ranked], list]:
    """Rank the entries still in competition, then the disqualified ones after them (Truco 4.12): a
    disqualified team leaves any tie it was in, so the others are ranked again without it."""
    kept = [k for k in keys if k not in dq]
    gone = [k for k in keys if k in dq]
    out, ctxs = [], []
    for part in (kept, gone):
        if not part:
            continue
        ranked, ctx = do_rank(part)
        ctxs.append(ctx)
        if out:
            out[-1] = replace(out[-1], decided_by=None, boundary=None)
            ranked = [replace(r, position=r.position + len(out)) for r in ranked]
        out += ranked
    return out, ctxs


def group_tables(stage: Stage) -> tuple[list[GroupTable], dict, list, set]:
    """Standings of every group (Truco 10.1); returns them, each team's (phase, position), and notes."""
    tables, positions, notes, used = [], {}, [], set()
    dq = {d.team for d in stage.disqualified if d.team}
    for pi, phase in enumerate(stage.phases):
        for g in phase.groups:
            ranked, ctxs = rank_without(g.teams, dq, lambda keys: rank_teams(
                keys, g.matches, stage.config.team_tiebreaks, stage.draws))
            tables.append(GroupTable(phase.name, g.name, ranked, g.mark))
            for ctx in ctxs:
                notes += [(k, c, m, f"{phase.name} — {g.name}") for k, c, m in ctx.notes]
                used |= ctx.used_draws
            for r in ranked:
                positions[r.key] = (pi, r.position)
    return tables, positions, notes, used


class _Ahead(Metric):
    """A leading criterion computed by the classification itself (group position, elimination round)."""


def classify(stage: Stage) -> StageResult:
    """Stage places 1..N (Truco 3, 11, 12.1): override, placement matches, elimination round, group
    position, then the standings criteria over all the team's matches in the stage; disqualified last."""
    cfg = stage.config
    groups, group_pos, notes, used_ids = group_tables(stage)
    matches = stage.matches
    dq_teams = {d.team for d in stage.disqualified if d.team}
    teams = list(stage.teams)
    rounds = [r for ph in stage.phases for r in ph.rounds]
    ko_teams = [t for t in teams if any(t in (m.home, m.away) for r in rounds for m in r.matches)]
    fixed: dict[int, str] = {}
    for r in rounds:  # a for_place match: winner P, loser P+1
        if r.for_place:
            for m in r.matches:
                fixed[r.for_place] = m.winner
                fixed[r.for_place + 1] = m.loser
    fixed_teams = set(fixed.values())
    alive = len(rounds) + 1
    elim = {t: alive for t in ko_teams}
    for r in rounds:
        if r.eliminates:
            for m in r.matches:
                elim[m.loser] = r.index
    ctx_notes: list = []

    def stage_rank(keys, first, extra, how):
        ranked, ctx = rank_teams(keys, matches, cfg.team_tiebreaks, stage.draws, first=first, extra=extra)
        ctx_notes.extend((k, c, m, "classificação da etapa") for k, c, m in ctx.notes)
        used_ids.update(ctx.used_draws)
        return ranked

    order: list[Place] = []
    # knockout teams: placement matches fix places; the others by the round they fell in
    rest = [t for t in ko_teams if t not in fixed_teams and t not in dq_teams]
    rest_ranked = stage_rank(rest, [_Ahead("eliminated_in")], {t: {"eliminated_in": elim[t]} for t in rest},
                             "knockout") if rest else []
    rest_iter = iter(_places_from_ranked(rest_ranked, "knockout"))
    n_ko = len(ko_teams)
    filled: list[Place] = []
    offset_map: dict[int, int] = {}
    pos = 1
    while pos <= n_ko:
        if pos in fixed:
            filled.append(Place(fixed[pos], pos, False, how="placement"))
            pos += 1
            continue
        p = next(rest_iter, None)
        if p is None:
            break
        offset_map.setdefault(p.position, pos)
        p.position = offset_map[p.position]
        filled.append(p)
        pos += 1
    filled += list(rest_iter)
    order += filled
    # teams that did not reach the knockout: group position, then the criteria over the stage
    others = [t for t in teams if t not in ko_teams and t not in dq_teams]
    if others:
        extra = {t: {"group_position": (-group_pos[t][0], group_pos[t][1]) if t in group_pos else (1, 10 ** 6)}
                 for t in others}
        ranked = stage_rank(others, [_Ahead("group_position", ascending=True)], extra, "group")
        order += _places_from_ranked(ranked, "group" if groups else "standings", start=n_ko + 1)
    # disqualified teams go last (Truco 4.12, decision: no ranking points), ranked among themselves
    computed = [p for p in order if p.key not in dq_teams]
    dq_keys = [t for t in teams if t in dq_teams]
    dq = _places_from_ranked(stage_rank(dq_keys, [], {}, "disqualified"), "disqualified") if dq_keys else []
    computed = _renumber(computed) + _renumber(dq, start=len(computed) + 1, how="disqualified")
    for p in computed:
        p.disqualified = p.key in dq_teams
    # ranking points
    classification = computed
    overridden = None
    if stage.override:
        overridden = computed
        classification = [Place(t, i + 1, False, how="override", disqualified=t in dq_teams)
                          for i, t in enumerate(stage.override.order)]
        _award(overridden, cfg.ranking_points, stage.is_final)
    _award(classification, cfg.ranking_points, stage.is_final)
    # pairs
    pairs_ranked, pctx, pair_team = rank_pairs(matches, cfg.pair_tiebreaks, stage.draws)
    dq_pairs = {d.pair for d in stage.disqualified if d.pair}
    dq_pairs |= {p for p, t in pair_team.items() if t in dq_teams}
    pair_places = _places_from_ranked(pairs_ranked, "standings")
    kept = [p for p in pair_places if p.key not in dq_pairs]
    gone = [p for p in pair_places if p.key in dq_pairs]
    pair_places = _renumber(kept) + _renumber(gone, start=len(kept) + 1, how="disqualified")
    for p in pair_places:
        p.disqualified = p.key in dq_pairs
    _award(pair_places, cfg.ranking_points, stage.is_final)
    notes += ctx_notes + [(k, c, m, "classificação das duplas") for k, c, m in pctx.notes]
    used = used_ids | pctx.used_draws
    unused = [d for d in stage.draws if id(d) not in used]
    return StageResult(stage, groups, classification, overridden, pair_places, pair_team, notes, unused)


def _renumber(places: list[Place], start: int = 1, how: str | None = None) -> list[Place]:
    """Positions start.. again after entries were moved out, keeping ties shared; `tied` only where a
    neighbour still shares the position."""
    out = []
    prev_old, prev_new = None, None
    for i, p in enumerate(places):
        if prev_old is not None and p.position == prev_old and p.tied:
            p.position = prev_new
        else:
            prev_old = p.position
            p.position = start + i
            prev_new = p.position
        if how:
            p.how = how
        out.append(p)
    for i, p in enumerate(out):
        p.tied = (i > 0 and out[i - 1].position == p.position) or \
                 (i + 1 < len(out) and out[i + 1].position == p.position)
    if out:
        out[-1].decided_by = None
        out[-1].boundary = None
    return out


# ---------------------------------------------------------------- annual rankings (Truco 12.1, 12.2)

@dataclass
class AnnualEntry:
    key: Any
    position: int
    tied: bool
    points: Decimal
    stages: dict          # stage id -> points scored there (only where > 0)
    places: dict          # stage id -> place in that stage
    decided_by: Optional[str]
    boundary: Any


def annual_ranking(entries: dict, stage_ids: Sequence[str]) -> list[AnnualEntry]:
    """Sum of stage points; ties by countback (more 1st places, then 2nd, …), then shared.
    entries: key -> {stage id: (place, points)}. # Truco 12.1, 12.2; decision: countback"""
    rows = {}
    for key, per_stage in entries.items():
        total = sum((pts for _, pts in per_stage.values()), Decimal(0))
        rows[key] = Row(key, {"points": total, "countback": countback([pl for pl, _ in per_stage.values() if pl])})
    ctx = RankContext(rows=rows)
    ranked = rank(sorted(rows, key=str), [Metric("points"), Metric("countback")], ctx)
    out = []
    for r in ranked:
        per = entries[r.key]
        out.append(AnnualEntry(r.key, r.position, r.tied, r.row["points"],
                               {s: per[s][1] for s in stage_ids if s in per and per[s][1] > 0},
                               {s: per[s][0] for s in stage_ids if s in per},
                               r.decided_by, r.boundary))
    return out


def club_entries(results: Sequence[StageResult]) -> dict:
    """Club stage score = points of its best-placed team in that stage (decision, Truco 12.1)."""
    entries: dict = {}
    for res in results:
        if not res.stage.is_final:
            continue
        best: dict = {}
        for p in res.classification:
            club = res.stage.teams[p.key].club
            cur = best.get(club)
            if cur is None or (not p.disqualified and (cur.disqualified or p.position < cur.position)):
                best[club] = p
        for club, p in best.items():
            place = None if p.disqualified else p.position
            entries.setdefault(club, {})[res.stage.id] = (place, p.points)
    return entries


def pair_entries(results: Sequence[StageResult]) -> dict:
    """A pair's own points in each final stage, whatever team it played for (Truco 12.2)."""
    entries: dict = {}
    for res in results:
        if not res.stage.is_final:
            continue
        for p in res.pairs:
            place = None if p.disqualified else p.position
            entries.setdefault(p.key, {})[res.stage.id] = (place, p.points)
    return entries
