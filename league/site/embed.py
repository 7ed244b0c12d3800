"""The pages a club puts on its own site in an <iframe> (issue 37, item 6): /embed/<year>/ranking/ (a season's
annual club ranking), /embed/clubes/<club>/ (the club in the current season: its annual line, its teams in the
current stage) and /embed/duplas/<pair>/ (the pair's lines in the current season). A minimal layout
(templates/embed.html: no header, no menu, a small stylesheet, a link to the full page); the only pages any
site may frame (netlify.toml). The current season is Results.current (the latest by year), as api/latest/.
Also the "Incorporar no seu site" snippet of the season and club pages: the <iframe> code to copy."""
from __future__ import annotations

from markupsafe import escape

from league.games.results import Results, SeasonResult
from league.i18n import _
from league.models import pair_slug
from league.site.api_index import absolute, embed_paths
from league.site.views import STATUS, Site, pos_text

# the height of each kind's <iframe> in the snippet, in CSS pixels (the page scrolls inside it when longer)
HEIGHTS = {"ranking": 480, "club": 300, "pair": 300}


def current_stage(sr: SeasonResult):
    """The season's current stage: the latest by date (then id) that is in progress or final; None before
    the first one starts."""
    started = [r for r in sr.stages if r.stage.status != "scheduled"]
    return max(started, key=lambda r: (r.stage.date, r.stage.id)) if started else None


def snippet(league, path: str, title: str, height: int) -> dict:
    """The embed page's address and the <iframe> code a webmaster copies (its attributes escaped: the code is
    HTML of its own, shown as text on the page)."""
    url = absolute(league.base_url, path)
    code = (f'<iframe src="{escape(url)}" title="{escape(title)}" width="100%" height="{height}" '
            'loading="lazy"></iframe>')
    return {"url": url, "code": code}


def ranking_snippet(site: Site, sr: SeasonResult) -> dict:
    return snippet(site.league, f"embed/{sr.season.year}/ranking/",
                   _("Ranking de clubes %(year)s") % {"year": sr.season.year}, HEIGHTS["ranking"])


def club_snippet(site: Site, club) -> dict | None:
    """The club page's snippet; None without a season (no embed page)."""
    if site.r.current is None:
        return None
    return snippet(site.league, f"embed/clubes/{club.id}/", _("%(club)s: classificação") % {"club": club.name},
                   HEIGHTS["club"])


def pair_snippet(site: Site, pair) -> dict:
    """A pair page's snippet (a pair of the current season)."""
    return snippet(site.league, f"embed/duplas/{pair_slug(pair)}/", _("%(pair)s: classificação") %
                   {"pair": site.pair_name(pair)}, HEIGHTS["pair"])


def ranking_view(site: Site, sr: SeasonResult) -> dict:
    """/embed/<year>/ranking/: the annual club ranking (position, club, points)."""
    rows = [{"pos": pos_text(e.position, e.tied), "name": site.club_name(e.key), "url": site.club_url(e.key),
             "points": e.points} for e in sr.clubs]
    finals = sum(1 for r in sr.stages if r.stage.is_final)
    return {"title": _("Ranking de clubes %(year)s") % {"year": sr.season.year}, "rows": rows,
            "full_url": site.season_url(sr.season.year), "finals": finals, "stages": len(sr.stages),
            "kind": "ranking"}


def club_view(site: Site, sr: SeasonResult, club) -> dict:
    """/embed/clubes/<club>/: the club's line in the current season's ranking and its teams in the current stage
    (their places when it is final, their group lines while it is in progress)."""
    entry = next((e for e in sr.clubs if e.key == club.id), None)
    res = current_stage(sr)
    view = {"title": club.name, "season": sr.season, "kind": "club", "full_url": site.club_url(club.id),
            "entry": entry, "pos": pos_text(entry.position, entry.tied) if entry else None,
            "stage": None, "places": [], "groups": []}
    if res is not None:
        teams = {tid for tid, t in res.stage.teams.items() if t.club == club.id}
        view.update(stage=res.stage, stage_url=site.stage_url(res.stage), status=STATUS[res.stage.status])
        view["places" if res.stage.is_final else "groups"] = (_places if res.stage.is_final else _groups)(res, teams)
    return view


def _places(res, teams: set) -> list[dict]:
    """The final places of `teams` in a stage, with their ranking points."""
    return [{"team": res.stage.teams[p.key].name, "pos": pos_text(p.position, p.tied), "points": p.points}
            for p in res.classification if p.key in teams]


def _groups(res, teams: set) -> list[dict]:
    """The lines of `teams` in the groups of a stage in progress, in the order of the groups."""
    return [{"team": res.stage.teams[r.key].name, "group": g.name, "pos": pos_text(r.position, r.tied),
             "played": r.row["played"], "wins": r.row["wins"], "points": r.row["points"]}
            for g in res.groups for r in g.ranked if r.key in teams]


def pair_view(site: Site, sr: SeasonResult, pair) -> dict:
    """/embed/duplas/<pair>/: the pair's line in the current season's pair ranking and in each of its stages."""
    entry = next((e for e in sr.pairs if e.key == pair), None)
    year = sr.season.year
    rows = [{"stage": res.stage, "url": site.stage_url(res.stage), "pos": pos_text(p.position, p.tied),
             "played": p.row["played"], "wins": p.row["wins"], "points": p.row["points"], "rp": p.points,
             "status": STATUS[res.stage.status]}
            for s, res, p in site.pair_hist.get(pair, ()) if s.season.year == year]
    return {"title": site.pair_name(pair), "season": sr.season, "kind": "pair", "full_url": site.pair_url(pair),
            "entry": entry, "pos": pos_text(entry.position, entry.tied) if entry else None, "rows": rows}


def embed_pages(pages, site: Site, results: Results) -> None:
    """The embed pages as jobs of the plan (league.site.render._Pages), out of the sitemap: a season's ranking
    for every season, a page for every club of clubs.yaml and every pair of the current season."""
    paths = embed_paths(results)
    for sr in results.seasons:
        pages.add(paths["ranking"][sr.season.year] + "index.html", "embed.html",
                  lambda sr=sr: ranking_view(site, sr), key=pages.key("season", sr), listed=False)
    current = results.current
    if current is None:
        return
    for cid, path in paths["clubs"].items():
        club = results.league.clubs[cid]
        pages.add(path + "index.html", "embed.html", lambda club=club: club_view(site, current, club),
                  key=pages.key("season", current), listed=False)
    for pair, path in paths["pairs"].items():
        pages.add(path + "index.html", "embed.html", lambda pair=pair: pair_view(site, current, pair),
                  key=pages.key("embed_pair", pair), listed=False)
