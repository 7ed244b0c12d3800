"""View models and Jinja2 (autoescape, StrictUndefined): turns computed Results into pages in memory.
Rendering never computes standings; it only arranges what compute.py produced."""
from __future__ import annotations

import datetime as dt
import hashlib
import os
import struct
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import jinja2

from league import i18n
from league.engine.compute import Results, SeasonResult
from league.standings.explain import NAMES, explain, signed, tie_text
from league.i18n import L_, _
from league.models import PairId, pair_slug
from league.site.paths import default_templates  # noqa: F401 - also league.site.render.default_templates, as before
from league.games.truco.ranking import Place, StageResult
from league.games.truco.rules import pair_points

# interface words are lazy strings (league/i18n.py): translated for the build's locale where they are shown
STATUS = {"final": L_("encerrada"), "in_progress": L_("em andamento"), "scheduled": L_("agendada")}     # etapa
STATUS_M = {"final": L_("encerrado"), "in_progress": L_("em andamento"), "scheduled": L_("agendado")}  # campeonato
RESERVED = {"clubes", "equipes", "duplas", "jogadores", "noticias", "api", "static", "index", "busca", "pagefind"}
# pages that pagefind indexes (data-pagefind-body), with the kind shown beside a search result
SEARCH_KINDS = {"player.html": L_("Jogador"), "pair.html": L_("Dupla"), "club.html": L_("Clube"),
                "team.html": L_("Equipe"), "stage.html": L_("Etapa"), "championship.html": L_("Campeonato")}


def date_br(d: dt.date | None) -> str:
    """The long date in the build's locale (Babel): 14 de março de 2026 / March 14, 2026."""
    return i18n.date_long(d)


def date_short(d: dt.date | None) -> str:
    return i18n.date_short(d)


def pos_text(position: int, tied: bool) -> str:
    return i18n.position(position, tied)


def pts_text(v: Any) -> str:
    if v is None:
        return "—"
    return i18n.number(v)


class Site:
    """URLs, names and the indexes that cross-link pages (club → teams → pairs → players)."""

    def __init__(self, results: Results):
        self.r = results
        self.league = results.league
        path = urlparse(self.league.base_url).path or "/"
        self.root = path if path.endswith("/") else path + "/"
        self.team_hist: dict[str, list] = defaultdict(list)
        self.pair_hist: dict[PairId, list] = defaultdict(list)
        self.player_pairs: dict[str, set] = defaultdict(set)
        self.club_teams: dict[str, set] = defaultdict(set)
        self.team_names: dict[str, str] = {}
        self.club_hist: dict[str, list] = defaultdict(list)   # club → its teams' (season, stage, place), in order
        self._records: dict = {}
        self._pair_names: dict = {}   # locale → {pair: its name}
        self._pair_urls: dict = {}    # pair → its URL (a stage page links ~1,100 pairs)
        for sr in results.seasons:
            for res in sr.stages:
                for p in res.classification:
                    team = res.stage.teams[p.key]
                    self.team_hist[p.key].append((sr, res, p))
                    self.club_hist[team.club].append((sr, res, p))
                    self.club_teams[team.club].add(p.key)
                    self.team_names[p.key] = team.name
                for p in res.pairs:
                    self.pair_hist[p.key].append((sr, res, p))
        for pair in self.pair_hist:   # in order of first appearance: the same sets, filled in the same order
            for player in pair:
                self.player_pairs[player].add(pair)

    def url(self, *parts: str) -> str:
        return self.root + "/".join(parts) + ("/" if parts else "")

    def squad_links(self, tid: str) -> list:
        """[(pair, whether it has a page)] of the squad a team's page lists: its latest stage's (a pair has a page
        when it played somewhere). team_view shows them; the page's key (PageKeys.team) follows them."""
        hist = self.team_hist.get(tid)
        if not hist:
            return []
        return [(x, x in self.pair_hist) for x in hist[-1][1].stage.teams[tid].pairs if x]

    def stage_record(self, res) -> dict:
        """stage_record(res.stage), kept for the build."""
        got = self._records.get(res.stage.path)
        if got is None:
            got = self._records[res.stage.path] = stage_record(res.stage)
        return got

    def season_url(self, year): return self.url(str(year))
    def stage_url(self, stage): return self.url(stage.season, "truco", stage.id)
    def club_url(self, cid): return self.url("clubes", cid)
    def team_url(self, tid): return self.url("equipes", tid)
    def pair_url(self, p) -> str:
        got = self._pair_urls.get(p)
        if got is None:
            got = self._pair_urls[p] = self.url("duplas", pair_slug(p))
        return got
    def player_url(self, pid): return self.url("jogadores", pid)

    def player_name(self, pid): return self.league.players[pid].name if pid in self.league.players else pid
    def club_name(self, cid): return self.league.clubs[cid].name if cid in self.league.clubs else cid

    def pair_name(self, p) -> str:
        locale = i18n.current()
        names = self._pair_names.get(locale)
        if names is None:
            names = self._pair_names[locale] = {}
        got = names.get(p)
        if got is None:
            got = names[p] = i18n.join([self.player_name(x) for x in p])
        return got

    def source(self, mark) -> str | None:
        repo = self.league.repository
        if not repo or mark is None:
            return None
        return f"{repo.rstrip('/')}/blob/main/{mark.path}#L{mark.line}"


def stage_record(stage) -> dict:
    """{team: [wins, losses]} in one stage's matches, in one pass (a match without a winner yet counts as
    not won): the team page's record, and part of its key (league/engine/incremental.py)."""
    got: dict = {}
    for m in stage.matches:
        for side in {m.home, m.away}:
            got.setdefault(side, [0, 0])[0 if m.winner == side else 1] += 1
    return got


_DICT_ATTRIBUTES = frozenset(dir(dict))


class SiteEnvironment(jinja2.Environment):
    """Jinja2's Environment, with `row.pos` on a plain dict (most view models are) read at once. Jinja2's
    getattr (a public method, overridden as SandboxedEnvironment overrides it) tries the attribute first,
    which a dict does not have, and raises and catches an AttributeError before it reads the key; here a
    name that is not an attribute of dict goes straight to the key, with the same result. Rendering the
    5-season synthetic archive (3,370 pages, one process) takes ~30 % less CPU (~3.5 s instead of ~5.0 s)."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


def _env(templates: Path, locale: str | None = None) -> jinja2.Environment:
    """The Jinja2 environment. Its templates are compiled in memory by each build (~0.13 s for league's, done
    while the content loads, see prepare_env): compiled code is never kept in the build cache, which is
    restored between builds and so is input, and Jinja2 runs what its bytecode cache holds."""
    env = SiteEnvironment(loader=jinja2.FileSystemLoader(str(templates)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             auto_reload=False)   # one build = one environment
    i18n.install(env, locale)  # gettext/ngettext, Babel's date, number and money filters, lang (league/i18n.py)
    env.filters.update(date_br=date_br, date_short=date_short, num=pts_text, signed=signed, pos=pos_text)
    env.globals.update(STATUS=STATUS, STATUS_M=STATUS_M, NAMES=NAMES)
    return env


def _template_names(templates: Path) -> list[str]:
    """The templates a build compiles (prepare_env), by name."""
    return sorted(n for n in jinja2.FileSystemLoader(str(templates)).list_templates() if n.endswith((".html", ".xml")))


def prepare_env(templates: Path | None, locale: str | None) -> jinja2.Environment:
    """The Jinja2 environment with every template compiled (a build does this while its files load)."""
    templates = Path(templates) if templates else default_templates()
    env = _env(templates, locale)
    for name in _template_names(templates):
        env.get_template(name)
    return env


# ---------------------------------------------------------------- view models

def place_how(res: StageResult, p: Place) -> str:
    st = res.stage
    if p.disqualified:
        reason = next((d.reason for d in st.disqualified if d.team == p.key), "")
        return _("desclassificada (%(reason)s)") % {"reason": reason} if reason else _("desclassificada")
    if p.how == "override":
        return _("definida pela comissão")
    if p.how == "placement":
        rnd = next((r for ph in st.phases for r in ph.rounds if r.for_place and
                    any(p.key in (m.home, m.away) for m in r.matches)), None)
        if not rnd:
            return _("disputa de colocação")
        won = any(m.winner == p.key for m in rnd.matches)
        return (_("%(round)s: venceu") if won else _("%(round)s: perdeu")) % {"round": rnd.name}
    if p.how == "knockout":
        elim = p.row.get("eliminated_in") if p.row else None
        rnd = next((r for ph in st.phases for r in ph.rounds if r.index == elim), None)
        return _("eliminada: %(round)s") % {"round": rnd.name} if rnd else _("mata-mata")
    if p.how == "group" and p.row is not None and p.row.get("group_position"):
        gp = p.row.get("group_position")[1]
        group = next((g.name for ph in st.phases for g in ph.groups if p.key in g.teams), _("grupo"))
        return _("%(place)s no %(group)s") % {"place": i18n.ordinal(gp), "group": group}
    return ""


def why(p, final: bool, what: str = "equipes", obvious: tuple = ()) -> str | None:
    """Why this line is above the next, or that it is tied; nothing when the first criterion decided
    (more wins is self-explanatory) or for the classification's own leading keys."""
    if getattr(p, "tied", False):
        return tie_text(final, True)
    if p.boundary is None or p.boundary.key in obvious or p.boundary.key in ("group_position", "eliminated_in"):
        return None
    return explain(p.boundary, what)


def match_view(site: Site, res: StageResult, m) -> dict:
    st = res.stage
    boards = []
    for b in m.boards:
        hp, ap = pair_points(b)
        boards.append({
            "number": b.number,
            "home": b.home_pair, "away": b.away_pair,
            "home_name": site.pair_name(b.home_pair) if b.home_pair else "—",
            "away_name": site.pair_name(b.away_pair) if b.away_pair else "—",
            "home_url": site.pair_url(b.home_pair) if b.home_pair else None,
            "away_url": site.pair_url(b.away_pair) if b.away_pair else None,
            "games": b.score_text if not b.walkover else "W.O.",
            "result": f"{b.home_games}x{b.away_games}",
            "home_won": b.home_won, "pp": f"{hp}–{ap}",
        })
    return {
        "id": m.id, "home": m.home, "away": m.away,
        "home_name": st.teams[m.home].name, "away_name": st.teams[m.away].name,
        "home_points": m.home_points, "away_points": m.away_points, "winner": m.winner,
        "walkover": m.walkover, "walkover_name": st.teams[m.walkover].name if m.walkover else None,
        "boards": boards if not m.walkover else [], "source": site.source(m.mark), "note": m.note,
    }


def stage_view(site: Site, sr: SeasonResult, res: StageResult) -> dict:
    st = res.stage
    final = st.is_final

    def place_row(p: Place, what="equipes"):
        first = st.config.team_tiebreaks[:1] if what == "equipes" else st.config.pair_tiebreaks[:1]
        return {"pos": pos_text(p.position, p.tied), "key": p.key, "points": p.points,
                "why": why(p, final, what, tuple(first)), "how": place_how(res, p) if what == "equipes" else "",
                "disqualified": p.disqualified}

    classification = []
    for p in res.classification:
        row = place_row(p)
        row.update(team=st.teams[p.key].name, club=site.club_name(st.teams[p.key].club),
                   team_url=site.team_url(p.key), club_url=site.club_url(st.teams[p.key].club))
        classification.append(row)
    computed = None
    if res.computed:
        computed = [{"pos": pos_text(p.position, p.tied), "team": st.teams[p.key].name,
                     "how": place_how(res, p)} for p in res.computed]
    groups = []
    for g in res.groups:
        gm = next(grp for ph in st.phases for grp in ph.groups if grp.name == g.name and ph.name == g.phase)
        rows = []
        for r in g.ranked:
            rows.append({"pos": pos_text(r.position, r.tied), "team": st.teams[r.key].name,
                         "team_url": site.team_url(r.key), **r.row.values,
                         "why": why(r, final, "equipes", tuple(st.config.team_tiebreaks[:1]))})
        groups.append({"phase": g.phase, "name": g.name, "rows": rows,
                       "matches": [match_view(site, res, m) for m in gm.matches]})
    rounds = []
    for ph in st.phases:
        for rnd in ph.rounds:
            rounds.append({"name": rnd.name, "for_place": rnd.for_place, "places": rnd.places,
                           "matches": [match_view(site, res, m) for m in rnd.matches]})
    pairs = []
    for p in res.pairs:
        row = place_row(p, "duplas")
        team = res.pair_team.get(p.key)
        if p.disqualified:
            reason = next((d.reason for d in st.disqualified if d.pair == p.key), None) or \
                next((d.reason for d in st.disqualified if d.team and d.team == team), "")
            row["why"] = _("desclassificada (%(reason)s)") % {"reason": reason} if reason else _("desclassificada")
        row.update(name=site.pair_name(p.key), url=site.pair_url(p.key),
                   team=st.teams[team].name if team else "", **p.row.values)
        row["rp"] = p.points
        pairs.append(row)
    draws = [{"members": ", ".join(st.teams[m].name if isinstance(m, str) else site.pair_name(m)
                                   for m in d.order), "note": d.note} for d in st.draws]
    return {"stage": st, "season": sr.season, "status": STATUS[st.status], "classification": classification,
            "computed": computed, "override": st.override, "groups": groups, "rounds": rounds, "pairs": pairs,
            "draws": draws, "host": site.club_name(st.host) if st.host else None,
            "host_url": site.club_url(st.host) if st.host else None,
            "points_table": st.config.ranking_points, "final": final, "source": site.source(st.mark),
            "disqualified": st.disqualified,
            "news": [n for n in site.league.news if n.stage == st.id and (n.season in (None, st.season))]}


def season_view(site: Site, sr: SeasonResult) -> dict:
    stages = sr.stages
    final_ids = [r.stage.id for r in stages if r.stage.is_final]
    clubs = [{"pos": pos_text(e.position, e.tied), "name": site.club_name(e.key), "url": site.club_url(e.key),
              "points": e.points, "stages": e.stages, "places": e.places,
              "why": _("empate") if e.tied else (explain(e.boundary) if e.decided_by == "countback" else None)}
             for e in sr.clubs]
    pairs = [{"pos": pos_text(e.position, e.tied), "name": site.pair_name(e.key), "url": site.pair_url(e.key),
              "points": e.points, "stages": e.stages, "places": e.places,
              "why": _("empate") if e.tied else (explain(e.boundary) if e.decided_by == "countback" else None)}
             for e in sr.pairs]
    return {"season": sr.season, "sr": sr, "stages": [r.stage for r in stages], "final_ids": final_ids,
            "clubs": clubs, "pairs": pairs}


class LazyKeys:
    """The pages' keys (league.incremental.PageKeys), made on first use. A job's key is a `later(…)`
    thunk until resolve_keys(): a rebuild needs them before rendering (to keep the pages whose key is
    unchanged), a first build only for its record, so it works them out while pagefind builds the index."""

    def __init__(self, make, base=None):
        self._make = make
        self._keys = None
        self._base_of = base
        self._base = None

    def get(self):
        if self._keys is None:
            self._keys = self._make(self._base)
        return self._keys

    def base(self) -> str:
        """What every key starts with (league.incremental.page_base), without making the keys."""
        if self._keys is not None:
            return self._keys.base
        if self._base is None:
            self._base = self._base_of()
        return self._base[0]

    def later(self, kind: str, *args) -> "_Key":
        return _Key(self, kind, args)


class _Key:
    __slots__ = ("keys", "kind", "args")

    def __init__(self, keys: LazyKeys, kind: str, args: tuple):
        self.keys, self.kind, self.args = keys, kind, args

    def __call__(self, path: str) -> str:
        k = self.keys.get()
        if self.kind == "news":
            return k.summary("news", k.news_file(*self.args))
        return k.for_page(self.kind, path, self.args)


def job_keys(jobs: list) -> list:
    """The key of each of `jobs`, worked out where it is still a LazyKeys thunk."""
    return [job[4](job[0]) if isinstance(job[4], _Key) else job[4] for job in jobs]


def resolve_keys(plan, keys: list | None = None) -> None:
    """Every job's key worked out (see LazyKeys), or taken from `keys`: job_keys of the same jobs, in the same
    order, made in another process (league/engine/build.py `_start_keys_helper`)."""
    if keys is None:
        keys = job_keys(plan.jobs)
    elif len(keys) != len(plan.jobs):   # pragma: no cover - the same jobs, in the same order
        raise RuntimeError("chaves das páginas: trabalhos diferentes")
    plan.jobs[:] = [job if not isinstance(job[4], _Key) else (*job[:4], key) for job, key in zip(plan.jobs, keys)]


@dataclass
class SitePlan:
    """Everything a build renders: the Jinja environment, the context every page shares, the pages as
    (path, template, make) jobs whose context `make()` builds only when the page is rendered (in the
    worker that renders it), and the small files (styles, sitemap, feeds, 404) already made."""
    env: jinja2.Environment
    common: dict
    jobs: list
    files: dict
    charts: Any
    updated: Any
    dates: dict
    touched: list
    keys: Any = None
    # {page: (key, charts, stub hash)} of the previous build into the same site/, when its stubs were cut by this
    # very league (build.py): a page rendered again to the same bytes takes its stub's hash from there (_share)
    previous_stubs: Any = None


def render_site(results: Results, templates: Path | None = None, draft: bool = False) -> dict[str, str | bytes]:
    """The whole site in memory, {path: text or bytes} (small sites and tests; builds stream, see run_plan)."""
    plan = plan_site(results, templates, draft)
    files = dict(plan.files)
    pages, chart_files, _stubs = render_all(plan)
    files.update(pages)
    files.update(chart_files)
    return files


def plan_site(results: Results, templates: Path | None = None, draft: bool = False,
              keys_for: tuple | None = None,
              dates: dict | None = None, env: jinja2.Environment | None = None) -> SitePlan:
    """The pages to render. `keys_for=(content, flags[, signatures, inputs, previous record])` also gives each
    page its key (league/engine/incremental.py), with which a rebuild keeps the pages whose key is unchanged."""
    templates = Path(templates) if templates else default_templates()
    env = env or _env(templates, results.league.locale)   # env: prepare_env's, for this locale
    site = Site(results)
    league = results.league
    files: dict[str, str | bytes] = {}
    css = (templates / "static" / "style.css").read_bytes()
    css_name = f"static/style.{hashlib.sha256(css).hexdigest()[:10]}.css"
    files[css_name] = css
    js = (templates / "static" / "site.js").read_bytes()
    js_name = f"static/site.{hashlib.sha256(js).hexdigest()[:10]}.js"
    files[js_name] = js
    seasons = results.seasons
    current = results.current
    if dates is None:   # the build asks git early, while it loads (a small process forks faster)
        from league.content.provenance import git_dates
        dates = git_dates(Path(league.content_dir))
    content_dates = [st.date for sr in seasons for st in sr.season.stages if st.status != "scheduled"]
    content_dates += [c.date for sr in seasons for c in sr.season.championships if c.status != "scheduled"]
    updated = max(dates.values(), default=None) or max(content_dates, default=None)

    nav = [{"title": _("Início"), "url": site.url()}]
    for sr in reversed(seasons[-3:]):
        nav.append({"title": _("Temporada %(year)s") % {"year": sr.season.year},
                    "url": site.season_url(sr.season.year)})
    nav += [{"title": _("Clubes"), "url": site.url("clubes")}, {"title": _("Jogadores"), "url": site.url("jogadores")},
            {"title": _("Notícias"), "url": site.url("noticias")}]
    nav += [{"title": p.title, "url": site.url(p.slug)} for p in league.pages]
    nav.append({"title": _("Busca"), "url": site.url("busca")})
    common = {"league": league, "site": site, "nav": nav, "css": site.root + css_name, "updated": updated,
              "explain": explain, "draft": draft, "js": site.root + js_name}
    from league.site.charts import Charts
    charts = common["charts"] = Charts(results, site)
    touched: list = []   # the chart files the page being rendered asked for (kept with it on a rebuild)
    charts.touched = touched   # (a list, not a wrapper of charts._keep: that closure would make a reference
    # cycle holding the whole results, which a long-lived process such as league serve would keep)
    urls: list[str] = []
    keys = None
    if keys_for is not None:
        from league.engine.incremental import PageKeys, page_base
        inputs = keys_for[3] if len(keys_for) > 3 else None
        keys = LazyKeys(lambda base: PageKeys(results, site, keys_for[0], templates, keys_for[1], updated, dates,
                                              keys_for[2] if len(keys_for) > 2 else None, inputs,
                                              keys_for[4] if len(keys_for) > 4 else None, base),
                        lambda: page_base(results, keys_for[0], templates, keys_for[1], updated, inputs))

    jobs: list = []  # (path, template, make, updated, key): make() builds the context where the page is rendered

    def page(path: str, template: str, make, page_updated=None, key=None):
        jobs.append((path, template, make, page_updated, key))
        if path.endswith("index.html"):
            urls.append(path[: -len("index.html")])

    # home
    def home():
        latest = [r for sr in seasons for r in sr.stages if r.stage.status != "scheduled"]
        latest.sort(key=lambda r: (r.stage.date, r.stage.id), reverse=True)
        upcoming = [r.stage for sr in seasons for r in sr.stages if r.stage.status == "scheduled"]
        champs = [c for sr in seasons for c in sr.championships if c.championship.status != "scheduled"]
        champs.sort(key=lambda c: (c.championship.date, c.championship.id), reverse=True)
        latest_champs = [{"url": site.url(c.championship.season, "quatrilho", c.championship.id),
                          "name": c.championship.name, "date": c.championship.date,
                          "status": STATUS_M.get(c.championship.status, c.championship.status),
                          "state": c.championship.status,
                          "top": [(ln.position, site.player_name(ln.player)) for ln in c.lines[:3]]}
                         for c in champs[:3]]
        return dict(current=season_view(site, current) if current else None, championships=latest_champs,
                    latest=[{"stage": r.stage, "top": [(p, r.stage.teams[p.key].name) for p in r.classification[:3]],
                             "status": STATUS[r.stage.status]} for r in latest[:3]],
                    upcoming=upcoming, news=league.news[:5], title=league.name)
    page("index.html", "index.html", home)
    from league.games.quatrilho.views import championship_view, season_overview
    for sr in seasons:
        page(f"{sr.season.year}/index.html", "season.html",
             lambda sr=sr: {**season_view(site, sr), "title": sr.season.title}, key=keys and keys.later("season", sr))
        for res in sr.stages:
            page(f"{sr.season.year}/truco/{res.stage.id}/index.html", "stage.html",
                 lambda sr=sr, res=res: {**stage_view(site, sr, res), "title": f"{res.stage.name} — {sr.season.title}"},
                 page_updated=dates.get(res.stage.path) or res.stage.date,
                 key=keys and keys.later("stage", sr, res, [n for n in league.news if n.stage == res.stage.id and
                                                            n.season in (None, res.stage.season)]))
        if sr.championships:
            year = sr.season.year
            for cres in sr.championships:
                ch = cres.championship
                page(f"{year}/quatrilho/{ch.id}/index.html", "championship.html",
                     lambda sr=sr, cres=cres: championship_view(site, sr, cres), key=keys and keys.later("championship", sr, ch))
            page(f"{year}/quatrilho/index.html", "quatrilho_season.html", lambda sr=sr: season_overview(site, sr),
                 key=keys and keys.later("quatrilho_season", sr))
    # clubs
    clubs = sorted(league.clubs.values(), key=lambda c: c.name.lower())
    page("clubes/index.html", "clubs.html", lambda: dict(clubs=clubs, title=_("Clubes")),
         key=keys and keys.later("summary", "clubs"))
    for c in clubs:
        page(f"clubes/{c.id}/index.html", "club.html", lambda c=c: club_view(site, c), key=keys and keys.later("club", c.id))
    # teams
    for tid in sorted(site.team_hist):
        page(f"equipes/{tid}/index.html", "team.html", lambda tid=tid: team_view(site, tid), key=keys and keys.later("team", tid))
    # pairs
    annual_by_pair: dict = defaultdict(list)
    for sr in seasons:
        for e in sr.pairs:
            annual_by_pair[e.key].append((sr, e))
    for pair in sorted(site.pair_hist):
        page(f"duplas/{pair_slug(pair)}/index.html", "pair.html",
             lambda pair=pair: pair_view(site, pair, annual_by_pair.get(pair, ())), key=keys and keys.later("pair", pair))
    # players
    players = sorted(league.players.values(), key=lambda p: p.name.lower())
    page("jogadores/index.html", "players.html", lambda: dict(players=players, title=_("Jogadores")),
         key=keys and keys.later("summary", "players"))
    for pl in players:
        page(f"jogadores/{pl.id}/index.html", "player.html", lambda pl=pl: player_view(site, pl), key=keys and keys.later("player", pl.id))
    # pages and news
    for p in league.pages:
        if p.slug in RESERVED or p.slug.isdigit():
            continue  # reported by the loader
        page(f"{p.slug}/index.html", "page.html", lambda p=p: dict(doc=p, title=p.title),
             key=keys and keys.later("summary", "page", p.slug))
    page("noticias/index.html", "news_list.html", lambda: dict(news=league.news, title=_("Notícias")))
    for n in league.news:
        page(f"noticias/{n.slug}/index.html", "page.html", lambda n=n: dict(doc=n, title=n.title),
             key=keys and keys.later("news", n))
    page("busca/index.html", "search.html", lambda: dict(results_seasons=seasons, title=_("Busca")),
         key=keys and keys.later("summary", "search"))
    files["404.html"] = env.get_template("404.html").render(**common, title=_("Página não encontrada"),
                                                            page_path="404.html")
    base = league.base_url.rstrip("/")
    origin = f"{urlparse(league.base_url).scheme}://{urlparse(league.base_url).netloc}" if "://" in base else ""
    files["sitemap.xml"] = env.get_template("sitemap.xml").render(urls=sorted(origin + site.root + u for u in urls
                                                                              if True) if origin else
                                                                  sorted(site.root + u for u in urls))
    files["robots.txt"] = ("User-agent: *\nDisallow: /\n" if draft else
                           f"User-agent: *\nAllow: /\nSitemap: {origin}{site.root}sitemap.xml\n")
    from league.site.feeds import feed_files; files.update(feed_files(results, site))  # noqa: E702
    return SitePlan(env=env, common=common, jobs=jobs, files=files, charts=charts, updated=updated,
                    dates=dates, touched=touched, keys=keys)


def club_view(site: Site, c) -> dict:
    history = []
    by_season: dict = defaultdict(list)
    for sr, res, p in site.club_hist.get(c.id, ()):
        by_season[id(sr)].append((res, p))
    for sr in site.r.seasons:
        entry = next((e for e in sr.clubs if e.key == c.id), None)
        stages = [{"stage": res.stage, "team": res.stage.teams[p.key].name, "team_url": site.team_url(p.key),
                   "pos": pos_text(p.position, p.tied), "points": p.points, "how": place_how(res, p)}
                  for res, p in by_season.get(id(sr), ())]
        if entry or stages:
            history.append({"season": sr.season, "entry": entry, "stages": stages,
                            "pos": pos_text(entry.position, entry.tied) if entry else None})
    players = sorted((p for p in site.league.players.values() if p.club == c.id), key=lambda p: p.name)
    return dict(club=c, history=history, players=players, teams=sorted(site.club_teams.get(c.id, ())), title=c.name)


def team_view(site: Site, tid: str) -> dict:
    hist = site.team_hist[tid]
    rows = []
    for sr, res, p in hist:
        wins, losses = site.stage_record(res).get(tid, (0, 0))
        rows.append({"season": sr.season, "stage": res.stage, "pos": pos_text(p.position, p.tied),
                     "points": p.points, "how": place_how(res, p),
                     "record": _("%(wins)sV %(losses)sD") % {"wins": wins, "losses": losses}})
    team = hist[-1][1].stage.teams[tid]
    squad = [(site.pair_name(x), site.pair_url(x) if page else None) for x, page in site.squad_links(tid)]
    return dict(team=team, club_name=site.club_name(team.club), club_url=site.club_url(team.club), rows=rows,
                squad=squad, title=team.name)


def pair_view(site: Site, pair, annual_hist) -> dict:
    rows = []
    for sr, res, p in site.pair_hist[pair]:
        team = res.pair_team.get(pair)
        rows.append({"season": sr.season, "stage": res.stage, "pos": pos_text(p.position, p.tied),
                     "team": res.stage.teams[team].name if team else "",
                     "team_url": site.team_url(team) if team else None, **p.row.values, "rp": p.points})
    annual = [{"season": sr.season, "pos": pos_text(e.position, e.tied), "points": e.points}
              for sr, e in annual_hist]
    return dict(pair=pair, name=site.pair_name(pair), players=[(site.player_name(x), site.player_url(x)) for x in pair],
                rows=rows, annual=annual, title=site.pair_name(pair))


def player_view(site: Site, pl) -> dict:
    pairs = []
    stages = []   # both tables in one pass over each pair's stages
    for pair in site.player_pairs.get(pl.id, ()):
        partner = pair[0] if pair[1] == pl.id else pair[1]
        partner_name = site.player_name(partner)
        url = site.pair_url(pair)
        hist = site.pair_hist[pair]
        points = Decimal(0)
        for sr, res, p in hist:
            points += p.points
            team = res.pair_team.get(pair)
            stage = res.stage
            stages.append({"season": sr.season, "stage": stage, "pos": pos_text(p.position, p.tied),
                           "points": p.points, "pair_url": url, "partner": partner_name,
                           "team": stage.teams[team].name if team else ""})
        pairs.append(((site.pair_name(pair), pair), {"url": url, "partner": partner_name,
                      "partner_url": site.player_url(partner), "stages": len(hist), "points": points}))
    pairs.sort(key=lambda e: e[0])
    pairs = [e[1] for e in pairs]
    stages.sort(key=lambda s: (s["stage"].date, s["stage"].id))
    from league.games.quatrilho.views import history
    return dict(player=pl, club_name=site.club_name(pl.club) if pl.club else None,
                club_url=site.club_url(pl.club) if pl.club else None, pairs=pairs, stages=stages,
                title=pl.name, quatrilho=history(site, pl.id))


PARALLEL_MIN = 100    # below this many pages, forking costs more than it saves
CHUNK = 16            # pages a process takes at a time (a few milliseconds of work)


def _units(jobs: list, pages_only: bool = False) -> list[list[int]]:
    """The jobs' numbers in units for the processes to take (league.workers.TaskFeed): the pages in runs
    of CHUNK, in order (so pagefind, which must get them in path order, rarely waits for one), then the
    groups of files that are not pages (the API), one per unit, unless `pages_only`."""
    pages = [i for i, job in enumerate(jobs) if job[1] is not None]
    chunk = max(CHUNK, -(-len(pages) // 8_000))
    units = [pages[k:k + chunk] for k in range(0, len(pages), chunk)]
    if not pages_only:
        units += [[i] for i, job in enumerate(jobs) if job[1] is None]
    return units


def _taken(feed, units, on_unit=None):
    for u in feed.take():
        if on_unit is not None:
            on_unit()
        yield from units[u]


def _counted(indices, progress, every: int = CHUNK):
    """`indices`, telling `progress` how many were taken, every `every` (one process: the count is exact)."""
    for k, i in enumerate(indices):
        if k % every == 0:
            progress(k)
        yield i


def render_page(plan: SitePlan, job) -> str:
    """One page's HTML: its context is built here (in the worker rendering it)."""
    path, template, make, upd, _key = job
    ctx = make()
    ch = ctx.get("ch")
    if upd is None and getattr(ch, "path", None):
        upd = plan.dates.get(ch.path) or ch.date
    ctx = {**plan.common, "updated": upd or plan.updated, **ctx, "page_path": path,
           "search_kind": SEARCH_KINDS.get(template)}
    return plan.env.get_template(template).render(ctx)


def _share(plan: SitePlan, indices, emit, on_stub=None, emit_charts: bool = False) -> dict:
    """Render the jobs numbered `indices` (any iterable), handing each (path, html) to `emit` (and, when given,
    (job index, search stub) to `on_stub`); returns, per page, (key, the chart files it asked for, its
    search stub — or, for a page rendered to the bytes the previous site has, the league.search.StubHash the
    previous build recorded, see SitePlan.previous_stubs). `emit_charts`: the chart files a page asked for are emitted right after it (each
    chart is on one page: club, pair, season, a player's Quatrilho curve) instead of being kept in
    plan.charts.files.

    No cyclic garbage collection meanwhile (league.cache.gc_paused): rendering makes no reference cycles (a
    full collection after rendering the 20-season archive with the collector off finds nothing to free), but
    it reads back each stage's matches (LazyPhases: ~6,000 objects a stage, kept) and keeps what it has
    formatted, and the collector walked that growing heap again and again — ~0.26 CPU-s in each rendering
    process of a whole-site build of the archive from a warm cache, 7 % of the build."""
    from league.engine.cache import gc_paused
    from league.site.search import StubHash, stub
    meta = {}
    charts = plan.charts.files
    emitted: set = set()
    jobs = plan.jobs
    touched = plan.touched
    # a page whose bytes are those of the previous site's file (emit said False: not written) has that file's
    # stub, whose hash the previous build recorded: not cut out again (a template edit renders every page, and
    # most come out the same). Not while pagefind is fed the stubs' text (on_stub: a first build, nothing to reuse)
    previous = plan.previous_stubs if on_stub is None else None
    with gc_paused():
        for i in indices:
            job = jobs[i]
            if job[1] is None:   # not a page: a group of files (a season's JSON and CSV), made by make()
                meta[job[0]] = (_known(job[4]), emit_files(job[2](), emit), None)
                continue
            del touched[:]
            html = render_page(plan, job)
            written = emit(job[0], html)
            if emit_charts:
                for path in touched:
                    svg = charts.pop(path, None)
                    if svg is not None and path not in emitted:
                        emitted.add(path)
                        emit(path, svg)
            old = previous.get(job[0]) if written is False and previous is not None else None
            if old is not None:
                text = None if old[2] is None else StubHash(old[2])
            else:
                text = stub(html)
            meta[job[0]] = (_known(job[4]), tuple(touched), text)
            if on_stub is not None:
                on_stub(i, text)
    return meta


def emit_files(files: dict, emit) -> tuple[str, ...]:
    """A group of files that are not pages ({path: text or bytes}) handed to `emit` in path order; their paths."""
    names = tuple(sorted(files))
    for rel in names:
        emit(rel, files[rel])
    return names


def _known(key):
    """A key already worked out, or None (a LazyKeys thunk: build fills it in; it cannot go through a pipe)."""
    return None if isinstance(key, _Key) else key


_NO_STUB = 0xFFFFFFFF   # a page without a search stub, in a worker's stub pipe


def _stub_sender(fd: int):
    """In a worker: on_stub writing (job index, stub) records into the pipe `fd` (to _StubRelay)."""
    def send(i: int, text: str | None) -> None:
        data = b"" if text is None else text.encode("utf-8")
        view = memoryview(struct.pack("<II", i, _NO_STUB if text is None else len(data)) + data)
        while view:
            view = view[os.write(fd, view):]
    return send


class _StubRelay:
    """In the parent: the stubs the workers send through their pipes as they render, handed to `on_stub`
    as they come (poll(), between the parent's own pages) and until every worker has closed its pipe
    (drain())."""

    def __init__(self, on_stub):
        self.on_stub = on_stub
        self.fds: dict[int, bytearray] = {}

    def watch(self, fd: int) -> None:
        os.set_blocking(fd, False)
        self.fds[fd] = bytearray()

    def poll(self) -> None:
        for fd in list(self.fds):
            self._read(fd)

    def drain(self) -> None:
        for fd in list(self.fds):
            os.set_blocking(fd, True)
            while fd in self.fds:
                self._read(fd)

    def close(self) -> None:
        for fd in list(self.fds):
            os.close(fd)
        self.fds.clear()

    def _read(self, fd: int) -> None:
        try:
            data = os.read(fd, 1 << 16)   # not more: a read allocates what it may get
        except BlockingIOError:
            return
        buf = self.fds[fd]
        if not data:   # the worker is done (or died: join_worker says so)
            os.close(fd)
            del self.fds[fd]
            return
        buf += data
        at = 0
        while len(buf) - at >= 8:
            i, size = struct.unpack_from("<II", buf, at)
            end = at + 8 + (0 if size == _NO_STUB else size)
            if len(buf) < end:
                break
            self.on_stub(i, None if size == _NO_STUB else buf[at + 8:end].decode("utf-8"))
            at = end
        del buf[:at]


def workers_for(n_jobs: int) -> int:
    import multiprocessing
    workers = min(os.cpu_count() or 1, 4)
    if n_jobs < PARALLEL_MIN or workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return workers


def run_plan(plan: SitePlan, emit, worker_emit=None, worker_done=None, on_stub=None,
             emit_charts: bool = False, unfreeze: bool = True, progress=None) -> tuple[dict, dict, list]:
    """Render every page of `plan`: in this process, or, when the site is large, in it and forked workers,
    each taking the next run of pages from a TaskFeed when it is free and emitting what it renders (no
    process ever holds the whole site's HTML). `emit`
    runs in this process; `worker_emit` in a worker (default: emit); `worker_done()` returns, from a worker,
    what it must send back. `on_stub(job index, search stub)` is called in this process for every page
    as soon as it is rendered, in whichever process (the build feeds pagefind with them meanwhile).
    `emit_charts`: chart files are emitted with their page, by the process that rendered it (see _share).
    `unfreeze=False` leaves the heap frozen (gc.freeze, before the fork) for the caller to unfreeze when it
    is done: handed back at once, the loaded content is walked by the next full collection (0.4 s on the
    archive, in the middle of a build's last steps).
    `progress(jobs)`, in this process only (a worker draws nothing: it would draw a bar of its own over
    this one's), is told how many of the jobs every process has taken so far, and len(plan.jobs) at the end.
    Returns ({page: (key, charts, search stub)}, chart files, worker results)."""
    n = workers_for(len(plan.jobs))
    # while pagefind is fed, the files that are not pages (the API) are made here once the workers are
    # done: pagefind builds the index meanwhile on the other core, and the workers' memory is freed before
    # pagefind takes the index's (the process tree's peak stays under 400 MB on the archive)
    after = [i for i, job in enumerate(plan.jobs) if job[1] is None] if on_stub is not None else []
    units = _units(plan.jobs, pages_only=bool(after))
    if n == 1 or len(units) < 2:
        indices = range(len(plan.jobs))
        meta = _share(plan, _counted(indices, progress) if progress else indices, emit, on_stub, emit_charts)
        if progress:
            progress(len(plan.jobs))
        return meta, dict(plan.charts.files), []
    import gc
    from league.engine.workers import TaskFeed, fork_result, join_result, kill_worker, widen_pipe
    for name in sorted({job[1] for job in plan.jobs if job[1]}):   # compiled once, here, not by every worker
        plan.env.get_template(name)
    relay = _StubRelay(on_stub) if on_stub is not None else None
    feed = TaskFeed(len(units))   # every process takes the next unit when it is free: all finish together
    on_unit = None
    if progress is not None:
        taken = feed.counter(units)

        def on_unit():
            progress(taken())
    # the workers' garbage collector leaves the inherited objects alone: copy-on-write stays shared. No
    # gc.collect() first: it walked everything made since the load was frozen (the plan, the results:
    # 0.07 s on the archive, with the other core idle) and found nothing to free (the content makes no
    # reference cycles); a cycle frozen here would be freed when the build unfreezes the heap
    gc.freeze()
    children = []
    try:
        for _ in range(1, n):
            stub_r = stub_w = None
            if relay is not None:
                stub_r, stub_w = os.pipe()
                widen_pipe(stub_w)   # room for a few hundred stubs: the worker rarely waits for this process to read them

            def work(stub_r=stub_r, stub_w=stub_w):   # in the worker
                send = None
                if stub_w is not None:
                    os.close(stub_r)
                    send = _stub_sender(stub_w)
                try:
                    stubs = _share(plan, _taken(feed, units), worker_emit or emit, send, emit_charts)
                finally:   # closed before the result is sent: the parent reads the stubs to their end first
                    if stub_w is not None:
                        os.close(stub_w)
                return stubs, dict(plan.charts.files), worker_done() if worker_done else None
            children.append(fork_result(work))
            if relay is not None:
                os.close(stub_w)
                relay.watch(stub_r)
        if relay is not None:
            def polled(indices):   # the workers' stubs are passed on between this process's jobs
                for i in indices:
                    relay.poll()
                    yield i
            stubs = _share(plan, polled(_taken(feed, units, on_unit)), emit, on_stub, emit_charts)
            relay.drain()
        else:
            stubs = _share(plan, _taken(feed, units, on_unit), emit, emit_charts=emit_charts)
        chart_files = dict(plan.charts.files)
        extra = []
        for pid, r in children:
            s, cf, done = join_result(pid, r)
            stubs.update(s)
            chart_files.update(cf)
            extra.append(done)
        children = []
        if after:
            stubs.update(_share(plan, after, emit, None, emit_charts))   # files, no charts
        if progress is not None:
            progress(len(plan.jobs))
    finally:
        if unfreeze:
            gc.unfreeze()
        feed.close()
        if relay is not None:
            relay.close()
        for pid, r in children:   # an error in this process: do not leave workers behind
            kill_worker(pid, r)
    return stubs, chart_files, extra


def render_all(plan: SitePlan) -> tuple[dict, dict, dict]:
    """Every page's HTML in memory (tests and small sites)."""
    pages: dict = {}

    def emit(path, html):
        pages[path] = html
    if workers_for(len(plan.jobs)) > 1:
        # workers send their pages back
        mine: dict = {}

        def worker_emit(path, html):
            mine[path] = html
        stubs, charts, extra = run_plan(plan, emit, worker_emit, lambda: mine)
        for part in extra:
            pages.update(part)
    else:
        stubs, charts, _extra = run_plan(plan, emit)
    return dict(sorted(pages.items())), charts, stubs
