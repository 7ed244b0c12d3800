"""The matches of a stage still to be played: every two teams of a group meet once (turno único), and a match
not yet in the file is pending. What `league sumulas` prints a scoresheet for, in the order of the file:
phase by phase, group by group, and inside a group round by round (the circle method)."""
from __future__ import annotations

from typing import NamedTuple, Optional, Sequence

from league.models import Group, Match, Phase, Stage


class Pending(NamedTuple):
    """A group match with no result in the file yet."""

    phase: Phase
    group: Group
    round: int                  # 1-based round of the group's round robin
    home: str
    away: str
    after: Optional[Match]      # the group's last match in the file (the new one is written after it), if any


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
