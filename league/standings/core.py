"""The ranking engine shared by Truco teams, Truco pairs, annual rankings and Quatrilho players.

A precedence is a list of criterion keys; each criterion is a small object that splits a tied group
into ordered subgroups. rank() applies them like FIDE C.07 art. 4.2: whenever a criterion splits a
tied group, every still-tied subgroup is ranked again from the first criterion (Truco 10.2, 10.2.1).
A draw (sorteio) is data, never chance (Truco 10.1).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, NamedTuple, Optional, Sequence



@dataclass
class Row:
    """The metrics of one entry (team, pair or player) over a scope."""

    key: Hashable
    values: dict = field(default_factory=dict)

    def __getitem__(self, k):
        return self.values[k]

    def get(self, k, default=None):
        return self.values.get(k, default)


@dataclass(frozen=True)
class Encounter:
    """One meeting of two entries inside the scope, for head-to-head: who won and the points each took."""

    a: Hashable
    b: Hashable
    a_points: int
    b_points: int

    @property
    def winner(self) -> Optional[Hashable]:
        if self.a_points == self.b_points:
            return None
        return self.a if self.a_points > self.b_points else self.b


@dataclass
class RankContext:
    rows: dict                                   # key -> Row
    encounters: Sequence[Encounter] = ()
    draws: Sequence[Any] = ()                    # objects with .members (frozenset) and .order (tuple)
    notes: list = field(default_factory=list)    # (kind, detail) problems met while ranking
    used_draws: set = field(default_factory=set)
    _by_key: Optional[dict] = None

    def encounters_of(self, key) -> list:
        """The encounters an entry took part in (indexed once; head-to-head asks often)."""
        if self._by_key is None:
            idx: dict = {}
            for e in self.encounters:
                idx.setdefault(e.a, []).append(e)
                if e.b != e.a:
                    idx.setdefault(e.b, []).append(e)
            self._by_key = idx
        return self._by_key.get(key, [])


class Boundary(NamedTuple):
    """Why the entry above is ahead of the entry below: the criterion key and the two values compared.
    (A NamedTuple: one per place of every classification, built and read back from the cache by the thousand.)"""

    key: str
    above: Any
    below: Any
    group_size: int

    def __reduce__(self):
        return _tuple_new, (type(self), tuple(self))   # C, not the NamedTuple's Python __new__


_tuple_new = tuple.__new__


@dataclass(frozen=True)
class Ranked:
    key: Hashable
    position: int
    tied: bool
    decided_by: Optional[str]       # criterion that put this entry above the next one
    boundary: Optional[Boundary]    # the comparison behind decided_by
    row: Row


class Criterion:
    """One tiebreak: `split` orders a tied group into subgroups, or returns None when it cannot separate it."""

    key: str = ""

    def split(self, group: list, ctx: RankContext) -> Optional[list[tuple[list, Any]]]:
        raise NotImplementedError


class Metric(Criterion):
    """Higher (or lower, when ascending) value first."""

    def __init__(self, key: str, ascending: bool = False, value: Callable[[Row], Any] | None = None):
        self.key = key
        self.ascending = ascending
        self._value = value or (lambda row: row.get(key))
        self._custom = value is not None

    def split(self, group, ctx):
        rows = ctx.rows
        if self._custom:
            vals = {k: self._value(rows[k]) for k in group}
        else:   # row.get(key), read in place: the restart rule asks again and again
            key = self.key
            vals = {k: rows[k].values.get(key) for k in group}
        if any(v is None for v in vals.values()):
            ctx.notes.append(("unknown", self.key, tuple(sorted(group, key=str))))
            return None
        buckets: dict = {}
        for k in group:
            buckets.setdefault(vals[k], []).append(k)
        if len(buckets) < 2:
            return None
        return [(buckets[v], v) for v in sorted(buckets, reverse=not self.ascending)]


class HeadToHead(Criterion):
    """Confronto direto (Truco 10.1, 10.2.1) per FIDE C.07 6.2 (all met) and 6.3 (not all met). Asked again of
    every still-tied subgroup (the restart rule, Truco 10.2.1): only the encounters inside the group count."""

    key = "head_to_head"

    def split(self, group, ctx):
        inside = _encounters_within(group, ctx)
        if not inside:
            return None
        wins, points, met = _head_to_head_record(group, inside)
        if all(len(met[k]) == len(group) - 1 for k in group):
            return _by_wins_then_points(group, wins, points)
        return _out_of_reach(group, wins, met)


def _encounters_within(group: list, ctx: RankContext) -> list[Encounter]:
    """The encounters between two members of group, each once (found from its `a` side)."""
    members = set(group)
    return [e for k in group for e in ctx.encounters_of(k) if e.a == k and e.b in members and e.b != k]


def _head_to_head_record(group: list, inside: list[Encounter]) -> tuple[dict, dict, dict]:
    """Each member's wins and points in the encounters inside the group, and the members it met there."""
    wins = {k: 0 for k in group}
    points = {k: 0 for k in group}
    met: dict = {k: set() for k in group}
    for e in inside:
        points[e.a] += e.a_points
        points[e.b] += e.b_points
        w = e.winner
        if w is not None:
            wins[w] += 1
        met[e.a].add(e.b)
        met[e.b].add(e.a)
    return wins, points, met


def _by_wins_then_points(group: list, wins: dict, points: dict) -> Optional[list[tuple[list, Any]]]:
    """FIDE C.07 6.2 (every member met every other): rank by head-to-head wins, then head-to-head points."""
    buckets: dict = {}
    for k in group:
        buckets.setdefault((wins[k], points[k]), []).append(k)
    if len(buckets) < 2:
        return None
    return [(buckets[v], (v, len(group), True)) for v in sorted(buckets, reverse=True)]


def _out_of_reach(group: list, wins: dict, met: dict) -> Optional[list[tuple[list, Any]]]:
    """FIDE C.07 6.3 (not all met): place a team first only if its wins beat every other's wins plus its unplayed
    meetings (the most that one could have had), again for the rest; whoever is left stays tied."""
    reach = {k: wins[k] + (len(group) - 1 - len(met[k])) for k in group}
    remaining = list(group)
    placed: list[tuple[list, Any]] = []
    while len(remaining) > 1:
        best = max(remaining, key=wins.__getitem__)
        others = [k for k in remaining if k != best]
        if not all(wins[best] > reach[o] for o in others):
            break
        placed.append(([best], ((wins[best], max(reach[o] for o in others)), len(group), False)))
        remaining = others
    if not placed:
        return None
    rest_value = ((max(wins[k] for k in remaining), None), len(group), False)
    return placed + [(remaining, rest_value)]


class RecordedDraw(Criterion):
    """Sorteio (Truco 10.1; Quatrilho Art. 3): a draw recorded in the file that names exactly this group."""

    key = "draw"

    def split(self, group, ctx):
        members = frozenset(group)
        for d in ctx.draws:
            if d.members == members:
                ctx.used_draws.add(id(d))
                return [([k], i + 1) for i, k in enumerate(d.order)]
        ctx.notes.append(("draw-needed", "draw", tuple(sorted(group, key=str))))
        return None


def rank(keys: Sequence, criteria: Sequence[Criterion], ctx: RankContext,
         tie_order: Callable[[Any], Any] = str) -> list[Ranked]:
    """Order keys by the criteria with the restart rule; returns positions with ties shared (1, 2, 3, 3, 3, 6)."""
    blocks, bounds = _order(list(keys), criteria, ctx, tie_order)
    out: list[Ranked] = []
    pos = 1
    for i, block in enumerate(blocks):
        bound = bounds[i] if i < len(bounds) else None
        tied = len(block) > 1
        for j, k in enumerate(block):
            last = j == len(block) - 1
            out.append(Ranked(k, pos, tied, bound.key if (last and bound) else None,
                              bound if (last and bound) else None, ctx.rows[k]))
        pos += len(block)
    return out


def _order(group: list, criteria, ctx, tie_order, same: int = 0) -> tuple[list[list], list[Boundary]]:
    """`same`: a bit set for each criterion known to give every member of `group` the same value — a plain
    Metric (its value is the entry's own, whatever the group) that this group's parent did not split, or
    split into this group: asking it again could only answer None, so it is not asked. Head-to-head and the
    draw depend on who is in the group and are always asked again (the restart rule, Truco 10.2.1)."""
    if len(group) <= 1:
        return [group], []
    for j, crit in enumerate(criteria):
        if same >> j & 1:
            continue
        noted = len(ctx.notes)
        parts = crit.split(group, ctx)
        plain = type(crit) is Metric
        if parts and len(parts) > 1:
            blocks: list[list] = []
            bounds: list[Boundary] = []
            inner = same | (plain << j)   # each part has one value of a Metric that split them
            for i, (members, value) in enumerate(parts):
                if i > 0:
                    bounds.append(Boundary(crit.key, parts[i - 1][1], value, len(group)))
                b, bd = _order(members, criteria, ctx, tie_order, inner)  # restart from the first criterion
                blocks += b
                bounds += bd
            return blocks, bounds
        if plain and len(ctx.notes) == noted:   # every value known and all equal (no note made): the same in any part
            same |= 1 << j
    return [sorted(group, key=tie_order)], []


def position_blocks(ranked: Sequence[Ranked]) -> list[list[Ranked]]:
    """Consecutive entries sharing a position."""
    out: list[list[Ranked]] = []
    for r in ranked:
        if out and out[-1][0].position == r.position:
            out[-1].append(r)
        else:
            out.append([r])
    return out


def countback(places: Sequence[int]) -> tuple:
    """The countback value of an entry's stage places: higher is better. # Truco 12.1, 12.2; decision: more 1st
    places, then more 2nd places, and so on. The places best first, negated: (1, 1, 3) → (-1, -1, -3). Compared
    as tuples, these order entries exactly as the counts of 1st, 2nd, 3rd… places would, compared in turn (at
    the first place whose counts differ, the entry with more of them has that place where the other has a
    worse one, or no place left: (-1, -1, -3) > (-1, -2) and (-1, -5) > (-1,)), and are equal when the counts
    are: a few numbers per entry instead of one count per place of the largest stage (~230 for pairs)."""
    return tuple([-p for p in sorted(places)])


def countback_counts(value: tuple) -> dict:
    """{place: how many times} of a countback() value."""
    counts: dict = {}
    for p in value:
        counts[-p] = counts.get(-p, 0) + 1
    return counts
