"""A stage or championship file to load (a Task): its cache key, its cache entry made by loading it (and
classifying it, or computing the championship), and what the load records of an entry (task_use). Which
process loads which task is parallel_load's business."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from league.content.diagnostics import Diagnostic, Diagnostics
from league.engine.codec import LazyPhases
from league.engine.shapes import Lazy
from league.models import League, Season, Stage

if TYPE_CHECKING:
    from league.engine.loader import Loader

# what each kind of cache entry must hold (league.engine.shapes.fits): one that does not is corrupted, and made again
TASK_ENTRY = {"stage": (Stage, [Diagnostic], Lazy("StageResult"), [Diagnostic]),
              "championship": (Lazy("Championship"), [Diagnostic], Lazy("ChampionshipResult"))}


@dataclass
class Task:
    """A stage or championship file to load (parallel_load.run_tasks); `at`: where its diagnostics go."""

    season: Season
    kind: str    # "stage" | "championship"
    path: Path
    at: int


def task_key(loader: Loader, task: Task) -> Optional[str]:
    """Cache key of a stage or championship file: its path and bytes, the clubs and players it refers to,
    the season's settings and league's code. None without a cache or when it is not a readable file."""
    if loader.cache is None or not task.path.is_file():
        return None
    import hashlib
    from league.engine.cache import digest
    rel = loader.rel(task.path)
    sha = loader.digests.get(rel) if loader.digests is not None else None
    if sha is None:
        try:
            sha = hashlib.sha256(task.path.read_bytes()).hexdigest()
        except OSError:
            return None
    loader.keyed[rel] = sha
    settings = task.season.truco if task.kind == "stage" else task.season.quatrilho
    return digest(task.kind, rel, sha, loader.registry.deps_digest(), settings)


def task_fresh(loader: Loader, league: League, task: Task, key: Optional[str]) -> tuple[Optional[str], tuple]:
    """Load the file and return (key, cache entry) — for a stage (stage, diagnostics, StageResult, warnings
    of its classification), for a championship (championship, diagnostics, ChampionshipResult) — or, when it
    cannot be cached (no key, errors), (None, the same with None for the computed parts). Its diagnostics
    are taken out of loader.diags (they travel in the entry)."""
    before = len(loader.diags.items)
    if task.kind == "stage":
        from league.games.truco.reading import load_stage
        obj = load_stage(loader, league, task.season, task.path)
    else:
        from league.games.quatrilho.reading import load_championship
        obj = load_championship(loader, league, task.season, task.path)
    new = loader.diags.items[before:]
    del loader.diags.items[before:]
    rel = loader.rel(task.path)
    if key is not None and loader.read.get(rel) != loader.keyed.get(rel):   # changed since its key was made
        key = None
    if obj is None or key is None or any(d.level == "error" for d in new):
        return None, ((obj, new, None, None) if task.kind == "stage" else (obj, new, None))
    if task.kind == "stage":
        return key, _stage_entry(obj, new)
    from league.games.quatrilho.championship import compute_championship
    return key, (obj, new, compute_championship(obj))


def _stage_entry(stage: Stage, diags: list) -> tuple:
    """A stage's cache entry: the stage, its diagnostics, its classification and what compute reports about
    the classification (ties, draws…)."""
    from dataclasses import replace
    from league.games.results import stage_warnings
    from league.games.truco.ranking import classify
    stage = replace(stage, phases=LazyPhases(value=stage.phases))   # read back from the cache only when used
    result = classify(stage)
    warnings = Diagnostics()
    stage_warnings(result, warnings)
    return stage, diags, result, warnings.items


def task_use(loader: Loader, league: League, task: Task, key: Optional[str], value: tuple) -> tuple[Any, list]:
    """Record what a cache entry (or task_fresh) computed; (the stage or championship, its diagnostics)."""
    if task.kind == "stage":
        stage, diags, result, warnings = value
        if result is not None:
            league.precomputed[stage.path] = result
            loader.stage_keys[stage.path] = key
            league.stage_warnings[stage.path] = warnings
            if loader.cache is not None:   # its boards entry (board_index.py) is in use too: not pruned
                from league.engine.board_index import boards_key
                loader.cache.touch(boards_key(key))
        return stage, diags
    champ, diags, result = value
    if result is not None:
        league.championship_results[champ.path] = result
    return champ, diags
