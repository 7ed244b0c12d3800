"""What lets a club's webmaster find the API's files (issue 37): api/index.json (every season, its stages and
championships with their files), the registries api/clubs.json and api/players.json, and api/latest/, the
current season's files again (the current season: the latest by year, Results.current)."""
from __future__ import annotations

from league.games.results import Results, SeasonResult
from league.models import pair_slug
from league.site.apiformat import dumps

LATEST = "latest"
RANKING_FILES = ("ranking.json", "ranking-clubes.csv", "ranking-clubes-br.csv", "ranking-duplas.csv",
                 "ranking-duplas-br.csv")
STAGE_FILES = (".json", "-classificacao.csv", "-classificacao-br.csv", "-grupos.csv", "-grupos-br.csv",
               "-duplas.csv", "-duplas-br.csv")
CHAMPIONSHIP_FILES = (".json", "-classificacao.csv", "-classificacao-br.csv", "-mesas.csv", "-mesas-br.csv")
QUALIFIERS_FILES = ("qualifiers.json", "qualifiers.csv", "qualifiers-br.csv")


def absolute(base_url: str, path: str) -> str:
    """A page's address from league.yaml's base_url (https://example.org/ + clubes/oeste/)."""
    return base_url.rstrip("/") + "/" + path


def embed_paths(results: Results) -> dict:
    """The embeddable pages (league.site.embed), by what they show: {"ranking": {year: path}, "clubs":
    {club: path}, "pairs": {pair: path}}; clubs and pairs of the current season only."""
    current = results.current
    pairs = sorted({p.key for r in current.stages for p in r.pairs}) if current else []
    return {"ranking": {sr.season.year: f"embed/{sr.season.year}/ranking/" for sr in results.seasons},
            "clubs": {cid: f"embed/clubes/{cid}/" for cid in sorted(results.league.clubs)} if current else {},
            "pairs": {pair: f"embed/duplas/{pair_slug(pair)}/" for pair in pairs}}


def season_index(sr: SeasonResult, current: bool, embeds: dict, base_url: str) -> dict:
    """One season in index.json: its files (paths under api/), its stages' and championships'."""
    y = sr.season.year
    embed = embeds["ranking"].get(y)
    return {
        "season": y, "title": sr.season.title, "current": current,
        "files": [f"{y}/truco/{f}" for f in RANKING_FILES],
        "embed_url": absolute(base_url, embed) if embed else None,
        "stages": [{"stage": r.stage.id, "stage_name": r.stage.name, "date": r.stage.date.isoformat(),
                    "status": r.stage.status, "files": [f"{y}/truco/{r.stage.id}{f}" for f in STAGE_FILES]}
                   for r in sr.stages],
        "championships": [{"championship": c.championship.id, "championship_name": c.championship.name,
                           "date": c.championship.date.isoformat(), "status": c.championship.status,
                           "files": [f"{y}/quatrilho/{c.championship.id}{f}" for f in CHAMPIONSHIP_FILES]}
                          for c in sr.championships],
        "qualifiers": [f"{y}/quatrilho/{f}" for f in QUALIFIERS_FILES] if sr.championships else [],
    }


def index_json(results: Results) -> dict:
    current = results.current
    embeds = embed_paths(results)
    base = results.league.base_url
    return {"current": current.season.year if current else None, "latest": f"{LATEST}/" if current else None,
            "clubs": "clubs.json", "players": "players.json",
            "seasons": [season_index(sr, sr is current, embeds, base) for sr in results.seasons]}


def clubs_json(results: Results) -> dict:
    league, embeds = results.league, embed_paths(results)["clubs"]
    return {"clubs": [{"club": c.id, "club_name": c.name, "city": c.city, "url": absolute(league.base_url, f"clubes/{c.id}/"),
                       "embed_url": absolute(league.base_url, embeds[c.id]) if c.id in embeds else None}
                      for c in sorted(league.clubs.values(), key=lambda c: c.id)]}


def players_json(results: Results) -> dict:
    league = results.league
    return {"players": [{"player": p.id, "player_name": p.name, "club": p.club,
                         "club_name": league.clubs[p.club].name if p.club in league.clubs else p.club,
                         "url": absolute(league.base_url, f"jogadores/{p.id}/")}
                        for p in sorted(league.players.values(), key=lambda p: p.id)]}


def index_files(results: Results) -> dict[str, str]:
    """api/index.json, api/clubs.json, api/players.json (made again by every build: they sum up the site)."""
    return {"api/index.json": dumps(index_json(results)), "api/clubs.json": dumps(clubs_json(results)),
            "api/players.json": dumps(players_json(results))}


def latest(files: dict[str, str], year: str) -> dict[str, str]:
    """The files of season `year` again under api/latest/ (the same bytes)."""
    prefix = f"api/{year}/"
    return {f"api/{LATEST}/{p[len(prefix):]}": text for p, text in files.items() if p.startswith(prefix)}


def latest_files(results: Results, files: dict[str, str]) -> dict[str, str]:
    """api/latest/: the current season's files among `files`."""
    return latest(files, results.current.season.year) if results.current else {}
