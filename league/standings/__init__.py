"""Standings: per-entry metrics, declared tiebreak criteria, and rank() with head-to-head and the restart rule."""
from league.standings.core import (  # noqa: F401
    Boundary, Criterion, Encounter, Ranked, RankContext, Row, rank, position_blocks,
)
