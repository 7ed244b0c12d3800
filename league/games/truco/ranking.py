"""From results to places and points: stage classification (Truco 3, 11), ranking points with shared
places averaged (12.1), club score = best-placed team, pair points (12.2), annual rankings with countback."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Optional, Sequence

from league.models import Stage
from league.standings.core import Metric, RankContext, Ranked, Row, countback, rank
from league.standings.criteria import ANNUAL_ORDER, make
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


class _StageRanker:
    """Orders teams by the standings criteria over all their matches in the stage (Truco 10.1, 11), after
    the leading criteria it is given; keeps the notes met and the draws used."""

    def __init__(self, stage: Stage, used_draws: set):
        self.stage = stage
        self.matches = stage.matches
        self.used_draws = used_draws
        self.notes: list = []

    def __call__(self, keys, first, extra) -> list[Ranked]:
        stage = self.stage
        ranked, ctx = rank_teams(keys, self.matches, stage.config.team_tiebreaks, stage.draws, first=first,
                                 extra=extra)
        self.notes.extend((k, c, m, "classificação da etapa") for k, c, m in ctx.notes)
        self.used_draws.update(ctx.used_draws)
        return ranked


def classify(stage: Stage) -> StageResult:
    """Stage places 1..N (Truco 3, 11, 12.1): override, placement matches, elimination round, group
    position, then the standings criteria over all the team's matches in the stage; disqualified last."""
    if stage.final_places is not None:
        return _published(stage)
    groups, group_pos, notes, used_ids = group_tables(stage)
    rank_in_stage = _StageRanker(stage, used_ids)
    dq_teams = {d.team for d in stage.disqualified if d.team}
    computed = _computed_order(rank_in_stage, group_pos, "group" if groups else "standings", dq_teams)
    classification, overridden = _ranking_points(stage, computed, dq_teams)
    pair_places, pctx, pair_team = _pair_places(stage, rank_in_stage.matches, dq_teams)
    notes += rank_in_stage.notes + [(k, c, m, "classificação das duplas") for k, c, m in pctx.notes]
    used = used_ids | pctx.used_draws
    unused = [d for d in stage.draws if id(d) not in used]
    return StageResult(stage, groups, classification, overridden, pair_places, pair_team, notes, unused)


def _published(stage: Stage) -> StageResult:
    """A stage known only by its final places (history): the places as published, a shared place sharing
    its points as any unresolved tie does; no groups, no pairs. # Truco 12.1"""
    places, position = [], 1
    for shared in stage.final_places:
        places += [Place(t, position, len(shared) > 1, how="published") for t in shared]
        position += len(shared)
    _award(places, stage.config.ranking_points, stage.is_final)
    return StageResult(stage, [], places, None, [], {}, [], [])


def _computed_order(rank_in_stage: _StageRanker, group_pos: dict, group_how: str, dq_teams: set) -> list[Place]:
    """The classification computed from the results: knockout teams first, then the others by their group
    position, the disqualified ones last."""
    stage = rank_in_stage.stage
    rounds = [r for ph in stage.phases for r in ph.rounds]
    ko_teams = [t for t in stage.teams if any(t in (m.home, m.away) for r in rounds for m in r.matches)]
    order = _knockout_places(rank_in_stage, rounds, ko_teams, dq_teams)
    others = [t for t in stage.teams if t not in ko_teams and t not in dq_teams]
    order += _group_places(rank_in_stage, others, group_pos, len(ko_teams) + 1, group_how)
    return _disqualified_last(rank_in_stage, list(stage.teams), order, dq_teams)


def _placement_matches(rounds) -> dict[int, Any]:
    """Places fixed by placement matches: a `for_place: P` match gives its winner P, its loser P+1."""
    fixed = {}
    for r in rounds:
        if r.for_place:
            for m in r.matches:
                fixed[r.for_place] = m.winner
                fixed[r.for_place + 1] = m.loser
    return fixed


def _elimination_rounds(rounds, ko_teams) -> dict:
    """The round each knockout team fell in (index; a later round ranks first); one past the last for the
    teams no round eliminated. Placement brackets eliminate nobody."""
    elim = dict.fromkeys(ko_teams, len(rounds) + 1)
    for r in rounds:
        if r.eliminates:
            for m in r.matches:
                elim[m.loser] = r.index
    return elim


def _knockout_places(rank_in_stage: _StageRanker, rounds, ko_teams, dq_teams: set) -> list[Place]:
    """Knockout teams: placement matches fix their places; the others fill the free places by the round
    they fell in, then by the standings criteria over the stage."""
    fixed = _placement_matches(rounds)
    fixed_teams = set(fixed.values())
    elim = _elimination_rounds(rounds, ko_teams)
    rest = [t for t in ko_teams if t not in fixed_teams and t not in dq_teams]
    rest_ranked = rank_in_stage(rest, [_Ahead("eliminated_in")],
                                {t: {"eliminated_in": elim[t]} for t in rest}) if rest else []
    return _around_fixed(fixed, _places_from_ranked(rest_ranked, "knockout"), len(ko_teams))


def _around_fixed(fixed: dict, rest: list[Place], n: int) -> list[Place]:
    """Places 1..n: the fixed ones at their place, the others in their order in the free places in between
    (teams tied among themselves keep sharing the first free place they reach)."""
    rest_iter = iter(rest)
    filled: list[Place] = []
    offset_map: dict[int, int] = {}
    for pos in range(1, n + 1):
        if pos in fixed:
            filled.append(Place(fixed[pos], pos, False, how="placement"))
            continue
        p = next(rest_iter, None)
        if p is None:
            break
        offset_map.setdefault(p.position, pos)
        p.position = offset_map[p.position]
        filled.append(p)
    return filled + list(rest_iter)


def _group_places(rank_in_stage: _StageRanker, others: list, group_pos: dict, start: int,
                  how: str) -> list[Place]:
    """Teams that did not reach the knockout, from place `start`: by their position in their group (all
    group winners, then all seconds, …; a later phase first), then the standings criteria over the stage."""
    if not others:
        return []
    extra = {t: {"group_position": (-group_pos[t][0], group_pos[t][1]) if t in group_pos else (1, 10 ** 6)}
             for t in others}
    ranked = rank_in_stage(others, [_Ahead("group_position", ascending=True)], extra)
    return _places_from_ranked(ranked, how, start=start)


def _disqualified_last(rank_in_stage: _StageRanker, teams: list, order: list[Place],
                       dq_teams: set) -> list[Place]:
    """The computed classification: disqualified teams go last, ranked among themselves (Truco 4.12,
    decision: no ranking points)."""
    kept = [p for p in order if p.key not in dq_teams]
    dq_keys = [t for t in teams if t in dq_teams]
    dq = _places_from_ranked(rank_in_stage(dq_keys, [], {}), "disqualified") if dq_keys else []
    computed = _renumber(kept) + _renumber(dq, start=len(kept) + 1, how="disqualified")
    for p in computed:
        p.disqualified = p.key in dq_teams
    return computed


def _ranking_points(stage: Stage, computed: list[Place], dq_teams: set) -> tuple[list[Place], Optional[list[Place]]]:
    """Ranking points by place (Truco 12.1); returns the classification in force and, when the stage file
    overrides it (`classification:`), the computed one kept beside it."""
    table, final = stage.config.ranking_points, stage.is_final
    if not stage.override:
        _award(computed, table, final)
        return computed, None
    classification = [Place(t, i + 1, False, how="override", disqualified=t in dq_teams)
                      for i, t in enumerate(stage.override.order)]
    _award(computed, table, final)
    _award(classification, table, final)
    return classification, computed


def _pair_places(stage: Stage, matches, dq_teams: set) -> tuple[list[Place], RankContext, dict]:
    """The pairs' classification and points (Truco 10.3, 12.2); pairs disqualified, or of a disqualified
    team, go last."""
    cfg = stage.config
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
    return pair_places, pctx, pair_team


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
    _mark_shared(out)
    return out


def _mark_shared(places: list[Place]) -> None:
    """`tied` only where a neighbour shares the position; the last entry is decided against no one."""
    for i, p in enumerate(places):
        p.tied = (i > 0 and places[i - 1].position == p.position) or \
                 (i + 1 < len(places) and places[i + 1].position == p.position)
    if places:
        places[-1].decided_by = None
        places[-1].boundary = None


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
    rows = {key: _annual_row(key, per_stage) for key, per_stage in entries.items()}
    ctx = RankContext(rows=rows)
    ranked = rank(sorted(rows, key=str), make(ANNUAL_ORDER), ctx)
    return [_annual_entry(r, entries[r.key], stage_ids) for r in ranked]


def _annual_row(key, per_stage: dict) -> Row:
    """The year's total points and the places for the countback."""
    total = sum((pts for _, pts in per_stage.values()), Decimal(0))
    return Row(key, {"points": total, "countback": countback([pl for pl, _ in per_stage.values() if pl])})


def _annual_entry(r: Ranked, per: dict, stage_ids: Sequence[str]) -> AnnualEntry:
    """One line of the annual ranking: the points of each stage where some were scored, the place in each."""
    return AnnualEntry(r.key, r.position, r.tied, r.row["points"],
                       {s: per[s][1] for s in stage_ids if s in per and per[s][1] > 0},
                       {s: per[s][0] for s in stage_ids if s in per},
                       r.decided_by, r.boundary)


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
