"""The season folders (seasons/<year>/): each one's season.yaml, then its stage and championship files, loaded
as tasks (parallel_load.run_tasks) and put back in the order — diagnostics included — of a one-by-one load."""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from league.content.diagnostics import SourceMark
from league.engine import parallel_load, settings
from league.engine.load_tasks import Task
from league.models import League, Season

if TYPE_CHECKING:
    from league.engine.loader import Loader

YEAR = re.compile(r"^\d{4}$")


def load_seasons(loader: Loader, league: League) -> None:
    """Every season folder: season.yaml here, then its stage and championship files as tasks (run_tasks:
    from the cache, or loaded, in parallel when there are many), put back in this order."""
    root = loader.content / "seasons"
    if not root.is_dir() or loader.blocked(root):
        return
    tasks: list[Task] = []
    for sdir in sorted(p for p in root.iterdir() if p.is_dir()):
        if not _season_folder(loader, sdir):
            continue
        season = _season(loader, league, sdir)
        tasks += _season_tasks(loader, season, sdir)
        league.seasons.append(season)
    done = parallel_load.run_tasks(loader, league, tasks)
    _put_back(loader, tasks, done)
    for season in league.seasons:
        season.stages.sort(key=lambda s: (s.date, s.id))
        season.championships.sort(key=lambda c: (c.date, c.id))


def _season_folder(loader: Loader, sdir: Path) -> bool:
    """Whether a folder of seasons/ is a season's: named by its year, not hidden, not a link out of the
    content folder (reported by ContentLinks.check)."""
    if loader.blocked(sdir):
        return False
    if sdir.name.startswith("."):
        loader.diags.warning(SourceMark(loader.rel(sdir)), f"pasta oculta ignorada: \"{sdir.name}\" começa com "
                             "ponto e não é lida", f"para publicá-la, renomeie-a para \"{sdir.name.lstrip('.')}\"; "
                             "senão, apague-a", code="hidden")
        return False
    if not YEAR.match(sdir.name):
        loader.diags.error(SourceMark(loader.rel(sdir)), f"pasta de temporada \"{sdir.name}\" inválida",
                           "use o ano com 4 dígitos, ex.: seasons/2026")
        return False
    return True


def _season(loader: Loader, league: League, sdir: Path) -> Season:
    """A season, with its season.yaml's settings: read and validated, or as the cached settings have them
    (loader.seasons_done, with their diagnostics)."""
    year = sdir.name
    got = loader.seasons_done.get(year)
    if got is None:
        before = len(loader.diags.items)
        title, truco, quat, path, planned, mark = settings.season_settings(loader, league, sdir)
        loader.seasons_done[year] = (title, truco, quat, path, planned, mark, loader.diags.items[before:])
    else:
        title, truco, quat, path, planned, mark, sdiags = got
        loader.diags.extend(sdiags)
    return Season(year=year, title=title, truco=truco, quatrilho=quat, path=path, stages_planned=planned,
                  stages_mark=mark)


def _season_tasks(loader: Loader, season: Season, sdir: Path) -> list[Task]:
    """The season's stage files (truco/) and championship files (quatrilho/), each one's diagnostics to go
    after what was reported so far."""
    tasks = []
    for kind, folder in (("stage", sdir / "truco"), ("championship", sdir / "quatrilho")):
        if folder.is_dir():
            # not only regular files: a folder or a broken link named .yaml is reported, not skipped
            tasks += [Task(season, kind, f, len(loader.diags.items)) for f in loader.files_in(folder, kind)]
    return tasks


def _put_back(loader: Loader, tasks: list[Task], done: list[tuple[Any, list]]) -> None:
    """Each file to its season, and its diagnostics where a one-by-one load would have reported them."""
    items, merged, prev = loader.diags.items, [], 0
    for task, (obj, diags) in zip(tasks, done):
        merged += items[prev:task.at]
        merged += diags
        prev = task.at
        if obj:
            (task.season.stages if task.kind == "stage" else task.season.championships).append(obj)
    merged += items[prev:]
    items[:] = merged
