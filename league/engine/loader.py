"""Content files → validated League: shape checks (content/schema.py), then every cross-reference and every
score, with all problems collected and reported together. Each kind of file has its module:

  settings.py      league.yaml and the season.yaml files        registries.py   clubs.yaml and players.yaml
  seasons.py       the season folders, their files as tasks     page_files.py   pages and news
  load_tasks.py    one stage or championship file: key, entry   load_plan.py    who loads which file
  parallel_load.py the files loaded here and in forked workers  content_reader.py  what every reader shares
and the readers of one file are the games': games/truco/reading.py, games/quatrilho/reading.py."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from league.content.diagnostics import Diagnostics, LeagueError, SourceMark
from league.engine import load_tasks, settings
from league.engine.content_reader import ContentReader
from league.engine.page_files import load_pages
from league.engine.registries import RegistryFiles, load_registries
from league.engine.seasons import load_seasons
from league.models import League


class Loader(ContentReader):
    """One load of the content folder (load()): its attributes are what the build sets and reads."""

    def __init__(self, content: Path, cache=None, digests: Optional[dict] = None):
        super().__init__(content, digests)
        self.cache = cache
        self.registry = RegistryFiles(self)
        self.stage_keys: dict = {}   # stage file → the key of its cache entry (compute: the rankings cache)
        # cache entries of the files every other file depends on (clubs, players, pages): written only when
        # the whole content loads without errors (a failed build writes nothing that was not there)
        self.deferred: list = []
        self.workers = 1      # processes that loaded the files not in the cache (run_tasks)
        self.fallbacks = 0    # worker shares loaded here instead because the worker failed
        # work of the caller's that needs only league.yaml, done here while workers load the other files
        # (the build compiles its templates): meanwhile(league), in this process, when there are workers;
        # meanwhile_busy(league): whether it has real work this time (the templates are not compiled yet,
        # ~0.13 s): then one worker loads even content below PARALLEL_MIN_BYTES while this process does it;
        # meanwhile_share(league): what a load worker does of that work once its files are loaded (when busy)
        self.meanwhile = self.meanwhile_busy = self.meanwhile_share = None
        # year → (title, Truco and Quatrilho settings, season.yaml's path, its diagnostics), cached with league.yaml's
        self.seasons_done: dict = {}
        self.settings_files: list = []   # league.yaml and the season.yaml files its cache key was made of
        # progress(files, total): how many of the stage and championship files to load (not in the cache)
        # every process has taken so far, told in this process only (the build's bar on a terminal)
        self.progress = None

    def load(self) -> League:
        from league.engine.cache import KEPT, gc_paused
        KEPT.new_load()   # (league serve: the entries the previous load used stay in memory, the rest go)
        with gc_paused():
            return self._load()

    def _load(self) -> League:
        if not self.content.is_dir():
            self.diags.error(SourceMark(str(self.content)), "pasta de conteúdo não encontrada",
                             "rode o comando na raiz do projeto ou use --content PASTA", code="missing")
            raise LeagueError(self.diags.sorted())
        self.links.check(self)
        league_settings, pending = settings.cached_settings(self)
        clubs, players = load_registries(self)
        league = League(**league_settings, clubs=clubs, players=players, seasons=[], pages=[], news=[],
                        content_dir=str(self.content))
        load_seasons(self, league)
        entry = settings.settings_entry(self, league_settings, pending) if pending is not None else None
        if entry is not None:
            self.deferred.append(entry)
        load_pages(self, league)
        if self.deferred and not any(d.level == "error" for d in self.diags.items):
            for key, value in self.deferred:
                self.cache.put(key, value)
        return league

    def settings_key(self) -> Optional[str]:
        return settings.settings_key(self)

    def settings_fresh(self) -> bool:
        return settings.settings_fresh(self)

    def task_fresh(self, league: League, task: load_tasks.Task, key: Optional[str]) -> tuple[Optional[str], tuple]:
        return load_tasks.task_fresh(self, league, task, key)


def load(content: Path, cache=None) -> tuple[League, Diagnostics]:
    """Load and validate everything under content/; raises LeagueError listing every error."""
    loader = Loader(Path(content), cache)
    league = loader.load()
    if loader.diags.errors:
        raise LeagueError(loader.diags.sorted())
    return league, loader.diags
