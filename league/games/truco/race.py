"""The title race of an annual ranking (Truco 12.1 clubs, 12.2 pairs; decision: ties by countback): who is
champion, who can still be, who can no longer be, the points still to play, and how far each entry moved
since the previous final stage.

Exact and conservative, from what the season's files say and nothing else:
- the stages left are the season's stage files not yet final (scheduled or in progress: a stage in progress
  is counted as wholly open, its provisional table promises nothing; a scheduled stage's entry list can still
  change, so any club may still play it) and, when season.yaml plans more stages than it has files
  (`stages:`), the ones without a file, with the season's points table. Each is worth at most the largest
  number of its points table, earned at the best place that earns it (1st with the regulation's table);
- an entry's worst case is the points it has (points never go down; one that plays no more stage scores
  nothing more and gets no more places to count back); its best case is to win every stage left;
- the entries are compared as the annual ranking compares them: points, then countback (more 1st places,
  then more 2nd places, …). Adding a place never lowers a countback, so the worst case above is the worst;
- entry c can still be champion when its best case is at least every other entry's worst case: all of them
  at once can score nothing more (a club or pair that does not play, or finishes outside the points, scores
  nothing; the places that earn points in c's stages can go to c's own second team or to anyone else). A
  best case *equal* to another's worst case (same points, same countback) is a shared first place, which the
  annual ranking keeps shared: c can still be (joint) champion;
- entry c has clinched the title when every other entry's best case is below c's worst case: no one can
  reach or share first place — counting, while stages are left, a newcomer that has not scored yet (it could
  win all of them);
- the title is decided once someone has clinched it or no stage is left; the champions are then the entries
  in first place (more than one when a tie at the top stays unresolved).
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, replace
from operator import itemgetter
from decimal import Decimal
from typing import Any, Callable, Optional, Sequence

from league.games.truco.ranking import StageResult, annual_ranking
from league.models import Season
from league.standings.core import countback


@dataclass(frozen=True)
class Outlook:
    """One entry's place in the race."""

    can_still_win: bool     # its best case reaches first place (possibly shared)
    clinched: bool          # no other entry can reach or share first place
    movement: Optional[int]  # places gained since the previous final stage (negative: lost); None: new or no previous
    best: Decimal           # the most points it can end the season with


@dataclass(frozen=True)
class Race:
    points_available: Decimal         # the most points one entry can still add
    champions: tuple                  # keys of the champions, once decided; () while open
    outlook: dict                     # key -> Outlook, for every entry of the ranking
    stages_left: tuple[str, ...] = ()  # ids of the season's stage files not yet final, in season order
    unscheduled: int = 0              # stages season.yaml plans (`stages:`) that have no file yet

    @property
    def count_left(self) -> int:
        """How many stages are still to play."""
        return len(self.stages_left) + self.unscheduled

    @property
    def decided(self) -> bool:
        return bool(self.champions)

    @property
    def contenders(self) -> list:
        """The keys that can still be champion, in ranking order (the champions themselves once decided)."""
        return [k for k, o in self.outlook.items() if o.can_still_win]


def stage_best(ranking_points: Sequence) -> tuple[Decimal, int]:
    """The most ranking points a club or pair can earn in a stage (its table: `ranking_points`) and the best
    place earning them. # Truco 12.1: place P earns ranking_points[P-1]; with the regulation's table, 20 points
    for 1st place."""
    table = [Decimal(str(p)) for p in ranking_points]
    if not table or max(table) <= 0:
        return Decimal(0), 1
    top = max(table)
    return top, table.index(top) + 1


def title_race(ranking: Sequence[Any], left: Sequence[Sequence], previous: Optional[Sequence[Any]] = None) -> Race:
    """The race of an annual ranking (league.games.truco.ranking.AnnualEntry lines, in order) with stages still
    to play, `left` holding the ranking points table of each; `previous`: the ranking before the last final
    stage (None: there was none).
    # Truco 12.1, 12.2; decision (rules.md, annual ranking ties): countback"""
    gain, wins = _still_to_play(left)
    worst = {e.key: (e.points, _countback(e)) for e in ranking}
    best = {e.key: (e.points + gain, _countback(e, wins)) for e in ranking}
    newcomer = (gain, countback(wins)) if left else None
    before = {e.key: e.position for e in previous} if previous is not None else {}
    top_worst, top_best = _top_two(worst), _top_two(best, newcomer)
    outlook = {e.key: Outlook(_reaches(best[e.key], _other(top_worst, e.key)),
                              _out_of_reach(worst[e.key], _other(top_best, e.key)),
                              _moved(before, e), best[e.key][0]) for e in ranking}
    return Race(gain, _champions(ranking, outlook, bool(left)), outlook)


def _still_to_play(left: Sequence[Sequence]) -> tuple[Decimal, list[int]]:
    """The most points one entry can still add, and the places that earn them, one per stage left."""
    bests = [stage_best(table) for table in left]
    return sum((pts for pts, _ in bests), Decimal(0)), [place for _, place in bests]


def _reaches(best, rival_worst) -> bool:
    """Can still be first: its best case at least the best of the others' worst cases (none: alone)."""
    return rival_worst is None or best >= rival_worst


def _out_of_reach(worst, rival_best) -> bool:
    """Has clinched first place: every other's best case below its worst case."""
    return rival_best is None or rival_best < worst


def _moved(before: dict, entry) -> Optional[int]:
    """Places gained since the previous ranking; None when it was not in it."""
    return before[entry.key] - entry.position if entry.key in before else None


def _countback(entry, more: Sequence[int] = ()) -> tuple:
    """The entry's countback value (league.standings.core.countback) with `more` places added."""
    return countback([p for p in entry.places.values() if p] + list(more))


def _top_two(values: dict, extra=None) -> list:
    """The two largest (value, key) pairs, largest first; `extra` counts as one more entry (key None): enough
    to know, for every entry, the largest value among the others."""
    pairs = [(v, k) for k, v in values.items()] + ([(extra, None)] if extra is not None else [])
    return heapq.nlargest(2, pairs, key=itemgetter(0))


def _other(top: list, key):
    """The largest value among the entries other than `key` (None when there is none)."""
    for value, k in top:
        if k != key:
            return value
    return None


def _champions(ranking: Sequence[Any], outlook: dict, open_stages: bool) -> tuple:
    """The champion once decided: the one who clinched it, or with no stage left the entries in first place."""
    clinched = tuple(e.key for e in ranking if outlook[e.key].clinched)
    if clinched or open_stages:
        return clinched
    return tuple(e.key for e in ranking if e.position == 1)


def season_race(season: Season, stages: Sequence[StageResult], ranking: Sequence[Any], entries_of: Callable) -> Race:
    """The race of a season's annual club or pair ranking (`entries_of`: league.games.truco.ranking.club_entries
    or pair_entries): the stages left are its stage files not yet final and, when season.yaml plans more stages
    (`stages:`) than it has files, the ones without a file yet, with the season's points table; movement is
    measured against the ranking as it stood before the last final stage. # Truco 1 (six stages), 12.1, 12.2"""
    finals = [r for r in stages if r.stage.is_final]
    left = [r.stage for r in stages if not r.stage.is_final]
    unscheduled = max(0, (season.stages_planned or 0) - len(stages))
    previous = None
    if len(finals) > 1:
        before = finals[:-1]
        previous = annual_ranking(entries_of(before), [r.stage.id for r in before])
    tables = [st.config.ranking_points for st in left] + [season.truco.ranking_points] * unscheduled
    return replace(title_race(ranking, tables, previous), stages_left=tuple(st.id for st in left),
                   unscheduled=unscheduled)
