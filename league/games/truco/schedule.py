"""The matches of a stage still to be played: every two teams of a group meet once (turno único), and a match
not yet in the file is pending. What `league sumulas` prints a scoresheet for, in the order of the file:
phase by phase, group by group, and inside a group round by round (the circle method). A knockout match is
known only once the round before it is played: the organisers name it (named_match)."""
from __future__ import annotations

from typing import NamedTuple, Optional, Sequence

from league.models import Group, Match, Phase, Stage


class Pending(NamedTuple):
    """A match with no result in the file yet: a group's, or one the organisers name (a knockout match)."""

    phase: Optional[Phase]      # None: a knockout match of a stage with no knockout phase in the file yet
    group: Optional[Group]      # None: a knockout match
    round: Optional[int]        # 1-based round of the group's round robin; None in a knockout
    home: str
    away: str
    after: Optional[Match]      # the last match in the file of its group or knockout phase (the new one goes
                                # after it, in the group; in the knockout, in the round it is played in), if any


def round_robin(teams: Sequence[str]) -> list[list[tuple[str, str]]]:
    """The rounds of a single round robin (turno único) by the circle method: with an even number of teams
    the first one stays and meets the others in their order while they turn around it; with an odd number
    one team rests each round. Each pair of teams meets exactly once; home is the first of each pair.
    Truco 3: the stage's format is the organisers'; a group where every team meets every other once is what
    the standings of a group (item 10.1, head-to-head in 10.2.1) are made for."""
    # Truco 3 (the organisers' format): a group's teams meet once each, round by round
    if len(teams) < 2:
        return []
    ring = list(teams[1:]) if len(teams) % 2 == 0 else list(teams)
    fixed = teams[0] if len(teams) % 2 == 0 else None
    size = len(ring)
    rounds = []
    for r in range(size):
        pairs = [(fixed, ring[r])] if fixed is not None else []
        pairs += [(ring[(r + k) % size], ring[(r - k) % size]) for k in range(1, (size - 1) // 2 + 1)]
        rounds.append(pairs)
    return rounds


def pending_matches(stage: Stage) -> list[Pending]:
    """Every group match of the stage not yet in its file, in the file's order. A final stage has none (it is
    over), and a team disqualified from the stage (Truco 4.12) plays no further match."""
    if stage.is_final:
        return []
    # Truco 4.12: a team disqualified from the stage plays no further match
    out_of_stage = {d.team for d in stage.disqualified if d.team}
    pending = []
    for phase in stage.phases:
        for group in phase.groups:
            pending += _group_pending(phase, group, out_of_stage)
    return pending


def _group_pending(phase: Phase, group: Group, out_of_stage: set) -> list[Pending]:
    played = {frozenset((m.home, m.away)) for m in group.matches}
    last = group.matches[-1] if group.matches else None
    return [Pending(phase, group, r, home, away, last)
            for r, pairs in enumerate(round_robin(group.teams), start=1) for home, away in pairs
            if frozenset((home, away)) not in played and not {home, away} & out_of_stage]


def named_match(stage: Stage, home: str, away: str) -> Pending:
    """A match the organisers name (`league sumulas --match HOME:AWAY`): a group's when both teams are in one
    group and have not met there yet (with its round), else a knockout match, written in the stage's last
    knockout phase."""
    found = _unplayed_in_group(stage, home, away)
    if found is not None:
        return found
    knockout = [ph for ph in stage.phases if ph.rounds]
    if not knockout:
        return Pending(None, None, None, home, away, None)
    played = [m for r in knockout[-1].rounds for m in r.matches]
    return Pending(knockout[-1], None, None, home, away, played[-1] if played else None)


def _unplayed_in_group(stage: Stage, home: str, away: str) -> Optional[Pending]:
    """The group match of `home` and `away` when both are in one group and have not met there yet."""
    pair = {home, away}
    for phase in stage.phases:
        for group in phase.groups:
            if pair <= set(group.teams) and not any({m.home, m.away} == pair for m in group.matches):
                last = group.matches[-1] if group.matches else None
                return Pending(phase, group, _round_of(group.teams, home, away), home, away, last)
    return None


def _round_of(teams: Sequence[str], home: str, away: str) -> int:
    """The round of the group's round robin in which `home` and `away` meet."""
    pair = {home, away}
    return next(r for r, pairs in enumerate(round_robin(teams), start=1) if any(set(p) == pair for p in pairs))
