"""From results to pages: the Jinja2 environment (autoescape, StrictUndefined) and the site's plan — every
page as a PageJob (its path, template, and the view model made only where it is rendered) plus the small
files (styles, sitemap, robots, feeds, 404). The engine renders the plan (league.engine.rendering) and
writes it (league.site.writer)."""
from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, NamedTuple, Optional
from urllib.parse import urlparse

import jinja2

from league import i18n
from league.games.results import Results
from league.i18n import _
from league.models import pair_slug
from league.site.api_index import embed_paths
from league.site.embed import club_snippet, embed_pages, pair_snippet, ranking_snippet
from league.site.paths import default_templates
from league.site.rules import page_view
from league.site.views import (
    RESERVED, SEARCH_KINDS, STATUS, STATUS_M, Site, club_view, date_br, date_short, player_view, pair_view,
    pos_text, pts_text, season_view, stage_news, stage_view, team_view,
)
from league.standings.explain import NAMES, explain, signed


class PageJob(NamedTuple):
    """One page to render: `make()` builds its context where it is rendered (in the worker); `updated`: the
    date shown as the page's last update (None: the site's); `key`: its key for incremental builds (None
    in a build without them; a thunk of league.engine.incremental until resolved); `template` None for a
    job that makes files, not a page (the API's)."""
    path: str
    template: Optional[str]
    make: Callable[[], Any]
    updated: Any = None
    key: Any = None


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


def site_env(templates: Path, locale: str | None = None,
             bytecode_cache: jinja2.BytecodeCache | None = None) -> jinja2.Environment:
    """The Jinja2 environment. Its templates are compiled when first used, or all at once by prepare_env (a
    build does that while its files load); `bytecode_cache`: where compiled templates are kept between builds
    (the engine's, league/engine/template_cache.py; None: compiled in memory only)."""
    env = SiteEnvironment(loader=jinja2.FileSystemLoader(str(templates)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             auto_reload=False, bytecode_cache=bytecode_cache)   # one build = one environment
    i18n.install(env, locale)  # gettext/ngettext, Babel's date, number and money filters, lang (league/i18n.py)
    env.filters.update(date_br=date_br, date_short=date_short, num=pts_text, signed=signed, pos=pos_text)
    env.globals.update(STATUS=STATUS, STATUS_M=STATUS_M, NAMES=NAMES)
    return env


def _template_names(templates: Path) -> list[str]:
    """The templates a build compiles (prepare_env), by name."""
    return sorted(n for n in jinja2.FileSystemLoader(str(templates)).list_templates() if n.endswith((".html", ".xml")))


def prepare_env(templates: Path | None, locale: str | None,
                bytecode_cache: jinja2.BytecodeCache | None = None) -> jinja2.Environment:
    """The Jinja2 environment with every template compiled (a build does this while its files load)."""
    templates = Path(templates) if templates else default_templates()
    env = site_env(templates, locale, bytecode_cache)
    for name in _template_names(templates):
        env.get_template(name)
    return env


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
    # {page: the pairs whose board rows it lists}: the pair and player pages (make_shared)
    board_pairs: dict = field(default_factory=dict)

    def make_shared(self, paths) -> None:
        """What the pages at `paths` share, made now: the board rows their pair and player pages list
        (league.site.boards.make_board_rows). Called before rendering is shared out among processes, so that
        each does not make them again."""
        from league.site.boards import make_board_rows
        board_pairs = self.board_pairs
        pairs = {pair for path in paths for pair in board_pairs.get(path, ())}
        make_board_rows(self.common["site"], sorted(pairs))


def _css_string(text: str) -> str:
    """`text` as a CSS string: quotes, backslashes and line breaks escaped."""
    return '"' + "".join("\\" + c if c in '"\\' else ("\\a " if c in "\r\n" else c) for c in text) + '"'


def print_css(federation: str) -> bytes:
    """The margins of every printed sheet, added to the site's stylesheet: the federation's name and the
    sheet's number (CSS paged media). The name is the same on every page, so the stylesheet changes only
    when it does."""
    return ("@media print{@page{@bottom-left{content:%s;font-size:8pt;color:#333}"
            "@bottom-right{content:counter(page) \" / \" counter(pages);font-size:8pt;color:#333}}}\n"
            % _css_string(federation)).encode("utf-8")


def plan_site(results: Results, templates: Path | None = None, draft: bool = False,
              keys_for: Callable | None = None,
              dates: dict | None = None, env: jinja2.Environment | None = None,
              boards: Callable | None = None) -> SitePlan:
    """The pages to render. `keys_for(results, site, templates, updated, dates)`, when given, makes the object
    whose `later(kind, *args)` gives each page its key (league.engine.incremental.lazy_keys), with which a
    rebuild keeps the pages whose key is unchanged. `boards(stage)`: a stage's boards by pair, as
    league.site.boards.stage_boards makes them (the default), from wherever the caller keeps them."""
    templates = Path(templates) if templates else default_templates()
    env = env or site_env(templates, results.league.locale)   # env: prepare_env's, for this locale
    site = Site(results, boards)
    league = results.league
    files, css_name, js_name, embed_css = _static_files(templates, league.name)
    if dates is None:   # the build asks git early, while it loads (a small process forks faster)
        from league.content.provenance import git_dates
        dates = git_dates(Path(league.content_dir))
    updated = _last_update(results.seasons, dates)
    common = {"league": league, "site": site, "nav": _nav(site, results.seasons, league), "css": site.root + css_name,
              "updated": updated, "explain": explain, "draft": draft, "js": site.root + js_name,
              "embed_css": site.root + embed_css}
    _nav_once(env, common)
    from league.site.charts import Charts
    charts = common["charts"] = Charts(results, site)
    touched: list = []   # the chart files the page being rendered asked for (kept with it on a rebuild)
    charts.touched = touched   # (a list, not a wrapper of charts._keep: that closure would make a reference
    # cycle holding the whole results, which a long-lived process such as league serve would keep)
    pages = _Pages(keys_for(results, site, templates, updated, dates) if keys_for is not None else None)
    pages.add("index.html", "index.html", lambda: _home(site, results))
    for kind in (_season_pages, _club_pages, _team_pages, _pair_pages, _player_pages, _document_pages):
        kind(pages, site, results, dates)
    embed_pages(pages, site, results)
    files.update(_site_files(env, common, site, pages.urls, draft))
    from league.site.feeds import feed_files; files.update(feed_files(results, site))  # noqa: E702
    return SitePlan(env=env, common=common, jobs=pages.jobs, files=files, charts=charts, updated=updated,
                    dates=dates, touched=touched, keys=pages.keys, board_pairs=pages.board_pairs)


class _Pages:
    """The jobs of a plan as they are listed, the URLs of its pages (for the sitemap) and the keys that
    give each page its key on a rebuild (None: a build without them)."""

    def __init__(self, keys):
        self.keys = keys
        self.jobs: list[PageJob] = []
        self.urls: list[str] = []
        self.board_pairs: dict = {}   # SitePlan.board_pairs

    def add(self, path: str, template: str, make, page_updated=None, key=None, listed: bool = True) -> None:
        """A page; `listed` False keeps it out of the sitemap (the embed pages, made for other sites' frames)."""
        self.jobs.append(PageJob(path, template, make, page_updated, key))
        if listed and path.endswith("index.html"):
            self.urls.append(path[: -len("index.html")])

    def key(self, kind: str, *args):
        """The key of a page of this kind (`later(kind, *args)`), None in a build without keys."""
        return self.keys and self.keys.later(kind, *args)


def _static_files(templates: Path, federation: str) -> tuple[dict, str, str, str]:
    """The style sheet (with the printed sheets' margins, print_css), the script and the embed pages' small
    style sheet, named by their digest: (files, the style's path, the script's, the embed style's)."""
    css = (templates / "static" / "style.css").read_bytes() + print_css(federation)
    css_name = f"static/style.{hashlib.sha256(css).hexdigest()[:10]}.css"
    js = (templates / "static" / "site.js").read_bytes()
    js_name = f"static/site.{hashlib.sha256(js).hexdigest()[:10]}.js"
    embed = (templates / "static" / "embed.css").read_bytes()
    embed_name = f"static/embed.{hashlib.sha256(embed).hexdigest()[:10]}.css"
    return {css_name: css, js_name: js, embed_name: embed}, css_name, js_name, embed_name


def _last_update(seasons, dates: dict):
    """The site's date of last update: the newest git date of the content, else its newest played date."""
    content_dates = [st.date for sr in seasons for st in sr.season.stages if st.status != "scheduled"]
    content_dates += [c.date for sr in seasons for c in sr.season.championships if c.status != "scheduled"]
    return max(dates.values(), default=None) or max(content_dates, default=None)


def _nav_once(env: jinja2.Environment, common: dict) -> None:
    """The navigation's list items rendered once for the build (nav.html), as every page shows them but the few
    the navigation points at, which render theirs with aria-current (base.html): ~30 escaped values a page."""
    nav_items = env.get_template("nav.html").module.nav_items
    common.update(nav_items=nav_items, nav_plain=nav_items(common["nav"], None),
                  nav_urls=frozenset(item["url"] for item in common["nav"]))


def _nav(site: Site, seasons, league) -> list[dict]:
    """The menu: home, the last three seasons, clubs, players, news, the league's pages, search."""
    nav = [{"title": _("Início"), "url": site.url()}]
    for sr in reversed(seasons[-3:]):
        nav.append({"title": _("Temporada %(year)s") % {"year": sr.season.year},
                    "url": site.season_url(sr.season.year)})
    nav += [{"title": _("Clubes"), "url": site.url("clubes")}, {"title": _("Jogadores"), "url": site.url("jogadores")},
            {"title": _("Notícias"), "url": site.url("noticias")}]
    nav += [{"title": p.title, "url": site.url(p.slug)} for p in league.pages]
    nav.append({"title": _("Busca"), "url": site.url("busca")})
    return nav


def _home(site: Site, results: Results) -> dict:
    """The home page's view: the current season, the latest results and championships, what is coming."""
    seasons = results.seasons
    latest = [r for sr in seasons for r in sr.stages if r.stage.status != "scheduled"]
    latest.sort(key=lambda r: (r.stage.date, r.stage.id), reverse=True)
    upcoming = [r.stage for sr in seasons for r in sr.stages if r.stage.status == "scheduled"]
    return dict(current=season_view(site, results.current) if results.current else None,
                championships=_latest_championships(site, seasons),
                latest=[{"stage": r.stage, "top": [(p, r.stage.teams[p.key].name) for p in r.classification[:3]],
                         "status": STATUS[r.stage.status]} for r in latest[:3]],
                upcoming=upcoming, news=results.league.news[:5], title=results.league.name)


def _latest_championships(site: Site, seasons) -> list[dict]:
    """The three latest Quatrilho championships played, newest first, with their first three players."""
    champs = [c for sr in seasons for c in sr.championships if c.championship.status != "scheduled"]
    champs.sort(key=lambda c: (c.championship.date, c.championship.id), reverse=True)
    return [{"url": site.url(c.championship.season, "quatrilho", c.championship.id),
             "name": c.championship.name, "date": c.championship.date,
             "status": STATUS_M.get(c.championship.status, c.championship.status),
             "state": c.championship.status,
             "top": [(ln.position, site.player_name(ln.player)) for ln in c.lines[:3]]}
            for c in champs[:3]]


def _season_pages(pages: _Pages, site: Site, results: Results, dates: dict) -> None:
    """Each season's page, its stages' pages and its Quatrilho championships' pages and overview."""
    from league.games.quatrilho.views import championship_view, season_overview
    for sr in results.seasons:
        pages.add(f"{sr.season.year}/index.html", "season.html",
                  lambda sr=sr: {**season_view(site, sr), "title": sr.season.title,
                                 "embed": ranking_snippet(site, sr)}, key=pages.key("season", sr))
        for res in sr.stages:
            pages.add(f"{sr.season.year}/truco/{res.stage.id}/index.html", "stage.html",
                      lambda sr=sr, res=res: {**stage_view(site, sr, res),
                                              "title": f"{res.stage.name} — {sr.season.title}"},
                      page_updated=dates.get(res.stage.path) or res.stage.date,   # (its news: only for a key)
                      key=pages.keys and pages.key("stage", sr, res, stage_news(site.league, res.stage)))
        if sr.championships:
            year = sr.season.year
            for cres in sr.championships:
                pages.add(f"{year}/quatrilho/{cres.championship.id}/index.html", "championship.html",
                          lambda sr=sr, cres=cres: championship_view(site, sr, cres),
                          key=pages.key("championship", sr, cres.championship))
            pages.add(f"{year}/quatrilho/index.html", "quatrilho_season.html", lambda sr=sr: season_overview(site, sr),
                      key=pages.key("quatrilho_season", sr))


def _club_pages(pages: _Pages, site: Site, results: Results, dates: dict) -> None:
    """The list of clubs and each club's page."""
    clubs = sorted(results.league.clubs.values(), key=lambda c: i18n.collation_key(c.name))
    pages.add("clubes/index.html", "clubs.html", lambda: dict(clubs=clubs, title=_("Clubes")),
              key=pages.key("summary", "clubs"))
    for c in clubs:
        pages.add(f"clubes/{c.id}/index.html", "club.html", lambda c=c: {**club_view(site, c),
                                                                       "embed": club_snippet(site, c)},
                  key=pages.key("club", c.id))


def _team_pages(pages: _Pages, site: Site, results: Results, dates: dict) -> None:
    """Each team's page."""
    for tid in sorted(site.team_hist):
        pages.add(f"equipes/{tid}/index.html", "team.html", lambda tid=tid: team_view(site, tid),
                  key=pages.key("team", tid))


def _pair_pages(pages: _Pages, site: Site, results: Results, dates: dict) -> None:
    """Each pair's page, with its places in the annual rankings."""
    annual_by_pair: dict = defaultdict(list)
    for sr in results.seasons:
        for e in sr.pairs:
            annual_by_pair[e.key].append((sr, e))
    embeds = embed_paths(results)["pairs"]   # the pairs of the current season: their page offers the embed code
    for pair in sorted(site.pair_hist):
        path = f"duplas/{pair_slug(pair)}/index.html"
        pages.board_pairs[path] = (pair,)
        pages.add(path, "pair.html",
                  lambda pair=pair: {**pair_view(site, pair, annual_by_pair.get(pair, ())),
                                     "embed": pair_snippet(site, pair) if pair in embeds else None},
                  key=pages.key("pair", pair))


def _player_pages(pages: _Pages, site: Site, results: Results, dates: dict) -> None:
    """The list of players and each player's page."""
    players = sorted(results.league.players.values(), key=lambda p: i18n.collation_key(p.name))
    pages.add("jogadores/index.html", "players.html", lambda: dict(players=players, title=_("Jogadores")),
              key=pages.key("summary", "players"))
    for pl in players:
        path = f"jogadores/{pl.id}/index.html"
        pages.board_pairs[path] = tuple(site.player_pairs.get(pl.id, ()))
        pages.add(path, "player.html", lambda pl=pl: player_view(site, pl),
                  key=pages.key("player", pl.id))


def _document_pages(pages: _Pages, site: Site, results: Results, dates: dict) -> None:
    """The league's own pages, the news (list and posts) and the search page."""
    league = results.league
    for p in league.pages:
        if p.slug in RESERVED or p.slug.isdigit():
            continue  # reported by the loader
        pages.add(f"{p.slug}/index.html", "page.html", lambda p=p: page_view(p, league),
                  key=pages.key("summary", "page", p.slug))
    pages.add("noticias/index.html", "news_list.html", lambda: dict(news=league.news, title=_("Notícias")))
    for n in league.news:
        pages.add(f"noticias/{n.slug}/index.html", "page.html", lambda n=n: page_view(n, league),
                  key=pages.key("news", n))
    seasons = results.seasons
    pages.add("busca/index.html", "search.html", lambda: dict(results_seasons=seasons, title=_("Busca")),
              key=pages.key("summary", "search"))


def _site_files(env: jinja2.Environment, common: dict, site: Site, urls: list[str], draft: bool) -> dict:
    """The page not found (404.html), the sitemap of the pages' URLs and robots.txt (a draft: no robots)."""
    league = site.league
    files = {"404.html": env.get_template("404.html").render(**common, title=_("Página não encontrada"),
                                                             page_path="404.html")}
    base = league.base_url.rstrip("/")
    origin = f"{urlparse(league.base_url).scheme}://{urlparse(league.base_url).netloc}" if "://" in base else ""
    files["sitemap.xml"] = env.get_template("sitemap.xml").render(urls=sorted(origin + site.root + u for u in urls))
    files["robots.txt"] = ("User-agent: *\nDisallow: /\n" if draft else
                           f"User-agent: *\nAllow: /\nSitemap: {origin}{site.root}sitemap.xml\n")
    return files


def render_page(plan: SitePlan, job) -> str:
    """One page's HTML: its context is built here (in the worker rendering it)."""
    path, template, upd = job.path, job.template, job.updated
    ctx = job.make()
    ch = ctx.get("ch")
    if upd is None and getattr(ch, "path", None):
        upd = plan.dates.get(ch.path) or ch.date
    ctx = {**plan.common, "updated": upd or plan.updated, **ctx, "page_path": path,
           "search_kind": SEARCH_KINDS.get(template)}
    return plan.env.get_template(template).render(ctx)
