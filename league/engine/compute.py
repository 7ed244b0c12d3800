"""Everything the site shows, computed once from the League before anything is written."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from league.content.diagnostics import Diagnostics
from league.models import League, Season, pair_slug
from league.games.truco.ranking import (
    AnnualEntry, StageResult, annual_ranking, classify, club_entries, pair_entries,
)
from league.standings.core import position_blocks


@dataclass
class SeasonResult:
    season: Season
    stages: list[StageResult]
    clubs: list[AnnualEntry]
    pairs: list[AnnualEntry]
    championships: list = field(default_factory=list)   # Quatrilho results
    qualifiers: list = field(default_factory=list)


@dataclass
class Results:
    league: League
    seasons: list[SeasonResult]

    @property
    def current(self) -> Optional[SeasonResult]:
        return self.seasons[-1] if self.seasons else None


def compute(league: League, diags: Diagnostics, cache=None) -> Results:
    from league.engine.cache import gc_paused
    with gc_paused():
        return _compute(league, diags, cache)


def _compute(league: League, diags: Diagnostics, cache=None) -> Results:
    seasons = []
    for season in league.seasons:
        stages = [league.precomputed.get(st.path) or classify(st) for st in season.stages]
        for res in stages:
            known = league.stage_warnings.get(res.stage.path)   # computed with the classification, and cached
            if known is not None:
                diags.extend(known)
            else:
                stage_warnings(res, diags)
        keys = [league.stage_keys.get(st.path) for st in season.stages]
        rkey = rankings_key(season.year, keys) if cache is not None and all(keys) else None
        cached = cache.get(rkey, RANKINGS_ENTRY) if rkey else None
        if cached is not None:
            clubs, pairs = cached
        else:
            clubs, pairs = season_rankings(stages)
            if rkey:
                cache.put(rkey, (clubs, pairs))
        sr = SeasonResult(season, stages, clubs, pairs)
        try:
            from league.games.quatrilho.championship import compute_season
        except ImportError:  # pragma: no cover - until the Quatrilho rules exist
            compute_season = None
        if compute_season and season.championships:
            compute_season(sr, diags, league.championship_results)
        seasons.append(sr)
    return Results(league, seasons)


RANKINGS_ENTRY = ([AnnualEntry], [AnnualEntry])   # a season's clubs and pairs (league.codec.fits)


def season_rankings(stages: list[StageResult]) -> tuple[list[AnnualEntry], list[AnnualEntry]]:
    """The season's annual club and pair rankings from its stages' results, in the season's stage order."""
    final_ids = [r.stage.id for r in stages if r.stage.is_final]
    return annual_ranking(club_entries(stages), final_ids), annual_ranking(pair_entries(stages), final_ids)


def rankings_key(year: str, stage_keys: list[str]) -> str:
    """Cache key of a season's annual rankings: the cache keys of its stages (which cover everything a stage
    depends on), in the season's stage order."""
    from league.engine.cache import digest
    return digest("season-rankings", year, stage_keys)


def _names(keys) -> str:
    return ", ".join(pair_slug(k).replace("--", " + ") if isinstance(k, tuple) else str(k) for k in keys)


def stage_warnings(res: StageResult, diags: Diagnostics) -> None:
    """Ties left for a draw, unknown pontinhos, draws never used, a stage still in progress."""
    st = res.stage
    if st.status == "in_progress":
        diags.warning(st.mark, f"etapa \"{st.name}\" em andamento: a classificação é provisória e não vale pontos "
                      "de ranking", code="in-progress")
    if not st.is_final:
        return
    npts = len(st.config.ranking_points)
    seen = set()
    for kind, crit, members, scope in res.notes:
        if kind == "unknown" and (crit, members) not in seen:
            seen.add((crit, members))
            diags.warning(st.mark, f"{scope}: o critério {crit} não pôde ser aplicado entre {_names(members)}: "
                          "há jogos sem os pontinhos anotados", "anote os pontinhos dos jogos (\"12-7 9-12 12-10\") "
                          "ou registre um sorteio em draws:", code="unknown-pontinhos")
    for g in res.groups:
        for block in position_blocks(g.ranked):
            if len(block) > 1:
                diags.warning(g.mark, f"{g.phase} — {g.name}: empate não resolvido no {block[0].position}º lugar "
                              f"entre {_names(r.key for r in block)}",
                              f"registre o sorteio: draws: [{{teams: [{', '.join(str(r.key) for r in block)}], "
                              f"order: [...]}}]", code="draw-needed")
    for label, places, kind in (("classificação da etapa", res.classification, "teams"),
                                ("classificação das duplas", res.pairs, "pairs")):
        i = 0
        while i < len(places):
            j = i
            while j + 1 < len(places) and places[j + 1].position == places[i].position and places[i].tied:
                j += 1
            if j > i and places[i].position <= npts:
                keys = [p.key for p in places[i:j + 1]]
                shown = ", ".join(f"[{k[0]}, {k[1]}]" if isinstance(k, tuple) else k for k in keys)
                diags.warning(st.mark, f"{label}: empate não resolvido do {places[i].position}º ao "
                              f"{places[i].position + j - i}º lugar entre {_names(keys)}; os pontos de ranking são divididos",
                              f"registre o sorteio: draws: [{{{kind}: [{shown}], order: [...]}}]", code="draw-needed")
            i = j + 1
    for d in res.unused_draws:
        diags.warning(d.mark, "sorteio registrado não foi usado: nenhum empate envolve exatamente estes "
                      f"participantes ({_names(sorted(d.members, key=str))})",
                      "confira os participantes do sorteio", code="unused-draw")
