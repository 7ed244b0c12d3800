"""`league sumulas SEASON STAGE`: the scoresheets (súmulas) of a stage day, one A4 page per match still to be
played, in a standalone HTML file to print (league.site.sumulas); nothing written when every match has its
result. `--match HOME:AWAY` prints the sheets of the matches named instead (a knockout's, known only once the
round before it is played)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import click

from league.content.diagnostics import LeagueError, did_you_mean


class KitError(Exception):
    """The stage file has errors: the sheets could not follow it (exit status 1)."""


def _choices(found: list[str], what: str, where: Path) -> str:
    return f"{what}: {', '.join(found)}" if found else f"nenhum(a) {what} em {where}"


def stage_file(content: Path, season: str, stage: str) -> Path:
    """The file of the Truco stage SEASON/STAGE; a usage error (exit 2) naming the closest ones otherwise."""
    if not (content / "league.yaml").is_file():
        raise click.UsageError(f"{content}/league.yaml não encontrado: rode o comando na raiz do projeto ou use "
                               "--content PASTA")
    _check_season(content / "seasons", season)
    folder = content / "seasons" / season / "truco"
    found = [folder / f"{stage}{suffix}" for suffix in (".yaml", ".yml") if (folder / f"{stage}{suffix}").is_file()]
    if found:
        return found[0]
    stages = sorted(p.stem for p in folder.glob("*.y*ml")) if folder.is_dir() else []
    hint = did_you_mean(stage, stages) or _choices(stages, f"etapas de {season}", folder)
    raise click.BadParameter(f"etapa \"{stage}\" não encontrada em {folder}/; {hint}", param_hint="STAGE")


def _check_season(seasons: Path, season: str) -> None:
    known = sorted(p.name for p in seasons.iterdir() if p.is_dir()) if seasons.is_dir() else []
    if season not in known:
        hint = did_you_mean(season, known) or _choices(known, "temporadas", seasons)
        raise click.BadParameter(f"temporada \"{season}\" não encontrada em {seasons}/; {hint}", param_hint="SEASON")


def load_stage(content: Path, path: Path):
    """(league, stage) as the build reads them; KitError listing the stage file's errors, if any."""
    from league.engine.loader import Loader
    loader = Loader(content)
    try:
        league = loader.load()
    except LeagueError as exc:
        raise KitError(_listed(exc.diagnostics))
    rel = loader.rel(path)
    errors = [d for d in loader.diags.errors if d.mark.path == rel]
    stage = next((s for season in league.seasons for s in season.stages if s.path == rel), None)
    if errors or stage is None:
        raise KitError(_listed(errors) + "\ncorrija o arquivo da etapa (league check) antes de imprimir as súmulas")
    return league, stage


def _listed(diags) -> str:
    return "\n".join(d.format_text() for d in diags)


def target(out: Optional[Path], season: str, stage: str) -> Path:
    """--out: a file, or a folder (existing, or written with a trailing /) for sumulas-<season>-<stage>.html."""
    name = f"sumulas-{season}-{stage}.html"
    if out is None:
        return Path(name)
    if out.is_dir() or str(out).endswith(("/", "\\")):
        return out / name
    return out


def nothing_pending(stage) -> str:
    """Why no sheet is written."""
    if stage.is_final:
        return f"etapa \"{stage.name}\" encerrada (status: final): todos os confrontos têm resultado"
    if not any(ph.groups for ph in stage.phases):
        return (f"etapa \"{stage.name}\" ainda sem grupos no arquivo: escreva as fases e os grupos (phases:) "
                "para imprimir as súmulas dos confrontos")
    return f"etapa \"{stage.name}\": todos os confrontos dos grupos já têm resultado no arquivo"


def named(stage, values: tuple) -> list:
    """The matches given with --match HOME:AWAY, each a Pending (league.games.truco.schedule.named_match); a usage
    error naming the closest team ids of the stage otherwise."""
    from league.games.truco.schedule import named_match
    out = []
    for value in values:
        teams = [t.strip() for t in value.replace("×", ":").split(":")]
        if len(teams) != 2 or teams[0] == teams[1]:
            raise click.BadParameter(f"\"{value}\": escreva as duas equipes do confronto, a da casa primeiro, como "
                                     "CASA:VISITANTE (ex.: aptru:serapio)", param_hint="--match")
        for team in teams:
            if team not in stage.teams:
                hint = did_you_mean(team, stage.teams) or f"equipes da etapa: {', '.join(stage.teams)}"
                raise click.BadParameter(f"equipe \"{team}\" não está em teams: da etapa; {hint}",
                                         param_hint="--match")
        out.append(named_match(stage, *teams))
    return out


def _listed_match(stage, i: int, p) -> str:
    where = f"{p.group.name}, {p.round}ª rodada" if p.group else "mata-mata"
    return f"  {i}. {where}: {stage.teams[p.home].name} × {stage.teams[p.away].name}"


@click.command("sumulas")
@click.argument("season")
@click.argument("stage", metavar="STAGE")
@click.option("--content", default="content", type=click.Path(file_okay=False, path_type=Path), show_default=True,
              help="Pasta de conteúdo.")
@click.option("--out", "out", default=None, type=click.Path(path_type=Path),
              help="Arquivo ou pasta de saída (padrão: sumulas-SEASON-STAGE.html na pasta atual).")
@click.option("--match", "matches", multiple=True, metavar="CASA:VISITANTE",
              help="Só este confronto (repita para vários), ex.: um do mata-mata, que o arquivo ainda não tem como "
                   "saber.")
def sumulas(season: str, stage: str, content: Path, out: Optional[Path], matches: tuple) -> None:
    """Súmulas para imprimir (A4, uma por página) dos confrontos da etapa ainda sem resultado."""
    from league.games.truco.schedule import pending_matches
    from league.site.sumulas import render_sumulas
    path = stage_file(content, season, stage)
    try:
        league, st = load_stage(content, path)
    except KitError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    pending = named(st, matches) if matches else pending_matches(st)
    if not pending:
        click.echo(f"{nothing_pending(st)}; nenhuma súmula escrita.", err=True)
        return
    dest = target(out, season, stage)
    html = render_sumulas(league, st, pending)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(html, encoding="utf-8")
    click.echo(f"etapa \"{st.name}\": {len(pending)} súmula(s) em {dest}; abra no navegador e imprima em A4, "
               "uma por página.", err=True)
    for i, p in enumerate(pending, start=1):
        click.echo(_listed_match(st, i, p), err=True)
