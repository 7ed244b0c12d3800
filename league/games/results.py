"""Everything the site shows, computed once from the League before anything is written."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from league.content.diagnostics import Diagnostics
from league.models import League, Season, pair_slug
from league.games.quatrilho.championship import compute_season
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


def compute(league: League, diags: Diagnostics, rankings: Optional[Callable] = None) -> Results:
    """Every season's results: its stages classified (or as the loader already classified them,
    League.precomputed), its annual club and pair rankings, its Quatrilho championships and qualifiers.
    `rankings(season, stages)`: the season's (clubs, pairs); by default season_rankings (the engine passes
    one that keeps them in its cache)."""
    seasons = []
    for season in league.seasons:
        stages = [league.precomputed.get(st.path) or classify(st) for st in season.stages]
        for res in stages:
            known = league.stage_warnings.get(res.stage.path)   # computed with the classification, and cached
            if known is not None:
                diags.extend(known)
            else:
                stage_warnings(res, diags)
        clubs, pairs = rankings(season, stages) if rankings is not None else season_rankings(stages)
        sr = SeasonResult(season, stages, clubs, pairs)
        if season.championships:
            compute_season(sr, diags, league.championship_results)
        seasons.append(sr)
    return Results(league, seasons)


def season_rankings(stages: list[StageResult]) -> tuple[list[AnnualEntry], list[AnnualEntry]]:
    """The season's annual club and pair rankings from its stages' results, in the season's stage order."""
    final_ids = [r.stage.id for r in stages if r.stage.is_final]
    return annual_ranking(club_entries(stages), final_ids), annual_ranking(pair_entries(stages), final_ids)


def pairs_left_out(stages: list[StageResult]) -> tuple[list[StageResult], list[StageResult]]:
    """The final stages the season's pair ranking leaves out (known only by their final places: no pair
    classification), and those it counts only in part (some matches known by their result alone, whose boards
    are unknown). # Truco 12.2; data-format.md, history"""
    final = [r for r in stages if r.stage.is_final]
    out = [r for r in final if r.stage.places_only]
    partial = [r for r in final if not r.stage.places_only and any(m.result_only for m in r.stage.matches)]
    return out, partial


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
    _unknown_pontinhos(res, diags)
    _group_ties(res, diags)
    npts = len(st.config.ranking_points)
    if not st.places_only:   # (a place the federation published as shared is no tie left to resolve)
        _shared_places(st, "classificação da etapa", res.classification, "teams", npts, diags)
    _shared_places(st, "classificação das duplas", res.pairs, "pairs", npts, diags)
    _unused_draws(res, diags)


def _unknown_pontinhos(res: StageResult, diags: Diagnostics) -> None:
    """A criterion that could not be applied for want of pontinhos (Truco 10.1), once per criterion and group."""
    seen = set()
    results_only = any(m.result_only for m in res.stage.matches)
    for kind, crit, members, scope in res.notes:
        key = members if results_only else (crit, members)   # (history: one warning per tie, not per criterion)
        if kind == "unknown" and key not in seen:
            seen.add(key)
            if results_only:   # history: the boards are not known, the tie cannot be broken from the data
                why, hint = "há confrontos registrados só pelo resultado (\"4x1\"), sem os jogos: o empate não pode " \
                    "ser desfeito pelos dados", "anote os jogos do confronto, se forem conhecidos, ou registre o " \
                    "sorteio em draws: ou a classificação publicada em classification:"
            else:
                why, hint = "há jogos sem os pontinhos anotados", "anote os pontinhos dos jogos (\"12-7 9-12 12-10\") " \
                    "ou registre um sorteio em draws:"
            diags.warning(res.stage.mark, f"{scope}: o critério {crit} não pôde ser aplicado entre {_names(members)}: "
                          + why, hint, code="unknown-pontinhos")


def _group_ties(res: StageResult, diags: Diagnostics) -> None:
    """A tie in a group's standings that only a draw can settle (Truco 10.1 "sorteio")."""
    for g in res.groups:
        for block in position_blocks(g.ranked):
            if len(block) > 1:
                diags.warning(g.mark, f"{g.phase} — {g.name}: empate não resolvido no {block[0].position}º lugar "
                              f"entre {_names(r.key for r in block)}",
                              f"registre o sorteio: draws: [{{teams: [{', '.join(str(r.key) for r in block)}], "
                              f"order: [...]}}]", code="draw-needed")


def _shared_places(st, label: str, places: list, kind: str, npts: int, diags: Diagnostics) -> None:
    """Places shared by an unresolved tie where they earn ranking points: the points are divided (Truco 12.1)."""
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


def _unused_draws(res: StageResult, diags: Diagnostics) -> None:
    """A recorded draw that no tie of the stage needed."""
    for d in res.unused_draws:
        diags.warning(d.mark, "sorteio registrado não foi usado: nenhum empate envolve exatamente estes "
                      f"participantes ({_names(sorted(d.members, key=str))})",
                      "confira os participantes do sorteio", code="unused-draw")
