"""The compute step of a build: league.games.results.compute, with the collector paused (the results are
a large heap without reference cycles) and each season's annual rankings kept in the build cache under the
keys of its stages' entries (a rebuild after one stage changed ranks that stage's season only)."""
from __future__ import annotations

from typing import Optional

from league.content.diagnostics import Diagnostics
from league.engine.cache import digest, gc_paused
from league.games import results as R
from league.games.truco.ranking import AnnualEntry
from league.models import League

RANKINGS_ENTRY = ([AnnualEntry], [AnnualEntry])   # a season's clubs and pairs (league.engine.shapes.fits)


def rankings_key(year: str, stage_keys: list[str]) -> str:
    """Cache key of a season's annual rankings: the cache keys of its stages (which cover everything a stage
    depends on), in the season's stage order."""
    return digest("season-rankings", year, stage_keys)


def compute(league: League, diags: Diagnostics, cache=None, stage_keys: Optional[dict] = None) -> R.Results:
    """`stage_keys`: stage file → the key of its cache entry (league.engine.loader.Loader.stage_keys)."""
    keys_of = stage_keys or {}

    def rankings(season, stages):
        keys = [keys_of.get(st.path) for st in season.stages]
        if cache is None or not all(keys):
            return R.season_rankings(stages)
        key = rankings_key(season.year, keys)
        got = cache.get(key, RANKINGS_ENTRY, kept=True)
        if got is None:
            got = R.season_rankings(stages)
            cache.put(key, got, kept=True)
        return got
    with gc_paused():
        return R.compute(league, diags, rankings)
