"""league.yaml and the season.yaml files → the league's settings and each season's (title, Truco and
Quatrilho settings), checked; and their cache entry, whose key is made of those files' bytes."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

from league.content.diagnostics import Diagnostic, SourceMark
from league.content.marked import MDict, MList, mark_of
from league.engine.shapes import Keys, Opt
from league.engine.lazy import S, validate
from league.games.truco.rules import game_error, parse_game
from league.models import League, QuatrilhoConfig, TrucoConfig

if TYPE_CHECKING:
    from league.engine.loader import Loader

# what the cache entry must hold (league.engine.shapes.fits): one that does not is corrupted, and made again
SETTINGS_ENTRY = (Keys({"name": str, "short_name": str, "base_url": str, "locale": str, "repository": Opt(str),
                        "allow_html": bool, "truco": TrucoConfig, "quatrilho": QuatrilhoConfig}),
                  [Diagnostic], {str: (str, TrucoConfig, QuatrilhoConfig, Opt(str), Opt(int), Opt(SourceMark), [Diagnostic])})

# the League's fields when league.yaml is missing or invalid (reported)
_NO_LEAGUE_FILE = dict(name="", short_name="", base_url="/", locale="pt_BR", repository=None, allow_html=False)


def cached_settings(loader: Loader) -> tuple[dict, Optional[tuple]]:
    """league.yaml's settings, and every season.yaml's into loader.seasons_done: from the cache, with the
    warnings they produced — or read, with what their cache entry needs once the seasons are read too
    (settings_entry): (settings, (key, league.yaml's diagnostics) or None)."""
    key = settings_key(loader)
    hit = loader.cache.get(key, SETTINGS_ENTRY) if key is not None else None
    if hit is not None:   # league.yaml and every season.yaml as a previous load found them
        settings, diags, loader.seasons_done = hit
        loader.diags.extend(diags)
        return settings, None
    before = len(loader.diags.items)
    settings = league_settings(loader)
    return settings, ((key, loader.diags.items[before:]) if key is not None else None)


def settings_entry(loader: Loader, settings: dict, pending: tuple) -> Optional[tuple]:
    """(key, cache entry) of the settings read (cached_settings) now that every season.yaml is read too; None
    when one of those files changed while it was read (it is used as read, but not cached under that key)."""
    key, diags = pending
    if not settings_fresh(loader):
        return None
    return key, (settings, list(diags), loader.seasons_done)


def league_settings(loader: Loader) -> dict:
    """league.yaml, read and validated: the League's fields other than the content (problems reported)."""
    lf = loader.content / "league.yaml"
    rel = loader.rel(lf)
    raw, lmodel = _league_file(loader, lf, rel)
    if lmodel:
        check_urls(loader, lmodel, raw)
    truco = truco_config(loader, lmodel.truco if lmodel else S.TrucoSettings(), None, raw, rel)
    quat = quatrilho_config(lmodel.quatrilho if lmodel else S.QuatrilhoSettings(), None)
    fields = _NO_LEAGUE_FILE if not lmodel else dict(
        name=lmodel.name, short_name=lmodel.short_name, base_url=lmodel.base_url, locale=lmodel.locale,
        repository=lmodel.repository, allow_html=lmodel.markdown.allow_html)
    return dict(**fields, truco=truco, quatrilho=quat)


def _league_file(loader: Loader, lf: Path, rel: str) -> tuple:
    """(league.yaml as read, its validated model or None)."""
    if not lf.exists():
        loader.diags.error(SourceMark(rel), "arquivo league.yaml não encontrado",
                           "crie content/league.yaml com name e short_name")
        return None, None
    raw = loader.yaml(lf)
    if loader.reported(lf):
        return raw, None
    return raw, validate(S.LeagueFile, raw, rel, loader.diags, "league.yaml")


def check_urls(loader: Loader, lmodel: S.LeagueFile, raw: MDict) -> None:
    """base_url and repository end up in href attributes: only http(s) addresses (base_url may also be a
    path such as /liga/), never javascript:, data: or anything a browser would run."""
    for key, allow_path in (("base_url", True), ("repository", False)):
        value = getattr(lmodel, key)
        if value is not None and not _safe_url(value, allow_path):
            from league.content.validate import describe
            loader.diags.error(raw.vmark(key), f"{key} inválido: recebido {describe(value)}; esperado um endereço "
                               "http:// ou https://" + (" ou um caminho começando com /" if allow_path else ""),
                               "ex.: https://www.federacao.org.br/" if allow_path else
                               "ex.: https://github.com/federacao/site", code="url")


def _safe_url(value: str, allow_path: bool) -> bool:
    from urllib.parse import urlparse
    url = urlparse(value)
    ok = (url.scheme in ("http", "https") and bool(url.netloc)) or \
        (allow_path and value.startswith("/") and not value.startswith("//"))
    return ok and not any(ch.isspace() or ord(ch) < 32 or ch in "<>\"'`" for ch in value)


def truco_config(loader: Loader, base: S.TrucoSettings, over: Optional[S.TrucoOverrides], raw, rel) -> TrucoConfig:
    """The Truco settings: league.yaml's (`base`) with a season.yaml's overrides (`over`), checked."""
    data = _merged(base, over)
    wo = _walkover_games(loader, data, raw, rel)
    _check_truco(loader, data, wo, rel)
    return TrucoConfig(
        boards=data["boards"], games_to_win=data["games_to_win"], game_points=data["game_points"],
        walkover_games=tuple(wo) or ((12, 0), (12, 0)), team_tiebreaks=tuple(data["team_tiebreaks"]),
        pair_tiebreaks=tuple(data["pair_tiebreaks"]), ranking_points=tuple(data["ranking_points"]),
    )


def _walkover_games(loader: Loader, data: dict, raw, rel: str) -> list:
    """truco.walkover_games, each game parsed and checked."""
    wo = []
    for i, text in enumerate(data["walkover_games"]):
        game = parse_game(text.strip())   # "12-0", "12x0", "12×0"
        err = game_error(*game, TrucoConfig(game_points=data["game_points"])) \
            if game else "escreva como \"12-0\" ou \"12x0\""
        if err:
            loader.diags.error(_walkover_mark(raw, i, rel),
                               f"truco.walkover_games: placar \"{text}\" inválido: {err}")
        else:
            wo.append(game)
    return wo


def _check_truco(loader: Loader, data: dict, wo: list, rel: str) -> None:
    """As many walkover games as win a board, an odd number of boards (item 9.1), no tiebreak twice."""
    if len(wo) != data["games_to_win"] and not any(d.message.startswith("truco.walkover_games")
                                                   for d in loader.diags.items):
        loader.diags.error(SourceMark(rel, 1, 1), f"truco.walkover_games deve ter {data['games_to_win']} partidas "
                           f"(recebido {len(wo)})")
    if data["boards"] % 2 == 0:
        loader.diags.error(SourceMark(rel, 1, 1), f"truco.boards deve ser ímpar (recebido {data['boards']})",
                           "com número par de jogos um confronto pode empatar; o item 9.1 usa 5")
    for key in ("team_tiebreaks", "pair_tiebreaks"):
        if len(set(data[key])) != len(data[key]):
            loader.diags.error(SourceMark(rel, 1, 1), f"truco.{key} repete um critério: {data[key]}")


def quatrilho_config(base: S.QuatrilhoSettings, over) -> QuatrilhoConfig:
    data = _merged(base, over)
    data["tiebreaks"] = tuple(data["tiebreaks"])
    return QuatrilhoConfig(**data)


def _merged(base, over) -> dict:
    """The settings of league.yaml (`base`) with the ones a season.yaml writes (`over`, or None)."""
    data = base.model_dump()
    if over is not None:
        data.update({k: v for k, v in over.model_dump().items() if v is not None})
    return data


def season_settings(loader: Loader, league: League, sdir: Path) -> tuple:
    """A season folder's season.yaml, read and validated: (title, Truco settings, Quatrilho settings, path, the
    stages it plans and where it says so)."""
    sfile = sdir / "season.yaml"
    exists = sfile.exists()
    raw, smodel = _season_file(loader, sfile) if exists else (None, None)
    truco = league.truco
    quat = league.quatrilho
    if smodel and smodel.truco:
        base = S.TrucoSettings(**_truco_dump(league.truco))
        truco = truco_config(loader, base, smodel.truco, raw, loader.rel(sfile))
    if smodel and smodel.quatrilho:
        quat = quatrilho_config(S.QuatrilhoSettings(**{**league.quatrilho.__dict__,
                                                       "tiebreaks": list(league.quatrilho.tiebreaks)}),
                                smodel.quatrilho)
    title = smodel.title if smodel and smodel.title else _season_title(league, sdir.name)
    return (title, truco, quat, loader.rel(sfile) if exists else None,
            *_planned_stages(smodel, raw, loader.rel(sfile)))


def _planned_stages(smodel, raw, rel: str) -> tuple:
    """season.yaml's `stages:` (Truco 1: six stages) and where it is written; (None, None) without it."""
    planned = smodel.stages if smodel else None
    return planned, (mark_of(raw, "stages", SourceMark(rel, 1, 1)) if planned else None)


def _season_file(loader: Loader, sfile: Path) -> tuple:
    """(season.yaml as read, its validated model or None); an empty file is a season with no settings."""
    raw = loader.yaml(sfile)
    if raw is None:
        return raw, S.SeasonFile()
    return raw, validate(S.SeasonFile, raw, loader.rel(sfile), loader.diags, "season.yaml")


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


# ------------------------------------------------------------------ the cache key
def settings_key(loader: Loader) -> Optional[str]:
    """Cache key of what league.yaml and the season.yaml files make (league_settings, season_settings): their
    bytes, which season folders there are, and league's code. None without a cache, or when one of those
    files is not a regular, readable file (the load reports it)."""
    if loader.cache is None:
        return None
    from league.engine.cache import code_version, digest
    loader.settings_files = []   # (a second call makes the same list, not a doubled one)
    lf = loader.content / "league.yaml"
    parts = ["settings", code_version(), loader.rel(lf), _keyed_sha(loader, lf) if lf.is_file() else None]
    if parts[-1] is None:
        return None
    seasons = _season_parts(loader)
    if seasons is None:
        return None
    return digest(*parts, *seasons)


def _season_parts(loader: Loader) -> Optional[list]:
    """Each season folder's name and its season.yaml's sha256 (None: no such file); None when a season.yaml
    is not a regular, readable file."""
    parts: list = []
    root = loader.content / "seasons"
    if not root.is_dir():
        return parts
    for sdir in sorted(p for p in root.iterdir() if p.is_dir()):
        sfile = sdir / "season.yaml"
        got = None
        if sfile.exists():
            got = _keyed_sha(loader, sfile) if sfile.is_file() else None
            if got is None:
                return None
        parts += [sdir.name, got]
    return parts


def _keyed_sha(loader: Loader, path: Path) -> Optional[str]:
    """The sha256 of a file's bytes (the build's, or read now), recorded as what they must still be when the
    file is read (settings_fresh); None when it cannot be read."""
    import hashlib
    if loader.blocked(path):
        return None
    rel = loader.rel(path)
    got = loader.digests.get(rel) if loader.digests is not None else None
    if got is None or got.startswith("?"):
        try:
            got = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            return None
    loader.keyed[rel] = got
    loader.settings_files.append(rel)
    return got


def settings_fresh(loader: Loader) -> bool:
    """Whether league.yaml and every season.yaml were read from the bytes their cache key was made of (one
    edited meanwhile is used as read, but not cached under that key)."""
    return all(loader.read.get(rel) == loader.keyed.get(rel) for rel in loader.settings_files)
