"""Content files → validated League: shape checks (schema.py), then every cross-reference and every
score, with all problems collected and reported together."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from league.engine.codec import Keys, Lazy, LazyPhases, Opt
from league.content.diagnostics import Diagnostic, Diagnostics, LeagueError, SourceMark, did_you_mean
from league.models import Club, League, Player, QuatrilhoConfig, Season, Stage, TrucoConfig
from league.games.truco.rules import game_error, parse_game
from league.engine.workers import StreamWorker, TaskFeed
from league.content.documents import Page
from league.content.marked import MDict, MList

SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
YEAR = re.compile(r"^\d{4}$")

# what each kind of cache entry must hold (league.codec.fits): one that does not is corrupted, and made again
SETTINGS_ENTRY = (Keys({"name": str, "short_name": str, "base_url": str, "locale": str, "repository": Opt(str),
                        "allow_html": bool, "truco": TrucoConfig, "quatrilho": QuatrilhoConfig}),
                  [Diagnostic], {str: (str, TrucoConfig, QuatrilhoConfig, Opt(str), [Diagnostic])})
REGISTRY_ENTRY = ({str: Club}, {str: Player}, [Diagnostic])
PAGES_ENTRY = ([Page], [Page], [Diagnostic])
TASK_ENTRY = {"stage": (Stage, [Diagnostic], Lazy("StageResult"), [Diagnostic]),
              "championship": (Lazy("Championship"), [Diagnostic], Lazy("ChampionshipResult"))}


class _Lazy:
    """A module imported when one of its names is first used. The content's shapes (league.schema) and their
    validation (league.validate) need pydantic, ~0.15 s of imports: a rebuild that finds league.yaml, every
    season.yaml, clubs.yaml and players.yaml in the cache and leaves the edited files to a worker
    (run_tasks) never imports it here."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr: str):
        from importlib import import_module
        value = getattr(import_module(self._name), attr)
        setattr(self, attr, value)   # (found in the instance from now on)
        return value


S = _Lazy("league.content.schema")
_validation = _Lazy("league.content.validate")


def validate(model, raw, rel, diags, what="o arquivo"):
    """league.validate.validate (imported at the first use)."""
    return _validation.validate(model, raw, rel, diags, what)


class Loader:
    def __init__(self, content: Path, cache=None, digests: Optional[dict] = None):
        self.content = Path(content)
        self.cache = cache
        self.prefix = self.content.name or "content"
        # `prefix/relative path` → sha256 of the file's bytes, as the build read them before loading (its no-op
        # check and its record use the same): the stage and championship files' cache keys are made from these
        # instead of reading and hashing every file again. A file loaded (not from the cache) is cached only when
        # the bytes it was loaded from are the ones its key says (self.read: what each file was loaded from)
        self.digests = digests
        self.read: dict = {}
        self.keyed: dict = {}   # rel → the sha256 its cache key was made from (task_key)
        self.stage_keys: dict = {}   # stage file → the key of its cache entry (compute: the rankings cache)
        self.diags = Diagnostics()
        # clubs.yaml / players.yaml that could not be read: references to them are not reported one by one
        self.unreadable: set[str] = set()
        # cache entries of the files every other file depends on (clubs, players, pages): written only when
        # the whole content loads without errors (a failed build writes nothing that was not there)
        self.deferred: list = []
        self.workers = 1      # processes that loaded the files not in the cache (run_tasks)
        # work of the caller's that needs only league.yaml, done here while workers load the other files
        # (the build compiles its templates): meanwhile(league), in this process, when there are workers
        self.meanwhile = None
        # meanwhile_busy(league): whether meanwhile has real work this time (the templates are not compiled
        # yet, ~0.13 s): then one worker loads even content below PARALLEL_MIN_BYTES while this process does it
        self.meanwhile_busy = None
        # meanwhile_share(league): what a load worker does of that work once its files are loaded (when busy)
        self.meanwhile_share = None
        self.fallbacks = 0    # worker shares loaded here instead because the worker failed
        # year → (title, Truco and Quatrilho settings, season.yaml's path, its diagnostics): what each season.yaml
        # makes (season_settings), cached with league.yaml's (settings_key)
        self.seasons_done: dict = {}
        self.settings_files: list = []   # league.yaml and the season.yaml files its cache key was made of
        # progress(files, total): how many of the stage and championship files to load (not in the cache)
        # every process has taken so far, told in this process only (the build's bar on a terminal)
        self.progress = None

    def rel(self, path: Path) -> str:
        return f"{self.prefix}/{path.relative_to(self.content).as_posix()}"

    def yaml(self, path: Path) -> Any:
        if self.blocked(path):
            return None   # (a link out of the content folder, reported by check_links: never read)
        from league.content.yamlio import load_yaml   # (PyYAML: imported when a file is first read, see league.content.marked)
        rel = self.rel(path)   # the bytes' digest only for a file with a cache key made before (task_key)
        return load_yaml(path, rel, self.diags, digests=self.read if rel in self.keyed else None)

    # ------------------------------------------------------------------ links out of the content folder
    def check_links(self) -> None:
        """Every symbolic link under the content folder (files or folders, hidden folders not entered) whose
        target resolves outside it is an error naming the link — never its target, never a byte of it: such a
        file is not content (a link to an env file would put its first characters into a message, i.e. into
        CI logs; a link to any file would publish it). Links that stay inside are fine."""
        self.root_real = os.path.realpath(self.content)
        self.has_links = False
        stack = [str(self.content)]
        while stack:
            try:
                with os.scandir(stack.pop()) as entries:
                    found = sorted(entries, key=lambda e: e.name)
            except OSError:
                continue   # (an unreadable folder is reported where it is read)
            for entry in found:
                if entry.is_symlink():
                    self.has_links = True
                    if not self.inside(os.path.realpath(entry.path)):
                        self.diags.error(SourceMark(self.rel(Path(entry.path))), "link simbólico para fora da pasta "
                                         "de conteúdo: não é lido nem publicado",
                                         f"ponha aqui uma cópia do arquivo (ou da pasta) em vez do link, ou aponte o "
                                         f"link para algo dentro de {self.prefix}/", code="link-outside")
                elif entry.is_dir(follow_symlinks=False) and not entry.name.startswith("."):
                    stack.append(entry.path)

    def inside(self, real: str) -> bool:
        root = self.root_real
        return real == root or real.startswith(root if root.endswith(os.sep) else root + os.sep)

    def blocked(self, path: Path) -> bool:
        """Whether a path resolves outside the content folder (through a link: see check_links)."""
        if not getattr(self, "has_links", True):
            return False   # no link anywhere under content/: nothing can lead out
        if not hasattr(self, "root_real"):
            self.root_real = os.path.realpath(self.content)
        return not self.inside(os.path.realpath(path))

    # ------------------------------------------------------------------ top level
    def load(self) -> League:
        from league.engine.cache import gc_paused
        with gc_paused():
            return self._load()

    def _load(self) -> League:
        if not self.content.is_dir():
            self.diags.error(SourceMark(str(self.content)), "pasta de conteúdo não encontrada",
                             "rode o comando na raiz do projeto ou use --content PASTA", code="missing")
            raise LeagueError(self.diags.sorted())
        self.check_links()
        skey = self.settings_key()
        hit = self.cache.get(skey, SETTINGS_ENTRY) if skey is not None else None
        if hit is not None:   # league.yaml and every season.yaml as a previous load found them
            settings, ldiags, self.seasons_done = hit
            self.diags.extend(ldiags)
        else:
            before = len(self.diags.items)
            settings = self.league_settings()
            ldiags = self.diags.items[before:]
        clubs, players = self.load_registries()
        league = League(**settings, clubs=clubs, players=players, seasons=[], pages=[], news=[],
                        content_dir=str(self.content))
        self.load_seasons(league)
        if skey is not None and hit is None and self.settings_fresh():
            self.deferred.append((skey, (settings, list(ldiags), self.seasons_done)))
        self.load_pages(league)
        if self.deferred and not any(d.level == "error" for d in self.diags.items):
            for key, value in self.deferred:
                self.cache.put(key, value)
        return league

    def league_settings(self) -> dict:
        """league.yaml, read and validated: the League's fields other than the content (problems reported)."""
        lf = self.content / "league.yaml"
        league_raw = self.yaml(lf) if lf.exists() else None
        if not lf.exists():
            self.diags.error(SourceMark(self.rel(lf)), "arquivo league.yaml não encontrado",
                             "crie content/league.yaml com name e short_name")
        lmodel = validate(S.LeagueFile, league_raw, self.rel(lf), self.diags, "league.yaml") \
            if lf.exists() and not self.reported(lf) else None
        if lmodel:
            self.check_urls(lmodel, league_raw)
        truco = self.truco_config(lmodel.truco if lmodel else S.TrucoSettings(), None, league_raw, self.rel(lf))
        quat = self.quatrilho_config(lmodel.quatrilho if lmodel else S.QuatrilhoSettings(), None)
        return dict(
            name=lmodel.name if lmodel else "", short_name=lmodel.short_name if lmodel else "",
            base_url=lmodel.base_url if lmodel else "/", locale=lmodel.locale if lmodel else "pt_BR",
            repository=lmodel.repository if lmodel else None,
            allow_html=lmodel.markdown.allow_html if lmodel else False,
            truco=truco, quatrilho=quat,
        )

    def settings_key(self) -> Optional[str]:
        """Cache key of what league.yaml and the season.yaml files make (league_settings, season_settings): their
        bytes, which season folders there are, and league's code. None without a cache, or when one of those
        files is not a regular, readable file (the load reports it)."""
        if self.cache is None:
            return None
        import hashlib
        from league.engine.cache import code_version, digest
        self.settings_files = []   # (a second call makes the same list, not a doubled one)

        def sha(path: Path) -> Optional[str]:
            if self.blocked(path):
                return None
            rel = self.rel(path)
            got = self.digests.get(rel) if self.digests is not None else None
            if got is None or got.startswith("?"):
                try:
                    got = hashlib.sha256(path.read_bytes()).hexdigest()
                except OSError:
                    return None
            self.keyed[rel] = got   # (what the file's bytes must still be when it is read: settings_fresh)
            self.settings_files.append(rel)
            return got
        lf = self.content / "league.yaml"
        parts = ["settings", code_version(), self.rel(lf), sha(lf) if lf.is_file() else None]
        if parts[-1] is None:
            return None
        root = self.content / "seasons"
        if root.is_dir():
            for sdir in sorted(p for p in root.iterdir() if p.is_dir()):
                sfile = sdir / "season.yaml"
                got = None
                if sfile.exists():
                    got = sha(sfile) if sfile.is_file() else None
                    if got is None:
                        return None
                parts += [sdir.name, got]
        return digest(*parts)

    def settings_fresh(self) -> bool:
        """Whether league.yaml and every season.yaml were read from the bytes their cache key was made of (one
        edited meanwhile is used as read, but not cached under that key)."""
        return all(self.read.get(rel) == self.keyed.get(rel) for rel in self.settings_files)

    def load_pages(self, league: League) -> None:
        """The Markdown pages and news (league/content/pages.py): from the cache when every file of pages/ and news/,
        the settings they are rendered with and league's code are unchanged, with the warnings they produced;
        otherwise loaded, and cached (see self.deferred) when the content has no errors."""
        key = self.pages_key(league)
        if key is not None:
            hit = self.cache.get(key, PAGES_ENTRY)
            if hit is not None:
                pages, news, diags = hit
                league.pages.extend(pages)
                league.news.extend(news)
                self.diags.extend(diags)
                self.check_news_links(league)
                return
        from league.content.pages import load_pages  # markdown pages and news
        before = len(self.diags.items)
        load_pages(self, league)
        new = self.diags.items[before:]
        if key is not None and not any(d.level == "error" for d in new):
            self.deferred.append((key, (list(league.pages), list(league.news), list(new))))
        self.check_news_links(league)

    def check_news_links(self, league: League) -> None:
        """A news post's season:, stage: or championship: that names none the content has is a warning at its
        line, with the closest ids: the post is published, but no stage page lists it. Checked on every load
        (not cached with the pages: a stage renamed or removed changes it). Not when the content has errors: a
        stage that did not load is not unknown."""
        if any(d.level == "error" for d in self.diags.items):
            return
        seasons = {s.year: s for s in league.seasons}
        for post in league.news:
            where = [seasons[post.season]] if post.season in seasons else list(seasons.values())
            refs = (("season", "temporada", post.season, seasons, "seasons/<ano>/"),
                    ("stage", "etapa", post.stage, [st.id for s in where for st in s.stages],
                     "o nome do arquivo em seasons/<ano>/truco/, sem .yaml"),
                    ("championship", "campeonato", post.championship, [c.id for s in where for c in s.championships],
                     "o nome do arquivo em seasons/<ano>/quatrilho/, sem .yaml"))
            for key, what, value, known, name in refs:
                if value is None or value in known:
                    continue
                scope = f" na temporada {post.season}" if key != "season" and post.season in seasons else ""
                word = "desconhecida" if what in ("temporada", "etapa") else "desconhecido"
                self.diags.warning(self.front_matter_mark(post.path, key), f"{key}: {what} {word} \"{value}\"{scope}; "
                                   "a notícia é publicada sem esse link",
                                   did_you_mean(str(value), known) or f"use o id de {'uma' if word[-1] == 'a' else 'um'} "
                                   f"{what} existente: {name}", code="unknown-id")

    def front_matter_mark(self, rel: str, key: str) -> SourceMark:
        """Where a key of a Markdown file's front matter is written (the file read again: only for a warning)."""
        from league.content.pages import split_front_matter
        from league.content.yamlio import parse_yaml, read_text
        quiet = Diagnostics()
        text = read_text(self.content / rel.split("/", 1)[1], rel, quiet)
        front = split_front_matter(text)[0] if text is not None else None
        raw = parse_yaml(front, rel, quiet, line_offset=1) if front is not None else None
        return raw.vmark(key) if isinstance(raw, MDict) and key in raw else SourceMark(rel, 1, 1)

    def pages_key(self, league: League) -> Optional[str]:
        """Cache key of the pages and news: the name and bytes of every .md file, locale and allow_html, the
        installed Markdown and nh3 (their files' size and time: an upgrade may render differently) and league's
        code. None (load them) when there is no cache or a file is not a plain readable file."""
        if self.cache is None:
            return None
        import hashlib
        import importlib.util
        import os
        from league.content.marked import MAX_BYTES
        parts: list = [league.locale, league.allow_html]
        for module in ("markdown", "nh3"):
            spec = importlib.util.find_spec(module)
            if spec is None or not spec.origin:
                return None
            st = os.stat(spec.origin)
            parts.append((spec.origin, st.st_size, st.st_mtime_ns))
        for folder in ("pages", "news"):
            root = self.content / folder
            parts.append(folder)
            if not root.is_dir():
                continue
            for path in sorted(root.glob("*.md")):
                if path.name.startswith("."):   # not read (files_in), only said: its name is enough
                    parts.append(self.rel(path))
                    continue
                if self.blocked(path):
                    return None
                try:
                    if not path.is_file() or path.stat().st_size > MAX_BYTES:
                        return None
                    data = path.read_bytes()
                except OSError:
                    return None
                parts += [self.rel(path), hashlib.sha256(data).hexdigest()]
        from league.engine.cache import code_version, digest
        return digest("pages", code_version(), *parts)

    def check_urls(self, lmodel: S.LeagueFile, raw: MDict) -> None:
        """base_url and repository end up in href attributes: only http(s) addresses (base_url may also be a
        path such as /liga/), never javascript:, data: or anything a browser would run."""
        from urllib.parse import urlparse
        for key, allow_path in (("base_url", True), ("repository", False)):
            value = getattr(lmodel, key)
            if value is None:
                continue
            url = urlparse(value)
            ok = (url.scheme in ("http", "https") and bool(url.netloc)) or \
                (allow_path and value.startswith("/") and not value.startswith("//"))
            if not ok or any(ch.isspace() or ord(ch) < 32 or ch in "<>\"'`" for ch in value):
                from league.content.validate import describe
                self.diags.error(raw.vmark(key), f"{key} inválido: recebido {describe(value)}; esperado um endereço "
                                 "http:// ou https://" + (" ou um caminho começando com /" if allow_path else ""),
                                 "ex.: https://www.federacao.org.br/" if allow_path else
                                 "ex.: https://github.com/federacao/site", code="url")

    def truco_config(self, base: S.TrucoSettings, over: Optional[S.TrucoOverrides], raw, rel) -> TrucoConfig:
        data = base.model_dump()
        if over is not None:
            data.update({k: v for k, v in over.model_dump().items() if v is not None})
        wo = []
        for i, text in enumerate(data["walkover_games"]):
            game = parse_game(text.strip())   # "12-0", "12x0", "12×0"
            err = game_error(*game, TrucoConfig(game_points=data["game_points"])) \
                if game else "escreva como \"12-0\" ou \"12x0\""
            if err:
                self.diags.error(_walkover_mark(raw, i, rel),
                                 f"truco.walkover_games: placar \"{text}\" inválido: {err}")
            else:
                wo.append(game)
        if len(wo) != data["games_to_win"] and not any(d.message.startswith("truco.walkover_games")
                                                       for d in self.diags.items):
            self.diags.error(SourceMark(rel, 1, 1), f"truco.walkover_games deve ter {data['games_to_win']} partidas "
                             f"(recebido {len(wo)})")
        if data["boards"] % 2 == 0:
            self.diags.error(SourceMark(rel, 1, 1), f"truco.boards deve ser ímpar (recebido {data['boards']})",
                             "com número par de jogos um confronto pode empatar; o item 9.1 usa 5")
        for key in ("team_tiebreaks", "pair_tiebreaks"):
            if len(set(data[key])) != len(data[key]):
                self.diags.error(SourceMark(rel, 1, 1), f"truco.{key} repete um critério: {data[key]}")
        return TrucoConfig(
            boards=data["boards"], games_to_win=data["games_to_win"], game_points=data["game_points"],
            walkover_games=tuple(wo) or ((12, 0), (12, 0)), team_tiebreaks=tuple(data["team_tiebreaks"]),
            pair_tiebreaks=tuple(data["pair_tiebreaks"]), ranking_points=tuple(data["ranking_points"]),
        )

    def quatrilho_config(self, base: S.QuatrilhoSettings, over) -> QuatrilhoConfig:
        data = base.model_dump()
        if over is not None:
            data.update({k: v for k, v in over.model_dump().items() if v is not None})
        data["tiebreaks"] = tuple(data["tiebreaks"])
        return QuatrilhoConfig(**data)

    def _registry(self, name: str, kind: str, shape: str, model, what: str, hint: str):
        """The id → entry mapping of clubs.yaml or players.yaml: (id, key mark, validated model, raw value)
        for every well-formed entry; problems reported. An unreadable file is reported once."""
        path = self.content / name
        rel = self.rel(path)
        if not path.exists():
            self.diags.error(SourceMark(rel), f"arquivo {name} não encontrado")
            return
        raw = self.yaml(path)
        if raw is None or not isinstance(raw, MDict):
            if raw is not None or not any(d.mark.path == rel for d in self.diags.items):
                self.diags.error(getattr(raw, "mark", SourceMark(rel, 1, 1)), f"{name} deve ser um mapa: {shape}")
            self.unreadable.add(kind)
            return
        for key, val in raw.items():
            if not self.check_slug(key, raw.kmark(key), f"id de {what}"):
                continue
            if val is None:
                self.diags.error(raw.kmark(key), f"o {what} \"{key}\" não tem dados", hint)
                continue
            entry = validate(model, val, rel, self.diags, f"o {what} {key}")
            if entry:
                yield key, raw.kmark(key), entry, val

    def load_registries(self) -> tuple[dict, dict]:
        """clubs.yaml and players.yaml (id → Club, id → Player): from the cache when the bytes of both (and
        league's code) are unchanged, with the warnings they produced; otherwise loaded, and cached (see
        self.deferred) when the content has no errors."""
        key = self.registry_key()
        if key is not None:
            hit = self.cache.get(key, REGISTRY_ENTRY)
            if hit is not None:
                clubs, players, diags = hit
                self.diags.extend(diags)
                return clubs, players
        before = len(self.diags.items)
        clubs = self.load_clubs()
        players = self.load_players(clubs)
        new = self.diags.items[before:]
        if key is not None and not any(d.level == "error" for d in new):
            self.deferred.append((key, (clubs, players, list(new))))
        return clubs, players

    def registry_key(self) -> Optional[str]:
        """Cache key of clubs.yaml + players.yaml, or None (no cache, or a file missing or not a regular file)."""
        if self.cache is None:
            return None
        parts = []
        for name, data in zip(("clubs.yaml", "players.yaml"), self.registry_bytes()):
            if data is None or not (self.content / name).is_file():
                return None
            parts += [self.rel(self.content / name), data]
        from league.engine.cache import code_version, digest
        return digest("registry", code_version(), *parts)

    def registry_bytes(self) -> list[Optional[bytes]]:
        """The bytes of clubs.yaml and players.yaml (None: unreadable), read once."""
        if not hasattr(self, "_registry_bytes"):
            out = []
            for name in ("clubs.yaml", "players.yaml"):
                try:
                    out.append(None if self.blocked(self.content / name) else (self.content / name).read_bytes())
                except OSError:
                    out.append(None)
            self._registry_bytes = out
        return self._registry_bytes

    def load_clubs(self) -> dict:
        return {cid: Club(cid, m.name, m.city, mark) for cid, mark, m, _ in self._registry(
            "clubs.yaml", "clubs", "id do clube → {name, city}", S.Club, "clube", "escreva {name: …, city: …}")}

    def load_players(self, clubs: dict) -> dict:
        out = {}
        for pid, mark, m, val in self._registry("players.yaml", "players", "id do jogador → {name, club}",
                                                S.Player, "jogador", "escreva {name: …}"):
            if m.club and m.club not in clubs:
                self.unknown(val.vmark("club") if isinstance(val, MDict) else mark, "clube", m.club, clubs)
            out[pid] = Player(pid, m.name, m.club, mark)
        return out

    def check_slug(self, value: Any, mark: SourceMark, what: str) -> bool:
        if isinstance(value, str) and SLUG.match(value):
            return True
        from league.content.validate import describe, slugify
        self.diags.error(mark, f"{what} inválido: recebido {describe(value)}; esperado letras minúsculas sem acento, "
                         f"números e hífens", f"use \"{slugify(str(value))}\"", code="slug")
        return False

    def reported(self, path: Path) -> bool:
        """Whether an error about this file (unreadable, invalid YAML) was already reported."""
        rel = self.rel(path)
        return any(d.mark.path == rel and d.level == "error" for d in self.diags.items)

    def unknown(self, mark: SourceMark, what: str, value: Any, known, extra: str = "") -> None:
        if (what.startswith("clube") and "clubs" in self.unreadable) or \
                (what.startswith("jogador") and "players" in self.unreadable):
            return  # clubs.yaml / players.yaml itself is broken and reported: every reference would be noise
        hint = did_you_mean(value, known)
        word = "desconhecida" if what.startswith("equipe") else "desconhecido"
        self.diags.error(mark, f"{what} {word} \"{value}\"{extra}", hint, code="unknown-id")

    # ------------------------------------------------------------------ seasons
    def load_seasons(self, league: League) -> None:
        """Every season folder: season.yaml here, then its stage and championship files as tasks (run_tasks:
        from the cache, or loaded, in parallel when there are many), put back in this order."""
        root = self.content / "seasons"
        if not root.is_dir():
            return
        tasks: list[_Task] = []
        if self.blocked(root):
            return
        for sdir in sorted(p for p in root.iterdir() if p.is_dir()):
            if self.blocked(sdir):
                continue   # (reported by check_links)
            if sdir.name.startswith("."):
                self.diags.warning(SourceMark(self.rel(sdir)), f"pasta oculta ignorada: \"{sdir.name}\" começa com "
                                   "ponto e não é lida", f"para publicá-la, renomeie-a para \"{sdir.name.lstrip('.')}\"; "
                                   "senão, apague-a", code="hidden")
                continue
            if not YEAR.match(sdir.name):
                self.diags.error(SourceMark(self.rel(sdir)), f"pasta de temporada \"{sdir.name}\" inválida",
                                 "use o ano com 4 dígitos, ex.: seasons/2026")
                continue
            year = sdir.name
            got = self.seasons_done.get(year)
            if got is None:   # its season.yaml: read and validated (else as the cached settings have it)
                before = len(self.diags.items)
                title, truco, quat, path = self.season_settings(league, sdir)
                self.seasons_done[year] = (title, truco, quat, path, self.diags.items[before:])
            else:
                title, truco, quat, path, sdiags = got
                self.diags.extend(sdiags)
            season = Season(year=year, title=title, truco=truco, quatrilho=quat, path=path)
            for kind, folder in (("stage", sdir / "truco"), ("championship", sdir / "quatrilho")):
                if folder.is_dir():
                    # not only regular files: a folder or a broken link named .yaml is reported, not skipped
                    tasks += [_Task(season, kind, f, len(self.diags.items)) for f in self.files_in(folder, kind)]
            league.seasons.append(season)
        done = self.run_tasks(league, tasks)
        # diagnostics and files in the order of a one-by-one load: each task's diagnostics where it would have run
        items, merged, prev = self.diags.items, [], 0
        for task, (obj, diags) in zip(tasks, done):
            merged += items[prev:task.at]
            merged += diags
            prev = task.at
            if obj:
                (task.season.stages if task.kind == "stage" else task.season.championships).append(obj)
        merged += items[prev:]
        items[:] = merged
        for season in league.seasons:
            season.stages.sort(key=lambda s: (s.date, s.id))
            season.championships.sort(key=lambda c: (c.date, c.id))

    # each kind of file as messages name it (one, several) and the suffixes read
    KINDS = {"stage": ("a etapa", "etapas", (".yaml", ".yml")),
             "championship": ("o campeonato", "campeonatos", (".yaml", ".yml")),
             "page": ("a página", "páginas", (".md",)), "news": ("a notícia", "notícias", (".md",))}

    def files_in(self, folder: Path, kind: str) -> list[Path]:
        """The files of one kind in its folder, sorted by name. A hidden one (".etapa-1.yaml") is not read
        but said (a warning); so is a file of another type beside stages or championships. Two files that
        claim one id (etapa-1.yaml and etapa-1.yml: the id is the name without the suffix) are an error
        naming both; the first is read, the other not (it would take the first one's page and ranking
        column)."""
        what, several, suffixes = self.KINDS[kind]
        out: list[Path] = []
        ids: dict[str, Path] = {}
        if self.blocked(folder):
            return out
        for f in sorted(folder.iterdir()):
            if self.blocked(f):
                continue   # a link out of the content folder: reported (check_links), never read
            if f.name.startswith("."):
                if f.suffix in suffixes:
                    shown = f.name.lstrip(".#")
                    self.diags.warning(SourceMark(self.rel(f)), f"arquivo oculto ignorado: \"{f.name}\" começa com "
                                       "ponto e não é lido", f"para publicá-lo, renomeie-o para \"{shown}\"; senão, "
                                       "apague-o", code="hidden")
                continue
            if f.suffix not in suffixes:
                if kind in ("stage", "championship") and f.is_file():
                    self.diags.warning(SourceMark(self.rel(f)), "arquivo ignorado: só arquivos .yaml são lidos aqui")
                continue
            first = ids.get(f.stem)
            if first is not None:
                self.diags.error(SourceMark(self.rel(f)), f"{what} \"{f.stem}\" está em dois arquivos: "
                                 f"{self.rel(first)} e {self.rel(f)} (o id é o nome do arquivo, sem a extensão)",
                                 f"apague um dos dois, ou renomeie um deles se são {several} diferentes",
                                 code="duplicate-id")
                continue
            ids[f.stem] = f
            out.append(f)
        return out

    def season_settings(self, league: League, sdir: Path) -> tuple:
        """A season folder's season.yaml, read and validated: (title, Truco settings, Quatrilho settings, path)."""
        year = sdir.name
        sfile = sdir / "season.yaml"
        smodel = None
        if sfile.exists():
            raw = self.yaml(sfile)
            smodel = validate(S.SeasonFile, raw, self.rel(sfile), self.diags, "season.yaml") if raw is not None \
                else S.SeasonFile()
        truco = league.truco
        quat = league.quatrilho
        if smodel and smodel.truco:
            base = S.TrucoSettings(**{**_truco_dump(league.truco)})
            truco = self.truco_config(base, smodel.truco, raw, self.rel(sfile))
        if smodel and smodel.quatrilho:
            quat = self.quatrilho_config(S.QuatrilhoSettings(**{**league.quatrilho.__dict__,
                                                                 "tiebreaks": list(league.quatrilho.tiebreaks)}),
                                         smodel.quatrilho)
        title = smodel.title if smodel and smodel.title else _season_title(league, year)
        return title, truco, quat, self.rel(sfile) if sfile.exists() else None

    def deps_digest(self) -> str:
        """What every stage file depends on besides itself: the clubs and players it references."""
        if not hasattr(self, "_deps"):
            from league.engine.cache import code_version, digest
            self._deps = digest(code_version(), *(b"" if data is None else data for data in self.registry_bytes()))
        return self._deps

    # ------------------------------------------------------------------ stage and championship files
    def run_tasks(self, league: League, tasks: list[_Task]) -> list[tuple[Any, list]]:
        """(stage or championship or None, its diagnostics) for every task, in order. A file whose bytes and
        everything it depends on are unchanged comes from the cache; the others are parsed, validated and
        classified (then cached, with the warnings they produced), by forked workers when there are many."""
        keys = [self.task_key(t) for t in tasks]
        done: list = [None] * len(tasks)
        # the files whose entry is in the cache are read back below; the others (todo) are loaded, in workers
        # forked first when there are many, or when there is a lot to read back meanwhile (a rebuild after an
        # edit: the edited file is loaded and its season ranked beside this process reading the rest back)
        hits = [i for i, key in enumerate(keys) if key is not None and self.cache.has(key)]
        hit = set(hits)
        todo = [i for i in range(len(tasks)) if i not in hit]
        busy = self.meanwhile is not None and self.meanwhile_busy is not None and self.meanwhile_busy(league)
        workers = _load_workers(tasks, todo, busy, hits=len(hits))
        units = _units(tasks, todo, workers) if workers > 1 else [todo]
        if len(units) > TaskFeed.MAX or (len(units) < 2 and not (units and len(hits) >= READBACK_MIN_ENTRIES)):
            workers, units = 1, [todo]
        self.workers = workers
        feed = TaskFeed(len(units)) if workers > 1 else None
        share = self.meanwhile_share if busy else None
        children = self.start_workers(league, tasks, keys, units, feed, workers - 1, share, hit) \
            if feed is not None else []
        for i in hits:   # read back here (meanwhile, the workers load the rest)
            value = self.cache.get(keys[i], TASK_ENTRY[tasks[i].kind])
            if value is not None:
                done[i] = self.task_use(league, tasks[i], keys[i], value)
            else:   # corrupted (a warning): loaded here, after the rest (below)
                todo.append(i)

        entries: dict = {}

        def load_here(i: int) -> None:
            key, value = self.task_fresh(league, tasks[i], keys[i])
            if key is not None:
                self.cache.put(key, value)
            entries[i] = (key, value)
            done[i] = self.task_use(league, tasks[i], key, value)
        progress = self.progress if todo else None
        if progress is not None:
            taken = feed.counter(units) if feed is not None else None
            progress(0, len(todo))
        try:
            if children and self.meanwhile is not None:
                self.meanwhile(league)
            for u in (feed.take() if feed is not None else range(1)):   # the units no worker took yet
                if progress is not None and taken is not None:
                    progress(taken(), len(todo))
                for k, i in enumerate(units[u]):
                    if progress is not None and feed is None:
                        progress(k, len(todo))
                    load_here(i)
                if children:   # its seasons ranked now, as the workers do, not after them with a core idle
                    self.cache_rankings(tasks, units[u], entries)
                for child in children:   # what the workers sent meanwhile, read now rather than at the end
                    self.use_frames(league, tasks, done, child.ready())
            while children:
                self.finish_worker(league, tasks, done, children[0])
                children = children[1:]
            if progress is not None:
                progress(len(todo), len(todo))
        finally:
            for child in children:   # an error here: leave no worker behind
                child.kill()
            if feed is not None:
                feed.close()
        for i in todo:   # what a failed worker had taken: loaded here
            if done[i] is None:
                load_here(i)
        return done

    def task_key(self, task: _Task) -> Optional[str]:
        """Cache key of a stage or championship file: its path and bytes, the clubs and players it refers to,
        the season's settings and league's code. None without a cache or when it is not a readable file."""
        if self.cache is None or not task.path.is_file():
            return None
        import hashlib
        from league.engine.cache import digest
        rel = self.rel(task.path)
        sha = self.digests.get(rel) if self.digests is not None else None
        if sha is None:
            try:
                sha = hashlib.sha256(task.path.read_bytes()).hexdigest()
            except OSError:
                return None
        self.keyed[rel] = sha
        settings = task.season.truco if task.kind == "stage" else task.season.quatrilho
        return digest(task.kind, rel, sha, self.deps_digest(), settings)

    def task_fresh(self, league: League, task: _Task, key: Optional[str]) -> tuple[Optional[str], tuple]:
        """Load the file and return (key, cache entry) — for a stage (stage, diagnostics, StageResult, warnings
        of its classification), for a championship (championship, diagnostics, ChampionshipResult) — or, when it
        cannot be cached (no key, errors), (None, the same with None for the computed parts). Its diagnostics
        are taken out of self.diags (they travel in the entry)."""
        before = len(self.diags.items)
        if task.kind == "stage":
            from league.games.truco.reading import load_stage
            obj = load_stage(self, league, task.season, task.path)
        else:
            from league.games.quatrilho.reading import load_championship
            obj = load_championship(self, league, task.season, task.path)
        new = self.diags.items[before:]
        del self.diags.items[before:]
        rel = self.rel(task.path)
        if key is not None and self.read.get(rel) != self.keyed.get(rel):   # changed since its key was made
            key = None
        if obj is None or key is None or any(d.level == "error" for d in new):
            return None, ((obj, new, None, None) if task.kind == "stage" else (obj, new, None))
        if task.kind == "stage":
            from dataclasses import replace
            from league.games.results import stage_warnings
            from league.games.truco.ranking import classify
            obj = replace(obj, phases=LazyPhases(value=obj.phases))   # read back from the cache only when used
            result = classify(obj)
            warnings = Diagnostics()   # what compute reports about the classification (ties, draws…)
            stage_warnings(result, warnings)
            return key, (obj, new, result, warnings.items)
        from league.games.quatrilho.championship import compute_championship
        return key, (obj, new, compute_championship(obj))

    def task_use(self, league: League, task: _Task, key: Optional[str], value: tuple) -> tuple[Any, list]:
        """Record what a cache entry (or task_fresh) computed; (the stage or championship, its diagnostics)."""
        if task.kind == "stage":
            stage, diags, result, warnings = value
            if result is not None:
                league.precomputed[stage.path] = result
                self.stage_keys[stage.path] = key
                league.stage_warnings[stage.path] = warnings
            return stage, diags
        champ, diags, result = value
        if result is not None:
            league.championship_results[champ.path] = result
        return champ, diags

    def start_workers(self, league: League, tasks: list[_Task], keys: list, units: list[list[int]], feed: TaskFeed,
                      n: int, then=None, cached: frozenset | set = frozenset()) -> list:
        """Fork n workers. Each takes units from `feed` until none is left (so does this process meanwhile:
        whoever is free takes the next, the biggest first), loads their files (task_fresh), writes their
        cache entries and sends back, unit by unit as it goes (league.workers.StreamWorker), a pickle of
        ([(task index, pickle of (key, entry))], the cache's state) — pickles through a pipe from a process
        of this build, never read from the cache —; then runs
        `then(league)` (a share of meanwhile's work; a failure there is its own: the files are sent). `cached`:
        the tasks whose entries are in the cache (this process reads them back): a worker ranks a season whose
        other stages are among them too, reading those back itself (see cache_rankings)."""
        import pickle
        from importlib import import_module
        loading = () if len(cached) >= READBACK_MIN_ENTRIES else ("league.games.truco.reading",
                                                                  "league.games.quatrilho.reading",
                                                                  "league.content.schema", "league.content.validate")
        for module in ("league.games.results", "league.games.quatrilho.championship", "league.games.truco.ranking", *loading):
            import_module(module)   # everything a worker runs is imported before forking — but what only
            # loads files (pydantic's models), when this process has the cache to read back and no file to load
        self.deps_digest()
        children = []
        try:
            for _ in range(n):
                def work(send) -> None:   # in the worker; if it fails, the parent loads what it had not sent
                    entries: dict = {}
                    for u in feed.take():
                        out = []
                        for i in units[u]:
                            key, value = self.task_fresh(league, tasks[i], keys[i])
                            if key is not None:
                                self.cache.put(key, value)
                            out.append((i, pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)))
                            entries[i] = (key, value)
                        self.cache_rankings(tasks, units[u], entries, cached, keys)
                        state = (self.cache.warnings, self.cache.dir is None) if self.cache is not None else None
                        send(pickle.dumps((out, state), protocol=pickle.HIGHEST_PROTOCOL))
                    if then is not None:
                        try:
                            then(league)
                        except Exception:  # noqa: BLE001 - only speed is lost: this process does it all
                            pass
                children.append(StreamWorker(work))
            for child in children:   # their readers, once none is left to fork
                child.start()
        except BaseException:
            for child in children:
                child.kill()
            raise
        return children

    def cache_rankings(self, tasks: list[_Task], share: list[int], entries: dict, cached=frozenset(),
                       keys: Optional[list] = None) -> None:
        """In a worker, and in the parent while workers load: the annual rankings of every season whose
        stages it all loaded (in `share`) and could cache, computed and cached as compute() would (it then
        reads them instead of ranking the season itself, after the load, when the other cores are idle).
        With `cached` (task indices whose entries are in the cache, under `keys`), also a season of which
        it loaded some stages and the others are cached: those are read back here (a worker, beside the
        parent reading them back too: a rebuild after one file was edited ranks its season in the worker)."""
        if self.cache is None:
            return
        from league.engine.compute import rankings_key
        from league.games.results import season_rankings
        mine = set(share)
        seasons: dict = {}
        for i, task in enumerate(tasks):
            if task.kind == "stage":
                seasons.setdefault(id(task.season), (task.season, []))[1].append(i)
        for season, stage_tasks in seasons.values():
            if not all(i in mine or i in cached for i in stage_tasks) or not any(i in mine for i in stage_tasks):
                continue
            for i in stage_tasks:
                if i not in entries and i in cached:
                    value = self.cache.get(keys[i], TASK_ENTRY["stage"])
                    if value is None:
                        break
                    entries[i] = (keys[i], value)
            else:
                done = [entries[i] for i in stage_tasks]
                if any(key is None or value[0] is None for key, value in done):
                    continue
                done.sort(key=lambda e: (e[1][0].date, e[1][0].id))   # the season's order (load_seasons)
                self.cache.put(rankings_key(season.year, [key for key, _ in done]),
                               season_rankings([value[2] for _, value in done]))

    def use_frames(self, league: League, tasks: list[_Task], done: list, frames: list[bytes]) -> None:
        """Record the entries a worker sent (see start_workers) in `done`, as task_use."""
        import pickle
        for frame in frames:
            out, state = pickle.loads(frame)
            if state is not None and self.cache is not None:
                warnings, gone = state
                self.cache.warnings += [w for w in warnings if w not in self.cache.warnings]
                if gone:
                    self.cache.dir = None
            for i, item in out:
                key, value = pickle.loads(item)
                if tasks[i].kind == "stage" and value[0] is not None and isinstance(value[0].phases, LazyPhases):
                    value[0].phases.get()   # a first build renders every stage's pages: read now, beside the worker
                done[i] = self.task_use(league, tasks[i], key, value)

    def finish_worker(self, league: League, tasks: list[_Task], done: list, child: StreamWorker) -> None:
        """Waits for a worker and records the rest of what it sent. If it failed, what it sent before is
        kept, and run_tasks loads the files it had not sent."""
        frames, ok = child.finish()
        self.use_frames(league, tasks, done, frames)
        if not ok:
            self.fallbacks += 1


@dataclass
class _Task:
    """A stage or championship file to load (Loader.run_tasks); `at`: where its diagnostics go."""

    season: Season
    kind: str    # "stage" | "championship"
    path: Path
    at: int


# a parallel load pays for itself from about this much to parse (a fork and reading the results back cost
# some tens of milliseconds); tests lower them to run the parallel path on small content
PARALLEL_MIN_FILES = 4
PARALLEL_MIN_BYTES = 400_000
# ... and a worker loads even one file when this process has at least this many cache entries to read back
# meanwhile (~1 ms each on the archive): a rebuild after an edit there reads 239 back (~0.17 s) while the
# worker loads and ranks the edited stage (~0.03 s, with the stage validator's first build and the season's
# rankings ~0.08 s), for a fork of ~5 ms
READBACK_MIN_ENTRIES = 40


def _load_workers(tasks: list[_Task], todo: list[int], busy: bool = False, hits: int = 0) -> int:
    """How many processes load the files not in the cache: 1, or one per available core (at most 4). Below
    PARALLEL_MIN_BYTES a fork costs more than it saves (the demo: 37 ms one by one, 42 ms with a worker),
    unless this process is `busy` meanwhile (compiling the templates), or has at least READBACK_MIN_ENTRIES
    cache entries (`hits`) to read back meanwhile: then one worker loads them."""
    import os
    if not todo or not hasattr(os, "fork"):
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    if cores < 2:
        return 1
    if hits >= READBACK_MIN_ENTRIES and sum(_size(tasks[i].path) for i in todo) < PARALLEL_MIN_BYTES:
        return 2
    if len(todo) < PARALLEL_MIN_FILES:
        return 1
    if sum(_size(tasks[i].path) for i in todo) < PARALLEL_MIN_BYTES:
        return 2 if busy else 1
    return min(cores, 4, len(todo))


def _units(tasks: list[_Task], todo: list[int], n: int) -> list[list[int]]:
    """todo in units of work for n processes, the biggest (in bytes) first: a season's files together (a
    worker that loads a whole season also ranks it), or file by file when there are too few seasons to
    share out evenly. Each unit in task order."""
    seasons: dict = {}
    for i in todo:
        seasons.setdefault(id(tasks[i].season), []).append(i)
    groups = list(seasons.values())
    if len(groups) < 2 * n:
        groups = [[i] for i in todo]
    groups.sort(key=lambda g: (-sum(_size(tasks[i].path) for i in g), g[0]))
    return groups


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _walkover_mark(raw, i: int, rel: str) -> SourceMark:
    """Where the i-th item of truco.walkover_games was written (league.yaml or season.yaml), or the file's start."""
    truco = raw.get("truco") if isinstance(raw, MDict) else None
    games = truco.get("walkover_games") if isinstance(truco, MDict) else None
    return games.imark(i) if isinstance(games, MList) and i < len(games) else SourceMark(rel, 1, 1)


def _truco_dump(cfg: TrucoConfig) -> dict:
    return {"boards": cfg.boards, "games_to_win": cfg.games_to_win, "game_points": cfg.game_points,
            "walkover_games": [f"{h}-{a}" for h, a in cfg.walkover_games],
            "team_tiebreaks": list(cfg.team_tiebreaks), "pair_tiebreaks": list(cfg.pair_tiebreaks),
            "ranking_points": list(cfg.ranking_points)}


def _season_title(league: League, year: str) -> str:
    """A season without a title of its own: "Temporada 2026" in the site's language (league/i18n.py)."""
    from league.i18n import translations
    return translations(league.locale).gettext("Temporada %(year)s") % {"year": year}


def load(content: Path, cache=None) -> tuple[League, Diagnostics]:
    """Load and validate everything under content/; raises LeagueError listing every error."""
    loader = Loader(Path(content), cache)
    league = loader.load()
    if loader.diags.errors:
        raise LeagueError(loader.diags.sorted())
    return league, loader.diags
